"""The HTTP server `cli.py serve` runs: waitress, with its limits set by the operator, and past them a fast 503 with
Retry-After instead of a wait (issue 25; README "Serving", docs/reliability.md).

waitress on its own serves `connection_limit` connections (default 100) and stops accepting past it: a client
beyond the limit waits in the kernel's backlog until a kept-alive connection closes, which under load is never (128
clients on `--threads 8`: 30 requests timed out after 60 s). And every request read waits in one unbounded queue
for a worker thread. Here:
- past `connection_limit` open connections a new connection is still accepted and read, and its request answered
  503 with Retry-After and closed, by a thread of its own that does nothing else; only past twice the limit does
  the server stop accepting (a flood of idle connections cannot take every file descriptor);
- past `request_queue` requests waiting for a worker thread, a new request is answered the same way, at once;
- `threads`, `backlog` (connections the kernel holds before they are accepted) and `channel_timeout` (seconds an
  idle kept-alive connection stays open) are waitress's own;
- a request body over MAX_BODY is refused by waitress before it is read whole (its own default is 1 GiB, written
  to a temporary file); the app refuses bodies over its own MAX_CONTENT_LENGTH (64 KiB) with its JSON 413.
A refused request has run no code of the app: nothing was read, nothing written. The refusal is the API's error
shape, {"error": "Overloaded", "message": ...}; the log (`hexledger.http`) counts refusals, a line at most every
LOG_EVERY seconds.

This extends waitress 3's server, task dispatcher and error task (`waitress.server.TcpWSGIServer`,
`waitress.task.ThreadedTaskDispatcher`, a request's `error`), which tests/reliability/test_serve_limits.py holds
to it through real sockets.
"""
from __future__ import annotations

import json
import logging
import os
import threading
import time
from collections import deque
from dataclasses import dataclass

from waitress.adjustments import Adjustments
from waitress.server import TcpWSGIServer
from waitress.task import ThreadedTaskDispatcher
from waitress.utilities import Error

MAX_BODY = 1024 * 1024
LOG_EVERY = 10.0  # seconds
STARTING = 30.0  # seconds a new server waits at most for its worker threads to start
LOG = logging.getLogger("hexledger.http")


@dataclass(frozen=True)
class Limits:
    """What `serve` takes on at once (its defaults are `cli.py serve`'s options; README, "Serving")."""

    threads: int
    connection_limit: int
    request_queue: int
    backlog: int
    channel_timeout: int
    retry_after: int

    def __post_init__(self):
        for name in ("threads", "connection_limit", "backlog", "channel_timeout", "retry_after"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name.replace('_', ' ')} must be at least 1, not {getattr(self, name)}")
        if self.request_queue < 0:
            raise ValueError(f"request queue must be at least 0, not {self.request_queue}")


class Overloaded(Error):
    """The answer past a limit: 503, Retry-After, the API's error shape; the connection is closed after it."""

    code = 503
    reason = "Service Unavailable"

    def __init__(self, message: str, retry_after: int):
        super().__init__(message)
        self.retry_after = retry_after

    def to_response(self, ident=None):
        body = json.dumps({"error": "Overloaded", "message": f"{self.body}: ask again in {self.retry_after} s"})
        return (f"{self.code} {self.reason}", [("Content-Type", "application/json"),
                                                ("Retry-After", str(self.retry_after))], body.encode())


class _Refusals:
    """One thread that answers refused requests (a few hundred bytes each), so that a refusal waits for no worker."""

    def __init__(self):
        self._queue: deque = deque()
        self._ready = threading.Condition()
        self._counted, self._logged_at = 0, 0.0
        self._thread = threading.Thread(target=self._run, name="hexledger-refusals", daemon=True)
        self._thread.start()

    def add(self, channel, refusal: Overloaded) -> None:
        channel.requests[0].error = refusal  # waitress answers it with its error task, not the app
        with self._ready:
            self._queue.append(channel)
            self._ready.notify()
            self._counted += 1
            now = time.monotonic()
            if now - self._logged_at >= LOG_EVERY:
                LOG.warning("refused %d request(s) with 503 since the last such line: %s", self._counted,
                            refusal.body)
                self._counted, self._logged_at = 0, now

    def stop(self, timeout: float) -> None:
        """Answer the refusals queued, then end the thread (`stop` in this module); at most `timeout` seconds."""
        with self._ready:
            self._queue.append(None)
            self._ready.notify()
        self._thread.join(timeout)

    def _run(self) -> None:
        while True:
            with self._ready:
                while not self._queue:
                    self._ready.wait()
                channel = self._queue.popleft()
            if channel is None:
                return
            try:
                channel.service()
            except Exception:  # noqa: BLE001 - a refusal that cannot be written: the client has gone
                channel.will_close = True


class _BoundedDispatcher(ThreadedTaskDispatcher):
    """waitress's worker threads, with a bound on the requests waiting for one (`Limits.request_queue`)."""

    def __init__(self, limits: Limits, refusals: _Refusals):
        super().__init__()
        self.limits, self.refusals = limits, refusals

    def add_task(self, channel) -> None:
        refused = getattr(channel, "refused", None)
        if refused is None:
            with self.lock:
                if len(self.queue) < self.limits.request_queue + self._idle():
                    self.queue.append(channel)
                    self.queue_cv.notify()
                    return
            refused = f"{self.limits.request_queue} requests are waiting already"
        self.refusals.add(channel, Overloaded(f"the server is at its limit: {refused}", self.limits.retry_after))

    def _idle(self) -> int:
        return len(self.threads) - self.stop_count - self.active_count

    def set_thread_count(self, count: int) -> None:
        """waitress's, then wait until every new worker waits for work: waitress counts a worker busy from its start
        until it first waits, so a request reaching a server just started on a loaded machine was refused as if
        every worker were busy (seen with `request_queue` 0)."""
        super().set_thread_count(count)
        deadline = time.monotonic() + STARTING
        while time.monotonic() < deadline:
            with self.lock:
                if self.active_count <= 0:
                    return
            time.sleep(0.001)


class LimitedServer(TcpWSGIServer):
    """waitress's TCP server; past `connection_limit` open connections a new one is answered 503 and closed."""

    def __init__(self, app, limits: Limits, host: str, port: int):
        self.limits = limits
        adj = Adjustments(host=host, port=port, threads=limits.threads, connection_limit=limits.connection_limit,
                          backlog=limits.backlog, channel_timeout=limits.channel_timeout,
                          max_request_body_size=MAX_BODY)
        dispatcher = _BoundedDispatcher(limits, _Refusals())
        dispatcher.set_thread_count(limits.threads)
        self._wakes, self._quiet = threading.Lock(), False
        super().__init__(app, adj=adj, dispatcher=dispatcher)

    def pull_trigger(self) -> None:
        """Wake the loop (waitress: a worker's answer is ready to send), unless the server is closing (`quiet`)."""
        with self._wakes:
            if not self._quiet:
                super().pull_trigger()

    def quiet(self) -> None:
        """From now on no thread writes to the wake-up pipe but `stop`, which then closes it: back once a wake-up
        under way has been written."""
        with self._wakes:
            self._quiet = True

    def readable(self) -> bool:
        now = time.time()
        if now >= self.next_channel_cleanup:  # waitress's upkeep: idle connections closed
            self.next_channel_cleanup = now + self.adj.cleanup_interval
            self.maintenance(now)
        return self.accepting and len(self.active_channels) < 2 * self.limits.connection_limit

    def handle_accept(self) -> None:
        over = len(self.active_channels) >= self.limits.connection_limit
        known = set(self.active_channels)
        super().handle_accept()
        if over:
            for fileno in set(self.active_channels) - known:
                self.active_channels[fileno].refused = f"{self.limits.connection_limit} connections are open"



def stop(server: TcpWSGIServer, timeout: float = 5) -> None:
    """Stop a running waitress server: its work in progress ends first, then its connections are closed from its
    loop's own thread and the loop ends (`run` returns); back when that is done, or after `timeout` seconds for the
    workers and as long again for the loop. A second call does nothing.

    The order matters (waitress 3.0's source): a worker finishing a request wakes the loop through the server's
    trigger, a pipe (`channel.service` ends with `server.pull_trigger()` once it saw the connection open;
    `write_soon` does the same), and closing the trigger closes that pipe's file descriptors, which any file the
    process opens next may reuse. Closing first and stopping the workers second, as this did, let a worker still
    finishing write to a closed descriptor (EBADF, seen once at a test's teardown under load) or into whatever had
    reused it. So: (1) stop accepting; (2) stop the worker threads, waitress's `shutdown`, which waits for the
    request each is serving (the loop still runs and sends their answers) and cancels those still queued; (3) end the
    thread answering refusals (`LimitedServer`) the same way; (4) from here any late wake-up is dropped (a worker
    still running past `timeout`: `LimitedServer.quiet`); (5) close every connection and the trigger in the loop's
    thread: from another thread the close races the loop's select (EBADF in the loop's thread).

    (5) does not depend on the pipe: the loop asks each of its channels `readable()` at every turn, at least every
    `asyncore_loop_timeout` seconds (waitress's default: 1), and the trigger's answer is what closes everything and
    ends the loop; the pipe only wakes the loop at once. Its write end has been found closed by something else of
    the process (EBADF from `pull_trigger` at a test's teardown, three times, the trigger itself not closed; what
    closed it is not known, docs/reliability.md): then the loop still closes at its next turn, the warning says what
    that descriptor's number is now, and that number, no longer the pipe's, is not closed again."""
    if getattr(server, "_hexledger_stopped", False):
        return
    server._hexledger_stopped = True
    server.accepting = False  # (1) the loop no longer polls the listening socket; its backlog is refused on close
    server.task_dispatcher.shutdown(timeout=timeout)  # (2)
    refusals = getattr(server.task_dispatcher, "refusals", None)
    if refusals is not None:
        refusals.stop(timeout)  # (3)
    if isinstance(server, LimitedServer):
        server.quiet()  # (4)
    else:  # waitress's own server (the tests' and benches'): a wake-up already under way is not waited for
        server.pull_trigger = lambda: None
    trigger, closed = server.trigger, threading.Event()
    if trigger._closed:  # the server closed itself (waitress closes its trigger with it on an error)
        LOG.warning("the server had closed its own wake-up pipe (see waitress's log): its loop cannot be told")
        return

    def close_all():  # (5), in the loop's thread
        if not _same_file(trigger.trigger, trigger.socket.fileno()):  # the write end is no longer the pipe's
            trigger._fds = [fd for fd in trigger._fds if fd != trigger.trigger]
        for channel in list(server._map.values()):
            if channel is not trigger:
                channel.close()
        trigger.close()
        closed.set()
        raise SystemExit  # out of the loop's turn (its channels are closed): waitress's `run` returns

    trigger.readable = close_all  # asked by the loop at its next turn
    try:
        trigger.pull_trigger()  # the next turn now
    except OSError as error:  # its write end closed by something else of the process: the turn comes within a second
        LOG.warning("the server's wake-up pipe is gone (%s): its write end, descriptor %d, is now %s; the loop "
                    "closes its connections at its next turn", error, trigger.trigger, _file_of(trigger.trigger))
    if not closed.wait(timeout):
        LOG.warning("the server's loop did not close its connections within %s s: is it running?", timeout)


def _same_file(fd: int, other: int) -> bool:
    """Whether descriptors `fd` and `other` are open on the same file (a pipe's two ends are)."""
    try:
        a, b = os.fstat(fd), os.fstat(other)
    except OSError:
        return False
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


def _file_of(fd: int) -> str:
    """What descriptor `fd` of this process is open on (Linux's /proc), or that it is closed, for a log line."""
    try:
        return f"open on {os.readlink(f'/proc/self/fd/{fd}')}"
    except FileNotFoundError:
        return "closed"
    except OSError as error:
        return f"unknown ({error})"


def make_server(app, host: str, port: int, limits: Limits) -> LimitedServer:
    """The server for `app` on host:port (0: any free port; `effective_port` says which), not yet running."""
    return LimitedServer(app, limits, host, port)
