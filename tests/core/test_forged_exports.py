"""Offline `verify FILE --dice` and `import` hold a stream to the rules of the core events (issue 12): each forged
file below keeps an intact hash chain (the forger seals it again), and each is reported and refused."""
import dataclasses
import json
import random
from unittest import mock

import pytest

from app.events import dice
from app.events.core import (
    DieRolled,
    DisputeAnswered,
    DisputeRaised,
    GameForked,
    PlayerJoined,
    Retracted,
    SeedRevealed,
)
from app.events.dice import RecordedDice
from app.events.envelope import StoredEvent
from app.events.registry import encode
from app.events.store import EventStore, NewEvent
from app.projections import state as projection
from app.rules.base import Command
from app.rules.catalog import installed
from app.service import audit, games, transfer
from app.service.demo import SKIRMISH_OPENING
from tests.conftest import play_random
from tests.forgery import reseal

CATALOG = installed()  # the rule sets installed here

pytestmark = pytest.mark.slow  # a random game played first, then forged many ways


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A server holding a finished skirmish game with fixed dice (so a test can pick its rolls)."""
    store = EventStore(str(tmp_path_factory.mktemp("forgery") / "server.sqlite3"))
    with mock.patch.object(dice, "new_seed", return_value="fixed seed"):
        game_id = games.create_game(store, CATALOG, "skirmish", game_id="g-forgery")
    games.join(store, CATALOG, game_id, "red", "red@example.org", "red text")
    games.join(store, CATALOG, game_id, "blue", "blue@example.org", "blue text")
    play_random(store, game_id, random.Random(3), max_orders=1000)
    yield store
    store.close()


@pytest.fixture
def finished(server):
    """The finished game's events, its seed revealed at the end by the service."""
    events = list(server.events("g-forgery"))
    assert events[-1].type == "core.SeedRevealed" and audit.verify(CATALOG, events, check_dice=True).ok
    return events


def core_event(like: StoredEvent, body, **fields) -> StoredEvent:
    name, version, payload = encode(body)
    return dataclasses.replace(like, type=name, version=version, payload=payload, causation=None, **fields)


def refused(tmp_path, events, check: str, seq: int | None = None) -> None:
    """`verify --dice` reports the forgery (at `seq`, by `check`) and `import` into a fresh server refuses it."""
    report = audit.verify(CATALOG, events, check_dice=True)
    assert not report.ok and report.problems[0].check == check, report.problems
    if seq is not None:
        assert report.first_bad_seq == seq
    other = EventStore(str(tmp_path / "other.sqlite3"))
    try:
        with pytest.raises(games.GameError, match="does not verify"):
            transfer.import_game(other, CATALOG, [json.dumps(e.to_dict()) for e in events])
        assert other.games() == []
    finally:
        other.close()


def first_roll(events) -> int:
    return next(i for i, e in enumerate(events) if e.type == "core.DieRolled")


def order_boundary_after_rolls(events) -> int:
    """The index of an order that comes after at least one roll."""
    return next(i for i, e in enumerate(events) if e.type == "core.OrderGiven" and i > first_roll(events))


def test_a_fork_marker_spliced_mid_stream_with_a_new_seed_is_reported(finished, tmp_path):
    """The forger re-seeds the game from the middle on: a marker naming the game itself as its parent."""
    at = order_boundary_after_rolls(finished)
    marker = core_event(finished[at], GameForked(parent_id="g-forgery", parent_seq=at,
                                                 parent_hash=finished[at - 1].hash,
                                                 seed_commitment=dice.commitment("chosen seed")), actor="server")
    forged = reseal([*finished[:at], marker, *finished[at:-1],
                     core_event(finished[-1], SeedRevealed(seed="chosen seed", reason="game over"))])
    refused(tmp_path, forged, "core", at + 1)


def test_a_fork_marker_not_right_after_the_copied_events_is_reported(finished, tmp_path):
    at = order_boundary_after_rolls(finished)
    marker = core_event(finished[at], GameForked(parent_id="g-elsewhere", parent_seq=2, parent_hash="0" * 64,
                                                 seed_commitment=dice.commitment("chosen seed")), actor="server")
    refused(tmp_path, reseal([*finished[:at], marker, *finished[at:]]), "core", at + 1)


def test_a_fork_whose_parent_is_present_must_match_it(server, finished):
    at = order_boundary_after_rolls(finished)
    events = list(server.events(games.fork(server, "g-forgery", at)))
    parents = transfer.parents_in(server)
    assert audit.verify(CATALOG, events, check_dice=True, parents=parents).ok
    join = next(e for e in events if e.type == "core.PlayerJoined")
    edited = [dataclasses.replace(e, payload={**e.payload, "seed_text": "other"}) if e == join else e for e in events]
    report = audit.verify(CATALOG, reseal(edited), parents=parents)
    assert report.first_bad_seq == join.seq and report.problems[0].check == "core"
    marker = dataclasses.replace(events[at], payload={**events[at].payload, "parent_hash": "1" * 64})
    report = audit.verify(CATALOG, reseal([*events[:at], marker, *events[at + 1:]]), parents=parents)
    assert report.first_bad_seq == at + 1 and "hash" in str(report.problems[0])


@pytest.mark.parametrize("side", ["red", "blue"])
def test_a_second_join_mid_game_is_reported(finished, tmp_path, side):
    """A join mid-game would change every roll after it (the seed texts are part of each roll)."""
    at = order_boundary_after_rolls(finished)
    join = core_event(finished[at], PlayerJoined(side=side, name="x@example.org", seed_text="steer"),
                      actor=f"player:{side}")
    refused(tmp_path, reseal([*finished[:at], join, *finished[at:]]), "core", at + 1)


def test_a_first_join_after_the_first_roll_is_reported(finished, tmp_path):
    blue = next(i for i, e in enumerate(finished) if e.type == "core.PlayerJoined" and e.payload["side"] == "blue")
    at = order_boundary_after_rolls(finished)
    moved = [*finished[:blue], *finished[blue + 1:at], finished[blue], *finished[at:]]
    refused(tmp_path, reseal(moved), "core", at)


def test_the_service_refuses_a_join_after_the_first_roll(store):
    game_id = games.create_game(store, CATALOG, "skirmish")
    games.join(store, CATALOG, game_id, "red", "red@example.org", "r")
    seq, _ = store.head(game_id)
    store.append(game_id, seq, [games.new_event(DieRolled(index=0, sides=6, value=3, purpose="test"), "server")])
    with pytest.raises(games.GameError, match="before the first die"):
        games.join(store, CATALOG, game_id, "blue", "blue@example.org", "b")


def test_one_roll_changed_with_the_hashes_sealed_again_is_reported(finished, tmp_path):
    """The forger changes the last roll and writes what the rules make of it, so the replay agrees: only the dice
    recomputed from the revealed seed can tell (import checks them now)."""
    rules = CATALOG.rules("skirmish")
    order = max(i for i, e in enumerate(finished) if e.type == "core.OrderGiven" and any(
        x.causation == e.seq and x.type == "core.DieRolled" for x in finished))
    state = projection.rebuild(rules, finished[:order])
    given = finished[order]
    rolls = [x.payload["value"] for x in finished if x.causation == given.seq and x.type == "core.DieRolled"]
    rolls[0] = rolls[0] % 6 + 1
    produced = games.decide_checked(rules, state, Command.from_dict(given.payload["command"]),
                                    RecordedDice(next_index=state.meta.rolls, recorded=rolls))
    batch = [core_event(given, body, actor=given.actor) for body in produced]
    forged = reseal([*finished[:order + 1], *(dataclasses.replace(e, causation=given.seq) for e in batch),
                     finished[-1]])
    assert audit.verify(CATALOG, forged).ok                      # the chain and the replay agree with the forgery
    refused(tmp_path, forged, "dice", order + 2)


def test_a_finished_game_whose_seed_reveal_is_removed_is_reported(finished, tmp_path):
    forged = reseal(finished[:-1])
    assert audit.verify(CATALOG, forged).ok                       # the stream itself is consistent...
    refused(tmp_path, forged, "dice", len(forged))       # ...but a finished game must have shown its dice


def test_verify_file_dice_on_the_command_line_fails_on_a_forgery(finished, tmp_path, run):
    path = tmp_path / "forged.jsonl"
    path.write_text("".join(json.dumps(e.to_dict()) + "\n" for e in reseal(finished[:-1])), encoding="utf-8")
    result = run("verify", str(path), "--dice", ok=False)
    assert result.exit_code == 1 and "never revealed" in result.output


# -- retractions (issue 25): a forger who takes back an order after its die was seen and gives it again ---------------
ATTACK = SKIRMISH_OPENING[-1]  # ("red", "attack 0502 with R1"): the opening's last order, which rolls a die


def forge(tmp_path, takeback) -> tuple[list[StoredEvent], int]:
    """A game on the forger's own server (the same seed, so every roll recomputes): the skirmish opening up to its
    attack and die; then `takeback(attack_seq, head)`'s events, (body, actor) each, written past the service's
    checks; then the same attack again, which rolls the next die; then the seed revealed, as at a game's end. Returns
    the stream and the seq of its retraction."""
    store = EventStore(str(tmp_path / "forger.sqlite3"))
    with mock.patch.object(dice, "new_seed", return_value="fixed seed"):
        game_id = games.create_game(store, CATALOG, "skirmish", game_id="g-rerolled")
    games.join(store, CATALOG, game_id, "red", "red@example.org", "red text")
    games.join(store, CATALOG, game_id, "blue", "blue@example.org", "blue text")
    for side, order in SKIRMISH_OPENING:
        attack = games.submit(store, CATALOG, game_id, side, order).events[0].seq
    head = store.head(game_id)[0]
    stored = store.append(game_id, head, [NewEvent(*encode(body), actor) for body, actor in takeback(attack, head)])
    again = games.submit(store, CATALOG, game_id, *ATTACK)
    assert [e.payload["index"] for e in again.events if e.type == "core.DieRolled"] == [1]  # the next die
    games.reveal_seed(store, CATALOG, game_id, "arbiter request")
    events = list(store.events(game_id))
    store.close()
    return events, next(e.seq for e in stored if e.type == "core.Retracted")


def undo_by(side: str):
    by = f"player:{side} (undo)"
    return lambda attack, head: [(Retracted(from_seq=attack, to_seq=head, reason=f"undo of {ATTACK[1]!r}", by=by),
                                  by)]


def test_an_undo_of_a_rolled_order_given_again_with_the_next_die_is_reported(tmp_path):
    """Issue 25's forgery: red's attack rolled a die; an undo takes the attack back (the live server refuses: never a
    die roll by undo) and red attacks again with the next die. The chain, the replay and every roll check out (main
    verified and imported it); the retraction's authority does not."""
    events, retraction = forge(tmp_path, undo_by("red"))
    report = audit.verify(CATALOG, events, check_dice=True)
    assert [p.check for p in report.problems] == ["retraction"] and report.rolls_checked == 0, report.problems
    assert "is a die roll" in report.problems[0].message
    refused(tmp_path, events, "retraction", retraction)


def consent(raiser: str, answerer: str, by: str | None = None, dispute: int = 1, status: str = "accepted"):
    """A dispute raised by `raiser` on the attack, answered `status` by `answerer`, and the retraction after it, `by`
    (default: as the server writes it)."""
    authority = "consent" if status == "accepted" else "ruling"
    by = by or f"{answerer} ({authority}, dispute {dispute} raised by {raiser})"
    return lambda attack, head: [
        (DisputeRaised(dispute=dispute, order_seq=attack, side=raiser, reason="misread the odds"), f"player:{raiser}"),
        (DisputeAnswered(dispute=dispute, by=answerer, status=status),
         "arbiter" if answerer == "arbiter" else f"player:{answerer}"),
        (Retracted(from_seq=attack, to_seq=head + 1, reason="dispute 1: misread the odds", by=by), by)]


def test_a_takeback_by_consent_or_ruling_verifies(tmp_path):
    """What the live server writes: red disputes their own attack and blue accepts (or the arbiter upholds it), so
    the attack and its die are taken back and red attacks again with the next die: the stream verifies."""
    for answerer, status in (("blue", "accepted"), ("arbiter", "upheld")):
        events, _ = forge(tmp_path / answerer, consent("red", answerer, status=status))
        report = audit.verify(CATALOG, events, check_dice=True)
        assert report.ok and report.rolls_checked == 2, report.problems


@pytest.mark.parametrize(("takeback", "said"), [
    (undo_by("blue"), "takes back their own latest order"),  # blue undoes red's attack
    (lambda attack, head: [(Retracted(from_seq=attack, to_seq=head, reason="agreed", by="arbiter"), "arbiter")],
     "who may not"),  # an arbiter's retraction without a dispute
    (lambda attack, head: [(Retracted(from_seq=attack, to_seq=head, reason="agreed", by=b), b)
                           for b in ["blue (consent, dispute 1 raised by red)"]], "right after the answer"),
    (consent("red", "red"), "may not answer dispute 1"),  # the raiser accepts their own dispute
    (consent("red", "blue", by="arbiter (ruling, dispute 1 raised by red)"), "was accepted by blue"),
    (consent("red", "blue", dispute=2), "numbered out of turn"),
    (consent("red", "blue", status="upheld"), "may not answer dispute 1 'upheld'"),  # only the arbiter upholds
], ids=["undo-of-the-other-side", "bare-arbiter", "consent-without-dispute", "self-accepted", "wrong-authority",
        "dispute-out-of-turn", "player-upholds"])
def test_a_retraction_the_live_server_would_not_write_is_reported(tmp_path, takeback, said):
    events, _ = forge(tmp_path, takeback)
    report = audit.verify(CATALOG, events, check_dice=True)
    assert [p.check for p in report.problems] == ["retraction"] and said in report.problems[0].message, \
        report.problems
    refused(tmp_path, events, "retraction")
