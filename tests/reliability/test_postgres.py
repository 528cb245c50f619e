"""PostgreSQL as the event store (app/events/pg_store.py) on the test run's own server (tests/conftest.py): what the
contract suite cannot say through the interface alone (the schema refuses changes to events, commits are durable
whatever the server's default, a held lock is a clear error), concurrent writers in threads, the command line on a
postgresql:// URL, and several `serve` processes on one database racing and being SIGKILLed."""
from __future__ import annotations

import os
import random
import threading

import psycopg
import pytest
from click.testing import CliRunner

from app.events.backends import open_store
from app.events.store import Conflict, NewEvent, StoreUnavailable
from app.service import audit, games
from bench.http_writers import http_race
from bench.reliability import Server, crash_rounds, free_port, race


def test_the_database_refuses_to_change_or_remove_events(pg_url):
    store = open_store(pg_url)
    game_id = games.create_game(store, "skirmish")
    before = list(store.events(game_id))
    with psycopg.connect(pg_url, autocommit=True) as raw:
        for statement in ("UPDATE events SET actor = 'forger'", "DELETE FROM events", "TRUNCATE events CASCADE"):
            with pytest.raises(psycopg.errors.IntegrityConstraintViolation, match="append-only"):
                raw.execute(statement)
    assert list(store.events(game_id)) == before and audit.verify(before).ok


def test_commits_are_durable_even_where_the_server_default_is_not(pg_url):
    with psycopg.connect(pg_url, autocommit=True) as raw:
        raw.execute(f"ALTER DATABASE {pg_url.rsplit('/', 1)[1]} SET synchronous_commit = off")
    store = open_store(pg_url)
    assert store.conn.execute("SHOW synchronous_commit").fetchone()["synchronous_commit"] == "on"


def test_an_order_and_a_stale_one_through_the_service(pg_url):
    store = open_store(pg_url)
    game_id = games.create_game(store, "skirmish")
    games.join(store, game_id, "red", "red@example.org", "red text")
    games.join(store, game_id, "blue", "blue@example.org", "blue text")
    seq = store.head(game_id)[0]
    games.submit(store, game_id, "red", "move R1 0202", expected_seq=seq)
    head = store.head(game_id)
    with pytest.raises(Conflict, match="reload"):
        games.submit(store, game_id, "red", "move R2 0203", expected_seq=seq)
    assert store.head(game_id) == head and audit.verify(list(store.events(game_id))).ok


def test_a_game_locked_by_another_writer_is_a_clear_error_and_changes_nothing(pg_url):
    store = open_store(pg_url, busy_timeout=0.2)
    game_id = games.create_game(store, "skirmish")
    head = store.head(game_id)
    with psycopg.connect(pg_url) as blocker:  # a transaction holding the game's row, as a slow writer would
        blocker.execute("SELECT 1 FROM games WHERE id = %s FOR UPDATE", [game_id])
        with pytest.raises(StoreUnavailable, match="locked") as refused:
            games.submit(store, game_id, "red", "move R1 0202")
        assert refused.value.reason == "locked"
    assert store.head(game_id) == head
    games.submit(store, game_id, "red", "move R1 0202")  # works again once the lock is gone
    assert store.head(game_id)[0] == head[0] + 2


def test_an_unreachable_server_is_a_clear_error(pg_cluster):
    with pytest.raises(StoreUnavailable, match="cannot reach the PostgreSQL database") as refused:
        open_store(f"postgresql://hexledger:secret@127.0.0.1:{free_port()}/nothing", busy_timeout=1)
    assert "secret" not in str(refused.value)  # the password is never shown


def test_writers_of_one_game_queue_and_writers_of_different_games_do_not_wait(pg_url):
    """Two connections: one holds game A's lock; a write to game B goes through meanwhile."""
    setup = open_store(pg_url)
    a, b = games.create_game(setup, "skirmish"), games.create_game(setup, "skirmish")
    holder, other = open_store(pg_url), open_store(pg_url, busy_timeout=5)
    done = threading.Event()
    with holder.transaction():
        holder.append(a, holder.head(a)[0], [NewEvent("core.X", 1, {"n": 1}, "test")])
        writer = threading.Thread(target=lambda: (
            other.append(b, other.head(b)[0], [NewEvent("core.X", 1, {"n": 2}, "test")]), done.set()))
        writer.start()
        writer.join(timeout=60)
        assert done.is_set()  # B was written while A's writer still held its lock
    assert setup.head(a)[0] == setup.head(b)[0]


def test_concurrent_writers_lose_nothing_and_every_loser_is_told(pg_url):
    """Three writers per game, each on its own connection, race to move the red units of 4 games."""
    result = race(pg_url, n_games=4, writers_per_game=3)
    assert result.accepted == 12
    assert result.lost == [] and result.unverified == []


def test_the_command_line_plays_on_a_postgresql_url(pg_url):
    from cli import cli

    runner = CliRunner()

    def call(*args):
        result = runner.invoke(cli, ["--db", pg_url, *args], catch_exceptions=False)
        assert result.exit_code == 0, result.output
        return result.output

    game_id = call("new", "skirmish").strip()
    call("join", game_id, "--side", "red", "--name", "r@x.example")
    call("join", game_id, "--side", "blue", "--name", "b@x.example")
    call("do", game_id, "--as", "red", "move R1 0202")
    assert "chain intact and 1 orders replayed" in call("verify", game_id)


@pytest.mark.slow  # three server processes
def test_writers_racing_through_three_serve_processes_on_one_database(pg_url, tmp_path):
    """`python cli.py serve` three times on one PostgreSQL database; each game's three writers go through different
    processes, so the expected-seq conflicts are between processes: every loser gets 409, nothing is lost."""
    env = {**os.environ, "HEXLEDGER_RATE_LIMIT": "1000000 per minute",
           "HEXLEDGER_OPEN_GAME_CREATION": "1", "HEXLEDGER_OUTBOX": str(tmp_path / "mail")}
    servers = [Server(pg_url, free_port(), env, str(tmp_path / f"serve-{n}.log"), threads=4) for n in range(3)]
    try:
        for server in servers:
            server.start()
        result = http_race(pg_url, n_games=4, writers_per_game=3, ports=[s.port for s in servers])
    finally:
        for server in servers:
            server.stop()
    assert result.unexpected == [] and result.gave_up == 0, result.summary()
    assert result.accepted == 12
    assert result.lost == [] and result.duplicate_seqs == [] and result.unverified == [], result.summary()


@pytest.mark.slow  # real servers killed and restarted
def test_sigkill_of_serve_processes_on_one_database_loses_no_acknowledged_order(pg_url, tmp_path):
    """Two `serve` processes on one PostgreSQL database, four HTTP clients; one server SIGKILLed at a random
    moment 4 times (in turn) while the other serves on, then restarted: every acknowledged write is stored, every
    game verifies and is seated, snapshots equal a full rebuild."""
    result = crash_rounds(pg_url, rounds=4, rng=random.Random(11), clients=4, max_delay=0.5, snapshot_every=10,
                          servers=2, work_dir=str(tmp_path))
    assert result.crashes == 4 and result.restarts_accepting == 4, result.summary()
    assert result.orders_acknowledged > 0 and result.lost == 0, (result.summary(), result.problems)
    assert result.unverified == 0 and result.seatless == 0 and result.unexpected == [], result.problems
    assert result.snapshots > 0 and result.snapshots_match and result.rebuilt_match, result.summary()
    assert result.ok, (result.summary(), result.problems)
