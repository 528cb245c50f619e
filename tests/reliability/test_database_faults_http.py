"""Issue 8, database faults through the real app (app.web.create_app): a locked database or a full disk is the
server's trouble, not the caller's: 503 with Retry-After and a clear JSON message, and nothing written. The
caller's own mistakes stay 4xx, even then."""
from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from app.events.store import EventStore
from app.mail.transport import MailConfig
from app.rules.catalog import installed
from app.service import audit
from app.web import create_app
from tests.outbox import Outbox

CATALOG = installed()  # the rule sets installed here


@pytest.fixture
def served(tmp_path):
    path = str(tmp_path / "faults.sqlite3")
    outbox = Outbox()
    app = create_app({"OPEN_GAME_CREATION": True, "HEXLEDGER_DB": path, "MAIL": MailConfig(), "MAIL_TRANSPORT": outbox,
                      "HEXLEDGER_RATE_LIMIT": "1000000 per minute", "HEXLEDGER_BUSY_TIMEOUT": 0.2})
    client = app.test_client()
    r = client.post("/games", json={"rules": "skirmish", "players": {"red": "r@x.example", "blue": "b@x.example"}})
    assert r.status_code == 201
    return app, client, path, r.json["game_id"], r.json["tokens"], outbox


def _auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def _join(client, game_id: str, tokens: dict, side: str):
    return client.post(f"/games/{game_id}/join", json={"seed_text": side}, headers=_auth(tokens[side]))


def _stream(path: str, game_id: str) -> list[tuple[int, str]]:
    store = EventStore(path)
    try:
        return [(e.seq, e.hash) for e in store.events(game_id)]
    finally:
        store.close()


def _game_count(path: str) -> int:
    store = EventStore(path)
    try:
        return len(store.games())
    finally:
        store.close()


def _unavailable(response, reason: str, retry_after: int) -> None:
    assert response.status_code == 503, response.json
    assert response.headers["Retry-After"] == str(retry_after)  # ours, not the rate limit window's reset
    assert response.json["error"] == "StoreUnavailable"
    assert reason in response.json["message"] and "nothing was written" in response.json["message"]


def test_a_locked_database_is_503_with_retry_after_and_writes_nothing(served):
    app, client, path, game_id, tokens, outbox = served
    for side in ("red", "blue"):
        assert _join(client, game_id, tokens, side).status_code == 201
    before, games_before, mails = _stream(path, game_id), _game_count(path), len(outbox.sent)
    blocker = sqlite3.connect(path, isolation_level=None)
    blocker.execute("BEGIN EXCLUSIVE")  # another process holds the write lock longer than the busy timeout
    try:
        _unavailable(client.post(f"/games/{game_id}/orders", data="move R1 0202", content_type="text/plain",
                                 headers=_auth(tokens["red"])), "locked", 30)
        _unavailable(client.post("/games", json={"rules": "skirmish", "players": {
            "red": "r2@x.example", "blue": "b2@x.example"}}), "locked", 30)
        # the caller's own mistakes are still the caller's: 4xx, never 503
        assert client.post("/games", json={"rules": "no-such-game", "players": {}}).status_code == 400
        assert client.post(f"/games/{game_id}/orders", data="fly R1 to the moon", content_type="text/plain",
                           headers=_auth(tokens["red"])).status_code == 422
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    assert _stream(path, game_id) == before and len(outbox.sent) == mails
    assert _game_count(path) == games_before  # no game half-created, with or without its seats
    r = client.post(f"/games/{game_id}/orders", data="move R1 0202", content_type="text/plain",
                    headers=_auth(tokens["red"]))
    assert r.status_code == 201 and r.json["seq"] == before[-1][0] + 2  # the lock gone, the same order goes in


def test_a_full_disk_is_503_and_writes_nothing(served):
    app, client, path, game_id, tokens, _ = served
    assert _join(client, game_id, tokens, "red").status_code == 201
    store = app.extensions["hexledger_service"]().store  # the test client's thread's connection
    pages = store.db.conn.execute("PRAGMA page_count").fetchone()[0]
    store.db.writer.execute(f"PRAGMA max_page_count = {pages}")  # writes may not grow the file: a full disk
    before, games_before = _stream(path, game_id), _game_count(path)
    # a game on a custom map: its first event holds the map's text (17 KB), which needs new pages (overflow)
    big = {"rules": "ichigo", "players": {"japanese": "j@x.example", "allied": "a@x.example"},
           "map": (Path(__file__).resolve().parents[2] / "app/rules/ichigo/data/map.toml").read_text(encoding="utf-8")}
    _unavailable(client.post("/games", json=big), "full", 300)
    assert _stream(path, game_id) == before and _game_count(path) == games_before
    assert audit.verify(CATALOG, list(EventStore(path).events(game_id))).ok
    store.db.writer.execute(f"PRAGMA max_page_count = {pages * 100}")  # space freed
    assert client.post("/games", json=big).status_code == 201

