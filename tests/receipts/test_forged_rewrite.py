"""Issue 31's measure: a server that rewrites a past die, a past order or a past blind draw and reseals the chain is
caught by one player's receipts alone (the emails they got), on both backends, during play (the chain of hashes
fetched from the server) and after (the export), at the first event that differs."""
from __future__ import annotations

import dataclasses
import json
import mailbox
from unittest import mock

import pytest

from app.events import dice
from app.events.registry import decode
from app.mail.transport import MailConfig
from app.projections import state as projection
from app.rules import legal
from app.rules.catalog import installed
from app.service import audit, evidence, games
from app.service.application import Application, Seat
from tests.forgery import replace_stream, reseal
from tests.outbox import Outbox

CATALOG = installed()  # the rule sets installed here

EMAILS = {"japanese": "j@x.example", "allied": "a@x.example"}
RULES = CATALOG.rules("ichigo")


@pytest.fixture
def played(db_location, tmp_path):
    """An Ichi-Go game by email, seven orders in: the Allied set-up's blind draws, the airpower dice, orders of
    both sides. Each player keeps their mail (an mbox) and the answers to their orders, in a folder of their own."""
    outbox = Outbox()
    pbem = Application.open(db_location, MailConfig(orders_address="orders@x.example"), outbox)
    with mock.patch.object(dice, "new_seed", lambda: "7" * 64), \
            mock.patch.object(games, "new_game_id", lambda store: "g-forged"):
        game_id, _ = pbem.setup.create("ichigo", EMAILS)
    seats = {side: Seat(game_id, side, email) for side, email in EMAILS.items()}
    folders = {side: tmp_path / side for side in EMAILS}
    for side, seat in seats.items():
        folders[side].mkdir()
        joined = pbem.setup.join(seat, side) | {"receipt": pbem.reads.receipt(game_id)}
        (folders[side] / "join.json").write_text(json.dumps(joined))
    for n in range(7):
        state = projection.load(pbem.store, CATALOG, game_id)
        side = RULES.prompt(state.game).side
        answer = pbem.orders.order(seats[side], legal.legal_orders(RULES, state.game, side)[0]["order"])
        (folders[side] / f"answer-{n}.json").write_text(json.dumps(answer))
    for side, email in EMAILS.items():
        box = mailbox.mbox(str(folders[side] / "mail.mbox"))
        for msg in outbox.sent:
            if msg["To"] == email:
                box.add(msg)
        box.flush()
    yield pbem, game_id, seats, folders
    pbem.store.close()


def first(events, test) -> int:
    return next(e.seq for e in events if test(e))


def rewrite_die(events):
    at = first(events, lambda e: e.type == "core.DieRolled" and e.payload["purpose"].startswith("Japanese airpower"))
    return at, [dataclasses.replace(e, payload={**e.payload, "value": 7 - e.payload["value"]}) if e.seq == at else e
                for e in events]


def rewrite_order(events):
    at = first(events, lambda e: e.type == "core.OrderGiven" and e.payload["text"].startswith("air "))
    return at, [dataclasses.replace(e, payload={**e.payload, "text": "air 0101"}) if e.seq == at else e
                for e in events]


def rewrite_blind_draw(events):
    """Another unit behind the first blind draw, and the die that would have drawn it: the order re-decided with
    that die, as a server with the rules at hand would forge it (the seed is secret until the end, so nothing
    else can tell this draw from the one made)."""
    order = first(events, lambda e: e.type == "core.OrderGiven")
    batch = [e for e in events if e.causation == order]
    state = projection.fold_all(RULES, [e for e in events if e.seq < order])
    recorded = [e.payload["value"] for e in batch if e.type == "core.DieRolled"]
    drawn = batch[1].payload["unit"]
    for value in range(1, batch[0].payload["sides"] + 1):
        command = games.parse_order(RULES, state, "allied", decode(
            events[order - 1].type, events[order - 1].version, events[order - 1].payload).text)
        produced = games.decide_checked(RULES, state, command, dice.RecordedDice(
            next_index=state.meta.rolls, recorded=[value, *recorded[1:]]))
        if produced[1].unit != drawn:
            break
    forged = {e.seq: dataclasses.replace(e, payload=games.new_event(p, e.actor).payload)
              for e, p in zip(batch, produced, strict=True)}
    return batch[0].seq, [forged.get(e.seq, e) for e in events]


@pytest.mark.parametrize("rewrite", [rewrite_die, rewrite_order, rewrite_blind_draw])
def test_a_resealed_rewrite_is_caught_by_one_players_receipts(played, db_location, tmp_path, rewrite):
    pbem, game_id, seats, folders = played
    kept = {side: evidence.gather(folder) for side, folder in folders.items()}
    for side, found in kept.items():  # the invitation's key; a receipt in every email and every answer
        assert found.keys and len(found.receipts) >= 3, side
        honest = pbem.reads.chain(seats[side])
        assert evidence.check_listing(honest, found, []).ok  # no false alarm on the chain as it was
        evidence.keep_chain(folders[side], honest)  # fetched during play, and kept
    events = list(pbem.store.events(game_id))
    at, edited = rewrite(events)
    forged = reseal(edited)
    assert forged[at - 1].hash != events[at - 1].hash and forged[-1].seq == events[-1].seq
    replace_stream(db_location, game_id, forged)

    told = {side: min((r.seq for r in found.receipts if r.seq >= at), default=None) for side, found in kept.items()}
    assert any(told.values())  # someone was told of the rewritten event
    for side, first_receipt in told.items():
        if first_receipt is None:
            continue
        # during play: the receipts alone, against the chain the server now serves
        during = evidence.check_listing(pbem.reads.chain(seats[side]), kept[side], [])
        assert not during.ok and during.first_bad_seq == first_receipt, (side, during.to_dict())
        # with the chain fetched earlier and kept: the exact event
        pinned = evidence.check_listing(pbem.reads.chain(seats[side]), evidence.gather(folders[side]), [])
        assert pinned.first_bad_seq == at, (side, pinned.to_dict())
        # after the game: the export against the same receipts
        after = evidence.check_export(list(pbem.store.events(game_id)), kept[side], [])
        assert after.first_bad_seq == first_receipt, side


def test_the_blind_draw_forgery_passes_the_audit_and_only_receipts_catch_it(played, db_location):
    pbem, game_id, seats, folders = played
    events = list(pbem.store.events(game_id))
    at, edited = rewrite_blind_draw(events)
    assert edited[at].payload["unit"] != events[at].payload["unit"]
    forged = reseal(edited)
    assert audit.verify(CATALOG, forged).ok  # chain, core rules, every order re-run: the forgery holds
    replace_stream(db_location, game_id, forged)
    caught = evidence.check_listing(pbem.reads.chain(seats["japanese"]), evidence.gather(folders["japanese"]), [])
    assert not caught.ok and caught.first_bad_seq >= at


def test_a_dropped_tail_is_caught(played, db_location):
    """A server that forgets the last orders (the shorter stream verifies: it is a game) breaks a receipt."""
    pbem, game_id, seats, folders = played
    kept = evidence.gather(folders["japanese"])
    events = list(pbem.store.events(game_id))
    last = max(r.seq for r in kept.receipts)
    replace_stream(db_location, game_id, events[:last - 2])
    assert audit.verify(CATALOG, list(pbem.store.events(game_id))).ok
    caught = evidence.check_listing(pbem.reads.chain(seats["japanese"]), kept, [])
    assert caught.first_bad_seq == last - 1 and "chain ends at" in str(caught.differences[0])
