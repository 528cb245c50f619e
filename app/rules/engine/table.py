"""The states table (docs/architecture.md practice 2, after Rally the Troops' `states.NAME`): each step of the sequence
of play is a class that says who acts, how the prompt reads, and which orders it takes, with each order's syntax,
rules case and handler side by side. One declaration feeds the prompt, the parser, the decider and the list of
legal orders, so they cannot drift apart.

    class Movement(Step):
        '''SK 3.3: the side to act moves its units.'''
        name = "movement"

        def label(self, s): return f"turn {s.turn}, {s.side} movement step"

        @order("move UNIT HEX [HEX ...]", "SK 4.1", "move a unit along a path of adjacent hexes")
        def move(self, d, unit, hexes): ...

An order of an optional rule names it (`@order(..., option="25.3")`): the step offers it only in a game whose
options chose that rule (the table's `options(state)`); a game without the rule refuses it, in any step, with the
order's own case, so a player who sends it learns which rule it belongs to.
"""
from __future__ import annotations

import keyword
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from app.rules.base import Action, Command, Owed, Prompt
from app.rules.engine.state import Memo
from app.rules.engine.syntax import BUILTIN_SLOTS, Grammar, ParseContext, SlotType, words_of
from app.rules.errors import IllegalOrder, InvalidOrder

OVER = "over"


@dataclass(frozen=True)
class OrderSpec:
    """What `@order` records on a handler."""

    syntax: str
    case: str
    help: str
    candidates: Callable | None
    slots: Mapping[str, SlotType] | None = None
    defaults: Mapping[str, Any] | None = None
    option: str | None = None
    forbidden: tuple[tuple[str, str, str], ...] = ()


def order(syntax: str, case: str, help: str = "", candidates: Callable | None = None,
          slots: Mapping[str, SlotType] | None = None, defaults: Mapping[str, Any] | None = None,
          option: str | None = None, forbidden: tuple[tuple[str, str, str], ...] = ()):
    """Declare a step's method as the handler of an order. The handler is called as
    ``handler(step, d, **args)`` with the Decision `d` (app/rules/engine/decision.py) and the arguments the syntax
    line names. `candidates(state, side)` yields argument dicts worth trying for the list of legal orders (an
    order without slots needs none). `slots` reads a slot type this order's own way (over the table's);
    `defaults` gives the arguments an absent optional part leaves out (``{"tanks": 0}``), so the parsed command
    always names them. `option`: the optional rule the order belongs to (module docstring). `forbidden`: forms of
    the order a player may write that a rule forbids, (syntax, case, why) each: an order that does not read as
    `syntax` but reads as one of these is refused by that rule, naming its case (Ichi-Go 11.2: "attack 1906 1907
    with ..." is one attack on two hexes), not by the parser's "expected ..."."""

    def declare(fn: Callable) -> Callable:
        fn.order_spec = OrderSpec(syntax, case, help, candidates, slots, defaults, option, forbidden)
        return fn

    return declare


@dataclass(frozen=True)
class Order:
    """One kind of order as a step takes it: grammar, case, help and the bound handler."""

    name: str
    grammar: Grammar
    case: str
    help: str
    handler: Callable
    candidates: Callable | None
    defaults: Mapping[str, Any] | None = None
    option: str | None = None
    forbidden: tuple[tuple[Grammar, str, str], ...] = ()

    @property
    def action(self) -> Action:
        return Action(self.name, self.grammar.shown, self.case, self.help, self.grammar.subject_noun())


class Step:
    """One state of the sequence of play. Subclasses set `name` and override `label` (the prompt's words) and,
    where the step allows only some of its orders in some positions, `allowed`. `who` is the side to act:
    the side of the first decision waited for, else the state's `side`."""

    name: str = ""

    def who(self, state: Any) -> str | None:
        pending = getattr(state, "pending", ())
        return pending[0]["side"] if pending else state.side

    def label(self, state: Any) -> str:
        return self.name

    def allowed(self, state: Any, orders: tuple[str, ...]) -> Iterable[str]:
        """The names of this step's orders the side to act may give now (default: all of them)."""
        return orders

    def closed(self, state: Any, command: Command) -> tuple[str, str] | None:
        """Why the rules, not the sequence of play alone, forbid `command` that the step does not take now (an
        order `allowed` leaves out, or one given by the side not acting): (case, reason) to name in its refusal,
        or None for the sequence of play's own refusal."""
        return None

    def owed(self, state: Any) -> Owed | None:
        """What the decision this step waits for owes: where, how much, the candidates with their values (a step
        that is a decision says it; an ordinary step of the sequence owes nothing)."""
        return None

    @classmethod
    def declared(cls) -> dict[str, tuple[Callable, OrderSpec]]:
        """The step's orders: its own first, in the order written, then those it inherits."""
        found: dict[str, tuple[Callable, OrderSpec]] = {}
        for klass in cls.__mro__:
            for attr, value in vars(klass).items():
                spec = getattr(value, "order_spec", None)
                if spec is not None and attr not in found:
                    found[attr] = (value, spec)
        return found


class GameOver(Step):
    name = OVER

    def who(self, state: Any) -> None:
        return None

    def label(self, state: Any) -> str:
        return "game over"


class StatesTable:
    """The steps of a game, by name. `step_of(state)` names the step the state is in: by default the kind of the
    first decision waited for (`state.pending`), else `state.step`. `options(state)`: the optional rules a
    game chose (orders declared with `option=` are offered only with theirs)."""

    def __init__(self, steps: Iterable[Step], sequence_case: str, step_of: Callable[[Any], str] | None = None,
                 slots: Mapping[str, SlotType] | None = None, shorthand: Callable[[str], str] | None = None,
                 options: Callable[[Any], Iterable[str]] | None = None):
        self.sequence_case = sequence_case
        self.step_of = step_of or _default_step_of
        self.options = options or (lambda state: ())
        # a game's shorthand, written out before an order is read: shorthand(text) -> the text its syntax lines
        # read (SNC: "move/fight" for "declare move fight")
        self.shorthand = shorthand
        self.hex_slot = (slots or {}).get("HEX", BUILTIN_SLOTS["HEX"])  # how this game's orders read a hex
        self.steps: dict[str, Step] = {}
        self.orders: dict[str, dict[str, Order]] = {}
        for step in [*steps, GameOver()]:
            if step.name in self.steps:
                raise ValueError(f"two steps are named {step.name!r}")
            self.steps[step.name] = step
            bound = {}
            for attr, (fn, spec) in type(step).declared().items():
                grammar = Grammar(spec.syntax, {**(slots or {}), **(spec.slots or {})})
                name = _verb(attr)
                if grammar.verb != name:
                    raise ValueError(f"{type(step).__name__}.{attr}: the syntax {spec.syntax!r} must start with "
                                     f"{name!r}")
                forbidden = tuple((Grammar(form, grammar.slots), case, why) for form, case, why in spec.forbidden)
                bound[name] = Order(name, grammar, spec.case, spec.help, fn.__get__(step), spec.candidates,
                                    spec.defaults, spec.option, forbidden)
            self.orders[step.name] = bound
        # each verb's forms in any step, one a syntax line ("deploy default" at set-up, "deploy UNIT PLACE" after
        # a purchase): an order given where its step does not take it is read by the form it was written in, so
        # the states table refuses it by the case that gives it its phase, not the parser by another form's words
        self._any_step: dict[str, list[Order]] = {}
        for orders in self.orders.values():
            for name, o in orders.items():
                forms = self._any_step.setdefault(name, [])
                if all(f.grammar.syntax != o.grammar.syntax for f in forms):
                    forms.append(o)

    def unnameable(self, words: Iterable[str]) -> list[str]:
        """Why an order could not name each unit id of `words` that it could not: an id this game's orders would
        read as a hex (its HEX slot: "move w4520 to w4521", SNC's "move 3411 to 3512" naming the units in 3411),
        or one that is no word an order can hold (the engine's unit id: a space, a quote, markup; a game's own UNIT
        slot then finds the unit by that word in the position)."""
        found = []
        for word in words:
            if not _reads(BUILTIN_SLOTS["UNIT"], word):
                found.append(f"unit {word!r}: orders could not name it (a unit id is a letter or digit, then letters, "
                             "digits, - _ . /, at most 40 in all); give it another id")
            elif _reads(self.hex_slot, word):
                found.append(f"unit {word!r}: orders would read its id as a hex ({self.hex_slot.describe}); give it an "
                             "id that is not a hex label")
        return found

    def step(self, state: Any) -> Step:
        name = self.step_of(state)
        try:
            return self.steps[name]
        except KeyError:
            raise ValueError(f"the states table has no step {name!r}") from None

    def allowed(self, state: Any) -> list[Order]:
        step = self.step(state)
        chosen = set(self.options(state))
        orders = {name: o for name, o in self.orders[step.name].items() if o.option is None or o.option in chosen}
        return [orders[name] for name in step.allowed(state, tuple(orders))]

    def prompt(self, state: Any) -> Prompt:
        """Who acts now and how (once per position for a state with a `Memo`: parsing and deciding each order the
        list of legal orders tries ask for it again)."""
        if isinstance(state, Memo):
            return state.memo(("prompt", self), lambda: self._prompt(state))
        return self._prompt(state)

    def _prompt(self, state: Any) -> Prompt:
        step = self.step(state)
        return Prompt(step.who(state), step.label(state), tuple(o.action for o in self.allowed(state)),
                      step.owed(state))

    def refused(self, state: Any, command: Command, prompt: Prompt | None = None) -> IllegalOrder | None:
        """The table's refusal of `command` now, or None: named by the rule that forbids the order when the step
        gives one (`Step.closed`), else by the sequence of play's case with what the prompt offers."""
        text = (prompt or self.prompt(state)).refusal(command)
        if text is None:
            return None
        return IllegalOrder(*(self.step(state).closed(state, command) or (self.sequence_case, text)))

    def parse(self, text: str, side: str, state: Any) -> Command:
        """Read an order by its verb: the current step's form of that order if it has one, else the game's (once
        per position, text and side for a state with a `Memo`: the list of legal orders, a policy's rating and
        the order given each read it; each caller gets its own copy of the arguments' lists)."""
        if not isinstance(state, Memo):
            return self._parse(text, side, state)
        found = state.memo(("parse", self, text, side), lambda: self._parse(text, side, state))
        return Command(found.side, found.action, {k: list(v) if isinstance(v, list) else v
                                                  for k, v in found.args.items()})

    def _parse(self, text: str, side: str, state: Any) -> Command:
        if self.shorthand is not None:
            text = self.shorthand(text)
        words = words_of(text)
        if not words:
            raise InvalidOrder(text, "empty order")
        verb = words[0].lower()
        current = self.orders[self.step(state).name].get(verb)
        forms = [current] if current is not None else self._any_step.get(verb)
        if not forms:
            known = ", ".join(sorted(self._any_step))
            raise InvalidOrder(text, f"no order starts with {words[0][:20]!r}; orders: {known}")
        context = ParseContext(text, side, state)
        failures: list[InvalidOrder] = []
        for found in forms:
            try:
                args = found.grammar.parse(text, context)
            except InvalidOrder as exc:
                failures.append(exc)
                continue
            return Command(side, found.name, {**(found.defaults or {}), **args})
        for found in forms:
            for grammar, case, why in found.forbidden:  # a form a rule forbids: the rule refuses it, by its case
                try:
                    grammar.parse(text, context)
                except InvalidOrder:
                    continue
                raise IllegalOrder(case, why) from None
        reasons = list(dict.fromkeys(f.reason for f in failures))  # two forms may fail alike: said once
        if len(reasons) == 1:
            raise failures[0]
        raise InvalidOrder(text, "; or ".join(reasons))

    def handler(self, state: Any, command: Command) -> Order:
        """The order of the current step that carries out `command`, after the states table's own check (an order
        of an optional rule the game did not choose is refused with its own case)."""
        prompt = self.prompt(state)
        declared = self.orders[self.step(state).name].get(command.action) \
            or next(iter(self._any_step.get(command.action, ())), None)
        if command.side == prompt.side and declared is not None and declared.option is not None \
                and declared.option not in set(self.options(state)):
            raise IllegalOrder(declared.case, f"'{command.action}' belongs to optional rule {declared.option}, "
                                              "which this game was not created with")
        refused = self.refused(state, command, prompt)
        if refused is not None:
            raise refused
        return self.orders[self.step(state).name][command.action]


def _verb(attr: str) -> str:
    """The order a handler method is named for; a verb that is a Python keyword takes a trailing '_' (`pass_`)."""
    return attr[:-1] if attr.endswith("_") and keyword.iskeyword(attr[:-1]) else attr


def _default_step_of(state: Any) -> str:
    pending = getattr(state, "pending", ())
    return pending[0]["kind"] if pending else state.step


def _reads(slot: SlotType, word: str) -> bool:
    try:
        slot.read(word)
    except ValueError:
        return False
    return True
