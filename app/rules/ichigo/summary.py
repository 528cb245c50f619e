"""Ichi-Go in the replay (app/rules/base.py optional members): the victory hexes, and combat as the combat
panel and luck analysis read it.

An `ichigo.BattleResolved` event names the attacking side, units, strengths, odds, shifts, column, die and
result. The CRT line is the attacking nation's own (Ichi-Go 11.8: Japanese, Chinese or US), read from the
state just before the event. Each die face's result in that column is scored for the attacker as defender
steps lost minus attacker steps lost, with DE as every defending step (11.22) and the Chinese attacker's
doubled loss (11.23) applied as the engine applies it.
"""
from __future__ import annotations

from app.rules.ichigo import events as ev
from app.rules.ichigo.data_load import load
from app.rules.ichigo.fog import unit_side
from app.rules.ichigo.state import State, other
from app.rules.kernel.shifts import shift_from_text


def _line(event: ev.BattleResolved, state: State | None) -> str:
    units = state.units if state is not None else {}
    for uid in event.attackers:
        if uid in units:
            return units[uid].nation
    return "japanese" if event.side == "japanese" else "chinese"


def _attacker_loss(d, n: int, nation: str) -> int:
    if nation != "chinese":
        return n
    cm = d.scenario["combat"]  # 11.23
    return max(n * int(cm["chinese_attacker_loss_multiplier"]), int(cm["chinese_attacker_loss_minimum"]))


def distribution(d, column: str, line: str, defender_steps: int) -> list[dict]:
    """Each die face's result in `column` on the attacking nation's `line`, scored for the attacker (`d`: the game
    data)."""
    crt = d.crt
    out = []
    for face in crt.dice:
        r = crt.cell(column, face, line)
        lost = defender_steps if r.defender.eliminated else r.defender.losses
        out.append({"roll": face, "result": r.code, "value": lost - _attacker_loss(d, r.attacker.losses, line),
                    "p": 1 / len(crt.dice)})
    return out


def combat_summary(event, state: State | None) -> dict | None:
    if not isinstance(event, ev.BattleResolved):
        return None
    line = _line(event, state)
    units = state.units if state is not None else {}
    defender_steps = sum(units[u].steps for u in event.defenders if u in units)
    data = state.data if state is not None else load()  # no state: the printed game's tables
    try:
        dist = distribution(data, event.column, line, defender_steps) if event.roll else []
    except (ValueError, LookupError):  # "-": every attacker or defender was zero (11.27), no die was rolled
        dist = []
    defender = other(event.side)
    return {"attacker": event.side, "defender": defender, "hex": event.hex, "attackers": list(event.attackers),
            "nation": line, "line": line, "support": list(event.tanks) + (["1st SF"] if event.special_forces else []),
            "attack": event.attack, "defence": event.defence, "odds": event.odds,
            "shifts": [shift_from_text(s) for s in event.shifts], "column": event.column, "roll": event.roll,
            "result": event.result, "losses": {event.side: event.attacker_losses,
                                               defender: "all" if event.eliminated else event.defender_losses},
            "case": "Ichi-Go 11.19" if event.roll else "Ichi-Go 11.27", "distribution": dist,
            "columns": [c.label for c in data.crt.columns(line)]}


def losses(event) -> dict[str, int] | None:
    """Steps lost by each side in this event (the analysis charts count these, not views, which hide stacks under
    their top unit, 6.6): a unit listed twice lost two steps; a Chinese regular eliminated in combat goes back to
    the pool (9.7) with its one step. A zero-strength flip (11.27) is never a step loss."""
    if isinstance(event, ev.StepsLost):
        out: dict[str, int] = {}
        for uid in event.units:
            side = unit_side(uid)
            out[side] = out.get(side, 0) + 1
        return out
    if isinstance(event, ev.ReturnedToPool) and event.reason == "combat":
        return {"allied": 1}
    return None


__all__ = ["combat_summary", "distribution", "losses"]
