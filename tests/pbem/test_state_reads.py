"""GET /games/<id>/state at the head: the rendered answer is kept per game, seat and stored head
(app/projections/cache.py VIEWS, `Table.view_now`) and carries an ETag, so a client that sends it back as
If-None-Match gets 304 while the position is unchanged (issue 15). The one visibility rule holds for a kept
answer: it is never another seat's, and any new event, whoever appends it, retires it. On each store backend."""
import json
import subprocess
import sys
from pathlib import Path

from app.mail.transport import MailConfig
from app.projections.cache import HeadCache
from app.web import create_app
from tests.outbox import Outbox

ROOT = Path(__file__).resolve().parents[2]
SIDES = {"snc": ("japanese", "chinese"), "skirmish": ("red", "blue")}


def world(location, rules):
    app = create_app({"OPEN_GAME_CREATION": True, "HEXLEDGER_DB": location, "MAIL_TRANSPORT": Outbox(),
                      "MAIL": MailConfig()})
    client = app.test_client()
    r = client.post("/games", json={"rules": rules, "players": {s: f"{s}@x.example" for s in SIDES[rules]}})
    g, tokens = r.json["game_id"], r.json["tokens"]

    def read(seat, path="/games/{g}/state", **headers):
        return client.get(path.replace("{g}", g), headers={"Authorization": f"Bearer {tokens[seat]}", **headers})

    for seat in SIDES[rules]:
        client.post(f"/games/{g}/join", json={"seed_text": seat}, headers={"Authorization": f"Bearer {tokens[seat]}"})
    return app, read, g, tokens


def uncached(app, g, token) -> dict:
    """The seat's view built afresh by the service (`Table.view`), as the answer's JSON reads it."""
    service = app.extensions["hexledger_service"]()
    return json.loads(json.dumps(service.reads.view(service.seats.authenticate(g, token))))


def test_a_kept_answer_is_never_shown_to_another_side(db_location):
    app, read, g, tokens = world(db_location, "snc")
    chinese = read("chinese")
    japanese = read("japanese")  # the same head, right after the Chinese answer was kept
    assert chinese.status_code == japanese.status_code == 200
    assert chinese.json["seq"] == japanese.json["seq"]
    assert (chinese.json["you"], japanese.json["you"]) == ("chinese", "japanese")
    assert chinese.data != japanese.data and chinese.headers["ETag"] != japanese.headers["ETag"]
    # SNC 6.3: each side sees its own garrisons and landing forces, not the other's
    assert "cn-gar-a" in chinese.get_data(as_text=True) and "cn-gar-a" not in japanese.get_data(as_text=True)
    assert "jp-snlf-1" in japanese.get_data(as_text=True) and "jp-snlf-1" not in chinese.get_data(as_text=True)
    for seat, first in (("chinese", chinese), ("japanese", japanese)):
        again = read(seat)
        assert again.data == first.data and again.headers["ETag"] == first.headers["ETag"]
        assert again.json == uncached(app, g, tokens[seat])


def test_the_etag_gives_304_until_a_new_event_from_another_process(db_location):
    app, read, g, tokens = world(db_location, "skirmish")
    first = read("blue")
    etag = first.headers["ETag"]
    assert first.status_code == 200 and first.headers["Cache-Control"] == "private, no-cache"
    unchanged = read("blue", **{"If-None-Match": etag})
    assert unchanged.status_code == 304 and unchanged.data == b"" and unchanged.headers["ETag"] == etag
    assert read("blue", **{"If-None-Match": f'"other", W/{etag}'}).status_code == 304  # weak comparison, a list
    assert read("red", **{"If-None-Match": etag}).status_code == 200  # red's answer is another entity

    # another process appends an order: nothing in this process is told, the stored head says it
    subprocess.run([sys.executable, "-c", "import sys; from app.events.backends import open_store; "
                    "from app.rules.catalog import installed; from app.service import games; "
                    "games.submit(open_store(sys.argv[1]), installed(), *sys.argv[2:])",
                    db_location, g, "red", "move R1 0202"], cwd=ROOT, check=True)
    moved = read("blue", **{"If-None-Match": etag})
    assert moved.status_code == 200 and moved.json["seq"] > first.json["seq"]
    assert {u["id"]: u["hex"] for u in moved.json["view"]["units"]}["R1"] == "0202"
    assert moved.headers["ETag"] != etag and moved.json == uncached(app, g, tokens["blue"])


def test_a_rewound_position_has_its_own_etag_and_is_a_read(db_location):
    _, read, g, _ = world(db_location, "skirmish")
    head = read("blue").json["seq"]
    past = read("blue", f"/games/{{g}}/state?at={head - 1}")
    assert past.status_code == 200 and past.json["seq"] == head - 1
    assert read("blue", f"/games/{{g}}/state?at={head - 1}",
                **{"If-None-Match": past.headers["ETag"]}).status_code == 304
    assert read("blue", **{"If-None-Match": past.headers["ETag"]}).status_code == 200


def test_the_cache_is_bounded_and_forgets_an_entry_of_another_head():
    cache = HeadCache(2)
    cache.put("a", (1, "h1"), "A")
    cache.put("b", (1, "h1"), "B")
    assert cache.get("a", (1, "h1")) == "A"  # now the most recently used
    cache.put("c", (1, "h1"), "C")
    assert cache.get("b", (1, "h1")) is None and cache.get("a", (1, "h1")) == "A"
    assert cache.get("a", (2, "h2")) is None  # the game moved on
    assert cache.get("a", (1, "h1")) is None  # and the old entry is gone for good
    off = HeadCache(0)
    off.put("a", (1, "h1"), "A")
    assert off.get("a", (1, "h1")) is None


def test_reading_an_unchanged_game_again_waits_for_no_writer(tmp_path):
    """The read marks the seat's "seen" (undo's consent rule) once; read again while another connection holds
    SQLite's write lock (a long import, another server's append), the unchanged game still answers at once."""
    import sqlite3

    db = str(tmp_path / "reads.sqlite3")
    app = create_app({"OPEN_GAME_CREATION": True, "HEXLEDGER_DB": db, "MAIL_TRANSPORT": Outbox(), "MAIL": MailConfig(),
                      "HEXLEDGER_BUSY_TIMEOUT": 0.2})
    client = app.test_client()
    r = client.post("/games", json={"rules": "skirmish", "players": {"red": "r@x.example", "blue": "b@x.example"}})
    g, auth = r.json["game_id"], {"Authorization": f"Bearer {r.json['tokens']['blue']}"}
    first = client.get(f"/games/{g}/state", headers=auth)
    assert first.status_code == 200
    writer = sqlite3.connect(db, isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")  # the write lock, held
    try:
        again = client.get(f"/games/{g}/state", headers=auth)
        assert again.status_code == 200 and again.data == first.data
    finally:
        writer.execute("ROLLBACK")
        writer.close()


def test_a_state_read_asks_the_database_for_the_head_once(db_location, monkeypatch):
    """A read the kept answers do not hold (a game's first, or the first after a move) renders the state at the head
    it read: the head query runs once, not again inside the load (it ran twice), on the process's first read of the
    game (no state of it kept) and on the next one after an order (the state kept, the answer not)."""
    from app.events.postgres import PostgresDatabase
    from app.events.sqlite import SqliteDatabase
    from app.events.streams import HEAD
    from app.projections.cache import STATES

    app, read, g, tokens = world(db_location, "skirmish")
    heads = []
    for database in (SqliteDatabase, PostgresDatabase):
        one = database.one

        def counted(self, sql, args=(), one=one):
            heads.append(sql == HEAD)
            return one(self, sql, args)

        monkeypatch.setattr(database, "one", counted)
    STATES.clear()  # as in a process that never read this game
    first = read("blue")
    assert first.status_code == 200 and sum(heads) == 1
    heads.clear()
    order = app.test_client().post(f"/games/{g}/orders", data="move R1 0202",
                                   headers={"Authorization": f"Bearer {tokens['red']}"})
    assert order.status_code == 201, order.json
    heads.clear()
    moved = read("blue")
    assert moved.status_code == 200 and moved.json["seq"] > first.json["seq"] and sum(heads) == 1
    assert moved.json == uncached(app, g, tokens["blue"])


def test_reading_again_after_ones_own_order_writes_nothing(db_location, monkeypatch):
    """A seat's order marks the game seen up to its own events, in the order's transaction. Reading the unchanged
    game after it issued the mark's UPDATE again on every read (it changed no row, so the connection never learnt
    the mark was there), a write statement each time: on SQLite it waits for any writer holding the lock. Now the
    mark the order committed is known, and its reads at that head issue no write."""
    from app.events.postgres import PostgresDatabase
    from app.events.sqlite import SqliteDatabase

    app, read, g, tokens = world(db_location, "skirmish")
    order = app.test_client().post(f"/games/{g}/orders", data="move R1 0202",
                                   headers={"Authorization": f"Bearer {tokens['red']}"})
    assert order.status_code == 201, order.json
    marks = []
    for database in (SqliteDatabase, PostgresDatabase):
        write = database.write

        def counted(self, sql, *args, write=write, **kwargs):
            marks.append("last_seen_seq" in sql)
            return write(self, sql, *args, **kwargs)

        monkeypatch.setattr(database, "write", counted)
    first, again = read("red"), read("red")
    assert first.status_code == again.status_code == 200 and first.json["seq"] == order.json["seq"]
    assert sum(marks) == 0
    blue = read("blue")  # the other seat's read marks it once, as before
    assert blue.status_code == 200 and sum(marks) == 1
