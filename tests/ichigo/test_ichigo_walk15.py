"""Ichi-Go rules version 15 (docs/rulings/ichigo-engine.md E53, E54): a position's US beachheads lie where 5.3 puts them
(Takao-Tainan, a mainland landing port) and none is Japanese-controlled, since the Japanese win the instant they gain
control of one (4.4); E54: a position's flags are true or false, never a word read as true, and a position at the
start of a turn is read. From position files (docs/custom-positions.md); a game created under version 14 reads such
a position as given."""
import pytest
from ichigo_given import RULES, chinese, position, then, when

from app.rules.custom_setup import SetupError
from app.rules.ichigo import GAME
from app.rules.ichigo import events as ev
from app.rules.legal import legal_orders


def turn_9(beachheads: dict, units: dict | None = None, version: str | None = None):
    """Turn 9, the US Movement Phase (Phase II, move-fight): the 24th Division in Canton (1922), which it holds."""
    pos = {"turn": 9, "phase": "II", "causeway": True, "plans": {"us": "move-fight"}, "beachheads": beachheads,
           "units": units or {"us-24th": "1922", "jp-cea-110div": "2010"}, "control": {"allied": ["1922"]}}
    return GAME.initial_state("campaign", {"position": pos}, version)


def problems(*args, **kw) -> list[str]:
    with pytest.raises(SetupError) as refused:
        turn_9(*args, **kw)
    return refused.value.problems


def test_4_4_e53_a_position_whose_beachhead_is_japanese_controlled_is_refused():
    """Takao-Tainan (3221), an initial Japanese city, holds no US unit and the position leaves it Japanese."""
    assert problems({"formosa": "3221", "mainland": "1922"}) == [
        "beachheads: the US beachhead hex 3221 is Japanese-controlled: the Japanese won the instant they gained "
        "control of it (4.4)"]
    s = turn_9({"formosa": "3221", "mainland": "1922"},
               {"us-24th": "1922", "us-1c": "3221", "jp-cea-110div": "2010"})   # the 1st Cavalry holds it
    assert "3221" not in s.jp_control
    assert not [e for e in when(s, "allied", "end") if isinstance(e, ev.GameEnded)]


def test_e53_a_game_created_under_version_14_reads_it_as_given_and_ends_at_its_first_order():
    s = turn_9({"formosa": "3221", "mainland": "1922"}, version="14")
    [ended] = [e for e in when(s, "allied", "end") if isinstance(e, ev.GameEnded)]
    assert (ended.winner, ended.reason) == ("japanese", "Ichi-Go 4.4: the Japanese control the US beachhead 3221")


def test_5_3_e53_a_beachhead_away_from_takao_tainan_or_the_landing_ports_is_refused_naming_its_item():
    units = {"us-24th": "1922", "us-1c": "3221"}
    assert problems({"formosa": "1922", "mainland": "1001"}, units) == [
        "beachheads: the formosa beachhead is 3221, Takao-Tainan (5.3 item 4), not 1922",
        "beachheads: the mainland beachhead is one of the port cities 1922, 2123, 2521, 2719, 2818 (5.3 item 12, "
        "ruling R10), not 1001"]
    assert problems({"formosa": 5}, units) == ["beachheads: the formosa beachhead is 3221, Takao-Tainan (5.3 item "
                                               "4), not 5"]
    assert RULES.name == "ichigo" and turn_9({"formosa": 5}, units, "14").beachheads == {"formosa": 5}


def test_4_1_8_9_e54_a_flag_written_as_a_word_is_refused_not_read_as_true():
    """`b29_used = "false"` (a word, not TOML's false) was read as true: the once-a-game raid (8.9) spent unseen."""
    pos = {"turn": 3, "phase": "start", "units": {"jp-cea-110div": "2010"}, "b29_used": "false",
           "collapse_checked": 0}
    with pytest.raises(SetupError) as refused:
        GAME.initial_state("campaign", {"position": pos})
    assert refused.value.problems == ["'collapse_checked' is true (the China Collapse roll was made, 4.1) or false",
                                      "'b29_used' is true (the B-29 raid was used, 8.9) or false"]
    old = GAME.initial_state("campaign", {"position": pos}, "14")                 # read as given under version 14
    assert (old.b29_used, old.collapse_checked) == (True, False)
    s = GAME.initial_state("campaign", {"position": {**pos, "b29_used": False, "collapse_checked": False}})
    assert (s.turn, s.phase, s.b29_used) == (3, "start", False)   # the start of a turn (5.1) is read
    assert "b29 1609" in [o["order"] for o in legal_orders(RULES, s, "allied")]   # 8.9: the raid is still to come


THREE = ("jp-cea-110div", "jp-cea-116div", "jp-cea-13div")


def _listed(s, side: str, version: str | None = None) -> list[str]:
    return [o["order"] for o in legal_orders(RULES, RULES.played_under(s, version) if version else s, side, 1000)]


def test_11_5_11_24_e55_the_list_offers_an_attack_and_an_advance_by_every_set_of_the_units():
    """Three divisions next to an untried zero (11.27: a DE, no die): any of them may attack, the survivors advance
    in any set (11.5, 11.24) and those that advanced make the momentum attack in any set (11.25); version 14 listed
    all of them together (and, to advance, the first alone)."""
    s = position(dict.fromkeys(THREE, "2010"), extra=(chinese("C01", "cn-reg-04", "2011"),
                                                       chinese("C02", "cn-reg-02", "2012", tried=True)))
    attacks = [o for o in _listed(s, "japanese") if o.startswith("attack") and "tanks" not in o]
    assert len(attacks) == 7 and "attack 2011 with jp-cea-116div jp-cea-13div" in attacks
    assert [o for o in _listed(s, "japanese", "14") if o.startswith("attack") and "tanks" not in o] == \
        ["attack 2011 with jp-cea-110div jp-cea-116div jp-cea-13div"]
    s = then(s, "japanese", "attack 2011 with " + " ".join(THREE))
    advances = [o for o in _listed(s, "japanese") if o.startswith("advance")]
    assert len(advances) == 7 and "advance jp-cea-116div jp-cea-13div" in advances
    assert _listed(s, "japanese", "14") == ["advance " + " ".join(THREE), "advance jp-cea-110div", "stay"]
    s = then(s, "japanese", "advance " + " ".join(THREE))                 # 11.25: a momentum attack on 2012
    momentum = [o for o in _listed(s, "japanese") if o.startswith("attack")]
    assert len(momentum) == 7 and "attack 2012 with jp-cea-13div" in momentum
    assert _listed(s, "japanese", "14") == ["attack 2012 with " + " ".join(THREE), "stay"]


def test_8_10_e55_the_list_offers_an_airlift_to_every_friendly_city():
    s = position({}, phase="VIII", plans={"chinese": "move-fight"}, air_side="allied",
                 extra=(chinese("C01", "cn-reg-02", "0712"),))
    airlifts = [o for o in _listed(s, "allied") if o.startswith("airlift")]
    assert "airlift C01 to 2217" in airlifts and len(airlifts) == 29      # Ganzhow: every held city, not 3
    assert [o for o in _listed(s, "allied", "14") if o.startswith("airlift")] == \
        ["airlift C01 to 0119", "airlift C01 to 0716", "airlift C01 to 1009"]


def test_10_3_e55_the_list_offers_a_stack_that_has_not_moved_moving_as_one():
    s = position({**dict.fromkeys(THREE, "2010"), "jp-cea-3div": "1901"}, phase="VI",
                 plans={"japanese": "move-fight"})
    stack = f"move {' '.join(sorted(THREE))} to 2012"
    assert stack in _listed(s, "japanese") and stack not in _listed(s, "japanese", "14")
    assert not [o for o in _listed(s, "japanese") if o.startswith("move jp-cea-3div jp")]   # a unit alone is no stack
