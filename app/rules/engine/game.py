"""A game as one declaration (docs/architecture.md practice 14): its data, its states table, its state, its visibility
rule, and its optional extras. `Game` is the Rules contract of app/rules/base.py for every game built this way, so a
game package writes no facade, no dispatch chain and no codec of its own.

    GAME = Game(name="skirmish", title=..., version="1", sides=("red", "blue"), scenarios={...},
                sequence_case="SK 3.3", table=sequence.TABLE, state_type=State, load_data=data.load,
                start=setup.start, view=view.view)

Game data is passed in, never read from a global: `load_data(options)` builds it once per set of options
(a custom map, say) and the state carries it (`state.data`); every handler reads `d.data` or `state.data`.
The data object keeps the options it was built from (`data.options`): a snapshot saves those, not the data.
"""
from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, fields
from functools import lru_cache, partial
from typing import Any

from app.events.core import DieRolled
from app.rules import legal
from app.rules.base import OPTIONAL_MEMBERS, Candidate, Command, NotARuleSet, Outcome, Prompt, conform
from app.rules.custom_setup import OPTION_KEYS, SetupError, unforeseen
from app.rules.engine import state as codec
from app.rules.engine.decision import Decision, FixedDice, ProbeDice
from app.rules.engine.table import OVER, StatesTable
from app.rules.errors import IllegalOrder


@dataclass(frozen=True, eq=False)
class Game:
    name: str
    title: str
    version: str
    sides: tuple[str, ...]
    scenarios: Mapping[str, str]
    sequence_case: str
    table: StatesTable
    state_type: type
    load_data: Callable[[Mapping], Any]
    # start(data, scenario, options, version) -> the first state, its options read under rules `version` (None: this)
    start: Callable[[Any, str, Mapping, str | None], Any]
    view: Callable[[Any, str | None], dict]
    # what follows every order once accepted (the sudden-death checks): it may emit and roll, never refuse
    after_order: Callable[[Decision], None] | None = None
    extras: Mapping[str, Callable] = field(default_factory=dict)
    # automated seats (app/rules/practice.py): the game's own policies, name -> policy(state, side) -> (order
    # text, reason), the first its default; and the sides the server plays unless a game's creator says otherwise
    policies: Mapping[str, Callable] = field(default_factory=dict)
    automated_seats: tuple[str, ...] = ()
    # played_under(state, version) -> state: a game created under an older rules version decided as it was played
    # (app/rules/base.py); None: every game is decided by the current rules
    played_under: Callable[[Any, str], Any] | None = None
    # a shared event in the game's own words for its history, {event type: describe(event) -> str}
    phrases: Mapping[type, Callable[[Any], str]] = field(default_factory=dict)
    # raise it when the saved state's shape changes: snapshots of the old shape are then ignored and rebuilt
    # (2: records by key, such as the units, saved as ordered pairs: app/rules/engine/state.py `encode`)
    snapshot_format: int = 2

    def __post_init__(self):
        """The declaration is held to the shape of a rule set (app/rules/base.py `conform`): an extra of another
        name than the optional members (`visibile`) or of another signature fails here, when the game is loaded."""
        own = sorted(set(self.extras) & ({f.name for f in fields(self)} | set(dir(Game))))
        if own:
            raise NotARuleSet(f"{self.name}: {', '.join(own)} is a field of the Game declaration, not an extra")
        conform(self, self.extras)
        object.__setattr__(self, "_data", lru_cache(maxsize=8)(self._data_for))

    def __getattr__(self, name: str):
        if name in OPTIONAL_MEMBERS:
            try:
                return self.__dict__["extras"][name]
            except KeyError:
                raise AttributeError(f"{self.__dict__.get('name')} has no {name}") from None
        raise AttributeError(name)

    # -- data ---------------------------------------------------------------------------------------------
    def data(self, options: Mapping | None = None) -> Any:
        """The game's data under these options (cached: the same options give the same object)."""
        return self._data(json.dumps(dict(options or {}), sort_keys=True))

    def _data_for(self, options_json: str) -> Any:
        return self.load_data(json.loads(options_json))

    # -- the fold -----------------------------------------------------------------------------------------
    def initial_state(self, scenario: str, options: Mapping, version: str | None = None) -> Any:
        """`start(data, scenario, options, version)` reads the options under the rules of `version` (None: this
        version), so a check of a position that a later version added refuses only games created under it; a game
        created under an older version is then decided as it was played (`played_under`; docs/core.md)."""
        if scenario not in self.scenarios:
            raise ValueError(f"{self.name} has no scenario {scenario!r}; scenarios: {', '.join(self.scenarios)}")
        state = self._started(scenario, options, version)
        # a unit id no order could name: refused for a game created now; a stored one loads as it was stored
        unnameable = self.table.unnameable(getattr(state, "units", ())) if version in (None, self.version) else ()
        if unnameable:  # a position that names its own units (Dai Senso's [[unit]] id), or a game's data
            raise SetupError("position", unnameable)
        return state if version is None or self.played_under is None else self.played_under(state, version)

    def _started(self, scenario: str, options: Mapping, version: str | None) -> Any:
        """`start` on these options. A custom map or position a game's own reader did not foresee (a list where
        a word belongs, a number where a list does: `TypeError`, `KeyError`, ...) is refused as a SetupError
        naming what failed, not let out as an engine fault (a 5xx): bad input gets a clear error and changes
        nothing. The printed scenario (no map, no position) is the game's own data: its faults stay faults."""
        if not any(options.get(k) is not None for k in OPTION_KEYS):
            return self.start(self.data(options), scenario, options, version)
        try:
            return self.start(self.data(options), scenario, options, version)
        except (TypeError, KeyError, IndexError, AttributeError, OverflowError, RecursionError) as exc:
            raise SetupError("position" if options.get("position") is not None else "map", [
                f"could not be read: {unforeseen(exc)} (each key's form: docs/custom-positions.md)"]) from exc

    def evolve(self, state: Any, event: Any) -> Any:
        """An event's effect is its own `apply`; a die roll changes no game state (practice 1)."""
        return state if isinstance(event, DieRolled) else event.apply(state)

    # -- the states table ---------------------------------------------------------------------------------
    def prompt(self, state: Any) -> Prompt:
        return self.table.prompt(state)

    def refused(self, state: Any, command: Command) -> IllegalOrder | None:
        return self.table.refused(state, command)

    def parse(self, text: str, side: str, state: Any) -> Command:
        return self.table.parse(text, side, state)

    def decide(self, state: Any, command: Command, dice) -> list:
        order = self.table.handler(state, command)
        d = Decision(state, command.side, dice, self.evolve)
        order.handler(d, **command.args)
        # what follows every accepted order (sudden death) never refuses it: a probe asking only whether the
        # order is accepted (app/rules/legal.py) has its answer here
        if self.after_order is not None and not isinstance(dice, ProbeDice) and self.table.step_of(d.state) != OVER:
            self.after_order(d)
        return d.events

    def is_legal(self, state: Any, command: Command) -> bool:
        """Would `command` be accepted now? The decider run up to its first die (app/rules/legal.py)."""
        return legal.refusal(self, state, command) is None

    def orders_to_try(self, state: Any, side: str) -> Iterator[Candidate]:
        """The orders the states table's candidates name for `side` now, unchecked, each with its kind and
        subject (app/rules/legal.py)."""
        if self.prompt(state).side != side:
            return
        for order in self.table.allowed(state):
            name, subject, render = order.name, order.grammar.subject, order.grammar.render
            for args in (order.candidates(state, side) if order.candidates else [{}]):
                yield Candidate(name, subject(args), render=partial(render, args))

    def legal_orders(self, state: Any, side: str, limit: int = legal.LIMIT) -> list[dict]:
        """Concrete orders `side` may give now, each checked by the decider (app/rules/legal.py)."""
        return legal.legal_orders(self, state, side, limit)

    def outcomes_by_face(self, state: Any, command: Command, faces: int = 6) -> dict[int, list]:
        """The events `command` would produce if every die showed each face: a preview that uses the same
        decider as the order itself, so the two cannot disagree. Writes nothing."""
        return {face: self.decide(state, command, FixedDice(face)) for face in range(1, faces + 1)}

    # -- outputs ------------------------------------------------------------------------------------------
    def outcome(self, state: Any) -> Outcome | None:
        return Outcome(state.winner, state.reason) if self.table.step_of(state) == OVER else None

    def describe(self, event: Any) -> str:
        if isinstance(event, DieRolled):
            return f"die roll {event.value} ({event.purpose})"
        phrase = self.phrases.get(type(event))
        if phrase is not None:
            return phrase(event)
        return event.describe() if hasattr(event, "describe") else type(event).__name__

    def encode_state(self, state: Any) -> dict:
        return {"options": state.data.options if state.data is not None else {}, "state": codec.encode(state)}

    def decode_state(self, raw: dict) -> Any:
        return codec.decode(self.state_type, raw["state"], self.data(raw["options"]))
