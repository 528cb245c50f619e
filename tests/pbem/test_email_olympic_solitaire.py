"""Operation Olympic solitaire, played by email through a real SMTP server on 127.0.0.1 (issue 18): one player,
the American; the Japanese seat is the server's. Each order email is answered by one reply that carries the
result and, when the American player-turn ends, the whole programmed Japanese turn with each order's reason.
The game goes to its end by email; `verify` then re-decides every order, the programmed ones included."""
import random
import re

from app.mail import inbound
from app.mail.inbound import body_text
from app.projections import state as projection
from app.rules.olympic import GAME
from app.service import audit
from tests.olympic.test_olympic_fuzz import candidates

PLAYER = "alone@players.example"
ANSWER = "The server's automated seats answered"


def test_a_solitaire_olympic_game_by_email_with_the_japanese_turn_in_each_reply(pbem, smtp, store):
    game_id, tokens = pbem.create("olympic", {"american": PLAYER})
    assert set(tokens) == {"american"}
    smtp.reply(smtp.last(PLAYER, "Invitation"), PLAYER, "join: a long way from home")
    [joined] = inbound.ingest_maildir(pbem, smtp.maildir)
    assert joined.applied == 1 and "placement" in body_text(smtp.last(PLAYER, "Your turn"))

    rng = random.Random(2)
    japanese_turns = 0
    moved: set[str] = set()  # the reasons of the Japanese moves, as the replies showed them
    sent = 0
    while sent < 1500:
        sent += 1
        state = projection.load(store, game_id)
        if GAME.outcome(state.game) is not None:
            break
        order = next(candidates(state.game, rng))
        smtp.reply(smtp.last(PLAYER), PLAYER, order)
        [result] = inbound.ingest_maildir(pbem, smtp.maildir)
        assert result.applied == 1, result.lines
        reply = body_text(smtp.last(PLAYER, "Orders received")).replace("\r\n", "\n")
        assert f"accepted: {order}" in reply
        turn = reply.partition(ANSWER)[2]
        if "programmed) orders: doctrine" in turn:  # the American player-turn ended: the whole Japanese one
            japanese_turns += 1
            assert "die roll" in turn                                   # the doctrine's dice, as they fell
            if projection.load(store, game_id).game.turn > state.game.turn:  # ... to the Game-Turn's end
                assert "japanese (automated, programmed) orders: end  [no attack is possible]" in turn
                moved.update(re.findall(r"orders: (?:jmove|hold) \S+ .*\[(.*)\]", turn))
    final = projection.load(store, game_id)
    assert GAME.outcome(final.game) is not None, f"not over after {sent} emails"
    assert japanese_turns >= 9 and any("nearest its destination" in why for why in moved)
    assert "Game over" in smtp.last(PLAYER)["Subject"]
    assert not [m for m in smtp.handler.received if any("japanese" in r for r in m[0])]  # no one to email
    report = audit.verify(list(store.events(game_id)), check_dice=True)
    assert report.ok and report.rolls_checked > 0, report.problems[:3]
    automated = [e for e in store.events(game_id) if e.type == "core.OrderGiven" and e.actor == "auto:japanese"]
    assert len(automated) > 100 and all(e.payload["auto"]["policy"] == "programmed" for e in automated)
