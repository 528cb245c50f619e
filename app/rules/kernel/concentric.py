"""Concentric (surrounding) attack detection, in each game's variant, as data.

Attacking hexes are placed on the defender's ring by direction index (0-5, N..NW, `Grid.all_neighbours`
order), so the test is pure index arithmetic and map edges need no special case: an edge hex simply has
fewer positions an attacker can stand on.

Patterns (`ConcentricRule.pattern`):

- ``"opposite_or_alternating"`` (Ichi-Go 11.15, SNC 10.4.2): attackers in two opposite hexes, or in three
  hexes with one hex between each, or in more than three hexes. Ichi-Go 11.15's edge example (1601, 1702,
  1801 against 1701) is three contiguous hexes: no bonus.
- ``"all_six_covered"`` (Formosa 15.4.1, as ruled): every hex around the defender is occupied by an
  attacker or adjacent to an attacker's hex (ring neighbours are adjacent to each other).
- ``"all_six_occupied"``: attackers in all six surrounding hexes (the strict reading of Formosa 15.4.1).

`concentric_shift` adds the rest of the data: the shift per attacking side (Ichi-Go 11.15: Japanese 1R,
US 2R, Chinese none) and defender terrains that deny it (Ichi-Go 11.14, SNC 10.4.2: cities).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from app.rules.kernel.hexgrid import Grid, Hex
from app.rules.kernel.shifts import Shift

__all__ = ["PATTERNS", "ConcentricRule", "attack_directions", "concentric_shift", "is_concentric"]

PATTERNS = ("opposite_or_alternating", "all_six_covered", "all_six_occupied")


def attack_directions(grid: Grid, defender: Hex, attacker_hexes: Iterable[Hex]) -> frozenset[int]:
    """Direction indices (0-5) of the attacking hexes around ``defender``; ValueError if one is not
    adjacent."""
    dirs = set()
    for h in attacker_hexes:
        d = grid.direction(defender, h)
        if d is None:
            raise ValueError(f"attacking hex {h} is not adjacent to the defending hex {defender}")
        dirs.add(d)
    return frozenset(dirs)


def is_concentric(pattern: str, directions: Iterable[int]) -> bool:
    """Whether attackers at these ring positions satisfy the pattern (see module docstring)."""
    s = frozenset(directions)
    if not s <= set(range(6)):
        raise ValueError(f"directions must be 0..5, got {sorted(s)}")
    if pattern == "opposite_or_alternating":
        if len(s) > 3:
            return True
        if any(d in s and (d + 3) % 6 in s for d in range(3)):
            return True
        return s in ({0, 2, 4}, {1, 3, 5})
    if pattern == "all_six_covered":
        return all(d in s or (d + 1) % 6 in s or (d - 1) % 6 in s for d in range(6))
    if pattern == "all_six_occupied":
        return len(s) == 6
    raise ValueError(f"unknown concentric pattern {pattern!r}: expected one of {', '.join(PATTERNS)}")


@dataclass(frozen=True)
class ConcentricRule:
    """``pattern``; ``shifts``: attacking side -> columns right (sides absent get nothing);
    ``denied_terrain``: defender hex terrains that never allow the bonus; ``case`` to cite."""

    pattern: str
    shifts: Mapping[str, int]
    case: str
    denied_terrain: frozenset[str] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        if self.pattern not in PATTERNS:
            raise ValueError(
                f"unknown concentric pattern {self.pattern!r}: expected one of {', '.join(PATTERNS)}"
            )

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ConcentricRule:
        """``{"pattern": ..., "shifts": {"japanese": 1, "us": 2}, "case": "Ichi-Go 11.15",
        "denied_terrain": ["city"]}``."""
        return cls(
            data["pattern"],
            dict(data["shifts"]),
            data.get("case", ""),
            frozenset(data.get("denied_terrain", ())),
        )


def concentric_shift(
    rule: ConcentricRule,
    grid: Grid,
    defender: Hex,
    attacker_hexes: Iterable[Hex],
    side: str,
    defender_terrain: Iterable[str] = (),
) -> Shift | None:
    """The concentric shift this attack earns, or None."""
    amount = rule.shifts.get(side, 0)
    if amount == 0 or rule.denied_terrain & set(defender_terrain):
        return None
    if not is_concentric(rule.pattern, attack_directions(grid, defender, attacker_hexes)):
        return None
    return Shift(amount, rule.case, "concentric attack", "concentric")
