"""Every kind of Ichi-Go end reached purely by email through a real SMTP server on 127.0.0.1 (issue 7: "games can
be played to every kind of end ... by email"): the game is created from a position (tests/ichigo/ichigo_ends.py,
the same positions and orders as the CLI test), both players join by replying to their invitations, each order is
a reply to the latest email the player received, and the game-over email each player receives names the result
and the case that decided it."""
import pytest

from app.mail import inbound
from app.rules.catalog import installed
from app.service import audit
from tests.ichigo.ichigo_ends import DICE_TEXT, ENDS, End, fixed_dice

CATALOG = installed()  # the rule sets installed here

pytestmark = pytest.mark.slow  # games played to their end by email

EMAIL = {"japanese": "japanese@players.example", "allied": "allied@players.example"}


def deliver(pbem, smtp) -> list[inbound.Result]:
    """The cron job's `ingest-email --maildir`: process what the MTA delivered to the orders mailbox."""
    return inbound.ingest_maildir(pbem, smtp.maildir)


@pytest.mark.parametrize("end", ENDS, ids=lambda e: e.id)
def test_a_game_from_a_position_ends_by_email(pbem, smtp, store, monkeypatch, end: End):
    fixed_dice(monkeypatch, end.seed)
    game_id, _ = pbem.setup.create("ichigo", EMAIL, options={"position": end.position})
    for side, address in EMAIL.items():
        smtp.reply(smtp.last(address, "Invitation"), address, f"join: {DICE_TEXT[side]}")
    assert [r.applied for r in deliver(pbem, smtp)] == [1, 1]
    assert smtp.last(EMAIL[end.orders[0][0]], "Your turn")

    for side, order in end.orders:
        address = EMAIL[side]
        assert not any(m["Subject"].startswith("Game over") for m in smtp.inbox(address)), order
        smtp.reply(smtp.inbox(address)[-1], address, order)
        [result] = deliver(pbem, smtp)
        assert result.applied == 1 and not result.refused, result.lines

    for address in EMAIL.values():
        over = smtp.last(address, "Game over")
        assert f"] Game over: {end.result}: " in over["Subject"], over["Subject"]
        body = inbound.body_text(over)  # the plain-text part (a turn email may carry the map as well)
        assert f"game over: {f'{end.winner} wins' if end.winner else 'a draw'} - {end.case}: " in body, body
        for part in end.reason_has:
            assert part in body, (part, body)
        told = "".join(inbound.body_text(m) for m in smtp.inbox(address))  # each email tells what came since the last
        for part in end.log:
            assert part in told, (part, body)
    report = audit.verify(CATALOG, list(store.events(game_id)), check_dice=True)
    assert report.ok and report.rolls_unchecked == 0, report.problems
