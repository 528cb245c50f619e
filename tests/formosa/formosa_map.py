"""Places on the Formosa map the engine tests need, found from the data (so a replaced map file still serves)."""
from __future__ import annotations

from app.rules.formosa import GAME
from app.rules.kernel.hexgrid import Hex

D = GAME.data({})
M = D.map


def plain(h: Hex, terrain: str = "open") -> bool:
    return D.is_land(h) and M.terrain_of(h) == terrain and not M.features_of(h)


def clear_sides(h: Hex) -> bool:
    return all(not M.hexside_features(h, n) for n in M.neighbours(h))


def ring(terrain: str = "open") -> tuple[str, list[str]]:
    """A hex of `terrain` without features or hexside features, all six neighbours land."""
    for h in sorted(M.hexes()):
        if plain(h, terrain) and clear_sides(h) and len(M.neighbours(h)) == 6 and all(
                D.is_land(n) for n in M.neighbours(h)):
            return str(h), [str(n) for n in M.neighbours(h)]
    raise LookupError(f"no {terrain} hex ringed by land")


def pair() -> tuple[str, str, list[str]]:
    """Two adjacent plain open hexes without hexside features and the plain open hexes next to both."""
    for h in sorted(M.hexes()):
        if not (plain(h) and clear_sides(h)):
            continue
        for n in M.neighbours(h):
            if plain(n) and clear_sides(n):
                common = [str(c) for c in M.neighbours(h) if c in M.neighbours(n) and D.is_land(c)]
                if len(common) == 2:
                    return str(h), str(n), common
    raise LookupError("no pair")


def river_crossing(steps: int, move_class: str = "non-mechanized") -> list[str]:
    """A path of `steps` hexes at 1 MP each, then an unbridged river into an open hex (12.1's example): the
    path's start first, the hex across the river last."""
    from app.rules.kernel.movement import Mover, step_cost

    def cost(a: Hex, b: Hex) -> float:
        try:
            return step_cost(M, D.movement, Mover.single(a, 99, move_class), a, b)
        except Exception:
            return -1

    def back(path: list[Hex]) -> list[Hex] | None:
        if len(path) == steps + 1:
            return path
        for p in M.neighbours(path[0]):
            if p not in path and D.is_land(p) and cost(p, path[0]) == 1:
                found = back([p, *path])
                if found:
                    return found
        return None

    for a in sorted(M.hexes()):
        for b in M.neighbours(a):
            if "river" in M.hexside_features(a, b) and plain(b) and D.is_land(a) and cost(a, b) == 2:
                found = back([a])
                if found:
                    return [str(h) for h in (*found, b)]
    raise LookupError("no river crossing")
