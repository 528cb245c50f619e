"""Search edition 10 (app/rules/search.py `AIMED_SINCE`; practice.EDITION 10): the search reads Formosa's `aims`
(app/rules/formosa/searched.py: an engineer's steps toward a port or airfield without a base, 20.1, which the
legal list lacks, for it offers each unit its longest moves), at most `search.AIMS` of them a decision, each
engineer's first before any engineer's second. Seats of edition 9 and older search the list alone, as their games
were played (tests/rules/test_pinned_decisions.py)."""
from __future__ import annotations

from app.rules import practice, search
from app.rules.formosa import GAME as FORMOSA
from app.rules.kernel.hexgrid import Hex
from tests.engine.formosa_allied import allied


def _distance(state, a: str, b: str) -> int:
    return state.data.map.distance(Hex.parse(a), Hex.parse(b))


def test_from_edition_10_the_search_walks_an_engineer_toward_a_bare_port_where_edition_9_ended_the_phase():
    # an engineer at 0815, two hexes from the airfield 1014 and three from the minor port and airfield 0918 (no
    # base on either: 20.1), the LP for a base kept; the legal list offers it 0816 and a march past 0918, neither
    # toward an objective greedy's rating reads, so edition 9 weighed them as orders barely worth giving and ended
    # the Movement Phase, Game-Turn after Game-Turn
    state = allied("allied-movement", 4, {"us-eng-1": "0815", "us-7-17": "1020"})
    assert practice.choose(FORMOSA, "search", state, "allied", {"edition": 9, "playouts": 48})[0] == "end"
    name, settings = practice.parse_spec(FORMOSA, "search:48")  # a seat created now
    text, reason = practice.choose(FORMOSA, name, state, "allied", settings)
    assert text.startswith("move us-eng-1 ") and len(text.split()) == 3
    assert _distance(state, "0815", "1014") == 2 and _distance(state, text.split()[-1], "1014") == 1  # a hex nearer
    assert reason["playouts"] == 48


def test_the_search_weighs_at_most_three_aims_a_decision_each_engineers_first_before_a_second():
    # two engineers inland, each several hexes from bare sites: Formosa's aims name five steps of us-eng-1 and
    # four of us-eng-2 that the list lacks; edition 10 searches three (within its twelve orders), one of each
    # engineer first; edition 9 none
    state = allied("allied-movement", 12, {"us-eng-1": "1608", "us-eng-2": "1317", "us-7-17": "1020"})
    listed = FORMOSA.legal_orders(state, "allied")
    aims = search.Search(FORMOSA, state, "allied", 1, edition=10).aims(state, "allied", listed)
    assert len(FORMOSA.aims(state, "allied", edition=10)) >= 9
    assert len(aims) == search.AIMS == 3
    assert [a.split()[1] for a in aims] == ["us-eng-1", "us-eng-2", "us-eng-1"]
    assert search.Search(FORMOSA, state, "allied", 1, edition=9).aims(state, "allied", listed) == []
    arms = search.Search(FORMOSA, state, "allied", 1, edition=10).candidates(state, "allied", root=True)
    assert set(aims) <= set(arms) and len(arms) <= search.WIDTH
