"""Fog of war (11.0, 11.1; docs/architecture.md practice 12) in the event texts: `visible(event, side)` sees one event
and no state, so it is strict. The Allied player never reads a Japanese unit's id in any event (a concealed unit is
"a Japanese unit"; a revealed one he reads in the view); the Japanese player never reads the id of an Allied
unit in an event about the Allied displays (set-up choices and recruits: 11.0 last bullet). Orders that name
such units are shown by their verb only."""
from __future__ import annotations

import re

from app.events import core
from app.rules.engine import fog as engine_fog
from app.rules.formosa import events as ev
from app.rules.formosa.airpower import StrikeAssigned
from app.rules.kernel import fog

ID_PATTERN = r"(?:jp|us|cw)-[A-Za-z0-9][\w-]*"
NAMES = {"allied": "Allied", "japanese": "Japanese"}
# Allied events about units in the Allied displays: the Japanese player may not examine those units (11.0).
_ALLIED_DISPLAY_EVENTS = (ev.UnitsChosen, ev.UnitRecruited, ev.SetupEnded, ev.UnitsReturned, ev.UnitDeployed)
_ALLIED_DISPLAY_VERBS = ("choose", "recruit", "replace", "deploy", "land", "drop", "transfer")  # name units off the map


def side_of(uid: str) -> str | None:
    prefix = uid.split("-", 1)[0]
    return {"jp": "japanese", "us": "allied", "cw": "allied"}.get(prefix) if "-" in uid else None


def _hidden_from(event, side: str) -> set[str]:
    ids = fog.enemy_ids(event, side, side_of)
    if side == "japanese" and not isinstance(event, _ALLIED_DISPLAY_EVENTS):
        return set()
    return ids


def _order_hidden(text: str, side: str) -> bool:
    """An order of the other side that names a unit this side may not read, or plans its air missions (16.1)."""
    words = text.split()
    if words and words[0].lower() in ("assign", "plan"):
        return True
    if side == "japanese":
        return bool(words) and words[0].lower() in _ALLIED_DISPLAY_VERBS
    return any(side_of(u) == "japanese" for u in re.findall(ID_PATTERN, text))


def visible(event, side: str | None, describe) -> bool | str:
    if side is None:
        return True
    if isinstance(event, core.OrderGiven | core.RollsSpent | core.Retracted):
        told = engine_fog.order_or_undo(event, side, lambda o: _order_hidden(o.text, side), "Formosa 11.0, 11.1")
        return True if told is None else told
    if type(event).__module__ == core.__name__:
        # the other core events carry the players' own words (a name, a seed text the dice need, a dispute's reason)
        # or the server's fixed texts: no rules information, shown as written (a text that merely began "jp-" was
        # taken for a unit id and failed every read of the Allied player). A game's creation from a custom position
        # (ruling F163) is the shared rule's, in every game, before this hook: app/rules/base.py `created_line`
        return True
    if isinstance(event, StrikeAssigned) and event.side != side:
        return event.secret()  # 16.1: secret until the reveal
    hidden = _hidden_from(event, side)
    if not hidden:
        return True
    text = describe(event)
    return fog.scrub(text, lambda u: u in hidden, ID_PATTERN, lambda u: NAMES.get(side_of(u) or "", "enemy"))


def reveals(event) -> bool:
    """Revealing a concealed unit (11.2) puts its face on the table: no undo takes it back."""
    return isinstance(event, ev.UnitRevealed)
