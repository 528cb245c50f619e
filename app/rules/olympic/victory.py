"""Victory (ruling R20; 15.5 is absent): sudden death on the Casualty Points, and the levels after the last
Game-Turn."""
from __future__ import annotations

from app.rules.engine.decision import Decision
from app.rules.kernel.hexgrid import Hex
from app.rules.olympic.events import GameEnded
from app.rules.olympic.state import State

H = Hex.parse


def sudden_death(d: Decision) -> None:
    """Run after every order: the game ends at once when the Casualty Points reach the threshold."""
    limit = d.data.scenario["victory"]["sudden_death"]
    if d.state.casualty_points >= limit and d.state.step != "over":
        d.emit(GameEnded("japanese", f"Japanese decisive victory: {d.state.casualty_points} American Casualty "
                                     f"Points reach {limit} (ruling R20)"))


def assessment(state: State) -> dict:
    """What the levels are judged on: southern Kyushu cleared, the key city held, the points counted."""
    data = state.data
    v = data.scenario["victory"]
    key = str(data.hex_named(v["key_city"]))
    cities = sorted(h for h in state.american_control if data.map.terrain_of(H(h)) == "city")
    left = sorted(u.id for u in state.on_map("japanese") if data.is_southern(H(u.hex)))
    return {"objective": not left, "japanese_south": left, "key_city": key in state.american_control,
            "cities": cities, "points": state.casualty_points,
            "counted": max(0, state.casualty_points - v["city_credit"] * len(cities))}


def final(state: State) -> GameEnded:
    """Ruling R20: the first level that holds after the last Game-Turn."""
    a = assessment(state)
    for level in state.data.scenario["victory"]["level"]:
        if level.get("objective") and not a["objective"]:
            continue
        if level.get("key_city") and not a["key_city"]:
            continue
        if "below" in level and a["counted"] >= level["below"]:
            continue
        winner = "american" if level["name"].startswith("American") else "japanese"
        held = "southern Kyushu cleared" if a["objective"] else f"{len(a['japanese_south'])} Japanese units south"
        return GameEnded(winner, f"{level['name']}: {a['counted']} points counted ({a['points']} less "
                                 f"{len(a['cities'])} cities held), {held}, Kagoshima "
                                 f"{'American' if a['key_city'] else 'Japanese'} (ruling R20)")
    raise ValueError("scenario.toml victory levels: none holds; the last level must have no condition")
