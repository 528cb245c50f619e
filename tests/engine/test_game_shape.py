"""The engine a game is declared on (app/rules/engine/): one states table feeds the prompt, the parser, the
decider and the legal orders; shared events fold through the state; the state saves itself; games are found
without a hand-kept list. Exercised on a toy game declared here and on skirmish, the template."""
import dataclasses
import json
import subprocess
import sys
from dataclasses import dataclass, replace
from pathlib import Path

import pytest

from app.events.dice import RecordedDice
from app.events.registry import decode
from app.rules import catalog, legal
from app.rules.base import Command, NotARuleSet, UnknownRules
from app.rules.engine import state as engine_state
from app.rules.engine.decision import Decision
from app.rules.engine.events import DecisionMade, DecisionRequired, GameEnded, PhaseEnded
from app.rules.engine.game import Game
from app.rules.engine.state import SequencedState
from app.rules.engine.syntax import SlotType
from app.rules.engine.table import StatesTable, Step, order
from app.rules.errors import IllegalOrder, InvalidOrder
from app.rules.kernel.hexgrid import Hex
from app.rules.skirmish import GAME as SKIRMISH

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True, kw_only=True)
class Tally(SequencedState):
    step: str
    side: str
    total: int = 0


class Counting(Step):
    name = "counting"

    def label(self, s):
        return f"{s.side} counts ({s.total})"

    def allowed(self, s, orders):
        return [o for o in orders if o != "stop" or s.total >= 3]

    @order("add N", "T 1", "add N to the tally", candidates=lambda s, side: [{"n": k} for k in (1, 2, 9)])
    def add(self, d: Decision, n: int):
        if n > 5:
            d.refuse("T 1.1", f"at most 5 at a time, not {n}")
        d.emit(Added(n))
        if d.state.total >= 10:
            d.emit(DecisionRequired("confirm", "blue", {"total": d.state.total}))

    @order("roll", "T 2", "add a die")
    def roll(self, d: Decision):
        d.emit(Added(d.roll("T 2")))

    @order("stop", "T 3")
    def stop(self, d: Decision):
        d.emit(GameEnded(d.side, "stopped (T 3)"))


class Confirm(Step):
    name = "confirm"

    @order("confirm", "T 4")
    def confirm(self, d: Decision):
        d.emit(DecisionMade("confirm", d.side), GameEnded("red", f"{d.state.total} reached (T 4)"))


@dataclass(frozen=True)
class Added:
    n: int

    def apply(self, state):
        return replace(state, total=state.total + self.n)

    def describe(self):
        return f"+{self.n}"


@dataclass(frozen=True, eq=False)
class Options:
    options: dict


TOY = Game(name="toy", title="Toy", version="1", sides=("red", "blue"), scenarios={"one": "the only one"},
           sequence_case="T 0", table=StatesTable([Counting(), Confirm()], "T 0"), state_type=Tally,
           load_data=Options,
           start=lambda data, scenario, options, version: Tally(step="counting", side="red", data=data),
           view=lambda s, side: {"total": s.total})


@dataclass(frozen=True, kw_only=True)
class Phased(SequencedState):
    """A game whose sequence goes on from the phase the shared event says ended."""

    step: str = "counting"
    side: str = "red"
    phases_ended: tuple = ()

    def after_phase(self, event):
        return replace(self, phases_ended=(*self.phases_ended, (event.side, event.phase, event.turn)))


def test_a_phase_ended_is_handed_to_the_game_which_reads_which_phase_of_whose_turn_ended():
    ended = PhaseEnded("movement", 2, "red")
    assert TOY.evolve(Phased(), ended).phases_ended == (("red", "movement", 2),)
    assert [TOY.describe(e) for e in (ended, PhaseEnded("supply", 3))] == [
        "red end the movement phase of turn 2", "end of the supply phase of turn 3"]
    own_words = dataclasses.replace(TOY, phrases={PhaseEnded: lambda e: f"the {e.phase} phase is over"})
    assert own_words.describe(ended) == "the movement phase is over"  # a game's own line for a shared event


def test_the_prompt_lists_the_step_orders_the_step_allows_now():
    s = TOY.initial_state("one", {})
    p = TOY.prompt(s)
    assert (p.side, p.step, [a.name for a in p.actions]) == ("red", "red counts (0)", ["add", "roll"])
    assert p.actions[0].syntax == "add N" and p.actions[0].case == "T 1"
    assert [a.name for a in TOY.prompt(replace(s, total=3)).actions] == ["add", "roll", "stop"]


def test_a_state_in_a_step_the_table_does_not_have_is_named_in_the_error():
    with pytest.raises(ValueError, match="the states table has no step 'nowhere'"):
        TOY.prompt(Tally(step="nowhere", side="red"))


def test_orders_parse_by_their_syntax_and_decide_through_their_handler():
    s = TOY.initial_state("one", {})
    command = TOY.parse("add 4", "red", s)
    assert command == Command("red", "add", {"n": 4})
    events = TOY.decide(s, command, RecordedDice(next_index=0, recorded=[]))
    assert events == [Added(4)] and TOY.evolve(s, events[0]).total == 4
    with pytest.raises(IllegalOrder, match="T 1.1: at most 5"):
        TOY.decide(s, Command("red", "add", {"n": 6}), RecordedDice(next_index=0, recorded=[]))
    with pytest.raises(InvalidOrder, match="no order starts with 'fly'; orders: add, confirm, roll, stop$"):
        TOY.parse("fly 3", "red", s)


def test_a_die_roll_folds_to_the_same_state_so_a_decider_stream_replays_as_it_is():
    s = TOY.initial_state("one", {})
    events = TOY.decide(s, TOY.parse("roll", "red", s), RecordedDice(next_index=0, recorded=[4]))
    for e in events:
        s = TOY.evolve(s, e)
    assert [type(e).__name__ for e in events] == ["DieRolled", "Added"] and s.total == 4


def test_the_states_table_refuses_the_wrong_side_and_an_order_not_allowed_now():
    s = TOY.initial_state("one", {})
    with pytest.raises(IllegalOrder, match="T 0: it is red's turn"):
        TOY.decide(s, TOY.parse("add 1", "blue", s), RecordedDice(next_index=0, recorded=[]))
    with pytest.raises(IllegalOrder, match="'stop' is not allowed now"):
        TOY.decide(s, TOY.parse("stop", "red", s), RecordedDice(next_index=0, recorded=[]))


def test_a_decision_waited_for_is_its_own_step_and_the_game_ends_through_the_shared_event():
    s = replace(TOY.initial_state("one", {}), total=8)
    for e in TOY.decide(s, TOY.parse("add 2", "red", s), RecordedDice(next_index=0, recorded=[])):
        s = TOY.evolve(s, e)
    assert s.pending == ({"total": 10, "kind": "confirm", "side": "blue"},)
    assert TOY.prompt(s).side == "blue" and [a.name for a in TOY.prompt(s).actions] == ["confirm"]
    for e in TOY.decide(s, TOY.parse("confirm", "blue", s), RecordedDice(next_index=0, recorded=[])):
        s = TOY.evolve(s, e)
    assert s.pending == () and TOY.outcome(s).winner == "red" and TOY.prompt(s).side is None


def test_legal_orders_are_the_candidates_the_decider_accepts():
    s = TOY.initial_state("one", {})
    # "add 9" is a candidate the decider refuses (T 1.1); "roll" is legal up to its die, which is not rolled
    assert TOY.legal_orders(s, "red") == [{"order": "add 1", "action": "add", "case": "T 1"},
                                          {"order": "add 2", "action": "add", "case": "T 1"},
                                          {"order": "roll", "action": "roll", "case": "T 2"}]
    assert TOY.legal_orders(s, "blue") == []


def test_the_list_by_kind_gives_each_kind_its_syntax_case_and_accepted_orders_in_the_step_s_order():
    s = TOY.initial_state("one", {})
    kinds = legal.by_kind(TOY, s, "red")
    assert [(k["action"], k["syntax"], k["case"], [o["order"] for o in k["orders"]], k["count"], k["unchecked"])
            for k in kinds] == [("add", "add N", "T 1", ["add 1", "add 2"], None, 0), ("roll", "roll", "T 2",
                                                                                        ["roll"], None, 0)]
    assert legal.by_kind(TOY, s, "blue") == []


def test_a_state_copied_with_changes_is_the_one_dataclasses_replace_makes():
    s = TOY.initial_state("one", {})
    fast = engine_state.replace(s, total=4)
    assert fast == dataclasses.replace(s, total=4) and fast.data is s.data and s.total == 0
    with pytest.raises(TypeError, match="no field 'totl'"):
        engine_state.replace(s, totl=4)
    moved = engine_state.replace(Hex(1, 2), row=3)  # a class with a __post_init__ (its hash) is built again
    assert moved == Hex(1, 3) and hash(moved) == hash(Hex(1, 3)) and {moved: 1}[Hex(1, 3)] == 1


def test_every_legal_skirmish_order_is_accepted_and_nothing_else_offered_is():
    s = SKIRMISH.initial_state("standard", {})
    legal = SKIRMISH.legal_orders(s, "red")
    assert len(legal) > 20 and all(SKIRMISH.is_legal(s, SKIRMISH.parse(o["order"], "red", s)) for o in legal)
    texts = {o["order"] for o in legal}
    assert "move R1 0202" in texts and "move R1 0303" not in texts  # woods then woods is 4 MP (SK 4.1)


def test_a_state_saves_and_loads_with_its_data_put_back():
    s = SKIRMISH.initial_state("standard", {})
    raw = json.loads(json.dumps(SKIRMISH.encode_state(s)))
    back = SKIRMISH.decode_state(raw)
    assert back == s and back.data is s.data and "data" not in raw["state"]


@dataclass(frozen=True, kw_only=True)
class Ledger(SequencedState):
    step: str = "counting"
    side: str = "red"
    last: tuple[str, int] = ("red", 0)  # a fixed pair: who moved last, and how far
    moves: tuple = ()  # untyped: (unit, path) each, saved as lists


def test_a_state_of_fixed_pairs_and_untyped_tuples_saves_and_loads_as_it_was():
    s = Ledger(last=("blue", 3), moves=(("R1", ("0101", "0102")), ("B2", ())), pending=({"kind": "k", "side": "red"},))
    raw = json.loads(json.dumps(engine_state.encode(s)))
    assert engine_state.decode(Ledger, raw) == s


def test_a_game_variant_is_a_replace_and_a_game_refuses_unknown_extras():
    variant = dataclasses.replace(SKIRMISH, name="variant")
    assert variant.name == "variant" and variant.preview is SKIRMISH.preview
    assert not hasattr(dataclasses.replace(SKIRMISH, extras={}), "preview")
    with pytest.raises(NotARuleSet, match="'peek' is no optional member"):
        dataclasses.replace(SKIRMISH, extras={"peek": print})


def test_events_stored_under_a_game_own_name_read_as_the_shared_event():
    assert decode("skirmish.GameEnded", 1, {"winner": "red", "reason": "r"}) == GameEnded("red", "r")


def test_games_are_found_without_a_list_and_loaded_only_when_asked_for():
    assert {"skirmish", "snc", "ichigo"} <= set(catalog.installed().names())
    code = ("import sys; from app.rules import catalog; catalog.installed().rules('skirmish'); "
            "print(sorted(m for m in sys.modules if m in ('app.rules.snc', 'app.rules.ichigo')))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
    with pytest.raises(UnknownRules):
        catalog.installed().rules("kernel")
    with pytest.raises(UnknownRules):
        catalog.installed().rules("../snc")


def test_the_guide_walks_every_file_of_the_skirmish_template():
    """docs/adding-a-game.md states how many files a game is and walks through each of skirmish's."""
    root = Path(__file__).resolve().parents[2]
    package = root / "app/rules/skirmish"
    files = sorted(str(p.relative_to(package)) for p in package.rglob("*")
                   if p.is_file() and "__pycache__" not in p.parts)
    guide = (root / "docs/adding-a-game.md").read_text(encoding="utf-8")
    assert "skirmish is ten files" in guide and len(files) == 10, files
    assert [f for f in files if f"`{f}`" not in guide] == []


class Giving(Step):
    """A step whose order reads its units against the position, in its own way, with a default."""

    name = "giving"

    @order("give UNITS [bonus N:bonus] [twice:twice]", "T 4", defaults={"bonus": 0},
           slots={"UNITS": SlotType.in_context(lambda word, ctx: [u for u in ctx.state.units if u.startswith(word)],
                                               "a unit prefix", plural=True)})
    def give(self, d: Decision, units: list, bonus: int, twice: bool):
        pass


@dataclass(frozen=True, kw_only=True)
class Holding(SequencedState):
    step: str = "giving"
    side: str = "red"
    units: tuple = ("ra", "rb", "bx")


def test_an_order_reads_its_slots_against_the_state_and_names_every_default():
    table = StatesTable([Giving()], "T 0")
    command = table.parse("give r bx", "red", Holding())
    assert command.args == {"units": ["ra", "rb", "bx"], "bonus": 0, "twice": False}
    assert table.parse("give bx bonus 2 twice", "red", Holding()).args == {"units": ["bx"], "bonus": 2,
                                                                            "twice": True}
    assert table.prompt(Holding()).actions[0].syntax == "give UNITS [bonus N] [twice]"


def test_a_shorthand_is_written_out_before_an_order_is_read():
    table = StatesTable([Counting()], "T 0", shorthand=lambda text: "add 1" if text.strip() == "a" else text)
    state = TOY.initial_state("one", {})
    assert table.parse("a", "red", state) == Command("red", "add", {"n": 1})
    assert table.parse("add 2", "red", state) == Command("red", "add", {"n": 2})


class Scouting(Step):
    """A step with an order of an optional rule."""

    name = "scouting"

    @order("scout HEX", "T 9.1", option="9")
    def scout(self, d: Decision, hex: str):
        d.emit(Added(1))

    @order("stop", "T 3")
    def stop(self, d: Decision):
        d.emit(GameEnded(d.side, "stopped (T 3)"))


def test_an_order_of_an_optional_rule_is_offered_and_taken_only_in_a_game_that_chose_the_rule():
    def table(chosen):
        return StatesTable([Scouting()], "T 0", options=lambda state: chosen)

    state = Tally(step="scouting", side="red")
    assert [a.name for a in table(("9",)).prompt(state).actions] == ["scout", "stop"]
    assert [a.name for a in table(()).prompt(state).actions] == ["stop"]
    with pytest.raises(IllegalOrder, match="T 9.1: 'scout' belongs to optional rule 9, which this game was not"):
        table(()).handler(state, Command("red", "scout", {"hex": "0101"}))


class Firing(Step):
    """An order with two forms a rule forbids."""

    name = "firing"

    @order("fire HEX with UNIT", "T 5",
           forbidden=(("fire HEX:at HEX:also with UNIT", "T 5.1", "one hex at a time"),
                      ("fire HEX with UNIT:first UNIT:second", "T 5.2", "one unit fires")))
    def fire(self, d: Decision, hex: str, unit: str):
        pass


def test_each_form_a_rule_forbids_is_refused_by_that_rule_naming_its_case():
    table = StatesTable([Firing()], "T 0")
    state = Tally(step="firing", side="red")
    with pytest.raises(IllegalOrder, match="T 5.1: one hex at a time"):
        table.parse("fire 0101 0102 with a", "red", state)
    with pytest.raises(IllegalOrder, match="T 5.2: one unit fires"):
        table.parse("fire 0101 with a b", "red", state)
    with pytest.raises(InvalidOrder, match="expected"):
        table.parse("fire with a", "red", state)
