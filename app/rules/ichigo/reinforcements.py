"""Ichi-Go reinforcements and withdrawals: the blind draws of Chinese regulars (3.3, 9.7), Japanese entry
(9.1), the 9.2 withdrawal, the Formosa Garrison release (9.3), 14AA shipments (5.3 items 7-9, 9.4), brigade
absorption (9.5), and the Formosa Garrison and Kwantung Army deployments a Causeway landing triggers (5.3 items
5-6, ruling E3). Called by the states table (sequence.py)."""
from __future__ import annotations

from app.rules.engine.decision import Decision
from app.rules.errors import IllegalOrder
from app.rules.ichigo import events as ev
from app.rules.ichigo.common import all_airbases_japanese, japanese_supplied, mainland, supply_state
from app.rules.ichigo.movement import check_stacking, stack_violation
from app.rules.ichigo.state import State, Unit

DEPLOYMENTS = {"formosa-garrison": "the Formosa Garrison (item 5)", "kwantung-army": "the Kwantung Army (item 6)"}


def withdrawal_due(state: State) -> bool:
    r = state.data.scenario["reinforcements"]["japanese"]
    return (state.phase == "V" and state.turn == int(r["withdrawal_turn"]) and not state.reinforced
            and sum(withdrawal_need(state)) > 0)


def shipment_due(state: State) -> bool:
    """Ichi-Go 5.3 item 7: each Phase V once Causeway is launched, while the 14AA pool lasts."""
    return (state.phase == "V" and bool(state.causeway) and not state.aa14_closed and state.aa14_turn != state.turn
            and any(u.status == "14aa-pool" for u in state.units.values()))


def ship(em: Decision) -> None:
    """Ichi-Go 5.3 items 7-9, 9.4, 11.28: roll, pick that many 14AA units blind, roll each one's survival."""
    state = em.state
    r = em.state.data.scenario["reinforcements"]["japanese"]
    roll = em.roll("14AA shipment (5.3 item 7)")
    count = roll - 1
    fates: dict = {}
    pool = sorted(u.id for u in state.units.values() if u.status == "14aa-pool")
    for _ in range(min(count, len(pool))):
        i = em.roll("blind pick of a 14AA unit (5.3 item 7)", len(pool)) - 1 if len(pool) > 1 else 0
        uid = pool.pop(i)
        u = state.units[uid]
        if uid == "jp-14aa-1sf":
            fates[uid] = "sf"
            continue
        die = em.roll(f"transport survival of {uid} (5.3 item 9)")
        if u.size == "division":
            lo, hi = r["aa14_division_full"]
            rlo, rhi = r["aa14_division_reduced"]
            fates[uid] = "full" if lo <= die <= hi else ("reduced" if rlo <= die <= rhi else "eliminated")
        else:
            lo, hi = r["aa14_brigade_survives"]
            fates[uid] = "full" if lo <= die <= hi else "eliminated"
    em.emit(ev.ShipmentRolled(roll, count, fates))


def withdrawal_spent(state: State) -> tuple[str, str] | None:
    """Ichi-Go 9.2 (ruling E57): why no withdrawal is taken in Turn 5's Phase V, or None at another moment."""
    r = state.data.scenario["reinforcements"]["japanese"]
    if state.phase != "V" or state.turn != int(r["withdrawal_turn"]):
        return None
    if state.reinforced:
        return "Ichi-Go 9.2", "two divisions are withdrawn once, at the start of Turn 5's Phase V, and they are"
    return "Ichi-Go 9.2", ("no full-strength 4-factor division under 101, reduced division or brigade is in supply to "
                           "withdraw (ruling E8)")


def shipment_spent(state: State) -> tuple[str, str] | None:
    """Ichi-Go 5.3 items 7-8, 9.4 (ruling E57): why no 14AA roll is made in this Phase V after Causeway, or None."""
    if state.phase != "V" or not state.causeway:
        return None
    if state.aa14_closed:
        return "Ichi-Go 5.3", "item 8: a 0 on the 14AA roll ended 14AA arrivals for the rest of the game"
    if state.aa14_turn == state.turn:
        return "Ichi-Go 9.4", "the 14AA roll is made once a Phase V, and this one's is made"
    if not any(u.status == "14aa-pool" for u in state.units.values()):
        return "Ichi-Go 9.4", "no 14AA unit is left in the pool (5.3 item 7: until there are no more left)"
    return None


def release_spent(state: State) -> tuple[str, str] | None:
    """Ichi-Go 9.3 (ruling E57): on Turn 9's Phase V without Causeway, two of the four Formosa Garrison divisions come
    over once; None at another moment (the sequence of play's refusal says when)."""
    r = state.data.scenario["reinforcements"]["japanese"]
    if state.phase != "V" or state.causeway or state.turn != int(r["formosa_garrison_turn_no_causeway"]):
        return None
    came = sorted(u.id for u in state.units.values() if u.army == "FG" and u.status != "formosa-garrison")
    return "Ichi-Go 9.3", f"two of the four Formosa Garrison divisions come over, once: {', '.join(came)} came"


def release_open(state: State) -> bool:
    r = state.data.scenario["reinforcements"]["japanese"]
    return (state.phase == "V" and not state.causeway and state.turn == int(r["formosa_garrison_turn_no_causeway"])
            and not any(u.army == "FG" and u.status == "pool" for u in state.units.values())
            and any(u.status == "formosa-garrison" for u in state.units.values()))


# -- set-up (3.2-3.4) ---------------------------------------------------------------------------------------
def draw(em: Decision, h: str) -> str | None:
    pool = em.state.draw_pool
    if not pool:
        return None
    i = em.roll("blind draw of a Chinese regular (3.3, 9.7)", len(pool)) - 1 if len(pool) > 1 else 0
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


def deploy(em: Decision) -> None:
    """Ichi-Go 3.3: the Chinese regulars drawn blind and set up untried."""
    for h, n in setup_draws(em.state):
        for _ in range(n):
            draw(em, h)
    em.emit(ev.PhaseEnded(phase="setup", turn=em.state.turn))


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


def enter(em: Decision, side: str, ids: list[str], h: str) -> None:
    """Ichi-Go 9.1, 9.4, 5.3 items 5-6: waiting Japanese units enter at h, each by its own way of arrival (rules
    version 11, ruling E43: an order entering units of two ways is the same as one order for each), stacking
    checked for all of them together (6.0, 6.2)."""
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
    if len(statuses) > 1 and not state.since(11):  # before ruling E43 one order took one way of arrival
        raise IllegalOrder("Ichi-Go 9.1", "units entering together must arrive the same way")
    for status in dict.fromkeys(u.status for u in units):  # ruling E43: each unit by its own way (9.1, 5.3, 9.4)
        allowed, case = ARRIVALS[status]
        if h not in allowed(state):
            raise IllegalOrder(case, f"{', '.join(u.id for u in units if u.status == status)} may not enter at {h}")
    check_stacking(state, h, units, "Ichi-Go 6.0")
    em.emit(ev.ReinforcementsEntered(list(ids), h))
    close_deployments(em)


# -- Causeway deployments (5.3 items 5-6, ruling E3) --------------------------------------------------------
def causeway_deployments(em: Decision) -> None:
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


def close_deployments(em: Decision) -> None:
    """Ruling E3: a Causeway deployment ends once no unit of it can enter any more; a unit no hex can take
    waits for a Japanese Phase V (9.1, 9.4)."""
    while em.state.pending and em.state.pending[0]["kind"] in DEPLOYMENTS:
        if any(deploy_hexes(em.state, u) for u in deploying(em.state)):
            return
        p = em.state.pending[0]
        em.emit(ev.DecisionMade(p["kind"], p["side"]))


def withdrawal_pools(state: State) -> tuple[list, list, list]:
    r = state.data.scenario["reinforcements"]["japanese"]
    on = [u for u in state.on_map("japanese") if not u.static and in_supply_now(state, u)]

    def number(u) -> int:
        digits = "".join(c for c in u.name.split()[0] if c.isdigit())
        return int(digits) if digits else 999

    full = [u.id for u in on if u.size == "division" and u.steps == 2 and u.factor() == 4
            and number(u) <= int(r["withdrawal_max_id"])]
    reduced = [u.id for u in on if u.size == "division" and u.steps == 1]
    brigades = [u.id for u in on if u.size == "brigade"]
    return full, reduced, brigades


def in_supply_now(state: State, u: Unit) -> bool:
    """Ichi-Go 9.2: in supply at the moment of the withdrawal; a B-29 raid's units are out of supply all turn (8.9;
    rules version 4, ruling E27: before it only the 7.1 path counted)."""
    return supply_state(state, u) != "oos" if state.since(4) else japanese_supplied(state, u.hex)


def withdrawal_need(state: State) -> tuple[int, int, int]:
    """Ichi-Go 9.2 (ruling E8): two division slots, each filled by a full-strength 4-factor division under 101
    in supply, else a reduced division, else two brigades; as many as exist."""
    full, reduced, brigades = withdrawal_pools(state)
    nf = min(2, len(full))
    nr = min(2 - nf, len(reduced))
    nb = min(2 * (2 - nf - nr), len(brigades))
    return nf, nr, nb


def withdraw(em: Decision, side: str, ids: list[str]) -> None:
    """Ichi-Go 9.2: the first division slot named leaves the game, the second goes to the 14AA pool."""
    state = em.state
    full, reduced, brigades = withdrawal_pools(state)
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


def release(em: Decision, side: str, ids: list[str]) -> None:
    state = em.state
    units = [state.units[i] for i in ids]
    if len(units) != 2 or any(u.status != "formosa-garrison" or u.size != "division" for u in units):
        raise IllegalOrder("Ichi-Go 9.3", "name two Formosa Garrison divisions")
    em.emit(ev.FormosaReleased(list(ids)))


def absorb(em: Decision, side: str, brigade: str, division: str) -> None:
    state = em.state
    b, dv = state.units[brigade], state.units[division]
    if not (dv.size == "division" and dv.on_map and dv.steps < dv.steps_max and b.size == "brigade"
            and b.type == "infantry" and b.on_map and b.hex == dv.hex and dv.side == b.side == "japanese"):
        raise IllegalOrder("Ichi-Go 9.5", "a reduced division and an infantry brigade in the same hex")
    if dv.hex not in em.state.data.tagged("jp-city"):
        raise IllegalOrder("Ichi-Go 9.5", "absorption only in an initially Japanese-controlled city")
    if state.since(4) and (b.done or dv.done):  # ruling E17: entered this phase, so not there as it began
        late = ", ".join(u.id for u in (b, dv) if u.done)
        raise IllegalOrder("Ichi-Go 9.5", f"{late} entered this phase: the division and the brigade must both begin "
                                          "Phase V in the city")
    em.emit(ev.BrigadeAbsorbed(brigade, division))


# -- Chinese reinforcements (9.7) ---------------------------------------------------------------------------
def chinese_cities(state: State) -> list[str]:
    d = state.data
    return sorted(h for h in d.tagged("cn-city") if h not in state.jp_control
                  and not state.occupied("japanese") & {h} and mainland(d, h))


def reinforce(em: Decision) -> None:
    state = em.state
    roll = em.roll("Chinese reinforcements (9.7)")
    halved = all_airbases_japanese(state)
    count = (roll + 1) // 2 if halved else roll
    em.emit(ev.ChineseReinforcementRolled(roll, halved, count))
    for _ in range(count):
        if draw(em, "") is None:
            break


def drawn(state: State) -> list[str]:
    return sorted(u.id for u in state.units.values() if u.status == "drawn")


def place(em: Decision, side: str, ids: list[str], h: str) -> None:
    state = em.state
    for i in ids:
        if state.units[i].status != "drawn":
            raise IllegalOrder("Ichi-Go 9.7", f"{i} is not a counter drawn this phase")
    if h not in chinese_cities(state):
        raise IllegalOrder("Ichi-Go 9.7", f"{h} is not an initially Chinese city still under Chinese control")
    units = [state.units[i] for i in ids]
    check_stacking(state, h, units, "Ichi-Go 6.3")
    em.emit(ev.ReinforcementsEntered(list(ids), h))


def placeable(state: State, handle: str) -> list[str]:
    u = state.units[handle]
    return [h for h in chinese_cities(state) if stack_violation(state, h, [u]) is None]
