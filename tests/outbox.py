"""A mail transport for tests that need no SMTP server: it keeps every message the server sends."""
from __future__ import annotations

from email.message import EmailMessage


class Outbox:
    def __init__(self) -> None:
        self.sent: list[EmailMessage] = []

    def send(self, msg: EmailMessage) -> None:
        self.sent.append(msg)
