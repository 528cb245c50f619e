"""How good a position is for one side, for a game that has not ended: the value a playout of the strong
practice opponent ends on (app/rules/search.py), and the win probability's reading of a position (issue 29).

Read from the referee's view of the position (`rules.view(state, None)`): the search evaluates positions it
sampled from its side's view (app/rules/belief.py), so nothing hidden is read. Like TripleA's Pro AI, which
weighs the value of the territory each side holds, how safe it is, and the unit value each side keeps, it weighs
four things, each from -1 (all the enemy's) to +1 (all the side's):

- material: the combat strength each side has on the map (a unit's `strength`, else its `defence`, else 1);
- control: the victory hexes each side holds (the view's `victory_hexes` and `control`); a hex held with no unit
  of the holder on it and an enemy unit within two hexes counts half (it is contested);
- reach: how near each side's units stand to the victory hexes it does not hold (a unit at distance d counts
  2^(-d/3)), the side's less the enemy's, a share of all the units on the map (so a unit brought in far away
  still adds a little);
- safety: the strength each side has in stacks next to an enemy at least twice as strong, the enemy's less the
  side's (a share of all the strength on the map).

Edition 3 (the policies' edition a seat records, app/rules/practice.py) adds a fifth reading where the rule set
gives one: its `stakes` (app/rules/base.py Optional), how near each side stands to its own victory conditions
(SNC 4.1-4.3's sudden deaths and cities, Ichi-Go 4.1-4.5's victory points...), weighted `STAKES` against the four
above. Edition 2 reads the four alone, so a stored game's search decisions re-decide as they were played; the
rule set's `stakes` is told the edition (`edition=`), so it may read more from a later one (SNC from edition 4: how
many of the Shanghai ring's hexes hold a Chinese unit while 4.2 can end the game; from edition 5 SNC's cities
against the Game-Turns left). From edition 5 the stakes also weigh more as the game's end nears, where the rule
set says how much of its time has run out (its `progress`, p): `STAKES` + (1 - `STAKES`) * p^2 (SNC at GT 12:
0.92), for what is left of the game is the victory conditions, not the material kept for later. A rule set may
name a later edition for a hook in its `search_editions` (Olympic's `progress` from edition 7).

A game that has ended is worth 1 (won), -1 (lost) or 0 (drawn); any other position stays within +-`CAP`, so an
ending always outweighs it.
"""
from __future__ import annotations

from collections import defaultdict
from functools import lru_cache
from typing import Any

from app.rules.kernel.hexgrid import Hex

WEIGHTS = {"material": 0.4, "control": 0.35, "reach": 0.1, "safety": 0.15}
CAP = 0.9
STAKES = 0.5  # edition 3: the rule set's own reading of its victory conditions, against the four readings
LATEST = 11  # the evaluation's edition, by the policies' edition (app/rules/practice.py EDITION)
CONTESTED = 2  # an enemy unit this near a held victory hex with none of the holder's units on it contests it


def value(rules, state: Any, side: str, edition: int = LATEST) -> float:
    """`side`'s value of `state`, from -1 to 1, as the policies' `edition` reads it."""
    outcome = rules.outcome(state)
    if outcome is not None:
        return 0.0 if outcome.winner is None else (1.0 if outcome.winner == side else -1.0)
    found = features(rules, state, side)
    total = sum(WEIGHTS[k] * found[k] for k in WEIGHTS)
    stakes = getattr(rules, "stakes", None) if edition >= 3 else None
    if stakes is not None:
        weight = STAKES
        progress = hook(rules, "progress", edition)
        if progress is not None:
            weight += (1 - STAKES) * max(0.0, min(1.0, progress(state))) ** 2
        total = (1 - weight) * total + weight * max(-1.0, min(1.0, stakes(state, side, edition=edition)))
    return max(-CAP, min(CAP, CAP * total))


def hook(rules, name: str, edition: int, since: int = 5):
    """The rule set's optional hook `name` (`progress`, `overstacked`) as the policies' `edition` reads it: None
    before `since`, the edition that brought the hook in, or before the edition the rule set names for it (its
    `search_editions`: a hook a rule set gained later leaves its older seats' decisions as they were)."""
    first = max(since, (getattr(rules, "search_editions", None) or {}).get(name, since))
    return getattr(rules, name, None) if edition >= first else None


def features(rules, state: Any, side: str) -> dict[str, float]:
    """The four readings of `state` for `side` (see the module docstring), each from -1 to 1."""
    view = rules.view(state, None)
    units = [u for u in view.get("units") or () if isinstance(u.get("hex"), str) and u.get("side")]
    strength: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))  # hex -> side -> strength
    for u in units:
        strength[u["hex"]][u["side"]] += _worth(u)
    mine = sum(s.get(side, 0.0) for s in strength.values())
    theirs = sum(v for s in strength.values() for k, v in s.items() if k != side)
    total = mine + theirs
    victory = sorted(view.get("victory_hexes") or ())
    # a victory hex held by no side (SNC's neutral 3513 until 4.3 counts it, from SNC rules version 15) is no one's
    sides = set(rules.sides)
    control = {h: c for h, c in (view.get("control") or {}).items() if c in sides}
    game_map = getattr(rules, "game_map", None)
    grid = game_map(state) if game_map is not None else None
    held = 0.0
    against: dict[str, list[str]] = {}  # holder -> the hexes with a unit of another side, found once a position
    for h in victory:
        holder = control.get(h)
        if holder is None:
            continue
        if grid is None or strength.get(h, {}).get(holder):
            share = 1.0
        else:
            if holder not in against:
                against[holder] = [n for n, sides in strength.items() if any(s != holder for s in sides)]
            share = _hold(grid, h, against[holder])
        held += share if holder == side else -share
    reach = 0.0
    if victory and grid is not None and units:
        ours = tuple(h for h in victory if control.get(h) != side)
        yours = tuple(h for h in victory if control.get(h) == side or control.get(h) is None)
        reach = (_reach(grid, [u["hex"] for u in units if u["side"] == side], ours)
                 - _reach(grid, [u["hex"] for u in units if u["side"] != side], yours)) / len(units)
    safety = 0.0
    if grid is not None and total:
        safety = (_at_risk(grid, strength, lambda s: s != side) - _at_risk(grid, strength, lambda s: s == side)) / total
    return {"material": (mine - theirs) / total if total else 0.0,
            "control": held / len(victory) if victory else 0.0,
            "reach": reach, "safety": safety}


def _worth(unit: dict) -> float:
    for key in ("strength", "defence", "cf"):
        v = unit.get(key)
        if isinstance(v, int | float) and not isinstance(v, bool):
            return float(v) if v > 0 else 0.5
    return 1.0


def _hold(grid, here: str, enemy: list[str]) -> float:
    """A held victory hex with none of the holder's units on it: 1, or 1/2 with an enemy unit near (`enemy`: the
    hexes with a unit of a side other than the holder's)."""
    for h in enemy:
        if _distance(grid, here, h) <= CONTESTED:
            return 0.5
    return 1.0


def _at_risk(grid, strength, whose) -> float:
    """The strength of `whose` stacks with enemy strength at least twice theirs next to them."""
    out = 0.0
    for h, sides in strength.items():
        own = sum(v for s, v in sides.items() if whose(s))
        if not own:
            continue
        near = sum(v for n in _neighbours(grid, h) for s, v in strength.get(n, {}).items() if not whose(s))
        if near >= 2 * own:
            out += own
    return out


def _reach(grid, hexes: list[str], goals: tuple[str, ...]) -> float:
    """The sum of 2^(-d/3) over `hexes`, d the distance to the nearest of `goals` (0 with no goal)."""
    if not goals:
        return 0.0
    nearest = _NEAREST.get((grid, goals))
    if nearest is None:
        if len(_NEAREST) >= 4096:
            _NEAREST.clear()
        nearest = _NEAREST[(grid, goals)] = {}
    def gap(h: str) -> float:
        d = nearest.get(h)
        if d is None:
            d = nearest[h] = min(_distance(grid, h, g) for g in goals)
        return d
    return sum(2 ** (-gap(h) / 3) for h in hexes)


_NEAREST: dict[tuple, dict[str, float]] = {}  # (grid, goals) -> hex -> distance to the nearest goal, as `_reach`
# found it: a map never changes, and the playouts of a game value many positions with the same goals


@lru_cache(maxsize=262144)
def _distance(grid, a: str, b: str) -> float:
    try:
        return grid.distance(Hex.parse(a), Hex.parse(b))
    except (ValueError, KeyError):
        return float("inf")


@lru_cache(maxsize=65536)
def _neighbours(grid, here: str) -> tuple[str, ...]:
    try:
        return tuple(str(n) for n in grid.neighbours(Hex.parse(here)))
    except (ValueError, KeyError):
        return ()
