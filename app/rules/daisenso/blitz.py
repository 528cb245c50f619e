"""The Blitz Combat Segment's own steps (4.1): Airdrop (4.1.1), Beachhead Landing (4.1.3), Special SNLF Landing
(4.1.3.1), Airdrop Landing (4.1.4). Blitz Combat itself is combat.py under 4.1.2's limits."""
from __future__ import annotations

from app.rules.daisenso import terrain
from app.rules.daisenso.combat import C, at_truce, displace_markers, faction_of, has_failure, own
from app.rules.daisenso.events import (
    AirdropLanded,
    AirdropPlaced,
    AirdropToDelayBox,
    MarkerPlaced,
    MarkersToDelayBox,
    UnitLanded,
)
from app.rules.daisenso.state import State, Unit
from app.rules.daisenso.terrain import AIRDROPS, BEACHHEADS, H
from app.rules.engine.decision import Decision


def airdrop_units(state: State) -> list[Unit]:
    """4.1.1: the phasing faction's supplied, Blitz-enabled airborne units in a Land hex."""
    return [u for u in state.units.values() if u.faction == state.phasing and state.kind(u).airdrop
            and u.supplied and u.blitz and state.data.is_land(H(u.hex))]


def airdrop_problem(state: State, u: Unit, target: str) -> str | None:
    """4.1.1's placement rules (and D17-D19, D23); None if the marker may go to ``target``."""
    d = state.data
    atlas = d.atlas
    if state.pre_war:
        return "Pre-War is in effect (D23)"
    if not atlas.on_map(H(target)):
        return f"{target} is not on the map"
    if not d.is_land(H(target)):
        return f"{target} is not a Land hex"
    if H(u.hex).sheet != H(target).sheet:  # the sheets do not join (ruling D2): no Airdrop Path (ruling D74)
        return f"{target} is on another map sheet than {u.hex}; an Airdrop reaches two hexes"
    distance = atlas.distance(H(u.hex), H(target))
    if distance > 2:
        return f"{target} is {distance} hexes from {u.hex}; an Airdrop reaches two"
    if terrain.country_closed(state, target):
        return f"{target} lies in a Neutral Minor or Policy Affected Country"
    if distance == 2 and not any(atlas.adjacent(n, H(target)) and not terrain.country_closed(state, str(n))
                                 for n in atlas.neighbours(H(u.hex))):
        return "every Airdrop Path crosses a Neutral Minor or Policy Affected Country"
    near = {target, *(str(n) for n in atlas.neighbours(H(target)))}
    if any(x.hex in near and x.faction != u.faction and state.kind(x).is_air for x in state.units.values()):
        return f"an enemy Air unit is in or next to {target}"
    if has_failure(state, u.faction, u.hex):
        return f"a {u.faction} Failure marker is in {u.hex} (D17)"
    if any(at_truce(state, u.faction, x.faction) for x in state.at(target)):
        return f"{target} holds units of a faction at truce (D18)"
    partner = truce_markers(state, u.faction, target)
    if partner:
        return (f"{target} holds {partner} Detachment or Logistics markers, which its Airdrop Landing would send to "
                f"the Delay Box, and the {u.faction} and {partner} factions are at truce (D18, D63)")
    return None


def truce_markers(state: State, faction: str, hex_label: str) -> str | None:
    """Ruling D63 (rules version 13): the faction at truce with ``faction`` whose Detachment or Logistics markers are
    in ``hex_label``, or None. A unit placed there sends them to the Delay Box (D42, D46), as an attack on them
    would (4.2.2), and factions at truce do not attack each other; version 12 and before did not look."""
    if not state.since(13):
        return None
    return next((m.faction for m in state.markers_at(hex_label, terrain.LONE_MARKERS)
                 if at_truce(state, faction, m.faction)), None)


def airdrop(d: Decision, uid: str, target: str) -> None:
    u = own(d, uid, "4.1.1")
    if u not in airdrop_units(d.state):
        d.refuse(C + "4.1.1", f"{uid} is not a supplied, Blitz-enabled airborne unit in a Land hex")
    why = airdrop_problem(d.state, u, target)
    if why:
        d.refuse(C + "4.1.1", why)
    d.emit(AirdropPlaced(uid, target))


def landers(state: State) -> list[Unit]:
    """4.1.3: supplied, Blitz-enabled ground units on a friendly Beachhead that did not attack this segment, with
    a hex they may land in."""
    out = []
    for u in state.units.values():
        if u.faction != state.phasing or not state.kind(u).is_ground or not u.supplied or not u.blitz:
            continue
        if attacked(state, u):
            continue
        to = landing_hex(state, u)
        if to is not None and landing_problem(state, u.faction, to) is None:
            out.append(u)
    return out


def attacked(state: State, u: Unit) -> bool:
    """4.1.3: the unit attacked in this Blitz Combat Segment; an HQ that gave an attack Ranged Support did, being one
    of its attacking units (4.2.2 step 3, 4.2.3.5; ruling D50; rules version 7 and before: adjacent attackers only)."""
    return u.attacked or (state.since(8) and state.kind(u).type == "hq" and u.fought)


def landing_hex(state: State, u: Unit) -> str | None:
    """4.1.3: the Land hex across the Beachhead Hexside of the friendly Beachhead marker the unit is on; an SNLF
    Beachhead-0 is one (ruling D39; rules version 3 and before took a plain Beachhead only)."""
    kinds = BEACHHEADS if state.since(4) else ("beachhead",)
    for m in state.markers_at(u.hex, kinds):
        if m.faction == u.faction:
            return m.toward
    return None


def landing_problem(state: State, faction: str, to: str) -> str | None:
    """4.1.3 and 4.1.3.1's restrictions and their limits (D17-D19): why ``faction`` may not land into ``to``, or None.
    A unit of a faction at truce is an enemy unit there already (D18)."""
    if any(x.faction != faction for x in state.at(to)):
        return f"{to} holds an enemy unit"
    if terrain.country_closed(state, to):
        return f"{to} lies in a Neutral Minor or Policy Affected Country (D19)"
    if has_failure(state, faction, to):
        return f"a {faction} Failure marker is in {to} (D17)"
    partner = truce_markers(state, faction, to)
    if partner:
        return (f"{to} holds {partner} Detachment or Logistics markers, which the landing would send to the Delay "
                f"Box, and the {faction} and {partner} factions are at truce (D18, D63)")
    return None


def land(d: Decision, uid: str) -> None:
    u = own(d, uid, "4.1.3")
    to = landing_hex(d.state, u)
    why = None if to is None else landing_problem(d.state, u.faction, to)
    if why:
        d.refuse(C + "4.1.3", why)
    if u not in landers(d.state):
        d.refuse(C + "4.1.3", f"{uid} is not a supplied, Blitz-enabled ground unit on a Beachhead that did not attack")
    d.emit(UnitLanded(uid, to))
    if d.state.since(5):  # ruling D42; version 4 and before left them in the hex
        displace_markers(d, u.faction, to)


def snlf_markers(state: State) -> list:
    """4.1.3.1: the Axis's supplied SNLF Beachhead-0 markers, while the Axis Force Pool holds a Detachment."""
    if state.phasing != "axis" or state.force_pool.get("axis", {}).get("detachment-japan", 0) <= 0:
        return []
    return [m for m in state.markers if m.kind == "snlf-beachhead-0" and m.supplied and not m.landed]


def snlf_landings(state: State) -> list:
    """The SNLF Beachhead-0 markers that may land their Detachment now: from rules version 13 (ruling D64) only those
    whose Land hex no restriction closes (4.1.3.1, D17-D19), so the Beachhead Landing step opens only when a landing
    is possible (D26); version 12 and before counted every one, and opened the step with `next` alone."""
    return [m for m in snlf_markers(state) if not state.since(13) or landing_problem(state, "axis", m.toward) is None]


def snlf(d: Decision, hex_label: str) -> None:
    state = d.state
    marker = next((m for m in snlf_markers(state) if m.hex == hex_label), None)
    if faction_of(state, d.side) != "axis" or marker is None:
        d.refuse(C + "4.1.3.1", f"no supplied SNLF Beachhead-0 in {hex_label} yet to land, with a Japanese "
                                     "Detachment in the Axis Force Pool")
    to = marker.toward
    why = landing_problem(state, "axis", to)
    if why:
        d.refuse(C + "4.1.3.1", why)
    displace_markers(d, "axis", to)
    d.emit(MarkerPlaced("detachment-japan", to, "axis"))


def airdrop_markers(state: State) -> list:
    return [m for m in state.markers if m.faction == state.phasing and m.kind in AIRDROPS]


def lapsed_airdrops(d: Decision) -> None:
    """4.1.4: an Airdrop marker unsupplied or stacked with an enemy unit goes to the Delay Box."""
    state = d.state
    for m in airdrop_markers(state):
        if not m.supplied or any(u.faction != m.faction for u in state.at(m.hex)):
            to_delay_box(d, m)


def to_delay_box(d: Decision, marker) -> None:
    """4.1.4: this Airdrop marker to the Delay Box, one at a time (ruling D51; rules version 7 and before sent every
    marker of its kind in the hex)."""
    if d.state.since(8):
        d.emit(AirdropToDelayBox(marker.hex, marker.faction, marker.supplied))
    else:
        d.emit(MarkersToDelayBox(marker.hex, [marker.kind], marker.faction))


def landing_kinds(state: State, marker) -> list[str]:
    """4.1.4: a one-step, non-elite infantry kind of the marker's nationality in the Force Pool."""
    pool = state.force_pool.get(marker.faction, {})
    nations = set(state.data.markers[marker.kind].nations)
    return sorted(k.id for k in state.data.kinds.values() if k.type == "infantry" and k.steps == 1 and not k.elite
                  and set(k.nations) & nations and pool.get(k.id, 0) > 0)


def airland(d: Decision, hex_label: str, kind: str) -> None:
    state = d.state
    marker = next((m for m in airdrop_markers(state) if m.hex == hex_label), None)
    if marker is None:
        d.refuse(C + "4.1.4", f"no {state.phasing} Airdrop marker in {hex_label}")
    if kind not in landing_kinds(state, marker):
        offered = ", ".join(landing_kinds(state, marker)) or "none in the Force Pool"
        d.refuse(C + "4.1.4", f"{kind} cannot land: a one-step, non-elite infantry of its nationality ({offered})")
    partner = truce_markers(state, marker.faction, hex_label)
    if partner:
        d.refuse(C + "4.1.4", f"{hex_label} holds {partner} Detachment or Logistics markers, which the landing would "
                              f"send to the Delay Box, and the {marker.faction} and {partner} factions are at truce "
                              "(D18, D63): withdraw the marker")
    d.emit(AirdropLanded(hex_label, kind, f"{kind}.{state.serial + 1}", marker.faction))
    if state.since(7):  # ruling D46; version 6 and before left them in the hex
        displace_markers(d, marker.faction, hex_label)


def withdraw(d: Decision, hex_label: str) -> None:
    marker = next((m for m in airdrop_markers(d.state) if m.hex == hex_label), None)
    if marker is None:
        d.refuse(C + "4.1.4", f"no {d.state.phasing} Airdrop marker in {hex_label}")
    to_delay_box(d, marker)
