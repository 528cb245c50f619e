"""Move deadlines and `tick` (cron): the automated seats' catch-up, the reactions' catch-up, reminders before a
deadline, what happens when one passes, and the outbox's due mail.

A passed deadline is an event (core.DeadlinePassed), appended with the end/pass orders the server gives for the
late side (auto-pass) and the deadline's mark in one transaction: `tick` killed at any step either wrote all of it
or nothing, and the next run does what is left. Who is told is the deadline subscriber's (a reaction). A reminder
changes nothing in the game, so it is no event (one would move the game's head under the player it reminds, whose
`seq:` and expected_seq were written against their turn email): `tick` queues it with its mark (`reminded`) in
one transaction, the one notice caused by the clock rather than by the stream."""
from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta

from app.events import core
from app.events.interface import Store
from app.events.store import Conflict, utc_parse
from app.projections import state as projection
from app.rules.base import Catalog
from app.service import autoplay, clocks, games
from app.service.mailroom import Mailroom
from app.service.notices import DEADLINE_ACTOR
from app.service.reactions import Reactor
from app.service.seats import members
from app.service.writes import Writes

LOG = logging.getLogger("hexledger.service")
PASS_ACTIONS = ("end", "pass")
PASS_LIMIT = 20  # end/pass steps the server gives for a late side at most (more than any game's turn has)


class Deadlines:
    """What `tick` does, on one store; `clock`: now."""

    def __init__(self, store: Store, catalog: Catalog, writes: Writes, clock: Callable[[], datetime], reactor: Reactor,
                 mailroom: Mailroom):
        self.store = store
        self.catalog = catalog
        self.writes = writes
        self.clock = clock
        self.reactor = reactor
        self.mailroom = mailroom

    def tick(self) -> list[str]:
        """Reminders before a move deadline, the configured action when it passes, and the outbox's mail that is
        due (retries included). Run it from cron, often (every few minutes), on a host whose clock is right: a run
        that finds the clock moved by more than a game's deadline since the last run (a clock jump, or the server
        down that long) does not auto-pass for anyone in that game; it logs it and leaves it to the arbiter."""
        now = self.clock()
        last = self.store.swap_clock("tick", now.isoformat())
        moved = now - utc_parse(last) if last else None
        done = []
        for g in self.store.pbem_games():
            with self.writes.group():
                # a turn the limit or a refused write left
                caught_up = autoplay.play(self.store, self.catalog, g["game_id"])
                if caught_up:
                    self.writes.wrote(g["game_id"])
                    done.append(f"{g['game_id']}: the automated seats caught up, {len(caught_up)} order(s)")
        self.reactor.catch_up()  # whose turn it is, as the stream says, before any deadline is judged
        for g in self.store.pbem_games(on_clock_only=True):
            clock = clocks.running(self.store, self.catalog, g)
            if clock is None:
                continue
            due = clock.due
            if not clock.reminded and g["reminder_hours"] and due - timedelta(hours=g["reminder_hours"]) <= now < due:
                if self._remind(g, clock):
                    done.append(f"{g['game_id']}: reminded {clock.side}")
            if not clock.expired and now >= due:
                jumped = moved is not None and not timedelta(0) <= moved <= clock.span
                passed = self._pass(g, clock, jumped, moved)
                if passed is not None:
                    done.append(f"{g['game_id']}: deadline passed for {clock.side}"
                                + (f", passed: {' '.join(passed)}" if passed else ""))
        self.reactor.catch_up()
        sent = self.mailroom.deliver()
        if sent.sent or sent.failed or sent.superseded or sent.pruned:
            done.append(f"outbox: {sent.sent} email(s) sent, {len(sent.failed)} failed (kept for a retry)"
                        + (f", {sent.superseded} turn email(s) superseded by newer ones" if sent.superseded else "")
                        + (f", {sent.pruned} superseded row(s) past their keeping deleted" if sent.pruned else ""))
        return done

    def _current(self, g: dict, clock: clocks.Running) -> clocks.Running | None:
        """The game's clock as it stands inside the caller's transaction, if it is still `clock`'s turn (another
        process may have moved or reminded since the list was read)."""
        now = self.store.pbem_settings(g["game_id"])
        current = clocks.running(self.store, self.catalog, now) if now is not None else None
        same = current is not None and (current.side, current.since) == (clock.side, clock.since)
        return current if same else None

    def _remind(self, g: dict, clock: clocks.Running) -> bool:
        """The reminder and its mark, one transaction."""
        player = members(self.store, g["game_id"]).get(clock.side)
        if player is None:
            return False
        with self.writes():
            current = self._current(g, clock)
            if current is None or current.reminded:
                return False
            self.mailroom.message(player["email"], g["game_id"], "Reminder: your move is due",
                                  f"Your move in game {g['game_id']} is due by "
                                  f"{current.due.isoformat(timespec='minutes')} ("
                                  + (f"{g['deadline_hours']:g} hours from the start of your turn"
                                     if g["deadline_hours"] is not None else "when your time bank runs out")
                                  + f"; then: {g['on_deadline']}).", clock.side)
            clocks.mark(self.store, g["game_id"], "reminded")
        return True

    def _pass(self, g: dict, clock: clocks.Running, jumped: bool, moved: timedelta | None) -> list[str] | None:
        """The deadline's record (core.DeadlinePassed), what the game's rule on timeout gives (auto-pass: the
        end/pass orders; forfeit: the late side's concession and the seed's reveal) and the deadline's mark, one
        write; then an automated opponent's answer. None: the turn moved on meanwhile (nothing due)."""
        game_id, side = g["game_id"], clock.side
        acts = g["on_deadline"] in ("auto-pass", "forfeit")
        if jumped and acts:
            LOG.warning("game %s: no %s for %s: the clock moved %s since the last tick, more than the %s deadline; "
                        "over to the arbiter", game_id, g["on_deadline"], side, moved, clock.span)
        note = (f"{g['on_deadline']} withheld: the server's clock moved {moved} since its last deadline check, more "
                "than the deadline (a clock jump, or the server was down): over to the arbiter") if jumped and acts \
            else ""
        try:
            return self._record(g, clock, note, acts and not jumped)
        except Conflict:
            return None  # the late side moved at the last moment: nothing is due

    def _record(self, g: dict, clock: clocks.Running, note: str, acting: bool) -> list[str] | None:
        game_id, side = g["game_id"], clock.side
        with self.writes.group():
            with self.writes(game_id):
                current = self._current(g, clock)
                state = projection.load(self.store, self.catalog, game_id)
                rules = self.catalog.rules(state.meta.rules)
                if current is None or current.expired or rules.outcome(state.game) is not None \
                        or rules.prompt(state.game).side != side:
                    return None  # the late side moved at the last moment: its turn is over, nothing is due
                passing = acting and g["on_deadline"] == "auto-pass"
                if passing and _next_pass(rules, side, PASS_LIMIT)(state) is None:
                    note, passing = "auto-pass, but no end or pass was open to them: over to the arbiter", False
                record = core.DeadlinePassed(side=side, due=current.due.isoformat(timespec="minutes"),
                                             action=g["on_deadline"], note=note)
                if acting and g["on_deadline"] == "forfeit":
                    seed = self.store.dice_seed(game_id)
                    lost = clocks.concession(state, side, f"{side} lost on time (due {record.due})", DEADLINE_ACTOR,
                                             seed) if seed else []
                    self.store.append(game_id, state.meta.seq, [games.new_event(record, DEADLINE_ACTOR), *lost])
                    clocks.mark(self.store, game_id, "expired")
                    return ["forfeit"] if lost else []
                played = games.play(self.store, self.catalog, game_id, side,
                                    _next_pass(rules, side, PASS_LIMIT if passing else 0),
                                    expected_seq=state.meta.seq, actor=DEADLINE_ACTOR, before=[record])
                if played.refused is not None:
                    LOG.warning("game %s: the deadline's pass for %s stopped: %s", game_id, side, played.refused)
                clocks.mark(self.store, game_id, "expired")
            # an automated opponent answers at once
            if played.accepted and autoplay.play(self.store, self.catalog, game_id):
                self.writes.wrote(game_id)
        return [a.events[0].payload["text"] for a in played.accepted]


def _next_pass(rules, side: str, limit: int) -> Callable[[projection.GameState], str | None]:
    """Auto-pass's orders: the end/pass action the states table offers `side`, step after step, while it is still
    theirs to act, at most `limit` of them (games.play asks for the next one on the position the last left)."""
    given = [0]

    def next_pass(state: projection.GameState) -> str | None:
        if given[0] >= limit or rules.outcome(state.game) is not None:
            return None
        prompt = rules.prompt(state.game)
        action = next((a for a in prompt.actions if a.name in PASS_ACTIONS), None)
        if prompt.side != side or action is None:
            return None
        given[0] += 1
        return action.name

    return next_pass
