"""The contract of ServerRecords (app/events/interface.py), on both backends: the server's secrets and
clocks."""
from __future__ import annotations

import pytest

from app.events.records import RecordTables
from tests.core.store_contract import T0, T1, T2, opened


@pytest.fixture
def backend(db_location):
    part = opened(RecordTables, db_location)
    yield part
    part.close()


def test_a_secret_is_made_once_and_kept(backend):
    assert backend.secret("reply_tags", "first") == "first"
    assert backend.secret("reply_tags", "second") == "first"
    assert backend.secret("other", "third") == "third"


def test_the_clock_returns_its_last_reading(backend):
    assert backend.swap_clock("tick", T0) is None
    assert backend.swap_clock("tick", T1) == T0
    assert backend.swap_clock("tick", T2) == T1
