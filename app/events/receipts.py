"""Signed receipts of the hash chain, and the checks a player runs with them (docs/core.md, "Receipts").

A receipt is the server's Ed25519 signature over one point of a game's chain: (game, seq, hash). The hash of event
`seq` commits to every event before it (app/events/envelope.py), so a player holding a receipt can show that the
server stated that exact history up to `seq`; any later rewrite of an event at or before it, however well resealed,
gives another hash there. The receipt carries its public key; a player trusts a key because it was given to them
(their invitation, the server's /.well-known/hexledger-receipts document), not because a receipt names it.

The chain of hashes a player may fetch during play is a list of entries {seq, hash, sealed}: `sealed` is the
salted digest of the event's body, so anyone can recompute each hash from the one before without any payload,
and a salted digest tells nothing of a payload they may not see. A legacy event (no salt) has no digest: its entry
gives its hash only where the reader may see the event, else nothing, and the links around it are not checked.

Everything here is pure: no store, no clock, no network.
"""
from __future__ import annotations

import base64
import binascii
import functools
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from app.events.envelope import GENESIS_HASH, StoredEvent, canonical_json, chain_hash
from app.events.envelope import json_string as _STRING

FORMAT = "hexledger-receipt/1"
CONTEXT = b"hexledger receipt v1\n"  # signed before the statement: a receipt's signature means nothing else
KEY_PREFIX = "ed25519:"
BEGIN, END = "-----BEGIN HEXLEDGER RECEIPT-----", "-----END HEXLEDGER RECEIPT-----"
HEX64 = re.compile(r"[0-9a-f]{64}")
KEY_TEXT = re.compile(r"ed25519:[A-Za-z0-9_-]{43}")
SIG_TEXT = re.compile(r"[A-Za-z0-9_-]{86}")
ANNOUNCED = re.compile(r"receipt key:\s*(ed25519:[A-Za-z0-9_-]{43})", re.IGNORECASE)
QUOTED = re.compile(r"^[\s>]*")


class ReceiptError(ValueError):
    """A receipt, key or chain listing that is not well formed (its text names what)."""


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str, length: int, what: str) -> bytes:
    try:
        data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise ReceiptError(f"{what} is not base64url") from None
    if len(data) != length:
        raise ReceiptError(f"{what} is {len(data)} bytes, not {length}")
    return data


def public_key(text: str) -> Ed25519PublicKey:
    """The key written `ed25519:<32 bytes base64url>`: a point of the curve, canonically encoded, of large order.
    A key of small order is refused: under it one signature (R the identity, S zero) passes for every statement
    in OpenSSL's Ed25519, so a "receipt" made with it would prove anything."""
    if not isinstance(text, str) or not KEY_TEXT.fullmatch(text):
        raise ReceiptError(f"a key is written {KEY_PREFIX}<43 base64url characters>, not {str(text)[:60]!r}")
    return _key_of(text)


@functools.lru_cache(maxsize=256)
def _key_of(text: str) -> Ed25519PublicKey:
    """`public_key` of a well-formed text, kept per text: a check reads the same few keys on every receipt and
    `_weak` is pure-Python arithmetic (a refused key raises each time: nothing is kept for it)."""
    raw = _unb64(text[len(KEY_PREFIX):], 32, "the key")
    if _weak(raw):
        raise ReceiptError("the key is not a point of large order on Ed25519 (a forger's key)")
    return Ed25519PublicKey.from_public_bytes(raw)


_P = 2**255 - 19
_D = -121665 * pow(121666, _P - 2, _P) % _P


def _weak(raw: bytes) -> bool:
    """Not a canonical encoding of a curve point, or a point whose order divides 8 (RFC 8032 5.1.3's decoding,
    then three doublings: the small-order points are exactly those that reach the identity)."""
    y = int.from_bytes(raw, "little") & (2**255 - 1)
    sign = raw[31] >> 7
    if y >= _P:
        return True
    u, v = (y * y - 1) % _P, (_D * y * y + 1) % _P
    x = u * pow(v, 3, _P) * pow(u * pow(v, 7, _P), (_P - 5) // 8, _P) % _P
    if (v * x * x - u) % _P:
        x = x * pow(2, (_P - 1) // 4, _P) % _P
        if (v * x * x - u) % _P:
            return True
    if x == 0 and sign:
        return True
    if x & 1 != sign:
        x = _P - x
    for _ in range(3):  # the twisted Edwards addition law (a = -1), complete on this curve
        t = _D * x * x * y * y % _P
        x, y = 2 * x * y * pow(1 + t, _P - 2, _P) % _P, (y * y + x * x) * pow(1 - t, _P - 2, _P) % _P
    return x == 0 and y == 1


@dataclass(frozen=True)
class Receipt:
    """The server's signed statement: in game `game`, event `seq` has hash `hash`."""

    game: str
    seq: int
    hash: str
    key: str  # ed25519:<base64url of the 32-byte public key>
    sig: str  # base64url of the 64-byte signature over `message()`

    def statement(self) -> dict:
        return {"format": FORMAT, "game": self.game, "seq": self.seq, "hash": self.hash, "key": self.key}

    def message(self) -> bytes:
        return statement_message(self.game, self.seq, self.hash, self.key)

    def valid(self) -> bool:
        """The signature is the key's over this statement (a malformed key or signature is simply not valid)."""
        try:
            public_key(self.key).verify(_unb64(self.sig, 64, "the signature"), self.message())
        except (InvalidSignature, ReceiptError):
            return False
        return True

    def to_dict(self) -> dict:
        return {**self.statement(), "sig": self.sig}

    def text(self) -> str:
        """The receipt as it is printed in an email: a block a program finds again (`found_in`)."""
        return "\n".join([BEGIN, f"game: {self.game}", f"seq: {self.seq}", f"hash: {self.hash}", f"key: {self.key}",
                          f"sig: {self.sig}", END])

    @classmethod
    def from_dict(cls, data: object) -> Receipt:
        """A receipt as `to_dict` wrote it; ReceiptError names what is wrong (nothing about its signature)."""
        if not isinstance(data, dict) or set(data) != {"format", "game", "seq", "hash", "key", "sig"}:
            raise ReceiptError("a receipt has exactly the fields format, game, seq, hash, key and sig")
        if data["format"] != FORMAT:
            raise ReceiptError(f"not a {FORMAT} receipt")
        seq = data["seq"]
        if not isinstance(seq, int) or isinstance(seq, bool) or seq < 1:
            raise ReceiptError("a receipt's seq is a positive whole number")
        if not all(isinstance(data[k], str) for k in ("game", "hash", "key", "sig")) or not data["game"]:
            raise ReceiptError("a receipt's game, hash, key and sig are texts")
        if not HEX64.fullmatch(data["hash"]):
            raise ReceiptError("a receipt's hash is 64 hexadecimal digits")
        if not SIG_TEXT.fullmatch(data["sig"]):
            raise ReceiptError("a receipt's sig is 86 base64url characters")
        public_key(data["key"])
        return cls(data["game"], seq, data["hash"], data["key"], data["sig"])


class Signer:
    """An Ed25519 private key that signs receipts."""

    def __init__(self, key: Ed25519PrivateKey):
        self._key = key
        raw = key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        self.public = KEY_PREFIX + _b64(raw)

    @classmethod
    def generate(cls) -> Signer:
        return cls(Ed25519PrivateKey.generate())

    @classmethod
    def from_pem(cls, pem: bytes) -> Signer:
        try:
            key = serialization.load_pem_private_key(pem, password=None)
        except (ValueError, TypeError) as exc:
            raise ReceiptError(f"not an unencrypted PEM private key: {exc}") from None
        if not isinstance(key, Ed25519PrivateKey):
            raise ReceiptError("the receipt key must be an Ed25519 key")
        return cls(key)

    def pem(self) -> bytes:
        return self._key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                       serialization.NoEncryption())

    def sign(self, game: str, seq: int, hash_: str) -> Receipt:
        return Receipt(game, seq, hash_, self.public,
                       _b64(self._key.sign(statement_message(game, seq, hash_, self.public))))


_OPENING = CONTEXT.decode("ascii") + '{"format":' + _STRING(FORMAT) + ',"game":'


def statement_message(game: str, seq: int, hash_: str, key: str) -> bytes:
    """What a receipt's signature is over: CONTEXT, then the canonical JSON of its statement {format, game, hash,
    key, seq}, laid out here in key order around the four values as `canonical_json` writes them (issue 26: the
    statement's dict and its encoding were made afresh for every order); values of any other type are left to
    `canonical_json` itself."""
    if type(game) is str and type(seq) is int and type(hash_) is str and type(key) is str:
        return f'{_OPENING}{_STRING(game)},"hash":{_STRING(hash_)},"key":{_STRING(key)},"seq":{seq}}}'.encode()
    return CONTEXT + canonical_json({"format": FORMAT, "game": game, "seq": seq, "hash": hash_,
                                     "key": key}).encode("utf-8")


def found_in(text: str) -> tuple[list[Receipt], list[str]]:
    """The receipts printed in a text (an email, quoted or not: leading '>' are read past) and the problems of
    blocks that do not read as one."""
    found: list[Receipt] = []
    problems: list[str] = []
    block: dict[str, str] | None = None
    for raw in text.replace("\r\n", "\n").split("\n"):
        line = QUOTED.sub("", raw).rstrip()
        if line == BEGIN:
            block = {}
        elif line == END and block is not None:
            try:
                seq = block.get("seq", "")
                seq = int(seq) if re.fullmatch(r"[0-9]{1,18}", seq) else seq  # ASCII digits: '²' is a digit too
                found.append(Receipt.from_dict({"format": FORMAT, **block, "seq": seq}))
            except ReceiptError as exc:
                problems.append(f"a receipt block that does not read: {exc}")
            block = None
        elif block is not None and ":" in line:
            name, _, value = line.partition(":")
            block[name.strip()] = value.strip()
    return found, problems


def announced_keys(text: str) -> set[str]:
    """The receipt keys a text announces ("Receipt key: ed25519:..." lines: the invitation's)."""
    return {m.group(1) for m in ANNOUNCED.finditer("\n".join(QUOTED.sub("", line) for line in text.split("\n")))}


# -- the chain of hashes -----------------------------------------------------------------------------------------
def chain_entry(event: StoredEvent, may_see: bool) -> dict:
    """One event of the chain as a reader gets it: {seq, hash, sealed} for a salted event (nothing of its
    payload); a legacy event's hash only where the reader may see the event (its hash could be searched for a
    payload), else its seq alone."""
    digest = event.sealed_digest()
    if digest is not None:
        return {"seq": event.seq, "hash": event.hash, "sealed": digest}
    return {"seq": event.seq, "hash": event.hash} if may_see else {"seq": event.seq}


def parse_entries(data: object) -> list[dict]:
    """A chain listing's entries as `chain_entry` wrote them, numbered from 1 with no gap; ReceiptError if not."""
    if not isinstance(data, list):
        raise ReceiptError("a chain is a list of entries")
    for n, entry in enumerate(data, start=1):
        if not isinstance(entry, dict) or entry.get("seq") != n or isinstance(entry.get("seq"), bool):
            raise ReceiptError(f"entry {n} of the chain is not event {n}")
        if set(entry) - {"seq", "hash", "sealed"} or "sealed" in entry and "hash" not in entry:
            raise ReceiptError(f"entry {n} of the chain has other fields than seq, hash and sealed")
        if any(not isinstance(entry[k], str) or not HEX64.fullmatch(entry[k]) for k in ("hash", "sealed")
               if k in entry):
            raise ReceiptError(f"entry {n} of the chain: a hash is 64 hexadecimal digits")
    return data


@dataclass
class Difference:
    seq: int
    message: str

    def __str__(self) -> str:
        return f"event {self.seq}: {self.message}"


@dataclass
class Check:
    """What comparing a player's receipts (and chains they kept) with a game's chain found."""

    game_id: str
    head: int = 0
    receipts: int = 0
    links_checked: int = 0
    links_unchecked: int = 0
    other_games: int = 0
    notes: list[str] = field(default_factory=list)
    differences: list[Difference] = field(default_factory=list)
    rejected: list[Difference] = field(default_factory=list)  # receipts that prove nothing: not compared

    @property
    def ok(self) -> bool:
        """The chain holds every receipt and kept chain, and every receipt was the server's."""
        return not self.differences and not self.rejected

    @property
    def first_bad_seq(self) -> int | None:
        return min((d.seq for d in self.differences), default=None)

    def to_dict(self) -> dict:
        return {"game_id": self.game_id, "ok": self.ok, "first_bad_seq": self.first_bad_seq, "head": self.head,
                "receipts": self.receipts, "links_checked": self.links_checked,
                "links_unchecked": self.links_unchecked, "other_games": self.other_games, "notes": self.notes,
                "differences": [vars(d) for d in self.differences], "rejected": [vars(d) for d in self.rejected]}


def check(game_id: str, entries: list[dict], receipts: Iterable[Receipt], trusted: set[str],
          kept: Iterable[list[dict]] = ()) -> Check:
    """Compare the chain `entries` (a listing, or an export's events as `chain_entry` gives them) with every
    receipt of `game_id` and with chains the player kept earlier (`kept`): each difference at the first seq where
    it shows. The listing's own links are recomputed first, so a listing that does not follow from its own digests
    is caught too. A receipt whose signature is not valid, or (where `trusted` names keys) not by one of them, is
    rejected, never compared: it proves nothing, and must not make an honest chain look rewritten."""
    report = Check(game_id, head=len(entries))
    hashes = {e["seq"]: e.get("hash") for e in entries}
    prev: str | None = GENESIS_HASH
    for e in entries:
        if "sealed" in e and prev is not None:
            report.links_checked += 1
            if chain_hash(game_id, e["seq"], prev, e["sealed"]) != e["hash"]:
                report.differences.append(Difference(e["seq"], "the chain's hash here does not follow from the "
                                                               "event before it and this event's digest"))
                break
        else:
            report.links_unchecked += 1
        prev = e.get("hash")
    for r in receipts:
        if r.game != game_id:
            report.other_games += 1
            continue
        report.receipts += 1
        if not r.valid():
            report.rejected.append(Difference(r.seq, "the receipt's signature is not valid (forged or altered)"))
        elif trusted and r.key not in trusted:
            report.rejected.append(Difference(r.seq, f"the receipt is signed by {r.key}, not a key you were given"))
        elif r.seq > report.head:
            report.differences.append(Difference(report.head + 1, f"the server signed event {r.seq}, but the "
                                                                  f"chain ends at {report.head}"))
        elif hashes.get(r.seq) is None:
            report.notes.append(f"the receipt for event {r.seq} cannot be compared here: this chain does not give "
                                "that event's hash (an old event, or one left out of your view)")
        elif hashes.get(r.seq) != r.hash:
            report.differences.append(Difference(r.seq, f"the server signed hash {r.hash[:16]}... for this event; "
                                                        f"the chain now has {str(hashes.get(r.seq))[:16]}..."))
    for earlier in kept:
        for e in earlier:
            now = hashes.get(e["seq"])
            if "hash" in e and e["seq"] > report.head:
                report.differences.append(Difference(report.head + 1, f"a chain you kept runs to event "
                                                                      f"{earlier[-1]['seq']}, this one ends at "
                                                                      f"{report.head}"))
                break
            if "hash" in e and now is not None and now != e["hash"]:
                report.differences.append(Difference(e["seq"], "a chain you kept has another hash here"))
                break
    if not trusted and report.receipts:
        report.notes.append("no receipt key was given (--key, or the invitation among the receipts): each "
                            "signature is checked against the key its receipt names, which shows the receipt "
                            "unaltered but not that the key is the server's")
    return report


def dump_chain(game_id: str, entries: list[dict], receipt: Receipt | None) -> str:
    """A chain listing as a file a player keeps (and `load_chain` reads back)."""
    return json.dumps({"format": "hexledger-chain/1", "game_id": game_id, "entries": entries,
                       "receipt": receipt.to_dict() if receipt else None}, indent=None) + "\n"


def load_chain(text: str) -> tuple[str, list[dict], Receipt | None]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ReceiptError(f"a chain file is JSON ({exc.msg})") from None
    if not isinstance(data, dict) or data.get("format") != "hexledger-chain/1" or not isinstance(
            data.get("game_id"), str):
        raise ReceiptError("not a hexledger-chain/1 file")
    receipt = Receipt.from_dict(data["receipt"]) if data.get("receipt") is not None else None
    return data["game_id"], parse_entries(data.get("entries")), receipt
