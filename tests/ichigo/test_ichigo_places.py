"""Ichi-Go's places come from the map in force (issue 13): scenario.toml names Chungking, Kunming, Shanghai,
Wuhan, the beachheads and the 4.3 debit hexes by their printed labels, and a custom map carries each place by the
name the printed map gives it, so a map that names another hex Chungking moves Chungking, and a map that lacks a
place the rules need is refused with the place named."""
from pathlib import Path

import pytest

from app.events.dice import RecordedDice
from app.rules.custom_setup import SetupError
from app.rules.ichigo import GAME as RULES
from app.rules.ichigo import events as ev

PRINTED = Path("app/rules/ichigo/data/map.toml").read_text(encoding="utf-8")
# Chungking moved to 0716 (the printed Kweiyang); the printed Chungking hex 0712 keeps its city as "Pahsien".
MOVED = PRINTED.replace('"0712" = "Chungking"', '"0712" = "Pahsien"').replace('"0716" = "Kweiyang"',
                                                                             '"0716" = "Chungking"')


def march(map_text: str, start_hex: str, target: str) -> list:
    """Turn 3, Japanese movement: a division moves from `start_hex` into the empty city `target`."""
    pos = {"turn": 3, "phase": "VI", "plans": {"japanese": "move-fight"}, "units": {"jp-cea-110div": start_hex}}
    state = RULES.initial_state("campaign", {"map": map_text, "position": pos})
    command = RULES.parse(f"move jp-cea-110div to {target}", "japanese", state)
    return RULES.decide(state, command, RecordedDice(next_index=0, recorded=[5]))


def collapse_rolled(events) -> bool:
    return any(isinstance(e, ev.CollapseChecked) for e in events)


def test_4_1_the_china_collapse_roll_follows_chungking_to_the_hex_the_custom_map_names():
    assert collapse_rolled(march(MOVED, "0715", "0716"))
    assert not collapse_rolled(march(MOVED, "0812", "0712"))
    # the printed map: the same marches, the other way round
    assert not collapse_rolled(march("", "0715", "0716"))
    assert collapse_rolled(march("", "0812", "0712"))


def test_the_view_marks_the_custom_maps_chungking_as_a_victory_hex():
    state = RULES.initial_state("campaign", {"map": MOVED})
    watched = RULES.view(state, "allied")["victory_hexes"]
    assert "0716" in watched and "0712" not in watched


@pytest.mark.parametrize(("line", "place"), [('"0119" = "Kunming"\n', "Kunming"),
                                             ('"2008" = "Wuhan"\n', "Wuhan"),
                                             ('"3221" = "Takao-Tainan"\n', "Takao-Tainan")])
def test_a_custom_map_without_a_place_the_rules_need_is_refused_naming_it(line, place):
    assert PRINTED.count(line) == 1
    with pytest.raises(SetupError) as refused:
        RULES.initial_state("campaign", {"map": PRINTED.replace(line, "")})
    assert f"the map names no hex {place!r}" in str(refused.value)


def test_a_custom_map_that_names_a_place_twice_is_refused():
    twice = PRINTED.replace('"0716" = "Kweiyang"', '"0716" = "Chungking"')
    with pytest.raises(SetupError, match="the map names 2 hexes 'Chungking'"):
        RULES.initial_state("campaign", {"map": twice})
