"""The contract every rule set fulfils (a Decider, docs/architecture.md practice 1 and 2).

A rule set is pure: `decide(state, command, dice) -> events` and `evolve(state, event) -> state`, no clock,
no I/O, no `random`. `prompt(state)` is the states table's answer to "who acts now, and what may they do":
a command whose action is not in the prompt is refused before `decide` runs. The members a rule set may add are
declared in `Optional`, and `conform` holds every rule set to both when it is loaded (app/rules/catalog.py).
"""
from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from app.events.core import GameCreated, StandingOrdersSet
from app.events.dice import Dice
from app.rules.errors import IllegalOrder


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
    subjects: str | None = None  # what the order is given to, plural ("units", "hexes"): the list's count of them


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


class Candidate:
    """An order worth trying for the list of legal orders (app/rules/legal.py), unchecked: its kind (the action),
    its subject (what the order is given to, its first slot's value: the units of a move or a placement, the hex
    of an attack), by which the list names every subject once before any twice, and its text, written out only
    when it is tried (`render()`; most candidates of a long list never are)."""

    __slots__ = ("action", "subject", "_text", "_render")

    def __init__(self, action: str, subject: tuple = (), text: str | None = None,
                 render: Callable[[], str] | None = None):
        if (text is None) == (render is None):
            raise ValueError("a candidate has a text or a way to write it, not both")
        self.action, self.subject, self._text, self._render = action, subject, text, render

    @property
    def text(self) -> str:
        if self._text is None:
            self._text = self._render()
        return self._text

    def __repr__(self) -> str:
        return f"Candidate({self.action!r}, {self.subject!r}, {self.text!r})"


@dataclass(frozen=True)
class Previews:
    """The kinds of order (actions) a rule set's `preview` draws, and the case that says what it shows ("SNC
    10.3"): any other kind is answered as having no preview, in turn or out (app/rules/legal.py `preview`)."""

    actions: tuple[str, ...]
    case: str
    #: whether a preview names the one odds column the list of legal orders shows beside the order (`column`); False
    #: where a die rolled before the combat's picks the column (Olympic's militia die, ruling R58), so the list
    #: draws no preview for it
    column: bool = True

    def why(self) -> str:
        return f"only {' and '.join(', '.join(self.actions).rsplit(', ', 1))} orders have a preview"

    def check(self, command: Command) -> None:
        """IllegalOrder for a kind of order the preview does not draw (for a rule set's own `preview`)."""
        if command.action not in self.actions:
            raise IllegalOrder(self.case, self.why())


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

    def initial_state(self, scenario: str, options: dict, version: str | None = None) -> Any:
        """The first state of a game created under the rule set's `version` (core.GameCreated.rules_version; "" for a
        game created before versions were recorded; None: this version, a new game): its options (a position) are
        read and checked by that version's rules, and the game is decided as it was played (`played_under`)."""

    def evolve(self, state: Any, event: Any) -> Any: ...

    def prompt(self, state: Any) -> Prompt: ...

    def refused(self, state: Any, command: Command) -> IllegalOrder | None:
        """The states table's refusal of `command` now (another side's turn, an order the step does not take), named
        by the rule that forbids it where the step gives one, else by `sequence_case`; None if the table takes it."""
        ...

    def parse(self, text: str, side: str, state: Any) -> Command: ...

    def decide(self, state: Any, command: Command, dice: Dice) -> Sequence[Any]: ...

    def outcome(self, state: Any) -> Outcome | None: ...

    def view(self, state: Any, side: str | None) -> dict: ...

    def describe(self, event: Any) -> str: ...

    def encode_state(self, state: Any) -> dict: ...

    def decode_state(self, data: dict) -> Any: ...


def event_visibility(rules: Rules, event: Any, side: str | None) -> bool | str:
    """The rule set's `visible(event, side)`, or True: everything is visible. Two events are ruled here, the same
    in every game, before the rule set's hook sees them: a side's standing orders (core.StandingOrdersSet) are its
    own, the other side reads only that some were set; and a game created from a custom position is shown to a
    side by its line only (`created_line`)."""
    if side is not None:
        if isinstance(event, StandingOrdersSet) and event.side != side:
            return f"{event.side} set standing orders (hidden from you)"
        if isinstance(event, GameCreated) and from_position(event):
            return created_line(event)
    hook = optional(rules, "visible")
    return True if hook is None else hook(event, side)


def from_position(event: GameCreated) -> bool:
    """Whether the game was created from a custom position (docs/custom-positions.md): its options hold one."""
    return isinstance(event.options, dict) and event.options.get("position") is not None


def created_line(event: GameCreated) -> str:
    """What a side reads of the creation of a game from a custom position, in every game (docs/custom-positions.md,
    "Who reads the position"; Formosa ruling F163). The position says where every unit stands and whatever else
    the game keeps from a side (SNC 6.3 and Ichi-Go 6.6: the units beneath an enemy stack's top; Formosa 11.0,
    11.1: the concealed units, the displays, the air plan), so its payload is left out as any other hidden part
    of an event is (a filtered export keeps its salted digest): each side reads what it may of the position in
    its view. The dice seed's commitment is shown whole: a player checks the dice against it once the seed is
    revealed. The arbiter, and everyone once the game is over, reads the event whole."""
    return (f"game created: {event.rules}, scenario {event.scenario}; dice seed committed "
            f"({event.seed_commitment}); from a custom position: what it places is in your view, the rest is hidden "
            "from you")


def event_reveals(rules: Rules, event: Any) -> bool:
    hook = optional(rules, "reveals")
    return False if hook is None else bool(hook(event))


def played_under(rules: Rules, state: Any, version: str) -> Any:
    """The rule set's `played_under(state, version)`, or `state` unchanged: the current rules decide."""
    hook = optional(rules, "played_under")
    return state if hook is None else hook(state, version)


def has_preview(rules: Rules) -> bool:
    return callable(optional(rules, "preview"))

# -- optional members ----------------------------------------------------------------------------------------
class Optional(Protocol):
    """The members a rule set may provide beyond `Rules`, declared once: the engine checks every rule set against
    this at load time (`conform`: a member of another name, or of another signature, fails loudly), and the
    helpers above and `optional` supply the defaults where one is absent. The replay viewer, map pictures and
    analysis use them when present and show fewer panels when absent (app/projections/replay.py, render.py,
    analysis.py; docs/replay.md). What `view(state, side)` may carry for them: "units" (entries {id, side, hex,
    strength, steps, ...}, hex None off the map; `view(state, None)` is the referee's), "control" ({hex: side}),
    "victory_hexes", "score" (the game's own running measure of victory, charted turn by turn: {"name", "value"},
    Olympic's American Casualty Points, or {"name", "by_side": {side: number}}, Formosa's victory points, with
    "level", the level of victory they give) and
    "turn" (the turn the charts count by). A unit's entry may say what its counter shows, each only where the
    side may know it (app/projections/counters.py draws them): "nation" (or "nationality": whose colours it
    wears), "type" (infantry, armor, artillery, marine...), "size" (division, brigade, regiment...), "factors"
    (as the counter prints them: "4-4-1", "(3)"), "static" (never moves), "indicator" (a letter printed on it),
    "hidden_below" (counters beneath it not shown); "untried": true, or neither type nor strength, draws it face
    down ("?")."""

    def visible(self, event: Any, side: str | None) -> bool | str:
        """May `side` (None: a spectator) see this event (a decoded event body, core events included)? True:
        shown as it is; False: left out; a string: shown redacted, as that text. Default: every event is visible.
        Every per-side history, email and export uses it."""

    def reveals(self, event: Any) -> bool:
        """Does this event reveal hidden information to the opponent (a flipped counter, a searched hex)? A
        player's own undo may not take such an event back. Default: False."""

    def preview(self, state: Any, command: Command) -> dict:
        """What would this command do, without dice (combat odds and the result of each die roll)? It may use only
        what `command.side` can see. Rule sets without it offer no preview; with it they declare `previews`."""

    def played_under(self, state: Any, version: str) -> Any:
        """The starting state of a game created under the rule set's `version` (core.GameCreated.rules_version;
        "" for a game created before versions were recorded), decided as it was played so its stored orders still
        verify. Default: every game is decided by the current rules."""

    def game_map(self, state: Any) -> Any:
        """The map to draw (app.rules.kernel.mapfile.GameMap). Without it there is no map picture."""

    def combat_summary(self, event: Any, state: Any) -> dict | None:
        """For a combat-resolution event (None for any other), `state` being the rule set's state just BEFORE it
        (None before the first event): {"attacker", "defender", "hex", "attackers": [unit id, ...], "attack",
        "defence", "odds", "shifts": [{"amount", "case"}], "column" (optional), "roll", "result",
        "losses": {side: steps}, "distribution": [{"roll", "result", "value", "p"}, ...], "case", "columns"
        (optional: the table's column labels in its order, the odds chart's order)}. "distribution" gives every
        die face's result in that column, "value" scoring it for the attacker (analysis ranks the observed roll by
        it: luck)."""

    def losses(self, event: Any, state: Any) -> dict | None:
        """Steps each side lost in this event ({side: steps}), `state` as for `combat_summary`. With it analysis
        counts losses from the events a viewer is shown; without it, from the steps its views show (which misses
        a loss under fog of war and off the map)."""

    def orders_to_try(self, state: Any, side: str) -> Iterable[Candidate]:
        """Orders worth trying for `side` now, unchecked, kind by kind in the order the step offers them, each
        subject's best first (app/rules/legal.py keeps those the decider accepts). A rule set on the engine names
        them in its states table (each order's `candidates`)."""

    def more_orders(self, state: Any, side: str) -> Iterable[Candidate]:
        """Orders the list of legal orders and `naming` try after `orders_to_try`, unchecked (app/rules/legal.py
        `listed_candidates`): where more orders are legal than a random opponent's draw should weigh, so that a
        player still reaches each (Formosa: every naval transfer, ruling F125). The random player draws from
        `orders_to_try` alone. Without it the list tries `orders_to_try`'s."""

    def stakes(self, state: Any, side: str, edition: int = 3) -> float:
        """How near `side` stands to winning by the game's own victory conditions (its sudden deaths, its victory
        points, the time left), from -1 (all but lost) to 1 (all but won), read from `state` as the strong
        practice opponent's evaluation reads it (app/rules/evaluation.py: a position it sampled from its side's
        view). `edition`: the policies' edition of the seat reading it (app/rules/practice.py), so a reading changed
        for a later edition leaves stored games' decisions as they were. Without it the evaluation weighs only
        material, victory hexes, reach and safety."""

    def progress(self, state: Any) -> float:
        """The share of the game's time run out, 0 at its start to 1 at its last turn's end: from the policies'
        edition 5 the evaluation weighs `stakes` more as the end nears (app/rules/evaluation.py). Without it the
        weight stays as it is at the start."""

    def overstacked(self, state: Any, side: str) -> int:
        """How many of `side`'s units stand in hexes over the stacking limits, which the end of a phase would thin
        (SNC 6.0): from the policies' edition 5 the strong opponent does not search an order that raises it, nor
        end a step while an order would lower it (app/rules/search.py), nor from edition 8 does `greedy` give one
        (app/rules/practice.py `Limits`). Without it every order is searched."""

    def searched(self, state: Any, side: str, orders: list[str]) -> list[str]:
        """Of `orders` (the texts of the legal list, app/rules/legal.py), those the strong practice opponent
        searches for `side` here, from the policies' edition 7 (app/rules/search.py): the rule set passes over
        orders its victory conditions say are thrown away (Formosa: LP spent before the bases in reach, a base
        not built, units put where a hopeless attack is forced on them); from edition 8 `greedy` rates only these
        (app/rules/practice.py `considered`). An empty answer searches them all. Without it every order listed is
        searched."""

    def aims(self, state: Any, side: str, edition: int = 7) -> list[str]:
        """Orders toward what the victory conditions still need that the legal list may lack (Olympic: an American
        unit's move nearest the last Japanese units south or Kagoshima), unchecked: from the policies' edition 7
        the strong opponent searches those the rules accept beside the list's (app/rules/search.py). `edition`: the
        seat's, as for `stakes` (Olympic reads "nearest" along the Americans' way from edition 8). From edition 9
        `greedy` gives the one that raises the stakes most where it would end a step (app/rules/practice.py
        `stakes_move`; Formosa's engineers one hex nearer a bare port or airfield). Without it the search reads
        the legal list alone."""

    def near_end(self, state: Any) -> bool:
        """Whether what is left of the game from `state` is short enough to be played out (Dai Senso: at most three
        Combat Phases): from the policies' edition 8 the strong opponent's playouts go on past its tree with
        greedy's orders for both sides to the game's end, the outcome their value (app/rules/search.py `rollout`).
        Without it a playout is valued by the evaluation where it leaves the tree."""

    def unseen(self, state: Any, side: str, rng: Any, edition: int = 9) -> Any:
        """`state` with what `side` may not see beyond where the hidden enemy units stand drawn by `rng` (a
        random.Random), from the side's view and `rng` alone (Formosa: the enemy's air and naval points and
        invasion markers, 11.0; from `edition` 11 its strike plan until the reveal, 16.1): from the policies'
        edition 9 the positions a practice opponent reads and plays out are drawn so (app/rules/belief.py), told
        the seat's edition. Without it the sample keeps those parts as they are."""

    #: how the server plays an automated seat, {name: policy(state, side) -> (order text, reason)}, the first the
    #: default (app/rules/practice.py); every rule set that lists orders also gets the practice opponents
    policies: Mapping[str, Callable]
    #: the sides the server plays unless a game's creator says otherwise (Olympic: the Japanese)
    automated_seats: tuple[str, ...]
    #: the kinds of order `preview` draws (Previews): another kind is answered at once as having no preview
    previews: Previews
    #: the kinds of decision (steps of the states table) a player may answer in advance with a standing order,
    #: each with the words a preference for it may use, {kind: {word: order text}} (app/rules/standing.py)
    standing: Mapping[str, Mapping[str, str]]
    #: the first policies' edition that reads a hook named here, where later than the edition that brought the hook
    #: in (`progress`, `overstacked`: 5), so seats of an earlier edition decide as they played (app/rules/evaluation.py
    #: `hook`; Formosa: {"overstacked": 6, "searched": 7})
    search_editions: Mapping[str, int]


OPTIONAL_MEMBERS = tuple(name for name in Optional.__dict__ if not name.startswith("_")) \
    + tuple(Optional.__annotations__)
_REQUIRED = tuple(name for name in Rules.__dict__ if not name.startswith("_")) + tuple(Rules.__annotations__)


class NotARuleSet(TypeError):
    """A rule set that does not have the shape `Rules` and `Optional` declare (raised when it is loaded)."""


def conform(rules: Any, declared: Mapping[str, Any] | None = None) -> Any:
    """`rules` if it has every member `Rules` requires and each optional member it provides binds the signature
    `Optional` declares; else NotARuleSet naming the member. `declared`: the optional members the rule set
    declares by name (a Game's `extras`), each of which must be one of `Optional`'s, so a misspelled hook
    (`visibile`) fails when the game is loaded instead of being silently never called."""
    name = getattr(rules, "name", type(rules).__name__)
    missing = [m for m in _REQUIRED if not hasattr(rules, m)]
    if missing:
        raise NotARuleSet(f"{name}: lacks {', '.join(missing)} (app/rules/base.py Rules)")
    for member in declared or {}:
        if member not in OPTIONAL_MEMBERS:
            raise NotARuleSet(f"{name}: {member!r} is no optional member of a rule set; optional members: "
                              f"{', '.join(OPTIONAL_MEMBERS)} (app/rules/base.py Optional)")
    def given(member: str) -> Any:
        return (declared or {}).get(member, getattr(rules, member, None))

    if given("preview") is not None and not isinstance(given("previews"), Previews):
        raise NotARuleSet(f"{name}: a rule set with a preview declares the kinds of order it previews ('previews', "
                          "a Previews; app/rules/base.py)")
    for member in OPTIONAL_MEMBERS:
        value = given(member)
        if value is None or member in Optional.__annotations__:
            continue
        if not callable(value):
            raise NotARuleSet(f"{name}: optional member {member!r} is not callable")
        expected = [p for p in inspect.signature(getattr(Optional, member)).parameters if p != "self"]
        try:
            inspect.signature(value).bind(*expected)
        except TypeError:
            raise NotARuleSet(f"{name}: optional member {member!r} must take ({', '.join(expected)}); it takes "
                              f"{inspect.signature(value)}") from None
        except ValueError:  # a builtin without a signature: taken as it is
            continue
    return rules


def optional(rules: Any, member: str):
    """The rule set's optional member `member` (one of OPTIONAL_MEMBERS), or None if it lacks it."""
    if member not in OPTIONAL_MEMBERS:
        raise ValueError(f"{member!r} is not an optional rules member ({', '.join(OPTIONAL_MEMBERS)})")
    return getattr(rules, member, None)


# -- the catalog ---------------------------------------------------------------------------------------------
class UnknownRules(LookupError):
    def __init__(self, name: str, known: Iterable[str]):
        super().__init__(f"unknown rules {str(name)[:40]!r}; available: {', '.join(sorted(known))}")


class Catalog:
    """The rule sets a server runs, by name, each with its version (`Rules.version`, recorded by every game created
    under it). A program's composition root makes one (app/rules/catalog.py `installed`) and passes it into the
    application service, which hands it to its use cases and the projections (docs/architecture.md practice 13).
    `find(name)`: the rule set of that name, loaded when first asked for, or None; `names()`: every name, without
    loading any."""

    def __init__(self, find: Callable[[str], Rules | None], names: Callable[[], Iterable[str]]):
        self._find, self._names = find, names

    @classmethod
    def of(cls, *rule_sets: Rules) -> Catalog:
        """A catalog of exactly these rule sets, each held to the shape of a rule set (`conform`)."""
        by_name = {conform(r).name: r for r in rule_sets}
        return cls(by_name.get, by_name.keys)

    def names(self) -> list[str]:
        return sorted(self._names())

    def rules(self, name: str) -> Rules:
        rules = self._find(name) if isinstance(name, str) else None
        if rules is None:
            raise UnknownRules(name, self.names())
        return rules

    def available(self) -> dict[str, Rules]:
        """Every rule set by name (loads them all: for listings, not for playing one game)."""
        return {name: rules for name in self.names() if (rules := self._find(name)) is not None}
