"""The server's side of receipts (docs/core.md, "Receipts"): its signing key, the receipt every message to a player
carries, the published keys, and the chain of hashes a player may fetch during play.

The key (`Receipts`, handed the settings' `receipt_key` and `receipt_retired`): HEXLEDGER_RECEIPT_KEY names a PEM
file holding an Ed25519 private key (PKCS#8, unencrypted), for an operator who keeps keys outside the database;
without it, a key made on first use and kept in the database (the server record `receipts.ed25519`), so a fresh
server signs from its first game and keeps its key across restarts and backups. Rotation: make a new key file
(`cli.py receipt-key --new FILE`), point HEXLEDGER_RECEIPT_KEY at it and list every earlier public key in
HEXLEDGER_RECEIPT_RETIRED (comma-separated): the well-known document keeps publishing them, so every receipt
handed out stays checkable.
"""
from __future__ import annotations

import os
from pathlib import Path

from app.events.envelope import StoredEvent
from app.events.receipts import Receipt, ReceiptError, Signer, chain_entry, public_key
from app.events.registry import decode_stored
from app.events.store import EventStore
from app.projections.sight import Sight
from app.rules.base import Catalog

KEY_RECORD = "receipts.ed25519"
WELL_KNOWN = "/.well-known/hexledger-receipts"
_SIGNERS: dict[tuple[str, str], Signer] = {}  # (database, key file or "") -> its signer, once committed


class Receipts:
    """The server's receipts on one store: signed with the key in `key_file` (HEXLEDGER_RECEIPT_KEY), else the
    database's own; `retired`: the earlier public keys still published (HEXLEDGER_RECEIPT_RETIRED)."""

    def __init__(self, store: EventStore, catalog: Catalog, key_file: str | None = None, retired: tuple[str, ...] = ()):
        self.store = store
        self.catalog = catalog
        self.key_file = key_file or ""
        self.retired = tuple(retired)

    def signer(self) -> Signer:
        """The key receipts are signed with on this database (the module's docstring says which)."""
        store, path = self.store, self.key_file
        cached = _SIGNERS.get((store.path, path))
        if cached is not None:
            return cached
        if path:
            try:
                found = Signer.from_pem(Path(path).read_bytes())
            except OSError as exc:
                raise ReceiptError(f"HEXLEDGER_RECEIPT_KEY: cannot read {path}: {exc.strerror}") from None
        else:
            found = Signer.from_pem(store.secret(KEY_RECORD, Signer.generate().pem().decode("ascii"))
                                    .encode("ascii"))
        if not store.in_transaction:  # a key first written inside a transaction is kept only once it commits
            _SIGNERS[(store.path, path)] = found
        return found

    def stamp(self, event: StoredEvent) -> Receipt | None:
        """The receipt for the chain's head at `event`: the small function every answer and message calls. None
        for a legacy event (no salt), whose hash could be searched for a payload the reader may not see."""
        if event.salt is None:
            return None
        return self.signer().sign(event.game_id, event.seq, event.hash)

    def at(self, game_id: str, seq: int | None = None) -> Receipt | None:
        """The receipt for event `seq` of a game (its head if None), or None (no such event, or a legacy one)."""
        seq = self.store.head(game_id)[0] if seq is None else seq
        event = self.store.event(game_id, seq) if seq else None
        return None if event is None else self.stamp(event)

    def published(self) -> dict:
        """The well-known document: the key that signs now and every retired one still to be checked against."""
        for key in self.retired:
            public_key(key)  # a misspelt key is the operator's error, named
        return {"format": "hexledger-receipt-keys/1", "algorithm": "Ed25519", "current": self.signer().public,
                "retired": list(self.retired),
                "receipt": "Ed25519 over 'hexledger receipt v1\\n' + canonical JSON of {format, game, hash, key, "
                           "seq} (docs/core.md, Receipts)"}

    def announcement(self) -> str:
        """The invitation's lines naming the key (a player's checks trust it: app/events/receipts.py)."""
        return (f"Receipt key: {self.signer().public}\n(every game email carries the server's receipt, signed with "
                f"this key; it is also published at {WELL_KNOWN})\n")

    def chain(self, game_id: str, side: str | None, sees_all: bool, from_seq: int = 1) -> dict:
        """The chain of hashes from `from_seq` to the head as the seat `side` may have it (no payload, no salt)
        and the receipt for its last entry. A legacy event's hash is given only where the seat may see the
        event."""
        store = self.store
        sight = Sight(self.catalog.rules(store.game(game_id)["rules"]), None if sees_all else side)
        entries = []
        last = None
        for event in store.events(game_id, max(from_seq, 1)):
            may_see = event.salt is not None or sight.event(decode_stored(event.type, event.version,
                                                                          event.payload)) is True
            entries.append(chain_entry(event, may_see))
            last = event
        return {"game_id": game_id, "entries": entries, "receipt": as_dict(self.stamp(last) if last else None)}


def as_dict(receipt: Receipt | None) -> dict | None:
    return None if receipt is None else receipt.to_dict()


def as_text(receipt: Receipt | None) -> str:
    """The lines an email carries for `receipt` (none for no receipt)."""
    if receipt is None:
        return ""
    return ("Receipt (the server's signature on the game's history up to this event: keep this email; "
            "`cli.py verify --receipts` checks it)\n" + receipt.text())


def new_key_file(path: str) -> str:
    """A new Ed25519 key written to `path` (PEM, readable by its owner only; an existing file is refused): the
    next key of a rotation. Returns its public key."""
    made = Signer.generate()
    try:
        with os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "wb") as fh:
            fh.write(made.pem())
    except OSError as exc:
        raise ReceiptError(f"cannot write a new key to {path}: {exc.strerror}") from None
    return made.public


def view_fields(event: StoredEvent, shown: bool) -> dict:
    """What a player's own export adds to an event's row so it checks against the chain: a salted event's hash
    and digest, and, where the event is shown in full, its version and salt (its digest then recomputes from the
    row). Nothing for a legacy event, whose hash could be searched for a payload."""
    digest = event.sealed_digest()
    if digest is None:
        return {}
    return {"hash": event.hash, "sealed": digest, **({"version": event.version, "salt": event.salt} if shown else {})}

