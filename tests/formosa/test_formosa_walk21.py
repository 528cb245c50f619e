"""Rules version 21 (session part 16): a fresh reading of the rulebook against what the players read and what the
engine decides, in the areas the earlier walks held least (victory and the end of the game, the sequence of play,
the tables' facts).

- 4.2, 25.5, 25.10 (ruling F164): the score both players read is 4.2 as the end of the game would count it now,
  the VP the optional rules add at the end included;
- 10.1, 10.2.2 (ruling F165): the Allied player places all the invasion markers he uses and their units, and then
  the opposed landings are fought; a landing or a drop chosen after an assault (knowing what it revealed or did)
  was accepted;
- 9.1, 16.2, 16.6, 24.1 (ruling F166): a phase whose die the rules make a player roll ends by the roll; an `end`
  before it was refused by the sequence of play (6.1) instead of the case that orders the roll;
- 6.1 and the case of each action (ruling F167): an order given in a phase that never takes it names the case that
  puts it in its phase."""
from __future__ import annotations

from dataclasses import replace

import pytest
from formosa_given import given, of, play, refused, when
from formosa_map import D, ring, shore

from app.rules.errors import InvalidOrder
from app.rules.formosa import GAME, played_under
from app.rules.formosa.events import VictoryCounted
from app.rules.formosa.view import view
from app.rules.kernel.hexgrid import Hex

X, _ = ring("open")
BEACH, (SEA,) = shore(1)
OTHER_BEACH = next(str(h) for h in sorted(D.open_coastal()) if D.map.distance(h, Hex.parse(BEACH)) > 2)
ROUGH, _ = ring("rough")
LAST = GAME.initial_state("1", {}).data.scenario(1)["turns"]


def opt(state, *rules: str):
    """The same position in a game created with these optional rules."""
    return replace(state, data=GAME.data({"optional": list(rules)}))


def test_4_2_25_5_25_10_the_score_both_players_read_is_what_the_end_of_the_game_counts_f164():
    # the last GT's Japanese Combat Phase: the PW Camp on the map (25.10: 3 Japanese VP at the end) and the Allies
    # took the camp's 5 VP earlier (a position's [vp]); in the second game the 97th Division is recruited (25.5 b: 5
    # Allied VP less)
    camp = opt(given(step="japanese-combat", turn=LAST, units={"jp-pw-camp": X, "us-7-17": ROUGH},
                     vp_adjust={"allied": 5}), "25.5", "25.10")
    the_97th = opt(given(step="japanese-combat", turn=LAST, units={
        "jp-9-7": X, "us-7-17": ROUGH, "us-97-303": "allied-staging", "us-97-386": "allied-staging",
        "us-97-387": "allied-staging"}), "25.5", "25.10")
    for state, vp in ((camp, (5, 3)), (the_97th, (-5, 0))):
        [counted] = of(when(state, "japanese", "end"), VictoryCounted)
        assert (counted.allied, counted.japanese) == vp
        for side in ("allied", "japanese"):
            assert view(state, side)["score"]["by_side"] == {"allied": vp[0], "japanese": vp[1]}
        # ruling F164: a game created under rules 1-20 shows the 4.2 objectives and losses alone, as it was played
        assert view(played_under(state, "20"), "allied")["score"]["by_side"] == {"allied": 0, "japanese": 0}
    # without the optional rules nothing is added
    plain = given(step="japanese-combat", turn=LAST, units={"jp-pw-camp": X, "us-7-17": ROUGH})
    assert view(plain, "japanese")["score"]["by_side"] == {"allied": 0, "japanese": 0}


def test_10_1_10_2_2_every_marker_and_its_units_are_placed_before_the_first_assault_f165():
    staged = {u: "allied-staging" for u in ("us-7-17", "us-7-32", "us-27-105", "us-11ab-187")}

    def invasion(japanese: dict, concealed=()):
        state = given(step="invasion", turn=1, units={**staged, **japanese}, concealed=concealed,
                      markers={"amphibious": 2, "drop-zone": 1})
        return play(state, "allied", f"land {SEA} with us-7-17 us-7-32")  # at sea, to assault BEACH

    state = invasion({"jp-guard-1": BEACH})
    before = (f"land {OTHER_BEACH} with us-27-105", f"drop {X} with us-11ab-187")
    assert all(of(when(state, "allied", o), object) for o in before)  # placed before the assault: accepted
    fought = play(state, "allied", f"assault {BEACH}", [3])
    assert fought.combat is None and fought.attacked_hexes == (BEACH,)
    for order in before:
        why = refused(fought, "allied", order, "Formosa 10.1")
        assert why.endswith("placed before the first assault of the Invasion Phase: an assault has been declared "
                            "(ruling F165)")
    listed = {o["order"].split()[0] for o in GAME.legal_orders(fought, "allied")}
    assert not listed & {"land", "drop"} and "end" in listed
    # an assault that found deception units only brings the stacks ashore without a die (F85): declared all the same
    ashore = play(invasion({"jp-deception-1": BEACH}, ("jp-deception-1",)), "allied", f"assault {BEACH}")
    assert ashore.units["us-7-17"].where == BEACH
    refused(ashore, "allied", before[0], "Formosa 10.1")
    # ruling F165: a game created under rules 1-20 places them after an assault, as it was played
    for order in before:
        assert of(when(played_under(fought, "20"), "allied", order), object)


def test_9_1_16_2_16_6_24_1_an_end_before_the_roll_a_rule_orders_is_refused_naming_that_rule_f166():
    for step, side, case in (("amoy", "allied", "Formosa 9.1"), ("air-superiority", "allied", "Formosa 16.2"),
                             ("japanese-special-attack", "japanese", "Formosa 16.6"),
                             ("recon", "allied", "Formosa 24.1")):
        state = given(step=step, turn=1 if step == "recon" else 2, units={"us-7-17": "allied-staging"})
        assert refused(state, side, "end", case).endswith("'roll'")
        refused(state, "japanese" if side == "allied" else "allied", "end", "Formosa 6.1")  # not his turn
        refused(played_under(state, "20"), side, "end", "Formosa 6.1")  # ruling F166: as played
    # after the kamikaze roll the phase ends (the fleet need not sortie, 18.0)
    rolled = play(given(step="japanese-special-attack", units={"us-7-17": "allied-staging"}), "japanese", "roll",
                  [1])
    assert rolled.step != "japanese-special-attack" or play(rolled, "japanese", "end").step != rolled.step


def test_6_1_an_order_out_of_its_phase_names_the_case_that_gives_it_its_phase_f167():
    state = given(step="allied-movement", units={"us-7-17": X, "us-eng-1": ROUGH, "jp-9-7": BEACH},
                  lp={"allied": 5, "japanese": 5})
    for side, order, case in (
            ("allied", f"build {ROUGH}", "Formosa 20.1"), ("allied", f"demobilise {ROUGH}", "Formosa 20.2"),
            ("allied", f"interdict {BEACH} 1", "Formosa 16.4"), ("allied", f"strike {BEACH}", "Formosa 16.5"),
            ("allied", f"land {OTHER_BEACH} with us-7-17", "Formosa 10.1"),
            ("allied", f"assault {BEACH}", "Formosa 10.2.2"), ("allied", "transfer us-7-17 to staging", "Formosa 21.0"),
            ("allied", "recruit us-7-32", "Formosa 8.0"), ("allied", "buy 1 tac", "Formosa 8.0"),
            ("allied", f"attack {BEACH} with us-7-17", "Formosa 15.0"),
            ("allied", f"support {BEACH} 1", "Formosa 16.3"),
            ("allied", "plan", "Formosa 16.1"), ("japanese", "sortie", "Formosa 18.0"),
            ("japanese", f"land {BEACH} with jp-marine", "Formosa 25.7"),
            ("japanese", f"deploy jp-9-7 {BEACH}", "Formosa 8.1"), ("allied", "deploy default", "Formosa 8.1")):
        refused(state, side, order, case)
    # a verb with a form in two phases ("deploy default" at set-up, "deploy UNIT PLACE" after a purchase) is read by
    # the form it was written in; written in neither, the player reads both forms
    with pytest.raises(InvalidOrder) as unreadable:
        GAME.parse("deploy jp-9-7 nowhere", "japanese", state)
    assert "expected 'deploy default'; or " in str(unreadable.value)
    assert "expected 'deploy UNIT PLACE'" in str(unreadable.value)
    combat = given(step="allied-combat", units={"us-7-17": X, "jp-9-7": BEACH})
    assert refused(combat, "allied", f"move us-7-17 {ROUGH}", "Formosa 12.0").endswith(
        "units move in their own side's Movement Phase")
    refused(state, "japanese", f"move jp-9-7 {OTHER_BEACH}", "Formosa 6.1")  # the phase takes moves: not his turn
    refused(played_under(combat, "20"), "allied", f"move us-7-17 {ROUGH}", "Formosa 6.1")  # ruling F167: as played
