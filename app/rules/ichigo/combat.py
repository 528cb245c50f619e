"""Ichi-Go combat (11.x) through the kernel: odds (11.6-11.8), each attacker nation's own CRT line (11.8),
river halving on the total (11.13), shifts each with its case (11.9-11.18, 7.4, 11.28), untried and zero
reveals (11.27), losses (11.20-11.23, 11.17, 11.28, 11.29), advance (11.24) and momentum attacks (11.25).

Step losses are apportioned by their owner (`lose`, ruling E1, docs/rulings/ichigo-engine.md) when there is a
choice, by the engine (11.21 first, then the weakest) when there is none."""
from __future__ import annotations

from fractions import Fraction

from app.rules.engine.decision import Decision
from app.rules.errors import IllegalOrder
from app.rules.ichigo import events as ev
from app.rules.ichigo.common import air_range, frozen, garrison_at, mainland, supply_state
from app.rules.ichigo.data_load import H
from app.rules.ichigo.state import State, Unit, other
from app.rules.kernel.concentric import concentric_shift
from app.rules.kernel.errors import RuleViolation
from app.rules.kernel.odds import compute_odds
from app.rules.kernel.preview import strength_lines
from app.rules.kernel.shifts import Shift, apply_shift, net_shifts
from app.rules.kernel.strength import Modifier, hexside_contributions, total_strength


def untried_bounds(state: State) -> tuple[int, int]:
    """Ruling E33: the weakest non-zero and the strongest combat factor among the Chinese regulars drawn blind
    (3.3, 9.7): the public countermix an untried counter is one of (6.6), whichever it is."""
    factors = [int(r["strength"][0]) for r in state.data.units if r.get("placement") == "draw-pool"]
    return min(f for f in factors if f > 0), max(factors)


def _again(state: State, nation: str) -> str:
    """Ruling E61: when a unit that attacked may attack again in the same phase (11.0, 11.25)."""
    if nation == "chinese":
        return "; Chinese units attack once a combat phase and never make momentum attacks (11.0, 11.25)"
    if nation == "us":
        return ("; a US unit attacks again only in a momentum attack, right after it advances after combat while "
                "tracing supply to a beachhead (11.25)")
    lo, hi = state.data.scenario["combat"]["japanese_momentum_turns"]
    if lo <= state.turn <= hi:
        return (f"; a Japanese unit attacks again only in a momentum attack, right after it advances after combat in "
                f"supply, on Turns {lo}-{hi} (11.25)")
    return f"; Japanese momentum attacks end with Turn {hi} (11.25), so a unit attacks once a phase"


def tank_pool(state: State) -> list[Unit]:
    """Ichi-Go 11.17: regiments held off the map; the Kwantung Army's only once Causeway is launched."""
    return sorted((u for u in state.units.values() if u.type == "tank" and u.size == "regiment"
                   and u.status == "off-map" and (u.army != "KA" or state.causeway)), key=lambda u: u.id)


def sf_ready(state: State) -> Unit | None:
    """Ichi-Go 11.28: the 1st SF Group, once it has arrived with the 14AA."""
    u = state.units.get("jp-14aa-1sf")
    return u if u is not None and u.status == "sf-ready" else None


def check_attack(state: State, side: str, target: str, ids: list[str], momentum: dict | None = None) -> list[Unit]:
    d = state.data
    if momentum is None and state.mode() != "fight":
        raise IllegalOrder("Ichi-Go 5.5", "attacks only in a phase declared for combat")
    units = [state.units[i] for i in ids]
    nation = momentum["nation"] if momentum else state.nation_now()
    for u in units:
        if u.side != side or not u.on_map:
            raise IllegalOrder("Ichi-Go 11.0", f"{u.id} is not a {side} unit on the map")
        if u.nation != nation:
            raise IllegalOrder("Ichi-Go 11.8", f"{u.id}: only {nation} units attack in this phase")
        if u.static or u.militia:
            raise IllegalOrder("Ichi-Go 11.26" if u.militia else "Ichi-Go 2.12", f"{u.id} never attacks")
        if momentum is None and u.attacked:
            raise IllegalOrder("Ichi-Go 11.3", f"{u.id} has already attacked this phase{_again(state, nation)}")
        if not d.map.adjacent(H(u.hex), H(target)):
            raise IllegalOrder("Ichi-Go 11.2", f"{u.id} in {u.hex} is not adjacent to {target}")
        if frozen(state, u.hex):
            raise IllegalOrder("Ichi-Go 5.4", f"the 38th Army force never attacks on Turn {state.turn}")
    if momentum is not None:
        if not set(ids) <= set(momentum["units"]):
            raise IllegalOrder("Ichi-Go 11.25", "a momentum attack uses only units that just advanced")
        if len({u.hex for u in units}) > 1:
            raise IllegalOrder("Ichi-Go 11.25", "a momentum attack is one hex of attackers against one hex")
    enemy = [u for u in state.at(target) if u.side != side]
    if not enemy and not (side == "allied" and garrison_at(state, target)):
        raise IllegalOrder("Ichi-Go 11.0", f"{target} holds no enemy unit")
    if momentum is None and target in state.attacked_hexes:
        raise IllegalOrder("Ichi-Go 11.4", f"{target} has already been attacked this phase")
    if frozen(state, target):
        raise IllegalOrder("Ichi-Go 5.4", f"the 38th Army force in {target} cannot be attacked on Turn {state.turn}")
    return units


def assess(state: State, side: str, target: str, attackers: list[Unit], defenders: list[Unit],
           tanks: int, sf: bool, momentum: bool = False, def_tanks: int = 0, nation: str | None = None) -> dict:
    """Strengths, odds and shifts of one attack, every item with its case; no dice. `nation` (the attackers'
    CRT line) is needed when `attackers` may be empty: a preview counts untried attackers as unknown (6.6)."""
    d = state.data
    sc = d.scenario
    nation = nation or attackers[0].nation
    line = nation
    sup = {u.id: supply_state(state, u) for u in attackers}

    def extra(uid: str):
        if sup.get(uid) == "oos":
            return [Modifier(Fraction(1, 2), "Ichi-Go 7.3" if nation == "japanese" else "Ichi-Go 7.9",
                             "out of supply")]
        return []

    def feature(a, b):
        f = d.map.hexside_features(a, b)
        for k in ("lake", "sea", "river"):
            if k in f:
                return k
        return None

    try:
        contrib = hexside_contributions([(u.id, u.factor("attack"), H(u.hex)) for u in attackers], H(target),
                                        feature, d.hexsides, extra)
    except RuleViolation as err:
        raise IllegalOrder("Ichi-Go 11.13", err.message) from None
    attack_total = total_strength(contrib, d.strength)
    attack = attack_total.total
    defence = sum(u.factor("defence") for u in defenders)
    garrison = side == "allied" and garrison_at(state, target)
    if garrison:
        defence += int(sc["combat"]["intrinsic_garrison"])
    shifts: list[Shift] = []
    for n, case, reason in d.terrain_shifts(target):
        shifts.append(Shift(-n, case, f"defender in {reason}"))
    terrain = {d.map.terrain_of(H(target))} | set(d.map.features_of(H(target)))
    c = concentric_shift(d.concentric, d.map.grid, H(target), {H(u.hex) for u in attackers}, nation, terrain)
    if c is not None:
        shifts.append(c)
    if target in air_range(state, side):
        shifts.append(Shift(1, "Ichi-Go 11.18", "friendly airpower in range", "air"))
    elif target in air_range(state, other(side)):
        shifts.append(Shift(-1, "Ichi-Go 11.18", "enemy airpower in range", "air"))
    # 7.4 (ruling E29): the shift comes with any attacker on attenuated supply; an out-of-supply one is halved
    # instead (7.3), and joining the attack never lifts the others' shift (rules version 4: all attenuated)
    attenuated = [s == "attenuated" for s in sup.values()]
    if nation == "japanese" and attackers and (any(attenuated) if state.since(5) else all(attenuated)):
        shifts.append(Shift(int(sc["supply"]["japanese"]["attenuated_attack_shift"]), "Ichi-Go 7.4",
                            "attenuated Japanese supply"))
    if state.causeway and target in d.tagged("coastal"):
        n = int(sc["combat"]["naval_gunfire_shift"])
        shifts.append(Shift(n if side == "allied" else -n, "Ichi-Go 11.16", "US naval gunfire"))
    if tanks:
        shifts.append(Shift(tanks * int(sc["combat"]["tank_regiment_shift"]), "Ichi-Go 11.17",
                            f"{tanks} tank regiment(s)"))
    if sf:
        shifts.append(Shift(int(sc["combat"]["special_forces_shift"]), "Ichi-Go 11.28", "1st SF Group"))
    if def_tanks:
        shifts.append(Shift(-def_tanks * int(sc["combat"]["tank_regiment_shift"]), "Ichi-Go 11.17",
                            f"{def_tanks} defending tank regiment(s)"))
    net = net_shifts(shifts)
    cols = d.crt.columns(line)
    if attack <= 0 or defence <= 0:
        odds_label, col0 = f"{attack}:{defence}", 0
    else:
        o = compute_odds(d.crt.odds, cols, attack, defence)
        odds_label, col0 = o.label, o.column
    final, _ = apply_shift(col0, net.net, len(cols))
    return {"attack": attack, "defence": defence, "odds": odds_label, "start": cols[col0].label,
            "shifts": [str(s) for s in shifts], "net": net.net, "column": final, "column_label": cols[final].label,
            "line": line, "garrison": garrison, "supply": sup, "why": strength_lines("attack", attack_total)}


def _loss_order(units: list[Unit], nation: str) -> list[Unit]:
    return sorted(units, key=lambda u: (u.steps_max == 1 and u.size == "division", u.factor("defence"), u.id))


def allocate(units: list[Unit], n: int, exclude_militia: bool = False) -> list[str]:
    """Ichi-Go 11.20-11.21 (ruling E1): n steps; a Japanese or US division is eliminated only when every unit
    of its side in the battle is down to one step; otherwise the weakest go first."""
    steps = {u.id: u.steps for u in units if not (exclude_militia and u.militia)}
    by = {u.id: u for u in units}
    out: list[str] = []
    for _ in range(n):
        alive = [by[i] for i, s in steps.items() if s > 0]
        if not alive:
            break
        multi = [u for u in alive if steps[u.id] > 1]
        if multi:
            pick = sorted(multi, key=lambda u: (-steps[u.id], u.id))[0]
        else:
            non_div = [u for u in alive if u.size != "division"]
            pool = non_div or alive
            pick = sorted(pool, key=lambda u: (u.factor("defence"), u.id))[0]
        out.append(pick.id)
        steps[pick.id] -= 1
    return out


def _remove(em: Decision, ids: list[str], reason: str) -> None:
    """Apply step losses; eliminated Chinese regulars go back to the pool (9.7)."""
    plain = []
    for uid in ids:
        u = em.state.units[uid]
        if u.nation == "chinese" and not u.militia:
            em.emit(ev.ReturnedToPool(uid, reason))
        else:
            plain.append(uid)
    if plain:
        em.emit(ev.StepsLost(plain, reason))


def check_support(state: State, target: str, attackers: list[Unit], tanks: int, sf: bool,
                  momentum: dict | None = None) -> tuple[list[str], Unit | None]:
    """Ichi-Go 11.17, 11.28: the tank regiments and the 1st SF Group an attack may commit (the ids of the
    regiments, the SF unit or None), or the refusal. The attack and its preview both ask here."""
    d = state.data
    nation = attackers[0].nation
    tank_units: list[str] = []
    if tanks:
        if nation != "japanese" or momentum is not None:
            raise IllegalOrder("Ichi-Go 11.17", "tank regiments support Japanese attacks only, never momentum")
        if not mainland(d, target):
            raise IllegalOrder("Ichi-Go 11.17", "tank regiments fight on the mainland only")
        eligible = [u for u in attackers if u.size in ("brigade", "division")
                    and supply_state(state, u) in ("full", "attenuated")]
        pool = tank_pool(state)
        if tanks > len(eligible) or tanks > len(pool):
            raise IllegalOrder("Ichi-Go 11.17", f"{tanks} tank regiments: {len(pool)} available, "
                                                f"{len(eligible)} supplied brigades/divisions to support")
        tank_units = [u.id for u in pool[:tanks]]
    sf_unit = None
    if sf:
        sf_unit = sf_ready(state)
        if sf_unit is None or nation != "japanese" or momentum is not None:
            raise IllegalOrder("Ichi-Go 11.28", "the 1st SF Group is not available for this attack")
    return tank_units, sf_unit


def attack(em: Decision, side: str, target: str, ids: list[str], tanks: int, sf: bool,
           momentum: dict | None = None) -> None:
    state = em.state
    d = state.data
    attackers = check_attack(state, side, target, ids, momentum)
    nation = attackers[0].nation
    tank_units, sf_unit = check_support(state, target, attackers, tanks, sf, momentum)
    # 11.17: tanks are announced before any untried counter is flipped; 11.27: flip, zeros go back.
    defenders = [u for u in state.at(target) if u.side != side]
    for u in attackers + defenders:
        if not u.tried:
            raw = next(r for r in d.units if r["id"] == u.ref)
            em.emit(ev.Revealed(u.id, u.ref, raw["name"], int(raw["strength"][0])))
            if int(raw["strength"][0]) == 0:
                em.emit(ev.ReturnedToPool(u.id, "zero strength (11.27)"))
    state = em.state
    attackers = [state.units[i] for i in ids if i in state.units]
    if state.since(3):  # the battle goes on, and is recorded, with the attackers still in it (ruling E15)
        ids = [u.id for u in attackers]
    defenders = [u for u in state.at(target) if u.side != side]
    garrison = side == "allied" and garrison_at(state, target)
    supports = tank_units + ([sf_unit.id] if sf_unit else [])
    if not defenders and not garrison:  # 11.27: all zero - in effect a DE
        em.emit(ev.BattleResolved(target, side, ids, [], 0, 0, "-", ["Ichi-Go 11.27: every defender zero"], "-", 0,
                                  "DE", 0, 0, True, tank_units, bool(sf_unit)))
        if supports:
            em.emit(ev.SupportExpended(supports))
        _offer_advance(em, side, target, [u.id for u in attackers], nation, momentum)
        return
    if not attackers:  # 11.27: every attacker zero; only committed tank regiments are lost
        em.emit(ev.BattleResolved(target, side, ids, [u.id for u in defenders], 0, 0, "-",
                                  ["Ichi-Go 11.27: every attacker zero"], "-", 0, "-", 0, 0, False, tank_units,
                                  bool(sf_unit)))
        if supports:
            em.emit(ev.SupportExpended(supports))
        return
    eligible = defensive_tank_room(state, side, target, defenders, momentum)
    if eligible:  # 11.17: the Japanese announce defensive tanks before the Allied player rolls
        em.emit(ev.DecisionRequired("tanks", "japanese", {
            "hex": target, "side": side, "attackers": list(ids), "max": eligible,
            "momentum": momentum}))
        return
    resolve(em, side, target, ids, tank_units, sf_unit.id if sf_unit else None, [], momentum)


def defensive_tank_room(state: State, side: str, target: str, defenders: list[Unit],
                        momentum: dict | None = None) -> int:
    """Ichi-Go 11.17: regiments the Japanese may commit to a mainland defence (one per supplied brigade or
    division defending, as many as are off the map); the static 2nd Tank Division is a division like any other
    (rules version 4, ruling E19; before it, static units took no support). None against a US momentum attack:
    tank regiments never take part in one (11.17, 11.25; rules version 13, ruling E49)."""
    if side != "allied" or not mainland(state.data, target):
        return 0
    if momentum is not None and state.since(13):
        return 0
    eligible = [u for u in defenders if u.size in ("brigade", "division") and (state.since(4) or not u.static)
                and supply_state(state, u) in ("full", "attenuated")]
    return min(len(eligible), len(tank_pool(state)))


def odds_before_tanks(state: State, data: dict) -> str:
    """Ichi-Go 11.17, 6.6 (ruling E59): the attack the Japanese commit tank regiments against, as its odds stand:
    the attackers were examined for the odds computation (6.6: the attack can no longer be called off), so its
    strength, odds and column are the defender's to read; no attacker is named."""
    attackers = [state.units[i] for i in data["attackers"] if i in state.units and state.units[i].on_map]
    defenders = [u for u in state.at(data["hex"]) if u.side != data["side"]]
    a = assess(state, data["side"], data["hex"], attackers, defenders, 0, False, data.get("momentum") is not None)
    return (f"the attack stands at {a['attack']}:{a['defence']} = {a['odds']} -> {a['column_label']} on the "
            f"{a['line']} line ({'; '.join(a['shifts']) or 'no shifts'}); each regiment committed shifts it one "
            "column left")


def commit_tanks(em: Decision, side: str, n: int) -> None:
    p = em.state.pending[0]
    data = p["data"]
    if not 0 <= n <= int(data["max"]):
        raise IllegalOrder("Ichi-Go 11.17", f"commit 0 to {data['max']} tank regiments")
    tanks = [u.id for u in tank_pool(em.state)[:n]]
    em.emit(ev.DecisionMade("tanks", side))
    resolve(em, data["side"], data["hex"], list(data["attackers"]), [], None, tanks, data.get("momentum"))


def resolve(em: Decision, side: str, target: str, ids: list[str], tank_units: list[str], sf_id: str | None,
            def_tanks: list[str], momentum) -> None:
    """Ichi-Go 11.19-11.29: the die, the result, losses (defender first), support expended, advance."""
    state = em.state
    d = em.state.data
    sc = d.scenario
    attackers = [state.units[i] for i in ids if i in state.units and state.units[i].on_map]
    nation = attackers[0].nation
    defenders = [u for u in state.at(target) if u.side != side]
    garrison = side == "allied" and garrison_at(state, target)
    supports = tank_units + ([sf_id] if sf_id else [])
    a = assess(state, side, target, attackers, defenders, len(tank_units), bool(sf_id), momentum is not None,
               def_tanks=len(def_tanks))
    roll = em.roll(f"combat on {target} (11.19)")
    result = d.crt.lookup(a["column"], roll, a["line"])
    cm = sc["combat"]
    att_loss = result.attacker.losses
    if nation == "chinese":  # 11.23
        att_loss = max(att_loss * int(cm["chinese_attacker_loss_multiplier"]), int(cm["chinese_attacker_loss_minimum"]))
    def_elim = result.defender.eliminated
    def_loss = result.defender.losses
    em.emit(ev.BattleResolved(target, side, ids, [u.id for u in defenders], a["attack"], a["defence"], a["odds"],
                              a["shifts"], a["column_label"], roll, result.code, att_loss, def_loss, def_elim,
                              tank_units + def_tanks, bool(sf_id)))
    # 11.17, 11.28: committed support is eliminated whatever the result and counts toward the losses.
    if def_tanks:
        em.emit(ev.SupportExpended(def_tanks))
    if supports:
        em.emit(ev.SupportExpended(supports))
    cont = {"hex": target, "side": side, "attackers": list(ids), "nation": nation, "momentum": momentum,
            "att_left": max(0, att_loss - len(supports)), "garrison": garrison}
    # 11.20: the defender removes steps first.
    if def_elim:
        _remove(em, [u.id for u in defenders for _ in range(u.steps)], "combat")
        if garrison:  # 11.22: DE eliminates every defender, the intrinsic garrison too (11.29)
            em.emit(ev.GarrisonDestroyed(target))
        _attacker_losses(em, cont)
    elif garrison:
        if def_loss >= 1:
            em.emit(ev.GarrisonDestroyed(target))
        _attacker_losses(em, cont)
    else:
        take_losses(em, other(side), [u.id for u in defenders], max(0, def_loss - len(def_tanks)), "defender", cont)


def take_losses(em: Decision, owner: str, ids: list[str], n: int, stage: str, cont: dict) -> None:
    """Ichi-Go 11.20-11.21: the owner apportions n steps among the units (a `losses` decision) unless there is
    no choice to make; then the battle goes on (attacker losses, advance)."""
    state = em.state
    units = [state.units[i] for i in ids if i in state.units and state.units[i].on_map
             and not (stage == "attacker" and state.units[i].militia)]
    total = sum(u.steps for u in units)
    n = min(n, total)
    if n > 0 and (n == total or len(units) == 1):
        _remove(em, allocate(units, n, exclude_militia=stage == "attacker"), "combat")
    elif n > 0:
        em.emit(ev.DecisionRequired("losses", owner, {"units": [u.id for u in units], "count": n, "stage": stage,
                                                      "cont": cont}))
        return
    _next_stage(em, stage, cont)


def _next_stage(em: Decision, stage: str, cont: dict) -> None:
    if stage == "defender":
        _attacker_losses(em, cont)
    else:
        _finish(em, cont)


def _attacker_losses(em: Decision, cont: dict) -> None:
    take_losses(em, cont["side"], cont["attackers"], int(cont["att_left"]), "attacker", cont)


def _finish(em: Decision, cont: dict) -> None:
    state = em.state
    side, target = cont["side"], cont["hex"]
    # 11.29: the intrinsic garrison holds the hex only if it defended (and survived); once every Japanese unit
    # defending the city is eliminated, the Allied survivors may advance and capture it.
    still = [u for u in state.at(target) if u.side != side] or (
        side == "allied" and cont.get("garrison", False) and garrison_at(state, target))
    if not still:
        alive = [i for i in cont["attackers"] if i in state.units and state.units[i].on_map]
        _offer_advance(em, side, target, alive, cont["nation"], cont["momentum"])


def valid_losses(units: list[Unit], chosen: list[str], n: int) -> str | None:
    """Ichi-Go 11.20-11.21: exactly n steps from these units; a Japanese or US division eliminated only if every
    other unit of the battle is then down to one step (or gone). None if valid, else why not."""
    by = {u.id: u for u in units}
    if len(chosen) != n or any(c not in by for c in chosen):
        return f"name {n} step(s) among {', '.join(sorted(by))} (a unit twice for two steps)"
    taken = {i: chosen.count(i) for i in by}
    if any(taken[i] > by[i].steps for i in by):
        return "more steps than a unit has"
    left = {i: by[i].steps - taken[i] for i in by}
    killed_div = [i for i in by if left[i] == 0 and by[i].size == "division" and by[i].nation in ("japanese", "us")
                  and by[i].steps_max > 1]
    if killed_div and any(left[i] > 1 for i in by):
        return "no Japanese or US division is eliminated while a unit of the battle has more than one step (11.21)"
    return None


def lose(em: Decision, side: str, chosen: list[str]) -> None:
    p = em.state.pending[0]
    data = p["data"]
    units = [em.state.units[i] for i in data["units"] if i in em.state.units]
    why = valid_losses(units, chosen, int(data["count"]))
    if why:
        raise IllegalOrder("Ichi-Go 11.21", why)
    em.emit(ev.DecisionMade("losses", side))
    _remove(em, list(chosen), "combat")
    _next_stage(em, data["stage"], data["cont"])


def _offer_advance(em: Decision, side: str, target: str, alive: list[str], nation: str, momentum) -> None:
    """Ichi-Go 11.24: survivors (never static units) may advance into the emptied hex."""
    state = em.state
    movable = [i for i in alive if not state.units[i].static and not state.units[i].militia]
    if not em.state.data.land(target) or not movable:
        return
    em.emit(ev.DecisionRequired("advance", side, {"hex": target, "units": movable, "nation": nation}))


def advance(em: Decision, side: str, ids: list[str]) -> None:
    state = em.state
    p = state.pending[0]
    target = p["data"]["hex"]
    if not set(ids) <= set(p["data"]["units"]):
        raise IllegalOrder("Ichi-Go 11.24", f"only surviving attackers advance: {', '.join(p['data']['units'])}")
    from app.rules.ichigo.movement import stack_violation

    units = [state.units[i] for i in ids]
    bad = stack_violation(state, target, units)
    if bad:
        raise IllegalOrder("Ichi-Go 11.24", bad)
    for u in units:
        if u.nation == "chinese" and target in em.state.data.tagged("formosa"):
            raise IllegalOrder("Ichi-Go 9.9", "Chinese units never enter Formosa")
    em.emit(ev.DecisionMade("advance", side), ev.UnitsAdvanced(list(ids), target))
    nation = p["data"]["nation"]
    sc = em.state.data.scenario
    lo, hi = sc["combat"]["japanese_momentum_turns"]
    state = em.state
    if nation == "japanese" and lo <= state.turn <= hi:
        able = [i for i in ids if supply_state(state, state.units[i]) == "full"]
    elif nation == "us":
        from app.rules.ichigo.common import us_beachhead_supplied
        able = [i for i in ids if us_beachhead_supplied(state, state.units[i].hex)]
    else:
        able = []
    if not state.since(4) and able != list(ids):  # before version 4: all of them in supply, or none went on
        able = []
    if able:  # 11.25 (ruling E28): those that advanced in supply may go on
        em.emit(ev.DecisionRequired("momentum", side, {"units": able, "from": target, "nation": nation}))


def stay(em: Decision, side: str) -> None:
    kind = em.state.pending[0]["kind"]
    em.emit(ev.DecisionMade(kind, side))


def momentum_attack(em: Decision, side: str, target: str, ids: list[str]) -> None:
    p = em.state.pending[0]
    em.emit(ev.DecisionMade("momentum", side))
    attack(em, side, target, ids, 0, False, momentum=p["data"])
