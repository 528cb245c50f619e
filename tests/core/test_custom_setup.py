"""Custom set-ups (issue 4, issue 7): `cli.py new GAME --map FILE --position FILE` starts a game on its own map
from a position; the files travel in the game's first event, so the game plays, replays, forks, exports and
verifies without them; a bad file is refused with every problem named and nothing written."""
import json
import re
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from app.events.store import EventStore
from app.mail.transport import MailConfig
from app.web import create_app
from cli import cli

ICHIGO_MAP = Path("app/rules/ichigo/data/map.toml")
SNC_MAP = Path("app/rules/snc/data/map.toml")


def write(tmp_path, name: str, text: str) -> str:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return str(p)


def new_game(run, rules: str, *files) -> str:
    args = ["new", rules]
    for flag, path in files:
        args += [flag, path]
    game = run(*args).output.strip()
    run("join", game, "--side", "japanese", "--name", "j@example.org")
    run("join", game, "--side", "allied" if rules == "ichigo" else "chinese", "--name", "a@example.org")
    return game


ICHIGO_MOVE = """
turn = 2
phase = "VI"
plans = { japanese = "move-fight" }
[units]
"jp-cea-1bde" = "1906"
"cn-reg-05" = "1210"
"""


def moved_mp(run, game: str) -> float:
    log = json.loads(run("log", game, "--json").output)
    moved = [e["text"] for e in log if e["type"].endswith("UnitsMoved")]
    return float(re.search(r"\(([\d.]+) MP\)", moved[-1]).group(1))


def test_a_custom_map_changes_the_terrain_the_rules_read(run, tmp_path):
    position = write(tmp_path, "pos.toml", ICHIGO_MOVE)
    printed = new_game(run, "ichigo", ("--position", position))
    run("do", printed, "--as", "japanese", "move jp-cea-1bde to 2005")
    assert moved_mp(run, printed) == 1  # 10.7: clear

    mountains = ICHIGO_MAP.read_text(encoding="utf-8") + '\n[terrain.override]\n"2005" = "mountain"\n'
    custom = new_game(run, "ichigo", ("--map", write(tmp_path, "map.toml", mountains)), ("--position", position))
    run("do", custom, "--as", "japanese", "move jp-cea-1bde to 2005")
    assert moved_mp(run, custom) == 2  # 10.8: the custom map's mountain
    shown = json.loads(run("state", custom, "--json").output)
    assert shown["turn"] == 2 and {u["id"]: u["hex"] for u in shown["units"]}["jp-cea-1bde"] == "2005"
    run("render", custom, "--as", "japanese", "-o", str(tmp_path / "custom.svg"))
    assert 'data-hex="2005" data-terrain="mountain"' in (tmp_path / "custom.svg").read_text()


def test_a_custom_game_forks_exports_imports_and_verifies_without_its_files(run, tmp_path):
    mountains = ICHIGO_MAP.read_text(encoding="utf-8") + '\n[terrain.override]\n"2005" = "mountain"\n'
    map_file = write(tmp_path, "map.toml", mountains)
    pos_file = write(tmp_path, "pos.toml", ICHIGO_MOVE)
    game = new_game(run, "ichigo", ("--map", map_file), ("--position", pos_file))
    run("do", game, "--as", "japanese", "move jp-cea-1bde to 2005")
    Path(map_file).unlink()
    Path(pos_file).unlink()
    assert "chain intact" in run("verify", game).output
    exported = tmp_path / "game.jsonl"
    run("export", game, "--output", str(exported))
    elsewhere = ["--db", str(tmp_path / "elsewhere.sqlite3")]
    runner = CliRunner()
    assert runner.invoke(cli, [*elsewhere, "import", str(exported)]).exit_code == 0
    verified = runner.invoke(cli, [*elsewhere, "verify", game])
    assert verified.exit_code == 0 and "chain intact" in verified.output
    fork = run("fork", game, "--at", "3").output.split()[-1]
    run("do", fork, "--as", "japanese", "move jp-cea-1bde to 2005")
    assert moved_mp(run, fork) == 2


def test_an_ichigo_position_draws_its_chinese_counters_blind_and_starts_at_its_phase(run, tmp_path):
    pos = write(tmp_path, "pos.toml", """
turn = 4
phase = "VIII"
plans = { japanese = "fight-move", chinese = "move-fight" }
[units]
"jp-cea-3div" = "1906"
"cn-mil-hm" = "1715"
[draw]
"1616" = 2
"1416" = 1
""")
    game = new_game(run, "ichigo", ("--position", pos))
    before = json.loads(run("show", game, "--json").output)
    assert "deploy" in [a["name"] for a in before["actions"]]
    run("do", game, "--as", "allied", "deploy")
    for side in ("japanese", "allied"):
        view = json.loads(run("state", game, "--as", side, "--json").output)
        assert view["turn"] == 4 and view["phase"] == "VIII"
        counters = [u for u in view["units"] if u["nation"] == "chinese" and u.get("untried")]
        seen = sorted(h for u in counters for h in [u["hex"]] * (1 + u.get("hidden_below", 0)))
        assert seen == ["1416", "1616", "1616"]  # 6.6: the Japanese see the top counter and a count below it
        assert all("name" not in u for u in counters)  # 3.3: nobody sees what was drawn
    assert "Turn 4, Phase VIII" in run("show", game).output


def test_an_snc_position_sets_the_turn_the_side_and_the_declared_plan(run, tmp_path):
    pos = write(tmp_path, "pos.toml", """
turn = 6
phase = "ops1"
side = "japanese"
plan = ["fight", "move"]
[units]
"jp-d3-r6" = "2807"
[steps]
"jp-d3-r6" = 1
""")
    game = run("new", "snc", "--position", pos).output.strip()
    shown = json.loads(run("show", game, "--json").output)
    assert shown["to_act"] == "japanese" and "GT 6" in shown["step"] and "fight" in shown["step"]
    view = json.loads(run("state", game, "--json").output)
    on_map = [u for u in view["units"] if u.get("hex")]
    assert [(u["id"], u["hex"], u["steps"]) for u in on_map] == [("jp-d3-r6", "2807", 1)]


def test_an_snc_position_without_a_side_is_the_chinese_player_turn_who_play_first_in_each_gt():
    # SNC 5.1; docs/custom-positions.md said the Japanese until issue 19
    from app.rules.snc import GAME as RULES

    state = RULES.initial_state("campaign", {"position": {"turn": 4, "phase": "declare",
                                                          "units": {"jp-d3-r6": "2807", "cn-d7": "2606"}}})
    assert (state.turn, state.side, RULES.prompt(state).side) == (4, "chinese", "chinese")


@pytest.mark.parametrize("rules,text,problems", [
    ("ichigo", 'turn = 2\nphase = "VI"\n[units]\n"jp-nobody" = "1906"\n', ["no unit 'jp-nobody'"]),
    ("ichigo", 'turn = 2\nphase = "VI"\n[units]\n"jp-cea-1bde" = "9999"\n', ["9999 is not on the map"]),
    ("ichigo", 'turn = 2\nphase = "VI"\n[units]\n"jp-cea-1bde" = "1906"\n"cn-reg-05" = "1906"\n',
     ["1906 holds units of both sides"]),
    ("ichigo", 'turn = 9\nphase = "VI"\n', ["say whether 'causeway' was launched"]),
    ("ichigo", 'turn = 8\nphase = "IV"\ncauseway = true\n', ["Phase IV is not played after Causeway"]),
    ("ichigo", 'turn = 2\nphase = "VI"\n[units]\n"cn-reg-05" = "3221"\n', ["never enter Formosa"]),
    ("ichigo", 'turn = 2\nphase = "VI"\n[steps]\n"jp-cea-3div" = 3\n', ["has 1 to 2 steps, not 3"]),
    ("ichigo", 'turn = 2\nphase = "VI"\ncolour = "red"\n', ["unknown key 'colour'"]),
    ("snc", 'turn = 13\nphase = "declare"\n', ["'turn' is a game turn from 1 to 12"]),
    ("snc", 'turn = 2\nphase = "ops1"\n', ["'plan' gives both Operations Phases"]),
    ("snc", 'turn = 2\nphase = "declare"\n[units]\n' + "".join(f'"{u}" = "2807"\n' for u in (
        "jp-d3-r6", "jp-d3-r18", "jp-d3-r34", "jp-d3-r68", "jp-snlf-1", "jp-snlf-2")), ["overstacked"]),
])
def test_a_bad_position_is_refused_with_its_problems_and_nothing_is_written(run, tmp_path, rules, text, problems):
    pos = write(tmp_path, "bad.toml", text)
    result = run("new", rules, "--position", pos, ok=False)
    assert result.exit_code == 1 and "Traceback" not in result.output
    for p in problems:
        assert p in result.output, result.output
    assert run("list", "--json").output.strip() in ("[]", "")


def test_a_bad_map_file_is_refused_before_anything_is_written(run, tmp_path):
    broken = write(tmp_path, "broken.toml", "[map\nname=")
    assert "not valid TOML" in run("new", "snc", "--map", broken, ok=False).output
    small = write(tmp_path, "small.toml", 'turn = 1\n')
    tiny = SNC_MAP.read_text(encoding="utf-8").replace("[map]", "[map]\nabsent = [\"3106\"]", 1)
    result = run("new", "snc", "--map", write(tmp_path, "tiny.toml", tiny), ok=False)
    assert result.exit_code == 1 and "error:" in result.output
    assert "cannot read" in run("new", "snc", "--position", str(tmp_path / "missing.toml"), ok=False).output
    assert small and run("list", "--json").output.strip() in ("[]", "")


def test_the_api_creates_a_pbem_game_from_a_custom_position(tmp_path):
    sent = []
    app = create_app({"OPEN_GAME_CREATION": True, "HEXLEDGER_DB": str(tmp_path / "api.sqlite3"), "MAIL": MailConfig(),
                      "MAIL_TRANSPORT": type("Box", (), {"send": lambda self, m: sent.append(m)})()})
    client = app.test_client()
    position = {"turn": 2, "phase": "VI", "plans": {"japanese": "move-fight"},
                "units": {"jp-cea-1bde": "1906", "cn-reg-05": "1210"}}
    r = client.post("/games", json={"rules": "ichigo", "position": position,
                                    "players": {"japanese": "j@x.example", "allied": "a@x.example"}})
    assert r.status_code == 201, r.json
    game = r.json["game_id"]
    token = {"Authorization": f"Bearer {r.json['tokens']['japanese']}"}
    view = client.get(f"/games/{game}/state", headers=token).json
    assert view["view"]["turn"] == 2, view
    assert sorted(u["hex"] for u in view["view"]["units"]) == ["1210", "1906"]
    bad = client.post("/games", json={"rules": "ichigo", "position": {"turn": 0, "phase": "VI"},
                                      "players": {"japanese": "j@x.example", "allied": "a@x.example"}})
    assert bad.status_code == 400 and "'turn'" in bad.json["message"]
    assert len(EventStore(str(tmp_path / "api.sqlite3")).games()) == 1


def test_the_positions_in_the_docs_start_games(run, tmp_path):
    text = Path("docs/custom-positions.md").read_text(encoding="utf-8")
    played = []
    for section in re.split(r"\n### ", text)[1:]:
        rules = re.search(r"\(`([a-z]+)`\)", section.splitlines()[0]).group(1)
        for n, block in enumerate(re.findall(r"```toml\n(.*?)```", section, re.S)):
            game = run("new", rules, "--position", write(tmp_path, f"{rules}-{n}.toml", block)).output.strip()
            assert json.loads(run("show", game, "--json").output)["to_act"]
            played.append(rules)
    assert sorted(set(played)) == ["daisenso", "formosa", "ichigo", "olympic", "snc"] and len(played) >= 6


def test_ichigo_counter_handles_follow_the_data_ids_not_the_order_of_the_file(run, tmp_path):
    """The game replays its position from canonical JSON (sorted keys); the handles given when the file is read
    must be those the game plays with."""
    from app.rules.ichigo import GAME

    text = 'turn = 2\nphase = "VI"\n[units]\n"cn-reg-33" = "1210"\n"cn-reg-02" = "1211"\n'
    game = new_game(run, "ichigo", ("--position", write(tmp_path, "pos.toml", text)))
    played = {u["id"]: u["hex"] for u in json.loads(run("state", game, "--json").output)["units"]}
    assert played == {"C01": "1211", "C02": "1210"}  # cn-reg-02 is C01 wherever the file names it
    read = GAME.initial_state("campaign", {"position": tomllib.loads(text)})
    assert {k: u.hex for k, u in read.units.items() if k in played} == played
