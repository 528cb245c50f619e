"""Formosa lines of supply (app/rules/formosa/supply.py) on the reconstructed map: 19.1 length, 19.2 ports and
HQs with the unlimited road leg, 19.3 Japanese statics, 14.3 EZOC, 5.1 nationalities, 19.4 air supply, and the
retreat toward a supply source (15.7 item 4, ruling F61)."""
from __future__ import annotations

import pytest

from app.rules.errors import IllegalOrder
from app.rules.formosa import supply as s
from app.rules.formosa.data_load import load
from app.rules.kernel.hexgrid import Hex
from app.rules.kernel.paths import TraceSituation
from app.rules.kernel.retreat import RetreatState, nearer, retreat_options

G = load()
M = G.map
H = Hex.parse
TAKAO = H("1020")
CLEAR = TraceSituation()
FOOT, MECH = "non-mechanized", "mechanized"


def test_19_1_a_line_is_as_long_as_the_printed_movement_factor_in_hexes():
    start = H("1017")
    assert M.distance(start, TAKAO) == 3
    line = s.allied_line(G, start, FOOT, 3, "us", ports={TAKAO}, hqs=(), sit=CLEAR)
    assert line is not None and line.source == TAKAO and len(line.path) == 4 and line.hq is None
    assert s.allied_line(G, start, FOOT, 2, "us", ports={TAKAO}, hqs=(), sit=CLEAR) is None


def test_19_2_through_an_hq_then_any_length_along_the_road_to_the_port():
    hq = s.Hq(H("0916"), "us", mf=1)  # on the western railroad, four rail hexes from Takao
    assert M.is_rail_hex(hq.hex) and M.distance(hq.hex, TAKAO) > hq.mf
    assert s.hq_line(G, hq, {TAKAO}, CLEAR) is not None
    start = H("1016")
    assert M.distance(start, hq.hex) == 1 and M.distance(start, TAKAO) > 1
    line = s.allied_line(G, start, FOOT, 1, "us", ports={TAKAO}, hqs=[hq], sit=CLEAR)
    assert line is not None and line.hq == hq.hex and line.source == TAKAO and line.path[:2] == (start, hq.hex)


def test_5_1_us_units_never_trace_to_a_commonwealth_hq():
    hq = s.Hq(H("0916"), "cw", mf=1)
    assert s.allied_line(G, H("1016"), FOOT, 1, "us", ports={TAKAO}, hqs=[hq], sit=CLEAR) is None
    assert s.allied_line(G, H("1016"), FOOT, 1, "cw", ports={TAKAO}, hqs=[hq], sit=CLEAR) is not None


def test_14_3_no_line_through_an_ezoc_even_along_the_railroad():
    hq = s.Hq(H("0916"), "us", mf=1)
    assert s.hq_line(G, hq, {TAKAO}, TraceSituation(ezoc=frozenset({H("0917")}))) is not None  # around it
    cut = TraceSituation(ezoc=frozenset(M.neighbours(hq.hex)))
    assert s.hq_line(G, hq, {TAKAO}, cut) is None


def test_14_3_a_unit_in_an_ezoc_traces_out_and_a_port_in_one_supplies_only_its_hex():
    start = H("1019")
    inside = TraceSituation(ezoc=frozenset({start}))
    assert s.allied_line(G, start, FOOT, 2, "us", ports={TAKAO}, hqs=(), sit=inside) is not None
    held = TraceSituation(ezoc=frozenset({TAKAO}))
    assert s.allied_line(G, TAKAO, FOOT, 2, "us", ports={TAKAO}, hqs=(), sit=held).path == (TAKAO,)
    assert s.allied_line(G, start, FOOT, 2, "us", ports={TAKAO}, hqs=(), sit=held) is None


def test_14_3_19_0_in_a_game_the_enemys_units_and_zoc_are_what_blocks_a_sides_lines():
    from formosa_given import given
    from formosa_map import ring

    x, around = ring("open")
    state = given(units={"jp-9-7": x, "us-7-17": "1020"})
    allied = state.trace_situation("allied")
    assert allied.enemy_occupied == {H(x)} and allied.ezoc == {H(h) for h in around}
    assert state.trace_situation("japanese").enemy_occupied == {H("1020")}


def test_19_0_no_line_into_enemy_occupied_hexes():
    start = H("1018")
    blocked = TraceSituation(enemy_occupied=frozenset(n for n in M.neighbours(start) if n != start))
    assert s.allied_line(G, start, FOOT, 4, "us", ports={TAKAO}, hqs=(), sit=blocked) is None


def test_19_2_an_amphibious_marker_supplies_its_own_hex_in_the_invasion_phase():
    beach = H("0919")
    line = s.allied_line(G, beach, FOOT, 1, "us", ports=(), hqs=(), sit=CLEAR, markers={beach})
    assert line is not None and line.path == (beach,)
    assert s.allied_line(G, H("1019"), FOOT, 1, "us", ports=(), hqs=(), sit=CLEAR, markers={beach}) is None


def test_19_0_item_4_mechanized_lines_keep_to_roads_in_mountains():
    start, port = H("1216"), H("1520")  # east across the central range
    foot = s.allied_line(G, start, FOOT, 6, "us", ports={port}, hqs=(), sit=CLEAR)
    assert foot is not None and any(M.terrain_of(h) == "mountain" and not M.is_road_hex(h) for h in foot.path)
    mech = s.allied_line(G, start, MECH, 6, "us", ports={port}, hqs=(), sit=CLEAR)
    assert mech is None or all(M.is_road_hex(h) or M.is_rail_hex(h) for h in mech.path
                               if M.terrain_of(h) in ("mountain", "peak"))


def test_19_3_japanese_units_trace_to_a_static_unit_which_the_engine_then_reveals():
    statics = {H("1014"), H("1520")}
    line = s.japanese_line(G, H("1017"), FOOT, 3, statics=statics, sit=CLEAR)
    assert line is not None and line.source == H("1014")
    assert s.japanese_line(G, H("1017"), FOOT, 2, statics=statics, sit=CLEAR) is None


def test_15_7_item_4_retreat_toward_the_nearest_supply_source_ruling_f61():
    hq = s.Hq(H("0916"), "us", mf=1)
    lost = s.Hq(H("1416"), "us", mf=1)  # in the mountains, off every road: it reaches no port
    sources = s.allied_sources(G, {TAKAO}, [hq, lost], CLEAR)
    assert sources == {TAKAO, hq.hex}
    toward = nearer(s.source_distance(G, sources))
    start = H("1117")
    _, options = retreat_options(M, RetreatState(start), lambda c, h, st: G.is_land(h), [toward])
    far = s.source_distance(G, sources)
    assert options and all(far(h) < far(start) for h in options)
    assert s.source_distance(G, ())(start) == float("inf")


def test_19_4_air_supply_once_a_gt_only_without_a_line_never_for_a_landing():
    s.check_air_supply(used_this_turn=False, any_line=False, amphibious_assault=False)
    for kw, case in (({"used_this_turn": True}, "19.4"), ({"any_line": True}, "19.4"),
                     ({"amphibious_assault": True}, "10.2.2")):
        args = {"used_this_turn": False, "any_line": False, "amphibious_assault": False, **kw}
        with pytest.raises(IllegalOrder, match=f"Formosa {case}"):
            s.check_air_supply(**args)
