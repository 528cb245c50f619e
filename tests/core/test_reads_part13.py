"""A load folds the store's rows itself (app/projections/state.py `fold_rows`, issue 26's full rebuild): each row's
payload decoded only where the fold reads it and a game event's class looked up directly. It must give the state the
event-by-event fold (`fold_all`, which replays, audits and an order's own events take) gives of the same events,
and refuse what `decode_stored` refuses."""
from pathlib import Path

import pytest

from app.events import core
from app.events.registry import EventSchemaError, decode_stored, encode
from app.events.store import NewEvent
from app.projections import history
from app.projections import state as projection
from app.projections.sight import Sight
from app.rules.catalog import installed
from app.rules.skirmish.events import StepEnded
from app.service import games, transfer
from tests.core.test_retraction import undo

CATALOG = installed()

EXPORTS = sorted((Path(__file__).parents[1] / "data").glob("exports-*/*.jsonl"))


def test_the_exports_are_there():
    assert len(EXPORTS) >= 6


@pytest.mark.parametrize("path", EXPORTS, ids=[p.stem for p in EXPORTS])
def test_a_load_folds_a_stored_game_to_the_state_the_event_by_event_fold_gives(store, path):
    events = transfer.parse_lines(path.read_text().splitlines())
    created = events[0].payload
    store.import_stream(events[0].game_id, created["rules"], created["scenario"], events)
    rules = CATALOG.rules(created["rules"])
    for at in (len(events) // 2, len(events)):
        loaded = projection.load(store, CATALOG, events[0].game_id, at, use_snapshots=False)
        assert loaded == projection.rebuild(rules, events[:at])
    assert loaded.meta.rolls == sum(e.type == "core.DieRolled" for e in events) > 0
    assert sum(loaded.meta.orders.values()) == sum(e.type == "core.OrderGiven" for e in events) > 0


def test_a_load_after_an_undo_folds_as_the_event_by_event_fold(store):
    game_id = games.create_game(store, CATALOG, "skirmish")
    for side in ("red", "blue"):
        games.join(store, CATALOG, game_id, side, side)
    games.submit(store, CATALOG, game_id, "red", "move R1 0202")
    moved = store.head(game_id)[0]
    undo(store, game_id, "red", moved - 1)
    games.submit(store, CATALOG, game_id, "red", "end")
    events = list(store.events(game_id))
    loaded = projection.load(store, CATALOG, game_id, use_snapshots=False)
    assert loaded == projection.rebuild(CATALOG.rules("skirmish"), events)
    assert loaded.game.units["R1"].hex == "0102" and loaded.meta.retractions == [[moved - 1, moved]]


def _appended(store, event: NewEvent) -> str:
    game_id = games.create_game(store, CATALOG, "skirmish")
    store.append(game_id, store.head(game_id)[0], [event])
    return game_id


def test_a_load_refuses_a_game_event_of_a_schema_version_it_does_not_know(store):
    name, _, payload = encode(StepEnded("red", "movement"))
    game_id = _appended(store, NewEvent(name, 2, payload, "player:red"))
    with pytest.raises(EventSchemaError, match="schema version 2 is not known"):
        projection.load(store, CATALOG, game_id, use_snapshots=False)


def test_a_load_refuses_a_game_event_whose_payload_does_not_fit_its_fields(store):
    name, version, payload = encode(StepEnded("red", "movement"))
    game_id = _appended(store, NewEvent(name, version, {**payload, "stray": 1}, "player:red"))
    with pytest.raises(EventSchemaError, match="invalid payload"):
        projection.load(store, CATALOG, game_id, use_snapshots=False)


def test_a_load_counts_the_orders_and_rolls_of_the_rows_it_does_not_decode(store):
    game_id = games.create_game(store, CATALOG, "skirmish")
    roll = NewEvent("core.DieRolled", 1, {"index": 0, "sides": 6, "value": 3, "purpose": "t"}, "server")
    order = NewEvent(*encode(core.OrderGiven(side="blue", text="end", command={})), "player:blue")
    store.append(game_id, store.head(game_id)[0], [roll, order, roll])
    loaded = projection.load(store, CATALOG, game_id, use_snapshots=False)
    assert (loaded.meta.rolls, loaded.meta.orders) == (2, {"blue": 1})
    assert loaded == projection.rebuild(CATALOG.rules("skirmish"), list(store.events(game_id)))


def test_history_lines_decode_each_event_once_and_read_as_before():
    """history.lines decodes an event once for the reader's sight and its line (issue 26); every side reads the
    lines it read when each was described first and its sight asked after, hidden events left out, redacted ones
    as their redacted text."""
    events = transfer.parse_lines((Path(__file__).parents[1] / "data" / "exports-c6a8c47" /
                                   "g-e1ichigo-random.jsonl").read_text().splitlines())
    rules = CATALOG.rules(events[0].payload["rules"])
    told = {}
    for side in (*rules.sides, None):
        sight = Sight(rules, side)
        before = []
        for e in events:
            seen = sight.event(decode_stored(e.type, e.version, e.payload))
            if seen is not False:
                before.append((e.seq, seen if isinstance(seen, str) else history.describe(rules, e)))
        told[side] = [(row["seq"], row["text"]) for row in history.lines(rules, events, side=side)]
        assert told[side] == before
    assert all(told[side] != told[None] for side in rules.sides)  # the fog: each side is told less than all
