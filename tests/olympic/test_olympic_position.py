"""Olympic custom positions (issue 18, docs/custom-positions.md "Operation Olympic"): a sandbox game starts at any
step of any Game-Turn from a position file, checked against the data with every problem named and nothing
written; the position travels in the first event, so the game plays to its end, replays, forks, exports and
verifies without the file, and the programmed Japanese play from it."""
import json
import random
import re
import tomllib
from pathlib import Path

import pytest

from app.events.store import EventStore
from app.mail.transport import MailConfig
from app.projections import state as projection
from app.rules.catalog import installed
from app.rules.custom_setup import MAX_ENTRIES, SetupError
from app.rules.kernel.hexgrid import Hex
from app.rules.olympic import GAME
from app.service import games
from app.web import create_app
from tests.olympic.test_olympic_fuzz import candidates

CATALOG = installed()  # the rule sets installed here


def docs_example(n: int = 0) -> str:
    text = Path("docs/custom-positions.md").read_text(encoding="utf-8")
    section = text[text.index("### Operation Olympic"):text.index("### Dai Senso")]
    return re.findall(r"```toml\n(.*?)```", section, re.S)[n]


def start(position: dict):
    return GAME.initial_state("solitaire", {"position": position})


def refusal(store, position: dict) -> str:
    with pytest.raises(games.GameError) as err:
        games.create_game(store, CATALOG, "olympic", options={"position": position})
    assert store.games() == []  # nothing written
    return str(err.value)


def test_the_documented_position_starts_where_it_says():
    state = start(tomllib.loads(docs_example()))
    assert (state.turn, state.step, state.casualty_points) == (9, "movement", 1400)
    assert state.beachheads == ("1442",) and state.invasion_turn == 2 and state.retreat_toward == "1442"
    assert {u.id: u.hex for u in state.on_map("american")} == {
        "us-2mar-2": "1442", "us-2mar-6": "1442", "us-2mar-8": "1442", "us-3mar-3": "1541", "us-3mar-9": "1541",
        "us-5mar-26": "1640", "us-5mar-27": "1640"}
    japanese = state.on_map("japanese")
    assert [u.id for u in japanese] == ["jp-109imb", "jp-206-1", "jp-206-3", "jp-77-1"]
    assert all(u.released for u in japanese)  # Game-Turn 9: released since Game-Turn 4's doctrine (14.3)
    assert state.units["jp-107imb"].status == "removed"  # a printed unit the position does not name
    assert state.units["us-3mar-21"].returns_on == 10 and state.units["us-3mar-21"].status == "eliminated"
    assert state.units["us-40-108"].status == "removed"
    assert "1541" in state.militia_destroyed  # Marines stand there: its militia is gone (R11)
    assert {"1442", "1443", "1540", "1541", "1640"} == set(state.american_control)
    assert GAME.prompt(state).side == "american" and "Game-Turn 9: American movement" in GAME.prompt(state).step
    assert [u.id for u in state.stack("1442")] == ["us-2mar-6", "us-2mar-2", "us-2mar-8"]  # [stacks]: top first
    assert state.units["jp-206-1"].strength == 4 and state.data.unit("jp-206-1").category == "4-4"  # [values]
    assert GAME.data({}).unit("jp-206-1").strength == 3  # the printed data is untouched


def test_an_impossible_position_is_refused_with_every_problem_named_and_nothing_written(store):
    problems = refusal(store, {
        "turn": 2, "phase": "placement", "steps": {"us-25-27": 1},
        "units": {"us-nobody": "3437", "us-25-27": "9999", "us-25-35": "3437", "us-25-161": "3437",
                  "us-33-123": "3437", "us-33-130": "3437", "jp-154-3": "3436", "us-11ab-187": "3335",
                  "us-41-162": "3000", "jp-154-1": "3333", "us-41-163": "3333"},
        "removed": ["us-33-136"], "returns": {"us-33-136": 4, "jp-154-2": 3, "us-1cav-5": 12},
        "released": ["us-25-35", "jp-154-2"], "due": ["jp-154-1"], "beachheads": ["3333", "2240", "3337"],
        "militia_destroyed": ["1842"], "casualty_points": 2500, "invasion_turn": 3, "retreat_toward": "3437",
        "control": {"american": ["3436"]}})
    for expected in (
            "'phase' on Game-Turn 2 is the step play starts at: one of movement, assault",  # GT 1 only
            "[steps]: an Olympic counter has no steps",
            "no unit 'us-nobody'",
            "us-25-27: 9999 is not on the map",
            "3437: 4 american units, over the stacking limit of 3 (ruling R14)",
            "jp-154-3: 3436 is a sea hex; Japanese units are on land",
            "us-41-162: 3000 is not on the map",
            "us-11ab-187 arrives on Game-Turn 3 (units.toml), not before",
            "3333 holds units of both sides",
            "us-33-136 is both returning and removed",
            "[returns] jp-154-2: only American units come back (8.8 note 6)",
            "[returns] us-1cav-5: the Game-Turn it comes back on is from 1 to 10, not 12",
            "released: us-25-35 is not a Japanese unit placed in [units]",
            "released: jp-154-2 is not a Japanese unit placed in [units]",
            "'due' is for a position at the japanese-movement step",
            "due: jp-154-1 is not a Japanese reinforcement still in the pool",
            "[control] 3436 is not a land hex of the map",
            "militia_destroyed: 1842 has no militia (ruling R11)",
            "beachheads: Japanese units hold 3333, which ends a beachhead (ruling R17)",
            "beachheads: 2240 is not a land hex next to an invasion zone hex (ruling R17)",
            "'casualty_points' is a number from 0 to 2499: at 2500 the game is over (ruling R20)",
            "'invasion_turn' is the Game-Turn of the second invasion, from 2 to 'turn' (ruling R17)",
            "'retreat_toward' is a land hex of the map (ruling R24), not '3437'"):
        assert expected in problems, (expected, problems)
    assert "3337" not in problems  # a beach no Japanese unit holds in this position is a beachhead


def _refused(position: dict) -> str:
    """The refusal of a position by the rules alone (the service's refusal carries the same text: `refusal`)."""
    with pytest.raises(SetupError) as err:
        start(position)
    return str(err.value)


def test_the_common_vocabulary_and_size_limits_hold_for_olympic_too(store):
    """Through the service once (nothing written, the rules' words reach the user), then by the rules alone."""
    assert "unknown key 'tokko'" in refusal(store, {"turn": 1, "phase": "tokko", "tokko": 3})
    assert "us-25-27 is both placed and removed" in _refused(
        {"turn": 2, "phase": "movement", "units": {"us-25-27": "3335"}, "removed": ["us-25-27"]})
    assert "'phase' on Game-Turn 2" in _refused({"turn": 2, "phase": "japanese-losses"})
    assert "phase 'losses' is an exchange's choice" in _refused({"turn": 2, "phase": "losses"})  # [exchange]
    assert "there is no American Forces Movement Phase on Game-Turn 1" in _refused(  # sequence A.1's note (R52)
        {"turn": 1, "phase": "movement"})
    too_many = _refused({"turn": 2, "phase": "movement", "released": ["jp-154-1"] * (MAX_ENTRIES + 1)})
    assert f"released: more than {MAX_ENTRIES} entries" in too_many
    assert "beachheads: 'Kagoshima' is not a hex label (XXYY)" in _refused(
        {"turn": 2, "phase": "movement", "beachheads": ["Kagoshima"]})
    assert "[returns] maps American unit ids" in _refused(
        {"turn": 2, "phase": "movement", "returns": {"us-25-27": "soon"}})


def test_the_rules_fill_in_what_follows_from_a_position():
    contact = start({"turn": 2, "phase": "doctrine", "units": {
        "us-25-27": "3334", "jp-154-1": "3333", "jp-154-3": "3337", "jp-r-2-8-1": "2020"}})
    released = {u.id: u.released for u in contact.on_map("japanese")}
    # next to an American unit (14.3 note); not yet (GT 2 before its doctrine); a reinforcement entered released
    assert released == {"jp-154-1": True, "jp-154-3": False, "jp-r-2-8-1": True}
    chosen = start({"turn": 3, "phase": "movement", "units": {"jp-154-3": "3337"}, "released": ["jp-154-3"]})
    assert chosen.units["jp-154-3"].released
    turn4 = start({"turn": 4, "phase": "japanese-movement", "units": {"jp-154-3": "3337"}})
    assert turn4.units["jp-154-3"].released  # Game-Turn 4's doctrine released every unit (14.3)


@pytest.mark.slow  # a game played to its end through the CLI
def test_a_sandbox_game_from_a_position_file_plays_to_its_end_through_the_cli_and_audits_without_the_file(
        run, tmp_path):
    path = tmp_path / "kagoshima.toml"
    path.write_text(docs_example(), encoding="utf-8")
    game = run("new", "olympic", "--position", str(path)).output.strip()
    path.unlink()  # the game needs the file no more: the position is in its first event
    run("join", game, "--side", "american", "--name", "a@example.org", "--seed", "Satsuma")
    first = json.loads(run("log", game, "--json").output)[0]
    assert first["type"] == "core.GameCreated"
    shown = json.loads(run("show", game, "--json").output)
    assert shown["to_act"] == "american" and "Game-Turn 9" in shown["step"]
    store = EventStore(run.db)
    rng = random.Random(9)
    try:
        for _ in range(300):
            shown = json.loads(run("show", game, "--json").output)
            if shown["outcome"]:
                break
            assert shown["to_act"] == "american"  # the Japanese seat answers within each order
            run("do", game, "--as", "american", next(candidates(projection.load(store, CATALOG, game).game, rng)))
    finally:
        store.close()
    reason = shown["outcome"]["reason"]
    assert re.match(r"(American|Japanese) (decisive|substantive|marginal) victory", reason), reason
    log = run("log", game).output
    assert "Game-Turn 10" in log or "reach 2500" in reason  # played on from Game-Turn 9 to the end
    assert "doctrine track" in log and "auto:japanese" in json.dumps(json.loads(run("log", game, "--json").output))
    verified = run("verify", game, "--dice")
    assert "chain intact" in verified.output and re.search(r"dice: [1-9]\d* rolls recomputed", verified.output)
    exported = tmp_path / "sandbox.jsonl"
    run("export", game, "-o", str(exported))
    assert "chain intact" in run("verify", str(exported), "--dice").output
    fork = run("fork", game, "--at", "3").output.strip()
    assert json.loads(run("state", fork, "--json").output)["turn"] == 9


def test_the_programmed_japanese_play_from_a_position_at_their_own_step(run, tmp_path):
    """A position at the Japanese movement step with two reinforcements due: the automated seat enters them
    and moves, giving its reasons, as soon as the American player has joined."""
    position = tmp_path / "due.toml"
    position.write_text('turn = 5\nphase = "japanese-movement"\ndue = ["jp-r-2-8-1", "jp-r-1tkd"]\n'
                        'beachheads = ["3335"]\n[units]\n"us-25-27" = "3335"\n"us-25-35" = "3334"\n'
                        '"jp-154-1" = "3333"\n"jp-156-3" = "3135"\n', encoding="utf-8")
    game = run("new", "olympic", "--position", str(position)).output.strip()
    joined = run("join", game, "--side", "american", "--name", "a@example.org").output
    assert "enters at" in joined and "entry" in joined  # R12: the entry hex, with the distances
    shown = json.loads(run("show", game, "--json").output)
    assert shown["outcome"] or (shown["to_act"] == "american" and "Game-Turn 6" in shown["step"])
    assert "chain intact" in run("verify", game).output


def test_post_games_takes_an_olympic_position(tmp_path):
    app = create_app({"OPEN_GAME_CREATION": True, "HEXLEDGER_DB": str(tmp_path / "api.sqlite3"), "MAIL": MailConfig(),
                      "MAIL_TRANSPORT": type("Box", (), {"send": lambda self, m: None})()})
    client = app.test_client()
    position = tomllib.loads(docs_example())
    r = client.post("/games", json={"rules": "olympic", "position": position,
                                    "players": {"american": "a@x.example"}})
    assert r.status_code == 201, r.json
    token = {"Authorization": f"Bearer {r.json['tokens']['american']}"}
    view = client.get(f"/games/{r.json['game_id']}/state", headers=token).json["view"]
    assert view["turn"] == 9 and view["casualty_points"] == 1400 and view["beachheads"] == ["1442"]
    bad = client.post("/games", json={"rules": "olympic", "position": {**position, "casualty_points": -1},
                                      "players": {"american": "a@x.example"}})
    assert bad.status_code == 400 and "'casualty_points'" in bad.json["message"]
    assert len(EventStore(str(tmp_path / "api.sqlite3")).games()) == 1


def test_a_position_is_read_against_the_custom_map_it_comes_with(run, tmp_path):
    printed = Path("app/rules/olympic/data/map.toml").read_text(encoding="utf-8")
    position = tmp_path / "kagoshima.toml"
    position.write_text(docs_example(), encoding="utf-8")
    flooded = tmp_path / "flooded.toml"
    flooded.write_text(printed + '\n[terrain.override]\n"1640" = "sea"\n', encoding="utf-8")
    refused = run("new", "olympic", "--map", str(flooded), "--position", str(position), ok=False)
    assert refused.exit_code == 1 and "us-5mar-26: 1640 is not an invasion zone hex" in refused.output
    assert run("list").output.strip() == "no games yet"  # nothing written
    cleared = tmp_path / "cleared.toml"
    cleared.write_text(printed + '\n[terrain.override]\n"1541" = "clear"\n', encoding="utf-8")  # no town, no militia
    game = run("new", "olympic", "--map", str(cleared), "--position", str(position)).output.strip()
    state = json.loads(run("state", game, "--json").output)
    assert state["turn"] == 9 and state["militia_destroyed"] == []


def _japanese_attack_from(position: dict) -> str:
    [order] = GAME.legal_orders(start(position), "japanese")
    return order["order"]


def test_ruling_r1_a_position_stacks_in_units_toml_order_the_last_on_top_and_8_52_attacks_the_top_first():
    # two 4-12s in 3235 next to a 4-4: equal strengths, so 8.52 attacks the top of the stack first
    stack = {"turn": 2, "phase": "japanese-combat", "released": ["jp-154-1"],
             "units": {"jp-154-1": "3135", "us-25-35": "3235", "us-25-27": "3235"}}
    state = start(stack)
    assert [u.id for u in state.stack("3235")] == ["us-25-35", "us-25-27"]  # us-25-35 is listed after us-25-27
    assert _japanese_attack_from(stack) == "jattack jp-154-1 on us-25-35"


def test_ruling_r1_stacks_in_a_position_list_a_hex_from_the_bottom_up():
    stack = {"turn": 2, "phase": "japanese-combat", "released": ["jp-154-1"],
             "units": {"jp-154-1": "3135", "us-25-27": "3235", "us-25-35": "3235", "us-25-161": "3235"},
             "stacks": {"3235": ["us-25-161", "us-25-35", "us-25-27"]}}
    assert [u.id for u in start(stack).stack("3235")] == ["us-25-27", "us-25-35", "us-25-161"]
    assert _japanese_attack_from(stack) == "jattack jp-154-1 on us-25-27"


def test_a_stack_that_does_not_list_the_units_placed_in_its_hex_is_refused(store):
    problems = refusal(store, {"turn": 2, "phase": "combat", "units": {"us-25-27": "3235", "us-25-35": "3235"},
                               "stacks": {"3235": ["us-25-27"], "3236": "us-25-35"}})
    assert "[stacks] maps a hex to the units placed there, listed from the bottom up (the last on top, ruling R1)" \
        in problems and problems.startswith("cannot start olympic: position: ")
    problems = refusal(store, {"turn": 2, "phase": "combat", "units": {"us-25-27": "3235", "us-25-35": "3235"},
                               "stacks": {"3235": ["us-25-27"]}})
    assert "[stacks] 3235 lists us-25-27; [units] places us-25-27, us-25-35 there" in problems


def test_r32_a_position_in_the_middle_of_a_step_says_what_was_done_in_it(store):
    midway = tomllib.loads(docs_example(1))
    state = start(midway)
    assert state.units["us-25-27"].attacked and state.attacked_hexes == ("3236",)
    offered = {o["order"] for o in GAME.legal_orders(state, "american")}
    assert not any(o.startswith("attack 3236") for o in offered)  # a hex is attacked once a phase (8.8)
    assert not any("25-27" in o for o in offered if o.startswith("attack"))  # a unit attacks once a phase
    assert any(o.startswith("attack 3136 with us-25-35") for o in offered)
    japanese = start(tomllib.loads(docs_example(2)))
    assert japanese.units["us-25-27"].defended and japanese.units["jp-86-1"].attacked
    assert [o["order"] for o in GAME.legal_orders(japanese, "japanese")] == ["end"]  # 8.52: both done already
    fresh = start({**tomllib.loads(docs_example(2)), "defended": [], "attacked": []})
    assert [o["order"] for o in GAME.legal_orders(fresh, "japanese")] != ["end"]
    problems = refusal(store, {**midway, "phase": "reinforcement", "moved": ["jp-154-1"]})
    assert "attacked: belongs to the step it happened in" in problems and "moved: belongs to the step" in problems
    problems = refusal(store, {**midway, "attacked_hexes": []})
    assert "the hex the units attacked is in attacked_hexes" in problems
    assert "defended: jp-154-1 is not an American unit placed in [units]" in refusal(
        store, {**midway, "phase": "japanese-combat", "defended": ["jp-154-1"], "attacked": [], "attacked_hexes": []})


def test_r43_a_position_may_hold_a_unit_next_to_an_american_unit_no_american_moved_next_to(store):
    """Ruling R43 (14.3 note, rules version 8): only an American unit entering a hex next to a Japanese unit releases
    it, so a position may name such a unit in `held` (one that retreated next to an American unit standing still);
    the other units there are released as before, and a game created under version 7 refuses the key."""
    position = {"turn": 2, "phase": "doctrine", "held": ["jp-154-1"],
                "units": {"us-25-27": "3334", "jp-154-1": "3333", "jp-154-3": "3337"}}
    held = start(position)
    assert not held.units["jp-154-1"].released
    assert start({**position, "held": []}).units["jp-154-1"].released  # contact releases it otherwise
    assert "held: jp-154-3 is next to no American unit" in refusal(store, {**position, "held": ["jp-154-3"]})
    assert "held: jp-154-1 is also named in 'released'" in refusal(
        store, {**position, "released": ["jp-154-1"]})
    assert "held: us-25-27 is not a Japanese unit placed in [units]" in refusal(
        store, {**position, "held": ["us-25-27"]})
    with pytest.raises(SetupError, match="ruling R43 came with version 8"):
        GAME.initial_state("solitaire", {"position": position}, "7")


def test_8_9_a_position_inside_an_exchange_plays_the_american_choice_through_the_service(store):
    """Issue 30 (positions): 8.9's exchange, defenders gone and the American player to choose the attackers lost, can
    be written in a position file (`phase = "losses"`, `[exchange]`); played through the service, the choice is
    held to rulings R25 and R40 (none the 4 + 3 owed does not need) and the survivor advances (R38)."""
    from tests.served import Served

    game = Served(store, "olympic", tomllib.loads(docs_example(3)), ("american",))  # the Japanese seat is automated
    assert game.state().game.pending[0]["required"] == 7  # the 154th's 4 and Miyazaki's militia unmodified, 3
    assert game.refused("american", "lose 25-27").startswith("Olympic 8.9: ")  # 4 of the 7 owed
    assert game.refused("american", "lose 25-27 25-35 25-161").startswith("Olympic 8.9: ")  # one is not needed
    events = game.do("american", "lose 25-27 25-35")
    assert [e.payload["unit"] for e in events if e.type == "olympic.UnitEliminated"] == ["us-25-27", "us-25-35"]
    after_it = game.state().game
    assert after_it.casualty_points == 30  # 10 for each of the three American units in the combat (note 4)
    assert [u.id for u in after_it.stack("3236")] == ["us-25-161"] and after_it.step == "combat"


def test_8_9_the_exchange_a_position_states_is_the_one_the_attack_leaves():
    """The position inside the exchange is the state the attack itself leaves: Miyazaki's militia tripled (track 4
    die 1: 12 against 4 + 9, -1) and a 6, Ex."""
    from olympic_given import after, when

    inside = tomllib.loads(docs_example(3))
    before = start({"turn": 2, "phase": "combat", "beachheads": ["3336"],
                    "units": {**inside["units"], "jp-154-1": "3236"}})
    attacked = after(before, when(before, "american", "attack 3236 with 25-27 25-35 25-161 advance 25-161",
                                  rolls=[1, 6]))
    stated = start(inside)
    assert stated.pending == attacked.pending and stated.step == attacked.step == "combat"
    assert (stated.militia_destroyed, stated.attacked_hexes) == (attacked.militia_destroyed, attacked.attacked_hexes)
    assert when(stated, "american", "lose 25-27 25-35") == when(attacked, "american", "lose 25-27 25-35")


def test_an_exchange_position_that_leaves_no_choice_or_does_not_fit_is_refused(store):
    inside = tomllib.loads(docs_example(3))
    exchange = inside["exchange"]
    assert "[exchange] is for a position at phase 'losses' (8.9), not 'combat'" in refusal(
        store, {**inside, "phase": "combat"})
    assert "the attackers' loss is not a choice here (ruling R25)" in refusal(
        store, {**inside, "exchange": {**exchange, "attackers": ["us-25-27"], "advance": []}})
    problems = refusal(store, {**inside, "exchange": {**exchange, "defenders": ["us-25-27"], "attack": "assault",
                                                      "advance": ["us-2mar-2"]}})
    assert "[exchange] defenders: us-25-27 is not a Japanese unit" in problems
    assert "[exchange] attackers: us-25-35 in 3137 is ashore: only units at sea make amphibious assaults" in problems
    assert "[exchange] advance: only attacking units advance (8.9)" in problems
    assert "phase 'losses' is an exchange's choice" in refusal(store, {k: v for k, v in inside.items()
                                                                       if k != "exchange"})


TINY_MAP = """
[map]
name = "A beach and its hinterland"
parity = "even-low"
cols = [1, 6]
rows = [1, 6]

[vocabulary]
terrain = ["clear", "rough", "town", "city", "sea"]
hexside = ["all-sea"]
tags = ["zone-miyazaki"]

[terrain]
default = "clear"
sea = ["0501..0506", "0601..0606"]
city = ["0203"]

[names]
"0203" = "Kagoshima"

[tags]
zone-miyazaki = ["0503", "0504"]
"""


def test_ruling_r46_a_custom_map_is_taken_with_the_invasion_zones_and_tags_it_states(store):
    """Issue 30 (positions): a teacher's map of one beach, with one invasion zone, no Objective Line and no entry
    hexes, is taken as it states itself; the Tokko's zone die that names a zone the map does not have is rolled
    again as for any zone without American units (14.4), and the strike goes on in the zone the map has."""
    from olympic_given import of, when

    from app.rules.olympic.events import TokkoLosses

    first = [u.id for u in GAME.data().american(1)]
    position = {"turn": 1, "phase": "tokko", "removed": first[6:],
                "units": {**dict.fromkeys(first[:3], "0503"), **dict.fromkeys(first[3:6], "0504"), "jp-154-1": "0303"}}
    games.create_game(store, CATALOG, "olympic", options={"map": TINY_MAP, "position": position})  # not refused
    state = GAME.initial_state("solitaire", {"map": TINY_MAP, "position": position})
    events = when(state, "japanese", "tokko", rolls=[1, 2, 1, 2])  # table #3: 200 points; Tsuno (not on it), Miyazaki
    losses = of(events, TokkoLosses)
    assert [(e.zone, e.hex) for e in losses] == [("miyazaki", "0504"), ("miyazaki", "0503")]
    assert losses[0].reason["rerolled"] == [{"zone": "tsuno", "why": "zone-empty"}]
    assert not state.data.is_southern(Hex.parse("0303"))  # no Objective Line on it: nothing is south (R9)
    slip = TINY_MAP.replace('tags = ["zone-miyazaki"]', 'tags = ["zone-miyazaki", "zone-tsuno", "jp-entry"]')
    with pytest.raises(games.GameError) as err:  # a zone or tag the map declares and gives no hex is a slip
        games.create_game(store, CATALOG, "olympic", options={"map": slip, "position": position})
    assert "invasion zone 'tsuno' has no hex tagged 'zone-tsuno'" in str(err.value)
    assert "no map hex is tagged 'jp-entry'" in str(err.value)


def test_ruling_r47_a_position_gives_a_town_a_militia_of_3_which_doubled_defends_at_6_oo_10(store):
    """OO-10 (14.3 track 4) on a hex the position gives its militia: Tsuma (a Town, militia 1) with a militia of 3,
    doubled by the track 4 die (2), defends at 6 beside the 2-4 there; the exchange of the 8.9 case pays it
    unmodified; Miyazaki's militia taken away (0) leaves the city open to an American move."""
    from olympic_given import of, when

    from app.rules.olympic.events import CombatResolved, DecisionRequired

    what_if = tomllib.loads(docs_example(4))
    problems = refusal(store, {**what_if, "militia": {"3437": 2, "3232": -1}})
    assert "[militia] '3437' is not a land hex of the map (ruling R47)" in problems
    assert "[militia] 3232: an intrinsic militia strength is a whole number from 0 to 99, not -1" in problems
    games.create_game(store, CATALOG, "olympic", options={"position": what_if})  # the service takes it
    state = start(what_if)
    assert (state.militia_intact("3232"), state.militia_intact("3236")) == (3, 0)
    [combat] = of(when(state, "american", "attack 3232 with 25-27 25-35", rolls=[2, 5]), CombatResolved)
    assert (combat.militia, combat.militia_factor, combat.defence, combat.differential) == (3, "2", "8", 0)
    [owed] = of(when(state, "american", "attack 3232 with 25-27 25-35", rolls=[3, 6]), DecisionRequired)
    assert owed.data["required"] == 2 + 3  # the 2-4 and the militia unmodified (8.9)
    assert "3236" not in state.intact_militia()
