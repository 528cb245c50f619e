"""Operation Olympic combat (8.8, 8.9, notes 1-6, 8.54): the attack differential, the result, retreats by
terrain, eliminations and returns, exchanges, advances, militia and American Casualty Points. One module serves
the American attack (A.3), the amphibious assault (A.2, ruling R17) and the Japanese attack (B.3), and the
preview runs the same functions with fixed dice.

Every check that needs no die comes before the first roll (docs/architecture.md practice 11): the militia die (track 4)
is the first one rolled, so the attack is checked against the weakest militia the track can give first; if the
die then makes the differential fall below -2 the attack is called off (ruling R28).
"""
from __future__ import annotations

import math
from fractions import Fraction
from itertools import combinations

from app.rules.engine.decision import Decision
from app.rules.kernel.hexgrid import Hex
from app.rules.kernel.odds import select_column
from app.rules.kernel.results import check_strength_loss
from app.rules.kernel.retreat import RetreatState, retreat
from app.rules.olympic.data_load import hex_identity
from app.rules.olympic.events import (
    AttackCalledOff,
    CasualtyPoints,
    CombatResolved,
    DecisionRequired,
    MilitiaDestroyed,
    UnitEliminated,
    UnitMoved,
    UnitRetreated,
    UnitsAdvanced,
    UnitsLanded,
    UnitsPlaced,
    UnitsReleased,
)
from app.rules.olympic.state import State, Unit

H = Hex.parse
CASE = "Olympic 8.8"
NOTE1 = "Olympic 8.8 note 1"


# -- reading the table -----------------------------------------------------------------------------------------
def differential(attack: Fraction | int, defence: Fraction | int) -> int:
    """Ruling R3: attack minus defence, rounded down."""
    return math.floor(Fraction(attack) - Fraction(defence))


def column(data, diff: int) -> tuple[int, str]:
    """The 8.8 column of a differential (note 1: above +10 is +10)."""
    columns = data.crt.columns()
    index, _ = select_column(columns, Fraction(diff))
    return index, columns[index].label


def adjacent_land(data, a: str, b: str) -> bool:
    """Next to each other and not across an all-sea hexside (rulings R15, R17)."""
    ha, hb = H(a), H(b)
    return data.map.adjacent(ha, hb) and not data.map.hexside_features(ha, hb) & data.blocking_hexsides


# -- American attacks and amphibious assaults -----------------------------------------------------------------
def one_hex(d: Decision, hexes: list[str], case: str) -> str:
    """Ruling R30: an American attack or amphibious assault is made on the units and militia of one hex."""
    if len(set(hexes)) > 1:
        d.refuse(case, f"an attack is made on one hex (ruling R30), not {', '.join(hexes)}")
    return hexes[0]


def american_attack(d: Decision, target: str, unit_ids: list[str], advance: list[str], kind: str) -> None:
    """An American attack (A.3) or amphibious assault (A.2) on one hex: its Japanese units and militia."""
    state: State = d.state
    data = d.data
    case = "Olympic ruling R17" if kind == "assault" else CASE
    if not data.map.on_map(H(target)) or not data.is_land(H(target)):
        d.refuse(case, f"{target} is not a land hex")
    defenders = [u for u in state.stack(target) if u.side == "japanese"]
    militia = state.militia_intact(target)
    if not defenders and not militia:
        d.refuse(case, f"{target} holds no Japanese unit and no militia")
    if target in state.attacked_hexes:
        d.refuse(case, f"{target} has already been attacked this phase")
    attackers = []
    for uid in dict.fromkeys(unit_ids):
        unit = own_unit(d, uid)
        at_sea = state.at_sea(unit)
        if kind == "assault" and not at_sea:
            d.refuse(case, f"{uid} is ashore: only units at sea make amphibious assaults")
        if kind == "american" and at_sea:
            d.refuse("Olympic ruling R17", f"{uid} is at sea: it lands or assaults in the Amphibious Assault Phase")
        if unit.attacked:
            d.refuse(case, f"{uid} has already attacked this phase")
        if not adjacent_land(data, unit.hex, target):
            d.refuse(case, f"{uid} in {unit.hex} is not next to {target}")
        attackers.append(unit)
    if len(attackers) < len(unit_ids):
        d.refuse(case, "a unit is named twice")
    extra = [uid for uid in advance if uid not in {u.id for u in attackers}]
    if extra:
        d.refuse("Olympic 8.9", f"only attacking units advance; {', '.join(extra)} did not attack")
    if len(advance) > data.crt_raw["exchange"]["advance_limit"]:
        d.refuse("Olympic 8.9", f"at most {data.crt_raw['exchange']['advance_limit']} units advance")
    attack = sum(u.strength for u in attackers)
    base = sum(u.strength for u in defenders)
    factors = sorted(data.doctrine[4].results.values())
    if differential(attack, base + militia * factors[0]) < data.crt_raw["table"]["minimum"]:
        d.refuse(NOTE1, f"{attack} against {base + militia * factors[0]} is below "
                        f"{data.crt_raw['table']['minimum']:+d} even with the weakest militia")
    supplied = {u.id: state.supplied(u) for u in attackers}
    factor = Fraction(1)
    if militia:
        factor = data.militia_factor(d.roll(f"militia of {target} (doctrine track 4)"))
    defence = base + militia * factor
    diff = differential(attack, defence)
    ids = [u.id for u in attackers]
    if diff < data.crt_raw["table"]["minimum"]:
        d.emit(AttackCalledOff(target, ids, diff))
        return
    index, label = column(data, diff)
    die = d.roll(f"{'assault' if kind == 'assault' else 'attack'} on {target} at {label}")
    result = data.crt.lookup(index, die)
    d.emit(CombatResolved(kind, target, ids, [u.id for u in defenders], attack, _num(defence), militia,
                          _num(factor), diff, label, die, False, result.code))
    code = result.code.split()[0]
    left = result.value("cp_us_attacking")
    blocked: list[str] = []
    if code in data.crt_raw["militia"]["destroyed_by"] and militia:
        d.emit(MilitiaDestroyed(target))
    if result.defender.eliminated:
        for u in defenders:
            d.emit(UnitEliminated(u.id, f"{code} (Olympic 8.9)"))
    elif "defender-retreats" in result.markers:
        for u in defenders[::-1] if state.since(7) else defenders:  # bottom first: the stack keeps its top (R42)
            japanese_retreat(d, u, [a.hex for a in attackers])
    if result.attacker.eliminated:
        for u in attackers:
            eliminate_american(d, u.id, f"{code} (Olympic 8.9)", supplied[u.id])
    elif "attacker-retreats" in result.markers and kind == "american":
        for u in retreating(attackers) if state.since(11) else attackers:
            if not american_retreat(d, d.state.unit(u.id)):
                blocked.append(u.id)
                if state.since(12):  # ruling R59: judged at its elimination, the stacks before it retreated (R16)
                    supplied[u.id] = d.state.supplied(d.state.unit(u.id))
                eliminate_american(d, u.id, "no retreat (Olympic 8.8 note 6)", supplied[u.id])
    if result.exchange:
        if state.since(11):  # ruling R57: the defenders are gone first, so supply is judged without them (8.9, R16)
            supplied = {u.id: d.state.supplied(d.state.unit(u.id)) for u in attackers}
        required = sum(u.strength for u in defenders) + militia
        context = {"hex": target, "attack": kind, "required": required, "attackers": ids, "advance": list(advance),
                   "left": left, "supplied": supplied, "code": result.code}
        if attack <= required or len(ids) == 1:
            finish_exchange(d, context, ids)
        else:
            d.emit(DecisionRequired("losses", "american", context))
        return
    points(d, result.code, left, ids, blocked, supplied, "left")
    occupy(d, target, [uid for uid in (advance if kind == "american" else ids)], kind)
    release_contacts(d)


def retreating(attackers: list[Unit]) -> list[Unit]:
    """Ruling R56 (rules version 11): attacking units retreat (Ar) a hex's stack at a time, bottom first, so a
    stack that ends its retreat in one hex keeps its top for 8.52, as the Japanese defenders' does (R42); the hexes
    in the order the attack names them. Version 10 and before retreated them in the order named, so a stack named
    top first arrived upside down."""
    by_hex: dict[str, list[Unit]] = {}
    for u in attackers:
        by_hex.setdefault(u.hex, []).append(u)
    return [u for stack in by_hex.values() for u in sorted(stack, key=lambda u: u.order)]


def finish_exchange(d: Decision, context: dict, lost: list[str]) -> None:
    """Olympic 8.9 Ex: the American units that pay for the defenders are eliminated (no unit the payment does not
    need: ruling R40, rules version 7), the points counted, and up to three survivors advance (or land, after an
    assault)."""
    survivors = check_strength_loss({uid: d.state.unit(uid).strength for uid in context["attackers"]},
                                    context["required"], lost, "Olympic 8.9", needed_only=d.state.since(7))
    for uid in lost:
        eliminate_american(d, uid, "exchange (Olympic 8.9)", context["supplied"][uid])
    points(d, context["code"], context["left"], context["attackers"], [], context["supplied"], "left")
    movers = context["advance"] if context["attack"] == "american" else list(context["attackers"])
    occupy(d, context["hex"], [uid for uid in movers if uid in survivors], context["attack"])
    release_contacts(d)


def loss_sets(strengths: dict[str, int], required: int, limit: int = 4096):
    """8.9 Ex (ruling R40): each set of the attackers whose printed strengths reach the loss owed, no unit of it
    spare, smallest sets first (at most `limit` sets tried)."""
    tried = 0
    for k in range(1, len(strengths) + 1):
        for combo in combinations(strengths, k):
            tried += 1
            if tried > limit:
                return
            paid = sum(strengths[u] for u in combo)
            if paid >= required and all(paid - strengths[u] < required for u in combo):
                yield combo


def exchange_points(state: State, context: dict) -> tuple[int, int]:
    """The fewest and the most American Casualty Points an exchange waiting for its losses can cost (8.8 notes 4
    and 6, ruling R27): the left number for each attacker, 30 in place of it for each unsupplied unit eliminated,
    over the sets of losses the player may choose (R40)."""
    left, supplied = context["left"], context["supplied"]
    unsupplied = state.data.crt_raw["casualty_points"]["unsupplied_eliminated"]
    strengths = {uid: state.unit(uid).strength for uid in context["attackers"]}
    totals = [sum(unsupplied if uid in lost and not supplied[uid] else left for uid in strengths)
              for lost in loss_sets(strengths, context["required"])] or [left * len(strengths)]
    return min(totals), max(totals)


def occupy(d: Decision, target: str, unit_ids: list[str], kind: str) -> None:
    """After a result that clears the hex (no Japanese unit, no intact militia): American units advance into it
    (8.9), or after an assault the surviving assaulting units land in it (ruling R17); three at most."""
    state = d.state
    if any(u.side == "japanese" for u in state.stack(target)) or state.militia_intact(target):
        return
    movers = [uid for uid in unit_ids if state.unit(uid).status == "map"]
    movers = movers[:d.data.crt_raw["exchange"]["advance_limit"]]
    if not movers:
        return
    d.emit(UnitsLanded(movers, target) if kind == "assault" else UnitsAdvanced(movers, target))


def points(d: Decision, code: str, number: int, american: list[str], blocked: list[str], supplied: dict,
           which: str) -> None:
    """Olympic 8.8 notes 4 and 6 (ruling R27): the indicated number for each American unit in the combat, 10 in
    place of it for a supplied unit that could not retreat, 30 for an unsupplied unit eliminated."""
    gone = {uid for uid in american if d.state.unit(uid).status != "map"}
    cp = d.data.crt_raw["casualty_points"]
    parts = []
    total = 0
    for uid in american:
        if uid in gone and not supplied[uid]:
            each, why = cp["unsupplied_eliminated"], "unsupplied, eliminated (note 6)"
        elif uid in blocked:
            each, why = cp["blocked_retreat_supplied"], "could not retreat (note 6)"
        else:
            each, why = number, f"{which} number (note 4)"
        total += each
        parts.append(f"{uid} {each} {why}")
    d.emit(CasualtyPoints(total, f"{code}: " + "; ".join(parts)))


# -- Japanese attacks -------------------------------------------------------------------------------------------
def japanese_attack(d: Decision, attacker_id: str, target_id: str, reason: dict) -> None:
    """Olympic 8.51-8.54: one Japanese unit attacks one American unit; a 6 is a special attack (8.54)."""
    data = d.data
    attacker = d.state.unit(attacker_id)
    target = d.state.unit(target_id)
    supplied = {target.id: d.state.supplied(target)}
    die = d.roll(f"Japanese attack by {attacker_id} on {target_id}")
    special = die == data.crt_raw["special_attack"]["die"]
    attack = attacker.strength * (data.crt_raw["special_attack"]["strength_multiplier"] if special else 1)
    diff = differential(attack, target.strength)
    index, label = column(data, diff)
    result = data.crt.lookup(index, die)
    d.emit(CombatResolved("japanese", target.hex, [attacker_id], [target_id], attack, _num(target.strength), 0,
                          "1", diff, label, die, special, result.code, reason))
    code = result.code.split()[0]
    right = result.value("cp_japan_attacking")
    blocked: list[str] = []
    there = target.hex
    if result.defender.eliminated:
        eliminate_american(d, target_id, f"{code} (Olympic 8.9)", supplied[target_id])
    elif "defender-retreats" in result.markers and not american_retreat(d, d.state.unit(target_id)):
        blocked.append(target_id)
        eliminate_american(d, target_id, "no retreat (Olympic 8.8 note 6)", supplied[target_id])
    elif "defender-retreats" in result.markers and d.state.since(8):
        release_contacts(d)  # the retreat moved it next to a unit, before the attacker advances (ruling R43)
    if special:
        d.emit(UnitEliminated(attacker_id, "special attack (Olympic 8.54)"))
    elif result.attacker.eliminated or result.exchange:
        d.emit(UnitEliminated(attacker_id, f"{code} (Olympic 8.9)"))
    elif "attacker-retreats" in result.markers:
        japanese_retreat(d, d.state.unit(attacker_id), [there])
    points(d, result.code, right, [target_id], blocked, supplied, "right")
    if d.state.unit(attacker_id).status == "map" and not d.state.stack(there):
        d.emit(UnitsAdvanced([attacker_id], there))  # Olympic 8.53


# -- eliminations, retreats, releases -------------------------------------------------------------------------
def eliminate_american(d: Decision, unit_id: str, cause: str, supplied: bool) -> None:
    """Note 6: a supplied American unit returns on the third Game-Turn after; an unsupplied one never."""
    back = d.state.turn + d.data.crt_raw["casualty_points"]["return_after_turns"]
    returns = back if supplied and back <= d.data.scenario["game"]["game_turns"] else None
    d.emit(UnitEliminated(unit_id, cause if supplied else f"{cause}, unsupplied", returns))


def _retreat(d: Decision, unit: Unit, choose, why: str) -> bool:
    """Ruling R24: the terrain's number of hexes (note 2), each farther from the start, never into an enemy unit,
    intact enemy militia, an enemy zone of control, the sea or across an all-sea hexside, not ending
    overstacked; each step one from which the retreat can be completed (R39). Returns False if the unit cannot
    retreat."""
    state: State = d.state
    data = d.data
    start = H(unit.hex)
    length = data.retreat_hexes(start)
    enemy = "japanese" if unit.side == "american" else "american"
    blocked = {H(h) for h in state.hexes_of(enemy)} | {H(h) for h in state.zoc_of(enemy)}
    if unit.side == "american":
        blocked |= {H(h) for h in state.intact_militia()}
    cap = data.scenario["stacking"]["max_units"]

    def legal(current: Hex, candidate: Hex, rs: RetreatState) -> bool:
        if not data.is_land(candidate) or candidate in blocked or candidate in rs.path:
            return False
        if data.map.hexside_features(current, candidate) & data.blocking_hexsides:
            return False
        if data.map.distance(candidate, start) <= data.map.distance(current, start):
            return False
        last = len(rs.path) + 1 == length
        return not last or len(state.stack(str(candidate))) < cap

    def completes(current: Hex, candidate: Hex, rs: RetreatState) -> bool:
        """Ruling R39 (rules version 6): a hex is a step of the retreat only if the whole retreat can go on
        from it, so a unit that can retreat its full length is never led into a dead end and eliminated."""
        if not legal(current, candidate, rs):
            return False
        after = RetreatState(rs.start, (*rs.path, candidate))
        return len(after.path) == length or any(completes(candidate, n, after) for n in data.map.neighbours(candidate))

    allowed = completes if state.since(6) else legal
    outcome = retreat(data.map, start, length, allowed, (), choose, "eliminate")
    if outcome.eliminated:
        return False
    d.emit(UnitRetreated(unit.id, [str(h) for h in outcome.path], {"case": "Olympic ruling R24", "summary": why}))
    return True


def japanese_retreat(d: Decision, unit: Unit, attacker_hexes: list[str]) -> None:
    """Ruling R24: the programmed Japanese retreat: farthest from the attackers, then Rough, City, Town, Clear,
    then the highest identity number; a unit that cannot retreat is eliminated."""
    data = d.data
    froms = [H(h) for h in attacker_hexes]

    def choose(options, rs):
        return max(options, key=lambda h: (min(data.map.distance(h, f) for f in froms), -data.terrain_rank(h),
                                           hex_identity(h)))

    if not _retreat(d, unit, choose, "away from the attackers, rough first, highest identity"):
        d.emit(UnitEliminated(unit.id, "no retreat (Olympic 8.9)"))


def american_retreat(d: Decision, unit: Unit) -> bool:
    """Ruling R24: toward the American standing retreat hex, else the nearest beachhead; ties by the higher
    identity number."""
    data = d.data
    state: State = d.state
    goals = [H(state.retreat_toward)] if state.retreat_toward else [H(h) for h in state.beachheads]
    goals = goals or [H(unit.hex)]

    def choose(options, rs):
        return min(options, key=lambda h: (min(data.map.distance(h, g) for g in goals), -hex_identity(h)))

    return _retreat(d, unit, choose, f"toward {state.retreat_toward or 'the nearest beachhead'}")


def release_contacts(d: Decision) -> None:
    """Olympic 14.3 (note to tracks 1-2): a Japanese unit is released when an American unit moves next to it.
    Ruling R43 (rules version 8): next to any land hex an American unit entered in this order (each hex of a move's
    or retreat's path, a landing, an advance, a placement), across any hexside, an all-sea one too. Version 7 and
    before: every unreleased unit next to an American unit on land once the order's American moves are done."""
    state: State = d.state
    near = entered_by_americans(d) if state.since(8) else state.hexes_of("american")
    around = {n for h in near for n in d.data.map.neighbour_labels(h)}  # on-map neighbours: every unit's hex is one
    found = sorted(u.id for u in state.on_map("japanese") if not u.released and u.hex in around)
    if found:
        d.emit(UnitsReleased(found, "an American unit moved next to them (Olympic 14.3, ruling R43)"
                             if state.since(8) else "an American unit next to them (Olympic 14.3)"))


def entered_by_americans(d: Decision) -> set[str]:
    """The hexes American units entered by the order's events so far (ruling R43): land hexes all, for no order
    that places units at sea asks for releases."""
    state: State = d.state
    entered: set[str] = set()
    for e in d.events:
        if isinstance(e, UnitMoved | UnitRetreated):
            units, hexes = [e.unit], e.path
        elif isinstance(e, UnitsAdvanced | UnitsLanded | UnitsPlaced):
            units, hexes = e.units, [e.hex]
        else:
            continue
        if any(state.unit(uid).side == "american" for uid in units):
            entered.update(hexes)
    return entered


def own_unit(d: Decision, unit_id: str) -> Unit:
    unit = d.state.unit(unit_id)
    if unit is None or unit.status != "map":
        d.refuse("Olympic sequence A", f"there is no unit {unit_id} in play")
    if unit.side != d.side:
        d.refuse("Olympic sequence A", f"{unit_id} is a {unit.side} unit; {d.side} cannot order it")
    return unit


def _num(value) -> str:
    value = Fraction(value)
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
