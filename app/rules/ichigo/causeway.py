"""Operation Causeway (Ichi-Go 5.2-5.3, 10.11): the turn-start roll that launches it or sends the US to the
Philippines, the US landings with their beachheads and the displacement of the units in a port (5.3 items 4 and
12, rulings E10, R10), and naval transfer between the beachheads. The turns come from the scenario's
[causeway] table. Called by the states table (sequence.py)."""
from __future__ import annotations

from dataclasses import replace

from app.rules.engine.decision import Decision
from app.rules.errors import IllegalOrder
from app.rules.ichigo import events as ev
from app.rules.ichigo import reinforcements
from app.rules.ichigo.common import (
    all_airbases_japanese,
    all_gearr_japanese,
    enemy_hexes,
    japanese_near,
    mainland,
)
from app.rules.ichigo.data_load import place_name
from app.rules.ichigo.movement import stack_violation
from app.rules.ichigo.state import State, Unit, other


def turn_of(state: State, key: str) -> int:
    """A turn number of the US landings and transfers (scenario [causeway]: 5.3, 10.11)."""
    return int(state.data.scenario["causeway"][key])


def causeway_roll(em: Decision) -> None:
    state = em.state
    d = em.state.data
    mods: list[str] = []
    total = em.roll("Causeway or Philippines (5.2)")
    if all_airbases_japanese(state):
        sign = em.roll("sign of the airbase modifier (5.2)")
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
    rings: dict[int, list[str]] = {}  # the hexes by distance from the port, the nearest ring tried first
    for x in d.map.hexes():
        if str(x) != port:
            rings.setdefault(d.distance(port, str(x)), []).append(str(x))
    for distance in sorted(rings):
        fit = [x for x in rings[distance] if _displacement_bar(state, x, units) is None]
        if fit:
            return sorted(fit)
    return []


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


def land(em: Decision, side: str, ids: list[str], h: str | None, away: str | None = None) -> None:
    state = em.state
    d = em.state.data
    units = [state.units[i] for i in ids]
    if any(u.nation != "us" or u.status != "us-pool" or u.entry_turn > state.turn for u in units):
        raise IllegalOrder("Ichi-Go 9.8", "only US divisions waiting to land")
    per = int(d.scenario["causeway"]["us_divisions_per_landing"])
    landed_at = state.beachheads
    if state.phase == "I" and state.turn == turn_of(state, "us_formosa_landing_turn") and "formosa" not in landed_at:
        where, target = "formosa", d.place(d.scenario["causeway"]["us_formosa_landing_hex"])
        if h not in (None, target):
            raise IllegalOrder("Ichi-Go 5.3", f"the Formosa landing is at {target}")
    elif (state.phase == "I" and state.turn == turn_of(state, "us_mainland_landing_turn")
          and "mainland" not in landed_at):
        where, target = "mainland", h
        ports = mainland_landings(d)
        if target not in ports:
            raise IllegalOrder("Ichi-Go 5.3", f"the mainland landing is at one of the port cities {', '.join(ports)} "
                                              "(ruling R10)")
    elif us_movement_phase(state) and state.beachheads:
        where, target = "reinforcement", h
        if target not in state.beachheads.values():
            raise IllegalOrder("Ichi-Go 8.11", "US reinforcements land at a beachhead")
    else:
        raise IllegalOrder("Ichi-Go 5.3", "no US landing now")
    if where != "reinforcement" and len(units) > per:
        raise IllegalOrder("Ichi-Go 5.3", f"up to {per} divisions land")
    if where != "reinforcement" and any(u.type == "airborne" for u in units):
        raise IllegalOrder("Ichi-Go 8.11", "the 11th Airborne is not one of the landing's infantry divisions: it "
                                           "enters in the US Movement Phase of Turn "
                                           f"{turn_of(state, 'us_reinforcements_from_turn')} or later "
                                           "(5.3 items 12-13)")
    displaced = [u.id for u in port_holders(state, target)]
    if where == "reinforcement" and state.since(12):  # ruling E46: only item 12's landing moves the port's units
        _lands_among(state, target, units)
        displaced = []
    to = _displace_to(state, target, away) if displaced or away else ""
    landed = ev.USLanded(list(ids), target, where, displaced, to)
    after = landed.apply(state)   # 6.4, 6.3: the US stack once the units in the port have left it
    bad = stack_violation(after, target, [after.units[i] for i in ids])
    if bad:
        raise IllegalOrder("Ichi-Go 6.4", bad)
    em.emit(landed)
    if where == "formosa":
        reinforcements.causeway_deployments(em)


def _lands_among(state: State, h: str, units: list[Unit]) -> None:
    """Ichi-Go 9.8, 8.11, 6.0, 6.4 (rules version 12, ruling E46): a US reinforcement lands at a beachhead as it
    stands. 5.3 item 12 moves the Japanese or Chinese units out of the port the mainland landing takes, that landing
    only; a later landing onto Chinese units would end with US and Chinese units stacked together, which 6.4
    forbids (the units arriving are US, ruling E45), and Japanese units in a beachhead hex (7.5, 4.4) stack with no
    Allied unit (6.0)."""
    japanese = [u for u in state.at(h) if u.side == "japanese"]
    if japanese:
        raise IllegalOrder("Ichi-Go 6.0", f"{h} holds japanese units: opposing units never stack together")
    bad = stack_violation(state, h, units) if any(u.nation == "chinese" for u in state.at(h)) else None
    if bad:  # with no Chinese unit there, the US limit alone is checked once the units have landed (6.4)
        raise IllegalOrder("Ichi-Go 6.4", f"{bad}: a US reinforcement landing moves no unit out of the beachhead "
                                          "(only the mainland landing of 5.3 item 12 does)")


def us_movement_phase(state: State) -> bool:
    """Ichi-Go 8.11, 9.8: the US Movement Phase, where US reinforcements land at a beachhead and the 11th Airborne
    drops: Phase II or III, whichever the Allied player declared for movement (5.5; rules version 4, ruling E22;
    before it Phase II only, so never under fight-move)."""
    if state.since(4):
        return state.phase in ("II", "III") and state.mode() == "move"
    return state.phase == "II"


def mainland_landings(d) -> list[str]:
    """Ichi-Go 5.3 item 12 (ruling R10): the mainland port cities the second landing may take (`d`: the game
    data)."""
    ports = d.places(d.scenario["causeway"]["us_mainland_landing_ports"])
    return sorted(p for p in ports if p in d.feature("port") and mainland(d, p))


def landing_done(state: State) -> bool:
    if state.phase != "I":
        return True
    if state.turn == turn_of(state, "us_formosa_landing_turn"):
        return "formosa" in state.beachheads
    if state.turn == turn_of(state, "us_mainland_landing_turn"):
        return "mainland" in state.beachheads
    return True


def transfer(em: Decision, side: str, ids: list[str]) -> None:
    """Ichi-Go 10.11: US units that begin Phase I in a beachhead hex sail to the other, observing the stacking limits
    in both hexes. From rules version 14 (ruling E51) each unit once a phase, and one order may name units of both
    beachheads, each sailing to the other, the limits observed in each hex after the exchange."""
    state = em.state
    beaches = state.beachheads
    if len(beaches) != 2 or state.turn < turn_of(state, "naval_transfer_from_turn"):
        raise IllegalOrder("Ichi-Go 10.11", f"naval transfer from Turn {turn_of(state, 'naval_transfer_from_turn')}, "
                                            "between the two beachheads")
    units = [state.units[i] for i in ids]
    origins = {u.hex for u in units}
    both = state.since(14)  # ruling E51: an exchange between the two beachheads in one order
    if (any(u.nation != "us" for u in units) or not origins <= set(beaches.values())
            or (len(origins) != 1 and not both)):
        raise IllegalOrder("Ichi-Go 10.11", "US units that begin Phase I in one beachhead hex")
    sailed = [u for u in units if u.done] if state.since(14) else []
    if sailed:  # ruling E51: a unit that began Phase I in one beachhead sails to the other, once
        raise IllegalOrder("Ichi-Go 10.11", f"{', '.join(u.id for u in sailed)} sailed to "
                                            f"{', '.join(sorted({u.hex for u in sailed}))} this phase: a US unit "
                                            "that begins Phase I in one beachhead is moved to the other once")
    if len(origins) > 1:  # ruling E51: each group to the other beachhead, the limits read after the exchange
        away = replace(state, units={**state.units, **{u.id: replace(u, hex=None) for u in units}})
        moves = []
        for origin in sorted(origins):
            dest = next(h for h in beaches.values() if h != origin)
            group = [u for u in units if u.hex == origin]
            bad = stack_violation(away, dest, group)
            if bad:
                raise IllegalOrder("Ichi-Go 6.4", bad)
            moves.append(ev.NavalTransfer([u.id for u in group], origin, dest))
        em.emit(*moves)
        return
    origin = origins.pop()
    dest = next(h for h in beaches.values() if h != origin)
    bad = stack_violation(state, dest, units)
    if bad:
        raise IllegalOrder("Ichi-Go 6.4", bad)
    em.emit(ev.NavalTransfer(list(ids), origin, dest))
