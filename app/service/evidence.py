"""A player's side of receipts (docs/core.md, "Receipts"): gather the receipts they kept (a folder of emails or
files, or an mbox), the keys their invitations announced and the chains of hashes they saved, and compare them
with a game's chain: a finished game's export after the end, or the chain fetched from the server during play.
Every difference is reported at the first seq where it shows (app/events/receipts.py, `check`).
"""
from __future__ import annotations

import email
import email.policy
import json
import mailbox
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from app.events.envelope import StoredEvent
from app.events.receipts import (
    Check,
    Difference,
    Receipt,
    ReceiptError,
    announced_keys,
    chain_entry,
    check,
    dump_chain,
    found_in,
    load_chain,
    parse_entries,
    public_key,
)
from app.service.errors import GameError

CHAIN_PREFIX = "chain-"


@dataclass
class Evidence:
    """What a player kept: receipts, the keys announced to them, chains fetched earlier (by game)."""

    receipts: list[Receipt] = field(default_factory=list)
    keys: set[str] = field(default_factory=set)
    chains: dict[str, list[list[dict]]] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    messages: int = 0

    def read_text(self, text: str, where: str) -> None:
        found, problems = found_in(text)
        self.receipts += found
        self.problems += [f"{where}: {p}" for p in problems]
        self.keys |= announced_keys(text)

    def read_message(self, msg: email.message.Message, where: str) -> None:
        self.messages += 1
        for part in msg.walk():
            if part.get_content_maintype() == "text":
                try:
                    self.read_text(part.get_content(), where)
                except (LookupError, ValueError):  # an unknown or broken charset: read what decodes
                    payload = part.get_payload(decode=True) or b""
                    self.read_text(payload.decode("utf-8", "replace"), where)

    def read_file(self, path: Path) -> None:
        data = path.read_bytes()
        if data.lstrip().startswith(b"{"):
            self.read_json(data, path)
            return
        if data.startswith(b"From "):
            self.read_mbox(path)
            return
        self.read_message(email.message_from_bytes(data, policy=email.policy.default), str(path))


    def read_json(self, data: bytes, path: Path) -> None:
        """A saved chain (`keep_chain`), a receipt, or an API answer holding one (`receipt`), as JSON."""
        try:
            found = json.loads(data.decode("utf-8"))
            if isinstance(found, dict) and found.get("format") == "hexledger-chain/1":
                game_id, entries, receipt = load_chain(data.decode("utf-8"))
                self.chains.setdefault(game_id, []).append(entries)
                self.receipts += [receipt] if receipt else []
            elif isinstance(found, dict) and isinstance(found.get("receipt"), dict):
                self.receipts.append(Receipt.from_dict(found["receipt"]))
            else:
                self.receipts.append(Receipt.from_dict(found))
        except (ValueError, UnicodeDecodeError) as exc:  # ReceiptError and JSONDecodeError are ValueErrors
            self.problems.append(f"{path}: neither a receipt, an answer holding one, nor a saved chain ({exc})")

    def read_mbox(self, path: Path) -> None:
        box = mailbox.mbox(str(path), factory=lambda f: email.message_from_binary_file(f, policy=email.policy.default),
                           create=False)
        for n, msg in enumerate(box):
            self.read_message(msg, f"{path} message {n + 1}")


def gather(*sources: str | Path) -> Evidence:
    """The evidence in `sources`, together (one player's, or both players' to check them against each other): each
    a folder (every file in it and below: emails as .eml or Maildir files, mboxes, saved chains, receipts or API
    answers saved as JSON), or one file of those kinds."""
    evidence = Evidence()
    for source in sources:
        path = Path(source)
        if path.is_dir():
            for file in sorted(p for p in path.rglob("*") if p.is_file()):
                evidence.read_file(file)
        elif path.is_file():
            evidence.read_file(path)
        else:
            raise GameError(f"no such folder or file: {source}")
    return evidence


def trusted_keys(given: list[str], evidence: Evidence) -> set[str]:
    """The keys a player trusts: those they name (--key), and those their invitations announced."""
    for key in given:
        try:
            public_key(key)
        except ReceiptError as exc:
            raise GameError(str(exc)) from None
    return set(given) | evidence.keys


def check_export(events: list[StoredEvent], evidence: Evidence, keys: list[str]) -> Check:
    """A finished game's export (its whole chain) against everything the player kept of that game."""
    game_id = events[0].game_id
    entries = [chain_entry(e, True) for e in events]
    return _checked(check(game_id, entries, evidence.receipts, trusted_keys(keys, evidence),
                          evidence.chains.get(game_id, [])), evidence)


def check_listing(listing: dict, evidence: Evidence, keys: list[str]) -> Check:
    """The chain fetched during play (GET /games/ID/chain, from its first event) against what the player kept;
    the listing's own receipt counts as one more."""
    try:
        game_id = listing["game_id"]
        entries = parse_entries(listing["entries"])
        head = Receipt.from_dict(listing["receipt"]) if listing.get("receipt") is not None else None
    except (KeyError, TypeError, ReceiptError) as exc:
        raise GameError(f"not a chain listing: {exc}") from None
    report = check(game_id, entries, [*evidence.receipts, *([head] if head else [])], trusted_keys(keys, evidence),
                   evidence.chains.get(game_id, []))
    if head is not None and head.seq != len(entries):
        report.notes.append(f"the listing's receipt is for event {head.seq}, not its last ({len(entries)})")
    return _checked(report, evidence)


def is_view(path: str | Path) -> bool:
    """Is the file a player's own export before the game's end (its first line names the seat it is filtered for)?"""
    try:
        with open(path, encoding="utf-8") as fh:
            first = json.loads(fh.readline() or "null")
    except (OSError, ValueError):
        return False
    return isinstance(first, dict) and "filtered_for" in first


def check_view(path: str | Path, evidence: Evidence, keys: list[str]) -> Check:
    """A player's own export (their view during play) against what they kept: each event shown to them in full
    must match its salted digest (what they were told is what the chain holds), and the chain's hashes their
    receipts and kept chains. An event left out of the view leaves its links unchecked."""
    with open(path, encoding="utf-8") as fh:
        lines = [json.loads(line) for line in fh if line.strip()]
    game_id = lines[0]["game_id"]
    rows = {r["seq"]: r for r in lines[1:]}
    entries = [{k: rows[n][k] for k in ("hash", "sealed") if k in rows.get(n, {})} | {"seq": n}
               for n in range(1, max(rows, default=0) + 1)]
    report = check(game_id, entries, evidence.receipts, trusted_keys(keys, evidence), evidence.chains.get(game_id, []))
    for row in rows.values():
        if "salt" in row:
            shown = StoredEvent(game_id, row["seq"], row["type"], row["version"], row["payload"], row["actor"],
                                row["at"], row["causation"], "", row["hash"], row["salt"])
            if shown.sealed_digest() != row["sealed"]:
                report.differences.append(Difference(row["seq"], "this event as you were shown it does not match "
                                                                 "the digest the chain holds for it"))
    return _checked(report, evidence)


def _checked(report: Check, evidence: Evidence) -> Check:
    report.notes += evidence.problems
    if not report.receipts:
        report.notes.append(f"no receipt of game {report.game_id} was found among {evidence.messages} message(s)")
    return report


def fetch_chain(server: str, game_id: str, token: str, timeout: float = 30.0) -> dict:
    """GET /games/ID/chain from the server, as the seat `token` opens."""
    request = urllib.request.Request(f"{server.rstrip('/')}/games/{game_id}/chain",
                                     headers={"Authorization": f"Bearer {token}", "Accept": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:  # noqa: S310 - the player's own server
            return json.loads(answer.read().decode("utf-8"))
    except urllib.error.HTTPError as exc:
        raise GameError(f"the server answered {exc.code}: {exc.read().decode('utf-8', 'replace')[:300]}") from None
    except (urllib.error.URLError, OSError, ValueError) as exc:
        raise GameError(f"cannot fetch the chain from {server}: {exc}") from None


def keep_chain(folder: str | Path, listing: dict) -> Path:
    """Save a fetched chain beside the receipts: a later check compares every hash of it, which pins a rewrite to
    its exact event."""
    entries = parse_entries(listing["entries"])
    receipt = Receipt.from_dict(listing["receipt"]) if listing.get("receipt") else None
    path = Path(folder) / f"{CHAIN_PREFIX}{listing['game_id']}-{len(entries)}.json"
    path.write_text(dump_chain(listing["game_id"], entries, receipt), encoding="utf-8")
    return path
