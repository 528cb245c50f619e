"""SNC mutation survivors of session part 14 (docs/mutation-survivors.md, part 14), each killed by what a player
of the game sees."""
from dataclasses import replace

import pytest
from snc_given import RULES, position, then, when

from app.rules.errors import IllegalOrder


@pytest.mark.parametrize(("unit", "allowed"), [("d3-r6", True), ("snlf-1", False)])
def test_8_3_in_a_game_of_rules_version_2_only_an_snlf_needs_a_landing_hex_on_the_naval_gunfire_coast(unit, allowed):
    """`reinforcements.replace_steps` 74: under rules version 2 (ruling E13) a reduced regiment is replaced through
    any landing hex, an SNLF only through one on the naval gunfire coast. A unit in the southern landing hex 2820
    (not on that coast), its two land neighbours held by Chinese divisions: the regiment is replaced where it
    stands, the SNLF is refused (the mutant swapped the two)."""
    s = position({f"jp-{unit}": "2820", "cn-d7": "2819", "cn-d87": "2720", "cn-d57": "3612"}, turn=3, phase="reinf",
                 steps={f"jp-{unit}": 1})
    s = RULES.played_under(replace(s, replacements=2), "2")
    if allowed:
        assert not then(s, "japanese", f"replace {unit}").units[f"jp-{unit}"].reduced
        return
    with pytest.raises(IllegalOrder, match=f"^SNC 8.3: jp-{unit} has no line of communication to a landing hex$"):
        when(s, "japanese", f"replace {unit}")
