"""Retractions (core.Retracted): the state as if the commands had not happened, the log keeping them, the dice
counter never going back, snapshots and the audit still right."""
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.events import core
from app.events.registry import encode
from app.events.store import NewEvent
from app.projections import history
from app.projections import state as projection
from app.projections.cache import STATES
from app.rules.catalog import installed
from app.service import audit, games, retractions
from app.service.demo import SKIRMISH_OPENING
from tests.conftest import play_random

CATALOG = installed()  # the rule sets installed here

RULES = CATALOG.rules("skirmish")


def retract(store, game_id, from_seq, reason="test"):
    """An arbiter's ruling, as the service writes one (app/service/disputes.py): blue disputes the order at
    `from_seq`, the arbiter upholds it, and the retraction follows the answer (app/service/retractions.py)."""
    head = store.head(game_id)[0]
    number = 1 + sum(e.type == "core.DisputeRaised" for e in store.events(game_id))
    by = retractions.by_dispute("arbiter", "upheld", number, "blue")
    batch = [(core.DisputeRaised(dispute=number, order_seq=from_seq, side="blue", reason=reason), "player:blue"),
             (core.DisputeAnswered(dispute=number, by="arbiter", status="upheld"), "arbiter"),
             (core.Retracted(from_seq=from_seq, to_seq=head + 1, reason=f"dispute {number}: {reason}", by=by), by)]
    return store.append(game_id, head, [NewEvent(*encode(body), actor) for body, actor in batch])[-1]


def undo(store, game_id, side, order_seq):
    """A player's undo of their own latest order, as the service writes one (app/service/disputes.py)."""
    head = store.head(game_id)[0]
    by = retractions.by_undo(side)
    body = core.Retracted(from_seq=order_seq, to_seq=head, reason="undo", by=by)
    return store.append(game_id, head, [NewEvent(*encode(body), by)])[0]


def _play_opening(store, game_id):
    seqs = []
    for side, order in SKIRMISH_OPENING:
        seqs.append(games.submit(store, CATALOG, game_id, side, order).events[0].seq)
    return seqs


def test_retracted_attack_is_undone_but_its_roll_stays_counted(store, skirmish):
    seqs = _play_opening(store, skirmish)
    attack_seq = seqs[-1]
    before = projection.load(store, CATALOG, skirmish, attack_seq - 1)
    after_attack = projection.load(store, CATALOG, skirmish)
    assert after_attack.meta.rolls == 1
    retract(store, skirmish, attack_seq, "misread the odds")
    now = projection.load(store, CATALOG, skirmish)
    assert RULES.encode_state(now.game) == RULES.encode_state(before.game)
    assert now.meta.rolls == 1  # the roll happened; the next one has a new index
    assert now.meta.retractions == [[attack_seq, attack_seq + len(list(store.events(skirmish, attack_seq))) - 3]]
    again = games.submit(store, CATALOG, skirmish, "red", "attack 0502 with R1")
    roll = next(e for e in again.events if e.type == "core.DieRolled")
    assert roll.payload["index"] == 1


def test_history_keeps_retracted_events_marked_with_their_rolls(store, skirmish):
    seqs = _play_opening(store, skirmish)
    retraction = retract(store, skirmish, seqs[-1], "misread the odds")
    events = list(store.events(skirmish))
    rows = history.lines(RULES, events, projection.retracted_seqs(events))
    marked = [r for r in rows if r["retracted"]]
    assert marked[0]["seq"] == seqs[-1] and marked[0]["text"].startswith("[retracted] red orders: attack")
    assert any(r["type"] == "core.DieRolled" and "die roll #0" in r["text"] for r in marked)
    assert rows[-1]["seq"] == retraction.seq and "retracted by arbiter (ruling, dispute 1 raised by blue)" in \
        rows[-1]["text"]
    assert not any(r["retracted"] for r in rows if r["seq"] < seqs[-1])


@pytest.mark.slow  # random games, snapshots checked at every step
def test_play_goes_on_after_a_retraction_and_the_game_verifies(store, skirmish):
    seqs = _play_opening(store, skirmish)
    retract(store, skirmish, seqs[-4])  # back to before red's second-turn moves
    assert projection.load(store, CATALOG, skirmish).game.units["R1"].hex == "0202"
    games.submit(store, CATALOG, skirmish, "red", "move R1 0302 0402")  # the same move again is legal: R1 has not moved
    games.submit(store, CATALOG, skirmish, "red", "end")
    play_random(store, skirmish, random.Random(5), max_orders=60)
    report = audit.verify(CATALOG, list(store.events(skirmish)))
    assert report.ok, report.problems


def test_audit_refuses_a_retraction_that_starts_inside_an_order(store, skirmish):
    seqs = _play_opening(store, skirmish)
    retract(store, skirmish, seqs[-1] + 1)  # the die roll, not the order
    report = audit.verify(CATALOG, list(store.events(skirmish)))
    assert not report.ok and "not an order" in report.problems[0].message


def test_folding_a_retraction_onto_a_state_that_holds_its_events_is_refused(store, skirmish):
    seqs = _play_opening(store, skirmish)
    state = projection.load(store, CATALOG, skirmish)
    event = retract(store, skirmish, seqs[-1])
    import pytest

    with pytest.raises(projection.RetractionNeedsRebuild):
        projection.fold(RULES, state, event)


@pytest.mark.slow  # random games, snapshots checked at every step
@settings(max_examples=5, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), every=st.integers(3, 20))
def test_snapshots_stay_a_pure_cache_across_retractions(store, monkeypatch, seed, every):
    monkeypatch.setattr(store, "snapshot_every", every)
    rng = random.Random(seed)
    game_id = games.create_game(store, CATALOG, "skirmish")
    play_random(store, game_id, rng, max_orders=40)
    for _ in range(2):
        orders = [e.seq for e in store.events(game_id) if e.type == "core.OrderGiven"
                  and e.seq not in projection.retracted_seqs(list(store.events(game_id)))]
        if projection.load(store, CATALOG, game_id).meta.revealed_seed or not orders:
            break
        retract(store, game_id, rng.choice(orders[len(orders) // 2:]))
        state = projection.load(store, CATALOG, game_id)
        projection.maybe_snapshot(store, RULES, state, 0)  # a snapshot right at the retraction
        play_random(store, game_id, rng, max_orders=25)
    head = store.head(game_id)[0]
    for at in sorted({head, *(rng.randint(1, head) for _ in range(6))}):
        remembered = projection.load(store, CATALOG, game_id, at)  # folded on from a state in memory, or a snapshot
        STATES.clear()
        cached = projection.load(store, CATALOG, game_id, at)  # from a snapshot
        rebuilt = projection.load(store, CATALOG, game_id, at, use_snapshots=False)
        assert projection.encode(RULES, remembered) == projection.encode(RULES, cached) == projection.encode(
            RULES, rebuilt)
    assert audit.verify(CATALOG, list(store.events(game_id))).ok


def _count_folds(monkeypatch) -> list:
    """Every event folded (projection._step), from here on."""
    folded = []
    real = projection._step
    monkeypatch.setattr(projection, "_step", lambda *a: folded.append(a[3].seq) or real(*a))
    return folded


def test_a_game_of_many_undos_folds_each_event_a_bounded_number_of_times(store, skirmish, monkeypatch):
    """Issue 25: the replay (and the audit) refolded the stream from event 1 at every retraction, so a player's
    own move+undo cycles made them quadratic (600 cycles: 4 s). A retraction now refolds from the state before
    the order it takes back: each event is folded at most twice, whatever the number of undos."""
    for _ in range(30):
        games.submit(store, CATALOG, skirmish, "red", "move R1 0202")
        undo(store, skirmish, "red", store.head(skirmish)[0] - 1)
    events = list(store.events(skirmish))
    folded = _count_folds(monkeypatch)
    stream = projection.StreamFold(RULES)
    stream.extend(events)
    assert len(folded) <= 2 * len(events) and max(folded.count(seq) for seq in set(folded)) <= 2
    assert projection.encode(RULES, stream.state) == projection.encode(RULES, projection.rebuild(RULES, events))
    folded.clear()
    assert audit.verify(CATALOG, events).ok
    assert len(folded) <= 2 * len(events)


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9))
def test_a_stream_folded_event_by_event_has_at_each_event_the_state_a_rebuild_gives(store, seed):
    """`StreamFold` keeps the state after each event, a retraction refolded only from the last state holding
    nothing any retraction so far takes back; it must be what folding the stream up to that event from its first
    event gives, for any retractions: undos, takebacks reaching back over earlier ones, and (as a forged or old
    file may hold) a retraction that is not right after what it retracts."""
    rng = random.Random(seed)
    game_id = games.create_game(store, CATALOG, "skirmish")
    for side in ("red", "blue"):
        games.join(store, CATALOG, game_id, side, f"{side}@example.org", side)
    for _ in range(rng.randint(2, 6)):
        play_random(store, game_id, rng, max_orders=rng.randint(1, 6))
        events = list(store.events(game_id))
        gone = projection.retracted_seqs(events)
        orders = [e.seq for e in events if e.type == "core.OrderGiven" and e.seq not in gone]
        if not orders or projection.load(store, CATALOG, game_id).meta.revealed_seed:
            break
        first = rng.choice(orders)
        last = rng.randint(first, events[-1].seq)
        head = events[-1].seq
        name, version, payload = encode(core.Retracted(from_seq=first, to_seq=last, reason="test", by="arbiter"))
        store.append(game_id, head, [NewEvent(name, version, payload, "arbiter")])
    events = list(store.events(game_id))
    stream = projection.StreamFold(RULES)
    for n, event in enumerate(events, start=1):
        state = stream.add(event)
        assert projection.encode(RULES, state) == projection.encode(RULES, projection.rebuild(RULES, events[:n])), n
