"""What each SNC decision owes (issue 14): where, how much, and the candidates with their values, for the prompt
of the side that decides (app/rules/base.py `Owed`). Read from the pending decision and the position; the
decision's events stay as they were stored."""
from __future__ import annotations

from itertools import combinations

from app.rules.base import Owed
from app.rules.kernel.stacking import overstacked
from app.rules.snc.common import H
from app.rules.snc.state import State, Unit


def value(u: Unit) -> str:
    """A unit as a decision weighs it: its combat factor now, its steps, its size."""
    return f"{u.cf} CF, {u.steps}/{u.steps_max} step(s), {u.size}"


def _units(state: State, ids) -> tuple[tuple[str, str], ...]:
    return tuple((uid, value(state.units[uid])) for uid in ids)


def fewest_to_eliminate(state: State, side: str, h: str) -> int:
    """SNC 6.0, 6.2: the fewest of `side`'s units in `h` whose elimination brings it within the limits."""
    mf = state.data.params["game"]["mobile_mf"]
    mine = [u for u in state.at(h) if u.side == side]
    for k in range(1, len(mine) + 1):
        for gone in combinations(mine, k):
            if not overstacked([u.piece(mf) for u in mine if u not in gone], state.data.stacking, H(h)):
                return k
    return len(mine)


def owed(state: State) -> Owed:
    p = state.pending[0]
    kind, data, side = p["kind"], p["data"], p["side"]
    battle = state.battle or {}
    if kind == "losses":
        return Owed(f"lose {data['count']} step(s) (SNC 10.5.2)", battle.get("hex"),
                    f"{data['count']} step(s) from these units", _units(state, data["units"]))
    if kind == "advance":
        into = (f"the landing hex {data['from']}, then one hex beyond" if data.get("army")
                else battle.get("hex"))
        return Owed(f"advance into {into} or stay (SNC 10.5.3)", None,
                    f"up to {data['hexes']} hex(es), any of these units", _units(state, data["units"]))
    if kind == "intercept":
        return Owed("the Japanese air marker supports this attack: intercept it with the Chinese air force, or "
                    "pass (SNC 11.3: a 6 aborts the marker, a 1 loses the Chinese air force)", data.get("hex"))
    if kind == "defend":
        return Owed("add a naval gunfire marker to this defence, or pass (SNC 11.4)", data.get("hex"),
                    f"{state.markers_available('japanese', 'naval')} naval marker(s) left")
    if kind == "interdiction":
        units = sorted(data["units"], key=lambda u: (-state.units[u].cf, u))
        return Owed("remove reinforcements of this GT (SNC 11.2)", None,
                    f"at least {data['roll']} combat factor(s), no more units than needed (die {data['roll']})",
                    _units(state, units))
    if kind == "overstack":
        h = data["hex"]
        n = fewest_to_eliminate(state, side, h)
        mine = sorted((u for u in state.at(h) if u.side == side), key=lambda u: (-u.cf, u.id))
        return Owed(f"eliminate units until the hex is within the stacking limits (SNC 6.0; {data['why']})", h,
                    f"at least {n} unit(s), none more than needed", tuple((u.id, value(u)) for u in mine))
    if kind == "retreat":
        return Owed("retreat the Chinese survivors one hex (SNC 8.4)", battle.get("hex"), "one of these hexes",
                    tuple((h, "open") for h in data["options"]))
    raise ValueError(f"SNC has no decision {kind!r}")
