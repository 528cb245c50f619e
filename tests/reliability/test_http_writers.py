"""Concurrent writers through waitress on 127.0.0.1 (bench/http_writers.py, run small): same game and many games."""
from bench.http_writers import http_race


def test_writers_through_the_wsgi_server_lose_nothing_and_every_loser_gets_409(tmp_path):
    result = http_race(str(tmp_path / "http.sqlite3"), n_games=5, writers_per_game=3, threads=6)
    assert result.unexpected == [] and result.gave_up == 0
    assert result.accepted == 15  # every writer got its order in
    # a loser is told 409 (the only answer besides 200 that is not 'unexpected'); the deterministic 409 case is
    # tests/pbem/test_api.py::test_orders_as_text_and_json_and_a_stale_one_is_409
    assert result.lost == [] and result.duplicate_seqs == [] and result.unverified == []
