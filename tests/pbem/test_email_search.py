"""A whole game of each of the five games played by email against the strong practice opponent (issue 29): the
other side is the server's `search` seat (on a small budget here; bench/opponents.py measures its strength), the
player answers each email with one order picked from the legal orders the turn email lists, through a real SMTP
server on 127.0.0.1. Each reply carries the search's answering turn, each order with its reason (its playouts); at
the end the game-over email goes out and `verify` re-decides every one of the search's orders and recomputes every
die. Olympic's from the documented sandbox (Game-Turn 9, docs/custom-positions.md): its Japanese have one legal
order at every decision, so from the printed set-up the search plays the programme's whole game, which
tests/pbem/test_whole_games_by_email.py plays by email already."""
import random
import tomllib

import pytest

from app.mail import inbound
from app.projections import state as projection
from app.rules.catalog import installed
from app.service import audit
from tests.olympic.test_olympic_position import docs_example
from tests.pbem.test_replies_carry_the_situation import listed

CATALOG = installed()  # the rule sets installed here

pytestmark = pytest.mark.slow  # whole games played by email

PLAYER = "practice@players.example"
GAMES = [  # (rules, scenario, the player's side, the search's side, the game's options)
    ("snc", "campaign", "chinese", "japanese", {}),
    ("ichigo", "campaign", "allied", "japanese", {}),
    ("formosa", "1", "allied", "japanese", {}),
    ("daisenso", "strait", "allied", "axis", {}),
    ("olympic", "solitaire", "american", "japanese", {"position": tomllib.loads(docs_example())}),
]
# The player's draws, seeded per game. Ichi-Go's since its rules version 13 (E50 lists a stack picking up units):
# the old draws now ran a campaign of 741 orders to Game-Turn 12; these play a game of the usual length (from
# version 15, E55's fuller list: "ichigob" 389 orders, "ichigoc" 263).
DRAWS = {"ichigo": "ichigoc"}


@pytest.mark.parametrize("name, scenario, player, opponent, options", GAMES, ids=[g[0] for g in GAMES])
def test_a_whole_game_by_email_against_the_strong_opponent(pbem, smtp, store, fixed_dice, name, scenario, player,
                                                           opponent, options):
    """The same dice every run (`fixed_dice`): the search's choices and the player's draws are seeded, so each game
    is the same game, of the same length and cost, every run."""
    rules = CATALOG.rules(name)
    game_id, tokens = pbem.setup.create(name, {player: PLAYER}, scenario=scenario, auto={opponent: "search:4"},
                                        options=options)
    assert set(tokens) == {player}
    smtp.reply(smtp.last(PLAYER, "Invitation"), PLAYER, "join: practice makes perfect")
    [joined] = inbound.ingest_maildir(pbem, smtp.maildir)
    assert joined.applied == 1
    rng = random.Random(DRAWS.get(name, name))
    answered = 0
    for _ in range(3000):
        state = projection.load(store, CATALOG, game_id).game
        if rules.outcome(state) is not None:
            break
        assert rules.prompt(state).side == player
        orders = listed(inbound.body_text(smtp.inbox(PLAYER)[-1]).replace("\r\n", "\n"))  # as the email lists them
        closing = [o for o in orders if o.split()[0] in ("end", "pass", "next")]
        order = closing[0] if closing and rng.random() < 0.3 else rng.choice(orders)
        smtp.reply(smtp.inbox(PLAYER)[-1], PLAYER, order)
        [result] = inbound.ingest_maildir(pbem, smtp.maildir)
        assert result.applied == 1 and not result.refused, result.lines
        reply = inbound.body_text(smtp.last(PLAYER)).replace("\r\n", "\n")
        if f"{opponent} (automated, search) orders: " in reply:
            answered += 1
            assert "[search: " in reply  # each answering order with its reason
    assert rules.outcome(projection.load(store, CATALOG, game_id).game) is not None
    assert answered > 0 and "Game over" in smtp.last(PLAYER)["Subject"]
    events = list(store.events(game_id))
    searched = [e for e in events if e.type == "core.OrderGiven" and e.actor == f"auto:{opponent}"]
    assert searched and all(e.payload["auto"]["policy"] == "search" for e in searched)
    report = audit.verify(CATALOG, events, check_dice=True)
    assert report.ok and report.rolls_unchecked == 0, report.problems[:3]
