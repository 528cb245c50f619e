"""Automated seats (issue 18): the server plays a side by the rule set's policy after every order; each of its
orders is stored like a player's with the policy and the reason; `verify` re-decides it, so a tampered one is
found; the seat takes no order from anyone; the policy is deterministic given the position."""
from __future__ import annotations

import dataclasses
import json
import logging
import os
import random
import subprocess
import sys

import pytest
from click.testing import CliRunner

from app.events.envelope import StoredEvent
from app.projections import state as projection
from app.rules import practice
from app.rules.catalog import installed
from app.rules.olympic import GAME as OLYMPIC
from app.rules.snc import GAME as SNC
from app.service import audit, autoplay, games
from cli import cli
from tests.olympic.test_olympic_fuzz import candidates as american
from tests.snc.snc_randomplay import candidates as snc_candidates

CATALOG = installed()  # the rule sets installed here

pytestmark = pytest.mark.slow  # games played by the server's own seats


def _orders(events, actor):
    return [e for e in events if e.type == "core.OrderGiven" and e.actor == actor]


def tampered(events: list[StoredEvent], seq: int, payload: dict) -> list[StoredEvent]:
    """The stream with event `seq`'s payload replaced and the hash chain sealed again from there on, as someone
    holding the database could do: only re-deciding the order can find it."""
    out, prev = [], None
    for e in events:
        if e.seq == seq:
            e = dataclasses.replace(e, payload=payload)
        if prev is not None and (e.seq >= seq):
            fields = {k: v for k, v in dataclasses.asdict(e).items() if k != "hash"}
            e = StoredEvent.sealed(**{**fields, "prev_hash": prev.hash})
        out.append(e)
        prev = e
    return out


@pytest.fixture
def olympic_turn(store):
    """An Olympic game through Game-Turn 1's Japanese movement: the American played at random, the Japanese by
    the server (automated by default)."""
    game_id = games.create_game(store, CATALOG, "olympic")
    games.join(store, CATALOG, game_id, "american", "a@example.org", "alone")
    rng = random.Random(3)
    for _ in range(300):
        state = projection.load(store, CATALOG, game_id)
        if any(e.payload["text"].startswith("jmove") for e in _orders(store.events(game_id), "auto:japanese")):
            break
        games.submit(store, CATALOG, game_id, "american", next(american(state.game, rng)))
        autoplay.play(store, CATALOG, game_id)
    return game_id


def test_olympic_japanese_orders_carry_policy_and_reason_and_verify_re_decides_them(store, olympic_turn):
    events = list(store.events(olympic_turn))
    assert projection.load(store, CATALOG, olympic_turn).meta.automated == {"japanese": "programmed"}
    japanese = _orders(events, "auto:japanese")
    assert [e.payload["text"] for e in japanese][:1] == ["tokko"]
    moved = next(e for e in japanese if e.payload["text"].startswith("jmove"))
    assert moved.payload["auto"]["policy"] == "programmed"
    assert moved.payload["auto"]["reason"]["case"] == "Olympic 14.55"
    assert all(e.actor == "auto:japanese" for e in events if e.causation == moved.seq)   # its events too
    report = audit.verify(CATALOG, events)
    assert report.ok, report.problems[:3]

    why = dict(moved.payload["auto"], reason={**moved.payload["auto"]["reason"], "summary": "because I said so"})
    found = audit.verify(CATALOG, tampered(events, moved.seq, {**moved.payload, "auto": why}))
    assert found.first_bad_seq == moved.seq and "policy programmed gives" in found.problems[0].message

    unmarked = audit.verify(CATALOG, tampered(events, moved.seq, {**moved.payload, "auto": None}))
    assert unmarked.first_bad_seq == moved.seq and "played by the policy programmed" in unmarked.problems[0].message


def test_the_automated_seat_takes_no_order_from_anyone(store, olympic_turn):
    state = projection.load(store, CATALOG, olympic_turn)
    assert state.meta.players["japanese"] == "automated (programmed)"
    with pytest.raises(games.GameError, match="played by the server"):
        games.submit(store, CATALOG, olympic_turn, "japanese", "end")
    with pytest.raises(games.GameError, match="already taken"):
        games.join(store, CATALOG, olympic_turn, "japanese", "intruder@example.org")
    assert projection.load(store, CATALOG, olympic_turn).meta.seq == state.meta.seq


def test_automated_seats_are_checked_at_creation(store):
    with pytest.raises(games.GameError, match="no policy 'clever'"):
        games.create_game(store, CATALOG, "snc", auto={"japanese": "clever"})
    with pytest.raises(games.GameError, match="no side 'soviet'"):
        games.create_game(store, CATALOG, "snc", auto=["soviet"])
    with pytest.raises(games.GameError, match="at least one seat"):
        games.create_game(store, CATALOG, "snc", auto=["japanese", "chinese"])
    assert store.games() == []
    plain = games.create_game(store, CATALOG, "olympic", auto=[])
    assert projection.load(store, CATALOG, plain).meta.automated == {}
    greedy = games.create_game(store, CATALOG, "snc", auto=["japanese"])
    assert projection.load(store, CATALOG, greedy).meta.automated == {"japanese": "greedy"}


def test_a_long_automated_turn_stops_at_the_limit_with_a_log_line_and_the_next_call_goes_on(store, caplog):
    game_id = games.create_game(store, CATALOG, "olympic")
    games.join(store, CATALOG, game_id, "american", "a@example.org", "alone")
    rng = random.Random(5)
    while OLYMPIC.prompt(state := projection.load(store, CATALOG, game_id).game).side == "american":  # the placement
        games.submit(store, CATALOG, game_id, "american", next(american(state, rng)))
    with caplog.at_level(logging.WARNING, logger="hexledger.autoplay"):
        assert autoplay.play(store, CATALOG, game_id, limit=0) == []
    assert "the limit" in caplog.text
    assert projection.load(store, CATALOG, game_id).game.step == "tokko"
    [tokko] = autoplay.play(store, CATALOG, game_id)
    assert tokko.events[0].payload["text"] == "tokko"
    assert projection.load(store, CATALOG, game_id).game.step == "assault"


SEED_SCRIPT = """
import random, sys
from app.rules import practice
from app.rules.olympic import GAME as OLYMPIC
from app.rules.snc import GAME as RULES
from app.events.dice import SeededDice
state = RULES.initial_state("campaign", {})
dice = SeededDice(next_index=0, seed="same dice", game_id="g")
out = []
for _ in range(40):
    side = RULES.prompt(state).side
    text, reason = practice.choose(RULES, sys.argv[1], state, side)
    out.append(text)
    for e in RULES.decide(state, RULES.parse(text, side, state), dice):
        state = RULES.evolve(state, e)
print(out)
"""


@pytest.mark.parametrize("policy", ["greedy", "random"])
def test_practice_policies_are_deterministic_given_the_position_in_any_process(policy):
    """Python salts the hash of strings per process (set order): the orders must not depend on it."""
    runs = {subprocess.run([sys.executable, "-c", SEED_SCRIPT, policy], capture_output=True, text=True, check=True,
                           env={**os.environ, "PYTHONHASHSEED": salt, "PYTHONPATH": os.getcwd()}).stdout
            for salt in ("1", "2")}
    assert len(runs) == 1 and "move" in runs.pop()


def test_snc_against_the_greedy_japanese_through_the_cli(tmp_path):
    runner = CliRunner()
    db = str(tmp_path / "cli.sqlite3")

    def run(*args):
        result = runner.invoke(cli, ["--db", db, *args], catch_exceptions=False)
        assert result.exit_code == 0, result.output
        return result.output

    listed = run("rules")  # the policies a player may choose for --auto, each with what it is
    assert "--auto SIDE:search  strong practice opponent" in listed
    assert "--auto SIDE:greedy  practice opponent" in listed
    game = run("new", "snc", "--auto", "japanese").strip()
    assert "japanese=automated (greedy)" in run("show", game)
    run("join", game, "--side", "chinese", "--name", "me@example.org", "--seed", "practice")
    rng = random.Random(4)
    answered = []
    from app.events.store import EventStore
    store = EventStore(db)
    try:
        while len(answered) < 3:
            state = projection.load(store, CATALOG, game).game
            side = SNC.prompt(state).side
            assert side == "chinese"
            for text in snc_candidates(state, rng):
                if practice.legal(SNC, state, side, text):
                    break
            out = json.loads(run("do", game, text, "--as", "chinese", "--json"))
            if out["automated"]:
                answered.append(out)
        events = list(store.events(game))
    finally:
        store.close()
    shown = [r["text"] for r in answered[0]["automated"] if r["type"] == "core.OrderGiven"]
    assert shown and all(t.startswith("japanese (automated, greedy) orders: ") and "[greedy" in t for t in shown)
    assert all(r["actor"] == "auto:japanese" for a in answered for r in a["automated"])
    verified = run("verify", game)
    assert "chain intact" in verified
    auto = _orders(events, "auto:japanese")[-1]
    why = dict(auto.payload["auto"], reason={"case": "made up", "summary": "made up"})
    found = audit.verify(CATALOG, tampered(events, auto.seq, {**auto.payload, "auto": why}))
    assert found.first_bad_seq == auto.seq and "policy greedy gives" in found.problems[0].message


def test_the_api_creates_a_game_against_the_server_and_answers_an_order_with_its_turn(tmp_path):
    from app.mail.transport import MailConfig
    from app.web import create_app
    from tests.outbox import Outbox

    key = "the-operator-key-of-this-test"
    client = create_app({"ADMIN_TOKEN": key, "HEXLEDGER_DB": str(tmp_path / "api.sqlite3"),
                         "MAIL_TRANSPORT": Outbox(), "MAIL": MailConfig()}).test_client()
    operator = {"Authorization": f"Bearer {key}"}
    rules = {r["name"]: r for r in client.get("/rules").json}
    assert rules["olympic"]["automated_seats"] == {"japanese": "programmed"}
    assert rules["skirmish"]["policies"] == ["greedy", "random", "search"]
    about = rules["skirmish"]["policy_about"]  # what a player choosing a practice opponent reads of each
    assert list(about) == rules["skirmish"]["policies"] and "2 s of CPU" in about["search"]
    assert rules["olympic"]["policy_about"]["programmed"] == "the rule set's own, as its rules program it"
    for bad, why in ((["red", "blue"], "at least one seat"), (["red:clever"], "no policy 'clever'"),
                     (["green"], "no side 'green'")):
        r = client.post("/games", headers=operator,
                        json={"rules": "skirmish", "players": {"blue": "b@x.example"}, "auto": bad})
        assert r.status_code == 400 and why in r.json["message"]
    r = client.post("/games", headers=operator, json={"rules": "skirmish", "players": {"red": "r@x.example",
                                                                                     "blue": "b@x.example"},
                                                      "auto": ["blue"]})
    assert r.status_code == 400 and "one player for each side: red (blue played by the server)" in r.json["message"]
    assert client.get("/games", headers=operator).json["games"] == []
    r = client.post("/games", headers=operator,
                    json={"rules": "skirmish", "players": {"red": "r@x.example"}, "auto": ["blue:greedy"]})
    assert r.status_code == 201 and set(r.json["tokens"]) == {"red"}
    game, auth = r.json["game_id"], {"Authorization": f"Bearer {r.json['tokens']['red']}"}
    assert client.post(f"/games/{game}/join", headers=auth, json={"seed_text": "red"}).status_code == 201
    for _ in range(2):  # red's movement, then red's combat: then blue's turn, played by the server
        r = client.post(f"/games/{game}/orders", headers=auth, json={"order": "end"})
        assert r.status_code == 201
    mine = [e for e in r.json["events"] if e["actor"] == "player:red"]
    theirs = [e for e in r.json["events"] if e["actor"] == "auto:blue"]
    assert mine[0]["text"] == "red orders: end" and theirs[0]["text"].startswith("blue (automated, greedy) orders: ")
    assert r.json["seq"] == theirs[-1]["seq"] and client.get(f"/games/{game}", headers=auth).json["your_turn"]
    assert client.get(f"/games/{game}/verify", headers=auth).json["ok"]
