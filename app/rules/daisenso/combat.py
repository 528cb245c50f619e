"""Dai Senso combat (4.2): the attack and its restrictions (4.2.1), HQ Ranged Support (4.2.1.2), the attack
sequence (4.2.2), column shifts (4.2.3), results (4.2.4), retreats (4.2.5), attrition and step losses (4.2.6),
advance (4.2.7) and exploitation (4.2.8). Each function takes the order's Decision: it checks, then emits."""
from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from functools import cache

from app.rules.daisenso import terrain
from app.rules.daisenso.events import (
    AttackDeclared,
    CombatEnded,
    CombatResolved,
    CombatStage,
    ExploitationOpened,
    MarkersToDelayBox,
    ResultUnsatisfied,
    StackRetreated,
    StepLost,
    SupportDeclared,
    UnitAdvanced,
)
from app.rules.daisenso.state import State, Unit
from app.rules.daisenso.terrain import H
from app.rules.engine.decision import Decision
from app.rules.engine.events import DecisionMade, DecisionRequired
from app.rules.kernel.advance import check_exploitation
from app.rules.kernel.crt import CRT
from app.rules.kernel.errors import RuleViolation
from app.rules.kernel.preview import Preview, preview_attack
from app.rules.kernel.shifts import Shift, hexside_shift

C = "Dai Senso "


def displace_markers(d: Decision, faction: str, hex_label: str) -> None:
    """4.1.3.1 (and 4.1.3, ruling D42; 4.2.5, 4.2.7, 4.2.8, ruling D44): a unit of ``faction`` placed in a hex
    holding enemy Detachment or Logistics markers sends them to their owners' Delay Boxes."""
    enemy = [m for m in d.state.markers_at(hex_label, terrain.LONE_MARKERS) if m.faction != faction]
    for owner in sorted({m.faction for m in enemy}):
        d.emit(MarkersToDelayBox(hex_label, sorted({m.kind for m in enemy if m.faction == owner}), owner))


def faction_of(state: State, side: str) -> str:
    return state.factions[side]


def own(d: Decision, uid: str, case: str) -> Unit:
    u = d.state.units.get(uid)
    if u is None:
        d.refuse(C + case, f"there is no unit {uid} on the map")
    if u.faction != faction_of(d.state, d.side):
        article = "an" if u.faction[0] in "aeiou" else "a"  # an axis unit, a western unit
        d.refuse(C + case, f"{uid} is {article} {u.faction} unit; {d.side} does not command it")
    return u


def at_truce(state: State, a: str, b: str) -> bool:
    return tuple(sorted((a, b))) in state.truces


def has_failure(state: State, faction: str, hex_label: str) -> bool:
    """D17: the faction's Failure marker in the hex."""
    return any(m.kind == "failure" and m.faction == faction for m in state.markers_at(hex_label))


# -- 4.2.1 attacks ----------------------------------------------------------------------------------------
def same_nationality(state: State, a: Unit, b: Unit) -> bool:
    """D24: nationalities meet, or an HQ's Chinese group covers the unit's (4.2.1.2 exceptions)."""
    ka, kb = state.kind(a), state.kind(b)
    if set(ka.nations) & set(kb.nations):
        return True
    groups = {state.data.countries[n].group for n in ka.nations} - {None}
    return bool(groups & {state.data.countries[n].group for n in kb.nations})


def minor_of(state: State, u: Unit) -> str | None:
    """The Minor Country a unit belongs to (4.2.1.1), None for a Major Country's, a Dependent's, a multi-national
    or an Exp unit."""
    k = state.kind(u)
    if k.exp or len(k.nations) != 1:
        return None
    country = state.data.countries[k.nations[0]]
    return country.id if country.kind == "minor" else None


def confined(state: State, u: Unit, hex_label: str) -> str | None:
    """4.2.1.1, 4.2.8: a Minor Country's unit under Free Passage, Mobilizing or No Occupation stays in its country
    and its Dependents. Returns the reason it may not go to ``hex_label``."""
    minor = minor_of(state, u) or next((n for n in state.kind(u).nations
                                        if state.data.countries[n].kind == "minor"), None)
    if minor is None:
        return None
    marked = minor in state.free_passage or minor in state.no_occupation or any(c == minor for c, _ in state.mobilizing)
    country = state.data.country_of(H(hex_label))
    if marked and (country is None or (country.id != minor and country.dependent_of != minor)):
        name = state.data.countries[minor].name
        return f"{u.id} belongs to {name}, which has a Free Passage, Mobilizing or No Occupation marker"
    return None


def kwantung_barred(state: State, u: Unit, hex_label: str) -> bool:
    """D20: a Kwantung unit enters a hex outside a Japanese Dependent only when Russia, Communist China and
    Nationalist China are all free of Policies."""
    if not state.kind(u).kwantung:
        return False
    country = state.data.country_of(H(hex_label))
    if country is not None and country.dependent_of == "japan":
        return False
    return bool({"ussr", "ccp", "china"} & state.policy)


def hq_in_range(state: State, hq: Unit, target: str) -> str | None:
    """4.2.1.2: a path of at most two hexes (the target counted) through no closed country, and from a Beachhead
    only across its Beachhead Hexside: into the hex it points to, or on from there to the hex beyond (ruling D37;
    rules version 2 allowed the first only). Returns why not, or None."""
    atlas = state.data.atlas
    if H(hq.hex).sheet != H(target).sheet:  # the sheets do not join (ruling D2): no path, no distance (ruling D74)
        return f"{hq.id} in {hq.hex} is on another map sheet than {target}; Ranged Support reaches two hexes"
    steps = atlas.neighbours(H(hq.hex))
    if not state.data.is_land(H(hq.hex)):
        steps = [n for n in steps if terrain.beachhead_side(state, hq.faction, hq.hex, str(n))]
        across = H(target) in steps or (state.since(3) and any(atlas.adjacent(n, H(target)) for n in steps))
        if not across:
            return f"{hq.id} on a Beachhead supports only across its Beachhead Hexside"
    distance = atlas.distance(H(hq.hex), H(target))
    if distance > 2:
        return f"{hq.id} is {distance} hexes from {target}; Ranged Support reaches two"
    if distance == 2 and not any(atlas.adjacent(n, H(target)) and not terrain.country_closed(state, str(n))
                                 for n in steps):
        return f"no path for {hq.id}'s Ranged Support avoids a Neutral or Policy Affected Country"
    return None


def hq_problem(state: State, hq: Unit, target: str, force: list[Unit], blitz: bool) -> str | None:
    k = state.kind(hq)
    if k.type != "hq":
        return f"{hq.id} is not an HQ"
    if not hq.supplied:
        return f"{hq.id} is not supplied"
    if hq.fought or hq.attacked:
        return f"{hq.id} already took part in a combat this segment"
    if blitz and not hq.blitz:
        return f"{hq.id} is not Blitz-enabled"
    if not any(same_nationality(state, hq, u) for u in force if state.kind(u).is_ground):
        return f"{hq.id} shares no nationality with a unit in this combat"
    return hq_in_range(state, hq, target)


def one_hex(d: Decision, hexes: list[str]) -> str:
    """4.2.1: an attack is declared against one hex."""
    if len(set(hexes)) > 1:
        d.refuse(C + "4.2.1", f"an attack is declared against one adjacent hex, not {', '.join(hexes)}")
    return hexes[0]


def one_hq(d: Decision, hqs: list[str]) -> str | None:
    """4.2.1.2: one HQ unit per faction participates in a combat."""
    if len(set(hqs)) > 1:
        d.refuse(C + "4.2.1.2", f"one HQ per faction gives Ranged Support to a combat, not {', '.join(hqs)}")
    return hqs[0] if hqs else None


def attacker_problem(state: State, u: Unit, target: str, blitz: bool) -> tuple[str, str] | None:
    """Why the phasing unit ``u`` may not be one of the attacking units against ``target`` whatever the others are
    (4.2.1, 4.2.1.1, 4.1.2; D17), as (case, reason), or None. The limits that hang on the whole force (two Minor
    Countries, one HQ, the raw 1-3) are `declare`'s."""
    k = state.kind(u)
    if not k.is_ground:
        return "4.2.1", f"{u.id} is not a ground unit"
    if u.attacked or (k.type == "hq" and u.fought):
        return "4.2.1", f"{u.id} has already attacked this Combat Segment"
    if not state.data.atlas.adjacent(H(u.hex), H(target)):
        return "4.2.1", f"{u.id} in {u.hex} is not adjacent to {target}"
    if k.attack == 0:
        return "4.2.1.1", f"{u.id} has an Attack Factor of 0"
    if blitz and not u.blitz:
        return "4.1.2", f"{u.id} is not Blitz-enabled"
    if has_failure(state, u.faction, u.hex):
        return "4.2.1.1", f"a {u.faction} Failure marker in {u.hex} stops {u.id} (D17)"
    if not terrain.attack_allowed_across(state, u, target):
        return "4.2.1.1", (f"{u.id} cannot attack across the All-Sea hexside {u.hex}/{target} "
                           "(only supplied marines, or across a Beachhead Hexside)")
    why = confined(state, u, target)
    return ("4.2.1.1", why) if why else None


def declare(d: Decision, target: str, unit_ids: list[str], hq_id: str | None) -> None:
    """4.2.1, 4.2.1.1-4.2.1.3, 4.1.2 and 4.2.2 step 1; then step 2 or the resolution."""
    state, data = d.state, d.data
    faction = faction_of(state, d.side)
    blitz = state.step == "blitz-combat"
    if state.pre_war:
        d.refuse(C + "4.2.1.1", "Pre-War is in effect: no attack (D23)")
    if not data.atlas.on_map(H(target)):
        d.refuse(C + "4.2.1", f"{target} is not on the map")
    if target in state.attacked_hexes:
        d.refuse(C + "4.2.1", f"{target} has already been attacked this Combat Segment")
    enemy = state.other_faction(faction)
    defenders = state.ground_at(target, enemy)
    lone = [m for m in state.markers_at(target, terrain.LONE_MARKERS) if m.faction == enemy]
    if not defenders and not lone:
        d.refuse(C + "4.2.1", f"{target} holds no enemy ground unit, Detachment or Logistics marker")
    if at_truce(state, faction, enemy):
        d.refuse(C + "4.2.1.1", f"the {faction} and {enemy} factions are at truce (D18)")
    if terrain.country_closed(state, target):
        d.refuse(C + "4.2.1.1", f"{target} lies in a Neutral Minor or Policy Affected Country (D19)")
    weather = state.weather_at(target)
    attackers = [own(d, uid, "4.2.1") for uid in dict.fromkeys(unit_ids)]
    if blitz and weather and (defenders or not state.since(5)):  # on units only (ruling D43; version 4: any hex)
        russians = all(state.kind(u).nations == ("ussr",) for u in attackers)
        if not (weather == "snow" and russians):
            d.refuse(C + "4.1.2", f"{target} is under {weather}: no Blitz attack on it")
    for u in attackers:
        why = attacker_problem(state, u, target, blitz)
        if why:
            d.refuse(C + why[0], why[1])
    hqs = [u.id for u in attackers if state.kind(u).type == "hq"]
    if len(hqs) > 1 and state.since(3):  # ruling D37
        d.refuse(C + "4.2.1.2", f"one HQ per faction takes part in a combat, not {', '.join(hqs)}")
    minors = sorted({m for m in (minor_of(state, u) for u in attackers) if m})
    if len(minors) > 1:
        d.refuse(C + "4.2.1.1", f"units of two Minor Countries ({', '.join(minors)}) cannot attack the same hex")
    hq = None
    if hq_id is not None:
        hq = own(d, hq_id, "4.2.1.2")
        if not defenders and state.since(10):  # ruling D57; version 9 and before took the HQ in
            d.refuse(C + "4.2.2", f"{target} holds enemy markers and no ground unit: the attack succeeds without a "
                                  "die, and no HQ gives it Ranged Support (steps 1-8 are for an attack on ground "
                                  "units)")
        if any(state.kind(u).type == "hq" for u in attackers):
            d.refuse(C + "4.2.2", "the attacking units already include an HQ")
        if hq.id in unit_ids:
            d.refuse(C + "4.2.1.2", f"{hq.id} attacks already")
        why = hq_problem(state, hq, target, attackers, blitz)
        if why:  # the Blitz Combat Segment's own limit names its case (ruling D73)
            d.refuse(C + ("4.1.2" if blitz and not hq.blitz and why.endswith("not Blitz-enabled") else "4.2.1.2"), why)
    armor = any(state.kind(u).armor_type for u in attackers)
    if not defenders:
        d.emit(AttackDeclared(target, [u.id for u in attackers], hq.id if hq else None, [], blitz, armor, True))
        d.emit(MarkersToDelayBox(target, sorted({m.kind for m in lone}), enemy))
        d.emit(CombatStage("advance"))
        after_results(d)
        return
    attack = sum(state.kind(u).attack for u in attackers) + (state.kind(hq).attack if hq else 0)
    raw = odds_preview(data.crt, attack, sum(state.kind(u).defense for u in defenders))
    if not raw.allowed:
        d.refuse(C + "4.2.1.1", f"{attack} against {raw.odds.defence} is under a raw 1-3")
    d.emit(AttackDeclared(target, [u.id for u in attackers], hq.id if hq else None, [u.id for u in defenders],
                          blitz, armor))
    if defender_hq_options(d.state):
        d.emit(DecisionRequired("defender-hq", d.state.side_of(enemy), {"target": target}))
    else:
        resolve(d)


def defender_hq_options(state: State) -> list[str]:
    """4.2.2 step 2: the defender's supplied HQs that may support, unless the hex holds an HQ."""
    c = state.combat
    force = [state.units[u] for u in c.defenders]
    if any(state.kind(u).type == "hq" for u in force):
        return []
    enemy = force[0].faction
    return sorted(u.id for u in state.units.values() if u.faction == enemy and u.hex != c.target
                  and hq_problem(state, u, c.target, force, False) is None)


def support(d: Decision, hq_id: str | None) -> None:
    state = d.state
    if hq_id is not None:
        own(d, hq_id, "4.2.1.2")  # the defender's own HQ (ruling D73)
        if hq_id not in defender_hq_options(state):
            u = state.units.get(hq_id)
            why = hq_problem(state, u, state.combat.target, [state.units[x] for x in state.combat.defenders],
                             False) if u else f"there is no unit {hq_id}"
            d.refuse(C + "4.2.1.2", why or f"{hq_id} cannot support this defence")
    d.emit(SupportDeclared(hq_id), DecisionMade("defender-hq", d.side))
    resolve(d)


# -- 4.2.3 shifts and 4.2.2 steps 3-5 ----------------------------------------------------------------------
def _air_shifts(state: State, force: list[Unit], faction: str, sign: int, blitz: bool) -> list[Shift]:
    c = state.combat
    weather = state.weather_at(c.target)
    out = []
    if weather == "mud":
        return out
    for u in state.units.values():
        k = state.kind(u)
        if not k.is_air or u.faction != faction:
            continue
        if sign > 0 and blitz and not u.blitz:
            continue
        near = u.hex == c.target or state.data.atlas.adjacent(H(u.hex), H(c.target))
        if not near or (weather in ("storms", "snow") and u.hex != c.target):
            continue
        if any(_air_nationality(state, u, x) for x in force):
            out.append(Shift(sign * state.data.shift("air"), C + "4.2.3.1", f"{u.id} ({k.name})"))
    return out


def _air_nationality(state: State, air: Unit, u: Unit) -> bool:
    """4.2.3.1: the Air unit and a unit of the combat share a nationality (their lists meet, D24); the Chinese groups
    are 4.2.1.2's exceptions for HQs only, so a Nationalist Chinese Air unit does not shift for a Kiangsu unit alone
    (ruling D49; rules version 6 and before counted the groups too)."""
    if not state.since(7):
        return same_nationality(state, air, u)
    return bool(set(state.kind(air).nations) & set(state.kind(u).nations))


def attack_strengths(state: State) -> tuple[int, int, list[Shift]]:
    """4.2.2 step 3 and 4.2.3: the totals and every shift with its case."""
    d = state.data
    c = state.combat
    attackers = [state.units[u] for u in c.attackers]
    attacking = attackers + ([state.units[c.attacker_hq]] if c.attacker_hq else [])
    defending = [state.units[u] for u in c.defenders] + ([state.units[c.defender_hq]] if c.defender_hq else [])
    attack = sum(state.kind(u).attack for u in attacking)
    defence = sum(state.kind(u).defense for u in defending)
    attacker_faction = attackers[0].faction
    shifts = _air_shifts(state, attacking, attacker_faction, +1, c.blitz)
    shifts += _air_shifts(state, defending, state.other_faction(attacker_faction), -1, c.blitz)
    if c.blitz:
        shifts += [Shift(d.shift("airdrop"), C + "4.2.3.2", f"Airdrop marker in {c.target}")
                   for m in state.markers_at(c.target, terrain.AIRDROPS) if m.faction == attacker_faction]
        if any(state.kind(u).armor_type and u.supplied and u.blitz for u in attackers):
            shifts.append(Shift(d.shift("armor"), C + "4.2.3.3", "supplied Blitz-enabled armor"))
    if any(state.kind(u).type == "fortress" for u in state.ground_at(c.target)):
        shifts.append(Shift(-d.shift("fortress"), C + "4.2.3.4", "fortress"))
    if any(state.kind(u).type == "hq" and u.supplied for u in attacking):
        shifts.append(Shift(d.shift("hq"), C + "4.2.3.5", "attacking HQ"))
    if any(state.kind(u).type == "hq" and u.supplied for u in defending):
        shifts.append(Shift(-d.shift("hq"), C + "4.2.3.5", "defending HQ"))
    if any(state.kind(u).type == "marine" and u.supplied and u.blitz
           and terrain.hexside(state, u.hex, c.target, "marine_crossing") for u in attackers):
        shifts.append(Shift(d.shift("marines"), C + "4.2.3.6", "Blitz-enabled marines across the water"))
    if state.weather_at(c.target) == "mud":
        shifts.append(Shift(-int(d.tec["weather"]["mud"]["shift_left"]), C + "4.2.3.7", "Mud"))
    amount, why = d.hex_shift(H(c.target))
    if amount:
        shifts.append(Shift(-amount, C + "4.2.3.8", why))
    across = [-_side_shift(state, u.hex, c.target) for u in attackers]
    # D9: every hexside an adjacent attacker crosses is compared, a plain one giving no shift (rules version 16);
    # version 15 and before compared the featured hexsides only
    side = hexside_shift(across, plain_counts=state.since(16))
    if side:
        shifts.append(Shift(side, C + "4.2.3.8", "hexside (the lowest crossed, D9)"))
    return attack, defence, shifts


def _side_shift(state: State, a: str, b: str) -> int:
    if terrain.any_beachhead_side(state, a, b):
        return int(state.data.tec["hexsides"]["all-sea"]["shift_left"])  # D11
    return state.data.hexside_shift(H(a), H(b))


def preview(state: State) -> Preview:
    attack, defence, shifts = attack_strengths(state)
    conversion = "weather" if state.weather_at(state.combat.target) else None
    return odds_preview(state.data.crt, attack, defence, shifts, conversion)


def odds_preview(crt: CRT, attack: int, defence: int, shifts=(), conversion: str | None = None) -> Preview:
    """4.2.2 steps 3-4 on the table: the odds, the shifts and each die's result. A Defender Total of 0 (ground units
    a what-if gave a Defense Factor of 0, ruling D35) divides into no ratio: the odds are greater than any, so they
    are treated as 9-1, the last column (ruling D78); the totals shown stay the real ones."""
    if defence:
        return preview_attack(crt, attack, defence, shifts, conversion=conversion)
    top = crt.columns()[-1].low  # 9-1: the odds every Attacker Total has against nothing
    p = preview_attack(crt, top, 1, shifts, conversion=conversion)
    return replace(p, attack=attack, defence=0, odds=replace(p.odds, attack=Fraction(attack), defence=Fraction(0)))


def resolve(d: Decision) -> None:
    """4.2.2 steps 3-5: odds, shifts, one die, the result (weakened by the weather, 4.2.4.1)."""
    state = d.state
    p = preview(state)
    die = d.roll(f"attack on {state.combat.target} at {p.column_label}")
    crt = state.data.crt
    printed = crt.lookup(p.column, die).code
    result = crt.lookup(p.column, die, conversion="weather" if state.weather_at(state.combat.target) else None).code
    odds = p.odds.label
    if state.since(18) and p.odds.value < crt.columns()[0].low:  # ruling D80: treated as 1-3 (version 17: "2-9")
        odds = crt.columns()[0].label
    d.emit(CombatResolved(state.combat.target, int(p.attack), int(p.defence), odds.replace(":", "-"),
                          [str(s) for s in p.shifts.shifts], p.column_label, die, printed, result))
    after_results(d)


# -- 4.2.4-4.2.6 the results, in order -----------------------------------------------------------------------
def after_results(d: Decision) -> None:
    """Move the combat to its next result (4.2.2 steps 6-8), asking whoever must decide, applying at once a
    choice that has one possible way only."""
    while True:
        state = d.state
        c = state.combat
        if c is None or any(p["kind"] in DECISIONS for p in state.pending):
            return
        attacker = state.phasing
        sides = {"attacker": state.side_of(attacker), "defender": state.side_of(state.other_faction(attacker))}
        if c.stage == "hq":  # the die is rolled: the Retreat results first (4.2.4)
            result = state.data.crt.notation.parse(c.result)
            if result.attacker.retreat_or_loss:
                d.emit(CombatStage("attacker-result"))
            else:
                d.emit(CombatStage("retreat", result.defender.retreat) if result.defender.retreat
                       else CombatStage("attacker-losses"))
            continue
        if c.stage == "advance":
            if advancers(state):
                d.emit(DecisionRequired("advance", sides["attacker"], {}))
            else:
                d.emit(CombatEnded(c.target))
            return
        owed, who, then = STAGES[c.stage]
        force = attacking_force(state) if who == "attacker" else (
            retreating_stack(state) if c.stage == "exchange" else defending_force(state))
        if owed(c) <= 0 or not force:
            if owed(c) > 0 and who == "defender":
                d.emit(ResultUnsatisfied(owed(c), "losses" if c.stage == "defender-losses" else "retreat"))
            d.emit(CombatStage(then))
            if then == "advance":
                _open_advance(d)
            continue
        choices = options_for(state, c.stage)
        if len(choices) != 1:
            d.emit(DecisionRequired(c.stage, sides[who], {}))
            return
        apply_choice(d, c.stage, choices[0])


# stage -> (what is owed, who decides, the stage after it)
STAGES = {
    "attacker-result": (lambda c: 1, "attacker", "retreat"),
    "attacker-retreat": (lambda c: len(c.stacks_to_retreat), "attacker", "attacker-losses"),
    "exchange": (lambda c: c.retreat_left, "defender", "attacker-losses"),
    "retreat": (lambda c: c.retreat_left, "defender", "attacker-losses"),
    "attacker-losses": (lambda c: c.attacker_losses, "attacker", "defender-losses"),
    "defender-losses": (lambda c: c.defender_losses, "defender", "advance"),
}
DECISIONS = (*STAGES, "advance", "defender-hq", "roll")


def _open_advance(d: Decision) -> None:
    state = d.state
    c = state.combat
    if c.automatic or state.ground_at(c.target, state.other_faction(state.phasing)):
        return
    if state.since(14) and not advancers(state):  # ruling D69: no advance, so no Exploitation Distance either
        return
    d.emit(ExploitationOpened(len(set(c.path)) + c.unsatisfied))


def attacking_force(state: State) -> list[Unit]:
    c = state.combat
    ids = [*c.attackers, *([c.attacker_hq] if c.attacker_hq else [])]
    return [state.units[u] for u in ids if u in state.units]


def defending_force(state: State) -> list[Unit]:
    """4.2.5, 4.2.6: the defending units involved (joined in retreat included) and the supporting HQ."""
    c = state.combat
    ids = [*c.defenders, *([c.defender_hq] if c.defender_hq else [])]
    return [state.units[u] for u in ids if u in state.units]


def stack_hex(state: State) -> str:
    c = state.combat
    return c.path[-1] if c.path else c.target


def retreating_stack(state: State) -> list[Unit]:
    c = state.combat
    here = stack_hex(state)
    return [state.units[u] for u in c.defenders if u in state.units and state.units[u].hex == here]


def force_can_retreat(state: State, force: list[Unit]) -> bool:
    """4.2.5.2: no participating HQ nor MA-0 unit in the force."""
    return not any(state.kind(u).type == "hq" or state.kind(u).ma == 0 for u in force)


def voluntary_conversion(state: State) -> bool:
    """4.2.5.3: before the force has retreated a hex, if every adjacent attacker crosses a Strait, Beachhead or
    Mountain hexside, or the hex is a City without a Blitz marker (ruling D48). An HQ giving Ranged Support crosses
    no hexside, next to the hex or not (ruling D83, rules version 19; version 18 and before counted one next to the
    hex among the attackers)."""
    c = state.combat
    if c.path:
        return False
    force = [state.units[u] for u in c.attackers if u in state.units] if state.since(19) else attacking_force(state)
    attackers = [u for u in force if state.data.atlas.adjacent(H(u.hex), H(c.target))]
    hard = attackers and all(terrain.hexside(state, u.hex, c.target, "hard_crossing") for u in attackers)
    city = state.data.atlas.is_city(H(c.target)) and not state.markers_at(c.target, ("blitz",))
    return bool(hard or city)


# -- choices -----------------------------------------------------------------------------------------------
def loss_choices(state: State, unit: Unit) -> list[str | None]:
    """4.2.6.2: the kinds that may take the unit's place when it loses a step (None: it shows its other side or
    is gone)."""
    k = state.kind(unit)
    if k.flip or k.steps == 1 or not (k.breaks_to or k.components):
        return [None]
    if k.components:  # the kept component from the Holding Box or the Force Pool (ruling D41; version 3: any)
        pool = state.force_pool.get(unit.faction, {})
        kept = [c for c in k.components if c in unit.holding or pool.get(c, 0) > 0]
        return list(k.components) if not state.since(4) else kept or [None]
    pool = state.force_pool.get(unit.faction, {})
    members = [m for m in state.data.class_members(k.breaks_to) if pool.get(m.id, 0) > 0
               and (not state.since(18) or combines_into(state, m, k))]
    plain = [m.id for m in members if not m.elite]
    return plain or [m.id for m in members] or [None]


def combines_into(state: State, one, two) -> bool:
    """4.2.6.2: the one-step kind ``one`` could have been used to combine the two-step kind ``two``: it shares a
    nationality with it, or ``two`` is a Major Country's unit whose Chinese group holds ``one``'s country (4.2.5.3's
    example breaks the KMT HQ down to a Kiangsu Res infantry). A Minor Country's unit combines only its own country's
    units, so a Kiangsu War Zone breaks down to a Kiangsu Res, never a Hunan one (ruling D79, rules version 18;
    version 17 and before took any unit of the class)."""
    if set(one.nations) & set(two.nations):
        return True
    countries = state.data.countries
    groups = {countries[n].group for n in two.nations if countries[n].kind == "major"} - {None}
    return any(countries[n].group in groups for n in one.nations)


def first_loss_units(state: State, force: list[Unit]) -> list[Unit]:
    """4.2.6.1: the attacking force's first step comes from a marine that attacked across water or an armor-type
    unit. The hexside is the one the marine attacked across, wherever an Ad or Ex retreat has since put it (ruling
    D37; rules version 2 looked from the hex it stands in); once one marine crossed, any marine's step will do
    (ruling D40)."""
    c = state.combat
    if c.attacker_lost:
        return force
    fronts = dict(c.fronts) if state.since(3) else {u.id: u.hex for u in force}
    marines = [u for u in force if state.kind(u).type == "marine" and fronts.get(u.id, c.target) != c.target
               and terrain.hexside(state, fronts[u.id], c.target, "marine_crossing")]
    if marines and state.since(4):  # a marine step, any marine's (ruling D40; version 3: the crossing marine's)
        marines = [u for u in force if state.kind(u).type == "marine"]
    armor = [u for u in force if state.kind(u).armor_type]
    return (marines + armor) or force


def options_for(state: State, kind: str) -> list[tuple]:
    """Every choice open to the side deciding ``kind`` now, as (verb, *args)."""
    c = state.combat
    if kind in ("attacker-losses", "attacker-result"):
        force = first_loss_units(state, attacking_force(state))
        out = [("lose", u.id, k) for u in force for k in loss_choices(state, u)]
        if kind == "attacker-result" and attacker_can_retreat(state):
            out += [("retreat", h, to) for h, tos in attacker_retreats(state).items() for to in tos]
        return out
    if kind == "attacker-retreat":
        return [("retreat", h, to) for h, tos in attacker_retreats(state).items() if h in c.stacks_to_retreat
                for to in tos]
    if kind == "defender-losses":
        return [("lose", u.id, k) for u in defending_force(state) for k in loss_choices(state, u)]
    if kind in ("retreat", "exchange"):
        force = defending_force(state)
        out = []
        movable = force_can_retreat(state, force)
        if movable:
            _, hexes = terrain.retreat_options(state, force[0].faction, stack_hex(state), c.target)
            out += [("retreat", h) for h in hexes]
        if kind == "exchange":  # any defending unit, the Ranged Support HQ too (ruling D45; version 6: the stack)
            losers = defending_force(state) if state.since(7) else retreating_stack(state)
            out += [("lose", u.id, k) for u in losers for k in loss_choices(state, u)]
        elif not out or voluntary_conversion(state):
            out += [("convert", u.id, k) for u in force for k in loss_choices(state, u)]
        return out
    return []


def attacker_retreats(state: State) -> dict[str, list[str]]:
    """Ad/Ex: each attacking stack's retreat hexes (4.2.5; attacking stacks in different hexes apart); none at all
    when an HQ gave the attack Ranged Support (4.2.5.2: it is part of the force)."""
    c = state.combat
    out = {}
    for h in sorted({u.hex for u in state.units.values() if u.id in c.attackers}):
        stack = [u for u in state.units.values() if u.id in c.attackers and u.hex == h]
        if c.attacker_hq in state.units or not force_can_retreat(state, stack):
            out[h] = []
            continue
        _, hexes = terrain.retreat_options(state, stack[0].faction, h, c.target)
        out[h] = hexes
    return out


def retreat_refusal(state: State, kind: str, choice: tuple) -> tuple[str, str] | None:
    """Why the retreat ``choice`` (("retreat", to) for the defenders, ("retreat", frm, to) for an attacking stack) is
    not open at the ``kind`` decision, as (case, reason): the rule that bars it, so the refusal names its case."""
    c = state.combat
    if kind in ("attacker-result", "attacker-retreat"):
        frm, to = choice[1:]
        stacks = attacker_retreats(state)
        if frm not in stacks or (kind == "attacker-retreat" and frm not in c.stacks_to_retreat):
            return "4.2.5", f"no attacking stack of this combat is left to retreat from {frm}"
        if c.attacker_hq in state.units:
            return "4.2.5.2", f"{c.attacker_hq}, the HQ that gave the attack Ranged Support, is part of the force"
        force = [u for u in state.units.values() if u.id in c.attackers and u.hex == frm]
        current = frm
    else:
        to = choice[1]
        force = defending_force(state)
        current = stack_hex(state)
    stuck = next((u for u in force if state.kind(u).type == "hq" or state.kind(u).ma == 0), None)
    if stuck is not None:
        what = "an HQ" if state.kind(stuck).type == "hq" else "a unit with a Movement Allowance of 0"
        return "4.2.5.2", f"the force includes {stuck.id}, {what} that took part in the combat"
    why = terrain.retreat_problem(state, force[0].faction, current, c.target, to)
    if why is None and kind == "attacker-result":
        blocked = sorted(h for h, tos in attacker_retreats(state).items() if not tos)
        return "4.2.4.1", (f"the attacking stack in {', '.join(blocked)} cannot retreat, so the attackers do not "
                           "retreat: one of them loses a step (ruling D61)")
    return why


ATTACKER_KINDS = ("attacker-losses", "attacker-result")


def loss_refusal(state: State, kind: str, choice: tuple) -> tuple[str, str] | None:
    """Why the step ``choice`` (("lose" or "convert", unit, as kind)) is not open at the ``kind`` decision, as (case,
    reason): the rule that bars it, so the refusal names its case (ruling D73): a faction's own units (4.2.6), only
    units involved in the combat (4.2.4), the attacking force's first step (4.2.6.1), what takes the unit's place
    (4.2.6.2), a conversion while the force may still retreat (4.2.5.3); None where no rule says more."""
    verb, uid, as_kind = choice
    c = state.combat
    attacker = kind in ATTACKER_KINDS
    faction = state.phasing if attacker else state.other_faction(state.phasing)
    u = state.units.get(uid)
    if u is None:
        return "4.2.6", f"there is no unit {uid} on the map"
    if u.faction != faction:
        article = "an" if u.faction[0] in "aeiou" else "a"
        return "4.2.6", f"{uid} is {article} {u.faction} unit: the {faction} faction loses steps from its own units"
    force = attacking_force(state) if attacker else (
        defending_force(state) if kind != "exchange" or state.since(7) else retreating_stack(state))
    if u not in force:
        return "4.2.4", (f"{uid} took no part in the combat at {c.target}: only the units involved in a combat are "
                         "affected by its results")
    if attacker and u not in first_loss_units(state, force):
        first = first_loss_units(state, force)
        marine = any(state.kind(x).type == "marine" for x in first)
        armor = any(state.kind(x).armor_type for x in first)
        what = " or ".join(w for w, on in (("a marine step", marine), ("an armor-type step", armor)) if on)
        return "4.2.6.1", (f"the attacking force's first step loss must be {what}: "
                           f"{', '.join(x.id for x in first)}")
    choices = loss_choices(state, u)
    if as_kind not in choices:
        if choices == [None]:
            return "4.2.6.2", f"{uid} loses its step itself (it flips or is removed): name no kind to take its place"
        k = state.kind(u)
        foreign = (state.since(18) and k.breaks_to and as_kind in state.data.kinds
                   and state.data.kinds[as_kind].cls == k.breaks_to
                   and not combines_into(state, state.data.kinds[as_kind], k))
        why = f"{as_kind} could not have combined {uid}, of another nationality (ruling D79): " if foreign else ""
        return "4.2.6.2", (f"{why}{uid}'s step is lost by putting in its place one of "
                           f"{', '.join(k for k in choices if k)}" + (", or none" if None in choices else ""))
    if verb == "convert" and kind == "retreat":
        return "4.2.5.3", ("the force may still retreat, and Voluntary Retreat Conversion is open only in the "
                           "defending hex, when every adjacent attacker crosses a Strait, Beachhead or Mountain "
                           "hexside or the hex is a City without a Blitz marker")
    return None


def attacker_can_retreat(state: State) -> bool:
    routes = attacker_retreats(state)
    return bool(routes) and all(routes.values())


def apply_choice(d: Decision, kind: str, choice: tuple) -> None:
    """Carry out one of `options_for(state, kind)` (an order, or the only way there is)."""
    verb, *args = choice
    state = d.state
    if verb in ("lose", "convert"):
        unit, as_kind = args
        pays = {"attacker-losses": "attacker", "attacker-result": "ad", "defender-losses": "defender",
                "retreat": "retreat", "exchange": "retreat"}[kind]
        lose_step(d, unit, as_kind, pays)
        if kind == "attacker-result":  # 4.2.4.1: the step is taken; after Ex the defender's turn
            result = state.data.crt.notation.parse(state.combat.result)
            d.emit(CombatStage("exchange", 1) if result.exchange else
                   CombatStage("retreat", result.defender.retreat) if result.defender.retreat else
                   CombatStage("attacker-losses"))
        return
    if kind in ("attacker-result", "attacker-retreat"):
        frm, to = args
        if kind == "attacker-result":  # 4.2.4.1: every attacking stack retreats; the defender does nothing
            d.emit(CombatStage("attacker-retreat", stacks=sorted(attacker_retreats(state))))
        stack = [u.id for u in d.state.units.values() if u.id in d.state.combat.attackers and u.hex == frm]
        joined = [u.id for u in d.state.ground_at(to, state.phasing) if u.id not in d.state.combat.attackers]
        d.emit(StackRetreated(stack, frm, to, joined, False))
        if state.since(6):  # ruling D44
            displace_markers(d, state.phasing, to)
        return
    stack = retreating_stack(state)
    to = args[0]
    joined = [u.id for u in state.ground_at(to, stack[0].faction) if u.id not in state.combat.defenders]
    d.emit(StackRetreated([u.id for u in stack], stack_hex(state), to, joined, True))
    if state.since(6):  # ruling D44
        displace_markers(d, stack[0].faction, to)


def lose_step(d: Decision, uid: str, as_kind: str | None, pays: str) -> None:
    """4.2.6.2: flip, break down from the Force Pool or the Holding Box, or remove to the Delay Box, the Force Pool
    or out of the game."""
    state = d.state
    u = state.units[uid]
    k = state.kind(u)
    if k.flip:
        d.emit(StepLost(uid, pays, becomes=k.flip))
        return
    replacement = {} if as_kind is None else {"replacement": f"{uid}.{state.serial + 1}", "replacement_kind": as_kind}
    if as_kind is not None and k.components:
        from_holding = as_kind in u.holding
        if state.since(20):  # ruling D84: the counter leaves as 4.2.6.2 says; so does its Holding Box unit if not kept
            held = {} if from_holding else {"held_box": _box(state, u.holding[0]), "held_kind": u.holding[0]}
            d.emit(StepLost(uid, pays, **replacement, from_holding=from_holding, box=_box(state, u.kind),
                            box_kind=u.kind, **held))
            return
        gone = next(c for c in k.components if c != as_kind)  # version 19 and before: the counter vanished
        d.emit(StepLost(uid, pays, **replacement, from_holding=from_holding, box=_box(state, gone), box_kind=gone))
        return
    box, counter = removal(state, u)
    d.emit(StepLost(uid, pays, **replacement, box=box, box_kind=counter))


def removal(state: State, u: Unit) -> tuple[str, str]:
    """4.2.6.2: where a counter removed from its location goes ("delay", "pool" or "" out of the game) and as which
    kind: its own, the one it shows before the flips of its steps lost, so a US mech army flipped to its 4-4-1 side
    keeps the mech's Delay Stripe (ruling D86, rules version 20; version 19 and before sent the side shown)."""
    kind = u.kind
    for _ in range(u.lost if state.since(20) else 0):
        kind = next(k.id for k in state.data.kinds.values() if k.flip == kind)
    return _box(state, kind), kind


def _box(state: State, kind_id: str) -> str:
    k = state.data.kinds[kind_id]
    if k.leaves_game:
        return ""
    return "delay" if k.delay else "pool"


# -- 4.2.7, 4.2.8 ------------------------------------------------------------------------------------------
def advancers(state: State) -> list[Unit]:
    """4.2.7: supplied, non-HQ attacking ground units with an MA, adjacent to the emptied defending hex: no enemy
    unit there (an Air unit left behind included, ruling D37) nor an enemy Beachhead marker."""
    if advance_hex_closed(state):
        return []
    return [u for u in attacking_force(state) if advance_problem(state, u) is None]


def advance_hex_closed(state: State) -> str | None:
    """Why no unit may Advance After Combat into the defending hex (4.2.7, D10, D19, D37), or None."""
    c = state.combat
    enemy = state.other_faction(state.phasing)
    left = state.at(c.target) if state.since(3) else state.ground_at(c.target)  # any enemy unit (ruling D37)
    if any(u.faction == enemy for u in left):
        return f"an enemy unit is in {c.target}"
    if any(m.kind in terrain.BEACHHEADS and m.faction == enemy for m in state.markers_at(c.target)):
        return f"{c.target} holds an enemy Beachhead marker"
    if not state.data.is_land(H(c.target)):
        return f"{c.target} is not a Land hex (ruling D10)"
    if terrain.country_closed(state, c.target):
        return f"{c.target} lies in a Neutral Minor or Policy Affected Country (ruling D19)"
    return None


def advance_problem(state: State, u: Unit) -> str | None:
    """Why the unit ``u`` may not Advance After Combat into the defending hex (4.2.7; D20), the hex itself aside."""
    c = state.combat
    k = state.kind(u)
    for why, barred in ((f"it is not one of the units that attacked {c.target}", u.id not in c.attackers),
                        ("it is not supplied", not u.supplied), ("it is an HQ", k.type == "hq"),
                        ("its Movement Allowance is 0", k.ma <= 0),
                        (f"it is not adjacent to {c.target}", not state.data.atlas.adjacent(H(u.hex), H(c.target))),
                        ("a Kwantung unit enters no hex outside a Japanese Dependent while Russia, Communist China or "
                         "Nationalist China is Policy Affected (ruling D20)", kwantung_barred(state, u, c.target))):
        if barred:
            return why
    return None


def advance_refusal(state: State, uid: str) -> str:
    """Why ``uid`` may not Advance After Combat now, for the refusal (ruling D73): ": " and the reason, or ""."""
    u = state.units.get(uid)
    why = (f"there is no unit {uid} on the map" if u is None else
           f"{uid} is {'an' if u.faction[0] in 'aeiou' else 'a'} {u.faction} unit" if u.faction != state.phasing else
           advance_hex_closed(state) or advance_problem(state, u))
    return f": {why}" if why else ""


def advance(d: Decision, uid: str) -> None:
    state = d.state
    if uid not in {u.id for u in advancers(state)}:
        d.refuse(C + "4.2.7", f"{uid} may not Advance After Combat into {state.combat.target}"
                              + advance_refusal(state, uid))
    d.emit(UnitAdvanced(uid, [state.combat.target]))
    if state.since(6):  # ruling D44
        displace_markers(d, state.phasing, state.combat.target)
    _after_advance(d)


def exploit(d: Decision, uid: str, path: list[str]) -> None:
    """4.2.8: from the defending hex, one adjacent Land hex at a time, up to the distance and the unit's MA."""
    state = d.state
    c = state.combat
    if uid not in {u.id for u in advancers(state)}:
        d.refuse(C + "4.2.8", f"{uid} may not Advance After Combat, so it may not Exploit"
                              + advance_refusal(state, uid))
    if not c.armor or c.automatic:
        d.refuse(C + "4.2.8", "no armor-type unit attacked here: Advance, not Exploitation")
    u = state.units[uid]
    try:
        _Exploitation(state, u).check(path)
    except RuleViolation as exc:
        d.refuse(exc.case, exc.message)
    d.emit(UnitAdvanced(uid, list(path)))
    if state.since(6):  # ruling D44: each hex it is placed in
        for label in path:
            displace_markers(d, u.faction, label)
    _after_advance(d)


class _Exploitation:
    """4.2.8's restrictions for one unit of the combat: how far it may go (the combat's Exploitation Distance, not
    beyond its MA), the hexes it may enter and those it must stop in."""

    def __init__(self, state: State, u: Unit):
        self.state, self.u = state, u
        self.distance = min(state.combat.exploit_distance, state.kind(u).ma)
        self.ezoc = terrain.enemy_zoc(state, u.faction)
        self.why: str | None = None  # the hex `enterable` last refused, and why

    def enterable(self, h, prev) -> bool:
        why = self.barred(str(h))
        self.why = None if why is None else f"{h}: {why}"
        return why is None

    def barred(self, label: str) -> str | None:
        """Why the unit may not be placed in ``label`` (4.2.8's restrictions, D17, D19, D20), or None."""
        state, u = self.state, self.u
        if not state.data.is_land(H(label)):
            return "it is not a Land hex"
        if any(x.faction != u.faction for x in state.at(label)):
            return "an enemy unit is there"
        if state.weather_at(label) == "mud":
            return "it is affected by Mud"
        closed = terrain.closed_country(state, label)
        if closed:
            return f"it lies in {closed} (ruling D19)"
        if kwantung_barred(state, u, label):
            return ("it lies outside a Japanese Dependent while Russia, Communist China or Nationalist China is "
                    "Policy Affected (Kwantung, ruling D20)")
        confined_why = confined(state, u, label)
        if confined_why:
            return f"{confined_why}, and it lies outside that country and its Dependents"
        if has_failure(state, u.faction, label):
            return f"a {u.faction} Failure marker is there (D17)"
        return None

    def stops(self, h, prev) -> bool:
        state, label, before = self.state, str(h), str(prev)
        crossing = terrain.hexside(state, before, label, "stops_exploitation") or terrain.hexside(
            state, before, label, "all_sea")
        there = state.at(label) if state.since(3) else state.ground_at(label)  # any unit, an Air unit too (D37)
        friendly_here = any(x.faction == self.u.faction for x in there if x.id != self.u.id)
        return crossing or (label in self.ezoc and not friendly_here)

    def check(self, path: list[str]) -> None:
        """RuleViolation naming 4.2.8 unless the unit may exploit along `path`."""
        self.why = None
        try:
            check_exploitation(self.state.data.atlas, H(self.u.hex), H(self.state.combat.target),
                               [H(h) for h in path], self.distance, self.enterable, self.stops, C + "4.2.8")
        except RuleViolation as exc:
            if self.why is None:
                raise
            # the hex the walk could not enter, and the restriction that bars it
            raise RuleViolation(exc.case, f"{self.u.id} may not Exploit into {self.why}") from None

    def paths(self) -> list[list[str]]:
        """Every path the unit may exploit along (the defending hex alone, the same as an Advance, left out),
        shortest first, each hex's neighbours in the map's order: one for each place it may end in with the enemy
        Detachment and Logistics markers it sends to the Delay Box on the way (ruling D44), the first found, since
        two paths alike in both leave the same position (ruling D55). Grown a hex at a time by `check`'s rules:
        a hex it may enter, not entered before, from a hex it need not stop in."""
        atlas, target = self.state.data.atlas, self.state.combat.target
        try:
            self.check([target])
        except RuleViolation:
            return []
        enters = cache(lambda h, prev: self.enterable(H(h), H(prev)))
        stops = cache(lambda h, prev: self.stops(H(h), H(prev)))
        found: dict[tuple, list[str]] = {}
        level = [[target]]
        while level and len(level[0]) < self.distance:
            longer = []
            for path in level:
                last = path[-1]
                if stops(last, path[-2] if len(path) > 1 else self.u.hex):
                    continue
                longer += [[*path, str(n)] for n in atlas.neighbours(H(last))
                           if str(n) not in path and enters(str(n), last)]
            for path in longer:
                found.setdefault((path[-1], self._swept(path)), path)
            level = longer
        return list(found.values())

    def _swept(self, path: list[str]) -> frozenset[str]:
        if not self.state.since(6):
            return frozenset()
        return frozenset(h for h in path if any(m.faction != self.u.faction
                                                for m in self.state.markers_at(h, terrain.LONE_MARKERS)))


def exploitation_barred(state: State) -> tuple[str, str] | None:
    """Why no unit of the combat under way may Exploit, as (case, reason), or None: an attack on markers alone
    (4.2.2: Advance After Combat, no Exploitation), or one with no armor-type unit in the attacking force (4.2.8)."""
    c = state.combat
    if c.automatic:
        return C + "4.2.2", "an attack on markers alone allows Advance After Combat, not Exploitation"
    if not c.armor:
        return C + "4.2.8", "no armor-type unit attacked here: Advance, not Exploitation"
    return None


def exploitation_paths(state: State) -> list[tuple[str, list[str]]]:
    """4.2.8: (unit, path) for each unit that may exploit now and each of its paths (`_Exploitation.paths`)."""
    c = state.combat
    if c is None or not c.armor or c.automatic:
        return []
    return [(u.id, path) for u in advancers(state) for path in _Exploitation(state, u).paths()]


def stop_advance(d: Decision) -> None:
    d.emit(DecisionMade("advance", d.side), CombatEnded(d.state.combat.target))


def _after_advance(d: Decision) -> None:
    if not advancers(d.state):
        stop_advance(d)
