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
from app.rules.errors import IllegalOrder
from app.rules.formosa import airpower, lines, optional, supply
from app.rules.formosa.data_load import side_unit
from app.rules.formosa.events import (
    AdvanceOffered,
    AirSupplyFlown,
    CombatEnded,
    CombatResolved,
    LandingFailed,
    LpSpent,
    UnitEliminated,
    UnitRetreated,
    UnitsAdvanced,
)
from app.rules.formosa.movement import closed_to, enterable, infiltrates
from app.rules.formosa.state import OUT, State, Unit, is_hex, other
from app.rules.kernel.concentric import attack_directions, is_concentric
from app.rules.kernel.hexgrid import Hex
from app.rules.kernel.preview import Preview, preview_attack
from app.rules.kernel.retreat import RetreatState, nearer, outside_ezoc, retreat_options
from app.rules.kernel.shifts import Shift

H = Hex.parse
C15 = "Formosa 15.0"
ENDS_CA = ("coastal-defense", "heavy-weapons")


# -- who may attack what ----------------------------------------------------------------------------------------
def never_attacks(state: State, u: Unit) -> bool:
    """A unit without a combat factor, or the PW Camp, which never attacks (25.10), not even in a counterattack."""
    spec = state.spec(u.id)
    return spec.cf <= 0 or spec.type in ("pw-camp", "deception")


def can_attack(state: State, u: Unit) -> bool:
    """A unit on the map with a combat factor that has not attacked this phase; the PW Camp never attacks
    (25.10)."""
    return is_hex(u.where) and not u.attacked and not never_attacks(state, u)


def attack_blocked(state: State, a: str, b: str) -> bool:
    """No attack across an all-sea hexside (15.0, ruling F11)."""
    return bool(state.data.map.hexside_features(H(a), H(b)) & state.data.zoc.blocked_hexsides)


def zoc_hexes_on(state: State, u: Unit) -> list[str]:
    """The enemy-occupied hexes next to `u` whose units exert a ZOC into its hex (14.0; guerrillas do not), and so
    bind it to attack them in one combat (15.1); none binds a guerrilla, which EZOC do not affect (23.0, ruling
    F105)."""
    if state.since(4) and state.spec(u.id).type == "guerrilla":
        return []
    enemy = other(u.side)
    out = []
    for n in state.data.map.neighbours(H(u.where)):
        here = state.at(str(n), enemy)
        if here and any(state.spec(x.id).type != "guerrilla" for x in here) and not attack_blocked(
                state, u.where, str(n)) and not (enemy == "japanese" and str(n) in state.strike.suppressed):
            # 16.5 DS item 1: the Japanese units of a suppressed hex exert no ZOC
            out.append(str(n))
    return sorted(out)


def attacked(state: State, h: str) -> bool:
    """15.0: `h` was attacked this Combat Phase, or holds a unit an attack fell on this phase that retreated
    there (since rules version 4, ruling F105): no defending unit is attacked twice, and a hex's units defend
    together, so the hex cannot be attacked (a counterattack and an exploitation attack excepted, F4)."""
    return h in state.attacked_hexes or (state.since(4) and any(x.id in state.defended for x in state.at(h)))


def must_attack(state: State, u: Unit) -> bool:
    """15.0, 14.2: a unit in an EZOC must attack, unless static, a guerrilla, or stacked with a static unit; a
    unit whose every adjacent enemy hex has been attacked this phase can no longer (15.0: once; ruling F42)."""
    if not can_attack(state, u) or state.is_static(u) or state.spec(u.id).type == "guerrilla":
        return False
    if any(state.is_static(x) for x in state.at(u.where, u.side)):
        return False
    return any(not attacked(state, h) for h in zoc_hexes_on(state, u))


def must_attack_after_landing(state: State, u: Unit) -> bool:
    """10.2.1, 10.2.2 (since rules version 5, ruling F108): a unit that made an amphibious invasion this GT must
    attack the adjacent Japanese units in the ensuing Combat Phase, whether they exert a ZOC or not (a guerrilla,
    a hex the B-29 suppressed), until each of their hexes next to it has been attacked (F42)."""
    if not (u.landed and state.since(5) and state.step == "allied-combat" and can_attack(state, u)):
        return False
    near = [str(n) for n in state.data.map.neighbours(H(u.where))
            if state.at(str(n), "japanese") and not attack_blocked(state, u.where, str(n))]
    return any(not attacked(state, h) for h in near)


def owed_attacks(state: State, side: str, landed: bool = False) -> list[str]:
    """What stops `side` from ending its Combat Phase (15.0): units that must attack, and enemy hexes exerting a
    ZOC on such a unit that have not been attacked; `landed`: units that must attack after an amphibious
    invasion (10.2.1, 10.2.2)."""
    must = must_attack_after_landing if landed else must_attack
    return [f"{u.id} in {u.where}" for u in state.on_map(side) if must(state, u)]


# -- the attack ---------------------------------------------------------------------------------------------------
def declare(d: Decision, hexes: list[str], unit_ids: list[str], gunfire: int = 0, lp: int = 0,
            air_supply: bool = False, cw_gunfire: int = 0) -> None:
    """15.0-15.2: check the attack and its support (naval gunfire 17.0, LP 15.4.1, air supply 19.4), then commit
    it (`commit`)."""
    state: State = d.state
    side, enemy = d.side, other(d.side)
    if state.combat is not None:
        d.refuse(C15, "the combat under way is not over")
    if len(set(hexes)) != len(hexes) or len(set(unit_ids)) != len(unit_ids):
        d.refuse(C15, "a hex or a unit is named twice")
    for h in hexes:
        if not state.data.map.on_map(H(h)) or not state.at(h, enemy):
            d.refuse(C15, f"{h} holds no {enemy} unit to attack")
        if attacked(state, h):
            d.refuse(C15, f"{h} has been attacked this Combat Phase, or holds a unit attacked in it: a defending "
                          "unit is attacked once a phase")
    attackers = []
    for uid in unit_ids:
        u = state.unit(uid)
        if u is None or u.side != side or not is_hex(u.where):
            d.refuse(C15, f"{uid} is not {side_unit(side)} on the map")
        if state.since(16) and state.spec(uid).type == "pw-camp":  # ruling F134
            d.refuse("Formosa 25.10", f"{uid}: the PW Camp may never attack, even in an enemy ZOC")
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
        missing = [h for h in zoc_hexes_on(state, u) if h not in hexes and not attacked(state, h)]
        if missing:
            d.refuse("Formosa 15.1", f"{u.id} is in the ZOC of {', '.join(missing)} too and must attack every "
                                     "such hex in one combat")
        left = [x.id for x in state.at(u.where, side) if x.id not in unit_ids and can_attack(state, x)
                and all(H(h) in state.data.map.neighbours(H(u.where)) for h in hexes)]
        if left:
            d.refuse("Formosa 15.0, ruling F41", f"the units in {u.where} attack together: add {', '.join(left)}")
    check_support(d, attackers, gunfire=gunfire, lp=lp, air_supply=air_supply, cw_gunfire=cw_gunfire, hexes=hexes)
    commit(d, hexes, attackers, gunfire=gunfire + cw_gunfire, lp=lp, air_supply=air_supply)


def check_support(d: Decision, attackers: list[Unit], gunfire: int = 0, lp: int = 0, air_supply: bool = False,
                  assault: str = "", cw_gunfire: int = 0, hexes: list[str] = ()) -> None:
    """The attacker's support, checked before anything is committed or revealed: US and Commonwealth naval
    gunfire (17.0, 16.0 Important, 18.0; an opposed landing is item 1), LP (15.4.1, 19.5 item 2: a participating
    unit traces a line) and air supply (19.4: none does; never in an assault, 10.2.2), which therefore never go
    together."""
    state: State = d.state
    side = d.side
    if gunfire or cw_gunfire:
        why = airpower.gunfire_refusal(state, side, gunfire, attackers, landing=bool(assault), cw=cw_gunfire)
        if why:
            d.refuse(*why)
    if lp:
        why = airpower.lp_refusal(d, side, True, lp, attackers)
        if why:
            d.refuse(*why)
    if air_supply:
        check_air_supply(state, side, attackers, assault, hexes=hexes)


def commit(d: Decision, hexes: list[str], attackers: list[Unit], gunfire: int = 0, lp: int = 0,
           air_supply: bool = False, assault: str = "", exploitation: bool = False) -> None:
    """15.2 step 1 after the checks: spend the LP and the air supply, then ask the defender for his LP, naval
    gunfire and air supply (`airpower.defender_may_answer`; F18, F22) or roll and apply the result (`resolve`);
    an exploitation attack (25.1) goes the same way."""
    side = d.side
    if lp:
        d.emit(LpSpent(side, lp, f"{lp} column shift(s) attacking {', '.join(hexes)} (Formosa 15.4.1)"))
    if air_supply:
        d.emit(AirSupplyFlown(d.state.turn, list(hexes)))
    if airpower.defender_may_answer(d.state, side, hexes):
        d.emit(airpower.AttackDeclared(side, list(hexes), [u.id for u in attackers], gunfire, lp, air_supply, assault,
                                       exploitation),
               DecisionRequired("defence", other(side), {"hexes": list(hexes)}))
        return
    resolve(d, side, hexes, attackers, gunfire=gunfire, lp=lp, air_supply=air_supply, assault=assault,
            exploitation=exploitation)


def check_air_supply(state: State, side: str, units: list[Unit], assault: str = "", hexes: list[str] = ()) -> None:
    """19.4, ruling F84: the Allied air supply unit, once a GT, for a combat (attack or defence) none of whose
    Allied units traces a line of supply, never for an assault (10.2.2), nor in a player turn it flew a unit in
    (25.3); since rules version 5 it is placed on the defending hexes `hexes` (16.1), so never with the B-29
    (13.1, 19.4 Exception; ruling F108)."""
    if side != "allied" or not state.air.get("air-supply", 0):
        raise IllegalOrder("Formosa 19.4", "only the Allied air supply unit gives air supply, and none has been "
                                           "bought")
    with_b29 = sorted(set(hexes) & airpower.b29_hexes(state)) if state.since(5) else []
    if with_b29:
        raise IllegalOrder("Formosa 13.1", f"the B-29 is in {', '.join(with_b29)} this GT and stacks with no other "
                                           "air unit, the air supply unit included (19.4)")
    if state.since(10):
        _air_supply_nationality(state, units, hexes)
    if optional.air_supply_flown(state):
        raise IllegalOrder("Formosa 25.3", "the air supply marker flew a unit this player turn: it flies no other "
                                           "mission until the next")
    supply.check_air_supply(used_this_turn=state.air_supply_turn == state.turn,
                            any_line=any(state.supply_line(u) for u in units), amphibious_assault=bool(assault))


def _air_supply_nationality(state: State, units: list[Unit], hexes: list[str]) -> None:
    """Ruling F117: the air supply unit is a US air unit (units.toml); it is placed on the defending hexes (F108),
    so never on a hex holding Allied ground units of the other nation (13.1, F116), and it supports a combat only
    if a participating Allied unit is of its nationality (5.1 item 3)."""
    nat = next(c.nationality for c in state.data.counters if c.kind == "air-supply")
    others = sorted(h for h in hexes for u in state.at(h, "allied") if state.spec(u.id).nationality != nat)
    if others:
        raise IllegalOrder("Formosa 13.1", f"the {nat.upper()} air supply unit would be placed on {others[0]}, "
                                           "which holds units of the other Allied nation (US and Commonwealth "
                                           "units never stack, ruling F117)")
    if not any(state.spec(u.id).nationality == nat for u in units):
        raise IllegalOrder("Formosa 5.1", f"the {nat.upper()} air supply unit supports a combat only if a "
                                          f"{nat.upper()} unit takes part (5.1 item 3, ruling F117)")


def shifts(state: State, side: str, hexes: list[str], attackers: list[Unit], gunfire: int = 0,
           counterattack: bool = False, lp: int = 0, defence: tuple[int, int, int] = (0, 0, 0),
           air_supply: bool = False) -> list[Shift]:
    """Every shift of 15.4.1 this combat earns, each with its case (15.6: a counterattack has its one only);
    against several hexes the best in-hex shift and the smallest hexside shift all attackers cross (F44)."""
    if counterattack:
        return [Shift(state.data.crt_raw["counterattack"]["shift"], "Formosa 15.6", "counterattack")]
    data = state.data
    out: list[Shift] = []
    if gunfire:
        out.append(Shift(gunfire if side == "allied" else -gunfire, "Formosa 17.0", "naval gunfire"))
    out += airpower.air_shifts(state, side, hexes, attackers)
    if lp:
        out.append(Shift(lp, "Formosa 15.4.1", "LP spent attacking"))
    if air_supply:
        out.append(Shift(1, "Formosa 19.4", "air supply"))
    if defence[0]:
        out.append(Shift(-defence[0], "Formosa 15.4.1, ruling F22", "LP spent defending"))
    if defence[1]:
        out.append(Shift(-defence[1], "Formosa 17.0, ruling F18", "naval gunfire defending"))
    if defence[2]:
        out.append(Shift(-1, "Formosa 19.4", "air supply defending"))
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


def odds(state: State, side: str, hexes: list[str], attackers: list[Unit], extra: list[Shift],
         defending: list[Unit] | None = None) -> Preview:
    """15.2 steps 2-5; `defending`: the defenders when they are not every unit of the hexes (a counterattack's,
    15.6, ruling F123)."""
    data = state.data
    attack = sum(state.cf(u) for u in attackers)
    defence = sum(state.cf(x) for x in (defending if defending is not None else
                                        [x for h in hexes for x in state.at(h, other(side))]))
    nationality = "japanese" if side == "japanese" else "us"
    # ruling F168 (rules version 22): a defence of 0 (a position's [values]) is odds above the top column, 15.3 item
    # 2's >=700%; a game created under 1-21 read it as one factor, as it was played
    return preview_attack(data.crt(nationality), attack, defence if state.since(22) else max(defence, 1), extra)


def resolve(d: Decision, side: str, hexes: list[str], attackers: list[Unit], gunfire: int = 0,
            counterattack: bool = False, lp: int = 0, defence: tuple[int, int, int] = (0, 0, 0), assault: str = "",
            air_supply: bool = False, exploitation: bool = False, defending: list[Unit] | None = None) -> None:
    """15.2 steps 2-8: totals, percentage, shifts, the die, the result applied; `assault`: the coastal hex of
    the opposed landing this combat is (or is the counterattack of: 10.2.2); `defence`: the defender's LP, naval
    gunfire and air supply (1 or 0); `exploitation`: an exploitation attack (25.1); `defending`: a counterattack's
    defenders, the former attackers of its hex (15.6, ruling F123), where not every unit of the hexes."""
    state: State = d.state
    found = shifts(state, side, hexes, attackers, gunfire, counterattack, lp, defence, air_supply)
    p = odds(state, side, hexes, attackers, found, defending)
    defenders = [x.id for x in defending] if defending is not None else [
        x.id for h in hexes for x in state.at(h, other(side))]
    die = _die(d, p, f"combat: {side} {'counterattack on' if counterattack else 'attack on'} {', '.join(hexes)}")
    code = p.result(die).code
    d.emit(CombatResolved(side, list(hexes), [u.id for u in attackers], defenders, int(p.attack),
                          int(p.defence), int(p.odds.value), [_shift(s) for s in found], p.column_label, die, code,
                          counterattack=counterattack, assault=assault, exploitation=exploitation))
    apply_result(d, code)


def _die(d: Decision, p: Preview, purpose: str) -> int:
    """15.2 step 7: the attacker's die; a position's combat under way (under_way.py, ruling F130) states its result
    instead, and its dice name the face that gives it on this column."""
    face = getattr(d.dice, "face_for", None)
    return face(p) if face is not None else d.roll(purpose)


def _shift(s: Shift) -> dict:
    return {"amount": s.amount, "case": s.case, "reason": s.reason}


# -- results ------------------------------------------------------------------------------------------------------
def destination(d: Decision, u: Unit) -> str:
    """Where an eliminated unit goes (8.3, 11.1): a deception unit leaves the game; a ground unit that can trace
    a line of supply at its elimination goes to its side's Replacements Display (the line may reveal its
    source, 19.3), any other to the Eliminated Display, out of play for good."""
    if d.state.spec(u.id).type == "deception":
        return OUT
    return f"{u.side}-replacements" if lines.line(d, u) else f"{u.side}-eliminated"


def eliminate(d: Decision, uid: str, case: str) -> None:
    eliminate_all(d, [uid], case)


def eliminate_all(d: Decision, uids, case: str) -> None:
    """The units one result eliminates (15.5: all the defenders of a DE, the losses a player names): each goes
    where its line of supply sends it (8.3), judged on the position the result found, before any of them has left
    (since rules version 4, ruling F105: a unit and the static unit it traces to fall together); then the
    die-hards roll for each (25.6)."""
    units = [d.state.units[i] for i in uids]
    if not d.state.since(4):  # one at a time, as games created before version 4 were played
        for u in units:
            d.emit(UnitEliminated(u.id, u.where, destination(d, d.state.units[u.id]), case))
            optional.die_hards(d, u)
        return
    where = {u.id: destination(d, u) for u in units}
    for u in units:
        d.emit(UnitEliminated(u.id, u.where, where[u.id], case))
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
        if state.since(4) and all(never_attacks(state, x) for x in defenders):
            return settle(d)  # 25.10: a PW Camp alone makes no counterattack (ruling F105)
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
            eliminate_all(d, [u.id for u in units], case)
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
        eliminate_all(d, choices[0] if choices else ids, case)
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
            eliminate_all(d, [u.id for u in units], case)
        elif pays:
            owner = c.attacker if who == "attacker" else other(c.attacker)
            _losses(d, owner, units, 0, pays, case)
    settle(d)


MAX_RETREAT = 4  # hexes a retreat could take under rules 1-17, one more while each hex entered over-stacked
ONE_MORE = 2  # since rules version 18 (ruling F145): the hex retreated into and item 3's one additional hex


def _retreat_rules(state: State, u: Unit):
    """15.7 as the kernel's retreat callbacks: `allowed` (items 1-2: no enemy unit, no EZOC but the first for
    an infiltrating unit (22.0, 25.9, F60), guerrillas ignoring EZOC (23.0), terrain it could enter, never back),
    the priorities of item 4 (nearer a supply source, else any: F61) and item 3's extra hex when over-stacked."""
    enemy = other(u.side)
    ezoc = frozenset() if state.spec(u.id).type == "guerrilla" else frozenset(H(h) for h in state.zoc_of(enemy))
    occupied = state.occupied(enemy)
    outside = outside_ezoc(ezoc, ignore_first=infiltrates(state, u))

    def allowed(current: Hex, candidate: Hex, st: RetreatState) -> bool:
        return (str(candidate) not in occupied and candidate != st.start and candidate not in st.path
                and outside(current, candidate, st) and enterable(state, u, str(current), str(candidate)))

    toward = nearer(supply.source_distance(state.data, state.supply_sources(u.side, u)))
    priorities = (toward, lambda h, st: True)

    def overstacked_at(st: RetreatState) -> bool:
        return bool(st.path) and _overstacks(state, u, str(st.current))

    return allowed, priorities, overstacked_at


def _overstacks(state: State, u: Unit, hex: str) -> bool:
    """Would `u` over-stack in `hex` (13.1, 13.2): its ground limits, or (ruling F121) the other Allied nation's
    air points there."""
    return bool(state.would_overstack(hex, u.side, [u.id])) or bool(airpower.other_nations_air(state, u.id, hex))


def retreat_paths(state: State, u: Unit) -> list[tuple[str, ...]]:
    """15.7: every retreat `u` may make, as the hexes entered: one hex, nearer a supply source if one such is
    open (item 4), then, when that hex over-stacks the unit, one additional hex where the limits are met (item 3,
    F61; under rules 1-17 one more while each hex reached over-stacked, ruling F145); since rules version 18,
    when no retreat toward a source can be completed, any allowed first hex (ruling F143: item 4 never eliminates
    a unit that could retreat, item 5)."""
    allowed, priorities, overstacked_at = _retreat_rules(state, u)
    grid = state.data.map
    extra = (lambda h, st: not _overstacks(state, u, str(h)), lambda h, st: True)
    out: list[tuple[str, ...]] = []
    limit = ONE_MORE if state.since(18) else MAX_RETREAT

    def walk(st: RetreatState, first=priorities) -> None:
        if st.path and not overstacked_at(st):
            out.append(tuple(str(h) for h in st.path))
            return
        if len(st.path) >= limit:
            return
        _, options = retreat_options(grid, st, allowed, extra if st.path else first)
        for h in sorted(options, key=str):
            walk(RetreatState(st.start, (*st.path, h)))

    walk(RetreatState(H(u.where)))
    if not out and state.since(18):
        # ruling F143: every hex toward a source over-stacks with no hex beyond it, so item 4 gives way (item 3's
        # "unless", item 5's "if there is an alternative") and any allowed hex is a retreat
        walk(RetreatState(H(u.where)), first=priorities[1:])
    return out


def _retreats(d: Decision, side: str, units: list[Unit]) -> None:
    """15.7: every unit retreats; mobile units with a static unit in their hex ignore it; a unit that cannot
    retreat is eliminated (item 5); the owner picks the path where there is a choice. Assaulting units at sea
    do not retreat: they go back to the Staging Area when the landing fails (10.2.2)."""
    state: State = d.state
    owed = []
    for u in units:
        if state.at_sea(u) or state.is_static(u) or any(state.is_static(x) for x in state.at(u.where, side)):
            continue  # 15.7 Important
        options = retreat_paths(d.state, u)
        if not options:
            eliminate(d, u.id, "Formosa 15.7 item 5")
        elif len(options) == 1:
            d.emit(UnitRetreated(u.id, [u.where, *options[0]]))
        else:
            owed.append(u.id)
    if owed:
        d.emit(DecisionRequired("retreat", side, {"units": owed}))


def retreat(d: Decision, uid: str, hexes: list[str]) -> None:
    state: State = d.state
    pending = state.pending[0]
    if uid not in pending["units"]:
        d.refuse("Formosa 15.7", f"{uid} has no retreat to make; owed: {', '.join(pending['units'])}")
    u = state.units[uid]
    paths = retreat_paths(state, u)
    if tuple(hexes) not in paths:
        d.refuse("Formosa 15.7", f"{uid} cannot retreat along {' '.join(hexes)}: it may retreat "
                                 f"{'; '.join(' '.join(p) for p in paths)} (toward a supply source, item 4; "
                                 "one additional hex when over-stacked, item 3)")
    d.emit(UnitRetreated(uid, [u.where, *hexes]), DecisionMade("retreat", d.side))
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
    if pending["count"] and state.since(8) and chosen not in {  # ruling F114; version 7 took the camp when named
            tuple(sorted(c)) for c in optional.camp_last(state, list(combinations(pending["units"], len(chosen))))}:
        d.refuse("Formosa 25.10", "the PW Camp is the last unit eliminated in its hex: name another unit of its hex "
                                  "(ruling F114)")
    if not pending["count"] and chosen not in valid:
        d.refuse("Formosa 15.5 BB", f"eliminate units of at least {pending['min_cf']} printed combat factors, "
                                    "none to spare")
    d.emit(DecisionMade("losses", d.side))
    eliminate_all(d, unit_ids, pending["case"])
    settle(d)


def counterattack(d: Decision, hex: str) -> None:
    """15.6: every surviving defender attacks one hex of the former attackers, with one right shift only; the PW
    Camp, which never attacks (25.10), stays out of it (a camp alone makes none)."""
    state: State = d.state
    c = state.combat
    if state.pending and state.pending[0]["kind"] == "counterattack":
        if hex not in state.pending[0]["hexes"]:
            d.refuse("Formosa 15.6", f"counterattack one of {', '.join(state.pending[0]['hexes'])}")
        d.emit(DecisionMade("counterattack", d.side))
    units = survivors(state, c.defenders)
    if state.since(4):  # 25.10: the PW Camp does not counterattack with its hex (ruling F105)
        units = [u for u in units if not never_attacks(state, u)]
    # ruling F123 (rules version 12): "the former attackers (in that one hex)" defend, no other unit of the hex
    defending = [u for u in state.at(hex, c.attacker) if u.id in c.attackers] if state.since(12) else None
    resolve(d, other(c.attacker), [hex], units, counterattack=True, assault=c.assault, defending=defending)


def landing_units(state: State, hex: str) -> list[Unit]:
    """10.2.2, F24: the Allied units at sea next to the coastal hex `hex` that assaulted it."""
    near = {str(n) for n in state.data.map.neighbours(H(hex))}
    return [u for u in state.on_map("allied") if u.where in near and state.at_sea(u) and u.attacked]


def advance_units(state: State) -> list[str]:
    """15.8: the surviving attacking mobile units that may advance; in an opposed landing, the assaulting units
    still at sea (10.2.2)."""
    c = state.combat
    if c.assault:
        return [u.id for u in landing_units(state, c.assault) if not _closed_landing(state, u.id, c.assault)]
    return [u.id for u in survivors(state, c.attackers) if not state.is_static(u) and u.id not in c.advanced]


def _closed_landing(state: State, uid: str, hex: str) -> bool:
    """Ruling F120: a mechanized unit does not land in a mountain or peak hex no road runs through (15.8.1: terrain
    it could otherwise enter; a custom map's mountain port), since rules version 10."""
    return state.since(10) and closed_to(state, uid, hex)


def advance_hexes(state: State) -> list[str]:
    c = state.combat
    return [c.assault] if c.assault else list(c.cleared)


def settle(d: Decision) -> None:
    """When no choice is owed: offer the advance once if a hex was cleared (15.8), else end the combat; an
    opposed landing ends as 10.2.2 says (`_settle_landing`)."""
    state: State = d.state
    c = state.combat
    if c is None or state.pending:
        return
    if c.assault:
        return _settle_landing(d)
    if not c.offered and c.advance and c.cleared and advance_units(state):
        d.emit(AdvanceOffered(), DecisionRequired("advance", c.attacker, {"hexes": list(c.cleared)}))
        return
    _end(d)


def _end(d: Decision) -> None:
    """The combat is over: the battlefield LP (25.2) and, after a DE, the exploitation attack offered (25.1)."""
    c = d.state.combat
    optional.battlefield_lp(d, c)
    d.emit(CombatEnded())
    optional.offer_exploitation(d, c)


def _settle_landing(d: Decision) -> None:
    """10.2.2, F24, F80: if the coastal hex is clear of Japanese units the assaulting units must advance into it,
    as many as stacking allows (the Allied player choosing which when not all fit); the others, and all of them
    if the hex is not cleared, go back to the Staging Area."""
    state: State = d.state
    c = state.combat
    hex = c.assault
    at_sea = advance_units(state)
    if at_sea and not state.at(hex, "japanese") and not c.offered:
        d.emit(AdvanceOffered())
        if not d.state.would_overstack(hex, "allied", at_sea):
            d.emit(UnitsAdvanced(at_sea, [hex]))
            optional.camp_taken(d, hex)
        else:
            d.emit(DecisionRequired("advance", "allied", {"hexes": [hex]}))
            return
    left = [u.id for u in landing_units(d.state, hex)]
    if left:
        why = "Formosa 10.2.2 (the hex was not cleared)" if d.state.at(hex, "japanese") else \
            "Formosa 10.2.2 (no room in the hex)" if set(left) & set(advance_units(d.state)) else \
            "Formosa 10.2.2, 15.8.1 (terrain a mechanized unit could not enter: ruling F120)"
        d.emit(LandingFailed(hex, left, why))
    _end(d)


def _check_landing_advance(d: Decision, unit_ids: list[str], hexes: list[str]) -> None:
    """10.2.2: into the assaulted hex only, as many units as stacking allows."""
    state: State = d.state
    hex = state.combat.assault
    if hexes != [hex]:
        d.refuse("Formosa 10.2.2, ruling F80", f"the assaulting units advance into {hex} only")
    if state.would_overstack(hex, "allied", unit_ids):
        d.refuse("Formosa 10.2.2", f"{hex} cannot hold {', '.join(unit_ids)} (13.1)")
    more = [u for u in advance_units(state) if u not in unit_ids
            and not state.would_overstack(hex, "allied", [*unit_ids, u])]
    if more:
        d.refuse("Formosa 10.2.2", f"the assaulting units must advance as stacking allows: {', '.join(more)} fit too")


def advance(d: Decision, unit_ids: list[str], hexes: list[str]) -> None:
    """15.8: units advance into a cleared hex, and after a DE one hex more (15.8 bullet 4)."""
    state: State = d.state
    c = state.combat
    eligible = advance_units(state)
    if not unit_ids or any(i not in eligible for i in unit_ids) or len(set(unit_ids)) != len(unit_ids):
        d.refuse("Formosa 15.8", f"units that may advance: {', '.join(eligible) or 'none'}")
    if c.assault:
        _check_landing_advance(d, unit_ids, hexes)
        d.emit(DecisionMade("advance", d.side), UnitsAdvanced(list(unit_ids), list(hexes)))
        optional.camp_taken(d, hexes[0])
        return settle(d)
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
            if u.side == "japanese" and b in state.strike.suppressed:
                d.refuse("Formosa 16.5, ruling F88", f"{uid} cannot advance into {b}: no Japanese unit enters a hex "
                                                     "the B-29 suppressed")
            if not enterable(state, u, a, b):
                d.refuse("Formosa 15.8.1", f"{uid} could not enter {b} from {a}")
        if airpower.other_nations_air(state, uid, hexes[-1]):
            d.refuse("Formosa 13.1", f"{uid} cannot advance into {hexes[-1]}: the other Allied nation's air points are "
                                     "there until the Air Return Phase, and US and Commonwealth ground and air units "
                                     "never stack together (5.1 item 1; ruling F121)")
    d.emit(DecisionMade("advance", d.side), UnitsAdvanced(list(unit_ids), list(hexes)))
    optional.camp_taken(d, hexes[0])
    if [i for i in advance_units(d.state) if i not in unit_ids]:
        d.emit(DecisionRequired("advance", c.attacker, {"hexes": list(c.cleared)}))
    settle(d)


def can_advance(state: State, uid: str, hexes: list[str]) -> bool:
    """Whether `uid` may advance along `hexes` as far as terrain, the B-29 and the other Allied nation's air
    points go (15.8.1, 16.5, 13.1; the checks `advance` makes of each unit): the list of legal orders offers each
    advance to the units that may make it (ruling F144)."""
    u = state.units[uid]
    steps = [u.where, *hexes]
    for a, b in zip(steps, steps[1:], strict=False):
        if (u.side == "japanese" and b in state.strike.suppressed) or not enterable(state, u, a, b):
            return False
    return not airpower.other_nations_air(state, uid, hexes[-1])


def hold(d: Decision) -> None:
    """15.8.1: advancing is never required, but after an opposed landing it is (10.2.2)."""
    if d.state.combat.assault:
        d.refuse("Formosa 10.2.2", "the assaulting units must advance into the hex they cleared")
    d.emit(DecisionMade("advance", d.side))
    settle(d)
