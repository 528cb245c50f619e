"""Dai Senso, session part 16's reading of chapter 4 (docs/rulings/daisenso.md D78 on): the table's ends, and
what the text states that the engine did not yet do. Positions built from a few units (tests/daisenso/helpers.py)."""
from __future__ import annotations

from tests.daisenso.helpers import orders, position, preview, when

_NOTHING = {"attack": 1, "defense": 0, "ma": 1}  # a what-if counter with no Defense Factor (ruling D35)


def test_4_2_2_step_3_d78_a_defender_total_of_0_is_odds_greater_than_9_1_so_9_1():
    """A US infantry a what-if gave a Defense Factor of 0, alone in w4723, against a Japanese division (2): the Defender
    Total divides into no ratio, so the odds are greater than every one, treated as 9-1 (4.2.2 step 3). Before, the
    list of legal orders and the attack failed with a server error."""
    state = position("axis", "western", [("jp-a", "jp-division", "w4722"),
                                         ("us-d", "us-infantry", "w4723", {"values": _NOTHING})], hold="w4723")
    assert "attack w4723 with jp-a" in orders(state)
    shown = preview(state, "attack w4723 with jp-a")
    assert (shown["attack"], shown["defence"], shown["raw_odds"], shown["column"]) == (2, 0, "9-1", "9-1")
    events, after = when(state, "attack w4723 with jp-a", [3])
    resolved = events[1]
    assert (resolved.attack, resolved.defence, resolved.odds, resolved.column) == (2, 0, "9-1", "9-1")
    assert after.combat.result == "Dr2 0/1"
