"""The rate limiter's in-process counters (app/web/ratelimit.py): fixed windows as limits' memory storage keeps
them, without a timer thread started per burst of requests (issue 15)."""
import threading

from freezegun import freeze_time

from app.web.ratelimit import InlineExpiryMemoryStorage, storage_uri


def test_counters_count_per_key_and_start_again_after_their_window():
    with freeze_time("2030-01-01 00:00:00") as clock:
        storage = InlineExpiryMemoryStorage()
        assert [storage.incr("seat:a", 60) for _ in range(3)] == [1, 2, 3]
        assert storage.incr("seat:b", 60) == 1
        clock.tick(59)
        assert storage.incr("seat:a", 60) == 4
        clock.tick(2)
        assert storage.incr("seat:a", 60) == 1  # a new window
        assert "seat:b" not in storage.expirations  # expired counters are purged as requests come in


def test_counting_starts_no_thread():
    storage = InlineExpiryMemoryStorage()
    storage.timer.join()  # the one the base class starts when it is made
    before = threading.active_count()
    for n in range(200):
        storage.incr(f"addr:{n % 7}", 60)
    assert threading.active_count() == before


def test_the_in_process_default_uses_it_and_other_storages_are_kept():
    assert storage_uri("memory://") == "hexledger-memory://"
    assert storage_uri("redis://localhost:6379") == "redis://localhost:6379"
