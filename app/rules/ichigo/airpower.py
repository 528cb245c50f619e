"""Ichi-Go airpower: the B-29 raid (8.9), the airpower roll and its markers (8.1-8.7), US aerial supply (7.8),
airlift (8.10) and the 11th Airborne's drop (8.11). Called by the states table (sequence.py)."""
from __future__ import annotations

from app.rules.engine.decision import Decision
from app.rules.errors import IllegalOrder
from app.rules.ichigo import events as ev
from app.rules.ichigo.common import allied_airbases, garrison_at, mainland, supply_state
from app.rules.ichigo.data_load import H
from app.rules.ichigo.movement import check_stacking, stack_violation
from app.rules.ichigo.state import State


def b29_roll(em: Decision) -> None:
    lo, hi = em.state.data.scenario["causeway"]["b29_roll"]
    roll = em.roll("B-29 raid (8.9)")
    em.emit(ev.B29Rolled(roll, lo <= roll <= hi))


def b29(em: Decision, h: str) -> None:
    state = em.state
    if state.b29_hex:
        raise IllegalOrder("Ichi-Go 8.9", "one B-29 marker a turn")
    if h not in em.state.data.feature("city") or h not in state.jp_control:
        raise IllegalOrder("Ichi-Go 8.9", f"{h} is not a Japanese-controlled city")
    em.emit(ev.B29Placed(h))


def airpower_roll(em: Decision) -> None:
    state = em.state
    a = em.state.data.scenario["airpower"]
    winner, markers = None, 0
    named = state.since(17)  # rules version 17 (ruling E60): the history line names each die and its modifiers
    for _ in range(20):
        jp_die = em.roll("Japanese airpower (8.1)")
        jp, jp_mods = jp_die, []
        first, last = a["japanese_drm_early_turns"]
        if first <= state.turn <= last:
            jp += int(a["japanese_drm_turn_1"])
            jp_mods.append(f"{int(a['japanese_drm_turn_1']):+d} Turn {state.turn} (8.1)")
        if state.turn >= int(a["japanese_drm_late_from_turn"]):
            jp_mods.append(f"{int(a['japanese_drm_from_turn_7']):+d} Turn {state.turn} (8.1)")
            jp += int(a["japanese_drm_from_turn_7"])
            if jp < int(a["modified_minimum"]):
                jp = int(a["modified_minimum"])
                jp_mods.append(f"not below {jp} (8.1)")
        bases = allied_airbases(state)
        al_die, al_mods = None, []
        if bases == 0:  # 8.7, ruling R13: no Allied roll, result 0
            al = 0
            al_mods.append("no USAAF airbase: no roll (8.7)")
        else:
            al_die = em.roll("Allied airpower (8.1)")
            drm = int(a["allied_drm_by_airbases"][str(bases)])
            if drm:
                al_mods.append(f"{drm:+d} {bases} of {len(state.data.feature('airbase'))} USAAF airbases (8.7)")
            al = al_die + drm
            if al < 0:
                al = 0
                al_mods.append("not below 0 (8.7)")
        dice = dict(japanese_die=jp_die, allied_die=al_die, japanese_mods=jp_mods, allied_mods=al_mods) if named \
            else {}
        if jp == al and not (jp == 0 and bases == 0):
            em.emit(ev.AirpowerRolled(jp, al, None, 0, **dice))
            if jp == 0 and not state.since(4):  # before version 4 a 0-0 tie ended the roll (ruling E21)
                return
            continue
        if jp != al:
            winner = "japanese" if jp > al else "allied"
            markers = min(abs(jp - al), int(a["markers_max"]))
        em.emit(ev.AirpowerRolled(jp, al, winner, markers, **dice))
        break
    if winner and markers:
        em.emit(ev.DecisionRequired("airpower", winner, {"count": markers}))


def air(em: Decision, side: str, hexes: list[str]) -> None:
    n = em.state.pending[0]["data"]["count"]
    d = em.state.data
    if len(hexes) != n or len(set(hexes)) != n:
        raise IllegalOrder("Ichi-Go 8.2", f"place all {n} markers, one per hex")
    for h in hexes:
        if not d.map.on_map(H(h)):
            raise IllegalOrder("Ichi-Go 8.2", f"{h} is not on the map")
    em.emit(ev.DecisionMade("airpower", side), ev.AirpowerPlaced(side, list(hexes)))


def aerial_open(state: State) -> bool:
    return bool(state.causeway) and state.aerial_turn != state.turn


def us_cut_off(state: State) -> bool:
    """Ichi-Go 7.8 (ruling E52): is a US stack out of supply, so the marker has one to be placed on?"""
    return any(supply_state(state, u) == "oos" for u in state.on_map("allied") if u.nation == "us")


def aerial_supply(em: Decision, side: str, h: str) -> None:
    state = em.state  # once placed this turn the phase takes no `supply` (sequence.Operations.closed: 7.8)
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


def airlift(em: Decision, side: str, uid: str, h: str) -> None:
    state = em.state  # without airlift capacity the phase takes no airlift (sequence.Operations.closed: 8.10)
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
    check_stacking(state, h, [u], "Ichi-Go 6.0")
    em.emit(ev.Airlifted(uid, u.hex, h))


def can_drop(state: State) -> bool:
    return drop_spent(state) is None and bool(state.causeway)


def drop_spent(state: State) -> str | None:
    """Ichi-Go 8.11 (ruling E57): why the 11th Airborne cannot drop this turn, or None: it made its one airdrop or
    entered otherwise, or the drop's airlift or Aerial Supply Marker is spent this turn."""
    u = state.units.get("us-11ab")
    if state.airdropped:
        return "the 11th Airborne makes one airdrop a game, and it has made it"
    if u is None or u.status != "us-pool":
        return "the 11th Airborne drops only to enter play, and it has entered"
    if state.airlift_turn == state.turn:
        return "the drop uses up the turn's one-unit airlift (8.10), spent this turn"
    if state.aerial_turn == state.turn:
        return "the drop uses up the turn's US Aerial Supply Marker (7.8), placed this turn"
    return None


def b29_spent(state: State) -> str | None:
    """Ichi-Go 8.9 (ruling E57): why the B-29 marker may not be placed at this turn's start, or None: it is placed
    this turn; after Causeway, this turn's roll is not made or gave no raid; without it, the one raid was made."""
    if state.b29_hex:
        return f"the B-29 marker is on {state.b29_hex} this turn: one marker"
    if state.causeway:
        if state.b29_rolled != state.turn:
            return "roll for this turn's B-29 raid first: on a 1-3 the Allied player may place the marker"
        return "this turn's B-29 roll gave no raid (a 4-6)"
    if state.b29_used:
        return "without Causeway the Allied player makes one B-29 raid a game, and it has been made"
    return None


def drop(em: Decision, side: str, h: str) -> None:
    state = em.state
    d = em.state.data
    if not can_drop(state):
        raise IllegalOrder("Ichi-Go 8.11", "the 11th Airborne cannot drop now (once a game; it uses this turn's "
                                           "airlift and Aerial Supply Marker)")
    if not d.land(h) or d.map.terrain_of(H(h)) not in ("clear", "rough") or state.occupied("japanese") & {h}:
        raise IllegalOrder("Ichi-Go 8.11", f"{h} is not a clear or rough hex free of Japanese units")
    if state.since(4) and garrison_at(state, h):  # ruling E26: the garrison defends as a unit would (E5)
        raise IllegalOrder("Ichi-Go 11.29", f"{h} holds an intrinsic Japanese garrison: attack it first (ruling E5)")
    bad = stack_violation(state, h, [state.units["us-11ab"]]) if state.since(4) else None  # ruling E24
    if bad:
        raise IllegalOrder("Ichi-Go 6.4", bad)
    em.emit(ev.Airlifted("us-11ab", "", h, drop=True))
