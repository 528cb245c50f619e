"""Event types every game shares: creation, players, orders, dice (rolled, spent by a fault), seed reveal, forks,
retractions, disputes.

Game modules declare their own event types beside their rules, named "<game>.<Event>".
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from app.events.registry import event_type


@event_type("core.GameCreated")
@dataclass(frozen=True)
class GameCreated:
    """First event of a game: the rules, the scenario and the SHA-256 commitment to the secret dice seed.
    `rules_version` is the rule set's version the game is played under ("" for games created before it was
    recorded): a rule set whose decisions change keeps deciding an older game as it was played (base.py,
    `played_under`)."""

    rules: str
    scenario: str
    sides: list[str]
    seed_commitment: str
    options: dict = field(default_factory=dict)
    rules_version: str = ""


@event_type("core.PlayerJoined")
@dataclass(frozen=True)
class PlayerJoined:
    """A player takes a side and adds their own text to every later dice roll."""

    side: str
    name: str
    seed_text: str = ""


@event_type("core.OrderGiven")
@dataclass(frozen=True)
class OrderGiven:
    """An accepted order, stored with the events it produced (their `causation` points here). `auto` is set on an
    order the server gave: an automated seat's (app/service/autoplay.py), {"policy": name, "reason": {...}}, or a
    player's standing order's (app/rules/standing.py), {"standing": kind, "reason": {...}}; `verify` recomputes
    either."""

    side: str
    text: str
    command: dict
    auto: dict | None = None


@event_type("core.StandingOrdersSet")
@dataclass(frozen=True)
class StandingOrdersSet:
    """`side`'s standing orders (docs/play-by-email.md, "Standing orders"): for each kind of decision named, the
    clauses that answer it from now on (an empty list: ask me again). Set in the side's own turn; hidden from the
    other side (app/rules/base.py `event_visibility`). An order a standing order gives is that side's
    core.OrderGiven with `auto` {"standing": kind, "reason"}, which `verify` re-decides from the clauses in force."""

    side: str
    orders: dict


@event_type("core.SeatAutomated")
@dataclass(frozen=True)
class SeatAutomated:
    """The server plays `side` by the rule set's policy `policy` (app/rules/practice.py): the seat is taken, its
    orders are given by the server whenever the states table prompts that side, and `verify` re-decides each.
    `settings`: what the policy was set to at creation, as `verify` re-decides with them: the policies' edition
    and, for `search`, its playouts a decision; {} for a seat automated before settings were recorded (edition
    1)."""

    side: str
    policy: str
    settings: dict = field(default_factory=dict)


@event_type("core.SeatStalled")
@dataclass(frozen=True)
class SeatStalled:
    """The automated seat `side` could give no order where the states table prompts it (app/service/autoplay.py):
    its policy found no order the rules accept, or failed. The game waits; the history, the players and the
    arbiter are told (`problem` is said to all of them, so it names no hidden fact; the operator's log has the
    detail). Changes nothing in the game."""

    side: str
    policy: str
    problem: str


@event_type("core.BoardOpened")
@dataclass(frozen=True)
class BoardOpened:
    """An analysis board (issue 29, app/service/boards.py): the events before this one are copied from `parent_id`'s
    first `parent_seq` (whose last event's hash is `parent_hash`); from here the stream is an analyst's sandbox, no
    played game: orders take the dice the analyst chooses (others are drawn from `seed`, which is public), units
    may be edited (core.BoardEdited), any policy may play either side. `verify --dice` never passes it."""

    parent_id: str
    parent_seq: int
    parent_hash: str
    seed: str


@event_type("core.BoardEdited")
@dataclass(frozen=True)
class BoardEdited:
    """On an analysis board only: the analyst sets fields of one unit (`changes`: field -> value: its hex, its
    steps, its strength...); what the rules would refuse is the analyst's to judge."""

    unit: str
    changes: dict


@event_type("core.DieRolled")
@dataclass(frozen=True)
class DieRolled:
    """One die roll: its index in the game's roll sequence, the value, and what it was for."""

    index: int
    sides: int
    value: int
    purpose: str


@event_type("core.RollsSpent")
@dataclass(frozen=True)
class RollsSpent:
    """An order the rules failed on after rolling (an engine fault: docs/architecture.md practice 11 says no refusal may
    follow a roll). The order is not carried out, but the dice it drew are spent: they follow as core.DieRolled
    events caused by this one, so no roll index is drawn twice and no value is seen before it counts. `verify`
    re-runs the order with those rolls and checks that the rules still fail after exactly them."""

    side: str
    text: str
    command: dict


@event_type("core.SeedRevealed")
@dataclass(frozen=True)
class SeedRevealed:
    """The secret dice seed, published at the end of the game so anyone can recompute every roll."""

    seed: str
    reason: str


@event_type("core.GameForked")
@dataclass(frozen=True)
class GameForked:
    """This game branches from `parent_id` after `parent_seq`; its own dice seed starts here."""

    parent_id: str
    parent_seq: int
    parent_hash: str
    seed_commitment: str


@event_type("core.Retracted")
@dataclass(frozen=True)
class Retracted:
    """Events `from_seq`..`to_seq` no longer count: an upheld dispute, a takeback by consent, or an undo.

    Nothing is deleted: the retracted events stay in the stream (and in history, marked), and their die rolls
    still advance the roll counter, so a retracted roll is never rolled again with the same index.
    `from_seq` is the first retracted order (core.OrderGiven); `by` says who retracted it and on what authority.
    """

    from_seq: int
    to_seq: int
    reason: str
    by: str


@event_type("core.DisputeRaised")
@dataclass(frozen=True)
class DisputeRaised:
    """A player disputes a standing order (`order_seq`, a core.OrderGiven before this event).

    `dispute` numbers the game's disputes from 1. A dispute is part of the game's record: it stays in the stream,
    the history and every export whatever its outcome, and `verify` checks it names an order.
    """

    dispute: int
    order_seq: int
    side: str
    reason: str


@event_type("core.DisputeAnswered")
@dataclass(frozen=True)
class DisputeAnswered:
    """An answer to dispute `dispute`, by the seat `by` (the other player, or "arbiter").

    `status`: "accepted" (takeback by consent) or "upheld" (the arbiter's ruling): a core.Retracted follows in the
    same write; "rejected": the order stands; "referred": the other player rejected it and the arbiter rules.
    """

    dispute: int
    by: str
    status: Literal["accepted", "rejected", "referred", "upheld"]
    note: str = ""


@event_type("core.DeadlinePassed")
@dataclass(frozen=True)
class DeadlinePassed:
    """`side`'s move deadline (`due`, UTC) passed without their move, as `tick` found it, and the game's rule
    `action` ("auto-pass" or "notify-arbiter"). An auto-pass's end/pass orders follow it in the same write, as
    ordinary orders by server:deadline (`verify` re-runs them); `note` says why there are none when the rule is
    auto-pass (a clock jump, or no end or pass open). Appended with those orders and the deadline's mark in one
    transaction, so a `tick` killed at any step never loses it; the notices are a reaction to it
    (docs/reactions.md)."""

    side: str
    due: str
    action: str
    note: str = ""


# -- clocks and the end by agreement (docs/play-by-email.md, "Clocks"; app/service/clocks.py) -------------------
@event_type("core.VacationTaken")
@dataclass(frozen=True)
class VacationTaken:
    """`side` takes a vacation from `start` to `until` (UTC): its clock does not run meanwhile (the game's
    allowance of vacation days is the server's setting)."""

    side: str
    start: str
    until: str


@event_type("core.DrawOffered")
@dataclass(frozen=True)
class DrawOffered:
    """`side` offers the other side a draw; it stands until answered (core.DrawAnswered) or the game ends."""

    side: str


@event_type("core.DrawAnswered")
@dataclass(frozen=True)
class DrawAnswered:
    """`side` answers the other side's draw offer: accepted, the game ends in a draw (the dice seed is revealed in
    the same write, as at any end); declined, it goes on."""

    side: str
    accepted: bool

    def apply(self, state):
        return state.ended(None, f"a draw agreed ({self.side} accepted the offer)") if self.accepted else state


@event_type("core.Resigned")
@dataclass(frozen=True)
class Resigned:
    """`side` concedes the game to `winner`: its player resigned, or its clock ran out where the game's rule on
    timeout is to forfeit (`reason` says which). The game ends; the dice seed is revealed in the same write."""

    side: str
    winner: str | None
    reason: str

    def apply(self, state):
        return state.ended(self.winner, self.reason)


@event_type("core.MessageSent")
@dataclass(frozen=True)
class MessageSent:
    """Table talk: `lines` a seat (`by`: a side, or "arbiter") wrote to `to`: "all" (every seat) or "arbiter" (the
    arbiter only, and the sender). Each line is player-written text (app/text.py, kind "message"). It changes
    nothing in the game and rolls no die: the fold, the audit and an undo pass over it; who may read it is the one
    visibility rule's (app/projections/sight.py). Stored ahead of the orders of the email that carried it, in the
    same write."""

    by: str
    to: Literal["all", "arbiter"]
    lines: list[str]
