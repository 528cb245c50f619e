"""schemathesis against the served OpenAPI document (/openapi.json, through the WSGI app): requests generated
from each operation's schema, most of them with a real game and a real seat's token so they reach past the token
check, must never get a 5xx. Bounded: a fixed number of examples per operation, derandomized. The world and the
check live in tests/reliability/hostile.py (bench/hostile_inputs.py runs them bigger)."""
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.rules.catalog import installed
from tests.reliability import hostile

CATALOG = installed()  # the rule sets installed here


@pytest.fixture
def served(db_location):
    """The served app on each backend."""
    return hostile.openapi_world(db_location)


@pytest.mark.slow  # every operation of the OpenAPI document
def test_no_request_built_from_the_openapi_document_gets_a_server_error(tmp_path, pg_url):
    """Each operation's requests come from schemathesis's strategy for it, run by hypothesis directly (not through
    schemathesis's pytest plugin, which breaks on newer pytest releases). Each request generated goes to the app
    on each backend, with that backend's game and tokens: the cases are generated once (derandomized, they were
    the same cases on both when each backend generated its own)."""
    served = [hostile.openapi_world(str(tmp_path / "backend.sqlite3")), hostile.openapi_world(pg_url)]
    operations = hostile.openapi_operations(served[0][1])
    assert len(operations) >= 15  # every route of the API is in the document (test_api checks which)
    for operation in operations:

        @settings(max_examples=hostile.OPENAPI.ci_examples, deadline=None, derandomize=True, database=None,
                  suppress_health_check=list(HealthCheck))
        @given(case=operation.as_strategy())
        def no_server_error(case):
            hostile.check_openapi_case_on_each(case, served)

        no_server_error()
    sent = [next(world["turn"]) for _, _, world in served]  # requests each backend was sent
    assert sent[0] == sent[1] >= len(operations)


@hostile.ci_budget(hostile.DEEP_JSON)
@given(**hostile.DEEP_JSON_INPUTS)
def test_deeply_nested_json_on_any_route_never_gets_a_server_error(served, route, depth, shape, credential):
    """20,000 levels gave 500 on every JSON route, POST /games included (no credential needed)."""
    hostile.check_deep_json(served, route, depth, shape, credential)


@pytest.mark.parametrize("rules_name", hostile.ORDER_GAMES)
def test_orders_in_any_games_language_never_get_a_server_error(served, rules_name):
    """Over HTTP, as each seat, orders and previews with words a hostile player puts where numbers and hexes go
    (`commit ²` raised in the Ichi-Go parser: 500): refused (4xx) or accepted, never a 5xx."""

    app, _, _ = served
    client = app.test_client()
    rules = CATALOG.rules(rules_name)
    players = {side: f"{side}@x.example" for side in rules.sides}
    r = client.post("/games", json={"rules": rules_name, "players": players, "auto": []},  # every seat a player
                    headers={"Authorization": f"Bearer {hostile.OPERATOR_KEY}"})
    assert r.status_code == 201, r.json
    game_id, tokens = r.json["game_id"], r.json["tokens"]

    @settings(max_examples=40, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(verb=st.sampled_from(["commit", "attack", "move", "lose", "roll", "enter", "end", "tanks"]),
           words=st.lists(st.sampled_from(hostile.HOSTILE_WORDS), min_size=1, max_size=4),
           seat=st.sampled_from(sorted(tokens)), route=st.sampled_from(["orders", "preview"]))
    def no_server_error(verb, words, seat, route):
        text = " ".join([verb, *words])
        answer = client.post(f"/games/{game_id}/{route}", json={"order": text},
                             headers={"Authorization": f"Bearer {tokens[seat]}"})
        assert answer.status_code < 500, (text, answer.status_code, answer.get_data(as_text=True)[:200])

    no_server_error()
