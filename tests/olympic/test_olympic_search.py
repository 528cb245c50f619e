"""The strong opponent's reading of Olympic's final count (ruling R20; app/rules/olympic/victory.py `final_count`,
app/rules/olympic/aims.py): from search edition 7 the Japanese units left south and Kagoshima are read against the
time left and the American strength near them, and the search adds moves toward them; edition 6 seats read as
their games were played."""
from __future__ import annotations

import random
import statistics

from olympic_given import START, given

from app.rules import evaluation, search
from app.rules.kernel.hexgrid import Hex
from app.rules.kernel.movement import Mover, reach
from app.rules.olympic import GAME, aims, victory
from app.rules.olympic.sequence import _situation

JAPANESE = "jp-212-2"  # a 2-4 coastal unit
SOUTH = "2137"  # south of the Objective Line, four hexes from Kagoshima
AMERICANS = ("us-25-27", "us-25-35", "us-25-161")  # 4-12 regiments


def last_unit_south(where: str, turn: int = 9, step: str = "movement", japanese: bool = True, americans: int = 3):
    """One Japanese unit left south (in `SOUTH`), `americans` American regiments together in `where`."""
    units = {JAPANESE: SOUTH} if japanese else {}
    return given(step=step, turn=turn, units={**units, **dict.fromkeys(AMERICANS[:americans], where)},
                 american_control=(where,))


def test_edition_7_reads_the_americans_nearer_the_last_japanese_unit_south_as_nearer_victory():
    """R20: the Americans win with southern Kyushu cleared; a regiment nine, six, three hexes from and next to the
    last Japanese unit there reads better and better, and cleared best; edition 6 read nine and six hexes alike
    (only Kagoshima's nearest unit moved its reading, by steps of three hexes)."""
    apart = ("1235", "1534", "1835", "2036")  # 9, 6, 3 and 1 hexes from SOUTH
    nearer = [victory.stakes(last_unit_south(h, americans=1), "american", edition=7) for h in apart]
    cleared = victory.stakes(last_unit_south("2036", japanese=False, americans=1), "american", edition=7)
    assert nearer == sorted(nearer) and len(set(nearer)) == 4 and cleared > nearer[-1]
    assert victory.stakes(last_unit_south("2036", americans=1), "japanese", edition=7) == -nearer[-1]
    old = [victory.stakes(last_unit_south(h, americans=1), "american", edition=6) for h in apart[:2]]
    assert old[0] == old[1]


def test_edition_7_reads_a_unit_left_south_worse_as_the_game_runs_out():
    """R20 counts after the last Game-Turn: the same unit left south with the Americans far away reads worse on
    Game-Turn 9 than 5, and worst once the Americans' last combat phase is over (nothing can clear it then)."""
    early, late = (victory.stakes(last_unit_south("1235", turn=t), "american", edition=7) for t in (5, 9))
    over = victory.stakes(last_unit_south("1235", turn=10, step="reinforcement"), "american", edition=7)
    assert early > late > over
    assert victory.stakes(last_unit_south("1235", turn=5), "american", edition=6) == \
        victory.stakes(last_unit_south("1235", turn=9), "american", edition=6)


def test_from_edition_7_the_search_moves_toward_the_last_japanese_units_south():
    """The legal list spreads a unit's moves over the map; edition 7 searches beside them the moves that bring a unit
    nearest the last Japanese units south or Kagoshima (`aims`), which edition 6 does not (its seats decide as
    played)."""
    state = last_unit_south("1235")
    toward = aims.aims(state, "american")
    assert toward and all(o.startswith("move us-25-") for o in toward)
    for order in toward:
        assert state.data.map.distance(Hex.parse(order.split()[-1]), Hex.parse(SOUTH)) < 9, order
    listed = {o["order"] for o in GAME.legal_orders(state, "american")}
    assert not set(toward) & listed
    assert set(toward) <= set(search.Search(GAME, state, "american", 1, edition=7).candidates(state, "american"))
    assert not set(toward) & set(search.Search(GAME, state, "american", 1, edition=6).candidates(state, "american"))
    assert evaluation.hook(GAME, "aims", 6, since=7) is None and evaluation.hook(GAME, "progress", 6) is None


def test_on_the_last_game_turn_edition_7_attacks_the_last_japanese_unit_south_rather_than_end():
    """R20: clearing the last unit south on Game-Turn 10's combat phase decides the count; edition 7's playouts
    (search:40) see it, the attack far ahead of `end`."""
    state = last_unit_south("2036", turn=10, step="combat")
    order, why = search.Search(GAME, state, "american", 40, edition=7).decide()
    assert order.startswith(f"attack {SOUTH} with"), why
    after = why["summary"].split("next")[1]  # from rules version 10 the list holds each set of attackers (R49)
    assert why["value"] > 0.5 and ("-0." in after or f"'attack {SOUTH} with" in after), why


def _phases_to_reach(state, start: str, target: str, most: int = 3) -> int | None:
    """Movement Phases a regiment in `start` needs to stand next to `target`, each moving as far as R10, R11 and
    R15 let it (kernel `reach` with the American movement situation); None beyond `most`."""
    data, sit = state.data, _situation(state)
    front = {Hex.parse(start)}
    for phases in range(most + 1):
        if {str(h) for h in front} & set(data.land_links[target]):
            return phases
        front |= {h for at in front for h in reach(data.map, data.movement, Mover.single(at, 12, "american"),
                                                      sit).hexes()}
    return None


def test_from_edition_8_the_search_moves_along_the_americans_way_not_as_the_crow_flies():
    """A regiment fifteen hexes north of the last Japanese unit south, Kagoshima American: edition 7's aim (the
    reachable hex nearest as the crow flies) leaves it two more Movement Phases from the unit; edition 8's (the
    nearest by the movement points along its way, R10's terrain, R11's militia, R15's zones) one."""
    key = str(START.data.hex_named("Kagoshima"))
    state = given(step="movement", turn=9, units={JAPANESE: SOUTH, AMERICANS[0]: "2122"},
                  american_control=("2122", key))
    (old,), (new,) = aims.aims(state, "american", edition=7), aims.aims(state, "american", edition=8)
    assert old.startswith(f"move {AMERICANS[0]} to ") and new.startswith(f"move {AMERICANS[0]} to ")
    assert _phases_to_reach(state, old.split()[-1], SOUTH) == 2
    assert _phases_to_reach(state, new.split()[-1], SOUTH) == 1
    assert new in search.Search(GAME, state, "american", 1, edition=8).candidates(state, "american")


def test_from_edition_8_an_attack_listed_without_odds_is_searched_before_end():
    """An Olympic attack's column waits for the militia die (ruling R28), so the list gives it no odds and greedy's
    rating passes it over: edition 7's search weighed it below `end` and, its values a hair apart, ended every
    combat phase of a ten-turn game without one attack. Edition 8 weighs it as what the step asks for: three
    regiments next to a Japanese unit south on Game-Turn 5 attack it."""
    state = given(step="combat", turn=5, units={JAPANESE: SOUTH, "jp-86-1": "2440", **dict.fromkeys(AMERICANS, "2036")},
                  american_control=("2036",))
    attack = f"attack {SOUTH} with {' '.join(sorted(AMERICANS))}"
    listed = [o["order"] for o in GAME.legal_orders(state, "american")]  # from rules version 10 each set too (R49)
    assert listed[0] == attack and "end" in listed
    assert all(o.startswith((f"attack {SOUTH} with ", "retreat toward ")) for o in set(listed) - {"end"})
    assert search.Search(GAME, state, "american", 60, edition=7).decide()[0] == "end"
    assert search.Search(GAME, state, "american", 60, edition=8).decide()[0].startswith(attack)


def test_edition_8_reads_a_unit_pressed_as_more_left_to_do_than_edition_7():
    """R20 counts units south, not the strength next to them: edition 7 counted a unit with three regiments next to
    it as three quarters cleared, so clearing it read as a small gain; edition 8 counts it a quarter cleared."""
    pressed, cleared = last_unit_south("2036", americans=3), last_unit_south("2036", japanese=False, americans=3)
    gain = {e: victory.final_count(cleared, e) - victory.final_count(pressed, e) for e in (7, 8)}
    assert victory.final_count(pressed, 8) < victory.final_count(pressed, 7)
    assert gain[8] > 2 * gain[7] > 0


def _after(state, order: str, k: int):
    """The position a playout values after `order` with dice k: the order, then the steps no side may end and the
    Americans' own ends (app/rules/search.py `settle`, `close`)."""
    dice = search.PlayoutDice(random.Random(f"road:{k}"))
    state = search.apply_command(GAME, state, GAME.parse(order, "american", state), dice)
    return search.close(GAME, search.settle(GAME, state, dice), dice)


def test_from_edition_9_the_attack_that_opens_the_road_to_kagoshima_reads_above_the_others():
    """Three regiments in 1736 on Game-Turn 5, the printed Japanese set-up around them: a Japanese unit in 1737
    stands on their road south to Kagoshima (R10, R11, R15: the way through it is an attack and a Game-Turn
    longer), the unit and militia in 1636 beside it. Edition 8 read every attack as ending the phase (all within
    0.002: the strength near Kagoshima counted as the crow flies), so its playouts chose on the noise; edition 9
    reads the Game-Turns of march left along the way (`_march`), and the attack that clears 1737 reads above the
    other and `end` by three times the most any dice move a value (its spread over twenty playouts' dice), and
    the search gives it with most of its playouts."""
    units = {**dict.fromkeys(AMERICANS, "1736"), "jp-206-5": "1737"}
    state = given(step="combat", turn=5, keep_setup=True, units=units, american_control=("1736",))
    road, beside = f"attack 1737 with {' '.join(sorted(AMERICANS))}", f"attack 1636 with {' '.join(sorted(AMERICANS))}"
    listed = [o["order"] for o in GAME.legal_orders(state, "american")]  # from rules version 10 each set too (R49)
    assert listed[:2] == [beside, road] and "end" in listed
    assert all(o.startswith(("attack 1636 with ", "attack 1737 with ", "retreat toward "))
               for o in set(listed) - {"end"})
    values = {e: {o: [evaluation.value(GAME, _after(state, o, k), "american", e) for k in range(20)]
                  for o in (road, beside, "end")} for e in (8, 9)}
    mean = {e: {o: statistics.fmean(v) for o, v in values[e].items()} for e in values}
    noise = max(max(v) - min(v) for v in values[9].values())
    assert max(mean[8].values()) - min(mean[8].values()) < 0.002
    assert mean[9][road] - max(mean[9][beside], mean[9]["end"]) > max(3 * noise, 0.005), (mean, noise)
    order, why = search.Search(GAME, state, "american", 40, edition=9).decide()
    assert order == road and why["visits"] > 40 // 3, why  # R49's other sets of attackers share the playouts
