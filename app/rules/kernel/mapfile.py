"""Map files: a hand-editable TOML format (docs/map-format.md) loaded into an immutable `GameMap`.

The kernel knows no terrain names: the vocabulary (terrain types, hexside features, hex features, tags) is
declared by the game, either in the map's ``[vocabulary]`` table or as a `Vocabulary` passed to the loader.
The loader is the only I/O in the kernel. Every problem found is reported at once in a `MapError`.

A map may come from a stranger (a custom map in `POST /games`), so the loader bounds the work a file may cause
(its bytes, the grid's size, the hexes its lists expand to: checked before building anything) and holds every
word to a strict pattern and every name to plain text (docs/map-format.md, "Limits").
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from app.rules.kernel.hexgrid import Grid, Hex, Hexside

__all__ = [
    "GameMap",
    "MapError",
    "OffMapBox",
    "Route",
    "Vocabulary",
    "load_map",
    "loads_map",
    "map_from_dict",
]

COMPASS_EDGES = ("north", "south", "east", "west")
_TOP_KEYS = set("map vocabulary terrain hexsides features roads railroads names tags edges boxes".split())
_MAP_KEYS = {"name", "parity", "cols", "rows", "sheet", "status", "provenance", "absent"}
_VOCAB_KEYS = {"terrain", "hexside", "features", "tags"}

# Limits (issue 12): the largest printed map (Olympic, 43x52) is 2,236 hexes in 14 KB.
MAX_MAP_BYTES = 128 * 1024
MAX_SPAN = 100  # columns, and rows, of one sheet
MAX_HEXES = 6000
MAX_LISTED = 100_000  # hexes all the file's lists and rectangles expand to, together
# terrain types, hexside features, hex features, tags, edge and box ids, status: lowercase words
WORD = re.compile(r"[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*")
MAX_WORD = 32
# names of the map, places, roads and boxes: letters, digits, spaces and . , ' ( ) / : - & (as printed: "Air & Naval")
NAME = re.compile(r"[^\W_](?:[\w .,'()/:&-]*[\w.)])?")
MAX_NAME = 60
MAX_PROVENANCE = 2000


class MapError(ValueError):
    """Every problem found in one map file; ``problems`` holds one message per problem."""

    def __init__(self, source: str, problems: list[str]) -> None:
        self.source = source
        self.problems = list(problems)
        super().__init__(self.__str__())

    def __str__(self) -> str:
        head = f"{self.source}: {len(self.problems)} problem(s) in map file"
        return "\n".join([head, *(f"  {self.source}: {p}" for p in self.problems)])


@dataclass(frozen=True)
class Vocabulary:
    """Words a game allows in its map files. ``tags=None`` leaves tags open."""

    terrain: frozenset[str]
    hexside: frozenset[str] = frozenset()
    features: frozenset[str] = frozenset()
    tags: frozenset[str] | None = None

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Vocabulary:
        tags = data.get("tags")
        return cls(
            terrain=frozenset(data.get("terrain", ())),
            hexside=frozenset(data.get("hexside", ())),
            features=frozenset(data.get("features", ())),
            tags=None if tags is None else frozenset(tags),
        )


@dataclass(frozen=True)
class Route:
    """A road or railroad: a contiguous chain of hexes."""

    kind: str  # "road" or "railroad"
    path: tuple[Hex, ...]
    name: str = ""


@dataclass(frozen=True)
class OffMapBox:
    id: str
    name: str
    adjacent: tuple[Hex, ...] = ()
    edge: str | None = None


_EMPTY: frozenset = frozenset()


@dataclass(frozen=True, eq=False)
class GameMap:
    """An immutable map: geometry, terrain, hexside features, routes, names, tags, edges, boxes."""

    name: str
    grid: Grid
    vocabulary: Vocabulary
    default_terrain: str
    status: str = ""
    provenance: str = ""
    source: str = "<map>"
    absent: frozenset[Hex] = frozenset()
    _terrain: Mapping[Hex, str] = field(default_factory=dict, repr=False)
    _sides: Mapping[Hexside, frozenset[str]] = field(default_factory=dict, repr=False)
    _features: Mapping[Hex, frozenset[str]] = field(default_factory=dict, repr=False)
    _tags: Mapping[Hex, frozenset[str]] = field(default_factory=dict, repr=False)
    _names: Mapping[Hex, str] = field(default_factory=dict, repr=False)
    _edges: Mapping[str, frozenset[Hex]] = field(default_factory=dict, repr=False)
    roads: tuple[Route, ...] = ()
    railroads: tuple[Route, ...] = ()
    boxes: Mapping[str, OffMapBox] = field(default_factory=dict, repr=False)
    # derived indexes, filled in __post_init__
    _pair_sides: Mapping[tuple[Hex, Hex], frozenset[str]] = field(init=False, repr=False)
    _road_pairs: frozenset[tuple[Hex, Hex]] = field(init=False, repr=False)
    _rail_pairs: frozenset[tuple[Hex, Hex]] = field(init=False, repr=False)
    _road_hexes: frozenset[Hex] = field(init=False, repr=False)
    _rail_hexes: frozenset[Hex] = field(init=False, repr=False)
    _by_feature: Mapping[str, frozenset[Hex]] = field(init=False, repr=False)
    _by_tag: Mapping[str, frozenset[Hex]] = field(init=False, repr=False)
    _by_name: Mapping[str, tuple[Hex, ...]] = field(init=False, repr=False)
    _neighbours: Mapping[Hex, tuple[Hex, ...]] = field(init=False, repr=False)
    _neighbour_labels: Mapping[str, tuple[str, ...]] = field(init=False, repr=False)
    _hexes: tuple[Hex, ...] = field(init=False, repr=False)  # every on-map hex, column by column
    _terrain_at: Mapping[Hex, str] = field(init=False, repr=False)  # every on-map hex's terrain

    def __post_init__(self) -> None:
        put = object.__setattr__
        for attr in ("_terrain", "_sides", "_features", "_tags", "_names", "_edges", "boxes"):
            put(self, attr, MappingProxyType(dict(getattr(self, attr))))
        pairs: dict[tuple[Hex, Hex], frozenset[str]] = {}
        for side, feats in self._sides.items():
            pairs[(side.a, side.b)] = feats
            pairs[(side.b, side.a)] = feats
        put(self, "_pair_sides", MappingProxyType(pairs))
        for kind, routes in (("road", self.roads), ("rail", self.railroads)):
            rp: set[tuple[Hex, Hex]] = set()
            rh: set[Hex] = set()
            for route in routes:
                rh.update(route.path)
                for a, b in zip(route.path, route.path[1:], strict=False):
                    rp.add((a, b))
                    rp.add((b, a))
            put(self, f"_{kind}_pairs", frozenset(rp))
            put(self, f"_{kind}_hexes", frozenset(rh))
        put(self, "_by_feature", MappingProxyType(_invert(self._features)))
        put(self, "_by_tag", MappingProxyType(_invert(self._tags)))
        by_name: dict[str, list[Hex]] = {}
        for h, n in sorted(self._names.items()):
            by_name.setdefault(n.casefold(), []).append(h)
        put(self, "_by_name", MappingProxyType({k: tuple(v) for k, v in by_name.items()}))
        put(self, "_hexes", tuple(h for h in self.grid.hexes() if h not in self.absent))
        # a plain dict, private: asked millions of times a whole game (a MappingProxyType's get costs twice a dict's)
        put(self, "_terrain_at", {h: self._terrain.get(h, self.default_terrain) for h in self._hexes})
        nbrs = {h: tuple(n for n in self.grid.neighbours(h) if n not in self.absent) for h in self.hexes()}
        put(self, "_neighbours", MappingProxyType(nbrs))
        put(self, "_neighbour_labels", MappingProxyType({str(h): tuple(map(str, n)) for h, n in nbrs.items()}))
        put(self, "_of_terrain", {})  # hexes_of_terrain's answers, by terrain: the map never changes

    # -- geometry -----------------------------------------------------------------------------------------
    def on_map(self, h: Hex) -> bool:
        return h in self._terrain_at

    def hexes(self) -> Iterator[Hex]:
        return iter(self._hexes)

    def neighbours(self, h: Hex) -> tuple[Hex, ...]:
        """On-map neighbours (absent hexes excluded), in the grid's direction order."""
        found = self._neighbours.get(h)
        if found is None:
            return tuple(n for n in self.grid.neighbours(h) if n not in self.absent)
        return found

    def neighbour_labels(self, label: str) -> tuple[str, ...]:
        """`neighbours` by label: the labels of the on-map neighbours of the hex labelled `label` (games that
        keep positions by label ask this thousands of times a position)."""
        found = self._neighbour_labels.get(label)
        return found if found is not None else tuple(map(str, self.neighbours(Hex.parse(label))))

    def adjacent(self, a: Hex, b: Hex) -> bool:
        return self.grid.adjacent(a, b)

    def distance(self, a: Hex, b: Hex) -> int:
        return self.grid.distance(a, b)

    # -- terrain and features -----------------------------------------------------------------------------
    def terrain_of(self, h: Hex) -> str:
        found = self._terrain_at.get(h)
        if found is None:
            raise KeyError(f"{self.source}: hex {h} is not on the map")
        return found

    def hexes_of_terrain(self, terrain: str) -> frozenset[Hex]:
        found = self._of_terrain.get(terrain)
        if found is None:
            found = self._of_terrain[terrain] = frozenset(h for h in self.hexes() if self.terrain_of(h) == terrain)
        return found

    def hexside_features(self, a: Hex, b: Hex) -> frozenset[str]:
        """Features on the hexside between ``a`` and ``b`` (empty if none or not adjacent)."""
        return self._pair_sides.get((a, b), _EMPTY)

    def hexsides_with(self, feature: str) -> frozenset[Hexside]:
        return frozenset(s for s, f in self._sides.items() if feature in f)

    def features_of(self, h: Hex) -> frozenset[str]:
        return self._features.get(h, _EMPTY)

    def has_feature(self, h: Hex, feature: str) -> bool:
        return feature in self._features.get(h, _EMPTY)

    def hexes_with(self, feature: str) -> frozenset[Hex]:
        return self._by_feature.get(feature, _EMPTY)

    def is_city(self, h: Hex) -> bool:
        return self.has_feature(h, "city")

    def is_town(self, h: Hex) -> bool:
        return self.has_feature(h, "town")

    def cities(self) -> frozenset[Hex]:
        return self.hexes_with("city")

    def towns(self) -> frozenset[Hex]:
        return self.hexes_with("town")

    # -- roads and railroads ------------------------------------------------------------------------------
    def has_road(self, a: Hex, b: Hex) -> bool:
        """True if a road runs from ``a`` to adjacent ``b`` across their common hexside."""
        return (a, b) in self._road_pairs

    def has_rail(self, a: Hex, b: Hex) -> bool:
        return (a, b) in self._rail_pairs

    def is_road_hex(self, h: Hex) -> bool:
        return h in self._road_hexes

    def is_rail_hex(self, h: Hex) -> bool:
        return h in self._rail_hexes

    def road_hexes(self) -> frozenset[Hex]:
        return self._road_hexes

    def rail_hexes(self) -> frozenset[Hex]:
        return self._rail_hexes

    # -- names, tags, edges, boxes ------------------------------------------------------------------------
    def name_of(self, h: Hex) -> str | None:
        return self._names.get(h)

    def hexes_named(self, name: str) -> tuple[Hex, ...]:
        return self._by_name.get(name.casefold(), ())

    def hex_named(self, name: str) -> Hex:
        """The single hex with this name (case-insensitive); KeyError if none, ValueError if several."""
        found = self.hexes_named(name)
        if not found:
            raise KeyError(f"{self.source}: no hex is named {name!r}")
        if len(found) > 1:
            raise ValueError(f"{self.source}: {name!r} names several hexes: {', '.join(map(str, found))}")
        return found[0]

    def tags_of(self, h: Hex) -> frozenset[str]:
        return self._tags.get(h, _EMPTY)

    def has_tag(self, h: Hex, tag: str) -> bool:
        return tag in self._tags.get(h, _EMPTY)

    def hexes_tagged(self, tag: str) -> frozenset[Hex]:
        return self._by_tag.get(tag, _EMPTY)

    def edge_names(self) -> tuple[str, ...]:
        return tuple(self._edges)

    def edge_hexes(self, edge: str) -> frozenset[Hex]:
        if edge not in self._edges:
            raise KeyError(f"{self.source}: no map edge named {edge!r} (known: {', '.join(self._edges)})")
        return self._edges[edge]

    def edges_of(self, h: Hex) -> frozenset[str]:
        return frozenset(name for name, hexes in self._edges.items() if h in hexes)


def _invert(m: Mapping[Hex, frozenset[str]]) -> dict[str, frozenset[Hex]]:
    out: dict[str, set[Hex]] = {}
    for h, words in m.items():
        for w in words:
            out.setdefault(w, set()).add(h)
    return {k: frozenset(v) for k, v in out.items()}


# ---------------------------------------------------------------------------------------------------------
# Loading
# ---------------------------------------------------------------------------------------------------------
def load_map(path: str | Path, vocabulary: Vocabulary | None = None) -> GameMap:
    """Read and validate a TOML map file; raises `MapError` listing every problem."""
    p = Path(path)
    try:
        if p.stat().st_size > MAX_MAP_BYTES:
            raise MapError(str(p), [_too_big(p.stat().st_size)])
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise MapError(str(p), [f"cannot read map file: {exc}"]) from exc
    return loads_map(text, source=str(p), vocabulary=vocabulary)


def _too_big(size: int) -> str:
    return f"the map file is {size} bytes; a map file may have at most {MAX_MAP_BYTES} (nothing was read further)"


def loads_map(text: str, source: str = "<string>", vocabulary: Vocabulary | None = None) -> GameMap:
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_MAP_BYTES:
        raise MapError(source, [_too_big(size)])
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise MapError(source, [f"not valid TOML: {exc}"]) from exc
    return map_from_dict(data, source=source, vocabulary=vocabulary)


def map_from_dict(
    data: Mapping[str, Any], source: str = "<dict>", vocabulary: Vocabulary | None = None
) -> GameMap:
    return _Builder(data, source, vocabulary).build()


class _Builder:
    def __init__(self, data: Mapping[str, Any], source: str, vocabulary: Vocabulary | None) -> None:
        self.data = data
        self.source = source
        self.vocab_given = vocabulary
        self.problems: list[str] = []
        self.listed = 0  # hexes the lists have expanded to so far (MAX_LISTED)

    def err(self, msg: str) -> None:
        self.problems.append(msg)

    # -- helpers ------------------------------------------------------------------------------------------
    def _table(self, key: str) -> Mapping[str, Any]:
        value = self.data.get(key, {})
        if not isinstance(value, Mapping):
            self.err(f"[{key}] must be a table")
            return {}
        return value

    def _list_of_str(self, value: Any, where: str) -> list[str]:
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            self.err(f"{where}: expected a list of strings, got {value!r}")
            return []
        return value

    def _hex(self, label: str, where: str) -> Hex | None:
        try:
            h = Hex.parse(label)
        except ValueError as exc:
            self.err(f"{where}: {exc}")
            return None
        if h.sheet != self.grid.sheet:
            self.err(f"{where}: hex {h} is not on this map sheet: {self._sheet_labels()}")
            return None
        if not self.grid.on_map(h):
            self.err(
                f"{where}: hex {h} is off the map (cols {self.grid.cols[0]:02d}-{self.grid.cols[1]:02d}, "
                f"rows {self.grid.rows[0]:02d}-{self.grid.rows[1]:02d})"
            )
            return None
        if h in self.absent:
            self.err(f"{where}: hex {h} is off the map (listed in [map] absent)")
            return None
        return h

    def _hexes(self, value: Any, where: str, ranges: bool = True) -> list[Hex]:
        out: list[Hex] = []
        for item in self._list_of_str(value, where):
            if self.listed > MAX_LISTED:
                break
            if ".." in item:
                if not ranges:
                    self.err(f"{where}: a path lists single hexes, not a rectangle ({item!r})")
                    continue
                lo_s, _, hi_s = item.partition("..")
                lo, hi = self._hex_in_grid(lo_s, where), self._hex_in_grid(hi_s, where)
                if lo is None or hi is None:
                    continue
                if not self._count(where, (abs(lo.col - hi.col) + 1) * (abs(lo.row - hi.row) + 1)):
                    break
                for c in range(min(lo.col, hi.col), max(lo.col, hi.col) + 1):
                    for r in range(min(lo.row, hi.row), max(lo.row, hi.row) + 1):
                        h = self.grid.hex(c, r)
                        if h not in self.absent:
                            out.append(h)
            else:
                h = self._hex(item, where)
                if h is not None and self._count(where, 1):
                    out.append(h)
        return out

    def _count(self, where: str, n: int) -> bool:
        """Count `n` more listed hexes; False (and one problem) once the file's lists pass MAX_LISTED."""
        self.listed += n
        if self.listed > MAX_LISTED:
            self.err(f"{where}: the map's lists and rectangles name more than {MAX_LISTED} hexes in all; "
                     "nothing after this was read")
            self.listed = MAX_LISTED + n + 1  # stays over the limit: every later list stops at once
            return False
        return True

    def _word(self, word: Any, kind: str, where: str) -> bool:
        """A terrain, feature, tag, edge or box word: lowercase letters and digits joined by - or _."""
        if isinstance(word, str) and len(word) <= MAX_WORD and WORD.fullmatch(word):
            return True
        self.err(f"{where}: {kind} {word!r} is not a valid word: lowercase letters and digits, joined by - or _, "
                 f"at most {MAX_WORD} characters (e.g. 'clear', 'major-river')")
        return False

    def _name(self, name: Any, where: str, scale: int = 1) -> str | None:
        """A display name: plain text (letters, digits, spaces and . , ' ( ) / : - &), at most `scale` times
        MAX_NAME characters."""
        limit = scale * MAX_NAME
        if isinstance(name, str) and len(name) <= limit and NAME.fullmatch(name):
            return name
        self.err(f"{where}: name {name!r} is not plain text: letters, digits, spaces and . , ' ( ) / : - & only, "
                 f"at most {limit} characters")
        return None

    def _hex_in_grid(self, label: str, where: str) -> Hex | None:
        try:
            h = Hex.parse(label)
        except ValueError as exc:
            self.err(f"{where}: {exc}")
            return None
        if h.sheet != self.grid.sheet:
            self.err(f"{where}: rectangle corner {h} is not on this map sheet: {self._sheet_labels()}")
            return None
        if not self.grid.on_map(h):
            self.err(f"{where}: rectangle corner {h} is off the map")
            return None
        return h

    def _sheet_labels(self) -> str:
        if self.grid.sheet:
            return f"its labels carry the prefix {self.grid.sheet!r}, e.g. '{self.grid.sheet}0101'"
        return "the map declares no sheet prefix, so its labels are bare XXYY digits"

    def _no_duplicates(self, hexes: list[Hex], where: str) -> list[Hex]:
        seen: set[Hex] = set()
        for h in hexes:
            if h in seen:
                self.err(f"{where}: hex {h} is listed twice")
            seen.add(h)
        return hexes

    def _known(self, word: str, allowed: frozenset[str] | None, kind: str, where: str) -> bool:
        if not self._word(word, kind, where):
            return False
        if allowed is None or word in allowed:
            return True
        shown = ", ".join(sorted(allowed)) or "none declared"
        self.err(f"{where}: unknown {kind} {word!r} (declared: {shown})")
        return False

    def _unknown_keys(self, table: Mapping[str, Any], allowed: set[str], where: str) -> None:
        for k in table:
            if k not in allowed:
                self.err(f"{where}: unknown key {k!r} (expected one of: {', '.join(sorted(allowed))})")

    # -- build --------------------------------------------------------------------------------------------
    def build(self) -> GameMap:
        self._unknown_keys(self.data, _TOP_KEYS, "top level")
        head = self._table("map")
        self._unknown_keys(head, _MAP_KEYS, "[map]")
        grid = self._grid(head)
        if grid is None:
            raise MapError(self.source, self.problems)
        self.grid = grid
        self.absent: frozenset[Hex] = frozenset()
        absent = []
        for label in self._list_of_str(head.get("absent", []), "[map] absent"):
            h = self._hex_in_grid(label, "[map] absent")
            if h is not None:
                absent.append(h)
        self.absent = frozenset(absent)
        vocab = self._vocabulary()
        default, terrain = self._terrain(vocab)
        sides = self._hexsides(vocab)
        features = self._word_lists("features", vocab.features, "feature")
        tags = self._word_lists("tags", vocab.tags, "tag")
        roads = self._routes("roads", "road")
        rails = self._routes("railroads", "railroad")
        names = self._names()
        edges = self._edges()
        boxes = self._boxes()
        self._header_text(head)
        if self.problems:
            raise MapError(self.source, self.problems)
        return GameMap(
            name=str(head.get("name", "")),
            grid=grid,
            vocabulary=vocab,
            default_terrain=default,
            status=str(head.get("status", "")),
            provenance=str(head.get("provenance", "")),
            source=self.source,
            absent=self.absent,
            _terrain=terrain,
            _sides=sides,
            _features=features,
            _tags=tags,
            _names=names,
            _edges=edges,
            roads=roads,
            railroads=rails,
            boxes=boxes,
        )

    def _header_text(self, head: Mapping[str, Any]) -> None:
        if "name" in head:
            self._name(head["name"], "[map] name", scale=2)
        if head.get("status"):
            self._word(head["status"], "status", "[map] status")
        provenance = head.get("provenance", "")
        if not isinstance(provenance, str) or len(provenance) > MAX_PROVENANCE or not provenance.isprintable():
            self.err(f"[map] provenance: free text on one line, at most {MAX_PROVENANCE} characters")

    def _grid(self, head: Mapping[str, Any]) -> Grid | None:
        for key in ("name", "parity", "cols", "rows"):
            if key not in head:
                self.err(f"[map]: missing required key {key!r}")
        if any(k not in head for k in ("parity", "cols", "rows")):
            return None
        cols, rows = head["cols"], head["rows"]
        ok = True
        for key, rng in (("cols", cols), ("rows", rows)):
            if not (isinstance(rng, list) and len(rng) == 2 and all(isinstance(x, int) for x in rng)):
                self.err(f"[map] {key}: expected [first, last] as two integers, got {rng!r}")
                ok = False
        if not ok:
            return None
        spans = (abs(cols[1] - cols[0]) + 1, abs(rows[1] - rows[0]) + 1)
        if max(spans) > MAX_SPAN or spans[0] * spans[1] > MAX_HEXES:
            self.err(f"[map]: {spans[0]} columns by {spans[1]} rows is too large a map: at most {MAX_SPAN} columns, "
                     f"{MAX_SPAN} rows and {MAX_HEXES} hexes (nothing else was read)")
            return None
        try:
            return Grid(head["parity"], (cols[0], cols[1]), (rows[0], rows[1]), head.get("sheet", ""))
        except ValueError as exc:
            self.err(f"[map]: {exc}")
            return None

    def _vocabulary(self) -> Vocabulary:
        table = self._table("vocabulary")
        self._unknown_keys(table, _VOCAB_KEYS, "[vocabulary]")
        if self.vocab_given is not None:
            return self.vocab_given
        for key in ("terrain", "hexside", "features", "tags"):
            if key in table:
                for word in self._list_of_str(table[key], f"[vocabulary] {key}"):
                    self._word(word, "word", f"[vocabulary] {key}")
        vocab = Vocabulary.from_dict(table)
        if not vocab.terrain:
            self.err("[vocabulary]: no terrain types declared (declare them here or pass a Vocabulary)")
        return vocab

    def _terrain(self, vocab: Vocabulary) -> tuple[str, dict[Hex, str]]:
        table = self._table("terrain")
        default = table.get("default")
        if not isinstance(default, str):
            self.err("[terrain]: missing 'default' terrain (a string)")
            default = ""
        else:
            self._known(default, vocab.terrain or None, "terrain", "[terrain] default")
        out: dict[Hex, str] = {}
        for key, value in table.items():
            if key in ("default", "override"):
                continue
            where = f"[terrain] {key}"
            if not self._known(key, vocab.terrain or None, "terrain", where):
                continue
            for h in self._hexes(value, where):
                if h in out:
                    self.err(f"{where}: hex {h} is listed twice (already {out[h]!r})")
                    continue
                out[h] = key
        override = table.get("override", {})
        if not isinstance(override, Mapping):
            self.err('[terrain.override]: must be a table of "XXYY" = "terrain"')
            override = {}
        for label, t in override.items():
            where = f"[terrain.override] {label}"
            h = self._hex(label, where)
            if h is None:
                continue
            if not isinstance(t, str):
                self.err(f"{where}: terrain must be a string, got {t!r}")
                continue
            if not self._known(t, vocab.terrain or None, "terrain", where):
                continue
            out[h] = t
        return default, out

    def _hexsides(self, vocab: Vocabulary) -> dict[Hexside, frozenset[str]]:
        table = self._table("hexsides")
        acc: dict[Hexside, set[str]] = {}

        def add(a: Hex, b: Hex, feat: str, where: str) -> None:
            if not self.grid.adjacent(a, b):
                self.err(f"{where}: hexside {a}/{b} joins hexes that are not adjacent ({self.grid.parity})")
                return
            acc.setdefault(Hexside(a, b), set()).add(feat)

        for feat, value in table.items():
            if feat == "between":
                continue
            where = f"[hexsides] {feat}"
            if not self._known(feat, vocab.hexside, "hexside feature", where):
                continue
            seen: set[Hexside] = set()
            for item in self._list_of_str(value, where):
                parts = item.split("/")
                if len(parts) != 2:
                    self.err(f"{where}: {item!r} is not a hexside; expected 'XXYY/XXYY'")
                    continue
                a, b = self._hex(parts[0], where), self._hex(parts[1], where)
                if a is None or b is None:
                    continue
                if a == b:
                    self.err(f"{where}: {item!r} names the same hex twice")
                    continue
                side = Hexside(a, b)
                if side in seen:
                    self.err(f"{where}: hexside {side} is listed twice")
                seen.add(side)
                add(a, b, feat, where)
        between = table.get("between", [])
        if not isinstance(between, list):
            self.err("[[hexsides.between]]: must be an array of tables")
            between = []
        for i, entry in enumerate(between, 1):
            where = f"[[hexsides.between]] #{i}"
            if not isinstance(entry, Mapping):
                self.err(f"{where}: must be a table")
                continue
            self._unknown_keys(entry, {"feature", "a", "b"}, where)
            feat = entry.get("feature")
            if not isinstance(feat, str):
                self.err(f"{where}: missing 'feature'")
                continue
            if not self._known(feat, vocab.hexside, "hexside feature", where):
                continue
            if not entry.get("a") or not entry.get("b"):
                self.err(f"{where}: needs the hexes on both sides, 'a' and 'b', for {feat!r} to lie between them")
                continue
            side_a = self._hexes(entry["a"], f"{where} a")
            side_b = set(self._hexes(entry["b"], f"{where} b"))
            found = 0
            for a in side_a:
                for n in self.grid.neighbours(a):
                    if n in side_b:
                        acc.setdefault(Hexside(a, n), set()).add(feat)
                        found += 1
            if side_a and side_b and not found:
                self.err(f"{where}: no hex in 'a' is adjacent to any hex in 'b', so no hexside gets {feat!r}")
        return {s: frozenset(f) for s, f in acc.items()}

    def _word_lists(self, key: str, allowed: frozenset[str] | None, kind: str) -> dict[Hex, frozenset[str]]:
        table = self._table(key)
        acc: dict[Hex, set[str]] = {}
        for word, value in table.items():
            where = f"[{key}] {word}"
            if not self._known(word, allowed, kind, where):
                continue
            for h in self._no_duplicates(self._hexes(value, where), where):
                acc.setdefault(h, set()).add(word)
        return {h: frozenset(w) for h, w in acc.items()}

    def _routes(self, key: str, kind: str) -> tuple[Route, ...]:
        value = self.data.get(key, [])
        if not isinstance(value, list):
            self.err(f"[[{key}]]: must be an array of tables")
            return ()
        out = []
        for i, entry in enumerate(value, 1):
            if not isinstance(entry, Mapping):
                self.err(f"[[{key}]] #{i}: must be a table")
                continue
            where = f"[[{key}]] #{i}"
            name = entry.get("name", "")
            if name and self._name(name, where) is None:
                continue
            where = f"{kind} {name!r}" if name else where
            self._unknown_keys(entry, {"name", "path"}, where)
            if "path" not in entry:
                self.err(f"{where}: missing 'path'")
                continue
            path = self._hexes(entry["path"], where, ranges=False)
            if len(path) < 2:
                self.err(f"{where}: a path needs at least two hexes")
                continue
            ok = True
            for a, b in zip(path, path[1:], strict=False):
                if not self.grid.adjacent(a, b):
                    self.err(f"{where}: {a} and {b} are not adjacent, so the {kind} is not contiguous")
                    ok = False
            if ok:
                out.append(Route(kind, tuple(path), name))
        return tuple(out)

    def _names(self) -> dict[Hex, str]:
        out: dict[Hex, str] = {}
        for label, name in self._table("names").items():
            where = f"[names] {label}"
            h = self._hex(label, where)
            if h is None:
                continue
            if not isinstance(name, str) or not name.strip():
                self.err(f"{where}: name must be a non-empty string")
                continue
            if self._name(name, where) is None:
                continue
            out[h] = name
        return out

    def _edges(self) -> dict[str, frozenset[Hex]]:
        edges: dict[str, set[Hex]] = {e: set() for e in COMPASS_EDGES}
        for h in self.grid.hexes():
            if h not in self.absent:
                for side in self.grid.edge_sides(h):
                    edges[side].add(h)
        out = {k: frozenset(v) for k, v in edges.items()}
        for name, value in self._table("edges").items():
            where = f"[edges] {name}"
            if not self._word(name, "edge", where):
                continue
            out[name] = frozenset(self._no_duplicates(self._hexes(value, where), where))
        return out

    def _boxes(self) -> dict[str, OffMapBox]:
        value = self.data.get("boxes", [])
        if not isinstance(value, list):
            self.err("[[boxes]]: must be an array of tables")
            return {}
        out: dict[str, OffMapBox] = {}
        for i, entry in enumerate(value, 1):
            where = f"[[boxes]] #{i}"
            if not isinstance(entry, Mapping):
                self.err(f"{where}: must be a table")
                continue
            self._unknown_keys(entry, {"id", "name", "adjacent", "edge"}, where)
            box_id = entry.get("id")
            if not isinstance(box_id, str) or not box_id:
                self.err(f"{where}: missing 'id'")
                continue
            edge = entry.get("edge")
            if not self._word(box_id, "box id", where) or (edge is not None and not self._word(edge, "edge", where)):
                continue
            if "name" in entry and self._name(entry["name"], where) is None:
                continue
            if box_id in out:
                self.err(f"{where}: box id {box_id!r} is used twice")
                continue
            adjacent = tuple(self._hexes(entry.get("adjacent", []), f"box {box_id!r} adjacent"))
            out[box_id] = OffMapBox(box_id, str(entry.get("name", box_id)), adjacent, edge)
        return out
