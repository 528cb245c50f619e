"""Formosa rules version 17 (ruling F135): a position's `[counterattack]` (docs/custom-positions.md, F104 (e), F80)
stands where a CA waits for the counterattacking player's choice of hex (15.6: "any one hex of attacking units,
counterattacking player choice"), so only where there is a choice: the attackers in two hexes or more. With every
attacker in one hex the counterattack falls on it at once, as in play and as `[combat]` says (F130): the position is
refused naming 15.6; so is a CA against the PW Camp alone, which makes no counterattack (25.10, F105). A game stored
under rules 16 with such a position still opens as it did (docs/core.md "Rules versions")."""
from __future__ import annotations

import pytest
from formosa_given import documented_position, of, when
from formosa_map import D, M, position, shore

from app.rules.custom_setup import SetupError
from app.rules.formosa import GAME
from app.rules.formosa.events import CombatResolved

BEACH, (SEA, SEA2) = shore(2)
FOUR = ["us-7-17", "us-7-32", "us-7-184", "us-27-105"]
TOWN, TOWN_NEXT = next((str(h), str(n)) for h in sorted(M.hexes_with("town")) for n in M.neighbours(h)
                       if "city" not in M.features_of(h) and D.is_land(n) and M.terrain_of(n) == "open"
                       and not M.features_of(n))


def one_hex() -> dict:
    """docs/custom-positions.md's mid-combat position with both attackers of 1013 back in one hex, 1012."""
    doc = documented_position(1)
    return {**doc, "units": {**doc["units"], "us-7-32": "1012"}}


def refusal(pos: dict, optional=()) -> str:
    with pytest.raises(SetupError) as err:
        GAME.initial_state("1", {"position": pos, "optional": list(optional)})
    return str(err.value)


def test_15_6_a_counterattack_whose_attackers_stand_in_one_hex_waits_for_no_choice_and_is_refused_f135():
    says = refusal(one_hex())
    assert ("[counterattack]: the attackers stand in one hex, 1012: the counterattack falls on it at once, with no "
            "choice to wait for (Formosa 15.6, ruling F135)") in says
    assert "[combat]" in says and "counter_result" in says  # where a position after it is stated (F130)
    # the documented position, its attackers in 1012 and 1113, waits for the Japanese choice between them
    state = GAME.initial_state("1", {"position": documented_position(1)})
    assert state.pending[0] == {"hexes": ["1012", "1113"], "kind": "counterattack", "side": "japanese"}
    assert sorted(o["order"] for o in GAME.legal_orders(state, "japanese")) == ["counterattack 1012",
                                                                                "counterattack 1113"]


def test_15_6_an_assault_s_ca_on_one_stack_at_sea_waits_for_no_choice_and_is_refused_f135():
    invasion = {"turn": 3, "phase": "invasion", "revealed": ["jp-9-7"], "units": {"jp-9-7": BEACH},
                "markers": {"amphibious": 2}, "counterattack": {"attackers": FOUR, "defenders": ["jp-9-7"]}}
    assert f"the attackers stand in one hex, {SEA}" in refusal({**invasion, "at_sea": {SEA: FOUR}})
    state = GAME.initial_state("1", {"position": {**invasion, "at_sea": {SEA: FOUR[:2], SEA2: FOUR[2:]}}})
    assert state.pending[0]["hexes"] == sorted([SEA, SEA2])


def test_25_10_a_ca_against_the_pw_camp_alone_makes_no_counterattack_and_the_position_is_refused_f135():
    camp = position(phase="allied-combat", units={"us-7-17": TOWN_NEXT, "jp-pw-camp": TOWN}, revealed=["jp-pw-camp"],
                    bases=[], counterattack={"attackers": ["us-7-17"], "defenders": ["jp-pw-camp"]})
    assert ("[counterattack]: the PW Camp never attacks, not even in a counterattack, so the CA ends the combat "
            "(Formosa 25.10, ruling F105, F135)") in refusal(camp, ["25.10"])


def test_f135_a_game_stored_under_rules_16_opens_its_one_hex_counterattack_as_it_was_played():
    state = GAME.initial_state("1", {"position": one_hex()}, "16")
    assert state.pending[0] == {"hexes": ["1012"], "kind": "counterattack", "side": "japanese"}
    [counter] = of(when(state, "japanese", "counterattack 1012", [6]), CombatResolved)
    assert counter.counterattack and counter.hexes == ["1012"]
