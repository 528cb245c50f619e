"""Advance after combat and exploitation: checking the path an attacking unit proposes.

- `check_advance`: an advance of up to ``max_hexes`` whose first hex is a cleared defending hex and whose
  later hexes are adjacent steps (Formosa 15.8: after DE, one or two hexes, the second any non-enemy hex
  adjacent to the first; other results one hex; Ichi-Go 11.24 and SNC 10.5.3: into the emptied hex). A
  force that attacked from off the map (an amphibious landing, SNC 8.4.1) has no origin hex: its first hex
  is the cleared one and only the later steps are walked.
- `exploitation_distance`: Dai Senso 4.2.8, hexes the defender actually retreated into plus retreat and
  attrition results it left unsatisfied, capped at the unit's movement allowance.
- `check_exploitation`: Dai Senso 4.2.8 path: starts in the defending hex, one adjacent hex at a time, no
  farther than the distance, and ends at once where a stop rule says so (EZOC without a friend; across an
  all-sea, beachhead, mountain or strait hexside).

The game passes terrain, occupancy and ZOC as predicates, so these stay pure.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from app.rules.kernel.errors import RuleViolation
from app.rules.kernel.hexgrid import Grid, Hex
from app.rules.kernel.mapfile import GameMap

__all__ = ["check_advance", "check_exploitation", "exploitation_distance"]


def _walk(
    grid: Grid | GameMap, origin: Hex, path: Sequence[Hex], enterable: Callable[[Hex, Hex], bool], case: str
) -> None:
    prev = origin
    for h in path:
        if not grid.adjacent(prev, h):
            raise RuleViolation(case, f"{h} is not adjacent to {prev}")
        if not enterable(h, prev):
            raise RuleViolation(case, f"{h} cannot be entered from {prev}")
        prev = h


def check_advance(
    grid: Grid | GameMap,
    origin: Hex | None,
    path: Sequence[Hex],
    cleared: Collection[Hex],
    max_hexes: int,
    enterable: Callable[[Hex, Hex], bool],
    case: str,
) -> tuple[Hex, ...]:
    """Validate the advance of a unit standing in ``origin`` (None: it comes from off the map, as in a
    landing); returns the path. ``cleared``: defending hexes left empty (Formosa 15.8 allows any of
    several); ``enterable(hex, previous)`` covers terrain, enemy units, hexsides and stacking."""
    path = tuple(path)
    if not path:
        return path
    if not cleared:
        raise RuleViolation(case, "no defending hex was cleared: no advance")
    if path[0] not in cleared:
        shown = ", ".join(str(h) for h in sorted(cleared))
        raise RuleViolation(case, f"an advance enters a cleared defending hex first ({shown}); {path[0]} is "
                                  "not one: name the cleared hex as the first hex of the advance")
    if len(path) > max_hexes:
        raise RuleViolation(case, f"an advance here may enter at most {max_hexes} hex(es), {len(path)} given")
    if len(set(path)) != len(path):
        raise RuleViolation(case, "an advance may not enter the same hex twice")
    if origin is None:
        _walk(grid, path[0], path[1:], enterable, case)
    else:
        _walk(grid, origin, path, enterable, case)
    return path


def exploitation_distance(retreated_hexes: int, unsatisfied: int, movement_allowance: int) -> int:
    """Dai Senso 4.2.8: ``retreated_hexes`` (different hexes the defender was placed in) plus results it did
    not satisfy, at most the unit's movement allowance; the defending hex counts as one of them."""
    if min(retreated_hexes, unsatisfied, movement_allowance) < 0:
        raise ValueError("hex counts and movement allowance cannot be negative")
    return min(retreated_hexes + unsatisfied, movement_allowance)


def check_exploitation(
    grid: Grid,
    origin: Hex,
    defender_hex: Hex,
    path: Sequence[Hex],
    distance: int,
    enterable: Callable[[Hex, Hex], bool],
    stops: Callable[[Hex, Hex], bool],
    case: str,
) -> tuple[Hex, ...]:
    """Validate the exploitation path of a unit standing in ``origin`` (module docstring). ``stops(hex,
    previous)`` says it must stop on entering ``hex`` (EZOC without a friend, or the hexside crossed)."""
    path = tuple(path)
    if not path:
        return path
    if path[0] != defender_hex:
        raise RuleViolation(case, f"exploitation starts in the defending hex {defender_hex}, not {path[0]}")
    if len(path) > distance:
        raise RuleViolation(case, f"exploitation distance is {distance}, the path enters {len(path)} hexes")
    if len(set(path)) != len(path):
        raise RuleViolation(case, "exploitation may not enter the same hex twice")
    _walk(grid, origin, path, enterable, case)
    prev = origin
    for i, h in enumerate(path):
        if stops(h, prev) and i != len(path) - 1:
            raise RuleViolation(case, f"the unit must stop in {h}")
        prev = h
    return path
