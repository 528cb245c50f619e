"""The chain's encoding (app/events/envelope.py): one canonical JSON text per value, and an event's hash over its
fields whether its payload is encoded inside the body or once beforehand (as the store does when it seals)."""
from __future__ import annotations

import dataclasses
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.events.envelope import StoredEvent, canonical_json, chain_hash, made_event, sealed_body_json, sha256_hex

JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
                    | st.text(), lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner,
                                                                                             max_size=4),
                    max_leaves=20)
REFERENCE = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


@given(JSON)
def test_canonical_json_is_the_sorted_compact_encoding(value):
    assert canonical_json(value) == REFERENCE.encode(value)


@given(payload=st.dictionaries(st.text(), JSON, max_size=4), text=st.text(), seq=st.integers(1, 2**40),
       version=st.integers(1, 9) | st.booleans(), causation=st.none() | st.integers(1, 2**40))
def test_an_event_hashes_the_same_with_its_payload_encoded_first(payload, text, seq, version, causation):
    fields = {"game_id": f"g-{text}", "seq": seq, "type": f"x.{text}", "version": version, "payload": payload,
              "actor": text, "at": "2030-01-01T00:00:00.000000Z", "causation": causation, "prev_hash": "0" * 64,
              "salt": "5a" * 16}
    laid_out = sealed_body_json(fields["type"], version, canonical_json(payload), text, fields["at"], causation,
                                fields["salt"])
    body = {k: v for k, v in fields.items() if k not in ("game_id", "seq", "prev_hash")}
    assert laid_out == canonical_json(body)
    assert chain_hash(fields["game_id"], seq, "0" * 64, sha256_hex(laid_out)) == StoredEvent.sealed(**fields).hash


@pytest.mark.parametrize("salt", [None, "5a" * 16])
def test_an_event_made_by_the_stores_shortcut_is_the_dataclasss_own(salt):
    """made_event (seal and a row read make every StoredEvent with it) gives the object StoredEvent(...) gives: every
    field, equal, frozen; a field added to StoredEvent and not to made_event fails here."""
    values = ("g-1", 7, "x.Moved", 2, {"unit": "R1"}, "player:red", "2030-01-01T00:00:00.000000Z", 6, "0" * 64,
              "f" * 64, salt)
    made, built = made_event(*values), StoredEvent(*values)
    assert made == built and repr(made) == repr(built)
    assert made.__dict__ == built.__dict__ == dict(zip([f.name for f in dataclasses.fields(StoredEvent)], values,
                                                       strict=True))
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.seq = 8
