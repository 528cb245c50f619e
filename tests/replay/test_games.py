"""The replay of the real games: a finished Shanghai-Nanking and a finished Ichi-Go fuzzer game, and a side's
view of one in progress (fog of war: SNC 6.3, Ichi-Go 6.6 and 11.27)."""
from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from importlib import import_module

import pytest

from app.events.registry import decode
from app.projections import analysis, render, replay
from app.rules.catalog import installed
from tests.replay.conftest import GAMES, SVG, import_real

CATALOG = installed()  # the rule sets installed here

pytestmark = pytest.mark.slow  # a finished fuzzer game of each real rule set


def _counters(svg: str) -> list[ET.Element]:
    return ET.fromstring(svg).findall(f".//{SVG}g[@class='counter']")


def _svg(rules, rep: replay.Replay, seq: int) -> str:
    return render.render_map(rules.game_map(rep.games[seq - 1]), rep.frame_at(seq).view, rep.sides)


def _on_map(view: dict) -> list[dict]:
    return [u for u in view["units"] if u.get("hex")]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_finished_game_replays_from_first_to_last_with_every_combat(store, real_games, name):
    game_id = import_real(store, real_games, name)
    rules = CATALOG.rules(name)
    stored = list(store.events(game_id))
    rep = replay.build(store, CATALOG, game_id, None)
    assert rep.over and rep.viewer == replay.ALL
    assert [f.seq for f in rep.frames] == [e.seq for e in stored]  # first to last, one frame per event
    combat_type = GAMES[name][1]
    combats = {e.seq: decode(e.type, e.version, e.payload) for e in stored if e.type == combat_type}
    panels = {f.seq: f.combat for f in rep.frames if f.combat}
    assert set(panels) == set(combats)
    for seq, event in combats.items():
        c = panels[seq]
        assert (c["odds"], c["roll"], c["result"], c["column"]) == (event.odds, event.roll, event.result, event.column)
        assert (c["attack"], c["defence"], c["hex"]) == (event.attack, event.defence, event.hex)
        assert c["attacker"] in rep.sides and c["defender"] in rep.sides and c["attacker"] != c["defender"]
        # an Ichi-Go battle settled by 11.27 with every attacker flipped to zero names none: they left the map
        # before it (rules version 3, ruling E15)
        assert c["attackers"] or any("11.27: every attacker zero" in s for s in event.shifts)
        assert c["case"].startswith({"snc": "SNC", "ichigo": "Ichi-Go"}[name])
        assert len(c["shifts"]) == len(event.shifts) and all(isinstance(s["amount"], int) for s in c["shifts"])
        if event.roll:  # a rolled result is the stored one in its column's distribution
            assert [d["result"] for d in c["distribution"] if d["roll"] == event.roll] == [event.result]
            assert math.isclose(sum(d["p"] for d in c["distribution"]), 1.0)
    # the map of any frame: one counter per unit on the map in the view
    for seq in (1, max(combats), rep.frames[-1].seq):
        view = rep.frame_at(seq).view
        assert len(_counters(_svg(rules, rep, seq))) == len(_on_map(view)) > 0
        assert set(view["victory_hexes"]) and set(view["control"]) <= set(view["victory_hexes"])
    result = analysis.analyse(rep)
    assert sum(s["attacks"] for s in result["luck"].values()) >= 3
    for luck in result["luck"].values():
        assert all(math.isfinite(luck[k]) for k in ("score", "sd", "z", "result_vs_expected"))
    assert set(analysis.charts(result)) >= {"losses", "odds", "luck", "control"}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_mid_game_a_side_sees_only_top_units_of_enemy_stacks_and_no_hidden_strength(store, real_games, name):
    game_id, events = real_games[name]
    upto = len(events) * 2 // 3
    import_real(store, real_games, name, upto)
    rules = CATALOG.rules(name)
    fogged = untried_seen = 0
    for side in rules.sides:
        rep = replay.build(store, CATALOG, game_id, side)
        assert not rep.over and rep.viewer == side
        state = rep.final_state.game
        truth = {u.id: u for u in state.units.values() if u.on_map}
        seq = rep.frames[-1].seq
        view = rep.frame_at(seq).view
        shown = _on_map(view)
        counters = _counters(_svg(rules, rep, seq))
        assert len(counters) == len(shown)
        drawn = {c.get("data-unit") for c in counters}
        assert drawn == {u["id"] for u in shown}
        by_hex: dict[str, list] = {}
        for u in truth.values():
            by_hex.setdefault(u.hex, []).append(u)
        top = import_module(f"app.rules.{name}.view").top_unit
        hidden = {u.id for stack in by_hex.values() if stack[0].side != side for u in stack
                  if u is not top(stack)}
        if name == "snc":  # SNC 6.3: a defending stack is seen while its attacker resolves the battle
            battle = state.battle or {}
            if battle.get("side") == side:
                hidden -= {u.id for u in by_hex.get(battle["hex"], [])}
        assert not drawn & hidden, f"{side} sees hidden units {sorted(drawn & hidden)}"
        fogged += len(hidden)
        for frame in rep.frames:  # a combat panel names no attacker the side's view does not show
            if frame.combat:
                assert set(frame.combat["attackers"]) <= {u["id"] for u in frame.view["units"]}
        if name == "ichigo":  # 11.27: an untried counter is its handle, never its strength, to anyone
            for u in shown:
                if not truth[u["id"]].tried:
                    assert "strength" not in u and "steps" not in u
            untried = [c for c in counters if not truth[c.get("data-unit")].tried]
            for c in untried:
                assert [t.text for t in c.findall(f"{SVG}text")][1] == "?"
            untried_seen += len(untried)
    assert fogged > 0, "the position tested hides no unit: pick another point of the game"
    if name == "ichigo":
        assert untried_seen > 0, "no untried counter on the map at this point of the game"
