"""Fork (issue 2 item 7) and export/import (item 9)."""
import json

import pytest

from app.projections import state as projection
from app.rules.catalog import installed
from app.service import audit, games, transfer
from app.service.demo import SKIRMISH_OPENING

CATALOG = installed()  # the rule sets installed here


@pytest.fixture
def played(store, skirmish):
    for side, order in SKIRMISH_OPENING:
        games.submit(store, CATALOG, skirmish, side, order)
    return skirmish


def _snapshot_of_stream(store, game_id):
    return [(e.seq, e.hash) for e in store.events(game_id)]


def test_fork_leaves_the_parent_unchanged_and_records_the_branch(store, played):
    before = _snapshot_of_stream(store, played)
    branch = 11  # a command boundary: the order at 10 produced event 11
    child = games.fork(store, played, branch)
    assert _snapshot_of_stream(store, played) == before
    marker = store.event(child, branch + 1)
    assert marker.type == "core.GameForked"
    assert marker.payload["parent_id"] == played and marker.payload["parent_seq"] == branch
    assert marker.payload["parent_hash"] == store.event(played, branch).hash
    assert marker.payload["seed_commitment"] != next(store.events(played)).payload["seed_commitment"]
    assert store.dice_seed(child) != store.dice_seed(played)
    parent_view = projection.encode(CATALOG.rules("skirmish"), projection.load(store, CATALOG, played, branch))
    child_state = projection.load(store, CATALOG, child)
    assert projection.encode(CATALOG.rules("skirmish"), child_state)["game"] == parent_view["game"]
    assert child_state.meta.parent == {"id": played, "seq": branch, "hash": store.event(played, branch).hash}


def test_fork_plays_on_independently_and_both_verify(store, played):
    child = games.fork(store, played, store.head(played)[0])
    games.submit(store, CATALOG, child, "red", "end")
    games.submit(store, CATALOG, child, "blue", "move B3 0604")
    assert projection.load(store, CATALOG, played).game.step == "combat"
    assert projection.load(store, CATALOG, child).game.side == "blue"
    assert audit.verify(CATALOG, list(store.events(child))).ok
    assert audit.verify(CATALOG, list(store.events(played))).ok


def test_fork_dice_verify_per_seed_epoch(store, played):
    child = games.fork(store, played, store.head(played)[0])
    games.submit(store, CATALOG, child, "red", "end")
    games.submit(store, CATALOG, child, "blue", "end")
    games.submit(store, CATALOG, child, "blue", "attack 0402 with B1")
    own_epoch = [e for e in store.events(child) if e.type == "core.DieRolled"][-1]
    assert own_epoch.seq > store.head(played)[0]
    games.reveal_seed(store, CATALOG, child, "test")
    report = audit.verify(CATALOG, list(store.events(child)), check_dice=True)
    assert report.ok and report.rolls_checked == 1 and report.rolls_unchecked == 1
    # the parent's seed is still secret, so the inherited rolls are listed as not yet checkable
    games.reveal_seed(store, CATALOG, played, "test")
    parent_seed = store.dice_seed(played)
    from app.events.dice import commitment

    full = audit.verify(CATALOG, list(store.events(child)), check_dice=True,
                        seeds={commitment(parent_seed): parent_seed})
    assert full.ok and full.rolls_unchecked == 0


def test_fork_out_of_range(store, played):
    with pytest.raises(games.GameError, match="cannot fork at 999"):
        games.fork(store, played, 999)


def test_export_import_round_trip(store, played, tmp_path):
    lines = list(transfer.export_lines(store, played))
    assert len(lines) == store.head(played)[0]
    assert all(json.loads(line)["hash"] for line in lines)
    from app.events.store import EventStore

    other = EventStore(str(tmp_path / "other.sqlite3"))
    assert transfer.import_game(other, CATALOG, lines) == played
    assert _snapshot_of_stream(other, played) == _snapshot_of_stream(store, played)
    with pytest.raises(games.GameError, match="already exists"):
        transfer.import_game(other, CATALOG, lines)


@pytest.mark.parametrize("damage", ["edit", "drop", "reorder", "garbage", "field"])
def test_tampered_export_is_refused_and_nothing_written(store, played, tmp_path, damage):
    lines = list(transfer.export_lines(store, played))
    if damage == "edit":
        lines[7] = lines[7].replace('"player:', '"player:x', 1)
    elif damage == "drop":
        del lines[3]
    elif damage == "reorder":
        lines[4], lines[5] = lines[5], lines[4]
    elif damage == "garbage":
        lines[2] = "{not json\n"
    else:
        lines[2] = json.dumps({**json.loads(lines[2]), "extra": 1}) + "\n"
    from app.events.store import EventStore

    other = EventStore(str(tmp_path / "other.sqlite3"))
    with pytest.raises(games.GameError) as err:
        transfer.import_game(other, CATALOG, lines)
    assert "line" in str(err.value) or "refused" in str(err.value)
    emptied = "SELECT (SELECT count(*) FROM events) + (SELECT count(*) FROM games)"
    assert other.db.conn.execute(emptied).fetchone()[0] == 0


def test_imported_game_without_its_seed_takes_no_orders_and_says_to_fork(store, played, tmp_path):
    """Issue 14: an imported game took orders until the first die was needed; now its first order is refused,
    nothing is written, and the answer says why and how to play on."""
    from app.events.store import EventStore

    other = EventStore(str(tmp_path / "other.sqlite3"))
    game_id = transfer.import_game(other, CATALOG, transfer.export_lines(store, played))
    head = other.head(game_id)[0]
    with pytest.raises(games.GameError) as refused:
        games.submit(other, CATALOG, game_id, "red", "end")  # needs no die, and is still refused
    assert "imported" in str(refused.value) and f"fork {game_id} --at {head}" in str(refused.value)
    assert other.head(game_id)[0] == head
    child = games.fork(other, game_id, head)
    games.submit(other, CATALOG, child, "red", "end")  # the fork has a seed of this server's: it plays on


def test_a_game_whose_seed_was_revealed_takes_no_orders(store, played):
    games.reveal_seed(store, CATALOG, played, "arbiter's request")
    head = store.head(played)[0]
    with pytest.raises(games.GameError, match="seed was revealed"):
        games.submit(store, CATALOG, played, "red", "end")
    assert store.head(played)[0] == head
