"""A NUL character in any text a user sends (PostgreSQL's TEXT cannot hold one; SQLite's can): over HTTP a clear
400 before any route reads the request, by email a clear refusal in the reply, and nothing changes, on both
backends. The store itself keeps any text (tests/core/test_contract_*.py)."""
from __future__ import annotations

import json

import pytest

from app.events.backends import open_store
from app.mail import inbound
from app.mail.replies import body_text
from tests.reliability import hostile

OPERATOR = {"Authorization": f"Bearer {hostile.OPERATOR_KEY}"}
PLAYERS = {"red": "r@x.example", "blue": "b@x.example"}


@pytest.fixture
def served(db_location):
    app, _, world = hostile.openapi_world(db_location)
    return app, world, db_location


def requests(game: str, map_text: str) -> list[tuple]:
    """(method, path, seat or None for the operator, JSON body or text) with a NUL where a user's text goes."""
    return [
        ("POST", "/games", None, {"rules": "skirmish", "players": {"red": "r\x00@x.example", "blue": "b@x.example"}}),
        ("POST", "/games", None, {"rules": "skirmish", "players": {"red\x00": "r@x.example", "blue": "b@x.example"}}),
        ("POST", "/games", None, {"rules": "skirmish", "scenario": "meeting\x00", "players": PLAYERS}),
        ("POST", "/games", None, {"rules": "skirmish", "players": PLAYERS, "arbiter": "a\x00@x.example"}),
        ("POST", "/games", None, {"rules": "skirmish", "players": PLAYERS, "auto": ["blue\x00"]}),
        ("POST", "/games", None, {"rules": "ichigo", "map": map_text.replace("clear", "cle\x00ar", 1),
                                  "players": {"japanese": "j@x.example", "allied": "a@x.example"}}),
        ("POST", "/games", None, {"rules": "skirmish", "players": PLAYERS, "position": {"units\x00": []}}),
        ("POST", f"/games/{game}/join", "red", {"seed_text": "my dice\x00"}),
        ("POST", f"/games/{game}/join", "red", {"seed_text": "a", "name": "Red\x00"}),
        ("POST", f"/games/{game}/orders", "blue", {"order": "end\x00"}),
        ("POST", f"/games/{game}/orders", "blue", "end\x00"),
        ("POST", f"/games/{game}/preview", "blue", {"order": "end\x00"}),
        ("POST", f"/games/{game}/disputes", "blue", {"order_seq": 1, "reason": "no\x00"}),
        ("POST", f"/games/{game}/disputes/1/answer", "red", {"accept": False, "note": "\x00"}),
        ("GET", f"/games/{game}\x00/state", "red", None),
        ("GET", "/games?after=g-\x00", None, None),
        ("GET", f"/games/{game}/state?x=\x00", "red", None),
    ]


def test_a_nul_anywhere_in_a_request_is_a_clear_400_and_changes_nothing(served):
    """Each request with a NUL (in JSON as \\u0000, or raw in a text body, a path or a query) is refused with a
    400 that names it; the games, their events and seats are as before. (On PostgreSQL a NUL in an address or a
    path was a raw driver error: 500.)"""
    app, world, location = served
    client = app.test_client()
    map_text = hostile.hostile_map((36, 25), "clear", "a map")
    store = open_store(location)
    before = ([g["id"] for g in store.games()], [e.hash for e in store.events(world["game_id"])],
              store.members(world["game_id"]))
    for method, path, seat, body in requests(world["game_id"], map_text):
        headers = OPERATOR if seat is None else {"Authorization": f"Bearer {world['tokens'][seat]}"}
        if isinstance(body, dict):
            answer = client.open(path, method=method, data=json.dumps(body), content_type="application/json",
                                 headers=headers)
        else:
            answer = client.open(path, method=method, data=body, content_type="text/plain", headers=headers)
        assert answer.status_code == 400, (method, path, body, answer.status_code, answer.get_data(as_text=True))
        assert "NUL character" in answer.json["message"] and "nothing was read or written" in answer.json["message"]
    assert ([g["id"] for g in store.games()], [e.hash for e in store.events(world["game_id"])],
            store.members(world["game_id"])) == before
    store.close()


def test_a_backslash_and_u0000_written_as_text_is_no_nul(served):
    """JSON's escaped backslash before "u0000" is six ordinary characters, not a NUL: the request goes through."""
    app, world, _ = served
    answer = app.test_client().post("/games", data='{"rules": "skirmish", "players": {"red": "r@x.example", '
                                    '"blue": "b@x.example"}, "scenario": "\\\\u0000"}',
                                    content_type="application/json", headers=OPERATOR)
    assert answer.status_code == 400 and "NUL" not in answer.json["message"], answer.json  # an unknown scenario
    order = app.test_client().post(f"/games/{world['game_id']}/preview", data='{"order": "end \\\\u0000"}',
                                   content_type="application/json",
                                   headers={"Authorization": f"Bearer {world['tokens']['blue']}"})
    assert order.status_code == 422 and "\\u0000" in order.json["message"], order.json  # read as an order


@pytest.fixture
def mail(db_location):
    pbem, game_id, tokens, outbox = hostile.mail_world(db_location)
    yield pbem, game_id, tokens, outbox
    pbem.store.close()


@pytest.mark.parametrize("lines", [["token: {red}", "join: my dice\x00"], ["token: {red}", "move R1 0202\x00"],
                                   ["game: g-\x00", "token: {red}", "end"], ["token: {red}\x00", "end"],
                                   ["token: {red}", "dispute 1: no\x00"]])
def test_a_nul_in_an_emails_lines_is_refused_with_a_clear_reply_and_changes_nothing(mail, lines):
    """By email the same: the message ends processed (never set aside), its sender is told which line holds the
    NUL, and nothing of it is played."""
    pbem, game_id, tokens, outbox = mail
    text = "\r\n".join(line.format(red=tokens["red"]) for line in [f"game: {game_id}", *lines])
    raw = (f"From: red@x.example\r\nTo: orders@pbem.example\r\nSubject: orders\r\nMessage-ID: <nul-{len(text)}@x>"
           f"\r\n\r\n{text}\r\n").encode()
    before = [e.hash for e in pbem.store.events(game_id)]
    result = inbound.ingest(pbem, raw)
    assert result.refused and result.applied == 0 and not result.quarantined and not result.deferred, result.lines
    assert any("holds a NUL character" in line for line in result.lines), result.lines
    assert [e.hash for e in pbem.store.events(game_id)] == before
    assert pbem.store.mail_processed(f"<nul-{len(text)}@x>")
    reply = outbox.sent[-1]
    assert reply["To"] == "red@x.example" and "holds a NUL character" in body_text(reply)
    assert tokens["red"] not in str(reply)  # the line is not quoted back: it may be the token's


def test_an_email_from_an_address_with_a_nul_is_processed_and_not_answered(mail):
    pbem, game_id, _, outbox = mail
    sent = len(outbox.sent)
    result = inbound.ingest(pbem, b"From: red\x00@x.example\r\nTo: orders@pbem.example\r\nMessage-ID: <a@x>\r\n\r\n"
                                  b"end\r\n")
    assert result.refused and not result.quarantined and pbem.store.mail_processed("<a@x>")
    assert len(outbox.sent) == sent  # there is no one to answer
