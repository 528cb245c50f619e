"""Victory (ruling R20; 15.5 is absent): sudden death on the Casualty Points, and the levels after the last
Game-Turn."""
from __future__ import annotations

from functools import lru_cache

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
    units left south of the Objective Line (halving the reading every three), weighted 0.4, 0.4 and 0.2. From
    edition 7 the final count itself, read before a playout reaches it (`final_count`)."""
    if edition >= 7:
        american = final_count(state, edition)
        return american if side == "american" else -american
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


PACE = 1.5  # Japanese units south the Americans can be expected to clear a Game-Turn (edition 7's reading of R20)
CITY_PACE = 0.5  # of Kagoshima's hex: taken within two Game-Turns of standing next to it at 3:1 reads even
# what is left of this Game-Turn for the Americans to act on the count, by step: a whole turn before their
# movement, half (an attack, an advance after it) in their assault and combat, none from their reinforcements on
THIS_TURN = {"placement": 1.0, "movement": 1.0, "assault": 0.5, "combat": 0.5, "losses": 0.5}
ODDS = 3  # American strength against a Japanese stack's that reads it as all but cleared (3:1)
CREDIT = {7: 0.75, 8: 0.25}  # of a unit south (or Kagoshima) the American strength pressing it counts as done
MARCH = 12  # MP an American unit moves a Game-Turn (its allowance, R10): edition 9 reads the way in Game-Turns
MARCH_SINCE = 9  # the edition that adds the march along the Americans' way to what is left to do (`_march`)


def final_count(state: State, edition: int = 7) -> float:
    """The American reading of R20's count after the last Game-Turn, -1 to 1 (the policies' edition 7): the
    Americans win with southern Kyushu cleared or Kagoshima theirs, within the points' limits. Each way is read as
    what is left to do against the time left (`_against_time`): the Game-Turns after this one and what is left of
    this one for the Americans (`THIS_TURN`; none once their last combat phase is over, so the count then reads as
    it will fall). For the objective, the Japanese units south, each counted less the more American strength
    stands near it (`_pressed`, so units are drawn toward the last of them), at `PACE` a Game-Turn; for the key
    city its hex, counted less the same way, at `CITY_PACE`. Taken as chances (r + 1) / 2, the two ways give the
    chance of either, weighted 0.8 against the points counted (0.2: 1 at none, -1 at the last American level's
    limit). Edition 6 read the units south as a fixed 0.2 halving every three and Kagoshima by its nearest American
    unit, with no time in it: the search ended its last Game-Turn with three Japanese units south, six to nine
    hexes from any American unit. Edition 8 credits the pressing strength a quarter of a unit (`CREDIT`), not
    three quarters: a pressed unit read as all but cleared, so clearing it read as a small gain and the search's
    Americans ended every combat phase of a game lost with eight units south (its last turn read +0.39). Edition 9
    adds to each what is left to do the march along the Americans' way to it (`_march`), at that way's pace: an
    attack that clears the road south then reads above one that does not."""
    data = state.data
    v = data.scenario["victory"]
    a = assessment(state)
    left = data.scenario["game"]["game_turns"] - state.turn + THIS_TURN.get(state.step, 0.0)
    americans = [(u.hex, u.strength) for u in state.on_map("american") if not state.at_sea(u)]
    stacks: dict[str, int] = {}
    for uid in a["japanese_south"]:
        unit = state.units[uid]
        stacks[unit.hex] = stacks.get(unit.hex, 0) + 1
    credit = CREDIT[min(edition, 8)]
    need = sum(n * (1 - credit * _pressed(state, h, americans)) for h, n in stacks.items())
    if edition >= MARCH_SINCE and stacks:
        need += PACE * _march(state, tuple(sorted(stacks)), americans, left)
    objective = _against_time(need, PACE * max(left, 0))
    if a["key_city"]:
        city = 1.0
    else:
        key = str(data.hex_named(v["key_city"]))
        need_city = 1 - credit * _pressed(state, key, americans)
        if edition >= MARCH_SINCE:
            need_city += CITY_PACE * _march(state, (key,), americans, left)
        city = _against_time(need_city, CITY_PACE * max(left, 0))
    either = 1 - (1 - (objective + 1) / 2) * (1 - (city + 1) / 2)
    limit = max(lv["below"] for lv in v["level"] if lv["name"].startswith("American") and "below" in lv)
    points = 1 - 2 * min(1.0, a["counted"] / limit)
    return 0.8 * (2 * either - 1) + 0.2 * points


def _against_time(need: float, pace: float) -> float:
    """What is left to do against what the time left allows, -1 to 1: 1 with nothing left, 0 when it needs exactly
    the pace, -1 with something left and no time."""
    return (pace - need) / (pace + need) if need + pace else 1.0


def _defence(state: State, here: str) -> int:
    """The Japanese strength and intact militia in hex `here`, at least 1: what an attack there is against."""
    return max(_japanese(state).get(here, 0) + state.militia_intact(here), 1)


def _japanese(state: State) -> dict[str, int]:
    """The Japanese strength on the map by hex, found once a position: the final count reads a hex's at every stack
    left south and every goal of the march, each playout's leaf again."""
    def count() -> dict[str, int]:
        found: dict[str, int] = {}
        for u in state.units.values():
            if u.status == "map" and u.side == "japanese":
                found[u.hex] = found.get(u.hex, 0) + u.strength
        return found
    return state.memo("japanese-strength", count)


def _way_blocked(state: State) -> tuple[frozenset[str], frozenset[str]]:
    """What `way_to` reads of a position (R10, R11, R15), found once a position: the hexes of Japanese units and
    intact militia, and the Japanese zones of control."""
    from app.rules.olympic.sequence import _situation

    def find() -> tuple[frozenset[str], frozenset[str]]:
        sit = _situation(state)
        return (frozenset(str(h) for h in sit.enemy_occupied | set(sit.forbidden)),
                frozenset(str(h) for h in sit.ezoc))
    return state.memo("american-way-blocked", find)


def _march(state: State, goals: tuple[str, ...], americans: list[tuple[str, int]], left: float) -> float:
    """Edition 9: the Game-Turns the Americans need to stand next to one of `goals` with `ODDS` times its defence
    (the weakest of them), each share of that strength by the nearest units' own march (the mean, so a unit a
    Game-Turn nearer reads nearer, whoever else is needed), along their way (app/rules/olympic/aims.py `way_to`:
    R10's movement points, a hex of Japanese units or intact militia on the way a Game-Turn more, for the attack
    that clears it, a Japanese zone of control half of one), at `MARCH` MP a Game-Turn; a share no unit can bring
    counts the time left (`left`) and one more. Edition 8 read the strength near a goal as the crow flies: the
    units and militia on the road south counted for nothing, so an attack that cleared them read as any other
    (every attack of a combat phase within 0.01 of the others) and Kagoshima, nine Game-Turns of march away
    behind them, read as near as over open ground."""
    from app.rules.olympic.aims import way_to  # aims reads this module's assessment

    way = way_to(state.data, goals, *_way_blocked(state))
    wanted = ODDS * min(_defence(state, g) for g in goals)
    most = max(left, 0) + 1
    gathered, spent = 0.0, 0.0
    for cost, strength in sorted((way.get(h, float("inf")), s) for h, s in americans):
        share = min(strength, wanted - gathered)
        gathered, spent = gathered + share, spent + share * min(cost / MARCH, most)
        if gathered >= wanted:
            return spent / wanted
    return (spent + (wanted - gathered) * most) / wanted


def _pressed(state: State, here: str, americans: list[tuple[str, int]]) -> float:
    """How near the Americans stand to clearing hex `here`, 0 to 1: the American strength around it, each unit's
    halving every two hexes beyond the next one, against `ODDS` times the Japanese strength and intact militia
    there (at least 1)."""
    defence = _japanese(state).get(here, 0) + state.militia_intact(here)
    near = sum(s * 2 ** (-max(_distance(state.data.map, h, here) - 1, 0) / 2) for h, s in americans)
    return min(1.0, near / (ODDS * max(defence, 1)))


@lru_cache(maxsize=65536)
def _distance(game_map, a: str, b: str) -> int:
    return game_map.distance(H(a), H(b))


def progress(state: State) -> float:
    """The share of the game's time run out, 0 at the start of Game-Turn 1 to 1 at the end of the last (R13): from
    the policies' edition 7 the evaluation weighs the final count (`stakes`) more as it grows
    (app/rules/evaluation.py)."""
    turns = state.data.scenario["game"]["game_turns"]
    return max(0.0, min(1.0, (state.turn - 1) / turns))


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
