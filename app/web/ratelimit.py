"""The rate limiter's per-request work, kept to the counting itself.

The per-process counters (`memory://`, the default), without a thread per burst of requests: limits'
MemoryStorage starts a timer thread 10 ms after each counter change to purge expired counters: under a steady
stream of requests that is a thread started for nearly every request, about 1 ms of each (issue 15, profiled).
Fixed-window counters expire when read anyway (`get`), so this storage counts the same way and purges the
expired ones inline, at most once a second.

Which limits a route has (`ResolvedOnce`): flask-limiter works it out again on every request (parsing each
limit's text, walking the blueprint's exemptions), a quarter of a bare request's CPU and more on a blueprint's
route (issue 26, profiled); the app's limits are fixed when it is made, so each route's are worked out once.
"""
from __future__ import annotations

import time

from flask_limiter import Limiter
from flask_limiter._manager import LimitManager
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


class ResolvedOnce(LimitManager):
    """flask-limiter's LimitManager, each route's limits and exemptions worked out once and kept: the answer
    depends only on the limits declared (fixed strings, declared while the app is made; declaring one more
    forgets what was kept) and on the route, never on the request. Counting, keys (per seat, per address) and
    exemption callbacks still run on every request (`RuntimeLimit.is_exempt` is asked each time)."""

    def __init__(self, manager: LimitManager):
        super().__init__(manager._application_limits, manager._default_limits, manager._decorated_limits,
                         manager._blueprint_limits, manager._route_exemptions, manager._blueprint_exemptions)
        self._endpoint_hints = manager._endpoint_hints
        self._kept: dict[tuple, object] = {}

    def resolve_limits(self, app, endpoint=None, blueprint=None, callable_name=None, in_middleware=False,
                       marked_for_limiting=False):
        key = ("limits", id(app), endpoint, blueprint, callable_name, in_middleware, marked_for_limiting)
        if key not in self._kept:
            self._kept[key] = super().resolve_limits(app, endpoint, blueprint, callable_name, in_middleware,
                                                     marked_for_limiting)
        defaults, decorated = self._kept[key]
        return list(defaults), list(decorated)

    def exemption_scope(self, app, endpoint, blueprint):
        key = ("exemption", id(app), endpoint, blueprint)
        if key not in self._kept:
            self._kept[key] = super().exemption_scope(app, endpoint, blueprint)
        return self._kept[key]

    def _forget(self) -> None:
        self._kept = {}

    def set_application_limits(self, limits) -> None:
        super().set_application_limits(limits)
        self._forget()

    def set_default_limits(self, limits) -> None:
        super().set_default_limits(limits)
        self._forget()

    def add_decorated_limit(self, route, limit, override=False) -> None:
        super().add_decorated_limit(route, limit, override)
        self._forget()

    def add_blueprint_limit(self, blueprint, limit) -> None:
        super().add_blueprint_limit(blueprint, limit)
        self._forget()

    def add_route_exemption(self, route, scope) -> None:
        super().add_route_exemption(route, scope)
        self._forget()

    def add_blueprint_exemption(self, blueprint, scope) -> None:
        super().add_blueprint_exemption(blueprint, scope)
        self._forget()

    def add_endpoint_hint(self, endpoint, callable) -> None:  # noqa: A002 (flask-limiter's own name)
        super().add_endpoint_hint(endpoint, callable)
        self._forget()


def limiter(key_func, app, **options) -> Limiter:
    """flask-limiter's Limiter on `app`, with each route's limits worked out once (`ResolvedOnce`)."""
    made = Limiter(key_func, **options)
    made.limit_manager = ResolvedOnce(made.limit_manager)
    made.init_app(app)
    return made
