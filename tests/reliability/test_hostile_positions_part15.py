"""Hostile custom positions (docs/custom-positions.md) that a game's own reader did not foresee: a list where a
unit id or a word belongs, a table where a list does. Before, the reader's TypeError escaped `POST /games` and
`cli.py new --position` as an engine fault (a 500, a traceback); now the engine's `Game.initial_state` refuses any
such position as a SetupError naming the position, so the service answers a clear refusal and writes nothing
(found by bench/hostile_part15.py)."""
from __future__ import annotations

import pytest

from app.events.backends import open_store
from app.rules.catalog import installed
from app.service import games
from app.service.games import GameError

CATALOG = installed()
DAI_SENSO = {"name": "test", "turn": 1, "phase": "regular", "phasing": "axis", "factions": ["axis", "western"],
             "combat_phases": 2, "victory": {"faction": "axis", "hold": ["w4722"]},
             "unit": [{"id": "jp-a", "kind": "jp-army", "hex": "w4622"},
                      {"id": "cn-1", "kind": "kmt-army", "hex": "w4722"}]}
FORMOSA = {"turn": 3, "phase": "allied-movement", "units": {"us-7-17": "0815", "jp-9-7": "1013"}}


def _with_unit(**changed) -> dict:
    return {**DAI_SENSO, "unit": [{**DAI_SENSO["unit"][0], **changed}, DAI_SENSO["unit"][1]]}


UNREAD = "position: could not be read"  # the engine's refusal, which names docs/custom-positions.md


@pytest.mark.parametrize("rules, scenario, position, says", [
    ("daisenso", "custom", _with_unit(id=[]), UNREAD),              # a unit id that is a list
    ("daisenso", "custom", _with_unit(kind=["jp-army"]), UNREAD),   # a unit kind that is a list
    ("daisenso", "custom", {**DAI_SENSO, "neutral": [[]]}, UNREAD),  # a Minor Country that is a list
    # Formosa's reader names these keys and their cases itself (tests/formosa/test_formosa_position_fog.py)
    ("formosa", "1", {**FORMOSA, "fleet_sortied": []}, "'fleet_sortied' is true"),      # a yes/no that is a list
    ("formosa", "1", {**FORMOSA, "phase": "invasion", "landed": -1}, "'landed' is a list of unit ids (10.2.1)"),
], ids=["ds-unit-id-list", "ds-unit-kind-list", "ds-neutral-list", "fm-fleet-sortied-list", "fm-landed-number"])
def test_a_position_of_the_wrong_shape_is_refused_naming_the_position_and_nothing_is_written(
        tmp_path, rules, scenario, position, says):
    store = open_store(str(tmp_path / "games.sqlite"))
    try:
        with pytest.raises(GameError) as refused:
            games.create_game(store, CATALOG, rules, scenario, options={"position": position}, game_id="g-hostile1")
        assert says in str(refused.value)
        assert says != UNREAD or "docs/custom-positions.md" in str(refused.value)
        assert not store.game_exists("g-hostile1")
    finally:
        store.close()


def test_the_printed_scenario_is_not_read_as_a_position():
    """No map, no position: the game's own data is started as before (its faults would stay faults)."""
    rules = CATALOG.rules("formosa")
    assert rules.initial_state("1", {}, rules.version) == rules.initial_state("1", {"position": None}, rules.version)
