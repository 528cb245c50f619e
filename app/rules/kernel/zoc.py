"""Zones of control: which hexes a stack projects ZOC into, with the game's exceptions given as data.

Examples of the data: SNC 7.1 (no ZOC into cities, across all-sea/all-lake hexsides or the navigable Huangpu;
no Chinese ZOC into Japanese-held coastal hexes inside the naval gunfire line); Formosa 14.0 (guerrillas,
air, naval units and markers exert none; ZOC extend into enemy-occupied hexes); Ichi-Go has no ZOC
(``enabled=False``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from app.rules.kernel.hexgrid import Hex
from app.rules.kernel.mapfile import GameMap
from app.rules.kernel.pieces import Piece, Positions

__all__ = ["OccupiedException", "ZocRules", "enemy_zoc", "exerts_zoc", "zoc_hexes", "zoc_of_side"]


@dataclass(frozen=True)
class OccupiedException:
    """ZOC of ``side`` does not extend into hexes tagged ``tag`` while enemy ground units occupy them."""

    side: str
    tag: str
    case: str = ""


@dataclass(frozen=True)
class ZocRules:
    enabled: bool = True
    case: str = ""
    categories: frozenset[str] = frozenset({"ground"})  # piece categories that exert ZOC
    exempt: frozenset[str] = frozenset()  # kinds/tags/nationalities that exert none (e.g. "guerrilla")
    blocked_terrain: frozenset[str] = frozenset()  # no ZOC into hexes of this terrain
    blocked_features: frozenset[str] = frozenset()  # no ZOC into hexes with these features (SNC 7.1: city)
    blocked_tags: frozenset[str] = frozenset()  # no ZOC into hexes with these tags
    blocked_hexsides: frozenset[str] = frozenset()  # no ZOC across these hexside features
    into_enemy_occupied: bool = True
    occupied_exceptions: tuple[OccupiedException, ...] = ()


def exerts_zoc(piece: Piece, rules: ZocRules) -> bool:
    if not rules.enabled or piece.category not in rules.categories:
        return False
    return not any(piece.is_(word) for word in rules.exempt)


def zoc_hexes(
    gmap: GameMap,
    at: Hex,
    pieces: Iterable[Piece],
    rules: ZocRules,
    positions: Positions | None = None,
    is_enemy: Callable[[str, str], bool] = str.__ne__,
) -> frozenset[Hex]:
    """Hexes into which the stack ``pieces`` standing in ``at`` projects ZOC (``at`` itself excluded).

    ``positions`` (all pieces on the map) is needed only for occupancy-dependent rules.
    """
    projecting = [p for p in pieces if exerts_zoc(p, rules)]
    if not projecting:
        return frozenset()
    sides = {p.side for p in projecting}
    out = set()
    for n in gmap.neighbours(at):
        if gmap.terrain_of(n) in rules.blocked_terrain:
            continue
        if rules.blocked_features and gmap.features_of(n) & rules.blocked_features:
            continue
        if rules.blocked_tags and gmap.tags_of(n) & rules.blocked_tags:
            continue
        if rules.blocked_hexsides and gmap.hexside_features(at, n) & rules.blocked_hexsides:
            continue
        if positions is not None and (not rules.into_enemy_occupied or rules.occupied_exceptions):
            occupants = {p.side for p in positions.get(n, ()) if p.category == "ground"}
            if all(_occupancy_blocks(gmap, rules, s, n, occupants, is_enemy) for s in sides):
                continue
        out.add(n)
    return frozenset(out)


def _occupancy_blocks(
    gmap: GameMap,
    rules: ZocRules,
    side: str,
    n: Hex,
    occupants: set[str],
    is_enemy: Callable[[str, str], bool],
) -> bool:
    if not any(is_enemy(side, o) for o in occupants):
        return False
    if not rules.into_enemy_occupied:
        return True
    return any(ex.side == side and gmap.has_tag(n, ex.tag) for ex in rules.occupied_exceptions)


def zoc_of_side(gmap: GameMap, positions: Positions, side: str, rules: ZocRules) -> frozenset[Hex]:
    """Every hex in the ZOC of ``side``'s pieces."""
    out: set[Hex] = set()
    for h, ps in positions.items():
        mine = [p for p in ps if p.side == side]
        if mine:
            out |= zoc_hexes(gmap, h, mine, rules, positions)
    return frozenset(out)


def enemy_zoc(
    gmap: GameMap,
    positions: Positions,
    side: str,
    rules: ZocRules,
    is_enemy: Callable[[str, str], bool] = str.__ne__,
) -> frozenset[Hex]:
    """Hexes in an enemy ZOC (EZOC) as seen by ``side``."""
    out: set[Hex] = set()
    for h, ps in positions.items():
        theirs = [p for p in ps if is_enemy(side, p.side)]
        if theirs:
            out |= zoc_hexes(gmap, h, theirs, rules, positions, is_enemy)
    return frozenset(out)
