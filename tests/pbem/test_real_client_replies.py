"""Replies as real mail programs write them (issue 14), through the whole reply path: the fixture's bytes reach the
orders maildir through the SMTP server on 127.0.0.1 (or the `ingest-email` pipe), its orders are read and played,
and the answer email reaches the player. tests/pbem/fixtures/README.md names the program behind each fixture."""
import re
import smtplib
from pathlib import Path

import pytest
from click.testing import CliRunner

from app.mail import inbound
from app.mail.inbound import body_text
from app.projections import state as projection
from app.rules.catalog import installed
from cli import cli
from tests.pbem.snc_gt2 import JP, LANDING, ORDERS, to_japanese_gt2

CATALOG = installed()  # the rule sets installed here

FIXTURES = Path(__file__).parent / "fixtures"
MADE_FOR = (b"g-0104e9fc", b"dfe14b065ea07df8837ae4a19387bd21")  # the game and Japanese reply tag they answered


def reply_bytes(name: str, game_id: str, tag: str) -> bytes:
    """The fixture, answering this game: only the game id and the reply tag (same lengths) are put in."""
    return (FIXTURES / name).read_bytes().replace(MADE_FOR[0], game_id.encode()).replace(MADE_FOR[1], tag.encode())


def check_answer(smtp, store, game_id: str, turn) -> None:
    answer = smtp.last(JP, "Orders received")
    text = body_text(answer)
    for order in ORDERS:
        assert f"accepted: {order}" in text, text
    assert answer["Reply-To"] == turn["Reply-To"]  # the answer can be replied to as it is
    assert "jp-d3-r6" in text.partition(f"accepted: {LANDING}")[2]  # what the landing did, as the player sees it
    assert projection.load(store, CATALOG, game_id).game.phase != "declare"


@pytest.mark.parametrize("name", sorted(p.name for p in FIXTURES.glob("*.eml")))
def test_a_mail_programs_reply_is_read_whole_and_answered(pbem, smtp, store, name):
    game_id = to_japanese_gt2(pbem)
    turn = smtp.last(JP, "Your turn")
    raw = reply_bytes(name, game_id, pbem.seats.reply_tag(game_id, "japanese"))
    to = f"orders+{game_id}.{pbem.seats.reply_tag(game_id, 'japanese')}@pbem.example"
    with smtplib.SMTP("127.0.0.1", smtp.port, timeout=10) as client:
        client.sendmail(JP, [to], re.sub(rb"(?<!\r)\n", b"\r\n", raw))  # as the MTA took it from mutt's pipe
    [result] = inbound.ingest_maildir(pbem, smtp.maildir)
    assert result.applied == len(ORDERS) and not result.refused, result.lines
    check_answer(smtp, store, game_id, turn)


def test_a_reply_through_the_ingest_pipe(pbem, smtp, store, tmp_path, monkeypatch):
    """What an MTA's pipe to `cli.py ingest-email -` does with mutt's format=flowed reply."""
    game_id = to_japanese_gt2(pbem)
    turn = smtp.last(JP, "Your turn")
    for name, value in {"HEXLEDGER_SMTP_HOST": "127.0.0.1", "HEXLEDGER_SMTP_PORT": str(smtp.port),
                        "HEXLEDGER_MAIL_FROM": "hexledger@pbem.example",
                        "HEXLEDGER_ORDERS_ADDRESS": "orders@pbem.example"}.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("HEXLEDGER_SECRET", raising=False)  # the reply tags' key is the one in the database
    raw = reply_bytes("mutt-reply-flowed-top.eml", game_id, pbem.seats.reply_tag(game_id, "japanese"))
    r = CliRunner().invoke(cli, ["--db", store.path, "ingest-email", "-"], input=raw)
    assert r.exit_code == 0, r.output
    assert f"accepted: {LANDING}" in r.output
    check_answer(smtp, store, game_id, turn)


def test_an_order_broken_over_two_lines_plays_nothing_of_the_message(pbem, smtp, store):
    """Issue 14: the long landing order broken by a hard line break (mutt's reply without format=flowed): its
    second half is no order, so none of the message's orders is played (before, its first orders and the first
    half of the landing were, and a die was rolled), and the answer names the line and why."""
    game_id = to_japanese_gt2(pbem)
    head = store.head(game_id)[0]
    raw = reply_bytes("mutt-reply-flowed-top.eml", game_id, pbem.seats.reply_tag(game_id, "japanese"))
    raw = raw.replace(b"; format=flowed", b"")
    [result] = [inbound.ingest(pbem, raw)]
    assert result.refused and result.applied == 0, result.lines
    assert store.head(game_id)[0] == head  # nothing written: no order, no die
    answer = body_text(smtp.last(JP, "Orders refused"))
    assert "refused: cannot read order 'artillery'" in answer
    assert "nothing of this message was played" in answer
    # the refusal carries the seat's reply tag: replying to it with the orders whole plays them
    refused = smtp.last(JP, "Orders refused")
    assert refused["Reply-To"] == f"orders+{game_id}.{pbem.seats.reply_tag(game_id, 'japanese')}@pbem.example"
    fixed = reply_bytes("mutt-reply-flowed-top.eml", game_id, refused["Reply-To"].split(".")[1].split("@")[0])
    fixed = fixed.replace(b"Message-ID: <", b"Message-ID: <again-")
    result = inbound.ingest(pbem, fixed)
    assert result.applied == len(ORDERS) and not result.refused, result.lines


def test_a_message_without_tag_or_token_is_told_what_to_do_by_email(pbem, smtp, store):
    game_id = to_japanese_gt2(pbem)
    raw = reply_bytes("s-nail-reply.eml", game_id, "x").replace(f"orders+{game_id}.x@".encode(),
                                                                 f"orders+{game_id}@".encode())
    result = inbound.ingest(pbem, raw)
    assert result.refused and result.applied == 0
    answer = body_text(smtp.last(JP, "Orders refused"))
    assert "reply to a game email" in answer and "put your token line first" in answer
    assert "Authorization" not in answer and "HTTP" not in answer
