"""The test run's PostgreSQL server outlives no run (bench/pg_cluster.py): a pytest killed with SIGKILL before its
teardown takes its server with it, the next run's start removes what it left and stops a server still running there,
and no run touches a server whose owner still runs."""
from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import psycopg
import pytest

from bench import pg_cluster as clusters

ROOT = Path(__file__).resolve().parents[2]
GONE_WITHIN = 120  # seconds: the bound of a wait that ends as soon as the server has exited


def postmaster_of(root: Path) -> int:
    """The server's process id, as its data folder's postmaster.pid names it."""
    return int((root / "data" / "postmaster.pid").read_text().split("\n", 1)[0])


def exited(pid: int, within: float = GONE_WITHIN) -> bool:
    """Whether process `pid` (not this process's child) has exited or exits within `within` seconds: a wait on the
    kernel's process handle, which becomes readable the moment the process ends."""
    try:
        handle = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    try:
        return bool(select.select([handle], [], [], within)[0])
    finally:
        os.close(handle)


def holding_a_server(command: list[str]) -> tuple[subprocess.Popen, Path]:
    """`command` started, once it printed "SERVER <folder>" (its server is up); the process and that folder. Pytest's
    plugins are not loaded (the fixture needs none of them, and they cost a second)."""
    process = subprocess.Popen(command, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True,
                               env={**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"})
    lines = []
    for line in process.stdout:  # each read waits for the next line: the server is up when this one comes
        lines.append(line)
        if line.startswith("SERVER "):
            return process, Path(line.split()[1])
    process.wait()
    pytest.fail(f"the run never said its server was up ({process.returncode}):\n{''.join(lines)[-3000:]}")


def answers(cluster: clusters.Cluster) -> bool:
    with psycopg.connect(cluster.url(), connect_timeout=10) as conn:
        return conn.execute("SELECT 1").fetchone() == (1,)


@pytest.mark.slow  # a pytest of its own, and a server of its own
def test_a_pytest_killed_mid_run_leaves_no_server_and_the_next_start_removes_its_files(tmp_path, pg_cluster):
    """The session fixture of tests/conftest.py in a pytest of its own, SIGKILLed while its test holds the server:
    the server shuts down with it (before this, `pg_ctl start` had detached it and it ran on for good), and the next
    run's start (`sweep`) removes its folder and leaves this run's server alone."""
    held = tmp_path / "test_hold.py"
    held.write_text(textwrap.dedent("""
        import sys

        def test_holds_the_server(pg_cluster):
            print("SERVER", pg_cluster.root, flush=True)
            sys.stdin.read()
        """))
    command = [sys.executable, "-m", "pytest", "-q", "-s", "-p", "no:cacheprovider", "-p", "tests.conftest",
               "--rootdir", str(tmp_path), str(held)]
    process, root = holding_a_server(command)
    server = postmaster_of(root)
    try:
        process.send_signal(signal.SIGKILL)
        process.wait()
        assert exited(server), f"the killed run's server {server} is still running ({root})"
    finally:
        if not exited(server, within=0):  # before the fix: stop it, it is this test's
            os.kill(server, signal.SIGINT)
    assert root.exists()  # its folder outlived it: the kill left no time to remove it
    removed = clusters.sweep()
    assert root in removed and not root.exists()
    assert pg_cluster.root.exists() and answers(pg_cluster)  # this run's own server: its owner runs


@pytest.mark.slow  # a process of its own, and a server of its own
def test_a_server_that_outlived_its_run_is_stopped_by_the_next_start(tmp_path, pg_cluster):
    """A server started from a thread other than the main one (the kernel's parent-death signal would follow that
    thread, so none is set) outlives its SIGKILLed run; the next start's sweep stops it and removes its folder, and
    leaves this run's server alone."""
    script = textwrap.dedent(f"""
        import sys, threading
        sys.path.insert(0, {str(ROOT)!r})
        from bench import pg_cluster
        started = []
        thread = threading.Thread(target=lambda: started.append(pg_cluster.start()))
        thread.start()
        thread.join()
        print("SERVER", started[0].root, flush=True)
        sys.stdin.read()
        """)
    process, root = holding_a_server([sys.executable, "-c", script])
    server = postmaster_of(root)
    process.send_signal(signal.SIGKILL)
    process.wait()
    try:
        assert not exited(server, within=0), "the server exited with its run: this test needs one that did not"
        removed = clusters.sweep()
        assert exited(server), f"the sweep left the orphaned server {server} running"
    finally:
        if not exited(server, within=0):
            os.kill(server, signal.SIGINT)
    assert root in removed and not root.exists()
    assert pg_cluster.root.exists() and answers(pg_cluster)


def test_a_sweep_removes_only_the_folders_of_runs_that_are_gone(tmp_path):
    """Folders in a temporary directory of their own, no server in them: one whose owner is this process, one naming
    this process's id with another start time (an id the system gave again after its owner ended), one naming a
    process that has exited, one naming none (an older release's, or one still being made). Only the second and
    third are removed."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()  # its id is free now (the system may give it again: its start time tells them apart)
    me = (Path(f"/proc/{os.getpid()}/stat").read_text().rsplit(")", 1)[1].split())[19]
    owners = {"mine": f"{os.getpid()} {me}", "reused": f"{os.getpid()} 1", "ended": f"{child.pid} {me}",
              "unnamed": None}
    for name, owner in owners.items():
        folder = tmp_path / f"{clusters.PREFIX}{name}"
        (folder / "data").mkdir(parents=True)
        if owner:
            (folder / clusters.OWNER).write_text(owner)
    removed = clusters.sweep(temp=str(tmp_path))
    assert sorted(p.name for p in removed) == [f"{clusters.PREFIX}ended", f"{clusters.PREFIX}reused"]
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"{clusters.PREFIX}mine", f"{clusters.PREFIX}unnamed"]

