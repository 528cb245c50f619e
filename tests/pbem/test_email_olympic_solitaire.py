"""Operation Olympic solitaire, played by email through a real SMTP server on 127.0.0.1 (issue 18): one player,
the American; the Japanese seat is the server's. Each order email is answered by one reply, the American's turn
email, whose history carries the result and, when the American player-turn ends, the whole programmed Japanese
turn with each order's reason.
The game goes to its end by email from a position file (a sandbox) here, and from the printed set-up in
tests/pbem/test_whole_games_by_email.py (one whole game for issues 18 and 27); `verify` then re-decides every
order, the programmed ones included."""
import random
import tomllib

import pytest

from app.mail import inbound
from app.mail.inbound import body_text
from app.projections import state as projection
from app.rules.catalog import installed
from app.rules.olympic import GAME
from app.service import audit
from tests.olympic.test_olympic_fuzz import candidates
from tests.olympic.test_olympic_position import docs_example

CATALOG = installed()  # the rule sets installed here

pytestmark = pytest.mark.slow  # whole games played by email

PLAYER = "alone@players.example"
SINCE = "Since your last email"


def order_by_email(pbem, smtp, player: str, order: str) -> str:
    """The player answers the last email with one order; the history of the server's reply, which accepted it."""
    smtp.reply(smtp.last(player), player, order)
    [result] = inbound.ingest_maildir(pbem, smtp.maildir)
    assert result.applied == 1, result.lines
    reply = body_text(smtp.last(player, "Orders received")).replace("\r\n", "\n")
    assert f"accepted: {order}" in reply
    return reply.partition(SINCE)[2].partition("\n\n")[0]


def test_a_sandbox_position_plays_to_its_end_by_email(pbem, smtp, store):
    """A game from the documented position (docs/custom-positions.md, Game-Turn 9) plays to its end by email,
    each reply carrying the programmed Japanese turn; the audit re-decides every order and recomputes every die."""
    player = "sandbox@players.example"
    game_id, _ = pbem.setup.create("olympic", {"american": player}, options={"position": tomllib.loads(docs_example())})
    smtp.reply(smtp.last(player, "Invitation"), player, "join: Satsuma")
    [joined] = inbound.ingest_maildir(pbem, smtp.maildir)
    assert joined.applied == 1 and "Game-Turn 9: American movement" in body_text(smtp.last(player, "Your turn"))
    rng = random.Random(4)
    japanese_turns = 0
    for _ in range(300):  # a bound: two Game-Turns take a few dozen orders
        state = projection.load(store, CATALOG, game_id)
        if GAME.outcome(state.game) is not None:
            break
        reply = order_by_email(pbem, smtp, player, next(candidates(state.game, rng)))
        japanese_turns += "programmed) orders: doctrine" in reply
    final = projection.load(store, CATALOG, game_id).game
    assert GAME.outcome(final) is not None and (final.turn == 10 or final.casualty_points >= 2500)
    assert japanese_turns >= 1 and "game over" in smtp.last(player)["Subject"].lower()
    report = audit.verify(CATALOG, list(store.events(game_id)), check_dice=True)
    assert report.ok and report.rolls_checked > 0, report.problems[:3]
