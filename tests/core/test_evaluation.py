"""The strong opponent's evaluation of a position (app/rules/evaluation.py): an ended game is worth 1 or -1, any
other position less, the two sides' values opposite; a position with no unit on the map yet (Formosa's set-up)
is even, not an error."""
from __future__ import annotations

import pytest

from app.rules import evaluation
from app.rules.catalog import installed
from app.rules.snc import victory

CATALOG = installed()  # the rule sets installed here


@pytest.mark.parametrize("game, scenario", [("skirmish", "standard"), ("snc", "campaign"), ("ichigo", "campaign"),
                                            ("formosa", "1"), ("daisenso", "strait"), ("olympic", "solitaire")])
def test_a_starting_position_is_worth_less_than_a_win_and_the_same_to_both_sides_opposite(game, scenario):
    rules = CATALOG.rules(game)
    state = rules.initial_state(scenario, {})
    first, second = (evaluation.value(rules, state, side) for side in rules.sides)
    assert -evaluation.CAP <= first <= evaluation.CAP and first == pytest.approx(-second)
    if game == "formosa":
        assert first == 0  # nobody on the map yet


def test_an_ended_game_is_worth_one_to_the_winner():
    rules = CATALOG.rules("skirmish")
    state = rules.initial_state("standard", {})
    won = type(state)(**{**state.__dict__, "step": "over", "winner": "red", "reason": "test"})
    assert rules.outcome(won).winner == "red"
    assert evaluation.value(rules, won, "red") == 1 and evaluation.value(rules, won, "blue") == -1


def _moved(state, unit_id: str, hex_label: str | None):
    """`state` with one unit moved (None: taken off the map), as a sample of a position might differ."""
    from dataclasses import replace

    unit = state.units[unit_id]
    moved = replace(unit, hex=hex_label, status="map" if hex_label else "dead")
    return replace(state, units={**state.units, unit_id: moved})


def test_snc_chinese_strength_leaving_the_shanghai_ring_is_worse_for_them_before_gt_8():
    """SNC 4.2: through GT 5 the Chinese lose when no unit of theirs is in or next to 3512; the evaluation of
    edition 3 sees a Chinese unit taken out of that ring as a loss for them, edition 2 saw only the material."""
    rules = CATALOG.rules("snc")
    state = rules.initial_state("campaign", {})
    ring = {"3512", *state.data.map.neighbour_labels("3512")}
    inside = [u for u in state.on_map("chinese") if u.hex in ring]
    assert len(inside) >= 2
    away = _moved(state, inside[0].id, "0202")  # the same unit, on the map, far from Shanghai
    assert rules.stakes(away, "chinese") < rules.stakes(state, "chinese")
    assert rules.stakes(away, "japanese") == pytest.approx(-rules.stakes(away, "chinese"))
    assert evaluation.value(rules, away, "chinese") < evaluation.value(rules, state, "chinese")


def test_snc_from_edition_4_the_ring_held_in_one_hex_is_one_attack_from_defeat():
    """SNC 4.2: through GT 5 the Japanese win the moment no Chinese unit is in or next to 3512, so the same
    Chinese strength in one hex of that ring (one attack clears it) is worse for them than spread over several.
    Edition 4's stakes see it; edition 3's read the strength alone, as the stored games were played."""
    rules = CATALOG.rules("snc")
    state = rules.initial_state("campaign", {})
    ring = {"3512", *state.data.map.neighbour_labels("3512")}
    inside = [u for u in state.on_map("chinese") if u.hex in ring]
    assert len({u.hex for u in inside}) >= 3
    one = state
    for u in inside:
        one = _moved(one, u.id, inside[0].hex)
    assert rules.stakes(one, "chinese", edition=3) == pytest.approx(rules.stakes(state, "chinese", edition=3))
    assert rules.stakes(one, "chinese", edition=4) < rules.stakes(state, "chinese", edition=4)
    assert rules.stakes(one, "japanese", edition=4) == pytest.approx(-rules.stakes(one, "chinese", edition=4))
    assert evaluation.value(rules, one, "chinese") < evaluation.value(rules, state, "chinese")


def test_ichigo_a_japanese_unit_nearer_chungking_counts_toward_the_4_2_award():
    """Ichi-Go 4.2: a Japanese unit within five hexes of Chungking scores a VP at the end; a unit brought
    nearer raises the Japanese stakes, and the Allies' fall by as much."""
    rules = CATALOG.rules("ichigo")
    state = rules.initial_state("campaign", {})
    unit = state.on_map("japanese")[0]
    near = _moved(state, unit.id, "0912")  # two hexes from Chungking (0712)
    assert rules.stakes(near, "japanese") > rules.stakes(state, "japanese")
    assert rules.stakes(near, "allied") == pytest.approx(-rules.stakes(near, "japanese"))


def test_edition_2_reads_no_stakes():
    """A search seat of edition 2 re-decides its stored orders with the evaluation it played by."""
    rules = CATALOG.rules("snc")
    state = rules.initial_state("campaign", {})
    found = evaluation.features(rules, state, "chinese")
    plain = evaluation.CAP * sum(evaluation.WEIGHTS[k] * found[k] for k in evaluation.WEIGHTS)
    assert evaluation.value(rules, state, "chinese", edition=2) == pytest.approx(plain)
    assert evaluation.value(rules, state, "chinese") != pytest.approx(plain)


def test_snc_from_edition_5_cities_short_as_the_game_ends_read_as_all_but_lost():
    """SNC 4.3: the Japanese win only by holding every city at a Victory Check by GT 12's. Five cities short at
    the start of GT 12 they can hardly win; edition 5 reads that (the cities against the Game-Turns left, and the
    stakes weighing more as the end nears), edition 4 read the cities held alone, the same on GT 1 as on GT 12
    (+0.30 for the Chinese; the chances' playouts found the 4.3 loss every time)."""
    from dataclasses import replace

    rules = CATALOG.rules("snc")
    start = rules.initial_state("campaign", {})
    last = replace(start, turn=12)
    assert rules.stakes(last, "chinese", edition=4) < rules.stakes(start, "chinese", edition=4)
    assert rules.stakes(last, "chinese", edition=5) > rules.stakes(start, "chinese", edition=5)
    assert rules.stakes(last, "japanese", edition=5) == pytest.approx(-rules.stakes(last, "chinese", edition=5))
    assert evaluation.value(rules, last, "chinese", edition=5) > 0.6 > evaluation.value(rules, last, "chinese",
                                                                                            edition=4)


def test_snc_from_edition_5_a_japanese_unit_nearer_a_city_they_lack_counts():
    """SNC 4.3 by the time left: from GT 8 (the ring no longer counts) a Japanese unit brought next to a city they
    lack raises their stakes in edition 5, which counts a city short less the nearer a unit of theirs stands;
    edition 4 read only the cities held, so marching on one was worth nothing there until it fell."""
    from dataclasses import replace

    rules = CATALOG.rules("snc")
    unit = rules.initial_state("campaign", {}).on_map("japanese")[0]
    for turn in (8, 11):
        there = replace(rules.initial_state("campaign", {}), turn=turn)
        near = _moved(there, unit.id, "2411")  # next to 2410, a city the Japanese lack
        assert rules.stakes(near, "japanese", edition=5) > rules.stakes(there, "japanese", edition=5)
        assert rules.stakes(near, "japanese", edition=4) == pytest.approx(rules.stakes(there, "japanese", edition=4))


def _ring_after(moves: dict):
    rules = CATALOG.rules("snc")
    state = rules.initial_state("campaign", {})
    for unit_id, hex_label in moves.items():
        state = _moved(state, unit_id, hex_label)
    return rules, state


def test_snc_from_edition_7_a_chinese_unit_near_an_empty_ring_hex_counts_as_what_can_fill_it():
    """SNC 4.2: a ring hex emptied can be filled again by the Chinese units near it; from edition 7 a unit two hexes
    from the empty 3513 reads better than the same unit at 0202, where edition 6 read both alike (outside the ring,
    nothing counted it)."""
    rules, state = _ring_after({})
    ring = {"3512", *state.data.map.neighbour_labels("3512")}
    spare = next(u for u in state.on_map("chinese") if u.hex == "0202")
    near = next(h for h in sorted(state.data.map.neighbour_labels("3513")) if h not in ring
                and not state.occupied("japanese") & {h})
    _, close = _ring_after({spare.id: near})
    assert rules.stakes(close, "chinese", edition=6) == pytest.approx(rules.stakes(state, "chinese", edition=6))
    assert rules.stakes(close, "chinese", edition=7) > rules.stakes(state, "chinese", edition=7)


def test_snc_from_edition_7_a_ring_hex_left_weak_next_to_the_japanese_counts_less():
    """SNC 4.2 and 10.0: greedy's Japanese attack at 3:2 or better and one attack clears a hex; from edition 7 the
    ring hex 3411 left with one 1-factor unit beside Shanghai's six Japanese factors reads worse than held by its
    two 5-factor units, the hexes held being the same (edition 6 counted the hexes alone, beside the strength)."""
    rules, state = _ring_after({})
    strong = [u for u in state.on_map("chinese") if u.hex == "3411"]
    weak = next(u for u in state.on_map("chinese") if u.hex == "2604" and u.cf == 1)
    _, thin = _ring_after({**{u.id: "0202" for u in strong}, weak.id: "3411"})
    ring = {"3512", *state.data.map.neighbour_labels("3512")}
    assert victory._ring_hexes(thin, ring) == victory._ring_hexes(state, ring)
    assert victory._ring_in_depth(thin, ring) < victory._ring_in_depth(state, ring)
