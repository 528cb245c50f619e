"""Play by email's own records (app/events/interface.py, SeatRecords), written once over the dialect layer: a
game's settings and deadlines (pbem_games) and its seats (pbem_members: the address, the token's hash, how far
the seat has read and been told). None of this is an event: tokens must never reach an export."""
from __future__ import annotations

from app.events.dialect import Tables, identifier
from app.events.errors import NoPbemSettings

CREDENTIALS_KEPT = 4096  # games whose seats a connection keeps for the token check (`credentials`)


class SeatTables(Tables):
    """The pbem_games and pbem_members tables."""

    def add_pbem_game(self, game_id: str, settings: dict, members: list[dict]) -> None:
        """A game's play-by-email settings (columns of pbem_games) and its seats (game_id, seat, email, token_hash,
        created_at), in the caller's transaction."""
        with self.db.transaction():
            self._insert("pbem_games", {"game_id": game_id, **settings})
            for member in members:
                self._insert("pbem_members", {"game_id": game_id, **member})

    def _insert(self, table: str, row: dict) -> None:
        self.db.write(f"INSERT INTO {identifier(table)} ({', '.join(identifier(c) for c in row)}) "
                      f"VALUES ({', '.join('?' * len(row))})", list(row.values()))

    def members(self, game_id: str) -> list[dict]:
        """A game's seats, each a dict (seat, email, token_hash, last_seen_seq, last_notified_seq, ...)."""
        return _listed(self.db.rows(f"SELECT * FROM pbem_members WHERE game_id = ? ORDER BY {self.db.order}",
                                    [game_id]))

    def credentials(self, game_id: str) -> list[dict]:
        """A game's seats as a credential check reads them: each {seat, email, token_hash}. These columns are
        written once, with the seats, and never change (what changes, the read and notified marks, is not here), so
        a connection keeps a game's once it has read them committed: the token check of every request then costs
        no query (issue 26). A game with no seats (yet) is not kept; at most CREDENTIALS_KEPT games a connection."""
        kept = self.db.credentials.get(game_id)
        if kept is None:
            kept = [{"seat": seat, "email": email, "token_hash": token_hash} for seat, email, token_hash in
                    self.db.tuples("SELECT seat, email, token_hash FROM pbem_members WHERE game_id = ? "
                                   f"ORDER BY {self.db.order}", [game_id])]
            if kept and not self.db.in_transaction:  # inside one, a rollback could take the seats back
                if len(self.db.credentials) >= CREDENTIALS_KEPT:
                    self.db.credentials.clear()
                self.db.credentials[game_id] = kept
        return kept

    def pbem_settings(self, game_id: str) -> dict | None:
        rows = _listed(self.db.rows("SELECT * FROM pbem_games WHERE game_id = ?", [game_id]))
        return rows[0] if rows else None

    def update_pbem_game(self, game_id: str, changes: dict) -> None:
        """Change columns of a game's play-by-email settings; a game without settings is NoPbemSettings."""
        with self.db.transaction():
            updated = self.db.write(f"UPDATE pbem_games SET {', '.join(f'{identifier(c)} = ?' for c in changes)} "
                                    "WHERE game_id = ?", [*changes.values(), game_id])
            if not updated:
                raise NoPbemSettings(game_id)

    def pbem_games(self, running_only: bool = True, on_clock_only: bool = False) -> list[dict]:
        """Play-by-email games' settings: not yet over (`running_only`), with a clock running (`on_clock_only`: a
        fixed deadline and someone's turn, or a clock of its own, app/service/clocks.py)."""
        where = ["over_notified = 0"] if running_only else []
        if on_clock_only:
            where += ["((deadline_hours IS NOT NULL AND turn_side IS NOT NULL) OR clock_state IS NOT NULL)"]
        return _listed(self.db.rows("SELECT * FROM pbem_games" + (" WHERE " + " AND ".join(where) if where else "")
                                    + f" ORDER BY {self.db.order}"))

    def mark_seen(self, game_id: str, seat: str, seq: int) -> None:
        """The seat has read the game up to `seq` (never lowered). A refusal raises StoreUnavailable."""
        self._seat_mark("last_seen_seq", game_id, seat, seq)

    def mark_notified(self, game_id: str, seat: str, seq: int) -> None:
        """The seat's turn email up to `seq` went (never lowered)."""
        self._seat_mark("last_notified_seq", game_id, seat, seq)

    def _seat_mark(self, column: str, game_id: str, seat: str, seq: int) -> None:
        """A mark only rises, whoever writes it, so one this connection saw committed at or above `seq` needs no
        statement: a player reading an unchanged game again takes no write lock (and waits for no writer), after
        their own order too (its transaction wrote the mark: known once it commits, since a rollback takes it
        back); a mark already there writes nothing (no commit, no fsync), and is read once to be known: a mark
        another connection wrote (another of the server's threads) asks for no write statement on every read after
        (issue 26: a state read served by four threads issued the UPDATE on three of them each time)."""
        key = (column, game_id, seat)
        if self.db.marks.get(key, -1) >= seq:
            return
        changed = self.db.write(f"UPDATE pbem_members SET {identifier(column)} = ? WHERE game_id = ? AND seat = ? "
                                f"AND {identifier(column)} < ?", [seq, game_id, seat, seq])
        if changed:
            self.db.remember_mark(key, seq)
            return
        found = self.db.one(f"SELECT {identifier(column)} FROM pbem_members WHERE game_id = ? AND seat = ?",
                            [game_id, seat])
        if found is not None and found[0] is not None and found[0] >= seq:  # (no such seat: nothing to know)
            self.db.remember_mark(key, found[0])


def _listed(rows: list[dict]) -> list[dict]:
    """Rows without PostgreSQL's `position` column (the order they were added in, which SQLite's rowid keeps)."""
    for row in rows:
        row.pop("position", None)
    return rows
