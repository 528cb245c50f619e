"""Places on the Formosa map the engine tests need, found from the data (so a replaced map file still serves)."""
from __future__ import annotations

from app.rules.formosa import GAME
from app.rules.kernel.hexgrid import Hex
from tests.formosa.formosa_given import given, play

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


def shore(seas: int = 1) -> tuple[str, list[str]]:
    """An open coastal hex without features but a beach (an opposed landing's target, 10.1 item 3) and `seas` of
    the all-sea hexes next to it."""
    for h in sorted(D.open_coastal()):
        near = [str(n) for n in M.neighbours(h) if not D.is_land(n)]
        if not M.features_of(h) - {"beach"} and len(near) >= seas:
            return str(h), near[:seas]
    raise LookupError("no shore")


def gauntlet() -> tuple[str, str, str, str, str]:
    """(start, first, second, beyond, enemy): a path of open 1-MP hexes start-first-second-beyond in which only
    first and second are next to the enemy's hex (two EZOC hexes in a row, 14.0)."""
    from app.rules.kernel.movement import Mover, step_cost

    def cost(a: Hex, b: Hex) -> float:
        try:
            return step_cost(M, D.movement, Mover.single(a, 99, "non-mechanized"), a, b)
        except Exception:
            return -1

    for first in sorted(M.hexes()):
        if not plain(first):
            continue
        for second in M.neighbours(first):
            if not plain(second) or cost(first, second) != 1:
                continue
            for enemy in M.neighbours(first):
                if enemy not in M.neighbours(second) or not D.is_land(enemy):
                    continue
                away = set(M.neighbours(enemy)) | {enemy}
                starts = [s for s in M.neighbours(first) if plain(s) and s not in away and cost(s, first) == 1]
                beyond = [b for b in M.neighbours(second) if plain(b) and b not in away and cost(second, b) == 1]
                if starts and beyond:
                    return str(starts[0]), str(first), str(second), str(beyond[0]), str(enemy)
    raise LookupError("no gauntlet")


def road_port() -> str:
    """A port on a road or railroad (22.0's start for a motorized move from a functional port)."""
    return str(sorted(h for h in D.ports() if M.is_road_hex(h) or M.is_rail_hex(h))[0])


def rough_shore() -> tuple[str, str]:
    """A coastal hex that is neither open nor a port (rough, mountain or mud flats: 22.0's ranger coast) and an
    all-sea hex next to it."""
    for h in sorted(D.land()):
        if D.is_coastal(h) and M.terrain_of(h) != "open" and h not in D.ports():
            return str(h), str(next(n for n in M.neighbours(h) if not D.is_land(n)))
    raise LookupError("no rough shore")


def worth(h: Hex) -> int:
    """The Allied VP a hex's objectives give (4.2; its ports and airfield only with an engineer base)."""
    values = D.charts["victory"]
    return sum(values[o.replace("-", "_")] for o in D.objectives(h))


def holding(target: int, exclude: tuple[str, ...] = ()) -> dict[str, str]:
    """US units on objective hexes (not those in `exclude`) worth exactly `target` VP: engineers, to be put on
    their base side, in the port and airfield hexes, infantry elsewhere; never every port and airfield hex (no
    sudden death, 4.1)."""
    engineers = [u.id for u in D.units if u.side == "allied" and u.type == "engineer" and u.nationality == "us"]
    infantry = [u.id for u in D.units if u.side == "allied" and u.type == "infantry" and u.nationality == "us"]
    units, left = {}, target
    for h in sorted(M.hexes(), key=lambda h: -worth(h)):
        v = worth(h)
        if 0 < v <= left and str(h) not in exclude:
            needs_base = bool(set(D.objectives(h)) & {"major-port", "minor-port", "airfield"})
            pool = engineers if needs_base else infantry
            units[pool.pop()] = str(h)
            left -= v
        if left == 0:
            return units
    raise LookupError(target)


def position(**extra) -> dict:
    """A Formosa position file's settings (docs/custom-positions.md): the Allied Movement Phase of GT 3 with a US
    regiment beside a Japanese one on open ground (`ring`), an engineer with its base on a port airfield, one unit
    eliminated, one Japanese unit revealed, LP, TAC and an amphibious marker; `extra` replaces any of them."""
    x, around = ring("open")
    field = next(str(h) for h in sorted(D.airfields() & D.ports()))
    base = {"turn": 3, "phase": "allied-movement",
            "units": {"us-7-17": around[0], "us-eng-1": field, "jp-9-7": x, "jp-9-19": around[3]},
            "where": {"us-7-32": "allied-eliminated"}, "revealed": ["jp-9-19"], "bases": ["us-eng-1"],
            "lp": {"allied": 7, "japanese": 4}, "air": {"allied-tac": 6}, "markers": {"amphibious": 1},
            "amoy_turn": 2}
    return {**base, **extra}


def two_over():
    """Three Japanese regiments in the open ring's hex and two more moved in: two over the limit of three mobile
    units, the overstack owed (13.2, 13.3)."""
    x, around = ring("open")
    units = {f"jp-9-{n}": x for n in (7, 19, 35)} | {"jp-12-24": around[0], "jp-12-46": around[1]}
    state = given(step="japanese-movement", turn=1, units=units)
    for uid in ("jp-12-24", "jp-12-46"):
        state = play(state, "japanese", f"move {uid} {x}")
    state = play(state, "japanese", "end")
    assert state.pending[0]["kind"] == "overstack"
    return state
