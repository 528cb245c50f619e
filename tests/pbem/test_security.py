"""Fog of war and access: red's token, on every endpoint and in every email red gets, never shows what blue hides,
never acts for blue, and no token does anything in another game.

Skirmish hides nothing, so this registers a test-only rule set that does: each side sees only its own units,
the other side's orders are left out of its history and the other side's moves are redacted."""
import dataclasses
import json
import logging
import re
import xml.etree.ElementTree as ET

import pytest

from app.events.core import OrderGiven
from app.mail.inbound import body_text
from app.mail.transport import MailConfig
from app.rules.catalog import installed
from app.rules.skirmish import GAME as SKIRMISH
from app.rules.skirmish import view as skirmish_view
from app.rules.skirmish.events import UnitMoved
from app.web import create_app
from tests.outbox import Outbox
from tests.pbem.conftest import SVG

SECRET_HEX = "0604"  # where blue's B3 goes; red must never learn it before the game ends
# what hides nothing but may hold any four digits: hashes, digests and salts (hex), receipt keys and signatures
DIGESTS = re.compile(r"[0-9a-f]{32,}|ed25519:[\w-]{43}|(?:(?<=sig: )|(?<=\"sig\":\")|(?<=\"sig\": \"))[\w-]{86}")


SECRET = re.compile(rf"(?<![0-9A-Za-z]){SECRET_HEX}(?![0-9A-Za-z])")  # the hex as a word, not inside a random id


def told(text: str) -> str:
    """`text` without its digests, salts and signatures, where SECRET_HEX could appear by chance: that they
    reveal nothing of a hidden payload is tests/receipts' and tests/fogcheck.py's to show."""
    return DIGESTS.sub("", text)


def leaks(text: str) -> bool:
    """Does `text` name the hidden hex (as a hex is written: a word of its own)? Random ids, seed texts and keys
    (a game id g-xx0604xx, a token_urlsafe seed text) hold the four digits by chance, one run in a few thousand."""
    return bool(SECRET.search(told(text)))


def _fog_view(state, side):
    view = skirmish_view.view(state, side)
    if side is not None:
        view["units"] = [u for u in view["units"] if u["side"] == side]
    return view


def _fog_visible(event, side):
    if side is None:
        return True
    if isinstance(event, OrderGiven):
        return event.side == side
    if isinstance(event, UnitMoved):
        owner = "red" if event.unit.startswith("R") else "blue"
        return True if owner == side else f"a {owner} unit moves"
    return True


FOG_RULES = dataclasses.replace(SKIRMISH, name="fogtest", title="Skirmish with hidden units (test only)",
                                view=_fog_view, extras={**SKIRMISH.extras, "visible": _fog_visible})
CATALOG = installed(FOG_RULES)  # the rule sets installed here, and the one with hidden units


@pytest.fixture
def world(tmp_path):
    outbox = Outbox()
    app = create_app({"OPEN_GAME_CREATION": True,  # creating games is not what this tests
                      "HEXLEDGER_DB": str(tmp_path / "sec.sqlite3"), "MAIL_TRANSPORT": outbox,
                      "MAIL": MailConfig(orders_address="orders@pbem.example"),
                      "HEXLEDGER_RATE_LIMIT": "100000 per minute",  # the walks send every route as every seat
                      "CATALOG": CATALOG})
    client = app.test_client()
    games = {}
    for name in ("one", "two"):
        r = client.post("/games", json={"rules": "fogtest", "players": {"red": f"red-{name}@x.example",
                                                                          "blue": f"blue-{name}@x.example"},
                                        "arbiter": f"arb-{name}@x.example"})
        assert r.status_code == 201, r.json
        games[name] = r.json
    g, tok = games["one"]["game_id"], games["one"]["tokens"]

    def act(seat, order):
        r = client.post(f"/games/{g}/orders", data=order, content_type="text/plain",
                        headers={"Authorization": f"Bearer {tok[seat]}"})
        assert r.status_code == 201, r.json

    for seat in ("red", "blue"):
        assert client.post(f"/games/{g}/join", json={"seed_text": seat},
                           headers={"Authorization": f"Bearer {tok[seat]}"}).status_code == 201
    act("red", "end")
    act("red", "end")
    act("blue", f"move B3 {SECRET_HEX}")
    act("blue", "end")
    act("blue", "end")
    return app, client, games, outbox


def calls(game_id: str, seq: int = 1) -> dict[str, tuple[str, str, dict | None]]:
    """One request for every route of the app (endpoint name -> method, path, JSON body); `seq`: the event after
    which the replay draws the map."""
    g = game_id
    return {
        "games.list_rules": ("GET", "/rules", None),
        "games.list_games": ("GET", "/games", None),
        "games.create_game": ("POST", "/games", {"rules": "fogtest", "players": {"red": "a@x.example",
                                                                                 "blue": "b@x.example"}}),
        "games.join": ("POST", f"/games/{g}/join", {"seed_text": "again"}),
        "games.summary": ("GET", f"/games/{g}", None),
        "games.state": ("GET", f"/games/{g}/state", None),
        "games.actions": ("GET", f"/games/{g}/actions", None),
        "games.map_now": ("GET", f"/games/{g}/map.svg", None),
        "games.submit": ("POST", f"/games/{g}/orders", {"order": "move B3 0504"}),
        "games.game_history": ("GET", f"/games/{g}/history?limit=1000", None),
        "games.say": ("POST", f"/games/{g}/messages", {"text": "good game"}),
        "games.preview": ("POST", f"/games/{g}/preview", {"order": "attack 0502 with R1"}),
        "games.fork": ("POST", f"/games/{g}/fork", {"at": 12}),
        "games.open_board": ("POST", f"/games/{g}/boards", {"at": 12}),
        "games.board_order": ("POST", f"/games/{g}/board/orders", {"side": "red", "order": "end", "dice": [6]}),
        "games.board_edit": ("POST", f"/games/{g}/board/edit", {"unit": "B3", "changes": {"hex": "0101"}}),
        "games.board_play": ("POST", f"/games/{g}/board/play", {"side": "blue", "policy": "greedy"}),
        "games.export": ("GET", f"/games/{g}/export", None),
        "games.verify": ("GET", f"/games/{g}/verify", None),
        "games.chain": ("GET", f"/games/{g}/chain", None),
        "games.receipt_keys": ("GET", "/.well-known/hexledger-receipts", None),
        "games.undo": ("POST", f"/games/{g}/undo", None),
        "games.standing_orders": ("GET", f"/games/{g}/standing", None),
        "games.clock": ("GET", f"/games/{g}/clock", None),
        "games.vacation": ("POST", f"/games/{g}/vacation", {"days": 2}),
        "games.draw": ("POST", f"/games/{g}/draw", {"action": "offer"}),
        # red resigning would end the game, and an ended game is open to everyone: the route is walked with a game
        # id red's token opens no seat in (its answer to a seat holds only the event number it wrote)
        "games.resign": ("POST", f"/games/{g}0/resign", None),
        "games.set_standing_orders": ("PUT", f"/games/{g}/standing", {"orders": {"losses": ["weakest"]}}),
        "games.disputes": ("GET", f"/games/{g}/disputes", None),
        "games.raise_dispute": ("POST", f"/games/{g}/disputes", {"order_seq": 9, "reason": "why?"}),
        "games.answer_dispute": ("POST", f"/games/{g}/disputes/1/answer", {"accept": True}),
        "docs": ("GET", "/docs", None),
        "docs_asset": ("GET", "/docs/swagger-ui.css", None),
        "api-docs.openapi_json": ("GET", "/openapi.json", None),
        "replay.page": ("GET", f"/replay/{g}/", None),
        "replay.static": ("GET", "/replay/static/replay.js", None),
        "replay_data.frames": ("GET", f"/replay/{g}/frames.json?views=1", None),
        "replay_data.map_svg": ("GET", f"/replay/{g}/map/{seq}.svg", None),
        "replay_data.analysis_json": ("GET", f"/replay/{g}/analysis.json", None),
        "replay_data.chart_svg": ("GET", f"/replay/{g}/charts/losses.svg", None),
        "replay_data.chances_json": ("GET", f"/replay/{g}/chances.json", None),
        "replay_data.chances_cancel": ("DELETE", f"/replay/{g}/chances.json", None),
        "replay_data.chances_svg": ("GET", f"/replay/{g}/chances.svg", None),
        "replay_data.open_board": ("POST", f"/replay/{g}/board.json", {"at": 12}),
        "replay_data.board_order": ("POST", f"/replay/{g}/board/order.json", {"side": "blue", "order": "end"}),
        "replay_data.board_play": ("POST", f"/replay/{g}/board/play.json", {"side": "blue"}),
        "play.page": ("GET", f"/play/{g}/", None),
        "play.static": ("GET", "/play/static/play.js", None),
        "play.forget": ("POST", f"/play/{g}/forget", None),
        "players.page": ("GET", "/players/", None),
        "players.static": ("GET", "/players/static/players.css", None),
        "players.sign_in_link": ("POST", "/players/sign-in-link", None),
        "players.sign_in_button": ("GET", "/players/sign-in?key=not-a-code", None),
        "players.sign_in": ("POST", "/players/sign-in", None),
        "players.sign_out": ("POST", "/players/sign-out", None),
        "players.notify": ("POST", "/players/notify", None),
    }


def blue_counters(svg: str) -> list[str]:
    return [c.get("data-unit") for c in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}g")
            if c.get("class") == "counter" and c.get("data-side") == "blue"]


def error_message(r) -> str:
    """Errors are JSON {"error", "message"}; the replay page's, the play page's and the player's page's are a page
    that says what went wrong."""
    if r.request.path.startswith(("/replay/", "/play/", "/players/")) and r.mimetype == "text/html":
        return re.search(r'<p id="error-text">(.*?)</p>', r.get_data(as_text=True), re.S).group(1).strip()
    assert r.is_json, r.data
    return r.json["message"]


def request(client, method, path, body, token):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return client.open(path, method=method, json=body, headers=headers)


def test_every_route_is_walked(world):
    app, *_ = world
    routes = {r.endpoint for r in app.url_map.iter_rules() if r.endpoint != "static"}
    assert routes == set(calls("g"))


def test_red_sees_nothing_blue_hides_on_any_endpoint_or_in_any_email(world):
    app, client, games, outbox = world
    g, tok = games["one"]["game_id"], games["one"]["tokens"]
    head = request(client, "GET", f"/games/{g}/state", None, tok["blue"]).json["seq"]  # after blue's move
    seen = []
    for endpoint, (method, path, body) in calls(g, head).items():
        r = request(client, method, path, body, tok["red"])
        assert r.status_code < 500, (endpoint, r.data)
        seen.append((endpoint, r.get_data(as_text=True)))
        if endpoint == "games.state":
            assert {u["side"] for u in r.json["view"]["units"]} == {"red"}
        if endpoint == "games.export":
            assert r.headers["X-Hexledger-Export"] == "filtered"
        if endpoint.startswith("replay_data.chances"):  # a running game's chances: its arbiter's alone
            assert r.status_code == 403, (endpoint, r.data)
        elif endpoint.startswith("replay_data.") and "board" in endpoint:  # no board of a running game for red
            assert r.status_code in (400, 403), (endpoint, r.data)
        elif endpoint.startswith("replay_data.") or endpoint == "replay.page":
            assert r.status_code == 200, (endpoint, r.data)
        if endpoint == "replay_data.frames":
            assert r.json["viewer"] == "red" and {u["side"] for u in r.json["frames"][-1]["view"]["units"]} == {"red"}
    for endpoint, text in seen:
        if endpoint in ("replay_data.map_svg", "games.map_now"):  # it names every hex: it must draw no blue unit
            assert blue_counters(text) == [], f"{endpoint} draws blue's hidden units for red"
            continue
        assert not leaks(text), f"{endpoint} leaks blue's hidden unit: {text[:400]}"
    red_mail = [m for m in outbox.sent if "red-one@x.example" in m["To"]]
    assert len(red_mail) >= 2  # the invitation and the turn emails
    pictures = 0
    for m in red_mail:
        assert not leaks(body_text(m)), m["Subject"]
        for part in m.iter_attachments():  # the map picture: it draws every hex, and only the counters red sees
            assert part.get_content_type() == "image/svg+xml", m["Subject"]
            svg = ET.fromstring(part.get_content())
            drawn = [g for g in svg.iter(f"{SVG}g") if g.get("class") == "counter"]
            assert drawn and {g.get("data-side") for g in drawn} == {"red"}, m["Subject"]
            assert not [g for g in drawn if g.get("data-hex") == SECRET_HEX or g.get("data-unit") == "B3"]
            assert all(t not in part.get_content().decode() for t in tok.values())
            pictures += 1
    assert pictures >= 1
    assert "a blue unit moves" in body_text(red_mail[-1])
    # the canary is real: blue and the arbiter do see it
    for seat in ("blue", "arbiter"):
        text = request(client, "GET", f"/games/{g}/history?limit=1000", None, tok[seat]).get_data(as_text=True)
        assert leaks(text)  # as the checks above would find it


def test_red_cannot_act_for_blue(world):
    app, client, games, outbox = world
    g, tok = games["one"]["game_id"], games["one"]["tokens"]
    head = json.loads(request(client, "GET", f"/games/{g}/state", None, tok["red"]).data)["seq"]
    r = request(client, "POST", f"/games/{g}/orders", {"order": "move B1 0602"}, tok["red"])
    assert r.status_code == 422 and r.json["case"] == "SK 3.3"
    r = request(client, "POST", f"/games/{g}/orders", {"order": "move R1 0202", "expected_seq": head - 1},
                tok["red"])
    assert r.status_code == 409 and r.json["error"] == "Conflict"
    # blue's turn is over; red cannot take back blue's orders, nor rule on disputes
    blue_order = max(e["seq"] for e in json.loads(request(client, "GET", f"/games/{g}/history?limit=1000", None,
                                                           tok["blue"]).data)["events"]
                     if e["type"] == "core.OrderGiven")
    r = request(client, "POST", f"/games/{g}/disputes", {"order_seq": blue_order, "reason": "test"}, tok["red"])
    assert r.status_code == 201
    r = request(client, "POST", f"/games/{g}/disputes/{r.json['id']}/answer", {"accept": True}, tok["red"])
    assert r.status_code == 403
    # the dispute itself is an event (head + 1); the refused answer wrote nothing, so nothing was retracted
    assert request(client, "GET", f"/games/{g}/state", None, tok["blue"]).json["seq"] == head + 1
    last = request(client, "GET", f"/games/{g}/history?from={head + 1}", None, tok["blue"]).json["events"]
    assert [e["type"] for e in last] == ["core.DisputeRaised"]


def test_no_token_acts_in_another_game(world):
    app, client, games, outbox = world
    other = games["two"]["game_id"]

    def of_other(path):
        return f"/games/{other}" in path or f"/replay/{other}/" in path or f"/play/{other}/" in path

    others = {e: c for e, c in calls(other).items() if e != "play.forget"}  # signing out acts on no game, only
    # on the browser's own cookies
    for seat, token in games["one"]["tokens"].items():
        for endpoint, (method, path, body) in others.items():
            if not of_other(path):
                continue
            r = request(client, method, path, body, token)
            assert r.status_code == 403, (seat, endpoint, r.status_code, r.data)
    for method, path, body in others.values():
        if of_other(path):  # game two is in progress: its replay is closed to spectators, as the API is
            assert request(client, method, path, body, None).status_code == 401, path
            assert request(client, method, path, body, "f" * 32).status_code == 403, path
    # nor does a replay key of game one open game two
    key = app.extensions["hexledger_service"]().seats.replay_key(games["one"]["game_id"], "red")
    assert client.get(f"/replay/{other}/?key={key}").status_code == 403
    client.set_cookie("hexledger_replay", key, path=f"/replay/{other}/")
    assert client.get(f"/replay/{other}/frames.json").status_code == 403
    # nor a play key of game one, by link or as the play page's cookie
    key = app.extensions["hexledger_service"]().seats.play_key(games["one"]["game_id"], "red")
    assert client.get(f"/play/{other}/?key={key}").status_code == 403
    for path in (f"/play/{other}", f"/games/{other}"):
        client.set_cookie("hexledger_play", key, path=path)
    assert client.get(f"/play/{other}/").status_code == 403
    assert client.get(f"/games/{other}/state").status_code == 403
    r = client.post(f"/games/{other}/orders", json={"order": "end"}, headers={"Sec-Fetch-Site": "same-origin"})
    assert r.status_code == 403


def test_no_token_or_hidden_fact_reaches_the_logs_or_an_error(world, caplog):
    """The whole walk, as every seat, with a wrong token and with none, while every logger records at DEBUG."""
    app, client, games, outbox = world
    g, tok = games["one"]["game_id"], games["one"]["tokens"]
    secrets_ = [t for gm in games.values() for t in gm["tokens"].values()]
    service = app.extensions["hexledger_service"]()
    keys = [make(gm["game_id"], seat) for gm in games.values() for seat in gm["tokens"]
            for make in (service.seats.replay_key, service.seats.play_key)]
    wrong = "f" * 32
    errors = []
    with caplog.at_level(logging.DEBUG):
        for token in [tok["red"], wrong, None, tok["blue"]]:
            for endpoint, (method, path, body) in calls(g).items():
                r = request(client, method, path, body, token)
                if r.status_code >= 400:
                    errors.append((token, r.status_code, r.get_data(as_text=True)))
                    assert error_message(r), (endpoint, r.data)
        # the replay viewer's sign-ins: an email link's key, a token in the form, one in a URL (refused), the cookie
        key = service.seats.replay_key(g, "red")
        assert client.get(f"/replay/{g}/?key={key}").status_code == 200  # a page that moves on to the plain one
        assert client.get(f"/replay/{g}/frames.json").status_code == 200  # by the cookie
        assert client.post(f"/replay/{g}/", data={"token": tok["blue"]}).status_code == 303
        for r in (client.get(f"/replay/{g}/?key={wrong}"), client.post(f"/replay/{g}/", data={"token": wrong}),
                  client.get(f"/replay/{g}/?token={tok['red']}")):
            assert r.status_code in (400, 403)
            errors.append((None, r.status_code, r.get_data(as_text=True)))
        client.set_cookie("hexledger_replay", wrong, path=f"/replay/{g}/")
        r = client.get(f"/replay/{g}/frames.json")
        assert r.status_code == 403
        errors.append((None, r.status_code, r.get_data(as_text=True)))
        # the play page's: an email link's key, a token in the form, one in a URL (refused), the cookie
        assert client.get(f"/play/{g}/?key={service.seats.play_key(g, 'red')}").status_code == 200
        assert client.get(f"/play/{g}/").status_code == 200
        assert client.post(f"/play/{g}/", data={"token": tok["blue"]}).status_code == 303
        for r in (client.get(f"/play/{g}/?key={wrong}"), client.post(f"/play/{g}/", data={"token": wrong}),
                  client.get(f"/play/{g}/?token={tok['red']}")):
            assert r.status_code in (400, 403)
            errors.append((None, r.status_code, r.get_data(as_text=True)))
    text = caplog.text
    assert f"GET /games/{g}/state 200 seat={g}/red" in text  # the access log is there, and names the seat
    assert f"POST /games/{g}/orders 401 seat=-" in text
    assert f"GET /replay/{g}/frames.json 200 seat={g}/red" in text
    assert f"GET /replay/{g}/ 200 seat={g}/red" in text and f"POST /replay/{g}/ 303 seat={g}/blue" in text
    assert f"GET /play/{g}/ 200 seat={g}/red" in text and f"POST /play/{g}/ 303 seat={g}/blue" in text
    for secret in [*secrets_, *keys, wrong]:
        assert secret not in text
        assert all(secret not in body for _, _, body in errors)
    assert not leaks(text)  # not even blue's own requests put the position into a log
    assert not any(leaks(body) for token, _, body in errors if token != tok["blue"])
    assert {code for _, code, _ in errors} >= {401, 403, 422}
