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
    neutral = state.data.params["victory"]["neutral_city"]
    cities = sorted(state.data.params["victory"]["cities"])
    others = [c for c in cities if c != neutral]
    held = sum(1 for c in others if state.controller(c) == "japanese")
    if held == len(others):
        held += 1
    return held, len(cities)


def victory_check(state: State) -> ev.GameEnded | None:
    """SNC 4.3, Phase II.D: all city hexes Japanese -> Japanese win; at GT 12 otherwise the Chinese win."""
    held, total = japanese_cities(state)
    if held == total:
        return ev.GameEnded("japanese", f"SNC 4.3: the Japanese control all {total} city hexes")
    if state.turn >= int(state.data.params["game"]["last_turn"]):
        return ev.GameEnded("chinese", f"SNC 4.3: the Japanese hold {held} of {total} city hexes at the end of "
                                       f"GT {state.turn}")
    return None


__all__ = ["H", "japanese_cities", "sudden_death", "victory_check"]
