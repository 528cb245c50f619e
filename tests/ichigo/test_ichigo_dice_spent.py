"""Ichi-Go movement dice are spent, never peeked (docs/architecture.md practice 11, ruling E13, issue 12): every check
of a move runs before its movement die; once rolled, the stack moves as far as the roll pays for."""
import pytest
from ichigo_given import RULES, chinese, ev, of, position, when

from app.events.dice import RecordedDice
from app.projections import state as projection
from app.rules.catalog import installed
from app.rules.errors import IllegalOrder
from app.service import games
from tests.fuzzing import refusal

CATALOG = installed()  # the rule sets installed here

CHINESE_MOVE = position({}, phase="VIII", plans={"chinese": "move-fight"},
                        extra=(chinese("C01", "cn-reg-01", "2011", tried=True),))


def test_a_chinese_move_out_of_reach_is_refused_before_its_die_and_quotes_no_roll():
    text = refusal(RULES, CHINESE_MOVE, "allied", "move C01 to 2017")  # the same for every face, no die taken
    assert text == "Ichi-Go 10.2: no legal path from 2011 to 2017 with at most 5 MP"


@pytest.mark.parametrize("face", range(1, 7))
def test_a_chinese_move_the_roll_cannot_pay_for_goes_as_far_as_the_roll_allows(face):
    evs = when(CHINESE_MOVE, "allied", "move C01 to 2014 via 2012 2013", rolls=[face])
    mp = face - 1                                                         # 10.15 before Causeway
    assert of(evs, ev.MovementRolled)[0].mp == mp
    moved = of(evs, ev.UnitsMoved)
    costs_so_far = {"2011": 0, "2012": 1, "2013": 2, "2014": 4}          # 2014 costs 2 MP to enter
    path = [h for h, cost in costs_so_far.items() if cost <= mp]
    assert (moved[0].path if moved else ["2011"]) == path


def test_a_stack_cut_short_stops_at_the_last_hex_it_may_end_in():
    full = tuple(chinese(f"C0{i}", f"cn-reg-0{i}", "2012", tried=True) for i in range(2, 6))  # 6.2: four Chinese
    s = position({}, phase="VIII", plans={"chinese": "move-fight"},
                 extra=(chinese("C01", "cn-reg-01", "2011", tried=True), *full))
    evs = when(s, "allied", "move C01 to 2013 via 2012", rolls=[2])      # 1 MP: 2012 is full, so C01 stays
    assert of(evs, ev.MovementRolled)[0].mp == 1 and not of(evs, ev.UnitsMoved)
    evs = when(s, "allied", "move C01 to 2013 via 2012", rolls=[3])
    assert of(evs, ev.UnitsMoved)[0].path == ["2011", "2012", "2013"]


def test_japanese_strategic_movement_on_attenuated_supply_is_refused_before_the_die():
    s = position({"jp-cea-110div": "2010"}, turn=7, phase="VI", plans={"japanese": "move-fight"})
    with pytest.raises(IllegalOrder, match="10.17"):                     # no die recorded: any roll would fail
        RULES.decide(s, RULES.parse("move jp-cea-110div to 2011 strategic", "japanese", s),
                     RecordedDice(next_index=0, recorded=[]))


def test_attenuated_japanese_roll_of_three_moves_three_hexes_of_a_longer_path():
    s = position({"jp-cea-110div": "2010"}, turn=7, phase="VI", plans={"japanese": "move-fight"})
    evs = when(s, "japanese", "move jp-cea-110div to 2014 via 2011 2012 2013", rolls=[1])
    assert of(evs, ev.MovementRolled)[0].mp == 3 and of(evs, ev.UnitsMoved)[0].path == ["2010", "2011", "2012",
                                                                                        "2013"]


def test_refused_orders_by_the_service_leave_the_next_roll_and_the_answer_as_they_were(store):
    """The issue's report: `move C01 to ...` refused "with 5 MP" again and again showed the next roll."""
    game_id = games.create_game(store, CATALOG, "ichigo", options={"position": {
        "turn": 2, "phase": "VIII", "plans": {"japanese": "move-fight", "chinese": "move-fight"},
        "units": {"cn-reg-01": "2011", "jp-cea-110div": "2008"}}})
    games.join(store, CATALOG, game_id, "japanese", "j@example.org", "j")
    games.join(store, CATALOG, game_id, "allied", "a@example.org", "a")
    before = projection.load(store, CATALOG, game_id).meta
    answers = set()
    for _ in range(3):
        with pytest.raises(IllegalOrder) as refused:
            games.submit(store, CATALOG, game_id, "allied", "move C01 to 2017")
        answers.add(str(refused.value))
    state = projection.load(store, CATALOG, game_id)
    assert (state.meta.seq, state.meta.rolls) == (before.seq, before.rolls)
    assert answers == {refusal(RULES, state.game, "allied", "move C01 to 2017")}
    accepted = games.submit(store, CATALOG, game_id, "allied", "move C01 to 2014 via 2012 2013")
    assert [e.payload["index"] for e in accepted.events if e.type == "core.DieRolled"] == [before.rolls]


def test_3_3_9_7_a_blind_draw_from_a_pool_of_one_rolls_nothing_and_from_two_rolls_which():
    from dataclasses import replace
    one = replace(position({}, phase="X"), draw_pool=("cn-reg-04",))
    evs = when(one, "allied", "reinforce", rolls=[1])                   # the 9.7 roll only: one counter left
    assert [e.unit for e in of(evs, ev.UnitDrawn)] == ["cn-reg-04"]
    two = replace(one, draw_pool=("cn-reg-04", "cn-reg-33"))
    evs = when(two, "allied", "reinforce", rolls=[1, 2])                # and a die with two faces to pick one
    assert [e.unit for e in of(evs, ev.UnitDrawn)] == ["cn-reg-33"]
