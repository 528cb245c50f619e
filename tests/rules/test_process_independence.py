"""An automated seat decides the same in any process (issue 29, `verify`): the server is long-lived and decides
seats for many games, and `verify` decides them again in another process, so nothing a process computed for one
game may change what it decides in another. The per-process stores that outlive a game are the rule sets' data,
one object per set of options shared by every game of the process (app/rules/engine/game.py `data`), and the
lru caches keyed on it or on its map (app/rules/evaluation.py, app/rules/olympic/aims.py and victory.py): a game
that changed the shared data would change the next game's decisions. Here every rule set plays a few orders of
greedy and search, then a game is played again and compared with the same game played in a fresh process."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from app.events.dice import SeededDice
from app.rules import practice
from app.rules.catalog import installed

CATALOG = installed()
ROOT = Path(__file__).resolve().parents[2]
# game, scenario, orders: a short game of each rule set, both seats greedy, then a search:4 decision
GAMES = [("skirmish", "standard", 12), ("snc", "campaign", 12), ("ichigo", "campaign", 8),
         ("daisenso", "strait", 6), ("olympic", "solitaire", 8), ("formosa", "2", 12)]
LAST = ("formosa", "2", 12)  # the game compared with a fresh process's


def play(game: str, scenario: str, orders: int) -> list[str]:
    """Both sides' greedy orders from the start on seeded dice, then what search:4 gives there."""
    rules = CATALOG.rules(game)
    state = rules.initial_state(scenario, {})
    dice = SeededDice(next_index=0, seed="independence", game_id=f"independence-{game}")
    given = dict.fromkeys(rules.sides, 0)
    out = []
    for _ in range(orders):
        if rules.outcome(state) is not None:
            break
        side = rules.prompt(state).side
        text, _why = practice.choose(rules, "greedy", state, side, {"edition": practice.EDITION}, given[side])
        out.append(text)
        for event in rules.decide(state, rules.parse(text, side, state), dice):
            state = rules.evolve(state, event)
        given[side] += 1
    if rules.outcome(state) is None:
        side = rules.prompt(state).side
        out.append(practice.choose(rules, "search", state, side, {"edition": practice.EDITION, "playouts": 4},
                                   given[side])[0])
    return out


def test_a_game_decides_after_other_games_as_in_a_fresh_process():
    shared = {game: repr(CATALOG.rules(game).data({})) for game, _, _ in GAMES}
    played = {spec: play(*spec) for spec in GAMES}  # every rule set's caches filled, LAST among them
    again = play(*LAST)
    fresh = subprocess.run(
        [sys.executable, "-c", "import json, sys; from tests.rules.test_process_independence import play; "
                               f"print(json.dumps(play(*{LAST!r})))"],
        cwd=ROOT, capture_output=True, text=True, check=True)
    assert json.loads(fresh.stdout.strip().splitlines()[-1]) == again == played[LAST]
    # the data every game of the process shares is as it was loaded
    assert {game: repr(CATALOG.rules(game).data({})) for game, _, _ in GAMES} == shared
