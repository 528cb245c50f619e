"""An order from any channel is one load of its game and one append (docs/architecture.md, the order path): parse,
load once, decide, append once, answer from the resulting state. What the order causes (its turn email) is the
reactions' work after the commit (docs/reactions.md), counted apart here, as the automated seats' answers would be
(these games have none)."""
from email.message import EmailMessage

import pytest

from app.events.store import EventStore
from app.mail import inbound
from app.mail.transport import MailConfig
from app.projections import state as projection
from app.service.application import Application
from app.service.mailroom import Mailroom
from app.service.reactions import Reactor
from app.web import create_app
from tests.outbox import Outbox

PLAYERS = {"red": "r@x.example", "blue": "b@x.example"}


class Counts:
    """Every state read (projection.load, or projection.newest: the kept state an order is decided on, its head
    confirmed by the append) and store append, as the order path's or as the reactions' and the sender's."""

    def __init__(self):
        self.order = {"loads": 0, "appends": 0}
        self.after = {"loads": 0, "appends": 0}
        self.aside = 0  # > 0 while the reactions or the sender run

    def add(self, what: str) -> None:
        (self.after if self.aside else self.order)[what] += 1

    def reset(self) -> None:
        self.order = {"loads": 0, "appends": 0}
        self.after = {"loads": 0, "appends": 0}


@pytest.fixture
def counts(monkeypatch):
    found = Counts()
    load, newest, append = projection.load, projection.newest, EventStore.append

    def counted_load(*args, **kwargs):
        found.add("loads")
        return load(*args, **kwargs)

    def counted_newest(*args, **kwargs):
        kept = newest(*args, **kwargs)
        if kept is not None:  # none kept: the order loads
            found.add("loads")
        return kept

    def counted_append(self, *args, **kwargs):
        found.add("appends")
        return append(self, *args, **kwargs)

    def apart(real):
        def run(*args, **kwargs):
            found.aside += 1
            try:
                return real(*args, **kwargs)
            finally:
                found.aside -= 1
        return run

    monkeypatch.setattr(projection, "load", counted_load)
    monkeypatch.setattr(projection, "newest", counted_newest)
    monkeypatch.setattr(EventStore, "append", counted_append)
    monkeypatch.setattr(Reactor, "catch_up", apart(Reactor.catch_up))
    monkeypatch.setattr(Mailroom, "deliver", apart(Mailroom.deliver))
    return found


def test_an_http_order_is_one_load_and_one_append(tmp_path, counts):
    outbox = Outbox()
    app = create_app({"OPEN_GAME_CREATION": True, "HEXLEDGER_DB": str(tmp_path / "once.sqlite3"),
                      "MAIL_TRANSPORT": outbox, "MAIL": MailConfig()})
    client = app.test_client()
    made = client.post("/games", json={"rules": "skirmish", "players": PLAYERS}).json
    g, tokens = made["game_id"], made["tokens"]

    def order(seat, text):
        return client.post(f"/games/{g}/orders", data=text, content_type="text/plain",
                           headers={"Authorization": f"Bearer {tokens[seat]}"})

    for seat in ("red", "blue"):
        client.post(f"/games/{g}/join", json={"seed_text": seat}, headers={"Authorization": f"Bearer {tokens[seat]}"})
    assert order("red", "end").status_code == 201  # red's movement step; its combat step is next
    counts.reset()
    before = len(outbox.sent)
    r = order("red", "end")  # passes the turn: blue's turn email is a reaction
    assert r.status_code == 201 and r.json["events"][-1]["text"]
    assert counts.order == {"loads": 1, "appends": 1}
    assert any("Your turn" in m["Subject"] for m in outbox.sent[before:])  # the reaction ran, inline, after it
    assert counts.after["appends"] == 0  # a reaction writes mail and its position, never an event


def test_an_emailed_order_is_one_load_and_one_append(tmp_path, counts):
    outbox = Outbox()
    app = Application(EventStore(str(tmp_path / "mail.sqlite3")), MailConfig(orders_address="orders@x.example"),
                      outbox)
    game_id, tokens = app.setup.create("skirmish", PLAYERS)
    for side in ("red", "blue"):
        app.setup.join(app.seats.authenticate(game_id, tokens[side]), side)
    counts.reset()
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = PLAYERS["red"], f"orders+{game_id}@x.example", "orders"
    msg["Message-ID"] = "<once@x.example>"
    msg.set_content(f"token: {tokens['red']}\nmove R1 0202\nmove R2 0203\nend\n")  # three orders: one append
    result = inbound.ingest(app, bytes(msg))
    assert result.applied == 3 and not result.refused, result.lines
    assert counts.order == {"loads": 1, "appends": 1}
    assert "Orders received" in outbox.sent[-2]["Subject"] or "Orders received" in outbox.sent[-1]["Subject"]
    assert counts.after["appends"] == 0


def test_a_turn_email_at_the_head_loads_the_game_once(tmp_path, monkeypatch):
    """The turn email an order causes tells the position at the game's head, with its clock (a deadline here): laid
    out, it loaded the game four times, once for the position and three times more for the clock's deadline and
    its description (each reading the head again); now once."""
    outbox = Outbox()
    app = create_app({"OPEN_GAME_CREATION": True, "HEXLEDGER_DB": str(tmp_path / "letters.sqlite3"),
                      "MAIL_TRANSPORT": outbox, "MAIL": MailConfig()})
    client = app.test_client()
    made = client.post("/games", json={"rules": "skirmish", "players": PLAYERS, "deadline_hours": 48}).json
    g, tokens = made["game_id"], made["tokens"]
    for seat in ("red", "blue"):
        client.post(f"/games/{g}/join", json={"seed_text": seat}, headers={"Authorization": f"Bearer {tokens[seat]}"})
    auth = {"Authorization": f"Bearer {tokens['red']}"}
    assert client.post(f"/games/{g}/orders", data="end", content_type="text/plain", headers=auth).status_code == 201
    loads, load, delivering = [], projection.load, []

    def counted(*args, **kwargs):
        if delivering:
            loads.append(args[3] if len(args) > 3 else kwargs.get("at"))
        return load(*args, **kwargs)

    def deliver(self, *args, real=Mailroom.deliver, **kwargs):
        delivering.append(True)
        try:
            return real(self, *args, **kwargs)
        finally:
            delivering.pop()

    monkeypatch.setattr(projection, "load", counted)
    monkeypatch.setattr(Mailroom, "deliver", deliver)
    before = len(outbox.sent)
    assert client.post(f"/games/{g}/orders", data="end", content_type="text/plain", headers=auth).status_code == 201
    [turn] = [m for m in outbox.sent[before:] if "Your turn" in m["Subject"]]
    assert "due by" in str(turn) and loads == [None], loads  # the deadline told, from one load at the head
