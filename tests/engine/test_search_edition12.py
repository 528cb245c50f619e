"""Search edition 12 (practice.EDITION 12, app/rules/search.py `OBJECTIVE_SINCE`, `STANDING_SINCE`, `STOOD_SINCE`):
August Storm's soviets can win against an axis that stands only by attacking Hailar (e3411) first
(bench/against_defence.py, docs/benchmarks.md part 13), which edition 11 searched at a prior of 0.027 (greedy rates
an attack below 3:2 as not worth giving: below `next`) and played out against greedy's axis alone. From edition 12
an attack on a victory hex the side does not hold is searched at `end`'s prior at least, and in every second
played-out playout in which the searching side loses if both sides stand, the other side stands (ends every step
it may). Seats of edition 11 and older decide as played (tests/rules/test_pinned_decisions.py)."""
from __future__ import annotations

import random

import pytest

from app.events.core import DieRolled
from app.rules import practice, search
from app.rules.daisenso import GAME as DAISENSO

HAILAR, MANCHOULI = "e3411", "e3410"


class Sixes:
    """Every die shows 6 (the soviets' attacks succeed)."""

    def __init__(self):
        self.next_index = 0

    def roll(self, purpose: str, sides: int = 6) -> DieRolled:
        self.next_index += 1
        return DieRolled(index=self.next_index - 1, sides=sides, value=6, purpose=purpose)


def _play(state, *orders: str):
    for text in orders:
        side = DAISENSO.prompt(state).side
        state = search.apply_command(DAISENSO, state, DAISENSO.parse(text, side, state), Sixes())
    return state


@pytest.fixture(scope="module")
def first_attack():
    """Combat Phase 1, the soviets' first attack (no airdrop): Manchouli and Hailar both the axis's."""
    return _play(DAISENSO.initial_state("august-storm", {}), "next")


def _arms(state, edition: int) -> dict[str, float]:
    return search.Search(DAISENSO, state, "allied", 1, 1, edition=edition).candidates(state, "allied", root=True)


def test_from_edition_12_the_attacks_on_hailar_are_searched_at_the_prior_of_next_at_least(first_attack):
    arms = _arms(first_attack, 12)
    hailar = [a for a in arms if a.startswith(f"attack {HAILAR} ")]
    assert len(hailar) == 3  # the two armies together, each alone
    assert all(arms[a] >= arms["next"] for a in hailar)
    assert max(arms[a] for a in arms if a.startswith(f"attack {MANCHOULI} ")) > arms[hailar[0]]  # still behind 3:2
    old = _arms(first_attack, 11)
    assert set(old) == set(arms) and all(old[a] < old["next"] for a in hailar)  # edition 11: 0.027 against 0.054


@pytest.fixture(scope="module")
def lure():
    """Combat Phase 2, the axis's: the soviets took Manchouli and the lone detachment's hex e3310 next to Hailar;
    greedy's axis attacks e3310 out of Hailar at 6-1."""
    return _play(DAISENSO.initial_state("august-storm", {}), "next",
                 f"attack {MANCHOULI} with mpr-cav ru-1-abde ru-36-army ru-6-gta hq ru-transbaikal", "retreat to e3210",
                 "convert kw-manchouli", "advance mpr-cav", "advance ru-1-abde", "advance ru-36-army",
                 "advance ru-6-gta", "next", "eliminate ru-6-gta", "attack e3310 with ru-1-abde", "advance ru-1-abde",
                 "next")


def _axis_orders(state, monkeypatch, stands: str | None) -> list[str]:
    given: list[str] = []
    apply = search.apply_command

    def spied(rules, at, command, dice):
        if rules.prompt(at).side == "axis":
            given.append(command.action)
        return apply(rules, at, command, dice)

    monkeypatch.setattr(search, "apply_command", spied)
    search.rollout(DAISENSO, state, search.PlayoutDice(random.Random(1)), stands=stands, edition=12)
    monkeypatch.undo()
    return given


def test_a_played_out_playout_whose_axis_stands_gives_no_attack_where_greedys_attacks(lure, monkeypatch):
    assert DAISENSO.prompt(lure).side == "axis"
    assert practice.greedy(DAISENSO, 12)(lure, "axis", 0)[0].startswith("attack e3310")
    assert _axis_orders(lure, monkeypatch, None)[0] == "attack"
    standing = _axis_orders(lure, monkeypatch, "axis")
    assert standing[0] == "next" and "attack" not in standing


def test_the_other_side_stands_only_where_the_searching_side_loses_if_both_stand(lure):
    assert search.lost_standing(DAISENSO, lure, "allied")  # the axis keeps Hailar: the soviets lose
    assert not search.lost_standing(DAISENSO, lure, "axis")  # so a searching axis's playouts never see soviets stand
    assert search.Search(DAISENSO, lure, "axis", 1, 0, edition=12).other() == "allied"
