"""SNC custom set-ups (app/rules/custom_setup.py, docs/custom-positions.md): a game on a custom map and/or from
a position file: units per hex with their steps, hex control (3.2), the game turn, the player turn (`side`),
the phase (5.1) and, past the declaration, the declared phase order (`plan`, 5.3)."""
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
from app.rules.kernel.hexgrid import Hex
from app.rules.snc.combat import overstacked_hexes
from app.rules.snc.common import last_turn
from app.rules.snc.data_load import GameData, load
from app.rules.snc.state import SIDES, State, created_under, initial_state

EXTRA_KEYS = ("side", "plan", "replacements")
PHASES = ("declare", "ops1", "reinf", "ops2")
PLANS = ("move", "fight")


def data_for(options: dict) -> GameData:
    """The game's data for these options (the custom map they carry), the options checked first."""
    text, _ = parse_options(options, SIDES, EXTRA_KEYS)
    return load({"map": text})


def start(data: GameData, scenario: str, options: dict, version: str | None = None) -> State:
    """The engine's `start`: the first state of a game with these options, the printed set-up (13.0) or the
    custom map and position read under rules `version` (None: this one); `data`: the game's data on the map the
    options give (`data_for`)."""
    _, position = parse_options(options, SIDES, EXTRA_KEYS)

    def on_map(h: str) -> bool:
        return _on_map(data, h)

    state = replace(initial_state(data), rules_version=created_under(version))
    if position is not None:
        return _apply(state, position, on_map)
    problems = off_map_units(state.units, on_map)
    problems += [f"the scenario's hex {h} is not on the map" for h in _scenario_hexes(data) if not on_map(h)]
    if problems:
        raise SetupError("custom map", problems)
    return state


def _replacements_left(state: State, position: Position, side: str, problems: list[str]) -> int:
    """SNC 8.3 (ruling E35): the Japanese replacement steps left in a position that starts in their Reinforcement
    Phase: the GT's allowance, or fewer (`replacements`) when some were taken before the position. Under rules
    versions 1-15 such a position started with none (as played)."""
    given = position.extra.get("replacements")
    r = state.data.params["replacements"]
    due = position.phase == "reinf" and side == "japanese" and position.turn >= int(r["japanese_from_turn"])
    allowance = int(r["japanese_steps"]) if due else 0
    if given is None:
        return allowance if state.since(16) else 0
    if not due:
        problems.append(f"'replacements' is given only in the Japanese Reinforcement Phase from GT "
                        f"{r['japanese_from_turn']} (SNC 8.3)")
        return 0
    if isinstance(given, bool) or not isinstance(given, int) or not 0 <= given <= allowance:
        problems.append(f"'replacements' is the Japanese replacement steps left this phase, 0 to {allowance} (SNC 8.3)")
        return 0
    return given


def _on_map(d, h: str) -> bool:
    try:
        return d.map.on_map(Hex.parse(h))
    except ValueError:
        return False


def _scenario_hexes(d: GameData) -> list[str]:
    v = d.params["victory"]
    return [v["shanghai"], v["neutral_city"], *v["cities"]]


def _apply(state: State, position: Position, on_map) -> State:
    problems = [f"the scenario's hex {h} is not on the map" for h in _scenario_hexes(state.data) if not on_map(h)]
    units, found = place_units(state.units, position, on_map)
    problems += found
    if not 1 <= position.turn <= last_turn(state.data):
        problems.append(f"'turn' is a game turn from 1 to {last_turn(state.data)}")
    if position.phase not in PHASES:
        problems.append(f"'phase' is one of {', '.join(PHASES)}")
    side = position.extra.get("side", state.side)
    if side not in SIDES:
        problems.append(f"'side' (whose player turn it is) is one of {', '.join(SIDES)}")
    plan = position.extra.get("plan", [])
    if position.phase == "declare" and plan:
        problems.append("'plan' is declared only after the declaration phase (SNC 5.3)")
    if position.phase != "declare" and (not isinstance(plan, list) or len(plan) != 2
                                        or any(p not in PLANS for p in plan)):
        problems.append("past the declaration, 'plan' gives both Operations Phases: [\"move\"|\"fight\", ...]")
    control, found = control_after(state.jp_control, position, "japanese", units)
    problems += found
    left = _replacements_left(state, position, side, problems)
    if problems:
        raise SetupError("position", problems)
    placed = replace(state, units=units, jp_control=control, turn=position.turn, side=side, phase=position.phase,
                     plan=tuple(plan), replacements=left)
    over = [f"{h}: {why}" for s in SIDES for h, why in overstacked_hexes(placed, s)]
    if over:
        raise SetupError("position", [f"overstacked (SNC 6.2) {x}" for x in over])
    return placed
