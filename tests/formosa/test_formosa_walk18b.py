"""Rules version 18, second pass (issue 30, session part 13): the retreat, advance, counterattack, movement and
interdiction cases probed with positions, as an examiner builds them from the rulebook.

- 15.7 items 3-5 (ruling F143): a unit whose only hexes toward a supply source are full, with no hex beyond them,
  retreats into any other allowed hex; it was eliminated although it could retreat;
- 15.8 (ruling F144): after a DE the list of legal orders offers the second hex of the advance, which it left out.

Each is played through the orders and read in the events and the list, under version 18 and under 17."""
from __future__ import annotations

from itertools import combinations

from formosa_given import given, of, play, when
from formosa_map import D, M, ring

from app.rules.formosa import GAME, played_under
from app.rules.formosa.combat import retreat_paths
from app.rules.formosa.events import CombatResolved, UnitEliminated, UnitRetreated
from app.rules.kernel.hexgrid import Hex

H = Hex.parse
X, AROUND = ring("open")
FILL = ("jp-9-7", "jp-9-19", "jp-9-35")


def _full_toward_supply():
    """us-7-17 in AROUND[0] (and up to two US units two hexes from X) leave X's defender one hex nearer a static
    source (N), with no free hex beyond it, and at least one free hex that does not lead toward the source."""
    x, attacker = H(X), H(AROUND[0])
    land = [h for h in M.hexes() if D.is_land(h)]
    two_away = [h for h in land if M.distance(h, x) == 2]
    statics = [h for h in land if 2 <= M.distance(h, x) <= 4]
    for k in range(3):
        for extra in combinations(two_away, k):
            us = (attacker, *extra)
            zoc = set(us) | {n for u in us for n in M.neighbours(u)}
            free = [n for n in M.neighbours(x) if D.is_land(n) and n not in zoc]
            for s in statics:
                near = [n for n in free if M.distance(n, s) < M.distance(x, s)]
                if len(near) == 1 and len(free) > 1 and not [
                        e for e in M.neighbours(near[0]) if e != x and D.is_land(e) and e not in zoc]:
                    others = sorted(str(n) for n in free if n != near[0])
                    return [str(h) for h in extra], str(s), str(near[0]), others
    raise LookupError("no such place")


EXTRA_US, SOURCE, FULL, AWAY = _full_toward_supply()


def _dr(version: int | None = None):
    """us-7-17 attacks jp-guard-1 in X (4 to 2, die 6: DR); the one hex toward jp-hw-1 holds three Japanese
    mobile units and every hex beyond it is in an Allied ZOC."""
    units = {"us-7-17": AROUND[0], "jp-guard-1": X, "jp-hw-1": SOURCE, **dict.fromkeys(FILL, FULL),
             **dict(zip(("us-7-32", "us-7-184"), EXTRA_US, strict=False))}
    state = given(units=units)
    return played_under(state, str(version)) if version else state


def test_15_7_items_3_5_a_unit_whose_way_toward_supply_is_full_retreats_elsewhere_f143():
    state = _dr()
    assert retreat_paths(state, state.units["jp-guard-1"]) == [(h,) for h in AWAY]
    events = when(state, "allied", f"attack {X} with us-7-17", [6])
    assert of(events, CombatResolved)[0].code == "DR" and not of(events, UnitEliminated)
    if len(AWAY) == 1:
        assert of(events, UnitRetreated)[0].path == [X, AWAY[0]]
    else:
        after = play(state, "allied", f"attack {X} with us-7-17", [6])
        assert {o["order"] for o in GAME.legal_orders(after, "japanese")} == {
            f"retreat jp-guard-1 {h}" for h in AWAY}
    # a hex toward the source that can still take the unit binds it, as before (item 4, F61)
    roomy = given(units={"us-7-17": AROUND[0], "jp-guard-1": X, "jp-hw-1": SOURCE, "jp-9-7": FULL,
                         **dict(zip(("us-7-32", "us-7-184"), EXTRA_US, strict=False))})
    assert retreat_paths(roomy, roomy.units["jp-guard-1"]) == [(FULL,)]


def test_f143_a_game_created_under_rules_17_eliminates_the_unit_as_played():
    state = _dr(version=17)
    assert retreat_paths(state, state.units["jp-guard-1"]) == []
    events = when(state, "allied", f"attack {X} with us-7-17", [6])
    assert [e.case for e in of(events, UnitEliminated)] == ["Formosa 15.7 item 5"]
