"""The SNC orders `show`, the turn email and the API list as legal now (app/rules/legal.py, SNC's
legal_orders.py): each unit's destinations, each attack with every marker allowed there alone and together, and
the same list each time the same position is asked (mutation survivors of issue 19: no SNC test listed them)."""
from snc_given import RULES, position

from app.rules import legal
from app.rules.snc import movement
from app.rules.snc.sequence import MAX_PER_UNIT


def listed(state, side) -> list[str]:
    return [o["order"] for o in legal.legal_orders(RULES, state, side)]


def test_9_0_a_unit_is_listed_moving_to_hexes_it_can_reach_and_never_into_an_enemy_or_its_own_hex():
    s = position({"jp-d3-r6": "2806", "cn-d7": "2606"}, turn=7, plan=("move", "fight"))
    moves = [o for o in listed(s, "japanese") if o.startswith("move ")]
    assert "move jp-d3-r6 to 2706" in moves  # into the 7.1 zone of control of 2606, where it stops
    assert "2605" in movement.destinations(s, "japanese", [s.units["jp-d3-r6"]])  # round it: farther, not listed
    assert len(moves) == legal.LIMIT - 1  # as many as the list holds beside `end`
    assert "move jp-d3-r6 to 2606" not in moves and "move jp-d3-r6 to 2806" not in moves
    assert all(o.startswith("move jp-d3-r6 to ") for o in moves)


def test_10_0_11_1_an_attack_is_listed_with_each_marker_allowed_and_with_all_of_them_each_with_its_column():
    s = position({"jp-d3-r6": "3510", "jp-d3-r18": "3510", "cn-d87": "3511"}, turn=3)
    attacks = {o["order"]: o["odds"] for o in legal.legal_orders(RULES, s, "japanese") if o["action"] == "attack"}
    base = "attack 3511 with jp-d3-r6 jp-d3-r18"
    before = {base: "1:2", f"{base} support air": "1:1", f"{base} support artillery": "1:1",
              f"{base} support naval": "1:1", f"{base} support air artillery naval": "3:1"}
    # rules version 12 (ruling E24): any two of the three too
    assert attacks == {**before, f"{base} support air artillery": "2:1", f"{base} support air naval": "2:1",
                       f"{base} support artillery naval": "2:1"}
    old = RULES.played_under(s, "11")
    listed = legal.legal_orders(RULES, old, "japanese")
    assert {o["order"]: o["odds"] for o in listed if o["action"] == "attack"} == before


def test_5_1_8_2_the_same_position_lists_the_same_orders_in_the_same_order_each_time():
    s = position({"cn-d57": "3612", "jp-snlf-1": "3512"}, turn=2, side="chinese", phase="reinf",
                 pool=("cn-d3", "cn-d6", "cn-d7", "cn-d11", "cn-d51", "cn-d61"))
    first = listed(s, "chinese")
    assert {"place cn-d7 at 2410", "place cn-d11 at 2503", "place cn-d61 at 1824", "end"} <= set(first)
    assert listed(s, "chinese") == first and listed(s, "chinese") == first


def test_9_0_a_unit_that_reaches_more_hexes_than_are_listed_is_listed_moving_next_to_itself_first():
    s = position({"jp-d3-r6": "2806"}, turn=7, plan=("move", "fight"))
    reached = movement.destinations(s, "japanese", [s.units["jp-d3-r6"]])
    moves = [o for o in listed(s, "japanese") if o.startswith("move ")]
    assert len(reached) > MAX_PER_UNIT >= len(moves) == legal.LIMIT - 1
    assert {"move jp-d3-r6 to 2706", "move jp-d3-r6 to 2906"} <= set(moves)  # the hexes next to 2806
