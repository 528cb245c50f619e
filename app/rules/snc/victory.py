"""SNC victory (4.0-4.4): the Chinese sudden death victory (4.1), the Chinese sudden death defeat through
GT 5 (4.2), the Japanese victory at the Victory Check (4.3) and the Chinese victory after GT 12."""
from __future__ import annotations

from app.rules.snc import events as ev
from app.rules.snc.common import H, neighbours
from app.rules.snc.state import State


def _chinese_near_shanghai(state: State) -> bool:
    s = state.data.params["victory"]["shanghai"]
    ring = {s, *neighbours(state.data, s)}
    return any(u.hex in ring for u in state.on_map("chinese"))


def sudden_death(state: State) -> ev.GameEnded | None:
    """Checked after every order: 4.1 (1) and (2), 4.2."""
    v = state.data.params["victory"]
    s = v["shanghai"]
    if state.controller(s) == "chinese":
        return ev.GameEnded("chinese", f"SNC 4.1: the Chinese control Shanghai ({s})")
    if state.turn >= int(v["adjacent_win_from_turn"]) and _chinese_near_shanghai(state):
        return ev.GameEnded("chinese", f"SNC 4.1: Chinese units in or adjacent to Shanghai ({s}) on GT "
                                       f"{state.turn}")
    if state.turn <= int(v["sudden_defeat_until_turn"]) and not _chinese_near_shanghai(state):
        return ev.GameEnded("japanese", f"SNC 4.2: no Chinese unit in or adjacent to Shanghai ({s}) on GT "
                                        f"{state.turn}")
    return None


def japanese_cities(state: State) -> tuple[int, int]:
    """SNC 4.3: city hexes the Japanese control, of all seven (3513 counts once all others do)."""
    counted = state.memo(("4.3 control",), lambda: _counted(state))
    return sum(1 for side in counted.values() if side == "japanese"), len(counted)


def control(state: State) -> dict[str, str]:
    """SNC 1.3, 3.2, 4.3: who controls each city hex, as the view shows it. From rules version 15 (ruling E33) as
    4.3 counts it: the neutral International Settlement is Japanese once every other city is, else neutral; before,
    3513 read as Chinese, the side that controls every hex the Japanese do not."""
    if state.since(15):
        return dict(state.memo(("4.3 control",), lambda: _counted(state)))
    return {h: state.controller(h) for h in sorted(state.data.params["victory"]["cities"])}


def _counted(state: State) -> dict[str, str]:
    neutral = state.data.params["victory"]["neutral_city"]
    out = {h: state.controller(h) for h in sorted(state.data.params["victory"]["cities"]) if h != neutral}
    out[neutral] = "japanese" if all(side == "japanese" for side in out.values()) else "neutral"
    return dict(sorted(out.items()))


def victory_check(state: State) -> ev.GameEnded | None:
    """SNC 4.3, Phase II.D: all city hexes Japanese -> Japanese win; at GT 12 otherwise the Chinese win."""
    held, total = japanese_cities(state)
    if held == total:
        return ev.GameEnded("japanese", f"SNC 4.3: the Japanese control all {total} city hexes")
    if state.turn >= int(state.data.params["game"]["last_turn"]):
        return ev.GameEnded("chinese", f"SNC 4.3: the Japanese hold {held} of {total} city hexes at the end of "
                                       f"GT {state.turn}")
    return None


def standing(state: State) -> list[dict]:
    """SNC 4.1-4.3 as a player reads them off the map (rules version 14, ruling E26): each way the game ends, when it
    applies, and where it stands now. Public: control (3.2) and the units in or next to Shanghai (every stack shows
    its top unit, 6.3) are on the map for both players."""
    v = state.data.params["victory"]
    s, near = v["shanghai"], _chinese_near_shanghai(state)
    held, total = japanese_cities(state)
    last, until, since = (int(state.data.params["game"]["last_turn"]), int(v["sudden_defeat_until_turn"]),
                          int(v["adjacent_win_from_turn"]))
    here = "a Chinese unit is" if near else "no Chinese unit is"
    return [
        {"case": "SNC 4.1", "when": "any time", "ends": f"Chinese win if they control {s}",
         "now": f"{s} is {state.controller(s)}"},
        {"case": "SNC 4.1", "when": f"from GT {since}", "ends": f"Chinese win if a Chinese unit is in or next to {s}",
         "now": f"{here} in or next to {s}"},
        {"case": "SNC 4.2", "when": f"GT 1-{until}", "ends": f"Japanese win if no Chinese unit is in or next to {s}",
         "now": f"{here} in or next to {s}"},
        {"case": "SNC 4.3", "when": "each Victory Check", "ends": f"Japanese win holding all {total} cities",
         "now": f"the Japanese hold {held} of {total} (3513 counts once all the others are theirs)"},
        {"case": "SNC 4.3", "when": f"GT {last} Victory Check", "ends": "Chinese win if the Japanese lack any city",
         "now": f"GT {state.turn} of {last}"},
    ]


def stakes(state: State, side: str, edition: int = 3) -> float:
    """How near `side` stands to victory, -1 to 1 (the strong opponent's evaluation, app/rules/evaluation.py, as the
    policies' `edition` reads it): half the Shanghai ring, half the cities. The ring (3512 and its neighbours):
    through GT 5 the Chinese lose the moment none of their units stands there (4.2), and from GT 8 they win the
    moment one does (4.1 (2)), so until GT 8 the Chinese strength there against the Japanese strength in and around
    it is the Chinese side's reading; the cities: the share the Japanese hold (4.3: all seven win at a Victory
    Check, fewer at GT 12 lose). From edition 4, while 4.2 can still end the game, the ring also counts how many of
    its hexes hold a Chinese unit (`_ring_hexes`: the Japanese must clear each of them, one attack each; one stack
    there, however strong, falls to one attack) and weighs the ring 0.7 against the cities' 0.3. From edition 5
    the cities are read against the time left (`_cities_by_time`), and from GT 8, when a Chinese unit in the ring
    has already won, the ring weighs nothing. From edition 7 the ring's hexes are read in depth (`_ring_in_depth`):
    each by how well it stands against the Japanese next to it, and the empty ones by the Chinese units near."""
    v = state.data.params["victory"]
    ring = {v["shanghai"], *neighbours(state.data, v["shanghai"])}
    around = ring | {n for h in ring for n in neighbours(state.data, h)}
    chinese = sum(max(u.cf, 0.5) for u in state.on_map("chinese") if u.hex in ring)
    japanese = sum(max(u.cf, 0.5) for u in state.on_map("japanese") if u.hex in around)
    hold = 2 * chinese / (chinese + japanese) - 1 if chinese + japanese else 0.0
    ring_weight = 0.5
    if edition >= 4 and state.turn <= int(v["sudden_defeat_until_turn"]):
        hold = 0.5 * hold + 0.5 * (_ring_in_depth(state, ring, edition) if edition >= 7 else _ring_hexes(state, ring))
        ring_weight = 0.7
    if state.turn >= int(v["adjacent_win_from_turn"]):
        hold = 0.0  # a Chinese unit there has already won: what is left is the cities
        if edition >= 5:
            ring_weight = 0.0
    held, total = japanese_cities(state)
    cities = _cities_by_time(state) if edition >= 5 else 1 - 2 * held / total
    chinese_reading = ring_weight * hold + (1 - ring_weight) * cities
    return chinese_reading if side == "chinese" else -chinese_reading


PACE = 0.5  # city hexes a Game-Turn the Japanese can be expected to take (edition 5's reading of 4.3)


def _cities_by_time(state: State) -> float:
    """The Chinese reading of 4.3 against the time left, -1 to 1 (edition 5): the Japanese must hold every city
    at a Victory Check by GT 12's, so what counts is the cities they still lack (each counted less the nearer a
    Japanese unit stands to it: 1/2 next to it) against the Victory Checks left, this Game-Turn's included, at
    `PACE` a Game-Turn: 0 when they need exactly that pace, toward 1 as they fall behind it (five cities short with
    one Game-Turn left reads 0.82), -1 when they lack none."""
    v = state.data.params["victory"]
    others = [c for c in sorted(v["cities"]) if c != v["neutral_city"]]
    japanese = [u.hex for u in state.on_map("japanese")]
    need = 0.0
    for city in others:
        if state.controller(city) != "japanese":
            near = min((state.data.map.distance(H(city), H(h)) for h in set(japanese)), default=None)
            need += 1.0 if near is None else 1 - 0.5 * 2 ** (-max(near - 1, 0) / 3)
    if need and v["neutral_city"] not in state.jp_control:
        need += 0.5  # 3513 counts once every other city is theirs: a little more to do
    pace = PACE * max(int(state.data.params["game"]["last_turn"]) - state.turn + 1, 0)
    return (need - pace) / (need + pace) if need + pace else -1.0


def progress(state: State) -> float:
    """The share of the game's time run out, 0 at the start of GT 1 to 1 at the end of the last (5.0): the
    evaluation weighs the victory conditions more as it grows (app/rules/evaluation.py, edition 5)."""
    last = int(state.data.params["game"]["last_turn"])
    return max(0.0, min(1.0, (state.turn - 1) / last))


HELD_SINCE = 9  # the edition whose ring reading credits an empty hex only while a Chinese unit may still move into
# it before the Japanese player-turn, and goes on below -1 (to -3: no hex standing) so weaker reads weaker
HOLDS_BELOW = 1.5  # Japanese strength next to a ring hex, against the Chinese in it, below which it stands (3:2)
FALLS_AT = 3.0  # ... and from which it counts a quarter (3:1)


def _may_still_move(state: State) -> bool:
    """The Chinese may yet move units this player-turn (5.3): before their declaration, or with an Operations Phase
    declared "move" still to come (the current one included; the Reinforcement Phase moves only reinforcements)."""
    if state.side != "chinese" or not state.plan:
        return state.side == "chinese" and state.phase == "declare"
    return "move" in {"ops1": state.plan[:2], "reinf": state.plan[1:2], "ops2": state.plan[1:2]}.get(state.phase, ())


def _ring_in_depth(state: State, ring: set, edition: int = 7) -> float:
    """The Chinese hold on the ring against 4.2 in depth, -1 to 1 (edition 7): as `_ring_hexes`, but a hex holding
    Chinese units counts 1 while the Japanese strength next to it is under 3:2 against theirs, falling to 1/4 at
    3:1 (greedy's Japanese attack at 3:2 or better, and one attack clears a hex), and an empty ring hex the
    Japanese do not hold counts up to 1/2 for the nearest Chinese unit outside the ring, halving every two hexes
    beyond the next (what the Chinese player can put back in it). Edition 4 counted the hexes held alone: in the
    lost games the Chinese attacked Shanghai from the ring until one or two weak hexes were left, and the
    reinforcements from 2410 were never drawn toward it. Edition 9 credits an empty hex only while the Chinese may
    still move into it before the Japanese player-turn (`_may_still_move`), and reads on below -1 (a ring of
    less than one sound hex no longer reads as one of exactly one): edition 8's Chinese, having declared
    fight/fight on GT 3 of s3, read three empty ring hexes as half held, attacked Shanghai from the two they held
    and lost both to the Japanese turn (4.2)."""
    data = state.data
    chinese: dict[str, float] = {}
    japanese: dict[str, float] = {}
    for u in state.on_map():
        into = chinese if u.side == "chinese" else japanese
        into[u.hex] = into.get(u.hex, 0.0) + max(u.cf, 0.5)
    outside = [h for h in chinese if h not in ring]
    n = 0.0
    for h in sorted(ring):
        if h in chinese:
            odds = sum(japanese.get(x, 0.0) for x in neighbours(data, h)) / chinese[h]
            n += 1.0 - 0.75 * min(1.0, max(0.0, odds - HOLDS_BELOW) / (FALLS_AT - HOLDS_BELOW))
        elif h not in japanese and outside and (edition < HELD_SINCE or _may_still_move(state)):
            near = min(data.map.distance(H(h), H(x)) for x in outside)
            n += 0.5 * 2 ** (-max(near - 1, 0) / 2)
    return 1 - 2 ** (2 - n) if edition >= HELD_SINCE else max(-1.0, 1 - 2 ** (2 - n))


AIMS = 3  # moves into the Shanghai ring searched a decision, beside the legal list's (edition 9)


def aims(state: State, side: str, edition: int = 9) -> list[str]:
    """The strong opponent's moves toward what 4.2 needs kept (app/rules/search.py `aims`, the policies' edition 9):
    while 4.2 can end the game, up to `AIMS` Chinese moves that bring a unit into a hex of the Shanghai ring (3512's
    neighbours the Japanese do not occupy) it can reach this phase within the stacking limits (6.2), the ring hexes
    holding the least Chinese strength first (the empty ones), the strongest units first. The legal list offers a
    unit's nearest 40 hexes and the search tries twelve orders of them all, none toward the ring: edition 8's
    Chinese let its hexes fall one by one and lost by 4.2 on GT 3 and 4 (reinforcements never drawn to it)."""
    from app.rules.errors import OrderError
    from app.rules.snc import movement
    from app.rules.snc.combat import stacking_violation

    v = state.data.params["victory"]
    moving = state.mode() == "move" or state.phase == "reinf"  # 5.3, 8.2 a: when Chinese units move at all
    if side != "chinese" or state.turn > int(v["sudden_defeat_until_turn"]) or not moving or state.pending:
        return []
    japanese = state.occupied("japanese")
    ring = [h for h in sorted({v["shanghai"], *neighbours(state.data, v["shanghai"])}) if h not in japanese]
    held = {h: sum(max(u.cf, 0.5) for u in state.at(h) if u.side == "chinese") for h in ring}
    found = []
    for u in state.on_map("chinese"):
        if u.hex in held or u.static or u.done or u.mp_used > 0 or u.id in state.mover:
            continue
        try:
            reached = set(movement.destinations(state, side, movement.may_move(state, side, [u.id])))
        except OrderError:
            continue
        into = [h for h in ring if h in reached and stacking_violation(state, side, h, joining=(u.id,)) is None]
        if into:
            h = min(into, key=lambda x: (held[x], x))
            found.append((held[h], -u.cf, u.id, h))
    found.sort()
    return [f"move {uid} to {h}" for _, _, uid, h in found[:AIMS]]


def _ring_hexes(state: State, ring: set) -> float:
    """The Chinese hold on the ring against 4.2, -1 to 1: -1 with one hex of it holding a Chinese unit (a single
    attack away from defeat), 0 with two, 1/2 with three, 3/4 with four... (1 - 2^(2-n))."""
    n = len({u.hex for u in state.on_map("chinese") if u.hex in ring})
    return 1 - 2 ** (2 - n) if n else -1.0


__all__ = ["H", "aims", "japanese_cities", "progress", "stakes", "standing", "sudden_death", "victory_check"]
