"""Map pictures: an SVG of a game map and the units one viewer sees, from `game_map` and `view` only.

Flat-top hexes placed through the grid's cube coordinates (so the map's declared column parity decides which
columns sit half a hex lower), terrain fill per terrain type with a legend, hexside features as thick coloured
edges, roads and railroads through hex centres, city/town markers and names, victory hexes, control markers,
and the units' counters as wargames print them, stacked (app/projections/counters.py). Nothing here knows a game.
"""
from __future__ import annotations

import hashlib
import math
from collections import defaultdict
from dataclasses import dataclass
from functools import lru_cache

from app.projections import counters as pieces
from app.projections.markup import Markup, el
from app.rules.kernel.hexgrid import Hex
from app.rules.kernel.mapfile import GameMap

SIZE = 36.0  # hex radius (centre to corner) in SVG user units
SQRT3 = math.sqrt(3)
LEGEND_W = 170
READABLE = 1.5  # screen pixels a map unit at the viewer's default zoom (docs/replay.md, "Following the action")

TERRAIN_COLOURS = {
    "clear": "#e8e4c9", "open": "#e8e4c9", "plain": "#e8e4c9", "paddy": "#cfe3b0", "rice": "#cfe3b0",
    "woods": "#8fb573", "forest": "#7aa85f", "jungle": "#5f9a4d", "rough": "#c9b48a", "hills": "#c2a878",
    "hill": "#c2a878", "mountain": "#a08a6a", "mountains": "#a08a6a", "swamp": "#9fbfa8", "marsh": "#9fbfa8",
    "village": "#d9c7a3", "town": "#d6b98f", "city": "#c9a37a", "urban": "#c9a37a", "water": "#9cc3e6",
    "lake": "#9cc3e6", "sea": "#8ab6e0", "ocean": "#7aa9d9", "river": "#9cc3e6", "desert": "#eddcaa",
}
FALLBACK_TERRAIN = ("#e0d6b8", "#b7cfa0", "#d2b48c", "#a9c4b7", "#c8b9d6", "#e3c49a", "#b0c4de", "#d8d0a0")
HEXSIDE_COLOURS = {"river": "#2f6fb5", "major_river": "#1f4f9a", "major-river": "#1f4f9a", "stream": "#5d9bd5",
                   "ridge": "#7a5230", "escarpment": "#7a5230", "cliff": "#5a3a20", "wall": "#555555",
                   "impassable": "#222222", "lake": "#2f6fb5", "sea": "#2f6fb5", "bridge": "#8a8a8a"}
FALLBACK_HEXSIDE = ("#6a3d9a", "#b15928", "#1f78b4", "#33a02c", "#e31a1c")


def _pick(name: str, table: dict[str, str], fallback: tuple[str, ...]) -> str:
    key = name.lower()
    if key in table:
        return table[key]
    digest = int(hashlib.sha256(key.encode()).hexdigest(), 16)
    return fallback[digest % len(fallback)]


def terrain_colour(terrain: str) -> str:
    return _pick(terrain, TERRAIN_COLOURS, FALLBACK_TERRAIN)


side_colours = pieces.side_colours  # a side's colour: its nation's, or its own (app/projections/counters.py)


class Layout:
    """Pixel positions of hex centres and corners for a flat-top grid."""

    def __init__(self, game_map: GameMap, size: float = SIZE, margin: float = 24.0):
        self.map, self.size, self.margin = game_map, size, margin
        raw = {h: self._raw(h) for h in game_map.hexes()}
        self.min_x = min(x for x, _ in raw.values()) - size
        self.min_y = min(y for _, y in raw.values()) - size * SQRT3 / 2
        self.width = max(x for x, _ in raw.values()) - self.min_x + size + 2 * margin
        self.height = max(y for _, y in raw.values()) - self.min_y + size * SQRT3 / 2 + 2 * margin

    def _raw(self, h: Hex) -> tuple[float, float]:
        q, r, _ = self.map.grid.to_cube(h)
        return 1.5 * self.size * q, SQRT3 * self.size * (r + q / 2)

    def centre(self, h: Hex) -> tuple[float, float]:
        x, y = self._raw(h)
        return x - self.min_x + self.margin, y - self.min_y + self.margin

    def corners(self, h: Hex) -> list[tuple[float, float]]:
        cx, cy = self.centre(h)
        return [(cx + self.size * math.cos(math.radians(60 * i)), cy + self.size * math.sin(math.radians(60 * i)))
                for i in range(6)]

    def edge(self, a: Hex, b: Hex) -> tuple[tuple[float, float], tuple[float, float]]:
        """The hexside between adjacent hexes: the segment perpendicular to their centres at the midpoint."""
        (ax, ay), (bx, by) = self.centre(a), self.centre(b)
        mx, my = (ax + bx) / 2, (ay + by) / 2
        dx, dy = bx - ax, by - ay
        length = math.hypot(dx, dy)
        px, py = -dy / length * self.size / 2, dx / length * self.size / 2
        return (mx + px, my + py), (mx - px, my - py)


def _num(v: float) -> str:
    """One decimal, without a trailing `.0` (most corners fall on whole units): a smaller picture, drawn the same."""
    text = f"{v:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _pts(points) -> str:
    return " ".join(f"{_num(x)},{_num(y)}" for x, y in points)


def _lines(parts) -> Markup:
    """Elements one a line: a picture attached to an email then travels as text (lines well under SMTP's 998
    octets, app/mail/compose.py) instead of base64, a third smaller; whitespace between elements draws nothing."""
    return Markup("\n").join(parts)


def _parse(label: str | None) -> Hex | None:
    if not label:
        return None
    try:
        return Hex.parse(label)
    except ValueError:
        return None


def title_markup(title: str) -> str:
    """The title element `render_map` draws first for `title`, as it stands in the picture's text."""
    return str(el("title", title))


def render_map(game_map: GameMap, view: dict, sides: list[str] | tuple[str, ...] = (), title: str = "",
               legend: bool = True) -> str:
    """The SVG text of `game_map` with what `view` shows: its units, control and victory hexes. Every name in
    it goes through `markup.el`, so map and view data stay text (app/projections/markup.py)."""
    static = _static_layers(game_map)
    lay = static.layout
    units = [u for u in view.get("units", []) if _parse(u.get("hex")) is not None
             and game_map.on_map(_parse(u.get("hex")))]
    colours = side_colours(list(sides) or sorted({u["side"] for u in units}))
    map_w = lay.width
    victory = {str(h) for h in (_parse(v) for v in view.get("victory_hexes", []) or []) if h}
    control = {str(_parse(k)): v for k, v in (view.get("control") or {}).items() if _parse(k)}
    marked = {side: colours.get(side) or pieces.side_colours([side])[side] for side in sorted(set(control.values()))}
    key, key_h = _legend(map_w, static.terrains, static.side_features, units, colours, bool(victory),
                         bool(game_map.roads), bool(game_map.railroads), marked) if legend else (None, 0)
    width = map_w + (LEGEND_W if legend else 0)
    height = max(lay.height, key_h)
    out = [el("title", title)] if title else []
    out.append(el("rect", width=f"{width:.0f}", height=f"{height:.0f}", fill="#f7f5ef"))

    out += static.layers
    # victory and control markers go over the counters, in the corners of the hex a counter leaves free (the
    # victory star west, control east above the stack's badge): a full hex still shows whose it is
    places, markers = [], []
    for label, (cx, cy), mark, name in static.places:
        if mark is not None:
            places.append(mark)
        if label in victory:
            star = _pts(_star(cx - lay.size * 0.67, cy + lay.size * 0.28, 5.5))
            markers.append(el("polygon", class_="victory", data_hex=label, points=star, fill="#f1c40f",
                              stroke="#7a5b00", stroke_width="0.8"))
        if name is not None:
            places.append(name)
    for label, side in sorted(control.items()):
        h = Hex.parse(label)
        if not game_map.on_map(h):
            continue
        cx, cy = lay.centre(h)
        markers.append(el("circle", class_="control", data_hex=label, data_side=side, cx=cx + lay.size * 0.7,
                          cy=cy - lay.size * 0.35, r="4.3", fill=marked[side], stroke="#fff", stroke_width="1.3"))
    out.append(el("g", _lines(places), class_="places"))

    counters = []
    stacks: dict[str, list[dict]] = defaultdict(list)
    for u in units:
        stacks[str(_parse(u["hex"]))].append(u)
    for label, stack in stacks.items():
        cx, cy = lay.centre(Hex.parse(label))
        counters += pieces.stack(stack, cx, cy, colours, label)
    out.append(el("g", _lines(counters), class_="units"))
    out.append(el("g", _lines(markers), class_="markers"))

    if key is not None:
        out.append(key)
    # opened on its own (a turn email's attachment, `cli.py render`), the picture is at the viewer's default zoom:
    # ids 11 px high, factors 15 px (the viewer sizes it to its box and keeps the viewBox)
    svg = el("svg", _lines(out), xmlns="http://www.w3.org/2000/svg", viewBox=f"0 0 {width:.0f} {height:.0f}",
             width=f"{width * READABLE:.0f}", height=f"{height * READABLE:.0f}",
             font_family="DejaVu Sans, Arial, sans-serif", class_="hexmap", data_map=static.digest)
    return str(svg)


@dataclass(frozen=True)
class _Static:
    """What a map's picture shows whatever the position: the terrain, labels, routes and hexsides drawn, and per
    hex its city or town mark and its name (the victory stars go between them, from the view)."""

    layout: Layout
    layers: tuple[Markup, ...]
    digest: str  # the layers' fingerprint: a page that has drawn them keeps them for the next picture (map.js draw)
    terrains: tuple[str, ...]
    side_features: tuple[str, ...]
    places: tuple[tuple[str, tuple[float, float], Markup | None, Markup | None], ...]


@lru_cache(maxsize=16)
def _static_layers(game_map: GameMap) -> _Static:
    """Drawn once per map (a map never changes): a turn email or a replay frame adds only the position."""
    lay = Layout(game_map)
    terrains: list[str] = []
    polygons = []
    for h in game_map.hexes():
        t = game_map.terrain_of(h)
        if t not in terrains:
            terrains.append(t)
        polygons.append(el("polygon", data_hex=h, data_terrain=t, points=_pts(lay.corners(h)),
                           fill=terrain_colour(t)))
    layers = [el("g", _lines(polygons), class_="terrain", stroke="#6b6b5a", stroke_width="0.8")]

    labels = []
    for h in game_map.hexes():
        cx, cy = lay.centre(h)
        labels.append(el("text", str(h), x=cx, y=cy - lay.size * 0.62))
    layers.append(el("g", _lines(labels), class_="labels", font_size="8", fill="#55533f", text_anchor="middle"))

    routes = []
    for route in game_map.railroads:
        pts = _pts(lay.centre(h) for h in route.path)
        routes.append(el("polyline", class_="railroad", points=pts, stroke="#222", stroke_width="3"))
        routes.append(el("polyline", points=pts, stroke="#fff", stroke_width="1.4", stroke_dasharray="4 4"))
    for route in game_map.roads:
        routes.append(el("polyline", class_="road", points=_pts(lay.centre(h) for h in route.path),
                         stroke="#8b5a2b", stroke_width="2.5"))
    layers.append(el("g", _lines(routes), class_="routes", fill="none", stroke_linecap="round",
                     stroke_linejoin="round"))

    side_feats: list[str] = []
    lines = []
    for feat in sorted(game_map.vocabulary.hexside):
        for side in sorted(game_map.hexsides_with(feat)):
            if feat not in side_feats:
                side_feats.append(feat)
            (x1, y1), (x2, y2) = lay.edge(side.a, side.b)
            lines.append(el("line", data_hexside=side, data_feature=feat, x1=x1, y1=y1, x2=x2, y2=y2,
                            stroke=_pick(feat, HEXSIDE_COLOURS, FALLBACK_HEXSIDE), stroke_width="5"))
    layers.append(el("g", _lines(lines), class_="hexsides", stroke_linecap="round"))

    places = []
    for h in game_map.hexes():
        cx, cy = lay.centre(h)
        mark = None
        if game_map.is_city(h):
            mark = el("rect", x=cx - 6, y=cy - 6, width="12", height="12", fill="#5b3b2a")
        elif game_map.is_town(h):
            mark = el("circle", cx=cx, cy=cy, r="5", fill="#5b3b2a")
        name = game_map.name_of(h)
        text = el("text", name, x=cx, y=cy + lay.size * 0.82, font_size="8.5", text_anchor="middle",
                  font_style="italic", fill="#222") if name else None
        places.append((str(h), (cx, cy), mark, text))
    digest = hashlib.sha256("".join(layers).encode()).hexdigest()[:16]
    return _Static(lay, tuple(layers), digest, tuple(terrains), tuple(side_feats), tuple(places))


def _star(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    pts = []
    for i in range(10):
        rad = r if i % 2 == 0 else r * 0.45
        a = math.radians(-90 + 36 * i)
        pts.append((cx + rad * math.cos(a), cy + rad * math.sin(a)))
    return pts


def _legend(x0: float, terrains: list[str], hexsides: list[str], units: list[dict], colours: dict[str, str],
            victory: bool, roads: bool, rails: bool, control: dict[str, str]) -> tuple[Markup, float]:
    """The key: terrain, hexsides and routes, the victory and control marks (each side's in its colour), the
    nations' counter colours and the unit types on the map, and how to read a counter; and the height it takes."""
    out = []
    y = 0

    def row(key: Markup, label: str) -> None:
        nonlocal y
        y += 16
        out.extend((key, el("text", label, x="20", y=y)))

    def heading(text: str) -> None:
        nonlocal y
        y += 22
        out.append(el("text", text, x="0", y=y, font_weight="bold"))

    out.append(el("text", "Terrain", x="0", y=y, font_weight="bold"))
    for t in terrains:
        row(el("rect", x="0", y=y + 6, width="14", height="12", fill=terrain_colour(t), stroke="#6b6b5a"), t)
    for feat in hexsides:
        row(el("line", x1="0", y1=y + 12, x2="14", y2=y + 12, stroke_width="5",
               stroke=_pick(feat, HEXSIDE_COLOURS, FALLBACK_HEXSIDE)), feat)
    if roads:
        row(el("line", x1="0", y1=y + 12, x2="14", y2=y + 12, stroke="#8b5a2b", stroke_width="2.5"), "road")
    if rails:
        row(el("line", x1="0", y1=y + 12, x2="14", y2=y + 12, stroke="#222", stroke_width="3"), "railroad")
    if victory:
        row(el("polygon", points=_pts(_star(7, y + 12, 6)), fill="#f1c40f", stroke="#7a5b00"), "victory hex")
    for side, fill in control.items():
        y += 16
        out.append(el("g", el("circle", cx="7", cy=y + 12, r="4.3", fill=fill, stroke="#555", stroke_width="1"),
                      el("text", f"{side} control", x="20", y=y), class_="control-key", data_side=side))
    nations: dict[str, pieces.Scheme] = {}
    for u in units:
        nation, scheme = pieces.scheme(u, colours)
        nations.setdefault(nation, scheme)
    heading("Counters")
    for nation, scheme in nations.items():
        row(el("g", el("rect", x="0", y=y + 5, width="14", height="14", fill=scheme.field, stroke="#111"),
               el("text", "A", x="7", y=y + 15.5, font_size="9", font_weight="bold", text_anchor="middle",
                  fill=scheme.ink), class_="nation", data_nation=nation), nation)
    kinds = {pieces.type_of(u.get("type")) for u in units if not pieces.face_down(u)} - {None}
    for kind in [k for k in pieces.TYPES if k in kinds] + sorted(k for k in kinds if k not in pieces.TYPES):
        row(el("g", *pieces.symbol(kind, 0, y + 7, 14, 9, "#222"), class_="unit-type", data_type=kind),
            pieces.TYPES.get(kind, kind))
    if any(pieces.face_down(u) for u in units):
        row(el("text", "?", x="7", y=y + 16, font_size="11", font_weight="bold", text_anchor="middle"),
            "untried or concealed")
    y += 18
    key = ("a counter: id; size over type;", "factors as printed; a dot per", "step left; a badge: how",
           "many counters in the hex")
    for n, line in enumerate(key):
        out.append(el("text", line, x="0", y=y + 11 * n, font_size="8.5", fill="#555"))
    return el("g", _lines(out), class_="legend", transform=f"translate({x0 + 8:.0f},16)", font_size="10",
              fill="#222"), y + 60


def render_state(rules, state, viewer: str) -> str | None:
    """The SVG of a folded game state as `viewer` (a side or "all") sees it; None if the rules draw no map."""
    from app.projections.sight import Sight
    from app.rules.base import optional

    game_map = optional(rules, "game_map")
    if game_map is None:
        return None
    title = f"{state.meta.game_id} after event {state.meta.seq}" + ("" if viewer == "all" else f", as {viewer}")
    view = Sight(rules, None if viewer == "all" else viewer).view(state.game)
    return render_map(game_map(state.game), view, rules.sides, title=title)
