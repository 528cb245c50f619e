"""The chances of victory (issue 29): after every Game-Turn of a finished game, from playouts; the turning points
with their cause; the run in the background of the replay server, which anyone may start for a finished game and
only the arbiter for a running one, which tells its progress and can be cancelled; the same numbers from the
CLI."""
from __future__ import annotations

import json
import time

import pytest
from click.testing import CliRunner
from flask import Flask

from app.projections import chances, replay
from app.rules import practice
from app.rules.catalog import installed
from app.service import games
from app.service.replays import Replays
from app.web import chances as web_chances
from app.web import replay as web
from cli import cli

CATALOG = installed()  # the rule sets installed here


def make_app(store):
    app = Flask(__name__)
    app.config.update(TESTING=True, REPLAY_TRUST_QUERY_SIDE=True)
    web.register(app, reads=lambda: Replays(store, CATALOG))
    return app


@pytest.mark.parametrize("policy", ["search", "greedy"])
def test_a_finished_game_has_a_chance_after_every_turn_and_its_turning_points(store, finished, policy):
    built = replay.build(store, CATALOG, finished, replay.ALL)
    found = chances.forecast(built, playouts=4, policy=policy)
    assert found["policy"] == policy and "4 playouts a Game-Turn" in found["method"]
    turns = [p["turn"] for p in found["points"]]
    assert turns[0] == 0 and turns == sorted(turns) and len(turns) >= 4
    # every playout says how it ended: the game over, the next Game-Turn played through, or stopped before
    assert set(found["endings"]) == set(chances.ENDINGS) and sum(found["endings"].values()) == 4 * len(turns)
    assert found["endings"]["turn played"] > 0 and found["endings"]["game over"] >= 4  # the last point is the end
    for p in found["points"]:
        assert sum(p["chances"].values()) == pytest.approx(1, abs=1e-3)
        assert all(0 <= v <= 1 for v in p["chances"].values())
    winner = built.outcome["winner"]  # the last point is the game's end: won, or drawn (nobody took the village)
    assert found["points"][-1]["chances"] == {s: 1 if s == winner else 0 if winner else 0.5 for s in built.sides}
    assert chances.forecast(built, playouts=4, policy=policy) == found  # seeded: the same in any run
    assert found["turning_points"]
    seqs = {f.seq: f for f in built.frames}
    for t in found["turning_points"]:
        assert t["turn"] in turns and sum(t["swing"].values()) == pytest.approx(0, abs=1e-3)
        if t["order"] is not None:
            assert seqs[t["order"]["seq"]].type == "core.OrderGiven" and t["seq"] >= t["order"]["seq"]


def test_the_strong_opponent_is_the_default_and_a_seat_budget_is_refused(store, finished):
    built = replay.build(store, CATALOG, finished, replay.ALL)
    found = chances.forecast(built, playouts=2)
    assert found["policy"] == "search" and found["edition"] == practice.EDITION
    assert "strong opponent's search" in found["method"] and "through the next Game-Turn" in found["method"]
    with pytest.raises(ValueError, match="give the policy as 'search'"):
        chances.forecast(built, playouts=2, policy="search:50")


def test_each_point_is_a_position_between_two_orders(store, finished):
    built = replay.build(store, CATALOG, finished, replay.ALL)
    ends = chances.turn_ends(built)
    last = len(built.frames) - 1
    assert ends[0] == (0, 0) and ends[-1][1] == last
    for turn, index in ends[1:]:
        # what the Game-Turn's last order caused is in (its phase's end, counted in the next turn by the view)
        assert index == last or built.frames[index + 1].type == "core.OrderGiven"
        assert built.frames[index].turn in (turn, turn + 1)


def test_two_processes_give_the_same_chances_and_can_be_cancelled(store, finished):
    built = replay.build(store, CATALOG, finished, replay.ALL)
    told = []
    pooled = chances.forecast(built, playouts=2, workers=2, progress=lambda done, total: told.append((done, total)))
    assert pooled == chances.forecast(built, playouts=2)
    total = 2 * len(chances.turn_ends(built))
    assert told[-1] == (total, total) and all(done <= total for done, _ in told)
    with pytest.raises(chances.Cancelled):
        chances.forecast(built, playouts=2, workers=2, cancelled=lambda: True)


def test_a_run_can_be_cancelled(store, finished):
    built = replay.build(store, CATALOG, finished, replay.ALL)
    told = []
    with pytest.raises(chances.Cancelled):
        chances.forecast(built, playouts=5, progress=lambda done, total: told.append((done, total)),
                         cancelled=lambda: len(told) >= 3)
    assert told[-1][0] == 3 and told[-1][1] == 5 * len(chances.turn_ends(built))


def _wait_done(client, path):
    for _ in range(600):
        r = client.get(path)
        if r.status_code != 202:
            return r
        assert r.json["state"] == "running" and 0 <= r.json["done"] <= r.json["total"]
        time.sleep(0.1)
    raise AssertionError("the run did not end")


def test_the_replay_server_runs_the_playouts_in_the_background(store, finished, monkeypatch):
    monkeypatch.setattr(web_chances, "PLAYOUTS", 4)
    client = make_app(store).test_client()
    first = client.get(f"/replay/{finished}/chances.json")
    assert first.status_code in (200, 202)
    done = _wait_done(client, f"/replay/{finished}/chances.json")
    assert done.status_code == 200 and done.json["state"] == "done" and done.json["playouts"] == 4
    built = replay.build(store, CATALOG, finished, replay.ALL)
    assert done.json["points"] == chances.forecast(built, playouts=4)["points"]
    chart = client.get(f"/replay/{finished}/chances.svg")
    assert chart.status_code == 200 and chart.mimetype == "image/svg+xml" and b'class="mark"' in chart.data


def test_a_running_game_is_the_arbiters_to_ask_and_a_run_is_cancelled(store, skirmish, monkeypatch):
    games.submit(store, CATALOG, skirmish, "red", "move R1 0202")
    monkeypatch.setattr(web_chances, "PLAYOUTS", 2000)
    client = make_app(store).test_client()
    refused = client.get(f"/replay/{skirmish}/chances.json?as=red")
    assert refused.status_code == 403 and "arbiter" in refused.json["message"]
    assert client.get(f"/replay/{skirmish}/chances.json?as=all").status_code == 202
    assert client.delete(f"/replay/{skirmish}/chances.json?as=all").json["state"] in ("cancelled", "done")
    ended = _wait_done(client, f"/replay/{skirmish}/chances.json?as=all")
    assert ended.json["state"] == "cancelled" and ended.json["done"] < ended.json["total"]
    assert client.get(f"/replay/{skirmish}/chances.svg?as=all").status_code == 404


def test_cli_analyze_prints_and_writes_the_chances(store, finished, tmp_path):
    out = tmp_path / "analysis"
    result = CliRunner().invoke(cli, ["--db", store.path, "analyze", finished, "--chances", "--playouts", "4",
                                      "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "chance of victory after each Game-Turn" in result.output and "turning point, turn" in result.output
    assert "4 playouts a Game-Turn of the strong opponent's search" in result.output
    data = json.loads((out / "analysis.json").read_text())
    assert data["chances"]["playouts"] == 4 and (out / "chances.svg").exists()
    assert "chances" in {c["name"] for c in data["charts"]}


def test_cli_refuses_a_players_chances_of_a_running_game(store, skirmish):
    games.submit(store, CATALOG, skirmish, "red", "move R1 0202")
    result = CliRunner().invoke(cli, ["--db", store.path, "analyze", skirmish, "--as", "red", "--chances"])
    assert result.exit_code != 0 and "only its arbiter" in result.output
