"""A whole Shanghai-Nanking game played to its result through `cli.py` (issue 4): new, join, then `do` with random
legal orders drawn from the prompt (the fuzzer's candidates) until `show` reports the game over; the seed is
revealed at the end and `verify --dice` recomputes every roll."""
import json
import random

import pytest
from click.testing import CliRunner
from snc_randomplay import candidates

from app.events.store import EventStore
from app.projections import state as projection
from app.rules.catalog import installed
from cli import cli

CATALOG = installed()  # the rule sets installed here

pytestmark = pytest.mark.slow  # a whole game through the CLI


def test_a_whole_snc_game_through_the_cli_ends_with_a_result_that_verifies(tmp_path):
    runner = CliRunner()
    db = str(tmp_path / "cli.sqlite3")

    def run(*args):
        return runner.invoke(cli, ["--db", db, *args], catch_exceptions=False)

    game = run("new", "snc").output.strip()
    assert run("join", game, "--side", "chinese", "--name", "c@example.org", "--seed", "Nanking").exit_code == 0
    assert run("join", game, "--side", "japanese", "--name", "j@example.org", "--seed", "Tokyo").exit_code == 0
    store = EventStore(db)
    rng = random.Random(3)
    orders = refused = 0
    try:
        for _ in range(3000):
            shown = json.loads(run("show", game, "--json").output)
            if shown["outcome"]:
                break
            side = shown["to_act"]
            state = projection.load(store, CATALOG, game).game
            for text in candidates(state, rng):
                result = run("do", game, "--as", side, text, "--json")
                if result.exit_code == 0:
                    orders += 1
                    break
                assert result.exit_code == 2, result.output  # refused by the rules, with its case
                assert json.loads(result.output)["case"].startswith("SNC")
                refused += 1
            else:
                raise AssertionError(f"dead end at {shown['step']}")
    finally:
        store.close()
    shown = json.loads(run("show", game, "--json").output)
    assert shown["outcome"] and shown["outcome"]["winner"] in ("chinese", "japanese"), shown
    text = run("show", game).output
    assert f"game over: {shown['outcome']['winner']} - {shown['outcome']['reason']}" in text
    assert shown["dice_seed_revealed"]
    assert orders > 20, (orders, refused)
    print(f"{orders} orders, {refused} refused: {shown['outcome']}")
    verified = run("verify", game, "--dice")
    assert verified.exit_code == 0, verified.output
    assert "chain intact" in verified.output and " 0 not checkable" in verified.output
    assert "game over" in run("log", game).output
