"""Formosa set-up through orders (3.0, 8.2, 24.1, 24.2; CF-13 to CF-15) and the game offered by the catalog, the
CLI and the service."""
from __future__ import annotations

import json

from formosa_given import START, of, play, refused, when

from app.rules import catalog
from app.rules.formosa import GAME
from app.rules.formosa.events import LpLost, SetupEnded, SetupRolled, UnitPlaced
from app.rules.formosa.state import OUT


def japanese_set_up(rolls=(6, 1, 1), scenario="1"):
    state = GAME.initial_state(scenario, {})
    return play(play(state, "japanese", "roll", rolls), "japanese", "deploy default")


def test_catalog_offers_formosa_with_both_scenarios():
    assert "formosa" in catalog.installed().names()
    assert catalog.installed().rules("formosa") is GAME
    assert set(GAME.scenarios) == {"1", "2"}


def test_24_1_the_japanese_roll_set_up_lp_tac_and_kamikaze_points():
    [rolled] = of(when(START, "japanese", "roll", [4, 2, 3]), SetupRolled)
    assert (rolled.lp, rolled.tac, rolled.kamikaze) == (19, 5, 3)
    s2 = GAME.initial_state("2", {})
    assert of(when(s2, "japanese", "roll", [4, 2, 3]), SetupRolled)[0].lp == 24  # 24.2: 1d6 + 20


def test_24_1_japanese_end_refused_until_the_lp_are_down_to_20_cf_13():
    state = japanese_set_up((6, 1, 1))
    assert state.lp["japanese"] == 21 and not state.to_place
    refused(state, "japanese", "end", "Formosa 24.1")
    state = play(state, "japanese", "buy 1 tac")  # 2 LP: 19 left
    [ended] = of(when(state, "japanese", "end"), SetupEnded)
    assert ended.next_step == "setup-allied"


def test_24_2_scenario_2_japanese_spend_down_to_20_and_the_allies_lose_the_excess_cf_15():
    state = japanese_set_up((5, 1, 1), scenario="2")
    assert state.lp["japanese"] == 25
    refused(state, "japanese", "end", "Formosa 24.1")
    state = play(state, "japanese", "recruit jp-imb-70 jp-imb-61")  # first-line infantry, 2 LP each
    state = play(state, "japanese", "buy 1 tac")
    state = play(state, "japanese", "place jp-imb-70 0918")
    state = play(state, "japanese", "place jp-imb-61 1020")
    state = play(state, "japanese", "end")
    assert state.step == "setup-allied" and state.lp["allied"] == 40
    state = allied_choices(state)
    [lost] = of(when(state, "allied", "end"), LpLost)
    assert lost.amount == 20


def allied_choices(state):
    for order in ("choose us-armor-1 us-armor-2", "choose us-arty-1 us-arty-2 us-arty-3",
                  "choose us-eng-1 us-eng-2 us-eng-3 us-eng-4 us-eng-5 us-eng-6 us-eng-7"):
        state = play(state, "allied", order)
    return state


def test_24_1_allied_lp_above_20_are_lost_at_the_end_of_set_up_cf_14():
    state = play(japanese_set_up((3, 1, 1)), "japanese", "end")
    assert state.lp["allied"] == 30
    engineers = ", ".join(f"us-eng-{n}" for n in range(1, 11))
    # the groups as a player knows them, by their units and what they are, not by the data's group ids
    assert GAME.prompt(state).step == ("Scenario 1 set-up: the Allies recruit (30 LP; more than 20 are lost at the "
                                       "end; choose 2 more armor units from us-armor-1, us-armor-2, us-armor-3; "
                                       "choose 3 more artillery units from us-arty-1, us-arty-2, us-arty-3, us-arty-4; "
                                       f"choose 7 more engineer units from {engineers})")
    why = refused(state, "allied", "end", "Formosa 24.1")
    assert "2 more armor units from us-armor-1, us-armor-2, us-armor-3" in why
    says = refused(state, "allied", "choose us-armor-1 us-armor-2 us-armor-3", "Formosa 3.0")  # two of the three
    assert says.endswith("this group sets up 2: 2 more to choose")
    state = play(state, "allied", "choose us-armor-3")
    assert "choose 1 more armor unit from us-armor-1, us-armor-2;" in GAME.prompt(state).step
    state = allied_choices(play(japanese_set_up((3, 1, 1)), "japanese", "end"))
    assert GAME.prompt(state).step == "Scenario 1 set-up: the Allies recruit (30 LP; more than 20 are lost at the end)"
    refused(state, "allied", "choose us-eng-8", "Formosa 3.0")  # the group's seven are chosen
    [lost] = of(when(state, "allied", "end"), LpLost)
    assert lost.amount == 10
    state = play(play(state, "allied", "buy 3 amphibious"), "allied", "end")
    assert state.lp["allied"] == 20 and state.step == "recon"


def test_3_0_and_8_2_set_up_only_types_not_recruited_are_set_aside_for_the_game():
    state = japanese_set_up((1, 1, 1))
    state = play(state, "japanese", "end")
    assert state.units["jp-imb-70"].where == OUT  # first-line infantry not chosen nor recruited (8.2)
    assert state.units["jp-guard-1"].where == "japanese-reinforcements"  # second-line: later recruits


def test_ruling_f33_statics_set_up_where_8_1_deploys_them_and_stacking_is_kept():
    state = play(GAME.initial_state("1", {}), "japanese", "roll", [1, 1, 1])
    state = play(state, "japanese", "choose jp-cd-1 jp-cd-2")
    refused(state, "japanese", "place jp-cd-1 1405", "Formosa 8.1")  # not a port
    for uid in ("jp-9-7", "jp-9-19", "jp-9-35"):
        state = play(state, "japanese", f"place {uid} 1504")
    refused(state, "japanese", "place jp-12-24 1504", "Formosa 13.2")  # a fourth mobile unit
    [placed] = of(when(state, "japanese", "place jp-12-24 1505 revealed"), UnitPlaced)
    assert placed.concealed is False


def test_24_1_kamikaze_points_may_not_be_recruited_during_set_up():
    state = japanese_set_up((1, 1, 1))
    refused(state, "japanese", "buy 2 kamikaze", "Formosa 24.1")


def test_cli_new_formosa_prompts_the_japanese_set_up_roll(run):
    game = run("new", "formosa").output.strip()
    run("join", game, "--side", "japanese", "--name", "j@example.org")
    run("join", game, "--side", "allied", "--name", "a@example.org")
    shown = json.loads(run("show", game, "--json").output)
    assert shown["to_act"] == "japanese" and "roll" in shown["step"]
    refused_ = run("do", game, "--as", "allied", "end", "--json", ok=False)
    assert refused_.exit_code == 2
    run("do", game, "--as", "japanese", "roll")
    run("do", game, "--as", "japanese", "deploy default")
    shown = json.loads(run("show", game, "--json").output)
    assert "0 units to place" in shown["step"]
    two = run("new", "formosa", "--scenario", "2").output.strip()
    assert two != game


def test_ruling_f43_a_unit_of_a_set_up_choice_is_chosen_not_recruited():
    state = play(GAME.initial_state("1", {}), "japanese", "roll", [6, 1, 1])
    refused(state, "japanese", "recruit jp-imb-70", "Formosa 3.0, ruling F43")
    state = play(state, "japanese", "choose jp-imb-75 jp-imb-76 jp-imb-100 jp-imb-102 jp-imb-103")
    assert of(when(state, "japanese", "recruit jp-imb-70"), UnitPlaced) == []  # now it may be bought
    assert play(state, "japanese", "recruit jp-imb-70").lp["japanese"] == 19


def test_8_1_12_3_a_mechanized_unit_sets_up_in_mountain_or_peak_only_on_a_road_or_railroad_f115():
    from dataclasses import replace

    from formosa_map import D, M

    from app.rules.formosa import played_under
    from app.rules.kernel.hexgrid import Hex

    def road(h):
        return M.is_road_hex(h) or M.is_rail_hex(h)

    hill = str(next(h for h in sorted(D.land()) if M.terrain_of(h) == "mountain" and not road(h)))
    pass_ = str(next(h for h in sorted(D.land()) if M.terrain_of(h) == "mountain" and road(h)))
    state = play(GAME.initial_state("1", {}), "japanese", "roll", [1, 1, 1])
    state = replace(state, to_place=("jp-armor-1", "jp-9-7"))
    refused(state, "japanese", f"place jp-armor-1 {hill}", "Formosa 8.1")  # closed to mechanized units (12.2)
    play(state, "japanese", f"place jp-armor-1 {pass_}")  # it could have come in along the road
    play(state, "japanese", f"place jp-9-7 {hill}")  # non-mechanized: any land hex
    offered = {o["order"] for o in GAME.legal_orders(state, "japanese")}
    assert not any(o.startswith("place jp-armor-1 ") and M.terrain_of(Hex.parse(o.split()[2])) in ("mountain", "peak")
                   and not road(Hex.parse(o.split()[2])) for o in offered)
    play(played_under(state, "8"), "japanese", f"place jp-armor-1 {hill}")  # a game created under 1-8: as played
