"""A throwaway PostgreSQL server for the tests and benches: `initdb` into a temporary folder, then `postgres` on
127.0.0.1 with a free port, trust authentication for the user `hexledger`, durable settings (fsync and
synchronous_commit on, the defaults). PostgreSQL refuses to run as root, so as root the server runs as the
`postgres` user (Debian's package makes it), else as `nobody`.

The server binaries are found in HEXLEDGER_PG_BIN, Debian's /usr/lib/postgresql/<version>/bin (newest first), or on
PATH; `Unavailable` says why a server could not be started (no binaries, no psycopg, initdb or start failed).

A server outlives no run that started it. A run killed before its `stop()` (SIGKILL, or SIGTERM, which pytest does not
catch) used to leave its server running for good when `pg_ctl start` detached it. Now:
- the server is the starting process's own child (`postgres` run directly, in a session of its own so a terminal's
  Ctrl-C reaches only the run), with Linux's parent-death signal set to SIGINT (a fast shutdown): when the process
  that started it dies, however it dies, the server shuts down. The kernel ties that signal to the starting *thread*,
  so it is set only when the main thread starts the server (a worker thread's exit would otherwise stop it);
- each server's folder names its owner (`owner`: the process id and its start time, so a reused id is not taken for
  the owner), and every `start()` first sweeps the folders of owners that are gone (`sweep()`): it stops a server
  still running there (one started from another thread, or whose signal was lost) and removes the files. A folder
  whose owner is alive, or that names no owner (a run of an older release), is never touched.
"""
from __future__ import annotations

import ctypes
import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

USER = "hexledger"  # the database role the tests and benches connect as
PREFIX = "hexledger-pg-"  # each server's folder in the temporary directory
OWNER = "owner"  # the file in a server's folder naming the process that started it: "<pid> <start time>"


class Unavailable(Exception):
    """PostgreSQL cannot be started here; the message says why."""


def bindir() -> Path:
    """The folder holding initdb and pg_ctl."""
    candidates = [os.environ.get("HEXLEDGER_PG_BIN", "")]
    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=_version, reverse=True)
    on_path = shutil.which("pg_ctl")
    candidates.append(str(Path(on_path).resolve().parent) if on_path else "")
    for folder in filter(None, candidates):
        if (Path(folder) / "initdb").exists() and (Path(folder) / "pg_ctl").exists():
            return Path(folder)
    raise Unavailable("PostgreSQL's server binaries (initdb, pg_ctl) are not installed: `apt-get install -y "
                      "postgresql` (Debian), or set HEXLEDGER_PG_BIN to the folder holding them")


def _version(folder: str) -> int:
    number = Path(folder).parent.name
    return int(number) if number.isdigit() else 0


@dataclass
class Cluster:
    """A running server; `url(db)` is a database on it, `stop()` removes it and its files."""

    bindir: Path
    root: Path
    port: int
    uid: int | None  # the user the server runs as, when this process is root
    process: subprocess.Popen | None = field(default=None, repr=False)  # the server, when this process started it

    @property
    def data(self) -> Path:
        return self.root / "data"

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str) -> str:
        """A new, empty database; its URL."""
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def drop_database(self, name: str) -> None:
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop", check=False)
        if self.process is not None:
            self.process.wait(timeout=120)
        shutil.rmtree(self.root, ignore_errors=True)

    def _run(self, program: str, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        uid = self.uid

        def as_server_user() -> None:
            if uid is not None:
                entry = pwd.getpwuid(uid)
                os.setgid(entry.pw_gid)
                os.setuid(uid)

        done = subprocess.run([str(self.bindir / program), *args], capture_output=True, text=True, timeout=120,
                              cwd=self.root, preexec_fn=as_server_user, env={**os.environ, "LC_ALL": "C"})
        if check and done.returncode != 0:
            raise Unavailable(f"{program} failed ({done.returncode}): {(done.stderr or done.stdout).strip()[-800:]}")
        return done


def start(max_connections: int = 200) -> Cluster:
    """initdb and start a server on 127.0.0.1, after sweeping the servers of runs that are gone (`sweep`); raises
    Unavailable with the reason if it cannot."""
    try:
        import psycopg  # noqa: F401
    except ImportError as exc:
        raise Unavailable(f"psycopg is not installed ({exc}): pip install -e '.[postgres]'") from exc
    folder = bindir()
    uid = None
    if os.geteuid() == 0:
        for name in ("postgres", "nobody"):
            try:
                uid = pwd.getpwnam(name).pw_uid
                break
            except KeyError:
                continue
        else:
            raise Unavailable("running as root, and there is no `postgres` or `nobody` user to run PostgreSQL as "
                              "(PostgreSQL refuses to run as root)")
    sweep(folder)
    root = Path(tempfile.mkdtemp(prefix=PREFIX))
    (root / OWNER).write_text(_identity(os.getpid()) or f"{os.getpid()}")
    os.chmod(root, 0o755)
    if uid is not None:
        os.chown(root, uid, pwd.getpwuid(uid).pw_gid)
    cluster = Cluster(folder, root, _free_port(), uid)
    try:
        cluster._run("initdb", "-D", str(cluster.data), "-U", USER, "--auth=trust", "-E", "UTF8", "--locale=C",
                     "--no-sync")
        options = ["-c", "listen_addresses=127.0.0.1", "-p", str(cluster.port), "-k", str(root),
                   "-c", f"max_connections={max_connections}", "-c", "fsync=on", "-c", "synchronous_commit=on"]
        cluster.process = _serve(cluster, options)
        _wait_ready(cluster, deadline=time.monotonic() + 60)
    except (Unavailable, OSError, subprocess.TimeoutExpired) as exc:
        if cluster.process is not None:
            cluster.process.kill()  # SIGKILL: the postmaster's children see it gone and exit (PostmasterIsAlive)
            cluster.process.wait()
        log = root / "server.log"
        tail = log.read_text(errors="replace")[-800:] if log.exists() else ""
        shutil.rmtree(root, ignore_errors=True)
        raise Unavailable(f"PostgreSQL could not be started: {exc} {tail}".strip()) from exc
    return cluster


_PR_SET_PDEATHSIG = 1  # prctl(2)


def _serve(cluster: Cluster, options: list[str]) -> subprocess.Popen:
    """The postmaster as this process's child, in a session of its own, told by the kernel to shut down fast (SIGINT)
    when the thread starting it dies, if that is the main thread (module docstring)."""
    uid = cluster.uid
    parent = os.getpid()
    prctl = ctypes.CDLL(None, use_errno=True).prctl if threading.current_thread() is threading.main_thread() else None

    def as_server_user_bound_to_parent() -> None:
        if uid is not None:
            entry = pwd.getpwuid(uid)
            os.setgid(entry.pw_gid)
            os.setuid(uid)
        if prctl is not None:  # after setuid, which clears the parent-death signal
            prctl(_PR_SET_PDEATHSIG, signal.SIGINT, 0, 0, 0)
            if os.getppid() != parent:  # the parent died before the signal was set: nobody will send it
                os._exit(1)

    with open(cluster.root / "server.log", "ab") as log:
        return subprocess.Popen([str(cluster.bindir / "postgres"), "-D", str(cluster.data), *options],
                                stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, cwd=cluster.root,
                                preexec_fn=as_server_user_bound_to_parent, start_new_session=True,
                                env={**os.environ, "LC_ALL": "C"})


def _wait_ready(cluster: Cluster, deadline: float) -> None:
    """Until the server accepts a connection (what `pg_ctl start -w` waits for); Unavailable if it exits first or
    `deadline` (time.monotonic) passes."""
    import psycopg

    while True:
        if cluster.process.poll() is not None:
            raise Unavailable(f"the server exited ({cluster.process.returncode}) before it accepted a connection")
        try:
            psycopg.connect(cluster.url(), connect_timeout=5).close()
            return
        except psycopg.OperationalError as exc:
            if time.monotonic() > deadline:
                raise Unavailable(f"the server accepted no connection in 60 s: {exc}") from exc
        time.sleep(0.05)


def _identity(pid: int) -> str | None:
    """"<pid> <start time>" of a running process (its start time in clock ticks since boot, /proc/<pid>/stat field
    22, so that a later process given the same id is not taken for it), or None when there is no such process."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat[stat.rindex(")") + 2:].split()  # after "pid (command) ": field 3 (state) onwards
    if fields[0] in ("Z", "X"):  # a zombie has died; only its parent has not reaped it yet
        return None
    return f"{pid} {fields[19]}"


def owner_alive(root: Path) -> bool | None:
    """Whether the process that started the server in `root` still runs: None where the folder names no owner (not
    made by this module, or by a release before owners were recorded, or still being made)."""
    try:
        owner = (root / OWNER).read_text().split()
    except OSError:
        return None
    if not owner or not owner[0].isdigit():
        return None
    now = _identity(int(owner[0]))
    return now is not None and (len(owner) < 2 or now.split() == owner[:2])


def _postmaster(root: Path) -> int | None:
    """The process id of the server running in `root` (its data folder's postmaster.pid names it), or None."""
    try:
        pid = (root / "data" / "postmaster.pid").read_text().split("\n", 1)[0].strip()
    except OSError:
        return None
    return int(pid) if pid.isdigit() and _identity(int(pid)) is not None else None


def sweep(folder: Path | None = None, temp: str | None = None) -> list[Path]:
    """Stop the server and remove the folder of every run whose owner is gone (module docstring), in `temp` (the
    temporary directory by default); the folders removed. Folders whose owner runs, or that name none, are left."""
    removed = []
    for root in sorted(Path(temp or tempfile.gettempdir()).glob(PREFIX + "*")):
        if not root.is_dir() or owner_alive(root) is not False:
            continue
        if _postmaster(root) is not None:
            try:
                uid = root.stat().st_uid if os.geteuid() == 0 else None
                stale = Cluster(folder or bindir(), root, 0, uid)
                stale._run("pg_ctl", "-D", str(stale.data), "-m", "fast", "-w", "-t", "60", "stop", check=False)
            except (Unavailable, OSError, subprocess.TimeoutExpired):
                pass
            if _postmaster(root) is not None:
                continue  # left for a later sweep: its files are removed only once its server has stopped
        shutil.rmtree(root, ignore_errors=True)
        removed.append(root)
    return removed


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
