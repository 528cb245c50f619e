"""Undo's "not seen" check (design.md practice 9): any read of the position by the opponent counts as seen,
through whichever door it came (issue 12: `state?at=`, the export and the replay with its frames, maps and
analysis were not counted)."""
import pytest

from app.mail.transport import MailConfig
from app.web import create_app
from tests.outbox import Outbox


@pytest.fixture
def api(tmp_path):
    app = create_app({"HEXLEDGER_DB": str(tmp_path / "api.sqlite3"), "MAIL_TRANSPORT": Outbox(),
                      "MAIL": MailConfig()})
    client = app.test_client()
    r = client.post("/games", json={"rules": "skirmish", "players": {"red": "r@x.example", "blue": "b@x.example"}})
    g, tokens = r.json["game_id"], r.json["tokens"]

    def call(method, path, seat=None, **kw):
        headers = {"Authorization": f"Bearer {tokens[seat]}"} if seat else {}
        return client.open(path.replace("{g}", g), method=method, headers=headers, **kw)

    for seat in ("red", "blue"):
        call("POST", "/games/{g}/join", seat, json={"seed_text": seat})
    return call


READS = {
    "state at the order": lambda call, seq: call("GET", f"/games/{{g}}/state?at={seq}", "blue"),
    "history": lambda call, seq: call("GET", "/games/{g}/history", "blue"),
    "export": lambda call, seq: call("GET", "/games/{g}/export", "blue"),
    "replay frames": lambda call, seq: call("GET", "/replay/{g}/frames.json", "blue"),
    "replay map": lambda call, seq: call("GET", f"/replay/{{g}}/map/{seq}.svg", "blue"),
    "replay analysis": lambda call, seq: call("GET", "/replay/{g}/analysis.json", "blue"),
    "replay chart": lambda call, seq: call("GET", "/replay/{g}/charts/losses.svg", "blue"),
}


@pytest.mark.parametrize("read", sorted(READS))
def test_a_read_of_the_position_by_the_opponent_stops_undo(api, read):
    call = api
    seq = call("POST", "/games/{g}/orders", "red", json={"order": "move R1 0202"}).json["seq"]
    r = READS[read](call, seq)
    assert r.status_code == 200
    r = call("POST", "/games/{g}/undo", "red")
    assert r.status_code == 400 and "already seen" in r.json["message"], (read, r.json)
    assert {u["id"]: u["hex"] for u in call("GET", "/games/{g}/state", "red").json["view"]["units"]}["R1"] == "0202"


def test_a_position_before_the_order_is_not_a_read_of_it(api):
    call = api
    order = call("POST", "/games/{g}/orders", "red", json={"order": "move R1 0202"}).json["events"][0]
    assert order["text"] == "red orders: move R1 0202"
    assert call("GET", f"/games/{{g}}/state?at={order['seq'] - 1}", "blue").status_code == 200
    assert call("POST", "/games/{g}/undo", "red").status_code == 201
