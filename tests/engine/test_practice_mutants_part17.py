"""Practice opponents' mutation survivors of session part 17 (docs/mutation-survivors.md, part 17), each killed by
what a search seat decides."""
from __future__ import annotations

from app.rules import practice, search
from tests.engine.test_search_kept import PLAYOUTS, SIDE, SNC, STATE, _ask


def test_a_search_seat_searches_as_the_edition_it_was_created_with():
    """`search.policy` 44: the seat's recorded edition went unread (`settings.get("XXeditionXX", 2)`), so every
    search seat, a new game's too, searched as edition 2 does. SNC's campaign six orders in, where editions 11 and 8
    answer differently (test_search_kept.py): each seat's answer is its own edition's search."""
    for edition in (practice.EDITION, 8):
        seat = search.policy(SNC, {"playouts": PLAYOUTS, "edition": edition})
        assert seat(STATE, SIDE) == _ask("decide", SNC, STATE, SIDE, edition=edition), edition
