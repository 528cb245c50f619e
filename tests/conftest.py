"""Shared fixtures: a fresh store per test, the same dice every run, players seated, a random legal-order player
for skirmish, and the session's finished games of SNC and Ichi-Go played through the service (`real_games`)."""
from __future__ import annotations

import os
import random
import time
import uuid
from unittest import mock

import pytest
from hypothesis import HealthCheck, settings

from app.events import dice
from app.events.backends import sync_to_disk
from app.events.sqlite import GroupCommit
from app.events.store import EventStore
from app.projections import state as projection
from app.rules.catalog import installed
from app.rules.errors import OrderError
from app.service import games
from tests import durations

CATALOG = installed()  # the rule sets installed here

# No test asserts speed (bench/ measures it): hypothesis's per-example deadline and its too-slow health check are
# timers that fail on a busy machine, so the default profile has neither. A test's own @settings keeps its budget.
settings.register_profile("hexledger", deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("hexledger")

# The suite's databases are thrown away: its SQLite commits do not wait for the disk (HEXLEDGER_FSYNC=off, for the
# servers and commands it starts too), which is 2-10 ms a commit on this machine's disk and tens of thousands of
# commits. A commit is in the journal all the same, so every kill test still proves that nothing acknowledged is
# lost; the tests of the fsync itself turn it on (`disk_sync`). docs/testing.md, "Where the time goes".
sync_to_disk(False)
os.environ["HEXLEDGER_FSYNC"] = "off"


@pytest.fixture
def disk_sync(monkeypatch):
    """Commits wait for the disk, as they do outside the test suite (HEXLEDGER_FSYNC unset)."""
    monkeypatch.setattr(GroupCommit, "to_disk", True)
    monkeypatch.delenv("HEXLEDGER_FSYNC")


@pytest.fixture
def store(tmp_path):
    s = EventStore(str(tmp_path / "test.sqlite3"))
    yield s
    s.close()


@pytest.fixture
def fixed_dice():
    """The same dice every run: the server's seed, the words of a player who gives none, the game's id. A game
    played from them is the same game every run (its length, and so its cost, too)."""
    with mock.patch.object(dice, "new_seed", lambda: "6" * 64), \
            mock.patch.object(dice, "new_player_text", lambda: "words the server made"), \
            mock.patch.object(games, "new_game_id", lambda _: "g-0000beef"):
        yield


_STARTED: dict[str, tuple[float, float]] = {}
_TIMED: list[bool] = [False]  # whether this process times its tests (HEXLEDGER_TIMELOG, and it runs them)


def pytest_configure(config):
    """Under pytest-xdist the controller hears of every test a worker ran: only the process that runs a test times
    it, so each test is one line of the time log."""
    controller = bool(getattr(config.option, "numprocesses", None)) and not hasattr(config, "workerinput")
    _TIMED[0] = bool(os.environ.get("HEXLEDGER_TIMELOG")) and not controller


def pytest_runtest_logstart(nodeid, location):
    if _TIMED[0]:
        _STARTED[nodeid] = (time.perf_counter(), time.process_time())


def pytest_runtest_logfinish(nodeid, location):
    """HEXLEDGER_TIMELOG=FILE: append each test's wall seconds and this process's CPU seconds (subprocesses and
    servers not counted) to FILE as it finishes, a tab-separated line. On the shared machine the wall time of a test
    follows the load; its CPU time does not (docs/testing.md, "Where the time goes")."""
    path = os.environ.get("HEXLEDGER_TIMELOG")
    if path and nodeid in _STARTED:
        wall, cpu = _STARTED.pop(nodeid)
        with open(path, "a") as f:
            f.write(f"{time.perf_counter() - wall:.3f}\t{time.process_time() - cpu:.3f}\t{nodeid}\n")


def pytest_collection_modifyitems(items):
    """Every test on PostgreSQL (it uses the server, or is the postgresql case of a `db_location`) is marked
    `postgres`, so `-m "not postgres"` leaves them out. The modules run longest first (each module's tests in their
    order; tests/durations.py): on several workers (`-n auto --dist loadfile`, a module to a worker) the long modules
    are then handed out first and the workers finish together, instead of one running a long module at the end
    alone."""
    table = durations.measured()
    slow_modules = {item.nodeid.split("::", 1)[0] for item in items if item.get_closest_marker("slow")}

    def longest_first(item) -> float:
        module = item.nodeid.split("::", 1)[0]
        return -durations.cost(module, module in slow_modules, table)

    items.sort(key=longest_first)
    for item in items:
        params = getattr(item, "callspec", None)
        on_postgres = params and "postgresql" in (params.params.get("db_location"),
                                                  params.params.get("module_db_location"))
        if "pg_cluster" in item.fixturenames or on_postgres:
            item.add_marker(pytest.mark.postgres)


@pytest.fixture(scope="session")
def pg_cluster():
    """A PostgreSQL server for this test run (bench/pg_cluster.py: initdb, then the server on 127.0.0.1, a free port).
    A run killed before this teardown (SIGKILL, SIGTERM) takes its server with it, and the next run's start removes
    the folder it left (tests/reliability/test_pg_cluster.py). Where it cannot be started the PostgreSQL tests are
    skipped with the reason; under HEXLEDGER_REQUIRE_POSTGRES=1 (CI, .ci/run) they fail instead."""
    from bench import pg_cluster

    try:
        cluster = pg_cluster.start()
    except pg_cluster.Unavailable as exc:
        if os.environ.get("HEXLEDGER_REQUIRE_POSTGRES") == "1":
            pytest.fail(f"PostgreSQL is required here (HEXLEDGER_REQUIRE_POSTGRES=1) but: {exc}")
        pytest.skip(f"PostgreSQL tests need a PostgreSQL server and none could be started: {exc}")
    yield cluster
    cluster.stop()


@pytest.fixture(scope="session")
def pg_migrated(pg_cluster):
    """The name of a database on the test run's server that this release's migrations took from empty to current,
    once a session: the template of each test's database (`pg_url`), a copy instead of the migrations run again."""
    from app.events.store import EventStore

    name = "t_migrated"
    EventStore(pg_cluster.create_database(name)).close()
    return name


def new_database(request, cluster, name: str) -> str:
    """A new database `name` on `cluster`: a copy of the migrated one (`pg_migrated`), or new and empty where the
    test is marked `empty_database` (it holds a migration back, or migrates the database from several processes at
    once). Its URL."""
    if request.node.get_closest_marker("empty_database"):
        return cluster.create_database(name)
    import psycopg

    template = request.getfixturevalue("pg_migrated")
    with psycopg.connect(cluster.url(), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
    return cluster.url(name)


@pytest.fixture
def pg_url(request, pg_cluster):
    """The URL of a new database on the test run's PostgreSQL server, dropped after the test: already migrated (a
    copy of `pg_migrated`), or empty where the test is marked `empty_database`."""
    name = f"t_{uuid.uuid4().hex[:12]}"
    yield new_database(request, pg_cluster, name)
    pg_cluster.drop_database(name)


BACKENDS = ["sqlite", "postgresql"]


@pytest.fixture(params=BACKENDS)
def db_location(request, tmp_path):
    """A fresh database of each backend, as HEXLEDGER_DB names it: a SQLite file, or a new PostgreSQL database."""
    return str(tmp_path / "backend.sqlite3") if request.param == "sqlite" else request.getfixturevalue("pg_url")


@pytest.fixture(scope="module", params=BACKENDS)
def module_db_location(request, tmp_path_factory):
    """`db_location` for a module's shared world (hypothesis tests whose examples share one database)."""
    if request.param == "sqlite":
        return str(tmp_path_factory.mktemp("backend") / "backend.sqlite3")
    cluster = request.getfixturevalue("pg_cluster")
    name = f"t_{uuid.uuid4().hex[:12]}"
    request.addfinalizer(lambda: cluster.drop_database(name))
    return new_database(request, cluster, name)


@pytest.fixture
def skirmish(store):
    game_id = games.create_game(store, CATALOG, "skirmish")
    games.join(store, CATALOG, game_id, "red", "red@example.org", "red text")
    games.join(store, CATALOG, game_id, "blue", "blue@example.org", "blue text")
    return game_id


def skirmish_candidates(state) -> list[str]:
    """Orders worth trying in a skirmish position: single-hex and two-hex moves, attacks, end."""
    from app.rules.kernel.hexgrid import Hex
    game = state.game
    GRID = game.data.map.grid
    side = game.side
    own = [u for u in game.units.values() if u.side == side and u.hex]
    orders = ["end"]
    if game.step == "movement":
        for u in own:
            for n in GRID.neighbours(Hex.parse(u.hex)):
                orders.append(f"move {u.id} {n}")
                orders += [f"move {u.id} {n} {m}" for m in GRID.neighbours(n) if str(m) != u.hex]
    else:
        for enemy in {e.hex for e in game.units.values() if e.side != side and e.hex}:
            near = [u.id for u in own if GRID.adjacent(Hex.parse(u.hex), Hex.parse(enemy))]
            if near:
                orders.append(f"attack {enemy} with {' '.join(near)}")
                orders += [f"attack {enemy} with {uid}" for uid in near]
    return orders


def play_random(store, game_id: str, rng: random.Random, max_orders: int = 400) -> int:
    """Play random legal skirmish orders until the game ends or max_orders; returns orders accepted."""
    rules = CATALOG.rules("skirmish")
    accepted = 0
    for _ in range(max_orders):
        state = projection.load(store, CATALOG, game_id)
        if rules.outcome(state.game):
            break
        candidates = skirmish_candidates(state)
        rng.shuffle(candidates)
        # prefer acting over ending, so games see combat
        candidates.sort(key=lambda o: o == "end" and rng.random() < 0.8)
        for order in candidates:
            try:
                games.submit(store, CATALOG, game_id, state.game.side, order)
                accepted += 1
                break
            except OrderError:
                continue
        else:
            raise AssertionError(f"dead end: no legal order for {state.game.side} at event {state.meta.seq}")
    return accepted


@pytest.fixture
def run(tmp_path):
    """`cli.py` on a fresh database: run("do", game, ...) asserts exit 0 unless ok=False; run.db is the path."""
    from click.testing import CliRunner

    from cli import cli

    runner = CliRunner()
    db = str(tmp_path / "cli.sqlite3")

    def call(*args, ok=True):
        result = runner.invoke(cli, ["--db", db, *args], catch_exceptions=False)
        if ok:
            assert result.exit_code == 0, result.output
        return result

    call.db = db
    return call



GAMES = {
    # rules: (sides, combat event type, fuzzer module in tests/<rules>, seed)
    "snc": (("chinese", "japanese"), "snc.CombatResolved", "snc_randomplay", 11),
    "ichigo": (("japanese", "allied"), "ichigo.BattleResolved", "ichigo_randomplay", 12),
}


@pytest.fixture(scope="session")
def real_games(tmp_path_factory):
    """One finished fuzzer game per rule set of GAMES, played through the service once per session with fixed dice:
    each game's random play through the service to its end (its audit: tests/snc/test_snc_sequence.py,
    tests/ichigo/test_ichigo_fuzz.py) and the replay's tests (tests/replay) read the same game, played once."""
    import importlib

    store = EventStore(str(tmp_path_factory.mktemp("real") / "games.sqlite3"))
    out = {}
    for name, (sides, combat_type, module, seed) in GAMES.items():
        fuzzer = importlib.import_module(f"tests.{name}.{module}")
        # a fixed server dice seed and game id (the dice mix both in): the same game, so the same test, every run
        with mock.patch.object(dice, "new_seed", lambda seed=seed: f"{seed:064x}"):
            game_id = games.create_game(store, CATALOG, name, game_id=f"g-{name}-{seed}")
        for side in sides:
            games.join(store, CATALOG, game_id, side, f"{side}@example.org", side)

        def submit(side, text, game_id=game_id):
            return games.submit(store, CATALOG, game_id, side, text).state.game

        state, _ = fuzzer.play(random.Random(seed), submit=submit)
        assert CATALOG.rules(name).outcome(state) is not None
        events = list(store.events(game_id))
        assert sum(e.type == combat_type for e in events) >= 3, f"the {name} game has too few combats"
        out[name] = (game_id, events)
    store.close()
    return out
