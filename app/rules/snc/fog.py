"""SNC 6.3 fog of war in histories, emails and exports: the rule set's `visible(event, side)` and `reveals(event)`.

`view` (view.py) is the measure: a side's history may name an enemy unit only where its view shows that unit at that
point. The hook sees one event and no state, so it is strict: an enemy unit is named only where the event itself says
the unit was seen (a defender's loss or retreat in the attack the side resolves, marked as `revealed` when it was
decided, common.mark_revealed); every other event naming enemy units is redacted to a text without ids, strengths or
off-map facts (an elite's return turn, which reinforcements an interdiction removed). Engine ruling E9
(docs/rules/snc.md): the odds, shifts and die of a battle are announced to both players; the units that attack are not
shown to the defender, 6.3 lets only the attacker look beneath the other side's stacks.
"""
from __future__ import annotations

from app.events import core
from app.rules.engine import fog as engine_fog
from app.rules.kernel import fog
from app.rules.snc import events as ev

SIDE_OF_PREFIX = {"cn": "chinese", "jp": "japanese"}
NAME = {"chinese": "Chinese", "japanese": "Japanese"}

# orders whose text names no unit, only hexes, phases or yes/no choices: shown to both sides as they are
PUBLIC_ORDERS = {"declare", "end", "stay", "support", "intercept", "pass", "air", "proceed", "retreat"}


def unit_side(uid: str) -> str | None:
    return SIDE_OF_PREFIX.get(uid.split("-", 1)[0]) if isinstance(uid, str) and "-" in uid else None


def _enemy_ids(event, side: str) -> set[str]:
    return fog.enemy_ids(event, side, unit_side)


def _owner(units) -> str:
    return fog.owner(units, unit_side, NAME)


def _verb(event) -> str:
    return (event.text.split() or ["?"])[0].lower()


def _names_units(order) -> bool:
    """Does the order's text name units (so the other side reads its verb only)? A public verb names none, but a
    retreat may name the survivors it moves (`retreat UNIT ... to HEX`, ruling E23)."""
    words = order.text.split()
    verb = (words or ["?"])[0].lower()
    return verb not in PUBLIC_ORDERS or (verb == "retreat" and len(words) > 1 and words[1].lower() != "to")


def visible(event, side: str | None) -> bool | str:
    if side is None:
        return True
    told = engine_fog.order_or_undo(event, side, _names_units, "SNC 6.3")
    if told is not None:
        return told
    if isinstance(event, core.DieRolled):
        if "SNC 8.1 return of" in event.purpose and unit_side(event.purpose.split()[-1]) != side:
            return f"die roll #{event.index}: hidden (the return of an enemy elite unit, SNC 8.1)"
        return True
    if isinstance(event, ev.EliteScheduled):
        return True if unit_side(event.unit) == side else "an eliminated enemy elite rolls for its return (SNC 8.1)"
    if isinstance(event, ev.BattleOpened) and event.battle["side"] == side:
        return True  # SNC 6.3: the attacker now looks beneath the defending stack
    hidden = _enemy_ids(event, side)
    if not hidden:
        return True
    if isinstance(event, ev.StepsLost | ev.UnitsRetreated) and event.revealed:
        return True
    return redact(event, side)


def redact(e, side: str) -> str:
    """The text `side` sees of an event that names enemy units it may not see."""
    if isinstance(e, ev.UnitsMoved):
        return f"a {_owner(e.units)} stack moves {' - '.join(e.path)}"
    if isinstance(e, ev.BattleOpened):
        b = e.battle  # its markers follow as their own SupportAdded events
        return f"{b['side']} {b['kind']} on {b['hex']}"
    if isinstance(e, ev.StepsLost):
        n = len(e.units)
        return f"{e.side} lose {n} step{'s' if n != 1 else ''}"
    if isinstance(e, ev.UnitsRetreated):
        return f"{_owner(e.units)} units retreat to {e.to}"
    if isinstance(e, ev.UnitsAdvanced):
        return f"{_owner(e.units)} units advance to {' - '.join(e.path)}"
    if isinstance(e, ev.DecisionRequired):
        return f"{e.side} to decide: {e.kind}"
    if isinstance(e, ev.GarrisonPlaced):
        return f"a {_owner([e.unit])} garrison is placed in {e.hex} (SNC 9.1)"
    if isinstance(e, ev.ReinforcementsPlaced):
        return f"{_owner(e.units)} units enter at {e.hex}"
    if isinstance(e, ev.UnitsRemoved):
        return f"interdiction (die {e.roll}) removes {_owner(e.units)} reinforcements (SNC 11.2)"
    if isinstance(e, ev.StepsReplaced):
        # ruling E36: how many steps were taken (so how many are left) is the Japanese's, as in the view (E26)
        return f"{_owner(e.units)} replacements are taken (how many steps is hidden, SNC 6.3, 8.3)"
    if isinstance(e, ev.Overstacked):
        return f"{e.side} units eliminated in {e.hex}: over the stacking limit"
    return f"{type(e).__name__} (hidden, SNC 6.3)"


def reveals(event) -> bool:
    """SNC 6.3: declaring an attack (an overrun, a landing) lifts the fog from the defending stack, and it is then
    too late to call the attack off; a defender's loss or retreat shown to the attacker is seen too."""
    if isinstance(event, ev.BattleOpened):
        return True
    return isinstance(event, ev.StepsLost | ev.UnitsRetreated) and event.revealed
