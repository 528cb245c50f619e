"""Wargame counters, drawn as printed games draw them, from what one view shows of a unit (docs/replay.md,
"Counters"): the nation's colours (one scheme per nation in every game), the unit-type box with its NATO-style
symbol, the size mark above it, the id, the factors as the game prints them, one pip per step left and a hollow one
per step lost. A unit the
view gives neither a type nor a strength (an untried or concealed counter) is drawn face down: "?", and only what
the view gives. Nothing here knows a game: type, size and nation words are common military words (with their
synonyms), and a word not known draws a plain box, never an error. Every text goes through `markup.el`.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import lru_cache

from app.projections.markup import Markup, el, join


@dataclass(frozen=True)
class Scheme:
    """A nation's counter colours: the field, the ink printed on it, and a strong colour for lines and markers
    (charts, control markers), where a pale field would not show."""

    field: str
    ink: str
    line: str


# One scheme per nation across every game. The printed games agree where they overlap: Japanese red on white (SNC
# 2.2.1, Ichi-Go 2.5 CEA), Chinese white on blue (SNC 2.2.1, Ichi-Go 2.6), US black on olive drab (Ichi-Go 2.6).
NATIONS: dict[str, Scheme] = {
    "japanese": Scheme("#f6f2e7", "#b3201b", "#b3201b"),
    "chinese": Scheme("#1f3d7a", "#ffffff", "#1f3d7a"),
    "chinese-communist": Scheme("#b3261e", "#f7d23e", "#d4442f"),
    "us": Scheme("#9b9a5c", "#111111", "#5f5e2c"),
    "commonwealth": Scheme("#d9c18c", "#111111", "#a07a3a"),
    "soviet": Scheme("#7e2a17", "#ffffff", "#7e2a17"),
    "dutch": Scheme("#e8812a", "#111111", "#c0600e"),
}
NATION_WORDS = {
    "japan": "japanese", "jp": "japanese", "china": "chinese", "cn": "chinese", "nationalist-chinese": "chinese",
    "nationalist": "chinese", "kmt": "chinese", "ccp": "chinese-communist", "communist-chinese": "chinese-communist",
    "usa": "us", "american": "us", "united-states": "us", "cw": "commonwealth", "britain": "commonwealth",
    "british": "commonwealth", "uk": "commonwealth", "australian": "commonwealth", "india": "commonwealth",
    "ussr": "soviet", "russia": "soviet", "russian": "soviet", "nei": "dutch", "netherlands": "dutch",
}
# sides that are no nation (skirmish's red and blue, "allied", "axis"): their own colour word, else a palette
SIDE_WORDS = {"red": "#c0392b", "blue": "#2e5fa8", "green": "#3f8f3f", "black": "#333333", "white": "#f2f2f2",
              "grey": "#888888", "gray": "#888888", "yellow": "#d9b300", "orange": "#d9822b"}
PALETTE = ("#2e5fa8", "#c0392b", "#3f8f3f", "#d9822b", "#7d3c98", "#555555")
OTHER_NATIONS = ("#6d7f8c", "#7d3c98", "#3f8f8f", "#c77d9e", "#8a6d3b", "#4f6d3a")  # a nation not in NATIONS


def nation_of(word: str | None) -> str | None:
    """The nation a word names (`japan`, `American`, `cw`...), or None if it names none this module knows."""
    if not word:
        return None
    key = str(word).strip().lower().replace(" ", "-")
    key = NATION_WORDS.get(key, key)
    return key if key in NATIONS else None


def _hashed(word: str, palette: tuple[str, ...]) -> str:
    return palette[int(hashlib.sha256(word.lower().encode()).hexdigest(), 16) % len(palette)]


def ink_on(fill: str) -> str:
    r, g, b = (int(fill[i:i + 2], 16) for i in (1, 3, 5))
    return "#111111" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"


def side_colours(sides) -> dict[str, str]:
    """A line colour per side: its nation's if the side is one (SNC's "japanese", Olympic's "american"), else the
    side's own colour word, else the palette in side order (a colour once per side)."""
    out: dict[str, str] = {}
    for side in sides:
        nation = nation_of(side)
        if nation is not None:
            out[side] = NATIONS[nation].line
        elif str(side).lower() in SIDE_WORDS:
            out[side] = SIDE_WORDS[str(side).lower()]
    free = [c for c in PALETTE if c not in out.values()]
    for side in sides:
        if side not in out:
            out[side] = free.pop(0) if free else _hashed(str(side), PALETTE)
    return out


def scheme(unit: dict, sides: dict[str, str]) -> tuple[str, Scheme]:
    """The nation a counter wears (its `nation` or `nationality`, else its side if that is a nation) and its
    scheme; a unit of no known nation wears its side's colour, a nation not listed a colour of its own."""
    named = unit.get("nation") or unit.get("nationality")
    nation = nation_of(named) or nation_of(unit.get("side"))
    if nation is not None:
        return nation, NATIONS[nation]
    if named:
        fill = _hashed(str(named), OTHER_NATIONS)
        return str(named), Scheme(fill, ink_on(fill), fill)
    fill = sides.get(unit.get("side"), "#777777")
    return str(unit.get("side")), Scheme(fill, ink_on(fill), fill)


# -- unit types: the symbol in the type box -----------------------------------------------------------------
TYPE_WORDS = {
    "tank": "armor", "armour": "armor", "armored": "armor", "mech": "mechanized", "mechanised": "mechanized",
    "paratroop": "airborne", "parachute": "airborne", "raider": "airborne", "snlf": "marine",
    "naval-infantry": "marine", "amphibious": "marine", "guard": "infantry", "line": "infantry",
    "construction": "engineer", "engineers": "engineer", "horse-cavalry": "cavalry", "recon": "cavalry",
    "headquarters": "hq", "fortified": "fortress", "air": "air-force", "carrier": "cv-strike",
    "sf": "special-forces",
}
# the words drawn, in the legend's order, with the name the legend gives them
TYPES = {
    "infantry": "infantry", "armor": "armor", "mechanized": "mechanized", "cavalry": "cavalry",
    "artillery": "artillery", "marine": "marines, naval infantry", "airborne": "airborne",
    "engineer": "engineers", "hq": "headquarters", "garrison": "static garrison", "militia": "static militia",
    "fortress": "fortress", "coastal-defense": "coastal defense", "heavy-weapons": "heavy weapons",
    "ranger": "rangers", "special-forces": "special forces", "guerrilla": "guerrillas", "pw-camp": "PW camp",
    "deception": "deception unit", "air-force": "air force", "cv-strike": "carrier strike",
}


def type_of(word: str | None) -> str | None:
    """The symbol a unit type word draws (`tank` -> armor, `snlf` -> marine...), or None for no type."""
    if not word:
        return None
    key = str(word).strip().lower().replace(" ", "-")
    return TYPE_WORDS.get(key, key)


def _line(x1, y1, x2, y2, ink, width=1.0) -> Markup:
    return el("line", x1=x1, y1=y1, x2=x2, y2=y2, stroke=ink, stroke_width=f"{width:g}")


def _poly(points, ink, width=1.0, fill="none") -> Markup:
    return el("polyline", points=" ".join(f"{px:.1f},{py:.1f}" for px, py in points), fill=fill, stroke=ink,
              stroke_width=f"{width:g}", stroke_linejoin="round")


def _letters(text: str, cx: float, cy: float, h: float, ink: str) -> Markup:
    size = min(h * 0.8, 6.0)
    return el("text", text, x=cx, y=cy + size * 0.36, font_size=f"{size:.1f}", font_weight="bold",
              text_anchor="middle", fill=ink)


def symbol(kind: str | None, x: float, y: float, w: float, h: float, ink: str, static: bool = False) -> list:
    """The type box at (x, y), w by h: the frame and the symbol of `kind` (a `type_of` word) inside it, NATO-style
    (APP-6 land unit icons as wargames print them): infantry's crossed diagonals, armor's track, artillery's dot,
    cavalry's one diagonal, airborne's canopy, marines' waves... A static unit's frame has battlements on top."""
    x2, y2, cx, cy = x + w, y + h, x + w / 2, y + h / 2
    frame = el("rect", x=x, y=y, width=f"{w:g}", height=f"{h:g}", fill="none", stroke=ink, stroke_width="1.1",
               stroke_dasharray="2 1.2" if kind == "guerrilla" else None)
    out = [frame]
    cross = [_line(x, y, x2, y2, ink), _line(x, y2, x2, y, ink)]
    track = el("rect", x=x + w * 0.2, y=y + h * 0.25, width=f"{w * 0.6:.1f}", height=f"{h * 0.5:.1f}",
               rx=f"{h * 0.25:.1f}", fill="none", stroke=ink, stroke_width="1")
    waves = _poly([(x + w * (0.15 + 0.1 * i), y2 - h * (0.12 if i % 2 else 0.28)) for i in range(8)], ink, 0.8)
    dot = el("circle", cx=cx, cy=cy, r=f"{h * 0.16:.1f}", fill=ink)
    if kind in ("infantry", "garrison", "militia", "ranger", "guerrilla"):
        out += cross
        if kind == "ranger":
            out.append(_letters("R", cx, cy - h * 0.05, h * 0.5, ink))
    elif kind == "armor":
        out.append(track)
    elif kind == "mechanized":
        out += [*cross, track]
    elif kind == "cavalry":
        out.append(_line(x, y2, x2, y, ink))
    elif kind == "artillery":
        out.append(dot)
    elif kind == "heavy-weapons":
        out += [*cross, dot]
    elif kind == "coastal-defense":
        out += [el("circle", cx=cx, cy=y + h * 0.4, r=f"{h * 0.15:.1f}", fill=ink), waves]
    elif kind == "marine":  # the cross standing on the sea: waves along the box's foot
        shore = y + h * 0.66
        out += [_line(x, y, x2, shore, ink), _line(x, shore, x2, y, ink),
                _poly([(x + w * i / 8, y2 - h * (0.1 if i % 2 else 0.3)) for i in range(9)], ink, 0.9)]
    elif kind == "airborne":  # the infantry cross and a parachute canopy under it
        canopy = [(cx - w * 0.16 + w * 0.32 * i / 8, y2 - h * 0.1 - h * 0.22 * (1 - abs(i - 4) / 4) ** 0.5)
                  for i in range(9)]
        out += [*cross, _poly(canopy, ink, 1)]
    elif kind == "engineer":  # a bridge: a beam on three legs
        top, foot = y + h * 0.3, y + h * 0.72
        out += [_poly([(x + w * 0.25, foot), (x + w * 0.25, top), (x + w * 0.75, top), (x + w * 0.75, foot)], ink),
                _line(cx, top, cx, foot, ink)]
    elif kind == "hq":  # the staff at the frame's foot, and HQ in the box
        out += [_line(x, y, x, y2 + h * 0.2, ink, 1.3), _letters("HQ", cx, cy, h, ink)]
    elif kind == "fortress":
        out.append(_letters("F", cx, cy, h, ink))
        static = True
    elif kind == "special-forces":
        out.append(_letters("SF", cx, cy, h, ink))
    elif kind == "pw-camp":
        out.append(_letters("PW", cx, cy, h, ink))
    elif kind == "deception":
        out.append(_letters("D", cx, cy, h, ink))
    elif kind == "air-force":  # an aircraft seen from above
        out.append(_poly([(cx - w * 0.3, cy), (cx + w * 0.3, cy)], ink, 1.4))
        out.append(_poly([(cx, y + h * 0.18), (cx, y2 - h * 0.18)], ink, 1.4))
        out.append(_poly([(cx - w * 0.1, y2 - h * 0.2), (cx + w * 0.1, y2 - h * 0.2)], ink, 1.2))
    elif kind == "cv-strike":  # a carrier's hull and deck
        out.append(el("polygon", points=f"{x + w * 0.12:.1f},{cy - h * 0.05:.1f} {x2 - w * 0.12:.1f},"
                      f"{cy - h * 0.05:.1f} {x2 - w * 0.22:.1f},{cy + h * 0.25:.1f} {x + w * 0.22:.1f},"
                      f"{cy + h * 0.25:.1f}", fill=ink))
        out.append(_line(x + w * 0.2, cy - h * 0.2, x2 - w * 0.3, cy - h * 0.2, ink, 1))
    elif kind:  # a type this module has no symbol for: its first letters
        out.append(_letters(kind[:3].upper(), cx, cy, h, ink))
    if static or kind in ("garrison", "militia"):  # battlements: a unit that never moves (SNC 2.2.1, Ichi-Go 2.12)
        step = w / 5
        out += [el("rect", x=x + step * i, y=y - 1.8, width=f"{step:.1f}", height="1.8", fill=ink) for i in (0, 2, 4)]
    return out


# -- size marks ---------------------------------------------------------------------------------------------
SIZES = {
    "army-group": "XXXXX", "front": "XXXXX", "army": "XXXX", "area-army": "XXXXX", "corps": "XXX",
    "division": "XX", "brigade": "X", "regiment": "III", "group": "III", "battalion": "II", "company": "I",
    "platoon": "•••", "section": "••", "squad": "•",
}


def size_mark(word: str | None) -> str:
    """The mark over the type box for a size word (XX for a division...); "" for none or a word not known."""
    if not word:
        return ""
    return SIZES.get(str(word).strip().lower().replace(" ", "-"), "")


def size_of(u: dict) -> str | None:
    """The unit's size word: the view's `size`, else the last size word its name says ("Japanese area army HQ",
    "US Marine corps": Dai Senso's kinds name their size so), else None."""
    if u.get("size"):
        return str(u["size"])
    words = str(u.get("name") or "").lower().split()
    for i in range(len(words) - 1, -1, -1):
        for word in ("-".join(words[i:i + 2]), words[i]):
            if word in SIZES:
                return word
    return None


def steps_lost(u: dict) -> int:
    """The steps a unit on the map has lost and still shows: the view's `steps_lost` (Dai Senso 4.2.6.2: a counter
    flipped to its other side), else one for a `reduced` counter (SNC 2.2.1: flipped to its reduced side), else none."""
    lost = u.get("steps_lost")
    if isinstance(lost, int) and lost > 0:
        return lost
    return 1 if u.get("reduced") is True else 0


# -- the counter ------------------------------------------------------------------------------------------
SIDE = 40.0  # a counter's side in map units (a hex is 72 wide and 62 high): room for an id, a symbol and factors
GLYPH = 0.6  # a DejaVu Sans glyph's mean advance, in ems: to fit ids within their counter
ROOM = SIDE - 4  # the width a line of text may take


@dataclass(frozen=True)
class _Layout:
    """Where the parts of a counter go, from its top-left corner: the id's lines (font, baselines), the size
    mark's baseline, the type box (x, y, w, h) and the factors' font and baseline."""

    id_font: float
    id_lines: tuple[float, ...]
    size_y: float
    box: tuple[float, float, float, float]
    factor_font: float
    factor_y: float


ONE_LINE = _Layout(7.5, (8.3,), 13.9, (10.0, 16.0, 20.0, 11.5), 10.0, 37.6)
TWO_LINES = _Layout(7.0, (7.2, 14.0), 20.0, (11.0, 21.2, 18.0, 9.0), 9.5, 38.4)


def id_lines(uid: str) -> list[str]:
    """The id as one line, or two split at the hyphen nearest its middle when one line would have to be squeezed
    hard to fit; a line still too wide is squeezed to the counter's width (`_text`)."""
    if len(uid) * GLYPH * ONE_LINE.id_font <= ROOM * 1.25 or "-" not in uid:
        return [uid]
    cuts = [i + 1 for i, ch in enumerate(uid) if ch == "-" and 0 < i + 1 < len(uid)]
    cut = min(cuts, key=lambda i: abs(len(uid) / 2 - i)) if cuts else len(uid)
    return [uid[:cut], uid[cut:]] if cut < len(uid) else [uid]


def _text(line: str, x: float, y: float, font: float, ink: str, cls: str, bold: bool = False) -> Markup:
    """A line of text centred at x, squeezed to the counter's width if it would spill over a neighbour."""
    wide = len(line) * GLYPH * font * (1.1 if bold else 1) > ROOM
    return el("text", line, class_=cls, x=x, y=y, font_size=f"{font:g}", font_weight="bold" if bold else None,
              text_anchor="middle", fill=ink, textLength=f"{ROOM:g}" if wide else None,
              lengthAdjust="spacingAndGlyphs" if wide else None)


def face_down(u: dict) -> bool:
    """An untried or concealed counter as this view shows it: no type and no strength to draw."""
    return bool(u.get("untried")) or (u.get("strength") is None and not u.get("type"))


def factors(u: dict) -> str:
    """The factors as the game prints them (the view's `factors`), else the strength ("?" when hidden)."""
    if u.get("factors") not in (None, ""):
        return str(u["factors"])
    return "?" if u.get("strength") is None or face_down(u) else str(u["strength"])


def describe(u: dict) -> str:
    """The counter's tooltip: what the view says of the unit, in words."""
    if face_down(u):
        what = "untried" if u.get("untried") else "concealed"
        return f"{u['id']} ({u['side']}): {what}" + (f", {u['factors']}" if u.get("factors") else "")
    bits = [str(b) for b in (size_of(u), u.get("type")) if b]
    name = f" {u['name']}" if u.get("name") and u.get("name") != u["id"] else ""
    steps, lost = u.get("steps"), steps_lost(u)
    return (f"{u['id']}{name} ({u['side']}" + (f", {u.get('nation') or u.get('nationality')}"
                                                 if u.get("nation") or u.get("nationality") else "") + ")"
            + (f" {' '.join(bits)}" if bits else "") + f", factors {factors(u)}"
            + (f", {steps} step(s)" if steps is not None else "") + (f", {lost} lost" if lost else ""))


def counter(u: dict, x: float, y: float, sides: dict[str, str], hex_label: str = "") -> Markup:
    """A unit's counter with its top-left corner at (x, y), in its nation's colours: the id on top, the size mark
    over the type box, the factors along the foot, one pip per step left at the left of the box; face down, "?".
    The face is drawn at the origin and moved into place, so a unit unchanged from one picture to the next (most
    of them, stepping through a replay) is drawn once (`_face`)."""
    nation, sch = scheme(u, sides)
    shown = {k: v for k, v in u.items() if k != "hex"}
    face = _face(json.dumps(shown, sort_keys=True, default=str), sch.field, sch.ink)
    return el("g", join((el("title", describe(u)), face), "\n"), class_="counter", data_unit=u["id"],
              data_side=u["side"], data_nation=nation, data_type=type_of(u.get("type")) or "", data_hex=hex_label,
              data_steps="" if u.get("steps") is None else u["steps"], data_lost=steps_lost(u) or None,
              transform=f"translate({x:.1f},{y:.1f})")


@lru_cache(maxsize=2048)
def _face(unit: str, fill: str, ink: str) -> Markup:
    """The drawing of a counter at the origin, from the unit as the view gives it (JSON) and its colours."""
    u = json.loads(unit)
    mid = SIDE / 2
    lines = id_lines(str(u["id"]))
    lay = ONE_LINE if len(lines) == 1 else TWO_LINES
    parts: list = [el("rect", x="0", y="0", width=f"{SIDE:g}", height=f"{SIDE:g}", rx="2.5", fill=fill,
                      stroke="#111", stroke_width="1")]
    parts += [_text(line, mid, by, lay.id_font, ink, "id") for line, by in zip(lines, lay.id_lines, strict=True)]
    bx, by, bw, bh = lay.box
    if face_down(u):
        parts.append(el("text", "?", class_="unknown", x=mid, y=by + bh * 0.95, font_size="15", font_weight="bold",
                        text_anchor="middle", fill=ink))
        if u.get("factors"):
            parts.append(_text(str(u["factors"]), mid, lay.factor_y, lay.factor_font, ink, "factors", True))
        return join(parts, "\n")
    kind = type_of(u.get("type"))
    if kind is not None:
        mark = size_mark(size_of(u))
        if mark:
            parts.append(el("text", mark, class_="size", x=mid, y=lay.size_y, font_size="5.5", font_weight="bold",
                            text_anchor="middle", fill=ink))
        parts += symbol(kind, bx, by, bw, bh, ink, static=bool(u.get("static")))
    parts.append(_text(factors(u), mid, lay.factor_y, lay.factor_font, ink, "factors", True))
    steps = u.get("steps") if isinstance(u.get("steps"), int) and u["steps"] > 0 else 0
    pips = [True] * steps + [False] * steps_lost(u)  # the steps left, then those lost: hollow
    parts += [el("circle", class_="step" if left else "step lost", cx=4.2, cy=by + 1.6 + 3.5 * i, r="1.4",
                 fill=ink if left else "none", stroke=None if left else ink, stroke_width=None if left else "0.7")
              for i, left in enumerate(pips[:4])]
    if u.get("indicator"):
        parts.append(el("text", str(u["indicator"])[:2], class_="indicator", x=4.5, y=by + bh + 1, font_size="6",
                        font_weight="bold", text_anchor="middle", fill=ink))
    return join(parts, "\n")  # a line each: the picture travels by email as text (render._lines)


def blank(x: float, y: float, sch: Scheme) -> Markup:
    """The edge of a counter the view does not show (beneath an enemy stack's top unit): its nation, no more."""
    return el("rect", class_="beneath", x=x, y=y, width=f"{SIDE:g}", height=f"{SIDE:g}", rx="2.5", fill=sch.field,
              stroke="#111", stroke_width="1")


PEEK = (-3.0, 1.5)  # how far each counter beneath shows out from under the one above it
DEEPEST = 2  # counters deeper than this are drawn where the second one is (the badge counts them all)


def stack(units: list[dict], cx: float, cy: float, sides: dict[str, str], hex_label: str) -> list[Markup]:
    """A hex's counters, the last one on top and centred on (cx, cy), those beneath peeking out to the lower
    left, the ones the view does not show (`hidden_below`, SNC 6.3, Ichi-Go 6.6) as blank edges of the top unit's
    nation; with more than one, a badge at the top counter's right edge says how many there are."""
    hidden = sum(u.get("hidden_below") or 0 for u in units)
    depth = len(units) + hidden
    out: list[Markup] = []
    top_scheme = scheme(units[-1], sides)[1]
    for layer in range(depth - 1, -1, -1):  # the deepest first
        dx, dy = (PEEK[0] * min(layer, DEEPEST), PEEK[1] * min(layer, DEEPEST))
        x, y = cx - SIDE / 2 + dx, cy - SIDE / 2 + dy
        shown = len(units) - 1 - layer  # layers 0..len-1 are the view's units, the top one last in its list
        if shown >= 0:
            out.append(counter(units[shown], x, y, sides, hex_label))
        else:
            out.append(blank(x, y, top_scheme))
    if depth > 1:
        bx, by = cx + SIDE / 2, cy
        out.append(el("g", el("circle", cx=bx, cy=by, r="6.5", fill="#fff", stroke="#111"),
                      el("text", depth, x=bx, y=by + 3.2, font_size="9", font_weight="bold", text_anchor="middle"),
                      class_="stack-size", data_hex=hex_label))
    return out
