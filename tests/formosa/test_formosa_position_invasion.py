"""Issue 30 "positions that can say everything": a Formosa position in the middle of an Invasion Phase (ruling
F124): stacks at sea on their amphibious markers whose assault is not yet made (`[at_sea]`, 10.1 item 3, 10.2.2),
units that have landed or dropped this phase on their markers (`landed`, `pinned`, 10.2.1, 10.3), the hexes
assaulted (`attacked_hexes`, F108), ground support waiting for an assault (`[support]`, F86) and an assault's CA
waiting for the Japanese counterattack on the stack at sea (`[counterattack]`, 15.6, F80). Each is played, and a
state the rules forbid is refused naming its case (docs/custom-positions.md)."""
from __future__ import annotations

import pytest
from formosa_given import of, when
from formosa_map import D, M, shore

from app.rules.custom_setup import SetupError
from app.rules.errors import IllegalOrder
from app.rules.formosa import GAME
from app.rules.formosa.events import CombatResolved, LandingFailed, UnitsAdvanced
from app.rules.kernel.hexgrid import Hex

BEACH, (SEA, SEA2) = shore(2)
FOUR = ["us-7-17", "us-7-32", "us-7-184", "us-27-105"]


def other_beach() -> str:
    """An open coastal hex away from the beach, for a landing already made this phase."""
    return next(str(h) for h in sorted(D.open_coastal()) if M.distance(Hex.parse(BEACH), h) > 3
                and not M.features_of(h) - {"beach"})


def invasion(**extra) -> dict:
    """The Invasion Phase of GT 3: the 7th Division's stack at sea off a beach the Japanese guard holds."""
    base = {"turn": 3, "phase": "invasion", "revealed": ["jp-guard-1"], "units": {"jp-guard-1": BEACH},
            "at_sea": {SEA: FOUR}, "markers": {"amphibious": 1}}
    return {**base, **extra}


def start(**extra):
    return GAME.initial_state("1", {"position": invasion(**extra)})


def play(state, side, order, rolls=()):
    for e in when(state, side, order, rolls):
        if type(e).__name__ != "DieRolled":
            state = GAME.evolve(state, e)
    return state


def test_10_2_2_a_position_holds_a_stack_at_sea_that_must_assault_and_its_marker():
    state = start()
    assert {state.units[u].where for u in FOUR} == {SEA} and state.amphibious == (SEA,)
    assert BEACH not in state.zoc_of("allied")  # at sea: no ZOC (ruling F81)
    with pytest.raises(IllegalOrder) as err:  # units cannot remain at sea
        when(state, "allied", "end")
    assert err.value.case == "Formosa 10.2.2"
    with pytest.raises(IllegalOrder) as err:  # one amphibious marker a hex (10.1)
        when(state, "allied", f"land {SEA} with us-27-106")
    assert err.value.case == "Formosa 10.1"
    events = when(state, "allied", f"assault {BEACH}", [3])
    [fight] = of(events, CombatResolved)
    assert (fight.assault, sorted(fight.attackers), fight.code) == (BEACH, sorted(FOUR), "DE")
    assert sorted(of(events, UnitsAdvanced)[0].units) == sorted(FOUR)


@pytest.mark.parametrize("change, says", [
    ({"phase": "naval-transfer"}, "never remain at sea after it (10.2.2)"),
    ({"at_sea": {BEACH: FOUR}}, "in an all-sea hex of the map (10.1 item 3)"),
    ({"at_sea": {SEA: [*FOUR, "us-27-106"]}}, "carries 1 to 4 different units (10.2)"),
    ({"at_sea": {SEA: ["jp-9-7"]}}, "jp-9-7 is not an Allied mobile unit in this game (10.2)"),
    ({"at_sea": {SEA: ["cw-7-18"]}}, "cw-7-18 is not an Allied mobile unit in this game (10.2)"),
    ({"at_sea": {SEA: FOUR[:2], SEA2: FOUR[1:3]}}, "us-7-32 is placed elsewhere in the position too"),
    ({"units": {}}, "only next to a Japanese-held port or open coastal hex"),
    ({"fleet_sortied": "decisive"}, "no amphibious marker is placed (18.0 b))"),
])
def test_10_1_10_2_a_stack_at_sea_is_refused_where_no_landing_could_have_put_it(change, says):
    with pytest.raises(SetupError) as err:
        start(**change)
    assert says in str(err.value)


def test_10_2_2_f108_a_stack_at_sea_beside_a_hex_another_stack_took_goes_back_at_the_end():
    """Another stack's assault took the beach this phase (attacked_hexes): the stack left at sea has nothing to
    assault and goes back to the Staging Area when the phase ends."""
    state = start(units={"us-27-105": BEACH}, revealed=[], landed=["us-27-105"], attacked_hexes=[BEACH],
                  at_sea={SEA2: FOUR[:3]})
    assert state.units["us-27-105"].landed and state.units["us-27-105"].pinned
    [back] = of(when(state, "allied", "end"), LandingFailed)
    assert sorted(back.units) == sorted(FOUR[:3]) and back.why == "Formosa 10.2.2 (nothing left to assault)"


def test_10_2_1_10_3_landed_and_dropped_units_of_this_phase_hold_their_markers():
    beach = other_beach()
    field = next(str(h) for h in sorted(D.airfields()) if M.terrain_of(h) == "open" and not D.is_coastal(h))
    state = start(units={"jp-guard-1": BEACH, "us-27-106": beach, "us-11ab-187": field},
                  landed=["us-27-106"], pinned=["us-11ab-187"], markers={"amphibious": 2, "drop-zone": 1})
    assert set(state.amphibious) == {SEA, beach} and field in state.used_hexes
    assert state.units["us-11ab-187"].pinned and not state.units["us-11ab-187"].landed
    with pytest.raises(IllegalOrder) as err:  # one amphibious marker a hex (10.1)
        when(state, "allied", f"land {beach} with us-27-165")
    assert err.value.case == "Formosa 10.1"
    with pytest.raises(SetupError) as err:  # a drop zone takes airborne regiments only
        start(units={"jp-guard-1": BEACH, "us-27-106": field}, pinned=["us-27-106"])
    assert "no airborne regiment" in str(err.value)
    inland = next(str(h) for h in sorted(D.land()) if not D.is_coastal(h) and M.terrain_of(h) == "open"
                  and h not in D.airfields())
    with pytest.raises(SetupError) as err:  # no landing reaches an inland hex
        start(units={"jp-guard-1": BEACH, "us-27-106": inland}, landed=["us-27-106"])
    assert "no landing reaches it (10.1, 10.2.2)" in str(err.value)


def test_f108_a_hex_assaulted_this_phase_is_not_assaulted_again():
    state = start(at_sea={SEA: FOUR[:2], SEA2: FOUR[2:]}, attacked_hexes=[BEACH])
    with pytest.raises(IllegalOrder) as err:
        when(state, "allied", f"assault {BEACH} from {SEA2}")
    assert err.value.case == "Formosa 15.0"
    with pytest.raises(SetupError) as err:
        start(attacked_hexes=[next(str(h) for h in sorted(D.land()) if not D.is_coastal(h))])
    assert "no coastal hex of the map" in str(err.value)


def test_f86_ground_support_waiting_for_the_first_assault_flies_with_it():
    state = start(air={"allied-tac": 4}, missions={"allied": {"tactical": 2}}, support={BEACH: 2})
    shown = GAME.preview(state, GAME.parse(f"assault {BEACH}", "allied", state))
    assert {"amount": 2, "case": "Formosa 16.3", "reason": "ground support"} in shown["shifts"]
    for change, says in (({"attacked_hexes": [BEACH], "at_sea": {SEA2: FOUR[:2]}, "support": {BEACH: 2}},
                          "placed before the first assault"),
                         ({"support": {SEA: 1}}, "a Japanese-held hex a stack at sea may assault")):
        with pytest.raises(SetupError) as err:
            start(air={"allied-tac": 4}, missions={"allied": {"tactical": 2}}, **change)
        assert says in str(err.value)


def test_f80_an_assault_s_ca_waits_for_the_japanese_counterattack_on_the_stack_at_sea():
    state = start(units={"jp-9-7": BEACH}, revealed=["jp-9-7"], at_sea={SEA: FOUR[:2], SEA2: FOUR[2:]},
                  markers={"amphibious": 2}, counterattack={"attackers": FOUR, "defenders": ["jp-9-7"]})
    assert state.pending[0]["kind"] == "counterattack" and state.pending[0]["hexes"] == sorted([SEA, SEA2])
    assert state.combat.assault == BEACH
    events = when(state, "japanese", f"counterattack {SEA}", [1])  # die 1: AE, the counterattackers are gone
    [fight] = of(events, CombatResolved)
    assert (fight.counterattack, fight.hexes, fight.assault, fight.code) == (True, [SEA], BEACH, "AE")
    assert sorted(of(events, UnitsAdvanced)[0].units) == sorted(FOUR)  # the cleared hex is entered (F80)
    events = when(state, "japanese", f"counterattack {SEA}", [5])  # die 5: CA, no effect (15.6 item 3)
    assert sorted(of(events, LandingFailed)[0].units) == sorted(FOUR)  # not cleared: back to the Staging Area
    for change, says in (({"counterattack": {"attackers": FOUR[:2], "defenders": ["jp-9-7"]}},
                          "assault together, every unit of each"),
                         ({"counterattack": {"attackers": ["jp-9-7"], "defenders": ["jp-9-7"]}},
                          "the attackers are stacks at sea")):
        with pytest.raises(SetupError) as err:
            start(units={"jp-9-7": BEACH}, revealed=["jp-9-7"], **change)
        assert says in str(err.value)


def test_the_documented_invasion_position_is_played():
    """docs/custom-positions.md's position in the middle of an Invasion Phase: the landing and the drop hold their
    markers, the stack at sea assaults with its waiting support, then the phase ends."""
    from formosa_given import documented_position

    state = GAME.initial_state("1", {"position": documented_position(5)})
    assert state.units["us-7-17"].where == "0312" and set(state.used_hexes) == {"0312", "0815", "0816"}
    shown = GAME.preview(state, GAME.parse("assault 0313", "allied", state))
    assert {"amount": 2, "case": "Formosa 16.3", "reason": "ground support"} in shown["shifts"]
    state = play(state, "allied", "assault 0313", [3])
    assert {state.units[u].where for u in FOUR} == {"0313"} and state.combat is None
    state = play(state, "allied", "end")
    assert state.step == "naval-transfer" and all(state.units[u].pinned for u in [*FOUR, "us-27-106", "us-11ab-187"])


def test_13_0_13_3_the_phasing_side_stands_over_the_limits_in_the_middle_of_its_phase_f126():
    """13.0: stacking is checked at the end of the Movement and Combat Phases (and the Recruit Phase, 13.3), with no
    limit at other times: a position in the middle of the Allied Movement Phase holds five US units in a hex, and
    the phase's end removes the fewest (one). The side that stands still, a hex no unit entered in the phase, or a
    phase that checked stacking at its end is refused."""
    from formosa_given import of as of_

    from app.rules.engine.events import DecisionRequired

    five = {u: "0815" for u in [*FOUR, "us-27-106"]}
    state = GAME.initial_state("1", {"position": {"turn": 3, "phase": "allied-movement", "units": five,
                                                  "moved": ["us-27-106"]}})
    [owed] = of_(when(state, "allied", "end"), DecisionRequired)
    assert (owed.kind, owed.data["hexes"]) == ("overstack", ["0815"])
    japanese = {u: "1014" for u in ("jp-9-7", "jp-9-19", "jp-12-24", "jp-guard-1")}
    mid = {"turn": 3, "phase": "japanese-movement", "units": japanese, "moved": ["jp-9-7"]}
    assert GAME.initial_state("1", {"position": mid})
    dropped = {"turn": 3, "phase": "allied-movement", "units": {**five, "us-11ab-187": "0815"},
               "pinned": ["us-11ab-187"], "landed": list(five)}  # F105: a drop zone beside a landing's marker
    assert GAME.initial_state("1", {"position": dropped}).overstacked("allied") == ["0815"]
    elsewhere = {**mid, "moved": ["jp-guard-2"], "units": {**japanese, "jp-guard-2": "1114"}}
    for position in ({**mid, "moved": []}, elsewhere, {**mid, "phase": "allied-movement", "moved": []},
                     {"turn": 3, "phase": "base-building", "units": five}):
        with pytest.raises(SetupError) as err:
            GAME.initial_state("1", {"position": position})
        assert "over the stacking limits (13.1, 13.2); stacking is checked at the end" in str(err.value)


def test_15_8_10_2_2_a_position_holds_an_advance_owed_after_a_combat_or_a_landing_f127():
    """15.8: a DE cleared the hex and the attackers choose who advances, two hexes at most; 10.2.2: an assault
    cleared the beach and the five at sea must advance as stacking allows, the one left over going back."""
    from formosa_given import refused

    inland = next(str(n) for n in M.neighbours(Hex.parse(BEACH)) if D.is_land(n))
    combat = {"turn": 4, "phase": "allied-combat", "units": {"us-7-17": BEACH, "us-7-32": BEACH},
              "attacked": ["us-7-17", "us-7-32"], "attacked_hexes": [inland],
              "advance": {"attackers": ["us-7-17", "us-7-32"], "hexes": [inland], "result": "DE"}}
    state = GAME.initial_state("1", {"position": combat})
    assert state.pending[0]["kind"] == "advance" and state.combat.advance == 2
    [moved] = of(when(state, "allied", f"advance us-7-17 to {inland}"), UnitsAdvanced)
    assert moved.units == ["us-7-17"]
    landing = invasion(at_sea={SEA: FOUR, SEA2: ["us-27-106"]}, units={}, revealed=[], attacked_hexes=[BEACH],
                       advance={"attackers": [*FOUR, "us-27-106"], "hexes": [BEACH], "result": "DE"})
    state = GAME.initial_state("1", {"position": landing})
    assert state.combat.assault == BEACH
    refused(state, "allied", "hold", "Formosa 10.2.2")  # they must advance
    events = when(state, "allied", f"advance {' '.join(FOUR)} to {BEACH}")
    assert of(events, LandingFailed)[0].units == ["us-27-106"]
    for change, says in (({"result": "AR"}, "one that lets the attacker advance"),
                         ({"hexes": [SEA]}, "attacked this phase"),
                         ({"attackers": FOUR}, "so they have advanced into it")):
        bad = {**landing, "advance": {**landing["advance"], **change}}
        if "attackers" in change:
            bad["at_sea"] = {SEA: FOUR}
        with pytest.raises(SetupError) as err:
            GAME.initial_state("1", {"position": bad})
        assert says in str(err.value)
