"""SNC combat as the replay's combat panel and luck analysis read it (`combat_summary`, app/rules/base.py), and
the steps each event takes off the map, as the analysis charts count them (`losses`).

A `snc.CombatResolved` event stores the hex, strengths, odds, shifts, column, die and result; the side and
units attacking come from the battle under way in the state just before it (SNC 10.0, 9.6, 8.4: one battle
at a time). Each die face's result is read from the CRT data (SNC 10.5), scored for the attacker as
defender steps lost minus attacker steps lost (SNC 10.5.1: results are step losses).
"""
from __future__ import annotations

from app.rules.kernel.shifts import shift_from_text
from app.rules.snc import events as ev
from app.rules.snc.data_load import GameData, load
from app.rules.snc.state import State, other

# the case of each battle kind's procedure: an attack (10.0), an overrun (9.6), an amphibious landing (8.4)
PROCEDURE = {"attack": "SNC 10.0", "overrun": "SNC 9.6", "landing": "SNC 8.4"}


def distribution(d: GameData, column: str) -> list[dict]:
    """The result of every die face in `column` of the SNC CRT, scored for the attacker."""
    crt = d.crt
    faces = crt.dice
    out = []
    for face in faces:
        r = crt.cell(column, face)
        out.append({"roll": face, "result": r.code, "value": r.defender.losses - r.attacker.losses,
                    "p": 1 / len(faces)})
    return out


def combat_summary(event, state: State | None) -> dict | None:
    if not isinstance(event, ev.CombatResolved):
        return None
    battle = (state.battle if state is not None else None) or {}
    attacker = battle.get("side")
    defender = other(attacker) if attacker else None
    losses = {}
    if attacker:
        losses = {attacker: event.attacker_losses, defender: event.defender_losses}
    data = state.data if state is not None else load()
    try:
        dist = distribution(data, event.column)
    except (ValueError, LookupError):  # a column the data does not hold: no luck score for this attack
        dist = []
    return {"attacker": attacker, "defender": defender, "hex": event.hex, "kind": event.kind,
            "attackers": list(battle.get("attackers") or []), "support": list(battle.get("support") or []),
            "attack": event.attack, "defence": event.defence, "odds": event.odds,
            "shifts": [shift_from_text(s) for s in event.shifts], "column": event.column, "roll": event.roll,
            "result": event.result, "losses": losses, "case": PROCEDURE.get(event.kind, "SNC 10.0"),
            "distribution": dist, "columns": [c.label for c in data.crt.columns()]}


def losses(event, state: State | None) -> dict[str, int] | None:
    """Steps lost by a side in this event, from the state just before it: each entry of a step loss (10.5.2, a
    retreat's 8.4 2)) is one step; an over-stacking elimination (6.0) takes every step its units had. The charts
    count these, not views, which hide an enemy stack under its top unit and show no eliminated enemy (6.3)."""
    if isinstance(event, ev.StepsLost):
        return {event.side: len(event.units)}
    if isinstance(event, ev.Overstacked) and state is not None:
        return {event.side: sum(state.units[uid].steps for uid in event.units)}
    return None
