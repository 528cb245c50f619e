"""Ichi-Go rules version 14 (docs/rulings/ichigo-engine.md E51, E52). Naval transfer (10.11) read again: a US unit
that begins Phase I in one beachhead is moved to the other once, not sailed back in the same phase; and a transfer
given where 10.11 does not allow it (outside Phase I, or by the Japanese, who never move by sea between Formosa and the
mainland) is refused by 10.11, not by the sequence of play. The US Aerial Supply Marker may be placed at any time in
the turn (7.8), Phase I too, so a stack it supplies begins its movement phase in supply (10.17). From position files
(docs/custom-positions.md); a game created under version 13 is decided as played."""
from ichigo_given import RULES, then

from app.rules.ichigo import GAME
from app.rules.legal import legal_orders
from tests.fuzzing import refusal

SAIL = ("Ichi-Go 10.11: US units sail from one beachhead to the other in Phase I (the Naval Transfer Phase of 5.1) "
        "from Turn 9, those that begin it in a beachhead hex")


def turn_9(phase: str = "I", version: str | None = None):
    """Turn 9 after Causeway: the 1st Cavalry in the Formosa beachhead (3221), the 24th in the mainland one (Canton,
    1922), a Japanese division far from both."""
    pos = {"turn": 9, "phase": phase, "causeway": True, "plans": {"us": "move-fight"} if phase != "I" else {},
           "beachheads": {"formosa": "3221", "mainland": "1922"},
           "units": {"us-1c": "3221", "us-24th": "1922", "jp-cea-110div": "2010"},
           "control": {"allied": ["1922"]}}
    return GAME.initial_state("campaign", {"position": pos}, version)


def _transfers(s) -> list[str]:
    return [o["order"] for o in legal_orders(RULES, s, "allied") if o["action"] == "transfer"]


def test_10_11_a_us_unit_sails_to_the_other_beachhead_once_a_phase_not_back():
    s = then(turn_9(), "allied", "transfer us-1c")
    assert s.units["us-1c"].hex == "1922"
    assert refusal(RULES, s, "allied", "transfer us-1c") == (
        "Ichi-Go 10.11: us-1c sailed to 1922 this phase: a US unit that begins Phase I in one beachhead is moved to "
        "the other once")
    assert refusal(RULES, s, "allied", "transfer us-1c us-24th").startswith("Ichi-Go 10.11: us-1c sailed to 1922")
    assert _transfers(s) == ["transfer us-24th"]  # the unit that began Phase I in Canton still may
    s = then(s, "allied", "transfer us-24th")
    assert (s.units["us-1c"].hex, s.units["us-24th"].hex) == ("1922", "3221")
    s = then(then(s, "allied", "end"), "allied", "declare us move-fight")  # Phase II: both move as units ashore
    moves = {o["order"].split(" to ")[0] for o in legal_orders(RULES, s, "allied") if o["action"] == "move"}
    assert {"move us-1c", "move us-24th"} <= moves


def test_10_11_a_transfer_outside_phase_i_or_by_the_japanese_is_refused_by_10_11():
    assert refusal(RULES, turn_9("II"), "allied", "transfer us-1c") == SAIL
    assert refusal(RULES, turn_9("II"), "japanese", "transfer jp-cea-110div") == (
        "Ichi-Go 10.11: Japanese units never move by sea between Formosa and the mainland: only US units sail")
    assert refusal(RULES, turn_9(), "japanese", "transfer jp-cea-110div").startswith("Ichi-Go 10.11: Japanese")


def test_e51_a_game_created_under_version_13_decides_the_transfers_as_played():
    s = then(turn_9(version="13"), "allied", "transfer us-1c")
    assert refusal(RULES, s, "allied", "transfer us-1c") is None
    assert _transfers(s) == ["transfer us-1c us-24th"]
    assert refusal(RULES, turn_9("II", "13"), "allied", "transfer us-1c").startswith(
        "Ichi-Go 5.1: 'transfer' is not allowed now")


def full_mainland(version: str | None = None):
    """Turn 9, Phase I: the 1st Cavalry in the Formosa beachhead, eight US divisions (the 6.4 limit) in Canton."""
    eight = ("us-24th", "us-25th", "us-27th", "us-31st", "us-32nd", "us-33rd", "us-37th", "us-38th")
    pos = {"turn": 9, "phase": "I", "causeway": True, "plans": {},
           "beachheads": {"formosa": "3221", "mainland": "1922"},
           "units": {"us-1c": "3221", **{u: "1922" for u in eight}, "jp-cea-110div": "2010"},
           "control": {"allied": ["1922"]}}
    return GAME.initial_state("campaign", {"position": pos}, version)


def test_10_11_units_of_both_beachheads_exchange_in_one_order_the_limits_observed_in_both_after_it():
    s = full_mainland()
    assert refusal(RULES, s, "allied", "transfer us-1c") == "Ichi-Go 6.4: US units: 9 stacked in 1922, limit 8"
    s = then(s, "allied", "transfer us-1c us-24th")
    assert (s.units["us-1c"].hex, s.units["us-24th"].hex) == ("1922", "3221")
    assert len([u for u in s.at("1922") if u.nation == "us"]) == 8


def test_e51_a_game_created_under_version_13_transfers_from_one_beachhead_an_order():
    assert refusal(RULES, full_mainland("13"), "allied", "transfer us-1c us-24th") == \
        "Ichi-Go 10.11: US units that begin Phase I in one beachhead hex"


def cut_off(version: str | None = None):
    """Turn 9, Phase I: the 1st Cavalry far inland at 1513, out of supply (no mainland beachhead to trace to, 7.5; not
    a coastal hex, 7.7), no Japanese unit near it; the Formosa beachhead Allied."""
    pos = {"turn": 9, "phase": "I", "causeway": True, "plans": {}, "beachheads": {"formosa": "3221"},
           "units": {"us-1c": "1513", "jp-cea-110div": "2010"}, "control": {"allied": ["3221"]}}
    return GAME.initial_state("campaign", {"position": pos}, version)


def test_7_8_the_aerial_supply_marker_placed_in_phase_i_lets_the_stack_begin_its_movement_phase_in_supply():
    s = cut_off()
    assert [o["order"] for o in legal_orders(RULES, s, "allied")] == ["supply 1513", "end"]
    s = then(s, "allied", "supply 1513")
    assert s.aerial_hex == "1513"
    assert refusal(RULES, s, "allied", "supply 1513") == \
        "Ichi-Go 7.8: the Aerial Supply Marker is placed at most once a turn"
    s = then(then(s, "allied", "end"), "allied", "declare us move-fight")
    assert refusal(RULES, s, "allied", "move us-1c to 1507 strategic") is None  # 10.17: 12 MP
    assert refusal(RULES, turn_9(), "allied", "supply 3221") == (  # every US stack supplied (7.7): none to place on
        "Ichi-Go 7.8: no US stack is out of supply: the marker is placed atop an otherwise out-of-supply one")
    assert refusal(RULES, s, "allied", "move us-1c to 1507").startswith("Ichi-Go 10.2: no legal path")


def test_e52_a_game_created_under_version_13_places_the_marker_in_phases_ii_and_iii_only_as_played():
    s = cut_off("13")
    assert refusal(RULES, s, "allied", "supply 1513").startswith("Ichi-Go 5.1: 'supply' is not allowed now")
    s = then(then(then(s, "allied", "end"), "allied", "declare us move-fight"), "allied", "supply 1513")
    assert refusal(RULES, s, "allied", "move us-1c to 1507 strategic") == \
        "Ichi-Go 10.17: strategic movement needs full supply from the start of the movement phase (ruling E37)"
