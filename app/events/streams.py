"""Event streams (app/events/interface.py, EventStreams), written once over the dialect layer: one append-only,
hash-chained stream per game. An append takes the caller's expected last sequence number and writes all its
events or none: a stale writer gets Conflict. The batch is sealed onto the head this process last saw committed
for the game when the caller expects that seq (no read of the head), else onto the head read; the dialect stores
it only onto that head (SQLite: the (game_id, seq) key under the writer lock; PostgreSQL: append_events under the
game's row lock), and answers the head it found otherwise."""
from __future__ import annotations

import json
from collections.abc import Iterable, Iterator

from app.events.dialect import EVENT_COLUMNS, Tables, event_row, head_of, stored_event
from app.events.envelope import GENESIS_HASH, EventBody, NewEvent, StoredEvent, canonical_json, seal, utc_now
from app.events.errors import Conflict, StoreError, UnknownGame

SEEDS_KEPT = 4096  # games' dice seeds a connection keeps (`dice_seed`)
HEAD = "SELECT seq, hash FROM events WHERE game_id = ? ORDER BY seq DESC LIMIT 1"


class StreamTables(Tables):
    """The games and events tables, and the games' secret dice seeds."""

    # -- writing --------------------------------------------------------------------------------------------
    def create_game(self, game_id: str, rules: str, scenario: str, first_events: list[NewEvent],
                    seed: str | None, parent: tuple[str, int] | None = None) -> list[StoredEvent]:
        """Register a new game and append its first events, in one transaction."""
        with self.db.transaction():
            self._register_game(game_id, rules, scenario, parent)
            if seed is not None:
                self.db.write("INSERT INTO dice_seeds (game_id, seed) VALUES (?, ?)", [game_id, seed])
            return self._append_onto(game_id, 0, first_events, (0, GENESIS_HASH))

    def append(self, game_id: str, expected_seq: int, events: list[NewEvent],
               expected_hash: str | None = None) -> list[StoredEvent]:
        """Append `events` after `expected_seq`, or raise Conflict and write nothing (UnknownGame for no game).
        Outside a transaction the append is its own, on disk before this returns. `expected_hash`: the hash of
        event `expected_seq` as the caller knows it (a writer that decided on a kept state without reading the
        head: app/projections/state.py `newest`); a stream whose event `expected_seq` is another (a kept state of
        a transaction that rolled back, of a database made again at the same location) is a Conflict too."""
        with self.db.appending():
            known = self.db.heads.get(game_id)
            if expected_hash is None:
                head = known if known is not None and known[0] == expected_seq else self._read_head(game_id)
            else:
                head = known if known == (expected_seq, expected_hash) else self._read_head(game_id)
            if head[0] != expected_seq:
                if head[0] == 0 and not self.game_exists(game_id):  # every game has its first events
                    raise UnknownGame(game_id)
                raise Conflict(game_id, expected_seq, head[0])
            if expected_hash is not None and head[1] != expected_hash:
                raise Conflict(game_id, expected_seq, head[0])
            return self._append_onto(game_id, expected_seq, events, head, reseal=expected_hash is None)

    def _append_onto(self, game_id: str, expected_seq: int, events: list[NewEvent],
                     head: tuple[int, str], reseal: bool = True) -> list[StoredEvent]:
        """Seal `events` onto `head` (at the caller's expected seq) and store them; a head whose hash is not the
        stored one's (remembered from a database since replaced under the same location) is replaced by the stored
        one and the batch sealed again, unless `reseal` is False (the caller named that hash: Conflict)."""
        for _ in range(2):
            sealed, payloads = seal(game_id, expected_seq, head[1], events)
            wanted = (sealed[-1].seq, sealed[-1].hash) if sealed else head
            found = self.db.append(game_id, expected_seq, head[1], sealed, payloads)
            if found is None:
                raise UnknownGame(game_id)
            found = (found[0], found[1])
            if found == wanted:
                self.db.remember_head(game_id, found)
                return sealed
            if found[0] != expected_seq or not reseal:
                break
            head = found
        self.db.heads.pop(game_id, None)
        raise Conflict(game_id, expected_seq, found[0])

    def import_stream(self, game_id: str, rules: str, scenario: str, events: list[StoredEvent],
                      parent: tuple[str, int] | None = None) -> None:
        """Store an already sealed, verified stream (an imported export) as a new game, all or nothing."""
        with self.db.transaction():
            self._register_game(game_id, rules, scenario, parent)
            self.db.many(f"INSERT INTO events ({EVENT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                         [event_row(e, canonical_json(e.payload)) for e in events])
            # its head now, not one this process remembers of a game of that id in a database since replaced here
            if events:
                self.db.remember_head(game_id, (events[-1].seq, events[-1].hash))
            else:
                self.db.heads.pop(game_id, None)

    def _register_game(self, game_id: str, rules: str, scenario: str, parent: tuple[str, int] | None) -> None:
        inserted = self.db.write(
            "INSERT INTO games (id, rules, scenario, created_at, parent_id, parent_seq) VALUES (?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (id) DO NOTHING",
            [game_id, rules, scenario, utc_now(), parent[0] if parent else None, parent[1] if parent else None])
        if not inserted:
            raise StoreError(f"game {game_id!r} already exists here; nothing written")

    # -- reading --------------------------------------------------------------------------------------------
    def _read_head(self, game_id: str) -> tuple[int, str]:
        return head_of(self.db.one(HEAD, [game_id])) or (0, GENESIS_HASH)

    def head(self, game_id: str) -> tuple[int, str]:
        """(last sequence number, its hash) of a game's stream; read outside a transaction, it is a committed
        head, remembered for the next append."""
        head = self._read_head(game_id)
        if head[0] == 0:
            self.game(game_id)  # UnknownGame (every game has its first events)
        elif not self.db.in_transaction:
            self.db.heads[game_id] = head
        return head

    def game_exists(self, game_id: str) -> bool:
        return self.db.one("SELECT 1 FROM games WHERE id = ?", [game_id]) is not None

    def game(self, game_id: str) -> dict:
        rows = self.db.rows("SELECT * FROM games WHERE id = ?", [game_id])
        if not rows:
            raise UnknownGame(game_id)
        return rows[0]

    def games(self, after: str | None = None, limit: int | None = None, finished_only: bool = False) -> list[dict]:
        """Games in the order they were created, from just after the game `after`, at most `limit`; with
        `finished_only` only games that ended (their dice seed revealed because the game was over)."""
        where, args = [], []
        if after is not None:
            where.append("(g.created_at, g.id) > (SELECT created_at, id FROM games WHERE id = ?)")
            args.append(after)
        if finished_only:  # CASE: only these payloads are read as JSON (PostgreSQL's jsonb refuses \u0000)
            where.append("EXISTS (SELECT 1 FROM events e WHERE e.game_id = g.id AND e.type = 'core.SeedRevealed' "
                         f"AND CASE WHEN e.type = 'core.SeedRevealed' THEN {self.db.json_text('e.payload', 'reason')}"
                         " END = 'game over')")
        sql = ("SELECT g.*, (SELECT max(seq) FROM events e WHERE e.game_id = g.id) AS last_seq FROM games g"
               + (" WHERE " + " AND ".join(where) if where else "") + " ORDER BY g.created_at, g.id")
        if limit is not None:
            sql += " LIMIT ?"
            args.append(limit)
        return self.db.rows(sql, args)

    def events(self, game_id: str, from_seq: int = 1, to_seq: int | None = None) -> Iterator[StoredEvent]:
        """A game's events in order, from `from_seq` through `to_seq` (inclusive)."""
        sql = f"SELECT {EVENT_COLUMNS} FROM events WHERE game_id = ? AND seq >= ?"
        args: list = [game_id, from_seq]
        if to_seq is not None:
            sql += " AND seq <= ?"
            args.append(to_seq)
        yield from map(stored_event, self.db.tuples(sql + " ORDER BY seq", args))

    def bodies(self, game_id: str, from_seq: int = 1, to_seq: int | None = None,
               unread: frozenset[str] = frozenset()) -> Iterator[EventBody]:
        """What a fold reads of a game's events (seq, type, version, payload), in order, `from_seq` through
        `to_seq` (inclusive): `events` without the envelope's provenance and chain fields. The events of the
        types in `unread` come with no payload (None): the reader counts them or passes them by, and their JSON
        is not decoded."""
        loads, body = json.loads, tuple.__new__  # the named tuple made as a tuple: its own __new__ is a Python
        for seq, type_, version, payload in self.body_rows(game_id, from_seq, to_seq):  # call, a tenth of a fold
            yield body(EventBody, (game_id, seq, type_, version, None if type_ in unread else loads(payload)))

    def body_rows(self, game_id: str, from_seq: int = 1, to_seq: int | None = None) -> Iterable[tuple]:
        """`bodies` as the rows the database gives, (seq, type, version, payload as its stored JSON text), in
        order: for a fold that decodes what it reads itself (app/projections/state.py `fold_rows`), without an
        object or a generator step a row (issue 26: a tenth of a full rebuild)."""
        sql = "SELECT seq, type, version, payload FROM events WHERE game_id = ? AND seq >= ?"
        args: list = [game_id, from_seq]
        if to_seq is not None:
            sql += " AND seq <= ?"
            args.append(to_seq)
        return self.db.tuples(sql + " ORDER BY seq", args)

    def event(self, game_id: str, seq: int) -> StoredEvent | None:
        return next(self.events(game_id, seq, seq), None)

    def retractions(self, game_id: str, to_seq: int) -> list[tuple[int, dict]]:
        """(seq, payload) of the game's core.Retracted events up to `to_seq`, in order."""
        return [(seq, json.loads(payload)) for seq, payload in self.db.tuples(
            f"SELECT seq, payload FROM {self.db.retractions_from} WHERE game_id = ? AND type = 'core.Retracted' "
            "AND seq <= ? ORDER BY seq", [game_id, to_seq])]

    def dice_seed(self, game_id: str) -> str | None:
        """The game's secret dice seed (None: a game this server holds none for, imported). A seed is stored with
        its game and never changes, so a connection keeps one once it has read it committed: an order then reads
        no row for it (issue 26). At most SEEDS_KEPT games a connection."""
        seed = self.db.seeds.get(game_id)
        if seed is None:
            row = self.db.one("SELECT seed FROM dice_seeds WHERE game_id = ?", [game_id])
            seed = row[0] if row else None
            if seed is not None and not self.db.in_transaction:  # inside one, a rollback could take it back
                if len(self.db.seeds) >= SEEDS_KEPT:
                    self.db.seeds.clear()
                self.db.seeds[game_id] = seed
        return seed
