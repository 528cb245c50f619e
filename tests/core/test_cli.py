"""The command line a player or operator uses (issue 2 item 10)."""
import json

import pytest
from click.testing import CliRunner

from cli import cli


@pytest.fixture
def run(tmp_path):
    runner = CliRunner()
    db = str(tmp_path / "cli.sqlite3")

    def invoke(*args):
        return runner.invoke(cli, ["--db", db, *args], catch_exceptions=False)

    return invoke


@pytest.fixture
def demo(run):
    return json.loads(run("demo", "--rules", "skirmish", "--json").output)["game_id"]


def test_rules_lists_the_rule_sets(run):
    out = json.loads(run("rules", "--json").output)
    assert "skirmish" in {r["name"] for r in out}


def test_new_list_show(run):
    game = run("new", "skirmish").output.strip()
    assert game in run("list").output
    shown = json.loads(run("show", game, "--json").output)
    assert shown["to_act"] == "red" and shown["seq"] == 1
    assert {"move", "end"} == {a["name"] for a in shown["actions"]}


def test_do_accepts_an_order_and_log_shows_it(run, demo):
    result = run("do", demo, "--as", "red", "end")
    assert result.exit_code == 0 and "red ends the combat step" in result.output
    assert "red ends the combat step" in run("log", demo).output


def test_refused_order_exits_nonzero_with_the_rules_case_and_writes_nothing(run, demo):
    before = json.loads(run("show", demo, "--json").output)["seq"]
    result = run("do", demo, "--as", "blue", "end")
    assert result.exit_code == 2 and "SK 3.3" in result.output
    refused = run("do", demo, "--as", "red", "attack 0602 with R2", "--json")
    assert refused.exit_code == 2
    assert json.loads(refused.output)["case"] == "SK 5.1"
    assert json.loads(run("show", demo, "--json").output)["seq"] == before


@pytest.mark.parametrize("args, message", [
    (("show", "g-nope"), "unknown game"),
    (("new", "chess"), "unknown rules"),
    (("state", "{demo}", "--at", "9999"), "no event 9999"),
    (("do", "{demo}", "--as", "green", "end"), "no side"),
    (("do", "{demo}", "--as", "red", "fly R1 to the moon"), "cannot read order"),
])
def test_bad_input_is_a_clear_error(run, demo, args, message):
    result = run(*[a.format(demo=demo) for a in args])
    assert result.exit_code != 0 and message in result.output
    assert "Traceback" not in result.output


def test_state_rewinds(run, demo):
    now = json.loads(run("state", demo, "--json").output)
    start = json.loads(run("state", demo, "--at", "3", "--json").output)
    assert start["seq"] == 3 and now["seq"] > 3
    r1 = {u["id"]: u for u in start["units"]}["R1"]
    assert r1["hex"] == "0102"


def test_fork_verify_export_import(run, demo, tmp_path):
    inside = run("fork", demo, "--at", "10")
    assert inside.exit_code == 1 and "fork at 9 or 11" in inside.output
    child = json.loads(run("fork", demo, "--at", "11", "--json").output)["game_id"]
    assert "forked from" in run("show", child).output
    assert run("verify", child).exit_code == 0
    run("reveal", demo)
    path = tmp_path / "game.jsonl"
    assert run("export", demo, "-o", str(path)).exit_code == 0
    offline = json.loads(run("verify", str(path), "--dice", "--json").output)
    assert offline["ok"] and offline["rolls_checked"] >= 1
    path.write_text(path.read_text().replace('"player:red"', '"player:blue"', 1))
    tampered = run("verify", str(path))
    assert tampered.exit_code == 1 and "FAILED at event" in tampered.output
    refused = run("import", str(path))
    assert refused.exit_code == 1 and "refused" in refused.output


def test_preview_answers_as_the_api_does_in_and_out_of_turn(run):
    """`preview` is the service's one preview (games.preview), as the API's: the side to act gets the odds; a side
    out of turn gets them too, marked as planning (issue 14), and nothing is written either way."""
    game = run("new", "skirmish").output.strip()
    run("join", game, "--side", "red", "--name", "r")
    run("join", game, "--side", "blue", "--name", "b")
    for side, orders in [("red", ["move R1 0202", "move R2 0203 0303", "end", "end"]),
                         ("blue", ["move B1 0602 0502", "move B2 0603 0503", "end", "end"]),
                         ("red", ["move R1 0302 0402", "end"])]:
        for order in orders:
            assert run("do", game, "--as", side, order).exit_code == 0
    before = run("log", game).output
    shown = json.loads(run("preview", game, "--as", "red", "attack 0502 with R1", "--json").output)
    assert (shown["attack"], shown["defence"], shown["column"], shown["planning"]) == (4, 8, "1:2", False)
    planned = run("preview", game, "--as", "blue", "attack 0402 with B1", "--json")
    assert planned.exit_code == 0 and json.loads(planned.output)["planning"] is True
    assert "may not give this order now" in run("preview", game, "--as", "blue", "attack 0402 with B1").output
    assert run("preview", game, "--as", "green", "attack 0402 with B1").exit_code == 2
    assert run("log", game).output == before


def test_preview_of_a_legal_move_says_it_is_legal_with_no_preview_and_of_a_refused_one_refuses(run):
    """A move is legal now but skirmish draws no preview of it (SK 5.1): `preview` says so and succeeds; a move the
    rules refuse is refused with its case, as `do` refuses it."""
    game = run("new", "skirmish").output.strip()
    run("join", game, "--side", "red", "--name", "r")
    run("join", game, "--side", "blue", "--name", "b")
    legal = run("preview", game, "--as", "red", "move R1 0202")
    assert legal.exit_code == 0
    assert legal.output.startswith("Legal: red may give this order now. It has no preview (SK 5.1:")
    assert run("do", game, "--as", "red", "move R1 0202").exit_code == 0
    refused = run("preview", game, "--as", "red", "move R1 0302")
    assert refused.exit_code != 0 and "SK 4.1" in refused.output and "no preview" not in refused.output


def test_list_names_the_game_id_as_the_api_does(run, tmp_path):
    """`list --json` names a game `game_id`, with the fields the API's GET /games gives the operator."""
    from app.web import create_app

    game = run("new", "skirmish").output.strip()
    rows = json.loads(run("list", "--json").output)
    key = "k" * 16
    client = create_app({"HEXLEDGER_DB": str(tmp_path / "cli.sqlite3"), "ADMIN_TOKEN": key}).test_client()
    api = client.get("/games", headers={"Authorization": f"Bearer {key}"}).json["games"]
    assert [r["game_id"] for r in rows] == [r["game_id"] for r in api] == [game]
    assert set(api[0]) <= set(rows[0]) and all(rows[0][k] == v for k, v in api[0].items())


def test_db_may_follow_the_command(tmp_path):
    """`--db` names the database whether it stands before or after the command (issue 14)."""
    runner = CliRunner()
    one, two = str(tmp_path / "one.sqlite3"), str(tmp_path / "two.sqlite3")
    game = runner.invoke(cli, ["new", "skirmish", "--db", one]).output.strip()
    assert game in runner.invoke(cli, ["--db", one, "list"]).output
    assert runner.invoke(cli, ["list", "--db", two]).output.strip() == "no games yet"
    assert game in runner.invoke(cli, ["--db", two, "list", "--db", one]).output  # the later one counts
