"""A seat's read mark that another connection wrote is learnt once, not written again on every read (issue 26): the
server's threads each have their own connection, and a state read served by a thread that did not write the mark
issued an UPDATE (a write statement, which waits for any writer's lock) every time."""
import sqlite3

import pytest

from app.events.errors import StoreUnavailable
from app.events.seats import SeatTables
from app.events.sqlite import SqliteDatabase
from tests.core.store_contract import T0, game


@pytest.fixture
def two(tmp_path):
    """Two connections to one file (two of a server's threads), the second quick to give up on a lock."""
    path = str(tmp_path / "marks.sqlite3")
    first, second = SeatTables(SqliteDatabase(path)), SeatTables(SqliteDatabase(path, busy_timeout=0.2))
    game(first)
    first.add_pbem_game("g-1", {"created_at": T0},
                        [{"seat": "red", "email": "r@x", "token_hash": "h1", "created_at": T0}])
    yield path, first, second
    second.close()
    first.close()


def test_a_read_of_a_mark_another_connection_wrote_takes_no_write_lock_once_known(two):
    path, first, second = two
    first.mark_seen("g-1", "red", 5)
    second.mark_seen("g-1", "red", 5)  # written already: learnt, nothing written
    writer = sqlite3.connect(path, isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")  # another process's write transaction holds the lock
    try:
        for seq in (5, 4):
            second.mark_seen("g-1", "red", seq)  # no write: it neither waits for the lock nor fails
        with pytest.raises(StoreUnavailable):
            second.mark_seen("g-1", "red", 6)  # a mark to raise is a write: it waits for the lock
    finally:
        writer.execute("ROLLBACK")
        writer.close()
    second.mark_seen("g-1", "red", 6)
    assert [m["last_seen_seq"] for m in first.members("g-1")] == [6]

