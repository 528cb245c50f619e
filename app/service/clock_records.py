"""The clock subscriber (docs/reactions.md): follows each game's clock after every write, the side whose clock runs
since when and each side's time bank (app/service/clocks.py), and tells the seats of the clock's events."""
from __future__ import annotations

import json
from collections.abc import Callable

from app.events.envelope import StoredEvent
from app.events.interface import Store
from app.events.store import utc_parse
from app.projections import state as projection
from app.rules.base import Catalog
from app.service.clocks import Settings, spent
from app.service.mailroom import Mailroom
from app.service.seats import ARBITER, members


class ClockRecords:
    """Follows each game's clock: whose clock runs since when and each side's time bank (pbem_games.clock_state,
    for a game on a time bank), and tells the seats of the clock's events: a draw offered or declined, a
    vacation taken (a resignation or an agreed draw ends the game: the turn subscriber's game-over email)."""

    name = "clocks"

    def __init__(self, store: Store, catalog: Catalog, mailroom: Mailroom,
                 boundaries: Callable[[list[StoredEvent]], list[StoredEvent]],
                 answered: Callable[[list[StoredEvent]], set[int]]):
        self.store = store
        self.catalog = catalog
        self.mailroom = mailroom
        self.boundaries = boundaries
        self.answered = answered

    def react(self, game_id: str, events: list[StoredEvent]) -> None:
        row = self.store.pbem_settings(game_id)
        if row is None:
            return
        self._tell(game_id, events)
        settings = Settings.of(row)
        if settings.bank and row["clock_state"]:
            self._account(game_id, settings, json.loads(row["clock_state"]), events)

    def _account(self, game_id: str, settings: Settings, record: dict, events: list[StoredEvent]) -> None:
        """At each position a write left, the side to act (a player's, else nobody's clock): when it changes, the
        side whose turn ended has its time spent taken from its bank and the increment added."""
        answered = self.answered(events)
        changed = False
        for event in self.boundaries(events):
            if event.seq in answered:
                continue
            state = projection.load(self.store, self.catalog, game_id, event.seq)
            rules = self.catalog.rules(state.meta.rules)
            side = None
            if rules.outcome(state.game) is None and all(s in state.meta.players for s in state.meta.sides):
                side = rules.prompt(state.game).side
                side = None if side in state.meta.automated else side
            if side == record["side"]:
                continue
            at = utc_parse(event.at)
            if record["side"] is not None:
                used = spent(state.meta, record["side"], utc_parse(record["since"]), at).total_seconds()
                bank = record["left"][record["side"]] - used + settings.increment_hours * 3600
                ceiling = settings.max_hours * 3600 if settings.max_hours else None
                record["left"][record["side"]] = min(bank, ceiling) if ceiling else bank
            record.update(side=side, since=event.at if side else None, reminded=0, expired=0)
            changed = True
        if changed:
            self.store.update_pbem_game(game_id, {"clock_state": json.dumps(record, sort_keys=True)})

    def _tell(self, game_id: str, events: list[StoredEvent]) -> None:
        told = [e for e in events if e.type in ("core.DrawOffered", "core.DrawAnswered", "core.VacationTaken")]
        if not told:
            return
        seats = members(self.store, game_id)
        for e in told:
            p = e.payload
            if e.type == "core.DrawOffered":
                to, subject = [s for s in seats if s not in (p["side"], ARBITER)], f"{p['side']} offers a draw"
                text = (f"{p['side']} offers a draw in game {game_id} (event {e.seq}). Reply 'accept draw' to end the "
                        "game in a draw, or 'decline draw' to play on.")
            elif e.type == "core.DrawAnswered":
                if p["accepted"]:
                    continue  # the game is over: the turn subscriber's game-over email tells everyone
                to, subject = [s for s in seats if s not in (p["side"], ARBITER)], f"{p['side']} declines the draw"
                text = f"{p['side']} declines the draw offered in game {game_id}; the game goes on."
            else:
                to, subject = [s for s in seats if s != p["side"]], f"{p['side']} is on vacation"
                text = (f"{p['side']} takes a vacation in game {game_id} from {p['start']} to {p['until']} (UTC): "
                        "their clock does not run meanwhile.")
            for seat in to:
                self.mailroom.message(seats[seat]["email"], game_id, subject, text, seat)
