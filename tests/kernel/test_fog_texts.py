"""The kernel's fog helpers as a player reads them (SNC 6.3, Ichi-Go 6.6): a mixed or unknown group of units is
"enemy", and a run of hidden ids becomes a count per nation (found unchecked by the mutation run, issue 19)."""
from app.rules.kernel.fog import owner, scrub

NAMES = {"chinese": "Chinese", "japanese": "Japanese"}


def side_of(uid: str) -> str | None:
    return {"cn": "chinese", "jp": "japanese"}.get(uid.split("-", 1)[0])


def test_one_side_is_named_and_a_mixed_group_is_the_enemy():
    assert owner(["jp-a", "jp-b"], side_of, NAMES) == "Japanese"
    assert owner(["jp-a", "cn-b"], side_of, NAMES) == "enemy"
    assert owner([], side_of, NAMES) == "enemy"


def test_a_run_of_ids_keeps_the_shown_ones_and_counts_the_hidden_per_nation():
    def hidden(u):
        return u.startswith("jp")

    def label(u):
        return NAMES[side_of(u)]

    text = "attack by jp-a, jp-b cn-c on 0101; jp-d alone"
    assert scrub(text, hidden, r"(?:jp|cn)-[a-z]", label) == \
        "attack by cn-c, 2 Japanese units on 0101; a Japanese unit alone"
