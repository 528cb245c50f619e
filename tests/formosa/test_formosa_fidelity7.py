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


def _counterattack_with_a_bystander(version: int):
    """The CF-7 attack (9 against a guerrilla in a peak, die 1: CA) made by us-1mar-1 and us-7-17 out of a hex that
    also holds us-7-32, which attacked earlier this phase (it advanced there) and so takes no part in this one."""
    from dataclasses import replace

    from formosa_given import when

    from app.rules.formosa.events import CombatResolved

    peak, around = ring("peak")
    state = given(units={"us-1mar-1": around[0], "us-7-17": around[0], "us-7-32": around[0],
                         "jp-guerrilla-1": peak})
    state = replace(state.with_units(replace(state.units["us-7-32"], attacked=True)),
                    attacked_hexes=("0101",), rules_version=version)
    events = when(state, "allied", f"attack {peak} with us-1mar-1 us-7-17", [1, 6])
    first, counter = [e for e in events if isinstance(e, CombatResolved)]
    return first, counter, events


def test_15_6_the_counterattack_falls_on_the_former_attackers_of_its_hex_only_f123():
    """15.6: "the former attackers (in that one hex)" are the defenders: us-7-32, which did not make the attack,
    neither adds its factors to the defence nor is a defender (ruling F123, rules version 12)."""
    first, counter, _ = _counterattack_with_a_bystander(12)
    assert (first.code, first.attack) == ("CA", 9)
    assert counter.counterattack and counter.defenders == ["us-1mar-1", "us-7-17"]
    assert counter.defence == G.unit("us-1mar-1").cf + G.unit("us-7-17").cf  # 9, not 9 + us-7-32's
    assert counter.column == "50-99%"


def test_15_6_a_game_created_under_rules_11_counterattacks_the_whole_hex_as_played_f123():
    _, counter, _ = _counterattack_with_a_bystander(11)
    assert "us-7-32" in counter.defenders
    assert counter.defence == sum(G.unit(u).cf for u in ("us-1mar-1", "us-7-17", "us-7-32"))
