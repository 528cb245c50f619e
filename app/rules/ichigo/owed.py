"""What each Ichi-Go decision owes (issue 14): where, how much, and the candidates with their values, for the
prompt of the side that decides (app/rules/base.py `Owed`). An untried counter's values stay hidden (6.6)."""
from __future__ import annotations

from app.rules.base import Owed
from app.rules.ichigo.state import State, Unit


def value(u: Unit) -> str:
    """A unit as a decision weighs it: attack-defence now and its steps; an untried counter is only untried."""
    if not u.tried:
        return "untried (6.6)"
    return f"{u.factor('attack')}-{u.factor('defence')}, {u.steps}/{u.steps_max} step(s), {u.size}"


def _units(state: State, ids) -> tuple[tuple[str, str], ...]:
    return tuple((uid, value(state.units[uid])) for uid in ids if uid in state.units)


def owed(state: State) -> Owed:
    p = state.pending[0]
    kind, data = p["kind"], p["data"]
    if kind == "losses":
        return Owed(f"lose {data['count']} step(s) (Ichi-Go 11.20-11.23; name a unit twice for two steps)",
                    (data.get("cont") or {}).get("hex"), f"{data['count']} step(s) from these units",
                    _units(state, data["units"]))
    if kind == "advance":
        return Owed("advance into the emptied hex, or stay (Ichi-Go 11.24)", data["hex"], "any of these units",
                    _units(state, data["units"]))
    if kind == "momentum":
        return Owed("a momentum attack from the hex just taken, or stay (Ichi-Go 11.25)", data["from"],
                    "any of these units, against one adjacent enemy hex", _units(state, data["units"]))
    if kind == "airpower":
        return Owed("place the airpower markers won (Ichi-Go 8.2)", None,
                    f"{data['count']} marker(s), one per hex")
    if kind == "tanks":
        return Owed("commit tank regiments to this defence before the die (Ichi-Go 11.17)", data["hex"],
                    f"0 to {data['max']} regiment(s)")  # the attackers are the enemy's: not listed (6.6)
    if kind in ("formosa-garrison", "kwantung-army"):
        return Owed(f"deploy {'the Formosa Garrison' if kind == 'formosa-garrison' else 'the Kwantung Army'} "
                    "(Ichi-Go 5.3, ruling E3)", None, "each of these units", _units(state, data["units"]))
    raise ValueError(f"Ichi-Go has no decision {kind!r}")
