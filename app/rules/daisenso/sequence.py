"""The Dai Senso states table: the Combat Phase (4.1 Blitz, 4.2 Regular, 4.3 Marker segments), each step with
its prompt and its orders, and the decisions a combat waits for (4.2.2 steps 2, 6-8). The phases follow one
another, the factions in turn, until the scenario's end (D16)."""
from __future__ import annotations

import re
from dataclasses import replace
from functools import partial

from app.rules.base import Candidate, Owed
from app.rules.daisenso import blitz, combat, terrain
from app.rules.daisenso.events import (
    ConvoyReturned,
    CvStrikesReturned,
    MarkersCleared,
    PhaseBegan,
    StepBegan,
    UnitEliminated,
)
from app.rules.daisenso.state import AXIS, State
from app.rules.daisenso.terrain import AIRDROPS, BEACHHEADS, H
from app.rules.engine.decision import Decision
from app.rules.engine.events import DecisionMade, DecisionRequired, GameEnded
from app.rules.engine.syntax import BUILTIN_SLOTS, ParseContext, SlotType
from app.rules.engine.table import StatesTable, Step, order

C = "Dai Senso "
HEX_WORD = r"[a-zA-Z]?[0-9]{4}"  # a hex as orders write it: its sheet's letter and XXYY
COMBAT_STEPS = ("blitz-combat", "regular-combat")


# -- the clock ------------------------------------------------------------------------------------------------
def opening_step(state: State) -> State:
    """The step a position starts in. A Blitz Combat Segment without the phasing faction's Blitz marker is only
    its CV Strike step (4.1 clarification), which needs no decision: the position starts at the Regular Combat
    Segment with its CV Strikes returned (ruling D26)."""
    if state.step == "regular":
        return replace(state, step="regular-combat")
    if state.step == "marker":
        return replace(state, step="convoys")
    if state.has_marker(state.phasing, "blitz"):
        return replace(state, step="airdrop" if blitz.airdrop_units(state) and not attacks_made(state)
                       else "blitz-combat")
    if snlf_without_blitz(state):
        return replace(state, step="landing")
    for uid in _cv_strikes(state):
        state = CvStrikesReturned([uid]).apply(state)
    return replace(state, step="regular-combat")


def snlf_without_blitz(state: State) -> bool:
    """Ruling D70 (rules version 15): without the phasing faction's Blitz marker the Blitz Combat Segment still has
    its Beachhead Landing step when a supplied SNLF Beachhead-0 may land its Detachment (4.1.3.1: the marker is
    Blitz-enabled of itself and needs no ground unit), before the CV Strikes return (4.1.5); version 14 and before
    made the segment only its CV Strike step (4.1 clarification) and the marker was set aside unused (4.3 step 3)."""
    return state.since(15) and bool(blitz.snlf_landings(state))


def attacks_made(state: State) -> bool:
    """A position in the middle of its Blitz Combat (ruling D36: hexes attacked, units that attacked or HQs that
    fought) is past the Airdrop step: every activity of a step comes before the next step's (4.1 clarification;
    ruling D54)."""
    return bool(state.attacked_hexes) or any(u.attacked or u.fought for u in state.units.values())


def _cv_strikes(state: State) -> list[str]:
    """4.1.5: all CV Strike units in hexes, whichever faction's (ruling D38; rules version 3 and before took only
    the phasing faction's)."""
    return sorted(u.id for u in state.units.values()
                  if state.kind(u).type == "cv-strike" and (state.since(4) or u.faction == state.phasing))


def enter(d: Decision, step: str) -> None:
    """Begin ``step``, passing over the steps with nothing to do."""
    state = d.state
    if step == "airdrop" and not blitz.airdrop_units(state):
        step = "blitz-combat"
    if step == "landing" and not (blitz.landers(state) or blitz.snlf_landings(state)):
        step = "airdrop-landing"
    if step == "airdrop-landing":
        blitz.lapsed_airdrops(d)
        if not blitz.airdrop_markers(d.state):
            end_blitz(d)
            return
    if step == "convoys" and not _used_convoys(state):
        _markers(d)
        return
    d.emit(StepBegan(step))


def end_blitz(d: Decision) -> None:
    """4.1 step 5 and the segment's end: CV Strikes return, stacks conform (D15), the Regular Combat Segment."""
    strikes = _cv_strikes(d.state)
    if strikes:
        d.emit(CvStrikesReturned(strikes))
    if not settle_overstacks(d, "regular-combat"):
        d.emit(StepBegan("regular-combat"))


def settle_overstacks(d: Decision, then: str) -> bool:
    """D15: at a Combat Segment's end each overstacked owner eliminates units; True while that is waited for."""
    state = d.state
    for faction in (state.phasing, state.other_faction(state.phasing)):
        if overstacked(state, faction):
            d.emit(DecisionRequired("overstack", state.side_of(faction), {"then": then}))
            return True
    return False


def overstacked(state: State, faction: str) -> list[str]:
    counts: dict[str, int] = {}
    for u in state.units.values():
        if u.faction == faction and state.kind(u).is_ground:
            counts[u.hex] = counts.get(u.hex, 0) + 1
    return sorted(h for h, n in counts.items() if n > state.data.stacking_limit)


def _used_convoys(state: State) -> list[str]:
    return sorted(key.split("/", 1)[1] for key, box in state.convoys.items()
                  if key.split("/", 1)[0] == state.phasing and box["used"] > 0)


def _markers(d: Decision) -> None:
    """4.3 steps 2-3, then the end of the Combat Phase."""
    state = d.state
    faction = state.phasing
    kinds = sorted({m.kind for m in state.markers if m.faction == faction
                    and m.kind in ("blitz", "totsugeki", "failure", "snlf-beachhead-0")})
    if kinds or any(f == faction for _, f in state.mobilizing) or any(u.faction == faction and u.blitz
                                                                      for u in state.units.values()):
        d.emit(MarkersCleared(faction, kinds))
    if faction == AXIS:
        state = d.state
        beached = {m.hex for m in state.markers if m.faction == AXIS and m.kind in BEACHHEADS}
        for u in sorted(state.units.values(), key=lambda x: x.id):
            if (u.faction == AXIS and state.kind(u).is_ground and not state.data.is_land(H(u.hex))
                    and u.hex not in beached):
                box, kind = combat.removal(state, u)
                if not box and not state.since(10):  # the IG HQ leaves the game (ruling D58; version 9: its pool)
                    box = "delay" if state.kind(u).delay else "pool"
                d.emit(UnitEliminated(u.id, box, C + "4.3 step 3", **({"kind": kind} if kind != u.kind else {})))
    _end_phase(d)


def stakes(state, side: str, edition: int = 3) -> float:
    """How near `side` stands to victory, -1 to 1 (the strong opponent's evaluation, app/rules/evaluation.py): the
    scenario's faction wins by holding every hex it must hold with a ground unit after the last Combat Phase (D16),
    so each such hex counts -1 unheld, else its holder's defence against the enemy's attack next to it (the
    share, from -1 to 1); the mean is that faction's reading."""
    if not state.victory_hold:
        return 0.0
    mine = state.victory_faction
    total = 0.0
    for h in state.victory_hold:
        held = sum(state.data.kinds[u.kind].defense for u in state.ground_at(h, mine))
        if not state.ground_at(h, mine):
            total -= 1.0
            continue
        near = sum(state.data.kinds[u.kind].attack for n in state.data.atlas.neighbours(H(h))
                   for u in state.ground_at(str(n)) if u.faction != mine)
        total += 2 * held / (held + near) - 1 if held + near else 1.0
    reading = total / len(state.victory_hold)
    return reading if side == state.side_of(mine) else -reading


def near_end(state) -> bool:
    """Whether the strong opponent plays its playouts out to the game's end (app/rules/search.py `rollout`, from
    the policies' edition 8): D16 is decided by the hexes held after the last Combat Phase, and a game with at most
    three Combat Phases left, this one included (every printed scenario from its start), ends within a few dozen
    orders."""
    return state.last_phase - state.combat_phase < 3


def _end_phase(d: Decision) -> None:
    state = d.state
    if state.combat_phase >= state.last_phase:
        held = [h for h in state.victory_hold if state.ground_at(h, state.victory_faction)]
        if len(held) == len(state.victory_hold):
            winner = state.victory_faction
            reason = f"the {winner} faction holds {', '.join(state.victory_hold)} (D16)"
        else:
            winner = state.other_faction(state.victory_faction)
            missing = sorted(set(state.victory_hold) - set(held))
            reason = f"the {state.victory_faction} faction does not hold {', '.join(missing)} (D16)"
        d.emit(GameEnded(state.side_of(winner), reason))
        return
    d.emit(PhaseBegan(state.combat_phase + 1, state.other_faction(state.phasing)))
    if d.state.has_marker(d.state.phasing, "blitz"):
        enter(d, "airdrop")
    elif snlf_without_blitz(d.state):  # ruling D70
        enter(d, "landing")
    else:
        end_blitz(d)


def one_at_a_time(d: Decision, named: list[str], case: str, why: str) -> str:
    """The one unit or hex an order names where the rule has them taken one at a time; a second is refused by
    that rule, naming it."""
    if len(set(named)) > 1:
        d.refuse(C + case, f"{why}: name one, not {', '.join(named)}")
    return named[0]


# -- candidates for the list of legal orders ------------------------------------------------------------------
def _attack_candidates(state: State, side: str):
    for t, near, hqs in _attack_targets(state, side):
        near = [u for u in near if u not in [h for h in near if h in hqs][1:]]  # one HQ a combat (4.2.1.2)
        yield {"hexes": [t], "units": near}
        for hq in hqs:
            if hq not in near:
                yield {"hexes": [t], "units": near, "hq": [hq]}
        if len(near) > 1:
            for uid in near:
                yield {"hexes": [t], "units": [uid]}


def more_orders(state: State, side: str):
    """Rulings D71 and D72 (rules version 17): the orders the list of legal orders and a unit's orders (`naming`) try
    after the table's candidates (app/rules/legal.py `listed_candidates`), which stay what the random player draws
    from, as they were: the attacks `_attack_candidates` misses (`_forces`) and each unit's Exploitation into the
    defending hex alone (4.2.8: not required to go its full distance). The decider keeps those it accepts."""
    if not state.since(17) or (state.pending[0]["side"] if state.pending else state.side) != side:
        return
    step = TABLE.step_of(state)
    if step in COMBAT_STEPS:
        grammar = TABLE.orders[step]["attack"].grammar
        for t, near, hqs in _attack_targets(state, side):
            for args in _forces(state, t, near, hqs):
                yield Candidate("attack", grammar.subject(args), render=partial(grammar.render, args))
    elif step == "advance" and state.combat is not None and combat.exploitation_barred(state) is None:
        grammar = TABLE.orders[step]["exploit"].grammar
        for u in combat.advancers(state):  # D72: into the defending hex alone (Chita, 4.2.8), after its longer paths
            args = {"units": [u.id], "hexes": [state.combat.target]}
            yield Candidate("exploit", grammar.subject(args), render=partial(grammar.render, args))


def _attack_targets(state: State, side: str):
    """(target, the ids of the units next to it that have not attacked and have an Attack Factor, the faction's HQs)
    for each hex the faction may declare an attack on (4.2.1), as `_attack_candidates` reads them."""
    faction = state.factions[side]
    enemy = state.other_faction(faction)
    targets = sorted({u.hex for u in state.units.values() if u.faction == enemy and state.kind(u).is_ground}
                     | {m.hex for m in state.markers if m.faction == enemy and m.kind in terrain.LONE_MARKERS})
    hqs = [u.id for u in state.units.values() if u.faction == faction and state.kind(u).type == "hq"]
    for t in targets:
        if t in state.attacked_hexes:
            continue
        near = sorted(u.id for u in state.units.values() if u.faction == faction and state.kind(u).is_ground
                      and not u.attacked and state.kind(u).attack > 0
                      and state.data.atlas.adjacent(H(u.hex), H(t)))
        if near:
            yield t, near, hqs


def _forces(state: State, target: str, near: list[str], hqs: list[str]):
    """Ruling D71 (rules version 17): the attacks on ``target`` `_attack_candidates` misses when a unit next to it may
    not attack (4.2.1, 4.2.1.1, 4.1.2: an HQ that fought, a unit not Blitz-enabled or, in Snow, not Russian, one
    behind an All-Sea hexside or its own Failure marker) or two Minor Countries' units stand next to it (4.2.1.1):
    for each Minor Country, every
    unit that may attack with it (the Major Countries' and the Exp units, D24), with each HQ among them in turn
    (4.2.1.2: one a combat), and without its HQ, given each HQ's Ranged Support that may reach the hex, an adjacent
    one included; and each unit alone with each such HQ's Ranged Support. So every hex that may be attacked, every
    unit that may attack it and every HQ that may support the attack is named by an order the decider accepts."""
    blitz = state.step == "blitz-combat"
    able = [state.units[i] for i in near if combat.attacker_problem(state, state.units[i], target, blitz) is None]
    weather = state.weather_at(target)
    if blitz and weather and state.ground_at(target, state.other_faction(state.phasing)):  # 4.1.2: Russians, Snow
        able = [u for u in able if weather == "snow" and state.kind(u).nations == ("ussr",)]
    if not able:
        return
    minors = sorted({m for u in able if (m := combat.minor_of(state, u))})
    forces = [[u for u in able if combat.minor_of(state, u) in (None, m)] for m in minors] or [able]
    seen: set[tuple] = set()

    def once(units: list, hq=None):
        key = (tuple(u.id for u in units), hq.id if hq else None)
        if key in seen:
            return None
        seen.add(key)
        return {"hexes": [target], "units": list(key[0]), **({"hq": [hq.id]} if hq else {})}

    supporters = [state.units[h] for h in hqs]
    for force in forces:
        plain = [u for u in force if state.kind(u).type != "hq"]
        for head in [u for u in force if state.kind(u).type == "hq"] or [None]:
            args = once(plain + ([head] if head else []))
            if args and args["units"]:
                yield args
        for group in ([plain] if plain else []) + [[u] for u in plain]:
            for hq in supporters:
                if combat.hq_problem(state, hq, target, group, blitz) is None and (args := once(group, hq)):
                    yield args


def _airdrop_candidates(state: State, side: str):
    for u in blitz.airdrop_units(state):
        for h in state.data.atlas.hexes():
            if h.sheet == H(u.hex).sheet and state.data.atlas.distance(H(u.hex), h) <= 2:
                yield {"units": [u.id], "hexes": [str(h)]}


def _exploit_candidates(state: State, side: str):
    """4.2.8: each unit's step from the defending hex into each hex next to it; since rules version 9 also each
    longer path it may take, one for each end and enemy markers swept (ruling D55: a unit whose Exploitation
    Distance and MA reach three hexes or more; with the printed counters' MAs of 2 at most, none)."""
    target = state.combat.target
    for u in combat.advancers(state):
        for n in state.data.atlas.neighbours(H(target)):
            yield {"units": [u.id], "hexes": [target, str(n)]}
    if state.since(9):
        for uid, path in combat.exploitation_paths(state):
            if len(path) > 2:
                yield {"units": [uid], "hexes": path}


def _choices(verb: str):
    """Candidates for a combat choice order: the open choices of the decision waited for, with this verb."""
    def candidates(state: State, side: str):
        kind = state.pending[0]["kind"] if state.pending else ""
        for choice in combat.options_for(state, kind):
            if choice[0] == verb:
                yield _choice_args(choice)
    return candidates


def _choice_args(choice: tuple) -> dict:
    """The arguments of the order that makes a combat choice (verb, *args)."""
    verb, *args = choice
    if verb in ("lose", "convert"):
        return {"units": [args[0]], **({"kind": args[1]} if args[1] else {})}
    return {"frm": [args[0]], "to": [args[1]]} if len(args) == 2 else {"to": [args[0]]}


# -- the steps ------------------------------------------------------------------------------------------------
class CaseStep(Step):
    """A Dai Senso step that names, in the refusal of an order it does not take now or of one given by the side not
    acting, the case that orders the step (ruling D75): `orders_case`, or `by_order`'s case for an order another
    case puts elsewhere in the sequence (an attack declared during an Attack Sequence, 4.2.1; a Blitz Combat Segment
    order in the Regular Combat Segment, 4.1)."""

    orders_case = "4"
    by_order: dict[str, str] = {}

    def closed(self, s: State, command) -> tuple[str, str] | None:
        text = TABLE.prompt(s).refusal(command)
        if text is None:
            return None
        return C + self.by_order.get(command.action, self.orders_case), text


class SequenceStep(CaseStep):
    """A step of an Attack Sequence under way (4.2.2's steps 2-8, each in order); no other attack is declared until
    it is complete (4.2.1)."""

    orders_case = "4.2.2"
    by_order = {"attack": "4.2.1"}


class PhaseStep(CaseStep):
    """A step of the phasing faction's Combat Phase; `next` closes it. The Blitz Combat Segment's steps are ordered
    by 4.1, the Regular Combat Segment's declarations by 4.2.1, the Marker Segment's steps by 4.3."""

    orders_case = "4.1"

    def label(self, s: State) -> str:
        return f"Combat Phase {s.combat_phase} ({s.phasing}), {self.name}"

    def who(self, state: State) -> str | None:
        pending = state.pending
        return pending[0]["side"] if pending else state.side


class Airdrop(PhaseStep):
    """4.1.1: Blitz segment step 1."""

    name = "airdrop"

    @order("airdrop UNIT [UNIT ...] HEX [HEX ...]", "Dai Senso 4.1.1",
           "place an airborne unit's Airdrop marker within two hexes (one at a time)", _airdrop_candidates)
    def airdrop(self, d: Decision, units: list[str], hexes: list[str]) -> None:
        unit = one_at_a_time(d, units, "4.1.1", "Airdrops are conducted one at a time")
        blitz.airdrop(d, unit, one_at_a_time(d, hexes, "4.1.1", "an Airdrop marker is placed in one hex"))

    @order("next", "Dai Senso 4.1", "end the Airdrop step")
    def next(self, d: Decision) -> None:
        enter(d, "blitz-combat")


class Attacks(PhaseStep):
    @order("attack HEX [HEX ...] with UNIT [UNIT ...] [hq UNIT:hq ...]", "Dai Senso 4.2.2",
           "attack one adjacent enemy hex (4.2.1); one HQ may give Ranged Support (4.2.1.2)", _attack_candidates)
    def attack(self, d: Decision, hexes: list[str], units: list[str], hq: list[str]) -> None:
        combat.declare(d, combat.one_hex(d, hexes), units, combat.one_hq(d, hq))


class BlitzCombat(Attacks):
    """4.1.2: Blitz segment step 2, Blitz-enabled attackers only."""

    name = "blitz-combat"

    @order("next", "Dai Senso 4.1", "end Blitz Combat")
    def next(self, d: Decision) -> None:
        enter(d, "landing")


class Landing(PhaseStep):
    """4.1.3, 4.1.3.1: Blitz segment step 3."""

    name = "landing"

    @order("land UNIT [UNIT ...]", "Dai Senso 4.1.3", "land a unit from its Beachhead (one at a time)",
           lambda s, side: [{"units": [u.id]} for u in blitz.landers(s)])
    def land(self, d: Decision, units: list[str]) -> None:
        blitz.land(d, one_at_a_time(d, units, "4.1.3", "units conducting a Beachhead Landing are placed one at a "
                                                        "time"))

    @order("snlf HEX [HEX ...]", "Dai Senso 4.1.3.1",
           "land a Japanese Detachment from an SNLF Beachhead-0 in HEX (one at a time)",
           lambda s, side: [{"hexes": [m.hex]} for m in blitz.snlf_landings(s)])
    def snlf(self, d: Decision, hexes: list[str]) -> None:
        blitz.snlf(d, one_at_a_time(d, hexes, "4.1.3.1", "each SNLF Beachhead-0 lands its own Detachment (ruling "
                                                         "D34)"))

    @order("next", "Dai Senso 4.1", "end the Beachhead Landing step")
    def next(self, d: Decision) -> None:
        enter(d, "airdrop-landing")


class AirdropLanding(PhaseStep):
    """4.1.4: Blitz segment step 4; then the CV Strikes return (4.1.5)."""

    name = "airdrop-landing"

    @order("airland HEX [HEX ...] KIND [KIND ...]", "Dai Senso 4.1.4",
           "an Airdrop marker lands as a one-step infantry unit (one at a time)",
           lambda s, side: [{"hexes": [m.hex], "kinds": [k]} for m in blitz.airdrop_markers(s)
                            for k in blitz.landing_kinds(s, m)])
    def airland(self, d: Decision, hexes: list[str], kinds: list[str]) -> None:
        hex_label = one_at_a_time(d, hexes, "4.1.4", "an Airdrop marker lands one at a time (ruling D51)")
        blitz.airland(d, hex_label, one_at_a_time(d, kinds, "4.1.4", "an Airdrop Landing places one one-step "
                                                                     "infantry unit"))

    @order("withdraw HEX [HEX ...]", "Dai Senso 4.1.4", "put an Airdrop marker in HEX in the Delay Box (one at a time)",
           lambda s, side: [{"hexes": [m.hex]} for m in blitz.airdrop_markers(s)])
    def withdraw(self, d: Decision, hexes: list[str]) -> None:
        blitz.withdraw(d, one_at_a_time(d, hexes, "4.1.4", "an Airdrop marker goes to the Delay Box one at a time "
                                                           "(ruling D51)"))

    @order("next", "Dai Senso 4.1.4", "end the Airdrop Landing step (markers left go to the Delay Box)")
    def next(self, d: Decision) -> None:
        for m in blitz.airdrop_markers(d.state):
            blitz.to_delay_box(d, m)
        end_blitz(d)


class RegularCombat(Attacks):
    """4.2: the Regular Combat Segment."""

    name = "regular-combat"
    orders_case = "4.2.1"
    by_order = dict.fromkeys(("airdrop", "land", "snlf", "airland", "withdraw"), "4.1")  # the Blitz Segment's steps

    @order("next", "Dai Senso 4.2", "end the Regular Combat Segment")
    def next(self, d: Decision) -> None:
        if not settle_overstacks(d, "convoys"):
            enter(d, "convoys")


class Convoys(PhaseStep):
    """4.3 step 1; steps 2-3 follow by themselves."""

    name = "convoys"
    orders_case = "4.3"

    @order("convoy WORD:zones [WORD ...]", "Dai Senso 4.3",
           "a Troop Convoy from the zone's Used Box to its Convoys Box (one at a time)",
           lambda s, side: [{"zones": [z]} for z in _used_convoys(s)])
    def convoy(self, d: Decision, zones: list[str]) -> None:
        zone = one_at_a_time(d, zones, "4.3", "step 1 moves one Troop Convoy marker at a time")
        if zone not in _used_convoys(d.state):
            d.refuse(C + "4.3", f"no {d.state.phasing} Troop Convoy in the {zone} Used Box")
        d.emit(ConvoyReturned(d.state.phasing, zone))

    @order("next", "Dai Senso 4.3", "end the Marker Segment and the Combat Phase")
    def next(self, d: Decision) -> None:
        _markers(d)


def _unit_value(state: State, uid: str) -> str:
    """A unit as a decision weighs it: its counter's attack-defence and kind."""
    u = state.units[uid]
    k = state.kind(u)
    return f"{k.attack}-{k.defense} {k.type}"


def _choice_text(step: str, choice: tuple) -> str:
    """A combat choice as the order that makes it, typeable as printed ("lose us-3-mac as us-marine")."""
    return TABLE.orders[step][choice[0]].grammar.render(_choice_args(choice))


class DefenderHq(SequenceStep):
    """4.2.2 step 2."""

    name = "defender-hq"

    def label(self, s: State) -> str:
        return f"defence of {s.combat.target}: Ranged Support?"

    def owed(self, s: State) -> Owed:
        return Owed("Ranged Support for the defence from one supplied HQ, or none (4.2.2 step 2)", s.combat.target,
                    "one HQ at most", tuple((h, _unit_value(s, h)) for h in combat.defender_hq_options(s)))

    @order("support [UNIT ...]", "Dai Senso 4.2.1.2",
           "one HQ gives the defence Ranged Support; 'support' alone: none",
           lambda s, side: [{"units": []}, *({"units": [h]} for h in combat.defender_hq_options(s))])
    def support(self, d: Decision, units: list[str]) -> None:
        combat.support(d, combat.one_hq(d, units))


class Roll(SequenceStep):
    """4.2.2 steps 3-5 of an attack a position holds with its supports declared (ruling D60): the attacker rolls.
    In play the die follows the declarations at once; only a position stands between them."""

    name = "roll"

    def label(self, s: State) -> str:
        return f"attack on {s.combat.target}: the attacker rolls the die (4.2.2 step 5)"

    @order("roll", "Dai Senso 4.2.2", "roll the die of the attack under way (step 5)")
    def roll(self, d: Decision) -> None:
        d.emit(DecisionMade("roll", d.side))
        combat.resolve(d)


class Choice(SequenceStep):
    """A combat result someone must satisfy (4.2.4-4.2.6); the handlers share `combat.apply_choice`."""

    def label(self, s: State) -> str:
        c = s.combat
        return f"combat at {c.target} ({c.result or 'no result'}): {self.name}"

    def owed(self, s: State) -> Owed:
        """The result still to satisfy, and every choice open, each unit with its values."""
        c = s.combat
        left, _, _ = combat.STAGES[self.name]
        unit = {o[1] for o in combat.options_for(s, self.name) if o[0] in ("lose", "convert")}
        return Owed(f"{self.name.replace('-', ' ')} of the {c.result} result (4.2.4-4.2.6)", c.target,
                    f"{left(c)} to satisfy, one order at a time",
                    tuple((_choice_text(self.name, o), _unit_value(s, o[1]) if o[1] in unit else "")
                          for o in combat.options_for(s, self.name)))

    def take(self, d: Decision, choice: tuple, case: str) -> None:
        if choice not in combat.options_for(d.state, self.name):
            offered = ", ".join(_choice_text(self.name, o) for o in combat.options_for(d.state, self.name))
            why = (combat.retreat_refusal(d.state, self.name, choice) if choice[0] == "retreat" else
                   combat.loss_refusal(d.state, self.name, choice))
            if why is not None:  # the rule that bars this hex or this step, named (4.2.4-4.2.6.2; rulings D66, D73)
                d.refuse(C + why[0], f"{why[1]}; open: {offered or 'nothing'}")
            d.refuse(C + case, f"not open now; open: {offered}")
        d.emit(DecisionMade(self.name, d.side))
        combat.apply_choice(d, self.name, choice)
        combat.after_results(d)


class Losses(Choice):
    @order("lose UNIT [UNIT ...] [as KIND]", "Dai Senso 4.2.6",
           "a unit in the combat loses a step (KIND: what replaces it; one step at a time)", _choices("lose"))
    def lose(self, d: Decision, units: list[str], kind: str | None = None) -> None:
        unit = one_at_a_time(d, units, "4.2.6", "step losses are declared one unit and one step at a time")
        self.take(d, ("lose", unit, kind), "4.2.6.1")


class AttackerLosses(Losses):
    """4.2.6, 4.2.6.1: the attacker's Attrition, its first step from marines or armor."""

    name = "attacker-losses"


class DefenderLosses(Losses):
    """4.2.6: the defender's Attrition."""

    name = "defender-losses"


def _attacker_retreat(d: Decision, frm: list[str], to: list[str]) -> tuple:
    """4.2.5: the attacking stacks in different hexes retreat apart, each one hex at a time."""
    stack = one_at_a_time(d, frm, "4.2.5", "attacking stacks in different hexes retreat apart, one at a time")
    return "retreat", stack, one_at_a_time(d, to, "4.2.5", "a force retreats one hex at a time")


class AttackerResult(Losses):
    """4.2.4.1 Ad, Ex: every attacking stack retreats a hex, or one attacking unit loses a step."""

    name = "attacker-result"

    @order("retreat HEX:frm [HEX ...] to HEX:to [HEX ...]", "Dai Senso 4.2.4.1",
           "the attacking stack in HEX retreats one hex", _choices("retreat"))
    def retreat(self, d: Decision, frm: list[str], to: list[str]) -> None:
        self.take(d, _attacker_retreat(d, frm, to), "4.2.5")


class AttackerRetreat(Choice):
    """4.2.5: every attacking stack retreats, apart."""

    name = "attacker-retreat"

    @order("retreat HEX:frm [HEX ...] to HEX:to [HEX ...]", "Dai Senso 4.2.5",
           "the next attacking stack retreats one hex", _choices("retreat"))
    def retreat(self, d: Decision, frm: list[str], to: list[str]) -> None:
        self.take(d, _attacker_retreat(d, frm, to), "4.2.5")


class Exchange(Losses):
    """4.2.4.1 Ex after the attacker's step: the defenders retreat a hex or one of them loses a step."""

    name = "exchange"

    @order("retreat to HEX:to [HEX ...]", "Dai Senso 4.2.4.1", "the defending stack retreats one hex",
           _choices("retreat"))
    def retreat(self, d: Decision, to: list[str]) -> None:
        self.take(d, ("retreat", one_at_a_time(d, to, "4.2.5", "a force retreats one hex at a time")), "4.2.5")


class Retreat(Choice):
    """4.2.5: the defending force retreats one hex at a time, or converts a hex into a step (4.2.5.3)."""

    name = "retreat"

    def label(self, s: State) -> str:
        return f"combat at {s.combat.target} ({s.combat.result}): retreat, {s.combat.retreat_left} hex(es) to go"

    @order("retreat to HEX:to [HEX ...]", "Dai Senso 4.2.5.1", "the retreating stack enters HEX (one at a time)",
           _choices("retreat"))
    def retreat(self, d: Decision, to: list[str]) -> None:
        self.take(d, ("retreat", one_at_a_time(d, to, "4.2.5", "a force retreats one hex at a time, the "
                                                              "priorities checked before each")), "4.2.5.1")

    @order("convert UNIT [UNIT ...] [as KIND]", "Dai Senso 4.2.5.3",
           "a step instead of a hex of retreat (one at a time)", _choices("convert"))
    def convert(self, d: Decision, units: list[str], kind: str | None = None) -> None:
        unit = one_at_a_time(d, units, "4.2.5.3", "a Retreat result converts into steps one for one")
        self.take(d, ("convert", unit, kind), "4.2.5.3")


class Advance(SequenceStep):
    """4.2.7, 4.2.8. From rules version 12 (ruling D62) the step offers Exploitation only where 4.2.8 allows it:
    after an attack on markers alone (4.2.2) or one without an armor-type unit (4.2.8) it asks for an Advance After
    Combat alone, and `exploit` is refused by the case that bars it; before, the prompt offered both."""

    name = "advance"

    @staticmethod
    def _barred(s: State) -> tuple[str, str] | None:
        return combat.exploitation_barred(s) if s.since(12) else None

    def label(self, s: State) -> str:
        if self._barred(s):
            return f"combat at {s.combat.target}: Advance After Combat"
        return f"combat at {s.combat.target}: Advance After Combat or Exploitation"

    def allowed(self, s: State, orders: tuple[str, ...]):
        return tuple(o for o in orders if o != "exploit") if self._barred(s) else orders

    def closed(self, s: State, command) -> tuple[str, str] | None:
        return (self._barred(s) if command.action == "exploit" else None) or super().closed(s, command)

    def owed(self, s: State) -> Owed:
        barred = self._barred(s)
        what = ("advance or exploit into the defending hex, or stop (4.2.7, 4.2.8)" if barred is None else
                f"advance into the defending hex, or stop (4.2.7; no Exploitation: {barred[1]}, "
                f"{barred[0].removeprefix(combat.C)})")
        return Owed(what, s.combat.target, "any of these units",
                    tuple((u.id, _unit_value(s, u.id)) for u in combat.advancers(s)))

    @order("advance UNIT [UNIT ...]", "Dai Senso 4.2.7", "a unit into the defending hex (one at a time)",
           lambda s, side: [{"units": [u.id]} for u in combat.advancers(s)])
    def advance(self, d: Decision, units: list[str]) -> None:
        combat.advance(d, one_at_a_time(d, units, "4.2.7", "Advance After Combat is conducted one unit at a time"))

    @order("exploit UNIT [UNIT ...] HEX [HEX ...]", "Dai Senso 4.2.8",
           "from the defending hex, up to the Exploitation Distance (one unit at a time)", _exploit_candidates)
    def exploit(self, d: Decision, units: list[str], hexes: list[str]) -> None:
        combat.exploit(d, one_at_a_time(d, units, "4.2.8", "Exploitation is conducted one unit at a time"), hexes)

    @order("stop", "Dai Senso 4.2.7", "no more advances")
    def stop(self, d: Decision) -> None:
        combat.stop_advance(d)


class Overstack(CaseStep):
    """D15: an overstacked owner eliminates units at a Combat Segment's end (4.2.5.3's design note, 4.2.7)."""

    name = "overstack"
    orders_case = "4.2.5.3"

    def label(self, s: State) -> str:
        return "overstacked at the end of the Combat Segment: eliminate units"

    def owed(self, s: State) -> Owed:
        """Ruling D15: each hex over the limit, how many units too many, and the units there."""
        faction = s.factions[s.pending[0]["side"]]
        hexes = overstacked(s, faction)
        ground = [u for u in s.units.values() if u.faction == faction and u.hex in hexes and s.kind(u).is_ground]
        over = ", ".join(f"{h}: {sum(u.hex == h for u in ground) - s.data.stacking_limit} too many" for h in hexes)
        return Owed(f"eliminate units until each hex holds at most {s.data.stacking_limit} (ruling D15)",
                    ", ".join(hexes), over, tuple((u.id, f"{_unit_value(s, u.id)} in {u.hex}") for u in ground))

    @order("eliminate UNIT [UNIT ...]", "Dai Senso 4.2.5.3", "eliminate a unit in an overstacked hex (one at a time)",
           lambda s, side: [{"units": [u.id]} for u in s.units.values() if u.faction == s.factions[side]
                            and u.hex in overstacked(s, u.faction)])
    def eliminate(self, d: Decision, units: list[str]) -> None:
        state = d.state
        unit = one_at_a_time(d, units, "4.2.5.3", "units are eliminated one at a time, the stacks counted again "
                                                  "after each (ruling D15)")
        u = combat.own(d, unit, "4.2.5.3")
        if u.hex not in overstacked(state, u.faction) or not state.kind(u).is_ground:
            d.refuse(C + "4.2.5.3", f"{unit} is not in an overstacked hex")
        then = state.pending[0]["then"]
        box, kind = combat.removal(state, u)
        d.emit(DecisionMade("overstack", d.side),
               UnitEliminated(unit, box, "ruling D15", **({"kind": kind} if kind != u.kind else {})))
        if not settle_overstacks(d, then):
            enter(d, then)


def _read_hex(word: str) -> str:
    if not re.fullmatch(HEX_WORD, word):
        raise ValueError("is not a hex (a sheet letter and XXYY, e.g. w4520)")
    return word.lower()


def _read_unit(word: str, context: ParseContext) -> str:
    """A unit's id; a word that names no unit on the map and reads as a hex is a hex ("airdrop UNIT HEX HEX" names
    two hexes, not two units: 4.1.1 refuses it as such)."""
    BUILTIN_SLOTS["UNIT"].read(word)
    if word not in context.state.units and re.fullmatch(HEX_WORD, word):
        raise ValueError("is a hex, not a unit")
    return word


def _read_kind(word: str) -> str:
    if not re.fullmatch(r"[a-z][a-z0-9-]{0,39}", word.lower()):
        raise ValueError("is not a unit kind (units.toml)")
    return word.lower()


TABLE = StatesTable(
    [Airdrop(), BlitzCombat(), Landing(), AirdropLanding(), RegularCombat(), Convoys(), DefenderHq(), Roll(),
     AttackerResult(), AttackerRetreat(), Exchange(), Retreat(), AttackerLosses(), DefenderLosses(), Advance(),
     Overstack()],
    sequence_case="Dai Senso 4",
    slots={"HEX": SlotType(_read_hex, "a hex (w4520, e3609)"), "KIND": SlotType(_read_kind, "a unit kind"),
           "UNIT": SlotType.in_context(_read_unit, "a unit id")},
)

__all__ = ["AIRDROPS", "COMBAT_STEPS", "TABLE", "enter", "opening_step"]
