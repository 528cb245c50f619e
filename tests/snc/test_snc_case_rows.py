"""Rows of docs/cases/snc.md whose mapped tests passed with the row's own code broken (issue 30's per-case mutation
report, `bench/mutation.py --cases`): each test here holds its row's rule where a player would notice it."""
from snc_given import position, then

from app.rules.snc import GAME as RULES


def test_11_3_the_chinese_player_is_told_the_air_marker_may_be_intercepted_and_what_each_die_does():
    s = then(position({"jp-d11-r12": "2706", "cn-d58": "2606"}, turn=7), "japanese",
             "attack 2606 with d11-r12 support air")
    prompt = RULES.prompt(s)
    assert prompt.side == "chinese"
    assert prompt.owed.what == ("the Japanese air marker supports this attack: intercept it with the Chinese air "
                                "force, or pass (SNC 11.3: a 6 aborts the marker, a 1 loses the Chinese air force)")
    assert prompt.owed.where == "2606"
