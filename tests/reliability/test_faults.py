"""Issue 25, crashes and faults that lost or garbled something (bench/faults.py; docs/reliability.md): `tick`
killed at every step never loses a deadline; `ingest-email` killed at every step applies each order once and never
sends a contradicting second answer; a full disk is said as such, and the sender goes on past what it cannot
record. The fast tier has one kill at the step that lost a deadline or garbled an answer, in process; the slow
tier kills the real commands at every step."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from freezegun import freeze_time

from app.events.store import EventStore
from app.mail import inbound
from app.mail.transport import MailConfig
from app.service.application import Application
from app.service.writes import Writes
from bench import faults
from tests.outbox import Outbox


class Killed(BaseException):
    """The process dies here (nothing after it runs; what was committed stays)."""


def _tick_killed_after(path: str, event_type: str, outbox: Outbox, monkeypatch, clock, **clock_settings) -> str:
    """A skirmish game whose clock (`clock_settings`) ran out, its `tick` killed right after the deadline's write
    (the first holding `event_type`) committed, before any reaction ran; then, a minute on, `tick` again, which
    finds nothing due twice. Returns the game's id."""
    app = Application(EventStore(path), MailConfig(), outbox)
    game_id, tokens = app.setup.create("skirmish", faults.PLAYERS, arbiter=faults.ARBITER, **clock_settings)
    for side in faults.PLAYERS:
        app.setup.join(app.seats.authenticate(game_id, tokens[side]), side)
    clock.tick(3600 * 2)
    real = Writes._run_after

    def dies(self):
        if any(e.type == event_type for e in EventStore(path).events(game_id)):
            raise Killed
        real(self)

    monkeypatch.setattr(Writes, "_run_after", dies)
    with pytest.raises(Killed):
        Application(EventStore(path), MailConfig(), outbox).deadlines.tick()
    monkeypatch.setattr(Writes, "_run_after", real)
    assert not [m for m in outbox.sent if "Game over" in m["Subject"]]  # killed before anyone was told
    clock.tick(60)
    done = Application(EventStore(path), MailConfig(), outbox).deadlines.tick()
    assert not any("deadline passed" in line for line in done), done  # nothing due twice
    return game_id


def test_tick_killed_after_a_deadline_commits_loses_neither_the_deadline_nor_its_notices(tmp_path, monkeypatch):
    """Killed right after the deadline's write commits, before any reaction ran: the deadline is done (its passes
    and its record, once), and the next tick tells everyone, once."""
    path, outbox = str(tmp_path / "tick.sqlite3"), Outbox()
    with freeze_time("2030-01-01 12:00:00") as clock:
        game_id = _tick_killed_after(path, "core.DeadlinePassed", outbox, monkeypatch, clock, deadline_hours=1,
                                     on_deadline="auto-pass")
    events = list(EventStore(path).events(game_id))
    assert [e.type for e in events if e.actor == "server:deadline" and e.causation is None] == [
        "core.DeadlinePassed", "core.OrderGiven", "core.OrderGiven"]
    notices = [m["To"] for m in outbox.sent if "the server passed for red" in m["Subject"]]
    assert sorted(notices) == sorted([*faults.PLAYERS.values(), faults.ARBITER])


def test_tick_killed_after_a_forfeit_commits_ends_the_game_once_and_tells_everyone_once(tmp_path, monkeypatch):
    """A clock run out where the game's rule is to forfeit: the deadline's record, the late side's concession and
    the seed's reveal are one write; killed right after it, before any reaction, the next tick ends nothing twice
    and tells every seat the result once (issue 27's clocks keep the deadline's guarantee)."""
    path, outbox = str(tmp_path / "forfeit.sqlite3"), Outbox()
    with freeze_time("2030-01-01 12:00:00") as clock:
        game_id = _tick_killed_after(path, "core.Resigned", outbox, monkeypatch, clock, bank_hours=1,
                                     on_deadline="forfeit")
    events = list(EventStore(path).events(game_id))
    assert [e.type for e in events if e.actor == "server:deadline"] == ["core.DeadlinePassed", "core.Resigned"]
    told = sorted(m["To"] for m in outbox.sent if "Game over: blue" in m["Subject"])
    assert told == sorted([*faults.PLAYERS.values(), faults.ARBITER])


def test_ingest_killed_before_it_files_a_message_repeats_its_first_answer(tmp_path, monkeypatch):
    """Killed after the message's transaction committed and before the file moved to cur/: the next run applies
    nothing again, files it, and answers it with its first answer again (said to be a repeat), never a refusal."""
    path, maildir = str(tmp_path / "ingest.sqlite3"), str(tmp_path / "maildir")
    game_id, _ = faults.ingest_world(path, maildir)
    outbox = Outbox()
    app = Application(EventStore(path), MailConfig(orders_address="orders@x.example"), outbox)

    def dies(*args, **kwargs):
        raise Killed

    monkeypatch.setattr(os, "replace", dies)
    with pytest.raises(Killed):
        inbound.ingest_maildir(app, maildir)
    monkeypatch.undo()
    results = inbound.ingest_maildir(Application(EventStore(path), MailConfig(orders_address="orders@x.example"),
                                                 outbox), maildir)
    assert [(r.repeated, r.applied) for r in results] == [(True, 0), (False, 0), (False, 2)]
    assert [e.payload["text"] for e in EventStore(path).events(game_id) if e.type == "core.OrderGiven"] == [
        "move R1 0202", "end", "end"]
    first, again = [inbound.body_text(m) for m in outbox.sent if "<m1@x.example>" in inbound.body_text(m)]
    subjects = {m["Subject"] for m in outbox.sent if "<m1@x.example>" in inbound.body_text(m)}
    assert len(subjects) == 1 and "Orders received" in subjects.pop()
    assert "already processed" in again and faults.answer_text(first) in again.replace("\r\n", "\n")
    assert not os.listdir(Path(maildir) / "new")


def test_a_full_disk_is_said_and_the_sender_goes_on(tmp_path):
    """SQLite on a full tmpfs: a write (an order, a game's creation) is a 503 saying the disk is full (it said
    "cannot rollback - no transaction is active"), naming no file or folder of the server; the sender, the disk
    filling in its round, sends what it claimed and returns (it raised), and keeps those rows for a retry with
    their Message-IDs."""
    result = faults.disk_full_sqlite(str(tmp_path))
    assert result.ok, (result.summary(), result.problems)
    assert result.answer["sent_while_full"] == result.answer["kept_for_a_retry"] > 0


@pytest.mark.slow  # about a hundred runs of the command
def test_tick_killed_at_every_step(tmp_path):
    result = faults.kill_tick(str(tmp_path))
    assert result.ok and result.steps > 20, (result.summary(), result.problems[:5])


@pytest.mark.slow  # about a hundred runs of the command
def test_ingest_email_killed_at_every_step(tmp_path):
    result = faults.kill_ingest(str(tmp_path))
    assert result.ok and result.steps > 20, (result.summary(), result.problems[:5])


@pytest.mark.slow
@pytest.mark.postgres
def test_a_full_disk_on_postgresql(pg_cluster):
    """The database's tablespace on a full tmpfs, its own server started in the same mount namespace (`pg_cluster`:
    PostgreSQL can be started here): an order and a game's creation are each a 503 saying the disk is full, and
    neither quotes what PostgreSQL said (`could not extend file "pg_tblspc/..."`: the operator's log has it)."""
    result = faults.disk_full_postgres()
    assert result.ok, (result.summary(), result.problems)
    said = "the database disk is full; nothing was written"
    assert result.answer["order_message"] == result.answer["message"] == said
