"""Formosa opposed landings (10.1 item 3, 10.2.2, 17.0; rulings F8, F24, F65, F80, F81) through orders: stacks
put at sea on amphibious markers assault a Japanese-held coastal hex in the Invasion Phase; they advance into it
when it is cleared, as many as stacking allows, and go back to the Staging Area otherwise."""
from __future__ import annotations

import pytest
from formosa_given import given, of, play, refused, when
from formosa_map import D, M, rough_shore, shore

from app.rules.errors import IllegalOrder
from app.rules.formosa import GAME
from app.rules.formosa.events import CombatResolved, LandingFailed, MarkersReturned, UnitRevealed, UnitsAdvanced

BEACH, (SEA, SEA2) = shore(2)
FOUR = ("us-7-17", "us-7-32", "us-7-184", "us-27-105")


def at_sea(units, japanese: dict, **fields):
    placed = {u: "allied-staging" for u in units} | japanese
    return given(step="invasion", turn=1, units=placed, **fields)


def test_10_2_2_an_assault_from_the_sea_that_clears_the_hex_advances_into_it_f24_f65():
    state = at_sea(FOUR, {"jp-guard-1": BEACH}, markers={"amphibious": 1}, naval={"gunfire": 2})
    state = play(state, "allied", f"land {SEA} with {' '.join(FOUR)}")
    assert {state.units[u].where for u in FOUR} == {SEA}
    refused(state, "allied", "end", "Formosa 10.2.2")  # units cannot remain at sea
    preview = GAME.extras["preview"](state, GAME.parse(f"assault {BEACH} gunfire 2", "allied", state))
    assert [s["case"] for s in preview["shifts"]] == ["Formosa 17.0"]  # gunfire; no hexside shift from the sea
    events = when(state, "allied", f"assault {BEACH} gunfire 2", [3])
    [fight] = of(events, CombatResolved)
    assert (fight.assault, fight.attack, fight.defence, fight.code) == (BEACH, 16, 2, "DE")
    [advanced] = of(events, UnitsAdvanced)
    assert sorted(advanced.units) == sorted(FOUR) and advanced.path == [BEACH]  # they must advance: no choice
    state = play(state, "allied", f"assault {BEACH} gunfire 2", [3])
    assert state.combat is None and state.units["jp-guard-1"].where == "japanese-eliminated"
    assert all(state.units[u].where == BEACH and state.units[u].pinned for u in FOUR)
    state = play(play(state, "allied", "end"), "allied", "end")  # invasion, naval transfer
    refused(state, "allied", f"move us-7-17 {SEA}", "Formosa 10.2.1, 10.3, 21.0")  # 10.2.2: no move after


def test_10_2_2_a_failed_assault_goes_back_to_the_staging_area_and_markers_to_reinforcements_f8():
    state = at_sea(("us-rgr-2",), {"jp-9-7": BEACH}, markers={"amphibious": 2})
    state = play(state, "allied", f"land {SEA} with us-rgr-2")
    events = when(state, "allied", f"assault {BEACH}", [4])  # 2 against 4 = 50%: die 4 is AR
    assert of(events, CombatResolved)[0].code == "AR"
    [failed] = of(events, LandingFailed)
    assert failed.describe() == (f"us-rgr-2 return from the sea off {BEACH} to the Staging Area: Formosa 10.2.2 "
                                 "(the hex was not cleared)")
    state = play(state, "allied", f"assault {BEACH}", [4])
    assert state.units["us-rgr-2"].where == "allied-staging" and state.units["jp-9-7"].where == BEACH
    [back] = of(when(state, "allied", "end"), MarkersReturned)
    assert back.markers == {"amphibious": 1}  # the one not placed goes back too: bought again to be used
    assert play(state, "allied", "end").markers["amphibious"] == 0


def test_f24_two_stacks_assault_as_one_and_those_that_do_not_fit_go_back():
    state = at_sea(FOUR + ("us-27-106",), {"jp-guard-1": BEACH}, markers={"amphibious": 2})
    state = play(state, "allied", f"land {SEA} with us-7-17 us-7-32 us-7-184")
    state = play(state, "allied", f"land {SEA2} with us-27-105 us-27-106")
    [fight] = of(when(state, "allied", f"assault {BEACH}", [3]), CombatResolved)
    assert len(fight.attackers) == 5 and fight.code == "DE"
    state = play(state, "allied", f"assault {BEACH}", [3])
    assert state.pending[0]["kind"] == "advance"
    refused(state, "allied", "hold", "Formosa 10.2.2")
    refused(state, "allied", f"advance us-7-17 us-7-32 us-7-184 to {BEACH}", "Formosa 10.2.2")  # one more fits
    events = when(state, "allied", f"advance {' '.join(FOUR)} to {BEACH}")
    assert of(events, LandingFailed)[0].describe() == (f"us-27-106 return from the sea off {BEACH} to the Staging "
                                                       "Area: Formosa 10.2.2 (no room in the hex)")
    state = play(state, "allied", f"advance {' '.join(FOUR)} to {BEACH}")
    assert state.units["us-27-106"].where == "allied-staging" and state.combat is None


def test_10_1_item_3_markers_at_sea_only_next_to_a_japanese_held_port_or_open_coastal_hex():
    state = at_sea(("us-7-17",), {}, markers={"amphibious": 1})
    refused(state, "allied", f"land {SEA} with us-7-17", "Formosa 10.1")  # nobody to assault
    refused(state, "allied", f"assault {BEACH}", "Formosa 10.2.2")


def test_f80_a_ca_in_an_assault_is_a_counterattack_on_the_stack_at_sea_and_a_cleared_hex_is_still_entered():
    state = at_sea(FOUR, {"jp-9-7": BEACH}, markers={"amphibious": 1})
    state = play(state, "allied", f"land {SEA} with {' '.join(FOUR)}")
    events = when(state, "allied", f"assault {BEACH}", [1, 1])  # 16 to 4 = 400%: die 1 CA; then 1 vs the sea: AE
    first, second = of(events, CombatResolved)
    assert (first.code, second.counterattack, second.hexes, second.assault, second.code) == (
        "CA", True, [SEA], BEACH, "AE")
    assert sorted(of(events, UnitsAdvanced)[0].units) == sorted(FOUR)
    state = play(state, "allied", f"assault {BEACH}", [1, 1])
    assert all(state.units[u].where == BEACH for u in FOUR) and state.combat is None


def test_22_0_only_rangers_assault_a_coastal_hex_that_is_neither_open_nor_a_port():
    coast, sea = rough_shore()
    state = at_sea(("us-rgr-2", "us-rgr-6", "us-7-17"), {"jp-guard-1": coast}, markers={"amphibious": 2})
    refused(state, "allied", f"land {sea} with us-7-17", "Formosa 10.1")
    state = play(state, "allied", f"land {sea} with us-rgr-2 us-rgr-6")
    [fight] = of(when(state, "allied", f"assault {coast}", [6]), CombatResolved)
    assert fight.attackers == ["us-rgr-2", "us-rgr-6"] and fight.assault == coast


def _coast_and_inland() -> tuple[str, str, str]:
    """A coastal hex, an inland hex next to it and another inland hex next to that one, all open."""
    for c in sorted(D.open_coastal()):
        for i in M.neighbours(c):
            if D.is_land(i) and not D.is_coastal(i) and not M.hexside_features(c, i):
                for j in M.neighbours(i):
                    if D.is_land(j) and not D.is_coastal(j) and not M.hexside_features(i, j):
                        return str(c), str(i), str(j)
    raise LookupError("no coast")


def test_17_0_gunfire_supports_an_attack_with_a_unit_in_a_coastal_hex_two_at_most():
    coast, inland, further = _coast_and_inland()
    state = given(step="allied-combat", units={"us-7-17": coast, "jp-guard-1": inland}, naval={"gunfire": 3})
    [fight] = of(when(state, "allied", f"attack {inland} with us-7-17 gunfire 2", [1]), CombatResolved)
    assert {"amount": 2, "case": "Formosa 17.0", "reason": "naval gunfire"} in fight.shifts
    refused(state, "allied", f"attack {inland} with us-7-17 gunfire 3", "Formosa 17.0")
    why = refused(state.move("us-7-17", further), "allied", f"attack {inland} with us-7-17 gunfire 1",
                  "Formosa 17.0")  # no participating unit on the coast
    assert why.endswith("naval gunfire supports only a combat with an Allied unit in a coastal hex")
    jp = given(step="japanese-combat", units={"us-7-17": coast, "jp-guard-1": inland}, naval={"gunfire": 2})
    refused(jp, "japanese", f"attack {coast} with jp-guard-1 gunfire 1", "Formosa 17.0, ruling F18")


def test_f85_an_assault_reveals_the_concealed_defenders_and_no_channel_names_them_before():
    state = at_sea(FOUR, {"jp-9-7": BEACH}, markers={"amphibious": 1}, concealed=("jp-9-7",))
    state = play(state, "allied", f"land {SEA} with {' '.join(FOUR)}")
    assert "jp-9-7" not in str(GAME.view(state, "allied"))
    with pytest.raises(IllegalOrder) as err:  # the strength of a concealed unit is no preview's to show
        GAME.extras["preview"](state, GAME.parse(f"assault {BEACH}", "allied", state))
    assert err.value.case == "Formosa 11.1, ruling F85" and "jp-9-7" not in str(err.value)
    events = when(state, "allied", f"assault {BEACH}", [4])
    assert [(e.unit, e.case) for e in of(events, UnitRevealed)] == [("jp-9-7", "Formosa 11.2, ruling F85")]
    assert not [e for e in events if "jp-9-7" in str(GAME.visible(e, "allied"))]  # the view names it, not events
    after = play(state, "allied", f"assault {BEACH}", [4])
    assert [u["concealed"] for u in GAME.view(after, "allied")["units"] if u["id"] == "jp-9-7"] == [False]


def test_f85_a_deception_unit_alone_is_removed_and_the_stacks_land_without_a_die():
    state = at_sea(FOUR, {"jp-deception-1": BEACH}, markers={"amphibious": 1}, concealed=("jp-deception-1",))
    state = play(state, "allied", f"land {SEA} with {' '.join(FOUR)}")
    events = when(state, "allied", f"assault {BEACH}")  # no die is recorded: none may be rolled
    assert not of(events, CombatResolved) and of(events, UnitRevealed)[0].deception
    after = play(state, "allied", f"assault {BEACH}")
    assert all(after.units[u].where == BEACH for u in FOUR) and after.units["jp-deception-1"].where == "out"


def test_16_5_the_b29_shift_is_for_the_ensuing_allied_combat_phase_not_an_assault_before_it():
    from app.rules.formosa import played_under
    from app.rules.formosa.state import Strike
    from app.rules.kernel.hexgrid import Hex

    hit = Strike(missions={"allied": {"b29": 0}}, revealed=True, b29_used=True, suppressed=(BEACH,), b29_hex=BEACH)
    state = at_sea(FOUR, {"jp-guard-1": BEACH}, markers={"amphibious": 1}, strike=hit)
    state = play(state, "allied", f"land {SEA} with {' '.join(FOUR)}")
    [fight] = of(when(state, "allied", f"assault {BEACH}", [3]), CombatResolved)
    assert "Formosa 16.5" not in [s["case"] for s in fight.shifts]  # the Invasion Phase comes before it
    [old] = of(when(played_under(state, "3"), "allied", f"assault {BEACH}", [3]), CombatResolved)
    assert "Formosa 16.5" in [s["case"] for s in old.shifts]  # ruling F105
    inland = next(n for n in D.map.neighbours(Hex.parse(BEACH)) if D.is_land(n))
    ashore = given(step="allied-combat", turn=1, units={"us-7-17": str(inland), "jp-guard-1": BEACH}, strike=hit)
    [fight] = of(when(ashore, "allied", f"attack {BEACH} with us-7-17", [3]), CombatResolved)
    assert "Formosa 16.5" in [s["case"] for s in fight.shifts]  # the ensuing Allied Combat Phase


def _sea_between_two_shores() -> tuple[str, str, str, str]:
    """(sea, first, second, other_sea): an all-sea hex next to two open coastal hexes, and another all-sea hex next
    to the first of them only."""
    for sea in sorted(h for h in M.hexes() if not D.is_land(h)):
        shores = [n for n in M.neighbours(sea) if n in D.open_coastal()]
        for a in shores:
            for b in shores:
                if a == b:
                    continue
                others = [n for n in M.neighbours(a) if not D.is_land(n) and n != sea and b not in M.neighbours(n)]
                if others:
                    return str(sea), str(a), str(b), str(others[0])
    raise LookupError("no sea between two shores")


def test_10_2_2_the_allied_player_chooses_which_stacks_at_sea_combine_in_an_assault_f108():
    from app.rules.formosa import played_under

    sea, first, second, other_sea = _sea_between_two_shores()
    japanese = {"jp-9-7": first, "jp-guard-2": second}
    state = at_sea(FOUR, japanese, markers={"amphibious": 2})
    state = play(state, "allied", f"land {sea} with us-7-17 us-7-32")  # next to both Japanese hexes
    state = play(state, "allied", f"land {other_sea} with us-7-184 us-27-105")  # next to the first only
    offered = {o["order"] for o in GAME.legal_orders(state, "allied") if o["action"] == "assault"}
    assert f"assault {first} from {other_sea}" in offered
    preview = GAME.extras["preview"](state, GAME.parse(f"assault {first} from {other_sea}", "allied", state))
    assert preview["attack"] == 8  # the two regiments named (4 + 4), not the stack next to both hexes (16)
    [fight] = of(when(state, "allied", f"assault {first} from {other_sea}", [2]), CombatResolved)
    assert sorted(fight.attackers) == ["us-27-105", "us-7-184"]  # 10.2.2: may combine; the other stays
    after = play(state, "allied", f"assault {first} from {other_sea}", [2])  # 8 to 4: die 2 is AR, back they go
    assert after.units["us-7-184"].where == "allied-staging" and after.units["jp-9-7"].where == first
    refused(after, "allied", f"assault {first}", "Formosa 15.0")  # the hex is assaulted once (15.0)
    [second_fight] = of(when(after, "allied", f"assault {second}", [3]), CombatResolved)
    assert sorted(second_fight.attackers) == ["us-7-17", "us-7-32"] and second_fight.hexes == [second]
    refused(state, "allied", f"assault {second} from {other_sea}", "Formosa 10.2.2")  # that stack is not next to it
    old = played_under(state, "4")  # ruling F108: every stack next to the hex was drawn into its assault (F24)
    [old_fight] = of(when(old, "allied", f"assault {first}", [6]), CombatResolved)
    assert len(old_fight.attackers) == 4
    refused(old, "allied", f"assault {first} from {other_sea}", "Formosa 10.2.2, ruling F24")


def test_f80_a_hex_cleared_by_the_counterattack_is_offered_in_the_legal_orders_as_the_10_2_2_advance():
    # the CA's counterattack is fought against a stack at sea, so the coastal hex empties when the Japanese
    # attackers are eliminated, not as a defending hex of the assault: the advance into it is still offered
    state = at_sea(FOUR + ("us-27-106",), {"jp-9-7": BEACH, "jp-guard-1": BEACH}, markers={"amphibious": 2})
    state = play(state, "allied", f"land {SEA} with us-7-17 us-7-32 us-7-184")
    state = play(state, "allied", f"land {SEA2} with us-27-105 us-27-106")
    state = play(state, "allied", f"assault {BEACH}", [2])  # 20 to 6 = 300%: die 2 is a CA
    why = refused(state, "japanese", f"counterattack {BEACH}", "Formosa 15.6")  # a hex of the attackers only
    assert why.endswith(f"counterattack one of {SEA}, {SEA2}")
    [fight] = of(when(state, "japanese", f"counterattack {SEA}", [1]), CombatResolved)  # 6 to 12: AE
    assert (fight.counterattack, fight.code) == (True, "AE")
    state = play(state, "japanese", f"counterattack {SEA}", [1])
    assert state.pending[0]["kind"] == "advance" and not state.at(BEACH, "japanese")
    offered = [o["order"] for o in GAME.legal_orders(state, "allied") if o["action"] == "advance"]
    assert offered == [f"advance us-27-105 us-27-106 us-7-17 us-7-184 to {BEACH}"]  # four fit (13.1)
    why = refused(state, "allied", f"advance us-7-17 us-7-17 to {BEACH}", "Formosa 15.8")
    assert why.endswith("units that may advance: us-27-105, us-27-106, us-7-17, us-7-184, us-7-32")
    state = play(state, "allied", offered[0])
    assert state.units["us-7-32"].where == "allied-staging" and state.combat is None
