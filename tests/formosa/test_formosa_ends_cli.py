"""Every kind of Formosa end reached through `cli.py` in both scenarios (issue 16: "Both scenarios can be played
to each kind of end (sudden death either way, each victory level) through the CLI"): each from a position file a
few orders from its end (tests/formosa/formosa_ends.py), the orders given with `do`, then what the players see:
`show`'s game-over line with the winner and the level, the log's last lines (the end, the dice seed revealed),
and `verify --dice`."""
import json

import pytest

from tests.formosa.formosa_ends import DICE_TEXT, ENDS, End, fixed_dice, toml


@pytest.mark.parametrize("end", ENDS, ids=lambda e: e.id)
def test_a_game_from_a_position_ends_through_the_cli(run, tmp_path, monkeypatch, end: End):
    fixed_dice(monkeypatch)
    position = tmp_path / "position.toml"
    position.write_text(toml(end.position), encoding="utf-8")
    game = run("new", "formosa", "--scenario", end.scenario, "--position", str(position)).output.strip()
    for side, text in DICE_TEXT.items():
        run("join", game, "--side", side, "--name", f"{side}@example.org", "--seed", text)
    for side, order in end.orders:
        shown = json.loads(run("show", game, "--json").output)
        assert shown["outcome"] is None and shown["to_act"] == side, (order, shown)
        run("do", game, "--as", side, order)

    log = [row["text"] for row in json.loads(run("log", game, "--json").output)]
    for line in end.log:
        assert any(line in row for row in log), (line, log[-8:])
    shown = json.loads(run("show", game, "--json").output)
    assert shown["outcome"] is not None and shown["dice_seed_revealed"], (shown["step"], log[-8:])
    winner, reason = shown["outcome"]["winner"], shown["outcome"]["reason"]
    assert winner == end.winner and reason.startswith(end.reason + ": ") and reason.endswith(end.case), reason
    assert f"game over: {end.result} - {reason}" in run("show", game).output
    assert log[-2] == f"game over: {f'{winner} wins' if winner else 'a draw'} - {reason}"
    assert log[-1].startswith("dice seed revealed (game over)")
    out = run("verify", game, "--dice").output
    assert "chain intact" in out and " 0 not checkable" in out, out
