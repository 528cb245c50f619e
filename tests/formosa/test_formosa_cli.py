"""Both Formosa scenarios played to their end through `cli.py` (issue 16: "through the CLI"), each order picked at
random among those the rules accept now, then the audit re-decides every order and recomputes every die."""
from __future__ import annotations

import json
import random

import pytest
from formosa_randomplay import invader

from app.events.store import EventStore
from app.projections import state as projection
from app.rules.catalog import installed
from app.rules.formosa import GAME

CATALOG = installed()  # the rule sets installed here


@pytest.mark.slow  # whole games through the CLI
@pytest.mark.parametrize("scenario,seed", [("1", 3), ("2", 4)])
def test_a_scenario_played_to_its_end_through_the_cli_verifies(run, scenario, seed):
    game = run("new", "formosa", "--scenario", scenario).output.strip()
    run("join", game, "--side", "japanese", "--name", "j@example.org")
    run("join", game, "--side", "allied", "--name", "a@example.org")
    rng = random.Random(seed)
    store = EventStore(run.db)
    try:
        for _ in range(3000):
            state = projection.load(store, CATALOG, game).game
            if GAME.outcome(state) is not None:
                break
            side = GAME.prompt(state).side
            text = next(t for t in invader(state, rng) if GAME.is_legal(state, GAME.parse(t, side, state)))
            run("do", game, "--as", side, text)
    finally:
        store.close()
    shown = json.loads(run("show", game, "--json").output)
    assert shown["outcome"] and "(Formosa 4." in shown["outcome"]["reason"]
    log = run("log", game).output
    assert "set-up complete" in log and "attack on" in log
    verified = run("verify", game)
    assert "chain intact" in verified.output, verified.output
