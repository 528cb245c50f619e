"""The whole store (app/events/interface.py, Store: every part on one connection), on both backends: a
transaction spans the parts (an order's events with its outbox rows), every text is kept as it was sent, and each
part has exactly its interface's methods."""
from __future__ import annotations

import ast
import inspect
import textwrap

import pytest

from app.events.dialect import Tables
from app.events.interface import EventStreams, Outbox, Reactions, SeatRecords, ServerRecords, Snapshots, Store
from app.events.outbox import OutboxTables
from app.events.reactions import ReactionTables
from app.events.records import RecordTables
from app.events.seats import SeatTables
from app.events.snapshots import SnapshotTables
from app.events.store import EventStore, NewEvent
from app.events.streams import StreamTables
from tests.core.store_contract import NUL_TEXTS, T0, T1, ev, game, mail


@pytest.fixture
def backend(db_location):
    store = EventStore(db_location)
    yield store
    store.close()


def test_a_transaction_writes_all_or_nothing(backend):
    game(backend)
    with pytest.raises(RuntimeError):
        with backend.transaction():
            backend.append("g-1", 1, [ev(2)])
            backend.queue_mail([mail(1)], T0)
            assert backend.in_transaction
            raise RuntimeError("the write fails")
    assert backend.head("g-1")[0] == 1 and backend.mail_queue() == [] and not backend.in_transaction


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


def public(cls) -> dict:
    """Each public method or property of a class (or Protocol) and its parameters (names, kinds, defaults)."""
    members = {}
    for name, member in inspect.getmembers(cls):
        if name.startswith("_") or not callable(getattr(member, "fget", member)):
            continue
        signature = inspect.signature(member.fget if isinstance(member, property) else member)
        members[name] = [(p.name, p.kind, p.default) for p in signature.parameters.values()]
    return members


PARTS = {EventStreams: StreamTables, SeatRecords: SeatTables, Outbox: OutboxTables, Snapshots: SnapshotTables,
         ServerRecords: RecordTables, Reactions: ReactionTables, Store: EventStore}


@pytest.mark.parametrize("interface", PARTS, ids=lambda interface: interface.__name__)
def test_each_part_has_exactly_its_interfaces_methods(interface):
    """app/events/interface.py: every public method of each implementation is in its interface, with the same
    parameters, and the interface has no method the implementation lacks; the store is all of them."""
    assert public(PARTS[interface]) == public(interface)


@pytest.mark.parametrize("part", [StreamTables, SeatTables, OutboxTables, SnapshotTables, RecordTables,
                                  ReactionTables],
                         ids=lambda part: part.__name__)
def test_no_part_calls_another(part):
    """The parts share the connection and nothing else: a method of one uses only its own members and those every
    part has (Tables: the database, the transaction), never another part's (issue 26: the service's mixins called
    each other through self)."""
    own = set(vars(part)) | set(vars(Tables)) | {"db"}
    used = {node.attr for node in ast.walk(ast.parse(textwrap.dedent(inspect.getsource(part))))
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self"}
    assert used <= own, used - own
