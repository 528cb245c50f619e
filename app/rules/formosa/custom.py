"""Formosa custom positions (app/rules/custom_setup.py; docs/custom-positions.md, "Operation Causeway: Formosa"):
a game that starts at the beginning of any phase of any Game-Turn from a position file, the set-up done. Beyond
the common keys (turn, phase, units, removed) a position gives what the Formosa state carries: units in the
displays (`where`), the Japanese units face up (`revealed`; on the map a Japanese unit is concealed unless named,
11.1), the Allied engineer bases (`bases`, 20.0), each side's LP, air and naval points and invasion markers, and
the GT Amoy fell (9.1). `[steps]` and `[control]` are refused: a Formosa counter has no steps, and control is
occupation (5.2). Ruling F98.
"""
from __future__ import annotations

from dataclasses import replace

from app.rules.custom_setup import UNIT_ID, Position, SetupError, bounded_list, parse_options
from app.rules.formosa import optional
from app.rules.formosa.state import OUT, SIDES, State, is_hex
from app.rules.kernel.hexgrid import Hex

EXTRA_KEYS = ("where", "revealed", "bases", "lp", "air", "naval", "markers", "amoy_turn")
POOLS = {"air": ("allied-tac", "cw-tac", "japanese-tac", "kamikaze", "b29", "air-supply", "mobile-fleet"),
         "naval": ("gunfire", "cw-gunfire"), "markers": ("amphibious", "drop-zone"), "lp": SIDES}


def apply(state: State, options) -> State:
    """The printed start, or the position in `options` placed on it."""
    _, position = parse_options({k: v for k, v in dict(options).items() if k != "optional"}, SIDES, EXTRA_KEYS)
    return state if position is None else _place(state, position)


def _phases(turn: int) -> tuple[str, ...]:
    """The phases a position may start in: those a player acts in (the Logistics, Strike Reveal and Air Return
    Phases are played on entering them, 7.2, 16.1, 6.1), and not the B-29 and Interdiction Phases, which need the
    air plan a position does not carry (16.1: a position's GT has no missions assigned); GT 1 from Strike
    Planning (24.1: no Logistics, Recruit or Amoy Phase)."""
    from app.rules.formosa.sequence import FIRST_ON_GT1, NEEDS_MISSION, TURN

    skipped = ("logistics", "strike-reveal", "air-return", *NEEDS_MISSION)
    phases = tuple(p for p in TURN if p not in skipped)
    return phases[phases.index(FIRST_ON_GT1):] if turn == 1 else phases


def _land(data, label: str) -> bool:
    try:
        h = Hex.parse(label)
    except ValueError:
        return False
    return data.map.on_map(h) and data.is_land(h)


def _number(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _place(state: State, p: Position) -> State:
    data = state.data
    x = p.extra
    problems: list[str] = []
    last = data.scenario(state.scenario)["turns"]
    if not 1 <= p.turn <= last:
        problems.append(f"'turn' is a Game-Turn from 1 to {last} in Scenario {state.scenario}")
    if p.phase not in _phases(p.turn):
        problems.append(f"'phase' on Game-Turn {p.turn} is one of {', '.join(_phases(p.turn))} (Formosa 6.1, 24.1)")
    if p.steps:
        problems.append("[steps]: a Formosa counter has no steps")
    if p.control is not None:
        problems.append("[control]: in Formosa control is occupation (5.2): place units instead")
    units = dict(state.units)
    fixed = set(state.to_place)
    for uid, u in units.items():
        if u.side == "japanese" and uid in fixed:
            units[uid] = replace(u, where=OUT)  # the printed set-up is replaced by the position's
    where = x.get("where", {})
    if not isinstance(where, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in where.items()):
        problems.append("[where] maps unit ids to displays")
        where = {}
    revealed = set(bounded_list(x.get("revealed", []), "revealed", UNIT_ID, "unit ids", problems))
    bases = set(bounded_list(x.get("bases", []), "bases", UNIT_ID, "unit ids", problems))
    for uid in sorted({*p.units, *p.removed, *where, *revealed, *bases} - set(units)):
        problems.append(f"no unit {uid!r}")
    for uid, h in sorted(p.units.items()):
        if uid not in units:
            continue
        if state.units[uid].where == OUT:
            problems.append(f"{uid} is not in this game (the scenario or an optional rule not chosen, 24.2, 25.0)")
        elif not _land(data, h):
            problems.append(f"{uid}: {h} is not a land hex of the map")
        else:
            units[uid] = replace(units[uid], where=h, concealed=units[uid].side == "japanese" and uid not in revealed)
    for uid, display in sorted(where.items()):
        if uid in units and uid in p.units:
            problems.append(f"{uid} is both on the map and in the {display} display")
        elif uid in units and data.displays.get(display, {}).get("owner") != units[uid].side:
            problems.append(f"[where] {uid}: {display!r} is not a display of the {units[uid].side} player")
        elif uid in units:
            units[uid] = replace(units[uid], where=display)
    for uid in p.removed:
        if uid in units:
            units[uid] = replace(units[uid], where=OUT)
    for uid in sorted(revealed & set(units)):
        if units[uid].side != "japanese" or not is_hex(units[uid].where):
            problems.append(f"revealed: {uid} is not a Japanese unit placed in [units]")
        elif data.unit(uid).type == "deception":
            problems.append(f"revealed: {uid} is a deception unit, removed when revealed (11.1): leave it out")
    for uid in sorted(bases & set(units)):
        u = units[uid]
        if data.unit(uid).type != "engineer" or u.side != "allied" or not is_hex(u.where) or not (
                data.map.features_of(Hex.parse(u.where)) & {"major-port", "minor-port", "airfield"}):
            problems.append(f"bases: {uid} is not an Allied engineer placed in a port or airfield hex (20.1)")
        else:
            units[uid] = replace(u, base=True)
    pools = {}
    for key, names in POOLS.items():
        value = x.get(key, {})
        if not isinstance(value, dict) or set(value) - set(names) or not all(_number(v) for v in value.values()):
            problems.append(f"[{key}] maps {', '.join(names)} to numbers (0 or more)")
            value = {}
        pools[key] = value
    amoy = x.get("amoy_turn")
    if amoy is not None and (not _number(amoy) or not 2 <= amoy <= p.turn):
        problems.append("'amoy_turn' is the GT Amoy fell: from 2 to 'turn' (9.1)")
    if problems:
        raise SetupError("position", problems)
    placed = replace(state, turn=p.turn, step=p.phase, units=units, to_place=(), setup_rolled=True,
                     lp={**state.lp, **pools["lp"]}, air={**state.air, **pools["air"]},
                     naval={**state.naval, **pools["naval"]}, markers={**state.markers, **pools["markers"]},
                     amoy_turn=amoy, special_ready=tuple(
                         u.id for u in units.values() if u.where == "japanese-reinforcements"
                         and optional.special(state, u.id)))
    problems = [f"{h} holds units of both sides" for h in sorted(placed.occupied("allied") & placed.occupied(
        "japanese"))]
    problems += [f"{h}: {side} units over the stacking limits (13.1, 13.2)" for side in SIDES
                 for h in placed.overstacked(side)]
    if problems:
        raise SetupError("position", problems)
    return _revealed_in_combat(placed)


def _revealed_in_combat(state: State) -> State:
    """11.2 item 1: a Combat Phase begins with the concealed units in an enemy ZOC revealed (a deception unit
    revealed is removed, 11.1); a position that starts there has done so."""
    from app.rules.formosa.sequence import COMBAT_STEPS

    if state.step not in COMBAT_STEPS:
        return state
    zoc = state.zoc_of("allied")
    found = [u for u in state.on_map("japanese") if u.concealed and u.where in zoc]
    return state.with_units(*(replace(u, concealed=False, **({"where": OUT} if state.spec(u.id).type == "deception"
                                                               else {})) for u in found))
