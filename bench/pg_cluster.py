"""A throwaway PostgreSQL server for the tests and benches: `initdb` into a temporary folder, then `pg_ctl start` on
127.0.0.1 with a free port, trust authentication for the user `hexledger`, durable settings (fsync and
synchronous_commit on, the defaults). PostgreSQL refuses to run as root, so as root the server runs as the
`postgres` user (Debian's package makes it), else as `nobody`.

The server binaries are found in HEXLEDGER_PG_BIN, Debian's /usr/lib/postgresql/<version>/bin (newest first), or on
PATH; `Unavailable` says why a server could not be started (no binaries, no psycopg, initdb or start failed).
"""
from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

USER = "hexledger"  # the database role the tests and benches connect as


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
    """initdb and start a server on 127.0.0.1; raises Unavailable with the reason if it cannot."""
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
    root = Path(tempfile.mkdtemp(prefix="hexledger-pg-"))
    os.chmod(root, 0o755)
    if uid is not None:
        os.chown(root, uid, pwd.getpwuid(uid).pw_gid)
    cluster = Cluster(folder, root, _free_port(), uid)
    try:
        cluster._run("initdb", "-D", str(cluster.data), "-U", USER, "--auth=trust", "-E", "UTF8", "--locale=C",
                     "--no-sync")
        options = (f"-c listen_addresses=127.0.0.1 -p {cluster.port} -k {root} -c max_connections={max_connections} "
                   "-c fsync=on -c synchronous_commit=on")
        cluster._run("pg_ctl", "-D", str(cluster.data), "-l", str(root / "server.log"), "-w", "-t", "60",
                     "-o", options, "start")
    except (Unavailable, OSError, subprocess.TimeoutExpired) as exc:
        log = root / "server.log"
        tail = log.read_text(errors="replace")[-800:] if log.exists() else ""
        shutil.rmtree(root, ignore_errors=True)
        raise Unavailable(f"PostgreSQL could not be started: {exc} {tail}".strip()) from exc
    return cluster


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
