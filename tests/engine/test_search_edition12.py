"""Search edition 12 (app/rules/search.py `SECURE_SINCE`; practice.EDITION 12): the order played is the most
visited unless another, tried `SECURE_AT` times or more, reads better beyond both standard errors. Where the means
lie close PUCT gives the visits by the prior: SNC s3's Chinese attacked Shanghai out of the ring over `end`, and
here Across the Strait's axis ends its last Combat Phase (every playout lost) rather than counterattack Taihoku.
Seats of edition 11 and older choose as played (tests/rules/test_pinned_decisions.py)."""
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
    assert chosen == "attack w4324 with jp-10-army" and reason["rule"] == "better beyond the errors"
    assert reason["value"] > -1.0  # ending the phase is lost whatever the dice: the attack keeps a reading above it


def _node(stats: dict[str, list[float]]) -> search.Node:
    node = search.Node()
    node.n = {arm: len(values) for arm, values in stats.items()}
    node.total = {arm: sum(values) for arm, values in stats.items()}
    node.squares = {arm: sum(v * v for v in values) for arm, values in stats.items()}
    return node


def test_the_most_visited_is_kept_unless_another_reads_better_beyond_both_errors():
    flat = _node({"end": [-0.9] * 30, "stop": [-0.896] * 6})  # all lost alike (within 0.005): the prior's kept
    assert flat.better(["end", "stop"]) == ["end", "stop"]
    few = _node({"end": [-0.5] * 30, "attack": [1.0] * 3})  # three playouts: too few to read
    assert few.better(["end", "attack"]) == ["end", "attack"]
    noisy = _node({"attack": [-0.2, 0.2] * 20, "end": [-0.3, 0.3] * 5 + [0.1]})  # within the errors
    assert noisy.better(["attack", "end"])[0] == "attack"
    clear = _node({"attack": [-0.1, -0.08] * 80, "end": [-0.07, -0.06] * 50})
    assert clear.better(["attack", "end"]) == ["end", "attack"]
