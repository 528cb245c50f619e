"""Notifications where players are (docs/players.md, "Notifications"; docs/reactions.md): beside email, a seat may
name a channel (Discord, Slack, Telegram, ntfy, Matrix ... an Apprise URL: app/mail/channels.py), and whenever it
becomes that seat's turn, or the game ends, it is told there.

`TurnNotifications` is a subscriber (docs/architecture.md practice 15): it reads the stored events after its
position, as the turn emails' subscriber does, and queues a row of kind "notify" in the outbox in the reaction's
transaction; the outbox delivers it with the same guarantees as email (at least once, retries with backoff, a
crash loses none; a newer one for the seat supersedes one not yet sent). `Delivery` and `Routes` are the outbox's
composer and transport for both kinds of row: a "notify" row becomes a `Notification` for the seat's channel as it
is when it goes (none any more: nothing is sent), every other row an email.

Fog: a notification says whose turn it is, in which game and at which step (what every seat's prompt shows), or
who won, and links to the player's page without its key (a channel may be shared with others); it never carries a
position, an order, a token or a key.
"""
from __future__ import annotations

from email.message import EmailMessage

from app.events.envelope import StoredEvent
from app.events.interface import Store
from app.projections import state as projection
from app.rules.base import Catalog
from app.service.mailroom import Mailroom
from app.service.notices import _settled_takebacks, answered_by_standing, boundaries
from app.service.outbox import Composer
from app.service.player_keys import PlayerKeys
from app.service.ports import Channels, Notification, Transport
from app.service.seats import members

KIND = "notify"  # the outbox rows of this channel


def _side_to_act(state: projection.GameState, rules, seats: dict[str, dict]) -> str | None:
    """Whose turn a notification may announce in `state`: a seated, human side once every side has its player."""
    if any(s not in state.meta.players for s in state.meta.sides):
        return None
    side = rules.prompt(state.game).side
    return side if side is not None and side not in state.meta.automated and side in seats else None


class TurnNotifications:
    """A notification to the seat whose turn it becomes, and to every seat when the game ends, on the channel
    each has set (`Store.channels`); the same turns as the turn emails' (app/service/notices.py)."""

    name = "notifications"

    def __init__(self, store: Store, catalog: Catalog, mailroom: Mailroom):
        self.store = store
        self.catalog = catalog
        self.mailroom = mailroom

    def react(self, game_id: str, events: list[StoredEvent]) -> None:
        channels = self.store.channels(game_id)
        if not channels or self.store.pbem_settings(game_id) is None:
            return
        seats = members(self.store, game_id)
        before = None
        if events[0].seq > 1:
            state = projection.load(self.store, self.catalog, game_id, events[0].seq - 1)
            rules = self.catalog.rules(state.meta.rules)
            if rules.outcome(state.game) is not None:
                return  # told already
            before = _side_to_act(state, rules, seats)
        forced = _settled_takebacks(events)
        answered = answered_by_standing(events)
        for event in boundaries(events):
            if event.seq in answered:
                continue  # the side's standing order answered this position at once: nobody was asked
            state = projection.load(self.store, self.catalog, game_id, event.seq)
            rules = self.catalog.rules(state.meta.rules)
            outcome = rules.outcome(state.game)
            if outcome is not None:
                for seat in channels:
                    self._queue(game_id, seat, seats, {"over": True, "winner": outcome.winner, "seq": event.seq})
                return
            side = _side_to_act(state, rules, seats)
            if side is None or (side == before and event.seq not in forced):
                continue
            before = side
            if side in channels:
                self._queue(game_id, side, seats, {"over": False, "seq": event.seq,
                                                   "step": rules.prompt(state.game).step})

    def _queue(self, game_id: str, seat: str, seats: dict[str, dict], data: dict) -> None:
        if seat in seats:
            self.mailroom.queue(KIND, seats[seat]["email"], game_id, seat, data)


def notification(store: Store, catalog: Catalog, keys: PlayerKeys, row: dict) -> Notification | None:
    """A "notify" row as its notification, to the seat's channel as it is now (None: it has none any more)."""
    game_id, seat, data = row["game_id"], row["seat"], row["data"]
    url = store.channels(game_id).get(seat)
    if url is None:
        return None
    title = catalog.rules(store.game(game_id)["rules"]).title
    if data["over"]:
        head, text = "game over", f"Game {game_id} ({title}) is over: {data['winner'] or 'a draw'}."
    else:
        head, text = "your turn", (f"Your turn in game {game_id} ({title}), as {seat}: {data['step']} "
                                   f"(event {data['seq']}).")
    page = keys.page_url
    return Notification(url, f"Hexledger {game_id}: {head}", text + (f"\nYour games: {page}" if page else ""))


class Delivery:
    """The outbox's composer (outbox.Composer) for every kind of row: notifications here, emails by `letters`."""

    def __init__(self, store: Store, catalog: Catalog, keys: PlayerKeys, letters: Composer):
        self.store = store
        self.catalog = catalog
        self.keys = keys
        self.letters = letters

    def outgoing(self, row: dict) -> EmailMessage | Notification | None:
        if row["kind"] == KIND:
            return notification(self.store, self.catalog, self.keys, row)
        return self.letters.outgoing(row)

    def delivered(self, row: dict) -> None:
        if row["kind"] != KIND:
            self.letters.delivered(row)


class Routes:
    """The outbox's transport for every kind of row: a notification to the channels, an email to `mail`, nothing
    for a notification whose seat has no channel any more."""

    def __init__(self, mail: Transport, channels: Channels):
        self.mail = mail
        self.channels = channels

    def send(self, message: EmailMessage | Notification | None) -> None:
        if isinstance(message, Notification):
            self.channels.send(message)
        elif message is not None:
            self.mail.send(message)
