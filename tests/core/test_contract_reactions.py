"""The contract of Reactions (app/events/interface.py), on both backends: each subscriber's position in each game's
stream (app/service/reactions.py), a new game's raw tokens held for its invitations, and the answers kept for
incoming messages."""
from __future__ import annotations

import pytest

from app.events.reactions import ReactionTables
from app.events.store import UnknownGame
from app.events.streams import StreamTables
from tests.core.store_contract import ev, game, opened


@pytest.fixture
def backend(db_location):
    part = opened(ReactionTables, db_location)
    yield part
    part.close()


def test_a_position_starts_at_zero_or_at_a_forks_point_and_moves_with_its_transaction(backend):
    game(backend, "g-1")
    StreamTables(backend.db).append("g-1", 1, [ev(2), ev(3)])
    StreamTables(backend.db).create_game("g-2", "skirmish", "meeting", [ev(1), ev(2), ev(3)], "s", ("g-1", 2))
    with backend.transaction():
        assert backend.reaction_position("turns", "g-1") == 0
        assert backend.reaction_position("turns", "g-2") == 2  # a fork's copied events were its parent's
    assert backend.reactions_behind(["turns", "disputes"]) == ["g-1", "g-2"]
    with backend.transaction():
        backend.set_reaction_position("turns", "g-1", 3)
        backend.set_reaction_position("disputes", "g-1", 3)
    assert backend.reactions_behind(["turns", "disputes"]) == ["g-2"]
    assert backend.reactions_behind(["turns"], ["g-1"]) == []
    with pytest.raises(RuntimeError), backend.transaction():  # a reaction that fails keeps its position
        backend.set_reaction_position("turns", "g-2", 3)
        raise RuntimeError("the subscriber failed")
    assert backend.reactions_behind(["turns"], ["g-2"]) == ["g-2"]
    with pytest.raises(UnknownGame), backend.transaction():
        backend.reaction_position("turns", "g-none")


def test_positions_read_together_are_each_subscribers_own(backend):
    """`reaction_positions`: every subscriber's position in one game at once, as `reaction_position` gives each
    (new ones at 0 or the fork's point, and made so), held the same way; an unknown game is refused."""
    game(backend, "g-1")
    StreamTables(backend.db).append("g-1", 1, [ev(2), ev(3)])
    StreamTables(backend.db).create_game("g-2", "skirmish", "meeting", [ev(1), ev(2), ev(3)], "s", ("g-1", 2))
    with backend.transaction():
        backend.set_reaction_position("turns", "g-1", 3)
        assert backend.reaction_positions(["turns", "disputes"], "g-1") == {"turns": 3, "disputes": 0}
        assert backend.reaction_positions(["disputes", "turns"], "g-2") == {"disputes": 2, "turns": 2}
    assert backend.reactions_behind(["turns", "disputes"]) == ["g-1", "g-2"]  # the new positions, made at the start
    with backend.transaction():
        backend.set_reaction_position("disputes", "g-1", 2)
    assert [backend.reaction_position(s, "g-1") for s in ("turns", "disputes")] == [3, 2]
    with pytest.raises(UnknownGame), backend.transaction():
        backend.reaction_positions(["turns"], "g-none")


@pytest.mark.empty_database  # its migration held back
def test_the_stalls_subscriber_starts_the_games_stored_before_it_at_their_heads(db_location, monkeypatch):
    """A database from before the stalls subscriber (its migration held back) is opened by this release: its games'
    stalls, told to nobody then, are not read again nor told now (the subscriber starts at their heads, as every
    subscriber added since the reactions did); a game made afterwards is read from its first event."""
    from app.events import migrations

    every = migrations.scripts
    monkeypatch.setattr(migrations, "scripts", lambda backend: [s for s in every(backend) if "stalls" not in s[0]])
    before = opened(ReactionTables, db_location)
    game(before, "g-old")
    StreamTables(before.db).append("g-old", 1, [ev(2), ev(3, "core.SeatStalled")])
    before.close()
    monkeypatch.setattr(migrations, "scripts", every)
    after = opened(ReactionTables, db_location)
    try:
        game(after, "g-new")
        with after.transaction():
            assert after.reaction_position("stalls", "g-old") == 3
            assert after.reaction_position("stalls", "g-new") == 0
        assert after.reactions_behind(["stalls"]) == ["g-new"]
    finally:
        after.close()


def test_held_tokens_are_taken_once(backend):
    game(backend, "g-1")
    backend.hold_invitations("g-1", {"red": "t1", "blue": "t2"})
    with backend.transaction():
        assert backend.take_invitations("g-1") == {"red": "t1", "blue": "t2"}
    assert backend.take_invitations("g-1") == {}


def test_an_answer_is_kept_once(backend):
    assert backend.answer_of("<m1@x>") is None
    backend.keep_answer("<m1@x>", {"to": "r@x", "subject": "Orders received", "body": "a\nb"})
    backend.keep_answer("<m1@x>", {"to": "r@x", "subject": "changed", "body": ""})
    assert backend.answer_of("<m1@x>") == {"to": "r@x", "subject": "Orders received", "body": "a\nb"}
