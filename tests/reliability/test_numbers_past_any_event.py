"""Numbers past any event (app/numbers.py): an event number or a dispute's id larger than a store's integers was a
500 from the API (`OverflowError` binding it, found by the OpenAPI run of bench/hostile_inputs.py on
`GET /games/ID/chain?from=...`) and a traceback from `cli.py log --from`. Every door now takes 1 to
app.numbers.LARGEST and refuses the rest where it enters, saying so, with nothing changed, on both backends."""
from __future__ import annotations

import pytest

from app.mail import inbound
from app.numbers import LARGEST
from tests.reliability import hostile
from tests.reliability.test_invalid_unicode import snapshot

HUGE = 2**64  # past a store's integers (2**63 - 1)


@pytest.fixture
def served(db_location):
    app, _, world = hostile.openapi_world(db_location)
    return app, world, db_location


def http_cases(game: str) -> list[tuple]:
    """(method, path, seat, JSON body): each with a number no event or dispute can have."""
    return [
        ("GET", f"/games/{game}/chain?from={HUGE}", "red", None),
        ("GET", f"/games/{game}/history?from={HUGE}", "red", None),
        ("GET", f"/games/{game}/state?at={HUGE}", "red", None),
        ("GET", f"/replay/{game}/frames.json?from={HUGE}", "red", None),
        ("GET", f"/replay/{game}/map/{HUGE}.svg", "red", None),
        ("POST", f"/games/{game}/orders", "blue", {"order": "end", "expected_seq": HUGE}),
        ("POST", f"/games/{game}/orders?expected_seq={HUGE}", "blue", {"order": "end"}),
        ("POST", f"/games/{game}/fork", "arbiter", {"at": HUGE}),
        ("POST", f"/games/{game}/disputes", "blue", {"order_seq": HUGE, "reason": "too big"}),
        ("POST", f"/games/{game}/disputes/{HUGE}/answer", "red", {"accept": True}),
    ]


def test_an_event_number_past_any_event_is_a_4xx_on_every_route_and_changes_nothing(served):
    app, world, location = served
    client = app.test_client()
    game = world["game_id"]
    before = snapshot(location, game)
    for method, path, seat, body in http_cases(game):
        answer = client.open(path, method=method, json=body,
                             headers={"Authorization": f"Bearer {world['tokens'][seat]}"})
        assert answer.status_code in (404, 422), (path, answer.status_code, answer.get_data(as_text=True))
    assert snapshot(location, game) == before
    limit = client.get(f"/games/{game}/history?from={LARGEST + 1}",
                       headers={"Authorization": f"Bearer {world['tokens']['red']}"})
    assert limit.status_code == 422 and "from" in limit.json["errors"]["query"], limit.json
    assert client.get(f"/games/{game}/history?from={LARGEST}",
                      headers={"Authorization": f"Bearer {world['tokens']['red']}"}).status_code == 200


def test_a_command_line_event_number_past_any_event_is_a_usage_error(run):
    game = run("new", "skirmish").output.strip()
    for args in (["log", game, "--from", str(HUGE)], ["state", game, "--at", str(HUGE)],
                 ["fork", game, "--at", str(HUGE)], ["do", game, "end", "--as", "red", "--expect", str(HUGE)]):
        result = run(*args, ok=False)
        assert result.exit_code == 2 and "is not in the range" in result.output, (args, result.output)


def test_an_email_naming_a_dispute_or_event_past_any_is_refused_with_a_clear_reply(db_location):
    pbem, game_id, tokens, outbox = hostile.mail_world(db_location)
    try:
        before = [e.hash for e in pbem.store.events(game_id)]
        for n, line in enumerate([f"dispute {HUGE}: too big", f"accept dispute {HUGE}", f"seq: {HUGE}\nend"]):
            raw = (f"From: red@x.example\r\nTo: orders@pbem.example\r\nSubject: orders\r\nMessage-ID: <big{n}@x>\r\n"
                   f"\r\ngame: {game_id}\r\ntoken: {tokens['red']}\r\n{line}\r\n").encode()
            result = inbound.ingest(pbem, raw)
            assert result.refused and not result.quarantined and result.applied == 0, (line, result.lines)
        assert [e.hash for e in pbem.store.events(game_id)] == before
    finally:
        pbem.store.close()
