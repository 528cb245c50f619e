"""SNC rules version 8 (ruling E19 of docs/rulings/snc-engine.md): the Chinese choice of the reinforcements an air
interdiction removes (11.2) and an owner's choice of the units an overstacked hex loses (6.0) name each unit once; a
unit named twice is refused by the case that asks for the choice and nothing is removed. A game created under
version 7 reads the unit once, as it was played (docs/core.md "Rules versions")."""
from dataclasses import replace

from snc_given import RULES, given, position, then

from tests.fuzzing import refusal
from tests.served import Served

DETACHMENTS = {"jp-det-shigeto": "3409", "jp-det-asama": "3410", "jp-det-amaya": "3408", "cn-d57": "3612",
               "jp-snlf-1": "3512"}


def overstacked(store) -> Served:
    """The Japanese end a movement phase with three detachments in 3409, two over 6.2's limit (ruling R13)."""
    game = Served(store, "snc", {"turn": 7, "side": "japanese", "phase": "ops1", "plan": ["move", "fight"],
                                 "units": DETACHMENTS}, ("chinese", "japanese"))
    game.do("japanese", "move det-asama to 3409")
    game.do("japanese", "move det-amaya to 3409")
    game.do("japanese", "end")
    assert game.game.pending[0]["kind"] == "overstack"
    return game


def test_6_0_a_unit_named_twice_among_an_overstacked_hex_s_eliminations_is_refused_and_nothing_is_lost(store):
    game = overstacked(store)
    why = "SNC 6.0: jp-det-asama named twice: a unit is eliminated once; name each unit the hex loses once"
    assert game.refused("japanese", "eliminate det-asama det-asama") == why
    assert game.refused("japanese", "eliminate jp-det-asama det-asama det-amaya") == why  # by its id and short id
    assert all(game.game.units[u].status == "map" for u in DETACHMENTS)
    game.do("japanese", "eliminate det-asama det-amaya")  # each once: both gone, the phase ends (6.0 1))
    assert [game.game.units[u].status for u in ("jp-det-asama", "jp-det-amaya")] == ["dead", "dead"]
    assert not game.game.pending and game.game.phase == "reinf"


def interdicted(version: str | None = None):
    """GT 4's Chinese Reinforcement Phase after a Japanese interdiction roll of 3 (the 9th Division, 3 CF, covers
    it alone)."""
    s = replace(given(), turn=4, phase="reinf", plan=("move", "move"))
    s = RULES.played_under(s, version) if version else s
    s = then(s, "chinese", "proceed", rolls=[3])
    assert s.pending[0]["kind"] == "interdiction" and s.pending[0]["data"]["roll"] == 3
    return s


def test_11_2_a_reinforcement_named_twice_in_the_interdiction_s_removal_is_refused():
    s = interdicted()
    assert refusal(RULES, s, "chinese", "remove d9 d9") == \
        "SNC 11.2: cn-d9 named twice: the interdiction removes each reinforcement once, its combat factors counted once"
    # the 8th (2 CF) named twice does not make up 3 CF: refused for the name, not counted twice either
    assert refusal(RULES, s, "chinese", "remove d8 d8").startswith("SNC 11.2: cn-d8 named twice")
    assert then(s, "chinese", "remove d9").units["cn-d9"].status == "removed"


def test_e19_a_game_created_under_version_7_reads_a_unit_named_twice_once_as_played():
    s = interdicted("7")
    assert then(s, "chinese", "remove d9 d9").units["cn-d9"].status == "removed"
    s = position(DETACHMENTS, plan=("move", "fight"))
    s = then(RULES.played_under(s, "7"), "japanese", "move det-asama to 3409")
    s = then(then(s, "japanese", "move det-amaya to 3409"), "japanese", "end")
    s = then(s, "japanese", "eliminate det-asama det-amaya det-asama")
    assert [s.units[u].status for u in ("jp-det-asama", "jp-det-amaya")] == ["dead", "dead"] and not s.pending
