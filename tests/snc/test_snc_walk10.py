"""SNC rules version 10 (rulings E21, E22 of docs/rulings/snc-engine.md): a stack under way goes on however its units
are named (9.0); the units of an overrun that cleared the hex go on regardless of their losses, and those of one that
left Chinese units in the hex overrun again or stop (9.6); a returning elite is placed in or next to Nanking even next
to a Japanese unit (8.1: 8.2's bar is on reinforcements). A game created under version 9 is decided as played
(docs/core.md "Rules versions")."""
from dataclasses import replace

from snc_given import RULES, position, then

from tests.fuzzing import refusal

D3 = ("jp-d3-r6", "jp-d3-r18", "jp-d3-r34", "jp-d3-r68")


def _orders(s, action: str) -> list[str]:
    return [o["order"] for o in RULES.legal_orders(s, "japanese") if o["action"] == action]


def failed_overrun(version: str | None = None):
    """GT 6, a Japanese phase for movement: the 3rd Division in Suzhou (a city: no zone of control enters it, 7.1)
    overruns 2409 at 12 against 10 (1:1, 1L: 1:2); a 1 gives 3/0 and the Chinese stay."""
    s = position({**{u: "2410" for u in D3}, "cn-d87": "2409", "cn-d36": "2409", "cn-d57": "3612"},
                 plan=("move", "fight"), turn=6)
    if version:
        s = RULES.played_under(s, version)
    s = then(s, "japanese", "overrun 2409 with 2410", rolls=[1])
    return then(s, "japanese", "lose d3-r34 d3-r68 d3-r6")


def test_9_6_a_stack_whose_overrun_left_the_chinese_in_the_hex_overruns_again_or_stops():
    s = failed_overrun()
    assert {s.units[u].hex for u in D3} == {"2410"} and not s.pending and s.battle is None
    assert refusal(RULES, s, "japanese", "move 2410 to 2310") == (
        "SNC 9.6: jp-d3-r18, jp-d3-r34, jp-d3-r6, jp-d3-r68 attempted an overrun that left Chinese units in the hex: "
        "another overrun, or a stop in 2410, not a move")
    assert not _orders(s, "move")
    assert _orders(s, "overrun")[0] == "overrun 2409 with jp-d3-r6 jp-d3-r18 jp-d3-r34 jp-d3-r68"
    s = then(s, "japanese", "overrun 2409 with 2410", rolls=[6])  # 12 (one 4, three 2) vs 10, 1:2 -> 1/1
    assert s.pending[0]["kind"] == "losses"


def test_9_6_the_survivors_of_an_overrun_that_cleared_the_hex_go_on_regardless_of_their_losses():
    # four reduced regiments (8) overrun a lone brigade in 2409: 8:1, 1L, on 6:1; a 1 gives 1/2
    s = position({**{u: "2410" for u in D3}, "cn-b45": "2409", "cn-d57": "3612"}, plan=("move", "fight"), turn=6,
                 steps={u: 1 for u in D3})
    s = then(s, "japanese", "overrun 2409 with 2410", rolls=[1])
    s = then(s, "japanese", "lose d3-r6")
    assert s.units["jp-d3-r6"].status == "dead" and {s.units[u].hex for u in D3[1:]} == {"2409"}
    assert refusal(RULES, s, "japanese", "move 2409 to 2309") is None
    assert any(o.startswith("move jp-d3-r18 jp-d3-r34 jp-d3-r68 to ") for o in _orders(s, "move"))
    s = then(s, "japanese", "move d3-r68 d3-r34 d3-r18 to 2309")
    assert {s.units[u].hex for u in D3[1:]} == {"2309"} and not any(s.units[u].done for u in D3[1:])


def test_9_6_survivors_of_an_overrun_that_failed_and_cost_a_unit_may_overrun_again():
    s = position({**{u: "2410" for u in D3}, "cn-d87": "2409", "cn-d36": "2409", "cn-d57": "3612"},
                 plan=("move", "fight"), turn=6, steps={u: 1 for u in D3})  # 8 vs 10: 1:2, 1L -> 1:3; a 1: 3/0
    s = then(s, "japanese", "overrun 2409 with 2410", rolls=[1])
    s = then(s, "japanese", "lose d3-r6 d3-r18 d3-r34")
    assert [u for u in D3 if s.units[u].status == "map"] == ["jp-d3-r68"]
    assert refusal(RULES, s, "japanese", "overrun 2409 with 2410") is None
    assert _orders(s, "overrun")[0] == "overrun 2409 with jp-d3-r68"


def test_9_0_a_stack_under_way_goes_on_named_by_its_hex_or_its_ids_in_any_order():
    s = position({"jp-d3-r6": "2410", "jp-d3-r18": "2410", "cn-d57": "3612"}, plan=("move", "fight"), turn=6)
    s = then(s, "japanese", "move d3-r6 d3-r18 to 2310")
    for order in ("move 2310 to 2210", "move d3-r18 d3-r6 to 2210"):
        assert refusal(RULES, s, "japanese", order) is None
    s = then(s, "japanese", "move 2310 to 2210")
    assert {s.units[u].hex for u in ("jp-d3-r6", "jp-d3-r18")} == {"2210"}
    assert s.units["jp-d3-r6"].mp_used == s.units["jp-d3-r18"].mp_used and not s.units["jp-d3-r6"].done


def test_e21_a_game_created_under_version_9_decides_these_as_played():
    assert refusal(RULES, failed_overrun("9"), "japanese", "move 2410 to 2310") is None
    s = RULES.played_under(position({"jp-d3-r6": "2410", "jp-d3-r18": "2410", "cn-d57": "3612"},
                                    plan=("move", "fight"), turn=6), "9")
    s = then(s, "japanese", "move d3-r6 d3-r18 to 2310")
    assert refusal(RULES, s, "japanese", "move 2310 to 2210") == (
        "SNC 9.0: a unit that has moved goes on only with the stack it moved with, before any other unit moves")


def elite_returning(version: str | None = None):
    """GT 9's Chinese Reinforcement Phase (no reinforcement listed, so no interdiction, 11.2): the elite 87th
    Division returns (8.1) while a Japanese regiment stands at 0103, next to Nanking."""
    s = position({"jp-d16-r9": "0103", "cn-gar-nanking": "0202", "cn-d57": "3612"}, turn=9, side="chinese",
                 phase="reinf")
    s = replace(s, units={**s.units, "cn-d87": replace(s.units["cn-d87"], status="returning", return_turn=9, steps=1,
                                                         hex=None)})
    return RULES.played_under(s, version) if version else s


def test_8_1_a_returning_elite_is_placed_in_or_next_to_nanking_even_next_to_a_japanese_unit():
    s = elite_returning()
    places = [o["order"] for o in RULES.legal_orders(s, "chinese") if o["action"] == "place"]
    assert {"place cn-d87 at 0202", "place cn-d87 at 0203"} <= set(places) and "place cn-d87 at 0103" not in places
    assert refusal(RULES, s, "chinese", "place d87 at 0103") == "SNC 8.1: 0103 is occupied by Japanese units"
    s = then(s, "chinese", "place d87 at 0202")
    assert (s.units["cn-d87"].hex, s.units["cn-d87"].steps) == ("0202", 1)


def test_e22_a_game_created_under_version_9_keeps_the_returning_elite_away_from_the_japanese_as_played():
    assert refusal(RULES, elite_returning("9"), "chinese", "place d87 at 0202") == \
        "SNC 8.2: Chinese reinforcements may not be placed adjacent to a Japanese unit (0202)"
