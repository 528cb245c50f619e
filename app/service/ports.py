"""The service's ports: what it needs from outgoing mail and from the players' other channels (Discord, Slack,
Telegram, ntfy, Matrix ...), implemented by app/mail (its MailConfig, transports and app/mail/channels.py) and
chosen at the edges (create_app, cli.py). The service never imports app.mail; mail depends on the service.

The service produces what a turn email says (`TurnReport`, already filtered for its seat); app/mail lays it out
(`Mail.turn_email`). A transport says whether a failed send is worth retrying by the error it raises
(`TemporaryFailure`, `PermanentFailure`): the outbox knows no mail protocol."""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from email.message import EmailMessage
from typing import Protocol


class TemporaryFailure(Exception):
    """The transport could not send now (the server down or slow, a 4xx answer, a folder that cannot be written):
    the outbox tries again later."""


class PermanentFailure(Exception):
    """The transport's server refused the message for good (an SMTP 5xx answer): tried a few times, then kept for
    the operator."""


class Transport(Protocol):
    """Sends one email (SMTP, or .eml files in a folder); raises TemporaryFailure or PermanentFailure."""

    def send(self, message: EmailMessage) -> None: ...


class Notifier(Protocol):
    """Told, after a write's commit, that reactions and mail are waiting (`serve`'s background sender)."""

    def kick(self) -> None: ...


class ChannelRefused(ValueError):
    """A notification URL this server will not call (a scheme it does not allow, a host inside its network, one
    that does not parse); the message says why, never the URL's secrets."""


@dataclass(frozen=True)
class Notification:
    """One message to a player's channel: `url` (an Apprise URL, a secret of the player's: never logged or shown),
    a title and a short text."""

    url: str
    title: str
    body: str


class Channels(Protocol):
    """The players' channels beside email (app/mail/channels.py): which URLs the server may call, and sending."""

    def checked(self, url: str) -> str:
        """`url` shown without its secrets, if the server may call it; else ChannelRefused saying why."""
        ...

    def send(self, notification: Notification) -> None:
        """Deliver, or raise TemporaryFailure (worth another try) or PermanentFailure (the URL is refused)."""
        ...


@dataclass(frozen=True)
class TurnReport:
    """What one seat is told of its game at event `seq`, every part already filtered for that seat: a turn email, an
    answer to its email (`answer`: the lines saying what became of the message's lines) or to its `status`, and the
    game-over result. The history since its last email (table talk included), then, when the seat is to act, its
    position, the map near the action, what it owes and every order it may give, grouped by kind; when another seat
    is, who and why (`waiting`); the deadline and the clock. The game over (`outcome` set): the result, the history
    since its last email and where to read the rest (docs/architecture.md practice 16)."""

    game_id: str
    title: str
    seat: str
    headline: str
    seq: int
    step: str
    outcome: str | None = None  # "winner: reason" once the game is over
    summary: str | None = None  # the game over: how long it ran (orders by side, die rolls, table talk)
    since: list[dict] = field(default_factory=list)  # history rows (seq, type, text, ...) since the last email
    earlier: int = 0  # history rows since the last email left out of `since` (the oldest), to keep it short
    answer: list[str] = field(default_factory=list)  # what became of each line of the message this answers
    your_turn: bool = False
    to_act: str | None = None  # the side the game waits for, when it is not this seat
    waiting: str | None = None  # why the game waits for it: the step and the decision it owes (never its candidates)
    position: str = ""  # the position as text (the seat's view)
    map_area: str | None = None  # the text map near the action
    map_file: tuple[str, str, bytes] | None = None  # (filename, MIME type, bytes): the map picture
    owed: str | None = None
    actions: list[dict] = field(default_factory=list)  # name, syntax, case, help
    kinds: list[dict] = field(default_factory=list)  # the orders it may give, by kind (app/rules/legal.py by_kind)
    deadline: str | None = None  # when the turn of the side to act runs out, as text
    clock: str | None = None  # the seat's clock: time bank, vacation, a draw offer (app/service/clocks.py)
    replay_link: str | None = None
    play_link: str | None = None  # the play page, which gives this seat's orders (Credentials.play_link)
    export_link: str | None = None  # where the whole game is to be had (after the game: both sides')
    page_link: str | None = None  # the player's page: every game of theirs (docs/players.md)
    receipt: str = ""  # the signed receipt of the chain's head at `seq` (app/service/receipts.py), as text
    # the seat's standing orders in force, as the lines that set them (None: the game has no decision that may stand)
    standing: list[str] | None = None

    def as_dict(self) -> dict:
        """The report as JSON (the API's answer carries it): the map picture by its file name only."""
        out = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "map_file"}
        out["map_file"] = self.map_file[0] if self.map_file else None
        return out


class Mail(Protocol):
    """Outgoing mail as the service hands it over: the addresses, a message with its headers, a turn report laid
    out, and the configured transport."""

    orders_address: str
    public_url: str | None
    retry_seconds: float

    def new_message_id(self) -> str: ...

    def message(self, to: str, game_id: str, subject: str, body: str, reply_tag: str | None = None,
                in_reply_to: str | None = None, attachments: tuple[tuple[str, str, bytes], ...] = (),
                message_id: str | None = None) -> EmailMessage: ...

    def turn_email(self, report: TurnReport, to: str, reply_tag: str, message_id: str,
                   in_reply_to: str | None = None) -> EmailMessage: ...

    def transport(self) -> Transport: ...

    def channels(self) -> Channels: ...
