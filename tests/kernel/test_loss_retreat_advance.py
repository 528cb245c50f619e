"""Kernel loss rules in precedence (SNC 10.5.2), a retreat with no priorities (SNC 8.4 2)) and an advance
from off the map (SNC 8.4.1). Unit ids and strengths are synthetic; each test names the case it follows."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.rules.kernel.advance import check_advance
from app.rules.kernel.errors import RuleViolation
from app.rules.kernel.hexgrid import Grid, Hex
from app.rules.kernel.results import (
    apply_step_losses,
    forced_allocation,
    in_order,
    last,
    loss_options,
    reduce_before_eliminate,
    strongest_first,
)
from app.rules.kernel.retreat import RetreatState, retreat_options

GRID = Grid("even-low", cols=(1, 39), rows=(1, 25))
H = Hex.parse

# (full strength, reduced strength); a one-step unit has only the first
STRENGTH = {"reg": (4, 2), "reg2": (4, 2), "det": (3,), "snlf": (2, 1), "gar": (2,), "big": (6,)}


def strength(unit: str, steps: int) -> int:
    values = STRENGTH[unit]
    return values[0] if steps >= len(values) else values[1]


SNC_10_5_2 = in_order(last(lambda u: u == "gar"), reduce_before_eliminate(), strongest_first(strength))


def test_snc_10_5_2_garrison_last_then_reduce_before_eliminate_then_strongest():
    force = {"gar": 1, "snlf": 1, "reg": 2}
    assert loss_options(force, SNC_10_5_2) == ("reg",)  # the only two-step unit
    assert loss_options({**force, "reg": 1}, SNC_10_5_2) == ("reg",)  # 2 against the SNLF's 1
    assert loss_options({**force, "reg": 0}, SNC_10_5_2) == ("snlf",)  # the garrison (2) goes last
    assert loss_options({"gar": 1, "snlf": 0, "reg": 0}, SNC_10_5_2) == ("gar",)


def test_snc_10_5_2_a_later_rule_only_chooses_among_what_the_earlier_ones_allow():
    # the strong one-step unit waits for the weaker two-step one: rule 1) before rule 2)
    force = {"big": 1, "snlf": 2}
    assert loss_options(force, SNC_10_5_2) == ("snlf",)
    # every rule on the whole force at once would leave no unit at all
    both = [reduce_before_eliminate(), strongest_first(strength)]
    assert [u for u in force if all(c(u, force) is None for c in both)] == []
    with pytest.raises(RuleViolation, match="SNC 10.5.2: big may not lose this step; next must be one of snlf"):
        apply_step_losses(force, 1, ["big"], "SNC 10.5.2", SNC_10_5_2)


def test_snc_10_5_2_ties_are_the_owners_choice_and_forced_allocations_are_found():
    assert loss_options({"reg": 2, "reg2": 2, "snlf": 2}, SNC_10_5_2) == ("reg", "reg2")
    assert forced_allocation({"reg": 2, "reg2": 2}, 1, SNC_10_5_2) is None
    # reg reduced to 2 is then weaker than the detachment's 3
    assert forced_allocation({"reg": 2, "det": 1}, 3, SNC_10_5_2) == ["reg", "det", "reg"]
    assert forced_allocation({"reg": 2, "det": 1}, 9, SNC_10_5_2) == ["reg", "det", "reg"]  # no more than present
    assert forced_allocation({"reg": 2, "det": 1}, 0, SNC_10_5_2) == []


@given(st.dictionaries(st.sampled_from(sorted(STRENGTH)), st.integers(0, 2), min_size=1),
       st.integers(0, 8), st.randoms(use_true_random=False))
def test_property_in_order_always_leaves_a_unit_while_any_has_a_step(force, losses, rnd):
    force = {u: min(s, len(STRENGTH[u])) for u, s in force.items()}
    steps = dict(force)
    allocation = []
    for _ in range(min(losses, sum(steps.values()))):
        options = loss_options(steps, SNC_10_5_2)
        assert options
        pick = rnd.choice(options)
        allocation.append(pick)
        steps[pick] -= 1
    out = apply_step_losses(force, losses, allocation, "SNC 10.5.2", SNC_10_5_2)
    assert dict(out.steps) == steps
    forced = forced_allocation(force, losses, SNC_10_5_2)
    if forced is not None:
        assert apply_step_losses(force, losses, forced, "SNC 10.5.2", SNC_10_5_2).lost == len(forced)


def test_snc_8_4_2_a_one_hex_retreat_with_no_priority_offers_every_allowed_neighbour():
    japanese = {H("3409")}
    level, options = retreat_options(GRID, RetreatState(H("3510")), lambda a, b, s: b not in japanese)
    assert level == 0 and options == [h for h in GRID.neighbours(H("3510")) if h not in japanese]
    assert retreat_options(GRID, RetreatState(H("3510")), lambda a, b, s: False) == (None, [])


def test_snc_8_4_1_an_advance_from_off_the_map_starts_in_the_landing_hex_then_steps_to_a_neighbour():
    landing, water = H("3417"), {H("3418")}

    def enterable(h, prev):
        return h not in water

    assert check_advance(GRID, None, [landing, H("3317")], {landing}, 2, enterable, "SNC 8.4.1") == (landing, H("3317"))
    with pytest.raises(RuleViolation, match="SNC 8.4.1: 3315 is not adjacent to 3417"):
        check_advance(GRID, None, [landing, H("3315")], {landing}, 2, enterable, "SNC 8.4.1")
    with pytest.raises(RuleViolation, match="SNC 8.4.1: 3418 cannot be entered from 3417"):
        check_advance(GRID, None, [landing, H("3418")], {landing}, 2, enterable, "SNC 8.4.1")
    with pytest.raises(RuleViolation, match=r"cleared defending hex first \(3417\); 3317 is not one"):
        check_advance(GRID, None, [H("3317")], {landing}, 2, enterable, "SNC 8.4.1")
