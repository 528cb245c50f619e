"""Formosa fog of war (11.0, 11.1, ruling F7; plan section 4): concealed Japanese units and deception units are
"?" counters to the Allied player in the view, in the history and in every channel of a game played through the
service; the Allied displays are hidden from the Japanese player except the Eliminated and Replacements
Displays."""
from __future__ import annotations

import random
import re
from dataclasses import replace

import pytest
from formosa_given import after, given, play, when
from formosa_map import ring
from formosa_randomplay import candidates, invader

from app.events import core
from app.events.registry import decode
from app.projections import analysis, replay
from app.rules.base import played_under
from app.rules.catalog import installed
from app.rules.formosa import GAME
from app.rules.formosa.events import (
    CombatResolved,
    SetupRolled,
    SpecialLanding,
    UnitEliminated,
    UnitPlaced,
    UnitRevealed,
)
from app.service import audit
from tests.fogcheck import check_every_channel, played_through_service
from tests.fuzzing import play as fuzz

CATALOG = installed()  # the rule sets installed here

X, AROUND = ring("open")
ALL_IDS = sorted(GAME.initial_state("1", {}).units)


def named(text: str) -> set[str]:
    return set(ALL_IDS).intersection(re.findall(r"[\w-]+", text))


def ids(view: dict) -> set[str]:
    return {u["id"] for u in view["units"]}


def test_11_1_a_concealed_unit_and_a_deception_unit_show_alike_to_the_allies():
    state = given(step="allied-movement", turn=1, units={"jp-9-7": X, "jp-deception-1": AROUND[3],
                                                        "us-7-17": AROUND[0]},
                  concealed=("jp-9-7", "jp-deception-1"))
    seen = GAME.view(state, "allied")
    shown = [u for u in seen["units"] if u["side"] == "japanese"]
    assert {frozenset(u) for u in shown} == {frozenset({"id", "side", "hex", "where", "concealed", "mf", "strength",
                                                         "steps", "factors"})}
    assert {u["mf"] for u in shown} == {7} and {u["factors"] for u in shown} == {"?-7"}
    assert not ids(seen) & {"jp-9-7", "jp-deception-1"}
    assert {"jp-9-7", "jp-deception-1"} <= ids(GAME.view(state, "japanese"))


def test_11_0_each_side_sees_only_its_own_displays_and_the_public_allied_ones_f7():
    state = given(step="allied-movement", turn=1, units={
        "us-7-17": "allied-staging", "us-7-32": "allied-eliminated", "us-7-184": "allied-replacements",
        "jp-9-7": "japanese-replacements", "jp-9-19": X})
    japanese = ids(GAME.view(state, "japanese"))
    assert "us-7-17" not in japanese and {"us-7-32", "us-7-184"} <= japanese
    allied = GAME.view(state, "allied")
    assert "jp-9-7" not in ids(allied) and "jp-9-19" in ids(allied)  # revealed on the map: examined (11.0)
    assert "kamikaze" not in allied["air"] and "japanese-tac" not in allied["air"]
    order = core.OrderGiven(side="japanese", text=f"move jp-9-7 {X}", command={})  # a unit the Allies never examine
    assert GAME.visible(order, "allied") == "japanese orders: move (details hidden, Formosa 11.0, 11.1)"
    assert GAME.visible(order, "japanese") is True


def test_11_2_revealing_names_the_unit_and_a_deception_unit_is_removed_unnamed():
    state = given(step="japanese-movement", turn=1, units={"jp-9-7": X, "jp-deception-1": AROUND[3]},
                  concealed=("jp-9-7", "jp-deception-1"))
    [e] = [x for x in when(state, "japanese", "reveal jp-deception-1") if isinstance(x, UnitRevealed)]
    assert e.deception and "jp-" not in GAME.visible(e, "allied")
    after = play(state, "japanese", "reveal jp-deception-1")
    assert after.units["jp-deception-1"].where == "out" and not [u for u in GAME.view(after, "allied")["units"]
                                                                  if u["hex"] == AROUND[3]]


def test_11_1_the_allies_never_read_a_japanese_set_up_in_the_history_or_an_order():
    placed = UnitPlaced("jp-9-7", X, True)
    assert named(str(GAME.visible(placed, "allied"))) == set()
    assert GAME.visible(placed, "japanese") is True


def test_f100_the_set_up_rolls_are_open_but_the_japanese_air_displays_are_not():
    start = GAME.initial_state("1", {})
    events = when(start, "japanese", "roll", rolls=(3, 2, 4))
    [rolled] = [e for e in events if isinstance(e, SetupRolled)]
    assert GAME.visible(rolled, "allied") is True  # rolled at the table (24.1): the Allies read every figure
    assert (rolled.lp, rolled.tac, rolled.kamikaze) == (3 + 15, 2 + 3, 4)  # 24.1: 1d6 + 15, 1d6 + 3, 1d6
    allied = GAME.view(after(start, events), "allied")
    assert allied["lp"]["japanese"] == rolled.lp  # the LP track is public
    assert not {"kamikaze", "japanese-tac"} & set(allied["air"])  # the display is not examined (11.0)
    assert GAME.view(after(start, events), "japanese")["air"]["kamikaze"] == rolled.kamikaze


def test_11_2_units_in_an_enemy_zoc_are_revealed_at_the_start_of_a_combat_phase():
    state = given(step="allied-movement", turn=1, units={"jp-9-7": X, "jp-9-19": "1320", "us-7-17": AROUND[0]},
                  concealed=("jp-9-7", "jp-9-19"))
    state = play(state, "allied", "end")
    assert state.step == "allied-combat"
    assert not state.units["jp-9-7"].concealed and state.units["jp-9-19"].concealed


def test_preview_and_refusals_say_nothing_a_concealed_unit_would_tell():
    state = given(step="allied-movement", turn=1, units={"jp-9-7": X, "us-7-17": AROUND[0]}, concealed=("jp-9-7",))
    with pytest.raises(Exception) as err:
        when(state, "allied", f"move us-7-17 {X}")
    assert not named(str(err.value)) - {"us-7-17"}


EMAILS = {"japanese": "j@x.example", "allied": "a@x.example"}


ALL_RULES = {"optional": [f"25.{n}" for n in range(1, 11)]}


WALKS = {"1": ({}, 0), "2": (ALL_RULES, 1)}  # scenario: (options, walk seeding the random orders)


@pytest.fixture(scope="module")
def through_service(tmp_path_factory):
    """Each scenario's game of 110 random orders through the service (options and walk from WALKS), played once
    for the tests here that only read it: the fog check and the analysis."""
    played = {}

    def game(scenario):
        if scenario not in played:
            options, walk = WALKS[scenario]
            played[scenario] = played_through_service(
                str(tmp_path_factory.mktemp("fog") / "fog.sqlite3"), "formosa", EMAILS, f"g-formosa-fog{scenario}",
                lambda submit: fuzz(GAME, invader, random.Random(walk), 110, "unused", submit=submit,
                                    state=GAME.initial_state(scenario, options)), scenario=scenario, options=options)
        return played[scenario]

    yield game
    for pbem, *_ in played.values():
        pbem.store.close()


@pytest.mark.slow  # a game of random orders through the service, every channel checked
@pytest.mark.parametrize("scenario", ["1", "2"])
def test_11_0_no_channel_names_a_unit_the_reading_side_could_not_see(through_service, scenario):
    """Both scenarios, the second with every optional rule (25.0): the fog and the audit hold. The walk seeds the
    random orders: a walk that moves, places and chooses units on both sides (scenario 2's walk 0 moved no
    unit the Allies read in 110 orders once rules 16 listed more landings and interdictions)."""
    pbem, game_id, outbox, (state, accepted) = through_service(scenario)
    assert GAME.outcome(state) is None and accepted == 110
    checked = check_every_channel(pbem, game_id, named, outbox)
    for kind in ("UnitPlaced", "UnitMoved", "OrderGiven", "UnitsChosen"):
        assert ("allied", kind) in checked and ("japanese", kind) in checked, kind
    report = audit.verify(CATALOG, list(pbem.store.events(game_id)), check_dice=True)
    assert report.ok and report.orders_replayed == accepted, report.problems[:3]  # the seed stays secret


@pytest.mark.slow  # reads scenario 2's game of random orders through the service
def test_analysis_counts_losses_and_attacks_and_the_email_names_the_optional_rules(through_service):
    """Formosa in the replay viewer, the analysis and the turn email, of the game created with every optional rule:
    each side's loss chart counts the units its history tells it were eliminated, the odds taken are the attacks
    made, and the turn email names the optional rules in play (25.0)."""
    pbem, game_id, outbox, _ = through_service("2")
    events = [decode(e.type, e.version, e.payload) for e in pbem.store.events(game_id)]
    attacks = [e for e in events if isinstance(e, CombatResolved)]
    assert attacks, "the random game fought"
    lost = {"allied": 0, "japanese": 0}
    for e in events:
        if isinstance(e, UnitEliminated) and e.to != "out":
            lost["japanese" if e.unit.startswith("jp-") else "allied"] += 1
        if isinstance(e, SpecialLanding) and "eliminated" in e.result:
            lost["japanese"] += 1
    assert sum(lost.values()) > 0
    for viewer in (replay.ALL, "allied", "japanese"):
        built = replay.build(pbem.store, CATALOG, game_id, viewer)
        result = analysis.analyse(built)
        assert {s: sum(v.values()) for s, v in result["step_losses"].items()} == lost  # public counts (F7)
        for side in ("allied", "japanese"):
            assert sum(result["odds"]["by_side"][side].values()) == sum(1 for a in attacks if a.attacker == side)
        assert result["luck"]["allied"]["attacks"] + result["luck"]["japanese"]["attacks"] == len(attacks)
        assert built.frames[-1].view["optional_rules"] == ALL_RULES["optional"]
    turns = [m.get_body(("plain",)).get_content() for m in outbox.sent]
    turns = [body for body in turns if "optional_rules:" in body]
    assert len(turns) > 10 and all(f"optional_rules: {' '.join(ALL_RULES['optional'])}" in body for body in turns)


@pytest.mark.slow  # random games played to their end
@pytest.mark.parametrize("scenario,seed,options", [("1", 3, {}), ("2", 2, {}), ("1", 5, ALL_RULES),
                                                   ("2", 6, ALL_RULES)])
def test_random_games_of_both_scenarios_end_without_dead_ends(scenario, seed, options):
    # scenario 1's seed 3 plays its 13 GTs to 4.2 as seed 0 did, in 382 orders instead of 421 (rules version 21)
    final, accepted = fuzz(GAME, candidates, random.Random(seed), 5000, f"seed {seed}",
                           state=GAME.initial_state(scenario, options))
    assert GAME.outcome(final) is not None and accepted > 30
    assert "(Formosa 4." in final.reason


def _beyond() -> tuple[str, str]:
    """A hex next to X and a land hex next to it two hexes from X, with no hexside feature between."""
    from formosa_map import D, M

    from app.rules.kernel.hexgrid import Hex

    return next((a, str(n)) for a in AROUND for n in sorted(M.neighbours(Hex.parse(a)))
                if D.is_land(n) and M.distance(n, Hex.parse(X)) == 2 and not M.hexside_features(Hex.parse(a), n))


def test_f89_no_attack_or_preview_totals_a_concealed_unit_an_advance_brought_an_allied_unit_next_to():
    """11.2 item 1 reveals at the start of a Combat Phase only: a unit an advance puts next to a concealed one
    cannot attack it (15.8.1), and no preview, in turn or out of it, shows the concealed unit's strength."""
    from app.rules import legal
    from app.rules.base import Command
    from app.rules.errors import IllegalOrder

    near, start = _beyond()
    state = given(step="allied-combat", turn=1, units={"jp-9-7": X, "jp-guard-1": near, "us-7-17": start,
                                                       "us-7-32": start}, concealed=("jp-9-7",), naval={})
    order = f"attack {near} with us-7-17 us-7-32"
    die = next(d for d in range(1, 7) if any(getattr(e, "code", "") == "D1" for e in when(state, "allied", order,
                                                                                           [d, 1])))
    state = play(state, "allied", order, [die])
    state = play(state, "allied", f"advance us-7-17 us-7-32 to {near}")
    assert state.units["jp-9-7"].concealed and X in state.zoc_of("allied")  # next to it now, still concealed
    for text in (f"attack {X} with us-7-17", f"attack {X} with us-7-17 us-7-32"):
        with pytest.raises(IllegalOrder) as err:
            when(state, "allied", text)
        assert not named(str(err.value)) - {"us-7-17", "us-7-32"}
        command = GAME.parse(text, "allied", state)
        with pytest.raises(IllegalOrder) as err:
            legal.preview(GAME, state, Command("allied", command.action, command.args))
        assert not named(str(err.value)) - {"us-7-17", "us-7-32"}
    planning = given(step="allied-movement", turn=1, units={"jp-9-7": X, "us-7-17": AROUND[0]}, concealed=("jp-9-7",))
    command = GAME.parse(f"attack {X} with us-7-17", "allied", planning)
    with pytest.raises(IllegalOrder) as err:  # out of turn, for planning: the position as it stands
        legal.preview(GAME, planning, Command("allied", command.action, command.args))
    assert err.value.case == "Formosa 11.2 item 1, ruling F89" and not named(str(err.value)) - {"us-7-17"}
    revealed = play(planning, "allied", "end")  # the Combat Phase reveals it: now the preview may total it
    assert legal.preview(GAME, revealed, Command("allied", "attack", command.args))["defence"] == 4


def test_f129_the_japanese_view_names_no_allied_recruit_still_to_deploy():
    """An Allied recruit waits in the Staging Area to be deployed (8.1): hidden from the Japanese there (11.0), so
    their view's units still to deploy do not name it (rules version 15); a game created under 14 shows its list."""
    state = replace(given(step="recruit-allied", turn=3, units={"us-77-305": "allied-staging", "jp-9-7": X}),
                    to_place=("us-77-305",))
    japanese, allied = GAME.view(state, "japanese"), GAME.view(state, "allied")
    assert japanese["to_place"] == [] and "us-77-305" not in named(str(japanese))
    assert allied["to_place"] == 1 and "us-77-305" in ids(allied)
    assert GAME.view(played_under(GAME, state, "14"), "japanese")["to_place"] == ["us-77-305"]  # as played
