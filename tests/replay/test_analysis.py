"""Analysis: step losses, control, odds taken and die-roll luck, from the frames a viewer sees."""
import json
import math
import random
import xml.etree.ElementTree as ET
from unittest import mock

import pytest
from click.testing import CliRunner

from app.events import dice
from app.events.registry import decode
from app.projections import analysis, replay
from app.projections.replay import Frame, Replay
from app.rules.catalog import installed
from app.rules.skirmish import GAME as RULES
from app.rules.skirmish.events import AttackResolved
from app.service import games
from cli import cli

CATALOG = installed()  # the rule sets installed here

NS = {"s": "http://www.w3.org/2000/svg"}


def summary(column: str, roll: int, side: str = "red") -> dict:
    event = AttackResolved("0403", ["R1" if side == "red" else "B1"], 4, 2, column, roll, "NE")
    s = RULES.combat_summary(event, RULES.initial_state("standard", {}))
    s["result"] = next(d["result"] for d in s["distribution"] if d["roll"] == roll)
    return s


def game_of(combats: list[dict]) -> Replay:
    frames = [Frame(seq=i, turn=1, phase="turn 1", text="", type="x", actor="", combat=c, view={"units": []})
              for i, c in enumerate(combats, 1)]
    return Replay("g", "skirmish", ["red", "blue"], "all", True, None, frames)


def test_a_roll_in_the_middle_of_a_symmetric_column_is_exactly_average():
    dist = [{"roll": r, "result": x, "value": v} for r, (x, v) in
            enumerate([("A1", -1), ("NE", 0), ("NE", 0), ("NE", 0), ("NE", 0), ("D1", 1)], 1)]
    assert analysis.roll_luck(dist, 3)["luck"] == 0
    assert analysis.roll_luck(dist, 6)["luck"] > 0 > analysis.roll_luck(dist, 1)["luck"]


def test_all_average_rolls_score_zero_and_all_best_rolls_score_positive():
    # skirmish 2:1, die 1..6: A1 NE D1 D1 D2 DE; a D1 ranks exactly in the middle
    average = [summary("2:1", 3), summary("2:1", 4)]  # both D1: mid-ranks 1/3 + 1/6 = 1/2
    result = analysis.analyse(game_of(average))
    assert result["luck"]["red"]["score"] == 0 and result["luck"]["red"]["attacks"] == 2
    best = analysis.analyse(game_of([summary(c, 6) for c in ("1:2", "1:1", "2:1", "3:1")]))
    luck = best["luck"]["red"]
    assert luck["score"] > 0 and luck["z"] > 1 and luck["result_vs_expected"] > 0
    worst = analysis.analyse(game_of([summary("1:1", 1), summary("3:1", 1)]))["luck"]["red"]
    assert worst["score"] < 0


def test_every_attack_lists_what_each_face_would_have_given_and_each_side_its_results_expected_and_obtained():
    # skirmish 2:1, die 1..6: A1 NE D1 D1 D2 DE (values -1 0 1 1 2 3 for the attacker: mean 1)
    result = analysis.analyse(game_of([summary("2:1", 6), summary("2:1", 1), summary("3:1", 2, "blue")]))
    first = result["attacks"][0]
    assert [(o["roll"], o["result"], o["came"]) for o in first["outcomes"]] == [
        (1, "A1", False), (2, "NE", False), (3, "D1", False), (4, "D1", False), (5, "D2", False), (6, "DE", True)]
    assert sum(o["p"] for o in first["outcomes"]) == pytest.approx(1, abs=1e-3)
    assert first["value"] == max(o["value"] for o in first["outcomes"])
    red = result["luck"]["red"]
    expected = sum(o["p"] * o["value"] for a in result["attacks"][:2] for o in a["outcomes"])
    assert red["expected"] == pytest.approx(expected, abs=1e-3)
    assert red["obtained"] == sum(a["value"] for a in result["attacks"][:2])
    assert red["result_vs_expected"] == pytest.approx(red["obtained"] - red["expected"], abs=1e-3)
    assert result["luck"]["blue"]["obtained"] == result["attacks"][2]["value"]
    assert "results" in analysis.charts(result)


def test_the_results_chart_draws_each_sides_results_obtained_and_expected():
    import xml.etree.ElementTree as ET

    result = analysis.analyse(game_of([summary("2:1", 6), summary("2:1", 1)]))
    chart = ET.fromstring(analysis.charts(result)["results"])
    lines = {line.get("data-side"): line for line in chart.iter("{http://www.w3.org/2000/svg}polyline")}
    assert set(lines) == {"red obtained", "red expected", "blue obtained", "blue expected"}
    assert lines["red expected"].get("stroke-dasharray") and not lines["red obtained"].get("stroke-dasharray")
    assert len(lines["red obtained"].get("points").split()) == 3  # the start and two attacks


def test_luck_spread_is_the_null_standard_deviation_of_fair_dice():
    # six distinct values: mid-ranks (k - 1/2)/6, variance = (36 - 1) / (12 * 36)
    dist = [{"roll": r, "result": str(r), "value": r} for r in range(1, 7)]
    assert analysis.roll_luck(dist, 6)["variance"] == pytest.approx(35 / 432)
    result = analysis.analyse(game_of([summary("4:1", 2)] * 4))
    per_attack = analysis.roll_luck(summary("4:1", 2)["distribution"], 2)["variance"]
    assert result["luck"]["red"]["sd"] == pytest.approx(math.sqrt(4 * per_attack), abs=1e-4)


def test_a_loss_taken_back_is_in_no_chart():
    """Frames of retracted events keep the views they had; the retraction's own frame shows the position again
    without them, so the step lost in between and restored by it is not counted (only the later real loss)."""
    views = [2, 1, 2, 1]  # R1's steps: standing, lost (then retracted), restored by the retraction, lost again
    frames = [Frame(seq=i, turn=1, phase="turn 1", text="", type="x", actor="", retracted=i == 2,
                    view={"units": [{"id": "R1", "side": "red", "steps": steps}]})
              for i, steps in enumerate(views, 1)]
    result = analysis.analyse(Replay("g", "skirmish", ["red", "blue"], "all", False, None, frames))
    assert result["step_losses"]["red"] == {"1": 1}


def test_losses_and_odds_match_the_stored_game(store, finished):
    result = analysis.analyse(replay.build(store, CATALOG, finished, replay.ALL))
    events = [(e.seq, decode(e.type, e.version, e.payload)) for e in store.events(finished)]
    attacks = [b for _, b in events if isinstance(b, AttackResolved)]
    side_of = {uid: spec.side for uid, spec in RULES.data().units.items()}

    for side in ("red", "blue"):
        mine = [a for a in attacks if side_of[a.attackers[0]] == side]
        assert sum(result["odds"]["by_side"][side].values()) == len(mine)
        assert result["luck"][side]["attacks"] == len(mine)
        lost = sum(2 if b.eliminated and _steps_before(events, s, b.unit) == 2 else 1
                   for s, b in events if type(b).__name__ == "StepLost" and side_of[b.unit] == side)
        assert sum(result["step_losses"][side].values()) == lost
    assert [c["turn"] for c in result["control"]] == result["turns"]


def _steps_before(events, seq, unit) -> int:
    """Steps the unit had before the StepLost at seq (2 unless an earlier StepLost hit it)."""
    return 2 - sum(1 for s, b in events if s < seq and type(b).__name__ == "StepLost" and b.unit == unit)


def test_cli_analyze_writes_json_and_charts(store, finished, tmp_path):
    out = tmp_path / "analysis"
    result = CliRunner().invoke(cli, ["--db", store.path, "analyze", finished, "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "luck" in result.output and "red:" in result.output
    data = json.loads((out / "analysis.json").read_text())
    assert data["game_id"] == finished
    names = {c["name"] for c in data["charts"]}
    assert {p.name for p in out.glob("*.svg")} == {f"{name}.svg" for name in names}
    assert {"losses", "odds", "luck", "control"} <= names
    as_json = CliRunner().invoke(cli, ["--db", store.path, "analyze", finished, "--json"])
    assert json.loads(as_json.output)["luck"] == data["luck"]


def test_charts_show_the_analysed_numbers(store, finished):
    import xml.etree.ElementTree as ET

    result = analysis.analyse(replay.build(store, CATALOG, finished, replay.ALL))
    charts = analysis.charts(result)
    ns = {"s": "http://www.w3.org/2000/svg"}
    bars = ET.fromstring(charts["losses"]).findall(".//s:rect[@class='bar']", ns)
    shown = {(b.get("data-side"), b.get("data-category")): int(b.get("data-value")) for b in bars}
    assert shown == {(s, t): n for s, per in result["step_losses"].items() for t, n in per.items()}
    lines = ET.fromstring(charts["luck"]).findall(".//s:polyline[@class='series']", ns)
    assert {line.get("data-side") for line in lines} == {"red", "blue"}
    assert analysis.nice_ticks(0, 7, integer=True) == [0, 2, 4, 6, 8]
    assert analysis.nice_ticks(-0.48, 0.58) == [-0.5, 0, 0.5, 1]


def fought(rules: str, labels: list[str], table: list[str], attacker: str) -> Replay:
    """A replay of `rules` whose combats were fought on `labels`, each summary naming its table's columns."""
    combats = [{"attacker": attacker, "odds": label, "column": label, "roll": 3, "result": "x", "columns": table}
               for label in labels]
    frames = [Frame(seq=i, turn=1, phase="turn 1", text="", type="x", actor="", combat=c, view={"units": []})
              for i, c in enumerate(combats, 1)]
    return Replay("g", rules, list(CATALOG.rules(rules).sides), "all", True, None, frames)


def test_odds_columns_are_in_the_order_their_table_prints_them():
    """Olympic's differentials sorted as text (+1, +10, +2 ...) and Ichi-Go put its ≤1:5 column at the right end:
    the columns are in their combat results table's order; a label no table names (Ichi-Go's "-" battle, 11.27)
    comes after them."""
    olympic = [c.label for c in CATALOG.rules("olympic").initial_state("solitaire", {}).data.crt.columns()]
    fought_on = ["+10", "+1", "-2", "+2, +3", "0", "+9"]
    result = analysis.analyse(fought("olympic", fought_on, olympic, "american"))
    assert result["odds"]["columns"] == ["-2", "0", "+1", "+2, +3", "+9", "+10"]
    ichigo = [c.label for c in CATALOG.rules("ichigo").initial_state("campaign", {}).data.crt.columns("japanese")]
    result = analysis.analyse(fought("ichigo", ["3:1", "-", "≥10:1", "≤1:5", "1:1"], ichigo, "japanese"))
    assert result["odds"]["columns"] == ["≤1:5", "1:1", "3:1", "≥10:1", "-"]
    bars = ET.fromstring(analysis.charts(result)["odds"]).iterfind(".//s:rect[@class='bar']", NS)
    assert list(dict.fromkeys(b.get("data-category") for b in bars)) == result["odds"]["columns"]
    # without a table (a rule set whose summaries name none): by the ratio, bounds included
    result = analysis.analyse(fought("skirmish", ["3:1", "≤1:5", "1:2", ">=7:1"], [], "red"))
    assert result["odds"]["columns"] == ["≤1:5", "1:2", "3:1", ">=7:1"]


def measured(rules: str, scores: list, victory_held: list[dict]) -> Replay:
    """A replay of `rules` with one frame per turn: the view's score and the victory hexes' control."""
    frames = [Frame(seq=t, turn=t, phase=f"turn {t}", text="", type="x", actor="",
                    view={"units": [], "score": score, "victory_hexes": ["0101", "0102"], "control": held})
              for t, (score, held) in enumerate(zip(scores, victory_held, strict=True), 1)]
    return Replay("g", rules, list(CATALOG.rules(rules).sides), "all", True, None, frames)


def test_the_games_own_measure_comes_first_and_a_chart_with_nothing_to_show_says_why():
    """Olympic's American Casualty Points were in charts/score.svg, which the viewer never showed, while it showed
    an empty victory hexes chart: the score is the first chart, and a chart with nothing to draw is left out with
    the reason."""
    acp = [{"name": "American Casualty Points", "value": v} for v in (0, 61, 109)]
    result = analysis.analyse(measured("olympic", acp, [{}, {}, {}]))
    listed = analysis.chart_list(result)
    assert [c.name for c in listed] == ["score", "control", "losses", "odds", "luck"]
    assert listed[0].title.startswith("American Casualty Points") and listed[0].why is None
    assert {c.name: c.why for c in listed if c.why} == {
        "control": "no side is shown holding a victory hex at the end of any turn", "losses": "no side has lost a step",
        "odds": "no attack has been fought", "luck": "no combat die has been rolled"}
    for chart in listed[1:]:  # no empty axes: a card with the title and the reason
        card = ET.fromstring(chart.svg)
        assert card.find(".//s:text[@class='why']", NS).text == chart.why
        assert card.findall(".//s:line", NS) == [] and card.findall(".//s:rect[@class='bar']", NS) == []
    steps = ET.fromstring(analysis.charts(result)["score"]).findall(".//s:circle[@class='point']", NS)
    assert [float(p.find("s:title", NS).text.split(": ")[1]) for p in steps] == [0, 61, 109]


def test_a_score_kept_for_each_side_is_charted_for_each_side():
    """Formosa 4.2: Allied and Japanese victory points, each side's line in its colour."""
    vp = [{"name": "Victory points (Formosa 4.2)", "by_side": {"allied": a, "japanese": j}}
          for a, j in ((0, 0), (4, 1), (9, 3))]
    result = analysis.analyse(measured("formosa", vp, [{}, {"0101": "allied"}, {"0101": "allied"}]))
    assert result["score"]["by_side"] == {"allied": {"1": 0, "2": 4, "3": 9}, "japanese": {"1": 0, "2": 1, "3": 3}}
    chart = ET.fromstring(analysis.charts(result)["score"])
    assert {p.get("data-side") for p in chart.findall(".//s:polyline[@class='series']", NS)} == {"allied", "japanese"}
    assert "control" in analysis.charts(result)


def test_formosas_view_keeps_the_victory_points_as_they_stand():
    """Formosa 4.2 and ruling F7: an Allied regiment in the Allied Eliminated Display is a Japanese victory point."""
    from tests.formosa.formosa_given import given

    state = given(units={"us-1mar-1": "allied-eliminated", "us-1mar-5": "1905"})
    for side in ("allied", "japanese", None):  # public: both sides see the same count
        assert CATALOG.rules("formosa").view(state, side)["score"]["by_side"] == {"allied": 0, "japanese": 1}


def test_dai_sensos_victory_hex_is_charted_by_combat_phase(store):
    """Dai Senso's chart of its victory hex was empty: every frame counted as turn 0, one point, no line. Each Combat
    Phase is a turn of the charts, and each value is marked."""
    from tests.daisenso.test_daisenso_play import play

    with mock.patch.object(dice, "new_seed", lambda: "1" * 64):  # the same game every run
        game_id = games.create_game(store, CATALOG, "daisenso", "zhejiang", game_id="g-zhejiang")
    play(store, game_id, random.Random(1))
    result = analysis.analyse(replay.build(store, CATALOG, game_id, replay.ALL))
    assert result["turns"] == [1, 2] and [c["of"] for c in result["control"]] == [1, 1]
    chart = ET.fromstring(analysis.charts(result)["control"])
    points = chart.findall(".//s:circle[@class='point']", NS)
    assert {(p.get("data-side"), p.find("s:title", NS).text.split(" ")[1].rstrip(":")) for p in points} == \
        {(s, t) for s in ("axis", "allied") for t in ("1", "2")}
