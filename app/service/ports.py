"""The service's ports: what it needs from outgoing mail, implemented by app/mail (its MailConfig and transports)
and chosen at the edges (create_app, cli.py). The service never imports app.mail; mail depends on the service."""
from __future__ import annotations

from email.message import EmailMessage
from typing import Protocol


class Transport(Protocol):
    """Sends one email (SMTP, or .eml files in a folder)."""

    def send(self, message: EmailMessage) -> None: ...


class Notifier(Protocol):
    """Told, after a write's commit, that mail is queued (`serve`'s background sender)."""

    def kick(self) -> None: ...


class Mail(Protocol):
    """Outgoing mail as the service writes it: the addresses, a message laid out with its headers, the reply
    instructions, and the configured transport."""

    orders_address: str
    public_url: str | None
    retry_seconds: float

    def new_message_id(self) -> str: ...

    def message(self, to: str, game_id: str, subject: str, body: str, reply_tag: str | None = None,
                in_reply_to: str | None = None, attachments: tuple[tuple[str, str, bytes], ...] = (),
                message_id: str | None = None) -> EmailMessage: ...

    def how_to_reply(self, game_id: str, seq: int, actions: list[dict]) -> str: ...

    def transport(self) -> Transport: ...
