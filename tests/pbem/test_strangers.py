"""Strangers (issue 25): `ingest-email` answered any message that opens no seat, at whatever From address it
claimed (an unthrottled reflector), and the refusals told a stranger whether a game id exists. Now a stranger's
mailbox gets at most one answer in a period (HEXLEDGER_STRANGER_REPLY_HOURS, stored: it holds across runs and
processes; app/service/strangers.py), a seat is always answered, and the API, email and replay refusals of an
unknown game read as those of a game the caller has no seat in."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from click.testing import CliRunner

from app.events.backends import open_store
from app.mail import inbound
from app.mail.replies import body_text
from app.mail.transport import MailConfig
from app.service.application import Application
from app.web import create_app
from cli import cli
from tests.outbox import Outbox

PLAYERS = {"red": "red@x.example", "blue": "blue@x.example"}
UNKNOWN = "g-0badc0de"


def message(n: int, sender: str, lines: list[str], to: str = "orders@pbem.example") -> bytes:
    return (f"From: {sender}\r\nTo: {to}\r\nSubject: orders\r\nMessage-ID: <s{n}@x>\r\n\r\n" + "\r\n".join(lines)
            + "\r\n").encode()


@pytest.fixture
def world(db_location):
    clock = [datetime(2026, 11, 29, 12, 0, tzinfo=UTC)]
    outbox = Outbox()
    pbem = Application(open_store(db_location), MailConfig(orders_address="orders@pbem.example"), outbox,
                       clock=lambda: clock[0])
    game_id, tokens = pbem.setup.create("skirmish", PLAYERS)
    yield pbem, game_id, tokens, outbox, clock, db_location
    pbem.store.close()


def answers_to(outbox: Outbox, mailbox: str) -> int:
    return sum(1 for m in outbox.sent if m["In-Reply-To"] and mailbox in m["To"].lower())


def test_a_stranger_is_answered_once_a_period_whatever_from_address_they_claim(world):
    """A flood that claims the victim's address (its case and +tags varied): one answer, nothing written, every
    message processed; after the period one more; another process on the same database keeps the same count; a
    seat's messages are answered every time."""
    pbem, game_id, tokens, outbox, clock, location = world
    before = [e.hash for e in pbem.store.events(game_id)]
    claimed = ["victim@y.example", "Victim@Y.example", "victim+1@y.example", "VICTIM+flood@y.example"]
    for n in range(20):
        result = inbound.ingest(pbem, message(n, claimed[n % 4], [f"game: {game_id}", "token: " + "0" * 32, "end"]))
        assert result.refused and not result.quarantined and pbem.store.mail_processed(f"<s{n}@x>")
        assert ("not answered" in result.lines[-1]) == (n > 0), result.lines
    assert answers_to(outbox, "y.example") == 1 and [e.hash for e in pbem.store.events(game_id)] == before
    for n in range(20, 23):  # red, with the seat's token: answered each time
        inbound.ingest(pbem, message(n, "red@x.example", [f"game: {game_id}", f"token: {tokens['red']}", "undo"]))
    assert answers_to(outbox, "red@x.example") == 3
    clock[0] += timedelta(minutes=59)
    other = Application(open_store(location), MailConfig(orders_address="orders@pbem.example"), outbox,
                        clock=lambda: clock[0])  # another ingest process: the limit is in the database
    inbound.ingest(other, message(30, "victim@y.example", ["game: g-00000000", "end"]))
    assert answers_to(outbox, "y.example") == 1
    clock[0] += timedelta(minutes=2)  # an hour since the answer
    inbound.ingest(other, message(31, "victim+2@y.example", ["end"]))
    inbound.ingest(other, message(32, "victim@y.example", ["end"]))
    assert answers_to(outbox, "y.example") == 2
    inbound.ingest(other, message(33, "someone.else@y.example", ["end"]))
    assert answers_to(outbox, "someone.else@y.example") == 1
    other.store.close()


def test_the_limit_holds_across_runs_of_ingest_email_and_can_be_set(tmp_path, monkeypatch):
    db = str(tmp_path / "cli.sqlite3")
    monkeypatch.setenv("HEXLEDGER_OUTBOX", str(tmp_path / "outbox"))
    monkeypatch.delenv("HEXLEDGER_SMTP_HOST", raising=False)
    runner = CliRunner()
    for n in range(3):
        result = runner.invoke(cli, ["--db", db, "ingest-email", "-"], input=message(n, "eve@y.example", ["end"]))
        assert ("not answered" in result.output) == (n > 0), result.output
    assert len(list((tmp_path / "outbox").glob("*.eml"))) == 1
    monkeypatch.setenv("HEXLEDGER_STRANGER_REPLY_HOURS", "0")  # the operator turns the limit off
    runner.invoke(cli, ["--db", db, "ingest-email", "-"], input=message(9, "eve@y.example", ["end"]))
    assert len(list((tmp_path / "outbox").glob("*.eml"))) == 2


def test_an_unknown_game_is_refused_by_email_as_a_game_the_stranger_has_no_seat_in(world):
    pbem, game_id, tokens, outbox, clock, _ = world
    bodies = []
    for n, game in enumerate((game_id, UNKNOWN)):
        clock[0] += timedelta(hours=2)  # past the stranger's limit: each answered
        inbound.ingest(pbem, message(40 + n, "eve@y.example", [f"game: {game}", "token: " + "1" * 32, "end"]))
        bodies.append(body_text(outbox.sent[-1]).replace(game, "GAME").replace(f"<s{40 + n}@x>", "MID"))
        assert game_id not in str(outbox.sent[-1]["Subject"]) + str(outbox.sent[-1]["Reply-To"])
    assert bodies[0] == bodies[1] and "opens no seat in game 'GAME'" in bodies[0], bodies


def test_an_unknown_game_is_refused_by_the_api_and_the_replay_as_a_game_the_caller_has_no_seat_in(db_location):
    app = create_app({"HEXLEDGER_DB": db_location, "MAIL": MailConfig(), "MAIL_TRANSPORT": Outbox(),
                      "OPEN_GAME_CREATION": True})
    client = app.test_client()
    made = [client.post("/games", json={"rules": "skirmish", "players": PLAYERS}).json for _ in range(2)]
    known, elsewhere = made[0]["game_id"], made[1]["tokens"]["red"]  # a real token, of another game
    for method, path in (("GET", "/games/{g}"), ("GET", "/games/{g}/state"), ("GET", "/games/{g}/history"),
                         ("POST", "/games/{g}/orders"), ("POST", "/games/{g}/join"), ("GET", "/games/{g}/export"),
                         ("GET", "/replay/{g}/frames.json"), ("GET", "/replay/{g}/map/1.svg"),
                         ("GET", "/replay/{g}/analysis.json"), ("GET", "/replay/{g}/")):
        for headers in ({}, {"Authorization": f"Bearer {elsewhere}"}, {"Authorization": "Bearer " + "2" * 32}):
            answers = [client.open(path.format(g=g), method=method, headers=headers, json={}) for g in (known, UNKNOWN)]
            texts = [a.get_data(as_text=True).replace(g, "GAME") for a, g in zip(answers, (known, UNKNOWN),
                                                                                  strict=True)]
            assert answers[0].status_code == answers[1].status_code in (401, 403), (path, headers, texts)
            assert texts[0] == texts[1], (path, headers, texts)
