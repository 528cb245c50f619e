"""Ichi-Go 10.17's limits (rules version 9): the bar on a Japanese strategic move next to a US unit and the positions
that could reach it (docs/rulings/ichigo-engine.md E36: Causeway is decided only at the start of Turn 7, 5.2, and US
units come only with it, 5.3, while full Japanese supply, which a strategic move needs, ends then, 7.4); supply
from the start of the movement phase (E37)."""
from dataclasses import replace

import pytest
from ichigo_given import ev, of, position, then, when

from app.rules.custom_setup import SetupError
from app.rules.errors import IllegalOrder
from app.rules.ichigo import GAME
from app.rules.ichigo.common import supply_state
from app.rules.ichigo.state import State, initial_state

JAPANESE_MOVE = {"japanese": "move-fight"}


def _us_beside(turn: int, **extra) -> dict:
    """The 110th Division in 2010, two hexes from 2012, which is next to the US 1st Cavalry in 2013."""
    return {"position": {"turn": turn, "phase": "VI", "plans": JAPANESE_MOVE,
                         "units": {"jp-cea-110div": "2010", "us-1c": "2013"}, **extra}}


def test_5_2_5_3_a_position_deciding_causeway_before_turn_7_or_placing_us_units_without_it_is_refused():
    with pytest.raises(SetupError) as early:
        GAME.initial_state("campaign", _us_beside(5, causeway=True))
    assert early.value.problems == ["'causeway' is decided at the start of Turn 7 (5.2), not on Turn 5"]
    with pytest.raises(SetupError) as early:
        GAME.initial_state("campaign", {"position": {"turn": 6, "phase": "VI", "causeway": False,
                                                     "units": {"jp-cea-110div": "2010"}}})
    assert early.value.problems == ["'causeway' is decided at the start of Turn 7 (5.2), not on Turn 6"]
    for options in (_us_beside(5), _us_beside(8, causeway=False)):
        with pytest.raises(SetupError) as without:
            GAME.initial_state("campaign", options)
        assert without.value.problems == ["us-1c: US units come into play only once Causeway is launched (5.3)"]
    s = GAME.initial_state("campaign", _us_beside(7, causeway=True))
    assert (s.units["us-1c"].hex, s.causeway) == ("2013", True)


def test_10_17_a_game_created_under_version_8_reads_such_a_position_and_bars_the_strategic_move_beside_the_us():
    s = GAME.initial_state("campaign", _us_beside(5, causeway=True), "8")
    assert s.units["us-1c"].hex == "2013" and not s.since(9)
    with pytest.raises(IllegalOrder, match=r"^Ichi-Go 10\.17: a strategic move never ends next to an enemy unit"):
        when(s, "japanese", "move jp-cea-110div to 2012 strategic")
    with pytest.raises(IllegalOrder, match=r"^Ichi-Go 10\.17: 2012 may not be entered by this move"):
        when(s, "japanese", "move jp-cea-110div to 2112 via 2011 2012 strategic")
    assert of(when(s, "japanese", "move jp-cea-110div to 2011 strategic"), ev.MovementRolled)[0].mp == 12
    assert of(when(s, "japanese", "move jp-cea-110div to 2012"), ev.UnitsMoved)[0].path[-1] == "2012"


def test_10_17_a_strategic_move_ending_in_a_city_the_enemy_controls_names_its_case():
    s = GAME.initial_state("campaign", {"position": {"turn": 3, "phase": "VI", "plans": JAPANESE_MOVE,
                                                     "units": {"jp-cea-110div": "0813"}}})
    assert s.controller("0712") == "allied"
    with pytest.raises(IllegalOrder, match=r"^Ichi-Go 10\.17: .*enemy controls \(0712\)"):
        when(s, "japanese", "move jp-cea-110div to 0712 strategic")


def _us_inland_out_of_supply(turn: int = 9) -> State:
    """US 1st Cavalry in 2011, inland, its only beachhead on Formosa: out of supply (7.5), Turn 9 Phase I."""
    return position({"us-1c": "2011"}, turn=turn, phase="I", plans={"us": "move-fight"}, causeway=True,
                    beachheads={"formosa": "3221"}, control=initial_state().jp_control - {"3221"})


def test_10_17_a_us_unit_supplied_by_the_aerial_marker_during_its_movement_phase_has_no_strategic_move():
    s = then(_us_inland_out_of_supply(), "allied", "end")                        # on to Phase II, US movement
    supplied = then(s, "allied", "supply 2011")
    assert supply_state(supplied, supplied.units["us-1c"]) == "full"
    with pytest.raises(IllegalOrder, match=r"^Ichi-Go 10\.17: .*from the start of the movement phase"):
        when(supplied, "allied", "move us-1c to 2111 strategic")
    assert of(when(supplied, "allied", "move us-1c to 2111"), ev.MovementRolled)[0].mp == 6       # 7.9: supplied


def test_10_17_a_game_created_under_version_8_judged_the_supply_as_the_stack_began_to_move():
    s = then(replace(_us_inland_out_of_supply(), rules_version=8), "allied", "end")
    supplied = then(s, "allied", "supply 2011")
    assert of(when(supplied, "allied", "move us-1c to 2111 strategic"), ev.MovementRolled)[0].mp == 12


def test_6_2_an_overstacked_position_is_refused_naming_the_limit_it_breaks():
    """A position file with six Japanese divisions in one hex: refused with the limit's own case, as an order that
    overstacks is (ruling E42)."""
    six = ["jp-cea-26div", "jp-cea-62div", "jp-cea-37div", "jp-cea-110div", "jp-cea-3div", "jp-cea-13div"]
    with pytest.raises(SetupError) as over:
        GAME.initial_state("campaign", {"position": {"turn": 2, "phase": "VI", "plans": JAPANESE_MOVE,
                                                     "units": dict.fromkeys(six, "2010")}})
    assert over.value.problems == ["overstacked 2010: Japanese units: 6 stacked in 2010, limit 5 (Ichi-Go 6.2)"]
    assert GAME.initial_state("campaign", {"position": {"turn": 2, "phase": "VI", "plans": JAPANESE_MOVE,
                                                        "units": dict.fromkeys(six[:5], "2010")}}).at("2010")
