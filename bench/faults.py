"""Faults inside the mail and deadline processes (issue 25; docs/architecture.md practice 17): `tick` and
`ingest-email` SIGKILLed at every step, and a full disk on each store backend.

- `kill_tick`: `python cli.py tick` on a world of five games (a deadline with auto-pass, one with notify-arbiter, a
  reminder due, one whose late side forfeits, a time bank run out) is killed at its first step, then at its second, and
  so on until a run gets through: a step is each commit (just before and just after it), each write outside a
  transaction, each email handed to the transport (before and after). After each kill, `tick` runs again and the world
  is checked: each deadline passed once (one core.DeadlinePassed, its passes once), each notice and reminder queued or
  sent once (a retry repeats its Message-ID: at least once, never twice beyond that), every game verifies.
- `kill_ingest`: `python cli.py ingest-email --maildir` on three messages (an order, a refused order, two orders that
  pass the turn), killed at every step the same way (the move of each file into cur/ is a step too), then run
  again: each order applied once, every message filed, no answer contradicting another (a message met again gets its
  first answer repeated, never "refused: already processed"), the last run's exit status 0.
- `disk_full_sqlite` / `disk_full_postgres`: the database on a small tmpfs (a mount namespace of its own: `unshare`,
  as root or in a user namespace) filled up: an HTTP order and a game's creation are each a 503 saying the disk is
  full (never "cannot rollback", and naming no file, folder or address of the server: the database's own words are
  the operator's log's, StoreUnavailable.detail), and the mail sender's round sends what it claimed and goes on
  past rows it cannot record; once space is freed, the order goes in and each email is recorded.

Each kill's world is a copy of one world made once (the same games, files and times), and each run of a command is
a process forked from one that imported the command line once (`Commands`): the steps, the kills and the checks are
the real command's, without Python's start and the imports twice a step (they were most of the time: 642 s for both
on a busy machine, 86 s since). That process first runs the command once itself, unkilled, on a copy nothing checks
(`Commands.warm`), so the runs forked from it find the command's rule set and email tables loaded: both kill
benches 54 s of CPU -> 27 s (session part 14).

The CI tests (tests/reliability/test_faults.py) run these; `python bench/reliability.py --faults` runs them with
the figures kept in docs/reliability.md.
"""
from __future__ import annotations

import json
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email import message_from_bytes, policy
from email.parser import BytesHeaderParser
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.events.store import EventStore, utc_text  # noqa: E402
from app.mail.replies import body_text  # noqa: E402
from app.mail.transport import MailConfig  # noqa: E402
from app.rules.catalog import installed  # noqa: E402
from app.service import audit  # noqa: E402
from app.service.application import Application  # noqa: E402

CATALOG = installed()  # the rule sets installed here

KILLER = """
import json, os, signal, sys
sys.path.insert(0, {root!r})
from app.events import dialect
from app.events.sqlite import SqliteDatabase
from app.mail import transport

kill = {{"at": 0, "seen": 0}}  # each run's: killed at its `at`-th step (0: never)


def step():
    kill["seen"] += 1
    if kill["seen"] == kill["at"]:
        os.kill(os.getpid(), signal.SIGKILL)


exit_ = dialect.Transaction.__exit__


def exiting(self, exc_type, exc, tb):
    outer = self.db._depth == 1 and exc_type is None
    if outer:
        step()
    done = exit_(self, exc_type, exc, tb)
    if outer:
        step()
    return done


dialect.Transaction.__exit__ = exiting
write_ = SqliteDatabase.write


def writing(self, sql, args=(), durable=True):
    alone = not self._depth
    if alone:
        step()
    changed = write_(self, sql, args, durable)
    if alone:
        step()
    return changed


SqliteDatabase.write = writing
send_ = transport.OutboxTransport.send


def sending(self, message):
    step()
    send_(self, message)
    step()


transport.OutboxTransport.send = sending
replace_ = os.replace


def replacing(*args, **kwargs):
    step()
    return replace_(*args, **kwargs)


os.replace = replacing
from app.cli import cli
from bench.forked_cli import run_cli



# The command run here, never killed, on a world of its own: what it imports and loads once a process (its rule
# set's modules and data, the email package's tables) is then this process's, so no forked run pays it again. No
# step of it counts, and it leaves no thread behind (a fork copies only the thread that forks). Its exit status.
def warm(run):
    import threading
    saved, fds, code = dict(os.environ), (os.dup(1), os.dup(2)), 1
    try:
        os.environ.update(run["env"])
        for fd, name in ((1, run["out"]), (2, run["err"])):
            opened = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            os.dup2(opened, fd)
            os.close(opened)
        cli(run["args"], prog_name="cli.py", standalone_mode=False)
        code = 0 if threading.active_count() == 1 else 1
    except Exception as exc:
        print(f"{{type(exc).__name__}}: {{exc}}", file=sys.stderr)
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        for fd, kept in zip((1, 2), fds):
            os.dup2(kept, fd)
            os.close(kept)
        os.environ.clear()
        os.environ.update(saved)
        kill["seen"] = 0
    return code


# One run a request line ({{"args", "env", "kill_at", "out", "err"}}): a child forked from this process, which has
# imported everything once, runs the command with its own environment and files and exits as the command does (or
# is SIGKILLed at its step); its exit status is the answer line. A line with "warm" is run here instead (`warm`).
for line in sys.stdin:
    run = json.loads(line)
    if run.get("warm"):
        print(warm(run), flush=True)
        continue
    sys.stdout.flush()
    pid = os.fork()
    if pid == 0:
        run_cli(run["args"], run["env"], run["out"], run["err"], before=lambda: kill.update(at=run["kill_at"] or 0))
    _, status = os.waitpid(pid, 0)
    print(os.waitstatus_to_exitcode(status), flush=True)
"""

PLAYERS = {"red": "red@x.example", "blue": "blue@x.example"}
ARBITER = "arb@x.example"


@dataclass
class KillResult:
    what: str
    kills: int = 0  # runs SIGKILLed at a step
    steps: int = 0  # the steps of a run that got through
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.kills > 0 and not self.problems

    def summary(self) -> str:
        return (f"{self.what}: killed at each of its {self.kills} steps in turn (a full run took {self.steps}), run "
                f"again after each kill: {len(self.problems)} problems")


class Commands:
    """`python cli.py ARGS` runs on a database, each a process of its own, SIGKILLed at its `kill_at`-th step or run
    to its end. Each is forked from one process that imported the command line and installed KILLER's steps once,
    so a run pays neither Python's start nor the imports again (most of a short command's time); what a run does and
    where it can be killed is the command's own: nothing before the command's first step is a step."""

    TIMEOUT = 300  # seconds: a bound on a hung run, never a measure

    def __init__(self, work: Path):
        self.work = work
        self.runs = 0
        self.process = subprocess.Popen([sys.executable, "-c", KILLER.format(root=str(ROOT))], cwd=ROOT, text=True,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def run(self, db: str, env: dict, args: list[str], kill_at: int | None = None,
            warm: bool = False) -> subprocess.CompletedProcess:
        """`python cli.py ARGS` on `db` with `env`, or the same killed at its `kill_at`-th step. `warm`: run in the
        process the runs are forked from, on a world no check reads, so that each later run finds the command's
        modules and data loaded (KILLER's `warm`); its output is not kept."""
        self.runs += 1
        out, err = self.work / f"run-{self.runs}.out", self.work / f"run-{self.runs}.err"
        request = {"args": args, "env": {**os.environ, **env, "HEXLEDGER_DB": db}, "kill_at": kill_at,
                   "out": str(out), "err": str(err), "warm": warm}
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        if not select.select([self.process.stdout], [], [], self.TIMEOUT)[0]:
            self.close()
            raise TimeoutError(f"cli.py {' '.join(args)} ran more than {self.TIMEOUT} s")
        code = int(self.process.stdout.readline())
        done = subprocess.CompletedProcess(["cli.py", *args], code, out.read_text(), err.read_text())
        out.unlink()
        err.unlink()
        return done

    def warm(self, world: Path, db: str, command) -> None:
        """The command run once, unkilled, in the process the runs are forked from (KILLER's `warm`), on a copy of
        `world` that nothing checks, then removed: `command(copy)` gives its (env, args)."""
        case = self.work / f"{world.name}-warm"
        shutil.copytree(world, case)
        env, args = command(case)
        done = self.run(str(case / db), env, args, warm=True)
        if done.returncode != 0:
            raise RuntimeError(f"the warming run of cli.py {' '.join(args)} failed: {done.stderr[-500:]}")
        shutil.rmtree(case)

    def close(self) -> None:
        self.process.stdin.close()
        self.process.kill()
        self.process.wait()

    def __enter__(self) -> Commands:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def sent_and_queued(store: EventStore, folder: Path, bodies: bool = True) -> list[dict]:
    """Every email sent (an .eml file in `folder`) or still to go (a pending row, claimed now as a sender after
    the lease would: rows a killed sender held), each once per Message-ID: a retry repeats its Message-ID.
    `bodies=False`: the sent emails' headers only (their "body" empty), for a check that reads no body: parsing
    the bodies was most of `kill_tick`'s checking time."""
    found: dict[str, dict] = {}
    for path in sorted(folder.glob("*.eml")) if folder.exists() else []:
        if bodies:
            msg = message_from_bytes(path.read_bytes(), policy=policy.default)
        else:
            msg = BytesHeaderParser(policy=policy.default).parsebytes(path.read_bytes())
        found[msg["Message-ID"]] = {"to": str(msg["To"]), "subject": str(msg["Subject"]),
                                    "body": _text(msg) if bodies else "", "sent": True}
    later = datetime.now(UTC) + timedelta(hours=2)
    for row in store.claim_mail(utc_text(later), utc_text(later + timedelta(hours=1)), limit=10_000):
        data = row["data"]
        subject = data.get("subject") or data.get("headline", "")  # as the layout will tag it
        body = data.get("body") or "\n".join(data.get("lines", ()))  # an answer: its lines, laid out when it goes
        found.setdefault(row["message_id"], {"to": row["recipient"], "subject": f"[hexledger {row['game_id']}] "
                                             f"{subject}", "body": body, "sent": False})
    return list(found.values())


def _text(msg) -> str:
    return body_text(msg)  # format=flowed lines joined, as a player's mail program shows them


# -- tick ---------------------------------------------------------------------------------------------------
def tick_world(db: str, outbox: str) -> dict[str, str]:
    """Five games whose clocks `tick` finds run out: auto-pass (red late), notify-arbiter (red late), a reminder
    due (red's turn, deadline not yet passed), forfeit (red late: it loses the game), a time bank (red's hour spent:
    notify-arbiter). Their turns began in the past (the turn subscriber's record, the clock subscriber's)."""
    app = Application(EventStore(db), MailConfig(outbox=outbox))
    made = {}
    for name, settings, began in (("auto", {"deadline_hours": 1, "on_deadline": "auto-pass"}, 2),
                                  ("notify", {"deadline_hours": 1}, 2),
                                  ("remind", {"deadline_hours": 2, "reminder_hours": 1.5}, 1),
                                  ("forfeit", {"deadline_hours": 1, "on_deadline": "forfeit"}, 2),
                                  ("bank", {"bank_hours": 1, "increment_hours": 1}, 2)):
        game_id, tokens = app.setup.create("skirmish", PLAYERS, arbiter=ARBITER, **settings)
        for side in PLAYERS:
            app.setup.join(app.seats.authenticate(game_id, tokens[side]), side)
        app.orders.submit(app.seats.authenticate(game_id, tokens["red"]), "move R1 0202")
        past = utc_text(datetime.now(UTC) - timedelta(hours=began))
        app.store.update_pbem_game(game_id, {"turn_started_at": past})
        record = app.store.pbem_settings(game_id)["clock_state"]
        if record:
            app.store.update_pbem_game(game_id, {"clock_state": json.dumps({**json.loads(record), "since": past})})
        made[name] = game_id
    for path in Path(outbox).glob("*.eml"):  # what came before the deadlines
        path.unlink()
    app.store.close()
    return made


def check_tick(db: str, outbox: Path, games: dict[str, str]) -> list[str]:
    store = EventStore(db)
    problems = []
    try:
        mail = sent_and_queued(store, outbox, bodies=False)  # who was told what: the headers say it

        def told(game_id: str, words: str) -> list[str]:
            return sorted(m["to"] for m in mail if f"[hexledger {game_id}]" in m["subject"] and words in m["subject"])

        for name, game_id in games.items():
            events = list(store.events(game_id))
            if not audit.verify(CATALOG, events).ok:
                problems.append(f"{name}: does not verify")
            passed = [e for e in events if e.type == "core.DeadlinePassed"]
            if name == "remind":
                if passed or told(game_id, "Reminder") != [PLAYERS["red"]]:
                    problems.append(f"remind: {len(passed)} deadlines, reminders to {told(game_id, 'Reminder')}")
                continue
            if len(passed) != 1:
                problems.append(f"{name}: {len(passed)} core.DeadlinePassed events, not 1")
                continue
            passes = [e.payload["text"] for e in events if e.type == "core.OrderGiven" and e.actor == "server:deadline"]
            if name == "forfeit":
                ends = [e.type for e in events if e.type in ("core.Resigned", "core.SeedRevealed")]
                everyone = sorted([*PLAYERS.values(), ARBITER])
                if ends != ["core.Resigned", "core.SeedRevealed"] or told(game_id, "Game over: blue") != everyone:
                    problems.append(f"forfeit: {ends}, game over told to {told(game_id, 'Game over')}")
                continue
            if name == "auto":
                everyone = sorted([*PLAYERS.values(), ARBITER])
                if passes != ["end", "end"] or told(game_id, "the server passed for red") != everyone:
                    problems.append(f"auto: passes {passes}, notices to {told(game_id, 'the server passed')}")
                if told(game_id, "Your turn") != [PLAYERS["blue"]]:
                    problems.append(f"auto: blue's turn emails {told(game_id, 'Your turn')}")
            elif passes or told(game_id, "red has not moved") != [ARBITER]:
                problems.append(f"notify: passes {passes}, notices to {told(game_id, 'has not moved')}")
    finally:
        store.close()
    return problems


def kill_tick(work: str, max_steps: int = 400) -> KillResult:
    """`tick` killed at each of its steps in turn, on a fresh copy of one world each time, then run again (module
    docstring)."""
    result = KillResult("tick")
    world = Path(work) / "tick-world"
    world.mkdir(parents=True)
    games = tick_world(str(world / "tick.sqlite3"), str(world / "outbox"))
    with Commands(Path(work)) as commands:
        commands.warm(world, "tick.sqlite3", lambda case: ({"HEXLEDGER_OUTBOX": str(case / "outbox"),
                                                            "HEXLEDGER_MAIL_RETRY": "0"}, ["tick"]))
        for step in range(1, max_steps + 1):
            case = Path(work) / f"tick-{step}"
            shutil.copytree(world, case)
            db, outbox = str(case / "tick.sqlite3"), case / "outbox"
            env = {"HEXLEDGER_OUTBOX": str(outbox), "HEXLEDGER_MAIL_RETRY": "0"}
            killed = commands.run(db, env, ["tick"], kill_at=step)
            if killed.returncode != -signal.SIGKILL:
                if killed.returncode != 0:
                    result.problems.append(f"the unkilled run failed ({killed.returncode}): {killed.stderr[-500:]}")
                result.steps = step - 1
                result.problems += [f"unkilled: {p}" for p in check_tick(db, outbox, games)]
                shutil.rmtree(case)
                break
            result.kills += 1
            again = commands.run(db, env, ["tick"])
            if again.returncode != 0:
                result.problems.append(f"step {step}: tick after the kill failed: {again.stderr[-500:]}")
            result.problems += [f"killed at step {step}: {p}" for p in check_tick(db, outbox, games)]
            shutil.rmtree(case)
    return result


# -- ingest-email ---------------------------------------------------------------------------------------------
def ingest_world(db: str, maildir: str) -> tuple[str, dict]:
    """A game at red's move and three messages in a maildir's new/: red's order, blue's order out of turn (refused),
    red's two orders that end the turn."""
    import mailbox
    from email.message import EmailMessage

    app = Application(EventStore(db), MailConfig(orders_address="orders@x.example", outbox=maildir + "-sent"))
    game_id, tokens = app.setup.create("skirmish", PLAYERS)
    for side in PLAYERS:
        app.setup.join(app.seats.authenticate(game_id, tokens[side]), side)
    box = mailbox.Maildir(maildir, create=True)
    messages = {"<m1@x.example>": ("red", "move R1 0202"), "<m2@x.example>": ("blue", "move B1 0602"),
                "<m3@x.example>": ("red", "end\nend")}
    for mid, (side, text) in messages.items():
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"], msg["Message-ID"] = PLAYERS[side], f"orders+{game_id}@x.example", \
            "orders", mid
        msg.set_content(f"token: {tokens[side]}\n{text}\n")
        box.add(bytes(msg))
    app.store.close()
    return game_id, messages


def check_ingest(db: str, maildir: Path, sent: Path, game_id: str, last: subprocess.CompletedProcess) -> list[str]:
    problems = []
    if last.returncode != 0:
        problems.append(f"the last run exited {last.returncode}: {last.stdout[-300:]} {last.stderr[-300:]}")
    if list((maildir / "new").iterdir()) or len(list((maildir / "cur").iterdir())) != 3:
        problems.append("not every message was filed in cur/")
    store = EventStore(db)
    try:
        orders = [e.payload["text"] for e in store.events(game_id) if e.type == "core.OrderGiven"]
        if orders != ["move R1 0202", "end", "end"]:
            problems.append(f"orders stored: {orders}")
        mail = sent_and_queued(store, sent)
    finally:
        store.close()
    answers: dict[str, list[dict]] = {}
    for m in mail:
        for mid in ("<m1@x.example>", "<m2@x.example>", "<m3@x.example>"):
            if f"Your message {mid}" in m["body"]:
                answers.setdefault(mid, []).append(m)
    for mid, subject in (("<m1@x.example>", "Orders received"), ("<m2@x.example>", "Orders refused"),
                         ("<m3@x.example>", "Orders received")):
        got = answers.get(mid, [])
        if not got or any(subject not in a["subject"] or "unknown" in a["subject"] for a in got):
            problems.append(f"{mid}: answers {[a['subject'] for a in got]}, each should be {subject!r}")
        firsts = [a for a in got if "already processed" not in a["body"]]
        if len(firsts) != 1 or any(answer_text(firsts[0]["body"]) not in a["body"] for a in got):
            problems.append(f"{mid}: {len(firsts)} first answers; a repeat must carry the first answer")
    turns = [m for m in mail if "Your turn" in m["subject"] and m["to"] == PLAYERS["blue"]]
    if len(turns) != 1:
        problems.append(f"blue's turn emails: {len(turns)}")
    return problems


def answer_text(body: str) -> str:
    """An answer's own text: the lines saying what became of the message, without the seat's situation after them
    (a repeat is laid out later, its history and receipt as they stand then: app/mail/layout.py)."""
    return re.split(r"\n\nGame g-[0-9a-f]{8}, ", body.replace("\r\n", "\n"))[0].strip()


def kill_ingest(work: str, max_steps: int = 400) -> KillResult:
    """`ingest-email --maildir` killed at each of its steps in turn, on a fresh copy of one world each time, then run
    again; then `tick` sends what is due."""
    result = KillResult("ingest-email")
    world = Path(work) / "ingest-world"
    world.mkdir(parents=True)
    game_id, _ = ingest_world(str(world / "ingest.sqlite3"), str(world / "maildir"))
    with Commands(Path(work)) as commands:
        commands.warm(world, "ingest.sqlite3", lambda case: ({"HEXLEDGER_OUTBOX": str(case / "maildir") + "-sent",
                                                              "HEXLEDGER_MAIL_RETRY": "0",
                                                              "HEXLEDGER_ORDERS_ADDRESS": "orders@x.example"},
                                                             ["ingest-email", "--maildir", str(case / "maildir")]))
        for step in range(1, max_steps + 1):
            case = Path(work) / f"ingest-{step}"
            shutil.copytree(world, case)
            db, maildir = str(case / "ingest.sqlite3"), case / "maildir"
            env = {"HEXLEDGER_OUTBOX": str(maildir) + "-sent", "HEXLEDGER_MAIL_RETRY": "0",
                   "HEXLEDGER_ORDERS_ADDRESS": "orders@x.example"}
            killed = commands.run(db, env, ["ingest-email", "--maildir", str(maildir)], kill_at=step)
            if killed.returncode != -signal.SIGKILL:
                result.steps = step - 1
                commands.run(db, env, ["tick"])
                result.problems += [f"unkilled: {p}" for p in check_ingest(db, maildir, Path(str(maildir) + "-sent"),
                                                                           game_id, killed)]
                shutil.rmtree(case)
                break
            result.kills += 1
            again = commands.run(db, env, ["ingest-email", "--maildir", str(maildir)])
            commands.run(db, env, ["tick"])
            result.problems += [f"killed at step {step}: {p}" for p in
                                check_ingest(db, maildir, Path(str(maildir) + "-sent"), game_id, again)]
            shutil.rmtree(case)
    return result


# -- a full disk ---------------------------------------------------------------------------------------------
DISK_FULL = """
import json, os, sys
from datetime import UTC, datetime, timedelta
sys.path.insert(0, {root!r})
from app.events.store import EventStore, utc_text
from app.mail.transport import MailConfig
from app.service.application import Application
from app.web import create_app

location, disk = sys.argv[1], sys.argv[2]
filler = os.path.join(disk, "filler")


def fill():
    if not location.startswith("postgres"):
        import sqlite3
        sqlite3.connect(location).execute("PRAGMA wal_checkpoint(TRUNCATE)")  # every write now needs new space
    try:  # closing the file may fail too, its last block unwritten
        with open(filler, "wb", buffering=0) as f:
            while True:
                f.write(b"x" * 65536)
    except OSError:
        pass


class Kept:
    def __init__(self, filling=False):
        self.sent, self.filling = [], filling

    def send(self, message):
        if self.filling and not self.sent:
            fill()  # the disk fills up in the middle of the sender's round, after its claim
        self.sent.append(message["Message-ID"])


class Later:
    def kick(self):
        pass


players = {{"red": "red@x.example", "blue": "blue@x.example"}}
writer = Application(EventStore(location), MailConfig(), Kept(), notifier=Later())  # mail waits in the outbox
game_id, tokens = writer.setup.create("skirmish", players)
for side in players:
    writer.setup.join(writer.seats.authenticate(game_id, tokens[side]), side)
app = create_app({{"OPEN_GAME_CREATION": True, "HEXLEDGER_DB": location, "MAIL": MailConfig(),
                  "MAIL_TRANSPORT": Kept(), "HEXLEDGER_RATE_LIMIT": "1000000 per minute"}})
other_id, others = writer.setup.create("skirmish", players)  # its orders go in on the full disk until one cannot
for side in players:
    writer.setup.join(writer.seats.authenticate(other_id, others[side]), side)
writer.reactions.catch_up()  # the invitations and red's turn email, queued, not sent
client = app.test_client()
auth = {{"Authorization": "Bearer " + tokens["red"]}}
fill()
refused = order_refused = None
for _ in range(500):  # writes go in while the database's pages have room (PostgreSQL), then one is refused
    r = client.post("/games", json={{"rules": "skirmish", "players": players}})
    if r.status_code != 201:
        refused = (r.status_code, r.json.get("message", ""))
        break
for n in range(500):  # skirmish's steps: red's two, then blue's two
    side = "red" if n % 4 < 2 else "blue"
    r = client.post(f"/games/{{other_id}}/orders", data="end", content_type="text/plain",
                    headers={{"Authorization": "Bearer " + others[side]}})
    if r.status_code != 201:
        order_refused = (r.status_code, r.json.get("message", ""))
        break
os.unlink(filler)
sender, raised = Kept(filling=True), None
try:
    recorded = Application(EventStore(location), MailConfig(), sender).mailroom.deliver().sent
except Exception as exc:
    raised, recorded = f"{{type(exc).__name__}}: {{exc}}", 0
if os.path.exists(filler):
    os.unlink(filler)
after = client.post(f"/games/{{game_id}}/orders", data="move R1 0202", content_type="text/plain", headers=auth)
store = EventStore(location)
later = datetime.now(UTC) + timedelta(hours=2)  # past the lease of the rows sent but not recorded
again = [row["message_id"] for row in store.claim_mail(utc_text(later), utc_text(later + timedelta(hours=1)))]
print(json.dumps({{"status": refused[0] if refused else None, "message": refused[1] if refused else "",
                  "order_status": order_refused[0] if order_refused else None,
                  "order_message": order_refused[1] if order_refused else "", "location": location, "disk": disk,
                  "sender_raised": raised, "sent_while_full": len(sender.sent), "recorded_while_full": recorded,
                  "after_status": after.status_code, "kept_for_a_retry": len(again),
                  "retried_as_sent": set(again) <= set(sender.sent)}}))
"""


@dataclass
class DiskFullResult:
    backend: str
    answer: dict = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return bool(self.answer) and not self.problems

    def summary(self) -> str:
        a = self.answer
        return (f"disk full ({self.backend}): a game's creation answered {a.get('status')} "
                f"({a.get('message', '')[:80]}), an order {a.get('order_status')} ({a.get('order_message', '')[:80]}); "
                f"the sender, the disk filling in its round, sent {a.get('sent_while_full')} claimed emails, recorded "
                f"{a.get('recorded_while_full')}, raised {a.get('sender_raised')}; space freed: an order "
                f"{a.get('after_status')}, {a.get('kept_for_a_retry')} emails kept for a retry (same Message-IDs); "
                f"{len(self.problems)} problems")


def _in_namespace(script: str, mount: str, size_kib: int) -> list[str]:
    """Run `script` (a shell line) in a mount namespace of its own with a tmpfs of `size_kib` KiB at `mount`: as
    root, or in a user namespace where the system allows one."""
    shell = f"mount -t tmpfs -o size={size_kib}k tmpfs {mount} && {script}"
    return ["unshare", "-m", "sh", "-c", shell] if os.geteuid() == 0 else ["unshare", "-rm", "sh", "-c", shell]


# what no answer to a client may hold (docs/reliability.md): a server file or folder (PostgreSQL's own, "pg_tblspc/...",
# or the database's), the operating system's words, a database URL or address; StoreUnavailable.detail is the log's
INFRASTRUCTURE = re.compile(r"pg_tblspc|pg_wal|base/\d|/[\w.-]+/|No space left|could not|\.sqlite3|postgres(ql)?://"
                            r"|127\.0\.0\.1", re.IGNORECASE)


def names_infrastructure(text: str, *places: str) -> bool:
    """Whether an answer's `text` names a part of the server's infrastructure, or one of `places` (a path, a URL)."""
    return bool(INFRASTRUCTURE.search(text)) or any(place and place in text for place in places)


def _judge(result: DiskFullResult, answer: dict) -> DiskFullResult:
    result.answer = answer
    for status, message in ((answer["status"], answer["message"]), (answer["order_status"], answer["order_message"])):
        if status != 503 or "full" not in message or "cannot rollback" in message:
            result.problems.append(f"a write on a full disk: {status} {message!r}")
        if names_infrastructure(message, answer["location"], answer["disk"]):
            result.problems.append(f"a write on a full disk names the server's infrastructure: {message!r}")
    if answer["sender_raised"] is not None or answer["sent_while_full"] < 1:
        result.problems.append(f"the sender on a full disk raised {answer['sender_raised']} after sending "
                               f"{answer['sent_while_full']}")
    if answer["after_status"] != 201 or not answer["retried_as_sent"]:
        result.problems.append(f"space freed: the order {answer['after_status']}; the emails kept for a retry are "
                               f"{'' if answer['retried_as_sent'] else 'not '}the ones sent, with their Message-IDs")
    return result


def disk_full_sqlite(work: str) -> DiskFullResult:
    """The SQLite file on a full tmpfs (module docstring)."""
    disk = Path(work) / "disk"
    disk.mkdir(parents=True, exist_ok=True)
    script = f"{sys.executable} -c {_quoted(DISK_FULL.format(root=str(ROOT)))} {disk}/full.sqlite3 {disk}"
    done = subprocess.run(_in_namespace(script, str(disk), 2048), capture_output=True, text=True, timeout=600,
                          cwd=ROOT)
    result = DiskFullResult("SQLite")
    if done.returncode != 0:
        result.problems.append(f"the run failed ({done.returncode}): {done.stderr[-1500:]}")
        return result
    return _judge(result, json.loads(done.stdout.strip().splitlines()[-1]))


def disk_full_postgres() -> DiskFullResult:
    """A PostgreSQL database whose tablespace is a full tmpfs, on a server started in the same mount namespace
    (its write-ahead log stays on the ordinary disk: the tables cannot grow)."""
    disk = Path(tempfile.mkdtemp(prefix="hexledger-pgdisk-"))  # under /tmp: the server's user must reach it
    disk.chmod(0o755)
    runner = f"""
import sys
sys.path.insert(0, {str(ROOT)!r})
import os, pwd, subprocess
from bench import pg_cluster
disk = sys.argv[1]
cluster = pg_cluster.start()
try:
    space = os.path.join(disk, "space")
    os.mkdir(space)
    if cluster.uid is not None:
        os.chown(space, cluster.uid, pwd.getpwuid(cluster.uid).pw_gid)
    import psycopg
    with psycopg.connect(cluster.url(), autocommit=True) as admin:
        admin.execute(f"CREATE TABLESPACE small LOCATION '{{space}}'")
        admin.execute("CREATE DATABASE full_disk OWNER hexledger TABLESPACE small")
    done = subprocess.run([sys.executable, "-c", sys.argv[2], cluster.url("full_disk"), disk], text=True,
                          capture_output=True)
    sys.stdout.write(done.stdout)
    sys.stderr.write(done.stderr)
    sys.exit(done.returncode)
finally:
    cluster.stop()
"""
    script = (f"{sys.executable} -c {_quoted(runner)} {disk} "
              f"{_quoted(DISK_FULL.format(root=str(ROOT)))}")
    try:
        done = subprocess.run(_in_namespace(script, str(disk), 8192), capture_output=True, text=True, timeout=900,
                              cwd=ROOT)
    finally:
        shutil.rmtree(disk, ignore_errors=True)
    result = DiskFullResult("PostgreSQL")
    if done.returncode != 0:
        result.problems.append(f"the run failed ({done.returncode}): {done.stderr[-1500:]}")
        return result
    return _judge(result, json.loads(done.stdout.strip().splitlines()[-1]))


def _quoted(text: str) -> str:
    return "'" + text.replace("'", "'\"'\"'") + "'"
