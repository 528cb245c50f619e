"""How long each test module takes, so that several workers finish together (docs/testing.md, "CI time").

The README's test command hands whole modules to the workers (`-n auto --dist loadfile`), in the order the tests
are collected (`--no-loadscope-reorder`, pyproject.toml: pytest-xdist would otherwise hand out the modules of most
tests first, which put the few long whole-game modules at the end, one worker running them alone). tests/conftest.py
sorts the modules longest first by `tests/durations.tsv`: a module's seconds as measured in a whole run on two
workers. A module not measured yet goes first if it holds a slow test (it may be long), else last.

Measure again after a module's cost changes much:
    HEXLEDGER_TIMELOG=/tmp/t.tsv pytest -q -n auto --dist loadfile && python -m tests.durations /tmp/t.tsv
"""
from __future__ import annotations

import collections
import sys
from pathlib import Path

TABLE = Path(__file__).with_name("durations.tsv")
UNMEASURED_SLOW = 10**6  # an unmeasured module with a slow test: handed out before every measured one


def measured() -> dict[str, float]:
    """module path -> seconds, as `tests/durations.tsv` holds them."""
    out = {}
    for line in TABLE.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            seconds, module = line.split("\t")
            out[module] = float(seconds)
    return out


def cost(module: str, slow: bool, table: dict[str, float]) -> float:
    """The seconds `module` is expected to take, for ordering only."""
    return table.get(module, UNMEASURED_SLOW if slow else 0.0)


def main(logs: list[str]) -> None:
    """Write `tests/durations.tsv` from HEXLEDGER_TIMELOG files: each module's wall seconds summed over its tests (a
    test timed twice counts once, its last time)."""
    tests: dict[str, float] = {}
    for log in logs:
        for line in Path(log).read_text(encoding="utf-8").splitlines():
            wall, _cpu, nodeid = line.split("\t")
            tests[nodeid] = float(wall)
    seconds: collections.Counter[str] = collections.Counter()
    for nodeid, wall in tests.items():
        seconds[nodeid.split("::", 1)[0]] += wall
    rows = [f"{s:.1f}\t{m}" for m, s in sorted(seconds.items(), key=lambda kv: (-kv[1], kv[0]))]
    TABLE.write_text("# wall seconds of each test module in a whole run on two workers (python -m tests.durations)\n"
                     + "\n".join(rows) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1:])
