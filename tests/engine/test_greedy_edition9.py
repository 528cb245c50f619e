"""Greedy edition 9 (app/rules/practice.py GREEDY_9, issue 29). An automated seat reads only what its side may
see: the position it reads Formosa's stakes on draws the other side's air and naval points and invasion markers
(11.0; app/rules/belief.py, app/rules/formosa/unseen.py), where edition 8's kept the real ones, so a Japanese
seat's reason told how many amphibious markers the Allies held (10.0). Greedy's Formosa Allies move an engineer
toward a port or airfield without a base where no objective draws it (20.1), and keep the LP a base needs for an
engineer still in the Staging Area (edition 8 spent them and met the Base Building Phase with 0-1 LP). Seats of
edition 8 decide as they were played."""
from __future__ import annotations

import random
from dataclasses import replace

import pytest

from app.rules import belief, evaluation, practice
from app.rules.formosa import GAME as FORMOSA
from app.rules.formosa import unseen, view
from app.rules.formosa.searched import base_reserve
from app.rules.formosa.state import Strike
from tests.engine.formosa_allied import allied


def _kamikaze(amphibious: int, gunfire: int):
    """GT 1, the Japanese Special Attack Phase (16.6), six kamikaze points planned, no Allied unit on Formosa yet:
    the hits send amphibious markers back (with no gunfire in the Staging Area, all of them), and until a landing
    Formosa's stakes read what the markers can land."""
    state = allied("japanese-special-attack", 1, {"us-eng-1": "allied-staging"}, turn=1)
    return replace(state, strike=Strike(missions={"japanese": {"kamikaze": 6}}), air={**state.air, "kamikaze": 6},
                   markers={"amphibious": amphibious, "drop-zone": 1}, naval={"gunfire": gunfire, "cw-gunfire": 0})


TWINS = [(0, 0), (1, 0), (3, 0), (3, 4)]  # the Allied amphibious markers and naval gunfire: hidden from the Japanese


def test_the_twins_differ_only_in_what_the_japanese_cannot_see():
    seen = FORMOSA.view(_kamikaze(0, 0), "japanese")
    assert all(FORMOSA.view(_kamikaze(*t), "japanese") == seen for t in TWINS)
    assert len({repr(FORMOSA.view(_kamikaze(*t), "allied")["markers"]) for t in TWINS}) == 3


def test_a_japanese_seats_decision_does_not_change_with_the_hidden_allied_markers():
    decided = {t: practice.choose(FORMOSA, "greedy", _kamikaze(*t), "japanese", {"edition": 9}) for t in TWINS}
    assert len(set(map(repr, decided.values()))) == 1
    assert decided[(0, 0)][0] == "roll"
    # edition 8 (as played): the reason's gain was the markers the hits would send back, read from the real ones
    played = {t: practice.choose(FORMOSA, "greedy", _kamikaze(*t), "japanese", {"edition": 8}) for t in TWINS}
    assert "gain" not in played[(0, 0)][1] and played[(3, 0)][1]["gain"] > 0
    assert played[(1, 0)][1]["gain"] != played[(3, 0)][1]["gain"]


def test_the_sample_draws_the_other_sides_points_and_markers_from_the_view_alone():
    worlds = {t: [belief.sample(FORMOSA, _kamikaze(*t), "japanese", random.Random(k), edition=9) for k in range(6)]
              for t in TWINS}
    assert all(worlds[t] == worlds[(0, 0)] for t in TWINS)  # the same draws whatever the Allies hold
    assert len({w.markers["amphibious"] for w in worlds[(0, 0)]}) > 1  # drawn, not a fixed guess
    assert all(FORMOSA.view(w, "japanese") == FORMOSA.view(_kamikaze(0, 0), "japanese") for w in worlds[(0, 0)])
    assert all(w.air["kamikaze"] == 6 for w in worlds[(0, 0)])  # its own points as they are
    # the Allies' sample keeps their own markers and draws the Japanese points (24.1: TAC 1d6 + 3, kamikaze 1d6)
    mine = [belief.sample(FORMOSA, _kamikaze(3, 0), "allied", random.Random(k), edition=9) for k in range(6)]
    assert {w.markers["amphibious"] for w in mine} == {3}
    assert all(4 <= w.air["japanese-tac"] <= 9 and 1 <= w.air["kamikaze"] <= 6 for w in mine)
    # edition 8's sample keeps them as they are (stored games decide as played)
    assert belief.sample(FORMOSA, _kamikaze(3, 0), "japanese", random.Random(1)).markers["amphibious"] == 3


@pytest.mark.parametrize("side", ["allied", "japanese"])
def test_the_sample_draws_exactly_what_the_view_hides(side):
    state = _kamikaze(3, 4)
    for pool, keys in unseen.BELIEVED.items():
        for key, (owner, _) in keys.items():
            probe = replace(state, **{pool: {key: 7}})
            shown = key in view.view(probe, side)[pool]
            assert shown == (owner == side), (pool, key)


def test_the_stakes_stay_zero_sum_on_the_position_and_on_its_samples():
    for state in (FORMOSA.initial_state("1", {}), FORMOSA.initial_state("2", {}), _kamikaze(3, 0)):
        assert FORMOSA.stakes(state, "allied", edition=8) == -FORMOSA.stakes(state, "japanese", edition=8)
        for side in ("allied", "japanese"):
            world = belief.sample(FORMOSA, state, side, random.Random(5), edition=9)
            assert FORMOSA.stakes(world, "allied", edition=8) == -FORMOSA.stakes(world, "japanese", edition=8)


def test_greedy_moves_an_engineer_toward_a_base_site_where_edition_8_ended_the_phase():
    # an engineer at 0815, three hexes from the minor port and airfield 0918 (no base: 20.1); no move of it gains
    # ground toward an objective greedy reads, so edition 8 ended the Movement Phase there, Game-Turn after
    # Game-Turn, with the LP for the base kept
    state = allied("allied-movement", 4, {"us-eng-1": "0815", "us-7-17": "1020"})
    assert practice.choose(FORMOSA, "greedy", state, "allied", {"edition": 8})[0] == "end"
    text, reason = practice.choose(FORMOSA, "greedy", state, "allied", {"edition": 9})
    assert text.startswith("move us-eng-1 ") and reason["rule"] == "stakes" and reason["gain"] > 0


def test_greedy_keeps_the_lp_a_base_needs_for_an_engineer_still_to_land():
    # no engineer on the map: edition 8 kept nothing and spent the LP before the engineer landed on a port
    state = allied("recruit-allied", 5, {"us-eng-1": "allied-staging", "us-7-17": "1020"})
    assert base_reserve(state) == 0 and base_reserve(state, edition=9) == 4  # 20.1: a port and airfield, 4 LP
    assert practice.choose(FORMOSA, "greedy", state, "allied", {"edition": 8})[0] == "buy 1 gunfire"  # 3 LP: 2 left
    text, _ = practice.choose(FORMOSA, "greedy", state, "allied", {"edition": 9})
    assert text in ("buy 1 drop-zone", "buy 1 tac", "end")  # at most 1 LP spent: 4 kept
    poor = replace(state, lp={"allied": 4, "japanese": 0})
    assert practice.choose(FORMOSA, "greedy", poor, "allied", {"edition": 9})[0] == "end"


def test_greedy_keeps_no_lp_for_a_site_the_japanese_hold():
    # an engineer at 0313, next to the minor port and airfield 0413 (4 LP, 20.1), the only one in its reach: edition
    # 8 kept the 4 LP though a Japanese regiment stands on it (10.1, 20.1: no base is built there while it does)
    state = allied("recruit-allied", 4, {"us-eng-1": "0313", "us-7-17": "0313"})
    held = replace(state, units={**state.units, "jp-50-302": replace(state.units["jp-50-302"], where="0413",
                                                                     concealed=False)})
    assert base_reserve(state) == base_reserve(held) == base_reserve(state, edition=9) == 4
    assert base_reserve(held, edition=9) == 0
    assert practice.choose(FORMOSA, "greedy", held, "allied", {"edition": 8})[0] == "end"
    assert practice.choose(FORMOSA, "greedy", held, "allied", {"edition": 9})[0].startswith("buy ")


HOLDERS = ("us-7-17", "us-7-32", "us-7-184", "us-77-305", "us-77-306", "us-81-321", "us-81-322", "us-81-323",
           "us-96-381", "us-96-382", "us-96-383", "us-27-105", "us-27-106", "us-27-165", "us-503", "us-1mar-1",
           "us-1mar-5", "us-1mar-7", "us-2mar-2")


def test_greedy_steps_an_engineer_onto_a_bare_port_the_list_only_marches_it_past():
    # every port and airfield hex held by an Allied regiment, none with a base: no objective draws the engineer at
    # 0917, next to the minor port and airfield 0918 (20.1: a base there scores 3 VP, 4.2); edition 8 ended the
    # Movement Phase; edition 9 steps it on (Formosa's `aims`: the list offers each unit its longest moves)
    sites = [str(h) for h in FORMOSA.initial_state("1", {}).data.sudden_death_hexes()]
    state = allied("allied-movement", 4, {"us-eng-4": "0917", **dict(zip(HOLDERS, sites, strict=True))})
    assert "move us-eng-4 0918" in FORMOSA.aims(state, "allied", edition=9)
    assert FORMOSA.aims(state, "allied", edition=8) == []
    assert evaluation.hook(FORMOSA, "aims", 9, since=7) is None  # the search's seats of 9 and older: as before
    assert practice.choose(FORMOSA, "greedy", state, "allied", {"edition": 8})[0] == "end"
    text, reason = practice.choose(FORMOSA, "greedy", state, "allied", {"edition": 9})
    assert text == "move us-eng-4 0918" and reason["rule"] == "stakes"
