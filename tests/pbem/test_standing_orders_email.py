"""Standing orders by email through a real SMTP server on 127.0.0.1 (issue 27): set in the reply that takes a
seat, kept, applied by the server when the other side's turn asks the decision, so the phasing player's one email
plays through it; the turn email shows a seat its own standing orders, and the other side only that some were set.
Shanghai-Nanking GT 2, the Japanese landing at 3510 with air support (SNC 11.3), the server's dice fixed."""
from __future__ import annotations

from app.events import dice
from app.mail import inbound
from app.mail.inbound import body_text
from app.rules.catalog import installed
from app.service import audit, games
from app.service.seats import Seat
from tests.core.test_standing_orders import ATTACK, GT1_GT2, LANDING

CATALOG = installed()  # the rule sets installed here

CN, JP = "chinese@players.example", "japanese@players.example"


def test_a_players_email_plays_through_the_other_sides_standing_orders(pbem, smtp, store, monkeypatch):
    monkeypatch.setattr(dice, "new_seed", lambda: f"{1:064x}")
    monkeypatch.setattr(games, "new_game_id", lambda store: "g-57a4d1ce")
    game_id, _ = pbem.setup.create("snc", {"chinese": CN, "japanese": JP})
    smtp.reply(smtp.last(CN, "Invitation"), CN, "join: the Yangtze at dawn\nstanding intercept: never\n"
                                                "standing retreat: toward 0202")
    smtp.reply(smtp.last(JP, "Invitation"), JP, "join: Kure naval district")
    joined = inbound.ingest_maildir(pbem, smtp.maildir)
    assert [r.refused for r in joined] == [False, False], [r.lines for r in joined]
    answer = body_text(smtp.last(CN, "Orders received"))
    assert "your standing orders are now: standing intercept: never; standing retreat: toward 0202" in answer

    seats = {s: Seat(game_id, s, e) for s, e in (("chinese", CN), ("japanese", JP))}
    for side, order in GT1_GT2:
        pbem.orders.submit(seats[side], order)
    chinese_before = len(smtp.inbox(CN))

    # one Japanese email: the landing (the Chinese standing order declines the interception), the phase's end, an
    # attack whose step loss the Japanese standing order takes, the turn's end
    turn = smtp.last(JP, "Your turn")
    assert "Your standing orders" in body_text(turn) and "none: every decision is asked of you" in body_text(turn)
    smtp.reply(turn, JP, "\n".join([LANDING, "end", ATTACK, "standing losses: keep jp-snlf-1; weakest"]))
    [result] = inbound.ingest_maildir(pbem, smtp.maildir)
    assert not result.refused and result.applied == 4, result.lines
    reply = body_text(smtp.last(JP, "Orders received"))
    assert "chinese orders: pass  [its standing order for intercept]" in reply
    assert "japanese orders: lose jp-d3-r18 jp-d3-r34  [its standing order for losses]" in reply
    assert "intercept: never" not in reply and "toward 0202" not in reply  # the Chinese clauses stay theirs
    assert len(smtp.inbox(CN)) == chinese_before  # the Chinese were asked nothing

    # the Japanese history names the Chinese setting, not what it says; the Chinese turn email shows theirs
    rows = pbem.reads.history_rows(seats["japanese"], 1)
    assert "chinese set standing orders (hidden from you)" in [r["text"] for r in rows]
    smtp.reply(smtp.last(JP, "Orders received"), JP, "end")
    inbound.ingest_maildir(pbem, smtp.maildir)
    chinese_turn = body_text(smtp.last(CN, "Your turn"))
    assert "  standing intercept: never\n  standing retreat: toward 0202" in chinese_turn.replace("\r\n", "\n")
    assert audit.verify(CATALOG, list(store.events(game_id))).ok
