"""What the practice opponents keep between the positions they weigh (CI time, docs/testing.md): each answer is kept
by everything it reads, so a position that differs in any of it gets its own answer, the one a process that kept
nothing finds. The same orders with and without them: tests/rules/test_pinned_decisions.py and
tests/core/test_old_exports.py pin whole games' decisions."""
from __future__ import annotations

import random
from dataclasses import replace

from app.rules import belief, evaluation, practice
from app.rules.formosa import GAME as FORMOSA
from app.rules.formosa import victory as formosa_victory
from app.rules.ichigo import GAME as ICHIGO
from app.rules.olympic import aims, victory
from app.rules.snc import GAME as SNC
from tests.engine.formosa_allied import allied
from tests.olympic.olympic_given import given

FORMOSA_START = FORMOSA.initial_state("1", {})
SOUTH = "2137"  # south of Olympic's Objective Line
AMERICANS = {"us-25-27": "1235", "us-25-35": "1235", "us-25-161": "1534"}  # 4-12 regiments


class Blind:
    """A rule set whose sides see no unit: another rule set's reading of the same position."""

    def view(self, state, side):
        return {"units": []}


def test_a_side_s_view_is_kept_for_the_rule_set_that_read_it():
    """The search's seed, its samples and greedy read the side's view once a position; a rule set of another
    version meeting the same position reads its own (a view kept by the position alone gave it SNC's)."""
    state = SNC.initial_state("campaign", {})
    seen = belief.seen_by(SNC, state, "chinese")
    assert seen == SNC.view(state, "chinese") and belief.seen_by(SNC, state, "chinese") is seen
    assert belief.seen_by(Blind(), state, "chinese") == {"units": []}
    assert belief.seen_by(SNC, state, "japanese") == SNC.view(state, "japanese")
    text = practice._canonical_text(SNC.view(state, "chinese"))
    fresh = replace(state)  # the same position, nothing kept with it yet
    assert practice.view_seed(SNC, state, "chinese", 3) == practice.view_seed(SNC, fresh, "chinese", 3)
    assert practice._canonical_text(belief.seen_by(SNC, fresh, "chinese")) == text


def test_samples_drawn_from_a_kept_deal_are_those_of_a_fresh_one():
    """Every sample of one position deals from the same hidden units and places (found once); each draws its own
    deal, as a position with nothing kept draws it."""
    state = ICHIGO.initial_state("campaign", {})
    worlds = [belief.sample(ICHIGO, state, "allied", random.Random(k), edition=9) for k in range(4)]
    fresh = [belief.sample(ICHIGO, replace(state), "allied", random.Random(k), edition=9) for k in range(4)]
    assert worlds == fresh and len({repr(w.units) for w in worlds}) > 1


def _aims_fresh(state) -> list[str]:
    aims._nearest.cache_clear()
    aims.way_to.cache_clear()
    return aims.aims(state, "american", edition=9)


def test_olympic_aims_follow_the_japanese_units_and_militia_whatever_was_kept():
    """R10, R11, R15: a unit's nearest reachable hex toward the last Japanese unit south is kept by the Japanese
    units, their zones of control and the intact militia; a Japanese unit north of the Objective Line across the
    way (the same goals) gives other moves, the ones found with nothing kept."""
    open_road = given(step="movement", turn=9, units={"jp-212-2": SOUTH, **AMERICANS},
                      american_control=tuple(AMERICANS.values()))
    first = aims.aims(open_road, "american", edition=9)
    assert first == _aims_fresh(open_road)
    for block in ("1236", "1437", "1633"):  # north of the Objective Line: the goals stay SOUTH and Kagoshima
        barred = given(step="movement", turn=9, units={"jp-212-2": SOUTH, "jp-212-3": block, **AMERICANS},
                       american_control=tuple(AMERICANS.values()))
        aims.aims(open_road, "american", edition=9)  # kept from the open road
        kept = aims.aims(barred, "american", edition=9)
        assert kept == _aims_fresh(barred) != first, block


def test_olympic_final_count_reads_each_position_s_own_japanese_strength():
    """R20's count read by the search (edition 9): the Japanese strength by hex is the position's own, however
    many positions were read before it."""
    one = given(step="movement", turn=9, units={"jp-212-2": SOUTH, **AMERICANS})
    two = given(step="movement", turn=9, units={"jp-212-2": SOUTH, "jp-212-3": SOUTH, **AMERICANS})
    counts = [victory.final_count(s, 9) for s in (one, two, one)]
    assert counts[0] == counts[2] > counts[1]
    assert victory._defence(two, SOUTH) > victory._defence(one, SOUTH) >= 1


def test_the_reach_of_a_position_is_read_against_its_own_goals():
    """The evaluation's reach (each unit's distance to the nearest victory hex its side does not hold) is kept by
    map and goals: the same units read against other goals read those goals' distances."""
    grid = SNC.game_map(SNC.initial_state("campaign", {}))
    hexes = ["3512", "2410", "3013", "2410"]
    for goals in (("3512",), ("2410", "3013"), ("3512",), ("0101",)):
        expected = sum(2 ** (-min(evaluation._distance(grid, h, g) for g in goals) / 3) for h in hexes)
        assert evaluation._reach(grid, hexes, goals) == expected, goals


def test_formosa_bases_in_view_follow_the_bases_built():
    """20.1: an engineer's best site is a port or airfield without a base; once a base stands on the one it stands
    on, it reads the next, as it does with nothing kept."""
    site = str(sorted(allied("movement", 6, {}).data.sudden_death_hexes())[0])
    open_site = allied("movement", 6, {"us-eng-2": site})
    built = open_site.with_units(replace(FORMOSA_START.units["us-eng-1"], where=site, base=True))
    readings = [formosa_victory.bases_in_view(s) for s in (open_site, built, open_site)]
    fresh = []
    for state in (open_site, built):
        formosa_victory._sites.cache_clear()
        formosa_victory._hope.cache_clear()
        fresh.append(formosa_victory.bases_in_view(state))
    assert readings[:2] == fresh and readings[2] == readings[0] > readings[1] > 0
