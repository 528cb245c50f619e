"""The position as plain text, for turn emails and `cli.py state`: `render_view` (a view's records as aligned
tables, control grouped by side) and maps of one line per hex holding a stack: `render_board` every stack,
`render_area` the area around the action.

`render_area`, for turn emails: one line per hex holding a stack, for
the hexes near the action, from `game_map` and one side's `view` only (the same view the rest of the email and
the attached SVG use), so it shows exactly what that side sees and nothing else. Nothing here knows a game.

"Near the action": the stacks within `radius` hexes of a stack of another side (the front), and the stacks in
or next to a hex named in the history lines the reader is sent (what happened since their last email, already
through their side's filter); if none of those is the reader's, their own stacks too (the units that can act;
for the arbiter, every stack). At most `limit` hexes are listed, the front first, then what the news names;
they are printed in groups of nearby hexes, by label. The attached picture shows the whole map.
"""
from __future__ import annotations

import re
import textwrap
from collections import defaultdict

from app.rules.kernel.hexgrid import Hex
from app.rules.kernel.mapfile import GameMap

RADIUS = 2
LIMIT = 24
PLACE_WIDTH = 26  # a longer place text goes on below its line rather than widen every line
# a hex label in a history line: four digits, after a map sheet's letter where the game has several ("w4324"),
# not part of a longer number or word nor an index ("die roll #1203")
_LABEL = re.compile(r"(?<![#\w])(?:[a-z](?=\d))?\d{4}(?!\d)")
# history lines whose hexes are not "action": bookkeeping of the game and of disputes, retractions
_NOT_ACTION = ("core.Retracted", "core.DisputeRaised", "core.DisputeAnswered", "core.GameCreated",
               "core.GameForked", "core.PlayerJoined", "core.SeedRevealed", "core.SeatAutomated", "core.RollsSpent",
               "core.SeatStalled", "core.BoardOpened")


def hex_of(label) -> Hex | None:
    if not isinstance(label, str):
        return None
    try:
        return Hex.parse(label)
    except ValueError:
        return None


def about_play(row: dict) -> bool:
    """A standing history line about play: not retracted, not bookkeeping of the game or of disputes."""
    return not row.get("retracted") and row.get("type") not in _NOT_ACTION


def touched_hexes(game_map: GameMap, rows: list[dict]) -> set[Hex]:
    """The on-map hexes named in these history lines (standing ones, about play), as `history.lines` gives them."""
    out = set()
    for row in rows:
        if not about_play(row):
            continue
        for label in _LABEL.findall(row.get("text", "")):
            h = hex_of(label)
            if h is not None and game_map.on_map(h):
                out.add(h)
    return out


def stacks_of(game_map: GameMap, view: dict) -> dict[Hex, list[dict]]:
    """The counters `view` shows on the map, by hex (its `units` list: the replay contract of app/rules/base.py)."""
    stacks: dict[Hex, list[dict]] = defaultdict(list)
    for u in view.get("units", []) or []:
        h = hex_of(u.get("hex"))
        if h is not None and game_map.on_map(h):
            stacks[h].append(u)
    return dict(stacks)


def area(game_map: GameMap, view: dict, side: str | None, touched: set[Hex] = frozenset(),
         radius: int = RADIUS, limit: int = LIMIT) -> tuple[list[Hex], int, str]:
    """(hexes to list, how many more were left out, which rule chose them)."""
    stacks = stacks_of(game_map, view)
    sides = {h: {u["side"] for u in us} for h, us in stacks.items()}

    def to_other(h: Hex) -> int | None:
        near = [game_map.distance(h, o) for o in stacks if sides[o] - sides[h] or sides[h] - sides[o]]
        return min(near) if near else None

    dist = {h: to_other(h) for h in stacks}
    front = {h for h, d in dist.items() if d is not None and d <= radius}
    near_touched = {h for h in stacks if any(game_map.distance(h, t) <= 1 for t in touched)}
    chosen = front | near_touched
    why = f"stacks within {radius} hexes of another side's, and in or next to a hex named above"
    own = {h for h in stacks if side is None or side in sides[h]}
    if not chosen & own:  # nothing of the reader's is near the action: their own stacks are what can act
        chosen |= own
        why = (f"{why}, and your stacks" if chosen - own else
               "no stacks in contact: " + ("your stacks" if side is not None else "every stack"))
    # the front first (the closest to another side), then what the news above names, then the rest
    ranked = sorted(chosen, key=lambda h: (dist[h] if dist[h] is not None and dist[h] <= radius else radius + 1,
                                           h not in near_touched, h))
    kept = ranked[:limit]
    return kept, len(ranked) - len(kept), why


def _clusters(game_map: GameMap, hexes: list[Hex], radius: int) -> list[list[Hex]]:
    """Groups of hexes linked by steps of at most `radius`: one block of lines per part of the map."""
    groups: list[list[Hex]] = []
    for h in sorted(hexes):
        joined = [g for g in groups if any(game_map.distance(h, o) <= radius for o in g)]
        merged = [h, *(x for g in joined for x in g)]
        groups = [g for g in groups if g not in joined] + [sorted(merged)]
    return sorted(groups, key=lambda g: g[0])


def _counter(u: dict) -> str:
    if u.get("untried"):
        what = "untried"
    else:
        strength = u.get("strength")
        what = "?" if strength is None else str(strength)
    hidden = u.get("hidden_below") or 0
    return f"{u['id']} ({what})" + (f" +{hidden} hidden below" if hidden else "")


def _place(game_map: GameMap, h: Hex, view: dict) -> str:
    bits = [game_map.terrain_of(h)]
    name = game_map.name_of(h)
    if name:
        bits.append(name)
    label = str(h)
    if label in {str(x) for x in (hex_of(v) for v in view.get("victory_hexes", []) or []) if x}:
        owner = (view.get("control") or {}).get(label)
        bits.append("victory hex" + (f" ({owner} control)" if owner else ""))
    return ", ".join(bits)


EACH_LINE = "Each line: hex, terrain and place, then each side's counters as unit (strength)."


def _stack_lines(game_map: GameMap, view: dict, stacks: dict[Hex, list[dict]], hexes: list[Hex],
                 radius: int) -> list[str]:
    """Per part of the map (a blank line before each), one line per hex: `HEX  terrain, place  side: counters`,
    the places in one column; a place longer than the column goes on below, so every line's counters start in
    the same column (the turn email and `cli.py state` alike)."""
    places = {h: _place(game_map, h, view) for h in hexes}
    width = min(max(len(p) for p in places.values()), PLACE_WIDTH)
    out = []
    for group in _clusters(game_map, hexes, radius):
        out.append("")
        for h in group:
            by_side: dict[str, list[str]] = defaultdict(list)
            for u in stacks[h]:
                by_side[u["side"]].append(_counter(u))
            units = "; ".join(f"{s}: {', '.join(us)}" for s, us in by_side.items())
            first, *rest = textwrap.wrap(places[h], width, break_on_hyphens=False) or [""]
            out.append(f"  {h}  {first.ljust(width)}  {units}".rstrip())
            out += [f"  {'':{len(str(h))}}  {more}" for more in rest]
    return out


def render_board(game_map: GameMap, view: dict) -> str:
    """Every stack the view shows, per part of the map, then the units it shows off the map (eliminated, not yet
    arrived, held off-map), by side."""
    stacks = stacks_of(game_map, view)
    out = [f"  {EACH_LINE}"] + (_stack_lines(game_map, view, stacks, sorted(stacks), RADIUS) if stacks
                                else ["", "  (no units on the map)"])
    off: dict[str, list[str]] = defaultdict(list)
    for u in view.get("units", []) or []:
        h = hex_of(u.get("hex"))
        if h is None or not game_map.on_map(h):
            off[u["side"]].append(_counter(u))
    if off:
        out += ["", _wrapped("  Not on the map:", ["; ".join(f"{s}: {', '.join(us)}" for s, us in off.items())])]
    return "\n".join(out)


def render_area(game_map: GameMap, view: dict, side: str | None, rows: list[dict] = (),
                attachment: str | None = None, radius: int = RADIUS, limit: int = LIMIT) -> str:
    """The text block: a heading, then per part of the map one line per hex `HEX  terrain, place  stacks`."""
    hexes, more, why = area(game_map, view, side, touched_hexes(game_map, list(rows)), radius, limit)
    stacks = stacks_of(game_map, view)
    if not hexes:
        return "  (no units on the map)"
    out = [f"  {why[0].upper() + why[1:]}.", f"  {EACH_LINE}"]
    if attachment:
        out.append(f"  The whole map, as you see it, is attached as a picture: {attachment}")
    out += _stack_lines(game_map, view, stacks, hexes, radius)
    if more:
        out += ["", f"  ... and {more} more hex(es) with stacks" + (": see the attached map" if attachment else "")]
    return "\n".join(out)


def render_view(view: dict) -> str:
    """A side's view as text: scalars as `key: value`, lists of records as aligned tables, long lists and maps
    wrapped (a map of hexes to a side is grouped by side), nested records by their ids."""
    out = []
    for key, value in view.items():
        if isinstance(value, list) and value and isinstance(value[0], dict):
            cols = list(value[0])
            cells = [{c: _cell(r.get(c, "")) for c in cols} for r in value]
            widths = {c: max(len(c), *(len(r[c]) for r in cells)) for c in cols}
            out.append(f"{key}:")
            out.append("  " + "  ".join(c.ljust(widths[c]) for c in cols))
            out += [("  " + "  ".join(r[c].ljust(widths[c]) for c in cols)).rstrip() for r in cells]
        elif isinstance(value, dict) and value and all(not isinstance(v, dict | list) for v in value.values()):
            groups: dict = {}
            for k, v in value.items():
                groups.setdefault(str(v), []).append(str(k))
            if len(groups) < len(value):  # e.g. control: hexes grouped by the side holding them
                out.append(f"{key}:")
                out += [_wrapped(f"  {v}:", ks) for v, ks in groups.items()]
            else:
                out.append(_wrapped(f"{key}:", [f"{k}={v}" for k, v in value.items()]))
        elif isinstance(value, list | dict) and value:
            out.append(_wrapped(f"{key}:", [_cell(v) for v in value] if isinstance(value, list)
                                else [f"{k}={_cell(v)}" for k, v in value.items()]))
        else:
            out.append(f"{key}: {_cell(value) if value not in ([], {}) else '-'}")
    return "\n".join(out)


def _cell(value) -> str:
    """A nested value in one cell: a record by its id (or its fields), a list joined."""
    if isinstance(value, dict):
        return str(value["id"]) if "id" in value else " ".join(f"{k}={_cell(v)}" for k, v in value.items())
    if isinstance(value, list):
        return " ".join(_cell(v) for v in value)
    return str(value)


def _wrapped(head: str, words: list[str], width: int = 100) -> str:
    return textwrap.fill(" ".join(words), width=width, initial_indent=head + " ", subsequent_indent="    ")
