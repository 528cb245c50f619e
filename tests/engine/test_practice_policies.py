"""The policies of automated seats (app/rules/practice.py, edition 1 in app/rules/practice_v1.py) on small
positions, in the fast tier: which policies a rule set offers and how a game's seats name them, the seed edition 1
drew from a position, which orders count as legal, and what the random and greedy players choose (whole games
between them are the slow tier's, tests/core/test_practice_opponents.py)."""
from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import pytest

from app.events.dice import RecordedDice
from app.rules import practice, practice_v1
from app.rules.olympic import GAME as OLYMPIC
from app.rules.skirmish import GAME as SKIRMISH


def skirmish(**placements):
    state = SKIRMISH.initial_state("standard", {})
    units = {uid: replace(u, hex=placements.get(uid, u.hex)) for uid, u in state.units.items()}
    return replace(state, units=units)


def test_a_rule_set_offers_its_own_policies_first_then_greedy_and_random():
    assert list(practice.policies(SKIRMISH)) == ["greedy", "random", "search"]
    assert list(practice.policies(OLYMPIC)) == ["programmed", "greedy", "random", "search"]
    assert practice.default_policy(SKIRMISH) == "greedy" and practice.default_policy(OLYMPIC) == "programmed"
    assert practice.automated_seats(OLYMPIC) == {"japanese": "programmed"}
    assert practice.automated_seats(SKIRMISH) == {}


def test_the_seats_of_a_new_game_name_a_side_and_a_policy_or_the_default():
    assert practice.seats(OLYMPIC, None) == {"japanese": "programmed"}
    assert practice.seats(SKIRMISH, ["blue"]) == {"blue": "greedy"}
    assert practice.seats(SKIRMISH, ["blue:random"]) == {"blue": "random"}
    assert practice.seats(SKIRMISH, {"red": ""}) == {"red": "greedy"}
    assert practice.seats(SKIRMISH, []) == {}
    with pytest.raises(ValueError, match="has no side 'green' to automate; sides: red, blue"):
        practice.seats(SKIRMISH, ["green"])
    with pytest.raises(ValueError, match="has no policy 'clever' .*policies: greedy, random"):
        practice.seats(SKIRMISH, {"red": "clever"})
    with pytest.raises(ValueError, match="every side automated"):
        practice.seats(SKIRMISH, ["red", "blue"])


def test_choose_refuses_an_unknown_policy_and_a_side_whose_turn_it_is_not():
    state = skirmish()
    with pytest.raises(practice.NoOrder, match="no policy 'clever'; policies: greedy, random, search"):
        practice.choose(SKIRMISH, "clever", state, "red")
    with pytest.raises(practice.NoOrder, match="it is not blue's turn"):
        practice.choose(SKIRMISH, "random", state, "blue")
    text, reason = practice.choose(SKIRMISH, "random", state, "red")
    assert practice.legal(SKIRMISH, state, "red", text) is not None
    assert reason["case"] == practice.RANDOM_CASE and "drawn with a seed from what red sees" in reason["summary"]


def test_edition_1s_seed_is_the_positions_the_same_in_any_order_of_its_lists_and_another_for_another_position():
    state = skirmish()
    assert practice_v1.position_seed(SKIRMISH, state) == practice_v1.position_seed(SKIRMISH, skirmish())
    moved = skirmish(R1="0202")
    assert practice_v1.position_seed(SKIRMISH, moved) != practice_v1.position_seed(SKIRMISH, state)
    reordered = replace(state, units=dict(reversed(list(state.units.items()))))
    assert practice_v1.position_seed(SKIRMISH, reordered) == practice_v1.position_seed(SKIRMISH, state)
    seed = practice_v1.position_seed(SKIRMISH, state)
    assert 0 <= seed < 2 ** 64 and seed > 2 ** 32  # eight bytes of the hash, not a small number


def test_legal_is_an_order_the_decider_accepts_now_and_none_otherwise():
    state = skirmish()
    command = practice.legal(SKIRMISH, state, "red", "move R1 0202")
    assert (command.action, command.args) == ("move", {"unit": "R1", "path": ["0202"]})
    assert practice.legal(SKIRMISH, state, "red", "move R1 0304") is None  # not adjacent (SK 4.1)
    assert practice.legal(SKIRMISH, state, "red", "fly R1 0202") is None  # no such order
    assert practice.legal(SKIRMISH, state, "blue", "move B1 0502") is None  # not blue's turn


def test_the_random_player_gives_a_legal_order_the_same_for_the_same_position():
    state = skirmish()
    play = practice.random_player(SKIRMISH)
    first = play(state, "red")
    assert first == play(state, "red")
    assert first[0] in {o["order"] for o in SKIRMISH.legal_orders(state, "red")}
    assert "candidate " in first[1]["summary"]


def test_the_random_player_with_no_legal_candidate_says_so():
    play = practice_v1.random_player(SKIRMISH, lambda state, rng: ["fly R1 0202", "move R1 0304"], practice.legal,
                                     practice.NoOrder)
    with pytest.raises(practice.NoOrder, match="no candidate order of red is legal"):
        play(skirmish(), "red")


def _greedy_v1(rules, candidates):
    """Edition 1's greedy over `candidates`, falling back on edition 1's random player over the same."""
    fallback = practice_v1.random_player(rules, candidates, practice.legal, practice.NoOrder)
    return practice_v1.greedy(rules, candidates, practice.legal, fallback)


def test_objectives_are_the_victory_hexes_not_held_and_the_enemy_units_seen():
    state = skirmish()
    goals = practice_v1.objectives(SKIRMISH, state, "red")
    blue = sorted({u.hex for u in state.units.values() if u.side == "blue"})
    assert goals == sorted({"0403", *blue})
    held = replace(state, village_holder="red")
    assert "0403" not in practice_v1.objectives(SKIRMISH, held, "red")


def test_greedy_moves_toward_an_objective_and_says_by_how_much():
    from app.rules.kernel.hexgrid import Hex

    state = OLYMPIC.initial_state("solitaire", {"position": {"turn": 2, "phase": "movement", "beachheads": ["3336"],
                                                             "units": {"us-25-27": "3338", "jp-154-1": "3130"}}})
    goals = [Hex.parse(g) for g in practice_v1.objectives(OLYMPIC, state, "american")]
    game_map = OLYMPIC.game_map(state)

    def distance(h):
        return min(game_map.distance(h, g) for g in goals)

    here = Hex.parse("3338")
    open_ = [n for n in game_map.neighbours(here)
             if practice.legal(OLYMPIC, state, "american", f"move us-25-27 to {n}") is not None]
    nearer, away = min(open_, key=distance), max(open_, key=distance)
    assert distance(nearer) < distance(here) <= distance(away)
    orders = [f"move us-25-27 to {away}", f"move us-25-27 to {nearer}", "end"]
    text, reason = _greedy_v1(OLYMPIC, lambda s, rng: orders)(state, "american")
    gain = distance(here) - distance(nearer)
    assert text == f"move us-25-27 to {nearer}" and reason["rule"] == "move toward objectives"
    assert reason["gain"] == gain
    assert reason["summary"] == f"greedy: nearer an objective by {gain} hex(es)"
    text, reason = _greedy_v1(OLYMPIC, lambda s, rng: [f"move us-25-27 to {away}", "end"])(state, "american")
    assert text == "end" and reason["rule"] == "end"  # a move away is worth less than ending the step


def test_greedy_with_nothing_to_rate_falls_back_on_a_random_legal_order():
    policy = _greedy_v1(SKIRMISH, lambda state, rng: ["fly R1 0202", "end"])
    text, reason = policy(skirmish(), "red")
    assert text == "end" and reason["rule"] == "end"
    only_bad = _greedy_v1(SKIRMISH, lambda state, rng: ["fly R1 0202"])
    with pytest.raises(practice.NoOrder):
        only_bad(skirmish(), "red")


def test_edition_1s_seed_reads_a_record_the_same_whatever_order_its_keys_were_written_in():
    # a position's lists are taken as sets, each ordered by its items as JSON with sorted keys: two records whose
    # keys were written in another order (a state folded from events, one read back from a snapshot) are one
    # position, and give one seed
    toy = SimpleNamespace(name="toy", encode_state=lambda state: state)
    written = {"state": {"markers": [{"side": "red", "at": "0101"}, {"side": "blue", "at": "0202"}]}}
    read_back = {"state": {"markers": [{"at": "0202", "side": "blue"}, {"at": "0101", "side": "red"}]}}
    assert practice_v1.position_seed(toy, written) == practice_v1.position_seed(toy, read_back)


def test_edition_1s_objectives_are_the_victory_hexes_it_holds_when_it_sees_nothing_else_to_reach():
    state = skirmish()
    alone = replace(state, village_holder="red",
                    units={uid: replace(u, hex=None) if u.side == "blue" else u for uid, u in state.units.items()})
    assert practice_v1.objectives(SKIRMISH, alone, "red") == ["0403"]


def test_edition_1s_greedy_rates_an_attack_by_the_column_its_preview_names():
    # a seat automated before seats recorded their settings (edition 1) re-decides as it was played: the skirmish
    # preview names its column by label ("2:1"), which edition 1 reads through the odds scale
    state = skirmish(R1="0602", R2="0603", B1="0702")
    for event in SKIRMISH.decide(state, SKIRMISH.parse("end", "red", state), RecordedDice(next_index=0, recorded=[])):
        state = SKIRMISH.evolve(state, event)
    assert practice.choose(SKIRMISH, "greedy", state, "red", settings={}) == ("attack 0703 with R1 R2", {
        "case": practice.GREEDY_CASE, "column": "2:1", "rule": "best odds attack",
        "summary": "greedy: the attack at the best odds column (2:1)"})


class OwnCandidates:
    """A rule set not on the engine's shape: no list of legal orders, only its own `candidates(state, rng)` (the
    shape before app/rules/legal.py), here skirmish's rules drawing from a fixed list."""

    def __init__(self, texts):
        self.texts = texts

    def __getattr__(self, member):
        if member in ("legal_orders", "orders_to_try", "policies"):
            raise AttributeError(member)
        return getattr(SKIRMISH, member)

    def candidates(self, state, rng):
        return list(self.texts)


def test_a_rule_set_with_only_its_own_candidates_is_played_by_greedy_and_random_from_them():
    rules = OwnCandidates(["fly R1 0202", "move R1 0304", "move R1 0202", "move R1 0202"])
    assert list(practice.policies(rules)) == ["greedy", "random"]  # no search: it plays from the legal list
    state = skirmish()
    text, reason = practice.choose(rules, "random", state, "red")
    assert text == "move R1 0202" and reason["case"] == practice.RANDOM_CASE  # the one legal candidate
    assert reason["summary"].endswith(" of 3, drawn with a seed from what red sees)")  # each candidate once
    text, reason = practice.choose(rules, "greedy", state, "red")  # nothing listed to rate
    assert text == "move R1 0202" and reason["summary"].startswith("greedy found nothing to rate: a random legal")
