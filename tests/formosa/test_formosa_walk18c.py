"""Rules version 18, third pass (issue 30, session part 13): two readings probed with positions and found held by
the engine, pinned here (ruling F146).

- 12.3 with 16.4: the minimum move disregards terrain costs; interdiction's extra MP are no terrain cost and are
  paid, and every Japanese mobile unit has the MP to pay them, so a unit short only by the surcharge still enters
  its first hex, and goes no further; a later hex gets no such allowance;
- 5.2 with 7.2: a deception unit is a unit (11.1, 14.0, F107), so one standing on an airfield holds it for the
  Japanese income as any other unit does."""
from __future__ import annotations

from formosa_given import of, refused, when
from formosa_map import D, M, position

from app.rules.formosa import GAME
from app.rules.formosa.events import LogisticsReceived, UnitMoved
from app.rules.kernel.hexgrid import Hex

H = Hex.parse


def test_12_3_16_4_a_unit_short_only_by_the_interdiction_surcharge_enters_its_first_hex_f146():
    peak, start = next((str(p), str(n)) for p in sorted(M.hexes()) if M.terrain_of(p) == "peak"
                       and not M.is_road_hex(p) for n in M.neighbours(p)
                       if M.terrain_of(n) == "open" and not M.hexside_features(n, p))
    via = next(str(n) for n in M.neighbours(H(start)) if H(peak) in M.neighbours(n) and D.is_land(n))
    state = GAME.initial_state("1", {"position": position(
        phase="japanese-movement", units={"jp-guard-1": start}, revealed=["jp-guard-1"], bases=[], where={},
        missions={"allied": {"interdiction": 1}}, interdiction={peak: 1})})  # a revealed 2-4: 4 MP
    [moved] = of(when(state, "japanese", f"move jp-guard-1 {peak}"), UnitMoved)
    assert moved.path == [start, peak] and moved.mp == 4  # the peak's 4 MP fit, the 1 more does not: it enters
    refused(state, "japanese", f"move jp-guard-1 {via} {peak}", "Formosa 12.0")  # not as a later hex


def test_5_2_7_2_a_deception_unit_on_an_airfield_holds_it_for_the_japanese_income_f146():
    fields = sorted(str(h) for h in D.airfields())
    held = {"jp-deception-1": fields[0], "jp-deception-2": fields[1], "jp-9-7": fields[2], "jp-9-19": fields[3]}

    def income(units):
        state = GAME.initial_state("1", {"position": position(phase="japanese-combat", units=units, revealed=[],
                                                              bases=[], where={})})
        [lp] = [e for e in when(state, "japanese", "end", [3] * 6) if isinstance(e, LogisticsReceived)
                and e.side == "japanese"]
        return lp.items[1]

    assert income(held) == ["4 airfields", 2, "Formosa 7.2"]
    assert income({u: h for u, h in held.items() if "deception" not in u}) == ["2 airfields", 1, "Formosa 7.2"]
