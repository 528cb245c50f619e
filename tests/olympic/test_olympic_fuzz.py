"""The Olympic fuzzer (docs/architecture.md practice 10): random legal American orders, answered by the automated
Japanese seat's programmed orders, through the service until the game ends, with no dead end, then an audit that
re-decides every order (the programmed Japanese included) and recomputes every die."""
from __future__ import annotations

import random

import pytest

from app.rules import legal
from app.rules.catalog import installed
from app.rules.olympic import GAME
from app.service import audit

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


def test_a_random_solitaire_game_ends_without_dead_ends_and_verifies(served_games):
    """The Japanese seat is the server's (automated by default): after each American order it plays every
    programmed order the states table prompts, and the audit re-decides each of them. The game is the session's
    (tests/conftest.py `served_games`: random American orders from seed 0, fixed dice), which the replay reads too."""
    game = served_games("olympic")
    outcome = GAME.outcome(game.final)
    assert outcome is not None and game.accepted > 50
    assert outcome.reason.split(":")[0].endswith("victory")
    assert len(game.answered) > 100 and {a.events[0].actor for a in game.answered} == {"auto:japanese"}
    report = audit.verify(CATALOG, game.events, check_dice=True)
    assert report.ok and report.rolls_checked > 0, report.problems[:3]
    assert report.orders_replayed == game.accepted + len(game.answered)
