"""SNC rules version 11 (ruling E23 of docs/rulings/snc-engine.md): the Chinese survivors of a landing are retreated one
hex by the Chinese player (8.4 2)), each its own way if he likes, not only all together into one hex. A game created
under version 10 is decided as played (docs/core.md "Rules versions")."""
from snc_given import RULES, given, position, then

from app.events import core
from tests.fuzzing import refusal

D101 = tuple(sorted(u.id for u in given().units.values()
                    if u.side == "japanese" and u.arrival_turn == 3 and u.size == "regiment"))


def survivors_to_retreat(version: str | None = None):
    """GT 3, the Japanese Reinforcement Phase: the 101st Division lands at 3408 on the 87th (elite) and the 36th; a
    1 leaves both in the hex (the 3rd Division's regiment at 3509 holds that hex; the 88th stands in 3409)."""
    s = position({"jp-d3-r6": "3509", "cn-d87": "3408", "cn-d36": "3408", "cn-d88": "3409", "cn-d57": "3412"},
                 turn=3, side="japanese", phase="reinf", pool=D101)
    if version:
        s = RULES.played_under(s, version)
    return then(s, "japanese", f"land {' '.join(D101)} at 3408", rolls=[1])


def test_8_4_2_the_chinese_survivors_of_a_landing_retreat_each_their_own_way():
    s = survivors_to_retreat()
    owed = RULES.prompt(s).owed
    assert owed.what == ("retreat the Chinese survivors one hex (SNC 8.4): cn-d36, cn-d87 (together, or each its "
                         "own way)") and [h for h, _ in owed.candidates] == ["3409", "3309", "3308"]
    assert refusal(RULES, s, "chinese", "retreat d87 d87 to 3309") == \
        "SNC 8.4: cn-d87 named twice: a unit retreats once; name each unit once"
    assert refusal(RULES, s, "chinese", "retreat d88 to 3309") == \
        "SNC 8.4: cn-d88 is not a Chinese survivor still to retreat from 3408: cn-d36, cn-d87"
    s = then(s, "chinese", "retreat d87 to 3309")
    assert (s.units["cn-d87"].hex, s.units["cn-d36"].hex) == ("3309", "3408")
    assert s.pending[0]["kind"] == "retreat" and s.pending[0]["data"]["units"] == ["cn-d36"]
    assert refusal(RULES, s, "chinese", "retreat d87 to 3308").startswith("SNC 8.4: cn-d87 is not a Chinese survivor")
    s = then(s, "chinese", "retreat to 3308")
    assert (s.units["cn-d87"].hex, s.units["cn-d36"].hex) == ("3309", "3308")
    b = s.battle  # 8.4 2): then the attacker's losses and one additional step
    assert s.pending[0]["kind"] == "losses" and s.pending[0]["data"]["count"] == b["att_due"] + 1
    # 6.3: the Japanese read the order's verb only (the survivors are named by the retreat events they were shown)
    assert RULES.visible(core.OrderGiven("chinese", "retreat d87 to 3309", {}), "japanese") == \
        "chinese orders: retreat (details hidden, SNC 6.3)"
    assert RULES.visible(core.OrderGiven("chinese", "retreat to 3309", {}), "japanese") is True


def test_e23_a_game_created_under_version_10_retreats_the_survivors_together_as_played():
    s = survivors_to_retreat("10")
    assert refusal(RULES, s, "chinese", "retreat d87 to 3309") == \
        "SNC 8.4: the Chinese survivors of a landing retreat together: `retreat to HEX`"
    s = then(s, "chinese", "retreat to 3309")
    assert (s.units["cn-d87"].hex, s.units["cn-d36"].hex) == ("3309", "3309")
