"""Access limits: request size (HTTP 413, oversized email refused with a reply) and rate limiting per token (429).
Each refusal changes nothing in the game."""
from email.message import EmailMessage

import pytest

from app.mail import inbound
from app.mail.transport import MailConfig
from app.web import create_app
from tests.pbem.test_deadlines_and_ingest import Outbox, seated


@pytest.fixture
def limited(tmp_path):
    app = create_app({"OPEN_GAME_CREATION": True,  # creating games is not what this tests
                      "HEXLEDGER_DB": str(tmp_path / "lim.sqlite3"), "MAIL_TRANSPORT": Outbox(), "MAIL": MailConfig(),
                      "HEXLEDGER_RATE_LIMIT": "6 per minute", "MAX_CONTENT_LENGTH": 4096})
    client = app.test_client()
    r = client.post("/games", json={"rules": "skirmish", "players": {"red": "r@x.example", "blue": "b@x.example"}})
    g, tokens = r.json["game_id"], r.json["tokens"]

    def call(method, path, seat, **kw):
        return client.open(path.replace("{g}", g), method=method, headers={"Authorization": f"Bearer {tokens[seat]}"},
                           **kw)

    for seat in ("red", "blue"):
        assert call("POST", "/games/{g}/join", seat, json={"seed_text": seat}).status_code == 201
    return call


def test_a_body_over_the_limit_is_refused_unread(limited):
    call = limited
    seq = call("GET", "/games/{g}/state", "blue").json["seq"]
    r = call("POST", "/games/{g}/orders", "red", data="move R1 0202\n" + "x" * 5000, content_type="text/plain")
    assert r.status_code == 413 and r.json["error"] == "RequestTooLarge" and "4096 bytes" in r.json["message"]
    assert call("GET", "/games/{g}/state", "blue").json["seq"] == seq
    assert call("POST", "/games/{g}/orders", "red", data="move R1 0202", content_type="text/plain").status_code == 201


def test_too_many_requests_for_one_token_get_429_and_change_nothing(limited):
    call = limited
    # red has used 1 of its 6 requests (join); 5 more pass, the 7th is refused
    # every answer tells what is left of the allowance; only the refusal says when to come back (Retry-After: the
    # minute's window, rounded up)
    for left in (4, 3, 2, 1, 0):
        r = call("GET", "/games/{g}/actions", "red")
        assert r.status_code == 200 and "Retry-After" not in r.headers
        assert (r.headers["X-RateLimit-Limit"], r.headers["X-RateLimit-Remaining"]) == ("6", str(left))
    seq = call("GET", "/games/{g}/state", "blue").json["seq"]
    r = call("POST", "/games/{g}/orders", "red", json={"order": "move R1 0202"})
    assert r.status_code == 429 and r.json["error"] == "RateLimited"
    assert 1 <= int(r.headers["Retry-After"]) <= 61 and r.headers["X-RateLimit-Remaining"] == "0"
    assert "6 per 1 minute" in r.json["message"]
    state = call("GET", "/games/{g}/state", "blue").json  # blue has its own allowance
    assert state["seq"] == seq and {u["id"]: u["hex"] for u in state["view"]["units"]}["R1"] != "0202"


def _big_mail(game_id: str, token: str, size: int) -> bytes:
    msg = EmailMessage()
    msg["From"] = "red@x.example"
    msg["To"] = f"orders+{game_id}@pbem.example"
    msg["Subject"] = "orders"
    msg["Message-ID"] = "<big@x.example>"
    msg.set_content(f"token: {token}\nmove R1 0202\n" + ("> quoted line\n" * (size // 14)))  # the quoted history
    return bytes(msg)


def test_an_oversized_email_is_refused_with_a_clear_reply(store):
    pbem, outbox, game_id, seats, tokens = seated(store)
    head = store.head(game_id)[0]
    result = inbound.ingest(pbem, _big_mail(game_id, tokens["red"], 300 * 1024))
    assert result.refused and result.applied == 0 and store.head(game_id)[0] == head
    reply = outbox.to("red@x.example")[-1]
    assert "Orders refused" in reply["Subject"] and "more than the limit of 262144" in reply.get_content()
    # under the limit, the same orders go through
    small = _big_mail(game_id, tokens["red"], 1024).replace(b"<big@x.example>", b"<small@x.example>")
    assert inbound.ingest(pbem, small).applied == 1
