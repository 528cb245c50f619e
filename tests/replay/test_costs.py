"""What a replay request may cost (issue 25, docs/replay.md "What a request may cost"): a stranger's refusal builds
nothing, on every route of the viewer; a build in progress holds no more server threads than its bounds allow, so
`GET /rules` is answered while it runs; a build is shared, kept per game and head, and past the bounds the answer
is a 503 with Retry-After at once. The real app (create_app, as `cli.py serve` builds it), through waitress on
127.0.0.1 where threads matter."""
from __future__ import annotations

import http.client
import json
import random
import threading

import pytest
from hypothesis import given

from app.events.store import EventStore
from app.mail.transport import MailConfig
from app.projections import replay as replay_projection
from app.projections import state as projection
from app.projections.sight import Sight
from app.rules.catalog import installed
from app.service import replays
from app.web import create_app
from app.web.server import Limits, make_server, stop
from tests import outbox
from tests.conftest import play_random
from tests.reliability import hostile

CATALOG = installed()  # the rule sets installed here

PLAYERS = {"red": "red@x.example", "blue": "blue@x.example"}


def served_app(db: str):
    return create_app({"OPEN_GAME_CREATION": True, "HEXLEDGER_DB": db, "MAIL_TRANSPORT": outbox.Outbox(),
                       "MAIL": MailConfig(), "HEXLEDGER_REPLAY_RATE_LIMIT": "100000 per minute"})


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def new_game(client) -> tuple[str, dict]:
    r = client.post("/games", json={"rules": "skirmish", "players": PLAYERS, "arbiter": "arb@x.example"})
    game_id, tokens = r.json["game_id"], r.json["tokens"]
    for seat in PLAYERS:
        assert client.post(f"/games/{game_id}/join", json={"seed_text": seat},
                           headers=bearer(tokens[seat])).status_code == 201
    return game_id, tokens


def undo_cycles(client, game_id: str, token: str, cycles: int) -> None:
    """Red's own move and its undo, `cycles` times: each undo is a core.Retracted."""
    for _ in range(cycles):
        assert client.post(f"/games/{game_id}/orders", json={"order": "move R1 0202"},
                           headers=bearer(token)).status_code == 201
        assert client.post(f"/games/{game_id}/undo", headers=bearer(token)).status_code == 201


def finish(db: str, game_id: str, seed: int) -> None:
    store = EventStore(db)
    play_random(store, game_id, random.Random(seed))
    store.close()


@pytest.fixture(autouse=True)
def nothing_kept():
    """Each test starts with no replay, access answer or state kept from another."""
    replays.KEPT.clear()
    projection.STATES.clear()
    yield
    replays.KEPT.clear()


def replay_routes(app, game_id: str, seq: int) -> dict[str, tuple[str, str]]:
    """Every route of the viewer that names a game, by endpoint, with a method it takes (GET where it takes one):
    the ones there are now, and any added later."""
    paths = {}
    for rule in app.url_map.iter_rules():
        if rule.endpoint.split(".")[0] in ("replay", "replay_data") and "game_id" in rule.arguments:
            method = "GET" if "GET" in rule.methods else sorted(rule.methods - {"HEAD", "OPTIONS"})[0]
            paths[rule.endpoint] = (method, rule.build({"game_id": game_id, "seq": seq, "name": "losses"},
                                                       append_unknown=False)[1])
    return paths


def counting(monkeypatch) -> dict[str, int]:
    """How many events are folded, how many replays are framed and how many views of a position are made, from
    here on."""
    counts = {"folds": 0, "builds": 0, "views": 0}
    step, frames, view = projection._step, replay_projection.frames, Sight.view

    def counted_step(*a):
        counts["folds"] += 1
        return step(*a)

    def counted_frames(*a, **kw):
        counts["builds"] += 1
        return frames(*a, **kw)

    def counted_view(self, game):
        counts["views"] += 1
        return view(self, game)

    monkeypatch.setattr(projection, "_step", counted_step)
    monkeypatch.setattr(replay_projection, "frames", counted_frames)
    monkeypatch.setattr(Sight, "view", counted_view)
    return counts


def test_a_strangers_refused_read_builds_nothing_on_any_route(tmp_path, monkeypatch):
    """Every replay route built the whole game for the caller before checking access, and kept no refusal: after
    600 undos a stranger's 401 cost 4 s. Now every route of the viewer passes one gate first: a stranger (no
    credential, a made-up token, another game's replay key) is refused with no frame built, and at most one load
    of the position at the head for all the refusals together."""
    db = str(tmp_path / "costs.sqlite3")
    app = served_app(db)
    client = app.test_client()
    game_id, tokens = new_game(client)
    undo_cycles(client, game_id, tokens["red"], 20)
    other, _ = new_game(client)
    head = client.get(f"/games/{game_id}/state", headers=bearer(tokens["arbiter"])).json["seq"]
    routes = replay_routes(app, game_id, head)
    assert {"replay.page", "replay_data.frames", "replay_data.map_svg", "replay_data.analysis_json",
            "replay_data.chart_svg"} <= set(routes)
    other_key = app.extensions["hexledger_service"]().seats.replay_key(other, "red")
    counts = counting(monkeypatch)
    for _ in range(3):
        for endpoint, (method, path) in routes.items():
            assert client.open(path, method=method).status_code == 401, endpoint
            assert client.open(path, method=method, headers=bearer("f" * 32)).status_code == 403, endpoint
            client.set_cookie("hexledger_replay", other_key, path=f"/replay/{game_id}/")
            assert client.open(path, method=method).status_code == 403, endpoint
            client.delete_cookie("hexledger_replay", path=f"/replay/{game_id}/")
    assert counts["builds"] == counts["views"] == 0
    assert counts["folds"] <= head  # the state at the head, once, for whether the game is over
    # the canary: a player's read does build
    assert client.get(routes["replay_data.frames"][1], headers=bearer(tokens["red"])).status_code == 200
    assert counts["builds"] == 1 and counts["views"] > 0


class Server:
    """The app through `serve`'s server (waitress) on 127.0.0.1, `threads` worker threads."""

    def __init__(self, app, threads: int):
        self.server = make_server(app, "127.0.0.1", 0, Limits(threads=threads, connection_limit=100, request_queue=100,
                                                              backlog=100, channel_timeout=60, retry_after=1))
        self.port = self.server.effective_port
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()

    def get(self, path: str, headers: dict | None = None, timeout: float = 60) -> tuple[int, dict, bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            conn.request("GET", path, headers=headers or {})
            r = conn.getresponse()
            return r.status, dict(r.getheaders()), r.read()
        finally:
            conn.close()

    def close(self) -> None:
        stop(self.server)
        self.thread.join(10)


@pytest.fixture
def held_builds(monkeypatch):
    """Every replay build, as it starts, waits until the test lets it go: a build under way for as long as the test
    needs (a long game's, as on a busy server)."""
    release, entered = threading.Event(), threading.Event()
    fold = replay_projection.fold_stream

    def held(*args, **kwargs):
        entered.set()
        assert release.wait(120), "the test never let the build go"
        return fold(*args, **kwargs)

    monkeypatch.setattr(replay_projection, "fold_stream", held)
    yield release, entered
    release.set()


def in_threads(calls) -> tuple[list, list[threading.Thread]]:
    answers: list = []
    threads = [threading.Thread(target=lambda c=c: answers.append(c()), daemon=True) for c in calls]
    for t in threads:
        t.start()
    return answers, threads


def test_strangers_asking_for_a_running_games_replay_do_not_hold_the_servers_threads(tmp_path, held_builds):
    """12 requests without a credential made an ordinary `GET /rules` wait 44 s: each held a worker thread while
    it built the game (then refused it). Strangers now get their 401 without a build, so with every build held
    `GET /rules` is still answered."""
    release, entered = held_builds
    app = served_app(str(tmp_path / "threads.sqlite3"))
    client = app.test_client()
    game_id, tokens = new_game(client)
    undo_cycles(client, game_id, tokens["red"], 3)
    server = Server(app, threads=2)
    try:
        answers, threads = in_threads([lambda: server.get(f"/replay/{game_id}/frames.json")] * 8)
        status, _, body = server.get("/rules", timeout=30)
        assert status == 200 and b"skirmish" in body
        for t in threads:
            t.join(30)
        assert sorted(a[0] for a in answers) == [401] * 8 and not entered.is_set()
    finally:
        release.set()
        server.close()


def test_a_build_under_way_is_shared_and_past_the_bounds_the_answer_is_503_at_once(tmp_path, held_builds):
    """A build holds one thread; a second request for the same replay waits for it and gets the same answer (one
    build); a client's request for another game while its build runs is 503 with Retry-After at once, nothing
    built for it; `GET /rules` is answered all along."""
    release, entered = held_builds
    db = str(tmp_path / "bounds.sqlite3")
    app = served_app(db)
    client = app.test_client()
    finished = []
    for seed in (1, 2):
        game_id, _ = new_game(client)
        finish(db, game_id, seed)
        finished.append(game_id)
    server = Server(app, threads=4)
    try:
        first, threads = in_threads([lambda: server.get(f"/replay/{finished[0]}/frames.json")])
        assert entered.wait(30)
        second, more = in_threads([lambda: server.get(f"/replay/{finished[0]}/frames.json")])
        status, headers, body = server.get(f"/replay/{finished[1]}/frames.json", timeout=30)
        assert status == 503 and int(headers["Retry-After"]) >= 1
        assert json.loads(body)["error"] == "Busy"
        assert server.get("/rules", timeout=30)[0] == 200
        release.set()
        for t in threads + more:
            t.join(60)
        assert first[0][0] == second[0][0] == 200 and first[0][2] == second[0][2]
        assert server.get(f"/replay/{finished[1]}/frames.json", timeout=60)[0] == 200
    finally:
        release.set()
        server.close()


def test_the_bounds_on_builds(tmp_path):
    """`Builds`: one build a game at a time (others wait, bounded), at most `max_builds` at once and one a client;
    everything past that is Busy at once, and the build that finishes lets the next one in."""
    builds = replays.Builds(max_builds=2, max_waiting=1, wait_seconds=30)
    gate, started = threading.Event(), []

    def held(name):
        def build():
            started.append(name)
            assert gate.wait(60)
            return name
        return build

    kept: dict = {}
    runs, threads = in_threads([lambda: builds.run("g1", "ann", lambda: kept.get("g1"), held("g1"))])
    while len(started) < 1:
        threading.Event().wait(0.01)
    with pytest.raises(replays.Busy, match="still being built"):  # one build a client
        builds.run("g3", "ann", lambda: None, held("g3"))
    more, others = in_threads([lambda: builds.run("g2", "bob", lambda: kept.get("g2"), held("g2"))])
    while len(started) < 2:
        threading.Event().wait(0.01)
    with pytest.raises(replays.Busy, match="building 2 replays"):  # max_builds
        builds.run("g3", "cat", lambda: None, held("g3"))
    waiting, waiter = in_threads([lambda: builds.run("g1", "dan", lambda: kept.get("g1"), held("again"))])
    while builds._waiting < 1:
        threading.Event().wait(0.01)
    with pytest.raises(replays.Busy, match="waiting"):  # max_waiting
        builds.run("g2", "eve", lambda: kept.get("g2"), held("again"))
    kept.update(g1="g1", g2="g2")
    gate.set()
    for t in threads + others + waiter:
        t.join(30)
    assert runs + more == ["g1", "g2"] and waiting == ["g1"] and started == ["g1", "g2"]
    assert builds.run("g3", "cat", lambda: None, lambda: "g3") == "g3"


def test_a_replay_is_kept_per_game_and_head_and_a_later_head_extends_it(tmp_path, monkeypatch):
    """The same replay at the same head is built once, and analysed once for its analysis and every chart; an
    order later, the fold goes on from where it was (only
    the new events are folded) and the frames before it stand."""
    app = served_app(str(tmp_path / "kept.sqlite3"))
    client = app.test_client()
    game_id, tokens = new_game(client)
    undo_cycles(client, game_id, tokens["red"], 5)
    url = f"/replay/{game_id}/frames.json"
    counts = counting(monkeypatch)
    first = client.get(url, headers=bearer(tokens["red"])).json
    assert counts["builds"] == 1
    folded = counts["folds"]
    assert client.get(url, headers=bearer(tokens["red"])).json == first
    counts["views"] = 0
    analysed = client.get(f"/replay/{game_id}/analysis.json", headers=bearer(tokens["red"]))
    assert analysed.status_code == 200 and counts["builds"] == 1 and counts["folds"] == folded
    # then every chart listed (drawn, or the card saying why not): all from that one analysis, each frame viewed once
    drawn = [c["name"] for c in analysed.json["charts"]]
    assert drawn and all(client.get(f"/replay/{game_id}/charts/{name}.svg", headers=bearer(tokens["red"]))
                         .data.startswith(b"<svg") for name in drawn)
    assert counts["builds"] == 1 and counts["views"] == len(first["frames"])
    assert client.post(f"/games/{game_id}/orders", json={"order": "move R2 0203"},
                       headers=bearer(tokens["red"])).status_code == 201
    counts.update(folds=0, builds=0, views=0)
    later = client.get(url, headers=bearer(tokens["red"])).json
    new = len(later["frames"]) - len(first["frames"])
    assert 0 < new <= 3 and later["frames"][: len(first["frames"])] == first["frames"]
    assert counts["builds"] == 1 and counts["views"] == new  # only the new events framed
    assert counts["folds"] <= 2 * new + app.config["SETTINGS"].snapshot_every
    fresh = replay_projection.build(EventStore(app.config["SETTINGS"].db), CATALOG, game_id, "red").to_dict()
    assert later["frames"] == json.loads(json.dumps([{k: v for k, v in f.items() if k != "view"}
                                                     for f in fresh["frames"]]))  # as a build from event 1 gives them
    # the kept replay holds no views; those it serves are the ones such a build gives
    with_views = client.get(f"{url}?views=1&limit=100", headers=bearer(tokens["red"])).json["frames"]
    assert with_views == json.loads(json.dumps(fresh["frames"][:100]))


@pytest.fixture(scope="module")
def stranger_world(tmp_path_factory):
    return hostile.replay_world(str(tmp_path_factory.mktemp("strangers") / "strangers.sqlite3"))


@hostile.ci_budget(hostile.STRANGER_REPLAYS)
@given(**hostile.REPLAY_INPUTS)
def test_whatever_a_stranger_asks_of_the_viewer_a_running_game_is_refused_and_nothing_built(stranger_world, game,
                                                                                             route, seq, chart,
                                                                                             credential, query):
    hostile.check_stranger_replay(stranger_world, game, route, seq, chart, credential, query)
