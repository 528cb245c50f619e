"""A unit whose id the game's orders would read as a hex is refused when the position is read (the engine's
`Game.initial_state`, every game on it): "move w4520 to w4521" could not say whether w4520 is the unit or the hex.
Dai Senso's positions name their own units ([[unit]] id, docs/custom-positions.md); the other games' ids are their
data's (no printed scenario has such an id: every game's own tests start each)."""
from __future__ import annotations

import dataclasses
import json

import pytest
from click.testing import CliRunner

from app.rules.custom_setup import SetupError
from app.rules.daisenso import data as daisenso_data
from app.rules.skirmish import GAME as SKIRMISH
from cli import cli

STRAIT = (daisenso_data.SCENARIOS / "strait.toml").read_text()


def renamed(data, scenario, options, version=None):
    """The skirmish's start with its unit R1 named 0302, a hex as its orders write one."""
    state = SKIRMISH.start(data, scenario, options, version)
    units = dict(state.units)
    units["0302"] = dataclasses.replace(units.pop("R1"), id="0302")
    return dataclasses.replace(state, units=units)


@pytest.fixture
def new_game(tmp_path):
    db = str(tmp_path / "ids.sqlite3")

    def invoke(position: str):
        path = tmp_path / "position.toml"
        path.write_text(position)
        return CliRunner().invoke(cli, ["--db", db, "new", "daisenso", "--position", str(path)])

    invoke.games = lambda: json.loads(CliRunner().invoke(cli, ["--db", db, "list", "--json"]).output)
    return invoke


@pytest.mark.parametrize("hex_like", ["w4323", "W4520", "4323"])
def test_a_dai_senso_unit_named_like_a_hex_is_refused_and_no_game_starts(new_game, hex_like):
    refused = new_game(STRAIT.replace('id = "us-6-mar"', f'id = "{hex_like}"'))
    assert refused.exit_code == 1
    assert (f"unit '{hex_like}': orders would read its id as a hex (a hex (w4520, e3609)); give it an id that is "
            "not a hex label") in refused.output, refused.output
    assert new_game.games() == []
    started = new_game(STRAIT.replace('id = "us-6-mar"', 'id = "us-6-mar-w4323"'))  # a hex inside an id is no hex
    assert started.exit_code == 0, started.output
    assert len(new_game.games()) == 1


def test_any_game_on_the_engine_refuses_it_by_its_own_hex_words():
    """The skirmish's orders read a hex as XXYY: a start that names a unit 0302 is refused, R1 is not."""
    with pytest.raises(SetupError, match=r"unit '0302': orders would read its id as a hex \(a hex \(XXYY\)\)"):
        dataclasses.replace(SKIRMISH, start=renamed).initial_state("standard", {})
    assert "R1" in SKIRMISH.initial_state("standard", {}).units



def test_a_game_created_under_an_older_rules_version_still_loads_its_position():
    """The check came with no rules version of its own: it refuses new games; a stored game's position, read under
    the version it was created under, starts as it did (a game is never made unreadable by a later check)."""
    game = dataclasses.replace(SKIRMISH, start=renamed, version="4")
    with pytest.raises(SetupError):
        game.initial_state("standard", {}, "4")
    assert "0302" in game.initial_state("standard", {}, "3").units


@pytest.mark.parametrize("odd", ["us 6 mar", "us-6-mar;<b>x</b>", "x" * 41, '"us"'])
def test_a_dai_senso_unit_no_order_could_name_is_refused(new_game, odd):
    refused = new_game(STRAIT.replace('id = "us-6-mar"', f"id = {json.dumps(odd)}"))
    assert refused.exit_code == 1
    assert "orders could not name it (a unit id is a letter or digit, then letters, digits, - _ . /, at most 40 " \
           "in all); give it another id" in refused.output, refused.output
    assert new_game.games() == []
