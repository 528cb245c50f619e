"""Abuse by strangers (issue 12): who may create games, what deep JSON does to every route, what the rate limit
counts, what a stranger reads. Each refusal changes nothing."""
from __future__ import annotations

from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from app.mail.transport import MailConfig
from app.web import create_app
from tests.outbox import Outbox

KEY = "an-operator-key-of-thirty-chars"
PLAYERS = {"red": "r@x.example", "blue": "b@x.example"}


def make_app(tmp_path, **config):
    return create_app({"HEXLEDGER_DB": str(tmp_path / "abuse.sqlite3"), "MAIL_TRANSPORT": Outbox(),
                       "MAIL": MailConfig(), **config})


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def new_game(client, key: str = KEY) -> tuple[str, dict]:
    r = client.post("/games", json={"rules": "skirmish", "players": PLAYERS, "arbiter": "a@x.example"},
                    headers=bearer(key))
    assert r.status_code == 201, r.json
    game_id, tokens = r.json["game_id"], r.json["tokens"]
    for seat in ("red", "blue"):
        assert client.post(f"/games/{game_id}/join", json={"seed_text": seat},
                           headers=bearer(tokens[seat])).status_code == 201
    return game_id, tokens


# -- creating games -----------------------------------------------------------------------------------------
def test_without_an_operators_key_creating_games_is_closed(tmp_path, monkeypatch):
    monkeypatch.delenv("HEXLEDGER_ADMIN_TOKEN", raising=False)
    monkeypatch.delenv("HEXLEDGER_OPEN_GAME_CREATION", raising=False)
    client = make_app(tmp_path).test_client()
    r = client.post("/games", json={"rules": "skirmish", "players": PLAYERS})
    assert r.status_code == 403 and "closed" in r.json["message"] and "HEXLEDGER_ADMIN_TOKEN" in r.json["message"]
    assert client.get("/games", headers=bearer(KEY)).json["games"] == []


def test_the_operators_key_from_the_environment_is_needed_to_create_a_game(tmp_path, monkeypatch):
    monkeypatch.setenv("HEXLEDGER_ADMIN_TOKEN", KEY)
    outbox = Outbox()
    client = make_app(tmp_path, MAIL_TRANSPORT=outbox).test_client()
    body = {"rules": "skirmish", "players": PLAYERS}
    assert client.post("/games", json=body).status_code == 401
    assert client.post("/games", json=body, headers=bearer(KEY[:-1] + "x")).status_code == 403
    assert outbox.sent == []  # no invitation went anywhere
    assert client.post("/games", json=body, headers=bearer(KEY)).status_code == 201


def test_open_game_creation_is_an_explicit_choice(tmp_path, monkeypatch):
    monkeypatch.delenv("HEXLEDGER_ADMIN_TOKEN", raising=False)
    monkeypatch.setenv("HEXLEDGER_OPEN_GAME_CREATION", "1")
    client = make_app(tmp_path).test_client()
    assert client.post("/games", json={"rules": "skirmish", "players": PLAYERS}).status_code == 201


def test_a_short_operators_key_is_refused_at_start(tmp_path):
    with pytest.raises(ValueError, match="at least 16"):
        make_app(tmp_path, ADMIN_TOKEN="secret")


def test_serve_takes_the_operators_key_from_a_file(tmp_path, monkeypatch):
    from app.web import server
    from cli import cli

    monkeypatch.delenv("HEXLEDGER_ADMIN_TOKEN", raising=False)
    served = {}
    monkeypatch.setattr(server, "make_server", lambda app, host, port, limits: SimpleNamespace(
        run=lambda: served.update(app=app)))
    key_file = tmp_path / "operator.key"
    key_file.write_text(KEY + "\n")
    result = CliRunner().invoke(cli, ["--db", str(tmp_path / "s.sqlite3"), "serve", "--admin-token-file",
                                      str(key_file)])
    assert result.exit_code == 0, result.output
    assert "creating games: needs the operator's key" in result.output
    client = served["app"].test_client()
    assert client.post("/games", json={"rules": "skirmish", "players": PLAYERS}).status_code == 401
    assert client.post("/games", json={"rules": "skirmish", "players": PLAYERS},
                       headers=bearer(KEY)).status_code == 201
    key_file.write_text("short")
    result = CliRunner().invoke(cli, ["--db", str(tmp_path / "s.sqlite3"), "serve", "--admin-token-file",
                                      str(key_file)])
    assert result.exit_code == 2 and "at least 16" in result.output


# -- deeply nested JSON -------------------------------------------------------------------------------------
DEEP = "[" * 20000 + "]" * 20000


def test_deeply_nested_json_is_a_clear_400_on_every_route(tmp_path):
    """20,000 levels gave 500 (RecursionError in the JSON parser) on every JSON route, POST /games included."""
    app = make_app(tmp_path, ADMIN_TOKEN=KEY)
    client = app.test_client()
    game_id, tokens = new_game(client)
    head = client.get(f"/games/{game_id}/state", headers=bearer(tokens["red"])).json["seq"]
    routes = sorted({(r.rule, m) for r in app.url_map.iter_rules() for m in r.methods
                     if m in ("POST", "PUT", "PATCH") and not r.rule.startswith("/replay")})
    assert len(routes) >= 8
    for rule, method in routes:
        path = rule.replace("<game_id>", game_id).replace("<int:dispute_id>", "1")
        for credential in (KEY if rule == "/games" else tokens["red"], None):
            r = client.open(path, method=method, data=DEEP, content_type="application/json",
                            headers=bearer(credential) if credential else {})
            assert r.status_code == 400, (rule, r.status_code, r.get_data(as_text=True)[:200])
            assert "deeper than 32 levels" in r.json["message"]
    assert client.get(f"/games/{game_id}/state", headers=bearer(tokens["red"])).json["seq"] == head
    # nesting inside strings is text, not depth; a sensible body goes through
    r = client.post(f"/games/{game_id}/orders", json={"order": "move R1 0202 " + "[" * 5000},
                    headers=bearer(tokens["red"]))
    assert r.status_code == 422 and r.json["error"] == "InvalidOrder"


# -- rate limits --------------------------------------------------------------------------------------------
def test_random_bearers_do_not_escape_the_rate_limit(tmp_path):
    """The limit was keyed on any bearer string: a new random one for each request was never limited. Only a
    token that opens a seat counts as that seat; anything else counts against the sender's address."""
    client = make_app(tmp_path, ADMIN_TOKEN=KEY, HEXLEDGER_RATE_LIMIT="6 per minute").test_client()
    game_id, tokens = new_game(client)  # the operator's 1 request, red's and blue's joins
    answers = [client.get(f"/games/{game_id}/state", headers=bearer(f"{n:032x}")).status_code for n in range(8)]
    assert answers == [403] * 6 + [429] * 2
    assert client.get(f"/games/{game_id}/state").status_code == 429  # no bearer: the same address
    # a seat has its own allowance, not the address's
    assert client.get(f"/games/{game_id}/state", headers=bearer(tokens["red"])).status_code == 200
    # another game's token opens no seat here: it counts against the address too
    other, other_tokens = new_game(client)
    assert client.get(f"/games/{game_id}/state", headers=bearer(other_tokens["red"])).status_code == 429


def test_a_request_checks_its_token_once(tmp_path, monkeypatch):
    """Keying the limit by seat costs no second check: the route reuses the limiter's."""
    from app.service.seats import Credentials

    client = make_app(tmp_path, ADMIN_TOKEN=KEY).test_client()
    game_id, tokens = new_game(client)
    calls = []
    original = Credentials.authenticate
    monkeypatch.setattr(Credentials, "authenticate", lambda self, *a: calls.append(a) or original(self, *a))
    assert client.post(f"/games/{game_id}/orders", data="move R1 0202", content_type="text/plain",
                       headers=bearer(tokens["red"])).status_code == 201
    assert client.get(f"/replay/{game_id}/frames.json", headers=bearer(tokens["red"])).status_code == 200
    assert len(calls) == 2


# -- what a stranger reads ----------------------------------------------------------------------------------
def finished_game(client, app) -> tuple[str, dict]:
    import random

    from app.events.store import EventStore
    from tests.conftest import play_random

    game_id, tokens = new_game(client)
    store = EventStore(app.config["SETTINGS"].db)
    play_random(store, game_id, random.Random(3))
    store.close()
    return game_id, tokens


@pytest.mark.slow  # many games or a long game played first
def test_a_stranger_lists_only_finished_games_a_page_at_a_time(tmp_path):
    """GET /games listed every game, running ones and sandbox forks included, all at once."""
    app = make_app(tmp_path, ADMIN_TOKEN=KEY)
    client = app.test_client()
    running, _ = new_game(client)
    done = [finished_game(client, app)[0] for _ in range(3)]
    listed = client.get("/games").json
    assert [g["game_id"] for g in listed["games"]] == done and listed["next_after"] is None
    assert all(set(g) == {"game_id", "rules", "scenario", "created_at", "events"} for g in listed["games"])
    first = client.get("/games?limit=2").json
    assert [g["game_id"] for g in first["games"]] == done[:2] and first["next_after"] == done[1]
    rest = client.get(f"/games?limit=2&after={first['next_after']}").json
    assert [g["game_id"] for g in rest["games"]] == done[2:] and rest["next_after"] is None
    assert client.get("/games?limit=100000").status_code == 422
    everything = client.get("/games", headers=bearer(KEY)).json["games"]  # the operator sees every game
    assert [g["game_id"] for g in everything] == [running, *done]


@pytest.mark.slow  # many games or a long game played first
def test_a_finished_replay_shows_no_players_address(tmp_path):
    """Anyone may replay a finished game: its history named each player by email address ("r@x.example joins as
    red")."""
    app = make_app(tmp_path, ADMIN_TOKEN=KEY)
    client = app.test_client()
    game_id, _ = finished_game(client, app)
    for path in ("frames.json?views=1", "frames.json", "analysis.json", ""):
        text = client.get(f"/replay/{game_id}/{path}").get_data(as_text=True)
        assert "x.example" not in text, path
    texts = [f["text"] for f in client.get(f"/replay/{game_id}/frames.json").json["frames"]]
    assert "the red player joins as red" in texts


@pytest.mark.slow  # many games or a long game played first
def test_frames_with_views_come_a_page_at_a_time_from_one_build_per_game_and_head(tmp_path, monkeypatch):
    """frames.json?views=1 rebuilt the whole replay and serialized every view of every event for each asker
    (one cache entry per viewer, 16 in all): a stranger cycling games and viewers cost seconds of CPU a request.
    Now a finished game is built once whoever asks, and a page carries at most 100 views."""
    from app.projections import replay as replay_projection
    from app.web.replay import FRAMES_WITH_VIEWS

    app = make_app(tmp_path, ADMIN_TOKEN=KEY)
    client = app.test_client()
    game_id, tokens = finished_game(client, app)
    builds = []
    original = replay_projection.frames
    monkeypatch.setattr(replay_projection, "frames", lambda *a, **kw: builds.append(a[2]) or original(*a, **kw))
    pages, url = [], f"/replay/{game_id}/frames.json?views=1"
    for credential in (None, tokens["red"], tokens["blue"], tokens["arbiter"], None):
        page = client.get(url, headers=bearer(credential) if credential else {}).json
        pages.append(page)
    assert len(builds) == 1 and all(p == pages[0] for p in pages)
    frames = pages[0]["frames"]
    assert len(frames) == FRAMES_WITH_VIEWS and all("view" in f for f in frames)
    seen = [f["seq"] for f in frames]
    while pages[-1]["next_from"] is not None:
        pages.append(client.get(f"{url}&from={pages[-1]['next_from']}&limit=500").json)
        assert len(pages[-1]["frames"]) <= FRAMES_WITH_VIEWS
        seen += [f["seq"] for f in pages[-1]["frames"]]
    everything = client.get(f"/replay/{game_id}/frames.json").json  # without views: every frame at once
    assert everything["next_from"] is None and seen == [f["seq"] for f in everything["frames"]]
    assert len(builds) == 1


# -- deadlines and the clock --------------------------------------------------------------------------------
@pytest.mark.parametrize("jump_hours", [100, -30])
def test_a_clock_jump_past_the_deadline_withholds_auto_pass_and_tells_the_arbiter(store, caplog, jump_hours):
    """A server clock set forward (or back) by more than the deadline between two runs of tick auto-passed for a
    player who had all the time in the world; now the arbiter is told, the log says why, nothing is played."""
    from freezegun import freeze_time

    from tests.pbem.test_deadlines_and_ingest import seated

    with freeze_time("2030-01-01 12:00:00") as clock:
        pbem, outbox, game_id, seats, _ = seated(store, deadline_hours=24, on_deadline="auto-pass")
        assert pbem.deadlines.tick() == []
        clock.tick(3600)
        assert pbem.deadlines.tick() == []
        head = store.head(game_id)[0]
        clock.tick(jump_hours * 3600)
        if jump_hours < 0:  # a clock set back, then forward again past the deadline within one run's gap
            assert pbem.deadlines.tick() == []
            clock.tick((-jump_hours + 30) * 3600)
        with caplog.at_level("WARNING", logger="hexledger.service"):
            assert pbem.deadlines.tick() == [f"{game_id}: deadline passed for red"]
        [record] = store.events(game_id, head + 1)  # the deadline's record, and nothing passed for red
        assert record.type == "core.DeadlinePassed" and "auto-pass withheld" in record.payload["note"]
        told = outbox.to("arb@x.example")[-1]
        assert "has not moved" in told["Subject"] and "auto-pass withheld" in told.get_content()
        assert "no auto-pass for red" in caplog.text and game_id in caplog.text
        assert not [m for m in outbox.to("red@x.example") if "the server passed" in m["Subject"]]
