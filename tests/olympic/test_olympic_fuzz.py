"""The Olympic fuzzer (docs/architecture.md practice 10): random legal American orders, answered by the automated
Japanese seat's programmed orders, through the service until the game ends, with no dead end, then an audit that
re-decides every order (the programmed Japanese included) and recomputes every die."""
from __future__ import annotations

import random

import pytest

from app.projections import state as projection
from app.rules import legal
from app.rules.catalog import installed
from app.rules.olympic import GAME
from app.service import audit, autoplay, games
from tests.fuzzing import play

CATALOG = installed()  # the rule sets installed here

pytestmark = pytest.mark.slow  # random games played to their end


def candidates(state, rng: random.Random):
    """The Japanese seat plays the one programmed order; the American player picks at random among the orders to
    try (app/rules/legal.py, the list the legal orders are made of), mostly acting, checking each with the decider
    only when it comes to it. A layer on that list, on purpose: the standing `retreat toward` order (ruling R24),
    always open and ending no step, is left out, or the random player would spend its orders on it."""
    prompt = GAME.prompt(state)
    if prompt.side == "japanese":
        yield from (o["order"] for o in GAME.legal_orders(state, "japanese"))
        return
    acting, ending = [], []
    for text in legal.orders_to_try(GAME, state, "american"):
        verb = text.split()[0]
        if verb != "retreat":
            (ending if verb == "end" else acting).append(text)
    rng.shuffle(acting)
    first = acting if rng.random() < 0.8 else []
    for text in [*first, *ending, *acting]:
        if GAME.is_legal(state, GAME.parse(text, "american", state)):
            yield text


@pytest.mark.parametrize("seed", [0])
def test_random_solitaire_games_end_without_dead_ends_and_verify(store, seed):
    """The Japanese seat is the server's (automated by default): after each American order it plays every
    programmed order the states table prompts, and the audit re-decides each of them."""
    game_id = games.create_game(store, CATALOG, "olympic")
    games.join(store, CATALOG, game_id, "american", "player@example.org", f"player {seed}")
    answered = []

    def submit(side, text):
        games.submit(store, CATALOG, game_id, side, text)
        answered.extend(autoplay.play(store, CATALOG, game_id))
        return projection.load(store, CATALOG, game_id).game

    final, accepted = play(GAME, candidates, random.Random(seed), 5000, "unused", submit=submit,
                           state=projection.load(store, CATALOG, game_id).game)
    outcome = GAME.outcome(final)
    assert outcome is not None and accepted > 50
    assert outcome.reason.split(":")[0].endswith("victory")
    assert len(answered) > 100 and {a.events[0].actor for a in answered} == {"auto:japanese"}
    report = audit.verify(CATALOG, list(store.events(game_id)), check_dice=True)
    assert report.ok and report.rolls_checked > 0, report.problems[:3]
    assert report.orders_replayed == accepted + len(answered)
