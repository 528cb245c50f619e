"""Ichi-Go 6.6 and 3.3 fog of war through every channel (issue 12, issue 19 D2): over a fuzzed game played
through the service, neither side reads a unit name its view did not show, in its history, export, replay texts
and combat panels, map pictures, analysis or turn emails; and each side's loss chart matches what its history
tells it."""
import random

import pytest
from ichigo_randomplay import candidates

from app.events.registry import decode
from app.projections import analysis, history, replay
from app.rules.catalog import installed
from app.rules.ichigo import GAME as RULES
from app.rules.ichigo import events as ev
from tests import fuzzing
from tests.fogcheck import check_every_channel, namer, played_through_service

CATALOG = installed()  # the rule sets installed here

pytestmark = pytest.mark.slow  # a fuzzed game through the service, every channel checked

START = RULES.initial_state("campaign", {})
ALL_IDS = sorted(set(START.units) | set(START.draw_pool) | {f"C{n:02d}" for n in range(1, 100)})
named = namer(ALL_IDS)
KIND_FIRST = fuzzing.kind_first_candidates(RULES)  # a kind of order first: more turns in fewer orders
EMAILS = {"japanese": "j@x.example", "allied": "a@x.example"}


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory):
    """One Ichi-Go game of random legal orders through the service (turn emails included), stopped mid-game: a
    kind of order drawn first (tests/fuzzing.py `kind_first_candidates`, the fuzzer's far moves mixed in), so its
    40 orders reach moves, draws, battles and losses of both sides (80 drawn from every order alike did)."""
    pbem, game_id, outbox, (state, _) = played_through_service(
        str(tmp_path_factory.mktemp("fog") / "fog.sqlite3"), "ichigo", EMAILS, "g-ichigo-fog",
        lambda submit: fuzzing.play(RULES, lambda s, rng: candidates(s, rng, KIND_FIRST), random.Random(3), 40,
                                    "fog", submit))
    assert RULES.outcome(state) is None
    return pbem, game_id, outbox


def test_6_6_no_channel_names_a_unit_the_reading_side_could_not_see(fuzzed):
    pbem, game_id, outbox = fuzzed
    checked = check_every_channel(pbem, game_id, named, outbox)
    for side in RULES.sides:  # the moves, draws, battles and losses of both sides were among the lines checked
        for kind in ("UnitsMoved", "MovementRolled", "UnitDrawn", "BattleResolved", "OrderGiven"):
            assert (side, kind) in checked, (side, kind)
    assert outbox.sent


def test_6_6_a_moving_stack_is_unnamed_to_the_other_side_and_named_to_its_own():
    advance = ev.UnitsAdvanced(["jp-cea-116div", "jp-cea-68div"], "1813")
    assert RULES.visible(advance, "allied") == "2 Japanese units advance into 1813"
    assert RULES.visible(advance, "japanese") is True and RULES.visible(advance, None) is True
    moved = ev.UnitsMoved(["C03", "cn-mil-gm"], ["1418", "1419"], 1)
    assert RULES.visible(moved, "japanese") == "2 Chinese units move 1418 - 1419 (1 MP)"
    flip = ev.Revealed("C03", "cn-reg-07", "88th Army", 2)
    assert "cn-reg-07" not in RULES.visible(flip, "allied") and "C03" not in RULES.visible(flip, "japanese")


def test_6_6_each_sides_loss_chart_shows_every_loss_its_history_tells_it(fuzzed):
    pbem, game_id, _ = fuzzed
    store = pbem.store
    events = list(store.events(game_id))
    losses = [e.seq for e in events if RULES.losses(decode(e.type, e.version, e.payload), None)]
    referee = analysis.analyse(replay.build(store, CATALOG, game_id, replay.ALL))["step_losses"]
    assert losses and any(any(per.values()) for per in referee.values())
    for side in RULES.sides:
        assert set(losses) <= {r["seq"] for r in history.lines(RULES, events, side=side)}, side
        # every loss is told to both sides (6.6 hides who, not how many): the charts agree with the referee's
        assert analysis.analyse(replay.build(store, CATALOG, game_id, side))["step_losses"] == referee, side
