"""Ichi-Go random legal play (docs/architecture.md practice 10): no crash, no dead end, an outcome, a clean audit."""
import json
import random

import pytest
from ichigo_randomplay import play

from app.rules import catalog
from app.rules.catalog import installed
from app.rules.ichigo import GAME as RULES
from app.service import audit

CATALOG = installed()  # the rule sets installed here

pytestmark = pytest.mark.slow  # random games played to their end


def test_random_legal_play_reaches_an_outcome_without_a_dead_end():
    causeway = set()
    for seed in (3, 4):  # under rules version 13 (the stack under way offered with the units it meets, ruling E50)
        #                  these two play both branches, in less time than seeds 0-2 did under version 12
        state, accepted = play(random.Random(seed))
        assert RULES.outcome(state) is not None and accepted > 50
        causeway.add(bool(state.causeway))
    assert causeway == {True, False}                  # 5.2: both branches, with the Causeway landings and deployments


def test_state_encodes_to_json_and_back_unchanged_after_random_play():
    state, _ = play(random.Random(5), max_orders=120)
    raw = json.loads(json.dumps(RULES.encode_state(state)))
    assert RULES.decode_state(raw) == state


def test_ichigo_is_in_the_catalog():
    assert catalog.installed().rules("ichigo") is RULES


def test_random_play_through_the_service_to_the_end_verifies_clean(real_games):
    """The session's game of random orders through the service (tests/conftest.py `real_games`: seed 11, played
    once, to its end, with fixed dice; the replay's tests read it too) verifies clean."""
    _, events = real_games["ichigo"]
    report = audit.verify(CATALOG, events)
    assert report.ok and report.events == len(events), report.problems
    assert any(e.type.endswith(".GameEnded") for e in events)  # to its end


def test_preview_of_an_attack_writes_nothing_and_shows_every_shift():
    from ichigo_given import chinese, position

    from app.rules.base import Command
    s = position({"jp-cea-110div": "2010", "jp-cea-26div": "2012"},
                 extra=(chinese("C01", "cn-reg-02", "2011", tried=True), chinese("C02", "cn-reg-04", "2011")))
    p = RULES.preview(s, Command("japanese", "attack", {"hex": "2011", "units": ["jp-cea-110div", "jp-cea-26div"]}))
    assert p["results"]["6"] and "11.15" in p["text"]
    assert p["defence"] == 4 and p["hidden_defenders"] == 1 and p["untried"] == []   # 6.6: the top unit only


def test_preview_of_an_attack_by_untried_units_only_counts_them_as_unknown():
    """Every attacker untried (6.6): the preview has no known attacker to take the CRT line from, and raised; the
    line is the attacking nation's (Chinese here), the strength of the unknown counters is not counted."""
    from ichigo_given import chinese, position

    from app.rules.base import Command
    s = position({"jp-cea-110div": "2010"}, phase="VIII", plans={"japanese": "move-fight", "chinese": "fight-move"},
                 extra=(chinese("C01", "cn-reg-02", "2011"), chinese("C02", "cn-reg-04", "2011")))
    p = RULES.preview(s, Command("allied", "attack", {"hex": "2010", "units": ["C01", "C02"]}))
    assert p["attack"] == 0 and sorted(p["untried"]) == ["C01", "C02"] and "chinese line" in p["text"]
