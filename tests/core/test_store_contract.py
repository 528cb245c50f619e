"""The store's interface as a contract (app/events/store.py): every method the service calls, written against the
interface only (no SQL, no handle), parametrised by backend so that a second backend runs the same suite."""
from __future__ import annotations

import pytest

from app.events.envelope import GENESIS_HASH
from app.events.store import Conflict, EventStore, NewEvent, StoreError, UnknownGame

T0, T1, T2 = "2030-01-01T00:00:00.000000Z", "2030-01-01T00:01:00.000000Z", "2030-01-01T01:00:00.000000Z"
BACKENDS = {"sqlite": lambda tmp_path: EventStore(str(tmp_path / "contract.sqlite3"))}


@pytest.fixture(params=sorted(BACKENDS))
def backend(request, tmp_path):
    store = BACKENDS[request.param](tmp_path)
    yield store
    store.close()


def ev(n: int, type_: str = "core.X") -> NewEvent:
    return NewEvent(type_, 1, {"n": n}, "test")


def game(store, game_id: str = "g-1", seed: str | None = "s") -> str:
    store.create_game(game_id, "skirmish", "meeting", [ev(1)], seed)
    return game_id


def mail(n: int, game_id: str | None = None) -> dict:
    return {"kind": "message", "recipient": f"p{n}@x.example", "game_id": game_id, "seat": None,
            "message_id": f"<{n}@x.example>", "data": {"subject": "s", "body": str(n)}}


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


def test_a_transaction_writes_all_or_nothing(backend):
    game(backend)
    with pytest.raises(RuntimeError):
        with backend.transaction():
            backend.append("g-1", 1, [ev(2)])
            backend.queue_mail([mail(1)], T0)
            assert backend.in_transaction
            raise RuntimeError("the write fails")
    assert backend.head("g-1")[0] == 1 and backend.mail_queue() == [] and not backend.in_transaction


def test_snapshots_are_a_cache_by_rules_version(backend):
    game(backend)
    assert backend.save_snapshot("g-1", 1, "skirmish:1", {"a": 1})
    assert backend.latest_snapshot("g-1", 5, "skirmish:1") == (1, {"a": 1})
    assert backend.latest_snapshot("g-1", 5, "skirmish:2") is None
    assert backend.latest_snapshot("g-1", 0, "skirmish:1") is None
    backend.drop_snapshots("g-1")
    assert backend.latest_snapshot("g-1", 5, "skirmish:1") is None
    backend.save_snapshot("g-1", 1, "skirmish:1", {"a": 1})
    backend.drop_snapshots()
    assert backend.latest_snapshot("g-1", 5, "skirmish:1") is None


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


def test_a_secret_is_made_once_and_kept(backend):
    assert backend.secret("reply_tags", "first") == "first"
    assert backend.secret("reply_tags", "second") == "first"
    assert backend.secret("other", "third") == "third"


def test_the_clock_returns_its_last_reading(backend):
    assert backend.swap_clock("tick", T0) is None
    assert backend.swap_clock("tick", T1) == T0
    assert backend.swap_clock("tick", T2) == T1


def test_the_outbox_claims_leases_and_retries(backend):
    [one, two] = backend.queue_mail([mail(1), mail(2)], T0)
    assert backend.next_mail_due() == T0
    claimed = backend.claim_mail(T0, T1, ids=[one])
    assert [r["id"] for r in claimed] == [one] and claimed[0]["data"]["body"] == "1"
    assert [r["id"] for r in backend.claim_mail(T0, T1)] == [two]  # `one` is leased
    assert backend.claim_mail(T0, T1) == [] and backend.claim_mail(T0, T1, ids=[]) == []
    backend.mail_sent(one)
    backend.mail_failed(two, "refused", None)
    [row] = backend.mail_queue()
    assert (row["id"], row["status"], row["attempts"], row["last_error"]) == (two, "failed", 1, "refused")
    assert "data" not in row and backend.next_mail_due() is None
    assert backend.retry_failed_mail(T2) == 1
    assert [r["id"] for r in backend.claim_mail(T2, T2)] == [two]
    backend.mail_failed(two, "later", T2)
    assert backend.mail_queue()[0]["status"] == "pending" and backend.next_mail_due() == T2


def test_processed_mail_is_remembered(backend):
    assert not backend.mail_processed("<m1@x>")
    backend.record_mail("<m1@x>", None, "refused")
    backend.record_mail("<m1@x>", None, "again")
    assert backend.mail_processed("<m1@x>") and not backend.mail_processed("<m2@x>")



def test_bodies_are_the_events_without_their_envelope(backend):
    game(backend)
    backend.append("g-1", 1, [ev(2), ev(3, "core.Y")])
    expected = [(e.game_id, e.seq, e.type, e.version, e.payload) for e in backend.events("g-1", 2, 3)]
    assert [tuple(b) for b in backend.bodies("g-1", 2, 3)] == expected
    assert [b.seq for b in backend.bodies("g-1")] == [1, 2, 3] and list(backend.bodies("nope")) == []
