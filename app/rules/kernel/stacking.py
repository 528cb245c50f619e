"""Stacking limits as data, checked by `overstacked` whenever the game says stacking applies.

A `StackLimit` covers one side (or nationalities) and one piece category: a cap on (weighted) units
(SNC 6.2 division equivalents; pieces of ``valued`` words weigh their own printed ``Piece.points``, Formosa
13.1 air points, so a two-point counter fills a two-point limit), caps per class (Formosa 13.1: 4 mobile + 1
static), a cap on units outside the hex's main formation (SNC 6.2 Japanese), pieces that must stand alone in
their category (Formosa 13.1 B-29), and terrain-dependent caps. `Incompatible` forbids two nationalities
sharing a hex (Ichi-Go 6.3, Formosa 13.1).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from app.rules.kernel.hexgrid import Hex
from app.rules.kernel.memo import Kept
from app.rules.kernel.pieces import Piece

__all__ = ["Incompatible", "StackLimit", "StackViolation", "StackingRules", "overstacked", "overstacked_map"]


@dataclass(frozen=True)
class StackLimit:
    case: str
    side: str | None = None  # None: any side
    nationalities: frozenset[str] | None = None  # count only these nationalities (None: all of the side)
    category: str = "ground"
    max_total: float | None = None
    weights: Mapping[str, float] = field(default_factory=dict)  # by kind or tag; first match wins
    default_weight: float = 1.0
    valued: frozenset[str] = frozenset()  # kinds/tags weighing their own Piece.points (Formosa 13.1)
    per_class: Mapping[str, float] = field(default_factory=dict)  # class word (kind or tag) -> cap
    max_outside_main_formation: int | None = None
    alone: frozenset[str] = frozenset()  # kinds/tags that may not share the hex with others of the category
    terrain_max: Mapping[str, float] = field(default_factory=dict)  # terrain -> max_total override
    label: str = ""  # e.g. "Chinese division equivalents"

    def applies_to(self, p: Piece) -> bool:
        if p.category != self.category:
            return False
        if self.side is not None and p.side != self.side:
            return False
        return self.nationalities is None or p.nationality in self.nationalities

    def weight(self, p: Piece) -> float:
        if any(p.is_(word) for word in self.valued):
            return p.points
        for word, w in self.weights.items():
            if p.is_(word):
                return w
        return self.default_weight


@dataclass(frozen=True)
class Incompatible:
    """Pieces of nationality group ``a`` and group ``b`` may never share a hex."""

    case: str
    a: frozenset[str]
    b: frozenset[str]
    categories: frozenset[str] | None = None  # None: all categories


@dataclass(frozen=True)
class StackingRules:
    limits: tuple[StackLimit, ...] = ()
    incompatible: tuple[Incompatible, ...] = ()
    free: frozenset[str] = frozenset({"marker"})  # categories/kinds/tags with no stacking value


@dataclass(frozen=True)
class StackViolation:
    case: str
    message: str
    hex: Hex | None = None
    excess: float = 0  # how far over the limit (units or weight)

    def __str__(self) -> str:
        return f"{self.case}: {self.message}"


def _fmt(x: float) -> str:
    return f"{x:g}"


# The answers by the stack's hex, terrain and what the limits read of each piece (`_stacked_as`), per StackingRules:
# the list of legal orders and the practice opponents ask the same stacks of thousands of positions (CI time)
_ANSWERS = Kept(8192)


def _stacked_as(p: Piece) -> tuple:
    """All a stacking limit reads of a piece: not its id, movement class nor allowance."""
    return p.side, p.kind, p.category, p.nationality, p.formation, p.tags, p.points


def overstacked(
    pieces: Sequence[Piece], rules: StackingRules, at: Hex | None = None, terrain: str | None = None
) -> list[StackViolation]:
    """Every stacking violation among ``pieces`` standing together (in ``at``, of ``terrain``)."""
    key = (at, terrain, tuple(_stacked_as(p) for p in pieces))
    return list(_ANSWERS.answer(rules, key, lambda: tuple(_overstacked(pieces, rules, at, terrain))))


def _overstacked(
    pieces: Sequence[Piece], rules: StackingRules, at: Hex | None, terrain: str | None
) -> list[StackViolation]:
    where = f" in {at}" if at is not None else ""
    counted = [p for p in pieces if not any(p.is_(w) for w in rules.free)]
    out: list[StackViolation] = []
    for lim in rules.limits:
        group = [p for p in counted if lim.applies_to(p)]
        if not group:
            continue
        who = lim.label or f"{lim.side or 'all'} {lim.category}"
        cap = lim.terrain_max.get(terrain, lim.max_total) if terrain is not None else lim.max_total
        if cap is not None:
            total = sum(lim.weight(p) for p in group)
            if total > cap + 1e-9:
                out.append(
                    StackViolation(
                        lim.case, f"{who}: {_fmt(total)} stacked{where}, limit {_fmt(cap)}", at, total - cap
                    )
                )
        for word, class_cap in lim.per_class.items():
            n = sum(lim.weight(p) for p in group if p.is_(word))
            if n > class_cap + 1e-9:
                msg = f"{who}: {_fmt(n)} {word}{where}, limit {_fmt(class_cap)}"
                out.append(StackViolation(lim.case, msg, at, n - class_cap))
        if lim.max_outside_main_formation is not None:
            formations = Counter(p.formation for p in group if p.formation)
            main = max(sorted(formations), key=lambda f: formations[f]) if formations else None
            outside = [p for p in group if not p.formation or p.formation != main]
            if len(outside) > lim.max_outside_main_formation:
                out.append(
                    StackViolation(
                        lim.case,
                        f"{who}: {len(outside)} units{where} "
                        f"{f'outside formation {main}' if main else 'of no formation'}, "
                        f"limit {lim.max_outside_main_formation}",
                        at,
                        len(outside) - lim.max_outside_main_formation,
                    )
                )
        for word in sorted(lim.alone):
            loners = [p for p in group if p.is_(word)]
            if loners and len(group) > 1:
                out.append(
                    StackViolation(
                        lim.case, f"{word} must stand alone among {who}{where}", at, len(group) - 1
                    )
                )
    for inc in rules.incompatible:
        relevant = [p for p in counted if inc.categories is None or p.category in inc.categories]
        if any(p.nationality in inc.a for p in relevant) and any(p.nationality in inc.b for p in relevant):
            a, b = "/".join(sorted(inc.a)), "/".join(sorted(inc.b))
            out.append(StackViolation(inc.case, f"{a} and {b} units may not stack together{where}", at))
    return out


def overstacked_map(
    positions: Mapping[Hex, Sequence[Piece]], rules: StackingRules, terrain_of=None
) -> list[StackViolation]:
    """`overstacked` for every hex; ``terrain_of(hex)`` enables terrain-dependent limits."""
    out: list[StackViolation] = []
    for h in sorted(positions):
        out += overstacked(positions[h], rules, h, terrain_of(h) if terrain_of else None)
    return out
