"""What SNC tells a player, as issue 27 ("lists players can trust") and issue 30 (every refusal a rule causes
names the rule) found it wanting: the list of legal orders names every reinforcement due, a marker that never
came is not said to be used up, the attackers' loss prompt points at the attackers, and a form of an order a rule
forbids is refused by that rule."""
from snc_given import RULES, fold, position, then, when

from app.rules import legal
from app.rules.snc import reinforcements
from tests.fuzzing import refusal


def gt_2_chinese_reinforcements():
    """The campaign at the Chinese Reinforcement Phase of GT 2, every side ending each step."""
    s = RULES.initial_state("campaign", {})
    s = then(s, "chinese", "declare move move")
    s = then(s, "chinese", "end")  # to the Chinese Reinforcement Phase of GT 1
    while not (s.turn == 2 and RULES.prompt(s).allows("place")):
        side = RULES.prompt(s).side
        s = then(s, side, "declare move move" if RULES.prompt(s).allows("declare") else "end")
    return s


def test_8_2_gt_2_the_list_of_legal_orders_places_every_chinese_reinforcement_due():
    s = gt_2_chinese_reinforcements()
    due = {u.id for u in reinforcements.due(s, "chinese")}
    assert len(due) == 17
    placed = {o["order"].split()[1] for o in RULES.legal_orders(s, "chinese") if o["action"] == "place"}
    assert placed == due


def test_8_2_the_list_by_kind_says_how_many_reinforcements_are_left_to_place_before_any_move():
    s = gt_2_chinese_reinforcements()
    place = legal.by_kind(RULES, s, "chinese")[0]
    assert (place["action"], place["count"], place["subjects"], place["case"]) == ("place", 17, "units", "SNC 8.2")
    assert len(legal.by_kind(RULES, s, "chinese", limit=5)[0]["orders"]) == 17  # a limit never hides one of them
    s = then(s, "chinese", place["orders"][0]["order"])
    kinds = {k["action"]: k for k in legal.by_kind(RULES, s, "chinese")}
    assert kinds["place"]["count"] == 16 and list(kinds)[0] == "place"
    assert kinds["move"]["count"] == 1  # the unit just placed in its listed hex may move (8.2 a)
    assert kinds["end"]["count"] is None and [o["order"] for o in kinds["end"]["orders"]] == ["end"]


def test_9_0_while_a_stack_is_under_way_the_list_offers_it_going_on_and_every_unit_that_has_not_moved():
    s = position({"jp-d3-r6": "2806", "jp-d3-r18": "3006"}, turn=7, plan=("move", "fight"))
    s = then(s, "japanese", "move jp-d3-r6 to 2807")
    [move, end] = legal.by_kind(RULES, s, "japanese")
    assert (move["action"], move["count"], end["action"]) == ("move", 2, "end")
    movers = [o["order"].split(" to ")[0] for o in move["orders"]]
    assert movers[:2] == ["move jp-d3-r6", "move jp-d3-r18"]  # each named once before either twice
    assert movers.count("move jp-d3-r18") > 1 and move["unchecked"] > 0  # more listed, and more not tried


def test_13_0_gt_1_a_marker_that_has_not_arrived_is_not_said_to_be_used_up():
    s = position({"jp-snlf-1": "3512", "jp-snlf-2": "3512", "cn-d87": "3511"}, turn=1, plan=("fight", "fight"))
    assert refusal(RULES, s, "japanese", "attack 3511 with 3512 support air") == \
        "SNC 13.0: no air support marker has arrived yet (the first arrives on GT 2)"


def test_10_5_2_the_attackers_loss_prompt_names_the_attackers_hexes_and_the_attack():
    d3 = ["jp-d3-r6", "jp-d3-r18", "jp-d3-r34", "jp-d3-r68"]
    s = position({**{u: "3510" for u in d3}, "jp-det-shigeto": "3510", "cn-td1": "3410", "cn-td2": "3410",
                  "cn-d7": "3410", "cn-d57": "3612"}, turn=3)
    s = then(s, "japanese", "attack 3410 with 3510 support air artillery naval")
    s = fold(s, *when(s, "chinese", "pass", rolls=[3]))
    s = then(s, "chinese", "lose td1")
    owed = RULES.prompt(s).owed
    assert owed.where == "3510"
    assert owed.what == "lose 1 step(s) of the attack on 3410 (SNC 10.5.2)"


def test_10_0_an_attack_on_two_hexes_is_refused_by_the_rule_not_the_parser():
    s = position({"jp-snlf-1": "3512", "cn-d87": "3511", "cn-d98": "3611"}, turn=3, plan=("fight", "fight"))
    assert refusal(RULES, s, "japanese", "attack 3511 3611 with 3512") == \
        "SNC 10.0: only one hex may be the object of an attack: attack each hex by its own order"


def test_11_1_a_japanese_defence_takes_naval_gunfire_only_and_the_rule_says_so():
    s = position({"jp-snlf-1": "3512", "cn-d87": "3511", "cn-d98": "3511"}, turn=3, side="chinese",
                 plan=("fight", "fight"))
    s = then(s, "chinese", "attack 3512 with 3511")
    assert RULES.prompt(s).step == "GT 3, japanese decision: defend"
    assert refusal(RULES, s, "japanese", "support air") == \
        "SNC 11.1: only the Japanese naval gunfire marker may support a defence: 'support naval'"
    assert refusal(RULES, s, "japanese", "support naval") is None
