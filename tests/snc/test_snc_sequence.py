"""SNC sequence of play (5.x) as a states table, the order language, victory (4.x) and fog of war (6.3)."""
import random

import pytest
from snc_given import RULES, ev, fold, given, of, position, then, when
from snc_randomplay import play

from app.rules.catalog import installed
from app.rules.errors import AmbiguousOrder, IllegalOrder, InvalidOrder
from app.service import audit

CATALOG = installed()  # the rule sets installed here


def names(state):
    return [a.name for a in RULES.prompt(state).actions]


def test_5_1_and_5_3_the_chinese_declare_first_then_each_phase_in_order_then_the_japanese():
    s = given()
    p = RULES.prompt(s)
    assert (p.side, names(s)) == ("chinese", ["declare"])
    s = then(s, "chinese", "declare move fight")
    assert (s.phase, s.mode(), names(s)) == ("ops1", "move", ["move", "end"])
    s = then(s, "chinese", "end")
    assert s.phase == "reinf"
    s = then(s, "chinese", "end")
    assert (s.phase, s.mode(), names(s)) == ("ops2", "fight", ["attack", "end"])
    s = then(s, "chinese", "end")
    assert (s.side, s.phase) == ("japanese", "declare")
    s = then(s, "japanese", "move/move")
    assert names(s) == ["move", "overrun", "end"]
    for _ in range(3):
        s = then(s, "japanese", "end")
    assert (s.turn, s.side, s.phase) == (2, "chinese", "declare")  # 5.2: the next GT


def test_5_3_one_declaration_per_player_turn_and_orders_out_of_turn_are_refused():
    s = then(given(), "chinese", "declare fight fight")
    with pytest.raises(IllegalOrder, match="SNC 5.3: one phase order declaration per player turn"):
        when(s, "chinese", "declare move move")
    with pytest.raises(IllegalOrder, match="SNC 5.1"):
        when(s, "japanese", "end")


def test_orders_parse_errors_quote_the_order():
    s = given()
    with pytest.raises(InvalidOrder, match="'declare sail fight'"):
        RULES.parse("declare sail fight", "chinese", s)
    with pytest.raises(InvalidOrder, match="no unit is called 'x99'"):
        RULES.parse("move x99 to 3410", "chinese", s)
    with pytest.raises(AmbiguousOrder, match="gar-a"):
        RULES.parse("lose gar-a", "chinese", s)
    c = RULES.parse("move 3411 to 3410 via 3410", "chinese", s)
    assert c.args["units"] == ["cn-d36", "cn-d88"] and c.args["to"] == "3410"
    c = RULES.parse("attack 3512 with d87, d36 support artillery", "chinese", s)
    assert c.args == {"hex": "3512", "units": ["cn-d87", "cn-d36"], "support": ["artillery"]}


def test_4_1_chinese_sudden_death_victory_by_taking_shanghai():
    s = position({"cn-d87": "3511", "jp-snlf-1": "3512"}, turn=3, side="chinese", steps={"jp-snlf-1": 1})
    s = then(s, "chinese", "attack 3512 with d87")
    assert s.pending[0]["kind"] == "defend"  # 11.4: the Japanese may add naval gunfire to the defence
    events = when(s, "japanese", "pass", rolls=[6])
    assert not of(events, ev.GameEnded)
    s = fold(s, *events)
    events = when(s, "chinese", "advance d87 to 3512")
    assert of(events, ev.GameEnded)[0].winner == "chinese"
    assert "SNC 4.1" in of(events, ev.GameEnded)[0].reason


def test_4_1_chinese_in_or_next_to_shanghai_on_gt_8_win():
    s = position({"cn-d7": "3411", "jp-snlf-1": "3512"}, turn=7, side="japanese", phase="ops2")
    events = when(s, "japanese", "end")
    assert of(events, ev.GameEnded)[0].winner == "chinese"
    # on GT 7 being next to 3512 wins nothing; on GT 8 a unit two hexes from it wins nothing
    s = position({"cn-d7": "3310", "cn-d58": "3412", "jp-snlf-1": "3512"}, turn=7, side="chinese",
                 plan=("move", "move"))
    assert not of(when(s, "chinese", "move d7 to 3311"), ev.GameEnded)
    s = position({"cn-d7": "3310", "jp-snlf-1": "3512"}, turn=7, side="japanese", phase="ops2")
    assert not of(when(s, "japanese", "end"), ev.GameEnded)


def test_4_2_no_chinese_unit_in_or_next_to_shanghai_through_gt_5_loses_at_once():
    s = position({"cn-d7": "3411", "jp-snlf-1": "3512"}, turn=5, side="chinese", plan=("move", "move"))
    events = when(s, "chinese", "move d7 to 3310")
    assert of(events, ev.GameEnded)[0].winner == "japanese"
    s = position({"cn-d7": "3411", "jp-snlf-1": "3512"}, turn=6, side="chinese", plan=("move", "move"))
    assert not of(when(s, "chinese", "move d7 to 3310"), ev.GameEnded)


def test_4_3_all_cities_japanese_win_at_the_victory_check_3513_counted_and_gt_12_chinese_win():
    cities = ("0202", "1102", "1824", "2410", "3512", "3611")
    s = position({"jp-snlf-1": "3512"}, turn=9, side="japanese", phase="ops2", control=cities)
    e = of(when(s, "japanese", "end"), ev.GameEnded)[0]
    assert e.winner == "japanese" and "all 7 city hexes" in e.reason
    s = position({"jp-snlf-1": "3512"}, turn=12, side="japanese", phase="ops2", control=cities[1:])
    e = of(when(s, "japanese", "end"), ev.GameEnded)[0]
    assert e.winner == "chinese" and "5 of 7" in e.reason
    s = position({"jp-snlf-1": "3512"}, turn=11, side="japanese", phase="ops2", control=cities[1:])
    assert not of(when(s, "japanese", "end"), ev.GameEnded)


def test_6_3_fog_of_war_only_the_top_unit_until_an_attack_on_the_stack_is_resolved():
    s = given()
    jv = RULES.view(s, "japanese")
    st = next(x for x in jv["stacks"] if x["hex"] == "3511")
    assert len(st["units"]) == 1 and st["hidden"] == 2
    own = next(x for x in RULES.view(s, "chinese")["stacks"] if x["hex"] == "3511")
    assert len(own["units"]) == 3
    full = next(x for x in RULES.view(s, None)["stacks"] if x["hex"] == "3511")
    assert len(full["units"]) == 3 and "off_map" in RULES.view(s, None)
    s = position({"jp-d3-r6": "3510", "cn-d87": "3511", "cn-d98": "3511", "cn-d57": "3612"}, turn=3)
    s = then(s, "japanese", "attack 3511 with d3-r6 support air")  # waiting for the Chinese air decision
    st = next(x for x in RULES.view(s, "japanese")["stacks"] if x["hex"] == "3511")
    assert len(st["units"]) == 2 and st["hidden"] == 0


@pytest.mark.parametrize(("units", "top"), [(("cn-d87", "cn-d98", "cn-gar-h"), "cn-d87"),
                                            (("cn-gar-h", "cn-d98"), "cn-d98")])
def test_6_4_ruling_e6_the_enemy_sees_the_strongest_unit_of_a_stack_on_top(units, top):
    s = position({"jp-d3-r6": "3510", **dict.fromkeys(units, "3511"), "cn-d57": "3612"}, turn=3)
    st = next(x for x in RULES.view(s, "japanese")["stacks"] if x["hex"] == "3511")
    assert [u["id"] for u in st["units"]] == [top] and st["hidden"] == len(units) - 1


@pytest.mark.slow  # random games played to their end
def test_5_0_random_legal_play_reaches_the_end_without_a_dead_end():
    import json

    for seed in range(3):
        state, accepted = play(random.Random(seed))
        assert RULES.outcome(state) is not None and accepted > 10
        # a whole game's state encodes to JSON and back unchanged (a snapshot is a cache: docs/architecture.md)
        assert RULES.decode_state(json.loads(json.dumps(RULES.encode_state(state)))) == state


@pytest.mark.slow  # a random game played to its end
def test_random_play_through_the_service_verifies_clean(real_games):
    """The session's game of random orders through the service (tests/conftest.py `real_games`: played once, to its
    end, with fixed dice; the replay's tests read it too) verifies clean."""
    _, events = real_games["snc"]
    report = audit.verify(CATALOG, events)
    assert report.ok and report.events == len(events), report.problems
    assert any(e.type.endswith(".GameEnded") for e in events)  # to its end


def test_10_3_preview_command_shows_odds_shifts_and_results_and_writes_nothing(tmp_path):
    from click.testing import CliRunner

    from cli import cli

    db = str(tmp_path / "p.sqlite3")
    runner = CliRunner()

    def run(*args):
        return runner.invoke(cli, ["--db", db, *args], catch_exceptions=False)

    game = run("new", "snc").output.strip().split()[-1]
    run("join", game, "--side", "chinese", "--name", "c")
    run("join", game, "--side", "japanese", "--name", "j")
    run("do", game, "--as", "chinese", "declare fight fight")
    before = run("log", game).output
    out = run("preview", game, "--as", "chinese", "attack 3512 with d87 d36 support artillery").output
    assert "raw odds" in out and "SNC 10.4.1: city" in out and "SNC 11.1" in out
    assert "SNC 6.3: 2 more unit(s) hidden" in out
    assert run("log", game).output == before


def test_12_0_demo_plays_the_determinate_opening_up_to_the_wusong_landing_roll(store):
    from app.projections import state as projection
    from app.service.demo import SNC_OPENING, play_demo

    game_id, played = play_demo(store, CATALOG)
    assert len(played) == len(SNC_OPENING)
    game = projection.load(store, CATALOG, game_id).game
    assert game.turn == 2 and game.units["jp-snlf-9"].hex == "3512"
    assert audit.verify(CATALOG, list(store.events(game_id))).ok


