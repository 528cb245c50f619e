"""The service's ports: what it needs from outgoing mail, implemented by app/mail (its MailConfig and transports)
and chosen at the edges (create_app, cli.py). The service never imports app.mail; mail depends on the service.

The service produces what a turn email says (`TurnReport`, already filtered for its seat); app/mail lays it out
(`Mail.turn_email`). A transport says whether a failed send is worth retrying by the error it raises
(`TemporaryFailure`, `PermanentFailure`): the outbox knows no mail protocol."""
from __future__ import annotations

from dataclasses import dataclass, field
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


@dataclass(frozen=True)
class TurnReport:
    """What one seat's turn (or game-over) email says, every part already filtered for that seat: the history
    since its last email, the position as it sees it, the map near the action, what it owes and may order. The
    game over (`outcome` set): the result and the history since its last email only."""

    game_id: str
    title: str
    seat: str
    headline: str
    seq: int
    step: str
    outcome: str | None = None  # "winner: reason" once the game is over
    since: list[dict] = field(default_factory=list)  # history rows (seq, text, ...)
    position: str = ""  # the position as text (the seat's view)
    map_area: str | None = None  # the text map near the action
    map_file: tuple[str, str, bytes] | None = None  # (filename, MIME type, bytes): the map picture
    owed: str | None = None
    actions: list[dict] = field(default_factory=list)  # name, syntax, case, help
    legal_orders: list[dict] = field(default_factory=list)  # order, odds?
    replay_link: str | None = None
    receipt: str = ""  # the signed receipt of the chain's head at `seq` (app/service/receipts.py), as text
    # the seat's standing orders in force, as the lines that set them (None: the game has no decision that may stand)
    standing: list[str] | None = None
    clock: str | None = None  # the seat's clock: its deadline or time bank, vacation (app/service/clocks.py)


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

    def turn_email(self, report: TurnReport, to: str, reply_tag: str, message_id: str) -> EmailMessage: ...

    def transport(self) -> Transport: ...
