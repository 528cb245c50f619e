"""What a Formosa side may not see beyond the concealed units' places, drawn for the practice opponents (the rule
set's `unseen` hook; app/rules/belief.py draws the "?" counters' places; from the policies' edition 9).

11.0: neither side examines the other's off-map displays, and the view (view.py) shows a side only its own air
and naval points and invasion markers: the Japanese do not see the Allied amphibious and drop zone markers ready to
land (10.0), the Allied TAC, B-29, air supply and naval gunfire points; the Allies do not see the Japanese TAC and
kamikaze points nor the mobile fleet. Until edition 9 the sample kept them as they were, and Formosa's stakes
(victory.py) read the real markers before any Allied unit stands on Formosa: a Japanese seat's reason for its
kamikaze roll (16.6: hits send amphibious markers back) told how many markers the Allies held.

Each count the side may not see is replaced by one drawn from what the side may know (the scenario's printed
start, 24.1, 24.2, and the counter mix, 8.2), never from the count itself: `BELIEVED` gives the range each is drawn
from. What stays as it is (the playouts meet it only through the rules' later steps): the enemy's units in its
off-map displays (which ones the Allies chose and recruited, 3.0, 8.1), the strike plans until their reveal
(16.1)."""
from __future__ import annotations

import random
from dataclasses import replace

from app.rules.formosa import airpower, strike
from app.rules.formosa.state import State

PLANS_SINCE = 11  # the policies' edition from which the other side's secret strike plan is drawn (16.1)

# pool -> key -> the side that sees it (view.py's rule) and what the other side believes of it: ("start", field)
# the scenario's printed start for that side (a number, or dice {"dice": "1d6", "add": n} rolled with the
# generator), or (low, high) drawn uniformly
BELIEVED: dict[str, dict[str, tuple[str, tuple]]] = {
    "markers": {"amphibious": ("allied", (0, 3)),       # 10.2: up to 4 units a marker
                "drop-zone": ("allied", (0, 2))},       # 10.3: 2 airborne regiments a marker
    "air": {"allied-tac": ("allied", ("start", "allied_tac", "us")),
            "cw-tac": ("allied", ("start", "allied_tac", "cw")),
            "b29": ("allied", (0, 1)), "air-supply": ("allied", (0, 1)),
            "japanese-tac": ("japanese", ("start", "japanese_tac", None)),
            "kamikaze": ("japanese", ("start", "japanese_kamikaze", None)),
            "mobile-fleet": ("japanese", (0, 1))},
    "naval": {"gunfire": ("allied", ("start", "allied_gunfire", "us")),
              "cw-gunfire": ("allied", ("start", "allied_gunfire", "cw"))},
}


def unseen(state: State, side: str, rng: random.Random, edition: int = 9) -> State:
    """`state` with every air and naval point and invasion marker of the other side drawn (`BELIEVED`), and from
    `edition` 11 its strike plan while secret (`_plan`), drawn after them (so the points are edition 9's draws)."""
    if side not in ("allied", "japanese"):
        return state
    scenario = state.data.scenario(state.scenario)
    drawn = {}
    for pool, keys in BELIEVED.items():
        counts = dict(getattr(state, pool))
        for key, (owner, how) in keys.items():
            if owner == side:
                continue
            counts[key] = _believed(scenario, how, rng)
        drawn[pool] = counts
    world = replace(state, **drawn)
    if edition >= PLANS_SINCE:
        world = _plan(world, "japanese" if side == "allied" else "allied", rng)
    return world


def _plan(state: State, other: str, rng: random.Random) -> State:
    """`state` with `other`'s strike plan drawn while it is secret (made, not yet revealed: 16.1): every mission
    the plan names (ruling F70: each of the side's missions, none named 0) gets 0, then each of the side's
    believed points (the sample's `air`, already drawn) goes to a mission its pool flies (airpower.pool), each
    equally likely. The view shows nothing of the plan, so the draw reads the side's view and `rng` alone."""
    planned = state.strike.missions.get(other)
    if planned is None or state.strike.revealed:
        return state
    by_pool: dict[str, list[str]] = {}
    for mission in strike.MISSIONS[other]:
        by_pool.setdefault(airpower.pool(other, mission), []).append(mission)
    plan = dict.fromkeys(planned, 0)
    for kind, missions in sorted(by_pool.items()):
        for _ in range(max(int(state.air.get(kind, 0)), 0)):
            mission = missions[rng.randrange(len(missions))]
            plan[mission] = plan.get(mission, 0) + 1
    return replace(state, strike=replace(state.strike, missions={**state.strike.missions, other: plan}))


def _believed(scenario: dict, how: tuple, rng: random.Random) -> int:
    if how[0] != "start":
        return rng.randint(how[0], how[1])
    printed = scenario.get(how[1]) or {}
    if how[2] is not None:
        return int(printed.get(how[2], 0)) if isinstance(printed, dict) else 0
    count, _, faces = str(printed.get("dice", "0d6")).partition("d")
    return int(printed.get("add", 0)) + sum(rng.randint(1, int(faces or 6)) for _ in range(int(count or 0)))
