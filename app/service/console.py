"""The operator's console: what the command line (app/cli.py) asks of the service, on one database. The operator
holds the database itself, so sees every side (no seats, no tokens); an answer for one side goes through the
rule set's `view` and the one visibility rule (`app.projections.sight.sees_all`), as every channel's does.
The console keeps its store to itself: the command line holds no store handle."""
from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from app.events import backends, dice
from app.events.interface import Store
from app.projections import history, replay, textmap
from app.projections import state as projection
from app.rules import legal
from app.rules.base import Catalog, optional
from app.service import autoplay, games
from app.service.ports import Mail
from app.service.seats import ARBITER, Credentials, Seat, fork_seats
from app.settings import Settings

if TYPE_CHECKING:
    from app.service.audit import AuditReport

# A command imports what only it needs when it runs (the audit, export files, custom setups, pictures, the
# analysis, the demo): `python cli.py show` loads no picture, audit or analysis code (issue 15).
ALL = replay.ALL


class Console:
    """The service on the database the settings name (`settings.db`; a location alone: the default settings on
    it), opened on first use, running the rule sets of `catalog`."""

    def __init__(self, settings: Settings | str, catalog: Catalog):
        self.settings = settings if isinstance(settings, Settings) else Settings(db=settings)
        self.catalog = catalog
        self._opened: Store | None = None

    @property
    def _store(self) -> Store:
        if self._opened is None:
            s = self.settings
            if s.fsync is not None:
                backends.sync_to_disk(s.fsync)
            self._opened = backends.open_store(s.db, busy_timeout=s.busy_timeout, snapshot_every=s.snapshot_every)
        return self._opened

    @property
    def shown(self) -> str:
        """The database's location for banners: a PostgreSQL URL without its password."""
        return backends.shown(self.settings.db)

    def create(self, rules: str, scenario: str | None, map_file: str | None, position_file: str | None,
               auto: list[str] | None, optional: list[str] | None = None) -> dict:
        """A new game, its custom map and position files (if given) and the optional rules chosen stored in its
        first event."""
        from app.rules import custom_setup

        try:
            options = custom_setup.read_files(map_file, position_file)
        except custom_setup.SetupError as exc:
            raise games.GameError(str(exc)) from None
        if optional:
            options["optional"] = list(optional)
        game_id = games.create_game(self._store, self.catalog, rules, scenario, options, auto=auto)
        return {"game_id": game_id, "automated": projection.load(self._store, self.catalog, game_id).meta.automated}

    def join(self, game_id: str, side: str, name: str, seed_text: str) -> dict:
        event = games.join(self._store, self.catalog, game_id, side, name, seed_text)
        return {"seq": event.seq, "seed_text": event.payload["seed_text"], "automated": self.automated(game_id)}

    def automated(self, game_id: str) -> list[dict]:
        """The automated seats' orders given now (app/service/autoplay.py), as history lines."""
        followed = autoplay.play(self._store, self.catalog, game_id)
        if not followed:
            return []
        rules = self.catalog.rules(followed[-1].state.meta.rules)
        return history.lines(rules, [e for a in followed for e in a.events])

    def games(self) -> list[dict]:
        return games.listed(self._store)

    def summary(self, game_id: str) -> dict:
        state = projection.load(self._store, self.catalog, game_id)
        rules = self.catalog.rules(state.meta.rules)
        prompt = rules.prompt(state.game)
        outcome = rules.outcome(state.game)
        return {"game_id": game_id, "rules": state.meta.rules, "scenario": state.meta.scenario,
                "seq": state.meta.seq, "players": state.meta.players, "parent": state.meta.parent,
                "to_act": prompt.side, "step": prompt.step,
                "actions": [{"name": a.name, "syntax": a.syntax, "case": a.case} for a in prompt.actions],
                "owed": prompt.owed.to_dict() if prompt.owed is not None else None,
                "kinds": legal.by_kind(rules, state.game, prompt.side) if prompt.side else [],
                "outcome": {"winner": outcome.winner, "reason": outcome.reason} if outcome else None,
                "dice_seed_revealed": state.meta.revealed_seed is not None}

    def log(self, game_id: str, from_seq: int = 1) -> list[dict]:
        rules = self.catalog.rules(self._store.game(game_id)["rules"])
        return history.lines(rules, list(self._store.events(game_id, from_seq)))

    def order(self, game_id: str, side: str, text: str, expected_seq: int | None = None) -> dict:
        accepted = games.submit(self._store, self.catalog, game_id, side, text, expected_seq)
        rows = history.lines(self.catalog.rules(accepted.state.meta.rules), accepted.events)
        return {"accepted": True, "events": rows, "automated": self.automated(game_id)}

    def standing(self, game_id: str, side: str, lines: list[str]) -> dict:
        """`side`'s standing orders (app/service/standing.py): set from `standing`-less lines `KIND: CLAUSES`, or
        shown with none; then the server answers with them if the step they stand for is asked now."""
        from app.service import standing

        if lines:
            standing.set_orders(self._store, self.catalog, game_id, side,
                                standing.read_lines(f"standing {line}" for line in lines))
            automated = self.automated(game_id)
        else:
            automated = []
        state = projection.load(self._store, self.catalog, game_id)
        self._check_side(state, side)
        return {**standing.described(self.catalog.rules(state.meta.rules), state, side), "automated": automated}

    def resign(self, game_id: str, side: str) -> dict:
        """`side` resigns (app/service/clocks.py): the other side wins, the dice seed is revealed."""
        from app.service import clocks

        with self._store.transaction():
            return clocks.resign(self._store, self.catalog, game_id, side)

    def draw(self, game_id: str, side: str, action: str) -> dict:
        """`side` offers a draw, or accepts or declines the other side's (app/service/clocks.py)."""
        from app.service import clocks

        with self._store.transaction():
            return clocks.draw(self._store, self.catalog, game_id, side, action)

    def say(self, game_id: str, seat: str, text: str, to: str = "all") -> dict:
        """Table talk written as `seat` (a side, or the arbiter) to `to`, each line of `text` a line of it
        (app/service/talk.py)."""
        from app.service import talk

        if seat not in (*projection.load(self._store, self.catalog, game_id).meta.sides, ARBITER):
            raise games.GameError(f"there is no seat {seat!r} in {game_id}")
        return talk.said(self._store, self._receipts(), Seat(game_id, seat, ""), text.splitlines(), to)

    def preview(self, game_id: str, side: str, text: str) -> dict:
        """What the order would do (games.preview, as the API's: refused as the order would be now, or a planning
        preview out of turn); writes nothing."""
        state = projection.load(self._store, self.catalog, game_id)
        return games.preview(self.catalog.rules(state.meta.rules), state, side, text)

    def view(self, game_id: str, at_seq: int | None = None, side: str | None = None) -> dict:
        state = projection.load(self._store, self.catalog, game_id, at_seq)
        self._check_side(state, side)
        return {"seq": state.meta.seq, **self.catalog.rules(state.meta.rules).view(state.game, side)}

    def position(self, game_id: str, at_seq: int | None = None, side: str | None = None) -> str:
        """The position as a person reads it, as the turn email lays it out (app/projections/textmap.py): whose view
        it is, every stack by hex with its terrain, place and control, the units off the map, then the view's
        records in aligned tables. Once the game is over everyone sees everything, at any event, as `render` shows
        it."""
        final = projection.load(self._store, self.catalog, game_id)
        state = final if at_seq is None else projection.load(self._store, self.catalog, game_id, at_seq)
        self._check_side(state, side)
        rules = self.catalog.rules(state.meta.rules)
        viewer = replay.effective_viewer(rules, final, side or ALL)
        view = {"seq": state.meta.seq, **rules.view(state.game, None if viewer == ALL else viewer)}
        over = rules.outcome(final.game) is not None
        lines = [f"{game_id} after event {state.meta.seq}, {replay.whose_view(viewer, over)}"]
        game_map = optional(rules, "game_map")
        if game_map is not None and view.get("units") is not None:
            lines += ["", "Map", textmap.render_board(game_map(state.game), view), "", "The position"]
        lines.append(textmap.render_view({k: v for k, v in view.items() if k != "stacks"}))
        return "\n".join(lines)

    @staticmethod
    def as_text(record: dict) -> str:
        """A view or other record as text: scalars as `key: value`, lists of records as aligned tables."""
        return textmap.render_view(record)

    @staticmethod
    def _check_side(state: projection.GameState, side: str | None) -> None:
        if side is not None and side not in state.meta.sides:
            raise games.GameError(f"no side {side!r}; sides: {', '.join(state.meta.sides)}")

    def render(self, game_id: str, at_seq: int | None = None, side: str | None = None) -> tuple[str, int, str]:
        """(SVG, the event drawn after, whose view it is, in words: `side`'s sight, or everything (None: the
        referee's; the game over: everyone's))."""
        from app.projections import render

        rules = self.catalog.rules(self._store.game(game_id)["rules"])
        final = projection.load(self._store, self.catalog, game_id)
        state = final if at_seq is None else projection.load(self._store, self.catalog, game_id, at_seq)
        self._check_side(state, side)
        viewer = replay.effective_viewer(rules, final, side or ALL)
        svg = render.render_state(rules, state, viewer)
        if svg is None:
            raise games.GameError(f"the {rules.name} rules draw no map (they lack game_map)")
        return svg, state.meta.seq, replay.whose_view(viewer, rules.outcome(final.game) is not None)

    def analyse(self, game_id: str, side: str | None = None) -> dict:
        """The analysis (app/projections/analysis.py) of what `side` has seen (None: the referee), with `view`:
        whose view it is, in words."""
        from app.projections import analysis

        try:
            result = analysis.analyse(replay.build(self._store, self.catalog, game_id, side or ALL))
        except ValueError as exc:
            raise games.GameError(str(exc)) from None
        return {**result, "view": replay.whose_view(result["viewer"], result["over"])}

    @staticmethod
    def charts(result: dict) -> dict[str, str]:
        from app.projections import analysis

        return analysis.charts(result)

    @staticmethod
    def chart_index(result: dict) -> list[dict]:
        from app.projections import analysis

        return analysis.chart_index(result)

    def chances(self, game_id: str, side: str | None = None, **run) -> dict:
        """Each side's chance of victory after every Game-Turn and the turning points (app/projections/chances.py;
        `run`: playouts, policy, progress, cancelled, workers). A finished game or a fork of one: anyone; a running
        game: only its arbiter (here the referee, without `side`)."""
        from app.projections import chances

        built = replay.build(self._store, self.catalog, game_id, ALL)
        if not built.over and side is not None:
            raise games.GameError(f"game {game_id} is running: only its arbiter may ask for the chances of victory")
        try:
            return chances.forecast(built, **run)
        except ValueError as exc:
            raise games.GameError(str(exc)) from None

    # -- analysis boards (app/service/boards.py) ------------------------------------------------------------
    def open_board(self, game_id: str, at_seq: int | None = None) -> str:
        from app.service import boards

        return boards.open_board(self._store, self.catalog, game_id, at_seq)

    def board_order(self, board_id: str, side: str, text: str, chosen: list[int] | None = None) -> list[dict]:
        from app.service import boards

        stored = boards.order(self._store, self.catalog, board_id, side, text, chosen)
        return boards.rows(self._store, self.catalog, board_id, stored)

    def board_edit(self, board_id: str, unit: str, changes: dict) -> list[dict]:
        from app.service import boards

        stored = boards.edit(self._store, self.catalog, board_id, unit, changes)
        return boards.rows(self._store, self.catalog, board_id, stored)

    def board_play(self, board_id: str, side: str, policy: str, orders: int) -> list[str]:
        from app.service import boards

        return boards.play(self._store, self.catalog, board_id, side, policy, orders)

    def fork(self, game_id: str, at_seq: int, invite: bool = True) -> dict:
        """A branch after event `at_seq`. A game played by email goes on with its players: the fork's seats keep
        their addresses and settings and are invited, as the arbiter's fork over the API does (the invitations
        are reactions: they go at the next sender round, `outbox --send` or `tick`); `invite` False keeps the fork
        the operator's own (no seats, nobody told)."""
        with self._store.transaction():
            new_id = games.fork(self._store, game_id, at_seq)
            invited = invite and self._store.pbem_settings(game_id) is not None
            if invited:
                fork_seats(self._store, self.catalog, game_id, new_id)
        return {"game_id": new_id, "parent": game_id, "at": at_seq, "invited": invited}

    def reveal(self, game_id: str, reason: str) -> dict:
        event = games.reveal_seed(self._store, self.catalog, game_id, reason)
        return {"seq": event.seq, "seed": event.payload["seed"]}

    def verify(self, game: str, check_dice: bool = False, seed: str | None = None) -> AuditReport:
        """Audit a game of this database, or an exported .jsonl file named `game`; `seed`: one the caller was
        given (arbiter), for rolls not yet revealed in the stream."""
        from app.service import audit, transfer

        return audit.verify(self.catalog, self._events(game), check_dice=check_dice,
                            seeds={dice.commitment(seed): seed} if seed else None,
                            parents=transfer.parents_in(self._store))

    def _events(self, game: str) -> list:
        """The events of an exported .jsonl file named `game`, or of the game `game` of this database."""
        from app.service import transfer

        if Path(game).is_file():
            with open(game, encoding="utf-8") as fh:
                return transfer.parse_lines(fh)
        self._store.game(game)
        return list(self._store.events(game))

    def check_receipts(self, game: str, sources: list[str], keys: list[str]):
        """The receipts players kept (`sources`: folders or mboxes, one player's or both's) against a game's chain,
        an export file or a game of this database, as `verify` reads it (app/service/evidence.py)."""
        from app.service import evidence

        if evidence.is_view(game):  # a player's own export during play: what they were shown, and its hashes
            return evidence.check_view(game, evidence.gather(*sources), keys)
        return evidence.check_export(self._events(game), evidence.gather(*sources), keys)

    def is_player_view(self, game: str) -> bool:
        """Is `game` a player's own export file before the game's end (which the audit cannot re-run)?"""
        from app.service import evidence

        return evidence.is_view(game)

    def _receipts(self):
        """The receipts of this database's server, signed with the settings' key (app/service/receipts.py)."""
        from app.service.receipts import Receipts

        return Receipts(self._store, self.catalog, self.settings.receipt_key, self.settings.receipt_retired)

    def receipt_keys(self) -> dict:
        """The receipt keys of this database's server (app/service/receipts.py)."""
        return self._receipts().published()

    def export(self, game_id: str) -> list[str]:
        from app.service import transfer

        return list(transfer.export_lines(self._store, game_id))

    def import_game(self, lines: Iterable[str]) -> str:
        from app.service import transfer

        return transfer.import_game(self._store, self.catalog, lines)

    def demo(self, rules: str) -> tuple[str, list[str]]:
        from app.service.demo import play_demo

        return play_demo(self._store, self.catalog, rules)

    def open_link(self, config: Mail, game_id: str, side: str | None = None, server: str | None = None) -> str:
        """The database owner's link to the game's replay viewer, as `side` or the referee
        (Credentials.owner_link)."""
        return Credentials(self._store, self.catalog, config, self.settings.secret).owner_link(game_id, side, server)

    def whose_view(self, game_id: str, side: str | None = None) -> str:
        """Whose view the game's viewer opened as `side` (None: the referee) shows, in words, as the replay page
        names it (app/service/replays.py `whose_view`)."""
        final = projection.load(self._store, self.catalog, game_id)
        return replay.whose_view(side, self.catalog.rules(final.meta.rules).outcome(final.game) is not None)
