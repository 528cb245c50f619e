"""A Dai Senso scenario played to its end purely by email through a real SMTP server on 127.0.0.1 (issue 17:
"each scenario can be played through to its end ... by email"): both players join by replying to their
invitations, each order is a reply to the latest email its player received (the order picked from the legal
orders, as a player reads them in the turn email), and the game-over email names the result and its ruling."""
import random

import pytest

from app.mail import inbound
from app.projections import state as projection
from app.rules.catalog import installed
from app.rules.daisenso import GAME
from app.service import audit

CATALOG = installed()  # the rule sets installed here

pytestmark = pytest.mark.slow  # scenarios played to their end by email

EMAIL = {"axis": "axis@players.example", "allied": "allied@players.example"}


@pytest.mark.parametrize("scenario", ["strait", "august-storm", "zhejiang"])
def test_a_dai_senso_scenario_played_to_its_end_by_email(pbem, smtp, store, scenario):
    game_id, _ = pbem.setup.create("daisenso", EMAIL, scenario=scenario)
    for side, address in EMAIL.items():
        smtp.reply(smtp.last(address, "Invitation"), address, f"join: {side} dice")
    assert [r.applied for r in inbound.ingest_maildir(pbem, smtp.maildir)] == [1, 1]
    first = GAME.prompt(projection.load(store, CATALOG, game_id).game)
    assert first.actions[0].syntax in inbound.body_text(smtp.last(EMAIL[first.side], "Your turn"))
    rng = random.Random(scenario)
    for _ in range(300):
        state = projection.load(store, CATALOG, game_id).game
        if GAME.outcome(state) is not None:
            break
        side = GAME.prompt(state).side
        orders = [o["order"] for o in GAME.legal_orders(state, side)]
        acting = [o for o in orders if o not in ("next", "stop", "support")]
        order = rng.choice(acting) if acting and rng.random() < 0.6 else orders[0]
        smtp.reply(smtp.inbox(EMAIL[side])[-1], EMAIL[side], order)
        [result] = inbound.ingest_maildir(pbem, smtp.maildir)
        assert result.applied == 1 and not result.refused, result.lines
    outcome = GAME.outcome(projection.load(store, CATALOG, game_id).game)
    assert outcome is not None
    for address in EMAIL.values():
        over = inbound.body_text(smtp.last(address, "Game over"))
        assert "(D16)" in over, over
    report = audit.verify(CATALOG, list(store.events(game_id)), check_dice=True)
    assert report.ok and report.rolls_unchecked == 0, report.problems
