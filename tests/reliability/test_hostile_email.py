"""Issues 8 and 12: random and malformed email never crashes ingest, always gets a clear answer, and writes nothing.

The strategies and properties live in tests/reliability/hostile.py (bench/hostile_inputs.py runs them bigger)."""
from __future__ import annotations

import pytest
from hypothesis import given

from tests.reliability import hostile

pytestmark = pytest.mark.slow  # hypothesis-generated emails through ingest


@pytest.fixture(scope="module")
def world(module_db_location):
    """A play-by-email game, on each backend (a NUL that reached PostgreSQL's TEXT was a raw driver error)."""
    return hostile.mail_world(module_db_location)


@hostile.ci_budget(hostile.EMAIL_BYTES)
@given(**hostile.EMAIL_BYTES_INPUTS)
def test_random_bytes(world, raw):
    hostile.check_email_bytes(world, raw)


@hostile.ci_budget(hostile.EMAIL_MESSAGES)
@given(**hostile.EMAIL_MESSAGE_INPUTS)
def test_random_messages_without_valid_credentials(world, to, subject, lines, sender, mention_game):
    hostile.check_email_message(world, to, subject, lines, sender, mention_game)


@pytest.fixture(scope="module")
def mime_world(module_db_location, tmp_path_factory):
    return hostile.mime_world(module_db_location, tmp_path_factory.mktemp("mime"))


@hostile.ci_budget(hostile.EMAIL_MIME)
@given(**hostile.EMAIL_MIME_INPUTS)
def test_hostile_headers_and_mime_through_the_maildir(mime_world, **drawn):
    """Issue 12: encoded words (line breaks, NULs, bad charsets), 8-bit and huge headers, bad body charsets and
    transfer encodings, deep MIME nesting, 'seq: ²': every message ends processed, nothing raises."""
    hostile.check_hostile_mime(mime_world, **drawn)
