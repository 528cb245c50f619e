"""Issue 12 (email): nothing a stranger or a player sends can stop email play. `cli.py ingest-email --maildir`, as
cron runs it, on a real SMTP server's maildir: every message ends processed (cur/) or set aside (.quarantine), so
the valid orders behind a hostile one are applied; a locked database defers the run without a traceback and
without applying anything twice."""
from __future__ import annotations

import logging
import os
import sqlite3

import pytest
from click.testing import CliRunner

from app.mail import inbound
from app.mail.inbound import body_text
from app.service.orders import Orders
from cli import cli

RED, BLUE = "red@players.example", "blue@players.example"


@pytest.fixture
def game(pbem, smtp, store):
    """A skirmish with both seats taken by email; red to act."""
    game_id, _ = pbem.setup.create("skirmish", {"red": RED, "blue": BLUE})
    for address in (RED, BLUE):
        smtp.reply(smtp.last(address, "Invitation"), address, f"join: {address}")
    assert [r.applied for r in inbound.ingest_maildir(pbem, smtp.maildir)] == [1, 1]
    return game_id


def ingest_cron(store, smtp, **env):
    """`cli.py ingest-email --maildir` in its own process's shape: its own connection, mail settings from env."""
    env = {"HEXLEDGER_SMTP_HOST": "127.0.0.1", "HEXLEDGER_SMTP_PORT": str(smtp.port),
           "HEXLEDGER_MAIL_FROM": "hexledger@pbem.example", "HEXLEDGER_ORDERS_ADDRESS": "orders@pbem.example", **env}
    result = CliRunner().invoke(cli, ["--db", store.path, "ingest-email", "--maildir", smtp.maildir], env=env)
    assert isinstance(result.exception, SystemExit | None), result.output  # never a traceback
    assert "Traceback" not in result.output
    return result


def waiting(smtp) -> list[str]:
    return os.listdir(os.path.join(smtp.maildir, "new"))


def moves(store, game_id: str) -> list[str]:
    return [e.payload["text"] for e in store.events(game_id) if e.type == "core.OrderGiven"]


def test_a_hostile_message_id_and_a_superscript_seq_stop_nothing(game, smtp, store):
    turn = smtp.last(RED, "Your turn")
    smtp.reply(turn, RED, "move R1 0202", wire_message_id="=?utf-8?q?a=0D=0Ab?=")  # decodes to a line break
    smtp.reply(turn, RED, "seq: \u00b2\nmove R2 0203")  # a superscript two is a digit to str.isdigit
    smtp.reply(turn, RED, "move R2 0203")
    arrived = [open(os.path.join(smtp.maildir, "new", name), "rb").read() for name in waiting(smtp)]
    assert any(b"\r\nMessage-ID: =?utf-8?q?a=0D=0Ab?=\r\n" in raw for raw in arrived)
    result = ingest_cron(store, smtp)
    assert result.exit_code == 0  # every message processed and answered, one of them refused
    assert waiting(smtp) == [] and len(os.listdir(os.path.join(smtp.maildir, "cur"))) == 5
    assert moves(store, game) == ["move R1 0202", "move R2 0203"]
    answers = [body_text(m) for m in smtp.inbox(RED) if "Orders" in m["Subject"]][1:]  # after the join's
    assert "accepted: move R1 0202" in answers[0]
    assert "refused: 'seq: \u00b2' is not an event number; nothing was written" in answers[1]
    assert "accepted: move R2 0203" in answers[2]
    assert all("\r" not in m["In-Reply-To"] and "\n" not in m["In-Reply-To"] for m in smtp.inbox(RED)
               if m["In-Reply-To"])


def test_a_locked_database_defers_the_run_and_applies_nothing_twice(game, smtp, store):
    smtp.reply(smtp.last(RED, "Your turn"), RED, "move R1 0202\nend")
    blocker = sqlite3.connect(store.path, isolation_level=None)
    blocker.execute("BEGIN EXCLUSIVE")  # another writer holds the lock past the busy timeout
    try:
        result = ingest_cron(store, smtp, HEXLEDGER_BUSY_TIMEOUT="0.2")
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    assert result.exit_code == 75  # EX_TEMPFAIL: try again later
    assert "could not take the message now; nothing of it was written" in result.output
    assert len(waiting(smtp)) == 1 and moves(store, game) == []
    assert not any("Orders received" in m["Subject"] and "move R1" in body_text(m) for m in smtp.inbox(RED))
    assert ingest_cron(store, smtp).exit_code == 0
    assert ingest_cron(store, smtp).output.strip() == "no new messages"
    assert moves(store, game) == ["move R1 0202", "end"]  # once
    assert len([m for m in smtp.inbox(RED) if "Orders received" in m["Subject"] and "move R1" in body_text(m)]) == 1


def test_a_message_we_fail_on_is_set_aside_and_the_next_ones_are_applied(game, pbem, smtp, store, monkeypatch,
                                                                         caplog):
    """A failure of ours (here a rule set's bug, simulated) sets the message aside in the maildir's .quarantine
    folder with the reason logged, writes nothing of it, and the messages behind it go on."""
    turn = smtp.last(RED, "Your turn")
    smtp.reply(turn, RED, "move R1 0202")
    smtp.reply(turn, RED, "move R2 0203")
    real_play = Orders.play

    def buggy(self, seat, texts, *args, **kwargs):
        if "move R1 0202" in texts:
            raise KeyError("a rule set's bug")
        return real_play(self, seat, texts, *args, **kwargs)

    monkeypatch.setattr(Orders, "play", buggy)
    with caplog.at_level(logging.ERROR, "hexledger.mail"):
        results = inbound.ingest_maildir(pbem, smtp.maildir)
    assert [(r.quarantined, r.applied) for r in results] == [("KeyError: \"a rule set's bug\"", 0), (None, 1)]
    assert waiting(smtp) == [] and moves(store, game) == ["move R2 0203"]
    aside = os.listdir(os.path.join(smtp.maildir, ".quarantine", "new"))
    assert len(aside) == 1 and aside[0] in caplog.text and "a rule set's bug" in caplog.text
