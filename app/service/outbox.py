"""The transactional outbox: the emails a write causes are rows written in that write's own transaction
(`Outbox.queue_mail`), and a sender delivers them after the commit, with retries and exponential backoff.

So an answer reflects the stored write only: a mail server that is down, refuses or is slow, or an .eml folder that
cannot be written, delays an email; it never loses it and never fails the write. The rows are the reactions' outputs
(app/service/reactions.py) and the direct answers to requests. Senders: inline after each write (the application
service's default: the CLI, ingest-email, tests), a background thread, a process of its own (`cli.py serve`: a turn
email's layout, its legal orders and map, takes far longer than the order, and in the server's process it would hold
the interpreter's lock that the requests need), and `tick` / `cli.py outbox --send` (cron), which also pick up the
retries that fell due. A claimed row is leased (LEASE), so two senders never send it at once; a sender that dies
between the send and the record sends it again after the lease, with the same Message-ID (at least once).

A player gets one turn email for the position they face, not one per intermediate turn: before each claim, a due
turn email is superseded (`Outbox.supersede_mail`) when the outbox holds a later turn email of its game to the
same seat (a newer position for them), or to anyone from a later position (their turn is over: the game went on).
The row stays, marked 'superseded' with the row that superseded it (`cli.py outbox` lists it); it is neither laid
out nor sent, and the seat's next email tells the history since the last one that went. Game-over emails, one a seat
at one position, never supersede each other. A full round (the sender's, `tick`'s, `outbox --send`'s) then deletes
the superseded rows that fell due longer ago than the operator keeps them (HEXLEDGER_OUTBOX_KEEP_DAYS), so the
outbox does not grow with every burst of orders; a sent row is deleted when it goes, a pending or failed one never.
"""
from __future__ import annotations

import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from email.message import EmailMessage
from multiprocessing.connection import Connection
from typing import Protocol

from app.events.interface import Outbox
from app.events.store import StoreError, utc_text
from app.service.ports import PermanentFailure, TemporaryFailure, Transport

LOG = logging.getLogger("hexledger.outbox")
LEASE = timedelta(minutes=5)  # longer than any send (the SMTP timeout is 30 s by default)
LONGEST_WAIT = timedelta(hours=1)  # the backoff doubles up to this
PERMANENT_TRIES = 3  # a 5xx refusal is tried this often, then the row waits for an operator (status 'failed')
POLL_SECONDS = 30.0  # the background sender looks for mail queued by other processes this often
MIN_WAIT = 0.05  # between rounds, so a database that refuses the claims is not hammered
SETTLE = 1.0  # seconds a woken sender lets a burst of orders finish before it claims (`_settled`)
NICENESS = 10  # the sender process runs at this lower CPU priority (os.nice): a turn email may wait, an answer not


class Composer(Protocol):
    """The service's side of delivery: lay a row out as an email, and record that it went."""

    def outgoing(self, row: dict) -> EmailMessage: ...

    def delivered(self, row: dict) -> None: ...


@dataclass
class Report:
    sent: int = 0
    failed: list[str] = field(default_factory=list)
    superseded: int = 0  # turn emails made stale by a newer one before they went (Outbox.supersede_mail)
    pruned: int = 0  # superseded rows past their keeping, deleted (Outbox.prune_mail)


def permanent(exc: Exception) -> bool:
    """A refusal the transport means for good (PermanentFailure: an SMTP 5xx answer), or a message we cannot lay
    out; what the transport calls temporary (TemporaryFailure: connection trouble, timeouts, 4xx answers, a folder
    that cannot be written), a system error it let through, and a database that cannot be read now are worth
    retrying."""
    if isinstance(exc, PermanentFailure):
        return True
    return not isinstance(exc, TemporaryFailure | OSError | StoreError)


def retry_at(now: datetime, attempts: int, first: float) -> datetime:
    """`first` seconds after the first failure, doubling, at most LONGEST_WAIT."""
    return now + min(timedelta(seconds=first * 2 ** (attempts - 1)), LONGEST_WAIT)


def deliver(store: Outbox, composer: Composer, transport: Transport, now: datetime, first_retry: float,
            ids: list[int] | None = None, keep: timedelta | None = None) -> Report:
    """Send the mail due at `now` (of `ids` only, if given); each failure is recorded with its next attempt. With
    `keep`, then delete the superseded rows that fell due longer than `keep` ago (`Outbox.prune_mail`)."""
    report = Report()
    try:
        report.superseded = store.supersede_mail(utc_text(now))
        rows = store.claim_mail(utc_text(now), utc_text(now + LEASE), ids)
    except Exception as exc:  # noqa: BLE001 - a locked database, a full disk: the mail waits for the next run
        LOG.warning("outbox: cannot claim mail now: %s", exc)
        return report
    for row in rows:
        what = f"mail {row['id']} ({row['kind']}, game {row['game_id'] or '-'}) to {row['recipient']}"
        try:
            transport.send(composer.outgoing(row))
        except Exception as exc:  # noqa: BLE001 - whatever the transport or the layout raised, the row stays
            tries = row["attempts"] + 1
            again = None if permanent(exc) and tries >= PERMANENT_TRIES else retry_at(now, tries, first_retry)
            LOG.warning("outbox: %s failed (attempt %d; %s): %s", what, tries,
                        f"next at {utc_text(again)}" if again else "refused for good: `cli.py outbox --retry`", exc)
            report.failed.append(f"{what}: {exc}")
            try:
                store.mail_failed(row["id"], f"{type(exc).__name__}: {exc}", utc_text(again) if again else None)
            except Exception as record_error:  # noqa: BLE001 - the lease runs out and the row is tried again
                LOG.warning("outbox: %s: failure not recorded: %s", what, record_error)
            continue
        try:
            with store.transaction():
                store.mail_sent(row["id"])
                composer.delivered(row)
            report.sent += 1
        except Exception as exc:  # noqa: BLE001 - sent, not recorded (a full disk, a lock): the next rows go on;
            # this one goes again after the lease, with the same Message-ID (at least once)
            LOG.warning("outbox: %s sent, but not recorded: %s", what, exc)
    if keep is not None:
        try:
            report.pruned = store.prune_mail(utc_text(now - keep))
        except Exception as exc:  # noqa: BLE001 - a locked database: the rows wait for the next round
            LOG.warning("outbox: cannot delete superseded mail now: %s", exc)
    return report


Round = Callable[[], datetime | None]  # one round of a sender: deliver what is due, say when the next mail is due


class BackgroundSender:
    """A sender as a daemon thread of the server: it delivers SETTLE seconds after a write kicks it, when a retry
    falls due, and every POLL_SECONDS (mail queued by other processes: ingest-email, tick). `run` does one round and
    says when the next mail is due; the thread makes its own service (its own database connection) with `make`."""

    def __init__(self, make: Callable[[], Round], poll: float = POLL_SECONDS):
        self._make, self._poll = make, poll
        self._wake = threading.Event()
        self._stopping = False
        self._thread = threading.Thread(target=self._loop, name="hexledger-mail-sender", daemon=True)

    def start(self) -> BackgroundSender:
        self._thread.start()
        return self

    def kick(self) -> None:
        self._wake.set()

    def stop(self) -> None:
        self._stopping = True
        self._wake.set()
        self._thread.join()

    def _loop(self) -> None:
        def wait_for_kick(seconds: float) -> bool:
            self._wake.wait(seconds)
            self._wake.clear()
            return True

        self._wake.clear()
        _rounds(self._make, wait_for_kick, self._poll, lambda: self._stopping)



def _rounds(make: Callable[[], Round], wait_for_kick: Callable[[float], bool], poll: float,
            stopping: Callable[[], bool] = lambda: False) -> None:
    """A sender's loop: a round, then wait for a kick, the next mail due or `poll` seconds, then SETTLE seconds
    more (`_settled`); `wait_for_kick` returns False when the sender must stop."""
    run = None
    while not stopping():
        wait = poll
        try:
            run = run or make()
            due = run()
            if due is not None:
                wait = min(wait, max(MIN_WAIT, (due - datetime.now(due.tzinfo)).total_seconds()))
        except Exception:  # noqa: BLE001 - the sender outlives any one failure; it is logged
            LOG.exception("outbox: sender round failed")
        if not wait_for_kick(wait) or not _settled(wait_for_kick, SETTLE, stopping):
            return


def _settled(wait_for_kick: Callable[[float], bool], seconds: float, stopping: Callable[[], bool]) -> bool:
    """Let a burst of writes finish before the next round: take their kicks for `seconds`, so that the round finds
    every turn email they queued and sends only the newest of each game (`Outbox.supersede_mail`). False when
    the sender must stop."""
    until = time.monotonic() + seconds
    while (left := until - time.monotonic()) > 0 and not stopping():
        if not wait_for_kick(left):
            return False
    return True


class SenderProcess:
    """`serve`'s sender: a process of its own (BackgroundSender's loop), kicked through a pipe after each write
    that queued mail, at a lower CPU priority (NICENESS): laying out a turn email takes several times an order's
    CPU, and on a busy machine the server's requests get the cores first. `make` must be picklable (a module-level
    function, or a partial of one): the process starts fresh (spawn) and makes its own service and database
    connection with it. It stops when `stop` closes the pipe, or when this process ends, whichever way (the pipe's
    end is closed by the system)."""

    def __init__(self, make: Callable[[], Round], poll: float = POLL_SECONDS):
        context = multiprocessing.get_context("spawn")  # never fork a process that runs a server's threads
        reader, self._writer = context.Pipe(duplex=False)
        os.set_blocking(self._writer.fileno(), False)  # a kick never waits: a full pipe holds kicks enough
        self._process = context.Process(target=_sender_process, args=(make, reader, poll),
                                        name="hexledger-mail-sender", daemon=True)
        self._reader = reader

    def start(self) -> SenderProcess:
        self._process.start()
        self._reader.close()  # the child's copy is the one that reads
        return self

    def kick(self) -> None:
        try:
            self._writer.send_bytes(b"!")  # 5 bytes: a pipe writes them whole or not at all
        except BlockingIOError:
            pass  # kicks are waiting already
        except OSError:  # the sender is gone: the mail waits in the outbox for `tick` (logged once a kick)
            LOG.warning("outbox: the sender process has ended; mail waits for `tick` or `cli.py outbox --send`")

    def stop(self) -> None:
        self._writer.close()
        self._process.join()

    @property
    def alive(self) -> bool:
        return self._process.is_alive()

    @property
    def pid(self) -> int:
        """The sender's process id (as `ps` and `top` show it, at its own priority)."""
        return self._process.pid


def _sender_process(make: Callable[[], Round], kicks: Connection, poll: float) -> None:
    os.nice(NICENESS)  # the requests win the cores; the mail waits for a free moment

    def wait_for_kick(seconds: float) -> bool:
        try:
            if kicks.poll(seconds):
                while kicks.poll(0):
                    kicks.recv_bytes()
        except (EOFError, OSError):  # the server closed its end, or ended
            return False
        return True

    _rounds(make, wait_for_kick, poll)
