"""Issue 8: concurrent writers (in-process), SIGKILL of the HTTP server process, locked and full databases."""
from __future__ import annotations

import json
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from app.events.store import EventStore, NewEvent, StoreUnavailable
from app.rules.catalog import installed
from app.service import audit, games
from bench.reliability import crash_rounds, race

CATALOG = installed()  # the rule sets installed here

ROOT = Path(__file__).resolve().parents[2]


def test_concurrent_writers_lose_nothing_and_every_loser_is_told(tmp_path):
    """Three writers per game race to move the three red units of 6 games; each retries after a conflict."""
    result = race(str(tmp_path / "race.sqlite3"), n_games=6, writers_per_game=3)
    assert result.accepted == 18  # every writer got its order in, after being told of any conflict
    assert result.lost == [] and result.unverified == []


@pytest.mark.slow  # a real server killed and restarted
def test_sigkill_of_the_http_server_loses_no_acknowledged_order(tmp_path):
    """`python cli.py serve` SIGKILLed 4 times at random moments while 3 HTTP clients play games on it, restarted
    on the same database each time (bench/reliability.py runs it bigger). Snapshots every 10 events, so the
    killed servers leave snapshots behind, which must equal a full rebuild."""
    result = crash_rounds(str(tmp_path / "crash.sqlite3"), rounds=4, rng=random.Random(7), clients=3,
                          max_delay=0.5, snapshot_every=10)
    assert result.crashes == 4 and result.restarts_accepting == 4, result.summary()
    assert result.orders_acknowledged > 0 and result.lost == 0, (result.summary(), result.problems)
    assert result.unverified == 0 and result.seatless == 0 and result.unexpected == [], result.problems
    assert result.snapshots > 0 and result.snapshots_match and result.rebuilt_match, result.summary()
    assert result.ok, (result.summary(), result.problems)


def test_locked_database_is_a_clear_error_and_changes_nothing(tmp_path):
    path = str(tmp_path / "locked.sqlite3")
    store = EventStore(path, busy_timeout=0.2)
    game_id = games.create_game(store, CATALOG, "skirmish")
    head = store.head(game_id)[0]
    blocker = sqlite3.connect(path, isolation_level=None)
    blocker.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(StoreUnavailable, match="locked"):
            games.submit(store, CATALOG, game_id, "red", "move R1 0202")
    finally:
        blocker.execute("ROLLBACK")
    assert store.head(game_id)[0] == head
    games.submit(store, CATALOG, game_id, "red", "move R1 0202")  # works again once the lock is gone
    assert store.head(game_id)[0] == head + 2


def test_full_disk_is_a_clear_error_and_changes_nothing(tmp_path):
    path = str(tmp_path / "full.sqlite3")
    store = EventStore(path)
    game_id = games.create_game(store, CATALOG, "skirmish")
    head = store.head(game_id)[0]
    pages = store.db.conn.execute("PRAGMA page_count").fetchone()[0]
    store.db.writer.execute(f"PRAGMA max_page_count = {pages}")  # writes may not grow the file: a full disk
    big = NewEvent("core.PlayerJoined", 1, {"side": "red", "name": "x" * 200_000, "seed_text": ""}, "t")
    with pytest.raises(StoreUnavailable, match="full"):
        store.append(game_id, head, [big])
    assert store.head(game_id)[0] == head
    assert audit.verify(CATALOG, list(store.events(game_id))).ok


def test_cli_reports_a_locked_database_without_a_traceback(tmp_path):
    path = str(tmp_path / "cli.sqlite3")
    store = EventStore(path)
    game_id = games.create_game(store, CATALOG, "skirmish")
    blocker = sqlite3.connect(path, isolation_level=None)
    blocker.execute("BEGIN EXCLUSIVE")
    env = {**os.environ, "HEXLEDGER_DB": path, "HEXLEDGER_BUSY_TIMEOUT": "0.2"}
    try:
        out = subprocess.run([sys.executable, str(ROOT / "cli.py"), "do", game_id, "--as", "red",
                              "move R1 0202", "--json"], capture_output=True, text=True, env=env, timeout=60)
    finally:
        blocker.execute("ROLLBACK")
    assert out.returncode == 1
    assert "locked" in json.loads(out.stdout)["message"] and "Traceback" not in out.stderr
