"""SNC cases not exercised elsewhere: 10th Army and 16th Division landings (8.4.1, 8.4.2), marker timing (8.5),
odds (10.3, 10.3.1), sequencing of battles (10.1), no carry-over (10.5.1), delay of reinforcements (8.0, 5.4)."""
from dataclasses import replace
from pathlib import Path

import pytest
from snc_given import RULES, ev, fold, of, position, then, when

from app.projections import state as projection
from app.rules.catalog import installed
from app.rules.errors import IllegalOrder
from app.rules.kernel.preview import preview_attack
from app.rules.snc.data_load import load
from app.rules.snc.reinforcements import due
from app.service import games, transfer

CATALOG = installed()  # the rule sets installed here

D6 = ["jp-d6-r13", "jp-d6-r23", "jp-d6-r45", "jp-d6-r47"]
D3 = ["jp-d3-r6", "jp-d3-r18", "jp-d3-r34", "jp-d3-r68"]
D11 = ["jp-d11-r12", "jp-d11-r22", "jp-d11-r43", "jp-d11-r44"]
D16 = ["jp-d16-r9", "jp-d16-r20", "jp-d16-r33", "jp-d16-r38"]


def test_10_3_odds_round_down_poor_odds_round_up_and_10_3_1_the_end_columns():
    crt = load().crt
    assert preview_attack(crt, 26, 7).odds.label == "3:1"
    assert preview_attack(crt, 5, 9).odds.label == "1:2"
    assert preview_attack(crt, 8, 1).column_label == "6:1"
    assert preview_attack(crt, 1, 5).column_label == "1:3"


def test_8_4_1_the_10th_army_lands_at_one_hex_in_column_32_or_east_and_advances_a_second_hex():
    s = position({"cn-gar-h": "3417", "jp-snlf-1": "3512"}, turn=7, phase="reinf", pool=tuple(D6))
    with pytest.raises(IllegalOrder, match="SNC 8.4.1"):
        when(s, "japanese", "land " + " ".join(D6) + " at 3019")
    s32 = position({"cn-gar-f": "3207", "jp-snlf-1": "3512"}, turn=7, phase="reinf", pool=tuple(D6))
    assert of(when(s32, "japanese", "land " + " ".join(D6) + " at 3207", rolls=[6]), ev.CombatResolved)  # 32xx
    s = then(s, "japanese", "land " + " ".join(D6) + " at 3417", rolls=[6])
    assert s.pending[0]["kind"] == "advance" and s.pending[0]["data"]["army"]
    assert {s.units[u].hex for u in D6} == {"3417"}
    s = then(s, "japanese", "advance " + " ".join(D6[:2]) + " to 3317")
    assert {s.units[u].hex for u in D6[:2]} == {"3317"}


def test_8_4_1_only_a_landing_of_10th_army_units_alone_goes_on_a_second_hex():
    """A 10th Army regiment delayed to GT 8 lands beside a 16th Division one: the stack takes the landing hex and
    stops there; the same regiment landing alone is offered the second hex."""
    s = position({"cn-gar-h": "3417", "jp-snlf-1": "3512"}, turn=8, phase="reinf", pool=(*D6, *D16))
    mixed = then(s, "japanese", "land jp-d6-r13 jp-d16-r9 at 3417", rolls=[6])
    assert {mixed.units[u].hex for u in ("jp-d6-r13", "jp-d16-r9")} == {"3417"}
    assert (mixed.pending, mixed.battle) == ((), None)
    alone = then(s, "japanese", "land jp-d6-r13 at 3417", rolls=[6])
    assert alone.pending[0]["kind"] == "advance" and alone.pending[0]["data"]["army"]


def test_8_4_1_with_every_hex_next_to_the_landing_hex_chinese_held_the_10th_army_advances_into_a_coastal_one():
    # 3417's land neighbours: 3416 and 3317 inland, 3517 and 3318 on Hangzhou Bay
    held = {"cn-d87": "3416", "cn-d88": "3317", "cn-d36": "3517", "cn-d98": "3318"}
    s = position({"cn-gar-h": "3417", "jp-snlf-1": "3512", **held}, turn=7, phase="reinf", pool=tuple(D6))
    s = then(s, "japanese", "land " + " ".join(D6) + " at 3417", rolls=[6])
    assert s.pending[0]["kind"] == "advance" and s.pending[0]["data"]["army"]
    with pytest.raises(IllegalOrder, match="SNC 8.4.1.*3416 is not a coastal hex"):
        when(s, "japanese", "advance " + " ".join(D6) + " to 3416")
    s = then(s, "japanese", "advance " + " ".join(D6[:2]) + " to 3517")
    assert s.pending[0]["kind"] == "retreat" and s.pending[0]["side"] == "chinese"
    options = s.pending[0]["data"]["options"]
    assert options and "3417" not in options
    s = then(s, "chinese", f"retreat to {options[0]}")
    assert s.units["cn-d36"].hex == options[0]
    assert {s.units[u].hex for u in D6[:2]} == {"3517"} and {s.units[u].hex for u in D6[2:]} == {"3417"}
    assert s.battle is None and not s.pending
    assert all(s.units[u].steps == 2 for u in D6)  # no extra step: that is 8.4 2), a retreat from the landing hex


def test_8_4_1_the_10th_army_enters_a_chinese_held_hex_only_when_no_hex_next_to_the_landing_hex_is_free():
    s = position({"cn-gar-h": "3417", "jp-snlf-1": "3512", "cn-d36": "3517"}, turn=7, phase="reinf",
                 pool=tuple(D6))
    s = then(s, "japanese", "land " + " ".join(D6) + " at 3417", rolls=[6])
    with pytest.raises(IllegalOrder, match="SNC 8.4.1.*only when every hex next to 3417 is"):
        when(s, "japanese", "advance " + " ".join(D6) + " to 3517")


def test_8_4_2_the_16th_division_may_land_at_any_landing_hex_but_at_one():
    s = position({"jp-snlf-1": "3512"}, turn=8, phase="reinf", pool=tuple(D16))
    s = then(s, "japanese", "land " + " ".join(D16[:2]) + " at 2604")
    assert {s.units[u].hex for u in D16[:2]} == {"2604"}
    with pytest.raises(IllegalOrder, match="SNC 8.4.2: these reinforcements land at one location"):
        when(s, "japanese", "land " + " ".join(D16[2:]) + " at 2804")
    s = then(s, "japanese", "land " + " ".join(D16[2:]) + " at 2604")
    assert {s.units[u].hex for u in D16} == {"2604"}


def test_8_4_8_5_a_marker_unused_in_the_first_operations_phase_supports_the_landing_a_used_one_does_not():
    # GT 2: the Japanese hold one artillery marker (13.0) and use it in the First Operations Phase
    s = position({"jp-d11-r12": "3409", "cn-gar-c": "3408", "cn-gar-wusong": "3510", "cn-d57": "3612",
                  "jp-snlf-1": "3512"}, turn=2, pool=tuple(D3))
    s = then(s, "japanese", "attack 3408 with d11-r12 support artillery", rolls=[6])
    s = then(s, "japanese", "stay") if s.pending else s
    s = then(s, "japanese", "end")
    assert s.phase == "reinf"
    # 8.4: any marker not used in the First Operations Phase: naval gunfire (issue 19, D4), and amphibious
    events = when(s, "japanese", "land " + " ".join(D3) + " at 3510 support naval amphibious", rolls=[6])
    assert sum("support" in x for x in of(events, ev.CombatResolved)[0].shifts) == 2
    with pytest.raises(IllegalOrder, match="SNC 8.5: every artillery marker was used"):
        when(s, "japanese", "land " + " ".join(D3) + " at 3510 support artillery")


@pytest.mark.parametrize(("turn", "side", "naval", "air"), [
    (1, "chinese", 2, 0), (1, "japanese", 3, 0), (2, "chinese", 3, 0), (2, "japanese", 4, 1),
    (3, "chinese", 4, 1), (3, "japanese", 4, 2)])
def test_8_5_markers_of_a_gt_are_received_at_the_beginning_of_their_owners_player_turn(turn, side, naval, air):
    # 13.0: naval 2 at start, 1 on GT 1, 1 on GT 2; air 1 on GT 2, 1 on GT 3
    s = position({"jp-snlf-1": "3512"}, turn=turn, side=side)
    assert (s.markers_available("japanese", "naval"), s.markers_available("japanese", "air")) == (naval, air)


def test_8_5_in_the_chinese_gt_1_turn_the_japanese_defend_with_the_two_at_start_naval_markers_not_three():
    s = position({"jp-snlf-1": "3512", "jp-snlf-3": "3611", "jp-d3-r6": "3510",
                  "cn-d87": "3511", "cn-d98": "3511", "cn-d7": "3410"}, turn=1, side="chinese")
    s = then(s, "chinese", "attack 3512 with d87")  # 5 on 2, city 2L, naval 1L: 1:2, die 6 = 1/1
    s = then(s, "japanese", "support naval", rolls=[6])
    s = then(s, "chinese", "attack 3611 with d98")  # 3 on 2, city 2L, naval 1L: 1:3, die 4 = 2/0
    s = then(s, "japanese", "support naval", rolls=[4])
    assert s.battle is None and not s.pending
    events = when(s, "chinese", "attack 3510 with d7", rolls=[4])  # no third marker: resolved at once
    assert not of(events, ev.DecisionRequired) and of(events, ev.CombatResolved)


def test_10_1_a_battle_is_finished_before_another_is_begun():
    s = position({"jp-d3-r6": "3409", "jp-d3-r18": "3409", "cn-gar-c": "3408", "cn-d7": "3410",
                  "cn-d57": "3612"}, turn=3)
    s = then(s, "japanese", "attack 3408 with d3-r6", rolls=[6])
    assert [a.name for a in RULES.prompt(s).actions] == ["advance", "stay"]
    with pytest.raises(IllegalOrder, match="SNC 10.1: the battle at 3408 is resolved before another order"):
        when(s, "japanese", "attack 3410 with d3-r18")  # named by 10.1 from rules version 13 (ruling E25)
    with pytest.raises(IllegalOrder, match="SNC 5.1"):
        when(RULES.played_under(s, "12"), "japanese", "attack 3410 with d3-r18")


def test_10_5_1_losses_beyond_the_steps_present_are_not_carried_over():
    s = position({"jp-d3-r6": "2409", "jp-d3-r18": "2409", "cn-d7": "2410"}, turn=7)
    events = when(s, "japanese", "attack 2410 with 2409", rolls=[6])  # 8:2 = 4:1, city 2L -> 2:1, die 6
    assert of(events, ev.CombatResolved)[0].defender_losses == 2
    assert [e.units for e in of(events, ev.StepsLost) if e.side == "chinese"] == [["cn-d7"]]  # one step only
    s = then(fold(s, *events), "japanese", "stay")
    assert s.battle is None and not s.pending


def test_8_0_and_5_4_reinforcements_not_placed_are_delayed_to_a_later_gt():
    s = position({"cn-d57": "3612", "jp-snlf-1": "3512"}, turn=2, side="chinese", phase="reinf",
                 pool=("cn-d7",))
    assert "cn-d7" in [u.id for u in due(s, "chinese")]
    s = then(s, "chinese", "end")
    s = fold(s, ev.PhaseEnded(side="chinese", phase="ops2", turn=2), ev.PhasesDeclared("japanese", "move", "move"))
    for _ in range(3):
        s = then(s, "japanese", "end")
    assert s.turn == 3 and "cn-d7" in [u.id for u in due(s, "chinese")]


def v2(state):
    """The same position in a game created under rules version 2 (ruling E13)."""
    return RULES.played_under(state, "2")


def test_e13_a_game_created_before_rules_version_3_is_decided_as_it_was_played():
    assert RULES.played_under(position({}), "").rules_version == 2 and position({}).rules_version == 16
    # D1: a 0-factor attack started on 1:3 before its shifts
    s = position({"cn-b20": "3412", "jp-d11-r12": "3313"}, side="chinese", turn=7)
    r = of(when(v2(s), "chinese", "attack 3313 with b20 support artillery", rolls=[4]), ev.CombatResolved)[0]
    assert (r.odds, r.column) == ("0", "1:2")
    # D3: the Japanese held their GT-n markers in the Chinese GT-n player turn
    assert v2(position({}, turn=1, side="chinese")).markers_available("japanese", "naval") == 3
    # D5: the defending hex alone decided, next to a river hex
    s = position({"jp-d11-r12": "3312", "cn-d7": "3412"}, turn=7)
    assert of(when(v2(s), "japanese", "attack 3412 with d11-r12 support naval", rolls=[4]), ev.CombatResolved)
    # D6: another stack could overrun a hex overrun this phase
    s = position({**{u: "2806" for u in D11}, "jp-d3-r6": "2807", "cn-d87": "2707", "cn-d7": "2707"},
                 plan=("move", "fight"))
    s = then(then(v2(s), "japanese", "overrun 2707 with 2806", rolls=[6]), "japanese", "lose d11-r12")
    assert of(when(s, "japanese", "overrun 2707 with d3-r6", rolls=[1]), ev.CombatResolved)
    # D7: an advance over the limit was accepted, then 6.0 asked for eliminations
    s = position({**{u: "3409" for u in D3}, "jp-det-shigeto": "3409", "jp-d11-r12": "3309", "cn-gar-c": "3408"})
    s = then(v2(s), "japanese", "attack 3408 with 3409 3309", rolls=[6])
    s = then(s, "japanese", f"advance {' '.join(D3)} det-shigeto d11-r12 to 3408")
    assert s.pending[0]["kind"] == "overstack"
    # D8: an SNLF was replaced through 3610
    s = position({"jp-snlf-1": "3610", "cn-gar-wusong": "3510", "cn-d87": "3511", "cn-d57": "3611", "cn-b45": "3710"},
                 turn=3, phase="reinf", steps={"jp-snlf-1": 1})
    s = v2(replace(s, **{"replacements": 2}))
    assert not then(s, "japanese", "replace snlf-1").units["jp-snlf-1"].reduced
    # an `end` followed by the 6.0 elimination left the phase open
    s = position({"cn-d87": "2707", "cn-d7": "2707", "cn-b45": "2707", "cn-b20": "2707", "cn-d57": "3612"},
                 turn=7, side="chinese", plan=("move", "move"))
    s = then(then(v2(s), "chinese", "end"), "chinese", "eliminate b20")
    assert s.phase == "ops1"


def test_e13_a_landing_after_artillery_in_the_first_operations_phase_took_no_marker_under_version_2():
    s = position({"jp-d11-r12": "3409", "cn-gar-c": "3408", "cn-gar-wusong": "3510", "cn-d57": "3612",
                  "jp-snlf-1": "3512"}, turn=2, pool=tuple(D3))
    s = then(v2(s), "japanese", "attack 3408 with d11-r12 support artillery", rolls=[6])
    s = then(s, "japanese", "stay") if s.pending else s
    s = then(s, "japanese", "end")
    with pytest.raises(IllegalOrder, match="SNC 8.5: markers were used in the First Operations Phase"):
        when(s, "japanese", "land " + " ".join(D3) + " at 3510 support naval amphibious")


def test_e13_a_new_game_records_its_rules_version_and_an_older_one_keeps_its_own(store):
    game_id = games.create_game(store, CATALOG, "snc")
    created = next(iter(store.events(game_id)))
    assert created.payload["rules_version"] == RULES.version == "16"
    assert projection.load(store, CATALOG, game_id).game.rules_version == 16
    # a game exported at 1329c69, before versions were recorded: played and verified under version 2
    old = (Path(__file__).parents[1] / "data" / "exports-1329c69" / "g-oldsnc01.jsonl").read_text().splitlines()
    assert projection.load(store, CATALOG, transfer.import_game(store, CATALOG, old)).game.rules_version == 2
