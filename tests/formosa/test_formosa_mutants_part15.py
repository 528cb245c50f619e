"""Formosa mutation survivors of session part 15 (docs/mutation-survivors.md, part 15), each killed by what a player
reads: the dice list's line for a combat die, the history's line for an assault, a refusal read whole, a unit's
orders."""
from __future__ import annotations

from dataclasses import replace

import pytest
from formosa_given import documented_position, given, of, play, refused, when
from formosa_map import D, ring, shore

from app.events.core import DieRolled
from app.rules import legal
from app.rules.errors import IllegalOrder
from app.rules.formosa import GAME, strategic
from app.rules.formosa.events import CombatResolved

X, AROUND = ring("open")


def test_15_2_the_combat_die_of_an_attack_is_listed_as_an_attack_and_a_counterattack_s_as_a_counterattack():
    """`combat.resolve` 57: every combat die was listed "counterattack on" (the dice list, the verification page)."""
    attack = given(units={"us-7-17": AROUND[0], "us-7-32": AROUND[3], "jp-9-7": X})
    [die] = of(when(attack, "allied", f"attack {X} with us-7-17 us-7-32", [4]), DieRolled)
    assert die.purpose == f"combat: allied attack on {X}"
    owed = GAME.initial_state("1", {"position": documented_position(1)})  # the Japanese owe the CA on 1012
    [die] = of(when(owed, "japanese", "counterattack 1012", [5]), DieRolled)
    assert die.purpose == "combat: japanese counterattack on 1012"


def test_10_2_2_the_history_line_of_an_assault_from_the_sea_says_assault():
    """`events.CombatResolved.describe` 21: an assault's history line read "ASSAULT ON" (the game's history, the
    replay). The ranger at sea off the beach assaults the division in it: 2 against 4, die 4, AR."""
    beach, (sea, _) = shore(2)
    state = given(step="invasion", turn=1, units={"us-rgr-2": "allied-staging", "jp-9-7": beach},
                  markers={"amphibious": 1})
    state = play(state, "allied", f"land {sea} with us-rgr-2")
    [fight] = of(when(state, "allied", f"assault {beach}", [4]), CombatResolved)
    assert fight.describe() == (f"allied assault on {beach}: 2 against 4 = 50%, no shifts: column 50-99%, die 4: "
                                "AR (Formosa 15.2)")


def test_25_7_the_marine_brigade_refused_a_hex_neither_port_nor_beach_is_told_why():
    """`optional.special_landing` 68: the refusal of a landing on an open hex gave no reason ("Formosa 25.7: None")."""
    rough, _ = ring("rough")
    state = given(step="japanese-movement", units={"jp-marine": "japanese-reinforcements", "us-27-105": rough},
                  special_ready=("jp-marine",))
    state = replace(state, data=GAME.data({"optional": ["25.7"]}))
    assert refused(state, "japanese", f"land {X} with jp-marine", "Formosa 25.7") == (
        f"Formosa 25.7: {X} is neither a port nor a beach hex (ruling F12)")


def test_21_0_a_unit_past_the_first_four_on_the_map_is_offered_a_transfer_to_a_fallen_amoy():
    """`sequence._every_transfer` 11: once Amoy has fallen (9.0, ruling F108) every Allied unit in a coastal hex may
    go there by sea; the random player's few candidates name the first four units on the map, and the orders for a
    fifth (`orders for UNIT`, the play page's ?naming=, ruling F125) lacked it."""
    first, second = sorted(str(h) for h in D.ports() if D.is_land(h))[:2]
    five = {"us-7-17": first, "us-7-32": first, "us-7-184": first, "us-27-105": second, "us-27-106": second}
    state = GAME.initial_state("1", {"position": {"turn": 3, "phase": "naval-transfer", "units": five,
                                                  "amoy_turn": 2}})
    assert "transfer us-7-32 to amoy" in [o["order"] for o in legal.naming(GAME, state, "allied", "us-7-32")]


def test_8_0_recruiting_the_other_side_s_unit_is_refused_naming_8_0():
    """`sequence.recruit` 37: the refusal named the case "FORMOSA 8.0"."""
    state = given(step="recruit-allied", turn=3, units={"jp-9-7": "japanese-reinforcements"},
                  lp={"allied": 5, "japanese": 0})
    assert refused(state, "allied", "recruit jp-9-7", "Formosa 8.0") == "Formosa 8.0: jp-9-7 is not an Allied unit"


def test_7_3_a_price_asked_of_a_chart_without_the_item_is_refused_naming_7_3():
    """`strategic.recruit_cost` 59: the refusal for an item the side's LP Expenditure Chart lacks raised TypeError
    (`C - "7.3"`). No order reaches it today (`buy` takes only BUYABLE words, `recruit` only the side's units): the
    price function's own contract, which the strong opponent's `searched` reads too."""
    with pytest.raises(IllegalOrder) as err:
        strategic.recruit_cost(GAME.data({}), "japanese", "gunfire", scenario=1, setup=False)
    assert str(err.value) == "Formosa 7.3: the japanese LP Expenditure Chart has no 'gunfire'"


def test_the_state_s_unit_gives_its_strength_as_every_game_s_view_does():
    """`view._unit` 22: the key `strength` (every game's view gives each unit its strength: the API's state, an
    analysis board's unit fields, the counters drawn from a view that prints no factors) was misspelt."""
    state = given(units={"us-7-17": X, "jp-9-7": AROUND[0]})
    units = {u["id"]: u for u in GAME.view(state, "allied")["units"]}
    assert units["us-7-17"]["strength"] == units["us-7-17"]["cf"] == int(units["us-7-17"]["factors"].split("-")[0])
    assert units["jp-9-7"]["strength"] == units["jp-9-7"]["cf"]  # revealed (formosa_given reveals them)
