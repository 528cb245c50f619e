"""A state's units in the order the game set them up, whatever order a snapshot stored them in.

A folded state keeps its units in the order of the game's order of battle (evolve replaces a unit in place);
a snapshot is stored as canonical JSON, sorted by unit id, so a state decoded from one would iterate its units in
another order. Policies and candidate lists that walk the units would then choose differently after a snapshot
than after a fold, and `verify` (which folds) would find an automated seat's order changed. A snapshot is a
cache (design.md practice 5): decoding restores the order.
"""
from __future__ import annotations

from collections.abc import Iterable


def in_setup_order(units: dict, setup: Iterable[dict]) -> list[tuple[str, dict]]:
    """`units` (id -> encoded unit) as (id, unit) pairs in the order of `setup` (the order of battle's records,
    each with its "id"); a unit the setup does not list comes after, by id."""
    rank = {raw["id"]: n for n, raw in enumerate(setup)}
    return sorted(units.items(), key=lambda item: (rank.get(item[0], len(rank)), item[0]))
