"""A position as one side may believe it: the hidden parts drawn at random, consistently with the side's view
(issue 29: the strong practice opponent "sees only what its side may see"; app/rules/search.py plays its
playouts on such samples, never on the position itself).

What is drawn, for a game whose state keeps its units by id (every game on the engine):

- **Where the hidden enemy units stand, and how strong.** The enemy units on the map that the side's view does not
  name (beneath the top unit of an SNC or Ichi-Go stack, SNC 6.3, Ichi-Go 6.6; Formosa's concealed "?" counters,
  11.1) are dealt at random to the places the view shows hidden units at, each believed at full strength (its
  `steps_max`, where it has one: the side has not seen its losses); a deal whose view differs from the side's own
  (a drawn unit stronger than the top unit shown, a "?" counter's movement factor) is dealt again, up to `TRIES`
  times.
- **What an untried counter is.** An untried counter (Ichi-Go 3.3, 11.27: hidden from both sides) takes the
  identity of another untried counter at random.

The sample depends only on the side's view, the seed, and which units are hidden (as a set: the order of battle
and the losses the side has seen tell it that much); never on where each hidden unit is, what losses it has taken,
nor on what an untried counter is. What stays as it is: the hidden displays off the map (Formosa's staging area
and reinforcements), the draw pool's order; before edition 11, plans kept secret until their reveal (Formosa
16.1). A playout can meet them only through the rules' own later steps.

From the policies' edition 9 (`SINCE`, app/rules/practice.py GREEDY_9; `edition` below, the seat's) the rule set's
`unseen` hook (app/rules/base.py Optional) draws the rest of what the side may not see, from its view and the
generator alone: Formosa's hidden points and markers (app/rules/formosa/unseen.py; before it a Japanese seat read
the Allies' real amphibious and drop zone markers in Formosa's stakes, 10.0, 11.0), and from edition 11 the
other side's strike plan until its reveal (16.1: the hook is told the seat's edition). The other games hide nothing
else a policy reads: SNC and Ichi-Go hide the units beneath an enemy stack's top unit (drawn above), the enemy's
displays off the map (their arrivals are the printed reinforcement schedules) and, Ichi-Go, the draw pool's order
and what an untried counter is (drawn above); Dai Senso, Olympic and the skirmish hide nothing.
"""
from __future__ import annotations

import dataclasses
import random
from typing import Any

from app.rules.engine.state import replace
from app.rules.kernel.hexgrid import Hex

TRIES = 8
SINCE = 9  # the policies' edition that draws the rule set's `unseen` parts (app/rules/practice.py GREEDY_9)
PLACES = ("hex", "where")  # the field that says where a unit is, by the games' names for it
# what an untried counter's data gives it (Ichi-Go 3.3): drawn from another untried counter
IDENTITY = ("ref", "army", "name", "type", "size", "steps_max", "strength", "static", "shift", "steps")


def _on_map(place: Any) -> bool:
    if not isinstance(place, str):
        return False
    try:
        Hex.parse(place)
    except (ValueError, KeyError):
        return False
    return True


def _place_field(unit: Any) -> str | None:
    return next((f for f in PLACES if hasattr(unit, f)), None)


def _full(unit: Any) -> dict:
    return {"steps": unit.steps_max} if hasattr(unit, "steps") and hasattr(unit, "steps_max") else {}


def hidden_units(rules, state: Any, side: str, seen: dict | None = None) -> list[str]:
    """The enemy units on the map that `side`'s view does not name, by id (sorted)."""
    units = getattr(state, "units", None)
    if not isinstance(units, dict):
        return []
    seen = seen if seen is not None else rules.view(state, side)
    shown = {u.get("id") for u in seen.get("units") or ()}
    out = []
    for uid, u in units.items():
        place = _place_field(u)
        if place and getattr(u, "side", side) != side and uid not in shown and _on_map(getattr(u, place)):
            out.append(uid)
    return sorted(out)


def untried(state: Any) -> list[str]:
    """Counters whose identity nobody has seen (Ichi-Go 3.3), by id (sorted)."""
    units = getattr(state, "units", None)
    if not isinstance(units, dict):
        return []
    return sorted(uid for uid, u in units.items() if getattr(u, "tried", True) is False and hasattr(u, "ref"))


def sample(rules, state: Any, side: str, rng: random.Random, edition: int = 8) -> Any:
    """A position `side` cannot tell from `state` by its view, with the hidden parts drawn by `rng`; from edition
    `SINCE` the rule set's `unseen` parts too (with a generator drawn first from `rng`, so the units' deal is
    edition 8's)."""
    unseen = getattr(rules, "unseen", None) if edition >= SINCE else None
    if unseen is None:
        return _dealt(rules, state, side, rng)
    rest = random.Random(rng.getrandbits(64))
    return unseen(_dealt(rules, state, side, rng), side, rest, edition=edition)


def remembered(rules, state: Any, key: str, compute) -> Any:
    """`compute()`, once per state, rule set and `key` where the state keeps what is derived from it
    (app/rules/engine/state.py Memo; else every time): the side's view, the deal's hidden units, a greedy seat's
    drawn position, which every sample and every rating of one position read alike. Kept with the rule set it was
    found by (a state met by another rule set, an older version's, finds its own)."""
    memo = getattr(state, "memo", None)
    if memo is None:
        return compute()
    found_by, value = memo((key, id(rules)), lambda: (rules, compute()))
    return value if found_by is rules else compute()


def seen_by(rules, state: Any, side: str) -> dict:
    """`side`'s view of `state` (`rules.view`), found once per position: the search's seed, each of its samples and
    greedy's readings all read it. Read only: never changed by its readers."""
    return remembered(rules, state, f"view:{side}", lambda: rules.view(state, side))


def _hidden(rules, state: Any, side: str) -> tuple:
    """What every deal of one position starts from, found once: the side's view, the hidden units and the untried
    counters (each sorted), the places the hidden units stand at and the untried counters' identities (sorted,
    as tuples: each deal shuffles its own copy)."""
    def find() -> tuple:
        seen = seen_by(rules, state, side)
        hidden = hidden_units(rules, state, side, seen)
        blind = untried(state)
        units = state.units
        places = tuple(sorted(getattr(units[uid], _place_field(units[uid])) for uid in hidden))
        identities = tuple(sorted(({f: getattr(units[uid], f) for f in IDENTITY if hasattr(units[uid], f)}
                                   for uid in blind), key=lambda d: sorted((k, str(v)) for k, v in d.items())))
        return seen, hidden, blind, places, identities
    return remembered(rules, state, f"hidden:{side}", find)


def _dealt(rules, state: Any, side: str, rng: random.Random) -> Any:
    """The hidden units dealt (module docstring), and nothing else drawn. What every deal of one position reads
    (`_hidden`) is found once for all its samples; each unit dealt is copied by the engine's `replace` (the same
    unit as `dataclasses.replace` makes, without running `__init__` again)."""
    if not dataclasses.is_dataclass(state) or not isinstance(getattr(state, "units", None), dict):
        return state
    seen, hidden, blind, places, identities = _hidden(rules, state, side)
    if len(hidden) < 2 and len(blind) < 2:
        return state
    units = state.units
    places, identities = list(places), list(identities)
    world = state
    for _ in range(TRIES):
        rng.shuffle(places)
        rng.shuffle(identities)
        change: dict[str, dict] = {uid: {_place_field(units[uid]): place, **_full(units[uid])}
                                   for uid, place in zip(hidden, places, strict=True)}
        for uid, identity in zip(blind, identities, strict=True):
            change[uid] = {**change.get(uid, {}), **identity}
        dealt = dict(units)  # the units in their order, each dealt one replaced where it stands
        for uid, fields in change.items():
            dealt[uid] = replace(units[uid], **fields)
        world = replace(state, units=dealt)
        if rules.view(world, side) == seen:
            return world
    return world
