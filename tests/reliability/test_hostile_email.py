"""Issue 8: random and malformed email never crashes ingest, always gets a clear answer, and writes nothing.

The strategies and properties live in tests/reliability/hostile.py (bench/hostile_inputs.py runs them bigger)."""
from __future__ import annotations

import pytest
from hypothesis import given

from tests.reliability import hostile


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    return hostile.mail_world(str(tmp_path_factory.mktemp("mail") / "hostile.sqlite3"))


@hostile.ci_budget(hostile.EMAIL_BYTES)
@given(**hostile.EMAIL_BYTES_INPUTS)
def test_random_bytes(world, raw):
    hostile.check_email_bytes(world, raw)


@hostile.ci_budget(hostile.EMAIL_MESSAGES)
@given(**hostile.EMAIL_MESSAGE_INPUTS)
def test_random_messages_without_valid_credentials(world, to, subject, lines, sender, mention_game):
    hostile.check_email_message(world, to, subject, lines, sender, mention_game)
