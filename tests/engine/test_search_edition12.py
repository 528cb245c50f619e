"""Search edition 12 (app/rules/search.py `SECURE_SINCE`; practice.EDITION 12): the order played is the one whose
playouts' mean less its standard error is highest (of those with `SECURE_AT` playouts or more), not the most
visited. Where the means lie close PUCT gives the visits by the prior: SNC s3's Chinese attacked Shanghai out of
the ring over `end`, and here Across the Strait's axis ends its last Combat Phase (every playout lost) rather than
counterattack Taihoku. Seats of edition 11 and older choose as played (tests/rules/test_pinned_decisions.py)."""
from __future__ import annotations

from app.events.dice import SeededDice
from app.rules import practice, search
from app.rules.catalog import installed

DAISENSO = installed().rules("daisenso")
# Across the Strait, dice seed s1 (bench/opponents.py): greedy's allies attack Taihoku twice and advance into it;
# the axis's last Combat Phase is next, with its 10th army next to Taihoku
PLAYED = [("allied", "attack w4324 with us-10-army us-3-mac us-6-mar hq us-hq-pac"),
          ("allied", "lose us-3-mac as us-marine"), ("axis", "lose jp-9-div"), ("allied", "next"),
          ("allied", "attack w4324 with us-10-army us-3-mac.1 us-6-mar hq us-hq-pac"), ("allied", "advance us-10-army"),
          ("allied", "advance us-6-mar"), ("allied", "advance us-3-mac.1"), ("allied", "next"), ("allied", "next")]


def _last_phase():
    state = DAISENSO.initial_state("strait", {})
    dice = SeededDice(next_index=0, seed="s1", game_id="bench-daisenso")
    for side, text in PLAYED:
        for event in DAISENSO.decide(state, DAISENSO.parse(text, side, state), dice):
            state = DAISENSO.evolve(state, event)
    return state


def test_from_edition_12_the_axis_counterattacks_where_ending_loses_every_playout():
    state = _last_phase()
    assert DAISENSO.prompt(state).side == "axis"
    listed = {item["order"] for item in DAISENSO.legal_orders(state, "axis")}
    assert {"next", "attack w4324 with jp-10-army"} <= listed
    played, why = practice.choose(DAISENSO, "search", state, "axis", {"edition": 11, "playouts": 40}, 1)
    assert played == "next" and why["rule"] == "most playouts"  # the prior's visits
    name, settings = practice.parse_spec(DAISENSO, "search:40")  # a seat created now
    chosen, reason = practice.choose(DAISENSO, name, state, "axis", settings, 1)
    assert chosen == "attack w4324 with jp-10-army" and reason["rule"] == "best sure value"
    assert reason["value"] > -1.0  # ending the phase is lost whatever the dice: the attack keeps a reading above it


def test_an_order_tried_fewer_than_four_times_is_not_chosen_on_its_mean():
    node = search.Node()
    node.n, node.total, node.squares = {"a": 3, "b": 40}, {"a": 2.7, "b": -4.0}, {"a": 2.43, "b": 0.4}
    assert node.secure("a") == float("-inf")
    assert abs(node.secure("b") - (-0.1)) < 1e-9  # every value -0.1: no spread
