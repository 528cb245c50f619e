"""schemathesis against the served OpenAPI document (/openapi.json, through the WSGI app): requests generated
from each operation's schema, most of them with a real game and a real seat's token so they reach past the token
check, must never get a 5xx. Bounded: a fixed number of examples per operation, derandomized."""
import itertools

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error

from app.mail.transport import MailConfig
from app.web import create_app


class Outbox:
    def send(self, msg):
        pass


WORLD: dict = {}
_turn = itertools.count()


@pytest.fixture
def served_schema(tmp_path):
    app = create_app({"HEXLEDGER_DB": str(tmp_path / "st.sqlite3"), "MAIL_TRANSPORT": Outbox(), "MAIL": MailConfig(),
                      "HEXLEDGER_RATE_LIMIT": "1000000 per minute",
                      "HEXLEDGER_REPLAY_RATE_LIMIT": "1000000 per minute"})
    client = app.test_client()
    r = client.post("/games", json={"rules": "skirmish", "players": {"red": "r@x.example", "blue": "b@x.example"},
                                    "arbiter": "a@x.example"})
    game_id, tokens = r.json["game_id"], r.json["tokens"]
    for seat in ("red", "blue"):
        client.post(f"/games/{game_id}/join", json={"seed_text": seat},
                    headers={"Authorization": f"Bearer {tokens[seat]}"})
    client.post(f"/games/{game_id}/orders", data="move R1 0202", content_type="text/plain",
                headers={"Authorization": f"Bearer {tokens['red']}"})
    WORLD.update(game_id=game_id, tokens=tokens)
    return schemathesis.openapi.from_wsgi("/openapi.json", app)


def test_no_request_built_from_the_openapi_document_gets_a_server_error(served_schema):
    """Each operation's requests come from schemathesis's strategy for it, run by hypothesis directly (not through
    schemathesis's pytest plugin, which breaks on newer pytest releases)."""
    operations = [result.ok() for result in served_schema.get_all_operations()]
    assert len(operations) >= 15  # every route of the API is in the document (test_api checks which)
    for operation in operations:

        @settings(max_examples=30, deadline=None, derandomize=True, database=None,
                  suppress_health_check=list(HealthCheck))
        @given(case=operation.as_strategy())
        def no_server_error(case):
            n = next(_turn)
            if n % 4:  # three in four: the real game and a real seat (red, blue, arbiter in turn)
                if case.path_parameters and "game_id" in case.path_parameters:
                    case.path_parameters["game_id"] = WORLD["game_id"]
                seat = ("red", "blue", "arbiter")[n % 3]
                case.headers = {**(case.headers or {}), "Authorization": f"Bearer {WORLD['tokens'][seat]}"}
            case.call_and_validate(checks=[not_a_server_error])

        no_server_error()
