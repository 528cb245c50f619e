"""An automated seat that cannot give an order says so (issue 29): a core.SeatStalled event in the stream (which
the history shows and the reactions tell the players and the arbiter), once a position, and the cause in the
operator's log; the game waits, the player's own order stands, and `verify` still passes."""
from __future__ import annotations

import logging

import pytest

from app.projections import history
from app.projections import state as projection
from app.rules import practice
from app.rules.catalog import installed
from app.service import audit, autoplay, games

CATALOG = installed()  # the rule sets installed here


@pytest.fixture
def blue_to_answer(store):
    """A skirmish against the server's blue seat, red's turn done: blue is to act."""
    game_id = games.create_game(store, CATALOG, "skirmish", auto=["blue"])
    games.join(store, CATALOG, game_id, "red", "r@example.org", "alone")
    rules = CATALOG.rules("skirmish")
    while rules.prompt(projection.load(store, CATALOG, game_id).game).side == "red":
        games.submit(store, CATALOG, game_id, "red", "end")
    return game_id


def _stalls(store, game_id):
    return [e for e in store.events(game_id) if e.type == "core.SeatStalled"]


@pytest.mark.parametrize("failure, problem", [
    (practice.NoOrder("no order of blue is legal (movement)"), "its policy finds no order the rules accept"),
    (TypeError("unsupported operand type(s) for +: 'int' and 'str'"), "its policy failed (an engine fault)"),
])
def test_a_seat_that_gives_no_order_is_recorded_shown_and_logged_once(store, blue_to_answer, monkeypatch, caplog,
                                                                      failure, problem):
    def fails(*args, **kwargs):
        raise failure

    monkeypatch.setattr(practice, "choose", fails)
    with caplog.at_level(logging.ERROR, logger="hexledger.autoplay"):
        assert autoplay.play(store, CATALOG, blue_to_answer) == []
        assert autoplay.play(store, CATALOG, blue_to_answer) == []  # tick's catch-up: told already
    [stall] = _stalls(store, blue_to_answer)
    assert stall.actor == "auto:blue"
    assert stall.payload == {"side": "blue", "policy": "greedy", "problem": problem}
    line = history.describe(CATALOG.rules("skirmish"), stall)
    assert line == f"blue (automated, greedy) cannot give an order: {problem}; the game waits for the arbiter"
    assert type(failure).__name__ in caplog.text and str(failure) in caplog.text  # the operator's detail
    assert str(failure) not in line
    state = projection.load(store, CATALOG, blue_to_answer)
    assert state.meta.seq == stall.seq and CATALOG.rules("skirmish").prompt(state.game).side == "blue"
    assert audit.verify(CATALOG, list(store.events(blue_to_answer))).ok


def test_the_seat_plays_on_once_its_policy_gives_an_order_again(store, blue_to_answer, monkeypatch):
    real = practice.choose
    monkeypatch.setattr(practice, "choose", lambda *a, **k: (_ for _ in ()).throw(practice.NoOrder("none")))
    autoplay.play(store, CATALOG, blue_to_answer)
    monkeypatch.setattr(practice, "choose", real)
    answered = autoplay.play(store, CATALOG, blue_to_answer)
    assert answered and all(a.events[0].actor == "auto:blue" for a in answered)
    events = list(store.events(blue_to_answer))
    assert len(_stalls(store, blue_to_answer)) == 1 and audit.verify(CATALOG, events).ok
