"""Post-game analysis from replay frames: step losses, victory-hex control, odds taken, die-roll luck.

Everything is computed from what one viewer's frames show (so a side mid-game learns nothing new), using
only the rules-agnostic contract: the frames' `losses` where the rules count losses by event (so a side's chart
counts exactly the losses its history shows), else view units' `steps`; the view's `control`/`victory_hexes`,
its `score` (a running total the game keeps, such as Olympic's American Casualty Points) and `combat_summary`
(app/rules/base.py). A rule set without one of these simply gets fewer sections.

Luck (docs/replay.md): for each attack, the observed result is ranked within its column's result
distribution by the attacker's `value` of each result, as a mid-rank percentile
u = P(V < v) + P(V = v) / 2. With fair dice E[u] = 1/2, so the attack's luck is u - 1/2 (positive = luckier
than average for the attacker), and its variance under the null is sum p_k (u_k - 1/2)^2. A side's luck
score is the sum over its attacks; its spread the square root of the summed variances; z = score / spread.
"""
from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction

from app.projections.markup import el
from app.projections.render import side_colours
from app.projections.replay import Replay
from app.rules.base import optional


def roll_luck(distribution: list[dict], roll: int) -> dict:
    """Rank the result of `roll` within a column's distribution, for the attacker (see module docstring)."""
    faces = [(d["roll"], d["value"], float(d.get("p", 1 / len(distribution)))) for d in distribution]
    total = sum(p for _, _, p in faces)
    faces = [(r, v, p / total) for r, v, p in faces]

    def mid_rank(v: float) -> float:
        return sum(p for _, w, p in faces if w < v) + sum(p for _, w, p in faces if w == v) / 2

    observed = next((v for r, v, _ in faces if r == roll), None)
    if observed is None:
        raise ValueError(f"roll {roll} is not in the distribution {[r for r, _, _ in faces]}")
    expected = sum(v * p for _, v, p in faces)
    u = mid_rank(observed)
    variance = sum(p * (mid_rank(v) - 0.5) ** 2 for _, v, p in faces)
    return {"value": observed, "expected": round(expected, 4), "percentile": round(u, 4),
            "luck": round(u - 0.5, 4), "variance": variance}


def outcomes(distribution: list[dict], roll: int) -> list[dict]:
    """Every face of an attack's die with the result it gives, its value for the attacker and its probability,
    the face that came marked: what the attack could have given instead (issue 29)."""
    total = sum(float(d.get("p", 1 / len(distribution))) for d in distribution)
    return [{"roll": d["roll"], "result": d["result"], "value": d["value"],
             "p": round(float(d.get("p", 1 / len(distribution))) / total, 4), "came": d["roll"] == roll}
            for d in distribution]


def _ratio(label: str) -> float | None:
    """A ratio label's value ("3:1", "1-2", "≤1:5" a little less than 1:5), None for any other label."""
    text = label.strip()
    bound = 0.0
    for sign, prefixes in ((-1e-6, ("<=", "≤", "<")), (1e-6, (">=", "≥", ">"))):
        for prefix in prefixes:
            if text.startswith(prefix):
                text, bound = text[len(prefix):], sign
                break
    for sep in (":", "-"):
        a, _, b = text.partition(sep)
        try:
            return float(Fraction(a) / Fraction(b)) + bound
        except (ValueError, ZeroDivisionError):
            continue
    return None


def column_order(labels, tables: list[list[str]]) -> list[str]:
    """The odds columns fought on, in the order their combat results table prints them (the summaries'
    `columns`: Olympic's differentials -2 ... +10, Ichi-Go's ≤1:5 first); a label no table names (a summary
    without `columns`, Ichi-Go's "-" battle of 11.27) by its ratio, else after them as written."""
    place: dict[str, int] = {}
    for table in tables:
        for label in table:
            place.setdefault(label, len(place))

    def key(label: str):
        if label in place:
            return (0, place[label], 0.0, label)
        ratio = _ratio(label)
        return (1, 0, ratio, label) if ratio is not None else (2, 0, 0.0, label)

    return sorted(set(labels), key=key)


def analyse(rep: Replay) -> dict:
    sides = list(rep.sides)
    by_event = optional(rep.rules, "losses") is not None  # else: from the steps the views show
    turns: list[int] = []
    losses: dict[str, dict[int, int]] = {s: defaultdict(int) for s in sides}
    previous: dict[str, int] = {}
    control_by_turn: dict[int, dict] = {}
    has_control = False
    attacks: list[dict] = []
    odds: dict[str, dict[str, int]] = {s: defaultdict(int) for s in sides}
    tables: list[list[str]] = []
    score_name, score_by_turn, score_by_side = None, {}, False
    for frame in rep.frames:
        turn = frame.turn if frame.turn is not None else 0
        if turn not in turns:
            turns.append(turn)
        if not frame.retracted:  # a retracted event's losses stand in no position, so in no chart
            if by_event:
                for side, steps in (frame.losses or {}).items():
                    losses.setdefault(side, defaultdict(int))[turn] += steps
            units = {u["id"]: u for u in frame.view.get("units", []) if isinstance(u.get("steps"), int)}
            for uid, u in units.items():
                before = previous.get(uid)
                if not by_event and before is not None and u["steps"] < before:
                    losses.setdefault(u["side"], defaultdict(int))[turn] += before - u["steps"]
            previous.update({uid: u["steps"] for uid, u in units.items()})
        score = frame.view.get("score")
        if score:  # one running total, or one per side (app/rules/base.py)
            score_name, score_by_side = score["name"], "by_side" in score
            score_by_turn[turn] = dict(score["by_side"]) if score_by_side else score["value"]
        victory = frame.view.get("victory_hexes")
        if victory:
            has_control = True
            control = frame.view.get("control") or {}
            counts = {s: sum(1 for h in victory if control.get(h) == s) for s in sides}
            control_by_turn[turn] = {"turn": turn, "seq": frame.seq, "held": counts, "of": len(victory)}
        combat = frame.combat
        if combat:
            side = combat["attacker"]
            column = combat.get("column") or combat["odds"]  # the column fought on, after any shifts
            odds.setdefault(side, defaultdict(int))[str(column)] += 1
            table = [str(c) for c in combat.get("columns") or []]
            if table and table not in tables:
                tables.append(table)
            entry = {"seq": frame.seq, "turn": turn, "side": side, "hex": combat.get("hex"),
                     "odds": combat["odds"], "column": column, "roll": combat["roll"], "result": combat["result"]}
            if combat.get("distribution"):
                entry.update(roll_luck(combat["distribution"], combat["roll"]))
                entry["outcomes"] = outcomes(combat["distribution"], combat["roll"])
            attacks.append(entry)
    luck = {}
    for side in sides:
        mine = [a for a in attacks if a["side"] == side and "luck" in a]
        score = sum(a["luck"] for a in mine)
        spread = math.sqrt(sum(a["variance"] for a in mine))
        expected, obtained = sum(a["expected"] for a in mine), sum(a["value"] for a in mine)
        luck[side] = {"attacks": len(mine), "score": round(score, 4), "sd": round(spread, 4),
                      "z": round(score / spread, 2) if spread else 0.0,
                      "expected": round(expected, 4), "obtained": round(obtained, 4),
                      "result_vs_expected": round(obtained - expected, 4)}
    columns = column_order({c for per in odds.values() for c in per}, tables)
    if not score_name:
        running = None
    elif score_by_side:
        running = {"name": score_name, "by_side": {s: {str(t): v.get(s, 0) for t, v in score_by_turn.items()}
                                                 for s in sides}}
    else:
        running = {"name": score_name, "by_turn": {str(t): v for t, v in score_by_turn.items()}}
    return {
        "game_id": rep.game_id, "viewer": rep.viewer, "over": rep.over, "sides": sides, "turns": turns,
        "step_losses": {s: {str(t): losses.get(s, {}).get(t, 0) for t in turns} for s in sides},
        "control": [control_by_turn[t] for t in turns if t in control_by_turn] if has_control else None,
        "score": running,
        "odds": {"columns": columns, "by_side": {s: {c: odds.get(s, {}).get(c, 0) for c in columns} for s in sides}},
        "attacks": [{k: v for k, v in a.items() if k != "variance"} for a in attacks],
        "luck": luck,
    }


# -- charts ------------------------------------------------------------------------------------------------
W, H, PAD_L, PAD_B, PAD_T, PAD_R = 460, 250, 44, 48, 30, 14


def nice_ticks(lo: float, hi: float, integer: bool = False) -> list[float]:
    """Round axis ticks covering lo..hi: steps of 1, 2, 2.5 or 5 times a power of ten (whole steps for counts)."""
    span = (hi - lo) or 1.0
    raw = span / 4
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)
    if integer:
        step = max(1, math.ceil(step))
    first, last = math.floor(lo / step), math.ceil(hi / step)
    return [round(k * step, 6) for k in range(first, last + 1)]


def _frame(title: str, y_max: float, y_min: float = 0.0, y_label: str = "", integer: bool = False):
    plot_h = H - PAD_T - PAD_B
    ticks = nice_ticks(y_min, y_max, integer)
    y_min, y_max = ticks[0], ticks[-1]
    span = (y_max - y_min) or 1.0

    def y_of(v: float) -> float:
        return PAD_T + plot_h * (1 - (v - y_min) / span)

    out = [el("rect", width=W, height=H, fill="#fff"),
           el("text", title, x=W / 2, y="16", text_anchor="middle", font_size="12", font_weight="bold")]
    for v in ticks:
        y = y_of(v)
        out.append(el("line", x1=PAD_L, x2=W - PAD_R, y1=y, y2=y, stroke="#e3e3e3"))
        out.append(el("text", _num(v), x=PAD_L - 4, y=y + 3, text_anchor="end", fill="#555"))
    if y_label:
        out.append(el("text", y_label, transform=f"translate(11,{PAD_T + plot_h / 2}) rotate(-90)",
                      text_anchor="middle", fill="#555"))
    return out, y_of


def _svg(parts: list) -> str:
    """A chart's SVG document around `parts` (elements made by `el`)."""
    return str(el("svg", *parts, xmlns="http://www.w3.org/2000/svg", viewBox=f"0 0 {W} {H}", width=W, height=H,
                  font_family="DejaVu Sans, Arial, sans-serif", font_size="10", class_="chart"))


def _num(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else f"{v:.2f}"


def _legend(out: list[str], colours: dict[str, str]) -> None:
    x = PAD_L
    for side, colour in colours.items():
        out.append(el("rect", x=x, y=H - 14, width="10", height="10", fill=colour))
        out.append(el("text", side, x=x + 14, y=H - 5))
        x += 24 + 7 * len(side)


def bar_chart(title: str, categories: list[str], series: dict[str, list[float]], colours: dict[str, str],
              y_label: str = "") -> str:
    y_max = max([1.0] + [v for vals in series.values() for v in vals])
    out, y_of = _frame(title, y_max, y_label=y_label, integer=True)
    plot_w = W - PAD_L - PAD_R
    group = plot_w / max(1, len(categories))
    bar = group * 0.8 / max(1, len(series))
    for i, cat in enumerate(categories):
        x0 = PAD_L + group * i + group * 0.1
        for j, (side, vals) in enumerate(series.items()):
            v = vals[i]
            y = y_of(v)
            out.append(el("rect", el("title", f"{side} {cat}: {_num(v)}"), class_="bar", data_side=side,
                          data_category=cat, data_value=_num(v), x=x0 + bar * j, y=y, width=bar - 1,
                          height=y_of(0) - y, fill=colours[side]))
        out.append(el("text", cat, x=x0 + group * 0.4, y=H - PAD_B + 13, text_anchor="middle"))
    _legend(out, colours)
    return _svg(out)


def line_chart(title: str, series: dict[str, list[tuple[float, float]]], colours: dict[str, str],
               x_label: str = "", y_label: str = "", band: dict[str, float] | None = None,
               integer: bool = False, steps: bool = False, dashed: frozenset[str] = frozenset(),
               marks: list[tuple[float, float, str]] = ()) -> str:
    values = [y for pts in series.values() for _, y in pts] + [0.0]
    xs = [x for pts in series.values() for x, _ in pts] or [0.0, 1.0]
    bands = band or {}
    y_max = max(values + [b for b in bands.values()])
    y_min = min(values + [-b for b in bands.values()])
    if y_max == y_min:
        y_max += 1
    out, y_of = _frame(title, y_max, y_min, y_label, integer)
    x_lo, x_hi = min(xs), max(xs) if max(xs) > min(xs) else min(xs) + 1
    plot_w = W - PAD_L - PAD_R

    def x_of(v: float) -> float:
        return PAD_L + plot_w * (v - x_lo) / (x_hi - x_lo)

    if y_min < 0 < y_max:
        out.append(el("line", x1=PAD_L, x2=W - PAD_R, y1=y_of(0), y2=y_of(0), stroke="#999"))
    for side, sd in bands.items():
        for sign in (1, -1):
            out.append(el("line", x1=PAD_L, x2=W - PAD_R, y1=y_of(sign * sd), y2=y_of(sign * sd),
                          stroke=colours[side], stroke_dasharray="4 3", opacity="0.6"))
    for side, points in series.items():
        if points:
            pts = points
            if steps:  # a value holds until the next point: draw it flat, then jump
                pts = [p for (x0, y0), (x1, _) in zip(pts, pts[1:], strict=False) for p in ((x0, y0), (x1, y0))] + [
                    pts[-1]]
            path = " ".join(f"{x_of(x):.1f},{y_of(y):.1f}" for x, y in pts)
            out.append(el("polyline", class_="series", data_side=side, points=path, fill="none",
                          stroke=colours[side], stroke_width="2", stroke_dasharray="5 3" if side in dashed else None))
            if steps or len(points) == 1:  # each turn's value a dot too, so that a series of one point shows
                out += [el("circle", el("title", f"{side} {_num(x)}: {_num(y)}"), class_="point", data_side=side,
                           cx=x_of(x), cy=y_of(y), r="2.5", fill=colours[side]) for x, y in points]
    for x, y, label in marks:  # points to call out: a circle with its label as the tooltip
        out.append(el("circle", el("title", label), class_="mark", cx=x_of(x), cy=y_of(y), r="5", fill="none",
                      stroke="#222", stroke_width="2"))
    for x in nice_ticks(x_lo, x_hi, integer=True):
        if x_lo <= x <= x_hi:
            out.append(el("text", _num(x), x=x_of(x), y=H - PAD_B + 13, text_anchor="middle"))
    out.append(el("text", x_label, x=PAD_L + plot_w / 2, y=H - PAD_B + 26, text_anchor="middle", fill="#555"))
    _legend(out, colours)
    return _svg(out)


@dataclass(frozen=True)
class Chart:
    """One chart of an analysis: its title and SVG; a chart that would show nothing is no empty frame but a card
    saying why (`why`), which the viewer shows as a line of text."""

    name: str
    title: str
    svg: str
    why: str | None = None


def left_out(name: str, title: str, why: str) -> Chart:
    """A chart with nothing to show: its title and the reason, on a card the size of a chart, with no axes."""
    svg = _svg([el("rect", width=W, height=H, fill="#fff"),
                el("text", title, x=W / 2, y="16", text_anchor="middle", font_size="12", font_weight="bold"),
                el("text", why, class_="why", x=W / 2, y=H / 2, text_anchor="middle", font_size="12", fill="#555")])
    return Chart(name, title, svg, why)


def _score(result: dict, colours: dict[str, str]) -> Chart | None:
    """The game's own running measure of victory (Olympic's American Casualty Points, Formosa's victory points)."""
    score = result.get("score")
    if not score:
        return None
    name = score["name"]
    title = f"{name} (end of each turn)"
    if "by_side" in score:
        series = {s: [(float(t), float(v)) for t, v in by_turn.items()] for s, by_turn in score["by_side"].items()}
        colours = {s: colours[s] for s in series}
    else:
        series = {name: [(float(t), float(v)) for t, v in score["by_turn"].items()]}
        colours = side_colours([name])
    return Chart("score", title, line_chart(title, series, colours, "turn", "points", integer=True, steps=True))


def _control(result: dict, colours: dict[str, str]) -> Chart | None:
    """Victory hexes each side held at the end of each turn (SNC 4.3, Ichi-Go 4.1-4.5, Dai Senso's hexes to hold)."""
    control = result["control"]
    if control is None:
        return None
    of = max(c["of"] for c in control) if control else 0
    title = f"Victory hexes held, of {of} (end of each turn)"
    if not any(n for c in control for n in c["held"].values()):
        return left_out("control", title, "no side is shown holding a victory hex at the end of any turn")
    series = {s: [(c["turn"], c["held"][s]) for c in control] for s in result["sides"]}
    return Chart("control", title, line_chart(title, series, colours, "turn", "hexes", integer=True, steps=True))


def _losses(result: dict, colours: dict[str, str]) -> Chart:
    title = "Steps lost per turn"
    turns = [str(t) for t in result["turns"]]
    series = {s: [result["step_losses"][s][t] for t in turns] for s in result["sides"]}
    if not any(v for vals in series.values() for v in vals):
        return left_out("losses", title, "no side has lost a step")
    return Chart("losses", title, bar_chart(title, turns, series, colours, "steps"))


def _odds(result: dict, colours: dict[str, str]) -> Chart:
    title = "Odds taken (attacks per column, in the table's order)"
    cols = result["odds"]["columns"]
    if not cols:
        return left_out("odds", title, "no attack has been fought")
    series = {s: [result["odds"]["by_side"][s][c] for c in cols] for s in result["sides"]}
    return Chart("odds", title, bar_chart(title, cols, series, colours, "attacks"))


def _luck(result: dict, colours: dict[str, str]) -> Chart:
    title = "Cumulative die-roll luck (dashed: ±1 sd, fair dice)"
    series: dict[str, list[tuple[float, float]]] = {}
    for s in result["sides"]:
        total, pts = 0.0, [(0.0, 0.0)]
        for n, a in enumerate((a for a in result["attacks"] if a["side"] == s and "luck" in a), 1):
            total += a["luck"]
            pts.append((float(n), total))
        series[s] = pts
    if not any(len(pts) > 1 for pts in series.values()):
        return left_out("luck", title, "no combat die has been rolled")
    return Chart("luck", title, line_chart(title, series, colours, "attacks", "luck",
                                           band={s: result["luck"][s]["sd"] for s in result["sides"]}))


def _results(result: dict, colours: dict[str, str]) -> Chart | None:
    """Each side's results obtained against those expected (the mean over its die's faces), attack by attack,
    cumulative, in the attacker's value of a result (issue 29); none for a game whose attacks give no value."""
    if not any("outcomes" in a for a in result["attacks"]):
        return None
    title = "Results obtained (solid) against expected (dashed), cumulative"
    series: dict[str, list[tuple[float, float]]] = {}
    shades: dict[str, str] = {}
    for s in result["sides"]:
        got, want, got_pts, want_pts = 0.0, 0.0, [(0.0, 0.0)], [(0.0, 0.0)]
        for n, a in enumerate((a for a in result["attacks"] if a["side"] == s and "outcomes" in a), 1):
            got, want = got + a["value"], want + a["expected"]
            got_pts.append((float(n), got))
            want_pts.append((float(n), want))
        series[f"{s} obtained"], series[f"{s} expected"] = got_pts, want_pts
        shades[f"{s} obtained"] = shades[f"{s} expected"] = colours[s]
    return Chart("results", title, line_chart(title, series, shades, "attacks", "attacker's value",
                                              dashed=frozenset(k for k in series if k.endswith(" expected"))))


def _chances(result: dict, colours: dict[str, str]) -> Chart | None:
    """Each side's chance of victory after every Game-Turn, where the analysis has them (app/projections/chances.py)."""
    found = result.get("chances")
    return Chart("chances", chances_title(found), chances_chart(found)) if found else None


def chances_title(found: dict) -> str:
    return f"Chance of victory after each Game-Turn ({found['playouts']} playouts a turn)"


def chances_chart(found: dict) -> str:
    """Each side's chance of victory after every Game-Turn, the turning points circled on the first side's line."""
    sides = found["sides"]
    series = {s: [(float(p["turn"]), p["chances"][s]) for p in found["points"]] for s in sides}
    at = {p["turn"]: p["chances"][sides[0]] for p in found["points"]}
    marks = [(float(t["turn"]), at[t["turn"]], f"turn {t['turn']}: " + ", ".join(
        f"{s} {v:+.0%}" for s, v in t["swing"].items()) + (f": {t['order']['text']}" if t["order"] else ""))
        for t in found["turning_points"] if t["turn"] in at]
    return line_chart(chances_title(found), series, side_colours(sides), "turn", "chance", marks=marks)


# The charts, the game's own measure of victory first. A maker returns None where the game has no such measure
# (no score, no victory hexes), or a card that says why when there is nothing to draw yet (`left_out`); a new
# chart is a function here, added to this list.
CHARTS = (_score, _control, _losses, _odds, _luck, _results, _chances)


def chart_list(result: dict) -> list[Chart]:
    """Every chart of an `analyse` result that the game has, in the order the viewer shows them."""
    colours = side_colours(result["sides"])
    return [chart for make in CHARTS if (chart := make(result, colours)) is not None]


def chart_index(result: dict) -> list[dict]:
    """analysis.json's `charts`: each chart's name, title and why it is left out (None when drawn), in order."""
    return [{"name": c.name, "title": c.title, "why": c.why} for c in chart_list(result)]


def charts(result: dict) -> dict[str, str]:
    """The SVG of each chart, by name, in the viewer's order (one with nothing to show: the card saying why)."""
    return {c.name: c.svg for c in chart_list(result)}
