"""Every response of the web app carries a strict Content-Security-Policy and the standard headers, and the
replay cookie is scoped to its game (issue 12, "no script from game data")."""
import re

from app.web.replay import COOKIE
from tests.replay.test_served import as_seat, served_app, world  # noqa: F401  (the fixture)

STANDARD = {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY",
            "Cross-Origin-Opener-Policy": "same-origin"}


def policy(response) -> dict[str, str]:
    """The Content-Security-Policy as directive -> sources."""
    header = response.headers.get("Content-Security-Policy", "")
    return {d.split(" ", 1)[0]: (d.split(" ", 1) + [""])[1] for d in (p.strip() for p in header.split(";")) if d}


def test_every_kind_of_response_has_the_policy_and_the_standard_headers(world):  # noqa: F811
    app, client, made, _ = world
    g, tok = made["one"]["game_id"], made["one"]["tokens"]
    responses = {
        "API JSON": client.get(f"/games/{g}/state", headers=as_seat(tok["red"])),
        "API error": client.get(f"/games/{g}/state"),
        "OpenAPI": client.get("/openapi.json"),
        "docs page": client.get("/docs"),
        "replay page": client.get(f"/replay/{g}/", headers=as_seat(tok["red"])),
        "replay error page": client.get(f"/replay/{g}/"),
        "frames": client.get(f"/replay/{g}/frames.json", headers=as_seat(tok["red"])),
        "map": client.get(f"/replay/{g}/map/1.svg", headers=as_seat(tok["red"])),
        "chart": client.get(f"/replay/{g}/charts/losses.svg", headers=as_seat(tok["red"])),
        "play page": client.get(f"/play/{g}/", headers=as_seat(tok["red"])),
        "play error page": client.get(f"/play/{g}/"),
        "map now": client.get(f"/games/{g}/map.svg", headers=as_seat(tok["red"])),
        "play script": client.get("/play/static/play.js"),
        "map script": client.get("/replay/static/map.js"),
        "script": client.get("/replay/static/replay.js"),
        "stylesheet": client.get("/static/docs.css"),
        "not found": client.get("/nowhere"),
    }
    for what, r in responses.items():
        assert r.status_code < 500, what
        for name, value in STANDARD.items():
            assert r.headers.get(name) == value, (what, name)
        csp = policy(r)
        assert csp.get("frame-ancestors") == "'none'", what
        assert "unsafe-inline" not in str(csp) and "unsafe-eval" not in str(csp), what
        if r.mimetype == "text/html":  # a page runs this server's script files only, and posts only here
            assert csp["default-src"] == "'none'" and csp["script-src"] == "'self'", what
            assert csp["style-src"] == "'self'" and csp["form-action"] == "'self'", what
            assert csp["base-uri"] == "'none'", what
            assert not re.search(r"<script>|<style|\son[a-z]+=", r.get_data(as_text=True)), what  # nothing inline
        else:  # data and files: nothing runs, even an SVG opened on its own
            assert csp["default-src"] == "'none'" and "sandbox" in csp, what


def test_the_replay_cookie_is_httponly_strict_secure_and_for_one_game(world, tmp_path):  # noqa: F811
    app, client, made, _ = world
    g, other = made["one"]["game_id"], made["two"]["game_id"]
    key = app.extensions["hexledger_service"]().seats.replay_key(g, "red")
    for r in (client.get(f"/replay/{g}/?key={key}"),
              client.post(f"/replay/{g}/", data={"token": made["one"]["tokens"]["blue"]})):
        cookie = r.headers["Set-Cookie"]
        attributes = {a.strip().split("=")[0].lower(): a.strip() for a in cookie.split(";")[1:]}
        assert attributes["path"] == f"Path=/replay/{g}/"  # game two's pages and the API never receive it
        assert attributes["samesite"] == "SameSite=Strict"
        assert "httponly" in attributes and "secure" in attributes  # the public address is https
        assert "expires" not in attributes and "max-age" not in attributes  # gone when the browser closes
        assert r.headers["Cache-Control"] == "no-store"
    # the link's page moves on by itself (no script): a Strict cookie does not ride a cross-site redirect
    page = client.get(f"/replay/{g}/?key={key}")
    assert page.status_code == 200 and page.headers.get("Location") is None
    assert f'<meta http-equiv="refresh" content="0; url=/replay/{g}/">' in page.get_data(as_text=True)
    assert key not in page.get_data(as_text=True)
    # the key's cookie opens its own game only
    client.set_cookie(COOKIE, key, path=f"/replay/{other}/")
    assert client.get(f"/replay/{other}/frames.json").status_code == 403
    # served over plain http with no https address: not Secure (a browser would drop it), the rest unchanged
    plain = served_app(str(tmp_path / "plain.sqlite3"), public_url=None).test_client()
    r = plain.post("/games", json={"rules": "skirmish", "players": {"red": "r@x.example", "blue": "b@x.example"}})
    token = r.json["tokens"]["red"]
    cookie = plain.post(f"/replay/{r.json['game_id']}/", data={"token": token}).headers["Set-Cookie"]
    assert "SameSite=Strict" in cookie and "HttpOnly" in cookie and "Secure" not in cookie


def test_a_header_a_route_set_itself_is_kept_once_whatever_its_case():
    """The standard headers fill in only what a response has not set: one a route sets (in any case) is its own,
    never doubled or replaced; the others follow it."""
    from flask import Flask, Response

    from app.web import headers

    app = Flask(__name__)
    headers.install(app)
    app.add_url_rule("/own", "own", lambda: Response("{}", content_type="application/json",
                                                     headers={"x-frame-options": "SAMEORIGIN",
                                                              "Content-Security-Policy": "default-src 'self'"}))
    r = app.test_client().get("/own")
    assert r.headers.getlist("X-Frame-Options") == ["SAMEORIGIN"]
    assert r.headers.getlist("Content-Security-Policy") == ["default-src 'self'"]
    assert [r.headers.get(name) for name in STANDARD if name != "X-Frame-Options"] == \
        [value for name, value in STANDARD.items() if name != "X-Frame-Options"]
    names = [name.lower() for name, _ in r.headers.items()]
    assert len(names) == len(set(names))
