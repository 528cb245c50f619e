"""Rules version 18, second pass (issue 30, session part 13): the retreat, advance, counterattack, movement and
interdiction cases probed with positions, as an examiner builds them from the rulebook.

- 15.7 items 3-5 (ruling F143): a unit whose only hexes toward a supply source are full, with no hex beyond them,
  retreats into any other allowed hex; it was eliminated although it could retreat;
- 15.7 item 3 (ruling F145): an over-stacked retreat goes one additional hex, which must meet the limits; the
  engine went on, a hex at a time, while each hex reached was full, up to four hexes;
- 15.8, 15.8.1 (ruling F144): the list of legal orders offers the second hex of a DE's advance, and each advance to
  the units that can enter its hexes; it left out the one and, with a mechanized attacker facing a mountain, all.

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


def _full_beyond():
    """us-7-17 in AROUND[0] (and up to two US units two hexes from X) leave X's defender one free hex (N); the
    hexes beyond N, free of Allied ZOC, are few enough to fill with three Japanese regiments each."""
    x = H(X)
    two_away = [h for h in M.hexes() if D.is_land(h) and M.distance(h, x) == 2]
    found = None
    for k in range(3):
        for extra in combinations(two_away, k):
            us = (H(AROUND[0]), *extra)
            zoc = set(us) | {n for u in us for n in M.neighbours(u)}
            free = [n for n in M.neighbours(x) if D.is_land(n) and n not in zoc]
            if len(free) != 1:
                continue
            beyond = [e for e in M.neighbours(free[0]) if e != x and D.is_land(e) and e not in zoc]
            if 1 <= len(beyond) <= 3 and (found is None or len(beyond) < len(found[2])):
                found = ([str(h) for h in extra], str(free[0]), [str(h) for h in beyond])
    return found


REGIMENTS = ("jp-9-7", "jp-9-19", "jp-9-35", "jp-12-24", "jp-12-46", "jp-12-48", "jp-50-301", "jp-50-302",
             "jp-50-303", "jp-66-249", "jp-66-304", "jp-66-305")


def _two_full(version: int | None = None):
    """X's defender has one hex to retreat into, full, and every hex beyond it is full too (no supply source)."""
    extra, first, beyond = _full_beyond()
    units = {"us-7-17": AROUND[0], "jp-guard-1": X, **dict(zip(("us-7-32", "us-7-184"), extra, strict=False))}
    for i, h in enumerate([first, *beyond]):
        units.update(dict.fromkeys(REGIMENTS[3 * i:3 * i + 3], h))
    state = given(units=units)
    return (played_under(state, str(version)) if version else state), first, beyond


def test_15_7_item_3_an_over_stacked_retreat_goes_one_additional_hex_and_no_more_f145():
    state, first, beyond = _two_full()
    assert retreat_paths(state, state.units["jp-guard-1"]) == []  # the additional hex cannot meet the limits
    events = when(state, "allied", f"attack {X} with us-7-17", [6])
    assert [e.case for e in of(events, UnitEliminated)] == ["Formosa 15.7 item 5"]
    freed = given(units={u: w for u, w in ((u, state.units[u].where) for u in state.units)
                         if w != beyond[0] or u not in REGIMENTS[3:6]})
    assert retreat_paths(freed, freed.units["jp-guard-1"]) == [(first, beyond[0])]  # one hex beyond, limits met


def test_f145_a_game_created_under_rules_17_retreats_on_while_each_hex_is_full_as_played():
    state, first, beyond = _two_full(version=17)
    paths = retreat_paths(state, state.units["jp-guard-1"])
    assert paths and all(len(p) == 3 and p[:2] == (first, p[1]) and p[1] in beyond for p in paths)
    assert not of(when(state, "allied", f"attack {X} with us-7-17", [6]), UnitEliminated)


MOUNTAIN, MOUNTAIN_AROUND = ring("mountain")


def _advances(state, version: int | None = None) -> list[str]:
    state = played_under(state, str(version)) if version else state
    return [o["order"] for o in GAME.legal_orders(state, "allied") if o["action"] in ("advance", "hold")]


def test_15_8_after_a_de_the_list_offers_the_second_hex_of_the_advance_f144():
    # 12 against 2 in the open (600-699%), die 6: DE; the attackers may advance one or two hexes (15.8)
    units = {"us-7-17": AROUND[0], "us-7-32": AROUND[0], "us-7-184": AROUND[0], "jp-guard-1": X, "jp-9-7": AROUND[3]}
    state = play(given(units=units), "allied", f"attack {X} with us-7-17 us-7-32 us-7-184", [6])
    assert state.combat.code == "DE"
    listed = _advances(state)
    group = "us-7-17 us-7-32 us-7-184"
    free = [h for h in AROUND if h != AROUND[3]]  # any hex next to X but the enemy's (into an EZOC too, 15.8)
    assert set(listed) == {f"advance {group} to {X}", "hold"} | {f"advance {group} to {X} {h}" for h in free}
    after = play(state, "allied", f"advance {group} to {X} {AROUND[2]}")  # next to jp-9-7: an EZOC, no matter
    assert {after.units[u].where for u in group.split()} == {AROUND[2]}
    assert _advances(state, version=17) == [f"advance {group} to {X}", "hold"]  # as listed before


def test_15_8_1_the_list_offers_the_advance_to_the_units_that_can_enter_the_hex_f144():
    # a mechanized unit enters a mountain only along a road (12.2): the infantry advance, the armor stays
    units = {"us-armor-1": MOUNTAIN_AROUND[0], "us-7-17": MOUNTAIN_AROUND[0], "us-7-32": MOUNTAIN_AROUND[0],
             "us-7-184": MOUNTAIN_AROUND[0], "jp-guard-1": MOUNTAIN}
    state = play(given(units=units), "allied", f"attack {MOUNTAIN} with us-armor-1 us-7-17 us-7-32 us-7-184", [6])
    assert state.combat.code == "DE"
    listed = _advances(state)
    assert f"advance us-7-17 us-7-32 us-7-184 to {MOUNTAIN}" in listed
    assert not [o for o in listed if "us-armor-1" in o]
    assert _advances(state, version=17) == ["hold"]  # the only advance listed took the armor and was refused
