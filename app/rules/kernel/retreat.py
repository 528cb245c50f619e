"""Retreats, one hex at a time, with each game's restrictions and priorities given as callbacks.

The kernel walks the retreat; the game supplies:

- ``allowed(current, candidate, state)``: hard restrictions (enemy units, prohibited hexsides; Dai Senso
  4.2.5.2, Formosa 15.7 items 1-2).
- ``priorities``: predicates tried in order; the first one some candidate meets gives the choices (Dai Senso
  4.2.5.1: farther with no EZOC, then farther with a friendly unit). `farther_from` builds the distance test.
  No priorities: every allowed neighbour is a choice (SNC 8.4 2): one hex, the owner choosing where).
- ``can_retreat(state)``: whether the force may retreat at all from where it stands (Dai Senso 4.2.5.2: a
  participating HQ or MA-0 unit; it may change as losses are taken or units join).
- ``choose(options, state)``: the owner's pick among the best candidates (from the order event).
- ``on_blocked``: "convert" one loss per hex left and keep trying (Dai Senso 4.2.5.3) or "eliminate" the force
  (Formosa 15.7 item 5; Olympic note 6).
- ``must_continue(state)``: an extra hex after the result is met (Formosa 15.7 item 3: overstacked);
  ``extra_priorities`` replace ``priorities`` for those extra hexes (Formosa 15.7 item 4 "unless 3) applies").

Building blocks for the callbacks: `outside_ezoc` (no EZOC, or only the first one entered for an infiltrating
force: Formosa 14.2, 22.0, 25.9), `nearer` (toward a supply source: Formosa 15.7 item 4) and `farther_from`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from app.rules.kernel.hexgrid import Grid, Hex
from app.rules.kernel.mapfile import GameMap

__all__ = [
    "RetreatOutcome",
    "RetreatState",
    "farther_from",
    "nearer",
    "outside_ezoc",
    "retreat",
    "retreat_length",
    "retreat_options",
]

BLOCKED = ("convert", "eliminate")


@dataclass(frozen=True)
class RetreatState:
    """Where the retreating force is: ``start``, ``path`` of hexes entered so far, losses ``converted``."""

    start: Hex
    path: tuple[Hex, ...] = ()
    converted: int = 0

    @property
    def current(self) -> Hex:
        return self.path[-1] if self.path else self.start


Candidate = Callable[[Hex, RetreatState], bool]


@dataclass(frozen=True)
class RetreatOutcome:
    """``path`` entered in order; ``converted``: losses to take in place of hexes (apply them with
    `results.apply_step_losses`, whose ``unsatisfied`` counts those no step was left for); ``eliminated``:
    the force is destroyed because it could not retreat."""

    start: Hex
    path: tuple[Hex, ...]
    converted: int
    eliminated: bool

    @property
    def end(self) -> Hex:
        return self.path[-1] if self.path else self.start


def farther_from(grid: Grid | GameMap, origin: Hex) -> Candidate:
    """Priority test: the candidate is farther from ``origin`` (the defending hex) than the hex the force
    stands in, which, since every step must gain distance, is farther than every hex before it (Dai Senso
    4.2.5.1; the attacker's own hex counts too, per its w4520/w4620 example)."""

    def test(candidate: Hex, state: RetreatState) -> bool:
        return grid.distance(candidate, origin) > grid.distance(state.current, origin)

    return test


def nearer(distance: Callable[[Hex], float]) -> Candidate:
    """Priority test: the candidate is nearer than the hex the force stands in by ``distance`` (the game's
    measure to its goal, e.g. hexes to the nearest friendly supply source, infinite for none: Formosa 15.7
    item 4). Follow it with an always-true priority where the game allows any hex when none is nearer."""

    def test(candidate: Hex, state: RetreatState) -> bool:
        return distance(candidate) < distance(state.current)

    return test


def outside_ezoc(ezoc: frozenset[Hex], ignore_first: bool = False) -> Callable[[Hex, Hex, RetreatState], bool]:
    """Restriction: never into a hex of ``ezoc`` (Formosa 14.2, 15.7 item 1), except, for an infiltrating force
    (Formosa 22.0 rangers, 25.9 Takasago), the first such hex of the retreat. Combine with the game's other
    restrictions in its ``allowed``."""

    def test(current: Hex, candidate: Hex, state: RetreatState) -> bool:
        if candidate not in ezoc:
            return True
        return ignore_first and not any(h in ezoc for h in state.path)

    return test


def retreat_options(
    grid: Grid | GameMap,
    state: RetreatState,
    allowed: Callable[[Hex, Hex, RetreatState], bool],
    priorities: Sequence[Candidate] = (),
) -> tuple[int | None, list[Hex]]:
    """(index of the first priority some legal neighbour meets, those neighbours), or (None, []). Without
    priorities every legal neighbour is an option (level 0). A `GameMap` leaves out its absent hexes."""
    current = state.current
    legal = [h for h in grid.neighbours(current) if allowed(current, h, state)]
    if not priorities:
        return (0, legal) if legal else (None, [])
    for level, test in enumerate(priorities):
        hits = [h for h in legal if test(h, state)]
        if hits:
            return level, hits
    return None, []


def retreat(
    grid: Grid | GameMap,
    start: Hex,
    hexes: int,
    allowed: Callable[[Hex, Hex, RetreatState], bool],
    priorities: Sequence[Candidate],
    choose: Callable[[list[Hex], RetreatState], Hex],
    on_blocked: str,
    can_retreat: Callable[[RetreatState], bool] = lambda state: True,
    must_continue: Callable[[RetreatState], bool] = lambda state: False,
    extra_priorities: Sequence[Candidate] | None = None,
) -> RetreatOutcome:
    """Retreat ``hexes`` hexes from ``start`` (module docstring for the callbacks)."""
    if on_blocked not in BLOCKED:
        raise ValueError(f"on_blocked must be one of {', '.join(BLOCKED)}, got {on_blocked!r}")
    if hexes < 0:
        raise ValueError(f"retreat length cannot be negative, got {hexes}")
    state = RetreatState(start)
    remaining = hexes
    extra = False
    while True:
        if remaining == 0:
            if not must_continue(state):
                break
            remaining, extra = 1, True
        options: list[Hex] = []
        if can_retreat(state):
            rank = priorities if not extra or extra_priorities is None else extra_priorities
            _, options = retreat_options(grid, state, allowed, rank)
        if options:
            pick = choose(list(options), state)
            if pick not in options:
                raise ValueError(
                    f"retreat into {pick} is not among the allowed hexes {[str(h) for h in options]}"
                )
            state = RetreatState(start, state.path + (pick,), state.converted)
            remaining -= 1
            continue
        if on_blocked == "eliminate":
            return RetreatOutcome(start, state.path, state.converted, True)
        state = RetreatState(start, state.path, state.converted + 1)
        remaining -= 1
    return RetreatOutcome(start, state.path, state.converted, False)


def retreat_length(by_terrain: Mapping[str, int], terrain: str, case: str = "") -> int:
    """Hexes a retreat result demands where it depends on the retreating unit's terrain (Olympic 8.8 note 2:
    rough, city, town 1; clear 2)."""
    try:
        return by_terrain[terrain]
    except KeyError:
        raise ValueError(
            f"{case}: no retreat length for terrain {terrain!r}; known {sorted(by_terrain)}"
        ) from None
