"""A pytest plugin: each test's wall seconds, the pytest process's CPU, and the CPU of every process under it (the
Playwright driver, Chromium and its renderers, servers and commands the test starts), read from /proc before and
after the test; with the orders the play tests sent through a page (tests/play/clicking.py `send`).
`HEXLEDGER_TIMELOG` (tests/conftest.py) sees the pytest process only, where a browser test spends a fifth of what it
costs.

    PYTHONPATH=$PWD python -m pytest -p bench.test_cpu -q tests/play/test_play_in_the_browser.py
    (BENCH_TEST_CPU=FILE: the table is also appended to FILE, tab-separated)

No test asserts a time; this measures (docs/testing.md, "Where the time goes").
"""
from __future__ import annotations

import os
import time
from pathlib import Path

TICK = os.sysconf("SC_CLK_TCK")
_ROWS: list[tuple[str, float, float, float, int]] = []
_START: dict[str, tuple[float, float, float, int]] = {}
_SENT = [0]


def processes() -> dict[int, tuple[int, float, float]]:
    """Every process now: pid -> (its parent, its user and system CPU seconds, its reaped children's), from /proc."""
    out = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        out[int(entry)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / TICK,
                           (int(fields[13]) + int(fields[14])) / TICK)
    return out


def descendants_cpu(root: int) -> float:
    """CPU seconds of every live process under `root` (its own and its reaped children's: a renderer that ended is
    in its parent's), `root` itself not counted."""
    table = processes()
    total = 0.0
    for parent, own, reaped in table.values():
        while parent and parent != root:
            parent = table[parent][0] if parent in table else 0
        if parent == root:
            total += own + reaped
    return total


def own_cpu() -> float:
    """This process's CPU and that of its children it has reaped (a command a test ran to its end)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def pytest_configure(config):
    from tests.play import clicking

    sent = clicking.send

    def counted(seat):
        _SENT[0] += 1
        return sent(seat)

    clicking.send = counted  # before the test modules import it


def pytest_runtest_logstart(nodeid, location):
    _START[nodeid] = (time.perf_counter(), own_cpu(), descendants_cpu(os.getpid()), _SENT[0])


def pytest_runtest_logfinish(nodeid, location):
    if nodeid not in _START:
        return
    wall, own, under, sent = _START.pop(nodeid)
    _ROWS.append((nodeid, time.perf_counter() - wall, own_cpu() - own, descendants_cpu(os.getpid()) - under,
                  _SENT[0] - sent))


def pytest_terminal_summary(terminalreporter):
    write = terminalreporter.write_line
    write(f"{'wall s':>7} {'pytest':>7} {'under':>7} {'cpu s':>7} {'orders':>6}  test")
    lines = []
    for nodeid, wall, own, under, sent in _ROWS:
        write(f"{wall:7.1f} {own:7.1f} {under:7.1f} {own + under:7.1f} {sent:6d}  {nodeid}")
        lines.append(f"{wall:.2f}\t{own:.2f}\t{under:.2f}\t{sent}\t{nodeid}\n")
    total = [sum(r[i] for r in _ROWS) for i in (1, 2, 3, 4)]
    write(f"{total[0]:7.1f} {total[1]:7.1f} {total[2]:7.1f} {total[1] + total[2]:7.1f} {int(total[3]):6d}  (all)")
    if os.environ.get("BENCH_TEST_CPU"):
        with open(os.environ["BENCH_TEST_CPU"], "a") as f:
            f.writelines(lines)
