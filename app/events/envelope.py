"""The stored event envelope and its hash chain.

Every event carries the hash of the event before it and its own SHA-256 over a canonical JSON encoding of all
its other fields, so changing any byte of any stored event breaks the chain from that point on.

Two layouts of that hash (docs/core.md, "Salted events"). A *salted* event (every event the store seals since
issue 31) carries a random `salt` and is hashed in two steps: its body (type, version, payload, actor, time,
causation and the salt) to a digest, `sealed`, then that digest with its place in the chain (game, seq, previous
hash). The salt makes `sealed` a hiding commitment: seeing it, or the hash, tells nothing of a payload one may not
see, even to someone who can list every payload it might be. And the chain can be checked from (seq, sealed, hash)
alone, without any payload: what a player is given during play. A *legacy* event (no salt: games stored before)
keeps the one-step hash over all its fields, so old games verify as they always did.
"""
from __future__ import annotations

import hashlib
import json
import re
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, NamedTuple

GENESIS_HASH = "0" * 64


_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
_STRING = json.encoder.encode_basestring  # the encoder's own quoting of a string (ensure_ascii=False): C
json_string = _STRING  # the same, for the modules that lay canonical JSON out around values (receipts)
# _CANONICAL's C encoder, made once (JSONEncoder.encode makes one a call), without the check for circular
# containers (a payload is JSON data: such a value ends in RecursionError instead of ValueError)
_C_ENCODER = json.encoder.c_make_encoder and json.encoder.c_make_encoder(
    None, _CANONICAL.default, _STRING, None, ":", ",", True, False, False)


def canonical_json(obj: Any) -> str:
    """One encoding per value: sorted keys, no whitespace, UTF-8, no NaN."""
    return "".join(_C_ENCODER(obj, 0)) if _C_ENCODER else _CANONICAL.encode(obj)


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


SALT_BYTES = 16  # 128 bits: nobody enumerates the salts of one payload
SALT_PATTERN = re.compile(f"[0-9a-f]{{{2 * SALT_BYTES}}}")


def new_salt() -> str:
    return secrets.token_hex(SALT_BYTES)


def sealed_body_json(type_: str, version: int, payload_json: str, actor: str, at: str, causation: int | None,
                     salt: str) -> str:
    """`canonical_json` of a salted event's body, given its payload already encoded: the body's fields are laid out
    in key order around it, so a payload is encoded once for both its row and its hash (the store's `seal`). Any
    field of another type than the usual is left to `canonical_json` itself."""
    if not (type(version) is int and (causation is None or type(causation) is int) and type(type_) is str
            and type(actor) is str and type(at) is str and type(salt) is str):
        return canonical_json({"type": type_, "version": version, "payload": json.loads(payload_json),
                               "actor": actor, "at": at, "causation": causation, "salt": salt})
    return (f'{{"actor":{_STRING(actor)},"at":{_STRING(at)},"causation":{"null" if causation is None else causation},'
            f'"payload":{payload_json},"salt":{_STRING(salt)},"type":{_STRING(type_)},"version":{version}}}')


def chain_hash(game_id: str, seq: int, prev_hash: str, sealed: str) -> str:
    """A salted event's hash: its body's digest `sealed` at its place in the chain. Anyone holding the (seq,
    sealed) of every event can recompute every hash from the first, and no payload is needed for it. The usual
    types are laid out in key order as `canonical_json` would (the store seals every event with it); any other is
    left to `canonical_json` itself."""
    if not (type(seq) is int and type(game_id) is str and type(prev_hash) is str and type(sealed) is str):
        return sha256_hex(canonical_json({"game_id": game_id, "prev_hash": prev_hash, "sealed": sealed, "seq": seq}))
    return sha256_hex(f'{{"game_id":{_STRING(game_id)},"prev_hash":{_STRING(prev_hash)},"sealed":{_STRING(sealed)},'
                      f'"seq":{seq}}}')



class EventBody(NamedTuple):
    """What folding a stream reads of each event (EventStore.bodies): none of the chain's fields, so a long fold
    makes five values a row instead of ten (issue 15: a full rebuild in 1.5x a bare fold)."""

    game_id: str
    seq: int
    type: str
    version: int
    payload: dict


@dataclass(frozen=True)
class StoredEvent:
    """One event as stored: position in its game's stream, body, provenance and chain links."""

    game_id: str
    seq: int
    type: str
    version: int
    payload: dict
    actor: str
    at: str
    causation: int | None
    prev_hash: str
    hash: str
    salt: str | None = None  # None: a legacy event, hashed in one step (module docstring)

    def hashed_fields(self) -> dict:
        """Every field but the hash, the salt only where there is one (the payload is the event's own dict, not a
        copy: read it, never change it)."""
        fields = {"game_id": self.game_id, "seq": self.seq, "type": self.type, "version": self.version,
                  "payload": self.payload, "actor": self.actor, "at": self.at, "causation": self.causation,
                  "prev_hash": self.prev_hash}
        return fields if self.salt is None else {**fields, "salt": self.salt}

    def sealed_digest(self) -> str | None:
        """The digest of a salted event's body (what its hash chains instead of the body); None for a legacy one."""
        if self.salt is None:
            return None
        return sha256_hex(canonical_json({"type": self.type, "version": self.version, "payload": self.payload,
                                          "actor": self.actor, "at": self.at, "causation": self.causation,
                                          "salt": self.salt}))

    def computed_hash(self) -> str:
        if self.salt is None:
            return sha256_hex(canonical_json(self.hashed_fields()))
        return chain_hash(self.game_id, self.seq, self.prev_hash, self.sealed_digest())

    def to_dict(self) -> dict:
        return {**self.hashed_fields(), "hash": self.hash}

    @classmethod
    def sealed(cls, **fields: Any) -> StoredEvent:
        """Build an event and compute its hash from the other fields (salted if they hold a salt)."""
        unhashed = cls(hash="", **fields)
        return cls(hash=unhashed.computed_hash(), **fields)


_NEW, _SET = object.__new__, object.__setattr__


def made_event(game_id: str, seq: int, type_: str, version: int, payload: dict, actor: str, at: str,
               causation: int | None, prev_hash: str, hash_: str, salt: str | None = None) -> StoredEvent:
    """`StoredEvent(...)` of the same fields, made without the frozen dataclass's `__init__` (one `object.__setattr__`
    a field, eleven: 4.6 us against 2.0), for the store's paths that make one an event (`seal`, a row read): the same
    object, frozen, equal, hashed and printed alike."""
    event = _NEW(StoredEvent)
    _SET(event, "__dict__", {"game_id": game_id, "seq": seq, "type": type_, "version": version, "payload": payload,
                             "actor": actor, "at": at, "causation": causation, "prev_hash": prev_hash, "hash": hash_,
                             "salt": salt})
    return event


@dataclass(frozen=True)
class NewEvent:
    """An event to append: its body is already encoded and validated (app.events.registry.encode)."""

    type: str
    version: int
    payload: dict
    actor: str
    causation: int | None = None


def seal(game_id: str, after_seq: int, prev_hash: str, events: list[NewEvent]) -> tuple[list[StoredEvent], list[str]]:
    """`events` as the stream's next events after `after_seq` (whose hash is `prev_hash`), each with a fresh salt,
    chained and sealed (salted events: the module's docstring), one time of writing for the batch, and their
    payloads as stored (canonical JSON, encoded once for the row and the hash); every backend appends what this
    returns."""
    at = utc_now()
    sealed: list[StoredEvent] = []
    payloads: list[str] = []
    seq = after_seq
    salts = secrets.token_hex(SALT_BYTES * len(events))  # one draw for the batch, cut into each event's own
    for n, new in enumerate(events):
        seq += 1
        payload_json = canonical_json(new.payload)
        salt = salts[2 * SALT_BYTES * n:2 * SALT_BYTES * (n + 1)]
        digest = sha256_hex(sealed_body_json(new.type, new.version, payload_json, new.actor, at, new.causation, salt))
        hash_ = chain_hash(game_id, seq, prev_hash, digest)
        sealed.append(made_event(game_id, seq, new.type, new.version, new.payload, new.actor, at, new.causation,
                                 prev_hash, hash_, salt))
        payloads.append(payload_json)
        prev_hash = hash_
    return sealed, payloads


def utc_now() -> str:
    return utc_text(datetime.now(UTC))


def utc_parse(text: str) -> datetime:
    """A time as the store (or an ISO 8601 clock reading) wrote it."""
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def utc_text(moment: datetime) -> str:
    """A UTC time as the store writes it (ISO 8601, microseconds, Z): such texts sort as the times do."""
    return moment.astimezone(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")
