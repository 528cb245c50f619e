"""What a write causes is a reaction to the stored events (docs/reactions.md): a fork invites its seats, a dispute
and its ruling tell the players, through the real app (create_app) and a real SMTP server (aiosmtpd on
127.0.0.1), with no mail in the write paths (lint-imports holds orders, setup and disputes away from the outbox). A
crash between a write and its reactions loses none of them, and a reaction is made once."""
from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from app.events.store import EventStore
from app.mail import inbound
from app.mail.inbound import body_text
from app.mail.transport import MailConfig
from app.service.application import SUBSCRIBERS, Application
from app.service.notices import TurnEmails
from app.web import create_app
from cli import cli
from tests.outbox import Outbox

RED, BLUE, ARB = "red@players.example", "blue@players.example", "arbiter@players.example"


@pytest.fixture
def served(tmp_path, smtp):
    config = MailConfig(smtp_host="127.0.0.1", smtp_port=smtp.port, mail_from="hexledger@pbem.example",
                        orders_address="orders@pbem.example")
    path = str(tmp_path / "reactions.sqlite3")
    app = create_app({"OPEN_GAME_CREATION": True, "HEXLEDGER_DB": path, "MAIL": config,
                      "HEXLEDGER_RATE_LIMIT": "1000000 per minute"})
    client = app.test_client()
    made = client.post("/games", json={"rules": "skirmish", "players": {"red": RED, "blue": BLUE}, "arbiter": ARB})
    game_id, tokens = made.json["game_id"], made.json["tokens"]

    def call(method: str, path: str, seat: str, **kw):
        return client.open(path.replace("{g}", game_id), method=method,
                           headers={"Authorization": f"Bearer {tokens[seat]}"}, **kw)

    for seat in ("red", "blue"):
        assert call("POST", "/games/{g}/join", seat, json={"seed_text": seat}).status_code == 201
    return app, call, game_id, tokens, config, path


def test_an_arbiters_fork_invites_its_seats_and_a_reply_plays_in_the_fork(served, smtp):
    app, call, game_id, tokens, config, path = served
    assert call("POST", "/games/{g}/orders", "red", data="move R1 0202", content_type="text/plain").status_code == 201
    forked = call("POST", "/games/{g}/fork", "arbiter", json={"at": 5})
    assert forked.status_code == 201, forked.json
    fork_id = forked.json["game_id"]
    for address, seat in ((RED, "red"), (BLUE, "blue"), (ARB, "arbiter")):
        invitation = smtp.last(address, f"[hexledger {fork_id}] Invitation")
        text = body_text(invitation)
        assert f"a fork of game {game_id} after its event 5" in text and f"you play {seat}" in invitation["Subject"]
        assert f"token: {forked.json['tokens'][seat]}" in text  # each seat its own token, at its own address
    turn = smtp.last(RED, f"[hexledger {fork_id}] Your turn")  # the fork goes on at red's move
    assert EventStore(path).take_invitations(fork_id) == {}  # the raw tokens were held only until queued
    smtp.reply(turn, RED, "move R2 0203")
    [result] = inbound.ingest_maildir(Application.open(path, config), smtp.maildir)
    assert (result.game_id, result.applied) == (fork_id, 1), result.lines
    store = EventStore(path)
    assert [e.payload["text"] for e in store.events(fork_id, 6) if e.type == "core.OrderGiven"] == ["move R2 0203"]
    assert [e.payload["text"] for e in store.events(game_id) if e.type == "core.OrderGiven"] == ["move R1 0202"]


def test_a_withheld_fork_tells_nobody(served, smtp):
    app, call, game_id, tokens, config, path = served
    before = len(smtp.handler.received)
    forked = call("POST", "/games/{g}/fork", "arbiter", json={"at": 3, "invite": False})
    assert forked.status_code == 201
    fork_id = forked.json["game_id"]
    told = [(rcpts, m["Subject"]) for rcpts, m in smtp.handler.received[before:]]
    assert all(rcpts == [ARB] for rcpts, _ in told), told  # the arbiter's sandbox: every seat is the arbiter's
    assert not any("Invitation" in subject for _, subject in told)
    assert {m["email"] for m in EventStore(path).members(fork_id)} == {ARB}


def test_the_operators_fork_on_the_command_line_invites_the_players_and_a_reply_plays_in_it(served, smtp,
                                                                                            monkeypatch):
    """Issue 27, "Forks reach the players": `cli.py fork` of a game played by email goes on with its players, as the
    arbiter's fork over the API does; `--no-invite` keeps it the operator's own."""
    app, call, game_id, tokens, config, path = served
    for name, value in {"HEXLEDGER_SMTP_HOST": "127.0.0.1", "HEXLEDGER_SMTP_PORT": str(smtp.port),
                        "HEXLEDGER_MAIL_FROM": "hexledger@pbem.example",
                        "HEXLEDGER_ORDERS_ADDRESS": "orders@pbem.example"}.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("HEXLEDGER_SECRET", raising=False)  # the reply tags' key is the one in the database
    runner = CliRunner()
    done = runner.invoke(cli, ["--db", path, "fork", game_id, "--at", "3", "--json"])
    assert done.exit_code == 0, done.output
    forked = json.loads(done.output)
    assert forked["invited"] and forked["parent"] == game_id
    fork_id = forked["game_id"]
    for address, seat in ((RED, "red"), (BLUE, "blue"), (ARB, "arbiter")):
        invitation = smtp.last(address, f"[hexledger {fork_id}] Invitation")
        text = body_text(invitation)
        assert f"you play {seat}" in invitation["Subject"] and f"a fork of game {game_id} after its event 3" in text
        assert re.search(r"token: [0-9a-f]{32}", text)
    turn = smtp.last(RED, f"[hexledger {fork_id}] Your turn")
    smtp.reply_from("mutt", turn, RED, "move R1 0202")
    [result] = inbound.ingest_maildir(Application.open(path, config), smtp.maildir)
    assert (result.game_id, result.applied) == (fork_id, 1), result.lines
    before = len(smtp.handler.received)
    kept = json.loads(runner.invoke(cli, ["--db", path, "fork", game_id, "--at", "3", "--no-invite", "--json"]).output)
    assert not kept["invited"] and EventStore(path).members(kept["game_id"]) == []
    assert len(smtp.handler.received) == before  # nobody told


def test_a_dispute_and_its_ruling_tell_the_players(served, smtp):
    app, call, game_id, tokens, config, path = served
    order = call("POST", "/games/{g}/orders", "red", data="move R1 0202", content_type="text/plain").json
    order_seq = order["events"][0]["seq"]
    raised = call("POST", "/games/{g}/disputes", "blue", json={"order_seq": order_seq, "reason": "R1 cannot go there"})
    assert raised.status_code == 201
    for address in (RED, BLUE, ARB):
        notice = body_text(smtp.last(address, f"Dispute 1 on event {order_seq}"))
        assert "blue disputes" in notice and '"R1 cannot go there"' in notice and "(red orders: move R1 0202)" in notice
    assert call("POST", "/games/{g}/disputes/1/answer", "red", json={"accept": False, "note": "it can"}).json[
        "status"] == "referred"
    assert 'red rejects it: "it can"' in body_text(smtp.last(ARB, "Dispute 1 needs your ruling"))
    assert not any("needs your ruling" in m["Subject"] for m in smtp.inbox(RED) + smtp.inbox(BLUE))
    turns_before = len([m for m in smtp.inbox(RED) if "Your turn" in m["Subject"]])
    ruled = call("POST", "/games/{g}/disputes/1/answer", "arbiter", json={"accept": True, "note": "ZOC"})
    assert ruled.json["status"] == "upheld" and ruled.json["retraction_seq"]
    for address in (RED, BLUE, ARB):
        ruling = body_text(smtp.last(address, "Dispute 1 upheld"))
        assert 'upheld by arbiter: "ZOC"' in ruling and f"retracted (event {ruled.json['retraction_seq']})" in ruling
    # the position changed under red, whose turn it still is: told again, from the position after the retraction
    assert len([m for m in smtp.inbox(RED) if "Your turn" in m["Subject"]]) == turns_before + 1
    assert f"at event {ruled.json['retraction_seq']}" in body_text(smtp.last(RED, "Your turn"))


def test_a_crash_between_a_write_and_its_reactions_loses_none_and_makes_each_once(tmp_path):
    """The writes commit and the process dies before their reactions run (a notifier that was never heard: the
    sender process killed): the next run (`tick`, or any sender's round) makes each reaction once, and a second run
    makes none again."""
    path = str(tmp_path / "crash.sqlite3")
    outbox = Outbox()

    class Dead:
        def kick(self) -> None:
            pass

    writer = Application(EventStore(path), MailConfig(), outbox, notifier=Dead())
    game_id, tokens = writer.setup.create("skirmish", {"red": RED, "blue": BLUE})
    for side in ("red", "blue"):
        writer.setup.join(writer.seats.authenticate(game_id, tokens[side]), side)
    writer.orders.submit(writer.seats.authenticate(game_id, tokens["red"]), "end")
    writer.orders.submit(writer.seats.authenticate(game_id, tokens["red"]), "end")  # blue's turn
    assert outbox.sent == [] and EventStore(path).mail_queue() == []
    assert EventStore(path).reactions_behind(list(SUBSCRIBERS)) == [game_id]

    after = Application(EventStore(path), MailConfig(), outbox)
    after.deadlines.tick()
    subjects = sorted(str(m["Subject"]).split("] ", 1)[1].split(":")[0] + ":" + m["To"] for m in outbox.sent)
    assert subjects == [f"Invitation:{BLUE}", f"Invitation:{RED}", f"Your turn:{BLUE}"]  # red's first turn email
    # was superseded by blue's
    assert EventStore(path).reactions_behind(list(SUBSCRIBERS)) == []
    after.deadlines.tick()
    assert len(outbox.sent) == 3  # nothing twice


def test_a_reaction_that_fails_writes_nothing_and_is_made_on_the_next_run(tmp_path, monkeypatch):
    """A subscriber that fails after queueing its mail: its rows roll back with its position; the other subscribers
    go on; the next run makes it once."""
    path = str(tmp_path / "fails.sqlite3")
    outbox = Outbox()
    app = Application(EventStore(path), MailConfig(), outbox)
    real = TurnEmails.react

    def failing(self, game_id, events):
        real(self, game_id, events)  # the turn email is queued, then the subscriber fails
        raise RuntimeError("a subscriber's bug")

    monkeypatch.setattr(TurnEmails, "react", failing)
    game_id, tokens = app.setup.create("skirmish", {"red": RED, "blue": BLUE})
    for side in ("red", "blue"):
        app.setup.join(app.seats.authenticate(game_id, tokens[side]), side)
    assert sorted(m["To"] for m in outbox.sent if "Invitation" in m["Subject"]) == [BLUE, RED]
    assert len(outbox.sent) == 2  # the invitations went all the same
    assert EventStore(path).pbem_settings(game_id)["turn_side"] is None  # the turn subscriber's record rolled back
    monkeypatch.setattr(TurnEmails, "react", real)
    app.reactions.catch_up()
    app.mailroom.deliver()
    assert [(m["To"], "Your turn" in m["Subject"]) for m in outbox.sent[2:]] == [(RED, True)]
    app.reactions.catch_up()
    assert len(outbox.sent) == 3


def test_a_writes_reactions_hold_the_game_once_not_once_a_subscriber(db_location, monkeypatch):
    """After an order, the reactions of its game (inline here, as without `serve`'s sender) lock the game and read
    the subscribers' positions together, and the new events once: they did it once for each of the seven
    subscribers (the game's row, the position's insert and read, the events: 28 statements where 3 do)."""
    from app.events.postgres import PostgresDatabase
    from app.events.sqlite import SqliteDatabase

    app = create_app({"OPEN_GAME_CREATION": True, "HEXLEDGER_DB": db_location, "MAIL_TRANSPORT": Outbox(),
                      "MAIL": MailConfig()})
    client = app.test_client()
    made = client.post("/games", json={"rules": "skirmish", "players": {"red": RED, "blue": BLUE}})
    game_id, tokens = made.json["game_id"], made.json["tokens"]
    for seat in ("red", "blue"):
        client.post(f"/games/{game_id}/join", json={"seed_text": seat},
                    headers={"Authorization": f"Bearer {tokens[seat]}"})
    statements = []
    for database in (SqliteDatabase, PostgresDatabase):
        for method in ("one", "tuples", "many", "write"):
            real = getattr(database, method)

            def counted(self, sql, *args, real=real, **kwargs):
                statements.append(" ".join(sql.split()))
                return real(self, sql, *args, **kwargs)

            monkeypatch.setattr(database, method, counted)
    order = client.post(f"/games/{game_id}/orders", data="move R1 0202",
                        headers={"Authorization": f"Bearer {tokens['red']}"})
    assert order.status_code == 201, order.json
    held = [s for s in statements if s.startswith("SELECT coalesce(parent_seq, 0) FROM games")]
    positions = [s for s in statements if s.startswith("SELECT") and "FROM reaction_positions" in s]
    assert len(held) == 1 and len(positions) == 1, statements
    store = EventStore(db_location)
    assert store.reactions_behind(list(SUBSCRIBERS), [game_id]) == []  # every subscriber caught up
    store.close()
