"""Dai Senso scenarios played to their end: random legal orders through the service with an audit at the end (the
fuzzer, docs/architecture.md practice 10), and whole games through `cli.py`, from a shipped scenario and from a
position file, each checked by `verify --dice`."""
from __future__ import annotations

import json
import random
import re

import pytest

from app.events.store import EventStore
from app.projections import replay
from app.projections import state as projection
from app.rules import legal
from app.rules.catalog import installed
from app.rules.daisenso import GAME, data
from app.rules.errors import OrderError
from app.service import audit, games
from tests.fuzzing import refusal

CATALOG = installed()  # the rule sets installed here

SCENARIOS = ("strait", "august-storm", "zhejiang")


def pick(state, side: str, rng: random.Random) -> list[str]:
    """The legal orders in the order a random player tries them: mostly acting, sometimes passing."""
    found = [o["order"] for o in GAME.legal_orders(state, side)]
    rng.shuffle(found)
    found.sort(key=lambda o: o in ("next", "stop", "support") and rng.random() < 0.75)
    return found


def play(store, game_id: str, rng: random.Random, limit: int = 400) -> int:
    played = 0
    for _ in range(limit):
        state = projection.load(store, CATALOG, game_id).game
        if GAME.outcome(state) is not None:
            return played
        side = GAME.prompt(state).side
        orders = pick(state, side, rng)
        assert orders, f"dead end: nothing {side} may order at {GAME.prompt(state).step}"
        try_refused(store, game_id, state, side, rng)
        games.submit(store, CATALOG, game_id, side, orders[0])
        played += 1
    raise AssertionError(f"{game_id} did not end in {limit} orders")


def try_refused(store, game_id: str, state, side: str, rng: random.Random) -> None:
    """Send a random order of those to try now (app/rules/legal.py); if refused it must roll and write nothing
    (practice 11)."""
    text = rng.choice(legal.orders_to_try(GAME, state, side))
    answer = refusal(GAME, state, side, text)
    if answer is not None:
        head = store.head(game_id)
        with pytest.raises(OrderError, match=re.escape(answer)):
            games.submit(store, CATALOG, game_id, side, text)
        assert store.head(game_id) == head


@pytest.mark.slow  # scenarios played to their end
@pytest.mark.parametrize("scenario", SCENARIOS)
@pytest.mark.parametrize("seed", [1])  # one game a scenario: the CLI games below and tests/pbem play them again
def test_random_legal_play_reaches_the_scenarios_end_and_verifies(store, scenario, seed):
    game_id = games.create_game(store, CATALOG, "daisenso", scenario)
    assert play(store, game_id, random.Random(seed)) > 0
    outcome = GAME.outcome(projection.load(store, CATALOG, game_id).game)
    assert outcome.winner in ("axis", "allied") and "(D16)" in outcome.reason
    report = audit.verify(CATALOG, list(store.events(game_id)), check_dice=True)
    assert report.ok, report.problems


def through_the_cli(run, game: str, rng: random.Random) -> dict:
    """Play by `cli.py` alone; the first attack each side orders is previewed first, and the preview's table is
    the one the attack is then resolved on."""
    for side in GAME.sides:
        run("join", game, "--side", side, "--name", f"{side}@example.org", "--seed", f"{side} dice")
    store = EventStore(run.db)
    previewed = set()
    try:
        for _ in range(400):
            shown = json.loads(run("show", game, "--json").output)
            if shown["outcome"]:
                assert previewed, "no attack was ordered"
                return shown
            side = shown["to_act"]
            order = pick(projection.load(store, CATALOG, game).game, side, rng)[0]
            if order.startswith("attack") and side not in previewed:
                previewed.add(side)
                text = run("preview", game, "--as", side, order).output
                p = json.loads(run("preview", game, "--as", side, order, "--json").output)
                assert ("without a die" if p.get("automatic") else f"column {p['column']}") in text, text
            run("do", game, "--as", side, order)
    finally:
        store.close()
    raise AssertionError("the game did not end")


@pytest.mark.slow  # scenarios played to their end
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_each_scenario_plays_to_its_end_through_the_cli_with_preview_render_analysis_and_replay(
        run, tmp_path, scenario):
    game = run("new", "daisenso", "--scenario", scenario).output.strip()
    shown = through_the_cli(run, game, random.Random(7))
    assert shown["outcome"]["winner"] in ("axis", "allied")
    out = run("verify", game, "--dice").output
    assert "chain intact" in out and " 0 not checkable" in out, out
    assert "game over" in run("log", game).output
    picture = tmp_path / "map.svg"
    run("render", game, "--at", "3", "-o", str(picture))
    assert picture.read_text().count('class="counter"') == len(
        [u for u in GAME.view(GAME.initial_state(scenario, {}), None)["units"] if u["hex"]])
    analysis = json.loads(run("analyze", game, "--json", "-o", str(tmp_path / "charts")).output)
    store = EventStore(run.db)
    try:
        stored = list(store.events(game))
        frames = replay.build(store, CATALOG, game, None).frames
    finally:
        store.close()
    resolved = [e.seq for e in stored if e.type == "daisenso.CombatResolved"]
    assert [f.seq for f in frames] == [e.seq for e in stored]
    assert [f.seq for f in frames if f.combat] == resolved == [a["seq"] for a in analysis["attacks"]]
    assert (tmp_path / "charts" / "odds.svg").exists() and analysis["control"]
    state = projection.load(EventStore(run.db), CATALOG, game).game
    flips = sum(1 for e in stored if e.type == "daisenso.StepLost" and e.payload.get("becomes"))
    lost = flips + sum(state.data.kinds[kind].steps - left for _, kind, left in state.removed.values())
    assert sum(sum(per.values()) for per in analysis["step_losses"].values()) == lost


def test_a_position_file_plays_to_its_end_through_the_cli(run):
    game = run("new", "daisenso", "--position", str(data.SCENARIOS / "zhejiang.toml")).output.strip()
    shown = through_the_cli(run, game, random.Random(3))
    assert shown["outcome"] is not None
    bad = run("new", "daisenso", "--position", str(data.SCENARIOS / ".." / "crt.toml"), ok=False)
    assert bad.exit_code == 1 and "'factions' names the two factions" in bad.output
