"""How good a position is for one side, for a game that has not ended: the value a playout of the strong
practice opponent ends on (app/rules/search.py), and the win probability's reading of a position (issue 29).

Read from the referee's view of the position (`rules.view(state, None)`): the search evaluates positions it
sampled from its side's view (app/rules/belief.py), so nothing hidden is read. Like TripleA's Pro AI, which
weighs territory value against the unit value each side keeps, it weighs three things, each from -1 (all the
enemy's) to +1 (all the side's):

- material: the combat strength each side has on the map (a unit's `strength`, else its `defence`, else 1);
- control: the victory hexes each side holds (the view's `victory_hexes` and `control`);
- reach: how near each side's units stand to the victory hexes it does not hold (a unit at distance d counts
  2^(-d/3)), the side's less the enemy's.

A game that has ended is worth 1 (won), -1 (lost) or 0 (drawn); any other position stays within +-`CAP`, so an
ending always outweighs it.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from app.rules.kernel.hexgrid import Hex

WEIGHTS = {"material": 0.45, "control": 0.4, "reach": 0.15}
CAP = 0.9


def value(rules, state: Any, side: str) -> float:
    """`side`'s value of `state`, from -1 to 1."""
    outcome = rules.outcome(state)
    if outcome is not None:
        return 0.0 if outcome.winner is None else (1.0 if outcome.winner == side else -1.0)
    found = features(rules, state, side)
    total = sum(WEIGHTS[k] * found[k] for k in WEIGHTS)
    return max(-CAP, min(CAP, CAP * total))


def features(rules, state: Any, side: str) -> dict[str, float]:
    """The three readings of `state` for `side` (see the module docstring), each from -1 to 1."""
    view = rules.view(state, None)
    units = [u for u in view.get("units") or () if u.get("hex") and u.get("side")]
    mine = sum(_worth(u) for u in units if u["side"] == side)
    theirs = sum(_worth(u) for u in units if u["side"] != side)
    victory = sorted(view.get("victory_hexes") or ())
    control = view.get("control") or {}
    held = sum(1 for h in victory if control.get(h) == side)
    lost = sum(1 for h in victory if control.get(h) not in (side, None))
    game_map = getattr(rules, "game_map", None)
    reach = 0.0
    if victory and game_map is not None:
        grid = game_map(state)
        ours = tuple(h for h in victory if control.get(h) != side)
        yours = tuple(h for h in victory if control.get(h) == side or control.get(h) is None)
        reach = (_reach(grid, [u["hex"] for u in units if u["side"] == side], ours)
                 - _reach(grid, [u["hex"] for u in units if u["side"] != side], yours))
    return {"material": (mine - theirs) / (mine + theirs) if mine + theirs else 0.0,
            "control": (held - lost) / len(victory) if victory else 0.0,
            "reach": reach}


def _worth(unit: dict) -> float:
    for key in ("strength", "defence", "cf"):
        v = unit.get(key)
        if isinstance(v, int | float) and not isinstance(v, bool):
            return float(v) if v > 0 else 0.5
    return 1.0


def _reach(grid, hexes: list[str], goals: tuple[str, ...]) -> float:
    """The mean of 2^(-d/3) over `hexes`, d the distance to the nearest of `goals` (0 with no goal or unit)."""
    if not hexes or not goals:
        return 0.0
    return sum(_near(grid, h, goals) for h in hexes) / len(hexes)


@lru_cache(maxsize=65536)
def _near(grid, here: str, goals: tuple[str, ...]) -> float:
    try:
        at = Hex.parse(here)
        d = min(grid.distance(at, Hex.parse(g)) for g in goals)
    except (ValueError, KeyError):
        return 0.0
    return 2 ** (-d / 3)
