"""Ichi-Go readings issue 30 left open, ruled in docs/rulings/ichigo-engine.md (E29-E31) and, where a stored game
would decide differently, fixed under rules version 5; each change is tested under version 5 and as a game created
under version 4 still decides it (docs/core.md "Rules versions")."""
from dataclasses import replace

import pytest
from ichigo_given import RULES, chinese, ev, fold, of, position, when

from app.rules.errors import IllegalOrder
from app.rules.ichigo import combat
from app.rules.ichigo.common import supply_state


def under(state, version):
    return RULES.played_under(state, str(version))


@pytest.mark.parametrize("version", [5, 4])
def test_7_4_an_attack_with_attenuated_and_out_of_supply_units_keeps_the_1l_and_halves_the_oos_units(version):
    # Turn 8, no Causeway: every Japanese unit is on attenuated supply; the B-29 raid put the brigade out of supply
    s = position({"jp-cea-110div": "2010", "jp-cea-1bde": "2010"}, turn=8, causeway=False,
                 extra=(chinese("C01", "cn-reg-02", "2011", tried=True),))
    s = under(replace(s, b29_units=frozenset({"jp-cea-1bde"})), version)
    div, bde = s.units["jp-cea-110div"], s.units["jp-cea-1bde"]
    assert (supply_state(s, div), supply_state(s, bde)) == ("attenuated", "oos")
    alone = combat.assess(s, "japanese", "2011", [div], [s.units["C01"]], 0, False)
    both = combat.assess(s, "japanese", "2011", [div, bde], [s.units["C01"]], 0, False)
    assert any("7.4" in x for x in alone["shifts"])
    half = -(-bde.factor("attack") // 2)
    assert both["attack"] == div.factor("attack") + half  # 7.3: the out-of-supply brigade is halved, rounded up
    # ruling E29: the attenuated division still brings its 1L; an out-of-supply unit joining never lifts it
    assert any("7.4" in x for x in both["shifts"]) is (version == 5)


def _us(n):
    return sorted(u.id for u in position({}).units.values() if u.nation == "us" and u.id != "us-11ab")[:n]


def _actions(state):
    return [a.name for a in RULES.prompt(state).actions]


def test_8_9_without_causeway_the_one_raid_may_come_at_the_start_of_any_turn_before_turn_7_too():
    # ruling E30: "Causeway does not launch" holds from Turn 1 until the Turn 7 roll says otherwise (as 4.1, 4.2)
    s = replace(position({"jp-cea-110div": "2008"}, turn=3), phase="start")
    assert s.causeway is None and "b29" in _actions(s)
    raided = of(when(s, "allied", "b29 2008"), ev.B29Placed)
    assert raided and raided[0].hex == "2008"
    used = replace(position({}, turn=5, b29_used=True), phase="start")
    assert "b29" not in _actions(used)                                   # once a game
    with pytest.raises(IllegalOrder):
        when(used, "allied", "b29 2008")
    # Causeway launched later: the raid used before does not take away the turn-by-turn roll
    after = replace(position({}, turn=8, causeway=True, b29_used=True), phase="start")
    assert _actions(after) == ["roll", "end"]
    assert "b29" in _actions(RULES.evolve(after, of(when(after, "allied", "roll", rolls=[1]), ev.B29Rolled)[0]))


def test_7_8_the_marker_stays_where_it_was_placed_into_the_next_turn_and_placed_anew_it_moves():
    a, b = _us(2)
    s = position({a: "2011", b: "2015"}, turn=9, phase="II", plans={"us": "move-fight"}, causeway=True,
                 aerial_hex="2011", aerial_turn=8)
    # ruling E31: placed on Turn 8, the marker still supplies its hex on Turn 9 (only the Allies or the Japanese
    # taking the hex remove it), and it is available anew: placed again, it moves
    assert supply_state(s, s.units[a]) == "full" and supply_state(s, s.units[b]) == "oos"
    assert "supply" in _actions(s)
    s2 = RULES.evolve(s, of(when(s, "allied", "supply 2015"), ev.AerialSupplyPlaced)[0])
    assert s2.aerial_hex == "2015"
    assert supply_state(s2, s2.units[a]) == "oos" and supply_state(s2, s2.units[b]) == "full"
    assert "supply" not in _actions(s2)                                  # once a turn
    # the US Combat Phase of a turn whose marker is unused offers it too; no Japanese or Chinese phase does
    assert "supply" in _actions(replace(s, phase="III"))
    assert "supply" not in _actions(replace(s, phase="VII", plans={"japanese": "move-fight"}))


@pytest.mark.parametrize("version", [6, 5])
def test_10_1_after_one_stack_moved_the_list_still_offers_each_unmoved_units_moves(version):
    # ruling E32: the list of legal orders keeps offering a unit that has not moved once another stack is under way
    from app.rules.legal import legal_orders
    s = position({"jp-cea-1bde": "2010", "jp-cea-2bde": "2110"}, turn=8, phase="VI",
                 plans={"japanese": "move-fight"}, causeway=False)
    s = under(s, version)
    s = fold(s, *when(s, "japanese", "move jp-cea-1bde to 2011", rolls=[5]))
    movers = {o["order"].split()[1] for o in legal_orders(RULES, s, "japanese") if o["action"] == "move"}
    assert "jp-cea-1bde" in movers                                      # the stack under way may go on
    assert ("jp-cea-2bde" in movers) is (version == 6)                  # and the unit that has not moved may begin
    if version == 6:                                                    # the order offered is one the rules take
        order = next(o["order"] for o in legal_orders(RULES, s, "japanese")
                     if o["order"].startswith("move jp-cea-2bde"))
        assert of(when(s, "japanese", order, rolls=[2]), ev.UnitsMoved)


@pytest.mark.parametrize("version", [7, 6])
def test_11_27_the_odds_on_untried_defenders_count_them_as_the_strongest_regular_whichever_counter_it_is(version):
    # ruling E33: the defence of an untried counter is unknown (6.6, 11.27); the preview and the listed odds count
    # it as the strongest Chinese regular of the countermix (5), with the best case beside, never as no defence
    from app.rules.legal import legal_orders
    from app.rules.practice import choose
    attack = "attack 2011 with jp-cea-110div jp-cea-26div"
    shown = []
    for ref in ("cn-reg-04", "cn-reg-01", "cn-reg-02"):   # counters of different strengths under the same handle
        s = under(position({"jp-cea-110div": "2010", "jp-cea-26div": "2012"},
                           extra=(chinese("C02", ref, "2011"),)), version)
        preview = RULES.preview(s, RULES.parse(attack, "japanese", s))
        odds = {o["order"]: o.get("odds") for o in legal_orders(RULES, s, "japanese")}
        shown.append((preview["text"], preview.get("best"), odds[attack]))
        greedy, _ = choose(RULES, "greedy", s, "japanese")
    assert shown[0] == shown[1] == shown[2]                           # nothing tells which counter C02 is
    text, best, listed = shown[0]
    if version == 7:
        assert (preview["defence"], listed) == (5, "2:1")             # 8 against 5, not the worst column
        assert best["defence"] == 1 and "ruling E33" in text
        assert greedy.startswith("attack 2011")                       # 2:1 is worth attacking at
    else:                                                             # version 6: no defence, column 1:4, as played
        assert (preview["defence"], listed, best) == (0, "1:4", None)
        assert not greedy.startswith("attack")
