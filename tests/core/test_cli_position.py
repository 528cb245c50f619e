"""The position on the command line as a person reads it (issue 14): `state` prints every stack by hex with its
terrain and place, in columns, control grouped by side, as the turn email does (app/projections/textmap.py), and
`state`, `render` and `analyze` say whose view they show: a side's, the referee's (a running game without --as),
or everything (a finished game)."""
import json
import re

import pytest
from click.testing import CliRunner

from cli import cli

STACK_LINE = re.compile(r"^  (\d{4})  (.*?)  +((?:chinese|japanese): .*)$")


@pytest.fixture
def run(tmp_path):
    db = str(tmp_path / "cli.sqlite3")

    def invoke(*args):
        result = CliRunner().invoke(cli, ["--db", db, *args], catch_exceptions=False)
        assert result.exit_code == 0, result.output
        return result.output

    return invoke


@pytest.fixture
def snc(run):
    return json.loads(run("demo", "--json"))["game_id"]  # SNC 12.0's opening: Shanghai, Wusong, the reinforcements


def stack_lines(text: str) -> dict[str, re.Match]:
    return {m.group(1): m for m in map(STACK_LINE.match, text.splitlines()) if m}


def test_state_prints_each_stack_by_hex_in_columns_with_place_and_control(run, snc):
    text = run("state", snc)
    head = json.loads(run("show", snc, "--json"))["seq"]
    assert text.splitlines()[0] == f"{snc} after event {head}, the referee's view (everything)"
    stacks = stack_lines(text)
    assert len(stacks) > 20
    assert len({m.start(3) for m in stacks.values()}) == 1  # every line's counters start in one column
    # Shanghai, which the opening does not attack (the Wusong landing's die decides what stands at 3510)
    assert stacks["3512"].group(3) == "japanese: jp-gar-shanghai (2), jp-snlf-1 (2), jp-snlf-2 (2), jp-snlf-9 (2)"
    assert stacks["2503"].group(2).strip() == "paddy" and "cn-d11 (5), cn-d14 (5)" in stacks["2503"].group(3)
    lines = text.splitlines()
    shanghai = lines.index(stacks["3512"].group(0))
    assert "Shanghai" in stacks["3512"].group(2) and "(japanese control)" in " ".join(lines[shanghai:shanghai + 2])
    assert "  Not on the map: chinese: cn-gar-wusong (1)" in lines  # eliminated in the landing
    assert "  chinese: 0202 1102 1824 2410" in lines and "  japanese: 3512 3611" in lines
    assert "  neutral: 3513" in lines  # SNC 1.3, 4.3: the International Settlement (ruling E33)
    header = next(line for line in lines if line.lstrip().startswith("id ") and "strength" in line)
    row = next(line for line in lines if line.lstrip().startswith("cn-ppc "))
    assert row.index("3412") == header.index("hex") and row.index("Peace") == header.index("name")


def test_state_as_a_side_says_so_and_shows_only_what_it_sees(run, snc):
    text = run("state", snc, "--as", "chinese")
    head = json.loads(run("show", snc, "--json"))["seq"]
    assert text.splitlines()[0] == f"{snc} after event {head}, as chinese sees it"
    assert stack_lines(text)["3512"].group(3) == "japanese: jp-gar-shanghai (2) +3 hidden below"  # SNC 6.3
    assert "jp-snlf-9" not in text


def test_render_and_analyze_name_whose_view_they_show(run, snc, tmp_path):
    svg = str(tmp_path / "map.svg")
    assert run("render", snc, "-o", svg).strip().endswith("the referee's view (everything)")
    assert run("render", snc, "--as", "japanese", "-o", svg).strip().endswith("as japanese sees it")
    assert run("analyze", snc).splitlines()[0].endswith("the referee's view (everything)")
    assert run("analyze", snc, "--as", "chinese").splitlines()[0].endswith("as chinese sees it")
    assert "seen by all" not in run("analyze", snc)
