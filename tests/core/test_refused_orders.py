"""Property (docs/architecture.md practice 11, issue 12): a game sent any mix of orders, refused ones among them, ends
exactly as the same game sent only the accepted ones: same events, same rolls at the same indexes; and every refusal
reads the same whatever the dice would show, so a refused order tells nothing about the next roll."""
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.events import dice
from app.events.store import EventStore
from app.projections import state as projection
from app.rules.catalog import installed
from app.rules.errors import OrderError
from app.service import games
from tests.conftest import skirmish_candidates
from tests.fuzzing import refusal

CATALOG = installed()  # the rule sets installed here

ICHIGO_POSITION = {"position": {"turn": 2, "phase": "VIII", "plans": {"japanese": "move-fight",
                                                                      "chinese": "move-fight"},
                                "units": {"cn-reg-01": "2011", "cn-reg-02": "2012", "jp-cea-110div": "2008"}}}


def ichigo_candidates(state) -> list[str]:
    """Chinese moves near and far (most beyond any roll), and the end of the phase."""
    stacks = ["C01", "C02", "C01 C02"]
    return [f"move {s} to {c:02d}{r:02d}" for s in stacks for c in (19, 20, 21) for r in (8, 11, 13, 15, 19)]


GAMES = {"skirmish": (None, skirmish_candidates), "ichigo": (ICHIGO_POSITION, lambda s: ichigo_candidates(s.game))}


def new_game(path, rules: str, options) -> tuple[EventStore, str]:
    store = EventStore(str(path))
    with mock.patch.object(dice, "new_seed", return_value="one seed for both"):
        game_id = games.create_game(store, CATALOG, rules, options=options, game_id="g-property")
    state = projection.load(store, CATALOG, game_id)
    for side in state.meta.sides:
        games.join(store, CATALOG, game_id, side, f"{side}@example.org", f"{side} text")
    return store, game_id


def stream(store, game_id) -> list[tuple]:
    return [(e.type, e.payload, e.causation) for e in store.events(game_id)]


@pytest.mark.slow  # random games with refused orders
@pytest.mark.parametrize("name", sorted(GAMES))
@settings(max_examples=6, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_refused_orders_leave_the_next_roll_and_every_answer_as_if_never_sent(tmp_path_factory, name, data):
    options, candidates = GAMES[name]
    rules = CATALOG.rules(name)
    folder = tmp_path_factory.mktemp(name)
    (sent, gid), (control, _) = new_game(folder / "sent.sqlite3", name, options), \
        new_game(folder / "control.sqlite3", name, options)
    try:
        for _ in range(data.draw(st.integers(3, 12), label="orders")):
            state = projection.load(sent, CATALOG, gid)
            if rules.outcome(state.game) is not None:
                break
            side = rules.prompt(state.game).side
            text = data.draw(st.sampled_from([*candidates(state), "end"]), label="order")
            try:
                games.submit(sent, CATALOG, gid, side, text)
            except OrderError as exc:
                after = projection.load(sent, CATALOG, gid).meta
                assert (after.seq, after.rolls) == (state.meta.seq, state.meta.rolls)
                assert refusal(rules, state.game, side, text) in (str(exc), None)  # None: the service's own check
                continue
            games.submit(control, CATALOG, gid, side, text)
        assert stream(sent, gid) == stream(control, gid)
    finally:
        sent.close()
        control.close()
