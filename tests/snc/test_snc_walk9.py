"""SNC rules version 9 (ruling E20 of docs/rulings/snc-engine.md): an order that places (8.2), rails (8.2), lands
(8.4), moves (9.0), overruns (9.6), attacks (10.0) or advances (10.5.3, 8.4.1) units names each unit once; a unit
named twice (by its id twice, or by its id and its hex) is refused by the order's case and nothing happens. A game
created under version 8 reads the unit once, as it was played (docs/core.md "Rules versions")."""
from dataclasses import replace

import pytest
from snc_given import RULES, position, then

from tests.fuzzing import refusal


def placing():
    """GT 2's Chinese Reinforcement Phase with the 7th Division due at 2410."""
    return position({"cn-d57": "3612", "jp-snlf-1": "3512"}, turn=2, side="chinese", phase="reinf", pool=("cn-d7",))


def railing():
    """GT 3's Chinese Reinforcement Phase (interdiction rolled) with the 13th Division due, railed to 0105."""
    s = position({"cn-d57": "3612", "jp-snlf-1": "3512"}, turn=3, side="chinese", phase="reinf")
    return replace(s, interdicted=3, units={**s.units, "cn-d13": replace(s.units["cn-d13"], arrival_turn=3)})


def landing():
    """GT 1's Japanese Reinforcement Phase with SNLF 9 due to land at an empty 3611."""
    return position({"cn-d57": "3612", "jp-snlf-1": "3512"}, turn=1, phase="reinf", pool=("jp-snlf-9",))


def test_8_2_8_4_a_reinforcement_named_twice_is_refused_and_nothing_is_placed():
    s = placing()
    assert refusal(RULES, s, "chinese", "place d7 d7 at 2410") == \
        "SNC 8.2: cn-d7 named twice: a reinforcement is placed once; name each unit once"
    assert refusal(RULES, s, "chinese", "place cn-d7 d7 at 2410").startswith("SNC 8.2: cn-d7 named twice")
    assert then(s, "chinese", "place d7 at 2410").units["cn-d7"].hex == "2410"
    s = railing()
    assert refusal(RULES, s, "chinese", "rail d13 d13 to 0105") == \
        "SNC 8.2: cn-d13 named twice: a reinforcement is placed once; name each unit once"
    assert then(s, "chinese", "rail d13 to 0105").units["cn-d13"].hex == "0105"
    s = landing()
    assert refusal(RULES, s, "japanese", "land snlf-9 snlf-9 at 3611") == ("SNC 8.4: jp-snlf-9 named twice: a "
                                                                           "reinforcement lands once, its combat "
                                                                           "factors counted once; name each unit once")
    assert then(s, "japanese", "land snlf-9 at 3611").units["jp-snlf-9"].hex == "3611"


@pytest.mark.parametrize("order", ["attack 3408 with d3-r6 d3-r6", "attack 3408 with 3409 d3-r6"])
def test_10_0_an_attacker_named_twice_by_its_id_or_its_hex_is_refused(order):
    s = position({"jp-d3-r6": "3409", "cn-d87": "3408"})
    assert refusal(RULES, s, "japanese", order) == \
        "SNC 10.0: jp-d3-r6 named twice: a unit's combat factors count once in an attack; name each unit once"


def test_9_0_a_unit_named_twice_in_a_move_is_refused():
    s = position({"jp-d3-r6": "2806"}, plan=("move", "fight"))
    assert refusal(RULES, s, "japanese", "move d3-r6 2806 to 2706") == \
        "SNC 9.0: jp-d3-r6 named twice: a unit moves once; name each unit once"
    assert then(s, "japanese", "move 2806 to 2706").units["jp-d3-r6"].hex == "2706"


def test_e20_a_game_created_under_version_8_reads_a_unit_named_twice_once_as_played():
    assert then(RULES.played_under(placing(), "8"), "chinese", "place d7 d7 at 2410").units["cn-d7"].hex == "2410"
    assert then(RULES.played_under(railing(), "8"), "chinese", "rail d13 d13 to 0105").units["cn-d13"].hex == "0105"
    s = then(RULES.played_under(landing(), "8"), "japanese", "land snlf-9 snlf-9 at 3611")
    assert s.units["jp-snlf-9"].hex == "3611"
    s = RULES.played_under(position({"jp-d3-r6": "2806"}, plan=("move", "fight")), "8")
    assert then(s, "japanese", "move d3-r6 d3-r6 to 2706").units["jp-d3-r6"].hex == "2706"
