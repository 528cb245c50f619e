"""Disputes are events (raised, answered, ruled) that stay in the record, export and verify; the auto-pass deadline
action gives the late side's end/pass as an ordinary order by server:deadline."""
from freezegun import freeze_time

from app.events import core
from app.events.envelope import StoredEvent
from app.projections import state as projection
from app.rules.catalog import installed
from app.service import audit, transfer
from app.service.errors import PbemError
from tests.pbem.test_deadlines_and_ingest import seated

CATALOG = installed()  # the rule sets installed here


def test_a_rejected_dispute_stays_in_the_record_and_the_game_verifies(store):
    pbem, outbox, game_id, seats, tokens = seated(store)
    order = pbem.orders.submit(seats["red"], "move R1 0202").events[0].seq
    raised = pbem.disputes.raise_dispute(seats["blue"], order, "R1 cannot go there")
    try:
        pbem.disputes.raise_dispute(seats["blue"], order, "again")
    except PbemError as exc:
        assert "already open" in str(exc)
    else:
        raise AssertionError("a second open dispute was accepted")
    assert pbem.disputes.answer_dispute(seats["red"], raised["id"], False, "it can")["status"] == "referred"
    assert pbem.disputes.answer_dispute(seats["arbiter"], raised["id"], False, "clear terrain")["status"] == "rejected"
    events = list(store.events(game_id))
    tail = [(e.type, e.actor) for e in events[-3:]]
    assert tail == [("core.DisputeRaised", "player:blue"), ("core.DisputeAnswered", "player:red"),
                    ("core.DisputeAnswered", "arbiter")]
    assert projection.load(store, CATALOG, game_id).game.units["R1"].hex == "0202"  # the order stands
    assert audit.verify(CATALOG, events).ok
    # exported, the dispute comes along and the file verifies
    lines = list(transfer.export_lines(store, game_id))
    assert sum('"core.DisputeAnswered"' in line for line in lines) == 2
    assert audit.verify(CATALOG, transfer.parse_lines(lines)).ok
    [listed] = pbem.reads.disputes(game_id)
    assert (listed["status"], listed["resolved_by"], listed["note"]) == ("rejected", "arbiter", "clear terrain")


def test_an_accepted_dispute_and_its_retraction_are_one_write_and_verify(store):
    pbem, outbox, game_id, seats, tokens = seated(store)
    order = pbem.orders.submit(seats["red"], "move R1 0202").events[0].seq
    d = pbem.disputes.raise_dispute(seats["blue"], order, "misclick")
    settled = pbem.disputes.answer_dispute(seats["red"], d["id"], True)
    events = list(store.events(game_id))
    assert [e.type for e in events[-2:]] == ["core.DisputeAnswered", "core.Retracted"]
    assert events[-2].at == events[-1].at and settled["retraction_seq"] == events[-1].seq
    assert events[-1].payload["to_seq"] == events[-3].seq  # the retraction does not swallow its own answer
    assert projection.load(store, CATALOG, game_id).game.units["R1"].hex != "0202"
    assert audit.verify(CATALOG, events).ok
    # the dispute is not shown as retracted, the order is
    rows = {r["seq"]: r for r in pbem.reads.history_rows(seats["arbiter"])}
    assert rows[order]["retracted"] and not rows[d["raised_seq"]]["retracted"]


def test_verify_finds_a_dispute_that_names_no_order(store):
    pbem, outbox, game_id, seats, tokens = seated(store)
    order = pbem.orders.submit(seats["red"], "move R1 0202").events[0].seq
    pbem.disputes.raise_dispute(seats["blue"], order, "why")
    events = list(store.events(game_id))
    bad_payload = {**events[-1].payload, "order_seq": 1}  # event 1 is the game's creation
    forged = StoredEvent.sealed(**{**events[-1].hashed_fields(), "payload": bad_payload})
    report = audit.verify(CATALOG, [*events[:-1], forged])
    assert not report.ok and report.first_bad_seq == forged.seq and "not an order" in report.problems[0].message
    assert core.DisputeRaised.event_type == "core.DisputeRaised"


def test_auto_pass_gives_the_late_sides_end_as_an_ordinary_order(store):
    with freeze_time("2030-01-01 12:00:00") as clock:
        pbem, outbox, game_id, seats, _ = seated(store, deadline_hours=24, on_deadline="auto-pass")
        pbem.orders.submit(seats["red"], "move R1 0202")  # red moves, then goes silent
        clock.tick(23 * 3600)
        assert pbem.deadlines.tick() == []
        head = store.head(game_id)[0]
        clock.tick(2 * 3600)
        assert pbem.deadlines.tick() == [f"{game_id}: deadline passed for red, passed: end end"]
        record, *passed = store.events(game_id, head + 1)  # the deadline's record, then the passes: one write
        assert record.type == "core.DeadlinePassed" and record.payload["action"] == "auto-pass"
        assert {e.actor for e in [record, *passed]} == {"server:deadline"}
        assert [(e.payload["side"], e.payload["text"]) for e in passed if e.type == "core.OrderGiven"] == [
            ("red", "end"), ("red", "end")]
        state = projection.load(store, CATALOG, game_id)
        assert state.game.side == "blue" and state.game.units["R1"].hex == "0202"
        assert audit.verify(CATALOG, list(store.events(game_id))).ok
        notice = [m for m in outbox.to("red@x.example") if "the server passed for red" in m["Subject"]]
        assert len(notice) == 1 and "'end', 'end' for red" in notice[0].get_content()
        assert "Your turn" in [m for m in outbox.to("blue@x.example") if "Deadline" not in m["Subject"]][-1]["Subject"]
        assert pbem.deadlines.tick() == []  # once; blue's own 24 hours start now
        clock.tick(13 * 3600)  # cron runs tick often: a run after more than the deadline withholds auto-pass
        assert pbem.deadlines.tick() == []
        clock.tick(12 * 3600)
        assert pbem.deadlines.tick() == [f"{game_id}: deadline passed for blue, passed: end end"]
        assert projection.load(store, CATALOG, game_id).game.side == "red"


def test_notify_arbiter_stays_the_default_and_auto_pass_is_checked(store):
    with freeze_time("2030-01-01 12:00:00") as clock:
        pbem, outbox, game_id, seats, _ = seated(store, deadline_hours=1)
        head = store.head(game_id)[0]
        clock.tick(2 * 3600)
        assert pbem.deadlines.tick() == [f"{game_id}: deadline passed for red"]
        [record] = store.events(game_id, head + 1)  # the deadline's record: nothing played for red
        assert (record.type, record.payload["action"]) == ("core.DeadlinePassed", "notify-arbiter")
        try:
            pbem.setup.create("skirmish", {"red": "a@x.example", "blue": "b@x.example"}, on_deadline="surrender")
        except PbemError as exc:
            assert "on_deadline must be one of notify-arbiter, auto-pass, forfeit" in str(exc)
        else:
            raise AssertionError("an unknown deadline action was accepted")
