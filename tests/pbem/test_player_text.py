"""Player-written text (issue 25): names, seed texts, orders, dispute reasons and notes, reveal reasons are one line
of bounded length, refused where they enter (API 4xx, CLI error, email refusal) with nothing written, and shown as
data (quoted, escaped) wherever they appear. On main a newline in a join name or a dispute reason forged numbered
lines in `cli.py log`, the history and emails (a fake "blue orders: concede"), and a name had no length limit.
The rule is app/text.py's `player_text`; the display, `quoted` and `escaped` in app/projections/history.py."""
from __future__ import annotations

import re

import pytest

from app.events import core
from app.events.backends import open_store
from app.mail import inbound
from app.mail.replies import body_text
from app.mail.transport import MailConfig
from app.rules.catalog import installed
from app.service import games
from app.service.application import Application
from app.web import create_app
from tests.outbox import Outbox

CATALOG = installed()  # the rule sets installed here

FORGED = "Ann\n    9  player:blue    blue orders: concede"  # what a forged line of `cli.py log` reads like
LOG_LINE = re.compile(r"^ {0,4}\d+  \S")  # `cli.py log`: every line starts with its event number


@pytest.fixture
def api(db_location):
    app = create_app({"OPEN_GAME_CREATION": True, "HEXLEDGER_DB": db_location, "MAIL_TRANSPORT": Outbox(),
                      "MAIL": MailConfig()})
    client = app.test_client()
    made = client.post("/games", json={"rules": "skirmish", "players": {"red": "r@x.example", "blue": "b@x.example"},
                                       "arbiter": "a@x.example"}).json

    def call(method, path, seat=None, **kw):
        headers = {"Authorization": f"Bearer {made['tokens'][seat]}"} if seat else {}
        return client.open(path.replace("{g}", made["game_id"]), method=method, headers=headers, **kw)

    return call, made["game_id"], db_location


def stream(location: str, game_id: str) -> list[str]:
    store = open_store(location)
    try:
        return [e.hash for e in store.events(game_id)]
    finally:
        store.close()


def test_player_text_that_breaks_the_rule_is_refused_by_the_api_and_nothing_is_written(api):
    call, game_id, location = api
    refusals = [
        ("/games/{g}/join", "red", {"seed_text": "dice", "name": FORGED}, "line break"),
        ("/games/{g}/join", "red", {"seed_text": "dice", "name": "A" * 255}, "at most 254"),
        ("/games/{g}/join", "red", {"seed_text": "dice\x1b[2J", "name": "Ann"}, "control character \\x1b"),
        ("/games/{g}/join", "red", {"seed_text": "dice", "name": "Ann\u202eenoceb"}, "control character \\u202e"),
    ]
    for path, seat, body, said in refusals:
        answer = call("POST", path, seat, json=body)
        assert answer.status_code == 400 and said in answer.json["message"], (body, answer.json)
        assert "nothing was written" in answer.json["message"]
    assert stream(location, game_id)[1:] == []  # no one joined
    for seat in ("red", "blue"):
        joined = call("POST", "/games/{g}/join", seat, json={"seed_text": seat, "name": f"{seat} \U0001f600"})
        assert joined.status_code == 201, joined.json
    order = call("POST", "/games/{g}/orders", "red", data="move R1\n0202", content_type="text/plain")
    assert order.status_code == 422 and "line break" in order.json["message"], order.json
    assert call("POST", "/games/{g}/orders", "red", data="move R1 0202", content_type="text/plain").status_code == 201
    before = stream(location, game_id)
    for path, seat, body in (("/games/{g}/disputes", "blue", {"order_seq": 4, "reason": FORGED}),
                             ("/games/{g}/disputes", "blue", {"order_seq": 4, "reason": "x" * 501})):
        answer = call("POST", path, seat, json=body)
        assert answer.status_code == 400, answer.json
    assert stream(location, game_id) == before
    assert call("POST", "/games/{g}/disputes", "blue", json={"order_seq": 4, "reason": "out of range"}).status_code \
        == 201
    note = call("POST", "/games/{g}/disputes/1/answer", "red", json={"accept": False, "note": "no\r\nblue concedes"})
    assert note.status_code == 400 and "line break" in note.json["message"], note.json


def test_cli_refuses_a_name_or_reason_of_more_than_one_line(run):
    game = run("new", "skirmish").output.strip()
    for args in (["join", game, "--side", "red", "--name", FORGED], ["reveal", game, "--reason", "over\nblue wins"]):
        result = run(*args, ok=False)
        assert result.exit_code == 1 and "line break" in result.output, result.output
    assert run("log", game).output.count("\n") == 1


def test_email_refuses_a_dispute_reason_with_a_control_character(tmp_path):
    """An email's lines hold no line break, but a reason may hold a control character that a terminal or mail
    program acts on (ESC, a right-to-left override): refused in the reply, nothing written."""
    outbox = Outbox()
    pbem = Application(open_store(str(tmp_path / "m.sqlite3")), MailConfig(orders_address="orders@pbem.example"),
                       outbox)
    game_id, tokens = pbem.setup.create("skirmish", {"red": "red@x.example", "blue": "blue@x.example"})
    for seat in ("red", "blue"):
        pbem.setup.join(pbem.seats.authenticate(game_id, tokens[seat]), seat)
    pbem.orders.order(pbem.seats.authenticate(game_id, tokens["red"]), "move R1 0202")
    before = [e.hash for e in pbem.store.events(game_id)]
    raw = (f"From: blue@x.example\r\nTo: orders@pbem.example\r\nMessage-ID: <d@x>\r\nContent-Type: text/plain; "
           f"charset=utf-8\r\n\r\ngame: {game_id}\r\ntoken: {tokens['blue']}\r\ndispute 4: out \x1b[31mof range\r\n")
    result = inbound.ingest(pbem, raw.encode())
    assert result.refused and result.applied == 0 and [e.hash for e in pbem.store.events(game_id)] == before
    assert "control character \\x1b" in body_text(outbox.sent[-1])


@pytest.fixture
def old_stream(tmp_path):
    """A game whose stream already holds multi-line player text (written before the rule, or imported): a name and a
    dispute reason that each try to forge a line of the log."""
    location = str(tmp_path / "cli.sqlite3")
    store = open_store(location)
    game_id = games.create_game(store, CATALOG, "skirmish")
    head = store.head(game_id)[0]
    forged = core.PlayerJoined(side="red", name=FORGED, seed_text="a")
    store.append(game_id, head, [games.new_event(forged, "player:red")])
    games.join(store, CATALOG, game_id, "blue", "Bob", "b")
    order = games.submit(store, CATALOG, game_id, "red", "move R1 0202").events[0].seq
    raised = core.DisputeRaised(dispute=1, order_seq=order, side="blue", reason="fine\n   10  blue orders: concede")
    store.append(game_id, store.head(game_id)[0], [games.new_event(raised, "player:blue")])
    events = len(list(store.events(game_id)))
    store.close()
    return location, game_id, events


def test_text_already_in_a_stream_is_shown_as_data_one_line_an_event(old_stream, run):
    """`cli.py log` prints exactly one line an event, each starting with its number: the name and the reason are
    quoted with their line breaks escaped, so no forged "blue orders: concede" line appears."""
    location, game_id, events = old_stream
    log = run("--db", location, "log", game_id).output.splitlines()
    assert len(log) == events and all(LOG_LINE.match(line) for line in log), log
    assert r'"Ann\n    9  player:blue    blue orders: concede" joins as red' in log[1]
    assert log[-1].endswith(r'blue disputes event 4 (dispute 1): "fine\n   10  blue orders: concede"')
    assert not any(re.match(r"^ +(9|10)  ", line) for line in log)
