"""bench/opponents.py interrupted (Ctrl-C) keeps the game under way: written to --json with its orders so far,
marked interrupted, counted apart by the report, and `--resume` goes on with it from its last order to the game
the bench would have played without the interruption."""
from __future__ import annotations

import json

from app.rules import practice
from app.rules.catalog import installed
from bench import opponents

RUN = ["--games", "skirmish", "--policies", "random,greedy", "--seeds", "s1"]


def test_an_interrupted_game_is_kept_reported_and_resumed_to_the_same_end(tmp_path, monkeypatch, capsys):
    results = tmp_path / "run.json"
    choose, asked = practice.choose, []

    def ctrl_c_at_the_fifth_decision(*args, **kwargs):
        asked.append(args[3])
        if len(asked) == 5:
            raise KeyboardInterrupt
        return choose(*args, **kwargs)

    monkeypatch.setattr(practice, "choose", ctrl_c_at_the_fifth_decision)
    assert opponents.main([*RUN, "--json", str(results)]) == 0
    [stopped] = json.loads(results.read_text())
    assert stopped["interrupted"] and stopped["winner"] is None and stopped["orders"] == len(stopped["log"]) == 4
    assert stopped["seats"] == {"red": "random", "blue": "greedy"} and stopped["seed"] == "s1"
    shown = capsys.readouterr().out
    assert "-> interrupted" in shown and "# interrupted: 0 games finished" in shown
    assert "skirmish  random  vs greedy  both        0-0-0   won     - of finished; unfinished 0, crashed 0, " \
           "interrupted 1" in shown

    assert opponents.main(["--report", str(results), "--policies", "random,greedy"]) == 0
    assert "unfinished 0, crashed 0, interrupted 1" in capsys.readouterr().out

    monkeypatch.setattr(practice, "choose", choose)
    assert opponents.main([*RUN, "--resume", str(results)]) == 0
    games = json.loads(results.read_text())
    assert [(g["seats"]["red"], g["interrupted"], g["winner"] is not None) for g in games] == [
        ("random", False, True), ("greedy", False, True)]
    straight = opponents.play(installed().rules("skirmish"), "standard", {"red": "random", "blue": "greedy"}, "s1",
                              4000)
    assert games[0]["log"][:4] == stopped["log"]
    assert (games[0]["log"], games[0]["winner"], games[0]["orders"]) == (straight["log"], straight["winner"],
                                                                         straight["orders"])
    assert ", interrupted" not in capsys.readouterr().out
