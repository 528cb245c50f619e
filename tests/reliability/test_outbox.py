"""Issue 12 (email): after a write, nothing about mail can fail the answer or lose the email. Through the real app
(create_app, as `cli.py serve` runs it) and a real SMTP server (aiosmtpd on 127.0.0.1) that is stopped, refuses
(5xx, 4xx) or holds every message; and an .eml outbox folder that cannot be written. Every answer is the stored
write's; every email arrives, once, when the fault is gone (`tick` and `cli.py outbox` are the cron senders)."""
from __future__ import annotations

import asyncio
import http.client
import json
import os
import shutil
import threading
import time
from email import message_from_bytes, policy
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller
from click.testing import CliRunner
from waitress import create_server

from app.events.store import EventStore
from app.mail.transport import MailConfig
from app.service.outbox import NICENESS
from app.settings import Settings
from app.web import create_app
from app.web.server import stop
from cli import cli
from tests.pbem.conftest import free_port

PLAYERS = {"red": "red@players.example", "blue": "blue@players.example"}


class MailServer:
    """An SMTP server on 127.0.0.1 whose answer the test sets: `answer` to DATA ("250 OK" accepts), and `hold`
    (while set, DATA waits until it is released). `stop`/`start` take it off the port and back."""

    def __init__(self):
        self.port = free_port()
        self.answer = "250 OK"
        self.hold: threading.Event | None = None
        self.holding = threading.Event()
        self.received: list = []
        self._controller: Controller | None = None

    async def handle_DATA(self, server, session, envelope):
        if self.hold is not None:
            self.holding.set()
            await asyncio.get_running_loop().run_in_executor(None, self.hold.wait, 120)
        if self.answer.startswith("250"):
            self.received.append(message_from_bytes(envelope.content, policy=policy.default))
        return self.answer

    def start(self) -> None:
        self._controller = Controller(self, hostname="127.0.0.1", port=self.port, ready_timeout=120)  # bounds a hang
        self._controller.start()

    def stop(self) -> None:
        self._controller.stop()
        self._controller = None

    def to(self, address: str) -> list[str]:
        return [str(m["Subject"]) for m in self.received if address in str(m["To"])]


@pytest.fixture
def smtp():
    server = MailServer()
    server.start()
    yield server
    if server.hold is not None:
        server.hold.set()
    if server._controller is not None:
        server.stop()


def mail_env(smtp: MailServer) -> dict[str, str]:
    """The mail settings as an operator sets them; retries due at once, so each `tick` is a retry."""
    return {"HEXLEDGER_SMTP_HOST": "127.0.0.1", "HEXLEDGER_SMTP_PORT": str(smtp.port),
            "HEXLEDGER_MAIL_FROM": "hexledger@pbem.example", "HEXLEDGER_ORDERS_ADDRESS": "orders@pbem.example",
            "HEXLEDGER_MAIL_RETRY": "0"}


def served(db: str, env: dict, **config):
    return create_app({"OPEN_GAME_CREATION": True, "HEXLEDGER_DB": db,
                       "MAIL": MailConfig.from_settings(Settings.from_env(env)), "HEXLEDGER_SECRET": "s3cret",
                       "HEXLEDGER_RATE_LIMIT": "1000000 per minute", **config})


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def tick(app) -> list[str]:
    with app.app_context():
        return app.extensions["hexledger_service"]().deadlines.tick()


def outbox_cli(db: str, env: dict, *args: str):
    result = CliRunner().invoke(cli, ["--db", db, "outbox", "--json", *args], env=env)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result


def queued(db: str) -> list[dict]:
    store = EventStore(db)
    try:
        return store.mail_queue()
    finally:
        store.close()


def play_to_blues_turn(client, tokens: dict, game_id: str) -> None:
    """Both join (red acts first), red moves and ends both phases: blue's turn."""
    for side in ("red", "blue"):
        assert client.post(f"/games/{game_id}/join", json={"seed_text": side},
                           headers=auth(tokens[side])).status_code == 201
    for order in ("move R1 0202", "end", "end"):
        r = client.post(f"/games/{game_id}/orders", data=order, content_type="text/plain", headers=auth(tokens["red"]))
        assert r.status_code == 201, r.json


def test_a_stopped_mail_server_fails_no_answer_and_every_email_arrives_once_it_is_back(tmp_path, smtp):
    db = str(tmp_path / "down.sqlite3")
    env = mail_env(smtp)
    app = served(db, env)
    client = app.test_client()
    smtp.stop()
    r = client.post("/games", json={"rules": "skirmish", "players": PLAYERS})
    assert r.status_code == 201, r.json  # the game is committed: its tokens are in the answer and in the outbox
    game_id, tokens = r.json["game_id"], r.json["tokens"]
    play_to_blues_turn(client, tokens, game_id)
    assert smtp.received == []
    waiting = json.loads(outbox_cli(db, env).output)
    assert {(m["recipient"], m["kind"]) for m in waiting} >= {(PLAYERS["red"], "message"), (PLAYERS["blue"], "turn")}
    assert all(m["attempts"] >= 1 and "Connection refused" in m["last_error"] for m in waiting)
    assert tokens["red"] not in str(waiting)  # the listing never shows an email's text
    # red's turn email is stale once red has played: superseded by blue's (kept, never sent; app/service/outbox.py)
    stale = [(m["recipient"], m["kind"], m["superseded_by"]) for m in waiting if m["status"] == "superseded"]
    assert stale == [(PLAYERS["red"], "turn", max(m["id"] for m in waiting))]
    live = len(waiting) - len(stale)
    assert f"outbox: 0 email(s) sent, {live} failed (kept for a retry)" in tick(app)

    smtp.start()
    assert any(line.startswith(f"outbox: {live} email(s) sent") for line in tick(app))
    [invitation] = [m for m in smtp.received if PLAYERS["red"] in str(m["To"]) and "Invitation" in str(m["Subject"])]
    assert tokens["red"] in invitation.get_body(("plain",)).get_content()
    assert sum("Your turn" in s for s in smtp.to(PLAYERS["blue"])) == 1  # whose turn it is was not lost
    assert [m["status"] for m in queued(db)] == ["superseded"] and tick(app) == []  # once: nothing is sent twice
    r = client.post(f"/games/{game_id}/orders", data="end", content_type="text/plain", headers=auth(tokens["blue"]))
    assert r.status_code == 201 and sum("Your turn" in s for s in smtp.to(PLAYERS["blue"])) == 1


@pytest.mark.parametrize("answer, for_good", [("554 5.7.1 Message refused", True),
                                              ("451 4.3.0 Try again later", False)])
def test_a_refusing_mail_server_fails_no_answer_and_the_email_waits(tmp_path, smtp, answer, for_good):
    """A 5xx answer is tried three times, then kept as failed for the operator (`cli.py outbox --retry`); a 4xx
    answer is retried for as long as it lasts. Either way the order stands and the email is kept."""
    db = str(tmp_path / "refusing.sqlite3")
    env = mail_env(smtp)
    app = served(db, env)
    client = app.test_client()
    r = client.post("/games", json={"rules": "skirmish", "players": PLAYERS})
    game_id, tokens = r.json["game_id"], r.json["tokens"]
    smtp.answer = answer
    play_to_blues_turn(client, tokens, game_id)
    for _ in range(4):
        tick(app)
    [turn] = [m for m in queued(db) if m["recipient"] == PLAYERS["blue"]]
    assert turn["kind"] == "turn" and answer.split()[0] in turn["last_error"]
    assert turn["status"] == ("failed" if for_good else "pending")
    assert turn["attempts"] == (3 if for_good else 5)
    smtp.answer = "250 OK"
    if for_good:
        tick(app)
        # refused for good: it waits for the operator, not for cron
        assert not any("Your turn" in s for s in smtp.to(PLAYERS["blue"]))
        outbox_cli(db, env, "--retry", "--send")
    else:
        tick(app)
    assert sum("Your turn" in s for s in smtp.to(PLAYERS["blue"])) == 1
    # all that stays is red's turn email, superseded by blue's (red had played): kept, never sent
    assert [(m["recipient"], m["status"]) for m in json.loads(outbox_cli(db, env).output)] == [
        (PLAYERS["red"], "superseded")]
    assert not any("Your turn" in s for s in smtp.to(PLAYERS["red"]))


@pytest.mark.parametrize("sender", ["background", pytest.param("process", marks=pytest.mark.slow)])
def test_a_slow_mail_server_does_not_hold_the_answer_of_the_served_api(tmp_path, smtp, sender):
    """`cli.py serve`'s way (waitress, the sender process; or a thread): the answer waits for the order's commit
    only, and every email goes once the mail server answers."""
    db = str(tmp_path / "slow.sqlite3")
    app = served(db, mail_env(smtp), MAIL_SENDER=sender)
    server = create_server(app, host="127.0.0.1", port=0, threads=4)
    threading.Thread(target=server.run, daemon=True).start()

    def call(method: str, path: str, body=None, token: str | None = None):
        conn = http.client.HTTPConnection("127.0.0.1", server.effective_port, timeout=120)
        headers = {"Content-Type": "application/json"} | (auth(token) if token else {})
        conn.request(method, path, json.dumps(body) if body is not None else None, headers)
        response = conn.getresponse()
        return response.status, json.loads(response.read() or b"null")

    if sender == "process":  # laying emails out yields the cores to the requests (outbox.NICENESS)
        ours = os.getpriority(os.PRIO_PROCESS, 0)
        for _ in range(1200):  # the process sets its priority as it starts (a condition; the count bounds a hang)
            if os.getpriority(os.PRIO_PROCESS, app.extensions["hexledger_sender"].pid) != ours:
                break
            time.sleep(0.1)
        assert os.getpriority(os.PRIO_PROCESS, app.extensions["hexledger_sender"].pid) == min(19, ours + NICENESS)
    try:
        smtp.hold = threading.Event()  # every message waits at DATA until released
        status, made = call("POST", "/games", {"rules": "skirmish", "players": PLAYERS})
        assert status == 201
        # the sender is in the middle of the first invitation (the bound is on a hang, not on speed)...
        assert smtp.holding.wait(120), "no email reached the mail server"
        game_id, tokens = made["game_id"], made["tokens"]
        for side in ("red", "blue"):
            assert call("POST", f"/games/{game_id}/join", {"seed_text": side}, tokens[side])[0] == 201
        status, order = call("POST", f"/games/{game_id}/orders", {"order": "move R1 0202"}, tokens["red"])
        assert status == 201 and order["seq"] == 5  # ...and every answer came back meanwhile
        assert smtp.received == [] and not smtp.hold.is_set()
        smtp.hold.set()
        for _ in range(1200):  # the sender delivers once the server answers (a condition; the count bounds a hang)
            if not queued(db) and any("Your turn" in s for s in smtp.to(PLAYERS["red"])):
                break  # the order's turn email is a reaction: queued by a sender round after the invitations went
            smtp.holding.clear()
            smtp.holding.wait(0.1)
        assert queued(db) == []
        assert sorted(smtp.to(PLAYERS["red"]))[0].endswith("you play red")
        assert sum("Your turn" in s for s in smtp.to(PLAYERS["red"])) == 1
    finally:
        stop(server)
        app.extensions["hexledger_sender"].stop()
    if sender == "process":
        assert not app.extensions["hexledger_sender"].alive  # stopped with the server, not left behind


def test_an_outbox_folder_that_cannot_be_written_fails_no_answer_and_loses_nothing(tmp_path):
    """The embedded default writes .eml files. A folder where writes fail (as on a full disk; here its path runs
    through a plain file, which stops root too) leaves the mail queued and no half file; once writable, `tick`
    writes each email once."""
    db = str(tmp_path / "files.sqlite3")
    blocked = tmp_path / "disk"
    blocked.write_text("a file where the outbox folder's parent should be")
    folder = blocked / "outbox"
    env = {"HEXLEDGER_OUTBOX": str(folder), "HEXLEDGER_MAIL_RETRY": "0"}
    app = served(db, env)
    client = app.test_client()
    r = client.post("/games", json={"rules": "skirmish", "players": PLAYERS})
    assert r.status_code == 201, r.json
    play_to_blues_turn(client, r.json["tokens"], r.json["game_id"])
    waiting = queued(db)  # two invitations, red's turn email (both joined), blue's (red ended both phases)
    assert sorted(m["kind"] for m in waiting) == ["message", "message", "turn", "turn"]
    assert all(m["attempts"] >= 1 and "Error" in m["last_error"] for m in waiting)

    blocked.unlink()  # space freed
    tick(app)
    files = sorted(Path(folder).iterdir())
    assert all(f.suffix == ".eml" for f in files)
    # red's turn email (after both joined) is stale: red has played; blue's supersedes it (kept, never written)
    assert [(m["recipient"], m["status"]) for m in queued(db)] == [(PLAYERS["red"], "superseded")]
    subjects = [str(message_from_bytes(f.read_bytes(), policy=policy.default)["Subject"]) for f in files]
    assert sum("Invitation" in s for s in subjects) == 2
    assert sum("Your turn" in s for s in subjects) == 1  # blue's, once
    tick(app)
    assert sorted(Path(folder).iterdir()) == files
    shutil.rmtree(folder)
