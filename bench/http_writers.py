"""Concurrent writers through the real WSGI server: waitress on 127.0.0.1, many client threads submitting orders
with expected_seq to the same game and to different games.

Checks: no acknowledged order lost, no duplicate or missing sequence number, every losing writer told with HTTP 409
(and nothing written for it), every game verifies. The CI test (tests/reliability/test_http_writers.py) runs it
small; run this script for the larger figures kept in docs/reliability.md.

Usage: python bench/http_writers.py [--games 20] [--writers 3] [--threads 8]
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import argparse  # noqa: E402
import http.client  # noqa: E402
import json  # noqa: E402
import tempfile  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402

from waitress import create_server  # noqa: E402

from app.events.backends import open_store  # noqa: E402
from app.mail.transport import MailConfig  # noqa: E402
from app.rules.catalog import installed  # noqa: E402
from app.service import audit  # noqa: E402
from app.web import create_app  # noqa: E402
from app.web.server import stop  # noqa: E402

CATALOG = installed()  # the rule sets installed here

RED_MOVES = ("move R1 0202", "move R2 0203", "move R3 0204")
MAX_ATTEMPTS = 400  # per writer: bounds the run even if something goes wrong


class _Mailbag:
    def __init__(self):
        self.count = 0
        self._lock = threading.Lock()

    def send(self, message) -> None:
        with self._lock:
            self.count += 1


@dataclass
class HttpRaceResult:
    games: int
    writers: int
    server_threads: int
    accepted: int = 0
    conflicts: int = 0
    unexpected: list = field(default_factory=list)  # (status, body) of any answer but 201 or 409
    lost: list = field(default_factory=list)  # games missing an acknowledged order, or holding an unacknowledged one
    duplicate_seqs: list = field(default_factory=list)
    unverified: list = field(default_factory=list)
    gave_up: int = 0
    seconds: float = 0.0

    def summary(self) -> str:
        return (f"http race: {self.writers} writers on {self.games} games through waitress ({self.server_threads} "
                f"threads), {self.accepted} orders accepted, {self.conflicts} told 409 and retried, "
                f"{len(self.unexpected)} other answers, {len(self.lost)} games lost or gained an order, "
                f"{len(self.duplicate_seqs)} duplicate seqs, {len(self.unverified)} failed verify; "
                f"{self.seconds:.2f} s")


def _request(conn: http.client.HTTPConnection, method: str, path: str, body=None, token: str | None = None):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
    response = conn.getresponse()
    data = response.read()
    return response.status, (json.loads(data) if data else None)


def http_race(db_path: str, n_games: int, writers_per_game: int = 3, threads: int = 8,
              ports: list[int] | None = None) -> HttpRaceResult:
    """Each game's red units are moved by `writers_per_game` racing clients (one unit each): a client reads the
    game's seq, submits with expected_seq, and on 409 reads again and retries. The server is waitress in this
    process on `db_path`, or, given `ports`, the servers already listening there on 127.0.0.1 (`serve` processes
    on one PostgreSQL database): the writers of a game then spread over them, so they race across processes."""
    server = serving = None
    if ports is None:
        app = create_app({"OPEN_GAME_CREATION": True,  # creating games is not what this tests
                          "HEXLEDGER_DB": db_path, "MAIL": MailConfig(), "MAIL_TRANSPORT": _Mailbag(),
                          "HEXLEDGER_RATE_LIMIT": "1000000 per minute"})
        server = create_server(app, host="127.0.0.1", port=0, threads=threads)
        ports = [server.effective_port]
        serving = threading.Thread(target=server.run, daemon=True)
        serving.start()
    port = ports[0]
    moves = RED_MOVES[:writers_per_game]
    result = HttpRaceResult(n_games, n_games * len(moves), threads)
    try:
        setup = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        games: dict[str, str] = {}
        for n in range(n_games):
            status, created = _request(setup, "POST", "/games", {
                "rules": "skirmish", "players": {"red": f"red{n}@x.example", "blue": f"blue{n}@x.example"}})
            assert status == 201, created
            for side in ("red", "blue"):
                status, body = _request(setup, "POST", f"/games/{created['game_id']}/join", {"seed_text": side},
                                        created["tokens"][side])
                assert status == 201, body
            games[created["game_id"]] = created["tokens"]["red"]
        setup.close()
        lock = threading.Lock()
        acknowledged: dict[str, list[tuple[int, str]]] = {g: [] for g in games}
        barrier = threading.Barrier(result.writers)

        def writer(game_id: str, token: str, order: str, port: int) -> None:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            barrier.wait()
            try:
                for _ in range(MAX_ATTEMPTS):
                    status, state = _request(conn, "GET", f"/games/{game_id}/state", token=token)
                    if status != 200:
                        with lock:
                            result.unexpected.append((status, state))
                        return
                    status, body = _request(conn, "POST", f"/games/{game_id}/orders",
                                            {"order": order, "expected_seq": state["seq"]}, token)
                    with lock:
                        if status == 201:
                            result.accepted += 1
                            acknowledged[game_id].append((body["seq"], order))
                            return
                        if status == 409:
                            result.conflicts += 1
                            continue
                        result.unexpected.append((status, body))
                        return
                with lock:
                    result.gave_up += 1
            finally:
                conn.close()

        clients = [threading.Thread(target=writer, args=(g, t, o, ports[n % len(ports)]))
                   for g, t in games.items() for n, o in enumerate(moves)]
        start = time.perf_counter()
        for c in clients:
            c.start()
        for c in clients:
            c.join(timeout=300)
        result.seconds = time.perf_counter() - start
        store = open_store(db_path)
        for game_id in games:
            events = list(store.events(game_id))
            seqs = [e.seq for e in events]
            if len(seqs) != len(set(seqs)) or seqs != list(range(1, len(events) + 1)):
                result.duplicate_seqs.append(game_id)
            orders = sorted(e.payload["text"] for e in events if e.type == "core.OrderGiven")
            stored_at = {e.seq: e.payload["text"] for e in events if e.type == "core.OrderGiven"}
            # every acknowledged order is in the stream (its events end at the seq the client was told), and the
            # stream holds no order that no client was told was accepted: a 409 wrote nothing
            told = sorted(o for _, o in acknowledged[game_id])
            in_place = all(any(stored_at.get(s) == o for s in range(1, seq + 1)) for seq, o in acknowledged[game_id])
            if orders != told or not in_place:
                result.lost.append(game_id)
            if not audit.verify(CATALOG, events).ok:
                result.unverified.append(game_id)
        store.close()
    finally:
        if server is not None:
            stop(server)
            serving.join(timeout=10)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--writers", type=int, default=3, choices=(1, 2, 3))
    parser.add_argument("--threads", type=int, default=8)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        result = http_race(str(Path(work) / "http-race.sqlite3"), args.games, args.writers, args.threads)
    print(result.summary())
    ok = not (result.unexpected or result.lost or result.duplicate_seqs or result.unverified or result.gave_up)
    sys.exit(0 if ok and result.accepted == result.writers else 1)


if __name__ == "__main__":
    main()
