"""The contract of SeatRecords (app/events/interface.py), on both backends: play by email's settings,
deadlines and seats."""
from __future__ import annotations

import pytest

from app.events.seats import SeatTables
from app.events.store import NoPbemSettings
from tests.core.store_contract import T0, game, opened


@pytest.fixture
def backend(db_location):
    part = opened(SeatTables, db_location)
    yield part
    part.close()


def test_seats_and_settings_of_a_play_by_email_game(backend):
    game(backend, "g-1")
    game(backend, "g-2")
    assert backend.pbem_settings("g-1") is None and backend.members("g-1") == []
    with backend.transaction():
        backend.add_pbem_game("g-1", {"deadline_hours": 48.0, "created_at": T0},
                              [{"seat": "red", "email": "r@x", "token_hash": "h1", "created_at": T0},
                               {"seat": "blue", "email": "b@x", "token_hash": "h2", "created_at": T0}])
    backend.add_pbem_game("g-2", {"created_at": T0}, [])
    settings = backend.pbem_settings("g-1")
    assert settings["deadline_hours"] == 48.0 and settings["dispute_window_hours"] == 24
    assert settings["turn_side"] is None and not settings["over_notified"]
    assert {m["seat"]: m["email"] for m in backend.members("g-1")} == {"red": "r@x", "blue": "b@x"}
    assert [g["game_id"] for g in backend.pbem_games()] == ["g-1", "g-2"]
    assert backend.pbem_games(on_clock_only=True) == []
    backend.update_pbem_game("g-1", {"turn_side": "red", "turn_started_at": T0})
    assert [g["game_id"] for g in backend.pbem_games(on_clock_only=True)] == ["g-1"]
    backend.update_pbem_game("g-2", {"over_notified": 1})
    assert [g["game_id"] for g in backend.pbem_games()] == ["g-1"]
    assert len(backend.pbem_games(running_only=False)) == 2


def test_a_seats_marks_only_rise(backend):
    game(backend)
    backend.add_pbem_game("g-1", {"created_at": T0},
                          [{"seat": "red", "email": "r@x", "token_hash": "h1", "created_at": T0}])
    backend.mark_seen("g-1", "red", 5)
    backend.mark_seen("g-1", "red", 3)
    backend.mark_notified("g-1", "red", 4)
    backend.mark_notified("g-1", "red", 2)
    [red] = backend.members("g-1")
    assert (red["last_seen_seq"], red["last_notified_seq"]) == (5, 4)


def test_settings_of_a_game_not_played_by_email_cannot_be_changed(backend):
    """A game without play-by-email settings (a local game): a change to them is refused on both backends, and
    nothing is written (PostgreSQL's UPDATE once matched no row and said nothing)."""
    game(backend)
    with pytest.raises(NoPbemSettings, match="not played by email"):
        backend.update_pbem_game("g-1", {"turn_side": "red"})
    with pytest.raises(NoPbemSettings):
        backend.update_pbem_game("nope", {"over_notified": 1})
    assert backend.pbem_settings("g-1") is None and backend.pbem_games(running_only=False) == []


def test_a_game_on_a_time_bank_is_on_the_clock_by_its_own_record(backend):
    """A time bank's settings and the clock subscriber's record (app/service/clocks.py) are kept as written, and
    such a game is on the clock by its record alone, with no fixed deadline nor turn_side (migrations 0011/0006)."""
    game(backend, "g-1")
    backend.add_pbem_game("g-1", {"created_at": T0, "clock": '{"bank_hours": 72.0}'}, [])
    assert backend.pbem_games(on_clock_only=True) == []
    backend.update_pbem_game("g-1", {"clock_state": '{"side": "red", "left": {"red": 3600}}'})
    [row] = backend.pbem_games(on_clock_only=True)
    assert (row["clock"], row["clock_state"]) == ('{"bank_hours": 72.0}', '{"side": "red", "left": {"red": 3600}}')


def test_credentials_are_the_seats_as_written_and_a_rolled_back_seat_is_not_kept(backend):
    """The credential check's reading of a game's seats (seat, address, token hash) on both backends: the seats as
    written, in order; a game whose seats were written in a transaction that rolled back has none, even when they
    were read inside it."""
    game(backend, "g-1")
    game(backend, "g-2")
    backend.add_pbem_game("g-1", {"created_at": T0},
                          [{"seat": "red", "email": "r@x", "token_hash": "h1", "created_at": T0},
                           {"seat": "blue", "email": "b@x", "token_hash": "h2", "created_at": T0}])
    expected = [{"seat": "red", "email": "r@x", "token_hash": "h1"},
                {"seat": "blue", "email": "b@x", "token_hash": "h2"}]
    assert backend.credentials("g-1") == expected
    backend.mark_seen("g-1", "red", 5)  # the marks change; the credentials do not
    assert backend.credentials("g-1") == expected
    with pytest.raises(RuntimeError), backend.transaction():
        backend.add_pbem_game("g-2", {"created_at": T0},
                              [{"seat": "red", "email": "r@y", "token_hash": "h3", "created_at": T0}])
        assert [c["seat"] for c in backend.credentials("g-2")] == ["red"]
        raise RuntimeError("rolled back")
    assert backend.credentials("g-2") == [] and backend.credentials("nope") == []


def test_a_mark_written_in_a_transaction_that_rolled_back_is_written_again(backend):
    """A mark a transaction wrote is known once it commits, so the same mark again issues no statement; one whose
    transaction rolled back was taken back with it, so it is written again (not skipped as if it were there: the
    seat's "seen" mark decides whether an order can still be taken back)."""
    game(backend)
    backend.add_pbem_game("g-1", {"created_at": T0},
                          [{"seat": "red", "email": "r@x", "token_hash": "h1", "created_at": T0}])
    with pytest.raises(RuntimeError), backend.transaction():
        backend.mark_seen("g-1", "red", 5)
        raise RuntimeError("rolled back")
    assert backend.members("g-1")[0]["last_seen_seq"] == 0
    backend.mark_seen("g-1", "red", 5)
    assert backend.members("g-1")[0]["last_seen_seq"] == 5
    with backend.transaction():
        backend.mark_seen("g-1", "red", 7)
    writes = []
    write = backend.db.write
    backend.db.write = lambda *args, **kwargs: (writes.append(args), write(*args, **kwargs))[1]
    backend.mark_seen("g-1", "red", 7)
    backend.mark_seen("g-1", "red", 6)
    assert writes == [] and backend.members("g-1")[0]["last_seen_seq"] == 7
