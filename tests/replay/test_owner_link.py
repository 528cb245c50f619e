"""A game made on the command line opens in the browser for the database's owner (docs/replay.md, "The owner's
link"): `cli.py demo` prints its link, `cli.py open GAME [--as SIDE]` prints one for a view. The link's key
becomes the viewer's cookie like a player's replay key; it opens that game only, as that view, never the API, and
what it reads marks no seat as having seen the game."""
import json
import re
from urllib.parse import urlsplit

import pytest
from click.testing import CliRunner

from app.web.replay import COOKIE
from cli import cli
from tests.replay import test_browser
from tests.replay.conftest import FOGGY
from tests.replay.test_served import counters, served_app
from tests.replay.test_web import whose

server, chromium, page = test_browser.server, test_browser.chromium, test_browser.page  # the real server, Chromium


def run(db: str, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["--db", db, *args])
    return result.exit_code, result.output


def sign_in(client, url: str):
    """Follow the link as a browser does: the key for a cookie, then the page."""
    parts = urlsplit(url)
    r = client.get(f"{parts.path}?{parts.query}")
    assert r.status_code == 200 and COOKIE in r.headers.get("Set-Cookie", ""), r.data[:300]
    return client.get(parts.path)


@pytest.fixture
def demo(tmp_path):
    db = str(tmp_path / "cli.sqlite3")
    code, out = run(db, "demo", "--rules", "skirmish")
    assert code == 0, out
    game_id = re.search(r"demo game (g-[0-9a-f]+)", out).group(1)
    return db, game_id, out


def test_the_demo_prints_a_link_that_opens_its_game_in_the_viewer_as_the_referee(demo):
    db, game_id, out = demo
    url = re.search(r"open (http://127\.0\.0\.1:8080/replay/\S+)", out).group(1)
    client = served_app(db).test_client()
    form = client.get(f"/replay/{game_id}/")  # the game runs and has no seats: a token form, and what to do
    assert form.status_code == 401 and f"python cli.py open {game_id}".encode() in form.data
    page = sign_in(client, url)
    assert page.status_code == 200 and whose(page.data) == "the referee's view (everything)"
    assert f"watch it in the browser ({whose(page.data)})" in out  # the demo names the view in the same words
    frames = client.get(f"/replay/{game_id}/frames.json").json
    assert frames["viewer"] == "all" and len(frames["frames"]) > 10


def test_open_as_a_side_shows_only_that_sides_view(demo):
    """Under fog (tests/replay/conftest.py: a side sees an enemy unit only next to its own) red's link draws
    fewer counters than the referee's, and only red's view's."""
    db, game_id, _ = demo
    drawn = {}
    for view in ("red", None):
        code, out = run(db, "open", game_id, *(["--as", view] if view else []), "--json")
        assert code == 0, out
        link = json.loads(out)
        assert link["view"] == (view or "all") and link["game_id"] == game_id
        client = served_app(db, catalog=FOGGY).test_client()
        words = whose(sign_in(client, link["url"]).data)
        assert words == ("as red sees it" if view else "the referee's view (everything)")
        assert f"{game_id}, {words}; needs the server" in run(db, "open", game_id, *(["--as", view] if view else []))[1]
        frames = client.get(f"/replay/{game_id}/frames.json").json["frames"]
        head = frames[-1]["seq"]
        units = client.get(f"/replay/{game_id}/frames.json?views=1&from={head}").json["frames"][-1]["view"]["units"]
        drawn[view] = counters(client.get(f"/replay/{game_id}/map/{head}.svg").data)
        assert set(drawn[view]) == {u["id"] for u in units if u["hex"]}
    assert set(drawn["red"]) < set(drawn[None])
    assert set(drawn[None]) - set(drawn["red"]) <= {u for u, side in drawn[None].items() if side == "blue"}


def test_an_owner_key_opens_its_game_and_view_only_and_never_the_api(demo, tmp_path):
    db, game_id, _ = demo
    _, other_out = run(db, "demo", "--rules", "skirmish")
    other = re.search(r"demo game (g-[0-9a-f]+)", other_out).group(1)
    _, out = run(db, "open", game_id, "--as", "blue", "--json")
    key = urlsplit(json.loads(out)["url"]).query.removeprefix("key=")
    client = served_app(db).test_client()
    assert client.get(f"/replay/{other}/?key={key}").status_code == 403  # another game: opens nothing
    assert client.get(f"/games/{game_id}/state", headers={"Authorization": f"Bearer {key}"}).status_code == 403
    client.set_cookie(COOKIE, key, path=f"/replay/{game_id}/")
    assert client.get(f"/replay/{game_id}/frames.json").json["viewer"] == "blue"


def test_open_refuses_an_unknown_side_or_game_and_names_the_sides(demo):
    db, game_id, _ = demo
    code, out = run(db, "open", game_id, "--as", "green")
    assert code == 1 and f"no side 'green' in game {game_id}; sides: red, blue" in out
    code, out = run(db, "open", "g-00000000")
    assert code == 1 and "unknown game 'g-00000000'" in out


def test_the_owner_viewing_as_a_seat_of_an_email_game_does_not_count_as_that_player_reading_it(tmp_path):
    """Undo is refused once the opponent saw an order; the owner looking as red is not red looking."""
    db = str(tmp_path / "pbem.sqlite3")
    app = served_app(db)
    client = app.test_client()
    r = client.post("/games", json={"rules": "skirmish", "players": {"red": "r@x.example", "blue": "b@x.example"}})
    game_id = r.json["game_id"]
    code, out = run(db, "open", game_id, "--as", "red", "--server", "https://hex.example/")
    assert code == 0 and out.startswith(f"https://hex.example/replay/{game_id}/?key=")
    assert sign_in(client, out.split()[0].replace("https://hex.example", "")).status_code == 200
    assert client.get(f"/replay/{game_id}/frames.json").status_code == 200
    seen = {m["seat"]: m["last_seen_seq"] for m in app.extensions["hexledger_service"]().store.members(game_id)}
    assert seen == {"red": 0, "blue": 0}


@pytest.mark.browser
@pytest.mark.slow
def test_the_demos_link_opens_the_cli_game_in_chromium(store, server, page):
    """What the README shows: `cli.py demo`, `cli.py serve`, then the printed link in a browser."""
    code, out = run(store.path, "demo")
    assert code == 0, out
    game_id = re.search(r"demo game (g-[0-9a-f]+)", out).group(1)
    url = re.search(r"open (http://\S+)", out).group(1).replace("http://127.0.0.1:8080", server.url)
    page.goto(url, wait_until="commit")
    page.wait_for_selector("body[data-ready='1']")
    assert page.url == f"{server.url}/replay/{game_id}/"  # the key left the address bar for the cookie
    assert page.locator("#viewer").inner_text() == "the referee's view (everything)"
    page.keyboard.press("End")
    last = page.locator("#history li").last.get_attribute("value")
    page.wait_for_selector(f"body[data-map-seq='{last}']")
    assert page.locator("#map .counter[data-side='japanese']").count() > 0
    assert page.outside_requests == []
