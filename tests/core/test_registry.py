"""Event types: validated on write and on read, versioned, upcast (issue 2 item 3)."""
import json
from dataclasses import dataclass
from pathlib import Path

import pytest

from app.events import core
from app.events.registry import EventSchemaError, decode, decode_stored, encode, event_type, spec_of
from app.rules.catalog import installed


@event_type("test.Renamed", version=2, upcasters={1: lambda p: {"unit": p.pop("name"), **p}})
@dataclass(frozen=True)
class Renamed:
    unit: str
    hexes: list[str]


def test_round_trip():
    event = core.DieRolled(index=3, sides=6, value=4, purpose="attack")
    assert decode(*encode(event)) == event


def test_old_schema_version_is_upcast_on_read():
    assert decode("test.Renamed", 1, {"name": "R1", "hexes": ["0101"]}) == Renamed("R1", ["0101"])
    assert encode(Renamed("R1", ["0101"])) == ("test.Renamed", 2, {"unit": "R1", "hexes": ["0101"]})


@pytest.mark.parametrize("payload", [{"index": "x", "sides": 6, "value": 4, "purpose": "p"},
                                     {"index": 1, "sides": 6, "value": 4},
                                     {"index": 1, "sides": 6, "value": 4, "purpose": "p", "extra": 1}])
def test_bad_payload_refused_on_read(payload):
    with pytest.raises(EventSchemaError, match="core.DieRolled"):
        decode("core.DieRolled", 1, payload)


def test_bad_payload_refused_on_write():
    with pytest.raises(EventSchemaError):
        encode(core.DieRolled(index="seven", sides=6, value=4, purpose="p"))


def test_unknown_type_and_future_version_refused():
    with pytest.raises(EventSchemaError, match="unknown event type"):
        decode("core.Nope", 1, {})
    with pytest.raises(EventSchemaError, match="version 9"):
        decode("core.DieRolled", 9, {"index": 1, "sides": 6, "value": 4, "purpose": "p"})


def test_a_version_without_upcasters_cannot_be_declared():
    with pytest.raises(ValueError, match="lacks upcasters"):
        @event_type("test.Broken", version=2)
        @dataclass(frozen=True)
        class Broken:
            x: int


def test_a_malformed_old_payload_is_a_schema_error_not_a_crash():
    with pytest.raises(EventSchemaError, match="cannot upcast"):
        decode("test.Renamed", 1, {"hexes": ["0101"]})


@pytest.mark.parametrize("payload", [{"index": 1, "sides": 6, "value": 4},
                                     {"index": 1, "sides": 6, "value": 4, "purpose": "p", "extra": 1}])
def test_a_stored_payload_that_does_not_fit_its_type_is_refused_on_the_trusted_read(payload):
    with pytest.raises(EventSchemaError, match="core.DieRolled"):
        decode_stored("core.DieRolled", 1, payload)


def test_the_trusted_read_builds_the_same_event_as_the_full_read():
    event = core.DieRolled(index=3, sides=6, value=4, purpose="attack")
    assert decode_stored(*encode(event)) == decode(*encode(event)) == event
    assert decode_stored("test.Renamed", 1, {"name": "R1", "hexes": ["0101"]}) == Renamed("R1", ["0101"])


EXPORTS = sorted((Path(__file__).parents[1] / "data").glob("exports-*/*.jsonl"))


def schema_payload(event) -> dict:
    """The payload as the event's marshmallow schema dumps and validates it (what `encode` wrote before its plain
    check)."""
    schema = spec_of(event).schema
    payload = schema.dump(event)
    assert not schema.validate(payload)
    return payload


def test_every_stored_event_encodes_to_the_payload_its_schema_writes():
    """The plain check (values already of their JSON types) writes the schema's payload, key for key and in the
    same order: the same stored text and hash as before it, for every event type the stored exports hold."""
    seen = set()
    for path in EXPORTS:
        lines = [json.loads(line) for line in filter(None, path.read_text().splitlines())]
        installed().rules(lines[0]["payload"]["rules"])  # the game's event types registered
        for stored in lines:
            event = decode(stored["type"], stored["version"], stored["payload"])
            payload, expected = encode(event)[2], schema_payload(event)
            assert payload == expected and list(payload) == list(expected)
            seen.add(stored["type"])
    assert len(seen) >= 40


@pytest.mark.parametrize("event, payload", [
    (Renamed("R1", ("0101", "0102")), {"unit": "R1", "hexes": ["0101", "0102"]}),  # a tuple for a list
    (core.DieRolled(index=True, sides=6, value=4, purpose="p"), {"index": 1, "sides": 6, "value": 4, "purpose": "p"}),
])
def test_a_value_not_of_its_json_type_is_converted_as_the_schema_converts_it(event, payload):
    assert encode(event)[2] == payload == schema_payload(event)


@pytest.mark.parametrize("event", [core.DieRolled(index=None, sides=6, value=4, purpose="p"),
                                   core.DieRolled(index=1, sides=6, value=4, purpose=None)])
def test_a_value_the_schema_refuses_is_refused_on_write(event):
    with pytest.raises(EventSchemaError):
        encode(event)
