"""The random-play driver every game's fuzzer shares (docs/architecture.md practice 10): random legal orders, drawn by
the game's own `candidates(state, rng)`, until the game ends; a state with no accepted candidate is a dead end.
Every candidate refused on the way is held to practice 11: it rolled no die, and its refusal reads the same
whatever the dice would have shown, so sending it leaves the next roll and every answer as they were."""
from __future__ import annotations

import random
from collections.abc import Callable

from app.events.dice import SeededDice
from app.rules import legal
from app.rules.base import Rules
from app.rules.engine.decision import FixedDice
from app.rules.errors import OrderError


def play(rules: Rules, candidates: Callable, rng: random.Random, max_orders: int, dice_seed: str,
         submit=None, state=None):
    """Play random legal orders. With `submit(side, text)` orders go through the service; otherwise straight
    through the rules with seeded dice. Returns (final state, orders accepted)."""
    state = state or rules.initial_state(next(iter(rules.scenarios)), {})
    dice = SeededDice(next_index=0, seed=dice_seed, game_id="fuzz")
    accepted = 0
    for _ in range(max_orders):
        if rules.outcome(state) is not None:
            break
        p = rules.prompt(state)
        assert p.side is not None and p.actions, f"dead end at {p.step}"
        for text in candidates(state, rng):
            rolled = dice.next_index
            try:
                if submit is not None:
                    state = submit(p.side, text)
                else:
                    command = rules.parse(text, p.side, state)
                    for e in rules.decide(state, command, dice):
                        state = rules.evolve(state, e)
                accepted += 1
                break
            except OrderError as exc:
                answer = refusal(rules, state, p.side, text)  # the service adds its own checks before the rules'
                assert submit is not None or (answer == str(exc) and dice.next_index == rolled), text
                continue
        else:
            raise AssertionError(f"dead end: no candidate accepted at {p.step} ({[a.name for a in p.actions]})")
    return state, accepted


def legal_candidates(rules: Rules) -> Callable:
    """The random player's orders: the rule set's own orders to try (app/rules/legal.py, the ones its list of legal
    orders is made of), shuffled; `play` gives the first the decider accepts, so every order played is one the
    list of legal orders shows."""
    def candidates(state, rng: random.Random) -> list[str]:
        out = legal.orders_to_try(rules, state, rules.prompt(state).side)
        rng.shuffle(out)
        return out

    return candidates


def kind_first_candidates(rules: Rules) -> Callable:
    """A random player that draws a kind of order first, then one of its orders (tests/fuzzing.py `play` gives the
    first the decider accepts): the kinds in a random order, each kind's orders shuffled. Where one kind has far
    more orders than the others (SNC's moves of every unit), drawing from them all alike would almost never end a
    phase, and a side that never stops moving loses its position before the game has shown anything."""
    def candidates(state, rng: random.Random) -> list[str]:
        kinds: dict[str, list[str]] = {}
        for c in legal.candidates(rules, state, rules.prompt(state).side):
            kinds.setdefault(c.action, []).append(c.text)
        order = list(kinds)
        rng.shuffle(order)
        out = []
        for kind in order:
            texts = list(dict.fromkeys(kinds[kind]))
            rng.shuffle(texts)
            out += texts
        return out

    return candidates


def refusal(rules: Rules, state, side: str, text: str) -> str | None:
    """The rules' answer to `text` if they refuse it (None if they accept it), asserting that the refusal took no
    die and reads the same whatever the dice would show (docs/architecture.md practice 11): a refused order tells the
    player nothing about the next roll, so it leaves the next roll index and every refusal text as they were."""
    answers = set()
    for face in range(1, 7):
        dice = FixedDice(face)
        try:
            rules.decide(state, rules.parse(text, side, state), dice)
        except OrderError as exc:
            assert not dice.taken, f"{text!r} refused after a roll ({dice.taken[-1].purpose}): {exc}"
            answers.add(str(exc))
        else:
            answers.add(None)
    assert len(answers) == 1, f"{text!r}: the answer depends on the dice: {answers}"
    return answers.pop()
