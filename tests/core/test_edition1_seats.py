"""Games stored with automated SNC and Ichi-Go seats of edition 1 (before the policies recorded an edition, and
before the two games moved onto the engine's shape) still verify: `verify` re-decides every automated order with
edition 1's policies and candidates (app/rules/practice_v1.py, app/rules/practice_v1_candidates.py) and finds the
stored order and reason. The exports in tests/data/exports-c6a8c47 were written by main at c6a8c47."""
from pathlib import Path

import pytest

from app.rules.catalog import installed
from app.service import audit, transfer

CATALOG = installed()  # the rule sets installed here

EXPORTS = Path(__file__).parents[1] / "data" / "exports-c6a8c47"


@pytest.mark.parametrize("name, side, policy, automated", [("g-e1snc-greedy", "japanese", "greedy", 85),
                                                           ("g-e1ichigo-random", "japanese", "random", 88)])
def test_a_game_with_an_edition_1_seat_verifies_every_automated_order_and_its_dice(name, side, policy, automated):
    events = transfer.parse_lines((EXPORTS / f"{name}.jsonl").read_text().splitlines())
    [seat] = [e for e in events if e.type == "core.SeatAutomated"]
    assert seat.payload["side"] == side and seat.payload["policy"] == policy and not seat.payload.get("settings")
    given = [e for e in events if e.type == "core.OrderGiven" and e.actor == f"auto:{side}"]
    assert len(given) == automated and all(e.payload["auto"]["policy"] == policy for e in given)
    report = audit.verify(CATALOG, events, check_dice=True)
    assert report.ok, [str(p) for p in report.problems]
    assert report.rolls_unchecked == 0


@pytest.mark.parametrize("name", ["g-e1snc-greedy", "g-e1ichigo-random"])
def test_the_automated_orders_are_re_decided_edition_1_candidates_and_all(monkeypatch, name):
    from app.rules import practice_v1_candidates

    monkeypatch.setattr(practice_v1_candidates, "FROZEN", {})  # the rules' list of legal orders instead
    report = audit.verify(CATALOG, transfer.parse_lines((EXPORTS / f"{name}.jsonl").read_text().splitlines()))
    assert not report.ok and "(replay): the policy" in str(report.problems[0])
