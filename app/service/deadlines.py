"""Move deadlines: reminders, the configured action when one passes, and the tick that runs them (a concern of
`app.service.pbem.Pbem`)."""
from __future__ import annotations

import logging
from datetime import datetime, timedelta

from app.events.store import Conflict, utc_parse
from app.projections import state as projection
from app.rules.errors import OrderError
from app.service import autoplay, games
from app.service.seats import ARBITER

DEADLINE_ACTOR = "server:deadline"
LOG = logging.getLogger("hexledger.service")
PASS_ACTIONS = ("end", "pass")


class Deadlines:
    """What `tick` (cron) does: the automated seats' catch-up, reminders, deadlines, and the outbox's due mail."""

    def _auto_pass(self, game_id: str, side: str, limit: int = 20) -> list[str]:
        """Give the rule set's end/pass action for `side` while it is still theirs to act (at most `limit` steps),
        each an ordinary order by the actor server:deadline. Stops at once if anyone else wrote meanwhile."""
        rules = self._rules(game_id)
        passed: list[str] = []
        for _ in range(limit):
            state = projection.load(self.store, game_id)
            if rules.outcome(state.game) is not None:
                break
            prompt = rules.prompt(state.game)
            action = next((a for a in prompt.actions if a.name in PASS_ACTIONS), None)
            if prompt.side != side or action is None:
                break
            try:
                games.submit(self.store, game_id, side, action.name, expected_seq=state.meta.seq,
                             actor=DEADLINE_ACTOR)
            except (Conflict, OrderError, games.GameError):
                break  # the player moved at the last moment, or the rules refuse: nothing more is passed
            passed.append(action.name)
        autoplay.play(self.store, game_id)  # an automated opponent answers the pass at once
        return passed

    def _since_last_tick(self, now: datetime) -> timedelta | None:
        """How far the clock moved since the last tick (None on the first), and record this one."""
        last = self.store.swap_clock("tick", now.isoformat())
        return now - utc_parse(last) if last else None

    def tick(self) -> list[str]:
        """Reminders before a move deadline, the configured action when it passes, and the outbox's mail that is
        due (retries included). Run it from cron, often (every few minutes), on a host whose clock is right: a run
        that finds the clock moved by more than a game's deadline since the last run (a clock jump, or the server
        down that long) does not auto-pass for anyone in that game; it logs it and leaves it to the arbiter."""
        now = self.clock()
        moved = self._since_last_tick(now)
        done = []
        for g in self.store.pbem_games():
            caught_up = autoplay.play(self.store, g["game_id"])  # a turn the limit or a refused write left
            if caught_up:
                done.append(f"{g['game_id']}: the automated seats caught up, {len(caught_up)} order(s)")
                with self.writing():
                    self.notify(g["game_id"])
        for g in self.store.pbem_games(on_clock_only=True):
            due = utc_parse(g["turn_started_at"]) + timedelta(hours=g["deadline_hours"])
            members = self.members(g["game_id"])
            player = members.get(g["turn_side"])
            if player is None:
                continue
            if not g["reminded"] and g["reminder_hours"] and due - timedelta(hours=g["reminder_hours"]) <= now < due:
                with self.writing():
                    self._send(player["email"], g["game_id"], "Reminder: your move is due",
                               f"Your move in game {g['game_id']} is due by {due.isoformat(timespec='minutes')} "
                               f"({g['deadline_hours']:g} hours from the start of your turn).", g["turn_side"])
                    self.store.update_pbem_game(g["game_id"], {"reminded": 1})
                done.append(f"{g['game_id']}: reminded {g['turn_side']}")
            if not g["expired"] and now >= due:
                side = g["turn_side"]
                self.store.update_pbem_game(g["game_id"], {"expired": 1})  # once, whatever follows
                jumped = moved is not None and not timedelta(0) <= moved <= timedelta(hours=g["deadline_hours"])
                if jumped and g["on_deadline"] == "auto-pass":
                    LOG.warning("game %s: no auto-pass for %s: the clock moved %s since the last tick, more than "
                                "the %g-hour deadline; over to the arbiter", g["game_id"], side, moved,
                                g["deadline_hours"])
                passed = self._auto_pass(g["game_id"], side) if g["on_deadline"] == "auto-pass" and not jumped \
                    else []
                when = due.isoformat(timespec="minutes")
                if passed:
                    text = (f"{side} ({player['email']}) did not move in game {g['game_id']} by the deadline, "
                            f"{when}. As this game's deadline rule says (auto-pass), the server gave "
                            f"{', '.join(repr(p) for p in passed)} for {side}, as '{DEADLINE_ACTOR}'.")
                    with self.writing():
                        for s, m in members.items():
                            self._send(m["email"], g["game_id"], f"Deadline passed: the server passed for {side}",
                                       text, s)
                        self.notify(g["game_id"])
                    done.append(f"{g['game_id']}: deadline passed for {side}, passed: {' '.join(passed)}")
                    continue
                action = g["on_deadline"] if g["on_deadline"] != "auto-pass" else \
                    (f"auto-pass withheld: the server's clock moved {moved} since its last deadline check, more "
                     "than the deadline (a clock jump, or the server was down): over to the arbiter" if jumped else
                     "auto-pass, but no end or pass was open to them: over to the arbiter")
                to = {ARBITER: members[ARBITER]} if ARBITER in members else members
                with self.writing():
                    for s, m in to.items():
                        self._send(m["email"], g["game_id"], f"Deadline passed: {side} has not moved",
                                   f"{side} ({player['email']}) has not moved in game {g['game_id']}; the "
                                   f"deadline was {when}. Action: {action}.", s)
                done.append(f"{g['game_id']}: deadline passed for {side}")
        sent = self.deliver()
        if sent.sent or sent.failed or sent.superseded:
            done.append(f"outbox: {sent.sent} email(s) sent, {len(sent.failed)} failed (kept for a retry)"
                        + (f", {sent.superseded} turn email(s) superseded by newer ones" if sent.superseded else ""))
        return done
