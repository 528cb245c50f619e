"""The rate limiter's per-request work, kept to the counting itself.

The per-process counters (`memory://`, the default), without a thread per burst of requests: limits'
MemoryStorage starts a timer thread 10 ms after each counter change to purge expired counters: under a steady
stream of requests that is a thread started for nearly every request, about 1 ms of each (issue 15, profiled).
Fixed-window counters expire when read anyway (`get`), so this storage counts the same way and purges the
expired ones inline, at most once a second.

Which limits a route has (`ResolvedOnce`): flask-limiter works it out again on every request (parsing each
limit's text, walking the blueprint's exemptions), a quarter of a bare request's CPU and more on a blueprint's
route (issue 26, profiled); the app's limits are fixed when it is made, so each route's are worked out once.

Which headers an answer carries (`headers`): flask-limiter's own put `Retry-After` on every answer, 200s included,
and raised a 503's own `Retry-After` to its window's reset; here the `X-RateLimit-*` headers go on every counted
answer and `Retry-After` only on a 429 (RFC 6585 4; a 503's is its handler's, RFC 9110 10.2.3).
"""
from __future__ import annotations

import time
from functools import partial

from flask import Response
from flask_limiter import Limiter
from limits.storage import MemoryStorage

SCHEME = "hexledger-memory"
PURGE_EVERY = 1.0  # seconds


class InlineExpiryMemoryStorage(MemoryStorage):
    STORAGE_SCHEME = [SCHEME]

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False, **options):
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)
        self._purged_at = time.time()

    def incr(self, key: str, expiry: float, amount: int = 1) -> int:
        now = time.time()
        if now - self._purged_at >= PURGE_EVERY:
            self._purged_at = now
            for stale in [k for k, at in list(self.expirations.items()) if at <= now]:
                self.get(stale)  # drops an expired counter
        self.get(key)
        with self.locks[key]:
            self.storage[key] += amount
            if self.storage[key] == amount:
                self.expirations[key] = now + expiry
        return self.storage.get(key, 0)


def storage_uri(configured: str) -> str:
    """The limiter's storage: this one for the in-process default, else what the operator configured (redis...)."""
    return f"{SCHEME}://" if configured == "memory://" else configured


class ResolvedOnce:
    """flask-limiter's LimitManager (`manager`), each route's limits and exemptions worked out once and kept: the
    answer depends only on the limits declared (fixed strings, declared while the app is made; declaring or
    setting one more forgets what was kept) and on the route, never on the request. Counting, keys (per seat, per
    address) and exemption callbacks still run on every request (`RuntimeLimit.is_exempt` is asked each time).
    Everything else is the manager's own."""

    KEPT = ("resolve_limits", "exemption_scope")

    def __init__(self, manager):
        self._manager = manager
        self._kept: dict[tuple, object] = {}

    def __getattr__(self, name: str):
        found = getattr(self._manager, name)
        if name in self.KEPT:
            return partial(self._once, name, found)
        if name.startswith(("add_", "set_")):  # a limit or an exemption declared
            return partial(self._declaring, found)
        return found

    def _once(self, name: str, work, app, *args, **kwargs):
        key = (name, id(app), *args, *sorted(kwargs.items()))
        if key not in self._kept:
            self._kept[key] = work(app, *args, **kwargs)
        kept = self._kept[key]
        return tuple(list(part) for part in kept) if isinstance(kept, tuple) else kept  # lists the caller may extend

    def _declaring(self, declare, *args, **kwargs):
        self._kept.clear()
        return declare(*args, **kwargs)


def headers(made: Limiter):
    """An after-request step: the limit that counted this request (the tightest, or the one breached) as
    X-RateLimit-Limit, -Remaining and -Reset (epoch seconds); on a 429, Retry-After: the seconds until it resets."""
    def add(response: Response) -> Response:
        counted = made.current_limit
        if counted is not None:
            reset_at = counted.reset_at
            response.headers["X-RateLimit-Limit"] = str(counted.limit.amount)
            response.headers["X-RateLimit-Remaining"] = str(counted.remaining)
            response.headers["X-RateLimit-Reset"] = str(reset_at)
            if response.status_code == 429:
                response.headers["Retry-After"] = str(max(1, reset_at - int(time.time())))
        return response
    return add


def limiter(key_func, app, **options) -> Limiter:
    """flask-limiter's Limiter on `app`, with each route's limits worked out once (`ResolvedOnce`) and its
    headers written by `headers`, not by flask-limiter."""
    made = Limiter(key_func, headers_enabled=False, **options)
    made.limit_manager = ResolvedOnce(made.limit_manager)
    made.init_app(app)
    app.after_request(headers(made))
    return made
