"""The kernel's memo of answers per immutable object (app/rules/kernel/memo.py): an answer is computed once per
object and found again by identity, and the oldest object is forgotten past the memo's size."""
from app.rules.kernel.memo import ByIdentity, IdentityMemo, Kept


def test_an_answer_is_computed_once_per_object_and_forgotten_past_the_size():
    memo = IdentityMemo(2)
    first, second, third = [1], [1], [1]  # equal but distinct, and unhashable like a game state
    assert memo.remembered(first, "cost", lambda: "computed") == "computed"
    assert memo.remembered(first, "cost", lambda: "again") == "computed"
    assert memo.remembered(second, "cost", lambda: "other") == "other"
    memo.of(third)
    assert memo.remembered(first, "cost", lambda: "anew") == "anew"


def test_kept_answers_are_found_by_their_key_per_owner_and_the_least_recently_used_forgotten():
    kept = Kept(2)
    data, other = [0], [0]  # two games' data: equal, yet each its own answers
    assert kept.answer(data, ("a",), lambda: 1) == 1
    assert kept.answer(data, ("a",), lambda: 2) == 1
    assert kept.answer(other, ("a",), lambda: 3) == 3
    kept.answer(data, ("b",), lambda: 4)
    kept.answer(data, ("a",), lambda: 5)  # used again: "b" is now the oldest
    kept.answer(data, ("c",), lambda: 6)
    assert kept.answer(data, ("b",), lambda: 7) == 7 and kept.answer(data, ("a",), lambda: 8) == 8


def test_by_identity_answers_each_object_once_and_never_another_s_answer():
    """Equal but distinct objects each get their own answer; an object is computed once while remembered; past the
    size everything is forgotten and found again, the same answers."""
    calls = []

    def compute(obj):
        calls.append(obj)
        return ("seen", len(calls))

    memo = ByIdentity(compute, size=2)
    first, second, third = [1], [1], [1]
    assert memo(first) == ("seen", 1) and memo(first) == ("seen", 1)
    assert memo(second) == ("seen", 2) and memo(first) == ("seen", 1)
    assert memo(third) == ("seen", 3)  # the third forgets the first two
    assert memo(first) == ("seen", 4) and calls == [first, second, third, first]
    for _ in range(10):  # objects dropped and made again reuse identities: never an answer of a dropped one
        assert memo([2]) == ("seen", len(calls))
