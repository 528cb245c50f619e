"""The program's settings: every HEXLEDGER_* environment variable, read in this one module and documented in
docs/configuration.md (made from `VARIABLES`: `python -m app.settings > docs/configuration.md`).

A composition root reads them once, `Settings.from_env()`, and lets its own flags override them (`with_flags`): the
command line's group (app/cli.py, `--db` and `serve`'s flags), `create_app` (app/web, its config keys) and the
outbox's sender process (handed the server's settings). Everything else is handed the values: the application
service (app/service/application.py) and the store (app/events) never read the environment. This module imports
nothing of the program, so any layer may take a Settings."""
from __future__ import annotations

import os
import sys
import textwrap
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Settings:
    """What the environment configures, each field with its variable's default (VARIABLES, in the same order)."""

    db: str = "db/hexledger.sqlite3"
    busy_timeout: float = 30.0
    fsync: bool | None = None
    snapshot_every: int = 50
    state_cache: int = 256
    view_cache: int = 512
    audit_cache: int = 256
    replay_cache: int = 8
    replay_access_cache: int = 1024
    replay_builds: int = 2
    admin_token: str | None = None
    open_game_creation: bool = False
    rate_limit: str = "120 per minute"
    rate_limit_storage: str = "memory://"
    replay_rate_limit: str = "600 per minute"
    secret: str | None = None
    receipt_key: str | None = None
    receipt_retired: tuple[str, ...] = ()
    mail_sender: str = "inline"
    smtp_host: str | None = None
    smtp_port: int | None = None
    smtp_security: str = "none"
    smtp_user: str | None = None
    smtp_password: str | None = None
    smtp_timeout: float = 30.0
    mail_from: str = "hexledger@localhost"
    orders_address: str = "orders@localhost"
    outbox: str = "outbox"
    max_email_bytes: int = 256 * 1024
    public_url: str | None = None
    mail_retry: float = 60.0
    outbox_keep_days: float = 30.0
    stranger_reply_hours: float = 1.0
    notify_private_hosts: tuple[str, ...] = ()

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """The settings the environment (`env`, default this process's) gives; an unset or empty variable keeps
        its default, and a value that does not parse is a ValueError naming the variable."""
        env = os.environ if env is None else env
        values = {}
        for variable in VARIABLES:
            raw = env.get(variable.name, "").strip()
            if raw:
                try:
                    values[variable.field] = variable.parse(raw)
                except ValueError as exc:
                    raise ValueError(f"{variable.name}: {exc}") from None
        return cls(**values)

    def with_flags(self, **flags) -> Settings:
        """These settings with the flags given (None: not given) in place of theirs."""
        return replace(self, **{name: value for name, value in flags.items() if value is not None})


def _whole(least: int) -> Callable[[str], int]:
    def parse(raw: str) -> int:
        try:
            value = int(raw)
        except ValueError:
            value = least - 1
        if value < least:
            raise ValueError(f"must be a whole number, at least {least}, not {raw!r}")
        return value

    return parse


def _number(above: float | None = None, least: float | None = None) -> Callable[[str], float]:
    def parse(raw: str) -> float:
        try:
            value = float(raw)
        except ValueError:
            value = float("nan")
        if not ((above is None or value > above) and (least is None or value >= least)):
            bound = f"above {above:g}" if above is not None else f"at least {least:g}"
            raise ValueError(f"must be a number {bound}, not {raw!r}")
        return value

    return parse


def _one_of(*choices: str) -> Callable[[str], str]:
    def parse(raw: str) -> str:
        if raw.lower() not in choices:
            raise ValueError(f"must be {', '.join(choices[:-1])} or {choices[-1]}, not {raw!r}")
        return raw.lower()

    return parse


def _flag(raw: str) -> bool:
    return raw.lower() in ("1", "true", "yes")


def _switch(raw: str) -> bool:
    """On (`1`, `true`, `yes`, `on`) or off (`0`, `false`, `no`, `off`); anything else is not understood."""
    word = raw.lower()
    if word in ("1", "true", "yes", "on"):
        return True
    if word in ("0", "false", "no", "off"):
        return False
    raise ValueError(f"expected on or off, got {raw!r}")


def _listed(raw: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in raw.split(",") if part.strip())


@dataclass(frozen=True)
class Variable:
    name: str
    field: str
    parse: Callable[[str], object]
    meaning: str
    section: str


_STORE, _WEB, _KEYS, _MAIL = "The database and the caches", "The HTTP server", "Keys", "Mail"

VARIABLES = (
    Variable("HEXLEDGER_DB", "db", str, "the database: a SQLite file, or a PostgreSQL database as "
             "`postgresql://user:password@host/db`; `--db` (before or after a command) overrides it", _STORE),
    Variable("HEXLEDGER_BUSY_TIMEOUT", "busy_timeout", _number(above=0), "seconds a write waits for another "
             "writer's lock before it answers that the database is busy (HTTP 503, `ingest-email` exit 75)", _STORE),
    Variable("HEXLEDGER_FSYNC", "fsync", _switch, "`off`: SQLite commits do not wait for the disk (an order "
             "acknowledged still survives the process being killed, not a power cut); only for databases nobody "
             "keeps, such as the test suite's. On unless set (PostgreSQL's durability is its server's)", _STORE),
    Variable("HEXLEDGER_SNAPSHOT_EVERY", "snapshot_every", _whole(1), "events between stored snapshots (a cache: "
             "the interval changes no answer, only how many events a load folds)", _STORE),
    Variable("HEXLEDGER_STATE_CACHE", "state_cache", _whole(0), "folded states a process keeps in memory "
             "(0: none)", _STORE),
    Variable("HEXLEDGER_VIEW_CACHE", "view_cache", _whole(0), "answers of HTTP state reads a process keeps in "
             "memory (0: none)", _STORE),
    Variable("HEXLEDGER_AUDIT_CACHE", "audit_cache", _whole(0), "`verify` reports a process keeps per game and "
             "head (0: none)", _STORE),
    Variable("HEXLEDGER_REPLAY_CACHE", "replay_cache", _whole(0), "games whose replays (the fold and each "
             "viewer's frames) a process keeps (0: none); docs/replay.md", _STORE),
    Variable("HEXLEDGER_REPLAY_ACCESS_CACHE", "replay_access_cache", _whole(0), "games whose replay access "
             "(finished or not, sides) a process keeps per head (0: none)", _STORE),
    Variable("HEXLEDGER_REPLAY_BUILDS", "replay_builds", _whole(1), "replay builds a process runs at once; "
             "more wait or are answered 503 (docs/replay.md)", _STORE),
    Variable("HEXLEDGER_ADMIN_TOKEN", "admin_token", str, "the operator's key (at least 16 characters): creating "
             "a game over HTTP needs it as the bearer; `serve --admin-token-file` overrides it", _WEB),
    Variable("HEXLEDGER_OPEN_GAME_CREATION", "open_game_creation", _flag, "`1`, `true` or `yes`: anyone may "
             "create games over HTTP when no operator's key is set (otherwise creating games is closed); "
             "`serve --open-game-creation` sets it", _WEB),
    Variable("HEXLEDGER_RATE_LIMIT", "rate_limit", str, "the HTTP API's rate limit per seat (per address without "
             "a token)", _WEB),
    Variable("HEXLEDGER_RATE_LIMIT_STORAGE", "rate_limit_storage", str, "where rate limits count: `memory://` "
             "(per process) or a shared store such as `redis://...` when several processes serve", _WEB),
    Variable("HEXLEDGER_REPLAY_RATE_LIMIT", "replay_rate_limit", str, "the replay viewer's own rate limit (it "
             "fetches a map picture a step)", _WEB),
    Variable("HEXLEDGER_SECRET", "secret", str, "the key of the seats' reply tags, replay keys and links; keep "
             "it secret and stable (unset: one made on first use and kept in the database)", _KEYS),
    Variable("HEXLEDGER_RECEIPT_KEY", "receipt_key", str, "a PEM file holding the Ed25519 key receipts are "
             "signed with (unset: one made on first use and kept in the database); docs/core.md, Receipts", _KEYS),
    Variable("HEXLEDGER_RECEIPT_RETIRED", "receipt_retired", _listed, "earlier receipt keys (public, "
             "comma-separated) the server keeps publishing after a rotation, so old receipts stay checkable", _KEYS),
    Variable("HEXLEDGER_MAIL_SENDER", "mail_sender", _one_of("inline", "background", "process"), "who sends a "
             "request's mail in `create_app`: `inline` (after the commit, before the answer), `background` (a "
             "thread) or `process` (a process of its own; `serve` always runs one; it runs the installed games, so "
             "`create_app` refuses a `CATALOG` given with it)", _MAIL),
    Variable("HEXLEDGER_SMTP_HOST", "smtp_host", str, "the SMTP server; unset, every email is written as an "
             "`.eml` file to HEXLEDGER_OUTBOX instead", _MAIL),
    Variable("HEXLEDGER_SMTP_PORT", "smtp_port", _whole(1), "the SMTP port (unset: 25, or 465 with `ssl`; 587 is "
             "usual with `starttls`)", _MAIL),
    Variable("HEXLEDGER_SMTP_SECURITY", "smtp_security", _one_of("none", "starttls", "ssl"), "`none`, "
             "`starttls` or `ssl`", _MAIL),
    Variable("HEXLEDGER_SMTP_USER", "smtp_user", str, "the SMTP login, if the server wants one", _MAIL),
    Variable("HEXLEDGER_SMTP_PASSWORD", "smtp_password", str, "its password", _MAIL),
    Variable("HEXLEDGER_SMTP_TIMEOUT", "smtp_timeout", _number(above=0), "seconds an SMTP conversation may "
             "stall before the attempt counts as failed", _MAIL),
    Variable("HEXLEDGER_MAIL_FROM", "mail_from", str, "the From address of every email", _MAIL),
    Variable("HEXLEDGER_ORDERS_ADDRESS", "orders_address", str, "where players send orders; replies go to its "
             "plus-address `orders+GAME.TAG@...`", _MAIL),
    Variable("HEXLEDGER_OUTBOX", "outbox", str, "the folder of `.eml` files when no SMTP server is set", _MAIL),
    Variable("HEXLEDGER_MAX_EMAIL_BYTES", "max_email_bytes", _whole(1), "incoming messages larger than this "
             "are refused unread", _MAIL),
    Variable("HEXLEDGER_PUBLIC_URL", "public_url", str, "the server's address as players reach it "
             "(`https://host/`); set, emails carry each seat's play link and replay link", _MAIL),
    Variable("HEXLEDGER_MAIL_RETRY", "mail_retry", _number(least=0), "seconds from a failed delivery to its first "
             "retry, doubling each time up to an hour", _MAIL),
    Variable("HEXLEDGER_OUTBOX_KEEP_DAYS", "outbox_keep_days", _number(least=0), "days a superseded outbox row (a "
             "turn email or notification a newer one made stale: never sent) stays listed by `outbox` after it fell "
             "due; then the sender's next round or `tick` deletes it (`0`: at once). Sent mail leaves the outbox when "
             "it goes; pending and failed mail is never deleted", _MAIL),
    Variable("HEXLEDGER_STRANGER_REPLY_HOURS", "stranger_reply_hours", _number(least=0), "a message that opens "
             "no seat is answered at most once per mailbox in this many hours (`0` answers every one); the same "
             "bounds the sign-in links mailed to an address (docs/players.md)", _MAIL),
    Variable("HEXLEDGER_NOTIFY_PRIVATE_HOSTS", "notify_private_hosts", _listed, "hosts inside the server's "
             "network that players' notification URLs may name all the same (comma-separated, e.g. a LAN's ntfy); "
             "docs/players.md", _MAIL),
)

# read by the command line's `chain` command (a player's, against someone's server), not by the server
CLIENT_VARIABLES = {"HEXLEDGER_TOKEN": "`chain --token`: your seat's token, from your invitation"}


def _default_text(variable: Variable) -> str:
    value = getattr(Settings(), variable.field)
    if value is None or value == ():
        return "unset"
    if isinstance(value, bool):
        return "off"
    return f"`{value:g}`" if isinstance(value, float) else f"`{value}`"


def document() -> str:
    """docs/configuration.md: every variable, its meaning and default, by section."""
    intro = [
        "Every setting of the server is an environment variable, read in one place (`app/settings.py`, "
        "`Settings`) once when a program starts: the command line (`hexledger`, or `python cli.py`), the web app "
        "(`create_app`, which `serve` runs) and the outbox's sender process (handed the server's settings). A flag "
        "overrides its variable: `--db` (before or after any command), `serve --admin-token-file` and `serve "
        "--open-game-creation`; `create_app(config)` takes the variables' names as config keys, as flags. An "
        "unset or empty variable keeps its default; a value that does not parse stops the program with a message "
        "naming the variable, before anything is read or written.",
        "`serve`'s limits (threads, connections, waiting requests, backlog, idle timeout, Retry-After) are flags "
        "of `serve` only: `hexledger serve --help`, README \"Serving\".",
    ]
    lines = ["# Configuration", "",
             "<!-- made by `python -m app.settings > docs/configuration.md` from app/settings.py: edit it there -->"]
    for paragraph in intro:
        lines += ["", textwrap.fill(paragraph, 116)]
    for section in dict.fromkeys(v.section for v in VARIABLES):
        lines += ["", f"## {section}", "", "| variable | what it sets | default |", "|---|---|---|"]
        lines += [f"| `{v.name}` | {v.meaning} | {_default_text(v)} |" for v in VARIABLES if v.section == section]
    lines += ["", "## The player's commands", "", "| variable | what it sets | default |", "|---|---|---|"]
    lines += [f"| `{name}` | {meaning} | unset |" for name, meaning in CLIENT_VARIABLES.items()]
    lines += ["", textwrap.fill("The tests and benchmarks have two of their own, never read by the program: "
                                "`HEXLEDGER_REQUIRE_POSTGRES=1` (CI) makes a missing PostgreSQL server a failure "
                                "instead of a skip (`tests/conftest.py`), and `HEXLEDGER_PG_BIN` names the folder of "
                                "PostgreSQL's server programs when they are not where Debian puts them "
                                "(`bench/pg_cluster.py`).", 116)]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.stdout.write(document())
