"""A Formosa scenario played to its end purely by email through a real SMTP server on 127.0.0.1 (issue 16: "both
scenarios can be played ... by email"): both players join by replying to their invitations, each order is a reply
to the latest email its player received (an order the rules accept now, as a player reads them in the turn
email), and the game-over email names the result and its case."""
import random

import pytest

from app.mail import inbound
from app.projections import state as projection
from app.rules.formosa import GAME
from app.service import audit
from tests.formosa.formosa_randomplay import invader

pytestmark = pytest.mark.slow  # a scenario played to its end by email

EMAIL = {"japanese": "japanese@players.example", "allied": "allied@players.example"}


def test_formosa_scenario_2_played_to_its_end_by_email(pbem, smtp, store):
    game_id, _ = pbem.create("formosa", EMAIL, scenario="2")
    for side, address in EMAIL.items():
        smtp.reply(smtp.last(address, "Invitation"), address, f"join: {side} dice")
    assert [r.applied for r in inbound.ingest_maildir(pbem, smtp.maildir)] == [1, 1]
    first = GAME.prompt(projection.load(store, game_id).game)
    assert first.actions[0].syntax in inbound.body_text(smtp.last(EMAIL[first.side], "Your turn"))
    rng = random.Random(5)
    for _ in range(3000):
        state = projection.load(store, game_id).game
        if GAME.outcome(state) is not None:
            break
        side = GAME.prompt(state).side
        order = next(t for t in invader(state, rng) if GAME.is_legal(state, GAME.parse(t, side, state)))
        smtp.reply(smtp.inbox(EMAIL[side])[-1], EMAIL[side], order)
        [result] = inbound.ingest_maildir(pbem, smtp.maildir)
        assert result.applied == 1 and not result.refused, result.lines
    assert GAME.outcome(projection.load(store, game_id).game) is not None
    for address in EMAIL.values():
        over = inbound.body_text(smtp.last(address, "Game over"))
        assert "(Formosa 4." in over, over
    report = audit.verify(list(store.events(game_id)), check_dice=True)
    assert report.ok and report.rolls_unchecked == 0, report.problems
