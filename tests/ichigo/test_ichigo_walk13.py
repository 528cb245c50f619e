"""Ichi-Go rules version 13 (docs/rulings/ichigo-engine.md E48, E49): a US reinforcement that lands at a beachhead in
the US Movement Phase (9.8, 8.11) operates normally at once (9.0), so it may move in that phase, as a dropped or
airlifted unit already does (8.10, 8.11); and no tank regiment defends against a US momentum attack (11.17, 11.25).
From position files (docs/custom-positions.md); a game created under version 12 is decided as played."""
import pytest
from ichigo_given import RULES, chinese, ev, fold, of, position, then, when

from app.rules.ichigo import GAME
from app.rules.legal import legal_orders
from tests.fuzzing import refusal


def turn_9_us_movement(version: str | None = None, plan: str = "move-fight"):
    """Turn 9, the US Movement Phase (Phase II under move-fight, III under fight-move): both beachheads ashore, the
    Allies holding Canton, the US divisions not named still waiting to land (9.8)."""
    pos = {"turn": 9, "phase": "II" if plan == "move-fight" else "III", "causeway": True, "plans": {"us": plan},
           "beachheads": {"formosa": "3221", "mainland": "1922"}, "units": {"us-1c": "3221"},
           "control": {"allied": ["1922"]}}
    return GAME.initial_state("campaign", {"position": pos}, version)


@pytest.mark.parametrize("plan", ["move-fight", "fight-move"])
def test_9_0_e48_a_us_division_landed_at_a_beachhead_moves_in_the_us_movement_phase_it_landed_in(plan):
    s = then(turn_9_us_movement(plan=plan), "allied", "land us-24th us-11ab at 3221")
    moves = [o["order"] for o in legal_orders(RULES, s, "allied") if o["action"] == "move"]
    assert "move us-24th to 3220" in moves and "move us-11ab to 3220" in moves
    s = then(s, "allied", "move us-24th us-11ab to 3220")
    assert (s.units["us-24th"].hex, s.units["us-11ab"].hex, s.units["us-1c"].hex) == ("3220", "3220", "3221")


def test_e48_a_game_created_under_version_12_keeps_the_landed_division_in_its_beachhead_as_played():
    s = then(turn_9_us_movement("12"), "allied", "land us-24th at 3221")
    assert refusal(RULES, s, "allied", "move us-24th to 3220") == \
        "Ichi-Go 10.4: us-24th has completed its move this phase"
    assert not [o for o in legal_orders(RULES, s, "allied") if o["action"] == "move" and "us-24th" in o["order"]]


def momentum_ready(version: str | None = None):
    """Turn 8, the US Combat Phase: three US divisions in the mainland beachhead (Canton) destroy the Japanese 1st
    Brigade in 2021 (no tank regiment committed to its defence, a 1) and advance into it: a momentum attack on the
    26th Division in 2121 is open to them (11.25: traced to the beachhead)."""
    pos = {"turn": 8, "phase": "III", "causeway": True, "plans": {"us": "move-fight"},
           "beachheads": {"formosa": "3221", "mainland": "1922"}, "control": {"allied": ["1922", "3221"]},
           "units": {"us-1c": "1922", "us-24th": "1922", "us-25th": "1922", "jp-cea-1bde": "2021",
                     "jp-cea-26div": "2121", "jp-cea-62div": "3106"}}
    s = then(GAME.initial_state("campaign", {"position": pos}, version), "allied", "attack 2021 with 1922")
    assert s.pending[0]["kind"] == "tanks"  # 11.17: the brigade's defence may take a regiment
    s = then(then(s, "japanese", "commit 0", rolls=[1]), "allied", "advance us-1c us-24th us-25th")
    assert s.pending[0]["kind"] == "momentum"
    return s


def test_11_17_11_25_e49_no_tank_regiment_defends_against_a_us_momentum_attack():
    battle = of(when(momentum_ready(), "allied", "attack 2121 with us-1c us-24th us-25th", rolls=[1]),
                ev.BattleResolved)
    assert [(b.hex, b.tanks) for b in battle] == [("2121", [])]  # resolved at once: no `commit` was asked


def test_e49_a_game_created_under_version_12_offers_the_tank_regiment_against_momentum_as_played():
    s = then(momentum_ready("12"), "allied", "attack 2121 with us-1c us-24th us-25th")
    assert s.pending[0]["kind"] == "tanks"
    assert [o["order"] for o in legal_orders(RULES, s, "japanese")] == ["commit 0", "commit 1"]


# -- 10.3 (ruling E50): a stack under way picks up units that have not moved, each unit within its own MP ----------
def divisions_moved_to_2014(version: str | None = None):
    """Turn 2 (six MP each, 10.14): the 110th and 11th Divisions move 2010 -> 2014 (5 MP, one left) and stand with
    the 1st Brigade, which has not moved."""
    s = position({"jp-cea-110div": "2010", "jp-ka-11div": "2010", "jp-cea-1bde": "2014"}, phase="VI",
                 plans={"japanese": "move-fight"})
    s = RULES.played_under(s, version) if version else s
    return then(s, "japanese", "move jp-cea-110div jp-ka-11div to 2014")


def test_10_3_e50_a_stack_under_way_picks_up_a_unit_that_has_not_moved_each_spending_its_own_mp():
    s = divisions_moved_to_2014()
    together = "move jp-cea-110div jp-ka-11div jp-cea-1bde to 2114"
    assert together in [o["order"] for o in legal_orders(RULES, s, "japanese")]
    s = then(s, "japanese", together)
    assert [(s.units[u].hex, s.units[u].mp_used) for u in ("jp-cea-110div", "jp-ka-11div", "jp-cea-1bde")] == \
        [("2114", 6), ("2114", 6), ("2114", 1)]
    s = then(s, "japanese", "move jp-cea-1bde to 2115")  # the brigade goes on alone with its own five MP left
    assert (s.units["jp-cea-1bde"].hex, s.units["jp-cea-1bde"].mp_used) == ("2115", 2)


def test_10_3_e50_the_stack_that_picked_a_unit_up_goes_only_as_far_as_its_least_mp_pays_and_the_unit_goes_on_alone():
    s = divisions_moved_to_2014()
    assert refusal(RULES, s, "japanese", "move jp-cea-110div jp-ka-11div jp-cea-1bde to 2015") == (
        "Ichi-Go 10.0: entering 2015 costs 2 MP but only 1 MP remain (10.3: a stack that picked units up goes on "
        "as far as the unit with the least MP left can pay)")
    s = then(s, "japanese", "move jp-cea-1bde to 2015")
    assert s.units["jp-cea-1bde"].hex == "2015" and s.units["jp-cea-110div"].done


def test_10_3_e50_a_unit_that_completed_its_move_or_a_strategic_move_not_chosen_at_the_start_is_refused():
    s = position({"jp-cea-110div": "2010", "jp-cea-1bde": "2012", "jp-cea-2bde": "2012"}, phase="VI",
                 plans={"japanese": "move-fight"})
    s = then(then(s, "japanese", "move jp-cea-2bde to 2013"), "japanese", "move jp-cea-2bde to 2012")
    s = then(then(s, "japanese", "move jp-cea-110div to 2012"), "japanese", "move jp-cea-110div to 2011")
    s = then(s, "japanese", "move jp-cea-110div to 2012")
    assert refusal(RULES, s, "japanese", "move jp-cea-110div jp-cea-2bde to 2013") == (
        "Ichi-Go 10.4: jp-cea-2bde has completed its move this phase; only units that have not moved join a stack "
        "under way (10.3)")
    assert refusal(RULES, s, "japanese", "move jp-cea-110div jp-cea-1bde to 2013 strategic") == (
        "Ichi-Go 10.17: strategic movement is chosen when a stack starts to move: the stack under way moves "
        "normally, and units joining it move as it does (10.3)")


def chinese_met():
    """Turn 2, the Chinese Movement Phase: regiment C01 in 2011 and C03, C04 in 2012; every Chinese stack rolls for
    its MP (10.15: the die less one)."""
    return position({}, phase="VIII", plans={"chinese": "move-fight"},
                    extra=(chinese("C01", "cn-reg-01", "2011", tried=True),
                           chinese("C03", "cn-reg-03", "2012", tried=True),
                           chinese("C04", "cn-reg-04", "2012", tried=True)))


def test_10_15_e50_a_chinese_unit_picked_up_rolls_its_own_factor_and_keeps_it():
    s = then(chinese_met(), "allied", "move C01 to 2012", rolls=[3])  # 2 MP, one left
    assert "move C01 C03 C04 to 2013" in [o["order"] for o in legal_orders(RULES, s, "allied")]
    events = when(s, "allied", "move C01 C03 to 2013", rolls=[6])        # C03's own roll: 5 MP (10.14, 10.15)
    assert of(events, ev.StackJoined) == [ev.StackJoined(["C03"], 5, "normal", True)]
    s = fold(s, *events)
    assert [(s.units[u].hex, s.units[u].mp, s.units[u].mp_used) for u in ("C01", "C03")] == \
        [("2013", 2, 2), ("2013", 5, 1)]
    # C04 stood unmoved in 2012 when C03's die was rolled there: it moves on that roll (E16)
    assert of(when(s, "allied", "move C04 to 2011"), ev.MovementRolled)[0].mp == 5


def test_10_15_e16_e50_a_chinese_unit_picked_up_where_its_hex_already_rolled_moves_on_that_roll():
    s = then(chinese_met(), "allied", "move C04 to 2013", rolls=[5])  # rolled in 2012 with C03 there: 4 MP
    s = then(s, "allied", "move C01 to 2012", rolls=[3])
    events = when(s, "allied", "move C01 C03 to 2013")                   # no die
    assert of(events, ev.StackJoined) == [ev.StackJoined(["C03"], 4, "normal", False)]


def test_10_3_e50_a_game_created_under_version_12_refuses_picking_a_unit_up_as_played():
    s = divisions_moved_to_2014("12")
    assert refusal(RULES, s, "japanese", "move jp-cea-110div jp-ka-11div jp-cea-1bde to 2114") == (
        "Ichi-Go 10.1: a stack that has begun to move goes on only as that stack (or part of it, 10.3), before any "
        "other unit moves")
    assert not [o for o in legal_orders(RULES, s, "japanese") if "jp-cea-1bde" in o["order"] and "jp-ka" in o["order"]]
