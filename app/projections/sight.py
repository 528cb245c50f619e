"""What one reader may know of a game (docs/architecture.md practice 12): the rule set's one visibility rule, its
`view(state, side)` and `visible(event, side)`, applied the same way by every channel: state, history, log,
turn emails and their maps, replay frames and texts, the combat panel, analysis and export.

A `Sight` is one reader's window: a side, or everything (`side` None: the referee, the arbiter, and every reader
once the game is over). Channels ask it, never the hooks directly, so no channel filters by itself.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.events import core
from app.rules.base import Rules, event_visibility, optional


@dataclass(frozen=True)
class Sight:
    rules: Rules
    side: str | None = None

    @property
    def sees_all(self) -> bool:
        return self.side is None

    def event(self, body: Any) -> bool | str:
        """True: shown as it is; False: left out; a string: shown as that text only (no payload). Table talk is
        the one event whose readers its writer chooses (`talk_readable`); every other, the rule set's."""
        if self.sees_all:
            return True
        if isinstance(body, core.MessageSent):
            return talk_readable(body, self.side)
        return event_visibility(self.rules, body, self.side)

    def view(self, game: Any) -> dict:
        return self.rules.view(game, self.side)

    def combat(self, body: Any, before: Any, view: dict) -> dict | None:
        """The combat panel of an event (the rules' `combat_summary` from the state `before` it), or None. The summary
        is written from the full state: a side sees only the attacking and supporting units its view shows (SNC 6.3,
        Ichi-Go 6.6: the defender does not see beneath the attacking stacks)."""
        summary = optional(self.rules, "combat_summary")
        if summary is None or self.event(body) is False:
            return None
        combat = summary(body, before)
        if not combat or self.sees_all or "units" not in view:
            return combat
        seen = {u.get("id") for u in view["units"]}
        return {**combat, **{k: [u for u in combat.get(k) or [] if u in seen] for k in ("attackers", "support")
                             if k in combat}}

    def losses(self, body: Any, before: Any) -> dict[str, int] | None:
        """Steps each side lost in this event as this reader is told (the rules' `losses`, from the state `before`
        it), or None: the rules count no losses by event, or the event is hidden from this reader."""
        count = optional(self.rules, "losses")
        if count is None or self.event(body) is False:
            return None
        return count(body, before)


def talk_readable(message: core.MessageSent, side: str) -> bool:
    """Whether a side's reader may read this table talk: all of it that is addressed to all, and what it wrote
    itself; a note to the arbiter is the arbiter's (who sees all) and its writer's, until the game is over, when
    every reader sees all (`sees_all`), talk included (docs/play-by-email.md, "Table talk")."""
    return message.to == "all" or message.by == side


def sees_all(arbiter: bool, rules: Rules, game: Any | None) -> bool:
    """The arbiter, or anyone after the game ends, sees everything: the one place that says so (`game`: the rule
    set's state at the game's head). Every channel asks here, through the service's `Table.sees_all`, the replay's
    viewer and the console's."""
    return arbiter or (game is not None and rules.outcome(game) is not None)
