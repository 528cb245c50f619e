"""Formosa where the strike stage meets the landings and supply (rulings F86-F88): an assault with LP, ground
support and the Japanese defender's LP (10.2.2, 15.4.1, 16.3); the Allied defender's air supply (19.4); the LP
shift's line revealing a concealed static (19.3); US and Commonwealth gunfire and air in one attack (5.1 item 3,
16.0); no Japanese retreat or advance into a B-29 suppressed hex, which an Allied unit there does not lose its
ZOC for (16.5 DS). Through orders."""
from __future__ import annotations

from dataclasses import replace

from formosa_given import given, of, play, refused, when
from formosa_map import D, M, ring, shore

from app.rules.base import Command
from app.rules.formosa import GAME, played_under
from app.rules.formosa.airpower import SupportReturned
from app.rules.formosa.events import (
    AirSupplyFlown,
    CombatResolved,
    LpSpent,
    UnitRetreated,
    UnitRevealed,
    UnitsAdvanced,
)
from app.rules.formosa.state import Strike
from app.rules.kernel.hexgrid import Hex

H = Hex.parse
X, AROUND = ring("open")
BEACH, (SEA,) = shore(1)
FOUR = ("us-7-17", "us-7-32", "us-7-184", "us-27-105")
SUPPORT = {"amount": 2, "case": "Formosa 16.3", "reason": "ground support"}


def planned(**missions) -> Strike:
    return Strike(missions={side: dict(m) for side, m in missions.items()}, revealed=True)


def preview(state, side: str, order: str) -> dict:
    command = GAME.parse(order, side, state)
    return GAME.preview(state, Command(side, command.action, command.args))


def at_sea(japanese: dict, **fields):
    state = given(step="invasion", turn=1, units={**{u: "allied-staging" for u in FOUR}, **japanese},
                  markers={"amphibious": 1}, **fields)
    return state


# -- an assault with the strike stage's support (10.2.2, 15.4.1, 16.3) --------------------------------------------
def test_10_2_2_ground_support_flies_with_an_assault_and_returns_after_it_f86():
    state = at_sea({"jp-9-7": BEACH}, air={"allied-tac": 2}, strike=planned(allied={"tactical": 2}))
    refused(state, "allied", f"support {BEACH} 2", "Formosa 10.2.2, ruling F86")  # no stack at sea yet
    state = play(state, "allied", f"land {SEA} with {' '.join(FOUR)}")
    inland = next(str(n) for n in M.neighbours(H(BEACH)) if D.is_land(n))
    refused(state, "allied", f"support {inland} 1", "Formosa 10.2.2, ruling F86")  # not a hex it may assault
    state = play(state, "allied", f"support {BEACH} 2")
    assert SUPPORT in preview(state, "allied", f"assault {BEACH}")["shifts"]
    events = when(state, "allied", f"assault {BEACH}", [1])
    [fight] = of(events, CombatResolved)
    assert SUPPORT in fight.shifts and fight.assault == BEACH
    state = play(state, "allied", f"assault {BEACH}", [1])
    assert ("allied", BEACH) in state.strike.flown  # 16.3: returned after its combat
    assert GAME.view(state, "allied")["air_on_map"]["support"] == []
    refused(state, "allied", f"support {BEACH} 1", "Formosa 16.3")  # after the first assault


def test_f86_support_for_an_assault_nobody_opposes_returns_unused_at_the_end_of_the_phase():
    state = at_sea({"jp-deception-1": BEACH}, concealed=("jp-deception-1",), air={"allied-tac": 1},
                   strike=planned(allied={"tactical": 1}))
    state = play(state, "allied", f"land {SEA} with {' '.join(FOUR)}")
    state = play(state, "allied", f"support {BEACH} 1")
    assert not of(when(state, "allied", f"assault {BEACH}"), CombatResolved)  # deception only: no die (F85)
    state = play(state, "allied", f"assault {BEACH}")
    [back] = of(when(state, "allied", "end"), SupportReturned)
    assert back.hexes == [BEACH]
    assert ("allied", BEACH) in play(state, "allied", "end").strike.flown  # it flies no Combat Phase attack


def test_15_4_1_an_assault_spends_lp_and_the_japanese_defender_answers_with_his_f22():
    # a game created under rules 1-22: since 23 an assault takes no LP (10.2.2, ruling F173, test_formosa_walk23)
    state = played_under(at_sea({"jp-9-7": BEACH, "jp-cd-1": BEACH}, lp={"allied": 3, "japanese": 2},
                                naval={"gunfire": 1}), "22")
    state = play(state, "allied", f"land {SEA} with {' '.join(FOUR)}")
    shown = preview(state, "allied", f"assault {BEACH} gunfire 1 lp 2")
    assert {"amount": 2, "case": "Formosa 15.4.1", "reason": "LP spent attacking"} in shown["shifts"]
    events = when(state, "allied", f"assault {BEACH} gunfire 1 lp 2")
    assert [e.amount for e in of(events, LpSpent)] == [2] and not of(events, CombatResolved)
    state = play(state, "allied", f"assault {BEACH} gunfire 1 lp 2")
    assert state.pending[0]["kind"] == "defence" and state.pending[0]["side"] == "japanese"
    refused(state, "japanese", "defend lp 2", "Formosa 15.4.1")  # the Japanese: one LP a combat
    events = when(state, "japanese", "defend lp 1", [1])
    [fight] = of(events, CombatResolved)
    assert fight.assault == BEACH
    assert {"amount": -1, "case": "Formosa 15.4.1, ruling F22", "reason": "LP spent defending"} in fight.shifts
    assert {"amount": 2, "case": "Formosa 15.4.1", "reason": "LP spent attacking"} in fight.shifts
    assert {"amount": 1, "case": "Formosa 17.0", "reason": "naval gunfire"} in fight.shifts


# -- supply in combat (19.3, 19.4, 19.5) -------------------------------------------------------------------------
def _static_source(units: dict) -> str:
    """A hex two from X where a concealed static unit is jp-guard-1's only supply source."""
    for h in sorted(M.hexes()):
        if D.is_land(h) and M.distance(h, H(X)) == 2 and all(M.distance(h, H(p)) > 1 for p in units.values()):
            state = given(units={**units, "jp-hw-1": str(h)}, concealed=("jp-hw-1",))
            line = state.supply_line(state.units["jp-guard-1"])
            if line and str(line.source) == str(h):
                return str(h)
    raise LookupError


def test_19_3_the_japanese_lp_shift_reveals_the_concealed_static_its_line_uses_f82():
    units = {"us-7-17": AROUND[0], "jp-guard-1": X}
    source = _static_source(units)
    attack = given(step="japanese-combat", units={**units, "jp-hw-1": source}, concealed=("jp-hw-1",),
                   lp={"allied": 0, "japanese": 2})
    events = when(attack, "japanese", f"attack {AROUND[0]} with jp-guard-1 lp 1", [1])
    assert [(e.unit, e.case) for e in of(events, UnitRevealed)] == [("jp-hw-1", "Formosa 19.3")]
    defend = given(step="allied-combat", units={**units, "jp-hw-1": source}, concealed=("jp-hw-1",),
                   lp={"allied": 0, "japanese": 2})
    defend = play(defend, "allied", f"attack {X} with us-7-17")
    assert defend.units["jp-hw-1"].concealed  # asking reveals nothing
    events = when(defend, "japanese", "defend lp 1", [1])
    assert [(e.unit, e.case) for e in of(events, UnitRevealed)] == [("jp-hw-1", "Formosa 19.3")]
    assert not of(when(defend, "japanese", "defend", [1]), UnitRevealed)  # no LP, no line traced


def test_19_4_the_allied_defender_commits_air_supply_when_no_defender_traces_a_line_f87():
    state = given(step="japanese-combat", units={"us-7-17": AROUND[0], "jp-9-7": X}, air={"air-supply": 1}, naval={})
    told = preview(state, "japanese", f"attack {AROUND[0]} with jp-9-7")["text"]  # the attacker is warned
    assert told.endswith("the defender may still commit LP, naval gunfire or air supply for left shifts "
                         "(15.4.1, 17.0, 19.4)")
    state = play(state, "japanese", f"attack {AROUND[0]} with jp-9-7")
    assert state.pending[0]["kind"] == "defence" and state.pending[0]["side"] == "allied"  # the unit is unused
    with_lp = given(step="japanese-combat", units={"us-7-17": AROUND[0], "jp-9-7": X}, air={"air-supply": 1}, naval={},
                    lp={"allied": 1, "japanese": 0})
    with_lp = play(with_lp, "japanese", f"attack {AROUND[0]} with jp-9-7")
    refused(with_lp, "allied", "defend lp 1 supply air", "Formosa 15.4.1, 19.5")  # 19.5 item 2: no line, no LP
    events = when(state, "allied", "defend supply air", [1])
    assert of(events, AirSupplyFlown)
    assert {"amount": -1, "case": "Formosa 19.4", "reason": "air supply defending"} in of(
        events, CombatResolved)[0].shifts
    used = given(step="japanese-combat", units={"us-7-17": AROUND[0], "jp-9-7": X}, air={"air-supply": 1}, naval={})
    used = replace(used, air_supply_turn=used.turn)
    assert "may still commit" not in preview(used, "japanese", f"attack {AROUND[0]} with jp-9-7")["text"]
    assert of(when(used, "japanese", f"attack {AROUND[0]} with jp-9-7", [1]), CombatResolved)  # nobody is asked


def test_19_4_air_supply_is_refused_to_a_defender_that_traces_a_line():
    port = str(sorted(D.ports())[0])
    inland = str(next(n for n in M.neighbours(H(port)) if D.is_land(n)))
    state = given(step="japanese-combat", units={"us-7-17": port, "us-eng-1": port, "jp-9-7": inland},
                  air={"air-supply": 1})
    state = state.with_units(replace(state.units["us-eng-1"], base=True))
    state = play(state, "japanese", f"attack {port} with jp-9-7")
    refused(state, "allied", "defend supply air", "Formosa 19.4")


# -- US and Commonwealth support (5.1 item 3, 16.0 Important) ------------------------------------------------------
def _mixed() -> tuple[str, str, str]:
    """A land hex and two hexes next to it, the first coastal, none across a hexside feature."""
    for b in sorted(M.hexes()):
        if not D.is_land(b) or M.features_of(b):
            continue
        near = [n for n in M.neighbours(b) if D.is_land(n) and not M.hexside_features(b, n)]
        coastal = [n for n in near if D.is_coastal(n)]
        for a in coastal:
            other = [n for n in near if n != a]
            if other:
                return str(b), str(a), str(other[0])
    raise LookupError


def test_5_1_item_3_commonwealth_gunfire_and_air_support_an_attack_with_a_commonwealth_unit():
    b, a, c = _mixed()
    state = given(units={"us-7-17": a, "cw-7-18": c, "jp-9-7": b}, naval={"gunfire": 2, "cw-gunfire": 1},
                  air={"cw-tac": 2}, strike=planned(allied={"cw-tactical": 2}))
    state = play(state, "allied", f"support {b} 2 cw")
    mixed = preview(state, "allied", f"attack {b} with us-7-17 cw-7-18 gunfire 1 cw-gunfire 1")
    assert {"amount": 2, "case": "Formosa 17.0", "reason": "naval gunfire"} in mixed["shifts"]
    assert SUPPORT in mixed["shifts"]  # Commonwealth air: a Commonwealth unit attacks
    refused(state, "allied", f"attack {b} with us-7-17 cw-7-18 gunfire 2 cw-gunfire 1", "Formosa 17.0")  # two
    refused(state, "allied", f"attack {b} with us-7-17 cw-7-18 cw-gunfire 2", "Formosa 17.0")  # one CW unit
    [fight] = of(when(state, "allied", f"attack {b} with us-7-17 cw-7-18 gunfire 1 cw-gunfire 1", [1]),
                 CombatResolved)
    assert {"amount": 2, "case": "Formosa 17.0", "reason": "naval gunfire"} in fight.shifts and SUPPORT in fight.shifts
    us_only = given(units={"us-7-17": a, "jp-9-7": b}, naval={"gunfire": 2, "cw-gunfire": 1}, air={"cw-tac": 2},
                    strike=planned(allied={"cw-tactical": 2}))
    us_only = play(us_only, "allied", f"support {b} 2 cw")
    refused(us_only, "allied", f"attack {b} with us-7-17 cw-gunfire 1", "Formosa 16.0, 5.1 item 3")
    assert SUPPORT not in preview(us_only, "allied", f"attack {b} with us-7-17")["shifts"]
    cw_only = given(units={"cw-7-18": a, "jp-9-7": b}, naval={"gunfire": 2, "cw-gunfire": 1})
    refused(cw_only, "allied", f"attack {b} with cw-7-18 gunfire 1", "Formosa 16.0, 5.1 item 3")
    assert of(when(cw_only, "allied", f"attack {b} with cw-7-18 cw-gunfire 1", [1]), CombatResolved)


# -- B-29 suppression and what enters the hex (16.5 DS) -----------------------------------------------------------
def _die_for(state, side: str, order: str, code: str) -> int:
    return next(die for die in range(1, 7) if of(when(state, side, order, [die, 1]), CombatResolved)[0].code == code)


def test_16_5_no_japanese_unit_retreats_into_a_suppressed_hex_f88():
    units = {"us-7-17": AROUND[0], "us-7-32": AROUND[0], "jp-9-7": X, "jp-9-19": AROUND[3]}
    free = given(units=units)
    order = f"attack {X} with us-7-17 us-7-32"
    die = _die_for(free, "allied", order, "DR")
    free = play(free, "allied", order, [die])
    assert free.pending and free.pending[0]["kind"] == "retreat"
    assert of(when(free, "japanese", f"retreat jp-9-7 {AROUND[3]}"), UnitRetreated)  # open without the B-29
    struck = play(given(units=units, strike=Strike(suppressed=(AROUND[3],))), "allied", order, [die])
    refused(struck, "japanese", f"retreat jp-9-7 {AROUND[3]}", "Formosa 15.7")


def test_16_5_a_suppressed_hex_an_allied_unit_holds_keeps_its_zoc_and_no_japanese_unit_advances_into_it_f88():
    units = {"us-7-17": AROUND[0], "jp-9-7": X, "jp-9-19": X}
    state = given(step="japanese-combat", turn=1, units=units, strike=Strike(suppressed=(AROUND[0],)), naval={})
    refused(state, "japanese", "end", "Formosa 15.0")  # the Allied unit there exerts its ZOC (16.5 DS item 1)
    order = f"attack {AROUND[0]} with jp-9-7 jp-9-19"
    die = _die_for(state, "japanese", order, "B1")  # the defender gone: the survivor may advance (15.5 B1)
    state = play(state, "japanese", order, [die])
    assert state.pending and state.pending[0]["kind"] == "advance"
    [left] = [u for u in ("jp-9-7", "jp-9-19") if state.units[u].where == X]
    refused(state, "japanese", f"advance {left} to {AROUND[0]}", "Formosa 16.5, ruling F88")
    free = play(given(step="japanese-combat", turn=1, units=units, naval={}), "japanese", order, [die])
    assert of(when(free, "japanese", f"advance {left} to {AROUND[0]}"), UnitsAdvanced)
