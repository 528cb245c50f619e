"""The analysis board (issue 29): from any event of a finished game or a fork, a sandbox of its own where the
analyst chooses the dice, edits units and lets any policy play either side; marked as analysis in its history and
the viewer, never in the real game's stream, never passing `verify --dice`, and refused by the game order path."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from app.projections import history
from app.projections import state as projection
from app.rules.catalog import installed
from app.service import audit, boards, games
from cli import cli

CATALOG = installed()  # the rule sets installed here

SKIRMISH = CATALOG.rules("skirmish")


def _attack_seq(store, game_id) -> int:
    """The last event before the game's first attack order: where an analyst would ask "what if"."""
    order = next(e for e in store.events(game_id) if e.type == "core.OrderGiven"
                 and e.payload["text"].startswith("attack"))
    return order.seq - 1


def test_a_board_replays_an_attack_with_the_die_the_analyst_chooses(store, finished):
    at = _attack_seq(store, finished)
    real = list(store.events(finished))
    board = boards.open_board(store, CATALOG, finished, at)
    assert board.startswith("b-") and list(store.events(finished)) == real  # the real game is untouched
    state = projection.load(store, CATALOG, board)
    assert state.meta.board["parent_id"] == finished and state.meta.board["parent_seq"] == at
    attack = real[at]  # the order the game gave next
    side, text = attack.payload["side"], attack.payload["text"]
    by_face = {}
    for face in (1, 6):
        other = boards.open_board(store, CATALOG, finished, at)
        stored = boards.order(store, CATALOG, other, side, text, [face])
        rolled = [e for e in stored if e.type == "core.DieRolled"]
        assert [e.payload["value"] for e in rolled][:1] == [face] and all(e.actor == "analyst" for e in stored)
        by_face[face] = [history.describe(SKIRMISH, e) for e in stored if e.type.startswith("skirmish.")]
    assert by_face[1] != by_face[6]  # the worst and the best face of the column read differently
    lines = [history.describe(SKIRMISH, e) for e in store.events(board)]
    assert lines[at].startswith(f"ANALYSIS BOARD opened from {finished} after event {at}")


def test_a_board_edits_units_and_lets_any_policy_play(store, finished):
    board = boards.open_board(store, CATALOG, finished, _attack_seq(store, finished))
    state = projection.load(store, CATALOG, board)
    unit = next(u for u, x in state.game.units.items() if x.hex)
    [edit] = boards.edit(store, CATALOG, board, unit, {"steps": 1})
    assert projection.load(store, CATALOG, board).game.units[unit].steps == 1
    assert history.describe(SKIRMISH, edit) == f"analysis: {unit} edited: steps 1"
    with pytest.raises(games.GameError, match="no field"):
        boards.edit(store, CATALOG, board, unit, {"courage": 3})
    with pytest.raises(games.GameError, match="is a int"):
        boards.edit(store, CATALOG, board, unit, {"steps": "many"})
    side = SKIRMISH.prompt(projection.load(store, CATALOG, board).game).side
    given = boards.play(store, CATALOG, board, side, "search:8", 3)
    assert given and projection.load(store, CATALOG, board).meta.orders[side] >= len(given)


def test_a_board_is_no_played_game(store, finished, skirmish):
    board = boards.open_board(store, CATALOG, finished, _attack_seq(store, finished))
    side = SKIRMISH.prompt(projection.load(store, CATALOG, board).game).side
    boards.play(store, CATALOG, board, side, "random", 2)
    events = list(store.events(board))
    assert audit.verify(CATALOG, events).ok  # every order is still the rules'
    dice_report = audit.verify(CATALOG, events, check_dice=True)
    assert not dice_report.ok and "analysis board" in dice_report.problems[0].message
    now = SKIRMISH.prompt(projection.load(store, CATALOG, board).game).side
    with pytest.raises(games.GameError, match="analysis board"):
        games.submit(store, CATALOG, board, now, "end")
    with pytest.raises(games.GameError, match="in progress"):
        boards.open_board(store, CATALOG, skirmish)  # a game in progress keeps its hidden parts
    with pytest.raises(games.GameError, match="no analysis board"):
        boards.order(store, CATALOG, finished, side, "end")


def test_the_command_line_opens_and_plays_a_board(store, finished):
    runner = CliRunner()

    def run(*args):
        result = runner.invoke(cli, ["--db", store.path, *args])
        assert result.exit_code == 0, result.output
        return result.output

    at = _attack_seq(store, finished)
    board = run("board", "open", finished, "--at", str(at)).strip()
    attack = list(store.events(finished))[at]
    out = run("board", "do", board, attack.payload["text"], "--as", attack.payload["side"], "--dice", "6")
    assert "die roll" in out and ": 6 (" in out
    unit = next(u for u, x in projection.load(store, CATALOG, board).game.units.items() if x.hex)
    assert f"{unit} edited: steps 1" in run("board", "edit", board, unit, "steps=1")
    side = SKIRMISH.prompt(projection.load(store, CATALOG, board).game).side
    played = json.loads(run("board", "play", board, "--as", side, "--policy", "greedy", "--json"))
    assert isinstance(played, list)


def test_the_viewer_marks_a_board_as_analysis(store, finished):
    from flask import Flask

    from app.service.replays import Replays
    from app.web import replay as web

    app = Flask(__name__)
    app.config.update(TESTING=True, REPLAY_TRUST_QUERY_SIDE=True)
    web.register(app, reads=lambda: Replays(store, CATALOG))
    board = boards.open_board(store, CATALOG, finished, _attack_seq(store, finished))
    page = app.test_client().get(f"/replay/{board}/?as=all")
    assert page.status_code == 200 and b'id="board-mark"' in page.data
    assert f"analysis board from {finished}".encode() in page.data
    assert b'id="board-mark"' not in app.test_client().get(f"/replay/{finished}/").data


@pytest.fixture
def api(tmp_path):
    """The real app on its own database: a skirmish made over the API between two players, played to its end."""
    import random

    from app.events.store import EventStore
    from app.mail.transport import MailConfig
    from app.web import create_app
    from tests.conftest import play_random
    from tests.outbox import Outbox

    path = str(tmp_path / "api.sqlite3")
    outbox = Outbox()
    app = create_app({"OPEN_GAME_CREATION": True, "HEXLEDGER_DB": path, "MAIL_TRANSPORT": outbox,
                      "MAIL": MailConfig(orders_address="orders@pbem.example")})
    client = app.test_client()
    made = client.post("/games", json={"rules": "skirmish", "players": {"red": "red@x.example",
                                                                         "blue": "blue@x.example"}}).json
    for side in ("red", "blue"):
        assert client.post(f"/games/{made['game_id']}/join", json={"seed_text": side},
                           headers={"Authorization": f"Bearer {made['tokens'][side]}"}).status_code == 201
    store = EventStore(path)
    for seed in range(20):
        play_random(store, made["game_id"], random.Random(seed))
        if SKIRMISH.outcome(projection.load(store, CATALOG, made["game_id"]).game) is not None:
            break
    yield client, made, store, outbox
    store.close()


def test_the_api_opens_a_board_of_the_callers_own_where_the_dice_are_chosen(api):
    client, made, store, outbox = api
    game_id = made["game_id"]
    at = _attack_seq(store, game_id)
    attack = store.event(game_id, at + 1).payload
    sent = len(outbox.sent)

    def post(path, body, token):
        return client.post(path, json=body, headers={"Authorization": f"Bearer {token}"})

    opened = post(f"/games/{game_id}/boards", {"at": at}, made["tokens"]["red"])
    assert opened.status_code == 201, opened.json
    board, tokens = opened.json["game_id"], opened.json["tokens"]
    assert board.startswith("b-") and set(tokens) == {"red", "blue", "arbiter"}
    by_face = {}
    for face in (1, 6):
        again = post(f"/games/{game_id}/boards", {"at": at}, made["tokens"]["blue"]).json
        rows = post(f"/games/{again['game_id']}/board/orders", {"side": attack["side"], "order": attack["text"],
                                                                "dice": [face]}, again["tokens"]["arbiter"])
        assert rows.status_code == 201, rows.json
        by_face[face] = [r["text"] for r in rows.json]
        assert [r for r in rows.json if r["type"] == "core.DieRolled"] and all(r["actor"] == "analyst"
                                                                               for r in rows.json)
    assert by_face[1] != by_face[6]
    token = tokens["arbiter"]
    state = projection.load(store, CATALOG, board)
    unit = next(u for u, x in state.game.units.items() if x.hex)
    edited = post(f"/games/{board}/board/edit", {"unit": unit, "changes": {"steps": 1}}, token)
    assert edited.status_code == 201 and edited.json[0]["text"] == f"analysis: {unit} edited: steps 1"
    assert post(f"/games/{board}/board/edit", {"unit": unit, "changes": {"courage": 3}}, token).status_code == 400
    side = SKIRMISH.prompt(projection.load(store, CATALOG, board).game).side
    played = post(f"/games/{board}/board/play", {"side": side, "policy": "greedy", "orders": 2}, token)
    assert played.status_code == 201 and played.json["orders"]
    frames = client.get(f"/replay/{board}/frames.json", headers={"Authorization": f"Bearer {token}"})
    assert frames.status_code == 200 and frames.json["frames"][at]["text"].startswith("ANALYSIS BOARD opened from")
    # the game's own order path refuses a board, a board's seats are told nothing, the real game is untouched
    now = SKIRMISH.prompt(projection.load(store, CATALOG, board).game).side
    refused = client.post(f"/games/{board}/orders", data="end", content_type="text/plain",
                          headers={"Authorization": f"Bearer {tokens[now]}"})
    assert refused.status_code == 400 and "analysis board" in refused.json["message"], refused.json
    assert len(outbox.sent) == sent
    assert post(f"/games/{game_id}/board/orders", {"side": "red", "order": "end"},
                made["tokens"]["red"]).status_code == 400  # the game itself is no board


def test_a_player_may_not_open_a_board_on_a_running_game(api, skirmish):
    client, made, store, _ = api
    fresh = client.post("/games", json={"rules": "skirmish", "players": {"red": "r@x.example",
                                                                          "blue": "b@x.example"}}).json
    refused = client.post(f"/games/{fresh['game_id']}/boards", json={},
                          headers={"Authorization": f"Bearer {fresh['tokens']['red']}"})
    assert refused.status_code == 403 and "before it ends" in refused.json["message"]
