"""PostgreSQL as the event store (app/events/postgres.py) on the test run's own server (tests/conftest.py): what the
contract suite cannot say through the interface alone (the schema refuses changes to events, commits are durable
whatever the server's default, a held lock is a clear error), concurrent writers in threads, the command line on a
postgresql:// URL, and several `serve` processes on one database racing and being SIGKILLed."""
from __future__ import annotations

import os
import random
import threading
import time

import psycopg
import pytest
from click.testing import CliRunner

from app.events.backends import open_store
from app.events.dialect import digest
from app.events.envelope import GENESIS_HASH
from app.events.store import Conflict, NewEvent, StoreUnavailable, seal
from app.rules.catalog import installed
from app.service import audit, games
from bench.http_writers import http_race
from bench.reliability import Server, crash_rounds, free_port, race

CATALOG = installed()  # the rule sets installed here


def test_the_database_refuses_to_change_or_remove_events(pg_url):
    store = open_store(pg_url)
    game_id = games.create_game(store, CATALOG, "skirmish")
    before = list(store.events(game_id))
    with psycopg.connect(pg_url, autocommit=True) as raw:
        for statement in ("UPDATE events SET actor = 'forger'", "DELETE FROM events", "TRUNCATE events CASCADE"):
            with pytest.raises(psycopg.errors.IntegrityConstraintViolation, match="append-only"):
                raw.execute(statement)
    assert list(store.events(game_id)) == before and audit.verify(CATALOG, before).ok


def test_commits_are_durable_even_where_the_server_default_is_not(pg_url):
    with psycopg.connect(pg_url, autocommit=True) as raw:
        raw.execute(f"ALTER DATABASE {pg_url.rsplit('/', 1)[1]} SET synchronous_commit = off")
    store = open_store(pg_url)
    assert store.db.conn.execute("SHOW synchronous_commit").fetchone()["synchronous_commit"] == "on"


def test_a_seats_mark_that_does_not_move_writes_nothing(pg_url):
    """A player reading an unchanged game: their seen mark stays, and no new version of their seat's row is written
    (no dead row, no WAL), as on SQLite, where such a read commits nothing."""
    store = open_store(pg_url)
    game_id = games.create_game(store, CATALOG, "skirmish")
    store.add_pbem_game(game_id, {"created_at": "2030-01-01T00:00:00.000000Z"},
                        [{"seat": "red", "email": "r@x.example", "token_hash": "h", "created_at": "t"}])
    store.mark_seen(game_id, "red", 3)

    def version() -> str:
        row = store.db.conn.execute("SELECT xmin::text AS v FROM pbem_members WHERE game_id = %s", [game_id])
        return row.fetchone()["v"]

    before = version()
    store.mark_seen(game_id, "red", 3)
    store.mark_seen(game_id, "red", 2)
    assert version() == before
    store.mark_seen(game_id, "red", 4)
    assert version() != before and store.members(game_id)[0]["last_seen_seq"] == 4


def test_an_order_and_a_stale_one_through_the_service(pg_url):
    store = open_store(pg_url)
    game_id = games.create_game(store, CATALOG, "skirmish")
    games.join(store, CATALOG, game_id, "red", "red@example.org", "red text")
    games.join(store, CATALOG, game_id, "blue", "blue@example.org", "blue text")
    seq = store.head(game_id)[0]
    games.submit(store, CATALOG, game_id, "red", "move R1 0202", expected_seq=seq)
    head = store.head(game_id)
    with pytest.raises(Conflict, match="reload"):
        games.submit(store, CATALOG, game_id, "red", "move R2 0203", expected_seq=seq)
    assert store.head(game_id) == head and audit.verify(CATALOG, list(store.events(game_id))).ok


def test_a_game_locked_by_another_writer_is_a_clear_error_and_changes_nothing(pg_url):
    store = open_store(pg_url, busy_timeout=0.2)
    game_id = games.create_game(store, CATALOG, "skirmish")
    head = store.head(game_id)
    with psycopg.connect(pg_url) as blocker:  # a transaction holding the game's row, as a slow writer would
        blocker.execute("SELECT 1 FROM games WHERE id = %s FOR UPDATE", [game_id])
        with pytest.raises(StoreUnavailable, match="locked") as refused:
            games.submit(store, CATALOG, game_id, "red", "move R1 0202")
        assert refused.value.reason == "locked"
    assert store.head(game_id) == head
    games.submit(store, CATALOG, game_id, "red", "move R1 0202")  # works again once the lock is gone
    assert store.head(game_id)[0] == head[0] + 2


def test_an_unreachable_server_is_a_clear_error(pg_cluster):
    with pytest.raises(StoreUnavailable, match="cannot reach the database") as refused:
        open_store(f"postgresql://hexledger:secret@127.0.0.1:{free_port()}/nothing", busy_timeout=1)
    assert "127.0.0.1" not in str(refused.value)  # a client is told what failed, not where (issue 25)
    assert "cannot reach the PostgreSQL database postgresql://hexledger:***@127.0.0.1" in refused.value.detail
    assert "secret" not in str(refused.value) + refused.value.detail  # the password is never shown


def test_writers_of_one_game_queue_and_writers_of_different_games_do_not_wait(pg_url):
    """Two connections: one holds game A's lock; a write to game B goes through meanwhile."""
    setup = open_store(pg_url)
    a, b = games.create_game(setup, CATALOG, "skirmish"), games.create_game(setup, CATALOG, "skirmish")
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


@pytest.mark.empty_database  # the servers' threads migrate the new database at once
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


@pytest.mark.empty_database  # the servers' threads migrate the new database at once
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


# -- what a concurrent writer or a killed peer makes the server answer: each a clear error (503 or 409), never a
# raw driver error, and nothing half written (docs/reliability.md)
def terminate(pg_url: str, store) -> None:
    """Kill the server process behind the store's connection, as a crash or an operator would; returns when it is
    gone."""
    with psycopg.connect(pg_url, autocommit=True) as admin:
        assert admin.execute("SELECT pg_terminate_backend(%s, 60000)", [store.db.conn.info.backend_pid]).fetchone()[0]


def wait_until_waiting_for_a_lock(pg_url: str, pid: int) -> None:
    with psycopg.connect(pg_url, autocommit=True) as admin:
        while admin.execute("SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s",
                            [pid]).fetchone()[0] != "Lock":
            time.sleep(0.01)


def write_behind_a_lock(pg_url: str, store, holder, write) -> None:
    """Run ``write`` with ``store`` in a thread until it waits for a lock ``holder`` holds, then commit and close
    ``holder`` and let the write finish."""
    writer = threading.Thread(target=write)
    writer.start()
    wait_until_waiting_for_a_lock(pg_url, store.db.conn.info.backend_pid)
    holder.commit()
    holder.close()
    writer.join(timeout=120)


def x(n: int) -> list[NewEvent]:
    return [NewEvent("core.X", 1, {"n": n}, "test")]


def test_a_connection_the_server_dropped_between_requests_is_opened_again(pg_url):
    """Outside a transaction the next statement runs on a new connection: no 503 for a read or a write after
    the server restarted or killed the connection's process."""
    store = open_store(pg_url)
    game_id = games.create_game(store, CATALOG, "skirmish")
    head = store.head(game_id)
    terminate(pg_url, store)
    assert store.head(game_id) == head
    terminate(pg_url, store)
    games.submit(store, CATALOG, game_id, "red", "move R1 0202")  # a transaction, begun on a new connection
    assert store.head(game_id)[0] == head[0] + 2
    terminate(pg_url, store)
    store.append(game_id, head[0] + 2, x(1))  # an append outside a transaction: one call, on a new connection
    assert store.head(game_id)[0] == head[0] + 3 and chain_intact(store, game_id)


def test_a_connection_lost_inside_a_transaction_is_503_and_nothing_is_written(pg_url):
    store = open_store(pg_url)
    game_id = game_of(store)
    head = store.head(game_id)
    with pytest.raises(StoreUnavailable, match="nothing was written"):
        with store.transaction():
            store.append(game_id, head[0], x(1))
            terminate(pg_url, store)
            store.queue_mail([{"kind": "message", "recipient": "r@x.example", "message_id": "<m@x>", "data": {}}],
                             "2030-01-01T00:00:00.000000Z")
    assert store.head(game_id) == head and store.mail_queue() == []
    store.append(game_id, head[0], x(1))  # and the next write goes through
    assert store.head(game_id)[0] == head[0] + 1


def chain_intact(store, game_id: str) -> bool:
    """The game's hash chain verifies (its test events, core.X, are of no rule set)."""
    return [p for p in audit.verify(CATALOG, list(store.events(game_id))).problems if p.check == "chain"] == []


def game_of(store) -> str:
    store.create_game(game_id := f"g-{random.randrange(16**8):08x}", "skirmish", "meeting", x(0), None)
    return game_id


def test_a_deadlock_with_another_writer_is_503_locked_and_nothing_is_written(pg_url):
    """The store holds game A and wants B while another writer holds B and wants A: PostgreSQL ends one of them
    (here the store's: the other's deadlock check is set later); the store's whole transaction is refused."""
    store = open_store(pg_url)
    a, b = game_of(store), game_of(store)
    heads = store.head(a), store.head(b)
    other = psycopg.connect(pg_url)
    other.execute("SET deadlock_timeout = '600s'")
    other.execute("SELECT 1 FROM games WHERE id = %s FOR UPDATE", [b])
    waiting = threading.Thread(target=lambda: other.execute("SELECT 1 FROM games WHERE id = %s FOR UPDATE", [a]))
    try:
        with pytest.raises(StoreUnavailable, match="locked") as refused:
            with store.transaction():
                store.append(a, heads[0][0], x(1))
                waiting.start()
                wait_until_waiting_for_a_lock(pg_url, other.info.backend_pid)
                store.append(b, heads[1][0], x(2))
        assert refused.value.reason == "locked" and "deadlock" in refused.value.detail  # the operator's log
    finally:
        waiting.join(timeout=120)
        other.rollback()
        other.close()
    assert (store.head(a), store.head(b)) == heads


def test_a_writer_that_takes_no_game_lock_still_queues_the_store_and_its_loser_gets_409(pg_url):
    """Another program inserts the next event itself, in a transaction still open: its row's reference to the game
    holds the game's row, so the store's append waits (never reads a head about to change), then finds the seq
    taken: Conflict (409), found before any insert, so the caller's transaction is still usable (the mail's
    processed record is written with the refusal) and the events table never reports a duplicate key."""
    store = open_store(pg_url)
    game_id = game_of(store)
    seq = store.head(game_id)[0]
    rogue = psycopg.connect(pg_url)
    rogue.execute("INSERT INTO events (game_id, seq, type, version, payload, actor, at, prev_hash, hash) "
                  "VALUES (%s, %s, 'core.X', 1, '{}', 'rogue', 'now', %s, %s)",
                  [game_id, seq + 1, digest("ab" * 32), digest("cd" * 32)])
    outcome: dict = {}

    def write():
        try:
            with store.transaction():
                try:
                    store.append(game_id, seq, x(1))
                except Conflict as exc:
                    outcome["conflict"] = exc
                store.record_mail("<after@x>", game_id, "refused")
        except Exception as exc:  # noqa: BLE001 - the test reports it
            outcome["error"] = exc

    write_behind_a_lock(pg_url, store, rogue, write)
    assert "error" not in outcome and isinstance(outcome.get("conflict"), Conflict), outcome
    assert store.mail_processed("<after@x>") and store.event(game_id, seq + 1).actor == "rogue"


def test_an_append_that_waited_for_the_game_lock_while_another_writer_took_its_seq_is_409_and_writes_nothing(
        pg_url):
    """Outside a transaction an append is one statement, whose head check reads what was committed when it began:
    another writer that held the game's lock then and commits the next event meanwhile wins, and the append that
    waited for the lock is Conflict with the stream as that writer left it, nothing of it stored, no raw error."""
    store = open_store(pg_url)
    game_id = game_of(store)
    seq, last = store.head(game_id)
    rival = psycopg.connect(pg_url)
    rival.execute("SELECT FROM games WHERE id = %s FOR UPDATE", [game_id])
    rival.execute("INSERT INTO events (game_id, seq, type, version, payload, actor, at, prev_hash, hash) "
                  "VALUES (%s, %s, 'core.X', 1, '{}', 'rival', 'now', %s, %s)",
                  [game_id, seq + 1, digest(last), digest("ee" * 32)])
    outcome: dict = {}

    def write():
        try:
            store.append(game_id, seq, x(1))
        except Exception as exc:  # noqa: BLE001 - the test reports it
            outcome["raised"] = exc

    write_behind_a_lock(pg_url, store, rival, write)
    assert isinstance(outcome.get("raised"), Conflict) and outcome["raised"].actual == seq + 1, outcome
    assert store.head(game_id) == (seq + 1, "ee" * 32) and store.event(game_id, seq + 1).actor == "rival"


def test_an_append_chains_onto_the_stored_head_not_the_one_this_process_remembers(pg_cluster, pg_url):
    """The process remembers the head it last committed for a game, to append without reading it first. When the
    database behind the URL is replaced (a restore, another copy) and holds the same game at the same seq with
    other events, the append still chains onto the stored event: the chain verifies."""
    store = open_store(pg_url)
    game_id = game_of(store)
    store.append(game_id, 1, x(1))  # remembered: seq 2 and its hash
    name = pg_url.rsplit("/", 1)[1]
    pg_cluster.drop_database(name)
    pg_cluster.create_database(name)
    other, _ = seal(game_id, 0, GENESIS_HASH, x(0) + x(2))  # the same game, seq 2 another event
    open_store(pg_url).import_stream(game_id, "skirmish", "meeting", other)
    stored = store.append(game_id, 2, x(3))
    assert stored[0].prev_hash == other[-1].hash
    assert chain_intact(store, game_id) and store.head(game_id) == (3, stored[0].hash)


def test_an_append_sent_again_after_its_answer_was_lost_is_answered_as_stored(pg_url):
    """The store sends an append again on a new connection when the old one died before its answer came (the
    first may have committed, and other writers may have appended since): the database answers the batch's own
    last event, so the caller is not told it lost a race to itself, and nothing is stored twice. Another batch
    after the same head is refused with the stored head."""
    store = open_store(pg_url)
    game_id = game_of(store)
    seq, last = store.head(game_id)
    sealed, payloads = seal(game_id, seq, last, x(1) + x(2))
    sender = open_store(pg_url).db  # the dialect's step of an append, as the store sends it again
    assert sender.append(game_id, seq, last, sealed, payloads) == (seq + 2, sealed[-1].hash)
    later = open_store(pg_url).append(game_id, seq + 2, x(3))
    assert sender.append(game_id, seq, last, sealed, payloads) == (seq + 2, sealed[-1].hash)
    assert sender.append(game_id, seq, last, *seal(game_id, seq, last, x(9))) == (seq + 3, later[0].hash)
    assert [e.hash for e in store.events(game_id, seq + 1)] == [e.hash for e in sealed + later]
    with pytest.raises(Conflict):
        store.append(game_id, seq, x(9))
