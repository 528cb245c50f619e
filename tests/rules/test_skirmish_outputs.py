"""What a skirmish game shows a player, in the fast tier: the history lines of its events, the attacks the list of
legal orders offers, an attack's preview and the replay's combat panel (docs/rules/skirmish.md SK 4-5;
app/rules/base.py for the outputs)."""
from dataclasses import replace

from app.events.dice import RecordedDice
from app.rules.skirmish import GAME as RULES
from app.rules.skirmish.events import AttackResolved, StepLost, UnitMoved
from app.rules.skirmish.view import combat_summary


def combat_at(**placements):
    state = RULES.initial_state("standard", {})
    units = {uid: replace(u, hex=placements.get(uid, u.hex)) for uid, u in state.units.items()}
    return replace(state, units=units, step="combat")


def test_the_history_lines_say_who_moved_attacked_and_lost():
    assert RULES.describe(UnitMoved("R1", ["0202", "0302"])) == "R1 moves 0202 - 0302"
    resolved = AttackResolved("0503", ["R1", "R2"], 7, 4, "1:1", 5, "D1")
    assert RULES.describe(resolved) == "attack on 0503 by R1, R2: 7:4 -> 1:1, die 5: D1"
    assert RULES.describe(StepLost("B1", False)) == "B1 loses a step"
    assert RULES.describe(StepLost("B1", True)) == "B1 is eliminated"


def test_the_legal_attacks_are_each_enemy_hex_with_every_own_unit_next_to_it_that_has_not_attacked():
    state = combat_at(R1="0402", R2="0403", B1="0503", B3="0504")
    attacks = sorted(o["order"] for o in RULES.legal_orders(state, "red") if o["action"] == "attack")
    assert attacks == ["attack 0503 with R1 R2", "attack 0504 with R2"]
    after = RULES.evolve(state, AttackResolved("0503", ["R1"], 4, 4, "1:1", 3, "NE"))
    attacks = sorted(o["order"] for o in RULES.legal_orders(after, "red") if o["action"] == "attack")
    assert attacks == ["attack 0504 with R2"]  # R1 has attacked, 0503 has been attacked (SK 5.1)


def test_the_preview_shows_the_odds_and_each_roll_by_the_code_the_order_runs():
    state = combat_at(R1="0402", R2="0403", B1="0503", B3="0504")
    command = RULES.parse("attack 0503 with R1 R2", "red", state)
    shown = RULES.preview(state, command)
    assert (shown["attack"], shown["defence"], shown["column"], shown["case"]) == (7, 4, "1:1", "SK 5.3")
    assert [shown["by_roll"][die]["result"] for die in range(1, 7)] == ["A1", "A1", "NE", "D1", "D1", "D2"]
    assert shown["by_roll"][1]["losses"] == ["R1 loses a step"]  # the strongest attacker (SK 5.4)
    assert shown["by_roll"][6] == {"result": "D2", "losses": ["B1 loses a step", "B1 is eliminated"],
                                   "ends_game": None}
    assert shown["rolls_needed"] == 1 and shown["text"].startswith("attack on 0503: 7:4 -> 1:1 (SK 5.3)")
    assert "  die 6: D2" in shown["text"].splitlines()
    events = RULES.outcomes_by_face(state, command)
    assert sorted(events) == [1, 2, 3, 4, 5, 6]
    assert [next(e for e in events[die] if isinstance(e, AttackResolved)).result for die in (1, 4)] == ["A1", "D1"]


def test_the_combat_panel_reads_the_attack_its_losses_and_every_face_of_its_column():
    state = combat_at(R1="0402", R2="0403", B1="0503")
    panel = combat_summary(AttackResolved("0503", ["R1", "R2"], 7, 4, "1:1", 5, "D1"), state)
    assert (panel["attacker"], panel["defender"], panel["hex"], panel["odds"]) == ("red", "blue", "0503", "1:1")
    assert panel["losses"] == {"red": 0, "blue": 1} and panel["case"] == "SK 5.3"
    assert [(d["roll"], d["result"], d["value"]) for d in panel["distribution"]] == [
        (1, "A1", -1), (2, "A1", -1), (3, "NE", 0), (4, "D1", 1), (5, "D1", 1), (6, "D2", 2)]
    assert all(d["p"] == 1 / 6 for d in panel["distribution"])
    wiped = combat_summary(AttackResolved("0503", ["R1"], 4, 1, "4:1", 6, "DE"), state)
    assert wiped["losses"] == {"red": 0, "blue": "all"}
    lost = combat_summary(AttackResolved("0503", ["R1", "R2"], 2, 4, "1:2", 1, "AE"), state)
    assert lost["losses"] == {"red": 2, "blue": 0}
    assert combat_summary(StepLost("B1", False), state) is None


def test_the_combat_panel_gives_every_field_of_the_contract_and_a_d2_costs_the_defender_two_steps_only():
    # app/rules/base.py's combat_summary: the replay's panel and the luck analysis read these keys by name
    state = combat_at(R1="0402", R2="0403", B1="0503")
    panel = combat_summary(AttackResolved("0503", ["R1", "R2"], 7, 4, "1:1", 6, "D2"), state)
    assert {k: v for k, v in panel.items() if k != "distribution"} == {
        "attacker": "red", "defender": "blue", "hex": "0503", "attackers": ["R1", "R2"], "attack": 7, "defence": 4,
        "odds": "1:1", "shifts": [], "roll": 6, "result": "D2", "case": "SK 5.3", "losses": {"red": 0, "blue": 2},
        "columns": ["1:2", "1:1", "2:1", "3:1", "4:1"]}
    assert combat_summary(AttackResolved("0503", ["R1"], 4, 4, "1:1", 1, "A1"), state)["losses"] == {
        "red": 1, "blue": 0}


def test_the_preview_names_the_hex_its_odds_the_case_and_the_dice_the_attack_rolls():
    state = combat_at(R1="0402", R2="0403", B1="0503", B3="0504")
    shown = RULES.preview(state, RULES.parse("attack 0503 with R1 R2", "red", state))
    assert {k: v for k, v in shown.items() if k not in ("by_roll", "text")} == {
        "hex": "0503", "attack": 7, "defence": 4, "column": "1:1", "case": "SK 5.3", "rolls_needed": 1}


def test_sk_6_the_view_names_the_side_to_act_while_the_game_runs_and_no_one_once_it_is_over():
    state = combat_at(R1="0402", B3="0403")
    for gone in ("B1", "B2"):
        state = RULES.evolve(state, StepLost(gone, True))
    shown = RULES.view(state, "blue")
    assert (shown["side_to_act"], shown["step"], shown["winner"], shown["end_reason"]) == (
        "red", "combat", None, None)
    for event in RULES.decide(state, RULES.parse("attack 0403 with R1", "red", state),
                              RecordedDice(next_index=0, recorded=[6])):  # 4:2 -> 2:1, die 6: DE
        state = RULES.evolve(state, event)
    for side in ("red", "blue"):  # red's turn is not over, but the game is (SK 6.1): nobody is to act
        shown = RULES.view(state, side)
        assert (shown["side_to_act"], shown["step"], shown["winner"], shown["end_reason"]) == (
            None, "over", "red", "blue has no units left (SK 6.1)")


def test_sk_3_1_a_game_that_ends_after_its_last_turn_shows_that_turn_at_game_over():
    state = RULES.initial_state("standard", {})
    while state.step != "over":  # every step ended at once: nobody moves, nobody takes the village (SK 6.2)
        before = state.turn
        for event in RULES.decide(state, RULES.parse("end", state.side, state), RecordedDice(next_index=0,
                                                                                              recorded=[])):
            state = RULES.evolve(state, event)
    assert before == 6
    for side in ("red", "blue"):
        shown = RULES.view(state, side)
        assert (shown["turn"], shown["step"], shown["side_to_act"], shown["winner"], shown["end_reason"]) == (
            6, "over", None, None, "nobody took the village")
