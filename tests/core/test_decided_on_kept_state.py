"""An order is decided on the newest state this process keeps of its game, without reading the stream's head first
(app/service/games.py `play`): the append takes it only onto the head it was decided on, (seq, hash), and an
answer that writes nothing is given only once the head is read to be that one. Whoever moved the game on
meanwhile, the order is decided again on the new head and answered as if it had come after them: on both backends,
two writers (two connections, as two threads or two processes of a server) racing on one game."""
from __future__ import annotations

import pytest

from app.events import core
from app.events.registry import encode
from app.events.store import Conflict, EventStore, NewEvent
from app.projections import state as projection
from app.rules.catalog import installed
from app.rules.errors import IllegalOrder
from app.service import audit, games
from app.service.demo import SKIRMISH_OPENING

CATALOG = installed()


@pytest.fixture
def writers(db_location):
    """Two connections to one database, each a writer of its own, and a skirmish game both can play."""
    mine, other = EventStore(db_location), EventStore(db_location)
    game_id = games.create_game(mine, CATALOG, "skirmish")
    for side in ("red", "blue"):
        games.join(mine, CATALOG, game_id, side, f"{side}@example.org", f"{side} text")
    yield mine, other, game_id
    mine.close()
    other.close()


def fresh(store, game_id):
    return projection.load(store, CATALOG, game_id, use_snapshots=False)


def meanwhile(monkeypatch, name: str, write) -> list:
    """The first call of games.`name` (the first decision's parse or decide) has `write` run before it, as another
    writer's order committed while this one was being decided; the list records the seq it was decided on."""
    real, decided_on = getattr(games, name), []

    def racing(rules, state, *args):
        if not decided_on:
            decided_on.append(state.meta.seq)
            write()
        return real(rules, state, *args)

    monkeypatch.setattr(games, name, racing)
    return decided_on


def test_an_order_passed_by_a_racing_writer_is_decided_again_and_its_die_is_never_stored(writers, monkeypatch):
    """Red's attack is decided on the kept state (its die drawn) while red's other device ends the combat step:
    the attack's append is refused, it is decided again on the new head, where it is not red's turn: the refusal a
    late attack gets, naming its case, and no die of it stored (the dice still verify)."""
    mine, other, game_id = writers
    for side, order in SKIRMISH_OPENING[:11]:
        games.submit(mine, CATALOG, game_id, side, order)
    side, attack = SKIRMISH_OPENING[11]
    kept = projection.load(mine, CATALOG, game_id)
    decided_on = meanwhile(monkeypatch, "decide_checked",
                           lambda: games.submit(other, CATALOG, game_id, "red", "end"))
    with pytest.raises(IllegalOrder) as refused:
        games.submit(mine, CATALOG, game_id, side, attack)
    assert decided_on == [kept.meta.seq]  # decided first on the kept state, as it stood before the other's end
    head = fresh(mine, game_id)
    assert head.meta.seq > kept.meta.seq and head.meta.rolls == kept.meta.rolls  # the other's end; no die
    since = list(mine.events(game_id, kept.meta.seq + 1))  # the other's end alone
    assert since[0].type == "core.OrderGiven" and since[0].payload["text"] == "end"
    assert all(e.type != "core.DieRolled" and "attack" not in str(e.payload) for e in since)
    with pytest.raises(IllegalOrder) as late:  # the same attack given now, after the other's end: the same refusal
        games.submit(mine, CATALOG, game_id, side, attack)
    assert str(refused.value) == str(late.value) and refused.value.case
    seed = mine.dice_seed(game_id)
    report = audit.verify(CATALOG, list(mine.events(game_id)), check_dice=True,
                          seeds={head.meta.seed_commitment: seed})
    assert report.ok and report.rolls_checked == head.meta.rolls
    assert projection.load(mine, CATALOG, game_id) == head


def test_a_refusal_on_the_kept_state_is_not_told_when_the_game_moved_on(writers, monkeypatch):
    """Blue's end reaches this writer while its kept state has red to move: refused there, but the other writer
    has ended red's steps meanwhile; the head read before answering is not the kept one, so blue's end is decided
    on it and accepted, after red's orders."""
    mine, other, game_id = writers
    games.submit(mine, CATALOG, game_id, "red", "move R1 0202")
    kept = projection.load(mine, CATALOG, game_id)

    def red_ends():
        games.submit(other, CATALOG, game_id, "red", "end")
        games.submit(other, CATALOG, game_id, "red", "end")

    decided_on = meanwhile(monkeypatch, "parse_order", red_ends)
    accepted = games.submit(mine, CATALOG, game_id, "blue", "end")
    assert decided_on == [kept.meta.seq]
    assert accepted.events[0].seq > kept.meta.seq + 2 and accepted.events[0].payload["side"] == "blue"
    assert accepted.state == fresh(mine, game_id) == projection.load(other, CATALOG, game_id)


def test_an_expected_seq_newer_than_the_kept_state_is_no_conflict(writers, monkeypatch):
    """Blue read the game at the head the other writer made (its `expected_seq`) and gives its order to this one,
    whose kept state is older (the other writer's orders came from another process): no stale writer's Conflict
    (the head is read before one is told), the order is decided on the head and accepted. An expected_seq the game
    has since passed is still a Conflict."""
    mine, other, game_id = writers
    games.submit(mine, CATALOG, game_id, "red", "move R1 0202")
    kept = projection.newest(mine, game_id)
    games.submit(other, CATALOG, game_id, "red", "end")
    head = games.submit(other, CATALOG, game_id, "red", "end").state.meta.seq
    monkeypatch.setattr(projection, "newest", lambda store, game: kept)  # this process kept only its own state
    with pytest.raises(Conflict):  # written for the position before red's ends
        games.submit(mine, CATALOG, game_id, "blue", "end", expected_seq=kept[0].meta.seq)
    accepted = games.submit(mine, CATALOG, game_id, "blue", "end", expected_seq=head)
    assert accepted.events[0].seq == head + 1 and accepted.state == fresh(mine, game_id)


def test_a_kept_state_of_a_rolled_back_write_is_never_decided_on(writers):
    """A state kept from a transaction that rolled back is at the seq the stream then reached by other events:
    the append names its hash, not only its seq, so the order is decided again on the stored events."""
    mine, other, game_id = writers
    start = projection.load(mine, CATALOG, game_id)
    with pytest.raises(RuntimeError), mine.transaction():
        games.submit(mine, CATALOG, game_id, "red", "move R1 0202")  # kept: R1 moved, never committed
        raise RuntimeError("roll back")
    moved = start.meta.seq + 2
    assert projection.newest(mine, game_id)[0].meta.seq == moved
    talk = [NewEvent(*encode(core.MessageSent(by="blue", to="all", lines=[f"hello {n}"])), "player:blue")
            for n in (1, 2)]
    other.append(game_id, start.meta.seq, talk)  # another writer's events up to the same seq
    accepted = games.submit(mine, CATALOG, game_id, "red", "end")
    assert accepted.events[0].seq == moved + 1
    assert accepted.state == fresh(mine, game_id)
    assert accepted.state.game.units["R1"].hex == start.game.units["R1"].hex  # the rolled-back move is not in it
