"""Session part 16's reading of the Olympic fragments against the engine (docs/rulings/olympic.md): ruling R52, an
order given outside its phase is refused by the case of the phase it is given in (the abbreviated sequence of
play's A.1-A.4 and B.1-B.3, with A.1's note that Game-Turn 1 has no American Forces Movement Phase), or by the rule
that times it (14.4 for the assaults after the Tokko strike, 14.3 track 5 for the Tokko, 8.9 for an exchange's
losses, R24 for the standing retreat order); before, every one named "the sequence of play" at large. A refused
order changes nothing and rolls no die (`refused` takes no dice)."""
from __future__ import annotations

import pytest
from olympic_given import START, after, given, of, programmed, refused, when
from test_olympic_combat import JP4A, JP4B, US_B

from app.rules.olympic.events import StepEnded

A1, A2, A3, A4 = (f"Olympic sequence A.{n}" for n in (1, 2, 3, 4))
B1, B2, B3 = (f"Olympic sequence B.{n}" for n in (1, 2, 3))
US, JP = "us-25-27", "jp-154-1"


def _at(step: str, turn: int = 2):
    return given(step, turn, {US: "3338", JP: "3136"})


@pytest.mark.parametrize("state, side, order, case, why", [
    # A.1's note: no American Forces Movement Phase on Game-Turn 1, whatever phase of it the order comes in
    (START, "american", f"move {US} to 3338", A1, "there is no American Forces Movement Phase on Game-Turn 1"),
    (_at("combat", 1), "american", f"move {US} to 3337", A1, "there is no American Forces Movement Phase on"),
    (_at("reinforcement", 1), "american", f"move {US} to 3337", A1, "there is no American Forces Movement"),
    (_at("combat"), "american", f"move {US} to 3337", A1, "units move in the American Forces Movement Phase"),
    (_at("movement"), "american", f"land {US} at 3337", A2, "land or assault in the American Amphibious Assault"),
    (_at("combat"), "american", f"assault 3136 with {US}", A2, "units at sea land or assault"),
    (_at("movement"), "american", f"attack 3136 with {US}", A3, "American attacks are made in the American Forces"),
    (_at("reinforcement"), "american", f"attack 3136 with {US}", A3, "Combat Phase"),
    (_at("combat"), "american", f"place {US} at 3338", A4, "placed on beachheads in the American Reinforcement"),
    # 14.4: on Game-Turn 1 the units are placed, the Tokko strike rolled, and only then the assaults made
    (START, "american", "land 25-27 at 3338", "Olympic 14.4", "after the invasion force is placed"),
    (START, "american", "assault 3338 with 25-27", "Olympic 14.4", "and the Tokko strike is rolled"),
    (_at("tokko", 1), "american", f"place {US} at 3437", "Olympic 14.4", "the Tokko strike comes before"),
    (_at("combat"), "japanese", "tokko", "Olympic 14.3 track 5", "only on Game-Turn 1, in the American Amphibious"),
    (_at("japanese-movement"), "japanese", "tokko", "Olympic 14.3 track 5", "once the invasion force is placed"),
    (_at("combat"), "american", f"lose {US}", "Olympic 8.9", "no exchange waits for its losses"),
    (START, "american", "retreat toward 3338", "Olympic ruling R24", "Movement, Combat or Reinforcement Phase"),
    (_at("japanese-movement"), "japanese", "doctrine", B1, "the doctrine tracks are rolled in the Japanese Doctrine"),
    (_at("combat"), "japanese", "doctrine", B1, "Doctrine Phase"),
    (_at("japanese-combat"), "japanese", f"jmove {JP} 3137", B2, "the programmed Japanese move in the Japanese Forces"),
    (_at("doctrine"), "japanese", f"hold {JP}", B2, "Movement Phase"),
    (_at("japanese-combat"), "japanese", f"enter {JP} at 3137", B2, "Movement Phase"),
    (_at("japanese-movement"), "japanese", f"jattack {JP} on {US}", B3, "the programmed Japanese attack in the"),
])
def test_ruling_r52_an_order_outside_its_phase_is_refused_by_the_case_of_its_phase(state, side, order, case, why):
    assert why in refused(state, side, order, case)


def test_ruling_r52_an_exchange_waiting_for_its_losses_refuses_every_other_order_by_8_9():
    three = ("us-25-27", "us-25-35", "us-25-161")  # three 4s next to Miyazaki (3136) owe its 4 and its militia, 3
    state = given("combat", 2, dict.fromkeys(three, "3137"), pending=({
        "kind": "losses", "side": "american", "hex": "3136", "attack": "american", "required": 7,
        "attackers": list(three), "advance": [], "left": 10, "supplied": dict.fromkeys(three, True),
        "code": "Ex 10/10"},))
    for order in ("end", "attack 3136 with us-25-27", "retreat toward 3338", "move us-25-27 to 3337"):
        text = refused(state, "american", order, "Olympic 8.9")
        assert "waits for the attacking American units it eliminates first" in text and "at least 7" in text, text


def test_ruling_r52_the_steps_own_order_by_the_side_not_acting_is_still_refused_by_the_sequence_of_play():
    # the Japanese "end" in an American phase: an order of the step, given out of turn, not out of phase
    assert "it is american's turn" in refused(_at("combat"), "japanese", "end", "Olympic sequence of play")


def test_8_52_with_the_14_4_notes_own_hexes_oo_1_2326_is_higher_than_2325():
    """The 14.4 note's example (2326 is higher than 2325, ruling R1) in play, both ways 8.52 reads identity: two
    Japanese 4-4s in 2325 and 2326 next to one American unit in 2425: the one in 2325 (the lower) attacks it; one
    Japanese 4-4 in 2425 next to American units in 2325 and 2326: it attacks the one in 2326 (the higher)."""
    two = given("japanese-combat", 2, {JP4A: "2326", JP4B: "2325", US: "2425"})
    assert programmed(two) == f"jattack {JP4B} on {US}"
    one = given("japanese-combat", 2, {JP4A: "2425", US: "2326", US_B: "2325"})
    assert programmed(one) == f"jattack {JP4A} on {US}"


def test_sequence_a_5_the_solitaire_game_has_no_air_interdiction_phase_the_doctrine_follows_the_reinforcements():
    """A.5's note: no American Air Interdiction Phase in the solitaire version; the American Reinforcement Phase
    (A.4) is followed by the Japanese Doctrine Phase (B.1), on Game-Turn 1 as on any other."""
    for turn in (1, 2):
        state = _at("reinforcement", turn)
        events = when(state, "american", "end")
        assert of(events, StepEnded) == [StepEnded("reinforcement", turn)]
        assert after(state, events).step == "doctrine"
