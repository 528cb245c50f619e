"""Ground combat (15.0-15.8): the checks of an attack, the percentage and every shift of 15.4.1 in play, the die,
and the results with the choices they leave to the players: losses (A1, B1, D1, BB), retreats (AR, DR), the
counterattack (CA, 15.6) and the advance (15.8).

Each choice is a decision the sequence waits for (`DecisionRequired`): "losses" (`lose`), "retreat"
(`retreat`), "counterattack" (`counterattack`), "advance" (`advance`, `hold`). A choice with one answer is made
by the engine at once. When nothing is owed, the combat ends (`settle`)."""
from __future__ import annotations

from itertools import combinations

from app.rules.engine.decision import Decision
from app.rules.engine.events import DecisionMade, DecisionRequired
from app.rules.formosa import optional
from app.rules.formosa.events import (
    AdvanceOffered,
    CombatEnded,
    CombatResolved,
    UnitEliminated,
    UnitRetreated,
    UnitsAdvanced,
)
from app.rules.formosa.movement import enterable
from app.rules.formosa.state import OUT, State, Unit, is_hex, other
from app.rules.kernel.concentric import attack_directions, is_concentric
from app.rules.kernel.hexgrid import Hex
from app.rules.kernel.preview import Preview, preview_attack
from app.rules.kernel.shifts import Shift

H = Hex.parse
C15 = "Formosa 15.0"
ENDS_CA = ("coastal-defense", "heavy-weapons")


# -- who may attack what ----------------------------------------------------------------------------------------
def can_attack(state: State, u: Unit) -> bool:
    """A unit on the map with a combat factor that has not attacked this phase; the PW Camp never attacks
    (25.10)."""
    spec = state.spec(u.id)
    return is_hex(u.where) and not u.attacked and spec.cf > 0 and spec.type not in ("pw-camp", "deception")


def attack_blocked(state: State, a: str, b: str) -> bool:
    """No attack across an all-sea hexside (15.0, ruling F11)."""
    return bool(state.data.map.hexside_features(H(a), H(b)) & state.data.zoc.blocked_hexsides)


def zoc_hexes_on(state: State, u: Unit) -> list[str]:
    """The enemy-occupied hexes next to `u` whose units exert a ZOC into its hex (14.0; guerrillas do not)."""
    enemy = other(u.side)
    out = []
    for n in state.data.map.neighbours(H(u.where)):
        here = state.at(str(n), enemy)
        if here and any(state.spec(x.id).type != "guerrilla" for x in here) and not attack_blocked(
                state, u.where, str(n)):
            out.append(str(n))
    return sorted(out)


def must_attack(state: State, u: Unit) -> bool:
    """15.0, 14.2: a unit in an EZOC must attack, unless static, a guerrilla, or stacked with a static unit; a
    unit whose every adjacent enemy hex has been attacked this phase can no longer (15.0: once; ruling F42)."""
    if not can_attack(state, u) or state.is_static(u) or state.spec(u.id).type == "guerrilla":
        return False
    if any(state.is_static(x) for x in state.at(u.where, u.side)):
        return False
    return any(h not in state.attacked_hexes for h in zoc_hexes_on(state, u))


def owed_attacks(state: State, side: str) -> list[str]:
    """What stops `side` from ending its Combat Phase (15.0): units that must attack, and enemy hexes exerting a
    ZOC on such a unit that have not been attacked."""
    out = []
    for u in state.on_map(side):
        if must_attack(state, u):
            out.append(f"{u.id} in {u.where}")
    return out


# -- the attack ---------------------------------------------------------------------------------------------------
def declare(d: Decision, hexes: list[str], unit_ids: list[str], gunfire: int = 0) -> None:
    """15.0-15.2: check the attack, roll, and apply the result."""
    state: State = d.state
    side, enemy = d.side, other(d.side)
    if state.combat is not None:
        d.refuse(C15, "the combat under way is not over")
    if len(set(hexes)) != len(hexes) or len(set(unit_ids)) != len(unit_ids):
        d.refuse(C15, "a hex or a unit is named twice")
    for h in hexes:
        if not state.data.map.on_map(H(h)) or not state.at(h, enemy):
            d.refuse(C15, f"{h} holds no {enemy} unit to attack")
        if h in state.attacked_hexes:
            d.refuse(C15, f"{h} has been attacked this Combat Phase: no defender is attacked twice")
    attackers = []
    for uid in unit_ids:
        u = state.unit(uid)
        if u is None or u.side != side or not is_hex(u.where):
            d.refuse(C15, f"{uid} is not a {side} unit on the map")
        if not can_attack(state, u):
            d.refuse(C15, f"{uid} cannot attack: it has attacked this phase or never attacks")
        for h in hexes:
            if H(h) not in state.data.map.neighbours(H(u.where)):
                d.refuse(C15, f"{uid} in {u.where} is not next to {h}: every attacker must be adjacent to every "
                              "defender")
            if attack_blocked(state, u.where, h):
                d.refuse(C15, f"{uid} cannot attack {h} across an all-sea hexside")
        attackers.append(u)
    for u in attackers:
        missing = [h for h in zoc_hexes_on(state, u) if h not in hexes and h not in state.attacked_hexes]
        if missing:
            d.refuse("Formosa 15.1", f"{u.id} is in the ZOC of {', '.join(missing)} too and must attack every "
                                     "such hex in one combat")
        left = [x.id for x in state.at(u.where, side) if x.id not in unit_ids and can_attack(state, x)
                and all(H(h) in state.data.map.neighbours(H(u.where)) for h in hexes)]
        if left:
            d.refuse("Formosa 15.0, ruling F41", f"the units in {u.where} attack together: add {', '.join(left)}")
    if gunfire:
        _check_gunfire(d, attackers, gunfire)
    resolve(d, side, hexes, attackers, gunfire=gunfire)


def _check_gunfire(d: Decision, units: list[Unit], gunfire: int) -> None:
    """17.0: Allied gunfire only, at most two a combat, from the Staging Area, with a participating unit in a
    coastal hex (F18: the Japanese have none)."""
    state: State = d.state
    limit = state.data.charts["stacking"]["gunfire_per_combat"]
    if d.side != "allied":
        d.refuse("Formosa ruling F18", "the Japanese have no naval gunfire")
    if gunfire > limit:
        d.refuse("Formosa 17.0", f"at most {limit} naval gunfire units support a combat")
    if gunfire > state.naval.get("gunfire", 0):
        d.refuse("Formosa 17.0", f"only {state.naval.get('gunfire', 0)} naval gunfire units are in the Staging Area")
    if not any(state.data.is_coastal(H(u.where)) for u in units):
        d.refuse("Formosa 17.0", "naval gunfire supports only a combat with an Allied unit in a coastal hex")


def shifts(state: State, side: str, hexes: list[str], attackers: list[Unit], gunfire: int = 0,
           counterattack: bool = False) -> list[Shift]:
    """Every shift of 15.4.1 this combat earns, each with its case (15.6: a counterattack has its one only);
    against several hexes the best in-hex shift and the smallest hexside shift all attackers cross (F44)."""
    if counterattack:
        return [Shift(state.data.crt_raw["counterattack"]["shift"], "Formosa 15.6", "counterattack")]
    data = state.data
    out: list[Shift] = []
    if gunfire:
        out.append(Shift(gunfire if side == "allied" else -gunfire, "Formosa 17.0", "naval gunfire"))
    if any(data.unit(u.id).indicator == "A" for u in attackers):
        out.append(Shift(1, "Formosa 15.4.1", "attack bonus unit"))
    defenders = [x for h in hexes for x in state.at(h, other(side))]
    if any(data.unit(x.id).indicator == "D" for x in defenders):
        out.append(Shift(-1, "Formosa 15.4.1", "defense bonus unit"))
    nationality = "japanese" if side == "allied" else "allied"
    in_hex = max(data.hex_shift(H(h), nationality) for h in hexes)
    if in_hex:
        out.append(Shift(-in_hex, "Formosa 15.4.1", "terrain in the defender's hex"))
    across = min(data.hexside_shift(H(h), [H(u.where) for u in attackers], nationality) for h in hexes)
    if across:
        out.append(Shift(-across, "Formosa 15.4.1", "hexside terrain every attacker crosses"))
    if len(hexes) == 1:
        grid = data.map.grid
        directions = attack_directions(grid, H(hexes[0]), [H(u.where) for u in attackers])
        if is_concentric("all_six_covered", directions):
            out.append(Shift(1, "Formosa 15.4.1, ruling F19", "concentric attack"))
    return out


def odds(state: State, side: str, hexes: list[str], attackers: list[Unit], extra: list[Shift]) -> Preview:
    data = state.data
    attack = sum(state.cf(u) for u in attackers)
    defence = sum(state.cf(x) for h in hexes for x in state.at(h, other(side)))
    nationality = "japanese" if side == "japanese" else "us"
    # a hex of factor-0 units only (never in play: deception units are revealed and removed before combat,
    # 11.2) reads as if it held one factor
    return preview_attack(data.crt(nationality), attack, max(defence, 1), extra)


def resolve(d: Decision, side: str, hexes: list[str], attackers: list[Unit], gunfire: int = 0,
            counterattack: bool = False, exploitation: bool = False) -> None:
    """15.2 steps 2-8: totals, percentage, shifts, the die, the result applied."""
    state: State = d.state
    found = shifts(state, side, hexes, attackers, gunfire, counterattack)
    p = odds(state, side, hexes, attackers, found)
    defenders = [x.id for h in hexes for x in state.at(h, other(side))]
    die = d.roll(f"combat: {side} {'counterattack on' if counterattack else 'attack on'} {', '.join(hexes)}")
    code = p.result(die).code
    d.emit(CombatResolved(side, list(hexes), [u.id for u in attackers], defenders, int(p.attack),
                          int(p.defence), int(p.odds.value), [_shift(s) for s in found], p.column_label, die, code,
                          counterattack=counterattack, exploitation=exploitation))
    apply_result(d, code)


def _shift(s: Shift) -> dict:
    return {"amount": s.amount, "case": s.case, "reason": s.reason}


# -- results ------------------------------------------------------------------------------------------------------
def destination(state: State, u: Unit) -> str:
    """Where an eliminated unit goes (8.3, 11.1): a deception unit leaves the game; a ground unit that can trace
    a line of supply at its elimination goes to its side's Replacements Display, any other to the Eliminated
    Display, out of play for good."""
    if state.spec(u.id).type == "deception":
        return OUT
    return f"{u.side}-replacements" if state.supply_line(u) else f"{u.side}-eliminated"


def eliminate(d: Decision, uid: str, case: str) -> None:
    state: State = d.state
    u = state.units[uid]
    d.emit(UnitEliminated(uid, u.where, destination(state, u), case))
    optional.die_hards(d, u)


def survivors(state: State, ids) -> list[Unit]:
    return [state.units[i] for i in ids if is_hex(state.units[i].where)]


def apply_result(d: Decision, code: str) -> None:
    """15.5: the result, each choice owed to the player it concerns."""
    state: State = d.state
    c = state.combat
    spec = state.data.crt_raw["codes"][code]
    att_side, def_side = c.attacker, other(c.attacker)
    attackers = survivors(state, c.attackers)
    defenders = survivors(state, c.defenders)
    case = f"Formosa 15.5 {code}"
    if code == "CA":
        if c.counterattack:
            return settle(d)  # 15.6 item 3: no effect
        if any(state.spec(x.id).type in ENDS_CA for x in defenders):
            return settle(d)  # 15.5 CA item 1
        hexes = sorted({u.where for u in attackers})
        if len(hexes) == 1:
            return counterattack(d, hexes[0])
        d.emit(DecisionRequired("counterattack", def_side, {"hexes": hexes}))
        return None
    if spec.get("bloodbath"):
        return _bloodbath(d, attackers, defenders)
    for who, units, owner in (("attacker", attackers, att_side), ("defender", defenders, def_side)):
        effect = spec.get(who)
        if effect == "all":
            for u in units:
                eliminate(d, u.id, case)
        elif effect == "one":
            _losses(d, owner, units, 1, 0, case)
        elif effect == "retreat":
            _retreats(d, owner, units)
    settle(d)


def _losses(d: Decision, side: str, units: list[Unit], count: int, min_cf: int, case: str) -> None:
    """Eliminate `count` units, or units of at least `min_cf` printed factors (15.5 BB), the owner choosing."""
    state: State = d.state
    ids = [u.id for u in units]
    choices = loss_choices(state, ids, count, min_cf)
    if len(choices) <= 1:
        for uid in (choices[0] if choices else ids):
            eliminate(d, uid, case)
        return
    d.emit(DecisionRequired("losses", side, {"units": ids, "count": count, "min_cf": min_cf, "case": case}))


def loss_choices(state: State, ids: list[str], count: int, min_cf: int) -> list[tuple[str, ...]]:
    """The sets of units that satisfy a loss: `count` units, or a set reaching `min_cf` with no unit to spare."""
    if count:
        if len(ids) <= count:
            return [tuple(ids)]
        found = optional.camp_last(state, sorted({tuple(sorted(c)) for c in combinations(ids, count)}))
        # units alike (same printed factors and type) are one choice for the engine to make
        return sorted({tuple(sorted(_alike_key(state, c))) : c for c in found}.values())
    cf = {i: state.cf(state.units[i]) for i in ids}
    if sum(cf.values()) <= min_cf:
        return [tuple(ids)]
    out = []
    for n in range(1, len(ids) + 1):
        for combo in combinations(ids, n):
            total = sum(cf[i] for i in combo)
            if total >= min_cf and all(total - cf[i] < min_cf for i in combo):
                out.append(combo)
    return optional.camp_last(state, out)


def _alike_key(state: State, combo) -> tuple:
    return tuple(sorted((state.spec(i).type, state.spec(i).cf, state.spec(i).mf, state.units[i].where)
                        for i in combo))


def _bloodbath(d: Decision, attackers: list[Unit], defenders: list[Unit]) -> None:
    """15.5 BB: the side with fewer printed factors is eliminated; the other pays at least as much."""
    from app.rules.kernel.results import bloodbath

    state: State = d.state
    c = state.combat
    a = sum(state.cf(u) for u in attackers)
    b = sum(state.cf(u) for u in defenders)
    gone, pays = bloodbath(a, b)
    case = "Formosa 15.5 BB"
    for who, units in (("attacker", attackers), ("defender", defenders)):
        if who in gone:
            for u in units:
                eliminate(d, u.id, case)
        elif pays:
            owner = c.attacker if who == "attacker" else other(c.attacker)
            _losses(d, owner, units, 0, pays, case)
    settle(d)


def retreat_hexes(state: State, u: Unit) -> list[str]:
    """15.7: the hexes `u` may retreat into: adjacent, enterable, free of enemy units and of enemy ZOC (14.2;
    guerrillas ignore enemy ZOC, 23.0)."""
    enemy = other(u.side)
    ezoc = set() if state.spec(u.id).type == "guerrilla" else state.zoc_of(enemy)
    out = []
    for n in state.data.map.neighbours(H(u.where)):
        label = str(n)
        if state.at(label, enemy) or label in ezoc or not enterable(state, u, u.where, label):
            continue
        out.append(label)
    return sorted(out)


def _retreats(d: Decision, side: str, units: list[Unit]) -> None:
    """15.7: every unit retreats one hex; mobile units with a static unit in their hex ignore it; a unit that
    cannot retreat is eliminated; the owner picks the hex where there is a choice."""
    state: State = d.state
    owed = []
    for u in units:
        if state.is_static(u) or any(state.is_static(x) for x in state.at(u.where, side)):
            continue  # 15.7 Important
        options = retreat_hexes(state, u)
        if not options:
            eliminate(d, u.id, "Formosa 15.7 item 5")
        elif len(options) == 1:
            d.emit(UnitRetreated(u.id, [u.where, options[0]]))
        else:
            owed.append(u.id)
    if owed:
        d.emit(DecisionRequired("retreat", side, {"units": owed}))


def retreat(d: Decision, uid: str, hex: str) -> None:
    state: State = d.state
    pending = state.pending[0]
    if uid not in pending["units"]:
        d.refuse("Formosa 15.7", f"{uid} has no retreat to make; owed: {', '.join(pending['units'])}")
    u = state.units[uid]
    if hex not in retreat_hexes(state, u):
        d.refuse("Formosa 15.7", f"{uid} cannot retreat into {hex}: it may go to {', '.join(retreat_hexes(state, u))}")
    d.emit(UnitRetreated(uid, [u.where, hex]), DecisionMade("retreat", d.side))
    left = [i for i in pending["units"] if i != uid]
    if left:
        d.emit(DecisionRequired("retreat", d.side, {"units": left}))
    settle(d)


def lose(d: Decision, unit_ids: list[str]) -> None:
    """15.5: the owner names the units a loss takes."""
    state: State = d.state
    pending = state.pending[0]
    chosen = tuple(sorted(unit_ids))
    valid = {tuple(sorted(c)) for c in loss_choices(state, pending["units"], pending["count"], pending["min_cf"])}
    if len(set(unit_ids)) != len(unit_ids) or any(i not in pending["units"] for i in unit_ids):
        d.refuse("Formosa 15.5", f"name units of this combat: {', '.join(pending['units'])}")
    if pending["count"] and len(chosen) != pending["count"]:
        d.refuse("Formosa 15.5", f"eliminate exactly {pending['count']} unit(s)")
    if not pending["count"] and chosen not in valid:
        d.refuse("Formosa 15.5 BB", f"eliminate units of at least {pending['min_cf']} printed combat factors, "
                                    "none to spare")
    d.emit(DecisionMade("losses", d.side))
    for uid in unit_ids:
        eliminate(d, uid, pending["case"])
    settle(d)


def counterattack(d: Decision, hex: str) -> None:
    """15.6: every surviving defender attacks one hex of the former attackers, with one right shift only."""
    state: State = d.state
    c = state.combat
    if state.pending and state.pending[0]["kind"] == "counterattack":
        if hex not in state.pending[0]["hexes"]:
            d.refuse("Formosa 15.6", f"counterattack one of {', '.join(state.pending[0]['hexes'])}")
        d.emit(DecisionMade("counterattack", d.side))
    units = survivors(state, c.defenders)
    resolve(d, other(c.attacker), [hex], units, counterattack=True)


def advance_units(state: State) -> list[str]:
    """15.8: the surviving attacking mobile units that may advance."""
    c = state.combat
    return [u.id for u in survivors(state, c.attackers) if not state.is_static(u) and u.id not in c.advanced]


def settle(d: Decision) -> None:
    """When no choice is owed: offer the advance once if a hex was cleared (15.8), else end the combat."""
    state: State = d.state
    c = state.combat
    if c is None or state.pending:
        return
    if not c.offered and c.advance and c.cleared and advance_units(state):
        d.emit(AdvanceOffered(), DecisionRequired("advance", c.attacker, {"hexes": list(c.cleared)}))
        return
    optional.battlefield_lp(d, c)
    d.emit(CombatEnded())
    optional.offer_exploitation(d, c)


def advance(d: Decision, unit_ids: list[str], hexes: list[str]) -> None:
    """15.8: units advance into a cleared hex, and after a DE one hex more (15.8 bullet 4)."""
    state: State = d.state
    c = state.combat
    eligible = advance_units(state)
    if not unit_ids or any(i not in eligible for i in unit_ids) or len(set(unit_ids)) != len(unit_ids):
        d.refuse("Formosa 15.8", f"units that may advance: {', '.join(eligible) or 'none'}")
    if not hexes or hexes[0] not in c.cleared:
        d.refuse("Formosa 15.8", f"the first hex of an advance is a cleared defending hex: {', '.join(c.cleared)}")
    if len(hexes) > c.advance:
        d.refuse("Formosa 15.8", f"a {c.code} lets the attacker advance {c.advance} hex(es)")
    if len(hexes) == 2:
        if H(hexes[1]) not in state.data.map.neighbours(H(hexes[0])) or state.at(hexes[1], other(c.attacker)):
            d.refuse("Formosa 15.8", f"{hexes[1]} is not a hex free of enemy units next to {hexes[0]}")
    for uid in unit_ids:
        u = state.units[uid]
        steps = [u.where, *hexes]
        for a, b in zip(steps, steps[1:], strict=False):
            if not enterable(state, u, a, b):
                d.refuse("Formosa 15.8.1", f"{uid} could not enter {b} from {a}")
    d.emit(DecisionMade("advance", d.side), UnitsAdvanced(list(unit_ids), list(hexes)))
    optional.camp_taken(d, hexes[0])
    if [i for i in advance_units(d.state) if i not in unit_ids]:
        d.emit(DecisionRequired("advance", c.attacker, {"hexes": list(c.cleared)}))
    settle(d)


def hold(d: Decision) -> None:
    """15.8.1: advancing is never required."""
    d.emit(DecisionMade("advance", d.side))
    settle(d)
