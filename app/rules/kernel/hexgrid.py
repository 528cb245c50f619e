"""Hex geometry for column-offset ("flat-top") hex maps labelled XXYY.

Model: Red Blob Games' offset <-> cube conversion. Offset coordinates (`Hex`) are what the printed map
shows; cube coordinates are used for distance, lines and rings. A map declares its column parity:

- ``"even-low"``: even columns sit half a hex toward higher rows (Ichi-Go, SNC; seed catalog 0.2).
- ``"odd-low"``: odd columns sit half a hex toward higher rows (Dai Senso).

Rows grow "south" (down the printed map), columns grow "east". Directions are indexed in the fixed order
N, NE, SE, S, SW, NW (0..5).

A game printed on several map sheets prefixes each label with its sheet's letters (Dai Senso's West and East
maps: "w4520", "e3609"). A `Hex` carries that prefix as ``sheet`` ("" for a one-sheet game) and a `Grid` is
one sheet: its neighbours stay on it, and a distance between two sheets is an error (they join nowhere unless
a game says so).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache

__all__ = ["DIRECTIONS", "PARITIES", "Grid", "Hex", "Hexside"]

DIRECTIONS: tuple[str, ...] = ("N", "NE", "SE", "S", "SW", "NW")
PARITIES: tuple[str, ...] = ("even-low", "odd-low")

# Cube direction vectors (q, r, s) in the order N, NE, SE, S, SW, NW (flat-top layout).
_CUBE_DIRS: tuple[tuple[int, int, int], ...] = (
    (0, -1, 1),
    (1, -1, 0),
    (1, 0, -1),
    (0, 1, -1),
    (-1, 1, 0),
    (-1, 0, 1),
)
# Offset deltas (dcol, drow) in the same order, for a column that sits high and one that sits low.
_HIGH_COL_DELTAS = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 0), (-1, -1))
_LOW_COL_DELTAS = ((0, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0))

_LABEL_RE = re.compile(r"^([a-z]*)([0-9]{4,})$")
PARSED_LABELS = 65536  # labels Hex.parse keeps: far more than the hexes of every map loaded at once
_SHEET_RE = re.compile(r"^[a-z]*$")


@dataclass(frozen=True, order=True, slots=True)
class Hex:
    """A hex in offset coordinates, as printed on the map (column, row), on map sheet ``sheet`` ("" when the
    game has one sheet)."""

    col: int
    row: int
    sheet: str = ""
    _hash: int = field(default=0, init=False, repr=False, compare=False)
    _label: str = field(default="", init=False, repr=False, compare=False)  # str(), found the first time asked

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash((self.col, self.row, self.sheet)))

    def __hash__(self) -> int:  # found once: hexes are dictionary keys and set members in every search
        return self._hash

    def __eq__(self, other: object) -> bool:  # the fields compared (the generated one builds two tuples a call)
        if other.__class__ is not Hex:
            return NotImplemented
        return self is other or (self._hash == other._hash and self.col == other.col and self.row == other.row
                                 and self.sheet == other.sheet)

    def __reduce__(self):  # a copy made elsewhere (another process's string hashes) finds its own hash
        return (Hex, (self.col, self.row, self.sheet))

    @classmethod
    def parse(cls, text: str) -> Hex:
        """Parse an ``XXYY`` label ("3512", "0202"), optionally after its sheet's letters ("w4520"); longer
        even-length labels split in half ("101203"). A hex never changes, so each label is parsed once."""
        if not isinstance(text, str):
            raise ValueError(f"hex label must be a string, got {type(text).__name__}: {text!r}")
        return _parse_label(text)

    def __str__(self) -> str:  # kept: games that keep positions by label ask it millions of times a game
        label = self._label
        if not label:
            label = _label(self.col, self.row, self.sheet)
            object.__setattr__(self, "_label", label)
        return label


def _label(col: int, row: int, sheet: str) -> str:
    """A hex's label as printed: "3512", "w4520"; wider where a coordinate needs it; "(c,r)" off the grid."""
    if 0 <= col < 100 and 0 <= row < 100:  # the common case, four digits
        return f"{sheet}{col:02d}{row:02d}"
    if col < 0 or row < 0:
        return f"{sheet}({col},{row})"
    width = max(2, len(str(col)), len(str(row)))
    return f"{sheet}{col:0{width}d}{row:0{width}d}"


@dataclass(frozen=True, order=True, slots=True)
class Hexside:
    """The side shared by two adjacent hexes; an unordered pair stored low-high."""

    a: Hex
    b: Hex

    def __post_init__(self) -> None:
        if self.a == self.b:
            raise ValueError(f"a hexside needs two different hexes, got {self.a} twice")
        if self.b < self.a:
            lo, hi = self.b, self.a
            object.__setattr__(self, "a", lo)
            object.__setattr__(self, "b", hi)

    @classmethod
    def of(cls, a: Hex | str, b: Hex | str) -> Hexside:
        """The hexside between ``a`` and ``b`` (either order). `Grid.hexside` also checks adjacency."""
        ha = a if isinstance(a, Hex) else Hex.parse(a)
        hb = b if isinstance(b, Hex) else Hex.parse(b)
        return cls(ha, hb)

    @classmethod
    def parse(cls, text: str) -> Hexside:
        """Parse ``"3510/3511"``."""
        parts = text.split("/") if isinstance(text, str) else []
        if len(parts) != 2:
            raise ValueError(f"invalid hexside {text!r}: expected 'XXYY/XXYY', e.g. '3510/3511'")
        return cls.of(parts[0], parts[1])

    def hexes(self) -> tuple[Hex, Hex]:
        return (self.a, self.b)

    def other(self, h: Hex) -> Hex:
        """The hex on the other side from ``h``."""
        if h == self.a:
            return self.b
        if h == self.b:
            return self.a
        raise ValueError(f"{h} is not on hexside {self}")

    def __str__(self) -> str:
        return f"{self.a}/{self.b}"


class Grid:
    """A rectangular column-offset hex grid with declared parity and inclusive column/row ranges; ``sheet`` is
    the prefix its labels carry ("" for a one-sheet game)."""

    __slots__ = ("parity", "cols", "rows", "sheet", "_low_parity", "_nbr_cache")

    def __init__(self, parity: str, cols: tuple[int, int], rows: tuple[int, int], sheet: str = "") -> None:
        if not isinstance(sheet, str) or not _SHEET_RE.match(sheet):
            raise ValueError(f"invalid map sheet prefix {sheet!r}: expected lowercase letters, e.g. 'w'")
        if parity not in PARITIES:
            raise ValueError(f"unknown grid parity {parity!r}: expected one of {', '.join(PARITIES)}")
        c0, c1 = cols
        r0, r1 = rows
        if c0 > c1 or r0 > r1:
            raise ValueError(f"empty grid: cols {cols}, rows {rows} (ranges are inclusive, low first)")
        self.parity = parity
        self.cols = (int(c0), int(c1))
        self.rows = (int(r0), int(r1))
        self.sheet = sheet
        self._low_parity = 0 if parity == "even-low" else 1
        self._nbr_cache: dict[Hex, tuple[Hex, ...]] = {}

    def __repr__(self) -> str:
        sheet = f", sheet={self.sheet!r}" if self.sheet else ""
        return f"Grid({self.parity!r}, cols={self.cols}, rows={self.rows}{sheet})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Grid):
            return NotImplemented
        return (self.parity, self.cols, self.rows, self.sheet) == (other.parity, other.cols, other.rows, other.sheet)

    def __hash__(self) -> int:
        return hash((self.parity, self.cols, self.rows, self.sheet))

    # -- membership ---------------------------------------------------------------------------------------
    def on_map(self, h: Hex) -> bool:
        return (
            h.sheet == self.sheet
            and self.cols[0] <= h.col <= self.cols[1]
            and self.rows[0] <= h.row <= self.rows[1]
        )

    def hex(self, col: int, row: int) -> Hex:
        """The hex at (col, row) on this grid's sheet, on the map or not."""
        return Hex(col, row, self.sheet)

    def hexes(self) -> Iterator[Hex]:
        """Every on-map hex, column by column (each the one `Hex.parse` gives for its label: `_interned`)."""
        for c in range(self.cols[0], self.cols[1] + 1):
            for r in range(self.rows[0], self.rows[1] + 1):
                yield _interned(Hex(c, r, self.sheet))

    def is_edge(self, h: Hex) -> bool:
        return bool(self.edge_sides(h))

    def edge_sides(self, h: Hex) -> frozenset[str]:
        """Map edges ("north", "south", "east", "west") an on-map hex lies on (first/last row or column)."""
        if not self.on_map(h):
            return frozenset()
        sides = set()
        if h.row == self.rows[0]:
            sides.add("north")
        if h.row == self.rows[1]:
            sides.add("south")
        if h.col == self.cols[0]:
            sides.add("west")
        if h.col == self.cols[1]:
            sides.add("east")
        return frozenset(sides)

    # -- coordinates --------------------------------------------------------------------------------------
    def _is_low(self, col: int) -> bool:
        return (col & 1) == self._low_parity

    def to_cube(self, h: Hex) -> tuple[int, int, int]:
        q = h.col
        if self._low_parity == 0:  # even columns shoved toward higher rows (Red Blob "even-q")
            r = h.row - (q + (q & 1)) // 2
        else:  # odd columns shoved toward higher rows (Red Blob "odd-q")
            r = h.row - (q - (q & 1)) // 2
        return (q, r, -q - r)

    def from_cube(self, q: int, r: int, s: int) -> Hex:
        if q + r + s != 0:
            raise ValueError(f"cube coordinates must sum to 0, got ({q}, {r}, {s})")
        if self._low_parity == 0:
            row = r + (q + (q & 1)) // 2
        else:
            row = r + (q - (q & 1)) // 2
        return Hex(q, row, self.sheet)

    # -- adjacency ----------------------------------------------------------------------------------------
    def all_neighbours(self, h: Hex) -> list[Hex]:
        """The six surrounding positions in the order N, NE, SE, S, SW, NW, on the map or not."""
        deltas = _LOW_COL_DELTAS if self._is_low(h.col) else _HIGH_COL_DELTAS
        return [Hex(h.col + dc, h.row + dr, h.sheet) for dc, dr in deltas]

    def neighbours(self, h: Hex) -> list[Hex]:
        """On-map neighbours in the order N, NE, SE, S, SW, NW (missing directions skipped)."""
        cached = self._nbr_cache.get(h)
        if cached is None:
            cached = tuple(_interned(n) for n in self.all_neighbours(h) if self.on_map(n))
            self._nbr_cache[h] = cached
        return list(cached)

    def direction(self, a: Hex, b: Hex) -> int | None:
        """Index 0-5 (N, NE, SE, S, SW, NW) of ``b`` seen from ``a`` if they are adjacent, else None."""
        if a.sheet != b.sheet:
            return None
        deltas = _LOW_COL_DELTAS if self._is_low(a.col) else _HIGH_COL_DELTAS
        d = (b.col - a.col, b.row - a.row)
        for i, delta in enumerate(deltas):
            if delta == d:
                return i
        return None

    def adjacent(self, a: Hex, b: Hex) -> bool:
        return self.direction(a, b) is not None

    def hexside(self, a: Hex, b: Hex) -> Hexside:
        """The hexside between two adjacent hexes; ValueError naming both if they are not adjacent."""
        if not self.adjacent(a, b):
            raise ValueError(f"{a} and {b} are not adjacent on a {self.parity} grid: they share no hexside")
        return Hexside(a, b)

    def hexsides_of(self, h: Hex) -> list[Hexside]:
        """The hexsides of ``h`` toward its on-map neighbours."""
        return [Hexside(h, n) for n in self.neighbours(h)]

    # -- metric -------------------------------------------------------------------------------------------
    def distance(self, a: Hex, b: Hex) -> int:
        """Hexes counted from ``a`` to ``b`` (``a`` excluded, ``b`` included); 0 for the same hex. ValueError for
        hexes on different sheets: no distance joins them."""
        if a.sheet != b.sheet:
            raise ValueError(f"{a} and {b} lie on different map sheets: no distance joins them")
        aq, ar, as_ = self.to_cube(a)
        bq, br, bs = self.to_cube(b)
        return max(abs(aq - bq), abs(ar - br), abs(as_ - bs))

    def ring(self, h: Hex, r: int) -> list[Hex]:
        """On-map hexes at exactly distance ``r`` from ``h``, walking the ring clockwise from the N corner."""
        if r < 0:
            raise ValueError(f"ring radius must be >= 0, got {r}")
        if r == 0:
            return [h] if self.on_map(h) else []
        q, rr, s = self.to_cube(h)
        dq, dr, ds = _CUBE_DIRS[0]  # start at the N corner, then walk clockwise corner to corner
        cq, cr, cs = q + dq * r, rr + dr * r, s + ds * r
        out: list[Hex] = []
        for side in range(6):
            sq, sr, ss = _CUBE_DIRS[(side + 2) % 6]
            for _ in range(r):
                cand = self.from_cube(cq, cr, cs)
                if self.on_map(cand):
                    out.append(cand)
                cq, cr, cs = cq + sq, cr + sr, cs + ss
        return out

    def within(self, h: Hex, r: int) -> list[Hex]:
        """On-map hexes at distance 0..r from ``h`` (``h`` first, then ring by ring)."""
        out: list[Hex] = []
        for k in range(r + 1):
            out.extend(self.ring(h, k))
        return out

    def line(self, a: Hex, b: Hex) -> list[Hex]:
        """Hexes on the straight line from ``a`` to ``b`` inclusive (cube lerp with an epsilon nudge)."""
        n = self.distance(a, b)
        if n == 0:
            return [a]
        aq, ar, as_ = self.to_cube(a)
        bq, br, bs = self.to_cube(b)
        eps = (1e-6, 2e-6, -3e-6)
        aq, ar, as_ = aq + eps[0], ar + eps[1], as_ + eps[2]
        out = []
        for i in range(n + 1):
            t = i / n
            cube = _cube_round(aq + (bq - aq) * t, ar + (br - ar) * t, as_ + (bs - as_) * t)
            out.append(self.from_cube(*cube))
        return out


def _cube_round(fq: float, fr: float, fs: float) -> tuple[int, int, int]:
    q, r, s = round(fq), round(fr), round(fs)
    dq, dr, ds = abs(q - fq), abs(r - fr), abs(s - fs)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    else:
        s = -q - r
    return (q, r, s)


_INTERNED: dict[Hex, Hex] = {}
INTERNED = 1 << 17  # hexes kept: far more than the hexes of every map loaded at once


def _interned(h: Hex) -> Hex:
    """The one object for the hex `h` (the first one asked), up to `INTERNED` of them: the hexes a map holds, its
    neighbours and `Hex.parse` give the same object for the same hex, so a dictionary or set finds a hex it holds
    by identity, never by calling `__eq__` (millions of times a game's searches). Equality is unchanged."""
    found = _INTERNED.get(h)
    if found is None:
        if len(_INTERNED) >= INTERNED:
            return h
        found = _INTERNED.setdefault(h, h)
    return found


@lru_cache(maxsize=PARSED_LABELS)
def _parse_label(text: str) -> Hex:
    label = text.strip().lower()
    m = _LABEL_RE.match(label)
    if not m or len(m.group(2)) % 2:
        raise ValueError(
            f"invalid hex label {text!r}: expected XXYY digits (column then row, zero-padded), "
            "after the map sheet's letters if the game has several sheets, e.g. '3512', 'w4520'"
        )
    digits = m.group(2)
    half = len(digits) // 2
    return _interned(Hex(int(digits[:half]), int(digits[half:]), m.group(1)))
