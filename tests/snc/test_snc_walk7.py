"""SNC rules version 7 (ruling E18 of docs/rulings/snc-engine.md): a replacement naming a unit twice is refused by
8.3, through the service on a game made from a position file; a game created under version 6 reads the unit once,
as it was played (docs/core.md "Rules versions")."""
from snc_given import RULES, position, then

from tests.served import Served

REDUCED = {"jp-d3-r6": 1, "jp-d3-r18": 1}


def reinforcement_phase(store) -> Served:
    """GT 3's Japanese Reinforcement Phase, its two replacement steps unused, two regiments reduced."""
    game = Served(store, "snc", {"turn": 3, "side": "japanese", "phase": "ops1", "plan": ["fight", "fight"],
                                 "units": {"cn-d57": "3612", "jp-d3-r6": "3410", "jp-d3-r18": "3411"},
                                 "steps": REDUCED}, ("chinese", "japanese"))
    game.do("japanese", "end")
    assert (game.game.phase, game.game.replacements) == ("reinf", 2)
    return game


def test_8_3_a_unit_named_twice_in_one_replacement_is_refused_and_nothing_is_flipped(store):
    game = reinforcement_phase(store)
    why = "SNC 8.3: jp-d3-r6 named twice: a replacement step flips a reduced unit back to full strength, once"
    assert game.refused("japanese", "replace d3-r6 d3-r6") == why
    assert game.refused("japanese", "replace jp-d3-r6 d3-r6") == why          # by its id and its short id
    assert game.refused("japanese", "replace d3-r18 d3-r6 d3-r6 d3-r18") == \
        "SNC 8.3: jp-d3-r18, jp-d3-r6 named twice: a replacement step flips a reduced unit back to full strength, once"
    assert game.game.replacements == 2 and all(game.game.units[u].steps == 1 for u in REDUCED)
    game.do("japanese", "replace d3-r6 d3-r18")                                # each once: both flipped
    assert game.game.replacements == 0 and all(game.game.units[u].steps == 2 for u in REDUCED)


def test_8_3_a_game_created_under_version_6_replaces_a_unit_named_twice_once_as_played():
    s = position({"jp-d3-r6": "3410", "cn-d57": "3612"}, turn=3, phase="reinf", steps={"jp-d3-r6": 1})
    s = RULES.played_under(s.__class__(**{**s.__dict__, "replacements": 2}), "6")
    s = then(s, "japanese", "replace d3-r6 d3-r6")
    assert s.units["jp-d3-r6"].steps == 2 and s.replacements == 1
