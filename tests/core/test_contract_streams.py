"""The contract of EventStreams (app/events/interface.py), on both backends: one hash-chained, append-only
stream per game; a stale writer is refused with Conflict and nothing written."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from app.events.dialect import EVENT_COLUMNS, event_row
from app.events.envelope import GENESIS_HASH, StoredEvent, canonical_json, new_salt
from app.events.store import Conflict, NewEvent, StoreError, UnknownGame
from app.events.streams import StreamTables
from tests.core.store_contract import T0, ev, game, opened

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def backend(db_location):
    part = opened(StreamTables, db_location)
    yield part
    part.close()


def test_streams_append_in_order_and_a_stale_writer_conflicts(backend):
    assert not backend.game_exists("g-1")
    first = backend.create_game("g-1", "skirmish", "meeting", [ev(1), ev(2)], "seed")
    assert [e.seq for e in first] == [1, 2] and first[0].prev_hash == GENESIS_HASH
    assert backend.game_exists("g-1") and backend.game("g-1")["rules"] == "skirmish"
    assert backend.head("g-1") == (2, first[-1].hash)
    backend.append("g-1", 2, [ev(3)])
    with pytest.raises(Conflict):
        backend.append("g-1", 2, [ev(4)])
    assert [e.payload["n"] for e in backend.events("g-1")] == [1, 2, 3]
    assert [e.seq for e in backend.events("g-1", 2, 2)] == [2]
    assert backend.event("g-1", 3).payload == {"n": 3} and backend.event("g-1", 9) is None
    assert backend.dice_seed("g-1") == "seed"
    with pytest.raises(StoreError):
        backend.create_game("g-1", "skirmish", "meeting", [ev(1)], None)


def test_unknown_games_are_refused(backend):
    calls = (lambda: backend.game("nope"), lambda: backend.head("nope"), lambda: backend.append("nope", 0, [ev(1)]))
    for call in calls:
        with pytest.raises(UnknownGame):
            call()
    assert backend.dice_seed("nope") is None and list(backend.events("nope")) == []


def test_games_list_in_creation_order_and_page(backend):
    for n in (1, 2, 3):
        game(backend, f"g-{n}")
    assert [g["id"] for g in backend.games()] == ["g-1", "g-2", "g-3"]
    assert [g["id"] for g in backend.games(after="g-1", limit=1)] == ["g-2"]
    assert backend.games()[0]["last_seq"] == 1
    assert backend.games(finished_only=True) == []
    backend.append("g-2", 1, [NewEvent("core.SeedRevealed", 1, {"seed": "s", "reason": "game over"}, "server")])
    assert [g["id"] for g in backend.games(finished_only=True)] == ["g-2"]


def test_an_imported_stream_keeps_its_seals_and_its_parent(backend):
    source = backend.create_game("g-1", "skirmish", "meeting", [ev(1), ev(2)], None)
    copies = [e.__class__(**{**e.to_dict(), "game_id": "g-2"}) for e in source]
    backend.import_stream("g-2", "skirmish", "meeting", copies, parent=("g-1", 2))
    assert [e.hash for e in backend.events("g-2")] == [e.hash for e in source]
    assert backend.game("g-2")["parent_id"] == "g-1" and backend.dice_seed("g-2") is None


def test_retractions_up_to_a_seq(backend):
    game(backend)
    backend.append("g-1", 1, [NewEvent("core.Retracted", 1, {"from_seq": 1, "to_seq": 1}, "t"), ev(3)])
    assert backend.retractions("g-1", 3) == [(2, {"from_seq": 1, "to_seq": 1})]
    assert backend.retractions("g-1", 1) == []


def test_a_rolled_back_append_leaves_the_head_where_it_was(backend):
    """The head a store keeps after its own writes is the committed one: after a rollback, the next append chains
    to the event before, and one expecting the rolled-back head is a conflict (no gap in the stream)."""
    game(backend)
    with pytest.raises(RuntimeError), backend.transaction():
        backend.append("g-1", 1, [ev(2), ev(3)])
        raise RuntimeError("the write fails")
    with pytest.raises(Conflict):
        backend.append("g-1", 3, [ev(4)])
    [second] = backend.append("g-1", 1, [ev(2)])
    assert [e.seq for e in backend.events("g-1")] == [1, 2]
    assert second.prev_hash == backend.event("g-1", 1).hash and backend.head("g-1") == (2, second.hash)


def test_an_append_naming_the_head_hash_takes_only_that_head(backend):
    """An append naming the hash of its expected event (a writer that decided on a kept state without reading the
    head) is stored only onto that event: one of a write that rolled back, at the same seq, is a Conflict and
    nothing is written, whether the store remembers the head or reads it."""
    game(backend)
    with pytest.raises(RuntimeError), backend.transaction():
        [rolled_back] = backend.append("g-1", 1, [ev(2)])
        raise RuntimeError("the write fails")
    [second] = backend.append("g-1", 1, [ev(20)])
    for remembered in (True, False):
        if not remembered:
            backend.db.heads.pop("g-1", None)
        with pytest.raises(Conflict):
            backend.append("g-1", 2, [ev(3)], expected_hash=rolled_back.hash)
        with pytest.raises(Conflict):
            backend.append("g-1", 1, [ev(3)], expected_hash=backend.event("g-1", 1).hash)
    assert [e.payload["n"] for e in backend.events("g-1")] == [1, 20]
    [third] = backend.append("g-1", 2, [ev(3)], expected_hash=second.hash)
    assert third.prev_hash == second.hash and backend.head("g-1") == (3, third.hash)


def test_a_writer_in_another_process_moves_the_head(backend, db_location):
    """This store appended last, then another process did: a writer here expecting the head it wrote is refused
    (Conflict, nothing written), and the next append chains to the other process's event."""
    game(backend)
    backend.append("g-1", 1, [ev(2)])
    other = ("import sys; from app.events.backends import open_store; from app.events.store import NewEvent; "
             "open_store(sys.argv[1]).append('g-1', 2, [NewEvent('core.X', 1, {'n': 3}, 'other')])")
    subprocess.run([sys.executable, "-c", other, db_location], cwd=ROOT, check=True)
    with pytest.raises(Conflict) as refused:
        backend.append("g-1", 2, [ev(99)])
    assert refused.value.actual == 3
    [fourth] = backend.append("g-1", 3, [ev(4)])
    events = list(backend.events("g-1"))
    assert [(e.seq, e.actor) for e in events][2:] == [(3, "other"), (4, "test")]
    assert all(e.prev_hash == before.hash and e.computed_hash() == e.hash
               for before, e in zip(events, events[1:], strict=False))


def test_bodies_are_the_events_without_their_envelope(backend):
    game(backend)
    backend.append("g-1", 1, [ev(2), ev(3, "core.Y")])
    expected = [(e.game_id, e.seq, e.type, e.version, e.payload) for e in backend.events("g-1", 2, 3)]
    assert [tuple(b) for b in backend.bodies("g-1", 2, 3)] == expected
    assert [b.seq for b in backend.bodies("g-1")] == [1, 2, 3] and list(backend.bodies("nope")) == []
    unread = [(b.seq, b.type, b.payload) for b in backend.bodies("g-1", 2, unread=frozenset({"core.Y"}))]
    assert unread == [(2, "core.X", {"n": 2}), (3, "core.Y", None)]  # a type the reader passes by: not decoded


def test_events_stored_with_hashes_as_text_read_and_chain_the_same_once_stored_as_bytes(db_location, monkeypatch):
    """A database from before hashes were stored as bytes (migrations sqlite/0014, postgres/0010 held back), its
    events written as that release wrote them, the texts themselves: this release reads every hash, salt and field
    as it was (a legacy event with no salt among them), appends onto the same head, and stores half the bytes."""
    from app.events import migrations

    every = migrations.scripts
    monkeypatch.setattr(migrations, "scripts", lambda backend: [s for s in every(backend) if "as_bytes" not in s[0]])
    fields = {"game_id": "g-old", "type": "core.X", "version": 1, "actor": "test", "at": T0, "causation": None}
    legacy = StoredEvent.sealed(seq=1, payload={"n": 1}, prev_hash=GENESIS_HASH, **fields)
    salted = StoredEvent.sealed(seq=2, payload={"n": 2}, prev_hash=legacy.hash, salt=new_salt(), **fields)
    before = opened(StreamTables, db_location)
    before.db.write("INSERT INTO games (id, rules, scenario, created_at) VALUES ('g-old', 'skirmish', 'meeting', ?)",
                    [T0])
    before.db.write(f"INSERT INTO events ({EVENT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [*event_row(legacy, canonical_json(legacy.payload))[:8], legacy.prev_hash, legacy.hash, None])
    before.db.write(f"INSERT INTO events ({EVENT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [*event_row(salted, canonical_json(salted.payload))[:8], salted.prev_hash, salted.hash,
                     salted.salt])
    before.close()
    monkeypatch.setattr(migrations, "scripts", every)
    after = opened(StreamTables, db_location)
    try:
        assert list(after.events("g-old")) == [legacy, salted]
        assert after.head("g-old") == (2, salted.hash)
        appended = after.append("g-old", 2, [ev(3)])
        assert appended[0].prev_hash == salted.hash and list(after.events("g-old"))[2] == appended[0]
        assert all(e.computed_hash() == e.hash for e in after.events("g-old"))
        assert after.db.one("SELECT length(hash), length(prev_hash), length(salt) FROM events WHERE seq = 3") == (
            32, 32, 16)
    finally:
        after.close()


def test_a_dice_seed_read_inside_a_creation_that_rolled_back_is_gone_after_it(backend):
    """A connection keeps a game's seed once read committed (no row read for it on each order); one read inside a
    transaction that then rolled back is not kept: the game and its seed are gone."""
    with pytest.raises(RuntimeError), backend.transaction():
        backend.create_game("g-1", "skirmish", "meeting", [ev(1)], "seed")
        assert backend.dice_seed("g-1") == "seed"
        raise RuntimeError("rolled back")
    assert backend.dice_seed("g-1") is None and not backend.game_exists("g-1")
    backend.create_game("g-1", "skirmish", "meeting", [ev(1)], "another")
    assert backend.dice_seed("g-1") == "another" and backend.dice_seed("g-1") == "another"
