"""Ichi-Go 9.7: the Allied player may not end the Chinese reinforcement phase with a drawn counter that still has
a city to go to, and is told so under 9.7 (mutation survivor of issue 19: the case in the refusal)."""
import pytest
from ichigo_given import fold, position, then, when

from app.rules.errors import IllegalOrder
from app.rules.ichigo import reinforcements


def test_9_7_ending_the_phase_with_a_drawn_counter_unplaced_is_refused_and_accepted_once_it_is_placed():
    s = position({}, phase="X")
    s = fold(s, *when(s, "allied", "reinforce", rolls=[1, 1]))
    h = reinforcements.drawn(s)[0]
    with pytest.raises(IllegalOrder, match=r"^Ichi-Go 9.7: place every drawn counter first"):
        when(s, "allied", "end")
    s = then(s, "allied", f"place {h} at 0712")
    assert when(s, "allied", "end")
