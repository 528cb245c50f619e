"""Export and import a whole game as JSON Lines: one event a line, hashes included.

Import verifies the chain, the rules of the core events and the dice (where the seed is revealed, or a parent held
here revealed it) and re-runs every order before writing anything; a file that does not verify is refused whole.
The dice seed is never in an export until it is revealed in the stream.
"""
from __future__ import annotations

import json
import math
from collections.abc import Iterable, Iterator

from app import text
from app.events.envelope import StoredEvent, canonical_json
from app.events.interface import EventStreams
from app.events.store import StoreError, UnknownGame
from app.rules.base import Catalog
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


def parse_lines(lines: Iterable[str | bytes]) -> list[StoredEvent]:
    """The events of an export's lines (texts, or bytes read as UTF-8), each held to the rule for text from outside
    (app/text.py): a line that is not UTF-8, or holds a lone surrogate (JSON's "\\ud800"), is refused by its
    number before any event is hashed. A NUL is kept: the stores keep any valid text, and games written before
    NUL was refused at the edges may hold one."""
    events = []
    for number, line in _numbered(lines):
        if not line.strip():
            continue
        try:
            data = json.loads(line, parse_constant=_no_constant, parse_float=_finite)
        except json.JSONDecodeError as exc:
            raise GameError(f"line {number}: not JSON ({exc.msg})") from None
        except ValueError as exc:
            raise GameError(f"line {number}: not JSON ({exc})") from None
        # JSON's escapes are the one way a line of valid text can give a lone surrogate
        found = text.problem_in(data, text.unicode_problem) if "\\u" in line else None
        if found:
            raise GameError(f"line {number}: a text of the event {found}")
        if isinstance(data, dict) and "filtered_for" in data and not events:
            raise GameError(f"line {number}: a player's own export during play (filtered for "
                            f"{text.quoted(str(data['filtered_for'])[:40])}): it holds only what that seat was shown, "
                            "so it neither imports nor audits; `verify FILE --receipts FOLDER` checks it against "
                            "that player's receipts, and the whole export (the arbiter's, or anyone's once the game "
                            "is over) imports and verifies")
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


def _numbered(lines: Iterable[str | bytes]) -> Iterator[tuple[int, str]]:
    """Each line with its number, as text: a file opened as UTF-8 text that is not, or bytes that are not, are a
    GameError naming the line."""
    numbered, number = enumerate(lines, start=1), 0
    while True:
        try:
            number, line = next(numbered)
        except StopIteration:
            return
        except UnicodeDecodeError:  # a text file decodes ahead of the lines it gives: the line is not exact
            raise GameError(f"the file is not UTF-8 text (at line {number + 1} or a little after it)") from None
        try:
            line = text.decoded(line) if isinstance(line, bytes) else line
        except text.TextError as exc:
            raise GameError(f"line {number} {exc}") from None
        found = text.unicode_problem(line)
        if found:
            raise GameError(f"line {number} {found}")
        yield number, line


def parents_in(store: EventStreams):
    """A fork's parent stream where this server holds it (audit.verify checks the fork against it)."""
    def parent(game_id: str) -> list[StoredEvent] | None:
        try:
            store.game(game_id)
        except UnknownGame:
            return None
        return list(store.events(game_id))
    return parent


def import_game(store: EventStreams, catalog: Catalog, lines: Iterable[str]) -> str:
    """Verify the whole file (dice included, where the seed is revealed; a parent this server holds) first."""
    events = parse_lines(lines)
    report = verify(catalog, events, check_dice=True, parents=parents_in(store))
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
