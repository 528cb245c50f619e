"""Replies without a token line: every email to a seat carries that seat's reply tag in its Reply-To; a reply to it
is that seat's order. A forged tag, a tag of another game, and a tampered resend are refused and write nothing."""
from email.message import EmailMessage

from app.events.store import EventStore
from app.mail import inbound
from app.mail.inbound import body_text
from app.mail.transport import MailConfig
from app.projections import state as projection
from app.rules.catalog import installed
from app.service.application import Application
from app.settings import Settings
from tests.pbem.test_deadlines_and_ingest import Outbox, seated

CATALOG = installed()  # the rule sets installed here


def reply_to(original: EmailMessage, sender: str, body: str, mid: str, to: str | None = None) -> bytes:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = to or original["Reply-To"]
    msg["Subject"] = "Re: " + original["Subject"]
    msg["Message-ID"] = mid
    msg.set_content(body + "\n\n> " + body_text(original).replace("\n", "\n> "))
    return bytes(msg)


def test_a_turn_email_answered_by_just_replying(store):
    pbem, outbox, game_id, seats, tokens = seated(store)
    turn = [m for m in outbox.to("red@x.example") if "Your turn" in m["Subject"]][-1]
    assert tokens["red"] not in str(turn)
    result = inbound.ingest(pbem, reply_to(turn, "red@x.example", "move R1 0202\nend", "<r1@x.example>"))
    assert result.applied == 2 and not result.refused, result.lines
    assert projection.load(store, CATALOG, game_id).game.units["R1"].hex == "0202"
    ack = outbox.to("red@x.example")[-1]
    assert "accepted: move R1 0202" in body_text(ack) and ack["Reply-To"] == turn["Reply-To"]
    # every email to a seat, not only turn emails, carries that seat's reply address
    blue_mail = outbox.to("blue@x.example")
    tag = pbem.seats.reply_tag(game_id, "blue")
    assert {m["Reply-To"] for m in blue_mail} == {f"orders+{game_id}.{tag}@pbem.example"}


def test_forged_or_foreign_tags_are_refused_and_write_nothing(store):
    pbem, outbox, game_id, seats, tokens = seated(store)
    other_id, _ = pbem.setup.create("skirmish", {"red": "red2@x.example", "blue": "blue2@x.example"})
    turn = [m for m in outbox.to("red@x.example") if "Your turn" in m["Subject"]][-1]
    head = store.head(game_id)[0]
    real = pbem.seats.reply_tag(game_id, "red")
    forged = [("0" * 32, "<f1@evil.example>"), (real[:-1] + ("0" if real[-1] != "0" else "1"), "<f2@evil.example>"),
              (pbem.seats.reply_tag(other_id, "red"), "<f3@evil.example>"),  # red's tag in another game
              (pbem.seats.reply_tag(game_id, "blue") + "00", "<f4@evil.example>")]
    for tag, mid in forged:
        raw = reply_to(turn, "mallory@evil.example", "move R1 0202", mid, to=f"orders+{game_id}.{tag}@pbem.example")
        result = inbound.ingest(pbem, raw)
        assert result.refused and result.applied == 0
        assert "opens no seat" in body_text(outbox.to("mallory@evil.example")[-1])
    assert store.head(game_id)[0] == head
    # the tag is worth nothing over HTTP: it is not a token
    from app.service.errors import AccessDenied
    try:
        pbem.seats.authenticate(game_id, real)
    except AccessDenied:
        pass
    else:
        raise AssertionError("a reply tag opened a seat as a token")


def test_a_tampered_resend_writes_nothing_and_gets_the_first_answer_again(store):
    pbem, outbox, game_id, seats, tokens = seated(store)
    turn = [m for m in outbox.to("red@x.example") if "Your turn" in m["Subject"]][-1]
    assert inbound.ingest(pbem, reply_to(turn, "red@x.example", "move R1 0202", "<t1@x.example>")).applied == 1
    head = store.head(game_id)[0]
    # the same Message-ID with an edited body (someone replaying a captured message with other orders)
    tampered = reply_to(turn, "red@x.example", "move R2 0203\nend\nend", "<t1@x.example>")
    result = inbound.ingest(pbem, tampered)
    assert result.repeated and result.applied == 0
    again = body_text(outbox.to("red@x.example")[-1])  # the first answer, saying it is a repeat: not a refusal
    assert "already processed" in again and "accepted: move R1 0202" in again and "accepted: move R2" not in again
    assert store.head(game_id)[0] == head


def test_the_secret_is_kept_across_restarts_and_can_be_set(tmp_path):
    path = str(tmp_path / "s.sqlite3")
    first = Application(EventStore(path), MailConfig(), Outbox())
    tag = first.seats.reply_tag("g-00000001", "red")
    assert tag != first.seats.reply_tag("g-00000001", "blue") != first.seats.reply_tag("g-00000002", "red")
    again = Application(EventStore(path), MailConfig(), Outbox())
    assert again.seats.reply_tag("g-00000001", "red") == tag  # persisted
    elsewhere = Application(EventStore(str(tmp_path / "other.sqlite3")), MailConfig(), Outbox())
    assert elsewhere.seats.reply_tag("g-00000001", "red") != tag  # each server makes its own secret
    configured = Settings.from_env({"HEXLEDGER_SECRET": "configured secret"})
    set_here = Application(EventStore(path), MailConfig(), Outbox(), settings=configured)
    assert set_here.seats.reply_tag("g-00000001", "red") != tag
    assert Application(EventStore(str(tmp_path / "x.sqlite3")), MailConfig(), Outbox(), settings=configured
                       ).seats.reply_tag("g-00000001", "red") == set_here.seats.reply_tag("g-00000001", "red")
