"""An Olympic sandbox by email through a real SMTP server on 127.0.0.1 (issue 18): a game created from the
documented position (docs/custom-positions.md, Game-Turn 9) plays to its end, each order email answered by one
reply carrying the programmed Japanese turn; `verify` then re-decides every order and recomputes every die."""
import random
import tomllib

from app.mail import inbound
from app.mail.inbound import body_text
from app.projections import state as projection
from app.rules.olympic import GAME
from app.service import audit
from tests.olympic.test_olympic_fuzz import candidates
from tests.olympic.test_olympic_position import docs_example

PLAYER = "sandbox@players.example"


def test_a_sandbox_position_plays_to_its_end_by_email(pbem, smtp, store):
    game_id, _ = pbem.create("olympic", {"american": PLAYER}, options={"position": tomllib.loads(docs_example())})
    smtp.reply(smtp.last(PLAYER, "Invitation"), PLAYER, "join: Satsuma")
    [joined] = inbound.ingest_maildir(pbem, smtp.maildir)
    assert joined.applied == 1 and "Game-Turn 9: American movement" in body_text(smtp.last(PLAYER, "Your turn"))
    rng = random.Random(4)
    japanese_turns = 0
    for _ in range(300):  # a bound: two Game-Turns take a few dozen orders
        state = projection.load(store, game_id)
        if GAME.outcome(state.game) is not None:
            break
        order = next(candidates(state.game, rng))
        smtp.reply(smtp.last(PLAYER), PLAYER, order)
        [result] = inbound.ingest_maildir(pbem, smtp.maildir)
        assert result.applied == 1, result.lines
        reply = body_text(smtp.last(PLAYER, "Orders received"))
        assert f"accepted: {order}" in reply
        japanese_turns += "programmed) orders: doctrine" in reply
    final = projection.load(store, game_id)
    assert GAME.outcome(final.game) is not None and (final.game.turn == 10 or final.game.casualty_points >= 2500)
    assert japanese_turns >= 1 and "Game over" in smtp.last(PLAYER)["Subject"]
    report = audit.verify(list(store.events(game_id)), check_dice=True)
    assert report.ok and report.rolls_checked > 0, report.problems[:3]
