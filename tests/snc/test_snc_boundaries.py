"""SNC rules held at their boundaries: what a player reads when an order is refused, and results a player would
notice, each found missing by the mutation run (issue 19, docs/mutation-survivors.md)."""
from dataclasses import replace

import pytest
from snc_given import RULES, position, then, when

from app.rules import legal
from app.rules.custom_setup import SetupError
from app.rules.errors import OrderError
from app.rules.snc import GAME, data
from app.rules.snc.victory import sudden_death
from app.rules.snc.view import view

MOVE = ("move", "fight")
D6 = ["jp-d6-r13", "jp-d6-r23", "jp-d6-r45", "jp-d6-r47"]


def refusal(state, side, order) -> str:
    with pytest.raises(OrderError) as info:
        when(state, side, order)
    return str(info.value)


@pytest.mark.parametrize(("units", "plan", "first", "order", "text"), [
    ({"jp-d3-r6": "3409", "cn-d87": "3408"}, ("fight", "fight"), None, "attack 3407 with d3-r6",
     "SNC 10.0: 3407 holds no enemy unit"),
    ({"jp-d3-r6": "2806", "cn-d7": "2606"}, MOVE, "move d3-r6 to 2706", "move d3-r6 to 2705",
     "SNC 7.2: the stack entered an enemy zone of control at 2706 and must stop"),
    ({"jp-d3-r6": "2806"}, MOVE, None, "move d3-r6 to 0202",
     "SNC 9.0: no legal path from 2806 to 0202 with 8 MP; name the path with 'via' to see which step is refused"),
    ({"jp-d3-r6": "2806"}, MOVE, None, "move d3-r6 to 2605 via 2706 2605",
     "SNC 9.0: units move from hex to adjacent hex; 2605 to 2605 is not such a step"),
    ({"jp-d3-r6": "2806", "jp-d3-r18": "2808"}, MOVE, None, "move d3-r6 d3-r18 to 2807",
     "SNC 9.0: units moving together must start in one hex"),
    ({"jp-d3-r6": "2806", "jp-d3-r18": "2706"}, MOVE, "move d3-r6 to 2706", "move d3-r6 d3-r18 to 2605",
     "SNC 9.0: a unit that has moved goes on only with the stack it moved with, before any other unit moves"),
])
def test_a_refused_order_names_its_case_and_the_reason(units, plan, first, order, text):
    """The README's promise: a refused order names the rules case that forbids it, in words the player reads."""
    s = position(units, turn=7, plan=plan)
    if first:
        s = then(s, "japanese", first)
    assert refusal(s, "japanese", order) == text


def test_5_3_10_1_11_3_the_states_table_alone_refuses_an_order_out_of_its_phase_and_names_what_is_open():
    """Attacks in a phase chosen for movement (5.3), `end` while a battle waits for a decision (10.1) and the
    Chinese air after the air force is gone (11.3) are the states table's to refuse, before any die: since rules
    version 6 (ruling E17) naming the case that forbids the order there, before it under 5.1 with the step and
    the orders open."""
    moving = position({"jp-d3-r6": "3409", "cn-d87": "3408"}, turn=7, plan=MOVE)
    assert refusal(moving, "japanese", "attack 3408 with d3-r6") == (
        "SNC 5.3: this Operations Phase was declared for movement: attacks come in one declared for combat")
    assert refusal(RULES.played_under(moving, "5"), "japanese", "attack 3408 with d3-r6") == (
        "SNC 5.1: 'attack' is not allowed now (GT 7, japanese First Operations Phase (move)); "
        "allowed: move, overrun, end")
    fighting = then(position({"jp-d3-r6": "3409", "cn-d87": "3408"}, turn=7), "japanese",
                    "attack 3408 with d3-r6 support air")
    assert fighting.battle is not None and fighting.pending[0]["kind"] == "intercept"
    assert refusal(fighting, "chinese", "end") == (  # from rules version 13 (ruling E25) named by 10.1
        "SNC 10.1: the battle at 3408 is resolved before another order is given; 'end' is not allowed now (GT 7, "
        "chinese decision: intercept); allowed: intercept, pass")
    assert refusal(RULES.played_under(fighting, "12"), "chinese", "end").startswith(
        "SNC 5.1: 'end' is not allowed now (GT 7, chinese decision: intercept); allowed: intercept, pass")
    grounded = replace(position({"cn-d57": "3612", "jp-snlf-1": "3512"}, turn=4, side="chinese", phase="reinf",
                                pool=("cn-d9",)), chinese_air=False)
    assert refusal(grounded, "chinese", "air") == "SNC 11.3: the Chinese air force rolled a 1 and is out of the game"
    assert refusal(RULES.played_under(grounded, "5"), "chinese", "air") == (
        "SNC 5.1: 'air' is not allowed now (GT 4, chinese Reinforcement Phase: Japanese air interdiction); "
        "allowed: proceed")


def test_8_3_a_replacement_puts_back_exactly_one_step():
    s = position({"jp-d3-r6": "3410", "cn-d57": "3612"}, turn=3, phase="reinf", steps={"jp-d3-r6": 1})
    s = s.__class__(**{**s.__dict__, "replacements": 2})
    s = then(s, "japanese", "replace d3-r6")
    assert s.units["jp-d3-r6"].steps == 2 and s.replacements == 1


def test_10_3_a_preview_refuses_what_the_attack_would_and_shows_the_8_4_landing_halving():
    s = position({"jp-d3-r6": "3409", "jp-d3-r18": "3411", "cn-d87": "3408"}, turn=7)
    with pytest.raises(OrderError, match="SNC 10.0: jp-d3-r18 in 3411 is not adjacent to 3408"):
        RULES.preview(s, RULES.parse("attack 3408 with d3-r18", "japanese", s))
    s = position({"cn-gar-h": "3417", "jp-snlf-1": "3512"}, turn=7, phase="reinf", pool=tuple(D6))
    attack = RULES.preview(s, RULES.parse("land " + " ".join(D6) + " at 3417", "japanese", s))["attack"]
    assert attack["total"] == 8                                     # four 4s, each halved
    assert {str(u["modifiers"]) for u in attack["units"]} == \
        {str([{"factor": "1/2", "case": "SNC 8.4", "reason": "amphibious landing"}])}
    twice = "land " + " ".join(D6) + " at 3417 support amphibious amphibious"   # refused as the landing would be
    for asked in (lambda: RULES.preview(s, RULES.parse(twice, "japanese", s)), lambda: when(s, "japanese", twice)):
        with pytest.raises(OrderError) as refused:
            asked()
        assert str(refused.value) == "SNC 8.4: one amphibious invasion support marker per landing"


def test_10_5_a_preview_names_the_table_it_reads_with_its_case():
    s = position({"jp-d3-r6": "3409", "cn-d87": "3408"}, turn=7)
    p = RULES.preview(s, RULES.parse("attack 3408 with d3-r6", "japanese", s))
    assert p["text"].splitlines()[0] == "SNC CRT, SNC 10.5" and p["table_case"] == "SNC 10.5"


def test_3_2_and_6_0_the_view_shows_who_controls_which_city_and_who_must_eliminate():
    s = position({"cn-d87": "2707", "cn-d7": "2707", "cn-b45": "2707", "cn-b20": "2708", "cn-d57": "3612"},
                 turn=7, side="chinese", plan=MOVE)
    s = then(s, "chinese", "move b20 to 2707")
    s = then(s, "chinese", "end")
    seen = view(s, "japanese")
    assert seen["japanese_control"] == ["3512", "3611"]
    assert seen["pending"] == [{"kind": "overstack", "side": "chinese"}]


def test_10_5_3_a_refused_advance_names_the_hex_and_both_6_2_limits_it_breaks():
    d3 = ["jp-d3-r6", "jp-d3-r18", "jp-d3-r34", "jp-d3-r68"]
    s = position({**{u: "3409" for u in d3}, "jp-det-shigeto": "3409", "jp-d11-r12": "3309", "cn-gar-c": "3408"})
    s = then(s, "japanese", "attack 3408 with 3409 3309", rolls=[6])
    assert refusal(s, "japanese", "advance d3-r6 d3-r18 d3-r34 d3-r68 det-shigeto d11-r12 to 3408") == (
        "SNC 10.5.3: an advance observes the stacking limits: SNC 6.2: Japanese units: 6 stacked in 3408, limit 5; "
        "SNC 6.2: Japanese units: 2 units in 3408 outside formation 3rd Division, limit 1")


def test_9_1_a_city_taken_at_the_end_of_a_longer_move_still_gets_its_garrison():
    """The hexes before the city on the path are not cities: each is passed over, the city still counts."""
    s = position({"jp-d3-r6": "2408", "cn-d57": "3612"}, turn=7, plan=MOVE)
    s = then(s, "japanese", "move d3-r6 to 2410 via 2409")
    assert s.controller("2410") == "japanese" and any(u.static for u in s.at("2410"))


def test_8_4_a_landing_names_one_hex_and_a_second_is_quoted_back_as_unexpected():
    s = position({"cn-gar-h": "3417", "jp-snlf-1": "3512"}, turn=7, phase="reinf", pool=tuple(D6))
    with pytest.raises(OrderError) as info:
        RULES.parse("land d6-r13 at 3417 3418 support naval", "japanese", s)
    assert str(info.value) == ("cannot read order 'land d6-r13 at 3417 3418 support naval': expected 'support'; "
                               "expected 'land UNITS at HEX [support KIND ...]'")


def test_3_2_a_custom_position_gives_the_japanese_the_city_their_unit_stands_in():
    s = GAME.initial_state("campaign", {"position": {"turn": 3, "phase": "ops1", "plan": ["move", "fight"],
                                                     "units": {"jp-d3-r6": "2410", "cn-d57": "3612"}}})
    assert s.controller("2410") == "japanese" and sorted(s.jp_control) == ["2410", "3512", "3611"]


def test_5_3_a_position_in_the_declaration_phase_gives_no_plan_yet_and_one_past_it_gives_both_phases():
    units = {"jp-d3-r6": "2410", "cn-d57": "3612"}
    with pytest.raises(SetupError) as early:
        GAME.initial_state("campaign", {"position": {"turn": 3, "phase": "declare", "plan": ["move", "fight"],
                                                     "units": units}})
    assert early.value.problems == ["'plan' is declared only after the declaration phase (SNC 5.3)"]
    with pytest.raises(SetupError) as half:
        GAME.initial_state("campaign", {"position": {"turn": 3, "phase": "ops1", "plan": ["move"], "units": units}})
    assert half.value.problems == [
        "past the declaration, 'plan' gives both Operations Phases: [\"move\"|\"fight\", ...]"]


def test_9_5_2_rail_placement_by_the_west_edge_is_refused_when_japanese_hold_nanking_and_hangzhou():
    s = position({"cn-d57": "3612", "jp-snlf-1": "3512", "jp-d3-r6": "0202", "jp-d3-r18": "1824"}, turn=3,
                 side="chinese", phase="reinf")
    s = replace(s, interdicted=3, units={**s.units, "cn-d13": replace(s.units["cn-d13"], arrival_turn=3)})
    assert refusal(s, "chinese", "rail d13 to 0105") == (
        "SNC 9.5.2: no railroad from Nanking or Hangzhou to 0105 free of Japanese units and zones of control")


def test_8_2_8_4_13_0_a_refused_placement_or_landing_names_the_hex_and_why():
    chinese = position({"cn-d57": "3612", "jp-snlf-1": "3512", "jp-d3-r6": "2410"}, turn=2, side="chinese",
                       phase="reinf", pool=("cn-d7",))
    assert refusal(chinese, "chinese", "place d7 at 2409") == "SNC 13.0: cn-d7 arrives at 2410, not 2409"
    assert refusal(chinese, "chinese", "place d7 at 2410") == "SNC 8.2: 2410 is occupied by Japanese units"
    japanese = position({"cn-d57": "3612", "jp-snlf-1": "3512"}, turn=1, phase="reinf", pool=("jp-snlf-9",))
    assert refusal(japanese, "japanese", "land snlf-9 at 3611 support naval") == (
        "SNC 8.4: there is no Chinese unit in 3611 to assault")


def test_6_3_8_1_a_view_names_each_stacks_owner_and_hex_and_the_referee_reads_when_an_elite_returns():
    s = position({"jp-d3-r6": "3409", "jp-d3-r18": "3409", "cn-d87": "3410", "cn-d57": "3612"}, turn=4,
                 steps={"cn-d87": 1})
    s = then(s, "japanese", "attack 3410 with 3409", rolls=[6, 4])  # the 87th eliminated, back on GT 4 + 4
    chinese = view(s, "chinese")
    japanese_stack = next(st for st in chinese["stacks"] if st["hex"] == "3409")
    assert (japanese_stack["side"], japanese_stack["hidden"]) == ("japanese", 1)  # 6.3: the top unit only
    assert [(u["id"], u["hex"]) for u in japanese_stack["units"]] == [("jp-d3-r18", "3409")]
    assert [(u["id"], u["hex"]) for u in chinese["units"] if u["side"] == "chinese"] == [
        ("cn-d57", "3612"), ("cn-d87", None)]
    returning = {"id": "cn-d87", "status": "returning", "arrival_turn": 0, "return_turn": 8}
    assert returning in view(s, None)["off_map"] and returning in chinese["own_off_map"]
    assert "cn-d87" not in {u["id"] for u in view(s, "japanese")["own_off_map"]}


@pytest.mark.parametrize(("turn", "winner"), [(5, "japanese"), (6, None)])
def test_4_2_a_game_on_a_custom_map_reads_its_data_afresh_and_ends_in_a_sudden_defeat_through_gt_5(turn, winner):
    """The map text is one no other test loads, so the game's data (terrain costs, scenario numbers) is read here,
    inside the test, where a mutant of the loading code is switched on (docs/testing.md, "Mutation testing")."""
    text = data.MAP.read_text() + f"\n# the printed map, as a custom map for a GT {turn} position\n"
    s = GAME.initial_state("campaign", {"map": text, "position": {
        "turn": turn, "phase": "ops1", "plan": ["move", "fight"], "units": {"jp-snlf-1": "3512", "cn-d57": "2410"}}})
    assert s.data.options == {"map": text}
    ended = sudden_death(s)
    if winner is None:
        assert ended is None
    else:
        assert (ended.winner, ended.reason) == (winner, "SNC 4.2: no Chinese unit in or adjacent to Shanghai (3512) "
                                                        f"on GT {turn}")


def test_6_3_once_his_attack_on_a_stack_is_under_way_the_attackers_preview_of_that_hex_counts_every_defender():
    s = position({"jp-d3-r6": "3510", "jp-d3-r18": "3510", "cn-d87": "3511", "cn-d98": "3511", "cn-d57": "3612"},
                 turn=3)
    planned = RULES.preview(s, RULES.parse("overrun 3511 with d3-r18", "japanese", s))
    assert planned["hidden_defenders"] == 1 and "1 more unit(s) hidden under the top unit" in planned["text"]
    s = then(s, "japanese", "attack 3511 with d3-r6 support air")  # the Chinese air decision is awaited
    planned = legal.preview(RULES, s, RULES.parse("overrun 3511 with d3-r18", "japanese", s))
    assert planned["hidden_defenders"] == 0 and "Strength 2 vs 8: raw odds 1:4" in planned["text"]
