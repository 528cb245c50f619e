"""The replay blueprint on a minimal Flask app: who may see what, and what each endpoint returns."""
import html
import re
import xml.etree.ElementTree as ET

import pytest
from flask import Flask

from app.events.registry import decode
from app.rules.catalog import installed
from app.service import games
from app.service.replays import Replays
from app.web import replay as web
from tests.replay.conftest import foggy

CATALOG = installed()  # the rule sets installed here

NS = {"s": "http://www.w3.org/2000/svg"}


def make_app(store, trust=True, resolve_viewer=None, catalog=CATALOG):
    app = Flask(__name__)
    app.config.update(TESTING=True, REPLAY_TRUST_QUERY_SIDE=trust)
    web.register(app, resolve_viewer=resolve_viewer, reads=lambda: Replays(store, catalog))
    return app


@pytest.fixture
def running(store, skirmish):
    games.submit(store, CATALOG, skirmish, "red", "move R1 0202")
    return skirmish


def whose(page: bytes) -> str:
    """The page header's words for whose view it shows."""
    return html.unescape(re.search(r'<div id="viewer">(.*?)</div>', page.decode()).group(1))


def units_in(svg: bytes) -> set[str]:
    return {g.get("data-unit") for g in ET.fromstring(svg).iterfind(".//s:g[@class='counter']", NS)}


def test_a_running_game_is_closed_without_a_side(store, running):
    client = make_app(store, trust=False).test_client()
    # no seat named (the query is not trusted): 401, JSON for the data, a page for the page
    r = client.get(f"/replay/{running}/frames.json?as=red")
    assert r.status_code == 401 and "in progress" in r.json["message"]
    r = client.get(f"/replay/{running}/")
    assert r.status_code == 401 and r.mimetype == "text/html" and b"in progress" in r.data
    trusted = make_app(store).test_client()
    assert trusted.get(f"/replay/{running}/frames.json?as=red").json["viewer"] == "red"
    assert whose(trusted.get(f"/replay/{running}/?as=red").data) == "as red sees it"
    assert trusted.get(f"/replay/{running}/frames.json?as=green").status_code == 403
    # no such game: refused as a game in progress is to a caller without a seat (issue 25: no answer tells which
    # game ids exist)
    r = trusted.get("/replay/no-such-game/frames.json?as=red")
    unknown = client.get(f"/replay/{running}/frames.json?as=red").json["message"].replace(running, "no-such-game")
    assert r.status_code == 401 and r.json["message"] == unknown
    r = trusted.get("/replay/no-such-game/")
    assert r.status_code == 401 and b"in progress" in r.data


def test_a_finished_game_is_open_to_everyone(store, finished):
    client = make_app(store, trust=False).test_client()
    data = client.get(f"/replay/{finished}/frames.json").json
    assert data["viewer"] == "all" and data["over"] and len(data["frames"]) == store.head(finished)[0]
    assert data["panels"] == {"map": True, "combat": True}
    page = client.get(f"/replay/{finished}/")
    assert page.status_code == 200 and b'id="combat-odds"' in page.data and b"replay.js" in page.data
    assert whose(page.data) == "everything (the game is over)"  # as render and analyze say it
    assert client.get("/replay/static/replay.js").status_code == 200


@foggy
def test_the_resolve_viewer_hook_decides_the_side(store, running, catalog):
    app = make_app(store, trust=False, resolve_viewer=lambda request, game_id: request.headers.get("X-Side"),
                   catalog=catalog)
    client = app.test_client()
    assert client.get(f"/replay/{running}/frames.json").status_code == 401
    blue = client.get(f"/replay/{running}/frames.json?views=1", headers={"X-Side": "blue"}).json
    assert blue["viewer"] == "blue"
    assert {u["id"] for u in blue["frames"][-1]["view"]["units"]} == {"B1", "B2", "B3"}  # red is far away: fog
    assert blue["frames"][-1]["text"] == "(events hidden from your side)"


@foggy
def test_map_svg_at_a_seq_shows_what_the_viewer_sees(store, running, catalog):
    client = make_app(store, catalog=catalog).test_client()
    seq = store.head(running)[0]
    assert units_in(client.get(f"/replay/{running}/map/{seq}.svg?as=red").data) == {"R1", "R2", "R3"}
    assert units_in(client.get(f"/replay/{running}/map/{seq}.svg?as=all").data) == {"R1", "R2", "R3", "B1", "B2",
                                                                                   "B3"}
    assert client.get(f"/replay/{running}/map/{seq + 1}.svg?as=red").status_code == 404


def test_frames_json_combat_panel_data_equals_the_stored_event(store, finished):
    client = make_app(store).test_client()
    frames = client.get(f"/replay/{finished}/frames.json").json["frames"]
    event = next(e for e in store.events(finished) if e.type == "skirmish.AttackResolved")
    body = decode(event.type, event.version, event.payload)
    combat = frames[event.seq - 1]["combat"]
    assert (combat["odds"], combat["roll"], combat["result"]) == (body.column, body.roll, body.result)
    assert "view" not in frames[0]  # views only on request: the page draws the map from the SVG endpoint


def test_analysis_json_and_charts(store, finished):
    client = make_app(store).test_client()
    data = client.get(f"/replay/{finished}/analysis.json").json
    assert set(data["luck"]) == {"red", "blue"}
    for name in ("losses", "odds", "luck", "control"):
        chart = client.get(f"/replay/{finished}/charts/{name}.svg")
        assert chart.status_code == 200 and chart.mimetype == "image/svg+xml"
        ET.fromstring(chart.data)
    assert client.get(f"/replay/{finished}/charts/nope.svg").status_code == 404


def test_the_viewer_works_with_fewer_panels_when_rules_lack_optional_members(store, finished):
    import dataclasses

    from app.rules.skirmish import GAME

    plain = dataclasses.replace(GAME, extras={})
    client = make_app(store, catalog=installed(plain)).test_client()
    data = client.get(f"/replay/{finished}/frames.json").json
    assert data["panels"] == {"map": False, "combat": False}
    assert all(f["combat"] is None for f in data["frames"]) and data["frames"][-1]["text"]
    assert client.get(f"/replay/{finished}/map/3.svg").status_code == 404
    assert client.get(f"/replay/{finished}/analysis.json").json["attacks"] == []
