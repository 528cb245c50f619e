"""Replay frames: one per event, in one fold, labelled by the sequence of play, seen through view()."""
import pytest

from app.events.registry import decode
from app.projections import replay
from app.projections import state as projection
from app.rules.catalog import installed
from app.rules.skirmish import GAME as RULES
from app.service import games
from tests.replay.conftest import foggy

CATALOG = installed()  # the rule sets installed here


def test_one_frame_per_event_each_equal_to_the_view_after_it(store, finished):
    rep = replay.build(store, CATALOG, finished, replay.ALL)
    events = list(store.events(finished))
    assert [f.seq for f in rep.frames] == [e.seq for e in events]
    for seq in (1, len(events) // 2, len(events)):
        assert rep.frame_at(seq).view == RULES.view(projection.load(store, CATALOG, finished, seq).game, None)
    assert rep.over and rep.outcome["reason"]


def test_frames_come_from_a_single_fold(store, finished, monkeypatch):
    """Each event is folded once for the whole replay (the fold takes a game event or a counted one inline, so
    the events are counted where they enter it)."""
    folded = []
    real = projection.fold_all

    def counting(rules, events, *args):
        events = list(events)
        folded.extend(e.seq for e in events)
        return real(rules, events, *args)

    monkeypatch.setattr(projection, "fold_all", counting)
    rep = replay.build(store, CATALOG, finished, "red")
    assert sorted(folded) == [f.seq for f in rep.frames] == list(range(1, len(rep.frames) + 1))


def test_labels_follow_the_sequence_of_play(store, finished):
    rep = replay.build(store, CATALOG, finished, replay.ALL)
    ended = [f for f in rep.frames if f.type == "skirmish.StepEnded"]
    assert ended[0].phase == "turn 1, red combat step" and ended[0].turn == 1
    assert rep.frames[-1].phase == "game over"
    turns = [f.turn for f in rep.frames]
    assert turns == sorted(turns) and turns[0] == 1 and turns[-1] >= 6


def test_combat_frames_carry_the_stored_roll_odds_and_result(store, finished):
    rep = replay.build(store, CATALOG, finished, replay.ALL)
    stored = {e.seq: decode(e.type, e.version, e.payload) for e in store.events(finished)
              if e.type == "skirmish.AttackResolved"}
    combats = {f.seq: f.combat for f in rep.frames if f.combat}
    assert set(combats) == set(stored)
    for seq, event in stored.items():
        c = combats[seq]
        assert (c["odds"], c["roll"], c["result"], c["hex"]) == (event.column, event.roll, event.result, event.hex)
        assert (c["attack"], c["defence"]) == (event.attack, event.defence)
        assert [d["result"] for d in c["distribution"] if d["roll"] == c["roll"]] == [event.result]


@foggy
def test_mid_game_a_side_sees_only_its_view_and_no_hidden_event(store, skirmish, catalog):
    games.submit(store, CATALOG, skirmish, "red", "move R1 0202")
    games.submit(store, CATALOG, skirmish, "red", "end")
    games.submit(store, CATALOG, skirmish, "red", "end")
    games.submit(store, CATALOG, skirmish, "blue", "move B1 0602")
    games.submit(store, CATALOG, skirmish, "blue", "move B3 0603")  # 0603 is next to nothing red: unseen by red
    rep = replay.build(store, catalog, skirmish, "red")
    assert rep.viewer == "red" and not rep.over
    last = rep.frames[-1]
    assert {u["id"] for u in last.view["units"]} == {"R1", "R2", "R3"}
    # blue's two orders and two moves are one hidden frame: red cannot even count them
    head = store.head(skirmish)[0]
    assert [(f.first_seq, f.seq, f.text) for f in rep.frames if f.hidden] == [
        (head - 3, head, "(events hidden from your side)")]
    assert len(rep.frames) == head - 3
    assert all("B1" not in f.text and "B3" not in f.text and "0603" not in f.text for f in rep.frames)
    with pytest.raises(IndexError):
        rep.frame_at(head - 1)  # the position between blue's moves is not red's to see
    # blue sees its own moves
    assert "B3 moves 0603" in [f.text for f in replay.build(store, catalog, skirmish, "blue").frames]


@foggy
def test_each_frame_names_the_hexes_its_step_is_about_and_a_hidden_run_names_none(store, skirmish, catalog):
    """The viewer keeps a frame's `focus` on screen: an order's destination and where the unit stands, a move's
    hexes; an end of phase is about no hex; blue's hidden moves tell red no hex at all (fog of war)."""
    games.submit(store, CATALOG, skirmish, "red", "move R1 0202")
    games.submit(store, CATALOG, skirmish, "red", "end")
    games.submit(store, CATALOG, skirmish, "red", "end")
    games.submit(store, CATALOG, skirmish, "blue", "move B3 0603")
    red = {f.text: f.focus for f in replay.build(store, catalog, skirmish, "red").frames}
    start = next(u["hex"] for u in RULES.view(projection.load(store, CATALOG, skirmish, 3).game, None)["units"]
                 if u["id"] == "R1")
    assert red["red orders: move R1 0202"] == sorted({"0202", start})
    assert red["R1 moves 0202"] == ["0202"]
    assert red["(events hidden from your side)"] == []
    assert red["red orders: end"] == [] and red["red ends the movement step"] == []
    assert replay.build(store, catalog, skirmish, "blue").frames[-1].focus == ["0603"]


def test_mid_game_needs_a_side_but_a_finished_game_is_open_to_all(store, finished):
    running = games.create_game(store, CATALOG, "skirmish")
    with pytest.raises(replay.NoAccess):
        replay.build(store, CATALOG, running, None)
    with pytest.raises(ValueError, match="no side 'green'"):
        replay.build(store, CATALOG, running, "green")
    assert replay.build(store, CATALOG, finished, "red").viewer == replay.ALL
    assert replay.build(store, CATALOG, finished, None).viewer == replay.ALL


def test_a_retracted_move_stays_visible_and_marked_and_the_position_goes_back(store, skirmish):
    """docs/architecture.md practice 9: the log keeps what was retracted; frames after it show the position without
    it."""
    from app.events import core
    from app.events.registry import encode
    from app.events.store import NewEvent

    games.submit(store, CATALOG, skirmish, "red", "move R1 0202")
    order_seq = store.head(skirmish)[0] - 1
    games.submit(store, CATALOG, skirmish, "red", "move R2 0203")
    head = store.head(skirmish)[0]
    name, version, payload = encode(core.Retracted(from_seq=order_seq, to_seq=head, reason="agreed", by="blue"))
    store.append(skirmish, head, [NewEvent(name, version, payload, "blue")])
    rep = replay.build(store, CATALOG, skirmish, replay.ALL)
    taken_back = [f for f in rep.frames if order_seq <= f.seq <= head]
    assert taken_back and all(f.retracted and f.text.startswith("[retracted]") for f in taken_back)
    before, after = rep.frame_at(head), rep.frames[-1]
    units = lambda frame: {u["id"]: u["hex"] for u in frame.view["units"]}  # noqa: E731
    assert units(before)["R1"] == "0202" and units(after)["R1"] == "0102" and units(after)["R2"] == "0103"
    assert after.view == RULES.view(projection.load(store, CATALOG, skirmish).game, None)


def test_a_disputes_own_events_are_never_shown_as_retracted(store):
    """docs/play-by-email.md, "Disputes are events": an accepted dispute retracts the disputed order and what
    followed, never the dispute's own events; the replay showed "[retracted] blue disputes event N" as taken back.
    Every frame is marked as the history marks it."""
    from tests.pbem.test_deadlines_and_ingest import seated

    pbem, _, game_id, seats, _ = seated(store)
    order = pbem.orders.submit(seats["red"], "move R1 0202").events[0].seq
    raised = pbem.disputes.raise_dispute(seats["blue"], order, "misclick")
    pbem.disputes.answer_dispute(seats["red"], raised["id"], True, "fair")
    frames = {f.seq: f for f in replay.build(store, CATALOG, game_id, replay.ALL).frames}
    assert frames[order].retracted and frames[order].text.startswith("[retracted] ")
    disputed = [f for f in frames.values() if f.type in ("core.DisputeRaised", "core.DisputeAnswered")]
    assert len(disputed) == 2
    for f in disputed:
        assert not f.retracted and not f.text.startswith("[retracted]"), f.text
    rows = {r["seq"]: r for r in pbem.reads.history_rows(seats["arbiter"])}
    assert {s: f.retracted for s, f in frames.items()} == {s: r["retracted"] for s, r in rows.items()}
