"""The players' own records (app/events/interface.py, Players), written once over the dialect layer: the seats an
address holds across the server, each seat's notification channel beside email, and the sign-in links mailed to an
address. None of this is an event: a channel's URL holds the player's webhook secret and must never reach an
export, and a sign-in link opens a page, not a game."""
from __future__ import annotations

from app.events.dialect import Tables


class PlayerTables(Tables):
    """The seat_channels and sign_in_links tables, and pbem_members read by address."""

    def seats_of(self, email: str) -> list[dict]:
        """Every seat whose address is `email` (in any case), newest game first: game_id, seat, email, rules,
        scenario, created_at (the game's)."""
        return self.db.rows(
            "SELECT m.game_id, m.seat, m.email, g.rules, g.scenario, g.created_at FROM pbem_members m "
            "JOIN games g ON g.id = m.game_id WHERE lower(m.email) = lower(?) "
            "ORDER BY g.created_at DESC, m.game_id, m.seat", [email])

    def set_channel(self, game_id: str, seat: str, url: str | None, at: str) -> None:
        """The seat's notification channel is `url` from now (None: none, email only)."""
        if url is None:
            self.db.write("DELETE FROM seat_channels WHERE game_id = ? AND seat = ?", [game_id, seat])
            return
        self.db.write("INSERT INTO seat_channels (game_id, seat, url, set_at) VALUES (?, ?, ?, ?) "
                      "ON CONFLICT (game_id, seat) DO UPDATE SET url = excluded.url, set_at = excluded.set_at",
                      [game_id, seat, url, at])

    def channels(self, game_id: str) -> dict[str, str]:
        """The game's seats that have a notification channel: seat -> URL."""
        return dict(self.db.tuples("SELECT seat, url FROM seat_channels WHERE game_id = ?", [game_id]))

    def keep_sign_in(self, code_hash: str, email: str, expires_at: str, now: str) -> None:
        """A sign-in link for `email`, kept by its code's hash until `expires_at`; links expired at `now` go."""
        with self.db.transaction():
            self.db.write("DELETE FROM sign_in_links WHERE expires_at <= ?", [now])
            self.db.write("INSERT INTO sign_in_links (code_hash, email, expires_at) VALUES (?, ?, ?)",
                          [code_hash, email, expires_at])

    def take_sign_in(self, code_hash: str, now: str) -> str | None:
        """The address a sign-in link was made for, if it has not expired at `now`; the link is gone after this
        call whatever it answers (single use: of two callers with one link, one gets the address)."""
        with self.db.transaction():
            row = self.db.one("DELETE FROM sign_in_links WHERE code_hash = ? RETURNING email, expires_at",
                              [code_hash])
        return row[0] if row is not None and row[1] > now else None
