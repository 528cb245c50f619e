"""The contract every rule set fulfils (a Decider, docs/architecture.md practice 1 and 2).

A rule set is pure: `decide(state, command, dice) -> events` and `evolve(state, event) -> state`, no clock,
no I/O, no `random`. `prompt(state)` is the states table's answer to "who acts now, and what may they do":
a command whose action is not in the prompt is refused before `decide` runs.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from app.events.dice import Dice


@dataclass(frozen=True)
class Command:
    """A parsed order: which side gives it, the action, and the action's arguments (JSON-able)."""

    side: str
    action: str
    args: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {"side": self.side, "action": self.action, "args": self.args}

    @classmethod
    def from_dict(cls, data: dict) -> Command:
        return cls(side=data["side"], action=data["action"], args=dict(data.get("args") or {}))


@dataclass(frozen=True)
class Action:
    """One kind of order the side to act may give now, with its syntax in the order language."""

    name: str
    syntax: str
    case: str
    help: str = ""


@dataclass(frozen=True)
class Owed:
    """What a decision the sequence waits for asks of its side: what, where, how much, and the candidates with
    their values (each (id, value): a unit and its strength and steps, a hex and why it is offered). Every
    decision of every game says this in its prompt, so nobody learns it by trial and error."""

    what: str
    where: str | None = None
    amount: str | None = None
    candidates: tuple[tuple[str, str], ...] = ()

    def text(self) -> str:
        head = self.what + (f" in {self.where}" if self.where else "") + (f": {self.amount}" if self.amount else "")
        if not self.candidates:
            return head
        return head + "\n" + "\n".join(f"    {c:24} {v}".rstrip() for c, v in self.candidates)

    def to_dict(self) -> dict:
        return {"what": self.what, "where": self.where, "amount": self.amount,
                "candidates": [{"id": c, "value": v} for c, v in self.candidates], "text": self.text()}


@dataclass(frozen=True)
class Prompt:
    """Who acts now, in which step of the sequence of play, which actions they may take, and, when the sequence
    waits for a decision, what that decision owes (`owed`)."""

    side: str | None
    step: str
    actions: tuple[Action, ...] = ()
    owed: Owed | None = None

    def allows(self, action: str) -> bool:
        return any(a.name == action for a in self.actions)

    def refusal(self, command: Command) -> str | None:
        """Why the states table refuses `command` now (another side's turn, or an action not offered), or None."""
        if command.side != self.side:
            who = f"it is {self.side}'s turn" if self.side else "nobody acts now"
            return f"{who} ({self.step}): '{command.action}' by {command.side} is not allowed now"
        if not self.allows(command.action):
            return (f"'{command.action}' is not allowed now ({self.step}); "
                    f"allowed: {', '.join(a.name for a in self.actions)}")
        return None


@dataclass(frozen=True)
class Outcome:
    winner: str | None
    reason: str


class Rules(Protocol):
    name: str
    title: str
    version: str
    sides: tuple[str, ...]
    scenarios: dict[str, str]
    sequence_case: str

    def initial_state(self, scenario: str, options: dict) -> Any: ...

    def evolve(self, state: Any, event: Any) -> Any: ...

    def prompt(self, state: Any) -> Prompt: ...

    def parse(self, text: str, side: str, state: Any) -> Command: ...

    def decide(self, state: Any, command: Command, dice: Dice) -> Sequence[Any]: ...

    def outcome(self, state: Any) -> Outcome | None: ...

    def view(self, state: Any, side: str | None) -> dict: ...

    def describe(self, event: Any) -> str: ...

    def encode_state(self, state: Any) -> dict: ...

    def decode_state(self, data: dict) -> Any: ...

    # Optional hooks (a rule set may leave them out; the helpers below supply the defaults):
    #
    # visible(event, side) -> bool | str
    #     May `side` (None: a spectator) see this event (a decoded event body, core events included)?
    #     True: shown as it is; False: left out; a string: shown redacted, as that text (e.g. "Blue moves a
    #     hidden unit"). Default: every event is visible. Every per-side history, email and export uses it.
    # reveals(event) -> bool
    #     Does this event reveal hidden information to the opponent (a flipped counter, a searched hex)?
    #     A player's own undo may not take such an event back. Default: False.
    # preview(state, command) -> dict
    #     What would this command do, without dice (combat odds and the result of each die roll)?
    #     It may use only what `command.side` can see. Rule sets without it offer no preview.
    # played_under(state, version) -> state
    #     The starting state of a game created under the rule set's `version` (core.GameCreated.rules_version;
    #     "" for a game created before versions were recorded). A rule set whose decisions changed records the
    #     version in its state and decides that game as it was played, so its stored orders still verify.
    #     Default: every game is decided by the current rules.
    # policies: {name: policy(state, side) -> (order text, reason dict)}
    #     How the server plays an automated seat (app/rules/practice.py, app/service/autoplay.py); the first is
    #     the rule set's default. A policy is pure and deterministic given the state (verify re-runs it); the
    #     reason names the rule that chose the order. Every rule set with `candidates` or `legal_orders` also
    #     gets the practice opponents `greedy` and `random`.
    # candidates(state, rng) -> [order text, ...]
    #     Orders worth trying for the side to act, not all legal (the fuzzers' random player); a rule set on the
    #     engine lists its orders with `legal_orders` instead.
    # automated_seats: tuple of sides
    #     The sides the server plays unless a game's creator says otherwise (Olympic: the Japanese).


def event_visibility(rules: Rules, event: Any, side: str | None) -> bool | str:
    """The rule set's `visible(event, side)`, or True: everything is visible."""
    hook = getattr(rules, "visible", None)
    return True if hook is None else hook(event, side)


def event_reveals(rules: Rules, event: Any) -> bool:
    hook = getattr(rules, "reveals", None)
    return False if hook is None else bool(hook(event))


def played_under(rules: Rules, state: Any, version: str) -> Any:
    """The rule set's `played_under(state, version)`, or `state` unchanged: the current rules decide."""
    hook = getattr(rules, "played_under", None)
    return state if hook is None else hook(state, version)


def has_preview(rules: Rules) -> bool:
    return callable(getattr(rules, "preview", None))

# -- optional members ----------------------------------------------------------------------------------------
# A rule set may also provide these; the replay viewer, map pictures and analysis use them when present and
# show fewer panels when absent (app/projections/replay.py, render.py, analysis.py; docs/replay.md).
#
# game_map(state) -> GameMap
#     The map to draw (app.rules.kernel.mapfile.GameMap). Without it there is no map picture.
# view(state, side)["units"]
#     Entries {id, side, hex, strength, steps, ...}: the counters drawn, the step losses counted. hex is None
#     for a unit off the map (eliminated, in reserve). view(state, None) is the referee's view: everything.
# view(state, side)["control"] = {hex: side} and view(state, side)["victory_hexes"] = [hex, ...]
#     Who controls which hex, and which hexes count for victory: control markers and the control chart.
# view(state, side)["score"] = {"name": str, "value": number}
#     A running total the game keeps (Olympic: American Casualty Points): analysis reports it turn by turn.
# combat_summary(event, state) -> dict | None
#     For a combat-resolution event (None for any other event). `state` is the rule set's state just BEFORE
#     the event (None before the first event), so a summary can name what the event itself does not carry
#     (the attacking units of the battle under way, the defending stack's steps); the replay passes it from
#     the same single fold that builds the frames. Returns:
#       {"attacker": side, "defender": side | None, "hex": "XXYY", "attackers": [unit id, ...],
#        "attack": number, "defence": number, "odds": odds label as stored, "shifts": [{"amount": int, "case": str}],
#        "column": final column label after shifts (optional; when absent "odds" is the column),
#        "roll": int, "result": str, "losses": {side: steps},
#        "distribution": [{"roll": face, "result": str, "value": number, "p": probability}, ...],
#        "case": rules case of the combat procedure}
#     "distribution" lists the result of every die face in that column; "value" scores each result for the
#     attacker (higher is better for the attacker), which lets analysis rank the observed roll (luck).
# losses(event, state) -> {side: steps} | None
#     Steps each side lost in this event; `state` is the rule set's state just BEFORE it (as for combat_summary),
#     for what the event does not carry (the steps of the units it eliminates). With it, analysis counts losses
#     from the events a viewer is shown (the same ones its history shows); without it, from the steps of the
#     units its views show, which misses a loss under fog of war (a unit beneath an enemy stack's top unit, an
#     enemy unit eliminated) and of units off the map (a landing force, SNC 8.4).
# visible(event, side), reveals(event), preview(state, command): see above; `event_visibility` reads `visible`.
OPTIONAL_MEMBERS = ("game_map", "combat_summary", "visible", "reveals", "preview", "losses")


def optional(rules: Any, member: str):
    """The rule set's optional member `member` (one of OPTIONAL_MEMBERS), or None if it lacks it."""
    if member not in OPTIONAL_MEMBERS:
        raise ValueError(f"{member!r} is not an optional rules member ({', '.join(OPTIONAL_MEMBERS)})")
    return getattr(rules, member, None)
