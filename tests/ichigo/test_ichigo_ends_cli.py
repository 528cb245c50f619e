"""Every kind of Ichi-Go end reached through `cli.py` (issue 7: "games can be played to every kind of end ...
through the CLI"): China collapse (4.1), points without Causeway in each band (4.2), points after Causeway in each
band (4.3), the Japanese taking either US beachhead (4.4), the Allies holding Shanghai and Wuhan (4.5), each from
a position file a few orders from its end (tests/ichigo/ichigo_ends.py); and one whole game from the printed set-up
played by random legal orders to whatever end it reaches. Every game is checked by `verify --dice`."""
import json
import random

import pytest

from app.events.store import EventStore
from app.projections import state as projection
from app.rules.catalog import installed
from app.rules.ichigo import GAME as RULES
from tests import fuzzing
from tests.ichigo.ichigo_ends import DICE_TEXT, ENDS, End, fixed_dice, toml
from tests.ichigo.ichigo_randomplay import candidates

CATALOG = installed()  # the rule sets installed here
KIND_FIRST = fuzzing.kind_first_candidates(RULES)  # a kind of order first: phases end sooner, a game in ~200 orders


def join(run, game: str) -> None:
    for side, text in DICE_TEXT.items():
        run("join", game, "--side", side, "--name", f"{side}@example.org", "--seed", text)


def verified(run, game: str) -> str:
    out = run("verify", game, "--dice").output
    assert "chain intact" in out and " 0 not checkable" in out, out
    return out


@pytest.mark.parametrize("end", ENDS, ids=lambda e: e.id)
def test_a_game_from_a_position_ends_through_the_cli(run, tmp_path, monkeypatch, end: End):
    fixed_dice(monkeypatch, end.seed)
    position = tmp_path / "position.toml"
    position.write_text(toml(end.position), encoding="utf-8")
    game = run("new", "ichigo", "--position", str(position)).output.strip()
    join(run, game)
    for side, order in end.orders:
        shown = json.loads(run("show", game, "--json").output)
        assert shown["outcome"] is None and shown["to_act"] == side, (order, shown)
        run("do", game, "--as", side, order)

    log = [row["text"] for row in json.loads(run("log", game, "--json").output)]
    for line in end.log:  # the recorded die (4.1: and every modifier applied)
        assert line in log, (line, log[-8:])
    shown = json.loads(run("show", game, "--json").output)
    assert shown["outcome"] is not None, (shown["step"], log[-8:])
    winner, reason = shown["outcome"]["winner"], shown["outcome"]["reason"]
    assert winner == end.winner and reason.startswith(end.case + ": "), shown["outcome"]
    for part in end.reason_has:
        assert part in reason, (part, reason)
    assert f"game over: {end.result} - {reason}" in run("show", game).output
    assert log[-2] == f"game over: {f'{winner} wins' if winner else 'a draw'} - {reason}"
    assert log[-1].startswith("dice seed revealed")
    verified(run, game)


@pytest.mark.slow  # a whole game through the CLI
def test_a_whole_game_from_the_printed_set_up_ends_through_the_cli(run, monkeypatch):
    """Random legal orders through `cli.py do` from the printed set-up to the end: a kind of order drawn first, then
    one of its orders (tests/fuzzing.py `kind_first_candidates`), with the fuzzer's far moves mixed in to be refused.
    The dice and the order choices are fixed, so it is the same game (about 200 orders) every run; drawing from
    every legal order alike played some 1300 orders, mostly moves, to the same kind of end."""
    fixed_dice(monkeypatch, 6)
    game = run("new", "ichigo").output.strip()
    join(run, game)
    store = EventStore(run.db)
    rng = random.Random(6)
    orders = refused = 0
    try:
        state = projection.load(store, CATALOG, game)
        for _ in range(1500):
            if RULES.outcome(state.game) is not None:
                break
            side = RULES.prompt(state.game).side
            for text in candidates(state.game, rng, KIND_FIRST):
                result = run("do", game, "--as", side, text, "--json", ok=False)
                if result.exit_code == 0:
                    orders += 1
                    break
                assert result.exit_code == 2, result.output  # refused by the rules, naming the case
                assert json.loads(result.output)["case"].startswith("Ichi-Go"), result.output
                refused += 1
            else:
                raise AssertionError(f"dead end at {RULES.prompt(state.game).step}")
            state = projection.fold_all(RULES, store.events(game, state.meta.seq + 1), state)
    finally:
        store.close()
    shown = json.loads(run("show", game, "--json").output)
    assert shown["outcome"] is not None and shown["dice_seed_revealed"], shown
    assert shown["outcome"]["reason"].startswith(("Ichi-Go 4.1", "Ichi-Go 4.2", "Ichi-Go 4.3", "Ichi-Go 4.4",
                                                  "Ichi-Go 4.5")), shown["outcome"]
    assert orders > 100, (orders, refused)
    print(f"{orders} orders, {refused} refused: {shown['outcome']}")
    verified(run, game)
