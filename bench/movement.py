"""Movement kernel figures: `reach` (every hex a stack may enter, with its cheapest path) on a large map and on
the SNC map, beside a baseline measured in the same run (a plain breadth-first search over the same grid,
which knows no terrain, hexsides, roads or zones of control).

The kernel tests assert what `reach` finds; how fast it finds it is measured here, never by a timed test.

Usage: python bench/movement.py [--repeat 20]
"""
from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from collections import deque
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]

from app.rules.kernel.movement import Mover, reach  # noqa: E402
from app.rules.snc.data_load import load as load_snc  # noqa: E402
from tests.kernel.mapkit import H, make_map  # noqa: E402
from tests.kernel.test_movement import SNC_RULES  # noqa: E402


def big_map():
    """The 40 x 30 map of the kernel test (woods, marsh, a river the height of the map, a road across it)."""
    return make_map(
        cols=(1, 40),
        rows=(1, 30),
        terrain={"woods": ["0501..1020"], "marsh": ["2001..2530"]},
        hexsides={"river": [f"30{r:02d}/31{r:02d}" for r in range(1, 31)]},
        roads=[[f"{c:02d}15" for c in range(1, 41)]],
    )


def bfs(game_map, start) -> int:
    seen = {start}
    todo = deque([start])
    while todo:
        h = todo.popleft()
        for n in game_map.neighbours(h):
            if n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen)


def median_ms(fn, repeat: int) -> float:
    fn()  # warm the neighbour caches
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=20)
    a = ap.parse_args()
    print(f"machine: {platform.machine()}, Python {platform.python_version()}; median of {a.repeat} runs")
    big = big_map()
    mover = Mover.single(H("0115"), 40, "japanese")
    snc = load_snc()
    snc_mover = Mover.single(H("2410"), 8, "japanese")
    rows = [
        ("reach, 40x30 map, 40 MP (every hex)", lambda: reach(big, SNC_RULES, mover), lambda: bfs(big, H("0115"))),
        ("reach, SNC map, 8 MP from Suzhou 2410", lambda: reach(snc.map, snc.movement, snc_mover),
         lambda: bfs(snc.map, H("2410"))),
    ]
    print(f"{'measure':44} {'hexledger (ms)':>15} {'baseline (ms)':>14}   (baseline: plain BFS, no rules)")
    for name, fn, base in rows:
        print(f"{name:44} {median_ms(fn, a.repeat):15.1f} {median_ms(base, a.repeat):14.1f}")


if __name__ == "__main__":
    main()
