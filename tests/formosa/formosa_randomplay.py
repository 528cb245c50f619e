"""Random legal orders for a Formosa game (the fuzzer's and the leak check's player), drawn from the orders to try
(app/rules/legal.py, the list the legal orders are made of): mostly acting, ending a phase now and then. A layer
on that list, on purpose: orders whose verb is named in `prefer` (and buying an amphibious unit) are tried first,
so the invader's Allied player lands whenever he can and a game reaches the invasion."""
from __future__ import annotations

import random

from app.rules import legal
from app.rules.formosa import GAME

INVADER = ("land", "drop", "assault", "attack", "advance", "deploy", "choose")


def candidates(state, rng: random.Random, act: float = 0.7, prefer: tuple[str, ...] = ()):
    preferred, acting, ending = [], [], []
    for text in legal.orders_to_try(GAME, state, GAME.prompt(state).side):
        verb = text.split()[0]
        if verb in prefer or text == "buy 1 amphibious" and prefer:
            preferred.append(text)
        else:
            (ending if verb in ("end", "hold") else acting).append(text)
    rng.shuffle(acting)
    rng.shuffle(preferred)
    first = acting if rng.random() < act else []
    yield from [*preferred, *first, *ending, *acting]


def invader(state, rng: random.Random):
    return candidates(state, rng, 0.5, INVADER)
