"""An automated seat decides on what its side may know (issue 25, issue 29): every practice policy's random
choice is seeded from the side's view and the orders it has given, and the strong policy plays its playouts on
positions sampled from that view (app/rules/belief.py). Two positions that differ only in what the other side
hides (SNC 6.3: the units beneath the top unit of a stack, and their losses) give the same order and reason."""
from __future__ import annotations

import dataclasses
import random

import pytest

from app.events.dice import SeededDice
from app.rules import belief, practice
from app.rules.snc import GAME as SNC


def _after(state, *orders):
    dice = SeededDice(next_index=0, seed="sight", game_id="g")
    for text in orders:
        side = SNC.prompt(state).side
        for event in SNC.decide(state, SNC.parse(text, side, state), dice):
            state = SNC.evolve(state, event)
    return state


def _moved(state, changes: dict[str, dict]):
    return dataclasses.replace(state, units={uid: dataclasses.replace(u, **changes.get(uid, {}))
                                             for uid, u in state.units.items()})


@pytest.fixture
def chinese_to_attack():
    """GT 1, the Chinese fight first: their attacks on Shanghai (3512) and 3611 are listed, the Japanese SNLF
    battalions beneath the garrisons hidden from them. The twin differs in what the Chinese cannot see: the
    battalion at 3611 and one at 3512 have changed places, and the other one at 3512 has lost a step."""
    state = _after(SNC.initial_state("campaign", {}), "declare fight move")
    units = state.units
    assert {units[u].hex for u in ("jp-snlf-1", "jp-snlf-2")} == {"3512"} and units["jp-snlf-3"].hex == "3611"
    twin = _moved(state, {"jp-snlf-1": {"hex": "3611"}, "jp-snlf-3": {"hex": "3512"},
                          "jp-snlf-2": {"steps": 1}})
    assert twin != state and SNC.view(twin, "japanese") != SNC.view(state, "japanese")
    assert SNC.view(twin, "chinese") == SNC.view(state, "chinese")
    return state, twin


@pytest.mark.parametrize("spec", ["random", "greedy", "search:24"])
def test_a_policy_gives_the_same_order_in_positions_its_side_cannot_tell_apart(chinese_to_attack, spec):
    state, twin = chinese_to_attack
    name, settings = practice.parse_spec(SNC, spec)
    for given in (0, 7):
        mine = practice.choose(SNC, name, state, "chinese", settings, given)
        assert practice.choose(SNC, name, twin, "chinese", settings, given) == mine
    if name == "search":
        assert mine[1]["playouts"] == 24 and mine[0].startswith(("attack", "end"))


def test_the_seed_is_the_sides_view_and_its_orders_given(chinese_to_attack):
    state, twin = chinese_to_attack
    seed = practice.view_seed(SNC, state, "chinese", 3)
    assert practice.view_seed(SNC, twin, "chinese", 3) == seed
    assert practice.view_seed(SNC, state, "chinese", 4) != seed  # a position met again draws afresh
    assert practice.view_seed(SNC, state, "japanese", 3) != seed
    moved = _moved(state, {"cn-d36": {"steps": 1}})  # a Chinese loss: the Chinese see it
    assert practice.view_seed(SNC, moved, "chinese", 3) != seed


def test_the_strong_policys_samples_move_hidden_units_and_keep_what_the_side_sees(chinese_to_attack):
    state, twin = chinese_to_attack
    assert belief.hidden_units(SNC, state, "chinese") == ["jp-snlf-1", "jp-snlf-2", "jp-snlf-3"]
    worlds = [belief.sample(SNC, state, "chinese", random.Random(k)) for k in range(12)]
    assert all(SNC.view(w, "chinese") == SNC.view(state, "chinese") for w in worlds)
    assert len({w.units["jp-snlf-3"].hex for w in worlds}) == 2  # dealt to 3512 and to 3611
    assert all(w.units["jp-snlf-2"].steps == 2 for w in worlds)  # losses the side has not seen: full strength
    for k in range(12):
        assert belief.sample(SNC, twin, "chinese", random.Random(k)) == worlds[k]
