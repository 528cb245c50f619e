"""The chain's encoding (app/events/envelope.py): one canonical JSON text per value, and an event's hash over its
fields whether its payload is encoded inside the body or once beforehand (as the store does when it seals)."""
from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from app.events.envelope import StoredEvent, canonical_json, chain_hash, sealed_body_json, sha256_hex

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
