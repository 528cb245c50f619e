"""Ichi-Go 6.6 and 3.3 fog of war in histories, emails, exports and replay texts: the rule set's
`visible(event, side)` and `reveals(event)` (ruling E14, docs/rulings/ichigo-engine.md).

`view` (view.py) is the measure: an enemy stack shows its top unit only (6.6), an untried counter its handle
only, to both players (3.3, 11.27). The hook sees one event and no state, so it is strict: an event naming a
unit of the other side is shown as its history line with those units unnamed ("a Japanese stack of 2 units"
becomes "2 Japanese units move 1812 - 1813"), and the other side's orders naming units show their verb only.
Which unit a blind draw gave stays hidden from both players and spectators (ruling E2), and so does the data id
behind a handle, even once flipped: a flip (11.27) shows the counter's name and strength, as the view does.
"""
from __future__ import annotations

import re
from collections.abc import Callable

from app.events import core
from app.rules.engine import fog as engine_fog
from app.rules.ichigo import events as ev
from app.rules.kernel import fog

ID_PATTERN = r"(?:jp|us|cn)-[a-z0-9]+(?:-[a-z0-9]+)*|C\d{2,}"
_HANDLE = re.compile(r"C\d{2,}")
_PREFIX = {"jp": "japanese", "us": "allied", "cn": "allied"}
_NATION = {"jp": "Japanese", "us": "US", "cn": "Chinese"}


def unit_side(uid: str) -> str | None:
    """The side of a unit id (units.toml prefixes) or of a Chinese counter handle (C01...)."""
    if not isinstance(uid, str):
        return None
    if _HANDLE.fullmatch(uid):
        return "allied"
    return _PREFIX.get(uid.split("-", 1)[0]) if re.fullmatch(ID_PATTERN, uid) else None


def _nation(uid: str) -> str:
    return "Chinese" if _HANDLE.fullmatch(uid) else _NATION[uid.split("-", 1)[0]]


def visible(event, side: str | None, describe: Callable[[object], str]) -> bool | str:
    if isinstance(event, ev.UnitDrawn):  # E2: nobody sees which unit; only the owner sees the handle's place
        where = f" at {event.hex}" if event.hex else ""
        handle = f" as counter {event.handle}" if side in (None, "allied") else ""
        return f"a Chinese regular is drawn blind{handle}{where}"
    if isinstance(event, core.DieRolled) and event.purpose.startswith("blind draw"):
        return "a blind draw from the Chinese pool"
    if side is None:
        return True
    told = engine_fog.order_or_undo(event, side, lambda order: bool(fog.enemy_ids(order, side, unit_side)),
                                    "Ichi-Go 6.6")
    if told is not None:
        return told
    # a die roll's purpose may name the units it is rolled for (5.3 item 9): the roll is public, they may not be
    text = f"die roll #{event.index}: {event.value} ({event.purpose})" if isinstance(event, core.DieRolled) \
        else describe(event)
    hidden = fog.enemy_ids(event, side, unit_side) | {
        u for u in re.findall(rf"(?<![\w-])(?:{ID_PATTERN})(?![\w-])", text) if unit_side(u) != side}
    if isinstance(event, ev.Revealed) or hidden:  # a flip names no data id (E2): its text, as the view shows it
        return fog.scrub(text, lambda u: u in hidden, ID_PATTERN, _nation)
    return True


def reveals(event) -> bool:
    """A flip (11.27) and a blind draw put a counter's face on the table: a player's own undo cannot take it back."""
    return isinstance(event, ev.Revealed | ev.UnitDrawn)
