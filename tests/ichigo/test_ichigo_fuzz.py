"""Ichi-Go random legal play (design.md practice 10): no crash, no dead end, an outcome, a clean audit."""
import json
import random

from ichigo_randomplay import play

from app.rules import catalog
from app.rules.ichigo.rules import RULES
from app.service import audit, games


def test_random_legal_play_reaches_an_outcome_without_a_dead_end():
    for seed in range(3):
        state, accepted = play(random.Random(seed))
        assert RULES.outcome(state) is not None and accepted > 50


def test_state_encodes_to_json_and_back_unchanged_after_random_play():
    state, _ = play(random.Random(5), max_orders=120)
    raw = json.loads(json.dumps(RULES.encode_state(state)))
    assert RULES.decode_state(raw) == state


def test_random_play_through_the_service_verifies_clean(store):
    catalog.register(RULES)  # not yet in catalog.available(): registered for this test only
    try:
        game_id = games.create_game(store, "ichigo")
        games.join(store, game_id, "japanese", "j@example.org", "j")
        games.join(store, game_id, "allied", "a@example.org", "a")

        def submit(side, text):
            return games.submit(store, game_id, side, text).state.game

        play(random.Random(11), max_orders=250, submit=submit)
        assert audit.verify(list(store.events(game_id))).ok
    finally:
        catalog.unregister("ichigo")
