"""Random legal orders for a Formosa game (the fuzzer's and the leak check's player): mostly acting, ending a
phase now and then, every candidate from the states table's own `candidates`; orders named in `prefer` are
tried first (an invasion-minded Allied player lands whenever he can)."""
from __future__ import annotations

import random

from app.rules.formosa import GAME

INVADER = ("land", "drop", "attack", "advance", "deploy", "choose")


def candidates(state, rng: random.Random, act: float = 0.7, prefer: tuple[str, ...] = ()):
    prompt = GAME.prompt(state)
    side = prompt.side
    preferred, acting, ending = [], [], []
    for order in GAME.table.allowed(state):
        for args in (order.candidates(state, side) if order.candidates else [{}]):
            text = order.grammar.render(args)
            if order.name in prefer or text == "buy 1 amphibious" and prefer:
                preferred.append(text)
            else:
                (ending if order.name in ("end", "hold") else acting).append(text)
    rng.shuffle(acting)
    rng.shuffle(preferred)
    first = acting if rng.random() < act else []
    yield from [*preferred, *first, *ending, *acting]


def invader(state, rng: random.Random):
    return candidates(state, rng, 0.5, INVADER)
