"""The Ichi-Go states table (Rally the Troops' rules.js style): for each position in the sequence of play
(3.0 set-up, turn start, Phases I-X of 5.1) or each decision the sequence waits for, the side to act, its
legal actions and their handlers, side by side. The handlers' work is in the concept modules: movement.py,
combat.py, reinforcements.py (draws, entries, withdrawals, deployments: 3.3, 9.x, 5.3), causeway.py (the
Causeway roll, the US landings, naval transfer: 5.2-5.3, 10.11), airpower.py (7.8, 8.x) and victory.py (4.x);
here are only the order declarations (5.5) and the end of a step."""
from __future__ import annotations

from app.rules.engine.decision import Decision
from app.rules.engine.table import OVER, StatesTable, Step, order
from app.rules.errors import IllegalOrder
from app.rules.ichigo import airpower, causeway, combat, movement, reinforcements, victory
from app.rules.ichigo import events as ev
from app.rules.ichigo.orders import SLOTS, UNITS_BY_NAME
from app.rules.ichigo.owed import owed as what_is_owed
from app.rules.ichigo.state import State, phase_name


def decider_of_order(state: State, nation: str) -> str:
    """Ichi-Go 5.5, 5.3 item 1: who declares each nation's move/fight order."""
    oc = state.data.scenario["order_choice"]
    if nation == "japanese":
        return oc["japanese"]
    if nation == "us":
        return oc["us"]
    return oc["chinese_after_causeway"] if state.causeway else oc["chinese_before_causeway"]


def phase_side(state: State) -> str:
    return {"I": "allied", "II": "allied", "III": "allied", "IV": "japanese", "V": "japanese",
            "VI": "japanese", "VII": "japanese", "VIII": "allied", "IX": "allied", "X": "allied"}[state.phase]


def declare(em: Decision, side: str, nation: str, order: str) -> None:
    state = em.state
    if nation != state.nation_now() or nation in state.plans:
        raise IllegalOrder("Ichi-Go 5.5", f"the {nation} order is not declared now")
    if decider_of_order(state, nation) != side:
        raise IllegalOrder("Ichi-Go 5.5", f"the {decider_of_order(state, nation)} player declares the {nation} order")
    em.emit(ev.OrderDeclared(side, nation, order))


def end(em: Decision, side: str) -> None:
    state = em.state
    roll_turn = int(em.state.data.scenario["turn_start"]["causeway_roll_turn"])
    if state.phase == "start" and state.turn == roll_turn and state.causeway is None:
        raise IllegalOrder("Ichi-Go 5.2", "roll on the Causeway or Philippines Table first")
    if state.phase == "start" and state.causeway and state.b29_rolled != state.turn:
        raise IllegalOrder("Ichi-Go 8.9", "roll for the B-29 raid first")
    if state.phase == "I" and not causeway.landing_done(state):
        raise IllegalOrder("Ichi-Go 5.3", "the US landing is mandatory this turn")
    if state.phase == "X":
        left = reinforcements.drawn(state)
        if any(reinforcements.placeable(state, h) for h in left):
            raise IllegalOrder("Ichi-Go 9.7", "place every drawn counter first")
        for h in left:
            em.emit(ev.ReturnedToPool(h, "no initially Chinese city to take it (9.7)"))
    if em.state.phase == "X" and em.state.turn >= em.state.last_turn():
        em.emit(victory.final_outcome(em.state))
        return
    em.emit(ev.PhaseEnded(phase=state.phase, turn=state.turn))


# -- the states table (5.1): each step's prompt, the orders it takes and their handlers ----------------------
END = order("end", "Ichi-Go 5.0", "end this step")
STAY = order("stay", "Ichi-Go 11.24", "do not advance / make no momentum attack")
ROLL = order("roll", "Ichi-Go 5.2", "roll (Causeway or Philippines at the start of Turn 7; airpower in Phase IV)")
ATTACK = order("attack HEX with UNITS [tanks N:tanks] [sf:sf]", "Ichi-Go 11.0",
               "attack one adjacent enemy hex with named units", defaults={"tanks": 0})
ENTER = order("enter UNITS at HEX", "Ichi-Go 9.1",
              "enter Japanese reinforcements (the Kwantung Army too, 5.3 item 6) at a north-edge source or a rail "
              "city; the Formosa Garrison on Formosa (5.3 item 5); 14AA survivors at a friendly port or on the "
              "Formosa coast (9.4)", slots={"UNITS": UNITS_BY_NAME})
LAND = order("land UNITS [at HEX] [displace HEX:displace]", "Ichi-Go 5.3",
             "bring US divisions ashore with a beachhead marker (in an occupied port, name the hex its units move "
             "to)", slots={"UNITS": UNITS_BY_NAME}, defaults={"hex": None, "displace": None})


class Decided(Step):
    """A decision the sequence waits for (state.pending): its side decides, and the prompt says what is owed."""

    def label(self, state: State) -> str:
        p = state.pending[0]
        return f"Turn {state.turn}, {p['side']} decision: {p['kind']}"

    def owed(self, state: State):
        return what_is_owed(state)


class Losses(Decided):
    """Ichi-Go 11.20-11.23: the side that lost steps apportions them."""
    name = "losses"

    @order("lose UNIT [UNIT ...]", "Ichi-Go 11.21",
           "apportion the step losses of this battle (name a unit twice for two steps)")
    def lose(self, em: Decision, units: list[str]) -> None:
        combat.lose(em, em.side, units)


class Advance(Decided):
    """Ichi-Go 11.24: advance after combat, or stay."""
    name = "advance"

    @order("advance UNITS", "Ichi-Go 11.24", "advance surviving attackers into the emptied hex")
    def advance(self, em: Decision, units: list[str]) -> None:
        combat.advance(em, em.side, units)

    @STAY
    def stay(self, em: Decision) -> None:
        combat.stay(em, em.side)


class Momentum(Decided):
    """Ichi-Go 11.25: a momentum attack from the hex just taken, or stay."""
    name = "momentum"

    @ATTACK
    def attack(self, em: Decision, hex: str, units: list[str], tanks: int, sf: bool) -> None:
        if tanks or sf:
            em.refuse("Ichi-Go 11.25", "tank regiments and the 1st SF never join momentum attacks")
        combat.momentum_attack(em, em.side, hex, units)

    @STAY
    def stay(self, em: Decision) -> None:
        combat.stay(em, em.side)


class Airpower(Decided):
    """Ichi-Go 8.2: the side that won the airpower roll places its markers."""
    name = "airpower"

    @order("air HEX [HEX ...]", "Ichi-Go 8.2", "place every airpower marker won, one per hex")
    def air(self, em: Decision, hexes: list[str]) -> None:
        airpower.air(em, em.side, hexes)


class Tanks(Decided):
    """Ichi-Go 11.17: the Japanese defender commits tank regiments before the die."""
    name = "tanks"

    @order("commit N:count", "Ichi-Go 11.17", "commit N tank regiments to this defence (0 for none), before the die")
    def commit(self, em: Decision, count: int) -> None:
        combat.commit_tanks(em, em.side, count)


class Deployment(Decided):
    """Ichi-Go 5.3 items 5-6, ruling E3: the Formosa Garrison, then the Kwantung Army, deploy after the landing."""

    def __init__(self, name: str):
        self.name = name

    @ENTER
    def enter(self, em: Decision, units: list[str], hex: str) -> None:
        reinforcements.enter(em, em.side, units, hex)


class InPhase(Step):
    """A step of Phases I-X (5.1): the phase's side acts."""

    def who(self, state: State) -> str:
        return phase_side(state)

    def label(self, state: State) -> str:
        return f"Turn {state.turn}, {phase_name(state.phase)}"

    @END
    def end(self, em: Decision) -> None:
        end(em, em.side)


class SetUp(Step):
    """Ichi-Go 3.3: the Chinese regulars are drawn blind and set up."""
    name = "setup"

    def who(self, state: State) -> str:
        return "allied"

    def label(self, state: State) -> str:
        return "Set-up (3.3)"

    @order("deploy", "Ichi-Go 3.3", "draw the Chinese regulars blind and set them up untried")
    def deploy(self, em: Decision) -> None:
        reinforcements.deploy(em)


class TurnStart(InPhase):
    """Ichi-Go 5.2, 8.9: the Causeway roll, the B-29 raid and its roll at the start of a turn."""
    name = "start"

    def who(self, state: State) -> str:
        return "allied"

    def label(self, state: State) -> str:
        return f"Turn {state.turn}, start of turn"

    def allowed(self, state: State, orders: tuple[str, ...]):
        names = []
        if state.turn == int(state.data.scenario["turn_start"]["causeway_roll_turn"]) and state.causeway is None:
            names.append("roll")
        elif state.causeway and state.b29_rolled != state.turn:
            names.append("roll")
        if (not state.b29_used and not state.causeway) or (state.causeway and state.b29_ok):
            names.append("b29")
        return [*names, "end"]

    @ROLL
    def roll(self, em: Decision) -> None:
        if em.state.causeway is None:
            causeway.causeway_roll(em)
        else:
            airpower.b29_roll(em)

    @order("b29 HEX", "Ichi-Go 8.9", "place the B-29 marker on a Japanese-controlled city")
    def b29(self, em: Decision, hex: str) -> None:
        airpower.b29(em, hex)


class Declare(InPhase):
    """Ichi-Go 5.5, 5.3 item 1: a nation's move/fight order for the turn, declared before its first phase."""
    name = "declare"

    def who(self, state: State) -> str:
        return decider_of_order(state, state.nation_now())

    def label(self, state: State) -> str:
        return super().label(state) + f": declare the {state.nation_now()} order"

    def allowed(self, state: State, orders: tuple[str, ...]):
        return ("declare",)

    @order("declare japanese|chinese|us:nation move-fight|fight-move:order", "Ichi-Go 5.5",
           "announce move-then-fight or fight-then-move for a nation this turn")
    def declare(self, em: Decision, nation: str, order: str) -> None:
        declare(em, em.side, nation, order)


class Operations(InPhase):
    """Ichi-Go 5.1 Phases II-III, VI-VII, VIII-IX: a nation moves or fights, as it declared (5.5)."""
    name = "operations"

    def label(self, state: State) -> str:
        return super().label(state) + f" ({state.mode()})"

    def allowed(self, state: State, orders: tuple[str, ...]):
        nation, moving = state.nation_now(), state.mode() == "move"
        names = ["move"] if moving else ["attack"]
        if state.phase == "II" and state.turn >= causeway.turn_of(state, "us_reinforcements_from_turn") and moving:
            names.append("land")
            if airpower.can_drop(state):
                names.append("drop")
        if moving and airpower.airlift_open(state, nation):
            names.append("airlift")
        if nation == "us" and airpower.aerial_open(state):
            names.append("supply")
        return [*names, "end"]

    @order("move UNITS to HEX:to [via HEX:via ...] [strategic:strategic]", "Ichi-Go 10.0",
           "move a unit or a stack that starts in one hex")
    def move(self, em: Decision, units: list[str], to: str, via: list[str], strategic: bool) -> None:
        movement.move(em, em.side, units, to, via, strategic)

    @ATTACK
    def attack(self, em: Decision, hex: str, units: list[str], tanks: int, sf: bool) -> None:
        combat.attack(em, em.side, hex, units, tanks, sf)

    @LAND
    def land(self, em: Decision, units: list[str], hex: str | None, displace: str | None) -> None:
        causeway.land(em, em.side, units, hex, displace)

    @order("drop HEX", "Ichi-Go 8.11", "airdrop the 11th Airborne on a clear or rough hex free of Japanese units")
    def drop(self, em: Decision, hex: str) -> None:
        airpower.drop(em, em.side, hex)

    @order("airlift UNIT to HEX", "Ichi-Go 8.10", "fly one Chinese unit (or the 11th Airborne) between friendly "
                                                  "cities")
    def airlift(self, em: Decision, unit: str, hex: str) -> None:
        airpower.airlift(em, em.side, unit, hex)

    @order("supply HEX", "Ichi-Go 7.8", "place the US Aerial Supply Marker on an out-of-supply US stack (once a "
                                        "turn)")
    def supply(self, em: Decision, hex: str) -> None:
        airpower.aerial_supply(em, em.side, hex)


class Landings(InPhase):
    """Ichi-Go 5.3 items 4 and 12, 10.11: Phase I, the US landings and naval transfer."""
    name = "landings"

    def allowed(self, state: State, orders: tuple[str, ...]):
        landings = (causeway.turn_of(state, "us_formosa_landing_turn"),
                    causeway.turn_of(state, "us_mainland_landing_turn"))
        names = ["land"] if state.turn in landings else (["transfer"] if len(state.beachheads) == 2 else [])
        return [*names, "end"]

    @LAND
    def land(self, em: Decision, units: list[str], hex: str | None, displace: str | None) -> None:
        causeway.land(em, em.side, units, hex, displace)

    @order("transfer UNITS", "Ichi-Go 10.11", "move US units by sea from one beachhead to the other")
    def transfer(self, em: Decision, units: list[str]) -> None:
        causeway.transfer(em, em.side, units)


class AirPhase(InPhase):
    """Ichi-Go 8.1: Phase IV, the airpower roll."""
    name = "air-phase"

    def allowed(self, state: State, orders: tuple[str, ...]):
        return ("end",) if state.air_rolled else ("roll",)

    @ROLL
    def roll(self, em: Decision) -> None:
        airpower.airpower_roll(em)


class JapaneseReinforcements(InPhase):
    """Ichi-Go 9.1-9.5, 5.3 item 7: Phase V, Japanese reinforcements, withdrawals and 14AA shipments."""
    name = "japanese-reinforcements"

    def label(self, state: State) -> str:
        return super().label(state) + (": withdrawal (9.2)" if reinforcements.withdrawal_due(state) else "")

    def allowed(self, state: State, orders: tuple[str, ...]):
        if reinforcements.withdrawal_due(state):
            return ("withdraw",)
        return [*(["ship"] if reinforcements.shipment_due(state) else []), "enter", "absorb",
                *(["release"] if reinforcements.release_open(state) else []), "end"]

    @order("withdraw UNITS", "Ichi-Go 9.2", "withdraw two full-strength 4-factor divisions (Turn 5)",
           slots={"UNITS": UNITS_BY_NAME})
    def withdraw(self, em: Decision, units: list[str]) -> None:
        reinforcements.withdraw(em, em.side, units)

    @order("ship", "Ichi-Go 5.3", "roll for the 14AA units shipped this turn and their transport survival")
    def ship(self, em: Decision) -> None:
        reinforcements.ship(em)

    @ENTER
    def enter(self, em: Decision, units: list[str], hex: str) -> None:
        reinforcements.enter(em, em.side, units, hex)

    @order("absorb BRIGADE into DIVISION", "Ichi-Go 9.5",
           "a reduced division in an initial Japanese city absorbs a brigade there")
    def absorb(self, em: Decision, brigade: str, division: str) -> None:
        reinforcements.absorb(em, em.side, brigade, division)

    @order("release UNITS", "Ichi-Go 9.3", "bring two Formosa Garrison divisions to the mainland (Turn 9, no "
                                           "Causeway)", slots={"UNITS": UNITS_BY_NAME})
    def release(self, em: Decision, units: list[str]) -> None:
        reinforcements.release(em, em.side, units)


class ChineseReinforcements(InPhase):
    """Ichi-Go 9.7: Phase X, the Chinese reinforcements drawn blind and placed."""
    name = "chinese-reinforcements"

    def allowed(self, state: State, orders: tuple[str, ...]):
        return ("place", "end") if state.reinforced else ("reinforce",)

    @order("reinforce", "Ichi-Go 9.7", "roll and draw the Chinese reinforcements blind")
    def reinforce(self, em: Decision) -> None:
        reinforcements.reinforce(em)

    @order("place COUNTER:units at HEX", "Ichi-Go 9.7",
           "place a drawn Chinese counter in an initially Chinese city still held", slots={"COUNTER": UNITS_BY_NAME})
    def place(self, em: Decision, units: list[str], hex: str) -> None:
        reinforcements.place(em, em.side, units, hex)


_PHASE_STEPS = {"I": "landings", "IV": "air-phase", "V": "japanese-reinforcements", "X": "chinese-reinforcements"}


def step_of(state: State) -> str:
    """The step a position is in: the decision waited for, the set-up, the turn's start, a nation's declaration
    or operations, or the phase's own step."""
    if state.phase == "over":
        return OVER
    if state.pending:
        return state.pending[0]["kind"]
    if state.phase in ("setup", "start"):
        return state.phase
    nation = state.nation_now()
    if nation is not None:
        return "operations" if nation in state.plans else "declare"
    return _PHASE_STEPS[state.phase]


def after_order(em: Decision) -> None:
    """Ichi-Go 4.1, 4.4, 4.5: the sudden-death checks after every order once play has begun."""
    if em.state.phase != "setup":
        victory.sudden_death(em.state, em)


TABLE = StatesTable([Losses(), Advance(), Momentum(), Airpower(), Tanks(), Deployment("formosa-garrison"),
                     Deployment("kwantung-army"), SetUp(), TurnStart(), Declare(), Operations(), Landings(),
                     AirPhase(), JapaneseReinforcements(), ChineseReinforcements()],
                    sequence_case="Ichi-Go 5.1", step_of=step_of, slots=SLOTS)
