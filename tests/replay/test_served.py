"""The replay viewer on the real server (create_app, as `cli.py serve` runs it), with the seats and tokens of
app/service/seats.py: a player sees their own side mid-game (by token, or by the replay key of an email link
exchanged for a cookie), a wrong credential is refused, a spectator sees a finished game whole."""
import re
import xml.etree.ElementTree as ET
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from app.mail.inbound import body_text
from app.mail.transport import MailConfig
from app.numbers import LARGEST
from app.web import create_app
from app.web.replay import COOKIE
from tests import outbox
from tests.replay.conftest import FOGGY

NS = {"s": "http://www.w3.org/2000/svg"}
SECRET_HEX = "0604"  # where blue's B3 goes: far from every red unit, so red must not see it mid-game


def names_secret_hex(text: str) -> bool:
    """Whether `text` names SECRET_HEX as a hex (a word of its own), not as four digits inside an event's hash."""
    return re.search(rf"(?<![0-9A-Za-z]){SECRET_HEX}(?![0-9A-Za-z])", text) is not None
PUBLIC = "https://hex.example/"


class Outbox(outbox.Outbox):

    def last_to(self, address: str) -> str:
        return body_text([m for m in self.sent if address in m["To"]][-1])


def counters(svg: bytes) -> dict[str, str]:
    """unit id -> side of every counter drawn."""
    return {c.get("data-unit"): c.get("data-side")
            for c in ET.fromstring(svg).iterfind(".//s:g[@class='counter']", NS)}


def served_app(db: str, outbox: Outbox | None = None, public_url: str | None = PUBLIC, catalog=None):
    return create_app({"OPEN_GAME_CREATION": True, "HEXLEDGER_DB": db, "MAIL_TRANSPORT": outbox or Outbox(),
                       "MAIL": MailConfig(orders_address="orders@hex.example", public_url=public_url),
                       "CATALOG": catalog})


@pytest.fixture
def world(tmp_path):
    """A skirmish game with fog (tests/replay/conftest.py: a side sees only enemy units next to its own) through
    the API, mid-game: blue's B3 has moved to SECRET_HEX. A second game, for tokens that open nothing there."""
    outbox = Outbox()
    app = served_app(str(tmp_path / "served.sqlite3"), outbox, catalog=FOGGY)
    client = app.test_client()
    made = {}
    for name in ("one", "two"):
        r = client.post("/games", json={"rules": "skirmish", "arbiter": f"arb-{name}@x.example",
                                        "players": {"red": f"red-{name}@x.example", "blue": f"blue-{name}@x.example"}})
        assert r.status_code == 201, r.json
        made[name] = r.json
    g, tok = made["one"]["game_id"], made["one"]["tokens"]
    for seat in ("red", "blue"):
        assert client.post(f"/games/{g}/join", json={"seed_text": seat},
                           headers={"Authorization": f"Bearer {tok[seat]}"}).status_code == 201
    for seat, order in [("red", "end"), ("red", "end"), ("blue", f"move B3 {SECRET_HEX}"), ("blue", "end")]:
        r = client.post(f"/games/{g}/orders", data=order, content_type="text/plain",
                        headers={"Authorization": f"Bearer {tok[seat]}"})
        assert r.status_code == 201, r.json
    return app, client, made, outbox


def as_seat(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def test_the_real_app_serves_the_viewer(tmp_path):
    app = served_app(str(tmp_path / "routes.sqlite3"))
    rules = {r.rule: r.endpoint for r in app.url_map.iter_rules()}
    assert rules["/replay/<game_id>/"] == "replay.page"
    for path in ("frames.json", f"map/<int(max={LARGEST}):seq>.svg", "analysis.json", "charts/<name>.svg"):
        assert f"/replay/<game_id>/{path}" in rules
    assert app.test_client().get("/replay/static/replay.js").status_code == 200


def test_cli_serve_serves_the_viewer(tmp_path, monkeypatch):
    """`python cli.py serve` hands waitress the app of create_app, viewer included."""
    from app.web import server
    from cli import cli

    served = {}
    monkeypatch.setattr(server, "make_server", lambda app, host, port, limits: SimpleNamespace(
        run=lambda: served.update(app=app, port=port, limits=limits)))
    result = CliRunner().invoke(cli, ["--db", str(tmp_path / "serve.sqlite3"), "serve", "--port", "8123"])
    assert result.exit_code == 0, result.output
    assert "replay.page" in {r.endpoint for r in served["app"].url_map.iter_rules()} and served["port"] == 8123
    assert "/replay/GAME/" in result.output


def test_a_player_token_shows_only_their_side_mid_game(world):
    app, client, made, _ = world
    g, tok = made["one"]["game_id"], made["one"]["tokens"]
    red = client.get(f"/replay/{g}/frames.json?views=1", headers=as_seat(tok["red"]))
    assert red.status_code == 200 and red.json["viewer"] == "red" and not red.json["over"]
    text = red.get_data(as_text=True)
    assert not names_secret_hex(text)  # blue's move: neither its order, nor the unit, nor the move's text
    assert {u["id"] for u in red.json["frames"][-1]["view"]["units"]} == {"R1", "R2", "R3"}
    assert any(f["hidden"] for f in red.json["frames"])
    last = red.json["frames"][-1]["seq"]
    svg = client.get(f"/replay/{g}/map/{last}.svg", headers=as_seat(tok["red"]))
    assert svg.status_code == 200 and set(counters(svg.data).values()) == {"red"}
    analysis = client.get(f"/replay/{g}/analysis.json", headers=as_seat(tok["red"]))
    assert analysis.status_code == 200 and not names_secret_hex(analysis.get_data(as_text=True))
    page = client.get(f"/replay/{g}/", headers=as_seat(tok["red"]))
    assert page.status_code == 200 and b'<div id="viewer">as red sees it</div>' in page.data
    # the canary is real: blue sees B3 there, the arbiter sees everything
    blue = client.get(f"/replay/{g}/frames.json?views=1", headers=as_seat(tok["blue"])).json
    assert {u["hex"] for u in blue["frames"][-1]["view"]["units"] if u["id"] == "B3"} == {SECRET_HEX}
    referee = client.get(f"/replay/{g}/map/{last}.svg", headers=as_seat(tok["arbiter"]))
    assert set(counters(referee.data)) == {"R1", "R2", "R3", "B1", "B2", "B3"}


def test_the_replay_page_sees_as_the_services_one_rule_says(world):
    """Who sees everything is the service's one rule (`sees_all`), the same on every channel: the replay page of
    each seat is the whole game exactly when that seat's export is (mid-game: the arbiter only)."""
    _, client, made, _ = world
    g, tok = made["one"]["game_id"], made["one"]["tokens"]
    seen = {}
    for seat in ("red", "blue", "arbiter"):
        page = client.get(f"/replay/{g}/", headers=as_seat(tok[seat]))
        export = client.get(f"/games/{g}/export", headers=as_seat(tok[seat]))
        assert page.status_code == 200 and export.status_code == 200
        seen[seat] = b"(everything)</div>" in page.data
        assert seen[seat] == (export.headers["X-Hexledger-Export"] == "full"), seat
    assert seen == {"red": False, "blue": False, "arbiter": True}


def test_wrong_or_missing_credentials_are_refused(world):
    app, client, made, _ = world
    g, other = made["one"]["game_id"], made["two"]["game_id"]
    red_two = made["two"]["tokens"]["red"]
    for path in (f"/replay/{g}/frames.json", f"/replay/{g}/map/1.svg", f"/replay/{g}/analysis.json",
                 f"/replay/{g}/charts/luck.svg"):
        assert client.get(path).status_code == 401  # a spectator mid-game: nothing (the API refuses them too)
        for token in ("f" * 32, red_two):  # a made-up token, and a real one of another game
            r = client.get(path, headers=as_seat(token))
            assert r.status_code == 403 and r.json["error"] == "AccessDenied", (path, r.data)
    page = client.get(f"/replay/{g}/")
    assert page.status_code == 401 and page.mimetype == "text/html" and b'name="token"' in page.data
    assert client.get(f"/replay/{g}/", headers=as_seat("f" * 32)).status_code == 403
    key_one = app.extensions["hexledger_service"]().seats.replay_key(g, "red")
    client.set_cookie(COOKIE, key_one, path=f"/replay/{other}/")  # game one's key, offered to game two
    assert client.get(f"/replay/{other}/frames.json").status_code == 403
    assert client.get(f"/replay/{other}/?key={key_one}").status_code == 403
    # no such game: the same answers as a game in progress without a seat (issue 25)
    r = client.get("/replay/g-00000000/frames.json", headers=as_seat(red_two))
    known = client.get(f"/replay/{g}/frames.json", headers=as_seat(red_two)).json["message"]
    assert r.status_code == 403 and r.json["message"] == known.replace(g, "g-00000000")
    r = client.get("/replay/g-00000000/")
    assert r.status_code == 401 and b'name="token"' in r.data


def test_an_email_link_key_becomes_an_httponly_cookie_for_this_game_only(world):
    app, client, made, outbox = world
    g = made["one"]["game_id"]
    mail = outbox.last_to("red-one@x.example")  # red's turn email carries red's link (the invitation did too)
    assert "Your turn" in mail and made["one"]["tokens"]["red"] not in mail
    link = next(line.strip() for line in mail.splitlines() if line.strip().startswith(f"{PUBLIC}replay/"))
    assert link.startswith(f"{PUBLIC}replay/{g}/?key=")
    key = link.rsplit("=", 1)[1]
    r = client.get(link.removeprefix(PUBLIC.rstrip("/")))
    # the key leaves the address: a page that moves on to the plain one by itself (a Strict cookie would not
    # ride a redirect that follows a click in a webmail's site)
    assert r.status_code == 200 and f'content="0; url=/replay/{g}/"' in r.get_data(as_text=True)
    cookie = r.headers["Set-Cookie"]
    assert cookie.startswith(f"{COOKIE}={key};") and "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert f"Path=/replay/{g}/" in cookie and "Secure" in cookie  # the public address is https
    assert r.headers["Cache-Control"] == "no-store"
    frames = client.get(f"/replay/{g}/frames.json?views=1")  # the cookie, sent by the client
    assert frames.status_code == 200 and frames.json["viewer"] == "red"
    assert not names_secret_hex(frames.get_data(as_text=True))
    assert client.get(f"/replay/{g}/").status_code == 200
    # the key only views: the API does not take it
    assert client.get(f"/games/{g}/state", headers=as_seat(key)).status_code == 403
    assert client.get(f"/replay/{g}/?key={'0' * 32}").status_code == 403


def test_a_token_typed_into_the_form_signs_in_and_never_travels_in_a_url(world):
    app, client, made, _ = world
    g, tok = made["one"]["game_id"], made["one"]["tokens"]
    r = client.get(f"/replay/{g}/?token={tok['blue']}")
    assert r.status_code == 400 and "Set-Cookie" not in r.headers and tok["blue"] not in r.get_data(as_text=True)
    r = client.post(f"/replay/{g}/", data={"token": "f" * 32})
    assert r.status_code == 403 and b'name="token"' in r.data and "Set-Cookie" not in r.headers
    r = client.post(f"/replay/{g}/", data={"token": tok["blue"]})
    assert r.status_code == 303 and r.headers["Location"] == f"/replay/{g}/"
    assert tok["blue"] not in r.headers["Set-Cookie"]  # the browser keeps the view-only key, not the token
    blue = client.get(f"/replay/{g}/frames.json?views=1").json
    assert blue["viewer"] == "blue"


def test_a_finished_game_replays_for_a_spectator(store, finished):
    client = served_app(store.path).test_client()
    data = client.get(f"/replay/{finished}/frames.json").json
    assert data["viewer"] == "all" and data["over"] and len(data["frames"]) == store.head(finished)[0]
    assert any(f["type"] == "core.SeedRevealed" for f in data["frames"])  # the dice can be checked by anyone now
    page = client.get(f"/replay/{finished}/")
    assert page.status_code == 200 and b'<div id="viewer">everything (the game is over)</div>' in page.data
    assert len(counters(client.get(f"/replay/{finished}/map/5.svg").data)) == 6
    assert client.get(f"/replay/{finished}/charts/luck.svg").status_code == 200
    assert client.get(f"/replay/{finished}/frames.json", headers=as_seat("f" * 32)).status_code == 403


def test_no_link_in_emails_without_a_public_address(tmp_path):
    outbox = Outbox()
    client = served_app(str(tmp_path / "nolink.sqlite3"), outbox, public_url=None).test_client()
    r = client.post("/games", json={"rules": "skirmish", "players": {"red": "r@x.example", "blue": "b@x.example"}})
    assert r.status_code == 201
    assert outbox.sent and all("/replay/" not in body_text(m) for m in outbox.sent)


def test_the_viewer_has_its_own_rate_limit(store, finished, tmp_path):
    """Stepping through a game fetches a map picture a step: the viewer counts against its own limit, so it
    neither eats the API's allowance nor is stopped by it."""
    app = create_app({"OPEN_GAME_CREATION": True,  # creating games is not what this tests
                      "HEXLEDGER_DB": store.path, "MAIL_TRANSPORT": Outbox(), "MAIL": MailConfig(),
                      "HEXLEDGER_RATE_LIMIT": "2 per minute", "HEXLEDGER_REPLAY_RATE_LIMIT": "5 per minute"})
    client = app.test_client()
    assert [client.get(f"/replay/{finished}/map/{seq}.svg").status_code for seq in range(1, 6)] == [200] * 5
    assert [client.get("/rules").status_code for _ in range(3)] == [200, 200, 429]
    r = client.get(f"/replay/{finished}/frames.json")
    assert r.status_code == 429 and r.json["error"] == "RateLimited"


def test_cli_serve_prints_one_access_log_line_per_request(tmp_path, monkeypatch):
    """`serve` logs each request on standard output: method, path, status, size; a replay key never."""
    from werkzeug.test import Client

    from app.web import server
    from cli import cli

    def serve(app):  # the server, answering three requests
        client = Client(app)
        client.get("/rules")
        client.get("/replay/g-00000000/?key=0123456789abcdef&step=3")
        client.get("/games/g-00000000")

    monkeypatch.setattr(server, "make_server", lambda app, host, port, limits: SimpleNamespace(
        run=lambda: serve(app)))
    result = CliRunner().invoke(cli, ["--db", str(tmp_path / "serve.sqlite3"), "serve"])
    assert result.exit_code == 0, result.output
    lines = [line for line in result.output.splitlines() if '" ' in line]
    assert len(lines) == 3
    assert '"GET /rules HTTP/1.1" 200 ' in lines[0]
    assert '"GET /replay/g-00000000/?key=-&step=3 HTTP/1.1" 403 ' in lines[1]  # as a wrong key (issue 25)
    assert "0123456789abcdef" not in result.output
    assert '"GET /games/g-00000000 HTTP/1.1" 401 ' in lines[2]
