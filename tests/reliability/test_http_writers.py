"""Concurrent writers through waitress on 127.0.0.1 (bench/http_writers.py, run small): same game and many games."""
from bench.http_writers import http_race


def test_writers_through_the_wsgi_server_lose_nothing_and_every_loser_gets_409(tmp_path):
    result = http_race(str(tmp_path / "http.sqlite3"), n_games=5, writers_per_game=3, threads=6)
    assert result.unexpected == [] and result.gave_up == 0
    assert result.accepted == 15  # every writer got its order in
    assert result.conflicts > 0  # the race was real: losers were told 409 and retried
    assert result.lost == [] and result.duplicate_seqs == [] and result.unverified == []
