"""Ichi-Go rules version 11 and the last small items of issue 30 (docs/rulings/ichigo-engine.md E43-E45): Japanese
units of two ways of arrival entering by one order (9.1, 9.4; E43), a unit named twice refused by the order's case
(E44), and a US unit ending its move with Chinese units refused by the US case, 6.4 (E45). A game created under
version 10 decides as it was played (docs/core.md "Rules versions")."""
from dataclasses import replace
from pathlib import Path

import pytest
from ichigo_given import RULES, chinese, of, position, then, when
from test_ichigo_engine import us_ids

from app.rules.ichigo import events as ev
from app.rules.ichigo.sequence import ONCE
from tests.fuzzing import refusal

PRINTED = Path("app/rules/ichigo/data/map.toml").read_text(encoding="utf-8")
# Hankow (1811), a GEARR city, made a port: a Japanese-held 1811 is then both a rail entry city (9.1) and a friendly
# mainland port city where 14AA survivors land (9.4); on the printed map no hex is both
HANKOW_PORT = PRINTED.replace('port = [\n    "1922",', 'port = [\n    "1811", "1922",')
RAIL_TO_HANKOW = ["1801", "1802", "1803", "1804", "1805", "1906", "1907", "2007", "2008", "2009", "1910", "1810",
                  "1811"]


def phase_v_with_a_14aa_survivor(version: str | None = None):
    """Turn 8, Phase V after Causeway, on the map with a port at Hankow: the rail line is Japanese back to 1801, the
    14AA's 1st Division survived its crossing and waits to land, the CEA's 3rd Brigade waits to enter (9.1)."""
    assert HANKOW_PORT != PRINTED
    pos = {"turn": 8, "phase": "V", "causeway": True, "beachheads": {"formosa": "3221"},
           "units": {"jp-cea-3div": "1812", us_ids(1)[0]: "3221"}, "control": {"japanese": RAIL_TO_HANKOW}}
    s = RULES.initial_state("campaign", {"map": HANKOW_PORT, "position": pos})
    s = replace(s, units={**s.units, "jp-14aa-1div": replace(s.units["jp-14aa-1div"], status="landing")})
    return RULES.played_under(s, version) if version else s


@pytest.mark.parametrize("order", ["enter jp-14aa-1div cea-3bde at 1811", "enter cea-3bde jp-14aa-1div at 1811"])
def test_9_1_9_4_e43_a_14aa_survivor_and_a_reinforcement_enter_together_where_each_may_enter(order):
    s = phase_v_with_a_14aa_survivor()
    [entered] = of(when(s, "japanese", order), ev.ReinforcementsEntered)
    assert entered.hex == "1811"
    after = then(s, "japanese", order)
    assert {after.units[u].hex for u in ("jp-14aa-1div", "jp-cea-3bde")} == {"1811"}


@pytest.mark.parametrize("first_14aa", [True, False])
def test_9_1_9_4_e43_each_unit_entering_together_needs_a_hex_its_own_way_allows(first_14aa):
    """1401, a north-edge source, takes the brigade but no 14AA landing; Canton (1922), a port off the rail line,
    the landing but not the brigade: each refused by the case of the unit that may not come there, nothing
    entered."""
    s = phase_v_with_a_14aa_survivor()
    units = "jp-14aa-1div cea-3bde" if first_14aa else "cea-3bde jp-14aa-1div"
    assert refusal(RULES, s, "japanese", f"enter {units} at 1401") == "Ichi-Go 9.4: jp-14aa-1div may not enter at 1401"
    assert refusal(RULES, s, "japanese", f"enter {units} at 1922") == "Ichi-Go 9.1: jp-cea-3bde may not enter at 1922"
    assert refusal(RULES, s, "japanese", "enter cea-3bde at 1401") is None
    assert refusal(RULES, s, "japanese", "enter jp-14aa-1div at 1922") is None


def test_9_1_e43_a_game_created_under_version_10_refuses_two_ways_in_one_order_as_it_did():
    s = phase_v_with_a_14aa_survivor("10")
    assert refusal(RULES, s, "japanese", "enter jp-14aa-1div cea-3bde at 1811") == \
        "Ichi-Go 9.1: units entering together must arrive the same way"
    assert refusal(RULES, s, "japanese", "enter jp-14aa-1div at 1811") is None


# -- ruling E44: a unit named twice ------------------------------------------------------------------------------
TWICE = [("japanese", "move cea-110div cea-110div to 2011", "Ichi-Go 10.0", "jp-cea-110div", "a unit moves once"),
         ("japanese", "move 2010 cea-110div to 2011", "Ichi-Go 10.0", "jp-cea-110div", "a unit moves once"),
         ("japanese", "attack 2011 with cea-110div 2010", "Ichi-Go 11.0", "jp-cea-110div",
          "a unit's combat factor counts once in an attack"),
         ("japanese", "advance cea-110div cea-110div", "Ichi-Go 11.24", "jp-cea-110div", "a unit advances once"),
         ("japanese", "enter cea-3bde cea-3bde at 1401", "Ichi-Go 9.1", "jp-cea-3bde", "a reinforcement enters once"),
         ("japanese", "withdraw cea-110div jp-cea-110div", "Ichi-Go 9.2", "jp-cea-110div",
          "the withdrawal takes each division (or brigade) once"),
         ("japanese", "release fg-9div fg-9div", "Ichi-Go 9.3", "jp-fg-9div",
          "two different Formosa Garrison divisions are released"),
         ("allied", "land {us} {us} at 3221", "Ichi-Go 5.3", "{us}", "a US division lands once"),
         ("allied", "transfer {us} {us}", "Ichi-Go 10.11", "{us}", "a unit is transferred once"),
         ("allied", "place C01 C01 at 0712", "Ichi-Go 9.7", "C01", "a drawn counter is placed once")]


@pytest.mark.parametrize(("side", "order", "case", "unit", "why"), TWICE)
def test_e44_a_unit_named_twice_is_refused_by_the_orders_case(side, order, case, unit, why):
    us = us_ids(1)[0]
    s = position({"jp-cea-110div": "2010"}, extra=(chinese("C01", "cn-reg-02", "2011", tried=True),))
    assert refusal(RULES, s, side, order.format(us=us)) == \
        f"{case}: {unit.format(us=us)} named twice: {why}; name each unit once"


def test_e44_every_order_naming_units_names_its_own_case_for_a_unit_named_twice():
    declared = {o.name: (o.case, o.grammar.syntax) for step in RULES.table.orders.values() for o in step.values()}
    naming = {name for name, (_, syntax) in declared.items() if "UNITS" in syntax or "COUNTER" in syntax}
    assert naming == set(ONCE)
    assert {name: ONCE[name][0] for name in naming} == {name: declared[name][0] for name in naming}


def test_e44_a_unit_named_once_beside_its_stack_mate_moves_as_before():
    s = position({"jp-cea-110div": "2010", "jp-cea-3div": "2010"}, phase="VI")
    after = then(s, "japanese", "move cea-110div cea-3div to 2011")
    assert after.units["jp-cea-110div"].hex == after.units["jp-cea-3div"].hex == "2011"


# -- ruling E45: US and Chinese units never end a move stacked together ---------------------------------------------
def us_next_to_a_chinese_unit(version: str | None = None, phase: str = "II"):
    """Turn 8 after Causeway: a US division in 2011 next to the tried Chinese C01 in 2012."""
    nation = "us" if phase == "II" else "chinese"
    s = position({us_ids(1)[0]: "2011"}, turn=8, phase=phase, plans={nation: "move-fight"}, causeway=True,
                 beachheads={"formosa": "3221", "mainland": "1922"},
                 extra=(chinese("C01", "cn-reg-02", "2012", tried=True),))
    return RULES.played_under(s, version) if version else s


def test_6_4_e45_a_us_unit_moving_onto_chinese_units_is_refused_by_the_us_case():
    us = us_ids(1)[0]
    assert refusal(RULES, us_next_to_a_chinese_unit(), "allied", f"move {us} to 2012") == \
        "Ichi-Go 6.4: chinese and us units may not stack together in 2012"
    assert refusal(RULES, us_next_to_a_chinese_unit(), "allied", f"move {us} to 2013 via 2012") is None  # passing


def test_6_3_e45_a_chinese_unit_moving_onto_us_units_is_refused_by_the_chinese_case():
    assert refusal(RULES, us_next_to_a_chinese_unit(phase="VIII"), "allied", "move C01 to 2011") == \
        "Ichi-Go 6.3: chinese and us units may not stack together in 2011"


def test_6_3_e45_a_game_created_under_version_10_names_6_3_for_the_us_move_as_it_did():
    us = us_ids(1)[0]
    assert refusal(RULES, us_next_to_a_chinese_unit("10"), "allied", f"move {us} to 2012") == \
        "Ichi-Go 6.3: chinese and us units may not stack together in 2012"


def test_6_4_e45_the_11th_airborne_airlifted_onto_chinese_units_is_refused_by_the_us_case():
    """Turn 8, US Movement Phase: the 11th Airborne at Canton (the mainland beachhead) may be airlifted to another
    friendly city (8.11, 8.10), but not to Chungking, which the Chinese C01 holds."""
    s = position({"us-11ab": "1922"}, turn=8, phase="II", plans={"us": "move-fight"}, causeway=True,
                 beachheads={"formosa": "3221", "mainland": "1922"},
                 extra=(chinese("C01", "cn-reg-02", "0712", tried=True),))
    s = replace(s, jp_control=s.jp_control - {"3221", "1922"})
    assert refusal(RULES, s, "allied", "airlift us-11ab to 0712") == \
        "Ichi-Go 6.4: chinese and us units may not stack together in 0712"
    assert refusal(RULES, RULES.played_under(s, "10"), "allied", "airlift us-11ab to 0712") == \
        "Ichi-Go 6.3: chinese and us units may not stack together in 0712"
    assert refusal(RULES, s, "allied", "airlift us-11ab to 0119") is None
