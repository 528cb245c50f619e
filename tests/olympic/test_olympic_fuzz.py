"""The Olympic fuzzer (design.md practice 10): random legal American orders and the programmed Japanese orders
through the service until the game ends, with no dead end, then an audit that re-decides every order (the
programmed Japanese included) and recomputes every die."""
from __future__ import annotations

import random

import pytest

from app.projections import state as projection
from app.rules.olympic import GAME
from app.service import audit, games
from tests.fuzzing import play


def candidates(state, rng: random.Random):
    """The Japanese seat plays the one programmed order; the American player picks at random among the orders
    the states table suggests, mostly acting, checking each with the decider only when it comes to it."""
    prompt = GAME.prompt(state)
    if prompt.side == "japanese":
        yield from (o["order"] for o in GAME.legal_orders(state, "japanese"))
        return
    acting, ending = [], []
    for order in GAME.table.allowed(state):
        if order.name == "retreat":
            continue
        for args in (order.candidates(state, "american") if order.candidates else [{}]):
            (ending if order.name == "end" else acting).append(order.grammar.render(args))
    rng.shuffle(acting)
    first = acting if rng.random() < 0.8 else []
    for text in [*first, *ending, *acting]:
        if GAME.is_legal(state, GAME.parse(text, "american", state)):
            yield text


@pytest.mark.parametrize("seed", [0])
def test_random_solitaire_games_end_without_dead_ends_and_verify(store, seed):
    game_id = games.create_game(store, "olympic")
    games.join(store, game_id, "american", "player@example.org", f"player {seed}")
    games.join(store, game_id, "japanese", "doctrine@example.org", "")

    def submit(side, text):
        return games.submit(store, game_id, side, text).state.game

    final, accepted = play(GAME, candidates, random.Random(seed), 5000, "unused", submit=submit,
                           state=projection.load(store, game_id).game)
    outcome = GAME.outcome(final)
    assert outcome is not None and accepted > 100
    assert outcome.reason.split(":")[0].endswith("victory")
    report = audit.verify(list(store.events(game_id)), check_dice=True)
    assert report.ok and report.rolls_checked > 0, report.problems[:3]
