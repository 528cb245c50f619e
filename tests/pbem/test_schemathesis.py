"""schemathesis against the served OpenAPI document (/openapi.json, through the WSGI app): requests generated
from each operation's schema, most of them with a real game and a real seat's token so they reach past the token
check, must never get a 5xx. Bounded: a fixed number of examples per operation, derandomized. The world and the
check live in tests/reliability/hostile.py (bench/hostile_inputs.py runs them bigger)."""
import pytest
from hypothesis import HealthCheck, given, settings

from tests.reliability import hostile


@pytest.fixture
def served(tmp_path):
    return hostile.openapi_world(str(tmp_path / "st.sqlite3"))


def test_no_request_built_from_the_openapi_document_gets_a_server_error(served):
    """Each operation's requests come from schemathesis's strategy for it, run by hypothesis directly (not through
    schemathesis's pytest plugin, which breaks on newer pytest releases)."""
    _, schema, world = served
    operations = hostile.openapi_operations(schema)
    assert len(operations) >= 15  # every route of the API is in the document (test_api checks which)
    for operation in operations:

        @settings(max_examples=hostile.OPENAPI.ci_examples, deadline=None, derandomize=True, database=None,
                  suppress_health_check=list(HealthCheck))
        @given(case=operation.as_strategy())
        def no_server_error(case):
            hostile.check_openapi_case(case, world)

        no_server_error()
