"""Rewind and snapshots (issue 2 item 6): a snapshot is a pure cache."""
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.projections import state as projection
from app.projections.cache import STATES
from app.rules.catalog import installed
from app.service import games
from tests.conftest import play_random

CATALOG = installed()  # the rule sets installed here

RULES = CATALOG.rules("skirmish")


def _encoded(state):
    return projection.encode(RULES, state)


@pytest.mark.slow  # random games, snapshots checked at every step
@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), every=st.integers(3, 30), orders=st.integers(20, 120))
def test_state_from_snapshots_equals_full_rebuild(store, monkeypatch, seed, every, orders):
    monkeypatch.setattr(store, "snapshot_every", every)
    game_id = games.create_game(store, CATALOG, "skirmish")
    play_random(store, game_id, random.Random(seed), max_orders=orders)
    head = store.head(game_id)[0]
    assert store.db.conn.execute("SELECT count(*) FROM snapshots WHERE game_id = ?", [game_id]).fetchone()[0] >= 1
    rng = random.Random(seed)
    for at in sorted({head, 1, *(rng.randint(1, head) for _ in range(5))}):
        remembered = projection.load(store, CATALOG, game_id, at)  # folded on from a state in memory, or a snapshot
        STATES.clear()
        cached = projection.load(store, CATALOG, game_id, at)  # from a snapshot
        rebuilt = projection.load(store, CATALOG, game_id, at, use_snapshots=False)
        assert _encoded(remembered) == _encoded(cached) == _encoded(rebuilt)
        assert cached.meta.seq == at
    store.drop_snapshots()
    assert _encoded(projection.load(store, CATALOG, game_id)) == _encoded(
        projection.load(store, CATALOG, game_id, use_snapshots=False))


def test_rewind_shows_the_position_before_a_move(store, skirmish):
    games.submit(store, CATALOG, skirmish, "red", "move R1 0202")
    seq = store.head(skirmish)[0]
    assert projection.load(store, CATALOG, skirmish, seq - 2).game.units["R1"].hex == "0102"
    assert projection.load(store, CATALOG, skirmish, seq).game.units["R1"].hex == "0202"


def test_snapshot_of_another_rules_version_is_ignored(store, skirmish, monkeypatch):
    games.submit(store, CATALOG, skirmish, "red", "move R1 0202")
    head = store.head(skirmish)[0]
    bogus = projection.encode(RULES, projection.load(store, CATALOG, skirmish))
    bogus["game"]["turn"] = 99
    store.save_snapshot(skirmish, head, "skirmish:0-old", bogus)
    assert projection.load(store, CATALOG, skirmish).game.turn == 1


def test_rewind_out_of_range_is_a_clear_error(store, skirmish):
    import pytest

    with pytest.raises(projection.NoSuchPosition, match="no event 999"):
        projection.load(store, CATALOG, skirmish, 999)


@pytest.mark.parametrize("name, side, first", [("ichigo", "allied", "deploy"),
                                              ("snc", "chinese", "declare move fight")])
def test_a_snapshot_of_the_shape_saved_before_the_engine_is_rebuilt_not_read(store, name, side, first):
    """SNC's and Ichi-Go's states were saved flat (their own codecs, map_text beside the fields) under
    "<game>:<version>"; on the engine the saved shape is {"options", "state"} (snapshot_format 2 and on): an old
    snapshot is a stale cache."""
    rules = CATALOG.rules(name)
    game_id = games.create_game(store, CATALOG, name, auto={})
    games.submit(store, CATALOG, game_id, side, first)
    head = store.head(game_id)[0]
    now = projection.encode(rules, projection.load(store, CATALOG, game_id, use_snapshots=False))
    flat = {**now["game"]["state"], "map_text": "", "turn": 99}
    store.save_snapshot(game_id, head, f"{name}:{rules.version}", {"meta": now["meta"], "game": flat})
    assert projection.rules_key(rules) != f"{name}:{rules.version}"
    assert projection.encode(rules, projection.load(store, CATALOG, game_id)) == now


@pytest.mark.parametrize("name", ["snc", "ichigo"])
def test_a_state_from_a_snapshot_keeps_its_units_in_the_order_a_fold_keeps_them(name):
    """A snapshot is canonical JSON (sorted by unit id); decoded, its units walk in setup order again, so an
    automated seat (which walks the units) chooses the same order after a snapshot as after a fold, and verify
    (which folds) agrees with what was played (found: an SNC greedy attack listed its units in another order)."""
    import json

    from app.events.envelope import canonical_json

    rules = CATALOG.rules(name)
    folded = rules.initial_state(next(iter(rules.scenarios)), {})
    decoded = rules.decode_state(json.loads(canonical_json(rules.encode_state(folded))))
    assert list(folded.units) != sorted(folded.units)  # the order of battle is not sorted by id
    assert list(decoded.units) == list(folded.units) and decoded == folded
