"""The rule sets are passed in (issue 26; docs/architecture.md, "The application service"): a server built with a
catalog of one game offers that game only, by every door, and nothing looks a rule set up anywhere else."""
from __future__ import annotations

import pytest

from app.events.store import EventStore
from app.mail.transport import MailConfig
from app.rules import catalog
from app.rules.base import Catalog, UnknownRules
from app.rules.skirmish import GAME as SKIRMISH
from app.service.application import Application
from app.web import create_app
from tests.outbox import Outbox

PLAYERS = {"red": "red@x.example", "blue": "blue@x.example"}


@pytest.fixture
def only_skirmish(monkeypatch):
    """A catalog of skirmish alone; the installed games cannot be found meanwhile, so a lookup that does not go
    through the catalog given fails the test."""
    def nobody_looks_here(*_):
        raise AssertionError("a rule set was looked up among the installed games, not in the catalog given")

    for finder in ("_find", "_packages", "_entry_points"):
        monkeypatch.setattr(catalog, finder, nobody_looks_here)
    return Catalog.of(SKIRMISH)


def test_a_service_built_with_one_game_refuses_another_and_writes_nothing(tmp_path, only_skirmish):
    store = EventStore(str(tmp_path / "one.sqlite3"))
    app = Application(store, MailConfig(orders_address="orders@x.example"), Outbox(), catalog=only_skirmish)
    with pytest.raises(UnknownRules, match=r"unknown rules 'snc'; available: skirmish$"):
        app.setup.create("snc", PLAYERS)
    assert store.games() == []
    game_id, tokens = app.setup.create("skirmish", PLAYERS)
    red = app.seats.authenticate(game_id, tokens["red"])
    app.setup.join(red, "red seed")
    assert app.reads.view(red)["players"]["red"]
    assert [r["name"] for r in app.reads.rule_sets()] == ["skirmish"]


def test_the_web_app_offers_and_plays_only_the_games_of_its_catalog(tmp_path, only_skirmish):
    db = str(tmp_path / "web.sqlite3")
    client = create_app({"OPEN_GAME_CREATION": True, "HEXLEDGER_DB": db,
                         "MAIL_TRANSPORT": Outbox(), "MAIL": MailConfig(orders_address="orders@x.example"),
                         "CATALOG": only_skirmish}).test_client()
    assert [r["name"] for r in client.get("/rules").json] == ["skirmish"]
    refused = client.post("/games", json={"rules": "snc", "players": PLAYERS})
    assert refused.status_code == 400 and "unknown rules 'snc'; available: skirmish" in refused.json["message"]
    assert EventStore(db).games() == []
    made = client.post("/games", json={"rules": "skirmish", "players": PLAYERS})
    assert made.status_code == 201, made.json


def test_a_catalog_given_with_the_sender_process_is_refused_at_start_not_lost_in_the_sender(tmp_path, only_skirmish):
    """`serve`'s sender process starts afresh and finds the installed games itself: a catalog given to the web app
    would not reach it (its turn emails would be laid out by other rules, or not at all), so the app refuses the
    pair when it is made, before any process starts, and says what to use instead."""
    with pytest.raises(ValueError, match="a CATALOG object stays in this process: use 'background' with it"):
        create_app({"HEXLEDGER_DB": str(tmp_path / "p.sqlite3"), "MAIL_SENDER": "process",
                    "MAIL": MailConfig(orders_address="orders@x.example"), "CATALOG": only_skirmish})
