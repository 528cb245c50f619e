"""A timed `search` decision keeps within its CPU budget (app/rules/search.py `Search.run`): it runs another playout
only while that playout (the mean so far) and the choosing after them (as long as the listing before the first
one) still fit in what is left. Read on a clock the test controls, not the machine's: the listing and each
playout cost what the test says, so the number of playouts is exact whatever the machine's load."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from app.rules import search
from app.rules.skirmish import GAME as SKIRMISH

LISTING, PLAYOUT = 0.5, 0.25  # CPU seconds, exact in binary: the sums below are exact too


@pytest.fixture
def clock(monkeypatch):
    """The search's CPU clock, advanced by the listing of the root's orders and by every playout (`cost(i)`: PLAYOUT
    unless a test says otherwise), nothing else."""
    now = SimpleNamespace(t=0.0, cost=lambda i: PLAYOUT)
    monkeypatch.setattr(search, "time", SimpleNamespace(process_time=lambda: now.t))
    candidates, iterate = search.Search.candidates, search.Search.iterate

    def listed(self, state, side, root=False):
        out = candidates(self, state, side, root)
        now.t += LISTING if root else 0.0
        return out

    def played(self, i):
        iterate(self, i)
        now.t += now.cost(i)

    monkeypatch.setattr(search.Search, "candidates", listed)
    monkeypatch.setattr(search.Search, "iterate", played)
    return now


STATE = SKIRMISH.initial_state("standard", {})
SIDE = SKIRMISH.prompt(STATE).side


def _decide(seconds: float | None, budget: int = 1000):
    return search.Search(SKIRMISH, STATE, SIDE, budget, 0, seconds).decide()


def test_a_timed_decision_runs_another_playout_only_while_it_and_the_choosing_after_it_fit(clock):
    # after i playouts the clock reads 0.5 + 0.25 i; one more and a choosing as long as the listing: + 0.75.
    # 5.4 s: the 17th fits (0.5 + 4.0 + 0.75 = 5.25), an 18th would not (5.5), so 17 playouts, ending at 4.75 s
    order, why = _decide(5.4)
    assert why["playouts"] == 17 and clock.t == 0.5 + 17 * PLAYOUT
    assert order in {o["order"] for o in SKIRMISH.legal_orders(STATE, SIDE)}
    _, why = _decide(5.5)  # the 18th now fits exactly (5.5): the budget is not passed, only reached
    assert why["playouts"] == 17
    _, why = _decide(5.51)
    assert why["playouts"] == 18


def test_a_timed_decision_runs_its_minimum_however_slow_and_a_counted_one_ignores_the_clock(clock):
    _, why = _decide(0.1)  # the listing alone passes the budget: still search.MIN_PLAYOUTS playouts
    assert why["playouts"] == search.MIN_PLAYOUTS == 16
    _, why = _decide(None, budget=20)  # `search:20`: exactly 20, whatever the clock says
    assert why["playouts"] == 20
    _, why = _decide(100.0, budget=20)  # a timed one stops at its count too
    assert why["playouts"] == 20


def test_a_playout_far_longer_than_most_does_not_carry_the_decision_past_its_budget(clock):
    """Every tenth playout opens a decision of many orders and costs 2 s where the others cost 0.25 (an Olympic
    combat phase's list of attacks, each with its odds). Reckoned on the mean, the 30th playout (a long one) began
    at 11.25 s, the mean and the choosing after it fitting in 13 s, and ended at 13.25 s: past the budget. Reckoned
    on the longest so far, the search stops after 26, at 10.5 s, with the choosing after them (0.5) inside 13 s."""
    clock.cost = lambda i: 2.0 if i % 10 == 9 else PLAYOUT
    _, why = _decide(13.0)
    assert why["playouts"] == 26 and clock.t == 10.5
    assert clock.t + LISTING <= 13.0
