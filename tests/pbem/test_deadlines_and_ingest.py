"""Deadlines (tick from cron, freezegun), the dispute window, and ingest-email from the command line."""
from email.message import EmailMessage

from click.testing import CliRunner
from freezegun import freeze_time

from app.events.store import EventStore
from app.mail.transport import MailConfig
from app.service.application import Application
from app.service.errors import PbemError
from cli import cli
from tests import outbox


class Outbox(outbox.Outbox):
    def to(self, address):
        return [m for m in self.sent if address in m["To"]]


def seated(store, **settings):
    outbox = Outbox()
    pbem = Application(store, MailConfig(orders_address="orders@pbem.example"), outbox)
    game_id, tokens = pbem.setup.create("skirmish", {"red": "red@x.example", "blue": "blue@x.example"},
                                  arbiter="arb@x.example", **settings)
    seats = {s: pbem.seats.authenticate(game_id, t) for s, t in tokens.items()}
    pbem.setup.join(seats["red"], "r")
    pbem.setup.join(seats["blue"], "b")
    return pbem, outbox, game_id, seats, tokens


def test_reminder_then_arbiter_told_when_the_deadline_passes(store):
    with freeze_time("2030-01-01 12:00:00") as clock:
        pbem, outbox, game_id, seats, _ = seated(store, deadline_hours=48, reminder_hours=12)
        clock.tick(30 * 3600)
        assert pbem.deadlines.tick() == []
        clock.tick(7 * 3600)  # 11 hours left
        assert pbem.deadlines.tick() == [f"{game_id}: reminded red"]
        assert "due by 2030-01-03T12:00" in outbox.to("red@x.example")[-1].get_content()
        assert pbem.deadlines.tick() == []  # once only
        clock.tick(12 * 3600)
        assert pbem.deadlines.tick() == [f"{game_id}: deadline passed for red"]
        notice = outbox.to("arb@x.example")[-1]
        assert "Deadline passed: red has not moved" in notice["Subject"]
        assert not [m for m in outbox.to("blue@x.example") if "Deadline" in m["Subject"]]
        # red moves at last: blue's turn starts its own 48 hours
        pbem.orders.submit(seats["red"], "end")
        pbem.orders.submit(seats["red"], "end")
        clock.tick(47 * 3600)
        assert pbem.deadlines.tick() == [f"{game_id}: reminded blue"]
        clock.tick(2 * 3600)
        assert pbem.deadlines.tick() == [f"{game_id}: deadline passed for blue"]


def test_a_dispute_after_the_window_is_refused(store):
    with freeze_time("2030-01-01 12:00:00") as clock:
        pbem, outbox, game_id, seats, _ = seated(store, dispute_window_hours=6)
        seq = pbem.orders.submit(seats["red"], "move R1 0202").events[0].seq
        clock.tick(7 * 3600)
        try:
            pbem.disputes.raise_dispute(seats["blue"], seq, "too late?")
        except PbemError as exc:
            assert "older than the dispute window of 6 hours" in str(exc)
        else:
            raise AssertionError("a dispute outside its window was accepted")


def _mail(game_id, token, body, mid="<m1@player.example>"):
    msg = EmailMessage()
    msg["From"] = "red@x.example"
    msg["To"] = f"orders+{game_id}@pbem.example"
    msg["Subject"] = "orders"
    msg["Message-ID"] = mid
    msg.set_content(f"token: {token}\n{body}\n")
    return bytes(msg)


def test_ingest_email_from_a_file_and_stdin(tmp_path, monkeypatch):
    db = str(tmp_path / "cli.sqlite3")
    monkeypatch.setenv("HEXLEDGER_OUTBOX", str(tmp_path / "outbox"))
    monkeypatch.delenv("HEXLEDGER_SMTP_HOST", raising=False)
    monkeypatch.setenv("HEXLEDGER_ORDERS_ADDRESS", "orders@pbem.example")
    store = EventStore(db)
    pbem, _, game_id, _, tokens = seated(store)
    store.close()
    runner = CliRunner()
    mail = tmp_path / "m1.eml"
    mail.write_bytes(_mail(game_id, tokens["red"], "move R1 0202\nend"))
    r = runner.invoke(cli, ["--db", db, "ingest-email", str(mail)])
    assert r.exit_code == 0 and "accepted: move R1 0202" in r.output
    # every message processed and answered exits 0, its orders refused or not: run from an MTA's pipe, any other
    # status could bounce the player's mail (docs/play-by-email.md, "Exit status")
    r = runner.invoke(cli, ["--db", db, "ingest-email", "-"], input=mail.read_bytes())
    assert r.exit_code == 0 and "already processed" in r.output  # processed before: its answer repeated
    r = runner.invoke(cli, ["--db", db, "ingest-email", "-"],
                      input=_mail("g-00000000", tokens["red"], "end", "<m2@player.example>"))
    assert r.exit_code == 0 and "this token opens no seat in game 'g-00000000'" in r.output  # as a known game's
    r = runner.invoke(cli, ["--db", db, "ingest-email", "-"],
                      input=_mail("g-00000000", tokens["red"], "end", "<m2b@player.example>"))
    assert r.exit_code == 0 and "not answered" in r.output  # opens no seat again: one answer an hour (issue 25)
    r = runner.invoke(cli, ["--db", db, "ingest-email", "-"], input=b"\x00\x01 not an email at all")
    assert r.exit_code == 0 and "holds a NUL character" in r.output
    r = runner.invoke(cli, ["--db", db, "ingest-email", "-"],
                      input=_mail(game_id, tokens["red"], "move R2 0203", "<m3@player.example>"))
    assert r.exit_code == 0 and "[SK 3.3]" in r.output and "not allowed now" in r.output
    replies = sorted((tmp_path / "outbox").glob("*.eml"))
    assert len(replies) == 4  # the seat's first message and its answer repeated, its refused one, one stranger
    assert any(b"Orders refused" in p.read_bytes() for p in replies)
    r = runner.invoke(cli, ["--db", db, "--help"])
    assert "serve" in r.output and "tick" in r.output
