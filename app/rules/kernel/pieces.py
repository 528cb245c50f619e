"""`Piece`: the kernel's view of a counter on the map. Each game maps its own unit state onto it."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from app.rules.kernel.hexgrid import Hex

__all__ = ["Piece", "Positions", "occupied_by", "sides_in"]


@dataclass(frozen=True)
class Piece:
    """A counter as the geometry rules see it. Every word is game vocabulary, never kernel vocabulary.

    kind: stacking/ZOC class ("regiment", "elite-division", "garrison", "b29"...).
    category: "ground", "air", "naval", "marker"... (which stacking limit and which ZOC rule applies).
    nationality: for mixed sides (US/CW, US/Chinese); defaults to the side.
    formation: parent formation (e.g. a division) for formation-based stacking limits.
    move_class: key into the game's movement cost tables ("japanese-infantry", "mechanized").
    allowance: movement points available this phase.
    tags: free flags ("static", "guerrilla", "hq"...).
    points: the value printed on the counter where a stacking limit counts it (Formosa 13.1: air points).
    """

    id: str
    side: str
    kind: str = "unit"
    category: str = "ground"
    nationality: str = ""
    formation: str = ""
    move_class: str = "default"
    allowance: float = 0
    tags: frozenset[str] = field(default_factory=frozenset)
    points: float = 1

    def __post_init__(self) -> None:
        if not self.nationality:
            object.__setattr__(self, "nationality", self.side)
        if not isinstance(self.tags, frozenset):
            object.__setattr__(self, "tags", frozenset(self.tags))

    def is_(self, word: str) -> bool:
        """True if ``word`` is this piece's kind, category, nationality or one of its tags."""
        return word == self.kind or word == self.category or word == self.nationality or word in self.tags


Positions = Mapping[Hex, Sequence[Piece]]


def sides_in(pieces: Iterable[Piece], category: str | None = "ground") -> frozenset[str]:
    return frozenset(p.side for p in pieces if category is None or p.category == category)


def occupied_by(positions: Positions, side: str, category: str | None = "ground") -> frozenset[Hex]:
    """Hexes holding at least one ``side`` piece of ``category`` (None: any category)."""
    return frozenset(
        h
        for h, ps in positions.items()
        if any(p.side == side and (category is None or p.category == category) for p in ps)
    )
