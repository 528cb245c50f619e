"""What SNC keeps between the positions it is asked about (CI time, bench/whole_games.py): SNC 6.2's answer for a
stack, kept by the hex and what the limits read of each unit there (its side, stacking class and formation), and
the units on the map, kept by position. Each answer is the one a fresh reading of the position gives, whatever was
asked before it."""
from __future__ import annotations

from dataclasses import replace

from snc_given import position

from app.rules.kernel.hexgrid import Hex
from app.rules.kernel.stacking import StackingRules, StackLimit, overstacked
from app.rules.snc.combat import overstacked_hexes, stacking_violation

# (side, hex, units): stacks of one size that only a unit's side, stacking class or formation tells apart
STACKS = [
    ("japanese", "3601", ["jp-d3-r6", "jp-d3-r18", "jp-d3-r34", "jp-d3-r68", "jp-gar-a"]),  # 4 of one division
    ("japanese", "3601", ["jp-d3-r6", "jp-d3-r18", "jp-d3-r34", "jp-d6-r13", "jp-gar-a"]),  # 2 outside it
    ("japanese", "3601", ["jp-snlf-1", "jp-snlf-2", "jp-snlf-3", "jp-snlf-9", "jp-gar-a"]),  # the SNLF as one
    ("chinese", "3601", ["cn-d87", "cn-d36", "cn-gar-a"]),  # 3 division equivalents: the limit
    ("chinese", "3601", ["cn-d87", "cn-d36", "cn-b45"]),  # 3.5
    ("chinese", "3601", [f"cn-gar-{x}" for x in "abcdef"]),  # garrisons weigh nothing (ruling R13)
    ("japanese", "3601", ["jp-gar-shanghai", *(f"jp-gar-{x}" for x in "abcde")]),  # six Japanese units
    ("japanese", "3602", ["jp-d3-r6", "jp-d3-r18", "jp-d3-r34", "jp-d6-r13", "jp-gar-a"]),  # another hex
]


def _fresh(state, side: str, h: str, joining=()) -> str | None:
    """SNC 6.2 read from the position alone: the kernel's limits over the pieces standing there."""
    mf = state.data.params["game"]["mobile_mf"]
    units = [u for u in state.units.values() if u.on_map and u.hex == h and u.side == side and u.id not in joining]
    units += [state.units[u] for u in joining]
    found = overstacked([u.piece(mf) for u in units], state.data.stacking, Hex.parse(h))
    return "; ".join(str(v) for v in found) if found else None


def test_6_2_each_stack_gets_its_own_answer_whatever_was_asked_before():
    """Stacks of one hex and size, told apart only by formation (4 regiments of the 3rd Division and a garrison
    are within the Japanese limit, 3 and one of the 6th over it), by class (a regular brigade instead of a
    garrison puts the Chinese over 3 division equivalents) or by side (six garrisons): each answer is its own,
    asked in any order, and names its own hex."""
    positions = [position(dict.fromkeys(units, h)) for _, h, units in STACKS]
    asked = list(zip(STACKS, positions, strict=True))
    for (side, h, units), state in asked + asked[::-1] + asked:
        got = stacking_violation(state, side, h)
        assert got == _fresh(state, side, h), (side, h, units)
        assert overstacked_hexes(state, side) == ([(h, got)] if got else [])
    within, outside, snlf, limit, over, cn_gar, jp_gar, other_hex = (stacking_violation(state, s, h)
                                                                     for (s, h, _), state in asked)
    assert within is None and snlf is None and limit is None and cn_gar is None
    assert "outside formation 3rd Division" in outside and "3.5 stacked in 3601" in over
    assert "6 stacked in 3601, limit 5" in jp_gar and other_hex == outside.replace("3601", "3602")
    both = position({**dict.fromkeys(STACKS[1][2], "3601"), **dict.fromkeys(STACKS[4][2], "3602")})
    assert overstacked_hexes(both, "japanese") == [("3601", outside)]  # each side's own hexes, asked in turn
    assert overstacked_hexes(both, "chinese") == [("3602", over.replace("3601", "3602"))]
    assert overstacked_hexes(both, "japanese") == [("3601", outside)]


def test_6_2_each_game_s_limits_give_their_own_answers():
    """Two games' data, their limits apart (a game on a custom map keeps its own data): one stack, asked of each in
    turn, gets each one's answer."""
    state = position({"cn-d87": "3601", "cn-d36": "3601"})
    strict = replace(state.data, stacking=StackingRules(limits=(StackLimit(
        "SNC 6.2", side="chinese", max_total=1.0, label="Chinese division equivalents"),)))
    other = replace(state, data=strict)
    for _ in range(2):
        assert stacking_violation(state, "chinese", "3601") is None
        assert stacking_violation(other, "chinese", "3601") == _fresh(other, "chinese", "3601") is not None
        assert overstacked_hexes(replace(state), "chinese") == []


def test_6_2_a_unit_joining_a_stack_is_counted_as_it_stands():
    """The check of a unit moving or advancing in (`joining`): the stack with it, as the position would hold it;
    the same hex asked without it, or with another unit, gets its own answer."""
    state = position({"jp-d3-r6": "3601", "jp-d3-r18": "3601", "jp-d3-r34": "3601", "jp-gar-a": "3601",
                      "jp-d3-r68": "3602", "jp-d6-r13": "3603"})
    for joining in [(), ("jp-d3-r68",), ("jp-d6-r13",), ("jp-d3-r68", "jp-d6-r13"), ()]:
        assert stacking_violation(state, "japanese", "3601", joining) == _fresh(state, "japanese", "3601", joining)
    assert stacking_violation(state, "japanese", "3601", ("jp-d3-r68",)) is None
    assert "outside formation" in stacking_violation(state, "japanese", "3601", ("jp-d6-r13",))


def test_the_units_on_the_map_are_each_position_s_own():
    """`on_map` (each side's and both): a new list each call, of the position's own units, after a unit leaves the
    map in the next position; changing the list given changes nothing kept."""
    state = position({"jp-d3-r6": "3601", "cn-d87": "3602", "cn-d36": "3603"})
    first = state.on_map("chinese")
    assert {u.id for u in first} == {"cn-d87", "cn-d36"}
    first.clear()
    assert [u.id for u in state.on_map("chinese")] == [u.id for u in state.units.values()
                                                       if u.on_map and u.side == "chinese"]
    gone = replace(state, units={**state.units, "cn-d87": replace(state.units["cn-d87"], hex=None, status="dead")})
    assert [u.id for u in gone.on_map("chinese")] == ["cn-d36"]
    assert {u.id for u in gone.on_map()} == {"jp-d3-r6", "cn-d36"} and len(state.on_map()) == 3
    assert [u.id for u in state.on_map("japanese")] == ["jp-d3-r6"] == [u.id for u in gone.on_map("japanese")]


def test_a_counter_shows_as_its_unit_stands_in_each_position():
    """2.2.1, 6.3: a counter's strength and steps as shown are the unit's in that position (found once per unit);
    a view changed by its reader changes no later view."""
    from app.rules.snc.view import view

    full = position({"cn-d87": "3602", "jp-d3-r6": "3601"})
    reduced = replace(full, units={**full.units, "cn-d87": replace(full.units["cn-d87"], steps=1)})

    def shown(state):
        return next(u for u in view(state, "chinese")["units"] if u["id"] == "cn-d87")

    first = shown(full)
    assert (first["steps"], first["reduced"]) == (2, False)
    for stack in view(full, "chinese")["stacks"]:  # a reader changing the counters of its view
        for u in stack["units"]:
            u["strength"] = -1
    assert shown(full) == {**first, "strength": full.units["cn-d87"].cf}
    after = shown(reduced)
    assert (after["steps"], after["reduced"], after["strength"]) == (1, True, reduced.units["cn-d87"].cf)
    assert after["strength"] < full.units["cn-d87"].cf and shown(full)["steps"] == 2
