"""Clocks (issue 27, docs/play-by-email.md "Clocks"): a time bank with an increment per turn, vacation days,
forfeit on timeout, resign and draws as events by email, API and CLI; `tick` runs the clocks (freezegun)."""
from __future__ import annotations

import dataclasses
import json

import pytest
from click.testing import CliRunner
from freezegun import freeze_time

from app.mail import inbound
from app.mail.transport import MailConfig
from app.projections import state as projection
from app.rules.catalog import installed
from app.service import audit
from app.service.application import Application
from app.service.errors import PbemError
from app.web import create_app
from cli import cli
from tests import outbox
from tests.core.test_standing_orders import resealed

CATALOG = installed()  # the rule sets installed here

RED, BLUE, ARB = "red@x.example", "blue@x.example", "arb@x.example"


class Outbox(outbox.Outbox):
    def to(self, address):
        return [m for m in self.sent if address in m["To"]]


def seated(store, **settings):
    mail = Outbox()
    app = Application(store, MailConfig(orders_address="orders@pbem.example"), mail)
    game_id, tokens = app.setup.create("skirmish", {"red": RED, "blue": BLUE}, arbiter=ARB, **settings)
    seats = {s: app.seats.authenticate(game_id, t) for s, t in tokens.items()}
    app.setup.join(seats["red"], "r")
    app.setup.join(seats["blue"], "b")
    return app, mail, game_id, seats


def bank_of(store, game_id: str) -> dict:
    return json.loads(store.pbem_settings(game_id)["clock_state"])["left"]


def red_ends_its_turn(app, seats):
    app.orders.submit(seats["red"], "end")
    app.orders.submit(seats["red"], "end")


def test_a_time_bank_spends_the_time_taken_adds_the_increment_and_runs_out(store):
    with freeze_time("2030-01-01 12:00:00") as clock:
        app, mail, game_id, seats = seated(store, bank_hours=10, increment_hours=5, max_hours=12, reminder_hours=2)
        assert bank_of(store, game_id) == {"red": 36000, "blue": 36000}
        clock.tick(4 * 3600)
        red_ends_its_turn(app, seats)  # red took 4 of its 10 hours, and gets 5 more: 11
        assert bank_of(store, game_id) == {"red": 11 * 3600, "blue": 36000}
        assert "time bank: 11.0 hour(s) left; +5 hours after each turn, at most 12 hours" in \
            app.clocks.show(seats["red"])["clock"]
        assert "your time bank runs out at 2030-01-02 02:00 UTC" in app.clocks.show(seats["blue"])["clock"]
        clock.tick(8 * 3600 + 60)
        assert app.deadlines.tick() == [f"{game_id}: reminded blue"]
        assert "when your time bank runs out" in mail.to(BLUE)[-1].get_content()
        clock.tick(2 * 3600)
        assert app.deadlines.tick() == [f"{game_id}: deadline passed for blue"]
        assert app.deadlines.tick() == []  # once
        assert "Deadline passed: blue has not moved" in mail.to(ARB)[-1]["Subject"]
        # blue moves at last: its bank is spent past nothing, the ceiling holds red's
        app.orders.submit(seats["blue"], "end")
        app.orders.submit(seats["blue"], "end")
        assert bank_of(store, game_id) == {"red": 11 * 3600, "blue": pytest.approx(5 * 3600 - 60, abs=1)}
        clock.tick(3600)
        red_ends_its_turn(app, seats)
        assert bank_of(store, game_id)["red"] == 12 * 3600  # 11 - 1 + 5, at most 12


def test_vacation_stops_the_clock_within_the_allowance_and_the_other_side_is_told(store):
    with freeze_time("2030-01-01 12:00:00") as clock:
        app, mail, game_id, seats = seated(store, deadline_hours=24, vacation_days=3)
        done = app.clocks.vacation(seats["red"], 2)
        assert done["done"] == "red is on vacation from 2030-01-01 12:00 to 2030-01-03 12:00 UTC"
        assert "red is on vacation" in mail.to(BLUE)[-1]["Subject"]
        head = store.head(game_id)[0]
        with pytest.raises(PbemError, match="3 vacation day\\(s\\) a player; 1 left to you, so 2 cannot be taken"):
            app.clocks.vacation(seats["red"], 2)
        assert store.head(game_id)[0] == head
        clock.tick(60 * 3600)  # 24 hours of deadline, and 48 of vacation: not yet
        assert app.deadlines.tick() == []
        clock.tick(13 * 3600)
        assert app.deadlines.tick() == [f"{game_id}: deadline passed for red"]
        assert "vacation: 1 of 3 day(s) left" in app.clocks.show(seats["red"])["clock"]


def test_forfeit_on_timeout_ends_the_game_in_the_deadlines_own_write(store):
    with freeze_time("2030-01-01 12:00:00") as clock:
        app, mail, game_id, seats = seated(store, deadline_hours=24, on_deadline="forfeit")
        head = store.head(game_id)[0]
        clock.tick(25 * 3600)
        assert app.deadlines.tick() == [f"{game_id}: deadline passed for red, passed: forfeit"]
        written = list(store.events(game_id, head + 1))
        assert [e.type for e in written] == ["core.DeadlinePassed", "core.Resigned", "core.SeedRevealed"]
        state = projection.load(store, CATALOG, game_id)
        outcome = CATALOG.rules("skirmish").outcome(state.game)
        assert (outcome.winner, outcome.reason) == ("blue", "red lost on time (due 2030-01-02T12:00+00:00)")
        assert all("Game over: blue" in mail.to(a)[-1]["Subject"] for a in (RED, BLUE))
        assert audit.verify(CATALOG, list(store.events(game_id)), check_dice=True).ok
        assert app.deadlines.tick() == []


def _order_email(game_id: str, sender: str, token: str, body: str, mid: str) -> bytes:
    return (f"From: {sender}\r\nTo: orders+{game_id}@pbem.example\r\nSubject: orders\r\nMessage-ID: {mid}\r\n\r\n"
            f"token: {token}\r\n{body}\r\n").encode()


def test_resign_by_email_ends_the_game_and_reveals_the_seed(store):
    mail = Outbox()
    app = Application(store, MailConfig(orders_address="orders@pbem.example"), mail)
    game_id, tokens = app.setup.create("skirmish", {"red": RED, "blue": BLUE})
    for side in ("red", "blue"):
        app.setup.join(app.seats.authenticate(game_id, tokens[side]), side)
    result = inbound.ingest(app, _order_email(game_id, BLUE, tokens["blue"], "resign", "<r1@x>"))
    assert result.applied == 1 and not result.refused, result.lines
    state = projection.load(store, CATALOG, game_id)
    outcome = CATALOG.rules("skirmish").outcome(state.game)
    assert (outcome.winner, outcome.reason) == ("red", "blue resigned") and state.meta.revealed_seed
    assert "Game over: red" in mail.to(RED)[-1]["Subject"]
    report = audit.verify(CATALOG, list(store.events(game_id)), check_dice=True)
    assert report.ok and report.rolls_unchecked == 0
    late = inbound.ingest(app, _order_email(game_id, RED, tokens["red"], "resign", "<r2@x>"))
    assert late.refused and "the game is over" in "\n".join(late.lines)


def test_a_draw_offered_by_api_is_declined_by_email_then_offered_again_and_accepted(tmp_path):
    mail = Outbox()
    web = create_app({"OPEN_GAME_CREATION": True, "HEXLEDGER_DB": str(tmp_path / "draw.sqlite3"),
                      "MAIL_TRANSPORT": mail, "MAIL": MailConfig(orders_address="orders@pbem.example")})
    client = web.test_client()
    made = client.post("/games", json={"rules": "skirmish", "players": {"red": RED, "blue": BLUE},
                                       "bank_hours": 72, "increment_hours": 24, "vacation_days": 7}).json
    game_id, tok = made["game_id"], made["tokens"]

    def api(method, path, seat, body=None):
        return client.open(f"/games/{game_id}" + (f"/{path}" if path else ""), method=method, json=body,
                           headers={"Authorization": f"Bearer {tok[seat]}"})

    for side in ("red", "blue"):
        assert api("POST", "join", side, {"seed_text": side}).status_code == 201
    shown = api("GET", "clock", "red").json
    assert (shown["bank_hours"], shown["increment_hours"], shown["vacation_days"]) == (72, 24, 7)
    assert shown["takes_draw_offers"] is True  # blue is a player: the play page offers "offer draw"
    assert api("POST", "draw", "red", {"action": "accept"}).status_code == 400  # nothing offered
    assert api("POST", "draw", "red", {"action": "offer"}).status_code == 201
    assert "red offers a draw" in mail.to(BLUE)[-1]["Subject"]
    assert api("POST", "draw", "red", {"action": "offer"}).json["message"].startswith("red's draw offer stands")
    service = Application.open(str(tmp_path / "draw.sqlite3"), MailConfig(orders_address="orders@pbem.example"), mail)
    declined = inbound.ingest(service, _order_email(game_id, BLUE, tok["blue"], "decline draw", "<d1@x>"))
    assert declined.applied == 1, declined.lines
    assert "blue declines the draw" in mail.to(RED)[-1]["Subject"]
    assert api("POST", "draw", "blue", {"action": "offer"}).status_code == 201
    accepted = api("POST", "draw", "red", {"action": "accept"})
    assert accepted.status_code == 201 and accepted.json["receipt"]
    summary = api("GET", "", "red").json
    assert summary["outcome"] == {"winner": None, "reason": "a draw agreed (red accepted the offer)"}
    events = [json.loads(line) for line in api("GET", "export", "blue").get_data(as_text=True).splitlines()]
    assert [e["type"] for e in events[-2:]] == ["core.DrawAnswered", "core.SeedRevealed"]
    said = [e["text"] for e in api("GET", "history?from=1&limit=1000", "blue").json["events"]]
    assert [t for t in said if "draw" in t] == ["red offers a draw", "blue declines the draw: the game goes on",
                                                "blue offers a draw", "red accepts the draw: the game ends in a draw"]


def test_resign_and_draws_from_the_command_line_and_none_for_an_automated_side(tmp_path):
    db = str(tmp_path / "cli.sqlite3")
    runner = CliRunner()
    game_id = runner.invoke(cli, ["--db", db, "new", "olympic"]).output.strip()
    assert runner.invoke(cli, ["--db", db, "join", game_id, "--side", "american", "--name", "me"]).exit_code == 0
    refused = runner.invoke(cli, ["--db", db, "draw", game_id, "offer", "--as", "american"])
    assert refused.exit_code != 0 and "japanese is played by the server" in refused.output
    done = runner.invoke(cli, ["--db", db, "resign", game_id, "--as", "american"])
    assert done.exit_code == 0 and done.output.strip() == "american resigned"
    shown = runner.invoke(cli, ["--db", db, "show", game_id])
    assert "game over: japanese - american resigned" in shown.output
    verified = runner.invoke(cli, ["--db", db, "verify", game_id, "--dice"])
    assert verified.exit_code == 0, verified.output


def test_the_clock_says_no_draw_offer_is_taken_where_the_server_plays_the_other_side(store):
    app = Application(store, MailConfig(orders_address="orders@pbem.example"), Outbox())
    game_id, tokens = app.setup.create("olympic", {"american": RED})
    seat = app.seats.authenticate(game_id, tokens["american"])
    app.setup.join(seat, "a")
    assert app.clocks.show(seat)["takes_draw_offers"] is False  # so the play page offers no "offer draw"
    with pytest.raises(PbemError, match="japanese is played by the server"):
        app.clocks.draw(seat, "offer")


def test_a_forged_concession_or_draw_answer_is_found_by_verify(store):
    app, mail, game_id, seats = seated(store)
    app.clocks.draw(seats["red"], "offer")
    events = list(store.events(game_id))
    offer = events[-1]

    def appended(type_: str, payload: dict) -> list:
        added = dataclasses.replace(offer, seq=offer.seq + 1, type=type_, payload=payload)
        return resealed([*events, added], added.seq, payload)

    own = audit.verify(CATALOG, appended("core.DrawAnswered", {"side": "red", "accepted": True}))
    assert own.first_bad_seq == offer.seq + 1 and "no other side's offer stands" in own.problems[0].message
    wrong = audit.verify(CATALOG, appended("core.Resigned", {"side": "red", "winner": "red", "reason": "red resigned"}))
    assert wrong.first_bad_seq == offer.seq + 1 and "red concedes to red" in wrong.problems[0].message
    assert audit.verify(CATALOG, appended("core.DrawAnswered", {"side": "blue", "accepted": False})).ok
