"""How near each side stands to victory as the strong opponent reads it (app/rules/formosa/victory.py `stakes`,
4.2) and the units it would lose to 13.3: search edition 6 reads every VP and the LP kept for a base; edition 5 and
older seats read as their games were played."""
from __future__ import annotations

from dataclasses import replace

from formosa_given import given
from formosa_map import holding

from app.rules import evaluation
from app.rules.formosa import GAME, victory

D = GAME.data({})


def scoring(allied_vp: int, japanese_vp: int, lp: int = 0):
    """GT 5's Allied combat: US units holding `allied_vp` VP (bases built), `japanese_vp` regiments eliminated."""
    units = holding(allied_vp)
    lost = [u.id for u in D.units if u.side == "allied" and u.size == "regiment" and u.id not in units]
    units |= {uid: "allied-eliminated" for uid in lost[:japanese_vp]}
    state = given(step="allied-combat", turn=5, units=units, lp={"allied": lp, "japanese": 0})
    return state.with_units(*(replace(state.units[u], base=True) for u in units if u.startswith("us-eng")))


def test_edition_6_reads_every_vp_where_edition_5_read_none_below_the_draw_band():
    """4.2: nets of -20 and of 0 are both a Japanese Strategic Victory, but the Allies nearer the Draw band need
    fewer VP to reach it: edition 6 says so, edition 5's reading was -1 for every net up to 4."""
    nets = [scoring(5, j) for j in (25, 15, 8, 3, 1)]
    old = [victory.stakes(s, "allied", edition=5) for s in nets]
    new = [victory.stakes(s, "allied", edition=6) for s in nets]
    assert len({round(v, 9) for v in old}) == 1  # every one of these nets read alike
    assert new == sorted(new) and len(set(new)) == len(new) and -1 < new[0] and new[-1] < 0
    assert all(victory.stakes(s, "japanese", edition=6) == -v for s, v in zip(nets, new, strict=True))


def test_edition_6_counts_the_bases_an_engineer_could_build_with_the_lp_kept_for_them():
    """20.1: an engineer in a major port builds a base for 3 LP, and the port scores 4 VP (4.2) only then: from
    edition 6 an engineer nearer a port without a base reads better, and the more so with the LP kept for it (the
    Allies had left their engineers in the staging area and spent every LP on markers before base building)."""
    port = next(h for h in sorted(D.ports()) if "major-port" in D.objectives(h))
    away = next(h for h in sorted(D.map.hexes(), key=str) if D.map.distance(h, port) == 6 and D.is_land(h)
                and not D.objectives(h))
    engineer = next(u.id for u in D.units if u.side == "allied" and u.type == "engineer")
    poor, kept, far = (given(step="recruit-allied", turn=5, units={engineer: str(where)},
                             lp={"allied": lp, "japanese": 0}) for where, lp in ((port, 0), (port, 3), (away, 3)))
    assert 0 < victory.bases_in_view(far) < victory.bases_in_view(poor) < victory.bases_in_view(kept)
    assert victory.stakes(kept, "allied", edition=6) > victory.stakes(poor, "allied", edition=6)
    assert victory.stakes(kept, "allied", edition=5) == victory.stakes(poor, "allied", edition=5)


def test_the_search_counts_the_units_13_3_would_remove_from_edition_6():
    """13.1, 13.3: five US mobile units in one hex (four allowed) are over the limit; the search passes over moves
    that overstack from edition 6 in Formosa (edition 5's seats searched them, as their games were played)."""
    infantry = [u.id for u in D.units if u.side == "allied" and u.type == "infantry" and u.nationality == "us"]
    hex_ = str(sorted(D.airfields())[0])
    crowded = given(step="allied-movement", turn=5, units=dict.fromkeys(infantry[:5], hex_))
    fits = given(step="allied-movement", turn=5, units=dict.fromkeys(infantry[:4], hex_))
    assert (GAME.overstacked(crowded, "allied"), GAME.overstacked(fits, "allied")) == (5, 0)
    assert evaluation.hook(GAME, "overstacked", 5) is None
    assert evaluation.hook(GAME, "overstacked", 6) is GAME.overstacked
