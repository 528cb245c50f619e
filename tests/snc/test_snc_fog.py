"""SNC 6.3 fog of war in every per-side history line and pre-end export row, checked generically against view():
a line shown to a side may name a unit only if that side's view showed it just before or just after the event.
Over a fuzzed game played through the service, the same holds for every channel (tests/fogcheck.py), and each
side's loss chart counts every loss its history tells it."""
import json
import random
from unittest import mock

import pytest
from snc_fogcheck import named, seen
from snc_given import position
from snc_randomplay import play

from app.events import core, dice
from app.events.dice import SeededDice
from app.events.registry import decode
from app.events.store import EventStore
from app.mail.transport import MailConfig
from app.projections import analysis, history, replay
from app.projections import state as projection
from app.rules.catalog import installed
from app.rules.snc import GAME as RULES
from app.service import games
from app.service.application import ARBITER, Application, Seat
from tests.fogcheck import check_every_channel, played_through_service
from tests.outbox import Outbox

CATALOG = installed()  # the rule sets installed here

pytestmark = pytest.mark.slow  # fuzzed games through the service, every channel checked

SIDES = ("chinese", "japanese")


def check_fog(store, game_id: str) -> set[tuple[str, str]]:
    """Fold the stream; for each side, every history line and export row names only units its view showed.
    Returns the (side, event type) pairs whose history lines were checked."""
    events = list(store.events(game_id))
    rows = {s: {r["seq"]: r for r in history.lines(RULES, events, side=s)} for s in SIDES}
    pbem = Application(store, MailConfig(orders_address="orders@x.example"), Outbox())
    exports = {}
    for s in SIDES:
        lines, whole = pbem.reads.export(Seat(game_id, s, f"{s}@x"))
        exports[s] = {} if whole else {r["seq"]: r for r in map(json.loads, lines[1:])}
    state = RULES.initial_state("campaign", {})
    checked = set()
    for e in events:
        body = decode(e.type, e.version, e.payload)
        before = state
        if e.type.startswith("snc."):
            state = RULES.evolve(state, body)
        for s in SIDES:
            may = seen(RULES.view(before, s)) | seen(RULES.view(state, s))
            if e.seq in rows[s]:
                leaked = named(rows[s][e.seq]["text"]) - may
                assert not leaked, f"{s} history line {e.seq} names hidden {leaked}: {rows[s][e.seq]['text']}"
                checked.add((s, e.type))
            if e.seq in exports[s]:
                leaked = named(json.dumps(exports[s][e.seq])) - may
                assert not leaked, f"{s} export row {e.seq} names hidden {leaked}: {exports[s][e.seq]}"
    return checked


def play_until(events, submit, wanted, seed: int, chunk: int = 20, most: int = 1500) -> bool:
    """Random legal orders (seeded) through `submit`, `chunk` at a time, until `wanted(events())` holds (True) or
    the game ends or `most` orders are played (False): a test names what its game must hold instead of trusting a
    seed to reach it, so it stands when the random player's candidates change."""
    rng, state = random.Random(seed), None
    for _ in range(0, most, chunk):
        state, _ = play(rng, max_orders=chunk, submit=submit, state=state)
        if RULES.outcome(state) is not None:
            return False
        if wanted(events()):
            return True
    return False


def sides_of(events, kind: str) -> set[str]:
    """The sides whose events of type snc.`kind` are in the stream: the event's side (a battle's, the attacker),
    else its units' (the side losing, moving, placing...)."""
    def side(payload: dict) -> str | None:
        said = payload.get("side") or payload.get("battle", {}).get("side")
        units = payload.get("units") or ["-"]
        return said or {"cn": "chinese", "jp": "japanese"}.get(units[0].split("-")[0])

    return {side(e.payload) for e in events if e.type == f"snc.{kind}"}


def both_sides(*kinds: str):
    """A stream holding events of each of `kinds` for both sides."""
    return lambda events: all(sides_of(events, k) >= set(SIDES) for k in kinds)


def a_game_with(folder, wanted, first_seed: int = 11, seeds: int = 6):
    """The first of a few seeded games through the service (tests/fogcheck.py) that comes to hold `wanted`,
    stopped there: (pbem, game id, outbox). Asserts one did."""
    for seed in range(first_seed, first_seed + seeds):
        path, game_id = str(folder / f"fog-{seed}.sqlite3"), f"g-snc-fog-{seed}"

        def until(submit, path=path, game_id=game_id, seed=seed):
            reader = EventStore(path)
            try:
                return play_until(lambda: list(reader.events(game_id)), submit, wanted, seed)
            finally:
                reader.close()

        pbem, game_id, outbox, found = played_through_service(path, "snc", EMAILS, game_id, until)
        if found:
            return pbem, game_id, outbox
        pbem.store.close()
    raise AssertionError(f"no game of seeds {first_seed}-{first_seed + seeds - 1} came to hold what the test needs")


@pytest.fixture
def played(store):
    # a fixed server dice seed and game id (the dice mix both in): the same game every run
    with mock.patch.object(dice, "new_seed", lambda: "6" * 64):
        game_id = games.create_game(store, CATALOG, "snc", game_id="g-snc-fog")
    games.join(store, CATALOG, game_id, "chinese", "c@example.org", "c")
    games.join(store, CATALOG, game_id, "japanese", "j@example.org", "j")

    def submit(side, text):
        return games.submit(store, CATALOG, game_id, side, text).state.game

    return game_id, submit


def a_stored_game_with(store, wanted, first_seed: int = 11, seeds: int = 6) -> str:
    """The first of a few seeded games played into `store` (each under its own game id) that comes to hold
    `wanted`, stopped there. Asserts one did."""
    for seed in range(first_seed, first_seed + seeds):
        with mock.patch.object(dice, "new_seed", lambda: "6" * 64):
            game_id = games.create_game(store, CATALOG, "snc", game_id=f"g-snc-fog-{seed}")
        games.join(store, CATALOG, game_id, "chinese", "c@example.org", "c")
        games.join(store, CATALOG, game_id, "japanese", "j@example.org", "j")

        def submit(side, text, game_id=game_id):
            return games.submit(store, CATALOG, game_id, side, text).state.game

        if play_until(lambda game_id=game_id: list(store.events(game_id)), submit, wanted, seed):
            return game_id
    raise AssertionError(f"no game of seeds {first_seed}-{first_seed + seeds - 1} came to hold what the test needs")


def test_6_3_every_per_side_line_and_export_row_names_only_units_that_side_could_see(store):
    kinds = ("UnitsMoved", "BattleOpened", "StepsLost", "ReinforcementsPlaced")
    game_id = a_stored_game_with(store, both_sides(*kinds))
    events = list(store.events(game_id))
    checked = check_fog(store, game_id)
    # each side's history lines of moves, battles, losses and arrivals were among those checked
    for side in SIDES:
        for kind in ("UnitsMoved", "BattleOpened", "CombatResolved", "StepsLost", "ReinforcementsPlaced"):
            assert (side, f"snc.{kind}") in checked, (side, kind)
    j = history.lines(RULES, events, side="japanese")
    assert any("a Chinese stack moves" in r["text"] for r in j)  # redacted, not left out
    assert any("chinese orders: move (details hidden" in r["text"] for r in j)


def test_6_3_the_attacker_sees_the_defenders_losses_and_the_defender_sees_no_attacking_unit():
    s = position({"jp-d3-r6": "3510", "cn-d87": "3511", "cn-d98": "3511", "cn-d57": "3612"}, turn=3)
    events = []
    for side, text in [("japanese", "attack 3511 with d3-r6 support air"), ("chinese", "pass")]:
        command = RULES.parse(text, side, s)
        for e in RULES.decide(s, command, SeededDice(next_index=0, seed="x", game_id="g")):
            events.append((s, e))
            s = RULES.evolve(s, e)
    opened = next(e for _, e in events if type(e).__name__ == "BattleOpened")
    assert RULES.reveals(opened)
    assert RULES.visible(opened, "chinese").startswith("japanese attack on 3511")
    assert RULES.visible(opened, "japanese") is True
    for _, e in events:
        if type(e).__name__ == "StepsLost" and e.side == "chinese":
            assert e.revealed and RULES.visible(e, "japanese") is True
        if type(e).__name__ == "StepsLost" and e.side == "japanese":
            assert not e.revealed and "d3-r6" not in str(RULES.visible(e, "chinese"))


def test_6_3_orders_undo_and_elite_returns_of_the_other_side_are_redacted():
    order = core.OrderGiven("chinese", "move d87 to 3411", {})
    assert RULES.visible(order, "chinese") is True
    assert RULES.visible(order, "japanese") == "chinese orders: move (details hidden, SNC 6.3)"
    assert RULES.visible(core.OrderGiven("chinese", "declare move fight", {}), "japanese") is True
    undo = core.Retracted(from_seq=9, to_seq=10, reason="undo of 'move d87 to 3411'", by="player:chinese (undo)")
    assert "d87" not in RULES.visible(undo, "japanese") and RULES.visible(undo, "chinese") is True
    roll = core.DieRolled(index=3, value=4, sides=6, purpose="SNC 8.1 return of cn-d87")
    assert "4" not in RULES.visible(roll, "japanese").split("#3")[1]
    for e in (order, undo, roll):
        assert RULES.visible(e, None) is True


def test_6_3_the_arbiter_and_a_finished_game_show_everything(store, played):
    game_id, submit = played
    state, _ = play(random.Random(2), max_orders=3000, submit=submit)
    assert RULES.outcome(state) is not None
    pbem = Application(store, MailConfig(orders_address="orders@x.example"), Outbox())
    full = history.lines(RULES, list(store.events(game_id)))
    assert [r["text"] for r in pbem.reads.history_rows(Seat(game_id, ARBITER, "a@x"))] == [r["text"] for r in full]
    for s in SIDES:
        assert pbem.reads.history_rows(Seat(game_id, s, f"{s}@x")) == full
        lines, whole = pbem.reads.export(Seat(game_id, s, f"{s}@x"))
        assert whole
    assert "off_map" in RULES.view(state, None)


def test_6_3_the_revealed_mark_is_not_a_game_fact_an_event_stored_without_it_still_replays_equal():
    from app.events.registry import decode, encode
    from app.rules.snc import events as ev

    new = ev.StepsLost("chinese", ["cn-d87"], "combat", revealed=True)
    name, version, payload = encode(new)
    old = decode(name, version, {k: v for k, v in payload.items() if k != "revealed"})
    assert old.revealed is False and old == new  # the audit's re-run compares events: old games still verify
    assert RULES.visible(old, "japanese") == "chinese lose 1 step"  # and old ones stay hidden


EMAILS = {"chinese": "c@x.example", "japanese": "j@x.example"}


def fog_game(events) -> bool:
    """Moves, battles, losses and arrivals of both sides, and a stack over the limit brought back to it (6.0)."""
    return (both_sides("UnitsMoved", "BattleOpened", "StepsLost", "ReinforcementsPlaced")(events)
            and any(e.type == "snc.Overstacked" for e in events))


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory):
    """An SNC game of random legal orders through the service (turn emails included), stopped, before its end, as
    soon as both sides moved, fought, lost steps and placed reinforcements and a stack over the limit lost a unit
    (6.0)."""
    pbem, game_id, outbox = a_game_with(tmp_path_factory.mktemp("fog"), fog_game)
    yield pbem, game_id, outbox
    pbem.store.close()


def test_6_3_no_channel_names_a_unit_the_reading_side_could_not_see(fuzzed):
    pbem, game_id, outbox = fuzzed
    checked = check_every_channel(pbem, game_id, named, outbox)
    for side in SIDES:  # the moves, battles, losses and arrivals of both sides were among the lines checked
        for kind in ("UnitsMoved", "BattleOpened", "StepsLost", "Overstacked", "ReinforcementsPlaced", "OrderGiven"):
            assert (side, kind) in checked, (side, kind)
    assert {m["To"] for m in outbox.sent} == set(EMAILS.values())


def test_6_3_each_sides_loss_chart_shows_every_loss_its_history_tells_it(fuzzed):
    pbem, game_id, _ = fuzzed
    store = pbem.store
    events = list(store.events(game_id))
    losses = [e.seq for e in events if e.type in ("snc.StepsLost", "snc.Overstacked")]
    referee = analysis.analyse(replay.build(store, CATALOG, game_id, replay.ALL))["step_losses"]
    assert all(sum(per.values()) for per in referee.values())
    for side in SIDES:
        told = {r["seq"] for r in history.lines(RULES, events, side=side)}
        assert set(losses) <= told, side  # every loss is told to both sides (6.3 hides whose, not how many) ...
        # ... so each chart agrees with the referee's: the other side's losses under its stacks are counted too
        assert analysis.analyse(replay.build(store, CATALOG, game_id, side))["step_losses"] == referee, side


def test_6_0_an_overstack_elimination_counts_the_steps_of_the_units_it_takes(fuzzed):
    pbem, game_id, _ = fuzzed
    event = next(e for e in pbem.store.events(game_id) if e.type == "snc.Overstacked")
    side, units = event.payload["side"], event.payload["units"]
    before = projection.load(pbem.store, CATALOG, game_id, event.seq - 1).game
    steps = sum(before.units[u].steps for u in units)
    other = next(s for s in SIDES if s != side)
    overstack = next(f for f in replay.build(pbem.store, CATALOG, game_id, other).frames if f.type == "snc.Overstacked")
    assert steps >= 1 and overstack.losses == {side: steps}  # the steps of the units taken, whatever the other
    assert not named(overstack.text) & set(units)  # side's view showed of them, and none of them named to it


def test_6_3_a_loss_taken_back_by_consent_leaves_every_chart(tmp_path):
    """A dispute accepted retracts the orders from the disputed one on; their losses stay in the history, marked
    retracted, and leave the charts as they leave the position."""
    pbem, game_id, _ = a_game_with(tmp_path, lambda events: any(e.type == "snc.StepsLost" for e in events))
    events = list(pbem.store.events(game_id))
    lost = [e for e in events if e.type == "snc.StepsLost"]
    order = max(e.seq for e in events if e.type == "core.OrderGiven" and e.seq < lost[-1].seq)
    seats = {s: Seat(game_id, s, e) for s, e in EMAILS.items()}
    dispute = pbem.disputes.raise_dispute(seats["chinese"], order, "not what I meant")
    pbem.disputes.answer_dispute(seats["japanese"], dispute["id"], accept=True)
    standing = sum(len(e.payload["units"]) for e in lost if e.seq < order)
    assert standing < sum(len(e.payload["units"]) for e in lost)
    for viewer in (replay.ALL, *SIDES):
        chart = analysis.analyse(replay.build(pbem.store, CATALOG, game_id, viewer))["step_losses"]
        assert sum(n for per in chart.values() for n in per.values()) == standing, viewer


def test_6_3_a_game_stored_before_the_losses_hook_charts_every_loss_for_both_sides(store):
    """The SNC export written at 1329c69 (tests/data/exports-1329c69) has battles, an amphibious landing and no
    field added for the charts: each side's chart counts every step lost, as the referee's does."""
    from pathlib import Path

    from app.service import transfer

    lines = (Path(__file__).parents[1] / "data" / "exports-1329c69" / "g-oldsnc01.jsonl").read_text().splitlines()
    game_id = transfer.import_game(store, CATALOG, lines)
    referee = analysis.analyse(replay.build(store, CATALOG, game_id, replay.ALL))["step_losses"]
    steps = sum(len(e.payload["units"]) for e in store.events(game_id) if e.type == "snc.StepsLost")
    assert sum(n for per in referee.values() for n in per.values()) == steps
    for side in SIDES:
        assert analysis.analyse(replay.build(store, CATALOG, game_id, side))["step_losses"] == referee, side
