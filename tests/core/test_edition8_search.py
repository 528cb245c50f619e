"""Search edition 8 (app/rules/search.py `rollout`): where the rule set says the game's end is near (its
`near_end`: Dai Senso, a few Combat Phases), the strong opponent plays each playout out to the game's end with
greedy's orders, the outcome its value, instead of valuing the position where the playout leaves its tree.

Across the Strait, the US attack on Taihoku at 2-1 (Dai Senso 4.2.4): on a Dr1 the Japanese take a step instead of
the retreat (4.2.5.3), on an Ex they lose one (4.2.4), the fortress or the 9th Division. Walking the rest of the
scenario exactly (every listed order, every die face, as bench/scenario_value.py walks it) gives the Japanese
16.7% with the 9th Division's step and 0% with the fortress's (Dr1), against greedy and against best play alike;
33.3% against 5.6% (Ex, against greedy; 33.3% against 0% against best play): D16 asks for Taihoku held after the
last Combat Phase, and the fortress's three defence factors keep the next attack's odds down. Edition 7's leaf
evaluation read the two orders alike (+0.24 and -0.04 after 1,453 playouts, the fortress first) and chose the
fortress in three games of six at 2 s; edition 8 chooses the division whatever its seed. Edition 7 seats decide as
played (tests/rules/test_pinned_decisions.py)."""
from __future__ import annotations

import pytest

from app.rules import search
from app.rules.catalog import installed
from app.rules.engine.decision import FixedDice

DAISENSO = installed().rules("daisenso")
ASSAULT = "attack w4324 with us-10-army us-3-mac us-6-mar hq us-hq-pac"  # 2-1, as greedy gives it on turn 1


def _after_the_assault(face: int):
    """Across the Strait after the US assault on Taihoku rolled `face` (5: Dr1; 3: Ex, the US loss taken)."""
    state = DAISENSO.initial_state("strait", {})
    orders = [ASSAULT] + (["lose us-3-mac as us-marine"] if face == 3 else [])
    for text in orders:
        for event in DAISENSO.decide(state, DAISENSO.parse(text, "allied", state), FixedDice(face)):
            state = DAISENSO.evolve(state, event)
    return state


@pytest.mark.parametrize(("face", "kind"), [(5, "convert"), (3, "lose")], ids=["Dr1", "Ex"])
def test_edition_8_gives_taihoku_s_step_from_the_division_not_the_fortress(face, kind):
    state = _after_the_assault(face)
    listed = {item["order"] for item in DAISENSO.legal_orders(state, "axis")}
    assert listed == {f"{kind} jp-taihoku-fort", f"{kind} jp-9-div"}
    chosen = {given: search.Search(DAISENSO, state, "axis", 60, given, edition=8).decide()[0] for given in (0, 1)}
    assert set(chosen.values()) == {f"{kind} jp-9-div"}, chosen
    if face == 5:  # edition 7, the same seeds: the fortress's step in two of three, as its games were played
        old = [search.Search(DAISENSO, state, "axis", 60, given, edition=7).decide()[0] for given in (0, 1, 2)]
        assert old.count("convert jp-taihoku-fort") >= 2, old


def test_edition_8_values_every_playout_by_the_scenario_s_outcome(monkeypatch):
    """Every playout reaches D16's count, the dice's detours from the tree's path included: each value learnt is a
    win or a loss, where edition 7 learnt the evaluation's readings in between."""
    state = _after_the_assault(5)
    learnt: dict[int, list[float]] = {7: [], 8: []}
    learn = search.Search.learn
    monkeypatch.setattr(search.Search, "learn",
                        lambda self, path, found: (learnt[self.edition].append(found), learn(self, path, found)))
    for edition in (7, 8):
        search.Search(DAISENSO, state, "axis", 40, 0, edition=edition).decide()
    assert len(learnt[8]) == 40 and set(learnt[8]) == {-1.0, 1.0}
    assert set(learnt[7]) - {-1.0, 1.0}
