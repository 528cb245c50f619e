"""The hexes a move is tried to (Ichi-Go's list of legal orders: every land hex within two hexes of a unit) are found
once a map and hex (CI time, docs/benchmarks.md): each is the answer a fresh reading of that game's own map gives,
the printed map's and a custom map's alike, asked in any order, and the move orders listed are the same."""
from __future__ import annotations

from app.events.dice import SeededDice
from app.rules.ichigo import GAME as ICHIGO
from app.rules.ichigo import sequence
from app.rules.ichigo.data_load import load
from tests.ichigo.test_ichigo_answers_kept import CUSTOM, fresh_land


def fresh(gmap, start: str) -> tuple[str, ...]:
    one = {n for n in gmap.neighbour_labels(start) if fresh_land(gmap, n)}
    two = one | {m for n in one for m in gmap.neighbour_labels(n) if fresh_land(gmap, m)}
    return tuple(sorted(two - {start}))


def test_each_maps_destinations_are_its_own_for_every_hex():
    printed, custom = load(), load({"map": CUSTOM})
    labels = [str(h) for h in printed.map.hexes() if printed.land(str(h))]
    for data in (printed, custom, printed):
        for label in labels:
            if data.land(label):
                assert sequence._within_two(data, label) == fresh(data.map, label), label
    # Taihu (2906) is a lake on the printed map and land on the custom one: a move from 2806 may end there on it
    assert "2906" not in sequence._within_two(printed, "2806") and "2906" in sequence._within_two(custom, "2806")


def test_the_move_orders_listed_are_those_of_a_fresh_reading():
    state = ICHIGO.initial_state("campaign", {})
    dice = SeededDice(next_index=0, seed="moves", game_id="g")
    for _ in range(80):  # the set-up, to the first movement phase
        side = ICHIGO.prompt(state).side
        listed = list(sequence._move_candidates(state, side))
        if listed:
            break
        text = ICHIGO.legal_orders(state, side)[0]["order"]
        for event in ICHIGO.decide(state, ICHIGO.parse(text, side, state), dice):
            state = ICHIGO.evolve(state, event)
    by_unit: dict[tuple, list[str]] = {}
    for c in listed:
        by_unit.setdefault(tuple(c["units"]), []).append(c["to"])
    assert len(by_unit) > 5
    for units, dests in by_unit.items():
        assert tuple(dests) == fresh(state.data.map, state.units[units[0]].hex), units
