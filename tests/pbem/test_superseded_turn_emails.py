"""A player gets one turn email for the position they face, not one per intermediate turn (app/service/outbox.py,
`supersede`): orders given while the sender is busy (`serve`'s sender process laying out another email) cause
several turn emails (the turn subscriber finds each change of turn in the stream); when it claims them, the stale
ones are marked superseded, kept in the outbox, never sent. Through a real SMTP server (aiosmtpd on 127.0.0.1)."""
import json
import re

from click.testing import CliRunner

from app.mail.inbound import body_text
from app.mail.transport import MailConfig
from app.service.application import Application
from cli import cli

RED, BLUE = "red@players.example", "blue@players.example"


class BusySender:
    """`serve`'s sender while it is busy: told of each write's mail, it sends nothing yet."""

    def __init__(self):
        self.kicks = 0

    def kick(self) -> None:
        self.kicks += 1


def played_while_the_sender_is_busy(store, smtp):
    """A skirmish whose orders (blue's turn, red's, blue's again) were all given before the sender ran: the server
    (told of each write's mail, sending none), its mail settings, the game, red's and blue's seats."""
    config = MailConfig(smtp_host="127.0.0.1", smtp_port=smtp.port, mail_from="hexledger@pbem.example",
                        orders_address="orders@pbem.example")
    busy = BusySender()
    server = Application(store, config, notifier=busy)
    game_id, tokens = server.setup.create("skirmish", {"red": RED, "blue": BLUE})
    red, blue = (server.seats.authenticate(game_id, tokens[side]) for side in ("red", "blue"))
    server.setup.join(red, "red's words")
    server.setup.join(blue, "blue's words")  # red to act: red's first turn email
    for seat, orders in [(red, ["move R1 0202", "end", "end"]), (blue, ["end", "end"]), (red, ["end", "end"])]:
        for order in orders:  # blue's turn, red's, blue's again: a turn email each time the turn passes
            server.orders.submit(seat, order)
    assert busy.kicks and smtp.inbox(RED) == [] and smtp.inbox(BLUE) == []
    return server, config, game_id, red, blue


def test_orders_queued_before_the_sender_runs_give_one_email_showing_the_latest_position(store, smtp):
    server, config, game_id, _, _ = played_while_the_sender_is_busy(store, smtp)
    head = server.reads.head(game_id)

    sender = Application(store, config)  # the sender's round (its own service, as the sender process has):
    sender.reactions.catch_up()  # the reactions to every event the writes stored, then the mail they queued
    report = sender.mailroom.deliver()

    [turn] = [m for m in smtp.inbox(BLUE) if "Your turn" in m["Subject"]]
    assert [m for m in smtp.inbox(RED) if "Your turn" in m["Subject"]] == []  # red's turns are over
    text = body_text(turn)
    assert f"The game is at event {head}" in text
    assert re.search(r"^\s+\d+\s+.*R1 moves 0202", text, re.M)  # the history since blue's last email: all of it
    assert report.superseded == 3 and report.failed == []
    queue = store.mail_queue()
    assert [(m["recipient"], m["status"]) for m in queue] == [(RED, "superseded"), (BLUE, "superseded"),
                                                              (RED, "superseded")]
    newest = store.members(game_id)
    assert {m["seat"]: m["last_notified_seq"] for m in newest}["blue"] == head
    assert {m["superseded_by"] for m in queue} == {max(m["id"] for m in queue) + 1}  # blue's email, sent

    listing = CliRunner().invoke(cli, ["--db", store.path, "outbox"])
    assert listing.exit_code == 0 and listing.output.count("superseded") == 6, listing.output
    assert [m["status"] for m in json.loads(CliRunner().invoke(cli, ["--db", store.path, "outbox", "--json"]).output)
            ] == ["superseded"] * 3
    assert Application(store, config).mailroom.deliver().sent == 0  # nothing more to send: the superseded rows never go


def test_superseded_rows_are_deleted_once_kept_as_long_as_the_operator_says_and_nothing_goes_twice(
        store, smtp, tmp_path):
    """HEXLEDGER_OUTBOX_KEEP_DAYS (app/settings.py, docs/play-by-email.md "The outbox"): `tick` (as every full round
    of a sender) deletes the superseded rows that fell due longer ago; no mail that went goes again, no reaction
    runs again, and the next turn email still tells everything since the seat's last email that went."""
    server, config, game_id, _, blue = played_while_the_sender_is_busy(store, smtp)
    sender = Application(store, config)
    sender.reactions.catch_up()
    assert sender.mailroom.deliver().superseded == 3
    subscribers = ["invitations", "turns", "disputes", "deadlines", "notifications", "stalls", "clocks"]
    positions = [store.reaction_position(name, game_id) for name in subscribers]
    inboxes = len(smtp.inbox(RED)), len(smtp.inbox(BLUE))

    def tick(**env: str):
        return CliRunner().invoke(cli, ["--db", store.path, "tick"], env={
            "HEXLEDGER_SMTP_HOST": "127.0.0.1", "HEXLEDGER_SMTP_PORT": str(smtp.port),
            "HEXLEDGER_OUTBOX": str(tmp_path / "eml"), **env})

    kept = tick()  # 30 days by default: the rows fell due moments ago
    assert kept.exit_code == 0 and "deleted" not in kept.output, kept.output
    assert [m["status"] for m in store.mail_queue()] == ["superseded"] * 3
    pruned = tick(HEXLEDGER_OUTBOX_KEEP_DAYS="0")
    assert pruned.exit_code == 0 and "3 superseded row(s) past their keeping deleted" in pruned.output, pruned.output
    assert CliRunner().invoke(cli, ["--db", store.path, "outbox"]).output.strip() == "the outbox is empty"
    assert [store.reaction_position(name, game_id) for name in subscribers] == positions
    assert (len(smtp.inbox(RED)), len(smtp.inbox(BLUE))) == inboxes

    for order in ["end", "end"]:  # the game goes on: red's turn, and red's first turn email that goes
        server.orders.submit(blue, order)
    sender.reactions.catch_up()
    assert sender.mailroom.deliver().sent == 1
    [turn] = [m for m in smtp.inbox(RED) if "Your turn" in m["Subject"]]
    assert re.search(r"^\s+\d+\s+.*R1 moves 0202", body_text(turn), re.M)  # red's history from its first order on
