"""The per-process rate-limit counters (`memory://`, the default), without a thread per burst of requests.

limits' MemoryStorage starts a timer thread 10 ms after each counter change to purge expired counters: under a
steady stream of requests that is a thread started for nearly every request, about 1 ms of each (issue 15,
profiled). Fixed-window counters expire when read anyway (`get`), so this storage counts the same way and
purges the expired ones inline, at most once a second.
"""
from __future__ import annotations

import time

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
