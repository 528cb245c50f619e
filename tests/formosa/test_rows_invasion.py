"""Rows of docs/cases/formosa.md whose own tests passed with a mutant of the row's code (issue 30's per-case
mutation report, `bench/mutation.py --report --cases --lines --packages formosa`): the Invasion and Naval Transfer
Phases, and the counter mix the data must hold, each refusal read whole as the player (or the designer of a data
file) reads it (2.0, 9.0, 10.1, 10.2, 10.2.2)."""
from __future__ import annotations

import pytest
from formosa_given import given, play, refused

from app.rules.formosa import GAME, played_under
from app.rules.formosa import data as files
from app.rules.formosa.data_load import DataError, load

D = GAME.data({})
BEACH, ELSEWHERE = (str(h) for h in sorted(h for h in D.open_coastal() if not D.map.features_of(h) - {"beach"})[:2])


def landing(**units):
    return given(step="invasion", turn=1, units={"jp-9-7": "1805", **units}, markers={"amphibious": 2})


def test_10_2_a_unit_landed_must_come_from_the_staging_area_amoy_or_a_functional_port():
    state = landing(**{"us-7-184": ELSEWHERE})
    assert refused(state, "allied", f"land {BEACH} with us-7-184", "Formosa 10.2") == (
        "Formosa 10.2: us-7-184 must be a mobile unit in the Staging Area, Amoy or a functional port")


def test_10_1_a_game_of_rules_1_to_3_puts_one_invasion_marker_a_hex_of_either_kind():
    state = play(landing(**{"us-7-17": "allied-staging", "us-7-32": "allied-staging"}), "allied",
                 f"land {BEACH} with us-7-17")
    assert refused(played_under(state, "3"), "allied", f"land {BEACH} with us-7-32", "Formosa 10.1") == (
        f"Formosa 10.1: {BEACH} already has an invasion marker")


def test_10_2_2_a_landing_on_japanese_units_is_refused_as_an_assault():
    state = landing(**{"us-7-17": "allied-staging", "jp-9-7": BEACH})
    assert refused(state, "allied", f"land {BEACH} with us-7-17", "Formosa 10.2.2") == (
        f"Formosa 10.2.2: {BEACH} holds Japanese units: an opposed landing is an assault")


def test_9_0_naval_transfer_to_amoy_waits_until_the_allies_have_conquered_it():
    state = given(step="naval-transfer", turn=3, units={"us-7-32": "allied-staging", "us-7-17": ELSEWHERE})
    assert refused(state, "allied", "transfer us-7-32 to amoy", "Formosa 9.0") == (
        "Formosa 9.0: Amoy serves as a Staging Area only once the Allies have conquered it")


def test_2_0_a_units_file_with_a_counter_too_many_is_refused_naming_the_176_of_the_counter_mix(tmp_path, monkeypatch):
    text = files.UNITS.read_text(encoding="utf-8")
    first = text.index("[[unit]]")
    block = text[first:text.index("[[unit]]", first + 1)]
    extra = block.replace('id = "', 'id = "x', 1)
    assert extra != block
    (tmp_path / "units.toml").write_text(text + "\n" + extra, encoding="utf-8")
    monkeypatch.setattr(files, "UNITS", tmp_path / "units.toml")
    with pytest.raises(DataError) as err:
        load()
    assert "the counter mix has 177 counters, not the 176 of 2.0" in err.value.problems
