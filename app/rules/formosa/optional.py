"""The optional rules (25.0-25.10), chosen when a game is created and kept in its first event
(`GameCreated.options["optional"]`, checked by data_load.load; `state.data.optional`). The orders of a rule
(`exploit`, `airlift`, the Japanese `land` and `raid`) are declared with it (`@order(..., option="25.x")` in
sequence.py), so a game without the rule refuses them naming the case; the rules without orders act where the
sequence reaches them: combat.py (25.1, 25.2, 25.6, 25.10), the Recruit Phase (25.4, 25.5), the set-up (25.7,
25.8, 25.9, 25.10), movement (25.3) and the victory count (25.5, 25.10). Rulings F90-F99 (docs/rulings/formosa.md).
"""
from __future__ import annotations

from app.rules.engine.decision import Decision
from app.rules.engine.events import DecisionMade, DecisionRequired
from app.rules.formosa import supply
from app.rules.formosa.airpower import assigned
from app.rules.formosa.events import (
    Airlifted,
    BattlefieldLp,
    GuerrillaRallied,
    RaiderHits,
    SpecialLanding,
    UnitEliminated,
    VpAwarded,
)
from app.rules.formosa.state import OUT, Combat, State, Unit, is_hex, other
from app.rules.kernel.hexgrid import Hex
from app.rules.kernel.paths import TraceSituation

H = Hex.parse
RULES = {"25.1": "exploitation attacks", "25.2": "battlefield victory LP", "25.3": "Allied air transport",
         "25.4": "USMC replacements", "25.5": "the US 97th Infantry Division", "25.6": "Japanese die-hards",
         "25.7": "the Japanese Marine Brigade", "25.8": "the Japanese Airborne Raiders",
         "25.9": "the Takasago Special Force", "25.10": "the Japanese PW Camp"}
SPECIAL_LANDINGS = {"25.7": "marine_brigade", "25.8": "raiders"}  # charts.toml [optional.*]
# the special reinforcement a refusal names, with its verb and pronoun (the Raiders are plural)
WHO = {"25.7": ("the Japanese Marine Brigade", "is", "it", "lands"),
       "25.8": ("the Japanese Airborne Raiders", "are", "they", "land")}
AIRLIFT_TYPES = ("infantry", "airborne", "ranger", "engineer")   # 25.3 (ruling F96)
DIE_HARD_TYPES = ("infantry", "guard", "marine", "raider")       # 25.6 (ruling F92)


def chosen(state: State, rule: str) -> bool:
    return rule in state.data.optional


def _table(state: State, rule: str) -> dict:
    return next(t for t in state.data.charts["optional"].values() if t["case"] == rule)


# -- units that exist only with their rule (3.0 "OPT") -------------------------------------------------------------
def check_recruit(d: Decision, unit_ids: list[str], setup: bool = False) -> None:
    """25.0: a unit of an optional rule not chosen does not exist; 25.5 a): the 97th's three regiments are
    recruited together, and (since rules version 19, ruling F148) as a reinforcement: from the Recruit Phase of
    GT 2 on, never at set-up (8.0)."""
    state: State = d.state
    for uid in unit_ids:
        spec = state.data.by_id.get(uid)
        if spec is not None and spec.optional and not chosen(state, spec.optional):
            d.refuse(f"Formosa {spec.optional}", f"{uid} exists only with optional rule {spec.optional} "
                                                  f"({RULES[spec.optional]}), which this game was not created with")
    division = sorted(u.id for u in state.data.units if u.optional == "25.5")
    named = [u for u in unit_ids if u in division]
    if named and setup and state.since(19):
        d.refuse("Formosa 25.5", "the 97th Infantry Division is selected as a reinforcement, recruited from the "
                                 "Recruit Phase of GT 2 on (8.0), not at set-up (ruling F148)")
    if named and sorted(named) != division:
        d.refuse("Formosa 25.5", f"the 97th Infantry Division's three regiments are recruited at the same time: "
                                 f"{' '.join(division)}")


def special(state: State, uid: str) -> bool:
    """25.7, 25.8: a special reinforcement recruited at set-up waits off the map (ruling F8), not placed."""
    return state.spec(uid).optional in SPECIAL_LANDINGS


def set_up_units(data) -> tuple[str, ...]:
    """25.10: the PW Camp must be deployed at set-up when its rule is chosen."""
    return tuple(u.id for u in data.units if u.type == "pw-camp" and u.optional in data.optional)


# -- 25.1 exploitation attacks ------------------------------------------------------------------------------------
def _stacks(state: State, c: Combat) -> dict[str, list[str]]:
    """The survivors of the original force by hex, each hex next to an enemy hex it may attack."""
    from app.rules.formosa.combat import attack_blocked

    out: dict[str, list[str]] = {}
    for uid in c.attackers:
        u = state.units[uid]
        if is_hex(u.where) and state.cf(u) > 0 and _targets(state, u.where, attack_blocked):
            out.setdefault(u.where, []).append(uid)
    return out


def _targets(state: State, hex: str, blocked) -> list[str]:
    side = state.at(hex)[0].side
    return sorted(str(n) for n in state.data.map.neighbours(H(hex))
                  if state.at(str(n), other(side)) and not blocked(state, hex, str(n)))


def offer_exploitation(d: Decision, c: Combat) -> None:
    """25.1: after a DE, once the advance is over, the attacker may attack again with one stack of the original
    force (not in a counterattack); each DE offers another."""
    state: State = d.state
    if not chosen(state, "25.1") or c.code != "DE" or c.counterattack:
        return
    stacks = _stacks(state, c)
    if stacks:
        d.emit(DecisionRequired("exploit", c.attacker, {"units": sorted(u for s in stacks.values() for u in s)}))


def exploit(d: Decision, hexes: list[str], unit_ids: list[str], gunfire: int = 0, lp: int = 0,
            air_supply: bool = False, cw_gunfire: int = 0) -> None:
    """25.1, ruling F90: units of one hex of the original force attack enemy hexes next to them, under the
    normal combat rules (15.2-15.8), though they have attacked this phase (15.0) and the hexes may have been
    attacked (ruling F4): with the attacker's naval gunfire, LP and air supply checked as in any attack, and the
    defender asked for his (`combat.commit`)."""
    from app.rules.formosa.combat import attack_blocked, check_support, commit

    state: State = d.state
    offered = state.pending[0]["units"]
    if not unit_ids or len(set(unit_ids)) != len(unit_ids) or any(u not in offered for u in unit_ids):
        d.refuse("Formosa 25.1", f"an exploitation attack is made by units of the original force: "
                                 f"{', '.join(offered)}")
    where = {state.units[u].where for u in unit_ids}
    if len(where) != 1:
        d.refuse("Formosa 25.1", "an exploitation attack is made by one stack: name units of one hex")
    hex = where.pop()
    if not hexes or len(set(hexes)) != len(hexes):
        d.refuse("Formosa 25.1", "name the enemy hexes attacked, each once")
    for h in hexes:
        if h not in _targets(state, hex, attack_blocked):
            d.refuse("Formosa 25.1", f"{h} is not an enemy hex next to {hex} that the stack may attack")
    attackers = [state.units[u] for u in unit_ids]
    check_support(d, attackers, gunfire=gunfire, lp=lp, air_supply=air_supply, cw_gunfire=cw_gunfire, hexes=hexes)
    d.emit(DecisionMade("exploit", d.side))
    commit(d, hexes, [d.state.units[u] for u in unit_ids], gunfire=gunfire + cw_gunfire, lp=lp,
           air_supply=air_supply, exploitation=True)


def exploit_targets(state: State, hex: str) -> list[str]:
    """The enemy hexes next to `hex` its stack may attack in an exploitation attack (25.1, 15.0)."""
    from app.rules.formosa.combat import attack_blocked

    return _targets(state, hex, attack_blocked)


def exploit_candidates(state: State, side: str):
    from app.rules.formosa.combat import attack_blocked

    by_hex: dict[str, list[str]] = {}
    for uid in state.pending[0]["units"]:
        by_hex.setdefault(state.units[uid].where, []).append(uid)
    for hex, units in sorted(by_hex.items()):
        for target in _targets(state, hex, attack_blocked)[:2]:
            yield {"hexes": [target], "units": units}


# -- 25.2 battlefield victory LP ----------------------------------------------------------------------------------
def battlefield_lp(d: Decision, c: Combat) -> None:
    """25.2, ruling F28: one LP when one attack eliminates enough combat factors of the defender's mobile units
    (the attacker's own losses not counted), or its attacker advances into the defender's hex."""
    state: State = d.state
    if not chosen(state, "25.2"):
        return
    table = _table(state, "25.2")
    gone = [state.units[i] for i in c.defenders if not is_hex(state.units[i].where)]
    # mobile ground units only: never a static unit, an engineer eliminated on its base side included (2.4; since
    # rules version 18, ruling F141)
    cf = sum(state.spec(u.id).cf for u in gone if not state.spec(u.id).static
             and not (state.since(18) and u.id in c.bases))
    needed = table["allied_eliminates"] if c.attacker == "allied" else table["japanese_eliminates"]
    advanced = bool(c.advanced)  # an advance begins in a cleared defender's hex (15.8)
    if cf >= needed or advanced:
        d.emit(BattlefieldLp(c.attacker, table["lp"], cf, advanced))


# -- 25.6 die-hards -------------------------------------------------------------------------------------------------
def die_hards(d: Decision, u: Unit) -> None:
    """25.6, ruling F92: a Japanese infantry or Marine unit eliminated in a hex whose own terrain shifts for the
    Japanese defender: if the die is below its combat factor a guerrilla (while the counter mix has one off the
    map) takes its place."""
    state: State = d.state
    if not chosen(state, "25.6") or u.side != "japanese" or state.spec(u.id).type not in DIE_HARD_TYPES:
        return
    if not is_hex(u.where) or state.data.hex_shift(H(u.where), "japanese") <= 0:
        return
    free = [g for display in ("japanese-reinforcements", "japanese-replacements") for g in state.in_display(display)
            if state.spec(g.id).type == "guerrilla" and g.id not in state.to_place]
    if not free:
        return
    die = d.roll(f"die-hards in {u.where} (Formosa 25.6)")
    if die < state.spec(u.id).cf:
        d.emit(GuerrillaRallied(free[0].id, u.where, die))


# -- 25.3 air transport ---------------------------------------------------------------------------------------------
def airlift(d: Decision, uid: str, hex: str) -> None:
    """25.3, ruling F96: the air supply marker flies one infantry, airborne, ranger or engineer unit from the
    Staging Area to a functional airbase (an airfield with an Allied engineer base, 20.0), in an enemy ZOC if
    need be, for one MP; one unit a marker a player turn."""
    state: State = d.state
    case = "Formosa 25.3"
    u = state.unit(uid)
    if u is None or u.side != "allied" or u.where != "allied-staging":
        d.refuse(case, f"{uid} is not an Allied unit in the Staging Area")
    if state.spec(uid).type not in AIRLIFT_TYPES:
        d.refuse(case, f"{uid} is {state.spec(uid).type}: air transport carries infantry, airborne, ranger or "
                       "engineer units")
    markers = state.air.get("air-supply", 0)
    flown = len(state.airlifted) if state.airlift_turn == state.turn else 0
    if flown >= markers:
        d.refuse(case, "no air supply marker is free this player turn" if markers else
                       "the Allies have no air supply marker: buy one in the Recruit Phase (7.3)")
    if hex not in functional_airbases(state):
        d.refuse(case, f"{hex} is not a functional airbase (an airfield with an Allied engineer base): "
                       f"{', '.join(functional_airbases(state)) or 'none'}")
    d.emit(Airlifted(uid, hex, state.turn))


def functional_airbases(state: State) -> list[str]:
    return sorted(u.where for u in state.on_map("allied") if u.base and H(u.where) in state.data.airfields()
                  and not state.at(u.where, "japanese"))


def air_supply_flown(state: State) -> bool:
    """25.3: the air supply marker that flew a unit this player turn (the Allied one: airlifts are made in the
    Allied Movement Phase) flies no other mission, such as air supply (19.4), until the Japanese player turn."""
    return state.side == "allied" and state.airlift_turn == state.turn and bool(state.airlifted)


def spent_mp(state: State, u: Unit) -> int:
    """25.3: an airlifted unit has spent one MP of this Movement Phase."""
    return 1 if state.airlift_turn == state.turn and u.id in state.airlifted else 0


def airlift_candidates(state: State, side: str):
    bases = functional_airbases(state)
    if not bases or state.air.get("air-supply", 0) < 1:
        return
    for u in state.in_display("allied-staging")[:6]:
        if state.spec(u.id).type in AIRLIFT_TYPES:
            yield {"unit": u.id, "hex": bases[0]}
            return


# -- 25.4 USMC replacements ----------------------------------------------------------------------------------------
def usmc_deploys(d: Decision, uid: str, place: str) -> bool:
    """25.4, ruling F97: a replaced US Marine unit may deploy with any US HQ that traces its own line to a
    functional port (19.2). True if this deployment is one; refused naming 25.4 where it would be one but the
    rule is not chosen or the HQ traces no line."""
    state: State = d.state
    spec = state.spec(uid)
    if not is_hex(place) or spec.type != "marine" or spec.nationality != "us":
        return False
    hqs = [u for u in state.at(place, "allied")
           if state.spec(u.id).type == "hq" and state.spec(u.id).nationality == "us"]
    if not hqs:
        return False
    if not chosen(state, "25.4"):
        d.refuse("Formosa 25.4", "a Marine unit deploys with a US HQ only under optional rule 25.4 (USMC "
                                 "replacements), which this game was not created with")
    if uid not in state.replaced_now:
        d.refuse("Formosa 25.4", f"{uid} was recruited, not replaced: only replaced Marine units deploy with an HQ")
    if not any(hq_supplied(state, hq) for hq in hqs):
        d.refuse("Formosa 25.4", f"no US HQ in {place} traces a line of supply to a functional port (19.2)")
    return True


def hq_supplied(state: State, hq: Unit) -> bool:
    spec = state.spec(hq.id)
    sit = TraceSituation(enemy_occupied=frozenset(H(h) for h in state.occupied("japanese")),
                         ezoc=frozenset(H(h) for h in state.zoc_of("japanese")))
    return supply.hq_line(state.data, supply.Hq(H(hq.where), spec.nationality, spec.mf),
                          [H(p) for p in state.functional_ports()], sit) is not None


def usmc_candidates(state: State, uid: str) -> list[str]:
    return usmc_hexes(state, uid)[:2]


def usmc_hexes(state: State, uid: str) -> list[str]:
    """25.4: the hexes of the US HQs a replaced Marine unit `uid` may deploy with."""
    if not chosen(state, "25.4") or uid not in state.replaced_now or state.spec(uid).type != "marine":
        return []
    return [u.where for u in state.on_map("allied") if state.spec(u.id).type == "hq" and hq_supplied(state, u)]


# -- 25.7 Marine Brigade, 25.8 Airborne Raiders ------------------------------------------------------------------
def special_landing(d: Decision, rule: str, hex: str, uid: str | None = None) -> None:
    """25.7, 25.8, rulings F8, F94: from GT 2 in the Japanese Movement Phase the special reinforcement recruited
    at set-up lands (the Marine Brigade on a port or beach hex free of Allied units and ZOC; the raiders on any
    airfield), once a GT, face up, within the stacking limits (8.1, since rules version 5: ruling F108); its die
    decides."""
    state: State = d.state
    case = f"Formosa {rule}"
    waiting = [u for u in state.special_ready if state.spec(u).optional == rule]
    name, are, they, land = WHO[rule]
    if uid is not None and uid not in waiting:
        d.refuse(case, f"{uid} is not {name} waiting to land")
    if not waiting:
        d.refuse(case, f"{name} {are} not waiting to land: {they} {are} recruited at set-up only, and {land} once")
    unit = waiting[0]
    if state.turn < 2:  # 25.7, 25.8: deployed in any Japanese Movement Phase starting with GT 2
        d.refuse(case, f"{name} {are} deployed onto the map in a Japanese Movement Phase from GT 2 on, not on GT "
                       f"{state.turn}")
    if f"tried-{unit}" in state.used_hexes:
        d.refuse(case, f"{unit} was turned back this GT: it may try again in a later GT")
    if not state.data.map.on_map(H(hex)) or not state.data.is_land(H(hex)):
        d.refuse(case, f"{hex} is not a land hex of the map")
    if hex in state.strike.suppressed:
        d.refuse("Formosa 16.5", f"no Japanese unit enters {hex}: the B-29 suppressed it this GT")
    allied = bool(state.at(hex, "allied"))
    if rule == "25.7":
        if H(hex) not in state.data.ports() | state.data.map.hexes_with("beach"):
            d.refuse(case, f"{hex} is neither a port nor a beach hex (ruling F12)")
        if allied or hex in state.zoc_of("allied"):
            d.refuse(case, f"{hex} holds Allied units or is in an Allied ZOC")
    elif H(hex) not in state.data.airfields():
        d.refuse(case, f"{hex} is not an airfield")
    problems = state.would_overstack(hex, "japanese", [unit]) if state.since(5) and not allied else []
    if problems:  # 8.1: deployed on the map within the stacking limits (ruling F108)
        d.refuse("Formosa 8.1", f"{hex} would be over-stacked: {problems[0].message} ({problems[0].case})")
    table = _table(state, rule)
    die = d.roll(f"{RULES[rule][4:]} landing in {hex} ({case})")
    result = table["die"][die - 1]
    if result == "lands" and allied:
        result = "lands and is eliminated"  # 25.8: raiders on an Allied-occupied airfield
    d.emit(SpecialLanding(unit, hex, rule, die, result))
    if result == "lands and is eliminated":
        hits = d.roll(f"the raiders' attack on the airfield in {hex} ({case})")
        d.emit(RaiderHits(hits, *_tac_lost(d.state, table["allied_airfield"][hits - 1])))


TAC_POOLS = (("allied-tac", "interdiction"), ("cw-tac", "cw-interdiction"))  # (State.air key, its mission now)


def _tac_lost(state: State, points: int) -> tuple[dict, dict]:
    """Rulings F95, F99: the Allied TAC points the raiders destroy, as ({State.air key: points}, {mission: points
    of them taken off it}): first points on the ground (not interdicting: in the Japanese Movement Phase every
    other mission of the GT has flown, 16.2-16.3), US before Commonwealth, then interdicting ones."""
    lost: dict[str, int] = {}
    flying: dict[str, int] = {}
    for in_air in (False, True):
        for key, mission in TAC_POOLS:
            up = min(assigned(state, "allied", mission), state.air.get(key, 0))
            have = up if in_air else state.air.get(key, 0) - up
            take = min(points, have)
            if take:
                lost[key] = lost.get(key, 0) + take
                if in_air:
                    flying[mission] = take
                points -= take
    return lost, flying


def landing_hexes(state: State, rule: str) -> list[str]:
    """The hexes a special landing may be tried on (25.7: a port or beach free of Allied units and ZOC; 25.8: an
    airfield; never a hex the B-29 suppressed, 16.5 DS item 4), none before GT 2 or once the unit has gone."""
    if state.turn < 2 or not any(state.spec(u).optional == rule for u in state.special_ready):
        return []
    if rule == "25.7":
        hexes = sorted(str(h) for h in state.data.ports() | state.data.map.hexes_with("beach")
                       if not state.at(str(h), "allied") and str(h) not in state.zoc_of("allied"))
    else:
        hexes = sorted(str(h) for h in state.data.airfields())
    return [h for h in hexes if h not in state.strike.suppressed]  # 16.5 DS item 4


def landing_candidates(state: State, rule: str):
    hexes = landing_hexes(state, rule)
    yield from ({"hex": h} for h in hexes[:: max(1, len(hexes) // 3)])


# -- 25.10 PW Camp ---------------------------------------------------------------------------------------------------
def camp_last(state: State, combos: list[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """25.10: the PW Camp is the last Japanese unit eliminated in its hex: a loss takes it only with every other
    unit of its hex."""
    def fair(combo) -> bool:
        for uid in combo:
            u = state.units[uid]
            if state.spec(uid).type == "pw-camp":
                others = [x.id for x in state.at(u.where, u.side) if x.id != uid]
                if any(o not in combo for o in others):
                    return False
        return True

    kept = [c for c in combos if fair(c)]
    return kept or combos


def camp_taken(d: Decision, hex: str) -> None:
    """25.10: the Allies advance into the hex where ground combat has just eliminated the PW Camp: 5 VP."""
    state: State = d.state
    c = state.combat
    if not chosen(state, "25.10") or c is None or c.attacker != "allied" or state.pw_camp_lost != hex:
        return
    if any(state.spec(i).type == "pw-camp" for i in c.defenders):
        vp = _table(state, "25.10")["allied_vp_taken"]
        d.emit(VpAwarded("allied", vp, f"the PW Camp eliminated in {hex} and the hex taken", "Formosa 25.10"))


def camp_bombed(d: Decision, hex: str) -> bool:
    """25.10 for a B-29 strike (16.5) whose result is D1 in `hex`: the PW Camp alone is removed and the Japanese
    score 5 VP; with other units a die: 1-3 the same, 4-6 the strike goes on as 16.5 says (False: the Japanese
    player chooses a combat unit to eliminate, never the camp)."""
    state: State = d.state
    camps = [u for u in state.at(hex, "japanese") if state.spec(u.id).type == "pw-camp"]
    if not chosen(state, "25.10") or not camps:
        return False
    table = _table(state, "25.10")
    if len(state.at(hex, "japanese")) > 1:
        die = d.roll(f"B-29 strike on {hex}: the PW Camp (Formosa 25.10)")
        if table["b29_mixed_hex"][die - 1] != "camp":
            return False
    d.emit(UnitEliminated(camps[0].id, hex, OUT, "Formosa 25.10"),
           VpAwarded("japanese", table["japanese_vp_bombed"], f"the B-29s struck the PW Camp in {hex}",
                     "Formosa 25.10"))
    return True


# -- victory (4.2) ---------------------------------------------------------------------------------------------------
def end_vp(state: State) -> dict[str, dict[str, int]]:
    """What the optional rules add to each side's VP at the end: those earned in play (25.10), the 97th
    Division recruited (25.5 b), the PW Camp still on the map (25.10)."""
    out: dict[str, dict[str, int]] = {"allied": {}, "japanese": {}}
    for side, vp in state.vp_adjust.items():
        if vp:
            out[side]["optional rules in play (25.10)"] = vp
    if chosen(state, "25.5") and any(u.optional == "25.5" and state.units[u.id].where not in (
            "allied-reinforcements", OUT) for u in state.data.units):
        out["allied"]["the 97th Infantry Division recruited (25.5)"] = _table(state, "25.5")["allied_vp"]
    if chosen(state, "25.10") and any(state.spec(u.id).type == "pw-camp" for u in state.on_map("japanese")):
        out["japanese"]["the PW Camp on the map (25.10)"] = _table(state, "25.10")["japanese_vp_on_map"]
    return out
