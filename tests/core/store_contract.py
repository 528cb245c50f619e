"""What the store's contract suites share (tests/core/test_contract_*.py): one suite per interface of
app/events/interface.py, each run on both backends (SQLite, and PostgreSQL on the test run's own server:
tests/conftest.py, `db_location`), each against that interface's implementation alone on a connection of its own,
so a suite shows that part keeps its guarantees without the others."""
from __future__ import annotations

from app.events.store import NewEvent, connect
from app.events.streams import StreamTables

T0, T1, T2 = "2030-01-01T00:00:00.000000Z", "2030-01-01T00:01:00.000000Z", "2030-01-01T01:00:00.000000Z"
NUL_TEXTS = ["a\x00b", "\x00", "a\\0b", "\x01a", "\x01\x00\\", "plain"]  # with NUL, looking escaped, MARK-led


def opened(part: type, location: str):
    """`part` (one implementation, e.g. StreamTables) alone, on a new connection to the database at `location`."""
    return part(connect(location))


def ev(n: int, type_: str = "core.X") -> NewEvent:
    return NewEvent(type_, 1, {"n": n}, "test")


def game(part, game_id: str = "g-1", seed: str | None = "s") -> str:
    """A game in the part's database, made through the streams on the part's connection."""
    StreamTables(part.db).create_game(game_id, "skirmish", "meeting", [ev(1)], seed)
    return game_id


def mail(n: int, game_id: str | None = None) -> dict:
    return {"kind": "message", "recipient": f"p{n}@x.example", "game_id": game_id, "seat": None,
            "message_id": f"<{n}@x.example>", "data": {"subject": "s", "body": str(n)}}


def turn(seat: str, seq: int, game_id: str = "g-1") -> dict:
    return {"kind": "turn", "recipient": f"{seat}@x.example", "game_id": game_id, "seat": seat,
            "message_id": f"<{game_id}.{seat}.{seq}@x.example>", "data": {"headline": "Your turn", "seq": seq}}
