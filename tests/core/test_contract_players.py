"""The contract of Players (app/events/interface.py), on both backends: the seats an address holds, each seat's
notification channel, and single-use sign-in links."""
from __future__ import annotations

import pytest

from app.events.players import PlayerTables
from app.events.seats import SeatTables
from tests.core.store_contract import T0, T1, T2, game, opened


@pytest.fixture
def backend(db_location):
    part = opened(PlayerTables, db_location)
    yield part
    part.close()


def seated(part, game_id: str, seats: dict[str, str]) -> None:
    game(part, game_id)
    SeatTables(part.db).add_pbem_game(game_id, {"created_at": T0}, [
        {"seat": seat, "email": email, "token_hash": f"{game_id}-{seat}", "created_at": T0}
        for seat, email in seats.items()])


def test_the_seats_of_an_address_in_any_case_across_games(backend):
    seated(backend, "g-1", {"red": "Ann@X.example", "blue": "bob@x.example"})
    seated(backend, "g-2", {"red": "bob@x.example", "blue": "ann@x.example", "arbiter": "ann@x.example"})
    seats = backend.seats_of("ann@x.example")
    assert sorted((s["game_id"], s["seat"]) for s in seats) == [("g-1", "red"), ("g-2", "arbiter"), ("g-2", "blue")]
    assert {s["rules"] for s in seats} == {"skirmish"} and all(s["scenario"] == "meeting" for s in seats)
    assert backend.seats_of("ANN@x.EXAMPLE") == seats
    assert backend.seats_of("nobody@x.example") == [] and backend.seats_of("ann@x") == []
    assert backend.seats_of("%@x.example") == []  # no pattern: the address as given


def test_a_channel_is_set_changed_and_taken_away_per_seat(backend):
    seated(backend, "g-1", {"red": "r@x", "blue": "b@x"})
    assert backend.channels("g-1") == {}
    backend.set_channel("g-1", "red", "discord://1/a", T0)
    backend.set_channel("g-1", "red", "ntfy://topic", T1)
    backend.set_channel("g-1", "blue", "tgram://1:a/2", T1)
    assert backend.channels("g-1") == {"red": "ntfy://topic", "blue": "tgram://1:a/2"}
    backend.set_channel("g-1", "red", None, T2)
    backend.set_channel("g-1", "red", None, T2)  # none twice: still none
    assert backend.channels("g-1") == {"blue": "tgram://1:a/2"}


def test_a_channel_set_in_a_transaction_goes_with_it(backend):
    seated(backend, "g-1", {"red": "r@x"})
    with pytest.raises(RuntimeError), backend.transaction():
        backend.set_channel("g-1", "red", "ntfy://topic", T0)
        raise RuntimeError("rolled back")
    assert backend.channels("g-1") == {}


def test_a_sign_in_link_opens_once_and_only_before_it_expires(backend):
    backend.keep_sign_in("h1", "ann@x.example", T1, T0)
    backend.keep_sign_in("h2", "bob@x.example", T1, T0)
    assert backend.take_sign_in("h1", T0) == "ann@x.example"
    assert backend.take_sign_in("h1", T0) is None  # single use
    assert backend.take_sign_in("nope", T0) is None
    assert backend.take_sign_in("h2", T1) is None  # expired at T1
    assert backend.take_sign_in("h2", T0) is None  # and gone with its one try


def test_expired_links_go_when_a_new_one_is_kept(backend):
    backend.keep_sign_in("old", "ann@x.example", T1, T0)
    backend.keep_sign_in("new", "ann@x.example", T2, T1)  # at T1 the old one has expired: deleted
    count = backend.db.one("SELECT count(*) FROM sign_in_links")[0]
    assert count == 1 and backend.take_sign_in("new", T1) == "ann@x.example"
