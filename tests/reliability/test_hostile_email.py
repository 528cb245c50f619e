"""Issue 8: random and malformed email never crashes ingest, always gets a clear answer, and writes nothing."""
from __future__ import annotations

from email.message import EmailMessage

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.events.store import EventStore
from app.mail import inbound
from app.mail.transport import MailConfig
from app.service.pbem import Pbem


class Outbox:
    def __init__(self):
        self.sent = []

    def send(self, msg):
        self.sent.append(msg)


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    store = EventStore(str(tmp_path_factory.mktemp("mail") / "hostile.sqlite3"))
    outbox = Outbox()
    pbem = Pbem(store, MailConfig(orders_address="orders@pbem.example"), outbox)
    game_id, tokens = pbem.create("skirmish", {"red": "red@x.example", "blue": "blue@x.example"})
    return pbem, game_id, tokens, outbox


LINES = st.one_of(
    st.sampled_from(["move R1 0202", "end", "attack 0403 with R1", "undo", "dispute 4: no", "accept dispute 1",
                     "join: hi", "seq: 3", "token: " + "0" * 32, "game: g-00000000", "> quoted", "-- ", ""]),
    st.text(max_size=60),
)
FORGE = ["", "orders@pbem.example", "orders+{game}@pbem.example", "orders+{game}.deadbeef@pbem.example",
         "orders+{game}.{red_token_reversed}@pbem.example", "orders+nogame@pbem.example", "not an address"]
CONFIG = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def _events(pbem, game_id):
    return [(e.seq, e.hash) for e in pbem.store.events(game_id)]


@CONFIG
@given(raw=st.binary(max_size=2000))
def test_random_bytes(world, raw):
    pbem, game_id, _, _ = world
    before = _events(pbem, game_id)
    result = inbound.ingest(pbem, raw)
    assert result.applied == 0 and result.lines
    assert _events(pbem, game_id) == before


@CONFIG
@given(to=st.sampled_from(FORGE),
       subject=st.text(st.characters(blacklist_categories=["Cc", "Cs", "Zl", "Zp"]), max_size=40),
       lines=st.lists(LINES, max_size=8),
       sender=st.sampled_from(["red@x.example", "blue@x.example", "eve@evil.example", "", "<>"]),
       mention_game=st.booleans())
def test_random_messages_without_valid_credentials(world, to, subject, lines, sender, mention_game):
    pbem, game_id, tokens, outbox = world
    msg = EmailMessage()
    msg["To"] = to.format(game=game_id, red_token_reversed=tokens["red"][::-1])
    msg["From"] = sender
    msg["Subject"] = subject
    body = ([f"game: {game_id}"] if mention_game else []) + lines
    msg.set_content("\n".join(body))
    before, replies = _events(pbem, game_id), len(outbox.sent)
    result = inbound.ingest(pbem, bytes(msg))
    assert result.applied == 0 and result.refused and result.lines
    assert _events(pbem, game_id) == before
    if sender and "@" in sender:
        assert len(outbox.sent) == replies + 1  # a clear reply went back to the sender
        assert tokens["red"] not in str(outbox.sent[-1]) and tokens["blue"] not in str(outbox.sent[-1])
