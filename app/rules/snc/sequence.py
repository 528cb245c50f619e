"""The SNC states table (after Rally the Troops' rules modules): for each step of the sequence of play (5.1,
5.3) or each decision the sequence waits for, who acts, how the prompt reads, and the orders it takes, each with
its syntax line (its parser), case and handler, calling movement.py, combat.py and reinforcements.py."""
from __future__ import annotations

from app.rules.engine.decision import Decision
from app.rules.engine.table import OVER, StatesTable, Step, order
from app.rules.snc import combat, movement, reinforcements
from app.rules.snc import events as ev
from app.rules.snc.combat import overstacked_hexes, require_stacking
from app.rules.snc.orders import SLOTS, UNIT_ONCE, UNITS_BY_NAME, shorthand
from app.rules.snc.owed import owed as what_is_owed
from app.rules.snc.reinforcements import interdiction_due
from app.rules.snc.state import PHASE_NAMES, State
from app.rules.snc.victory import sudden_death, victory_check


def declare(em: Decision, side: str, first: str, second: str) -> None:
    em.emit(ev.PhasesDeclared(side, first, second))


def end(em: Decision, side: str) -> None:
    """End the phase; SNC 6.0 1) stacking is checked at the end of a movement phase: an overstacked hex is
    brought within the limits first, then the phase ends (the last `eliminate` ends it);
    after the Japanese Second Operations Phase comes the Victory Check (4.3, Phase II.D). A battle under way is
    finished first (10.1): its decisions are the steps then, and none of them takes `end`."""
    state = em.state
    if state.mode() == "move":  # not after placement (ruling R23)
        if overstacked_hexes(state, side):
            require_stacking(em, side, ending=state.since(3))
            return
    result = victory_check(state) if (side == "japanese" and state.phase == "ops2") else None
    em.emit(ev.PhaseEnded(state.phase, state.turn, side))
    if result is not None:
        em.emit(result)


# -- the states table (5.1, 5.3): each step's prompt, the orders it takes and their handlers -----------------
END = order("end", "SNC 5.1", "end this phase")
MOVE = order("move UNITS to HEX:to [via HEX:via ...]", "SNC 9.0", "move a unit or a stack that starts in one hex")
PASS = order("pass", "SNC 11.1", "add nothing")


class Decided(Step):
    """A decision the sequence waits for (state.pending): its side decides, and the prompt says what is owed."""

    def label(self, state: State) -> str:
        p = state.pending[0]
        return f"GT {state.turn}, {p['side']} decision: {p['kind']}"

    def owed(self, state: State):
        return what_is_owed(state)


class Losses(Decided):
    """SNC 10.5.2: the owner chooses which units lose the steps."""
    name = "losses"

    @order("lose UNIT [UNIT ...]", "SNC 10.5.2", "choose which units lose the steps")
    def lose(self, em: Decision, units: list[str]) -> None:
        combat.lose(em, em.side, units)


class Advance(Decided):
    """SNC 10.5.3: advance after combat, or stay."""
    name = "advance"

    @order("advance UNITS to HEX:path [HEX]", "SNC 10.5.3", "advance surviving attackers into the emptied hex")
    def advance(self, em: Decision, units: list[str], path: list[str]) -> None:
        combat.advance(em, em.side, units, path)

    @order("stay", "SNC 10.5.3", "do not advance")
    def stay(self, em: Decision) -> None:
        combat.stay(em, em.side)


class Passing(Decided):
    """A fire-support decision that may add nothing (11.1): the battle is resolved at once."""

    @PASS
    def pass_(self, em: Decision) -> None:
        em.emit(ev.DecisionMade(em.state.pending[0]["kind"], em.side))
        combat.resolve(em)


class Intercept(Passing):
    """SNC 11.3: the Chinese air force may try to intercept the Japanese air marker."""
    name = "intercept"

    @order("intercept", "SNC 11.3", "roll for the Chinese air force against the Japanese air marker")
    def intercept(self, em: Decision) -> None:
        em.emit(ev.DecisionMade("intercept", em.side))
        combat.intercept(em, "air support")
        combat.resolve(em)


class Defend(Passing):
    """SNC 11.4: the Chinese defender may add a naval gunfire marker."""
    name = "defend"

    @order("support naval", "SNC 11.4", "add a naval gunfire marker to the defence", defaults={"kind": "naval"})
    def support(self, em: Decision, kind: str) -> None:
        state = em.state
        if not combat.defensive_naval_allowed(state, state.battle["hex"]):
            em.refuse("SNC 11.4", "no naval gunfire marker can support this defence")
        em.emit(ev.DecisionMade("defend", em.side), ev.SupportAdded(em.side, "naval"))
        combat.resolve(em)


class Interdiction(Decided):
    """SNC 11.2: the Chinese choose the reinforcements the interdiction removes."""
    name = "interdiction"

    @order("remove UNIT [UNIT ...]", "SNC 11.2", "choose the reinforcements the interdiction removes",
           slots={"UNIT": UNIT_ONCE})
    def remove(self, em: Decision, units: list[str]) -> None:
        reinforcements.remove(em, units)


class Overstack(Decided):
    """SNC 6.0: an overstacked hex is brought within the limits; the `end` that asked for it then ends the
    phase (6.0 1))."""
    name = "overstack"

    @order("eliminate UNIT [UNIT ...]", "SNC 6.0", "eliminate units from an overstacked hex",
           slots={"UNIT": UNIT_ONCE})
    def eliminate(self, em: Decision, units: list[str]) -> None:
        ending = em.state.pending[0]["data"].get("ending")
        combat.eliminate(em, em.side, units)
        if ending and not em.state.pending:
            end(em, em.side)


class Retreat(Decided):
    """SNC 8.4: the Chinese survivors of a landing retreat one hex."""
    name = "retreat"

    @order("retreat to HEX", "SNC 8.4", "retreat the Chinese survivors of a landing one hex")
    def retreat(self, em: Decision, hex: str) -> None:
        combat.retreat(em, em.side, hex)


class InPhase(Step):
    """A phase of a player turn (5.1): the phasing side acts."""

    def label(self, state: State) -> str:
        return f"GT {state.turn}, {state.side} {PHASE_NAMES[state.phase]}"

    @END
    def end(self, em: Decision) -> None:
        end(em, em.side)


class Declare(InPhase):
    """SNC 5.3: what each Operations Phase of this player turn is for."""
    name = "declare"

    def allowed(self, state: State, orders: tuple[str, ...]):
        return ("declare",)

    @order("declare move|fight:first move|fight:second", "SNC 5.3",
           "announce what each Operations Phase of this player turn is for")
    def declare(self, em: Decision, first: str, second: str) -> None:
        declare(em, em.side, first, second)


class Operations(InPhase):
    """SNC 5.3: an Operations Phase, for movement or for combat as declared."""
    name = "operations"

    def label(self, state: State) -> str:
        return super().label(state) + f" ({state.mode()})"

    def allowed(self, state: State, orders: tuple[str, ...]):
        """SNC 5.3: moves (and the Japanese overrun, 9.6) in a phase chosen for movement, attacks in one chosen
        for combat; the one place this is decided."""
        if state.mode() == "move":
            return ("move", "overrun", "end") if state.side == "japanese" else ("move", "end")
        return ("attack", "end")

    @MOVE
    def move(self, em: Decision, units: list[str], to: str, via: list[str]) -> None:
        movement.move(em, em.side, units, to, via)

    @order("overrun HEX with UNITS [support KIND:support ...]", "SNC 9.6",
           "Japanese: overrun an adjacent hex (not a city or town) during movement")
    def overrun(self, em: Decision, hex: str, units: list[str], support: list[str]) -> None:
        movement.overrun(em, em.side, hex, units, support)

    @order("attack HEX with UNITS [support KIND:support ...]", "SNC 10.0",
           "attack one adjacent enemy hex with named units and fire support")
    def attack(self, em: Decision, hex: str, units: list[str], support: list[str]) -> None:
        combat.check_attack(em.state, em.side, hex, units, "attack")
        combat.open_battle(em, em.side, hex, units, support, "attack")


class ChineseReinforcements(InPhase):
    """SNC 8.1, 8.2, 11.2: the Chinese Reinforcement Phase, after any Japanese air interdiction."""
    name = "chinese-reinforcements"

    def label(self, state: State) -> str:
        return super().label(state) + (": Japanese air interdiction" if interdiction_due(state) else "")

    def allowed(self, state: State, orders: tuple[str, ...]):
        if interdiction_due(state):  # SNC 11.3: the Chinese air force, while in the game, may try to disrupt it
            return ("air", "proceed") if state.chinese_air else ("proceed",)
        names = ["place", "move", "end"]
        if state.turn >= int(state.data.params["reinforcements"]["rail_from_turn"]):
            names.insert(1, "rail")
        return names

    @order("air", "SNC 11.3", "roll for the Chinese air force against the interdiction")
    def air(self, em: Decision) -> None:
        reinforcements.air(em)

    @order("proceed", "SNC 11.2", "let the Japanese interdiction roll be made")
    def proceed(self, em: Decision) -> None:
        reinforcements.interdict(em)

    @order("place UNITS at HEX", "SNC 8.2",
           "place reinforcements in their listed hex (or a returning elite at Nanking, 8.1)",
           slots={"UNITS": UNITS_BY_NAME})
    def place(self, em: Decision, units: list[str], hex: str) -> None:
        reinforcements.place(em, units, hex)

    @order("rail UNITS to HEX", "SNC 8.2",
           "place reinforcements on a railroad hex with a rail line of communication (9.5.2)",
           slots={"UNITS": UNITS_BY_NAME})
    def rail(self, em: Decision, units: list[str], hex: str) -> None:
        reinforcements.rail(em, units, hex)

    @MOVE
    def move(self, em: Decision, units: list[str], to: str, via: list[str]) -> None:
        movement.move(em, em.side, units, to, via)


class JapaneseReinforcements(InPhase):
    """SNC 8.3, 8.4: the Japanese Reinforcement Phase: replacements, then landings."""
    name = "japanese-reinforcements"

    def allowed(self, state: State, orders: tuple[str, ...]):
        return (["replace"] if state.replacements > 0 else []) + ["land", "end"]

    @order("replace UNIT [UNIT ...]", "SNC 8.3", "flip reduced Japanese units back to full strength",
           slots={"UNIT": UNIT_ONCE})
    def replace(self, em: Decision, units: list[str]) -> None:
        reinforcements.replace_steps(em, units)

    @order("land UNITS at HEX [support KIND:support ...]", "SNC 8.4",
           "land reinforcements at a landing hex, assaulting any Chinese there", slots={"UNITS": UNITS_BY_NAME})
    def land(self, em: Decision, units: list[str], hex: str, support: list[str]) -> None:
        reinforcements.land(em, units, hex, support)


def step_of(state: State) -> str:
    """The step a position is in: the decision waited for, else its phase (the reinforcement phase by side)."""
    if state.phase == "over":
        return OVER
    if state.pending:
        return state.pending[0]["kind"]
    if state.phase in ("ops1", "ops2"):
        return "operations"
    if state.phase == "reinf":
        return f"{state.side}-reinforcements"
    return state.phase


def after_order(em: Decision) -> None:
    """SNC 4.1, 4.2: the sudden-death checks after every order."""
    ended = sudden_death(em.state)
    if ended is not None:
        em.emit(ended)


TABLE = StatesTable([Losses(), Advance(), Intercept(), Defend(), Interdiction(), Overstack(), Retreat(), Declare(),
                     Operations(), ChineseReinforcements(), JapaneseReinforcements()],
                    sequence_case="SNC 5.1", slots=SLOTS, step_of=step_of, shorthand=shorthand)
