"""Victory (4.0): sudden death after every order from Game-Turn 2 (4.1, ruling F38), and the victory points at
the end of the last Game-Turn (4.2) with the level they give."""
from __future__ import annotations

from functools import lru_cache

from app.rules.engine.decision import Decision
from app.rules.formosa import optional
from app.rules.formosa.events import GameEnded, VictoryCounted
from app.rules.formosa.state import State
from app.rules.kernel.hexgrid import Hex

VP_SIZES = ("hq", "regiment", "brigade", "group")  # 4.2: HQ, regiment or brigade sized units, groups included


def sudden_death(d: Decision) -> None:
    """4.1 from the start of GT 2: Allied ground units in every port and airfield hex of the map, or none on
    the map at all."""
    state: State = d.state
    if state.turn < state.data.charts["victory"]["sudden_death_from_turn"] or state.step.startswith("setup"):
        return
    held = state.occupied("allied")
    if not held:
        d.emit(GameEnded("japanese", "Japanese Strategic Victory: no Allied ground unit is on Formosa "
                                     "(Formosa 4.1)"))
    elif all(str(h) in held for h in state.data.sudden_death_hexes()):
        d.emit(GameEnded("allied", "Allied Strategic Victory: Allied ground units occupy every port and airfield "
                                   "hex (Formosa 4.1)"))


def allied_vp(state: State) -> tuple[int, dict[str, int]]:
    """4.2: each Allied-controlled hex's objectives (5.2: control is occupation); ports and airfields only with
    an Allied engineer base in the hex."""
    values = state.data.charts["victory"]
    detail: dict[str, int] = {}
    for h in sorted(state.occupied("allied")):
        based = any(u.base for u in state.at(h, "allied"))
        for objective in state.data.objectives(Hex.parse(h)):
            if objective in ("industry", "peak") or based:
                detail[f"{h} {objective}"] = values[objective.replace("-", "_")]
    return sum(detail.values()), detail


def japanese_vp(state: State) -> tuple[int, dict[str, int]]:
    """4.2 with ruling F7: one VP for each Allied HQ, regiment, brigade or group in the Allied Eliminated or
    Replacements Display."""
    per = state.data.charts["victory"]["japanese_per_eliminated"]
    detail = {u.id: per for u in state.units.values() if u.side == "allied"
              and u.where in ("allied-eliminated", "allied-replacements") and state.spec(u.id).size in VP_SIZES}
    return sum(detail.values()), dict(sorted(detail.items()))


def stakes(state: State, side: str, edition: int = 3) -> float:
    """How near `side` stands to victory, -1 to 1 (the strong opponent's evaluation, app/rules/evaluation.py): the
    net VP the position would score now (4.2: Allied less Japanese) against the Draw band's middle, weighted 0.7,
    and the share of the port and airfield hexes Allied units occupy (4.1's Allied sudden death; none on the map
    from GT 2 is the Japanese one), weighted 0.3. Until an Allied ground unit stands on Formosa, what the Allies
    can land instead (4.1: none there from GT 2 loses): the units their amphibious and drop zone markers ready to
    place carry (10.2, 10.3), from 0 (none) toward 1 during the set-up, from -1 toward 0 after it. Edition 6 reads
    the net VP, with half of the VP the LP kept would buy in bases (`bases_in_view`), as x / (|x| + 12) instead of
    clamping (x - 16) / 12 to +-1, which was -1 for every net of 4 VP or less: nothing the Allies did moved it.
    Edition 7 reads x / `VP_SPAN` (clamped to +-1): x / (|x| + 12) still moved by under a hundredth a VP where the
    games were played (x from -20 to -40), too little beside the playouts' noise for a replacement or a unit lost
    to count."""
    setup = state.step.startswith("setup")
    if setup or not state.occupied("allied"):
        stacking = state.data.charts["stacking"]
        ready = (state.markers.get("amphibious", 0) * stacking["amphibious_units"]
                 + state.markers.get("drop-zone", 0) * stacking["drop_zone_units"])
        capacity = 1 - 2 ** (-ready / 8)
        allied = capacity if setup else capacity - 1
        return allied if side == "allied" else -allied
    levels = sorted(lv["min"] for lv in state.data.charts["victory"]["levels"])
    draw = next(lv["min"] for lv in state.data.charts["victory"]["levels"] if lv["level"] == "Draw")
    win = min(m for m in levels if m > draw)
    middle = (draw + win) / 2
    net = allied_vp(state)[0] - japanese_vp(state)[0]
    targets = state.data.sudden_death_hexes()
    held = state.occupied("allied")
    share = sum(1 for h in targets if str(h) in held) / len(targets) if targets else 0.0
    if edition >= 7:
        vp = max(-1.0, min(1.0, (net + BASES_SEEN * bases_in_view(state) - middle) / VP_SPAN))
    elif edition >= 6:
        x = net + BASES_SEEN * bases_in_view(state) - middle
        vp = x / (abs(x) + win - draw + 6)
    else:
        vp = max(-1.0, min(1.0, (net - middle) / (win - draw + 6)))
    allied = 0.7 * vp + 0.3 * (2 * share - 1)
    return allied if side == "allied" else -allied


VP_SPAN = 40  # edition 7: the net VP read linearly from 24 below the Draw band's middle to 24 above the
# Strategic Victory's 25 (4.2), a fortieth a VP
BASES_SEEN = 0.5  # edition 6: a VP the Allies' engineers and LP could buy counts half a VP scored


def bases_in_view(state: State) -> float:
    """The VP the Allies' engineers on the map could score with bases (4.2, 20.1; the strong opponent's stakes from
    edition 6, which read the net VP as x / (|x| + 12), x its distance from the Draw band's middle, so every VP
    moves the value): each engineer on its mobile side, the best port or airfield hex without a base for it, its VP
    halved every three hexes away, those worth most for their LP first, in full while the LP last, half once they
    do not. Without it the Allies left their engineers in the staging area and spent every LP on markers in the
    Recruit Phase, with none when a base could be built."""
    allied = state.on_map("allied")
    based = frozenset(u.where for u in allied if u.base)
    hopes = []
    for u in allied:
        if u.base or state.spec(u.id).type != "engineer" or not _sites(state.data, based):
            continue
        hopes.append(_hope(state.data, u.where, based))
    lp, seen = state.lp["allied"], 0.0
    for worth, cost in sorted(hopes, key=lambda wc: -wc[0] / wc[1]):
        if cost <= lp:
            seen, lp = seen + worth, lp - cost
        else:
            seen += worth / 2
    return seen


@lru_cache(maxsize=64)
def _sites(data, based: frozenset[str]) -> tuple[tuple[Hex, int, int], ...]:
    """`bases_in_view`'s sites: each port or airfield hex without a base (`based`: the hexes of the Allied bases),
    with its VP (4.2) and the LP of its base (20.1). Read from the map and the charts, which never change: kept by
    the bases standing."""
    values, costs = data.charts["victory"], data.charts["allied_other"]
    sites = []
    for h in data.sudden_death_hexes():
        feats = set(data.objectives(h)) - {"industry", "peak"}
        if str(h) in based:
            continue
        port = bool(feats & {"major-port", "minor-port"})
        cost = costs["base_port_and_airfield"] if port and "airfield" in feats else costs[
            "base_port" if port else "base_airfield"]
        sites.append((h, sum(values[f.replace("-", "_")] for f in feats), cost))
    return tuple(sites)


@lru_cache(maxsize=4096)
def _hope(data, where: str, based: frozenset[str]) -> tuple[float, int]:
    """What an engineer in `where` could score with a base (`bases_in_view`): the best site's VP halved every three
    hexes away, with that base's LP; kept by everything it reads (the map never changes)."""
    here, grid = Hex.parse(where), data.map
    return max(((vp * 2 ** (-grid.distance(here, h) / 3), cost) for h, vp, cost in _sites(data, based)))


def overstacked(state: State, side: str) -> int:
    """13.3: how many of `side`'s units stand in hexes over the stacking limits, which the end of a Movement or
    Combat Phase thins (the strong opponent's check from edition 6, app/rules/search.py `within_limits`)."""
    return sum(len(state.at(h, side)) for h in state.overstacked(side))


def count(d: Decision) -> None:
    """The end of the last Game-Turn: the VP, the level (4.2) and the end of the game."""
    state: State = d.state
    allied, a_detail = allied_vp(state)
    japanese, j_detail = japanese_vp(state)
    extra = optional.end_vp(state)  # 25.5, 25.10
    a_detail, j_detail = {**a_detail, **extra["allied"]}, {**j_detail, **extra["japanese"]}
    allied += sum(extra["allied"].values())
    japanese += sum(extra["japanese"].values())
    level = state.data.victory_level(allied - japanese)
    d.emit(VictoryCounted(allied, japanese, level, {"allied": a_detail, "japanese": j_detail}))
    winner = "allied" if level.startswith("Allied") else "japanese" if level.startswith("Japanese") else None
    d.emit(GameEnded(winner, f"{level}: Allied {allied} VP, Japanese {japanese} VP (Formosa 4.2)"))

