"""SNC rules version 16 (session part 17; docs/rulings/snc-engine.md E35): a custom position that starts in the
Japanese Reinforcement Phase from GT 3 gives the Japanese their replacement steps (8.3), the GT's two or the fewer its
`replacements` says are left; a game created under version 15 or before started such a position with none, as
played."""
import pytest
from snc_given import then

from app.rules.custom_setup import SetupError
from app.rules.snc import GAME

REDUCED = {"turn": 3, "phase": "reinf", "side": "japanese", "plan": ["move", "fight"],
           "units": {"jp-d3-r6": "3410", "jp-d3-r18": "3410", "jp-d3-r34": "3410", "cn-d57": "3612"},
           "steps": {"jp-d3-r6": 1, "jp-d3-r18": 1, "jp-d3-r34": 1}}


def started(version: str | None = None, **keys):
    return GAME.initial_state("campaign", {"position": {**REDUCED, **keys}}, version)


def test_8_3_e35_a_position_in_the_japanese_reinforcement_phase_has_the_gts_replacement_steps():
    s = started()
    assert s.replacements == 2 and "replace" in [a.name for a in GAME.prompt(s).actions]
    s = then(s, "japanese", "replace d3-r6 d3-r18")
    assert not s.units["jp-d3-r6"].reduced and not s.units["jp-d3-r18"].reduced and s.replacements == 0
    # one taken before the position: one left
    assert started(replacements=1).replacements == 1
    # before GT 3, or in the Chinese player turn, none are due, and none can be given
    assert started(turn=2).replacements == 0
    for keys in ({"turn": 2}, {"side": "chinese"}, {"phase": "ops1"}):
        with pytest.raises(SetupError) as info:
            started(replacements=1, **keys)
        assert info.value.problems == ["'replacements' is given only in the Japanese Reinforcement Phase from GT 3 "
                                       "(SNC 8.3)"]
    for bad in (3, -1, True, "2", 1.5):
        with pytest.raises(SetupError) as info:
            started(replacements=bad)
        assert info.value.problems == ["'replacements' is the Japanese replacement steps left this phase, 0 to 2 "
                                       "(SNC 8.3)"]


def test_8_3_e35_a_game_of_version_15_started_such_a_position_with_none_as_played():
    s = started("15")
    assert s.replacements == 0 and "replace" not in [a.name for a in GAME.prompt(s).actions]
