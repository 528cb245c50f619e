"""Ichi-Go victory (4.x): the sudden deaths and the China Collapse check after every order (4.1, 4.4, 4.5), and
the victory points at the end (4.2 without Causeway, 4.3 with it). Called by the states table (sequence.py)."""
from __future__ import annotations

from functools import lru_cache

from app.rules.engine.decision import Decision
from app.rules.ichigo import events as ev
from app.rules.ichigo.common import (
    all_airbases_japanese,
    all_gearr_japanese,
    japanese_near,
    no_chinese_east_of_gearr,
)
from app.rules.ichigo.data_load import place_name
from app.rules.ichigo.state import State
from app.rules.kernel.hexgrid import Hex


def sudden_death(state: State, em: Decision) -> None:
    d = state.data
    v = d.scenario["victory"]
    if all(h not in state.jp_control for h in d.places(v["allied_sudden"])):
        held = " and ".join(place_name(h) for h in v["allied_sudden"])
        em.emit(ev.GameEnded("allied", f"Ichi-Go 4.5: the Allies hold {held} at once"))
        return
    if state.causeway:
        for h in state.beachheads.values():
            if h in state.jp_control:
                em.emit(ev.GameEnded("japanese", f"Ichi-Go 4.4: the Japanese control the US beachhead {h}"))
                return
        return
    cap = d.place(v["sudden_death_chungking"])
    if cap in state.jp_control and not state.collapse_checked and state.causeway is not True:
        mods = []
        roll = em.roll("China Collapse Table (4.1)")
        total = roll
        for cond, ok in ((f"{place_name(v['kunming'])} Japanese", d.place(v["kunming"]) in state.jp_control),
                         ("all GEARR Japanese", all_gearr_japanese(state)),
                         ("all airbases Japanese", all_airbases_japanese(state)),
                         ("no Chinese east of the GEARR", no_chinese_east_of_gearr(state))):
            if ok:
                total += 1
                mods.append(f"+1 {cond}")
        collapsed = total >= int(v["china_collapse_on"])
        em.emit(ev.CollapseChecked(roll, mods, total, collapsed))
        if collapsed:
            em.emit(ev.GameEnded("japanese", f"Ichi-Go 4.1: China collapses (roll {roll}, total {total})"))


def vp_no_causeway(state: State) -> tuple[int, list[str]]:
    """Ichi-Go 4.2."""
    d = state.data
    items = []
    if all_airbases_japanese(state):
        items.append("all US airbases Japanese")
    if all_gearr_japanese(state):
        items.append("all GEARR Japanese")
    v = d.scenario["victory"]
    near = int(v["distance_chungking"])
    if japanese_near(state, d.place(v["sudden_death_chungking"]), near):
        items.append(f"Japanese within {near} hexes of {place_name(v['sudden_death_chungking'])}")
    if d.place(v["kunming"]) in state.jp_control:
        items.append(f"{place_name(v['kunming'])} Japanese")
    if no_chinese_east_of_gearr(state):
        items.append("no Chinese units east of the GEARR")
    return len(items), items


def vp_causeway(state: State) -> tuple[int, list[str]]:
    """Ichi-Go 4.3 (ruling R16: the debits are -1)."""
    d = state.data
    items, total = [], 0
    jp = state.occupied("japanese")
    for where in ("formosa", "mainland"):
        h = state.beachheads.get(where)
        if h and any(n in jp for n in d.neighbours(h)):
            total += 1
            items.append(f"+1 Japanese adjacent to the {where} beachhead")
    v = d.scenario["victory"]
    if d.place(v["sudden_death_chungking"]) in state.jp_control:
        total += 1
        items.append(f"+1 {place_name(v['sudden_death_chungking'])} Japanese")
    if all_gearr_japanese(state):
        total += 1
        items.append("+1 all GEARR Japanese")
    if not any(h in d.tagged("formosa") for h in jp):
        total -= 1
        items.append("-1 no Japanese on Formosa")
    for h in d.places(v["causeway"]["debit_hexes"]):
        if h not in state.jp_control:
            total -= 1
            items.append(f"-1 Allies control {h}")
    if any(h not in state.jp_control for h in d.places(v["allied_sudden"])):
        total -= 1
        items.append(f"-1 Allies control {' or '.join(place_name(h) for h in v['allied_sudden'])}")
    return total, items


def _near(state: State, target: str, within: int) -> float:
    """1 with a Japanese unit within `within` hexes of `target` (or `target` Japanese), else halving every three
    hexes further: how near the Japanese stand to an award that counts a unit near a hex."""
    if target in state.jp_control:
        return 1.0
    hexes = state.occupied("japanese")  # the Japanese units' hexes: each hex's distance once, however many units
    if not hexes:
        return 0.0
    gap = min(_distance(state.data.map, target, h) for h in hexes)
    return 1.0 if gap <= within else 2 ** (-(gap - within) / 3)


@lru_cache(maxsize=65536)
def _distance(game_map, a: str, b: str) -> int:
    """`GameData.distance`, kept: the map never changes, and the stakes read the same few targets' distances in
    every position a policy weighs."""
    return game_map.distance(Hex.parse(a), Hex.parse(b))


def _share(state: State, hexes) -> float:
    hexes = list(hexes)
    return sum(1 for h in hexes if h in state.jp_control) / len(hexes) if hexes else 0.0


def stakes(state: State, side: str, edition: int = 3) -> float:
    """How near `side` stands to victory, -1 to 1 (the strong opponent's evaluation, app/rules/evaluation.py): the
    Japanese victory points the position would score at the end (4.2 without Causeway, 4.3 with it), each award
    counted by how near it is (a share of the airbases or the GEARR held, how far the nearest Japanese unit stands
    from the hex an award counts a unit near), against the points that win and lose; less a quarter while the
    Allies hold one of the two cities whose joint holding wins them the game (4.5)."""
    d = state.data
    v = d.scenario["victory"]
    if state.causeway:
        vp, _ = vp_causeway(state)
        t = v["causeway"]
        near = sum(_near(state, h, 1) for h in state.beachheads.values()) - len(state.beachheads)
        formosa = any(u.hex in d.tagged("formosa") for u in state.on_map("japanese"))
        # the binary tally, and how near the awards not yet scored are (a unit adjacent to a beachhead scores)
        score = vp + 0.5 * near + (0.0 if formosa else -0.25)
    else:
        airbases = _share(state, d.feature("airbase"))
        gearr = _share(state, d.gearr)
        score = (airbases + gearr + _near(state, d.place(v["sudden_death_chungking"]), int(v["distance_chungking"]))
                 + _near(state, d.place(v["kunming"]), 0) + float(no_chinese_east_of_gearr(state)))
        t = v["no_causeway"]
    low, high = int(t["chinese_win_max"]), int(t["japanese_win_min"])
    middle = (low + high) / 2
    japanese = max(-1.0, min(1.0, (score - middle) / (high - middle + 0.5)))
    if any(h not in state.jp_control for h in d.places(v["allied_sudden"])):
        japanese = max(-1.0, japanese - 0.25)
    return japanese if side == "japanese" else -japanese


def tally(state: State) -> tuple[str, int, list[str], str | None]:
    """The Japanese VP tally as the map stands (4.2 without Causeway, 4.3 once it is launched): the case, the points,
    each award and debit counted, and who the tally gives the game to (None: a draw)."""
    if state.causeway:
        (vp, items), case = vp_causeway(state), "Ichi-Go 4.3"
        t = state.data.scenario["victory"]["causeway"]
    else:
        (vp, items), case = vp_no_causeway(state), "Ichi-Go 4.2"
        t = state.data.scenario["victory"]["no_causeway"]
    winner = "allied" if vp <= int(t["chinese_win_max"]) else "japanese" if vp >= int(t["japanese_win_min"]) else None
    return case, vp, items, winner


def standing(state: State) -> dict:
    """Ichi-Go 4.2, 4.3 as both players look over the map (rules version 17, ruling E60): the running Japanese VP
    tally, what it counts, and what it would give at the end of the last turn. Public: control (3.5) and where units
    stand (every stack shows its top unit, 6.6) are on the map for both players."""
    case, vp, items, winner = tally(state)
    return {"case": case, "vp": vp, "counted": items, "outcome_now": winner or "draw",
            "last_turn": state.last_turn()}


def final_outcome(state: State) -> ev.GameEnded:
    case, vp, items, winner = tally(state)
    return ev.GameEnded(winner, f"{case}: {vp} Japanese VP ({'; '.join(items) or 'none'})")
