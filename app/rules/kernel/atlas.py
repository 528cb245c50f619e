"""Several map sheets played as one map: a game printed on more than one sheet (Dai Senso's West and East maps,
labels "w4520" and "e3609") loads one map file per sheet, each declaring its prefix (`[map] sheet`,
docs/map-format.md), and plays on their `Atlas`.

An Atlas answers the questions a `GameMap` answers (terrain, hexsides, features, names, tags, neighbours,
distance), each from the sheet the hex lies on, so the kernel's movement, ZOC, retreat and path code runs on it
unchanged. Sheets join nowhere: a hex's neighbours are on its own sheet, no hex is adjacent to one on another sheet,
and no distance joins two sheets (`distance` answers infinity: no range reaches across, and no caller can fail on
it). One file per sheet keeps a reconstructed sheet replaceable on its own.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from types import MappingProxyType

from app.rules.kernel.hexgrid import Hex
from app.rules.kernel.mapfile import GameMap, MapError, Vocabulary, load_map

__all__ = ["Atlas", "load_atlas"]

_EMPTY: frozenset = frozenset()


class Atlas:
    """Map sheets by prefix; build with `Atlas.of`, `load_atlas` or `loads_atlas`."""

    __slots__ = ("_sheets",)

    def __init__(self, sheets: Mapping[str, GameMap]) -> None:
        self._sheets = MappingProxyType(dict(sheets))

    @classmethod
    def of(cls, maps: Iterable[GameMap], source: str = "atlas") -> Atlas:
        """The sheets of ``maps``; MapError if two share a prefix, or one of several has none."""
        maps = list(maps)
        problems = []
        by_sheet: dict[str, GameMap] = {}
        for m in maps:
            prefix = m.grid.sheet
            if len(maps) > 1 and not prefix:
                problems.append(f"{m.source}: a map of several sheets declares its prefix ([map] sheet = \"w\")")
            elif prefix in by_sheet:
                problems.append(f"{m.source}: sheet {prefix!r} is already {by_sheet[prefix].source}")
            else:
                by_sheet[prefix] = m
        if not maps:
            problems.append("no map sheet given")
        if problems:
            raise MapError(source, problems)
        return cls(by_sheet)

    # -- sheets -------------------------------------------------------------------------------------------
    @property
    def sheets(self) -> Mapping[str, GameMap]:
        return self._sheets

    def sheet(self, h: Hex) -> GameMap:
        """The sheet ``h`` lies on; KeyError naming the sheets if there is none with its prefix."""
        found = self._sheets.get(h.sheet)
        if found is None:
            known = ", ".join(repr(s) for s in self._sheets)
            raise KeyError(f"hex {h}: no map sheet {h.sheet!r} (sheets: {known})")
        return found

    def replaced(self, sheet: GameMap) -> Atlas:
        """This atlas with ``sheet`` in place of the sheet of the same prefix (a player's own map file)."""
        if sheet.grid.sheet not in self._sheets:
            known = ", ".join(repr(s) for s in self._sheets)
            raise MapError(sheet.source, [f"sheet {sheet.grid.sheet!r} is none of this game's sheets ({known})"])
        return Atlas({**self._sheets, sheet.grid.sheet: sheet})

    # -- geometry -----------------------------------------------------------------------------------------
    def parse(self, label: str) -> Hex:
        """The on-map hex a label names ("w4520"); ValueError saying what is wrong with it."""
        h = Hex.parse(label)
        if not self.on_map(h):
            raise ValueError(f"hex {label!r} is not on the map (sheets: {self._sheet_extents()})")
        return h

    def _sheet_extents(self) -> str:
        parts = []
        for prefix, m in self._sheets.items():
            (c0, c1), (r0, r1) = m.grid.cols, m.grid.rows
            parts.append(f"{prefix}{c0:02d}{r0:02d}-{prefix}{c1:02d}{r1:02d}")
        return ", ".join(parts)

    def on_map(self, h: Hex) -> bool:
        m = self._sheets.get(h.sheet)
        return m is not None and m.on_map(h)

    def hexes(self) -> Iterator[Hex]:
        for m in self._sheets.values():
            yield from m.hexes()

    def neighbours(self, h: Hex) -> tuple[Hex, ...]:
        return self.sheet(h).neighbours(h)

    def adjacent(self, a: Hex, b: Hex) -> bool:
        """False for hexes on two sheets, or on none of this atlas's."""
        m = self._sheets.get(a.sheet)
        return a.sheet == b.sheet and m is not None and m.adjacent(a, b)

    def distance(self, a: Hex, b: Hex) -> float:
        """Hexes counted from ``a`` to ``b`` on their sheet; `math.inf` for hexes on two sheets, or on none of this
        atlas's: no distance joins them, so every range (``<= 2``) excludes them and every comparison still answers
        (never a ValueError a game would turn into a server error)."""
        m = self._sheets.get(a.sheet)
        if a.sheet != b.sheet or m is None:
            return math.inf
        return m.distance(a, b)

    # -- terrain, features, names, tags -------------------------------------------------------------------
    def terrain_of(self, h: Hex) -> str:
        return self.sheet(h).terrain_of(h)

    def hexside_features(self, a: Hex, b: Hex) -> frozenset[str]:
        if a.sheet != b.sheet or a.sheet not in self._sheets:
            return _EMPTY
        return self._sheets[a.sheet].hexside_features(a, b)

    def features_of(self, h: Hex) -> frozenset[str]:
        m = self._sheets.get(h.sheet)
        return m.features_of(h) if m is not None else _EMPTY

    def has_feature(self, h: Hex, feature: str) -> bool:
        return feature in self.features_of(h)

    def hexes_with(self, feature: str) -> frozenset[Hex]:
        return frozenset().union(*(m.hexes_with(feature) for m in self._sheets.values()))

    def is_city(self, h: Hex) -> bool:
        return self.has_feature(h, "city")

    def cities(self) -> frozenset[Hex]:
        return self.hexes_with("city")

    def name_of(self, h: Hex) -> str | None:
        m = self._sheets.get(h.sheet)
        return m.name_of(h) if m is not None else None

    def hexes_named(self, name: str) -> tuple[Hex, ...]:
        return tuple(h for m in self._sheets.values() for h in m.hexes_named(name))

    def hex_named(self, name: str) -> Hex:
        """The single hex with this name on any sheet; KeyError if none, ValueError if several."""
        found = self.hexes_named(name)
        if not found:
            raise KeyError(f"no hex is named {name!r}")
        if len(found) > 1:
            raise ValueError(f"{name!r} names several hexes: {', '.join(map(str, found))}")
        return found[0]

    def tags_of(self, h: Hex) -> frozenset[str]:
        m = self._sheets.get(h.sheet)
        return m.tags_of(h) if m is not None else _EMPTY

    def has_tag(self, h: Hex, tag: str) -> bool:
        return tag in self.tags_of(h)

    def hexes_tagged(self, tag: str) -> frozenset[Hex]:
        return frozenset().union(*(m.hexes_tagged(tag) for m in self._sheets.values()))


def load_atlas(paths: Iterable[str | Path], vocabulary: Vocabulary | None = None) -> Atlas:
    """Read one map file per sheet (each raises `MapError` with every problem it has) into an Atlas."""
    return Atlas.of([load_map(p, vocabulary) for p in paths])

