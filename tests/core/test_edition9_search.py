"""Search edition 9 (app/rules/search.py, app/rules/snc/victory.py `aims`): while SNC 4.2 can end the game, the
Chinese search moves units into the Shanghai ring beside the legal list's orders; edition 8's seats search the list
alone, as their games were played (tests/rules/test_pinned_decisions.py)."""
from __future__ import annotations

from dataclasses import replace

from app.events.dice import SeededDice
from app.rules import search
from app.rules.catalog import installed
from app.rules.snc.common import neighbours

RULES = installed().rules("snc")
AWAY = {"cn-d36": "3210", "cn-d88": "3210", "cn-tp": "3214", "cn-ppc": "3214", "cn-b20": "3214", "cn-d87": "3110",
        "cn-d98": "3110"}  # the set-up's divisions in 3411, 3412 and 3511, three and four hexes from Shanghai


def _ring_left_weak():
    """GT 4 (4.2 still ends the game), the Chinese First Operations Phase declared 'move': of the Shanghai ring
    only 3511's static garrison and 3612's division hold it, the divisions of 3411, 3412 and 3511 three or four
    hexes west (within one move of it), every other unit as set up."""
    state = RULES.initial_state("campaign", {})
    state = replace(state, turn=4, units={uid: replace(u, hex=AWAY.get(uid, u.hex)) for uid, u in state.units.items()})
    for event in RULES.decide(state, RULES.parse("declare move move", "chinese", state),
                              SeededDice(next_index=0, seed="t", game_id="t")):
        state = RULES.evolve(state, event)
    return state, {"3512", *neighbours(state.data, "3512")}


def test_from_edition_9_the_chinese_search_moves_divisions_back_into_the_shanghai_ring():
    """SNC 4.2: through GT 5 the Chinese lose the moment no unit of theirs stands in or next to Shanghai. The list
    of legal orders holds 40 orders, none bringing the divisions back into the ring, so edition 8 searched none and
    moved elsewhere (it lost s3 to greedy by 4.2 on GT 3); edition 9 searches the moves into the ring's emptiest
    hexes and gives one."""
    state, ring = _ring_left_weak()
    assert RULES.overstacked(state, "chinese") == 0
    listed = [item["order"] for item in RULES.legal_orders(state, "chinese")]
    assert not [o for o in listed if o.startswith(tuple(f"move {u} " for u in AWAY)) and o.split()[-1] in ring]
    old = search.Search(RULES, state, "chinese", 1, edition=8).candidates(state, "chinese", root=True)
    new = search.Search(RULES, state, "chinese", 1, edition=9).candidates(state, "chinese", root=True)
    assert not [o for o in old if o.split()[-1] in ring]
    into = [o for o in new if o.split()[-1] in ring]
    assert into and all(o.split()[1] in AWAY and o.split()[-1] == "3411" for o in into), into  # 3411: empty
    order, why = search.Search(RULES, state, "chinese", 60, edition=9).decide()
    assert order in into, why
    assert search.Search(RULES, state, "chinese", 60, edition=8).decide()[0].split()[-1] not in ring


AUGUST_STORM = [  # bench/opponents.py's game: august-storm, dice seed s3, the search's soviets against random's axis
    ("allied", "airdrop ru-1-abde e3610"), ("allied", "next"),
    ("allied", "attack e3410 with mpr-cav ru-36-army ru-6-gta hq ru-transbaikal"), ("axis", "retreat to e3210"),
    ("axis", "convert kw-manchouli"), ("allied", "advance ru-6-gta"), ("allied", "advance mpr-cav"),
    ("allied", "advance ru-36-army"), ("allied", "next"), ("allied", "airland e3610 ru-infantry"), ("allied", "next"),
    ("allied", "attack e3310 with mpr-cav ru-36-army ru-6-gta"), ("allied", "advance ru-36-army"),
    ("allied", "advance mpr-cav")]


def test_from_edition_9_a_search_whose_playouts_are_all_lost_keeps_the_hex_its_victory_needs():
    """Dai Senso august-storm (D16: the soviets win holding Manchouli e3410 and Hailar e3411 after the third Combat
    Phase): the soviets took Manchouli, then e3310 beyond it, and two of the three attackers have advanced; the
    tank army alone still holds Manchouli. Against greedy's axis every playout is lost whatever the soviets do, so
    edition 8's values all read -1 and it advanced the tank army too, giving Manchouli up (the bench's game against
    random then lost by D16 though random's axis gave Hailar up); edition 9 adds a tenth of the position where the
    playout left the tree (`TIE`) and stops, Manchouli held."""
    rules = installed().rules("daisenso")
    state = rules.initial_state("august-storm", {})
    dice = SeededDice(next_index=0, seed="s3", game_id="bench-daisenso")
    for side, text in AUGUST_STORM:
        for event in rules.decide(state, rules.parse(text, side, state), dice):
            state = rules.evolve(state, event)
    assert [o["order"] for o in rules.legal_orders(state, "allied")] == ["advance ru-6-gta", "stop"]
    assert [u["id"] for u in rules.view(state, None)["units"] if u.get("hex") == "e3410"] == ["ru-6-gta"]
    old = search.Search(rules, state, "allied", 200, edition=8)
    assert old.decide()[0] == "advance ru-6-gta" and {round(old.root.mean(a), 3) for a in old.root.arms} == {-1.0}
    order, why = search.Search(rules, state, "allied", 200, edition=9).decide()
    assert order == "stop", why


def test_from_edition_9_an_empty_ring_hex_counts_only_while_a_chinese_unit_may_still_move_into_it():
    """SNC 4.2 (through GT 5 the Chinese lose the moment no unit of theirs is in or next to Shanghai): the ring's
    reading credited an empty ring hex for the Chinese units near it (what they can put back), whatever the phase.
    Declared fight/fight (5.3), the Chinese move nobody before the Japanese player-turn; edition 8 read their ring
    as well held then as with a move phase to come (s3: they attacked Shanghai from the two hexes they held and
    lost both, and the game, to the Japanese turn); edition 9 reads it worse, and a ring of less than one sound hex
    worse than one of exactly one (edition 8 read both -1 but for the strength in them)."""
    state, _ = _ring_left_weak()
    fight = replace(state, phase="ops2", plan=("fight", "fight"))
    move = replace(state, phase="ops2", plan=("fight", "move"))
    assert RULES.stakes(fight, "chinese", edition=8) == RULES.stakes(move, "chinese", edition=8)
    assert RULES.stakes(fight, "chinese", edition=9) < RULES.stakes(move, "chinese", edition=9) - 0.05
    gone = {uid: replace(u, hex=None, status="pool") for uid, u in fight.units.items()
            if u.side == "chinese" and u.hex in ("3511", "3612")}
    weaker = replace(fight, units={**fight.units, **gone})  # 3612's division and 3511's garrison gone: an empty ring
    one = replace(weaker, units={**weaker.units, "cn-d57": fight.units["cn-d57"]})  # 3612's division back
    gap = {e: RULES.stakes(one, "chinese", edition=e) - RULES.stakes(weaker, "chinese", edition=e) for e in (8, 9)}
    assert gap[9] > gap[8] + 0.05, gap  # edition 8: the ring -1 either way, only the strength in it apart
