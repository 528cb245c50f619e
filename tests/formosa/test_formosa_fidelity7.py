"""Issue 30, the rulebook walked again (part 7): worked examples and boundaries no test held."""
from __future__ import annotations

from formosa_given import given
from formosa_map import ring

from app.rules.formosa import GAME
from app.rules.kernel.preview import preview_attack

G = GAME.data({})


def test_15_2_three_against_two_is_150_percent_on_the_column_that_holds_150_cf_d5():
    """15.2 steps 4-5 (catalog CF-D5): 3 against 2 is 150%, read on the column containing 150 (the 100-199% band of
    ruling F2) on both tables, and through an attack order the preview says the same."""
    for nationality in ("us", "japanese"):
        p = preview_attack(G.crt(nationality), 3, 2, ())
        assert (int(p.odds.value), p.column_label) == (150, "100-199%")
    x, around = ring("open")
    state = given(units={"us-7-17": around[0], "jp-9-7": x})
    attack, defence = G.unit("us-7-17").cf, G.unit("jp-9-7").cf
    shown = GAME.preview(state, GAME.parse(f"attack {x} with us-7-17", "allied", state))
    assert shown["percent"] == 100 * attack // defence
