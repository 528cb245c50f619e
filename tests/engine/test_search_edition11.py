"""Search edition 11 (app/rules/formosa/unseen.py `PLANS_SINCE`; practice.EDITION 11): the positions Formosa's
search samples draw the other side's strike plan while it is secret (16.1), as they draw its air points (11.0).
The Japanese plan first (6.1), so an Allied seat's samples of its own Strike Planning carried the real Japanese
plan until edition 10, and its playouts met that plan at the reveal. Seats of edition 10 and older sample as their
games were played (tests/rules/test_pinned_decisions.py); greedy reads its samples at its edition 9."""
from __future__ import annotations

import random
from dataclasses import replace

from app.rules import belief, practice
from app.rules.formosa import GAME as FORMOSA
from app.rules.formosa import strike
from app.rules.formosa.state import Strike
from tests.engine.formosa_allied import allied

PLANS = [(0, 0, 0), (6, 0, 0), (0, 6, 3), (2, 3, 1)]  # the Japanese air superiority, tactical and kamikaze points


def _planning(superiority: int, tactical: int, kamikaze: int):
    """GT 3, the Allied Strike Planning Phase (16.1): the Japanese have planned (every mission named, F70), in
    secret; Allied regiments next to the Japanese regiment at 1622."""
    state = allied("strike-planning-allied", 4, {"us-7-17": "1621", "us-7-32": "1722", "us-7-184": "1621"})
    plan = {"air-superiority": superiority, "tactical": tactical, "kamikaze": kamikaze}
    return replace(state, strike=Strike(missions={"japanese": plan}),
                   air={**state.air, "japanese-tac": superiority + tactical, "kamikaze": kamikaze})


def _samples(state, edition: int) -> list:
    return [belief.sample(FORMOSA, state, "allied", random.Random(k), edition=edition) for k in range(6)]


def test_the_allies_see_nothing_of_the_japanese_plan():
    seen = FORMOSA.view(_planning(0, 0, 0), "allied")
    assert all(FORMOSA.view(_planning(*p), "allied") == seen for p in PLANS)
    assert "japanese" not in seen["missions"]
    assert FORMOSA.prompt(_planning(0, 0, 0)).side == "allied"


def test_from_edition_11_the_sample_draws_the_secret_japanese_plan_from_the_view_alone():
    worlds = {p: _samples(_planning(*p), 11) for p in PLANS}
    assert all(worlds[p] == worlds[PLANS[0]] for p in PLANS)  # the same draws whatever the Japanese planned
    drawn = [w.strike.missions["japanese"] for w in worlds[PLANS[0]]]
    assert len({tuple(sorted(m.items())) for m in drawn}) > 1  # drawn, not a fixed guess
    for world, plan in zip(worlds[PLANS[0]], drawn, strict=True):
        assert set(plan) == set(strike.MISSIONS["japanese"])  # every mission named, as a plan is (F70)
        assert plan["air-superiority"] + plan["tactical"] == world.air["japanese-tac"]  # the believed points fly
        assert plan["kamikaze"] == world.air["kamikaze"]
        assert FORMOSA.view(world, "allied") == FORMOSA.view(_planning(0, 0, 0), "allied")
        assert world.strike.missions.get("allied") is None  # its own (not yet made) as it is


def test_edition_10_samples_carried_the_real_plan_as_played():
    worlds = {p: _samples(_planning(*p), 10) for p in PLANS}
    assert [w.strike.missions["japanese"]["tactical"] for w in worlds[(0, 6, 3)]] == [6] * 6
    assert worlds[(6, 0, 0)] != worlds[(0, 0, 0)]


def test_a_revealed_plan_is_kept_and_a_japanese_seat_draws_the_allied_plan():
    revealed = _planning(2, 3, 1)
    revealed = replace(revealed, strike=replace(revealed.strike, revealed=True))
    assert all(w.strike.missions["japanese"] == {"air-superiority": 2, "tactical": 3, "kamikaze": 1}
               for w in _samples(revealed, 11))
    state = replace(_planning(0, 0, 0), step="strike-reveal",
                    strike=Strike(missions={"japanese": {"kamikaze": 0},
                                            "allied": {m: 0 for m in strike.MISSIONS["allied"]} | {"tactical": 7}}))
    worlds = [belief.sample(FORMOSA, state, "japanese", random.Random(k), edition=11) for k in range(6)]
    assert all(w.strike.missions["japanese"] == {"kamikaze": 0} for w in worlds)  # its own as it is
    assert len({w.strike.missions["allied"]["tactical"] for w in worlds}) > 1


def test_the_search_seats_decision_does_not_change_with_the_secret_japanese_plan():
    decided = {p: practice.choose(FORMOSA, "search", _planning(*p), "allied", {"edition": 11, "playouts": 24})
               for p in PLANS}
    assert len({repr(d) for d in decided.values()}) == 1
    assert decided[PLANS[0]][0].startswith("plan")
