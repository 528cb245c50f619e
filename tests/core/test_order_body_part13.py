"""An order's JSON body that is already what the Order schema loads is taken as it is (app/web/routes.py
`order_body`, issue 26); every other body still goes through the schema, which converts or refuses it exactly as
before: the same status and answer, nothing written by a refused one."""
import pytest

from app.mail.transport import MailConfig
from app.web import create_app
from tests.outbox import Outbox


@pytest.fixture
def api(tmp_path):
    app = create_app({"OPEN_GAME_CREATION": True, "HEXLEDGER_DB": str(tmp_path / "api.sqlite3"),
                      "MAIL_TRANSPORT": Outbox(), "MAIL": MailConfig()})
    client = app.test_client()
    r = client.post("/games", json={"rules": "skirmish", "players": {"red": "r@x.example", "blue": "b@x.example"}})
    game, tokens = r.json["game_id"], r.json["tokens"]
    for seat in ("red", "blue"):
        client.post(f"/games/{game}/join", json={"seed_text": seat},
                    headers={"Authorization": f"Bearer {tokens[seat]}"})

    def order(body, seat="red"):
        return client.post(f"/games/{game}/orders", json=body, headers={"Authorization": f"Bearer {tokens[seat]}"})

    def head():
        return client.get(f"/games/{game}/state", headers={"Authorization": f"Bearer {tokens['blue']}"}).json["seq"]

    return order, head


REFUSED = [
    ({"order": "end", "expected_seq": True}, "expected_seq"),  # a bool is no integer to the schema
    ({"order": "end", "expected_seq": 0}, "expected_seq"),  # out of its range
    ({"order": "end", "expected_seq": 10**12}, "expected_seq"),
    ({"order": "end", "stray": 1}, "stray"),  # a key the schema does not declare
    ({"order": "end", "expected_seq": None, "stray": 1}, "stray"),
    ({"order": 5}, "order"),
    ({"order": None}, "order"),
    ({"expected_seq": 3}, "order"),
    ({}, "order"),
]


def test_a_body_the_schema_refuses_is_refused_as_before_and_writes_nothing(api):
    order, head = api
    before = head()
    for body, field in REFUSED:
        r = order(body)
        assert r.status_code == 422 and r.json["error"] == "ValidationError" and field in r.json["errors"], body
    assert order(["end"]).status_code == 422
    assert head() == before


def test_a_body_the_schema_converts_is_taken_as_it_converts_it(api):
    order, head = api
    seq = head()
    assert order({"order": "end", "expected_seq": str(seq - 1)}).status_code == 409  # "12" is 12 to the schema
    assert order({"order": "end", "expected_seq": 2.5}).status_code == 409  # 2.5 is 2
    assert order({"order": "end", "expected_seq": float(seq)}).status_code == 201  # and 12.0 is 12
    assert order({"order": "end", "expected_seq": seq}).status_code == 409  # the game moved on
    r = order({"order": "end", "expected_seq": None})
    assert r.status_code == 201 and r.json["accepted"] and r.json["seq"] == head()
