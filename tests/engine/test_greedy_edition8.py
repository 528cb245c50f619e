"""Greedy edition 8 (app/rules/practice.py): an order none of greedy's rules rates is rated by the game's own
stakes (Formosa's `build`, 20.1: the base scores its port's or airfield's VP, 4.2; a base is never demobilised),
units shipped onto the map are rated (21.0), the LP the bases in reach need are kept (Formosa's `searched`), and
where the rule set counts the units over its stacking limits (SNC 6.0, Formosa 13.3) greedy gives no order
that puts more over them and, while some are, brings them within before it ends the phase. Edition 7 seats decide
as they were played (greedy ended the Base Building and Naval Transfer Phases, spent every LP and moved into full
hexes)."""
from __future__ import annotations

from dataclasses import replace

from app.events.dice import SeededDice
from app.rules import practice
from app.rules.catalog import installed
from app.rules.formosa import GAME as FORMOSA
from tests.engine.formosa_allied import allied

CASE = practice.GREEDY_CASE
SNC = installed().rules("snc")


def _base_building(lp: int, based: tuple[str, ...] = ()):
    """Formosa GT 3, the Allied Base Building Phase: engineers on the airfield 1209 (a base: 1 LP, 1 VP) and the
    major port 1020 (3 LP, 4 VP), one inland at 1010; `based` hexes hold a base already."""
    state = allied("base-building", lp, {"us-eng-1": "1209", "us-eng-2": "1020", "us-7-17": "1020",
                                          "us-eng-3": "1010"})
    units = {uid: replace(u, base=u.where in based and uid.startswith("us-eng")) for uid, u in state.units.items()}
    return replace(state, units=units)


def test_greedy_builds_the_base_worth_most_where_edition_7_ended_the_phase():
    state = _base_building(lp=4)
    assert [o["order"] for o in FORMOSA.legal_orders(state, "allied")] == ["build 1209", "build 1020", "end"]
    assert practice.choose(FORMOSA, "greedy", state, "allied", {"edition": 7})[0] == "end"
    text, reason = practice.choose(FORMOSA, "greedy", state, "allied", {"edition": 8})
    assert text == "build 1020"  # the major port's 4 VP before the airfield's 1
    assert reason["rule"] == "stakes" and reason["gain"] > 0 and reason["case"] == CASE
    rated = {t: s for s, t, _ in practice.ratings(FORMOSA, state, "allied", FORMOSA.legal_orders(state, "allied"), 8)}
    assert rated["build 1020"] > rated["build 1209"] > rated["end"] == 0


def test_greedy_never_demobilises_a_base_and_ends_the_phase_when_nothing_is_left_to_build():
    state = _base_building(lp=1, based=("1020",))
    assert {o["order"] for o in FORMOSA.legal_orders(state, "allied")} >= {"demobilise 1020", "build 1209", "end"}
    assert practice.choose(FORMOSA, "greedy", state, "allied", {"edition": 8})[0] == "build 1209"
    poor = _base_building(lp=0, based=("1020",))
    assert [o["order"] for o in FORMOSA.legal_orders(poor, "allied")] == ["demobilise 1020", "end"]
    assert practice.choose(FORMOSA, "greedy", poor, "allied", {"edition": 8}) == ("end", {
        "case": CASE, "rule": "end", "summary": "greedy: nothing better to do in this step"})


def test_greedy_keeps_the_lp_a_base_in_reach_needs_where_edition_7_spent_them():
    # an engineer two hexes from the major port 1020 (a base there: 3 LP, 20.1); every purchase leaves fewer
    state = allied("recruit-allied", 3, {"us-eng-1": "1010", "us-7-17": "1010"})
    assert practice.choose(FORMOSA, "greedy", state, "allied", {"edition": 7})[0] == "buy 1 amphibious"
    assert practice.choose(FORMOSA, "greedy", state, "allied", {"edition": 8})[0] == "end"


def test_greedy_ships_staged_units_to_a_port_it_holds_where_edition_7_ended_the_phase():
    state = allied("naval-transfer", 0, {"us-7-17": "1020", "us-7-32": "allied-staging",
                                          "us-7-184": "allied-staging"})
    assert "transfer us-7-32 to 1020" in {o["order"] for o in FORMOSA.legal_orders(state, "allied")}
    assert practice.choose(FORMOSA, "greedy", state, "allied", {"edition": 7})[0] == "end"  # 21.0 unrated
    text, reason = practice.choose(FORMOSA, "greedy", state, "allied", {"edition": 8})
    assert text in ("transfer us-7-32 to 1020", "transfer us-7-184 to 1020")
    assert reason["rule"] == "into play" and reason["distance"] == 1


def _snc_moving(crowd: tuple[str, ...] = ("cn-d55", "cn-d98")):
    """SNC GT 1, the Chinese First Operations Phase declared 'move', with `crowd` moved beside cn-d56 in 3711, so
    that the brigade cn-b45 moving in too overstacks it (6.2). Played under SNC rules version 11, edition 8's last
    (version 12's fuller list, E24, came with edition 11: no game plays edition 8 under it)."""
    state = SNC.played_under(SNC.initial_state("campaign", {}), "11")
    for event in SNC.decide(state, SNC.parse("declare move move", "chinese", state),
                            SeededDice(next_index=0, seed="t", game_id="t")):
        state = SNC.evolve(state, event)
    units = dict(state.units)
    for uid in crowd:
        units[uid] = replace(units[uid], hex="3711")
    return replace(state, units=units)


def test_greedy_does_not_move_into_a_hex_the_move_overstacks():
    state = _snc_moving()
    assert SNC.overstacked(state, "chinese") == 0
    into = "move cn-b45 to 3711"
    assert SNC.overstacked(practice.after(SNC, state, SNC.parse(into, "chinese", state)), "chinese")
    assert practice.choose(SNC, "greedy", state, "chinese", {"edition": 7})[0] == into  # 6.0 eliminates the excess
    text, reason = practice.choose(SNC, "greedy", state, "chinese", {"edition": 8})
    assert text != into and reason["rule"] == "move toward objectives"
    assert SNC.overstacked(practice.after(SNC, state, SNC.parse(text, "chinese", state)), "chinese") == 0


def test_greedy_brings_an_overstacked_hex_within_the_limits_before_it_ends_the_phase():
    moving = _snc_moving()
    state = practice.after(SNC, moving, SNC.parse("move cn-b45 to 3711", "chinese", moving))
    assert SNC.overstacked(state, "chinese") == 4
    assert practice.choose(SNC, "greedy", state, "chinese", {"edition": 7})[0] == "end"
    text, reason = practice.choose(SNC, "greedy", state, "chinese", {"edition": 8})
    assert text.startswith("move ") and reason == {"case": CASE, "rule": "within stacking limits",
                                                   "summary": "greedy: 4 unit(s) fewer over the stacking limits"}
    assert SNC.overstacked(practice.after(SNC, state, SNC.parse(text, "chinese", state)), "chinese") == 0


def _losing(place: str):
    """Formosa GT 3, the Invasion: a landing at `place` took an A1 result (15.5: the owner names the unit lost) from
    three regiments and an engineer."""
    units = ["us-27-105", "us-27-106", "us-27-165", "us-eng-2"]
    state = allied("invasion", 3, dict.fromkeys(units, place))
    return replace(state, pending=({"units": units, "count": 1, "min_cf": 0, "case": "Formosa 15.5 A1",
                                    "kind": "losses", "side": "allied"},))


def test_greedy_keeps_its_engineers_for_the_bases_where_the_text_lets_it_choose():
    searched = FORMOSA.searched
    losing = _losing("2105")
    listed = [o["order"] for o in FORMOSA.legal_orders(losing, "allied")]
    assert listed == ["lose us-27-165", "lose us-eng-2"]
    assert searched(losing, "allied", listed) == listed  # the search's list (edition 7) as it was
    assert searched(losing, "allied", listed, edition=8) == ["lose us-27-165"]
    assert practice.choose(FORMOSA, "greedy", losing, "allied", {"edition": 8})[0] == "lose us-27-165"
    # an engineer on the unbased major port 1020 is not marched off inland, only next to the port 0919; a regiment
    # may go anywhere
    moving = allied("allied-movement", 0, {"us-eng-2": "1020", "us-7-17": "1020"})
    listed = [o["order"] for o in FORMOSA.legal_orders(moving, "allied")]
    far = "move us-eng-2 1120 1121 1122 1222 1322 1421 1420 1520 1519 1618"
    assert far in listed and "move us-7-17 1120 1121 1122 1222 1322 1421 1420 1520 1519 1618" in listed
    kept = searched(moving, "allied", listed, edition=8)
    assert kept == [o for o in listed if o != far]
    # next to 1020 it may step onto it
    beside = allied("allied-movement", 0, {"us-eng-2": "1021"})
    assert practice.choose(FORMOSA, "greedy", beside, "allied", {"edition": 8})[0] == "move us-eng-2 1020"


def test_greedy_lands_an_engineer_on_a_port_or_airfield_without_a_base():
    # rules version 14 lists landings that carry an engineer (F128); 2005 holds a base already
    staged = dict.fromkeys(("us-77-306", "us-81-321", "us-81-322", "us-eng-4"), "allied-staging")
    state = allied("invasion", 3, {**staged, "us-eng-1": "2005", "us-7-17": "2005"})
    state = replace(state, markers={**state.markers, "amphibious": 1},
                    units={**state.units, "us-eng-1": replace(state.units["us-eng-1"], base=True)})
    listed = [o["order"] for o in FORMOSA.legal_orders(state, "allied")]
    assert "land 2005 with us-77-306 us-81-321 us-81-322 us-eng-4" in listed
    kept = FORMOSA.searched(state, "allied", listed, edition=8)
    assert kept == ["land 1109 with us-77-306 us-81-321 us-81-322 us-eng-4",  # an airfield, 1 LP (20.1)
                    "land 1520 with us-77-306 us-81-321 us-81-322 us-eng-4", "end"]  # a port, 3 LP
    assert FORMOSA.searched(state, "allied", listed) == listed  # the search's list (edition 7) as it was
