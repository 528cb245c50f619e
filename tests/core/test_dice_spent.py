"""The service's dice contract (docs/architecture.md practice 11, docs/core.md): a rule set that fails on an order
after rolling cannot show the player the die. The dice it drew are spent (core.RollsSpent), the answer is a fixed text,
the operator's log says what happened, and `verify` re-runs the failed order to check the spent dice were the rules'."""
import dataclasses
import logging

import pytest

from app.projections import history
from app.projections import state as projection
from app.rules.catalog import installed
from app.rules.errors import IllegalOrder
from app.rules.skirmish import GAME as SKIRMISH
from app.service import audit, games
from app.service.demo import SKIRMISH_OPENING
from tests.forgery import reseal


class Peeking:
    """Skirmish with the bug issue 12 found in Ichi-Go: an attack is refused after its die, quoting it."""

    name = "peeking"

    def __getattr__(self, name):
        return getattr(SKIRMISH, name)

    def decide(self, state, command, dice):
        events = SKIRMISH.decide(state, command, dice)
        if command.action == "attack":
            raise IllegalOrder("SK 5.1", f"too weak: the die shows {dice.taken[-1].value}")
        return events


CATALOG = installed(Peeking())  # the rule sets installed here, and the one with the bug


@pytest.fixture
def peeking(store):
    game_id = games.create_game(store, CATALOG, "peeking")
    games.join(store, CATALOG, game_id, "red", "red@example.org", "r")
    games.join(store, CATALOG, game_id, "blue", "blue@example.org", "b")
    for side, order in SKIRMISH_OPENING[:-1]:
        games.submit(store, CATALOG, game_id, side, order)
    return game_id


def attack(store, game_id):
    with pytest.raises(games.EngineFault) as fault:
        games.submit(store, CATALOG, game_id, "red", SKIRMISH_OPENING[-1][1])
    return str(fault.value)


def test_a_refusal_after_a_roll_spends_the_die_and_answers_without_it(store, peeking, caplog):
    before = projection.load(store, CATALOG, peeking).meta
    with caplog.at_level(logging.ERROR, logger="hexledger.dice"):
        answer = attack(store, peeking)
    assert answer == str(games.EngineFault(peeking)) and "die shows" not in answer   # a fixed text
    spent = list(store.events(peeking, before.seq + 1))
    assert [e.type for e in spent] == ["core.RollsSpent", "core.DieRolled"]
    assert spent[1].payload["index"] == before.rolls and spent[1].causation == spent[0].seq
    assert f"the die shows {spent[1].payload['value']}" in caplog.text                  # the operator learns why
    after = projection.load(store, CATALOG, peeking)
    assert after.meta.rolls == before.rolls + 1
    assert after.game == projection.load(store, CATALOG, peeking, before.seq).game
    attack(store, peeking)                                 # the same order again draws the next die, never the same
    assert list(store.events(peeking))[-1].payload["index"] == before.rolls + 1
    assert "could not be carried out" in history.describe(CATALOG.rules("peeking"), spent[0])


def test_spent_dice_verify_and_recompute_from_the_revealed_seed(store, peeking):
    attack(store, peeking)
    games.reveal_seed(store, CATALOG, peeking, "test")
    report = audit.verify(CATALOG, list(store.events(peeking)), check_dice=True)
    assert report.ok, report.problems
    assert report.rolls_unchecked == 0 and report.rolls_checked >= 1


def test_the_server_cannot_spend_a_die_the_rules_did_not_draw(store, peeking):
    """A forged record that skips a die the server disliked (a second DieRolled under the fault) is reported."""
    attack(store, peeking)
    events = list(store.events(peeking))
    extra = dataclasses.replace(events[-1], payload={**events[-1].payload, "index": events[-1].payload["index"] + 1})
    report = audit.verify(CATALOG, reseal([*events, extra]))
    assert report.first_bad_seq == events[-2].seq and "other rolls" in str(report.problems[0])


def test_a_spent_record_the_rules_now_carry_out_is_reported(store, peeking):
    attack(store, peeking)
    fixed = installed(dataclasses.replace(SKIRMISH, name="peeking"))  # the fix: the attack is carried out
    report = audit.verify(fixed, list(store.events(peeking)))
    assert not report.ok and "carried out on replay" in str(report.problems[0])


def test_audit_replays_a_refusal_after_a_roll_as_a_problem_not_a_crash(store, skirmish):
    for side, order in SKIRMISH_OPENING:
        games.submit(store, CATALOG, skirmish, side, order)
    buggy = installed(_renamed("skirmish"))  # a rules change brings the bug
    report = audit.verify(buggy, list(store.events(skirmish)))
    assert not report.ok and "after a roll" in str(report.problems[0])


def _renamed(name):
    rules = Peeking()
    rules.name = name
    return rules
