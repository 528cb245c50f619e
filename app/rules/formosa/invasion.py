"""Opposed amphibious landings (10.1 item 3, 10.2.2, 17.0; rulings F24, F65, F80, F81, F85): stacks placed on
amphibious markers in all-sea hexes next to an enemy-held port or open coastal hex (rangers: any coastal hex,
22.0) attack that hex in the Invasion Phase across the all-sea hexside 15.0 otherwise forbids, with naval
gunfire (17.0 item 1) and never air supply (19.4). The combat is the standard one (combat.py) with the landing's
own ending there (`combat._settle_landing`): clear the hex and advance into it, or go back to the Staging Area.
At the end of the phase every marker goes back to the Reinforcements Display (10.1, F8)."""
from __future__ import annotations

from app.rules.engine.decision import Decision
from app.rules.formosa import airpower, combat, strike
from app.rules.formosa.events import LandingFailed, MarkersReturned, UnitRevealed, UnitsAdvanced, UnitsLanded
from app.rules.formosa.state import State, Unit
from app.rules.kernel.hexgrid import Hex

H = Hex.parse
C = "Formosa 10.2.2"


def assaultable(state: State, sea: str, rangers: bool) -> list[str]:
    """10.1 item 3, 22.0: the Japanese-held port or open coastal hexes (any coastal hex for rangers) next to the
    all-sea hex `sea`."""
    data = state.data
    out = []
    for n in data.map.neighbours(H(sea)):
        if not data.is_land(n) or not state.at(str(n), "japanese"):
            continue
        if n in data.ports() or n in data.open_coastal() or rangers:
            out.append(str(n))
    return sorted(out)


def place_at_sea(d: Decision, sea: str, units: list[str], check_units) -> None:
    """10.1 item 3: an amphibious marker in an all-sea hex next to a Japanese-held port or open coastal hex, and
    up to four units on it (`check_units`: the landing checks of 10.1-10.2 shared with unopposed landings)."""
    state: State = d.state
    rangers = bool(units) and all(u in state.units and state.spec(u).type == "ranger" for u in units)
    if not assaultable(state, sea, rangers):
        d.refuse("Formosa 10.1", f"{sea} is an all-sea hex next to no Japanese-held port or open coastal hex "
                                 "(rangers: any coastal hex, 22.0)")
    check_units(d, sea, units)
    d.emit(UnitsLanded("amphibious", sea, list(units)))


def assault(d: Decision, hex: str, gunfire: int, lp: int = 0, cw_gunfire: int = 0,
            seas: list[str] | None = None) -> None:
    """10.2.2, F24, F108: the stacks at sea next to `hex` (all of them, or those in `seas`: since rules version 5
    the Allied player chooses which combine) attack it as one combat, in the Invasion Phase, with naval gunfire
    (17.0 item 1) and the ground support placed on `hex` (16.3, F86), never air supply, and from rules version 23
    (ruling F173) never LP, the charts' "Ground Attack Shift" (before, LP as 15.4.1: the marker supplies the units
    at sea, 19.2); the defender may answer with his LP (F22) as in any combat."""
    state: State = d.state
    if state.combat is not None:
        d.refuse("Formosa 15.0", "the combat under way is not over")
    if not state.data.map.on_map(H(hex)) or not state.at(hex, "japanese"):
        d.refuse(C, f"{hex} holds no Japanese unit to assault")
    if state.since(5) and hex in state.attacked_hexes:
        d.refuse("Formosa 15.0", f"{hex} has been assaulted this phase: the stacks that combine attack it together, "
                                 "once (ruling F108)")
    attackers = assaulting(state, hex)
    if seas:
        if not state.since(5):
            d.refuse("Formosa 10.2.2, ruling F24", "in a game created before rules version 5 every stack at sea "
                                                   "next to the hex assaults it (ruling F108)")
        stranded = sorted(set(seas) - {u.where for u in attackers})
        if stranded or len(set(seas)) != len(seas):
            d.refuse(C, f"no stack at sea in {', '.join(stranded) or 'a sea hex named twice'} can assault {hex}")
        attackers = force(state, hex, seas)
    if not attackers:
        d.refuse(C, f"no assaulting stack at sea can assault {hex}: land units on a marker in an all-sea hex next "
                    "to it first")
    if lp and state.since(23):  # ruling F173
        d.refuse("Formosa 10.2.2", "an amphibious assault is supported by naval gunfire and tactical air, not by a "
                                   "ground attack shift (LP, 15.4.1)")
    combat.check_support(d, attackers, gunfire=gunfire, lp=lp, assault=hex, cw_gunfire=cw_gunfire)
    for u in state.at(hex, "japanese"):
        if u.concealed:
            d.emit(UnitRevealed(u.id, hex, "Formosa 11.2, ruling F85",
                                deception=state.spec(u.id).type == "deception"))
    if not d.state.at(hex, "japanese"):
        return _unopposed(d, hex, attackers)
    combat.commit(d, [hex], attackers, gunfire=gunfire + cw_gunfire, lp=lp, assault=hex)


def support(d: Decision, hex: str, n: int, nation: str | None) -> None:
    """10.2.2, 16.3, ruling F86: tactical air supports an assault: its points are placed on a hex the stacks at
    sea may assault, before the first assault of the phase, and fly with that assault only."""
    state: State = d.state
    if state.attacked_hexes or state.combat is not None:
        d.refuse("Formosa 16.3", "ground support is placed before the first assault of the phase")
    if hex not in {h for u in waiting(state) for h in targets(state, u.where)}:
        d.refuse("Formosa 10.2.2, ruling F86", f"{hex} is not a Japanese-held coastal hex a stack at sea may "
                                               "assault")
    strike.place(d, "support", hex, n, nation)


def support_candidates(state: State):
    for h in sorted({h for u in waiting(state) for h in targets(state, u.where)}):
        for nat, mission in (("us", "tactical"), ("cw", "cw-tactical")):
            if airpower.assigned(state, "allied", mission) > airpower.placed(state, "allied", nat):
                yield {"hex": h, "n": 1, **({"nation": "cw"} if nat == "cw" else {})}


def _unopposed(d: Decision, hex: str, units: list[Unit]) -> None:
    """F85: deception units only: once they are removed nobody opposes the landing; the stacks land as many as
    stacking allows (in the order of their ids), the others go back to the Staging Area (10.2.2)."""
    landed: list[str] = []
    for u in sorted(units, key=lambda x: x.id):
        if not d.state.would_overstack(hex, "allied", [*landed, u.id]):
            landed.append(u.id)
    d.emit(UnitsAdvanced(landed, [hex]))
    left = [u.id for u in units if u.id not in landed]
    if left:
        d.emit(LandingFailed(hex, left, "Formosa 10.2.2 (no room in the hex)"))


def targets(state: State, sea: str) -> list[str]:
    """What the stack at sea in `sea` may assault (a stack of rangers only: any coastal hex, 22.0); since rules
    version 5 not a hex already assaulted this phase (15.0: a defender is attacked once; ruling F108)."""
    found = assaultable(state, sea, all(state.spec(u.id).type == "ranger" for u in state.at(sea, "allied")))
    return [h for h in found if h not in state.attacked_hexes] if state.since(5) else found


def assaulting(state: State, hex: str) -> list[Unit]:
    """F24, F108: the stacks at sea that may assault `hex` (those that combine are the Allied player's choice)."""
    return [u for u in waiting(state) if hex in targets(state, u.where)]


def force(state: State, hex: str, seas: list[str] | None = None) -> list[Unit]:
    """The units that assault `hex`: the stacks at sea in `seas`, or every stack that may (10.2.2, F24, F108)."""
    return [u for u in assaulting(state, hex) if not seas or u.where in seas]


def assault_declared(state: State) -> bool:
    """Has an assault been declared this Invasion Phase (10.2.2)? A hex assaulted, a combat under way, or a stack
    that came ashore from the sea without a die (F85: deception units only, removed when the assault revealed
    them), which stands on land off every amphibious marker."""
    return bool(state.attacked_hexes) or state.combat is not None or any(
        u.landed and state.data.is_land(H(u.where)) and u.where not in state.amphibious
        for u in state.on_map("allied"))


def waiting(state: State) -> list[Unit]:
    """Units at sea whose landing has not been fought."""
    return [u for u in state.on_map("allied") if state.at_sea(u)]


def end_phase(d: Decision) -> None:
    """10.2.2: no stack stays at sea (each must assault while it has a Japanese hex to assault, else it goes
    back to the Staging Area); 10.1, F8: the markers not placed go back to the Reinforcements Display, but for
    the amphibious markers a Decisive Battle kept from landing, used in a later GT without new LP (18.0 b))."""
    state: State = d.state
    owed = sorted({u.where for u in waiting(state) if targets(state, u.where)})
    if owed:
        d.refuse(C, f"the stacks at sea in {', '.join(owed)} must assault (10.2.2: units cannot remain at sea)")
    by_hex: dict[str, list[str]] = {}
    for u in waiting(state):
        by_hex.setdefault(u.where, []).append(u.id)
    for sea, ids in sorted(by_hex.items()):
        d.emit(LandingFailed(sea, ids, "Formosa 10.2.2 (nothing left to assault)"))
    kept = ("amphibious",) if state.strike.amphibious_barred and state.since(5) else ()  # 18.0 b), ruling F108
    left = {k: n for k, n in state.markers.items() if k in ("amphibious", "drop-zone") and k not in kept and n}
    if left:
        d.emit(MarkersReturned(left))
    unused = airpower.unflown(state, "allied")
    if unused:
        d.emit(airpower.SupportReturned("allied", unused))  # F86: it flies no other combat


def candidates(state: State):
    """The hexes the stacks at sea may assault (by all the stacks next to it, or by one, F108), and gunfire and, in
    a game created under rules 1-22, LP for them (17.0, 15.4.1; ruling F173)."""
    hexes = sorted({h for u in waiting(state) for h in targets(state, u.where)})
    gunfire = min(state.naval.get("gunfire", 0), state.data.charts["stacking"]["gunfire_per_combat"])
    for h in hexes:
        yield {"hex": h}
        seas = sorted({u.where for u in assaulting(state, h)})
        if len(seas) > 1 and state.since(5):
            for sea in seas:
                yield {"hex": h, "seas": [sea]}
        if gunfire:
            yield {"hex": h, "n": gunfire}
        if state.lp["allied"] >= 1 and not state.since(23):
            yield {"hex": h, "lp": 1}


def sea_candidates(state: State, units: list[str]):
    """All-sea hexes a marker may take for an opposed landing (10.1 item 3)."""
    seen = set()
    for u in state.on_map("japanese"):
        for n in state.data.map.neighbours(H(u.where)):
            sea = str(n)
            if sea not in seen and sea not in state.used_hexes and not state.data.is_land(n) \
                    and assaultable(state, sea, False):
                seen.add(sea)
                yield {"hex": sea, "units": units}
