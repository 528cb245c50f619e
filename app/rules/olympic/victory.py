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


def stakes(state: State, side: str, edition: int = 3) -> float:
    """How near `side` stands to victory, -1 to 1 (the strong opponent's evaluation, app/rules/evaluation.py), by
    what the levels judge (ruling R20): Kagoshima (American, else how near the nearest American unit stands,
    halving every three hexes), the points counted against the last American level's limit, and the Japanese
    units left south of the Objective Line (halving the reading every three), weighted 0.4, 0.4 and 0.2."""
    data = state.data
    v = data.scenario["victory"]
    a = assessment(state)
    key = data.hex_named(v["key_city"])
    if a["key_city"]:
        city = 1.0
    else:
        gap = min((data.map.distance(key, H(u.hex)) for u in state.on_map("american")), default=None)
        city = -1.0 if gap is None else 2 * 2 ** (-gap / 3) - 1
    limit = max(lv["below"] for lv in v["level"] if lv["name"].startswith("American") and "below" in lv)
    points = 1 - 2 * min(1.0, a["counted"] / limit)
    south = 2 * 2 ** (-len(a["japanese_south"]) / 3) - 1
    american = 0.4 * city + 0.4 * points + 0.2 * south
    return american if side == "american" else -american


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
