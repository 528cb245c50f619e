"""Formosa invasions (10.0-10.3) and naval transfer (21.0; CF-12) through orders."""
from __future__ import annotations

from dataclasses import replace

from formosa_given import given, of, play, refused, when

from app.rules.formosa import GAME
from app.rules.formosa.events import UnitsLanded, UnitTransferred
from app.rules.kernel.hexgrid import Hex

D = GAME.data({})
PORT = str(sorted(D.map.hexes_with("major-port"))[0])
BEACH = str(sorted(h for h in D.open_coastal() if not D.map.features_of(h) - {"beach"})[0])


def with_base(state, uid: str):
    return state.with_units(replace(state.units[uid], base=True))


def test_21_0_four_units_a_phase_use_a_functional_port_cf_12():
    units = {"us-eng-1": PORT, "us-7-17": PORT, "us-7-32": PORT, "us-7-184": PORT, "us-27-105": "allied-staging",
             "us-27-106": "allied-staging"}
    state = with_base(given(step="naval-transfer", turn=1, units=units), "us-eng-1")
    offered = {o["order"] for o in GAME.legal_orders(state, "allied") if o["action"] == "transfer"}
    assert {"transfer us-27-105 to " + PORT, "transfer us-7-17 to staging"} <= offered
    for uid in ("us-7-17", "us-7-32", "us-7-184"):
        state = play(state, "allied", f"transfer {uid} to staging")  # three embark
    state = play(state, "allied", f"transfer us-27-105 to {PORT}")  # one debarks
    refused(state, "allied", f"transfer us-27-106 to {PORT}", "Formosa 21.0")  # a fifth
    assert state.units["us-27-105"].pinned  # 21.0: no move in the ensuing Movement Phase
    refused(state, "allied", "transfer us-7-17 to staging", "Formosa 21.0")  # already moved by sea this phase


def test_21_0_from_a_coastal_hex_without_a_functional_port_one_unit_and_only_to_a_port_or_staging():
    units = {"us-7-17": BEACH, "us-7-32": BEACH, "us-eng-1": PORT}
    state = with_base(given(step="naval-transfer", turn=1, units=units), "us-eng-1")
    refused(state, "allied", f"transfer us-7-17 to {str(sorted(D.open_coastal())[-1])}", "Formosa 21.0")
    state = play(state, "allied", f"transfer us-7-17 to {PORT}")
    refused(state, "allied", "transfer us-7-32 to staging", "Formosa 21.0")


def test_10_2_1_an_unopposed_landing_puts_up_to_four_units_on_one_marker_and_pins_them():
    units = {f"us-7-{n}": "allied-staging" for n in (17, 32, 184)} | {"us-27-105": "allied-staging",
                                                                       "us-27-106": "allied-staging"}
    state = given(step="invasion", turn=1, units=units, markers={"amphibious": 2})
    refused(state, "allied", f"land {BEACH} with us-7-17 us-7-32 us-7-184 us-27-105 us-27-106", "Formosa 10.2")
    [landed] = of(when(state, "allied", f"land {BEACH} with us-7-17 us-7-32"), UnitsLanded)
    assert landed.marker == "amphibious"
    state = play(state, "allied", f"land {BEACH} with us-7-17 us-7-32")
    assert state.markers["amphibious"] == 1 and state.units["us-7-17"].pinned
    refused(state, "allied", f"land {BEACH} with us-7-184", "Formosa 10.1")  # one marker a hex
    other = str(sorted(h for h in D.open_coastal() if not D.map.features_of(h) - {"beach"})[1])
    why = refused(state, "allied", f"land {other} with us-7-17", "Formosa 10.2")  # landed already: not at hand
    assert why.endswith("us-7-17 must be a mobile unit in the Staging Area, Amoy or a functional port")
    state = play(state, "allied", "end")
    state = play(state, "allied", "end")  # naval transfer
    refused(state, "allied", f"move us-7-17 {BEACH}", "Formosa 10.2.1, 10.3, 21.0")


def test_10_1_no_marker_no_landing_and_never_onto_enemy_units():
    state = given(step="invasion", turn=1, units={"us-7-17": "allied-staging", "jp-9-7": BEACH})
    refused(state, "allied", f"land {BEACH} with us-7-17", "Formosa 10.0")
    state = replace(state, markers={"amphibious": 1})
    refused(state, "allied", f"land {BEACH} with us-7-17", "Formosa 10.2.2")


def test_10_3_up_to_two_airborne_regiments_drop_on_an_open_or_airfield_hex():
    field = str(sorted(D.airfields())[0])
    state = given(step="invasion", turn=1, units={"us-11ab-511": "allied-staging", "us-7-17": "allied-staging"},
                  markers={"drop-zone": 1})
    refused(state, "allied", f"drop {field} with us-7-17", "Formosa 10.3")
    state = play(state, "allied", f"drop {field} with us-11ab-511")
    assert state.units["us-11ab-511"].where == field and state.markers["drop-zone"] == 0


def test_10_1_a_drop_zone_takes_an_open_or_airfield_hex_free_of_enemy_units_ezoc_or_not():
    from formosa_map import M, ring

    x, around = ring("open")
    rough_field = str(next(h for h in sorted(D.airfields()) if M.terrain_of(h) == "rough"))
    rough = str(next(h for h in sorted(D.land()) if M.terrain_of(h) == "rough" and h not in D.airfields()))
    state = given(step="invasion", turn=1, units={"us-11ab-511": "allied-staging", "jp-9-7": x},
                  markers={"drop-zone": 1})
    refused(state, "allied", f"drop {x} with us-11ab-511", "Formosa 10.1")  # enemy-occupied: no drop zone there
    refused(state, "allied", f"drop {rough} with us-11ab-511", "Formosa 10.1")  # neither open nor an airfield
    near = next(h for h in around if M.terrain_of(Hex.parse(h)) == "open")
    [landed] = of(when(state, "allied", f"drop {near} with us-11ab-511"), UnitsLanded)  # in the EZOC
    assert landed.hex == near
    [landed] = of(when(state, "allied", f"drop {rough_field} with us-11ab-511"), UnitsLanded)  # any terrain
    assert landed.hex == rough_field


def test_20_1_an_engineer_becomes_a_base_in_a_port_or_airfield_hex_for_3_1_or_4_lp_and_20_2_demobilises():
    both = str(sorted(D.ports() & D.airfields())[0])
    field = str(sorted(D.airfields() - D.ports())[0])
    units = {"us-eng-1": PORT, "us-eng-2": field, "us-eng-3": both, "us-7-17": BEACH}
    state = given(step="base-building", turn=1, units=units, lp={"allied": 8, "japanese": 0})
    refused(state, "allied", f"build {BEACH}", "Formosa 20.1")  # neither port nor airfield
    for hex_, lp_left in ((PORT, 5), (field, 4), (both, 0)):
        state = play(state, "allied", f"build {hex_}")
        assert state.lp["allied"] == lp_left
    assert all(state.units[u].base for u in ("us-eng-1", "us-eng-2", "us-eng-3"))
    refused(state, "allied", f"build {PORT}", "Formosa 20.1")  # one base a hex, and no engineer left there
    state = play(state, "allied", f"demobilise {PORT}")
    assert not state.units["us-eng-1"].base


def test_9_0_21_0_once_amoy_has_fallen_its_units_transfer_by_sea_as_from_the_staging_area():
    from app.rules.formosa import played_under

    units = {"us-eng-1": PORT, "us-6mar-4": "amoy", "us-6mar-22": "amoy"}
    state = with_base(given(step="naval-transfer", turn=4, units=units, amoy_turn=2), "us-eng-1")
    offered = {o["order"] for o in GAME.legal_orders(state, "allied") if o["action"] == "transfer"}
    assert f"transfer us-6mar-4 to {PORT}" in offered
    state = play(state, "allied", f"transfer us-6mar-4 to {PORT}")
    assert state.units["us-6mar-4"].where == PORT and state.units["us-6mar-4"].pinned  # 21.0: no move after
    refused(state, "allied", f"transfer us-6mar-22 to {BEACH}", "Formosa 21.0")  # 21.0 item 1: a hex Allies hold
    old = played_under(with_base(given(step="naval-transfer", turn=4, units=units, amoy_turn=2), "us-eng-1"), "3")
    refused(old, "allied", f"transfer us-6mar-4 to {PORT}", "Formosa 21.0")  # ruling F105


def test_21_0_the_list_of_legal_orders_offers_an_allied_unit_on_the_map_its_transfer_to_the_staging_area():
    japanese = {"jp-10-10": "0918", "jp-10-39": "0919", "jp-10-63": "1021", "jp-12-24": "0917"}  # ids before us-
    state = with_base(given(step="naval-transfer", turn=3, units={"us-eng-1": PORT, "us-7-17": PORT, **japanese}),
                      "us-eng-1")
    offered = {o["order"] for o in GAME.legal_orders(state, "allied") if o["action"] == "transfer"}
    assert "transfer us-7-17 to staging" in offered  # and, since rules version 13, to the coast too (ruling F125)
    from app.rules.formosa import played_under

    offered = {o["order"] for o in GAME.legal_orders(played_under(state, "12"), "allied") if o["action"] == "transfer"}
    assert offered == {"transfer us-7-17 to staging"}  # a game created under 1-12 lists as it was played


def test_5_1_item_1_a_commonwealth_unit_never_lands_where_us_units_stand():
    units = {"us-eng-1": PORT, "cw-7-18": "allied-staging"}  # two units: far within 13.1's limits
    state = with_base(given(step="naval-transfer", turn=3, units=units), "us-eng-1")
    says = refused(state, "allied", f"transfer cw-7-18 to {PORT}", "Formosa 21.0")
    assert says.endswith(f"us and cw units may not stack together in {PORT} (Formosa 5.1, 13.1)")


def test_21_0_item_1_a_naval_transfer_lands_within_the_stacking_limits():
    from app.rules.formosa import played_under

    units = {"us-eng-1": PORT, "us-7-17": PORT, "us-7-32": PORT, "us-7-184": PORT, "us-27-105": "allied-staging",
             "us-27-106": "allied-staging", "cw-7-18": "allied-staging"}
    state = with_base(given(step="naval-transfer", turn=3, units=units), "us-eng-1")
    state = play(state, "allied", f"transfer us-27-105 to {PORT}")  # four mobile units and the base: the limit
    message = refused(state, "allied", f"transfer us-27-106 to {PORT}", "Formosa 21.0")
    assert "13.1" in message
    refused(state.move("us-27-105", "allied-staging"), "allied", f"transfer cw-7-18 to {PORT}", "Formosa 21.0")
    play(played_under(state, "3"), "allied", f"transfer us-27-106 to {PORT}")  # ruling F105


def test_10_1_one_amphibious_marker_a_hex_but_a_drop_zone_may_join_it():
    from app.rules.formosa import played_under

    units = {"us-7-17": "allied-staging", "us-7-32": "allied-staging", "us-11ab-511": "allied-staging"}
    state = given(step="invasion", turn=1, units=units, markers={"amphibious": 2, "drop-zone": 1})
    assert D.map.terrain_of(Hex.parse(BEACH)) == "open"  # a beach is an open coastal hex (F12): drop zones too
    state = play(state, "allied", f"land {BEACH} with us-7-17")
    refused(state, "allied", f"land {BEACH} with us-7-32", "Formosa 10.1")  # a second amphibious marker
    dropped = play(state, "allied", f"drop {BEACH} with us-11ab-511")
    assert dropped.units["us-11ab-511"].where == BEACH and dropped.markers["drop-zone"] == 0
    refused(played_under(state, "3"), "allied", f"drop {BEACH} with us-11ab-511", "Formosa 10.1")  # ruling F105


def test_9_0_21_0_a_fallen_amoy_is_a_staging_area_naval_transfer_may_go_to_f108():
    from app.rules.formosa import played_under

    units = {"us-eng-1": PORT, "us-7-17": PORT, "us-7-32": BEACH}
    state = with_base(given(step="naval-transfer", turn=4, units=units, amoy_turn=2), "us-eng-1")
    offered = {o["order"] for o in GAME.legal_orders(state, "allied") if o["action"] == "transfer"}
    assert "transfer us-7-17 to amoy" in offered
    state = play(state, "allied", "transfer us-7-17 to amoy")  # 9.0: a fallen Amoy serves as a Staging Area
    assert state.units["us-7-17"].where == "amoy"
    state = play(state, "allied", "transfer us-7-32 to amoy")  # 21.0 item 3: from an open coastal hex, as to staging
    assert state.units["us-7-32"].where == "amoy"
    standing = with_base(given(step="naval-transfer", turn=4, units=units), "us-eng-1")
    refused(standing, "allied", "transfer us-7-17 to amoy", "Formosa 9.0")  # Amoy not yet conquered
    old = played_under(with_base(given(step="naval-transfer", turn=4, units=units, amoy_turn=2), "us-eng-1"), "4")
    refused(old, "allied", "transfer us-7-17 to amoy", "Formosa 21.0")  # ruling F108: as it was played


def test_10_2_1_units_that_landed_must_attack_the_adjacent_japanese_units_zoc_or_not_f108():
    from app.rules.formosa import played_under

    inland = str(next(n for n in D.map.neighbours(Hex.parse(BEACH)) if D.is_land(n)
                      and not D.map.hexside_features(Hex.parse(BEACH), n)))
    units = {"us-7-17": "allied-staging", "us-eng-1": PORT, "jp-guerrilla-1": inland, "jp-9-7": "1405"}
    state = given(step="invasion", turn=3, units=units, markers={"amphibious": 1})
    state = play(state, "allied", f"land {BEACH} with us-7-17")
    assert state.units["us-7-17"].landed
    for _ in ("invasion", "naval-transfer", "allied-movement"):
        state = play(state, "allied", "end")
    assert state.step == "allied-combat"
    message = refused(state, "allied", "end", "Formosa 10.2.1")  # a guerrilla exerts no ZOC (23.0), yet 10.2.1
    assert "us-7-17" in message
    attacked = play(state, "allied", f"attack {inland} with us-7-17", [6])
    while attacked.pending:
        attacked = play(attacked, "allied", "hold" if attacked.pending[0]["kind"] == "advance" else "end")
    assert attacked.step == "allied-combat" and not combat_owed(attacked)
    play(played_under(state, "4"), "allied", "end")  # ruling F108: only units in an enemy ZOC had to attack
    landed = GAME.initial_state("1", {"position": {
        "turn": 3, "phase": "allied-combat", "units": {"us-7-17": BEACH, "jp-guerrilla-1": inland, "jp-9-7": "1405"},
        "landed": ["us-7-17"]}})
    refused(landed, "allied", "end", "Formosa 10.2.1")  # a position says so (ruling F98)


def combat_owed(state) -> list[str]:
    from app.rules.formosa.combat import owed_attacks

    return owed_attacks(state, "allied", landed=True)


def test_21_0_a_mechanized_unit_transfers_to_a_mountain_coastal_hex_its_road_runs_through_f115():
    from app.rules.formosa import played_under

    M = D.map

    def road(h):
        return M.is_road_hex(h) or M.is_rail_hex(h)

    pass_ = str(next(h for h in sorted(D.land()) if D.is_coastal(h) and M.terrain_of(h) == "mountain" and road(h)))
    units = {"us-armor-1": "allied-staging", "us-7-17": pass_}
    state = given(step="naval-transfer", turn=3, units=units)
    [moved] = of(when(state, "allied", f"transfer us-armor-1 to {pass_}"), UnitTransferred)  # along its road
    assert moved.to == pass_
    # (every coastal mountain hex of the printed map has a road: the closed case is held by the set-up test)
    refused(played_under(state, "8"), "allied", f"transfer us-armor-1 to {pass_}", "Formosa 21.0")  # as played


def test_21_0_item_3_a_rough_or_mud_flats_coastal_hex_embarks_one_unit_a_phase_as_an_open_one_f119():
    """Ruling F119: 21.0 lets a unit embark from any coastal hex, and item 3's one unit a phase (to a functional
    port or the Staging Area) is the limit of every coastal hex without a functional port, whatever its terrain."""
    for terrain in ("rough", "mud-flats"):
        coast = str(next(h for h in sorted(D.map.hexes()) if D.is_land(h) and D.is_coastal(h)
                         and D.map.terrain_of(h) == terrain and not D.map.features_of(h)))
        units = {"us-7-17": coast, "us-7-32": coast, "us-eng-1": PORT, "us-27-105": "allied-staging",
                 "us-27-106": "allied-staging"}
        state = with_base(given(step="naval-transfer", turn=2, units=units), "us-eng-1")
        why = refused(state, "allied", f"transfer us-7-17 to {BEACH}", "Formosa 21.0")  # not to another coast
        assert "only to a functional port or the Staging Area" in why
        state = play(state, "allied", "transfer us-7-17 to staging")
        assert "one unit a phase leaves" in refused(state, "allied", f"transfer us-7-32 to {PORT}", "Formosa 21.0")
        for uid in ("us-27-105", "us-27-106"):  # item 1: from the Staging Area, any number to a friendly coast
            state = play(state, "allied", f"transfer {uid} to {coast}")
        assert {state.units[u].where for u in ("us-7-32", "us-27-105", "us-27-106")} == {coast}
