"""Formosa victory through orders (4.1 sudden death, 4.2 points and levels; CF-D4, rulings F7, F38)."""
from __future__ import annotations

from dataclasses import replace

from formosa_given import given, of, when
from formosa_map import holding

from app.rules.engine.events import GameEnded
from app.rules.formosa import GAME
from app.rules.formosa.events import VictoryCounted

D = GAME.data({})


def final(allied_vp: int, japanese_vp: int):
    units = holding(allied_vp)
    lost = [u.id for u in D.units if u.side == "allied" and u.size == "regiment" and u.id not in units]
    units |= {uid: "allied-eliminated" for uid in lost[:japanese_vp // 2]}
    units |= {uid: "allied-replacements" for uid in lost[japanese_vp // 2:japanese_vp]}  # F7: they count too
    state = given(step="japanese-combat", turn=13, units=units)
    bases = [uid for uid in units if uid.startswith("us-eng")]
    return state.with_units(*(replace(state.units[b], base=True) for b in bases))


def test_4_2_final_30_to_8_is_an_allied_operational_victory_cf_d4():
    events = when(final(30, 8), "japanese", "end")
    [counted] = of(events, VictoryCounted)
    assert (counted.allied, counted.japanese, counted.level) == (30, 8, "Allied Operational Victory")
    [ended] = of(events, GameEnded)
    assert ended.winner == "allied" and "(Formosa 4.2)" in ended.reason


def test_4_2_each_victory_level():
    for (a, j), level, winner in (((27, 2), "Allied Strategic Victory", "allied"), ((20, 4), "Draw", None),
                                  ((16, 6), "Japanese Operational Victory", "japanese"),
                                  ((10, 6), "Japanese Strategic Victory", "japanese")):
        events = when(final(a, j), "japanese", "end")
        assert of(events, VictoryCounted)[0].level == level
        assert of(events, GameEnded)[0].winner == winner


def test_4_2_ports_and_airfields_score_only_with_an_engineer_base():
    state = final(30, 0)
    unbased = state.with_units(*(replace(u, base=False) for u in state.units.values() if u.base))
    assert of(when(unbased, "japanese", "end"), VictoryCounted)[0].allied < 30


def test_4_1_sudden_death_japanese_when_no_allied_unit_is_on_formosa_from_gt_2_f38():
    x = str(sorted(D.airfields())[0])
    state = given(step="allied-combat", turn=2, units={"us-7-17": "allied-staging", "jp-50-301": x})
    [ended] = of(when(state, "allied", "end"), GameEnded)
    assert ended.winner == "japanese" and "4.1" in ended.reason
    early = given(step="allied-combat", turn=1, units={"us-7-17": "allied-staging"})
    assert not of(when(early, "allied", "end"), GameEnded)


def test_4_1_sudden_death_allied_when_every_port_and_airfield_hex_is_occupied():
    infantry = [u.id for u in D.units if u.side == "allied" and u.type in ("infantry", "marine")]
    hexes = sorted(str(h) for h in D.sudden_death_hexes())
    state = given(step="allied-movement", turn=3, units=dict(zip(infantry, hexes, strict=False)))
    [ended] = of(when(state, "allied", "end"), GameEnded)
    assert ended.winner == "allied" and "every port and airfield" in ended.reason


def test_4_2_both_players_read_the_score_as_it_would_count_now_and_the_hexes_the_allies_control():
    # control is occupation (4.2; F7): the map both sides read marks every hex an Allied unit occupies
    state = final(30, 8)
    occupied = sorted({u.where for u in state.on_map("allied")})
    for side in ("allied", "japanese"):
        seen = GAME.view(state, side)
        assert seen["control"] == dict.fromkeys(occupied, "allied")
        assert seen["score"]["by_side"] == {"allied": 30, "japanese": 8}


def test_4_2_every_band_edge_through_the_last_order_the_draw_band_13_to_18():
    """4.2's bands at each edge, counted by the order that ends the last Game-Turn (Allied VP less Japanese VP)."""
    bands = {25: ("Allied Strategic Victory", "allied"), 24: ("Allied Operational Victory", "allied"),
             19: ("Allied Operational Victory", "allied"), 18: ("Draw", None), 13: ("Draw", None),
             12: ("Japanese Operational Victory", "japanese"), 7: ("Japanese Operational Victory", "japanese"),
             6: ("Japanese Strategic Victory", "japanese")}
    for net, (level, winner) in bands.items():
        events = when(final(net + 2, 2), "japanese", "end")
        [counted] = of(events, VictoryCounted)
        assert (counted.allied - counted.japanese, counted.level) == (net, level)
        assert of(events, GameEnded)[0].winner == winner
