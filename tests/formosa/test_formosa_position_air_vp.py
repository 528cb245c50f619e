"""Issue 30 "positions that can say everything": a Formosa position in the middle of a Combat Phase holds the
ground support still waiting for its combat (16.3, `[support]`), and a position of a game with the PW Camp holds the
victory points it earned in play (25.10, `[vp]`); each is played, and a state the rules forbid is refused naming its
case (docs/custom-positions.md)."""
from __future__ import annotations

import pytest
from formosa_map import ring

from app.rules.custom_setup import SetupError
from app.rules.formosa import GAME

X, AROUND = ring("open")
Y = next(h for h in AROUND if h not in (AROUND[0],))


def combat(**extra) -> dict:
    """The Allied Combat Phase of GT 4: the 17th Infantry next to 1013-like X, the 27th's attack on Y made, two
    tactical points assigned in the plan."""
    base = {"turn": 4, "phase": "allied-combat", "revealed": ["jp-9-7", "jp-9-19"],
            "units": {"us-7-17": AROUND[0], "jp-9-7": X, "us-27-105": AROUND[2], "jp-9-19": AROUND[1]},
            "air": {"allied-tac": 4}, "missions": {"allied": {"tactical": 2}},
            "attacked": ["us-27-105"], "attacked_hexes": [AROUND[1]]}
    return {**base, **extra}


def test_16_3_a_position_in_the_middle_of_a_combat_phase_holds_its_waiting_ground_support_and_it_flies():
    """16.3: support is placed before any attack, so a position past the first attack could not place it; the
    position says it, and the attack on that hex gets its shifts (one a point), the points flying once."""
    state = GAME.initial_state("1", {"position": combat(support={X: 2})})
    assert state.strike.support == (("allied", X, "us", 2),)
    shown = GAME.preview(state, GAME.parse(f"attack {X} with us-7-17", "allied", state))
    assert {"amount": 2, "case": "Formosa 16.3", "reason": "ground support"} in shown["shifts"]
    without = GAME.initial_state("1", {"position": combat()})
    bare = GAME.preview(without, GAME.parse(f"attack {X} with us-7-17", "allied", without))
    assert not [s for s in bare["shifts"] if s["case"] == "Formosa 16.3"]


@pytest.mark.parametrize("change, says", [
    ({"support": {"X": 3}}, "1 to 2 air points in a hex"),
    ({"support": {"X": 2}, "missions": {"allied": {"tactical": 1}}}, "2 points placed but 1 were assigned"),
    ({"support": {"X": {"cw": 1}}}, "0 were assigned"),
    ({"support": {"Y": 1}}, "has been attacked this phase"),
    ({"support": {"E": 1}}, "next to allied units (16.3)"),
    ({"support": {"X": 1}, "phase": "allied-movement", "attacked": [], "attacked_hexes": []},
     "placed at the start of a Combat Phase"),
])
def test_16_3_a_position_s_ground_support_is_refused_where_the_rules_could_not_have_placed_it(change, says):
    names = {"X": X, "Y": AROUND[1], "E": AROUND[5]}
    if "support" in change:
        change = {**change, "support": {names[k]: v for k, v in change["support"].items()}}
    with pytest.raises(SetupError) as err:
        GAME.initial_state("1", {"position": combat(**change)})
    assert says in str(err.value)


def test_25_10_a_position_holds_the_pw_camp_s_victory_points_and_the_end_counts_them():
    """25.10: the Allies took the camp's hex (5 VP) on an earlier GT; the end of the game counts them with the
    rest; the Japanese 5 VP of a B-29 strike likewise. Only the camp earns VP in play, once, off the map."""
    from formosa_given import of, when

    from app.rules.formosa.events import VictoryCounted

    options = {"optional": ["25.10"]}
    late = {"turn": 13, "phase": "japanese-combat", "units": {"us-7-17": X}, "removed": ["jp-pw-camp"]}
    taken = GAME.initial_state("1", {**options, "position": {**late, "vp": {"allied": 5}}})
    assert taken.vp_adjust == {"allied": 5}
    [counted] = of(when(taken, "japanese", "end"), VictoryCounted)  # the last GT ends: 4.2
    assert counted.detail["allied"] == {"optional rules in play (25.10)": 5} and counted.allied == 5
    bombed = GAME.initial_state("1", {**options, "position": {**late, "vp": {"japanese": 5}}})
    [counted] = of(when(bombed, "japanese", "end"), VictoryCounted)
    assert counted.detail["japanese"] == {"optional rules in play (25.10)": 5} and counted.japanese == 5
    for vp, says in (({"allied": 5}, "chosen with --optional"),):
        with pytest.raises(SetupError) as err:
            GAME.initial_state("1", {"position": {**late, "removed": [], "vp": vp}})
        assert says in str(err.value)
    for vp, says in (({"allied": 5, "japanese": 5}, "once (25.10)"), ({"allied": 3}, "once (25.10)")):
        with pytest.raises(SetupError) as err:
            GAME.initial_state("1", {**options, "position": {**late, "vp": vp}})
        assert says in str(err.value)
    town = next(h for h in sorted(GAME.data(options).map.hexes_with("town"))
                if "city" not in GAME.data(options).map.features_of(h))
    with pytest.raises(SetupError) as err:
        GAME.initial_state("1", {**options, "position": {**late, "removed": [],
                                                         "units": {"us-7-17": X, "jp-pw-camp": str(town)},
                                                         "vp": {"allied": 5}}})
    assert "off the map" in str(err.value)


def test_16_3_25_10_the_documented_positions_with_support_and_vp_play_on():
    from formosa_given import documented_position, of, when

    from app.rules.formosa.events import CombatResolved, VictoryCounted

    state = GAME.initial_state("1", {"position": documented_position(4)})
    [fought] = of(when(state, "allied", "attack 1013 with us-7-17", [3]), CombatResolved)
    assert {"amount": 2, "case": "Formosa 16.3", "reason": "ground support"} in fought.shifts
    last = GAME.initial_state("1", {"optional": ["25.10"], "position": {
        "turn": 13, "phase": "japanese-combat", "removed": ["jp-pw-camp"], "units": {"us-7-17": "1012"},
        "vp": {"allied": 5}}})
    [counted] = of(when(last, "japanese", "end"), VictoryCounted)
    assert counted.detail["allied"].get("optional rules in play (25.10)") == 5


def test_16_5_13_1_a_position_holds_the_hex_the_b29_struck_and_no_allied_air_joins_it_there():
    """16.5: the B-29 stays on the hex it struck until the Air Return Phase, whatever the result (a D1 may leave the
    hex empty, so `suppressed` cannot say it); 13.1: no other Allied air unit joins it, so interdiction there is
    refused naming 13.1."""
    from formosa_given import refused

    empty = AROUND[4]
    plan = {"allied": {"b29": 1, "interdiction": 2}}
    spot = {"turn": 4, "phase": "interdiction", "units": {"us-7-17": AROUND[0], "jp-9-7": X},
            "air": {"allied-tac": 4, "b29": 1}, "missions": plan}
    state = GAME.initial_state("1", {"position": {**spot, "b29_struck": empty}})
    assert state.strike.b29_hex == empty and state.strike.b29_used
    refused(state, "allied", f"interdict {empty} 1", "Formosa 13.1")
    free = GAME.initial_state("1", {"position": spot})
    assert free.strike.b29_hex == ""
    for change, says in (({"missions": {"allied": {"interdiction": 2}}}, "assigned in Strike Planning"),
                         ({"phase": "air-superiority", "missions": {}}, "has it in no hex"),
                         ({"suppressed": [X]}, "the hex it suppressed is")):
        with pytest.raises(SetupError) as err:
            GAME.initial_state("1", {"position": {**spot, "b29_struck": empty, **change}})
        assert says in str(err.value)


def test_25_3_a_position_holds_the_unit_the_air_supply_marker_flew_this_movement_phase():
    """25.3: the unit flown to a functional airbase has spent one MP; the marker flies nothing else that player
    turn: no second airlift, no air supply in the Allied Combat Phase."""
    from dataclasses import replace

    from formosa_given import refused

    from app.rules.formosa import movement

    field = next(str(h) for h in sorted(GAME.data({}).airfields()) if GAME.data({}).is_land(h)
                 and str(h) not in (X, *AROUND))
    options = {"optional": ["25.3"]}
    spot = {"turn": 4, "phase": "allied-movement", "units": {"us-7-17": field, "us-eng-1": field, "jp-9-7": X,
                                                             "us-7-32": AROUND[0]},
            "bases": ["us-eng-1"], "air": {"air-supply": 1}, "revealed": ["jp-9-7"], "airlifted": ["us-7-17"]}
    state = GAME.initial_state("1", {**options, "position": spot})
    u = state.units["us-7-17"]
    assert movement.allowance(state, u) == GAME.data(options).unit("us-7-17").mf - 1
    refused(state, "allied", f"airlift us-7-184 to {field}", "Formosa 25.3")
    refused(replace(state, step="allied-combat"), "allied", f"attack {X} with us-7-32 supply air", "Formosa 25.3")
    for opts, change, says in (({}, {}, "rule 25.3 chosen"),
                               (options, {"air": {}}, "each air supply marker flies one unit"),
                               (options, {"units": {**spot["units"], "us-7-17": AROUND[5]}}, "functional airbase"),
                               (options, {"units": {**spot["units"], "us-armor-1": field},
                                          "airlifted": ["us-armor-1"]}, "air transport carries")):
        with pytest.raises(SetupError) as err:
            GAME.initial_state("1", {**opts, "position": {**spot, **change}})
        assert says in str(err.value)


def test_15_0_a_position_holds_the_units_attacked_this_phase_that_retreated_and_they_are_not_attacked_again():
    """15.0 (ruling F105): no defending unit is attacked twice in a Combat Phase; a unit that retreated out of the hex
    it was attacked in is not in `attacked_hexes`, so the position names it in `defended`, and the hex it stands in
    now is refused to a second attack naming 15.0."""
    from formosa_given import refused

    retreated = {**combat(), "defended": ["jp-9-7"]}
    state = GAME.initial_state("1", {"position": retreated})
    assert state.defended == ("jp-9-7",)
    refused(state, "allied", f"attack {X} with us-7-17", "Formosa 15.0")
    fresh = GAME.initial_state("1", {"position": combat()})
    assert GAME.parse(f"attack {X} with us-7-17", "allied", fresh)
    assert any(o["order"].startswith(f"attack {X}") for o in GAME.legal_orders(fresh, "allied"))
    assert not any(o["order"].startswith(f"attack {X}") for o in GAME.legal_orders(state, "allied"))
    for change, says in (({"defended": ["us-7-17"]}, "is not a japanese unit"),
                         ({"phase": "allied-movement", "attacked": [], "attacked_hexes": []}, "has none"),
                         ({"attacked": [], "attacked_hexes": []}, "attacked_hexes (15.0)")):
        with pytest.raises(SetupError) as err:
            GAME.initial_state("1", {"position": {**retreated, **change}})
        assert says in str(err.value)
