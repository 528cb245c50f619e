"""The kernel's memo of answers per immutable object (app/rules/kernel/memo.py): an answer is computed once per
object and found again by identity, and the oldest object is forgotten past the memo's size."""
from app.rules.kernel.memo import IdentityMemo


def test_an_answer_is_computed_once_per_object_and_forgotten_past_the_size():
    memo = IdentityMemo(2)
    first, second, third = [1], [1], [1]  # equal but distinct, and unhashable like a game state
    assert memo.remembered(first, "cost", lambda: "computed") == "computed"
    assert memo.remembered(first, "cost", lambda: "again") == "computed"
    assert memo.remembered(second, "cost", lambda: "other") == "other"
    memo.of(third)
    assert memo.remembered(first, "cost", lambda: "anew") == "anew"
