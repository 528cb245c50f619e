"""Audit (issue 2 item 8): the chain, and every command re-run with its recorded dice."""
import dataclasses
import re
import sqlite3

import pytest

from app.rules.catalog import installed
from app.rules.skirmish import GAME
from app.service import audit, games
from app.service.demo import SKIRMISH_OPENING
from tests.forgery import reseal

CATALOG = installed()  # the rule sets installed here


def rules_changed(**data_changes):
    """The rule sets with skirmish as it would be after a change of its data (a table cell, an allowance)."""
    changed = dataclasses.replace(GAME, load_data=lambda options: dataclasses.replace(GAME.load_data(options),
                                                                                      **data_changes))
    return installed(changed)


@pytest.fixture
def played(store, skirmish):
    for side, order in SKIRMISH_OPENING:
        games.submit(store, CATALOG, skirmish, side, order)
    return skirmish


def _tamper(path, sql, args=()):
    """What an attacker with the database file could do: drop the guard triggers and edit a row."""
    conn = sqlite3.connect(path)
    conn.execute("DROP TRIGGER events_are_append_only_update")
    conn.execute(sql, args)
    conn.commit()


def test_clean_game_verifies(store, played):
    report = audit.verify(CATALOG, list(store.events(played)))
    assert report.ok and report.orders_replayed == len(SKIRMISH_OPENING)


@pytest.mark.parametrize("victim_type", ["skirmish.UnitMoved", "core.DieRolled", "core.PlayerJoined"])
def test_one_changed_byte_fails_at_that_event(store, played, victim_type):
    victim = next(e for e in store.events(played) if e.type == victim_type)
    raw = sqlite3.connect(store.path).execute(
        "SELECT payload FROM events WHERE game_id = ? AND seq = ?", [played, victim.seq]).fetchone()[0]
    i = [m.start(1) for m in re.finditer(r':"([^"]+)"', raw)][-1]  # first character of the last string value
    changed = raw[:i] + ("x" if raw[i] != "x" else "y") + raw[i + 1:]
    _tamper(store.path, "UPDATE events SET payload = ? WHERE game_id = ? AND seq = ?", [changed, played, victim.seq])
    report = audit.verify(CATALOG, list(store.events(played)))
    assert not report.ok
    assert report.first_bad_seq == victim.seq
    assert report.problems[0].check == "chain"


def test_a_rules_change_is_reported_at_the_first_differing_event(store, played):
    attack = next(e for e in store.events(played) if e.type == "skirmish.AttackResolved")
    roll = attack.payload["roll"]
    standard = GAME.data()
    changed = dict(standard.results)
    changed[roll] = tuple("NE" if r != "NE" else "D1" for r in standard.results[roll])
    report = audit.verify(rules_changed(results=changed), list(store.events(played)))
    assert not report.ok and report.problems[0].check == "replay"
    assert report.first_bad_seq == attack.seq


def test_an_order_the_rules_now_refuse_is_reported(store, played):
    order = next(e for e in store.events(played) if e.type == "core.OrderGiven")
    assert order.payload["text"] == "move R1 0202"
    report = audit.verify(rules_changed(allowance=1), list(store.events(played)))  # R1's first move enters woods
    assert report.first_bad_seq == order.seq
    assert "SK 4.1" in report.problems[0].message


def test_removed_event_breaks_the_chain(store, played):
    events = list(store.events(played))
    del events[5]
    report = audit.verify(CATALOG, events)
    assert report.first_bad_seq == 6


def test_an_injected_resealed_game_event_is_caught_by_replay(store, played):
    """Re-hashing the whole chain hides an edit from the chain check, not from the replay."""
    events = list(store.events(played))
    forged, prev = [], None
    for e in events:
        fields = e.hashed_fields()
        if e.type == "skirmish.UnitMoved" and e.payload["unit"] == "R2":
            fields["payload"] = {**e.payload, "path": ["0203", "0302"]}
        if prev is not None:
            fields["prev_hash"] = prev.hash
        prev = type(e).sealed(**fields)
        forged.append(prev)
    report = audit.verify(CATALOG, forged)
    moved = next(e for e in events if e.type == "skirmish.UnitMoved" and e.payload["unit"] == "R2")
    assert report.first_bad_seq == moved.seq


@pytest.mark.parametrize("value", ["four", "4"])
def test_a_resealed_payload_of_the_wrong_type_is_a_schema_problem(store, played, value):
    """The play read trusts what the store's chain seals (registry.decode_stored); the audit, which also checks
    export files before an import, validates every payload through its schema, and refuses one ("4") that the
    schema would read as a number but the trusted read would not."""
    events = list(store.events(played))
    roll = next(e for e in events if e.type == "core.DieRolled")
    forged = reseal([dataclasses.replace(e, payload={**e.payload, "value": value})
                     if e is roll else e for e in events])
    report = audit.verify(CATALOG, forged)
    assert report.first_bad_seq == roll.seq and report.problems[0].check == "schema"


def test_a_players_verify_is_kept_per_head_and_redone_after_an_append(tmp_path, monkeypatch):
    """`GET /games/G/verify` re-ran every order of the game for each call (a 600-undo game: 4.1 s, and a player may
    call it 120 times a minute). The report is now kept per game and head: asked again at the same head, by any
    seat, no order is re-run; after an append it is made anew, and says so."""
    from app.mail.transport import MailConfig
    from app.web import create_app
    from tests.outbox import Outbox

    app = create_app({"OPEN_GAME_CREATION": True, "HEXLEDGER_DB": str(tmp_path / "verify.sqlite3"),
                      "MAIL_TRANSPORT": Outbox(), "MAIL": MailConfig()})
    client = app.test_client()
    made = client.post("/games", json={"rules": "skirmish", "players": {"red": "r@x.example", "blue": "b@x.example"}})
    game_id, tokens = made.json["game_id"], made.json["tokens"]
    seat = {side: {"Authorization": f"Bearer {tokens[side]}"} for side in ("red", "blue")}
    for side in ("red", "blue"):
        client.post(f"/games/{game_id}/join", json={"seed_text": side}, headers=seat[side])
    runs = []
    real = audit._replay
    monkeypatch.setattr(audit, "_replay", lambda *a: runs.append(1) or real(*a))
    first = client.get(f"/games/{game_id}/verify", headers=seat["red"]).json
    assert first["ok"] and len(runs) == 1
    for side in ("red", "blue", "red"):
        assert client.get(f"/games/{game_id}/verify", headers=seat[side]).json == first
    assert len(runs) == 1
    assert client.post(f"/games/{game_id}/orders", json={"order": "move R1 0202"}, headers=seat["red"]).status_code \
        == 201
    after = client.get(f"/games/{game_id}/verify", headers=seat["blue"]).json
    assert len(runs) == 2 and after["ok"] and after["events"] > first["events"]
