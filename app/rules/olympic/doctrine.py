"""The Japanese Doctrine Phase (Olympic 14.3 tracks 1-3; rulings R5, R6, R9, R12) and the Tokko strike of
Game-Turn 1 (14.3 track 5, 14.4; ruling R8): procedures driven by dice, run by the automated Japanese seat as one
order each."""
from __future__ import annotations

import math

from app.rules.engine.decision import Decision
from app.rules.kernel.hexgrid import Hex
from app.rules.olympic import policy
from app.rules.olympic.data_load import hex_identity
from app.rules.olympic.events import (
    CasualtyPoints,
    DoctrineResult,
    ReinforcementsDue,
    TokkoLosses,
    TokkoStruck,
    UnitsReleased,
)
from app.rules.olympic.state import State

H = Hex.parse


# -- 14.4: the Tokko --------------------------------------------------------------------------------------------
def tokko(d: Decision) -> None:
    data = d.data
    die = d.roll("doctrine track 5: Tokko table")
    table = data.tokko_table(die)
    d.emit(DoctrineResult(5, die, f"Tokko table #{table}"))
    points = data.tokko.points(table, d.roll(f"Tokko table #{table}"))
    d.emit(TokkoStruck(table, points))
    if not points:
        return
    d.emit(CasualtyPoints(points, f"Tokko table #{table} (Olympic 14.4)"))
    zone = None  # one zone die for the strike, rolled again only when its zone runs short (ruling R8)
    # the 14.4 note's procedure, once it applies to the strike, is continued to its end (ruling R44, version 9)
    northern = d.state.since(9) and bool(_off_the_north(d.state))
    for _ in range(points // data.tokko.points_per_group):
        if not _at_sea(d.state):
            return
        zone = _remove_group(d, zone if d.state.since(2) else None, northern)


def _at_sea(state: State) -> dict[str, list[str]]:
    """American-occupied invasion zone hexes and their units, top first."""
    out: dict[str, list[str]] = {}
    for u in state.on_map("american"):
        if state.at_sea(u):
            out.setdefault(u.hex, [])
    return {h: [u.id for u in state.stack(h)] for h in out}


def _off_the_north(state: State) -> list[str]:
    """The American-occupied invasion zone hexes of the zones the 14.4 note names (Fukuoka, Imari)."""
    return [h for h in _at_sea(state) if state.data.zone_of(H(h)) in state.data.tokko.by_identity]


def _remove_group(d: Decision, zone: str | None, northern: bool = False) -> str | None:
    """One group of three units (14.4, ruling R8), from `zone` (the zone the strike's die named) while it still
    holds a full stack; the zone die is rolled when there is none yet or that zone has run short. With American
    units off Fukuoka or Imari (the 14.4 note) no die: unit by unit from the highest-numbered occupied hex down,
    whatever each holds (ruling R41, rules version 7; version 6 took full stacks first), for every group of the
    strike once it began so (`northern`: ruling R44, rules version 9; version 8 looked again for each group, and
    rolled zone dice once no unit was left off Fukuoka and Imari). Returns the zone the group came from."""
    data = d.data
    size = data.tokko.units_per_group
    sea = _at_sea(d.state)
    full = sorted((h for h, us in sea.items() if len(us) >= size), key=lambda h: -hex_identity(H(h)))
    north = northern if d.state.since(9) else _off_the_north(d.state)
    if north or not full:
        why = "American units in the Fukuoka or Imari zone (Olympic 14.4 note)" if north else \
            "no invasion zone hex holds three American units (ruling R8)"
        by_identity = sorted(sea, key=lambda h: -hex_identity(H(h)))
        _take_by_identity(d, by_identity if north and d.state.since(7) else full or by_identity, size, why)
        return zone
    rolled = []
    hexes = [h for h in full if data.zone_of(H(h)) == zone] if zone is not None else []
    if zone is not None and not hexes:
        rolled.append({"zone": zone, "why": "zone-short"})
    while not hexes:
        zone = data.tokko.zone(d.roll("Tokko table #4: invasion zone"))
        hexes = [h for h in full if data.zone_of(H(h)) == zone]
        if not hexes:
            rolled.append({"zone": zone, "why": "zone-short" if any(data.zone_of(H(h)) == zone for h in sea)
                           else "zone-empty"})
    hex_ = hexes[0]
    d.emit(TokkoLosses(zone, hex_, sea[hex_][:size], {
        "case": "Olympic 14.4", "rerolled": rolled,
        "summary": f"{zone}: the American-occupied hex with the highest identity number, {hex_}"}))
    return zone


def _take_by_identity(d: Decision, hexes: list[str], size: int, why: str) -> None:
    taken = 0
    for h in hexes:
        units = [u.id for u in d.state.stack(h)][:size - taken]
        if not units:
            continue
        d.emit(TokkoLosses(d.data.zone_of(H(h)) or "", h, units, {"case": "Olympic 14.4", "summary": why}))
        taken += len(units)
        if taken >= size:
            return


# -- 14.3: the Doctrine Phase -------------------------------------------------------------------------------------
def doctrine(d: Decision) -> None:
    """Tracks 1-3 in order; tracks 1 and 2 while units are unreleased, on Game-Turn 4 too (ruling R34: its
    automatic release comes after, at the start of the Movement Phase; version 3 released them here instead)."""
    data = d.data
    state: State = d.state
    unreleased = [u for u in state.on_map("japanese") if not u.released]
    if state.turn >= data.release["automatic_turn"] and not state.since(4):
        if unreleased:
            d.emit(UnitsReleased(sorted(u.id for u in unreleased), "Game-Turn 4 (Olympic 14.3)"))
    else:
        _track_1(d, [u for u in unreleased if data.unit(u.id).klass == "coastal"])
        _track_2(d, [u for u in unreleased if data.unit(u.id).klass == "line"])
    _track_3(d)


def automatic_release(d: Decision) -> None:
    """14.3 tracks 1-2 note (ruling R34): every unit still unreleased goes free at the start of the Japanese Forces
    Movement Phase of Game-Turn 4 (a position of a later turn has them released already)."""
    state: State = d.state
    unreleased = [u.id for u in state.on_map("japanese") if not u.released]
    if state.since(4) and state.turn >= d.data.release["automatic_turn"] and unreleased:
        d.emit(UnitsReleased(sorted(unreleased), "the start of the Japanese Forces Movement Phase of Game-Turn 4 "
                                                 "(Olympic 14.3)"))


def _track_1(d: Decision, coastal: list) -> None:
    if not coastal:
        return
    die = d.roll("doctrine track 1: coastal units")
    result = d.data.doctrine[1].result(die)
    d.emit(DoctrineResult(1, die, result))
    if result == "none":
        return
    ranked = policy.release_order(d.state, coastal)
    count = len(ranked) if result == "all" else math.ceil(len(ranked) / 2)
    chosen = [u.id for u, _ in ranked[:count]]
    d.emit(UnitsReleased(chosen, f"track 1: {result} (Olympic 14.3)", {
        "case": "Olympic ruling R6" if result == "half" else "Olympic 14.3",
        "order": [{"unit": u.id, "hex": u.hex, "distance": dist} for u, dist in ranked],
        "summary": f"{count} of {len(ranked)} unreleased coastal units, nearest the Americans first"}))


def _track_2(d: Decision, line: list) -> None:
    if not line:
        return
    data = d.data
    die = d.roll("doctrine track 2: line units")
    result = data.doctrine[2].result(die)
    d.emit(DoctrineResult(2, die, result))
    tests = {"all": lambda h: True, "inland": lambda h: not data.is_coastal(h), "coastal": data.is_coastal,
             "southern": data.is_southern, "northern": lambda h: not data.is_southern(h)}
    chosen = sorted(u.id for u in line if tests[result](H(u.hex)))
    if chosen:
        d.emit(UnitsReleased(chosen, f"track 2: {result} (Olympic 14.3)", {
            "case": "Olympic ruling R9", "summary": f"every unreleased line unit that is {result}"}))


def _track_3(d: Decision) -> None:
    """14.3 track 3, ruling R12: the types named enter if the pool holds them; none on the turns 9.15 excepts."""
    data = d.data
    state: State = d.state
    pool = [u for u in data.japanese("reinforcement") if state.unit(u.id).status == "pool"]
    if state.turn in data.scenario["japanese_reinforcements"]["no_roll_on_turns"] or not pool:
        return
    die = d.roll("doctrine track 3: reinforcements")
    types = data.doctrine[3].result(die)
    d.emit(DoctrineResult(3, die, ", ".join(types) or "none"))
    due = []
    for category in types:
        found = next((u.id for u in pool if u.category == category and u.id not in due), None)
        if found:
            due.append(found)
    if due:
        d.emit(ReinforcementsDue(due))
