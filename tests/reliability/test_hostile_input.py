"""Issue 8: random and malformed input never crashes, never changes state, always gets a clear error."""
from __future__ import annotations

import json
import string

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.events.registry import EventSchemaError, decode, known_types
from app.events.store import EventStore
from app.rules.errors import OrderError
from app.service import games, transfer
from app.service.demo import SKIRMISH_OPENING

FIXTURE = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
WORDS = st.sampled_from(["move", "attack", "with", "end", "R1", "r2", "B1", "0202", "0403", "9999", "0000",
                         "", ",", "--", "to", "via", "\u00e9", "0101" * 3, "R1R1"])
orders = st.one_of(st.text(max_size=80), st.lists(WORDS, max_size=8).map(" ".join),
                   st.text(alphabet=string.printable, max_size=200))


def _head(store, game_id):
    return store.head(game_id)[0]


@FIXTURE
@given(order=orders, side=st.sampled_from(["red", "blue", "green", "", "RED"]))
def test_random_orders_are_refused_cleanly_or_accepted_legally(store, skirmish, order, side):
    before = _head(store, skirmish)
    try:
        accepted = games.submit(store, skirmish, side, order)
    except OrderError as exc:
        assert str(exc) and _head(store, skirmish) == before
        return
    assert accepted.events[0].payload["side"] == side  # something legal by the right side: it was stored whole


json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
                           max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(type_=st.sampled_from(known_types()) | st.text(max_size=20), version=st.integers(-2, 5) | st.text(max_size=3),
       payload=st.dictionaries(st.text(max_size=12), json_values, max_size=6))
def test_random_event_payloads_are_refused_with_a_schema_error(type_, version, payload):
    try:
        decode(type_, version, payload)
    except EventSchemaError as exc:
        assert str(exc)


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> list[str]:
    store = EventStore(str(tmp_path_factory.mktemp("exp") / "source.sqlite3"))
    game_id = games.create_game(store, "skirmish")
    for side, order in SKIRMISH_OPENING:
        games.submit(store, game_id, side, order)
    return list(transfer.export_lines(store, game_id))


@FIXTURE
@given(data=st.data())
def test_damaged_export_files_are_refused_and_nothing_written(exported, tmp_path_factory, data):
    lines = list(exported)
    i = data.draw(st.integers(0, len(lines) - 1))
    kind = data.draw(st.sampled_from(["junk", "field", "drop", "swap", "char"]))
    if kind == "junk":
        lines[i] = data.draw(st.text(max_size=60)) + "\n"
    elif kind == "field":
        row = json.loads(lines[i])
        key = data.draw(st.sampled_from(sorted(row)))
        value = data.draw(json_values)
        if json.dumps(value) == json.dumps(row[key]):
            return  # the draw changed nothing (e.g. set causation 2 to 2)
        row[key] = value
        lines[i] = json.dumps(row) + "\n"
    elif kind == "drop":
        del lines[i]
    elif kind == "swap":
        j = data.draw(st.integers(0, len(lines) - 1))
        lines[i], lines[j] = lines[j], lines[i]
    else:
        pos = data.draw(st.integers(0, len(lines[i]) - 2))
        lines[i] = lines[i][:pos] + data.draw(st.characters(blacklist_categories=["Cs"])) + lines[i][pos + 1:]
    if lines == exported:
        return  # the draw changed nothing (e.g. swapped a line with itself)
    other = EventStore(str(tmp_path_factory.mktemp("imp") / "other.sqlite3"))
    try:
        transfer.import_game(other, lines)
    except games.GameError as exc:
        assert str(exc)
        assert other.db["events"].count == 0
    else:
        raise AssertionError(f"a damaged file ({kind} at line {i}) was imported")


@pytest.mark.parametrize("number", ["Infinity", "-Infinity", "NaN", "1e400"])
def test_an_export_line_with_a_non_finite_number_is_refused_as_not_json(number):
    with pytest.raises(games.GameError, match="line 1: not JSON"):
        transfer.parse_lines(['{"game_id": "g", "seq": ' + number + "}\n"])
