"""Games stored with automated SNC and Ichi-Go seats of edition 1 (before the policies recorded an edition, and
before the two games moved onto the engine's shape) still verify: `verify` re-decides every automated order with
edition 1's policies and candidates (app/rules/practice_v1.py, app/rules/practice_v1_candidates.py) and finds the
stored order and reason. The exports in tests/data/exports-c6a8c47 were written by main at c6a8c47."""
import hashlib
import json
import random
from dataclasses import replace
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


DATA = Path(__file__).parents[1] / "data"
STORED = {"snc": ["exports-c6a8c47/g-e1snc-greedy", "exports-1329c69/g-oldsnc01"],
          "ichigo": ["exports-c6a8c47/g-e1ichigo-random", "exports-1329c69/g-oldichi1"]}
# what edition 1's candidates drew at those positions, as app/rules/practice_v1_candidates.py draws them
DRAWN = {"snc": (579, "e0a1e00812e260452a38507eb4ab6130aff8efff519917daf6ba0876f65b3398"),
         "ichigo": (684, "d4412a9deef7ce1f35100a9461ab194e77a27954a8acdbb2bac4db01e0082d92")}


@pytest.mark.parametrize("game", ["snc", "ichigo"])
def test_edition_1s_candidates_draw_at_every_stored_position_what_they_drew_when_frozen(game):
    """A stored game's automated order of edition 1 verifies only while edition 1's candidates draw what they drew
    (the two games above reach few of their kinds of decision: the Japanese side's, one seed each). So every
    position of every stored game of SNC and Ichi-Go where a side is to act, either side, drawn with three seeds,
    is held to the digest of what the frozen candidates drew there; a change to them changes it."""
    from app.projections import state as projection
    from app.rules import practice_v1_candidates

    rules = CATALOG.rules(game)
    drawn = []
    for name in STORED[game]:
        position = None
        for event in transfer.parse_lines((DATA / f"{name}.jsonl").read_text().splitlines()):
            position = projection.fold(rules, position, event)
            if event.type == "core.OrderGiven" and rules.prompt(position.game).side is not None:
                for _ in range(3):
                    rng = random.Random(f"{len(drawn)}")
                    drawn.append(practice_v1_candidates.FROZEN[game](position.game, rng))
    digest = hashlib.sha256(json.dumps(drawn).encode()).hexdigest()
    assert (len(drawn), digest) == DRAWN[game]


def test_edition_1s_ichigo_candidates_at_decisions_no_stored_game_reaches():
    """A naval transfer (6.4), the Formosa Garrison's deployment after the US landing (5.3, ruling E3), a loss of
    two steps (11.20), the US landing in phase I (5.3 items 12-13: no airborne division) and two Formosa divisions
    released (9.3): what edition 1's frozen candidates draw there."""
    from app.rules.ichigo.state import initial_state
    from app.rules.practice_v1_candidates import FROZEN
    from tests.ichigo.ichigo_given import chinese, fold, position, then, when

    us = sorted(u.id for u in initial_state().units.values() if u.nation == "us" and u.id != "us-11ab")[:8]
    beachheads = {"formosa": "3221", "mainland": "1922"}
    s = replace(position({us[0]: "1922", us[1]: "1922", us[2]: "3221", us[3]: "3221"}, turn=9, causeway=True,
                         beachheads=beachheads), phase="I")
    assert FROZEN["ichigo"](s, random.Random(1)) == ["transfer us-25th", "end", "transfer us-1c"]
    s = replace(position({"jp-cea-110div": "0812"}, turn=7), phase="start")
    s = then(then(then(s, "allied", "roll", rolls=[6]), "allied", "roll", rolls=[5]), "allied", "end")
    s = fold(s, *when(s, "allied", "land " + " ".join(us)))
    assert FROZEN["ichigo"](s, random.Random(1)) == [
        "enter jp-fg-12div at 3119", "enter jp-fg-50div at 3217", "enter jp-fg-9div at 3216",
        "enter jp-fg-9div at 3219", "enter jp-fg-66div at 3321", "enter jp-fg-12div at 3317",
        "enter jp-fg-50div at 3220", "enter jp-fg-50div at 3119", "enter jp-fg-66div at 3220",
        "enter jp-fg-12div at 3120", "enter jp-fg-9div at 3318", "enter jp-fg-9div jp-fg-12div at 3321",
        "enter jp-fg-66div at 3320"]
    s = position({"jp-cea-110div": "2010", "jp-cea-26div": "2010"},
                 extra=(chinese("C01", "cn-reg-02", "2011", tried=True),))
    s = then(s, "japanese", "attack 2011 with jp-cea-110div jp-cea-26div", rolls=[6])  # 2:1, die 6: 2/4
    assert FROZEN["ichigo"](s, random.Random(1)) == ["lose jp-cea-110div jp-cea-26div"] * 2
    s = replace(position({"jp-cea-110div": "2010"}, turn=7, causeway=True), phase="I")
    assert [FROZEN["ichigo"](s, random.Random(seed)) for seed in range(3)] == [
        ["end", "land us-1c us-24th us-25th us-27th us-31st us-32nd us-33rd"], ["end", "land us-1c us-24th us-25th"],
        ["land us-1c", "end"]]
    s = position({}, phase="V", turn=9, causeway=False)
    drawn = FROZEN["ichigo"](s, random.Random(1))
    assert [c for c in drawn if not c.startswith("enter ")] == ["end", "release jp-fg-12div jp-fg-50div"]


def test_edition_1s_snc_candidates_at_a_retreat_no_stored_game_reaches():
    """The Chinese survivors of an 8.4.2 landing battle retreat: edition 1 offers each hex the decision lists."""
    from app.rules.practice_v1_candidates import FROZEN
    from tests.snc.snc_given import fold, position, when

    s = position({"cn-gar-wusong": "3510", "cn-d7": "3510", "cn-d57": "3612", "jp-snlf-1": "3512"}, turn=2,
                 phase="reinf", pool=("jp-d3-r6", "jp-d3-r18", "jp-d3-r34", "jp-d3-r68"))
    s = fold(s, *when(s, "japanese", "land d3-r6 d3-r18 d3-r34 d3-r68 at 3510", rolls=[3]))  # 1:1, die 3: 2/1
    assert FROZEN["snc"](s, random.Random(1)) == ["retreat to 3610", "retreat to 3511", "retreat to 3409",
                                                  "retreat to 3509", "retreat to 3410", "retreat to 3609"]
