"""A conditional GET of map.svg gets 304 while the seat's picture shows the same, however many events went by
(app/web/routes.py `svg_body`, app/service/reads.py `map_picture`): the picture's title names the event it was drawn
after, so an entity tag of its bytes changed with every event and the map was sent again in full even when nothing
on it had moved. The tag (weak: the title differs) is made from what the picture shows, the seat's own view, so
it tells a player nothing their side cannot see: the other side's hidden move leaves their tag as it was."""
from __future__ import annotations

import dataclasses
import xml.etree.ElementTree as ET

import pytest

from app.mail.transport import MailConfig
from app.rules.catalog import installed
from app.rules.skirmish import GAME as SKIRMISH
from app.rules.skirmish import view as skirmish_view
from app.web import create_app
from tests.outbox import Outbox

SVG = "{http://www.w3.org/2000/svg}"


def _fog_view(state, side):
    view = skirmish_view.view(state, side)
    if side is not None:
        view["units"] = [u for u in view["units"] if u["side"] == side]
    return view


FOG = installed(dataclasses.replace(SKIRMISH, name="fogmap", title="Skirmish, each side seeing its own units (test)",
                                    view=_fog_view))


@pytest.fixture
def game(tmp_path):
    app = create_app({"OPEN_GAME_CREATION": True, "HEXLEDGER_DB": str(tmp_path / "map.sqlite3"),
                      "MAIL_TRANSPORT": Outbox(), "MAIL": MailConfig(), "CATALOG": FOG})
    client = app.test_client()
    r = client.post("/games", json={"rules": "fogmap", "players": {"red": "r@x.example", "blue": "b@x.example"}})
    g, tokens = r.json["game_id"], r.json["tokens"]
    for seat in ("red", "blue"):
        client.post(f"/games/{g}/join", json={"seed_text": seat}, headers={"Authorization": f"Bearer {tokens[seat]}"})

    def act(seat: str, path: str, **body):
        r = client.post(f"/games/{g}/{path}", json=body, headers={"Authorization": f"Bearer {tokens[seat]}"})
        assert r.status_code == 201, r.json

    def picture(seat: str, tag: str | None = None):
        headers = {"Authorization": f"Bearer {tokens[seat]}", **({"If-None-Match": tag} if tag else {})}
        return client.get(f"/games/{g}/map.svg", headers=headers)

    return act, picture


def _units(svg: bytes) -> dict[str, str]:
    return {c.get("data-unit"): c.get("data-side") for c in ET.fromstring(svg).iter(f"{SVG}g")
            if c.get("class") == "counter"}


def test_the_map_is_not_sent_again_while_it_shows_the_same_to_the_seat(game):
    act, picture = game
    first = picture("red")
    tag = first.headers["ETag"]
    assert first.status_code == 200 and tag.startswith('W/"')
    act("red", "messages", text="good luck")  # the game moves on (table talk), the picture shows the same
    again = picture("red", tag)
    assert again.status_code == 304 and again.headers["ETag"] == tag and again.data == b""
    fresh = picture("red")
    assert fresh.status_code == 200 and fresh.data != first.data  # its title names the newer event
    act("red", "orders", order="move R1 0202")  # red's own move: red's picture changes
    moved = picture("red", tag)
    assert moved.status_code == 200 and moved.headers["ETag"] != tag
    assert picture("red", moved.headers["ETag"]).status_code == 304
    # the other side's hidden move leaves red's tag as it was, and red's map as it was
    act("red", "orders", order="end")
    act("red", "orders", order="end")
    red, blue = picture("red"), picture("blue")
    act("blue", "orders", order="move B3 0604")  # hidden from red
    after = picture("red", red.headers["ETag"])
    assert after.status_code == 304  # nothing red sees moved
    assert picture("blue", blue.headers["ETag"]).status_code == 200  # blue sees its own unit move
    shown = picture("red")
    assert shown.headers["ETag"] == red.headers["ETag"] and "blue" not in _units(shown.data).values()
