"""The play page on the real app (create_app, as `cli.py serve` runs it): a seat signs in by its play link or its
token, the browser keeps the play key in cookies for that game only, and the API takes the cookie as the seat's
credential only from this server's own pages; what the page asks of the API (every order naming a unit, the map
as the seat sees it) goes through the service as any client's request does (docs/playing-in-the-browser.md)."""
import re
import xml.etree.ElementTree as ET

import pytest

from app.mail.inbound import body_text
from app.web import PLAY_COOKIE
from app.web.replay import COOKIE as REPLAY_COOKIE
from tests.replay.test_served import PUBLIC, SECRET_HEX, Outbox, as_seat, counters, served_app, world  # noqa: F401

SAME_SITE = {"Sec-Fetch-Site": "same-origin"}


def cookies_of(response) -> dict[tuple[str, str], dict[str, str]]:
    """(name, path) -> the attributes of each cookie the response sets."""
    out = {}
    for header in response.headers.getlist("Set-Cookie"):
        name = header.split("=", 1)[0]
        attributes = {a.strip().split("=")[0].lower(): a.strip() for a in header.split(";")[1:]}
        out[(name, attributes["path"].split("=", 1)[1])] = attributes
    return out


def history(client, g, token) -> list[str]:
    return [e["text"] for e in client.get(f"/games/{g}/history?limit=1000", headers=as_seat(token)).json["events"]]


def test_the_play_link_signs_a_seat_in_for_its_game_only(world):  # noqa: F811
    app, client, made, outbox = world
    g, other, tok = made["one"]["game_id"], made["two"]["game_id"], made["one"]["tokens"]
    seats = app.extensions["hexledger_service"]().seats
    key = seats.play_key(g, "red")
    assert key != seats.replay_key(g, "red") and key != seats.play_key(g, "blue") and re.fullmatch("[0-9a-f]{32}", key)

    r = client.get(f"/play/{g}/?key={key}")
    # a page that moves on by itself (a Strict cookie does not ride a redirect that follows a webmail's click)
    assert r.status_code == 200 and r.headers.get("Location") is None
    assert f'<meta http-equiv="refresh" content="0; url=/play/{g}/">' in r.get_data(as_text=True)
    assert key not in r.get_data(as_text=True) and r.headers["Cache-Control"] == "no-store"
    set_ = cookies_of(r)
    # the play key for this game's page and API routes, the replay key for its viewer: no other path gets them
    assert set(set_) == {(PLAY_COOKIE, f"/play/{g}"), (PLAY_COOKIE, f"/games/{g}"), (REPLAY_COOKIE, f"/replay/{g}/")}
    for attributes in set_.values():
        assert attributes["samesite"] == "SameSite=Strict" and "httponly" in attributes and "secure" in attributes
        assert "expires" not in attributes and "max-age" not in attributes  # gone when the browser closes

    page = client.get(f"/play/{g}/")
    assert page.status_code == 200 and 'data-seat="red"' in page.get_data(as_text=True)
    assert client.get(f"/games/{g}/state").json["you"] == "red"  # the API takes the cookie
    assert client.get(f"/replay/{g}/frames.json").json["viewer"] == "red"  # and the viewer its replay key
    assert client.get(f"/games/{other}/state").status_code == 401  # no cookie on another game's paths

    # the token form: the token in the body, the same cookies, a 303 to the page
    fresh = app.test_client()
    r = fresh.post(f"/play/{g}/", data={"token": tok["blue"]})
    assert r.status_code == 303 and r.headers["Location"].endswith(f"/play/{g}/")
    assert cookies_of(r)[(PLAY_COOKIE, f"/games/{g}")]["path"] == f"Path=/games/{g}"
    assert fresh.get(f"/games/{g}/state").json["you"] == "blue"

    # signing out: the cookies go, and the page asks for the link or the token again
    r = fresh.post(f"/play/{g}/forget")
    assert r.status_code == 303
    page = fresh.get(f"/play/{g}/")
    assert page.status_code == 401 and 'name="token"' in page.get_data(as_text=True)


@pytest.mark.parametrize("how", ["wrong key", "replay key", "token in the link", "arbiter"])
def test_what_opens_no_play_page(world, how):  # noqa: F811
    app, client, made, _ = world
    g, tok = made["one"]["game_id"], made["one"]["tokens"]
    seats = app.extensions["hexledger_service"]().seats
    r = {"wrong key": lambda: client.get(f"/play/{g}/?key={'f' * 32}"),
         "replay key": lambda: client.get(f"/play/{g}/?key={seats.replay_key(g, 'red')}"),  # it views, never plays
         "token in the link": lambda: client.get(f"/play/{g}/?token={tok['red']}"),
         "arbiter": lambda: client.post(f"/play/{g}/", data={"token": tok["arbiter"]})}[how]()
    assert r.status_code in (400, 403) and "Set-Cookie" not in r.headers
    assert r.mimetype == "text/html" and '<p id="error-text">' in r.get_data(as_text=True)
    if how != "token in the link":
        assert 'name="token"' in r.get_data(as_text=True)  # the form to try the token


def test_an_order_by_the_play_cookie_comes_only_from_this_servers_pages(world):  # noqa: F811
    """The cookie is SameSite=Strict, so a browser sends it on no other site's request; and what it signs that may
    change something must also say it comes from this server's own page (Sec-Fetch-Site, else Origin)."""
    app, client, made, _ = world
    g, tok = made["one"]["game_id"], made["one"]["tokens"]
    seats = app.extensions["hexledger_service"]().seats
    client.get(f"/play/{g}/?key={seats.play_key(g, 'blue')}")  # blue's combat step: blue may end it
    head = client.get(f"/games/{g}/state").json["seq"]
    forged = [{"Sec-Fetch-Site": "cross-site"}, {"Sec-Fetch-Site": "same-site"}, {"Origin": "https://evil.example"},
              {}, {"Origin": "null"}]
    for headers in forged:
        for body in ({"json": {"order": "end"}}, {"data": "end", "content_type": "text/plain"}):
            r = client.post(f"/games/{g}/orders", headers=headers, **body)
            assert r.status_code == 403 and "this server's own pages" in r.json["message"], (headers, r.json)
        assert client.post(f"/games/{g}/undo", headers=headers).status_code == 403
        assert client.post(f"/games/{g}/disputes", json={"order_seq": 2, "reason": "x"}, headers=headers).status_code \
            == 403
    assert client.get(f"/games/{g}/state").json["seq"] == head  # nothing was written
    # from the page itself (the browser says so), or from the server's own address as Origin: the order goes
    r = client.post(f"/games/{g}/orders", json={"order": "end"}, headers=SAME_SITE)
    assert r.status_code == 201 and r.json["receipt"]["seq"] == r.json["seq"]
    assert "blue orders: end" in history(client, g, tok["blue"])
    for origin in ("http://localhost", PUBLIC.rstrip("/")):  # read, and refused by the rules: red's turn now
        r = client.post(f"/games/{g}/orders", json={"order": "end"}, headers={"Origin": origin})
        assert r.status_code == 422 and r.json["case"], r.json


def test_the_orders_naming_a_unit_are_every_legal_order_that_names_it(world):  # noqa: F811
    app, client, made, _ = world
    g, tok = made["one"]["game_id"], made["one"]["tokens"]
    red = as_seat(tok["red"])
    assert client.post(f"/games/{g}/orders", json={"order": "end"}, headers=as_seat(tok["blue"])).status_code == 201
    whole = client.get(f"/games/{g}/actions", headers=red).json  # red's movement step
    assert whole["your_turn"] and {"subjects", "case", "syntax"} <= set(whole["actions"][0])
    moves = [o for o in whole["legal_orders"] if o["action"] == "move"]
    assert moves and all(o["subject"][0] == o["order"].split()[1] and o["at"] == [o["order"].split()[-1]]
                         for o in moves)
    unit = moves[0]["subject"][0]
    named = client.get(f"/games/{g}/actions?naming={unit}", headers=red).json["legal_orders"]
    assert named and all(unit in o["order"].split() for o in named)
    assert {o["order"] for o in moves if o["subject"] == [unit]} <= {o["order"] for o in named}
    assert len(named) >= len([o for o in moves if o["subject"] == [unit]])
    # each one is accepted as it is: the first is given, through the same route
    r = client.post(f"/games/{g}/orders", json={"order": named[0]["order"]}, headers=red)
    assert r.status_code == 201
    assert client.get(f"/games/{g}/actions?naming=nobody", headers=red).json["legal_orders"] == []
    assert client.get(f"/games/{g}/actions?naming=", headers=red).status_code == 422
    # not your turn: nothing, whatever is named
    assert client.get(f"/games/{g}/actions?naming={unit}", headers=as_seat(tok["blue"])).json["legal_orders"] == []


def test_the_map_now_is_the_seats_view_with_its_etag(world):  # noqa: F811
    app, client, made, _ = world
    g, tok = made["one"]["game_id"], made["one"]["tokens"]
    for seat in ("red", "blue"):
        r = client.get(f"/games/{g}/map.svg", headers=as_seat(tok[seat]))
        assert r.status_code == 200 and r.mimetype == "image/svg+xml" and r.headers["ETag"]
        view = client.get(f"/games/{g}/state", headers=as_seat(tok[seat])).json["view"]
        shown = {u["id"]: u["side"] for u in view["units"] if u.get("hex")}
        assert counters(r.data) == shown  # fog exactly as the seat's view
        again = client.get(f"/games/{g}/map.svg", headers={**as_seat(tok[seat]), "If-None-Match": r.headers["ETag"]})
        assert again.status_code == 304 and again.data == b""
    drawn = ET.fromstring(client.get(f"/games/{g}/map.svg", headers=as_seat(tok["red"])).data)
    assert not [c for c in drawn.iter() if c.get("data-hex") == SECRET_HEX and c.get("data-unit")]
    # an order changes it: the old ETag no longer matches
    etag = client.get(f"/games/{g}/map.svg", headers=as_seat(tok["blue"])).headers["ETag"]
    assert client.post(f"/games/{g}/orders", json={"order": "end"}, headers=as_seat(tok["blue"])).status_code == 201
    assert client.get(f"/games/{g}/map.svg", headers={**as_seat(tok["red"]), "If-None-Match": etag}).status_code == 200


def test_game_emails_carry_the_play_link_when_the_server_knows_its_address(world, tmp_path):  # noqa: F811
    app, client, made, outbox = world
    g = made["one"]["game_id"]
    seats = app.extensions["hexledger_service"]().seats
    link = f"{PUBLIC}play/{g}/?key={seats.play_key(g, 'red')}"
    red_mail = [body_text(m) for m in outbox.sent if "red-one@x.example" in m["To"]]
    assert link in red_mail[0]  # the invitation
    assert any("Play in your browser" in text and link in text for text in red_mail[1:])  # a turn email
    assert not any(seats.play_key(g, "red") in body_text(m) for m in outbox.sent if "red-one" not in m["To"])
    assert not any("/play/" in body_text(m) for m in outbox.sent if "arb-one" in m["To"])  # the arbiter plays none
    # no public address: no link (the player opens the page and types the token)
    quiet = Outbox()
    plain = served_app(str(tmp_path / "plain.sqlite3"), quiet, public_url=None).test_client()
    plain.post("/games", json={"rules": "skirmish", "players": {"red": "r@x.example", "blue": "b@x.example"}})
    assert quiet.sent and not any("/play/" in body_text(m) for m in quiet.sent)
