"""The contract of Snapshots (app/events/interface.py), on both backends: a cache of folded states by rules
version."""
from __future__ import annotations

import pytest

from app.events.snapshots import SnapshotTables
from tests.core.store_contract import game, opened


@pytest.fixture
def backend(db_location):
    part = opened(SnapshotTables, db_location)
    yield part
    part.close()


def test_snapshots_are_a_cache_by_rules_version(backend):
    game(backend)
    assert backend.save_snapshot("g-1", 1, "skirmish:1", {"a": 1})
    assert backend.latest_snapshot("g-1", 5, "skirmish:1") == (1, {"a": 1})
    assert backend.latest_snapshot("g-1", 5, "skirmish:2") is None
    assert backend.latest_snapshot("g-1", 0, "skirmish:1") is None
    backend.drop_snapshots("g-1")
    assert backend.latest_snapshot("g-1", 5, "skirmish:1") is None
    backend.save_snapshot("g-1", 1, "skirmish:1", {"a": 1})
    backend.drop_snapshots()
    assert backend.latest_snapshot("g-1", 5, "skirmish:1") is None
