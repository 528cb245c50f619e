"""A solitaire Game-Turn through `cli.py`: the American orders typed by a player, the Japanese orders read off
the prompt (the programmed order it shows) until Game-Turn 2 begins; then the audit re-decides every order."""
import json
import random

import pytest
from click.testing import CliRunner
from test_olympic_fuzz import candidates

from app.events.store import EventStore
from app.projections import state as projection
from app.rules.catalog import installed
from cli import cli

CATALOG = installed()  # the rule sets installed here


@pytest.mark.slow  # a whole game turn through the CLI
def test_game_turn_1_through_the_cli_the_japanese_turn_from_the_prompt_and_verify(tmp_path):
    runner = CliRunner()
    db = str(tmp_path / "cli.sqlite3")

    def run(*args):
        return runner.invoke(cli, ["--db", db, *args], catch_exceptions=False)

    game = run("new", "olympic", "--no-auto").output.strip()  # a person plays the Japanese by the prompt
    assert run("join", game, "--side", "american", "--name", "a@example.org", "--seed", "Kyushu").exit_code == 0
    assert run("join", game, "--side", "japanese", "--name", "doctrine@example.org").exit_code == 0
    refused = run("do", game, "--as", "american", "end", "--json")
    assert refused.exit_code == 2 and json.loads(refused.output)["case"] == "Olympic ruling R17"
    store = EventStore(db)
    rng = random.Random(1)
    japanese = 0
    try:
        for _ in range(400):
            shown = json.loads(run("show", game, "--json").output)
            if "Game-Turn 2" in shown["step"] or shown["outcome"]:
                break
            if shown["to_act"] == "japanese":
                text = shown["step"].split("programmed order: '")[1].split("'")[0]
                japanese += 1
            else:
                text = next(candidates(projection.load(store, CATALOG, game).game, rng))
            result = run("do", game, "--as", shown["to_act"], text)
            assert result.exit_code == 0, (text, result.output)
    finally:
        store.close()
    assert "Game-Turn 2" in shown["step"] and japanese > 10
    log = run("log", game).output
    assert "Tokko table #" in log and "doctrine track" in log and "nearest its destination" in log
    verified = run("verify", game)
    assert verified.exit_code == 0 and "chain intact" in verified.output, verified.output


def test_analysis_reports_the_american_casualty_points_per_turn(run, tmp_path):
    from app.projections import analysis, replay

    game = run("new", "olympic").output.strip()
    run("join", game, "--side", "american", "--name", "a@example.org")  # the Japanese: the server (automated)
    for hex_, units in (("3437", "25-27 25-35 25-161"), ("3436", "33-123 33-130 33-136")):
        run("do", game, "--as", "american", f"place {units} at {hex_}")
    store = EventStore(run.db)
    try:
        result = analysis.analyse(replay.build(store, CATALOG, game, replay.ALL))
        points = projection.load(store, CATALOG, game).game.casualty_points
    finally:
        store.close()
    assert result["score"] == {"name": "American Casualty Points", "by_turn": {"1": points}}
    assert "score" in analysis.charts(result)
    out = run("analyze", game).output
    assert "American Casualty Points at the end of each turn: 1: 0" in out


def test_cli_preview_of_an_attack_is_the_service_preview_the_api_answers_with(run, tmp_path):
    position = tmp_path / "attack.toml"
    position.write_text('turn = 2\nphase = "combat"\nbeachheads = ["3336"]\n'
                        '[units]\n"us-25-27" = "3235"\n"us-25-35" = "3336"\n"us-25-161" = "3237"\n')
    game = run("new", "olympic", "--position", str(position)).output.strip()
    order = "attack 3236 with 25-27 25-35 25-161"
    before = run("log", game).output
    shown = run("preview", game, "--as", "american", order)
    assert "attack on 3236 (city, militia 3)" in shown.output
    assert "militia die 1: militia 9 (x3), differential +3: column +2, +3\n  die 1: Dr 2/2, 6 Casualty Points" in (
        shown.output)  # the militia tripled, then the combat die (ruling R58)
    as_json = json.loads(run("preview", game, "--as", "american", order, "--json").output)
    store = EventStore(run.db)
    try:
        from app.service import games

        state = projection.load(store, CATALOG, game)
        assert as_json == json.loads(json.dumps(games.preview(CATALOG.rules("olympic"), state, "american", order)))
    finally:
        store.close()
    assert run("log", game).output == before  # nothing written
    position.write_text(position.read_text().replace('phase = "combat"', 'phase = "reinforcement"'))
    later = run("new", "olympic", "--position", str(position)).output.strip()
    planned = run("preview", later, "--as", "american", order).output  # out of turn: a planning preview
    assert "column +2, +3\n  die 1: Dr 2/2" in planned and "Planning: american may not give this order now" in planned
