"""The store's interface as a contract (app/events/store.py): every method the service calls, written against the
interface only (no SQL, no handle), run against both backends: SQLite, and PostgreSQL (app/events/pg_store.py) on
the test run's own server (tests/conftest.py, `db_location`)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from app.events.backends import open_store
from app.events.envelope import GENESIS_HASH
from app.events.store import Conflict, NewEvent, NoPbemSettings, StoreError, UnknownGame

ROOT = Path(__file__).resolve().parents[2]
T0, T1, T2 = "2030-01-01T00:00:00.000000Z", "2030-01-01T00:01:00.000000Z", "2030-01-01T01:00:00.000000Z"


@pytest.fixture
def backend(db_location):
    store = open_store(db_location)
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


def turn(seat: str, seq: int, game_id: str = "g-1") -> dict:
    return {"kind": "turn", "recipient": f"{seat}@x.example", "game_id": game_id, "seat": seat,
            "message_id": f"<{game_id}.{seat}.{seq}@x.example>", "data": {"headline": "Your turn", "seq": seq}}


def test_a_turn_email_is_superseded_by_a_newer_one_and_kept(backend):
    """app/service/outbox.py: a later turn email of the game to the same seat, or from a later position to anyone,
    supersedes a due one; game-over emails (every seat, one position) and other games' mail do not."""
    [red3, blue5, red7, other, note] = backend.queue_mail(
        [turn("red", 3), turn("blue", 5), turn("red", 7), turn("red", 2, "g-2"), mail(1, "g-1")], T0)
    [over_red, over_blue] = backend.queue_mail([turn("red", 9, "g-3"), turn("blue", 9, "g-3")], T0)
    leased = backend.queue_mail([turn("blue", 4, "g-4")], T0)[0]
    assert [r["id"] for r in backend.claim_mail(T0, T2, ids=[leased])] == [leased]  # being sent: left alone
    backend.queue_mail([turn("red", 6, "g-4")], T0)
    assert backend.supersede_mail(T0) == 2
    rows = {r["id"]: r for r in backend.mail_queue()}
    assert (rows[red3]["status"], rows[red3]["superseded_by"]) == ("superseded", red7)
    assert (rows[blue5]["status"], rows[blue5]["superseded_by"]) == ("superseded", red7)
    assert all(rows[i]["status"] == "pending" and rows[i]["superseded_by"] is None
               for i in (red7, other, note, over_red, over_blue, leased))
    assert red3 not in [r["id"] for r in backend.claim_mail(T0, T1)]
    assert backend.supersede_mail(T0) == 0


def test_processed_mail_is_remembered(backend):
    assert not backend.mail_processed("<m1@x>")
    backend.record_mail("<m1@x>", None, "refused")
    backend.record_mail("<m1@x>", None, "again")
    assert backend.mail_processed("<m1@x>") and not backend.mail_processed("<m2@x>")
    backend.record_mail("<m\x00@x>", None, "refused")  # a hostile header: PostgreSQL's TEXT cannot hold NUL
    assert backend.mail_processed("<m\x00@x>") and not backend.mail_processed("<m\\0@x>")



def test_bodies_are_the_events_without_their_envelope(backend):
    game(backend)
    backend.append("g-1", 1, [ev(2), ev(3, "core.Y")])
    expected = [(e.game_id, e.seq, e.type, e.version, e.payload) for e in backend.events("g-1", 2, 3)]
    assert [tuple(b) for b in backend.bodies("g-1", 2, 3)] == expected
    assert [b.seq for b in backend.bodies("g-1")] == [1, 2, 3] and list(backend.bodies("nope")) == []


NUL_TEXTS = ["a\x00b", "\x00", "a\\0b", "\x01a", "\x01\x00\\", "plain"]  # with NUL, looking escaped, MARK-led


@pytest.mark.parametrize("text", NUL_TEXTS)
def test_every_text_is_kept_as_it_was_sent_nul_included(backend, text):
    """PostgreSQL's TEXT cannot hold NUL; the store keeps it anyway, as SQLite does: a game's scenario, an event's
    actor, an imported stream's texts, a seat's address, settings, the outbox, processed mail and secrets."""
    backend.create_game("g-1", "skirmish", text, [NewEvent("core.X", 1, {"t": text}, text)], text)
    assert backend.game("g-1")["scenario"] == text and backend.dice_seed("g-1") == text
    [stored] = backend.events("g-1")
    assert (stored.actor, stored.payload) == (text, {"t": text})
    backend.import_stream("g-2", "skirmish", text, [stored.__class__(**{**stored.to_dict(), "game_id": "g-2"})])
    assert backend.event("g-2", 1) == stored.__class__(**{**stored.to_dict(), "game_id": "g-2"})
    backend.add_pbem_game("g-1", {"created_at": T0}, [{"seat": text, "email": text, "token_hash": text,
                                                       "created_at": T0}])
    backend.update_pbem_game("g-1", {"turn_side": text, "turn_started_at": T0})
    assert backend.pbem_settings("g-1")["turn_side"] == text
    assert [(m["seat"], m["email"]) for m in backend.members("g-1")] == [(text, text)]
    [one] = backend.queue_mail([{**mail(1, "g-1"), "recipient": text, "message_id": text, "seat": text}], T0)
    [row] = backend.claim_mail(T0, T1)
    assert (row["recipient"], row["message_id"], row["seat"]) == (text, text, text)
    backend.mail_failed(one, text, None)
    assert backend.mail_queue()[0]["last_error"] == text
    backend.record_mail(text, "g-1", text)
    assert backend.mail_processed(text) and backend.secret(text, text) == text


def test_texts_that_differ_stay_different(backend):
    """A NUL and what it is written as on PostgreSQL (backslash zero, after MARK) are different texts there too."""
    for n, text in enumerate(NUL_TEXTS):
        backend.record_mail(text, None, str(n))
    assert all(backend.mail_processed(text) for text in NUL_TEXTS)
    assert not backend.mail_processed("\x01a\\0b") and not backend.mail_processed("a\\\\0b")


def test_settings_of_a_game_not_played_by_email_cannot_be_changed(backend):
    """A game without play-by-email settings (a local game): a change to them is refused on both backends, and
    nothing is written (PostgreSQL's UPDATE once matched no row and said nothing)."""
    game(backend)
    with pytest.raises(NoPbemSettings, match="not played by email"):
        backend.update_pbem_game("g-1", {"turn_side": "red"})
    with pytest.raises(NoPbemSettings):
        backend.update_pbem_game("nope", {"over_notified": 1})
    assert backend.pbem_settings("g-1") is None and backend.pbem_games(running_only=False) == []


def test_both_backends_have_exactly_the_interfaces_methods():
    """app/events/interface.py's Store: every public method of each backend is in it, with the same parameters
    (names, order, defaults), and it has no method a backend lacks."""
    import inspect

    from app.events.interface import Store
    from app.events.pg_store import PgEventStore
    from app.events.store import EventStore

    def public(cls) -> dict:
        return {name: (inspect.signature(member.fget) if isinstance(member, property) else inspect.signature(member))
                for name, member in inspect.getmembers(cls) if not name.startswith("_") and callable(
                    getattr(member, "fget", member))}

    def shape(signature) -> list:
        return [(p.name, p.kind, p.default) for p in signature.parameters.values()]

    wanted = {name: shape(s) for name, s in public(Store).items()}
    for backend in (EventStore, PgEventStore):
        assert {name: shape(s) for name, s in public(backend).items()} == wanted, backend.__name__
