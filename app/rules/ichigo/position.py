"""Ichi-Go custom set-ups (app/rules/custom_setup.py, docs/custom-positions.md): a game on a custom map and/or
from a position file. Beyond the common keys (units, steps, removed, control, turn, phase) a position gives the
declared move/fight orders (`plans`, 5.5), the Causeway result (`causeway`, 5.2) with its `beachheads` (5.3),
whether the China Collapse roll was made (`collapse_checked`, 4.1) and the B-29 raid used (`b29_used`, 8.9).

Chinese regulars: naming one in [units] places it tried under a fresh counter handle (its identity is in the
position, so nothing hides it); `[draw]` (hex = count) instead has the set-up draw that many counters blind
into each hex (3.3), hidden from both players, before play starts at the position's turn and phase."""
from __future__ import annotations

from dataclasses import replace

from app.rules.custom_setup import (
    Position,
    SetupError,
    control_after,
    off_map_units,
    parse_options,
    place_units,
)
from app.rules.ichigo.causeway import mainland_landings
from app.rules.ichigo.data_load import load, place_name, scenario_places
from app.rules.ichigo.movement import stack_violation
from app.rules.ichigo.state import (
    PHASES,
    SIDES,
    State,
    _unit,
    created_under,
    initial_state,
    phase_applies,
    raw_unit,
    tracked,
)

EXTRA_KEYS = ("plans", "causeway", "beachheads", "collapse_checked", "b29_used", "draw")
NATIONS = ("japanese", "chinese", "us")
ORDERS = ("move-fight", "fight-move")


def data_for(options: dict):
    """The game's data for these options (the custom map they carry), the options checked first."""
    text, _ = parse_options(options, SIDES, EXTRA_KEYS)
    return load({"map": text})


def start(data, scenario: str, options: dict, version: str | None = None) -> State:
    """The engine's `start`: the first state of a game with these options, the printed set-up (3.0) or the
    custom map and position read under rules `version` (None: this one); `data`: the game's data on the map the
    options give (`data_for`)."""
    _, position = parse_options(options, SIDES, EXTRA_KEYS)
    state = replace(initial_state(data), rules_version=created_under(version))
    problems = data.missing_places()
    if problems:
        raise SetupError("custom map", problems)
    problems = [f"the scenario's hex {h} is not on the map" for h in _scenario_hexes(data) if not data.land(h)]
    if position is None:
        problems += off_map_units(state.units, data.land)
        problems += [f"the set-up hex {h} is not on the map" for h in _setup_hexes(data) if not data.land(h)]
        if problems:
            raise SetupError("custom map", problems)
        return state
    return _apply(state, position, problems)


def _scenario_hexes(d) -> list[str]:
    return d.places(scenario_places(d.scenario))


def _setup_hexes(d) -> set[str]:
    return set(d.tagged("setup-1") | d.tagged("setup-2") | d.tagged("cn-city"))


def _apply(state: State, position: Position, problems: list[str]) -> State:
    d = state.data
    x = position.extra
    units, pool, named, next_handle = _counters(state, position, problems)
    units, found = place_units(units, replace(position, units=named), d.land)
    problems += found
    problems += [f"{uid}: Chinese units never enter Formosa (9.9)" for uid, h in named.items()
                 if uid in units and units[uid].nation == "chinese" and h in d.tagged("formosa")]
    problems += _zeros_on_the_map(state, position)
    causeway = x.get("causeway")
    if causeway is not None and not isinstance(causeway, bool):
        problems.append("'causeway' is true (launched) or false (the US went to the Philippines)")
    if state.since(15):  # ruling E54: a flag written as a word or a number is refused, never read as true
        problems += [f"'{key}' is true ({what}) or false" for key, what in (
            ("collapse_checked", "the China Collapse roll was made, 4.1"), ("b29_used", "the B-29 raid was used, 8.9"))
            if key in x and not isinstance(x[key], bool)]
    roll_turn = int(d.scenario["turn_start"]["causeway_roll_turn"])
    if causeway is None and (position.turn > roll_turn or (position.turn == roll_turn and position.phase != "start")):
        problems.append(f"past the start of Turn {roll_turn}, say whether 'causeway' was launched (5.2)")
    last = int(d.scenario["game"]["turns_with_causeway" if causeway else "turns_without_causeway"])
    if not 1 <= position.turn <= last:
        problems.append(f"'turn' is from 1 to {last}")
    if position.phase not in ("start",) + PHASES:
        problems.append(f"'phase' is start or one of {', '.join(PHASES)}")
    problems += _before_causeway(state, position, units, causeway, roll_turn)
    beachheads = x.get("beachheads", {})
    if not isinstance(beachheads, dict) or set(beachheads) - {"formosa", "mainland"}:
        problems.append("'beachheads' maps formosa / mainland to the beachhead hex (5.3)")
        beachheads = {}
    if beachheads and not causeway:
        problems.append("beachheads only once Causeway is launched (5.3)")
    if state.since(12) and isinstance(beachheads, dict):  # ruling E47: the game ended when one entered (4.4, 7.5)
        problems += [f"{uid}: a Japanese unit in the US beachhead hex {h} has already won the game (4.4, 7.5)"
                     for uid, h in sorted(position.units.items())
                     if h in beachheads.values() and uid in units and units[uid].side == "japanese"]
    plans = x.get("plans", {})
    if not isinstance(plans, dict) or set(plans) - set(NATIONS) or set(plans.values()) - set(ORDERS):
        problems.append(f"'plans' maps a nation ({', '.join(NATIONS)}) to {' or '.join(ORDERS)} (5.5)")
        plans = {}
    draws = _draws(x.get("draw", {}), pool, d, problems)
    control, found = control_after(state.jp_control, position, "japanese", units)
    problems += found
    if state.since(15) and causeway and beachheads:  # ruling E53
        problems += _beachhead_problems(d, beachheads, control, units)
    if problems:
        raise SetupError("position", problems)
    control = frozenset(h for h in control if tracked(d, h))
    if causeway:
        units = _causeway_released(units)
    placed = replace(state, units=units, draw_pool=pool, next_handle=next_handle,
                     jp_control=control, ever_allied=frozenset(d.tagged("jp-city") - control),
                     plans=dict(plans), causeway=causeway, beachheads=dict(beachheads),
                     collapse_checked=bool(x.get("collapse_checked", False)), b29_used=bool(x.get("b29_used", False)))
    if position.phase != "start" and not phase_applies(placed, position.phase):  # "start" is no 5.1 phase
        raise SetupError("position", [f"Phase {position.phase} is not played {'after' if causeway else 'without'} "
                                      "Causeway (5.0)"])
    over = [f"{h}: {bad}" for h in sorted({u.hex for u in placed.on_map()}) for bad in [_overstacked(placed, h)] if bad]
    if over:
        raise SetupError("position", [f"overstacked {x}" for x in over])
    if draws:  # 3.3: the counters are drawn blind by the set-up order, then play starts at the position
        return replace(placed, setup_draws=draws, start_at=(position.turn, position.phase))
    return replace(placed, turn=position.turn, phase=position.phase)


def _before_causeway(state: State, position: Position, units: dict, causeway, roll_turn: int) -> list[str]:
    """Ichi-Go 5.2, 5.3 (ruling E36): the Causeway roll is made once, at the start of Turn 7, and US units come
    into play only by its launch (items 4, 12, 13, 9.8), so a position deciding it earlier, or placing a US unit
    without it, is no state of the game. Rules version 9; a game created under version 8 or before read it as
    given."""
    if not state.since(9):
        return []
    problems = []
    if causeway is not None and position.turn < roll_turn:
        problems.append(f"'causeway' is decided at the start of Turn {roll_turn} (5.2), not on Turn {position.turn}")
    if not causeway:
        problems += [f"{uid}: US units come into play only once Causeway is launched (5.3)"
                     for uid in sorted(position.units) if uid in units and units[uid].nation == "us"]
    return problems


def _beachhead_problems(d, beachheads: dict, control, units: dict) -> list[str]:
    """Ichi-Go 5.3 items 4 and 12, 4.4, 7.5 (rules version 15, ruling E53): the Formosa beachhead marker lies in
    Takao-Tainan and the mainland one in a port city of the mainland landing (ruling R10); a beachhead hex the
    Japanese control has already won them the game (4.4: the instant they gain control of it), so a position holding
    one is no state of play (as a Japanese unit in it is not, E47). A game created under version 14 or before read
    such a position as given (and ended at its first order)."""
    problems = []
    formosa = d.place(d.scenario["causeway"]["us_formosa_landing_hex"])
    kinds = {"formosa": ([formosa], f"{formosa}, {place_name(formosa)} (5.3 item 4)"),
             "mainland": (mainland_landings(d), f"one of the port cities {', '.join(mainland_landings(d))} "
                                                "(5.3 item 12, ruling R10)")}
    for where, h in sorted(beachheads.items()):
        allowed, which = kinds[where]
        if h not in allowed:
            problems.append(f"beachheads: the {where} beachhead is {which}, not {h if isinstance(h, str) else repr(h)}")
        elif h in control and not any(u.side == "japanese" and u.on_map and u.hex == h for u in units.values()):
            problems.append(f"beachheads: the US beachhead hex {h} is Japanese-controlled: the Japanese won the "
                            "instant they gained control of it (4.4)")
    return problems


def _zeros_on_the_map(state: State, position: Position) -> list[str]:
    """Ichi-Go 2.14, 11.27 (ruling E41): a zero-strength regular leaves the map the moment it is revealed, so a
    position that names one on the map (which places it tried, face up) is no state of the game; it is refused
    (a blind `[draw]` may still put one there untried). Rules version 10; a game created under version 9 or
    before read it as given, a tried zero that defended with nothing."""
    if not state.since(10):
        return []
    return [f"{uid}: a zero-strength regular is removed the moment it is revealed (2.14, 11.27): it never stands "
            "on the map face up" for uid in sorted(position.units)
            if uid in state.draw_pool and not raw_unit(state.data, uid)["strength"][0]]


def _counters(state: State, position: Position, problems: list[str]) -> tuple[dict, tuple, dict, int]:
    """Chinese regulars named by data id leave the draw pool as tried counters with fresh handles, given in the
    order of the data ids: the game stores its options as canonical JSON (sorted keys), so the file's order is
    not what the game replays, and the handles must not depend on it."""
    units = dict(state.units)
    pool = list(state.draw_pool)
    named = {}
    handle = state.next_handle
    for uid, h in sorted(position.units.items()):
        if uid in pool:
            pool.remove(uid)
            key = f"C{handle:02d}"
            handle += 1
            units[key] = _unit(raw_unit(state.data, uid), key, hex=h, status="map", tried=True)
            named[key] = h
        else:
            named[uid] = h
    for uid in position.steps:
        if uid in state.draw_pool and uid not in position.units:
            problems.append(f"{uid}: steps only for a unit placed in [units]")
    return units, tuple(pool), named, handle


def _draws(raw, pool: tuple, d, problems: list[str]) -> tuple:
    if not isinstance(raw, dict) or not all(isinstance(n, int) and not isinstance(n, bool) and n > 0
                                            for n in raw.values()):
        problems.append("[draw] maps a hex to the number of untried counters drawn blind into it (3.3)")
        return ()
    for h in raw:
        if not d.land(h) or h in d.tagged("formosa"):
            problems.append(f"[draw] {h} is not a mainland hex of the map (9.9)")
    if sum(raw.values()) > len(pool):
        problems.append(f"[draw] asks for {sum(raw.values())} counters; the pool holds {len(pool)}")
    return tuple(sorted((h, n) for h, n in raw.items()))


def _causeway_released(units: dict) -> dict:
    """Ichi-Go 5.3 items 5-6: once Causeway is launched the Formosa Garrison and the Kwantung Army are in play;
    those the position does not place wait as reinforcements."""
    out = dict(units)
    for k, u in units.items():
        if u.status == "formosa-garrison":
            out[k] = replace(u, status="formosa-deploy", entry_turn=0)
        elif u.status == "kwantung" and u.type != "tank":
            out[k] = replace(u, status="pool", entry_turn=0)
    return out


def _overstacked(state: State, h: str) -> str | None:
    here = state.at(h)
    return stack_violation(state, h, here[:1], cited=True) if here else None
