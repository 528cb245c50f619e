"""Rules version 22 (issue 30, session part 17): a fresh reading of the rulebook against the engine.

- 15.3 item 2 (ruling F168): odds against a defence of 0 (a position's [values]) are above the top column, the
  >=700% column, where the engine read the 0 as one factor (3 against 0 at 300%);
- 3.0, 13.3, 15.4.1-15.8.1, 16.5, 16.6, 25.1 (ruling F169): an order that answers a decision (or sets up the game)
  given where none is owed names the case of the moment that asks for it, as F167's phases do, not 6.1;
- 24.1 (ruling F170): a Japanese unit set up off Formosa is refused naming 24.1's "On Formosa" with ruling F33,
  not the ruling alone."""
from __future__ import annotations

from dataclasses import replace

from formosa_given import given, of, play, refused, when
from formosa_map import D, ring

from app.rules.formosa import GAME, played_under
from app.rules.formosa.events import CombatResolved
from app.rules.formosa.searched import hopeless

X, AROUND = ring("open")


def valued(state, values: dict):
    """The same position in a game whose position gives these counters other values ([values], ruling F104)."""
    return replace(state, data=GAME.data({"position": {"values": values}}))


def test_15_3_a_defence_of_0_is_resolved_on_the_top_column_f168():
    # a 1-factor regiment against a 0-factor "D" unit: above every column, then one left for the "D" (15.4: the
    # shift acts from the end column, as 15.4's second example)
    values = {"jp-9-7": {"cf": 0, "indicator": "D"}, "us-7-17": {"cf": 1}}
    state = valued(given(step="allied-combat", units={"us-7-17": AROUND[0], "jp-9-7": X}), values)
    order = f"attack {X} with us-7-17"
    [fought] = of(when(state, "allied", order, [1]), CombatResolved)
    assert (fought.defence, fought.column, fought.code) == (0, "600-699%", "B1")
    assert "1 against 0 = above every column" in fought.describe()
    assert GAME.combat_summary(fought, state)["odds"] == "above every column"
    shown = GAME.preview(state, GAME.parse(order, "allied", state))
    assert (shown["defence"], shown["column"]) == (0, "600-699%") and "above every column" in shown["text"]
    assert shown["raw_odds"] == "above every column"  # what the combat panel shows (play.js), not "700%"
    # the Allies' search no longer takes the attack for a hopeless one (it read 100%, one left: 50-99%)
    assert not hopeless(state, AROUND[0], [])
    # ruling F168: a game created under rules 1-21 read the 0 as one factor, as it was played
    old = played_under(state, "21")
    [fought] = of(when(old, "allied", order, [1]), CombatResolved)
    assert fought.column == "50-99%" and hopeless(old, AROUND[0], [])
    # a 0-factor unit never attacks (15.0): refused by its case, nothing rolled, no crash
    nothing = valued(given(step="allied-combat", units={"us-7-17": AROUND[0], "jp-9-7": X}),
                     {"jp-9-7": {"cf": 0}, "us-7-17": {"cf": 0}})
    refused(nothing, "allied", order, "Formosa 15.0")
    # the Japanese attacking a 0-factor Allied unit: their table's top column too
    japanese = valued(given(step="japanese-combat", units={"jp-9-7": AROUND[0], "us-7-17": X}), {"us-7-17": {"cf": 0}})
    [fought] = of(when(japanese, "japanese", f"attack {X} with jp-9-7", [1]), CombatResolved)
    assert (fought.defence, fought.column, fought.code) == (0, ">=700%", "B1")


def test_3_0_15_5_an_order_of_a_decision_where_none_is_owed_names_the_case_of_its_moment_f169():
    state = given(step="allied-movement", units={"us-7-17": AROUND[0], "jp-9-7": X})
    for side, order, case in (
            ("allied", "lose us-7-17", "Formosa 15.5"), ("allied", f"retreat us-7-17 {AROUND[1]}", "Formosa 15.7"),
            ("japanese", f"counterattack {AROUND[0]}", "Formosa 15.6"),
            ("allied", f"advance us-7-17 to {X}", "Formosa 15.8"), ("allied", "hold", "Formosa 15.8.1"),
            ("allied", "remove us-7-17", "Formosa 13.3"), ("japanese", "defend lp 1", "Formosa 15.4.1"),
            ("japanese", "decline", "Formosa 16.5"), ("japanese", "fortify jp-9-7", "Formosa 16.5"),
            ("allied", "return 1 amphibious 0 gunfire", "Formosa 16.6"),
            ("allied", f"place us-7-17 {X}", "Formosa 8.1"), ("japanese", f"place jp-9-7 {X}", "Formosa 3.0"),
            ("japanese", "choose jp-9-7", "Formosa 3.0"),
            ("allied", f"reveal {X}", "Formosa 24.1"), ("japanese", "reveal jp-9-7", "Formosa 11.2")):
        refused(state, side, order, case)
        # ruling F169: a game created under rules 1-21 names the sequence of play, as it was played
        refused(played_under(state, "21"), side, order, "Formosa 6.1")
    exploiting = replace(state, data=GAME.data({"optional": ["25.1"]}))
    assert refused(exploiting, "allied", f"exploit {X} with us-7-17", "Formosa 25.1").endswith(
        "an exploitation attack follows a DE, at the conclusion of its advance")
    # an order another step reads in another form is read by it outside that step, and refused by its case: `deploy
    # UNIT PLACE` is not the set-up's `deploy default`, `reveal UNIT` not the reconnaissance's `reveal HEX`
    assert refused(state, "allied", "deploy us-7-17 staging", "Formosa 8.1").endswith(
        "units bought are deployed in the Recruit Phase they are bought in")
    # an order the phase takes keeps its own refusal, and the other side's turn keeps 6.1 (F167)
    refused(state, "japanese", f"move jp-9-7 {AROUND[2]}", "Formosa 6.1")


def test_24_1_a_unit_set_up_off_formosa_is_refused_naming_24_1_f170():
    state = play(GAME.initial_state("1", {}), "japanese", "roll", [1, 1, 1])
    sea = next(str(h) for h in sorted(D.map.hexes()) if not D.is_land(h))
    assert refused(state, "japanese", f"place jp-9-7 {sea}", "Formosa 24.1, ruling F33").endswith(
        f"{sea} is not a land hex of the map")
    # ruling F170: a game created under rules 1-21 names the ruling alone, as it was played
    refused(played_under(state, "21"), "japanese", f"place jp-9-7 {sea}", "Formosa ruling F33")
