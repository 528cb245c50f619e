"""The Formosa strike stage and the air and LP choices of combat through orders (6.1; 15.4.1, 16.0-16.6, 17.0,
18.0): secret strike planning and its reveal, air superiority (CF-11), kamikaze, the mobile fleet, the B-29 with
and without Fortified, ground support (CF-10), interdiction, LP shifts and the defender's LP and gunfire."""
from __future__ import annotations

import re
from dataclasses import replace

import pytest
from formosa_given import given as position
from formosa_given import of, play, refused, when
from formosa_map import D, M, ring

from app.events import core
from app.rules.base import Command
from app.rules.catalog import installed
from app.rules.engine.events import DecisionRequired
from app.rules.formosa import GAME, played_under
from app.rules.formosa.airpower import (
    AirPlaced,
    AirPointsLost,
    B29Struck,
    FleetSortied,
    KamikazeHitsTaken,
    KamikazeResolved,
    StrikeAssigned,
    StrikesRevealed,
)
from app.rules.formosa.events import CombatResolved, LpSpent, UnitEliminated, UnitMoved, UnitRevealed
from app.rules.formosa.state import Strike

CATALOG = installed()  # the rule sets installed here

X, AROUND = ring("open")


def given(step: str = "allied-combat", turn: int = 1, **fields):
    """A position on GT 1 unless told (sudden death is checked from GT 2, 4.1: these positions are small)."""
    return position(step, turn, **fields)


def planned(**missions) -> Strike:
    return Strike(missions={side: dict(m) for side, m in missions.items()}, revealed=True)


def preview(state, side: str, order: str) -> dict:
    return GAME.preview(state, Command(side, "attack", GAME.parse(order, side, state).args))


# -- 16.1 strike planning -------------------------------------------------------------------------------------------
def test_16_0_a_two_point_counter_flies_two_one_point_missions_cf_10():
    state = given(step="strike-planning-allied", air={"allied-tac": 2})
    refused(state, "allied", "plan 1 air-superiority 1 tactical 1 interdiction", "Formosa 16.1")  # one mission a GT
    refused(state, "allied", "plan 1 kamikaze", "Formosa 16.1")
    refused(state, "allied", "plan 1 cw-tactical", "Formosa 16.1")  # no Commonwealth points in Scenario 1
    refused(state, "allied", "plan 1 tactical 1 tactical", "Formosa 16.1")
    refused(state, "allied", "plan 1 air-superiority 2 tactical", "Formosa 16.1")
    state = play(state, "allied", "plan 1 air-superiority 1 tactical")
    assert {m: n for m, n in state.strike.missions["allied"].items() if n} == {"air-superiority": 1, "tactical": 1}
    assert state.step != "strike-planning-allied"  # one order is the whole plan (ruling F70)


def test_16_0_a_game_created_under_rules_version_1_assigns_a_mission_at_a_time():
    """Its stored orders decide as they were played (`played_under`): `assign` replaces one mission, `end`. A game
    stored before rules versions were recorded carries none: it was created under version 1."""
    state = played_under(given(step="strike-planning-allied", air={"allied-tac": 2}), "")
    refused(state, "allied", "plan 1 tactical", "Formosa 6.1")
    state = play(state, "allied", "assign 1 air-superiority")
    state = play(state, "allied", "assign 1 tactical")
    assert state.strike.missions["allied"] == {"air-superiority": 1, "tactical": 1}
    refused(state, "allied", "assign 1 interdiction", "Formosa 16.1")  # each point flies one mission a GT
    refused(state, "allied", "assign 1 kamikaze", "Formosa 16.1")
    refused(state, "allied", "assign 1 cw-tactical", "Formosa 16.1")  # no Commonwealth points in Scenario 1
    refused(state, "allied", "assign 2 tactical", "Formosa 16.1")
    state = play(play(state, "allied", "assign 0 air-superiority"), "allied", "assign 2 tactical")  # a new figure
    assert state.strike.missions["allied"] == {"air-superiority": 0, "tactical": 2}


def test_16_1_each_plan_is_secret_until_the_reveal_in_the_view_the_history_and_the_orders():
    state = given(step="strike-planning-japanese", air={"japanese-tac": 4, "kamikaze": 3, "allied-tac": 6})
    events = when(state, "japanese", "plan 3 kamikaze")
    [assigned] = [e for e in of(events, StrikeAssigned) if e.mission == "kamikaze"]
    # one event a mission of the side, whatever the plan names: the other side can count nothing of it (F70)
    assert [e.mission for e in of(events, StrikeAssigned)] == ["air-superiority", "tactical", "kamikaze"]
    assert len(of(when(state, "japanese", "plan"), StrikeAssigned)) == 3
    state = play(state, "japanese", "plan 3 kamikaze")
    assert state.step == "strike-planning-allied"
    # the Allied player plans without seeing the Japanese plan anywhere
    seen = GAME.view(state, "allied")
    assert "japanese" not in seen["missions"] and "kamikaze" not in seen["air"]
    told = GAME.visible(assigned, "allied")
    assert isinstance(told, str) and "3" not in told and "kamikaze" not in told
    order = core.OrderGiven(side="japanese", text="plan 3 kamikaze", command={})
    assert "kamikaze" not in str(GAME.visible(order, "allied"))
    assert GAME.visible(order, "allied") == GAME.visible(core.OrderGiven("japanese", "plan", {}), "allied")
    assert "kamikaze" not in GAME.prompt(state).step
    assert GAME.visible(assigned, "japanese") is True and GAME.view(state, "japanese")["missions"]["japanese"]
    events = when(state, "allied", "plan 4 air-superiority")
    [revealed] = of(events, StrikesRevealed)
    assert {s: {m: n for m, n in plan.items() if n} for s, plan in revealed.missions.items()} == \
        {"japanese": {"kamikaze": 3}, "allied": {"air-superiority": 4}}
    assert GAME.visible(revealed, "allied") is True and "3 kamikaze" in revealed.describe()
    state = play(state, "allied", "plan 4 air-superiority")
    assert state.step == "air-superiority"
    assert {m: n for m, n in GAME.view(state, "allied")["missions"]["japanese"].items() if n} == {"kamikaze": 3}


# -- 16.2 air superiority -----------------------------------------------------------------------------------------
def test_16_2_each_loser_takes_its_losses_where_it_likes_cf_11():
    strike = planned(allied={"air-superiority": 6, "tactical": 4}, japanese={"air-superiority": 2, "tactical": 2})
    state = given(step="air-superiority", air={"allied-tac": 10, "japanese-tac": 4}, strike=strike)
    # Allied 6 points, die 6: the Japanese lose 3; Japanese 2 points, die 6: the Allies lose 2 (air.toml)
    state = play(state, "allied", "roll", [6, 6])
    assert state.pending[0]["kind"] == "air-losses" and state.pending[0]["side"] == "japanese"
    refused(state, "japanese", "lose 1 from kamikaze", "Formosa 16.2")  # never kamikaze (16.2 step 3)
    refused(state, "japanese", "lose 3 from tactical", "Formosa 16.2")  # only 2 there
    state = play(state, "japanese", "lose 1 from air-superiority")
    assert state.pending[0]["due"] == 2
    state = play(state, "japanese", "lose 2 from tactical")
    assert state.air["japanese-tac"] == 1 and state.pending[0]["side"] == "allied"
    # a loss with one way left to take it is taken at once
    rest = play(play(given(step="air-superiority", air={"allied-tac": 10, "japanese-tac": 4}, strike=strike),
                     "allied", "roll", [6, 6]), "japanese", "lose 2 from air-superiority")
    assert rest.strike.missions["japanese"] == {"air-superiority": 0, "tactical": 1}
    # CF-11: two points from air superiority, from ground support, or one of each
    for orders in (["lose 2 from air-superiority"], ["lose 2 from tactical"],
                   ["lose 1 from air-superiority", "lose 1 from tactical"]):
        after = state
        for order in orders:
            after = play(after, "allied", order)
        assert after.air["allied-tac"] == 8 and after.step == "japanese-special-attack" and not after.pending


def test_16_2_without_points_a_side_fires_on_the_zero_column_and_a_forced_loss_is_taken_at_once():
    strike = planned(allied={"tactical": 3}, japanese={})
    state = given(step="air-superiority", air={"allied-tac": 3}, strike=strike)
    events = when(state, "allied", "roll", [1, 6])  # the Japanese 0 column, die 6: one point (anti-aircraft)
    assert [(e.side, e.mission, e.points) for e in of(events, AirPointsLost)] == [("allied", "tactical", 1)]


def test_ruling_f109_japanese_air_superiority_points_all_shot_down_still_fire_on_their_committed_column():
    strike = planned(allied={"air-superiority": 6}, japanese={"air-superiority": 2})
    state = given(step="air-superiority", air={"allied-tac": 6, "japanese-tac": 2}, strike=strike)
    events = when(state, "allied", "roll", [6, 6])  # Allied 6 points, die 6: three losses, the Japanese have two
    lost = [(e.side, e.mission, e.points) for e in of(events, AirPointsLost)]
    assert ("japanese", "air-superiority", 2) in lost  # every Japanese point in the display is gone
    assert ("allied", "air-superiority", 2) in lost  # yet they fire on the 2 column (die 6: 2), not the 0 column (1)


# -- 16.6 kamikaze, 18.0 the mobile fleet ---------------------------------------------------------------------------
def test_16_6_kamikaze_hits_are_split_by_the_allied_player_and_the_points_are_spent():
    strike = planned(japanese={"kamikaze": 3})
    state = given(step="japanese-special-attack", air={"kamikaze": 3}, strike=strike,
                  markers={"amphibious": 2}, naval={"gunfire": 2})
    refused(state, "japanese", "end", "Formosa 16.6")  # the roll comes first, every GT (F5), by 16.6 (F166)
    state = play(state, "japanese", "roll", [6])  # three points read the 3-4 column: two hits
    assert state.air["kamikaze"] == 0 and state.pending[0]["kind"] == "kamikaze-hits"
    refused(state, "allied", "return 2 amphibious 1 gunfire", "Formosa 16.6")
    state = play(state, "allied", "return 1 amphibious 1 gunfire")
    assert (state.markers["amphibious"], state.naval["gunfire"]) == (1, 1)
    assert state.step == "invasion"  # no fleet to sail, no B-29 assigned: on to the Allied Player Turn


def test_16_6_the_kamikaze_roll_is_made_on_the_zero_column_without_points_f5():
    state = given(step="japanese-special-attack", markers={"amphibious": 2}, naval={"gunfire": 0})
    events = when(state, "japanese", "roll", [6])
    assert [(e.points, e.die, e.hits) for e in of(events, KamikazeResolved)] == [(0, 6, 1)]
    assert [(e.markers, e.gunfire) for e in of(events, KamikazeHitsTaken)] == [(1, 0)]  # no choice to make


def test_18_0_a_decisive_battle_costs_a_die_of_lp_the_gunfire_and_the_landings_of_this_gt():
    state = given(step="japanese-special-attack", turn=2, air={"mobile-fleet": 1}, naval={"gunfire": 2},
                  markers={"amphibious": 1}, lp={"allied": 10, "japanese": 0},
                  units={"us-7-17": "allied-staging", "us-7-32": X})
    refused(replace(state, turn=1, strike=Strike(kamikaze_done=True)), "japanese", "sortie", "Formosa 18.0")
    state = play(state, "japanese", "roll", [1])
    events = when(state, "japanese", "sortie", [6, 4])  # Scenario 1, die 6: Decisive Battle; the Allies roll 4
    [sortie] = of(events, FleetSortied)
    assert (sortie.result, sortie.lp_lost) == ("Decisive Battle", 4)
    state = play(state, "japanese", "sortie", [6, 4])
    assert state.lp["allied"] == 6 and state.step == "invasion" and state.air["mobile-fleet"] == 0
    refused(state, "allied", f"land {X} with us-7-17", "Formosa 18.0")
    port, a, b = _supplied()
    combat = given(units={"us-7-17": a, "jp-9-7": b}, naval={"gunfire": 2}, strike=state.strike)
    refused(combat, "allied", f"attack {b} with us-7-17 gunfire 1", "Formosa 18.0")
    refused(replace(state, step="recruit-japanese", strike=state.strike), "japanese", "buy 1 mobile-fleet",
            "Formosa 18.0")


# -- 16.5 B-29 -------------------------------------------------------------------------------------------------------
CD = next(u.id for u in D.units if u.type == "coastal-defense")


def test_16_5_a_b29_strike_on_the_terrain_column_d1_eliminates_the_only_unit():
    state = given(step="b29", units={"jp-9-7": X}, air={"b29": 1}, strike=planned(allied={"b29": 1}))
    events = when(state, "allied", "strike " + X, [4])
    [hit] = of(events, B29Struck)
    assert (hit.column, hit.code) == ("open", "D1")
    assert [e.unit for e in of(events, UnitEliminated)] == ["jp-9-7"]
    refused(given(step="b29", units={"jp-9-7": X}), "allied", "strike " + X, "Formosa 16.5")  # none assigned
    refused(state, "allied", "strike " + AROUND[0], "Formosa 16.5")  # no Japanese unit there


def test_16_5_the_one_b29_strikes_one_hex_a_second_is_refused_by_the_rule():
    state = given(step="b29", units={"jp-9-7": X, "jp-9-19": AROUND[0]}, air={"b29": 1},
                  strike=planned(allied={"b29": 1}))
    assert "strikes one hex" in refused(state, "allied", f"strike {X} {AROUND[0]}", "Formosa 16.5")


def test_16_5_the_japanese_may_reveal_a_concealed_coastal_defense_for_the_fortified_column():
    state = given(step="b29", units={"jp-9-7": X, CD: X}, concealed=("jp-9-7", CD), air={"b29": 1},
                  strike=planned(allied={"b29": 1}))
    state = play(state, "allied", "strike " + X)  # concealed units there: the Japanese player is asked
    assert state.pending[0] == {"kind": "b29-fortified", "side": "japanese", "hex": X}
    assert "hex" not in GAME.view(state, "allied")["pending"][0]
    refused(state, "japanese", "fortify jp-9-7", "Formosa 16.5")
    declined = when(state, "japanese", "decline", [4])
    assert of(declined, B29Struck)[0].column == "open" and of(declined, DecisionRequired)[0].kind == "losses"
    events = when(state, "japanese", f"fortify {CD}", [4])
    assert [e.unit for e in of(events, UnitRevealed)] == [CD]
    assert (of(events, B29Struck)[0].column, of(events, B29Struck)[0].code) == ("fortified", "DS")
    state = play(state, "japanese", f"fortify {CD}", [4])
    assert state.strike.suppressed == (X,) and state.step == "invasion"
    # DS: no ZOC, an Allied attack on the hex one right, no Japanese move out of it (16.5)
    attack = replace(state, step="allied-combat", units={**state.units, "us-7-17": replace(
        state.units["us-7-17"], where=AROUND[0]), "jp-9-7": replace(state.units["jp-9-7"], concealed=False)})
    # (the Combat Phase revealed jp-9-7 in the Allied ZOC, 11.2 item 1: suppression takes its ZOC, not the Allies')
    assert X not in attack.zoc_of("japanese") or AROUND[0] not in attack.zoc_of("japanese")
    p = preview(attack, "allied", f"attack {X} with us-7-17")
    assert {"amount": 1, "case": "Formosa 16.5", "reason": "B-29 suppression of the defender"} in p["shifts"]
    refused(replace(state, step="japanese-movement"), "japanese", f"move jp-9-7 {AROUND[0]}", "Formosa 16.5")


# -- 16.3 ground support, 16.4 interdiction ----------------------------------------------------------------------
def test_16_3_ground_support_is_placed_before_the_first_attack_and_shifts_the_attack():
    state = given(units={"us-7-17": AROUND[0], "jp-9-7": X}, air={"allied-tac": 3},
                  strike=planned(allied={"tactical": 3}))
    refused(state, "allied", f"support {X} 3", "Formosa 16.3")  # two points a hex at most
    refused(state, "allied", f"support {AROUND[1]} 1", "Formosa 16.3")  # no enemy there
    state = play(state, "allied", f"support {X} 2")
    p = preview(state, "allied", f"attack {X} with us-7-17")
    assert {"amount": 2, "case": "Formosa 16.3", "reason": "ground support"} in p["shifts"]
    [resolved] = of(when(state, "allied", f"attack {X} with us-7-17", [3]), CombatResolved)
    assert {"amount": 2, "case": "Formosa 16.3", "reason": "ground support"} in resolved.shifts
    state = play(state, "allied", f"attack {X} with us-7-17", [3])
    refused(state, "allied", f"support {X} 1", "Formosa 16.3")  # attacks have begun
    japanese = given(step="japanese-combat", units={"us-7-17": AROUND[0], "jp-9-7": X}, air={"japanese-tac": 2},
                     strike=planned(japanese={"tactical": 2}))
    refused(japanese, "japanese", f"support {AROUND[0]} 2", "Formosa 16.3")  # the Japanese: one point a hex


def test_16_3_16_4_the_history_says_what_air_points_fly_to_do_and_under_which_case():
    support = given(units={"us-7-17": AROUND[0], "jp-9-7": X}, air={"allied-tac": 3},
                    strike=planned(allied={"tactical": 3}))
    [placed] = of(when(support, "allied", f"support {X} 2"), AirPlaced)
    assert placed.describe() == f"allied places 2 air points to support an attack on {X} (Formosa 16.3)"
    interdiction = given(step="interdiction", units={"jp-9-7": X}, air={"allied-tac": 2},
                         strike=planned(allied={"interdiction": 2}))
    [placed] = of(when(interdiction, "allied", f"interdict {AROUND[0]} 2"), AirPlaced)
    assert placed.describe() == f"allied places 2 air points to interdict {AROUND[0]} (Formosa 16.4)"


def test_16_4_an_interdicted_hex_costs_a_japanese_unit_more_mp_and_reveals_who_enters():
    base = given(step="japanese-movement", units={"jp-9-7": X}, concealed=("jp-9-7",))
    [plain] = of(when(base, "japanese", f"move jp-9-7 {AROUND[0]}"), UnitMoved)
    state = given(step="interdiction", units={"jp-9-7": X, "jp-9-19": AROUND[3]}, concealed=("jp-9-7", "jp-9-19"),
                  air={"allied-tac": 2}, strike=planned(allied={"interdiction": 2}))
    refused(state, "allied", f"interdict {AROUND[0]} 3", "Formosa 16.4")
    events = when(state, "allied", f"interdict {AROUND[3]} 1")
    assert [e.unit for e in of(events, UnitRevealed)] == ["jp-9-19"]  # 16.4 item 1: in the hex
    state = play(state, "allied", f"interdict {AROUND[0]} 2")
    why = refused(state, "allied", f"interdict {AROUND[3]} 1", "Formosa 16.4")  # every assigned point is placed
    assert why.endswith("3 points placed but 2 were assigned to interdiction")
    state = play(state, "allied", "end")
    assert state.step == "japanese-movement"
    events = when(state, "japanese", f"move jp-9-7 {AROUND[0]}")
    [moved] = of(events, UnitMoved)
    assert moved.mp == plain.mp + 2  # two points: two MP more (16.4 item 3)
    assert [e.case for e in of(events, UnitRevealed)] == ["Formosa 16.4 item 1"]


# -- 15.4.1 LP shifts, 17.0 the defender's gunfire ---------------------------------------------------------------------
def _supplied():
    """A port, a coastal hex next to it and a land hex next to that one, not next to the port."""
    for p in sorted(D.ports()):
        for a in sorted(M.neighbours(p)):
            for b in sorted(M.neighbours(a)):
                if D.is_coastal(a) and D.is_land(b) and b != p and b not in M.neighbours(p) and not M.hexside_features(
                        a, b):
                    return str(p), str(a), str(b)
    raise LookupError


def test_15_4_1_lp_shifts_in_a_preview_and_an_attack_f22():
    port, a, b = _supplied()
    state = given(units={"us-eng-1": port, "us-7-17": a, "jp-9-7": b}, lp={"allied": 3, "japanese": 0})
    state = replace(state, units={**state.units, "us-eng-1": replace(state.units["us-eng-1"], base=True)})
    p = preview(state, "allied", f"attack {b} with us-7-17 lp 2")
    assert {"amount": 2, "case": "Formosa 15.4.1", "reason": "LP spent attacking"} in p["shifts"]
    answering = replace(state, lp={"allied": 3, "japanese": 1})  # the Japanese defender answers with LP only
    assert preview(answering, "allied", f"attack {b} with us-7-17")["text"].endswith(
        "the defender may still commit LP for left shifts (15.4.1, 17.0, 19.4)")
    refused(state, "allied", f"attack {b} with us-7-17 lp 3", "Formosa 15.4.1")
    events = when(state, "allied", f"attack {b} with us-7-17 lp 2", [3])
    assert [e.amount for e in of(events, LpSpent)] == [2]
    [resolved] = of(events, CombatResolved)
    assert {"amount": 2, "case": "Formosa 15.4.1", "reason": "LP spent attacking"} in resolved.shifts
    cut = given(units={"us-7-17": a, "jp-9-7": b}, lp={"allied": 3, "japanese": 0})  # no port, no HQ
    refused(cut, "allied", f"attack {b} with us-7-17 lp 1", "Formosa 15.4.1, 19.5")
    japanese = given(step="japanese-combat", units={"us-7-17": a, "jp-9-7": b}, lp={"allied": 0, "japanese": 3})
    refused(japanese, "japanese", f"attack {a} with jp-9-7 lp 2", "Formosa 15.4.1")  # one LP at most


def test_15_4_1_17_0_the_defender_answers_with_lp_and_allied_gunfire_f18_f22():
    port, a, b = _supplied()
    units = {"us-eng-1": port, "us-7-17": a, "jp-9-7": b}
    state = given(step="japanese-combat", units=units, lp={"allied": 2, "japanese": 0}, naval={"gunfire": 2})
    state = replace(state, units={**state.units, "us-eng-1": replace(state.units["us-eng-1"], base=True)})
    state = play(state, "japanese", f"attack {a} with jp-9-7")
    assert state.pending[0]["kind"] == "defence" and state.pending[0]["side"] == "allied"
    assert {o["order"] for o in GAME.legal_orders(state, "allied")} >= {"defend", "defend lp 1", "defend gunfire 1"}
    refused(state, "allied", "defend gunfire 3", "Formosa 17.0")
    refused(state, "allied", "defend lp 2", "Formosa 15.4.1")
    events = when(state, "allied", "defend lp 1 gunfire 2", [3])
    [resolved] = of(events, CombatResolved)
    assert {"amount": -1, "case": "Formosa 15.4.1, ruling F22", "reason": "LP spent defending"} in resolved.shifts
    assert {"amount": -2, "case": "Formosa 17.0, ruling F18", "reason": "naval gunfire defending"} in resolved.shifts
    assert [e.amount for e in of(events, LpSpent)] == [1]
    japanese = given(units={"us-7-17": a, "jp-9-7": b}, lp={"allied": 0, "japanese": 2})
    japanese = play(japanese, "allied", f"attack {b} with us-7-17")
    refused(japanese, "japanese", "defend gunfire 1", "Formosa 17.0, ruling F18")
    refused(japanese, "japanese", "defend lp 1", "Formosa 15.4.1, 19.5")  # no static unit to trace to
    assert of(when(japanese, "japanese", "defend", [3]), CombatResolved)


def _to_japanese_planning(submit):
    """The opening of a game through the service, up to the Japanese Strike Planning Phase of GT 1."""
    from app.rules.formosa import GAME

    submit("japanese", "roll")
    submit("japanese", "deploy default")
    for fix in ("end", "buy 1 tac"):  # 24.1: at most 20 LP are kept
        try:
            state = submit("japanese", "end")
            break
        except Exception:  # noqa: BLE001 - the set-up roll decides whether one LP must be spent
            submit("japanese", fix)
    else:
        state = submit("japanese", "end")
    choose = GAME.table.orders["setup-allied"]["choose"]
    for args in list(choose.candidates(state, "allied")):  # 3.0: the Allied set-up groups' picks
        state = submit("allied", choose.grammar.render(args))
    submit("allied", "end")
    submit("allied", "roll")
    state = submit("allied", "end")
    assert state.step == "strike-planning-japanese"
    return state


@pytest.mark.slow  # games through the service: every channel the Allied player reads, before and after the reveal
def test_16_1_no_channel_shows_the_allies_anything_of_the_japanese_plan_not_even_how_many_orders_made_it(tmp_path):
    """Ruling F70, issue 25: the same game with two Japanese plans (none at all, and three missions) reads the same
    to the Allied player in every channel (history, export, replay frames and views, emails) until the reveal:
    each plan is one order and one event a Japanese mission, so nothing is there to count. (Under rules version 1
    each `assign` was an order and an event, and the Allied history counted them.)"""
    import json

    from app.projections import replay
    from app.service.application import Seat
    from tests.fogcheck import all_text, played_through_service

    emails = {"japanese": "j@x.example", "allied": "a@x.example"}
    plans = {"none": "plan", "three": "plan 1 kamikaze 2 air-superiority 1 tactical"}
    read: dict[str, list[str]] = {}
    for name, plan in plans.items():
        def script(submit, plan=plan):
            _to_japanese_planning(submit)
            state = submit("japanese", plan)
            assert state.step == "strike-planning-allied"  # the plan is one order: nothing more to give
            return state

        pbem, game_id, outbox, _ = played_through_service(str(tmp_path / f"{name}.sqlite3"), "formosa", emails,
                                                          "g-formosa-plan", script)
        seat = Seat(game_id, "allied", emails["allied"])
        rows = [f"{r['seq']} {r['type']} {r['text']}" for r in pbem.reads.history_rows(seat)]
        # each game's random secrets (its salts, hence hashes and seals; tokens, reply tags, receipt signatures) and
        # times are its own: left out of the comparison
        exported = [json.dumps({k: v for k, v in json.loads(line).items() if k not in ("at", "salt", "sealed", "hash")},
                               sort_keys=True) for line in pbem.reads.export(seat)[0]]
        frames = [f"{f.seq} {f.text} {json.dumps(f.view, sort_keys=True)}"
                  for f in replay.build(pbem.store, CATALOG, game_id, "allied").frames]
        mails = [re.sub(r"[0-9a-zA-Z+/=_-]{32,}", "SECRET", all_text(m)) for m in outbox.sent
                 if m["To"] == emails["allied"]]
        prompt = json.dumps(pbem.reads.prompt(seat), sort_keys=True, default=str)
        read[name] = rows + exported + frames + mails + [prompt]
        assert "japanese assigns" not in "\n".join(read[name])
        if name == "three":  # the reveal shows the plan, once the Allied plan is made
            pbem.orders.submit(seat, "plan")
            assert "1 kamikaze" in "\n".join(r["text"] for r in pbem.reads.history_rows(seat))
        pbem.store.close()
    assert read["none"] == read["three"]


def test_13_1_no_other_allied_air_points_join_the_b29_in_the_hex_it_struck():
    from app.rules.formosa import played_under

    units = {"jp-9-7": X, "jp-9-19": AROUND[3], "us-7-17": AROUND[0], "us-7-32": AROUND[2]}
    state = given(step="b29", units=units, air={"b29": 1, "allied-tac": 4},
                  strike=planned(allied={"b29": 1, "tactical": 2, "interdiction": 2}))
    state = play(state, "allied", "strike " + X, [1])  # no effect: the B-29 stays in the hex to the Air Return
    assert of(when(given(step="b29", units=units, air={"b29": 1}, strike=planned(allied={"b29": 1})), "allied",
                   "strike " + X, [1]), B29Struck)[0].code == "-"
    combat = replace(state, step="allied-combat")
    assert "B-29" in refused(combat, "allied", f"support {X} 1", "Formosa 13.1")
    play(combat, "allied", f"support {AROUND[3]} 2")  # any other hex of enemy units next to Allied ones
    refused(replace(state, step="interdiction"), "allied", f"interdict {X} 1", "Formosa 13.1")
    play(played_under(combat, "3"), "allied", f"support {X} 1")  # ruling F105


def test_13_1_16_1_ground_support_left_in_a_hex_shares_it_with_interdiction_two_points_of_one_nationality():
    from app.rules.formosa import played_under

    units = {"jp-9-7": X, "us-7-17": AROUND[0]}
    state = given(step="allied-combat", units=units, air={"allied-tac": 4},
                  strike=planned(allied={"tactical": 2, "interdiction": 2}))
    state = play(state, "allied", f"support {X} 2")  # placed, and no attack is made on the hex
    later = replace(state, step="interdiction")
    assert "13.1" in refused(later, "allied", f"interdict {X} 1", "Formosa 13.1")  # 2 + 1 points in the hex
    play(later, "allied", f"interdict {AROUND[3]} 2")
    play(played_under(later, "3"), "allied", f"interdict {X} 1")  # ruling F105
    mixed = replace(later, air={"allied-tac": 4, "cw-tac": 2}, strike=replace(later.strike, missions={
        "allied": {"tactical": 2, "interdiction": 2, "cw-interdiction": 1}}, support=(("allied", X, "us", 1),)))
    refused(mixed, "allied", f"interdict {X} 1 cw", "Formosa 16.1")  # 16.1: US and Commonwealth apart
    play(mixed, "allied", f"interdict {X} 1")


def test_16_5_a_b29_d1_falls_on_a_combat_unit_never_on_a_deception_unit():
    from app.rules.formosa import played_under

    both = given(step="b29", units={"jp-deception-3": X, "jp-9-7": X}, concealed=("jp-deception-3", "jp-9-7"),
                 air={"b29": 1}, strike=planned(allied={"b29": 1}))
    both = play(both, "allied", "strike " + X)  # concealed units there: the Japanese are asked (F72)
    events = when(both, "japanese", "decline", [4])
    assert of(events, B29Struck)[0].code == "D1"
    assert [e.unit for e in of(events, UnitEliminated)] == ["jp-9-7"]  # no choice: the deception unit is no unit
    old = played_under(both, "3")
    assert {o["order"] for o in GAME.legal_orders(play(old, "japanese", "decline", [4]), "japanese")} == {
        "lose jp-9-7", "lose jp-deception-3"}  # ruling F105: it could be given up
    alone = given(step="b29", units={"jp-deception-3": X}, concealed=("jp-deception-3",), air={"b29": 1},
                  strike=planned(allied={"b29": 1}))
    alone = play(play(alone, "allied", "strike " + X), "japanese", "decline", [4])
    assert alone.units["jp-deception-3"].where == X and alone.units["jp-deception-3"].concealed  # 11.2: unrevealed
    assert X in alone.strike.suppressed  # the DS of the D1 stands


def test_18_0_markers_a_decisive_battle_kept_from_landing_stay_for_a_later_gt_without_lp_f108():
    from app.rules.formosa import played_under
    from app.rules.formosa.events import MarkersReturned

    state = given(step="japanese-special-attack", turn=2, air={"mobile-fleet": 1}, markers={"amphibious": 2,
                  "drop-zone": 1}, lp={"allied": 10, "japanese": 0}, units={"us-7-32": X},
                  strike=Strike(kamikaze_done=True))
    state = play(state, "japanese", "sortie", [6, 1])  # Scenario 1, die 6: Decisive Battle
    assert state.step == "invasion" and state.strike.amphibious_barred
    [back] = of(when(state, "allied", "end"), MarkersReturned)
    assert back.markers == {"drop-zone": 1}  # 18.0 b): kept for a later GT, no LP again
    assert play(state, "allied", "end").markers["amphibious"] == 2
    old = play(played_under(state, "4"), "allied", "end")  # ruling F108: returned, to be bought again
    assert old.markers["amphibious"] == 0


def test_18_0_f110_the_allied_view_shows_withdrawn_gunfire_in_the_available_display_until_the_air_return():
    state = given(step="japanese-special-attack", turn=2, air={"mobile-fleet": 1}, naval={"gunfire": 2},
                  lp={"allied": 10, "japanese": 0}, units={"us-7-17": "allied-staging", "us-7-32": X})
    assert GAME.view(state, "allied")["naval_display"] == {"gunfire": "allied-staging"}  # 17.0: usable
    state = play(play(state, "japanese", "roll", [1]), "japanese", "sortie", [5])  # Indecisive Action
    seen = GAME.view(state, "allied")
    assert seen["naval"]["gunfire"] == 2
    assert seen["naval_display"] == {"gunfire": "allied-available"}  # 18.0: out until the next GT
    assert "naval_display" not in GAME.view(state, "japanese")  # the Allied displays are the Allies' (11.0)
    back = replace(state, strike=Strike(fleet_used=True))  # the Air Return Phase ends the GT's missions (6.1)
    assert GAME.view(back, "allied")["naval_display"] == {"gunfire": "allied-staging"}


def test_13_1_16_4_an_interdiction_point_never_stacks_with_the_other_nations_ground_units_f116():
    from app.rules.formosa import played_under
    from app.rules.formosa.state import Strike

    x, around = ring("open")
    planned = Strike(missions={"allied": {"interdiction": 1, "cw-interdiction": 1}}, revealed=True)
    state = position(step="interdiction", turn=2, units={"cw-7-18": x, "us-7-17": around[0], "jp-9-7": around[3]},
                     strike=planned)
    refused(state, "allied", f"interdict {x} 1", "Formosa 13.1")  # US air over Commonwealth ground units
    refused(state, "allied", f"interdict {around[0]} 1 cw", "Formosa 13.1")  # and the other way round
    play(state, "allied", f"interdict {x} 1 cw")  # its own nation's
    play(state, "allied", f"interdict {around[3]} 1")  # the enemy's hex, as ever
    play(played_under(state, "8"), "allied", f"interdict {x} 1")  # a game created under 1-8: as played


def test_13_1_15_7_15_8_1_no_allied_ground_unit_ends_a_retreat_or_an_advance_under_the_other_nations_air_f121():
    """Ruling F121 (F116): US interdiction points stay on their hex through the Japanese Player Turn (16.4); a
    Commonwealth unit retreating there over-stacks and goes a hex more (15.7 item 3), and its advance there is
    refused naming 13.1 and not offered. A game created under 1-10 is decided and listed as played."""
    from app.rules.formosa.combat import retreat_paths

    interdicted = AROUND[3]  # open, next to X
    attack = f"attack {X} with jp-9-7 jp-9-19 jp-9-35"  # 12 against 4: die 6 is a DR
    air = Strike(interdicted=((interdicted, "us", 1),))
    state = given("japanese-combat", 2, units={"cw-7-18": X, "jp-9-7": AROUND[0], "jp-9-19": AROUND[0],
                                               "jp-9-35": AROUND[0]}, strike=air)
    hit = play(state, "japanese", attack, [6])
    assert hit.pending[0]["kind"] == "retreat" and hit.pending[0]["side"] == "allied"
    paths = retreat_paths(hit, hit.units["cw-7-18"])
    assert (interdicted,) not in paths and any(p[0] == interdicted and len(p) == 2 for p in paths)
    refused(hit, "allied", f"retreat cw-7-18 {interdicted}", "Formosa 15.7")
    offered = [o["order"] for o in GAME.legal_orders(hit, "allied")]
    assert f"retreat cw-7-18 {interdicted}" not in offered and any(o.startswith(f"retreat cw-7-18 {interdicted} ")
                                                                   for o in offered)
    old = played_under(hit, "10")
    assert f"retreat cw-7-18 {interdicted}" in [o["order"] for o in GAME.legal_orders(old, "allied")]
    assert play(old, "allied", f"retreat cw-7-18 {interdicted}").units["cw-7-18"].where == interdicted  # as played
    held = given("japanese-combat", 2, units={"cw-7-18": X, "cw-7-21": X, "jp-9-7": interdicted}, strike=air)
    cleared = play(held, "japanese", f"attack {X} with jp-9-7", [6, 6])  # CA, then the counterattack's D1
    assert cleared.combat.cleared == (interdicted,) and cleared.pending[0]["kind"] == "advance"
    text = refused(cleared, "allied", f"advance cw-7-18 to {interdicted}", "Formosa 13.1")
    assert "ruling F121" in text
    assert not [o for o in GAME.legal_orders(cleared, "allied") if o["action"] == "advance"]
    assert play(played_under(cleared, "10"), "allied", f"advance cw-7-18 to {interdicted}").units[
        "cw-7-18"].where == interdicted  # as played


def test_16_5_ds_items_3_to_5_no_japanese_unit_moves_out_of_or_into_a_suppressed_hex_and_its_attacks_shift_left():
    """16.5 DS: units in the hex do not move in the ensuing Japanese Movement Phase (item 3), no other Japanese unit
    enters it (item 4), and an attack out of it is shifted one left (item 5), whatever ZOC the units have lost."""
    hit = Strike(b29_used=True, suppressed=(X,), b29_hex=X)
    state = position(step="japanese-movement", units={"jp-9-7": X, "jp-9-19": AROUND[1], "us-7-17": AROUND[4]},
                     strike=hit)
    refused(state, "japanese", f"move jp-9-7 {AROUND[0]}", "Formosa 16.5")  # item 3
    refused(state, "japanese", f"move jp-9-19 {X}", "Formosa 16.5")  # item 4
    moves = [o["order"] for o in GAME.legal_orders(state, "japanese") if o["action"] == "move"]
    assert moves and not any(o.startswith("move jp-9-7") or o.split()[-1] == X for o in moves)
    fight = replace(state, step="japanese-combat")
    p = preview(fight, "japanese", f"attack {AROUND[4]} with jp-9-7")
    assert {"amount": -1, "case": "Formosa 16.5", "reason": "attacking out of a B-29 suppressed hex"} in p["shifts"]
    elsewhere = position(step="japanese-combat", units={"jp-9-19": AROUND[3], "us-7-17": AROUND[4]}, strike=hit)
    assert not [s for s in preview(elsewhere, "japanese", f"attack {AROUND[4]} with jp-9-19")["shifts"]
                if s["case"] == "Formosa 16.5"]  # only an attack out of the struck hex
