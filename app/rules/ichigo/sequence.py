"""The Ichi-Go states table (Rally the Troops' rules.js style): for each position in the sequence of play
(3.0 set-up, turn start, Phases I-X of 5.1) or each decision the sequence waits for, the side to act and its
legal actions; and the handlers of the non-combat steps: set-up draw (3.3), order declarations (5.5), the
Causeway roll (5.2), B-29 (8.9), airpower (8.1-8.7), reinforcements and withdrawals (9.x), the US landings
and the Japanese deployments they trigger (5.3, rulings E3, E10), victory (4.x)."""
from __future__ import annotations

from app.rules.base import Action, Prompt
from app.rules.errors import IllegalOrder
from app.rules.ichigo import events as ev
from app.rules.ichigo.common import (
    Emitter,
    all_airbases_japanese,
    all_gearr_japanese,
    allied_airbases,
    enemy_hexes,
    japanese_near,
    japanese_supplied,
    mainland,
    no_chinese_east_of_gearr,
    supply_state,
)
from app.rules.ichigo.data_load import H, place_name
from app.rules.ichigo.movement import stack_violation
from app.rules.ichigo.orders import SYNTAX
from app.rules.ichigo.owed import owed
from app.rules.ichigo.state import State, Unit, evolve, other, phase_name

CASES = {
    "deploy": ("Ichi-Go 3.3", "draw the Chinese regulars blind and set them up untried"),
    "declare": ("Ichi-Go 5.5", "announce move-then-fight or fight-then-move for a nation this turn"),
    "move": ("Ichi-Go 10.0", "move a unit or a stack that starts in one hex"),
    "attack": ("Ichi-Go 11.0", "attack one adjacent enemy hex with named units"),
    "advance": ("Ichi-Go 11.24", "advance surviving attackers into the emptied hex"),
    "stay": ("Ichi-Go 11.24", "do not advance / make no momentum attack"),
    "roll": ("Ichi-Go 5.2", "roll (Causeway or Philippines at the start of Turn 7; airpower in Phase IV)"),
    "air": ("Ichi-Go 8.2", "place every airpower marker won, one per hex"),
    "b29": ("Ichi-Go 8.9", "place the B-29 marker on a Japanese-controlled city"),
    "enter": ("Ichi-Go 9.1", "enter Japanese reinforcements (the Kwantung Army too, 5.3 item 6) at a north-edge "
                             "source or a rail city; the Formosa Garrison on Formosa (5.3 item 5); 14AA survivors "
                             "at a friendly port or on the Formosa coast (9.4)"),
    "withdraw": ("Ichi-Go 9.2", "withdraw two full-strength 4-factor divisions (Turn 5)"),
    "release": ("Ichi-Go 9.3", "bring two Formosa Garrison divisions to the mainland (Turn 9, no Causeway)"),
    "supply": ("Ichi-Go 7.8", "place the US Aerial Supply Marker on an out-of-supply US stack (once a turn)"),
    "airlift": ("Ichi-Go 8.10", "fly one Chinese unit (or the 11th Airborne) between friendly cities"),
    "drop": ("Ichi-Go 8.11", "airdrop the 11th Airborne on a clear or rough hex free of Japanese units"),
    "transfer": ("Ichi-Go 10.11", "move US units by sea from one beachhead to the other"),
    "lose": ("Ichi-Go 11.21", "apportion the step losses of this battle (name a unit twice for two steps)"),
    "commit": ("Ichi-Go 11.17", "commit N tank regiments to this defence (0 for none), before the die"),
    "ship": ("Ichi-Go 5.3", "roll for the 14AA units shipped this turn and their transport survival"),
    "absorb": ("Ichi-Go 9.5", "a reduced division in an initial Japanese city absorbs a brigade there"),
    "reinforce": ("Ichi-Go 9.7", "roll and draw the Chinese reinforcements blind"),
    "place": ("Ichi-Go 9.7", "place a drawn Chinese counter in an initially Chinese city still held"),
    "land": ("Ichi-Go 5.3", "bring US divisions ashore with a beachhead marker (in an occupied port, name the hex "
                            "its units move to)"),
    "end": ("Ichi-Go 5.0", "end this step"),
}
PENDING = {"advance": ("advance", "stay"), "momentum": ("attack", "stay"), "airpower": ("air",),
           "tanks": ("commit",), "losses": ("lose",), "formosa-garrison": ("enter",), "kwantung-army": ("enter",)}
DEPLOYMENTS = {"formosa-garrison": "the Formosa Garrison (item 5)", "kwantung-army": "the Kwantung Army (item 6)"}


def _actions(*names: str) -> tuple[Action, ...]:
    return tuple(Action(n, SYNTAX[n], CASES[n][0], CASES[n][1]) for n in names)


def _turn(state: State, key: str) -> int:
    """A turn number of the US landings and transfers (scenario [causeway]: 5.3, 10.11)."""
    return int(state.data.scenario["causeway"][key])


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


def withdrawal_due(state: State) -> bool:
    r = state.data.scenario["reinforcements"]["japanese"]
    return (state.phase == "V" and state.turn == int(r["withdrawal_turn"]) and not state.reinforced
            and sum(withdrawal_need(state)) > 0)


def shipment_due(state: State) -> bool:
    """Ichi-Go 5.3 item 7: each Phase V once Causeway is launched, while the 14AA pool lasts."""
    return (state.phase == "V" and bool(state.causeway) and not state.aa14_closed and state.aa14_turn != state.turn
            and any(u.status == "14aa-pool" for u in state.units.values()))


def ship(em: Emitter, dice) -> None:
    """Ichi-Go 5.3 items 7-9, 9.4, 11.28: roll, pick that many 14AA units blind, roll each one's survival."""
    state = em.state
    r = em.state.data.scenario["reinforcements"]["japanese"]
    roll = em.roll(dice, "14AA shipment (5.3 item 7)")
    count = roll - 1
    fates: dict = {}
    pool = sorted(u.id for u in state.units.values() if u.status == "14aa-pool")
    for _ in range(min(count, len(pool))):
        i = em.roll(dice, "blind pick of a 14AA unit (5.3 item 7)", len(pool)) - 1 if len(pool) > 1 else 0
        uid = pool.pop(i)
        u = state.units[uid]
        if uid == "jp-14aa-1sf":
            fates[uid] = "sf"
            continue
        die = em.roll(dice, f"transport survival of {uid} (5.3 item 9)")
        if u.size == "division":
            lo, hi = r["aa14_division_full"]
            rlo, rhi = r["aa14_division_reduced"]
            fates[uid] = "full" if lo <= die <= hi else ("reduced" if rlo <= die <= rhi else "eliminated")
        else:
            lo, hi = r["aa14_brigade_survives"]
            fates[uid] = "full" if lo <= die <= hi else "eliminated"
    em.emit(ev.ShipmentRolled(roll, count, fates))


def b29_roll(em: Emitter, dice) -> None:
    lo, hi = em.state.data.scenario["causeway"]["b29_roll"]
    roll = em.roll(dice, "B-29 raid (8.9)")
    em.emit(ev.B29Rolled(roll, lo <= roll <= hi))


def release_open(state: State) -> bool:
    r = state.data.scenario["reinforcements"]["japanese"]
    return (state.phase == "V" and not state.causeway and state.turn == int(r["formosa_garrison_turn_no_causeway"])
            and not any(u.army == "FG" and u.status == "pool" for u in state.units.values())
            and any(u.status == "formosa-garrison" for u in state.units.values()))


def prompt(state: State) -> Prompt:
    if state.phase == "over":
        return Prompt(None, "game over")
    if state.pending:
        p = state.pending[0]
        return Prompt(p["side"], f"Turn {state.turn}, {p['side']} decision: {p['kind']}", _actions(*PENDING[p["kind"]]),
                      owed(state))
    if state.phase == "setup":
        return Prompt("allied", "Set-up (3.3)", _actions("deploy"))
    if state.phase == "start":
        names = []
        if state.turn == int(state.data.scenario["turn_start"]["causeway_roll_turn"]) and state.causeway is None:
            names.append("roll")
        elif state.causeway and state.b29_rolled != state.turn:
            names.append("roll")
        if (not state.b29_used and not state.causeway) or (state.causeway and state.b29_ok):
            names.append("b29")
        return Prompt("allied", f"Turn {state.turn}, start of turn", _actions(*names, "end"))
    label = f"Turn {state.turn}, {phase_name(state.phase)}"
    side = phase_side(state)
    nation = state.nation_now()
    if nation is not None and nation not in state.plans:
        who = decider_of_order(state, nation)
        return Prompt(who, label + f": declare the {nation} order", _actions("declare"))
    if nation is not None:
        names = ["move"] if state.mode() == "move" else ["attack"]
        if state.phase == "II" and state.turn >= _turn(state, "us_reinforcements_from_turn") and state.mode() == "move":
            names.append("land")
            if can_drop(state):
                names.append("drop")
        if state.mode() == "move" and airlift_open(state, nation):
            names.append("airlift")
        if nation == "us" and aerial_open(state):
            names.append("supply")
        return Prompt(side, label + f" ({state.mode()})", _actions(*names, "end"))
    if state.phase == "IV":
        return Prompt(side, label, _actions("roll") if not state.air_rolled else _actions("end"))
    if state.phase == "V":
        if withdrawal_due(state):
            return Prompt(side, label + ": withdrawal (9.2)", _actions("withdraw"))
        names = (["ship"] if shipment_due(state) else []) + ["enter", "absorb"]
        names += (["release"] if release_open(state) else []) + ["end"]
        return Prompt(side, label, _actions(*names))
    if state.phase == "X":
        if not state.reinforced:
            return Prompt(side, label, _actions("reinforce"))
        return Prompt(side, label, _actions("place", "end"))
    if state.phase == "I":
        landings = (_turn(state, "us_formosa_landing_turn"), _turn(state, "us_mainland_landing_turn"))
        names = ["land"] if state.turn in landings else (["transfer"] if len(state.beachheads) == 2 else [])
        return Prompt(side, label, _actions(*names, "end"))
    return Prompt(side, label, _actions("end"))


# -- set-up (3.2-3.4) ---------------------------------------------------------------------------------------
def draw(em: Emitter, dice, h: str) -> str | None:
    pool = em.state.draw_pool
    if not pool:
        return None
    i = em.roll(dice, "blind draw of a Chinese regular (3.3, 9.7)", len(pool)) - 1 if len(pool) > 1 else 0
    handle = f"C{em.state.next_handle:02d}"
    em.emit(ev.UnitDrawn(handle, pool[i], h))
    return handle


def setup_draws(state: State) -> tuple[tuple[str, int], ...]:
    """Ichi-Go 3.3: (hex, counters) - two or one per diamond, one per initially Chinese city without a diamond;
    or the blind draws a custom position asks for."""
    if state.setup_draws:
        return state.setup_draws
    d = state.data
    diamonds = d.tagged("setup-1") | d.tagged("setup-2")
    return (tuple((h, 2) for h in sorted(d.tagged("setup-2"))) + tuple((h, 1) for h in sorted(d.tagged("setup-1")))
            + tuple((h, 1) for h in sorted(d.tagged("cn-city") - diamonds)))


def deploy(em: Emitter, dice) -> None:
    """Ichi-Go 3.3: the Chinese regulars drawn blind and set up untried."""
    for h, n in setup_draws(em.state):
        for _ in range(n):
            draw(em, dice, h)
    em.emit(ev.PhaseEnded(phase="setup", turn=em.state.turn))


def declare(em: Emitter, side: str, nation: str, order: str) -> None:
    state = em.state
    if nation != state.nation_now() or nation in state.plans:
        raise IllegalOrder("Ichi-Go 5.5", f"the {nation} order is not declared now")
    if decider_of_order(state, nation) != side:
        raise IllegalOrder("Ichi-Go 5.5", f"the {decider_of_order(state, nation)} player declares the {nation} order")
    em.emit(ev.OrderDeclared(side, nation, order))


# -- turn start (5.2, 8.9) ----------------------------------------------------------------------------------
def causeway_roll(em: Emitter, dice) -> None:
    state = em.state
    d = em.state.data
    mods: list[str] = []
    total = em.roll(dice, "Causeway or Philippines (5.2)")
    if all_airbases_japanese(state):
        sign = em.roll(dice, "sign of the airbase modifier (5.2)")
        n = 1 if sign <= 3 else -1
        total += n
        mods.append(f"{n:+d} all airbases Japanese (sign die {sign})")
    if all_gearr_japanese(state):
        total += 1
        mods.append("+1 all GEARR Japanese")
    v = d.scenario["victory"]
    near = int(v["distance_chungking"])
    for label in (v["sudden_death_chungking"], v["kunming"]):
        if japanese_near(state, d.place(label), near):
            total += 1
            mods.append(f"+1 Japanese within {near} hexes of {place_name(label)}")
    ports = [h for h in d.feature("port") if mainland(d, h) and h not in state.jp_control]
    if ports:
        total += len(ports)
        mods.append(f"+{len(ports)} Chinese-controlled mainland ports")
    launched = total >= int(d.scenario["causeway"]["launch_on"])
    em.emit(ev.CausewayChecked(total - sum(int(m.split()[0]) for m in mods), mods, total, launched))


def b29(em: Emitter, h: str) -> None:
    state = em.state
    if state.b29_hex:
        raise IllegalOrder("Ichi-Go 8.9", "one B-29 marker a turn")
    if h not in em.state.data.feature("city") or h not in state.jp_control:
        raise IllegalOrder("Ichi-Go 8.9", f"{h} is not a Japanese-controlled city")
    em.emit(ev.B29Placed(h))


# -- airpower (8.1-8.7) -------------------------------------------------------------------------------------
def airpower_roll(em: Emitter, dice) -> None:
    state = em.state
    a = em.state.data.scenario["airpower"]
    winner, markers = None, 0
    for _ in range(20):
        jp = em.roll(dice, "Japanese airpower (8.1)")
        first, last = a["japanese_drm_early_turns"]
        if first <= state.turn <= last:
            jp += int(a["japanese_drm_turn_1"])
        if state.turn >= int(a["japanese_drm_late_from_turn"]):
            jp = max(int(a["modified_minimum"]), jp + int(a["japanese_drm_from_turn_7"]))
        bases = allied_airbases(state)
        if bases == 0:  # 8.7, ruling R13: no Allied roll, result 0
            al = 0
        else:
            al = max(0, em.roll(dice, "Allied airpower (8.1)") + int(a["allied_drm_by_airbases"][str(bases)]))
        if jp == al and not (jp == 0 and bases == 0):
            em.emit(ev.AirpowerRolled(jp, al, None, 0))
            if jp == 0:
                return
            continue
        if jp != al:
            winner = "japanese" if jp > al else "allied"
            markers = min(abs(jp - al), int(a["markers_max"]))
        em.emit(ev.AirpowerRolled(jp, al, winner, markers))
        break
    if winner and markers:
        em.emit(ev.DecisionRequired("airpower", winner, {"count": markers}))


def air(em: Emitter, side: str, hexes: list[str]) -> None:
    n = em.state.pending[0]["data"]["count"]
    d = em.state.data
    if len(hexes) != n or len(set(hexes)) != n:
        raise IllegalOrder("Ichi-Go 8.2", f"place all {n} markers, one per hex")
    for h in hexes:
        if not d.map.on_map(H(h)):
            raise IllegalOrder("Ichi-Go 8.2", f"{h} is not on the map")
    em.emit(ev.DecisionMade("airpower", side), ev.AirpowerPlaced(side, list(hexes)))


# -- Japanese reinforcements (9.1-9.5) ----------------------------------------------------------------------
def entry_hexes(state: State) -> frozenset[str]:
    """Ichi-Go 9.1: functioning north-edge sources, and Japanese rail cities with a friendly rail path back to
    1801; never 0925 or the south edge."""
    d = state.data
    allied = state.occupied("allied")
    out = {h for h in d.north_edge() if h in state.jp_control and h not in allied and d.land(h)}
    g = d.gearr
    for h in g:
        if h not in state.jp_control:
            break
        if h in d.feature("city") and h not in allied:
            out.add(h)
    south = {str(x) for x in d.map.edge_hexes("south")}
    return frozenset(out - south)


def formosa_hexes(state: State) -> frozenset[str]:
    """Ichi-Go 5.3 item 5: the Formosa Garrison deploys anywhere on Formosa but the Formosa beachhead."""
    d = state.data
    beach = set(d.tagged("beachhead-formosa")) | set(state.beachheads.values())
    allied = state.occupied("allied")
    return frozenset(h for h in d.tagged("formosa") if h not in beach and h not in allied and d.land(h))


def landing_hexes(state: State) -> frozenset[str]:
    """Ichi-Go 5.3 item 8, 9.4: friendly mainland port cities, Formosa coastal hexes not adjacent to US units."""
    d = state.data
    allied = state.occupied("allied")
    us = {u.hex for u in state.on_map("allied") if u.nation == "us"}
    ports = {h for h in d.feature("port") if mainland(d, h) and h in state.jp_control and h not in allied}
    coast = {h for h in d.tagged("formosa") & d.tagged("coastal")
             if h not in allied and not any(n in us for n in d.neighbours(h))}
    return frozenset(ports | coast)


ARRIVALS = {"pool": (entry_hexes, "Ichi-Go 9.1"), "formosa-deploy": (formosa_hexes, "Ichi-Go 5.3"),
            "landing": (landing_hexes, "Ichi-Go 9.4")}


def deploy_hexes(state: State, u: Unit) -> list[str]:
    """Where the waiting Japanese unit u may enter now on its own (9.1, 5.3 items 5 and 8, 9.4; stacking 6.2)."""
    return sorted(h for h in ARRIVALS[u.status][0](state) if stack_violation(state, h, [u]) is None)


def enter(em: Emitter, side: str, ids: list[str], h: str) -> None:
    state = em.state
    units = [state.units[i] for i in ids]
    statuses = {u.status for u in units}
    for u in units:
        if u.side != "japanese" or u.status not in ARRIVALS or u.entry_turn > state.turn:
            raise IllegalOrder("Ichi-Go 9.1", f"{u.id} is not a reinforcement available this turn")
    if state.pending:  # the prompt offers `enter` in a decision only for a Causeway deployment (ruling E3)
        waiting = [u.id for u in deploying(state)]
        if any(i not in waiting for i in ids):
            raise IllegalOrder("Ichi-Go 5.3", f"{DEPLOYMENTS[state.pending[0]['kind']]} deploys now: "
                                              f"{', '.join(waiting)}")
    if len(statuses) > 1:
        raise IllegalOrder("Ichi-Go 9.1", "units entering together must arrive the same way")
    allowed, case = ARRIVALS[statuses.pop()]
    if h not in allowed(state):
        raise IllegalOrder(case, f"{', '.join(ids)} may not enter at {h}")
    bad = stack_violation(state, h, units)
    if bad:
        raise IllegalOrder("Ichi-Go 6.0", bad)
    em.emit(ev.ReinforcementsEntered(list(ids), h))
    close_deployments(em)


# -- Causeway deployments (5.3 items 5-6, ruling E3) --------------------------------------------------------
def causeway_deployments(em: Emitter) -> None:
    """Ichi-Go 5.3 items 5-6, ruling E3: right after the Formosa landing the Japanese deploy the Formosa
    Garrison, then the Kwantung Army's divisions and brigades (its tank regiments are off the map, 11.17)."""
    state = em.state
    fg = sorted(u.id for u in state.units.values() if u.status == "formosa-garrison")
    ka = sorted(u.id for u in state.units.values() if u.status == "kwantung" and u.type != "tank")
    if fg:
        em.emit(ev.FormosaReleased(fg, "formosa-deploy"), ev.DecisionRequired("formosa-garrison", "japanese",
                                                                              {"units": fg}))
    if ka:
        em.emit(ev.FormosaReleased(ka, "pool"), ev.DecisionRequired("kwantung-army", "japanese", {"units": ka}))
    close_deployments(em)


def deploying(state: State) -> list[Unit]:
    """The units of the Causeway deployment under way not yet on the map."""
    units = (state.units[i] for i in state.pending[0]["data"]["units"])
    return [u for u in units if not u.on_map]


def close_deployments(em: Emitter) -> None:
    """Ruling E3: a Causeway deployment ends once no unit of it can enter any more; a unit no hex can take
    waits for a Japanese Phase V (9.1, 9.4)."""
    while em.state.pending and em.state.pending[0]["kind"] in DEPLOYMENTS:
        if any(deploy_hexes(em.state, u) for u in deploying(em.state)):
            return
        p = em.state.pending[0]
        em.emit(ev.DecisionMade(p["kind"], p["side"]))


def _withdrawal_pools(state: State) -> tuple[list, list, list]:
    r = state.data.scenario["reinforcements"]["japanese"]
    on = [u for u in state.on_map("japanese") if not u.static and japanese_supplied(state, u.hex)]

    def number(u) -> int:
        digits = "".join(c for c in u.name.split()[0] if c.isdigit())
        return int(digits) if digits else 999

    full = [u.id for u in on if u.size == "division" and u.steps == 2 and u.factor() == 4
            and number(u) <= int(r["withdrawal_max_id"])]
    reduced = [u.id for u in on if u.size == "division" and u.steps == 1]
    brigades = [u.id for u in on if u.size == "brigade"]
    return full, reduced, brigades


def withdrawal_need(state: State) -> tuple[int, int, int]:
    """Ichi-Go 9.2 (ruling E8): two division slots, each filled by a full-strength 4-factor division under 101
    in supply, else a reduced division, else two brigades; as many as exist."""
    full, reduced, brigades = _withdrawal_pools(state)
    nf = min(2, len(full))
    nr = min(2 - nf, len(reduced))
    nb = min(2 * (2 - nf - nr), len(brigades))
    return nf, nr, nb


def withdraw(em: Emitter, side: str, ids: list[str]) -> None:
    """Ichi-Go 9.2: the first division slot named leaves the game, the second goes to the 14AA pool."""
    state = em.state
    full, reduced, brigades = _withdrawal_pools(state)
    nf, nr, nb = withdrawal_need(state)
    got = (sum(i in full for i in ids), sum(i in reduced for i in ids), sum(i in brigades for i in ids))
    if got != (nf, nr, nb) or len(ids) != nf + nr + nb:
        raise IllegalOrder("Ichi-Go 9.2", f"withdraw {nf} full-strength 4-factor division(s) under 101, {nr} reduced "
                                          f"division(s) and {nb} brigade(s), all in supply")
    to, slot = [], 0.0
    for i in ids:
        to.append("removed" if slot < 1 else "14aa-pool")
        slot += 0.5 if i in brigades else 1
    em.emit(ev.UnitsWithdrawn(list(ids), to))


def release(em: Emitter, side: str, ids: list[str]) -> None:
    state = em.state
    units = [state.units[i] for i in ids]
    if len(units) != 2 or any(u.status != "formosa-garrison" or u.size != "division" for u in units):
        raise IllegalOrder("Ichi-Go 9.3", "name two Formosa Garrison divisions")
    em.emit(ev.FormosaReleased(list(ids)))


def absorb(em: Emitter, side: str, brigade: str, division: str) -> None:
    state = em.state
    b, dv = state.units[brigade], state.units[division]
    if not (dv.size == "division" and dv.on_map and dv.steps < dv.steps_max and b.size == "brigade"
            and b.type == "infantry" and b.on_map and b.hex == dv.hex and dv.side == b.side == "japanese"):
        raise IllegalOrder("Ichi-Go 9.5", "a reduced division and an infantry brigade in the same hex")
    if dv.hex not in em.state.data.tagged("jp-city"):
        raise IllegalOrder("Ichi-Go 9.5", "absorption only in an initially Japanese-controlled city")
    em.emit(ev.BrigadeAbsorbed(brigade, division))


# -- Chinese reinforcements (9.7) ---------------------------------------------------------------------------
def chinese_cities(state: State) -> list[str]:
    d = state.data
    return sorted(h for h in d.tagged("cn-city") if h not in state.jp_control
                  and not state.occupied("japanese") & {h} and mainland(d, h))


def reinforce(em: Emitter, dice) -> None:
    state = em.state
    roll = em.roll(dice, "Chinese reinforcements (9.7)")
    halved = all_airbases_japanese(state)
    count = (roll + 1) // 2 if halved else roll
    em.emit(ev.ChineseReinforcementRolled(roll, halved, count))
    for _ in range(count):
        if draw(em, dice, "") is None:
            break


def drawn(state: State) -> list[str]:
    return sorted(u.id for u in state.units.values() if u.status == "drawn")


def place(em: Emitter, side: str, ids: list[str], h: str) -> None:
    state = em.state
    for i in ids:
        if state.units[i].status != "drawn":
            raise IllegalOrder("Ichi-Go 9.7", f"{i} is not a counter drawn this phase")
    if h not in chinese_cities(state):
        raise IllegalOrder("Ichi-Go 9.7", f"{h} is not an initially Chinese city still under Chinese control")
    units = [state.units[i] for i in ids]
    bad = stack_violation(state, h, [u for u in units])
    if bad:
        raise IllegalOrder("Ichi-Go 6.3", bad)
    em.emit(ev.ReinforcementsEntered(list(ids), h))


def placeable(state: State, handle: str) -> list[str]:
    u = state.units[handle]
    return [h for h in chinese_cities(state) if stack_violation(state, h, [u]) is None]


# -- US landings (5.3 items 4 and 12, 10.11) ----------------------------------------------------------------
def port_holders(state: State, port: str) -> list[Unit]:
    """Ichi-Go 5.3 item 12: the Japanese or Chinese units a US landing moves out of `port`."""
    return [u for u in state.at(port) if u.nation != "us"]


def _displacement_bar(state: State, h: str, units: list[Unit]) -> str | None:
    """Why the units displaced by a landing may not be moved into h (5.3 item 12, ruling E10), or None."""
    d = state.data
    if not d.land(h) or not mainland(d, h):
        return f"{h} is not a land hex of the mainland"
    side = units[0].side
    if h in state.occupied(other(side)):
        return f"{h} holds {other(side)} units"
    if h in enemy_hexes(state, side):
        return f"{h} holds an intrinsic Japanese garrison (11.29, ruling E5)"
    return stack_violation(state, h, units)


def displacement_hexes(state: State, port: str) -> list[str]:
    """Ichi-Go 5.3 item 12, ruling E10: the hexes the units in `port` may be moved to when the US lands there:
    adjacent land hexes free of the other side and within their stacking limit; failing those, the nearest
    mainland hexes that are."""
    d = state.data
    units = port_holders(state, port)
    if not units:
        return []
    near = [n for n in d.neighbours(port) if _displacement_bar(state, n, units) is None]
    if near:
        return sorted(near)
    spots = [str(x) for x in d.map.hexes() if str(x) != port and _displacement_bar(state, str(x), units) is None]
    nearest = min((d.distance(port, x) for x in spots), default=0)
    return sorted(x for x in spots if d.distance(port, x) == nearest)


def _displace_to(state: State, port: str, away: str | None) -> str:
    """The Allied choice of hex for the units in `port` (5.3 item 12, ruling E10); unnamed only if one fits."""
    d = state.data
    units = port_holders(state, port)
    if not units:
        raise IllegalOrder("Ichi-Go 5.3", f"no Japanese or Chinese units in {port} to displace")
    options = displacement_hexes(state, port)
    if away in options or (away is None and len(options) == 1):
        return away or options[0]
    if away is None:
        raise IllegalOrder("Ichi-Go 5.3", f"the units in {port} move out: name the hex (displace HEX), one of "
                                          f"{', '.join(options) or 'none'}")
    near, far = (d.distance(port, options[0]) if options else 1), d.distance(port, away)
    if 0 < far <= near:
        why = _displacement_bar(state, away, units)
    else:
        why = f"{away} is not adjacent to {port}" if near == 1 else f"{away} is not {near} hexes from {port}"
    raise IllegalOrder("Ichi-Go 5.3", f"the units in {port} may not move to {away}: {why}")


def land(em: Emitter, side: str, ids: list[str], h: str | None, away: str | None = None) -> None:
    state = em.state
    d = em.state.data
    units = [state.units[i] for i in ids]
    if any(u.nation != "us" or u.status != "us-pool" or u.entry_turn > state.turn for u in units):
        raise IllegalOrder("Ichi-Go 9.8", "only US divisions waiting to land")
    per = int(d.scenario["causeway"]["us_divisions_per_landing"])
    landed_at = state.beachheads
    if state.phase == "I" and state.turn == _turn(state, "us_formosa_landing_turn") and "formosa" not in landed_at:
        where, target = "formosa", d.place(d.scenario["causeway"]["us_formosa_landing_hex"])
        if h not in (None, target):
            raise IllegalOrder("Ichi-Go 5.3", f"the Formosa landing is at {target}")
    elif state.phase == "I" and state.turn == _turn(state, "us_mainland_landing_turn") and "mainland" not in landed_at:
        where, target = "mainland", h
        ports = mainland_landings(d)
        if target not in ports:
            raise IllegalOrder("Ichi-Go 5.3", f"the mainland landing is at one of the port cities {', '.join(ports)} "
                                              "(ruling R10)")
    elif state.phase == "II" and state.beachheads:
        where, target = "reinforcement", h
        if target not in state.beachheads.values():
            raise IllegalOrder("Ichi-Go 8.11", "US reinforcements land at a beachhead")
    else:
        raise IllegalOrder("Ichi-Go 5.3", "no US landing now")
    if where != "reinforcement" and len(units) > per:
        raise IllegalOrder("Ichi-Go 5.3", f"up to {per} divisions land")
    if where != "reinforcement" and any(u.type == "airborne" for u in units):
        raise IllegalOrder("Ichi-Go 8.11", "the 11th Airborne is not one of the landing's infantry divisions: it "
                                           f"enters in the US Movement Phase of Turn "
                                           f"{_turn(state, 'us_reinforcements_from_turn')} or later (5.3 items 12-13)")
    displaced = [u.id for u in port_holders(state, target)]
    to = _displace_to(state, target, away) if displaced or away else ""
    landed = ev.USLanded(list(ids), target, where, displaced, to)
    after = evolve(state, landed)   # 6.4, 6.3: the US stack once the units in the port have left it
    bad = stack_violation(after, target, [after.units[i] for i in ids])
    if bad:
        raise IllegalOrder("Ichi-Go 6.4", bad)
    em.emit(landed)
    if where == "formosa":
        causeway_deployments(em)


def mainland_landings(d) -> list[str]:
    """Ichi-Go 5.3 item 12 (ruling R10): the mainland port cities the second landing may take (`d`: the game
    data)."""
    ports = d.places(d.scenario["causeway"]["us_mainland_landing_ports"])
    return sorted(p for p in ports if p in d.feature("port") and mainland(d, p))


def landing_done(state: State) -> bool:
    if state.phase != "I":
        return True
    if state.turn == _turn(state, "us_formosa_landing_turn"):
        return "formosa" in state.beachheads
    if state.turn == _turn(state, "us_mainland_landing_turn"):
        return "mainland" in state.beachheads
    return True


# -- victory (4.x) ------------------------------------------------------------------------------------------
def sudden_death(state: State, dice, em: Emitter) -> None:
    d = state.data
    v = d.scenario["victory"]
    if all(h not in state.jp_control for h in d.places(v["allied_sudden"])):
        held = " and ".join(place_name(h) for h in v["allied_sudden"])
        em.emit(ev.GameEnded("allied", f"Ichi-Go 4.5: the Allies hold {held} at once"))
        return
    if state.causeway:
        for h in state.beachheads.values():
            if h in state.jp_control:
                em.emit(ev.GameEnded("japanese", f"Ichi-Go 4.4: the Japanese control the US beachhead {h}"))
                return
        return
    cap = d.place(v["sudden_death_chungking"])
    if cap in state.jp_control and not state.collapse_checked and state.causeway is not True:
        mods = []
        roll = em.roll(dice, "China Collapse Table (4.1)")
        total = roll
        for cond, ok in ((f"{place_name(v['kunming'])} Japanese", d.place(v["kunming"]) in state.jp_control),
                         ("all GEARR Japanese", all_gearr_japanese(state)),
                         ("all airbases Japanese", all_airbases_japanese(state)),
                         ("no Chinese east of the GEARR", no_chinese_east_of_gearr(state))):
            if ok:
                total += 1
                mods.append(f"+1 {cond}")
        collapsed = total >= int(v["china_collapse_on"])
        em.emit(ev.CollapseChecked(roll, mods, total, collapsed))
        if collapsed:
            em.emit(ev.GameEnded("japanese", f"Ichi-Go 4.1: China collapses (roll {roll}, total {total})"))


def vp_no_causeway(state: State) -> tuple[int, list[str]]:
    """Ichi-Go 4.2."""
    d = state.data
    items = []
    if all_airbases_japanese(state):
        items.append("all US airbases Japanese")
    if all_gearr_japanese(state):
        items.append("all GEARR Japanese")
    v = d.scenario["victory"]
    near = int(v["distance_chungking"])
    if japanese_near(state, d.place(v["sudden_death_chungking"]), near):
        items.append(f"Japanese within {near} hexes of {place_name(v['sudden_death_chungking'])}")
    if d.place(v["kunming"]) in state.jp_control:
        items.append(f"{place_name(v['kunming'])} Japanese")
    if no_chinese_east_of_gearr(state):
        items.append("no Chinese units east of the GEARR")
    return len(items), items


def vp_causeway(state: State) -> tuple[int, list[str]]:
    """Ichi-Go 4.3 (ruling R16: the debits are -1)."""
    d = state.data
    items, total = [], 0
    jp = state.occupied("japanese")
    for where in ("formosa", "mainland"):
        h = state.beachheads.get(where)
        if h and any(n in jp for n in d.neighbours(h)):
            total += 1
            items.append(f"+1 Japanese adjacent to the {where} beachhead")
    v = d.scenario["victory"]
    if d.place(v["sudden_death_chungking"]) in state.jp_control:
        total += 1
        items.append(f"+1 {place_name(v['sudden_death_chungking'])} Japanese")
    if all_gearr_japanese(state):
        total += 1
        items.append("+1 all GEARR Japanese")
    if not any(h in d.tagged("formosa") for h in jp):
        total -= 1
        items.append("-1 no Japanese on Formosa")
    for h in d.places(v["causeway"]["debit_hexes"]):
        if h not in state.jp_control:
            total -= 1
            items.append(f"-1 Allies control {h}")
    if any(h not in state.jp_control for h in d.places(v["allied_sudden"])):
        total -= 1
        items.append(f"-1 Allies control {' or '.join(place_name(h) for h in v['allied_sudden'])}")
    return total, items


def final_outcome(state: State) -> ev.GameEnded:
    if state.causeway:
        vp, items = vp_causeway(state)
        t = state.data.scenario["victory"]["causeway"]
        case = "Ichi-Go 4.3"
    else:
        vp, items = vp_no_causeway(state)
        t = state.data.scenario["victory"]["no_causeway"]
        case = "Ichi-Go 4.2"
    if vp <= int(t["chinese_win_max"]):
        winner = "allied"
    elif vp >= int(t["japanese_win_min"]):
        winner = "japanese"
    else:
        winner = None
    return ev.GameEnded(winner, f"{case}: {vp} Japanese VP ({'; '.join(items) or 'none'})")


def end(em: Emitter, side: str, dice) -> None:
    state = em.state
    roll_turn = int(em.state.data.scenario["turn_start"]["causeway_roll_turn"])
    if state.phase == "start" and state.turn == roll_turn and state.causeway is None:
        raise IllegalOrder("Ichi-Go 5.2", "roll on the Causeway or Philippines Table first")
    if state.phase == "start" and state.causeway and state.b29_rolled != state.turn:
        raise IllegalOrder("Ichi-Go 8.9", "roll for the B-29 raid first")
    if state.phase == "I" and not landing_done(state):
        raise IllegalOrder("Ichi-Go 5.3", "the US landing is mandatory this turn")
    if state.phase == "X":
        left = drawn(state)
        if any(placeable(state, h) for h in left):
            raise IllegalOrder("Ichi-Go 9.7", "place every drawn counter first")
        for h in left:
            em.emit(ev.ReturnedToPool(h, "no initially Chinese city to take it (9.7)"))
    if em.state.phase == "X" and em.state.turn >= em.state.last_turn():
        em.emit(final_outcome(em.state))
        return
    em.emit(ev.PhaseEnded(phase=state.phase, turn=state.turn))


def supply_of(state: State, uid: str) -> str:
    return supply_state(state, state.units[uid])


# -- US aerial supply (7.8), airlift (8.10), the 11th Airborne (8.11), naval transfer (10.11) ------------------
def aerial_open(state: State) -> bool:
    return bool(state.causeway) and state.aerial_turn != state.turn


def aerial_supply(em: Emitter, side: str, h: str) -> None:
    state = em.state
    if not aerial_open(state):
        raise IllegalOrder("Ichi-Go 7.8", "the Aerial Supply Marker is placed at most once a turn")
    us = [u for u in state.at(h) if u.nation == "us"]
    if not us or any(supply_state(state, u) != "oos" for u in us):
        raise IllegalOrder("Ichi-Go 7.8", f"{h} holds no otherwise out-of-supply US stack")
    em.emit(ev.AerialSupplyPlaced(h))


def air_superiority(state: State) -> bool:
    """Ichi-Go 8.10 (ruling R23): the Allies hold the airpower markers this turn, or Causeway was launched."""
    return bool(state.causeway) or state.air_side == "allied"


def airlift_open(state: State, nation: str) -> bool:
    return nation in ("chinese", "us") and air_superiority(state) and state.airlift_turn != state.turn


def _friendly_cities(state: State, formosa: bool) -> set[str]:
    d = state.data
    return {h for h in d.feature("city") if h not in state.jp_control and (formosa or mainland(d, h))
            and not any(u.side == "japanese" for u in state.at(h))}


def airlift(em: Emitter, side: str, uid: str, h: str) -> None:
    state = em.state
    if not airlift_open(state, state.nation_now() or ""):
        raise IllegalOrder("Ichi-Go 8.10", "no airlift capacity now")
    u = state.units[uid]
    if u.nation == "chinese":
        ok_unit = not u.militia and u.on_map and u.mp < 0 and not u.done
        cities = _friendly_cities(state, formosa=False)
    else:
        ok_unit = u.id == "us-11ab" and u.on_map and u.mp < 0 and not u.done
        cities = _friendly_cities(state, formosa=True)
    if not ok_unit or u.nation != state.nation_now():
        raise IllegalOrder("Ichi-Go 8.10", f"{uid} may not be airlifted (militia never; US only the 11th Airborne; "
                                           "only a unit that has not moved)")
    if u.hex not in cities or h not in cities or h == u.hex:
        raise IllegalOrder("Ichi-Go 8.10", "from one friendly-controlled city to another")
    from app.rules.ichigo.movement import stack_violation

    bad = stack_violation(state, h, [u])
    if bad:
        raise IllegalOrder("Ichi-Go 6.0", bad)
    em.emit(ev.Airlifted(uid, u.hex, h))


def can_drop(state: State) -> bool:
    u = state.units.get("us-11ab")
    return (bool(state.causeway) and u is not None and u.status == "us-pool" and not state.airdropped
            and state.airlift_turn != state.turn and state.aerial_turn != state.turn)


def drop(em: Emitter, side: str, h: str) -> None:
    state = em.state
    d = em.state.data
    if not can_drop(state):
        raise IllegalOrder("Ichi-Go 8.11", "the 11th Airborne cannot drop now (once a game; it uses this turn's "
                                           "airlift and Aerial Supply Marker)")
    if not d.land(h) or d.map.terrain_of(H(h)) not in ("clear", "rough") or state.occupied("japanese") & {h}:
        raise IllegalOrder("Ichi-Go 8.11", f"{h} is not a clear or rough hex free of Japanese units")
    em.emit(ev.Airlifted("us-11ab", "", h, drop=True))


def transfer(em: Emitter, side: str, ids: list[str]) -> None:
    state = em.state
    beaches = state.beachheads
    if len(beaches) != 2 or state.turn < _turn(state, "naval_transfer_from_turn"):
        raise IllegalOrder("Ichi-Go 10.11", f"naval transfer from Turn {_turn(state, 'naval_transfer_from_turn')}, "
                                            "between the two beachheads")
    units = [state.units[i] for i in ids]
    origins = {u.hex for u in units}
    if any(u.nation != "us" for u in units) or len(origins) != 1 or not origins <= set(beaches.values()):
        raise IllegalOrder("Ichi-Go 10.11", "US units that begin Phase I in one beachhead hex")
    origin = origins.pop()
    dest = next(h for h in beaches.values() if h != origin)
    from app.rules.ichigo.movement import stack_violation

    bad = stack_violation(state, dest, units)
    if bad:
        raise IllegalOrder("Ichi-Go 6.4", bad)
    em.emit(ev.NavalTransfer(list(ids), origin, dest))
