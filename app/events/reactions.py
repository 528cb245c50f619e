"""The reactions' records (app/events/interface.py, Reactions; app/service/reactions.py), written once over the
dialect layer: each subscriber's position in each game's stream, a new game's raw tokens until its invitations are
queued, and the answer each incoming message got (repeated if the message comes again)."""
from __future__ import annotations

import json

from app.events.dialect import Tables
from app.events.envelope import canonical_json
from app.events.errors import UnknownGame


class ReactionTables(Tables):
    """The reaction_positions, pending_invitations and message_answers tables."""

    def reaction_position(self, subscriber: str, game_id: str) -> int:
        """The last event of `game_id` that `subscriber` has reacted to, held in the caller's write transaction
        until the new position commits with the subscriber's outputs, so two runners (the sender processes of
        several `serve`s, `tick`) never react to one event twice (SQLite: its one writer; PostgreSQL: the rows
        locked, the game's own too, so a reaction and an append to that game do not overlap: an undo checks what
        was seen after its append). A game without a position starts at its fork point (a fork's copied events
        were its parent's) or 0."""
        return self.reaction_positions([subscriber], game_id)[subscriber]

    def reaction_positions(self, subscribers: list[str], game_id: str) -> dict[str, int]:
        """`reaction_position` of each of `subscribers` in `game_id`, read and held together (the game's row first,
        as one subscriber's is): two statements once every subscriber has a position."""
        start = self.db.one(f"SELECT coalesce(parent_seq, 0) FROM games WHERE id = ?{self.db.for_update}", [game_id])
        if start is None:
            raise UnknownGame(game_id)
        held = self._positions(subscribers, game_id)
        missing = [s for s in subscribers if s not in held]
        if missing:
            self.db.many("INSERT INTO reaction_positions (subscriber, game_id, seq) VALUES (?, ?, ?) "
                         "ON CONFLICT (subscriber, game_id) DO NOTHING", [(s, game_id, start[0]) for s in missing])
            held.update(self._positions(missing, game_id))
        return {s: held[s] for s in subscribers}

    def _positions(self, subscribers: list[str], game_id: str) -> dict[str, int]:
        return dict(self.db.tuples(f"SELECT subscriber, seq FROM reaction_positions WHERE game_id = ? AND subscriber "
                                   f"IN ({', '.join('?' * len(subscribers))}){self.db.for_update}",
                                   [game_id, *subscribers]))

    def set_reaction_position(self, subscriber: str, game_id: str, seq: int) -> None:
        self.db.write("INSERT INTO reaction_positions (subscriber, game_id, seq) VALUES (?, ?, ?) "
                      "ON CONFLICT (subscriber, game_id) DO UPDATE SET seq = excluded.seq", [subscriber, game_id, seq])

    def reactions_behind(self, subscribers: list[str], games: list[str] | None = None) -> list[str]:
        """The games (of `games` only, if given) whose stream goes past some subscriber's position, oldest
        first."""
        only = "" if games is None else f" WHERE g.id IN ({', '.join('?' * len(games))})"
        heads = self.db.rows("SELECT g.id, coalesce(g.parent_seq, 0) AS start, (SELECT max(seq) FROM events e "
                             f"WHERE e.game_id = g.id) AS head FROM games g{only} ORDER BY g.created_at, g.id",
                             games or [])
        marks = {(r["subscriber"], r["game_id"]): r["seq"] for r in self.db.rows(
            f"SELECT subscriber, game_id, seq FROM reaction_positions WHERE subscriber IN "
            f"({', '.join('?' * len(subscribers))})", subscribers)}
        return [g["id"] for g in heads if any((g["head"] or 0) > marks.get((s, g["id"]), g["start"])
                                              for s in subscribers)]

    def hold_invitations(self, game_id: str, tokens: dict[str, str]) -> None:
        """Keep a new game's raw tokens (seat -> token) until its invitations are queued (`take_invitations`), in
        the caller's transaction."""
        with self.db.transaction():
            self.db.many("INSERT INTO pending_invitations (game_id, seat, token) VALUES (?, ?, ?)",
                         [(game_id, seat, token) for seat, token in tokens.items()])

    def take_invitations(self, game_id: str) -> dict[str, str]:
        """The raw tokens held for `game_id` (seat -> token), deleted in the caller's transaction."""
        with self.db.transaction():
            held = dict(self.db.tuples("SELECT seat, token FROM pending_invitations WHERE game_id = ?", [game_id]))
            self.db.write("DELETE FROM pending_invitations WHERE game_id = ?", [game_id])
        return held

    def keep_answer(self, message_id: str, answer: dict) -> None:
        """The answer an incoming message got (recipient, subject, body, seat), in the transaction that processed
        it."""
        self.db.write("INSERT INTO message_answers (message_id, answer) VALUES (?, ?) ON CONFLICT (message_id) "
                      "DO NOTHING", [message_id, canonical_json(answer)])

    def answer_of(self, message_id: str) -> dict | None:
        row = self.db.one("SELECT answer FROM message_answers WHERE message_id = ?", [message_id])
        return json.loads(row[0]) if row else None
