"""Issue 8: random and malformed input never crashes, never changes state, always gets a clear error.

The strategies and properties live in tests/reliability/hostile.py (bench/hostile_inputs.py runs them bigger)."""
from __future__ import annotations

import pytest
from hypothesis import given

from app.service import games, transfer
from tests.reliability import hostile


@hostile.ci_budget(hostile.ORDERS)
@given(**hostile.ORDER_INPUTS)
def test_random_orders_are_refused_cleanly_or_accepted_legally(store, skirmish, order, side):
    hostile.check_order(store, skirmish, order, side)


@hostile.ci_budget(hostile.PAYLOADS)
@given(**hostile.PAYLOAD_INPUTS)
def test_random_event_payloads_are_refused_with_a_schema_error(type_, version, payload):
    hostile.check_payload(type_, version, payload)


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> list[str]:
    return hostile.exported_lines(str(tmp_path_factory.mktemp("exp") / "source.sqlite3"))


@hostile.ci_budget(hostile.EXPORTS)
@given(**hostile.EXPORT_INPUTS)
def test_damaged_export_files_are_refused_and_nothing_written(exported, tmp_path_factory, data):
    hostile.check_damaged_export(exported, hostile.new_store_in(tmp_path_factory.mktemp("imp")), data)


@pytest.mark.parametrize("number", ["Infinity", "-Infinity", "NaN", "1e400"])
def test_an_export_line_with_a_non_finite_number_is_refused_as_not_json(number):
    with pytest.raises(games.GameError, match="line 1: not JSON"):
        transfer.parse_lines(['{"game_id": "g", "seq": ' + number + "}\n"])
