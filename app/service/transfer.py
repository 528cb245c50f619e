"""Export and import a whole game as JSON Lines: one event a line, hashes included.

Import verifies the chain, the rules of the core events and the dice (where the seed is revealed, or a parent held
here revealed it) and re-runs every order before writing anything; a file that does not verify is refused whole.
The dice seed is never in an export until it is revealed in the stream.
"""
from __future__ import annotations

import json
import math
from collections.abc import Iterable

from app.events.envelope import StoredEvent, canonical_json
from app.events.interface import EventStreams
from app.events.store import StoreError, UnknownGame
from app.service.audit import verify
from app.service.games import GameError

FIELDS = {"game_id": str, "seq": int, "type": str, "version": int, "payload": dict, "actor": str, "at": str,
          "causation": (int, type(None)), "prev_hash": str, "hash": str}
SALT = {"salt": str}  # a salted event's (app/events/envelope.py); a legacy event has none


def _no_constant(name: str):
    raise ValueError(f"{name} is not a JSON number")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text} is out of range")
    return value


def export_lines(store: EventStreams, game_id: str) -> Iterable[str]:
    store.game(game_id)
    for event in store.events(game_id):
        yield canonical_json(event.to_dict()) + "\n"


def parse_lines(lines: Iterable[str]) -> list[StoredEvent]:
    events = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line, parse_constant=_no_constant, parse_float=_finite)
        except json.JSONDecodeError as exc:
            raise GameError(f"line {number}: not JSON ({exc.msg})") from None
        except ValueError as exc:
            raise GameError(f"line {number}: not JSON ({exc})") from None
        if not isinstance(data, dict) or set(data) - set(SALT) != set(FIELDS):
            raise GameError(f"line {number}: an event needs exactly the fields {', '.join(FIELDS)} (and a salt, "
                            "if it has one)")
        for name, kind in {**FIELDS, **SALT}.items():
            if name not in data:
                continue
            if not isinstance(data[name], kind) or (kind is int and isinstance(data[name], bool)):
                raise GameError(f"line {number}: field {name!r} has the wrong type")
        events.append(StoredEvent(**data))
    if not events:
        raise GameError("the file holds no events")
    return events


def parents_in(store: EventStreams):
    """A fork's parent stream where this server holds it (audit.verify checks the fork against it)."""
    def parent(game_id: str) -> list[StoredEvent] | None:
        try:
            store.game(game_id)
        except UnknownGame:
            return None
        return list(store.events(game_id))
    return parent


def import_game(store: EventStreams, lines: Iterable[str]) -> str:
    """Verify the whole file (dice included, where the seed is revealed; a parent this server holds) first."""
    events = parse_lines(lines)
    report = verify(events, check_dice=True, parents=parents_in(store))
    if not report.ok:
        raise GameError(f"refused: the file does not verify: {report.problems[0]}; nothing imported")
    created = events[0].payload
    forks = [e for e in events if e.type == "core.GameForked"]
    parent = (forks[-1].payload["parent_id"], forks[-1].payload["parent_seq"]) if forks else None
    try:
        store.import_stream(events[0].game_id, created["rules"], created["scenario"], events, parent)
    except StoreError as exc:
        raise GameError(str(exc)) from exc
    return events[0].game_id
