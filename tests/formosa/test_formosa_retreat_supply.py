"""Formosa retreats toward supply and over-stacked retreats (15.7 items 3-5, F61), the reveal of a concealed
static unit when it first serves as a supply source (19.3, F82), and air supply (19.4), through orders."""
from __future__ import annotations

from dataclasses import replace

from formosa_given import given, of, play, refused, when
from formosa_map import D, M, ring

from app.rules.formosa import GAME
from app.rules.formosa.combat import retreat_paths
from app.rules.formosa.events import AirSupplyFlown, CombatResolved, UnitEliminated, UnitRevealed
from app.rules.kernel.hexgrid import Hex

H = Hex.parse
X, AROUND = ring("open")
FILL = ("jp-9-7", "jp-9-19", "jp-9-35", "jp-12-24", "jp-12-46", "jp-12-48")


def _dist(a: str, b: str) -> int:
    return M.distance(H(a), H(b))


def _dr(extra: dict[str, str], static_hex: str):
    """us-7-17 in AROUND[0] attacks jp-guard-1 in X: 4 to 2 = 200%, die 6 reads DR."""
    return given(step="allied-combat", units={"us-7-17": AROUND[0], "jp-guard-1": X, "jp-hw-1": static_hex, **extra})


def _open_hexes():
    state = given(step="allied-combat", units={"us-7-17": AROUND[0], "jp-guard-1": X})
    return sorted({p[0] for p in retreat_paths(state, state.units["jp-guard-1"])})


def _static_with_two_nearer():
    """A hex for a static unit 3 hexes from X toward which exactly two of the open retreat hexes lead."""
    free = _open_hexes()
    for h in sorted(M.hexes()):
        s = str(h)
        if D.is_land(h) and _dist(s, X) == 3:
            nearer = [o for o in free if _dist(o, s) < 3]
            if len(nearer) == 2:
                return s, nearer, [o for o in free if o not in nearer]
    raise LookupError("no such hex")


STATIC, NEARER, OTHERS = _static_with_two_nearer()


def test_15_7_item_4_a_retreat_goes_toward_a_supply_source_f61():
    state = play(_dr({}, STATIC), "allied", f"attack {X} with us-7-17", [6])
    assert state.pending[0]["kind"] == "retreat" and OTHERS  # a hex is open, but it leads away from supply
    text = refused(state, "japanese", f"retreat jp-guard-1 {OTHERS[0]}", "Formosa 15.7")
    assert "item 4" in text
    after = play(state, "japanese", f"retreat jp-guard-1 {NEARER[0]}")
    assert after.units["jp-guard-1"].where == NEARER[0] and after.pending[0]["kind"] == "advance"


def test_15_7_item_3_an_over_stacked_retreat_goes_one_hex_more_in_any_allowed_direction():
    fill = dict(zip(FILL, [NEARER[0]] * 3 + [NEARER[1]] * 3, strict=True))
    state = play(_dr(fill, STATIC), "allied", f"attack {X} with us-7-17", [6])
    refused(state, "japanese", f"retreat jp-guard-1 {NEARER[0]}", "Formosa 15.7")  # three mobile units there
    paths = retreat_paths(state, state.units["jp-guard-1"])
    assert paths and all(len(p) == 2 and p[0] in NEARER for p in paths)  # the extra hex meets the limits
    away = [p for p in paths if _dist(p[1], STATIC) > _dist(p[0], STATIC)]
    assert away  # item 4 does not bind the extra hex ("unless 3) applies")
    after = play(state, "japanese", f"retreat jp-guard-1 {' '.join(away[0])}")
    assert after.units["jp-guard-1"].where == away[0][1]


def test_15_7_item_5_a_unit_with_nowhere_to_go_is_eliminated():
    units = {"us-7-17": AROUND[0], "us-7-32": AROUND[2], "us-7-184": AROUND[4], "jp-guard-1": X}
    state = given(step="allied-combat", units=units)  # every hex around X is in an Allied ZOC
    assert retreat_paths(state, state.units["jp-guard-1"]) == []
    events = when(state, "allied", f"attack {X} with us-7-17", [6])
    assert of(events, UnitEliminated)[0].case == "Formosa 15.7 item 5"


def _reveal_state(concealed_static: str, revealed_static: str | None = None):
    units = {"us-7-17": AROUND[0], "us-7-32": AROUND[1], "jp-guard-1": X, "jp-hw-1": concealed_static}
    if revealed_static:
        units["jp-hw-2"] = revealed_static
    return given(step="allied-combat", units=units, concealed=("jp-hw-1",))


def _static_sources() -> list[str]:
    out = []
    for h in sorted(M.hexes()):
        s = str(h)
        if D.is_land(h) and _dist(s, X) == 2:
            state = _reveal_state(s)
            line = state.supply_line(state.units["jp-guard-1"])
            if line and str(line.source) == s:
                out.append(s)
    return out


def _static_source() -> str:
    return _static_sources()[0]


def test_19_3_a_concealed_static_is_revealed_when_it_first_serves_as_a_supply_source_f82():
    source = _static_source()
    state = _reveal_state(source)
    assert not [u for u in GAME.view(state, "allied")["units"] if u["id"] == "jp-hw-1"]
    events = when(state, "allied", f"attack {X} with us-7-17 us-7-32", [5])  # 8 to 2 = 400%, die 5: D1
    [revealed] = of(events, UnitRevealed)
    assert (revealed.unit, revealed.case) == ("jp-hw-1", "Formosa 19.3")
    assert of(events, UnitEliminated)[0].to == "japanese-replacements"  # the line it traced (8.3)
    after = play(state, "allied", f"attack {X} with us-7-17 us-7-32", [5])
    shown = [u for u in GAME.view(after, "allied")["units"] if u["id"] == "jp-hw-1"]
    assert shown and not shown[0]["concealed"]
    assert "jp-" not in str(GAME.visible(revealed, "allied"))  # events never name a Japanese unit to the Allies


def test_19_3_a_revealed_static_in_reach_is_used_first_and_nothing_is_revealed():
    concealed, revealed = _static_sources()[:2]
    state = _reveal_state(concealed, revealed_static=revealed)
    assert not of(when(state, "allied", f"attack {X} with us-7-17 us-7-32", [5]), UnitRevealed)


def test_19_4_air_supply_shifts_one_column_for_units_without_a_line_once_a_game_turn():
    state = given(step="allied-combat", units={"us-7-17": AROUND[0], "jp-guard-1": X}, air={"air-supply": 1})
    events = when(state, "allied", f"attack {X} with us-7-17 supply air", [1])
    assert of(events, AirSupplyFlown)
    assert [s["case"] for s in of(events, CombatResolved)[0].shifts] == ["Formosa 19.4"]
    used = replace(state, air_supply_turn=state.turn)
    refused(used, "allied", f"attack {X} with us-7-17 supply air", "Formosa 19.4")  # once a GT
    refused(replace(state, air={}), "allied", f"attack {X} with us-7-17 supply air", "Formosa 19.4")
    jp = given(step="japanese-combat", units={"us-7-17": AROUND[0], "jp-guard-1": X}, air={"air-supply": 1})
    refused(jp, "japanese", f"attack {AROUND[0]} with jp-guard-1 supply air", "Formosa 19.4")


def test_19_4_air_supply_is_refused_to_units_that_trace_a_line():
    port = str(sorted(D.ports())[0])
    state = given(step="allied-combat", units={"us-7-17": port, "us-eng-1": port, "jp-guard-1": str(next(
        n for n in M.neighbours(H(port)) if D.is_land(n)))}, air={"air-supply": 1})
    state = state.with_units(replace(state.units["us-eng-1"], base=True))
    target = state.units["jp-guard-1"].where
    refused(state, "allied", f"attack {target} with us-7-17 us-eng-1 supply air", "Formosa 19.4")


def test_13_1_19_4_air_supply_never_joins_the_b29_in_the_hex_it_struck_f108():
    from app.rules.formosa import played_under

    state = given(step="allied-combat", units={"us-7-17": AROUND[0], "jp-guard-1": X}, air={"air-supply": 1})
    struck = replace(state, strike=replace(state.strike, b29_hex=X))  # the B-29 stays there to the Air Return
    message = refused(struck, "allied", f"attack {X} with us-7-17 supply air", "Formosa 13.1")
    assert "B-29" in message
    assert of(when(struck, "allied", f"attack {X} with us-7-17", [1]), CombatResolved)  # without it, the attack goes
    assert of(when(played_under(struck, "4"), "allied", f"attack {X} with us-7-17 supply air", [1]),
              AirSupplyFlown)  # ruling F108: as it was played
    defence = given(step="japanese-combat", units={"us-7-17": X, "jp-guard-1": AROUND[0]}, air={"air-supply": 1})
    defence = replace(defence, strike=replace(defence.strike, b29_hex=X))
    defence = play(defence, "japanese", f"attack {X} with jp-guard-1")
    assert defence.pending[0]["kind"] == "defence"
    refused(defence, "allied", "defend supply air", "Formosa 13.1")


def test_5_1_13_1_the_us_air_supply_unit_supports_only_a_combat_a_us_unit_takes_part_in_f117():
    from app.rules.formosa import played_under

    attack = given(step="allied-combat", units={"cw-7-18": AROUND[0], "us-7-17": AROUND[1], "jp-guard-1": X},
                   air={"air-supply": 1})
    message = refused(attack, "allied", f"attack {X} with cw-7-18 supply air", "Formosa 5.1")  # CW alone: no
    assert "US" in message and "5.1 item 3" in message
    with_us = when(attack, "allied", f"attack {X} with cw-7-18 us-7-17 supply air", [1])  # with a US unit
    assert of(with_us, AirSupplyFlown)
    assert of(when(played_under(attack, "9"), "allied", f"attack {X} with cw-7-18 supply air", [1]), AirSupplyFlown)
    defence = given(step="japanese-combat", units={"cw-7-18": X, "jp-guard-1": AROUND[0]}, air={"air-supply": 1})
    defence = play(defence, "japanese", f"attack {X} with jp-guard-1")
    assert defence.pending[0]["kind"] == "defence"
    assert "Commonwealth" in refused(defence, "allied", "defend supply air", "Formosa 13.1")  # over CW ground units
    assert [o["order"] for o in GAME.legal_orders(defence, "allied")] == ["defend"]  # no longer offered
    assert "defend supply air" in [o["order"] for o in GAME.legal_orders(played_under(defence, "9"), "allied")]
    assert of(when(played_under(defence, "9"), "allied", "defend supply air", [1]), AirSupplyFlown)  # as played
    us = play(given(step="japanese-combat", units={"us-7-17": X, "jp-guard-1": AROUND[0]}, air={"air-supply": 1}),
              "japanese", f"attack {X} with jp-guard-1")
    assert of(when(us, "allied", "defend supply air", [1]), AirSupplyFlown)  # a US defender, as ever
    assert "defend supply air" in [o["order"] for o in GAME.legal_orders(us, "allied")]
