"""A request loads its game once (issue 13): an order over HTTP, the turn email it causes and the game-over check
share the one state the order path loaded."""
import pytest

from app.mail.transport import MailConfig
from app.projections import state as projection
from app.web import create_app
from tests.outbox import Outbox


@pytest.fixture
def api(tmp_path):
    outbox = Outbox()
    app = create_app({"OPEN_GAME_CREATION": True, "HEXLEDGER_DB": str(tmp_path / "once.sqlite3"),
                      "MAIL_TRANSPORT": outbox, "MAIL": MailConfig()})
    client = app.test_client()
    r = client.post("/games", json={"rules": "skirmish", "players": {"red": "r@x.example", "blue": "b@x.example"}})
    g, tokens = r.json["game_id"], r.json["tokens"]

    def order(seat, text):
        return client.post(f"/games/{g}/orders", data=text, content_type="text/plain",
                           headers={"Authorization": f"Bearer {tokens[seat]}"})

    for seat in ("red", "blue"):
        client.post(f"/games/{g}/join", json={"seed_text": seat}, headers={"Authorization": f"Bearer {tokens[seat]}"})
    return order, outbox


@pytest.fixture
def loads(monkeypatch):
    """Every projection.load, as (game, at)."""
    calls = []
    real = projection.load

    def counted(store, game_id, at=None, use_snapshots=True):
        calls.append((game_id, at))
        return real(store, game_id, at, use_snapshots)

    monkeypatch.setattr(projection, "load", counted)
    return calls


def test_an_http_order_loads_its_game_once(api, loads):
    order, _ = api
    r = order("red", "move R1 0202")
    assert r.status_code == 201 and r.json["events"][-1]["text"] == "R1 moves 0202"
    assert len(loads) == 1


def test_an_order_that_passes_the_turn_and_mails_it_loads_once(api, loads):
    order, outbox = api
    assert order("red", "end").status_code == 201  # red's movement step; its combat step is next
    before, loads[:] = len(outbox.sent), []
    r = order("red", "end")
    assert r.status_code == 201 and r.json["events"][-1]["text"]
    assert any("Your turn" in m["Subject"] for m in outbox.sent[before:])  # blue's turn email went, inline
    assert len(loads) == 1
