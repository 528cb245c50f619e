"""Rules version 18 (issue 30, session part 13): a fresh reading of the rulebook against the engine found five
departures, each decided as the text says since version 18 and as played before it:

- 16.5 D1 item 2 (ruling F138): the DS falls on the Japanese units that survive the D1; a strike that leaves the hex
  empty suppresses nothing, so a Japanese unit may enter the hex later in the GT;
- 19.3 (ruling F139): a Japanese line of supply goes to a coastal defense or heavy weapons unit, never to the PW Camp
  (25.10), which the engine counted as a source because it is static;
- 15.7 item 4, 5.1 item 4 (ruling F140): a retreating Allied unit goes toward the sources it could trace to, the
  functional ports and the HQs of its own nationality; a US unit was steered toward a Commonwealth HQ;
- 25.2 (ruling F141): the battlefield LP count the factors of mobile units eliminated; an Allied engineer eliminated
  on its base side (static, 2.4) counted its engineer side's factors;
- 8.2, 8.3, 24.1 (ruling F142): a 6th Marine regiment eliminated is replaced as any unit; 24.1 refused it.

Each is played through the orders and read in the events and the view, under version 18 and under 17."""
from __future__ import annotations

from dataclasses import replace

from formosa_given import START, given, of, play, refused, when

from app.rules.formosa import GAME
from app.rules.formosa.airpower import B29NoSurvivors, b29_hexes
from app.rules.formosa.events import (
    BattlefieldLp,
    CombatResolved,
    LpSpent,
    UnitEliminated,
    UnitMoved,
    UnitRetreated,
)
from app.rules.formosa.state import Strike

# 1114 is open, without features or rivers; 1213 is a neighbour of it, 1214 (rough) one of 1213's and 1114's
STRUCK, NEXT = "1114", "1213"


def _b29(units: dict[str, str], version: int | None = None):
    state = given("b29", units={**units, "us-7-17": "1207"},
                  strike=Strike(missions={"allied": {"b29": 1}, "japanese": {}}, revealed=True),
                  air={**START.air, "b29": 1})
    return replace(state, rules_version=version) if version else state


def test_16_5_a_b29_d1_that_leaves_no_japanese_unit_suppresses_nothing_f138():
    state = _b29({"jp-9-7": STRUCK, "jp-9-19": NEXT})
    events = when(state, "allied", f"strike {STRUCK}", rolls=[6])  # open column, 6: D1
    assert [e.unit for e in of(events, UnitEliminated)] == ["jp-9-7"]
    assert of(events, B29NoSurvivors) == [B29NoSurvivors(STRUCK)]
    later = replace(play(state, "allied", f"strike {STRUCK}", rolls=[6]), step="japanese-movement")
    assert GAME.view(later, "japanese")["air_on_map"]["b29_suppressed"] == []
    moved = when(later, "japanese", f"move jp-9-19 {STRUCK}")
    assert of(moved, UnitMoved)[0].path == [NEXT, STRUCK]
    # the B-29 itself stays in the hex it struck to the Air Return Phase: no other Allied air joins it (13.1)
    assert STRUCK in b29_hexes(later)


def test_16_5_a_d1_with_a_survivor_still_suppresses_the_hex_f138():
    state = _b29({"jp-9-7": STRUCK, "jp-50-301": STRUCK, "jp-9-19": NEXT})
    state = play(state, "allied", f"strike {STRUCK}", rolls=[6])
    state = replace(play(state, "japanese", "lose jp-50-301"), step="japanese-movement")
    assert GAME.view(state, "japanese")["air_on_map"]["b29_suppressed"] == [STRUCK]
    refused(state, "japanese", f"move jp-9-19 {STRUCK}", "Formosa 16.5")
    refused(state, "japanese", f"move jp-9-7 {NEXT}", "Formosa 16.5")


def test_f138_a_game_created_under_rules_17_keeps_the_empty_hex_suppressed_as_played():
    state = _b29({"jp-9-7": STRUCK, "jp-9-19": NEXT}, version=17)
    events = when(state, "allied", f"strike {STRUCK}", rolls=[6])
    assert not of(events, B29NoSurvivors)
    later = replace(play(state, "allied", f"strike {STRUCK}", rolls=[6]), step="japanese-movement")
    refused(later, "japanese", f"move jp-9-19 {STRUCK}", "Formosa 16.5")


def _camp(version: int | None = None):
    """A Japanese regiment whose only static neighbour is the PW Camp (25.10), next to a US regiment."""
    state = given("japanese-combat", units={"jp-9-7": "1114", "jp-pw-camp": "1113", "us-7-17": "1115",
                                            "us-7-32": "1805"},
                  lp={"allied": 0, "japanese": 3})
    state = replace(state, data=GAME.data({"optional": ["25.10"]}))
    return replace(state, rules_version=version) if version else state


def test_19_3_the_pw_camp_is_no_japanese_supply_source_f139():
    state = _camp()
    text = refused(state, "japanese", "attack 1115 with jp-9-7 lp 1", "Formosa 15.4.1, 19.5")
    assert "traces a line of supply" in text
    # without a line, the regiment eliminated goes to the Eliminated Display (8.3): it cannot come back
    events = when(state, "japanese", "attack 1115 with jp-9-7", rolls=[1])  # 100%, Japanese table, 1: AE
    assert of(events, CombatResolved)[0].code == "AE"
    assert [(e.unit, e.to) for e in of(events, UnitEliminated)] == [("jp-9-7", "japanese-eliminated")]


def test_f139_a_game_created_under_rules_17_traces_to_the_camp_as_played():
    state = _camp(version=17)
    events = when(state, "japanese", "attack 1115 with jp-9-7 lp 1", rolls=[1])
    assert of(events, CombatResolved)[0].shifts[0]["reason"] == "LP spent attacking"


def _retreat(version: int | None = None):
    """A US regiment in 1114 attacks a Japanese one in rough 1214 and rolls AR. Its supply comes from the US base
    in the port of 1109 (five hexes; 1113 is nearer to it); a Commonwealth HQ in 1016 traces to the Commonwealth
    base in the port of 1020 (1014 is nearer to the HQ). 1213 and 1115 are in the Japanese ZOC."""
    state = given("allied-combat", units={"us-7-17": "1114", "jp-9-7": "1214", "us-eng-1": "1109",
                                          "cw-eng-1": "1020", "cw-hq-1": "1016"})
    based = {i: replace(state.units[i], base=True) for i in ("us-eng-1", "cw-eng-1")}
    state = replace(state, units={**state.units, **based})
    return replace(state, rules_version=version) if version else state


def test_15_7_5_1_a_us_unit_retreats_toward_its_own_sources_not_a_commonwealth_hq_f140():
    events = when(_retreat(), "allied", "attack 1214 with us-7-17", rolls=[4])  # 50-99% (rough), 4: AR
    assert of(events, CombatResolved)[0].code == "AR"
    assert [e.path for e in of(events, UnitRetreated)] == [["1114", "1113"]]


def test_f140_a_game_created_under_rules_17_retreats_toward_the_commonwealth_hq_as_played():
    events = when(_retreat(17), "allied", "attack 1214 with us-7-17", rolls=[4])
    assert [e.path for e in of(events, UnitRetreated)] == [["1114", "1014"]]


def _bases_lp(version: int | None = None):
    """25.2: a Japanese attack (12 + 12 + 5 factors, the armor's A, concentric) on a US regiment (4) stacked with a
    US engineer on its base side (static, 2.4); the Allies keep a unit far away (4.1)."""
    state = given("japanese-combat", units={
        "us-7-17": "1114", "us-eng-1": "1114", "us-7-32": "1805",
        "jp-9-7": "1213", "jp-9-19": "1213", "jp-9-35": "1213",
        "jp-12-24": "1013", "jp-12-46": "1013", "jp-12-48": "1013", "jp-armor-1": "1115"})
    state = replace(state, units={**state.units, "us-eng-1": replace(state.units["us-eng-1"], base=True)},
                    data=GAME.data({"optional": ["25.2"]}))
    state = replace(state, rules_version=version) if version else state
    order = "attack 1114 with jp-9-7 jp-9-19 jp-9-35 jp-12-24 jp-12-46 jp-12-48 jp-armor-1"
    events = when(state, "japanese", order, rolls=[6])
    assert of(events, CombatResolved)[0].code == "DE"
    return when(play(state, "japanese", order, rolls=[6]), "japanese", "hold")


def test_25_2_an_engineer_base_eliminated_is_no_mobile_factor_for_the_battlefield_lp_f141():
    # four mobile factors eliminated, the base's not counted, and no advance: no LP (six needed)
    assert not of(_bases_lp(), BattlefieldLp)


def test_f141_a_game_created_under_rules_17_counts_the_base_as_played():
    assert [(e.side, e.eliminated_cf) for e in of(_bases_lp(17), BattlefieldLp)] == [("japanese", 6)]


def _sixth(version: int | None = None):
    """GT 5, Amoy fallen on GT 2: a 6th Marine Division regiment, eliminated with a line of supply, waits in the
    Allied Replacements Display (8.3)."""
    state = given("recruit-allied", turn=5, units={"us-6mar-4": "allied-replacements", "us-7-17": "1114"},
                  lp={"allied": 5, "japanese": 0}, amoy_turn=2)
    return replace(state, rules_version=version) if version else state


def test_8_2_8_3_a_6th_marine_regiment_eliminated_is_replaced_as_any_marine_f142():
    state = _sixth()
    assert "replace us-6mar-4" in [o["order"] for o in GAME.legal_orders(state, "allied")]
    events = when(state, "allied", "replace us-6mar-4")
    assert [e.amount for e in of(events, LpSpent)] == [1]  # the Allied chart's Marine replacement
    assert play(state, "allied", "replace us-6mar-4").units["us-6mar-4"].where == "allied-staging"


def test_f142_a_game_created_under_rules_17_refuses_the_replacement_as_played():
    refused(_sixth(17), "allied", "replace us-6mar-4", "Formosa 24.1")
