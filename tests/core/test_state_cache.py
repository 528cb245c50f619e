"""The in-memory state cache (app/projections/cache.py): a cached state is used only while the stored stream still
holds the event it was folded to, whoever wrote since (issue 15)."""
import subprocess
import sys
from pathlib import Path

import pytest

from app.events import core
from app.events.registry import encode
from app.events.store import EventStore, NewEvent
from app.projections import state as projection
from app.projections.cache import StateCache
from app.rules.catalog import installed
from app.service import games
from app.service.demo import SKIRMISH_OPENING

CATALOG = installed()  # the rule sets installed here

ROOT = Path(__file__).resolve().parents[2]


def fresh(store, game_id, at=None):
    return projection.load(store, CATALOG, game_id, at, use_snapshots=False)


def test_a_second_process_appends_and_the_cache_notices(store, skirmish):
    games.submit(store, CATALOG, skirmish, *SKIRMISH_OPENING[0])
    cached = projection.load(store, CATALOG, skirmish)
    assert projection.load(store, CATALOG, skirmish) is cached  # a hit: the stored head is the cached one
    subprocess.run([sys.executable, "-c", "import sys; from app.events.store import EventStore; "
                    "from app.rules.catalog import installed; from app.service import games; "
                    "games.submit(EventStore(sys.argv[1]), installed(), *sys.argv[2:])",
                    store.path, skirmish, *SKIRMISH_OPENING[1]], cwd=ROOT, check=True)
    after = projection.load(store, CATALOG, skirmish)
    assert after.meta.seq == store.head(skirmish)[0] > cached.meta.seq
    assert after == fresh(store, skirmish)


def test_the_state_an_order_caches_is_the_stored_events_state_to_the_game_over(store, skirmish):
    """An order's state is folded once, before its events are sealed (games.submit): every order's state, the
    last one with the dice seed its game over revealed, is what a fold of the stored stream gives."""
    rules = CATALOG.rules("skirmish")
    while rules.outcome((state := projection.load(store, CATALOG, skirmish)).game) is None:
        accepted = games.submit(store, CATALOG, skirmish, rules.prompt(state.game).side, "end")
        assert accepted.state == fresh(store, skirmish) and projection.load(store, CATALOG, skirmish) is accepted.state
    assert accepted.events[-1].type == "core.SeedRevealed" and accepted.state.meta.revealed_seed is not None


def test_a_state_cached_inside_a_rolled_back_transaction_is_not_used(store, skirmish):
    before = projection.load(store, CATALOG, skirmish)
    with pytest.raises(RuntimeError), store.transaction():
        games.submit(store, CATALOG, skirmish, *SKIRMISH_OPENING[0])
        assert projection.load(store, CATALOG, skirmish).meta.seq > before.meta.seq  # cached, never committed
        raise RuntimeError("roll back")
    assert projection.load(store, CATALOG, skirmish) == before
    other = EventStore(store.path)  # another connection writes a different order at the same sequence numbers
    games.submit(other, CATALOG, skirmish, "red", "end")
    assert projection.load(store, CATALOG, skirmish) == fresh(store, skirmish)
    assert projection.load(store, CATALOG, skirmish).game.step != before.game.step


def test_a_database_made_again_at_the_same_path_is_not_read_from_the_cache(tmp_path):
    path = str(tmp_path / "again.sqlite3")
    first = EventStore(path)
    game_id = games.create_game(first, CATALOG, "skirmish", game_id="g-same")
    games.join(first, CATALOG, game_id, "red", "red@example.org", "red text")
    projection.load(first, CATALOG, game_id)  # cached: the state after event 2 of this stream
    first.close()
    Path(path).unlink()
    second = EventStore(path)
    games.create_game(second, CATALOG, "skirmish", game_id="g-same")
    joined = [encode(core.PlayerJoined(side=side, name=name, seed_text="t")) for side, name in
              (("red", "Other Name"), ("blue", "Blue"))]
    second.append(game_id, 1, [NewEvent(*body, "player") for body in joined])
    # folded on from the cached event 2 only if this stream's event 3 links to it: it does not
    assert projection.load(second, CATALOG, game_id) == fresh(second, game_id)
    assert projection.load(second, CATALOG, game_id).meta.players == {"red": "Other Name", "blue": "Blue"}


def test_positions_before_the_head_come_from_the_nearest_cached_state(store, skirmish):
    for side, order in SKIRMISH_OPENING[:6]:
        games.submit(store, CATALOG, skirmish, side, order)
    head = store.head(skirmish)[0]
    for at in range(1, head + 1):
        assert projection.load(store, CATALOG, skirmish, at) == fresh(store, skirmish, at)
    for at in range(head, 0, -1):
        assert projection.load(store, CATALOG, skirmish, at) == fresh(store, skirmish, at)


def test_the_cache_keeps_at_most_its_capacity():
    cache = StateCache(2)
    for seq in (1, 2, 3):
        cache.put("db", "g", seq, f"h{seq}", seq)
    assert cache.nearest("db", "g", 1) is None and cache.nearest("db", "g", 9) == (3, "h3", 3)
    assert cache.nearest("db", "g", 2) == (2, "h2", 2)


def test_a_busy_game_keeps_its_latest_states_and_pushes_no_other_games_head_out():
    """Every order caches the state after it: one game's long history keeps only its latest PER_GAME states, so the
    other games' heads stay cached (at the default size, 256, a few busy games once filled it)."""
    from app.projections.cache import PER_GAME

    states = StateCache(4 * PER_GAME)
    for g in range(3):
        states.put("db", f"g-{g}", 7, f"h{g}", f"head of g-{g}")
    for seq in range(1, 200):
        states.put("db", "g-busy", seq, f"h{seq}", f"g-busy at {seq}")
    assert [states.nearest("db", f"g-{g}", 7) for g in range(3)] == [(7, f"h{g}", f"head of g-{g}") for g in range(3)]
    assert states.nearest("db", "g-busy", 199) == (199, "h199", "g-busy at 199")
    assert states.nearest("db", "g-busy", 199 - PER_GAME + 1)[0] == 199 - PER_GAME + 1  # undo finds the state before
    assert states.nearest("db", "g-busy", 199 - PER_GAME) is None  # earlier ones: from a snapshot or the fold
