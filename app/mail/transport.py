"""Where outgoing mail goes: an SMTP server, or (the embedded default) .eml files in an outbox folder.

Configured by the settings' mail fields (`MailConfig.from_settings`; HEXLEDGER_SMTP_* and the rest of the "Mail"
section of docs/configuration.md).
"""
from __future__ import annotations

import os
import smtplib
import ssl
import threading
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path

from app.mail import compose, layout
from app.mail.channels import AppriseChannels
from app.service.ports import Channels, PermanentFailure, TemporaryFailure, Transport, TurnReport
from app.settings import Settings


@dataclass(frozen=True)
class MailConfig:
    smtp_host: str | None = None
    smtp_port: int = 25
    smtp_security: str = "none"
    smtp_user: str | None = None
    smtp_password: str | None = None
    mail_from: str = "hexledger@localhost"
    orders_address: str = "orders@localhost"
    outbox: str = "outbox"
    max_email_bytes: int = 256 * 1024
    public_url: str | None = None
    smtp_timeout: float = 30.0
    retry_seconds: float = 60.0
    stranger_reply_hours: float = 1.0
    notify_private_hosts: tuple[str, ...] = ()

    @classmethod
    def from_settings(cls, settings: Settings) -> MailConfig:
        """The mail the settings configure (an unset SMTP port: 465 with ssl, else 25)."""
        s = settings
        return cls(smtp_host=s.smtp_host, smtp_port=s.smtp_port or (465 if s.smtp_security == "ssl" else 25),
                   smtp_security=s.smtp_security, smtp_user=s.smtp_user, smtp_password=s.smtp_password,
                   mail_from=s.mail_from, orders_address=s.orders_address, outbox=s.outbox,
                   max_email_bytes=s.max_email_bytes, public_url=s.public_url, smtp_timeout=s.smtp_timeout,
                   retry_seconds=s.mail_retry, stranger_reply_hours=s.stranger_reply_hours,
                   notify_private_hosts=s.notify_private_hosts)

    def reply_address(self, game_id: str, seat_tag: str | None = None) -> str:
        """orders+GAME.TAG@domain: a reply reaches the orders mailbox and names the game and (by the seat's reply
        tag, an HMAC only the server can make) the sender's seat."""
        local, _, domain = self.orders_address.partition("@")
        tag = f"{game_id}.{seat_tag}" if seat_tag else game_id
        return f"{local}+{tag}@{domain}"

    # -- the service's outgoing-mail port (app/service/ports.py: Mail) -----------------------------------
    def new_message_id(self) -> str:
        return compose.new_message_id(self)

    def message(self, to: str, game_id: str, subject: str, body: str, reply_tag: str | None = None,
                in_reply_to: str | None = None, attachments: tuple[tuple[str, str, bytes], ...] = (),
                message_id: str | None = None) -> EmailMessage:
        return compose.message(self, to, game_id, subject, body, reply_tag, in_reply_to, attachments, message_id)

    def turn_email(self, report: TurnReport, to: str, reply_tag: str, message_id: str,
                   in_reply_to: str | None = None) -> EmailMessage:
        return layout.turn_email(self, report, to, reply_tag, message_id, in_reply_to)

    def transport(self) -> Transport:
        return transport_for(self)

    def channels(self) -> Channels:
        return AppriseChannels(self.notify_private_hosts)


class OutboxTransport:
    """Writes each message as an .eml file (the embedded default: no mail server needed): to a hidden temporary
    name first, renamed when whole, so a full disk leaves no half message in the folder (only an OSError)."""

    def __init__(self, folder: str):
        self.folder = Path(folder)
        self._lock = threading.Lock()
        self._n = 0

    def send(self, message: EmailMessage) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        with self._lock:
            self._n += 1
            stem = f"{os.getpid()}-{self._n:06d}-{message['Message-ID'].strip('<>').split('@')[0]}"
        partial = self.folder / f".{stem}.tmp"
        try:
            partial.write_bytes(bytes(message))
            partial.rename(self.folder / f"{stem}.eml")
        except OSError as exc:  # a full disk, a folder that cannot be written: worth another try
            raise TemporaryFailure(f"{type(exc).__name__}: {exc}") from exc
        finally:
            partial.unlink(missing_ok=True)


class SmtpTransport:
    def __init__(self, config: MailConfig):
        self.config = config

    def send(self, message: EmailMessage) -> None:
        """One SMTP conversation; a refusal the server means for good (5xx, for every recipient) is
        PermanentFailure, anything else that went wrong (connection, timeout, 4xx) TemporaryFailure."""
        try:
            self._send(message)
        except smtplib.SMTPRecipientsRefused as exc:
            failure = PermanentFailure if all(code >= 500 for code, _ in exc.recipients.values()) else TemporaryFailure
            raise failure(f"{type(exc).__name__}: {exc}") from exc
        except smtplib.SMTPResponseException as exc:
            failure = PermanentFailure if exc.smtp_code >= 500 else TemporaryFailure
            raise failure(f"{type(exc).__name__}: {exc}") from exc
        except (smtplib.SMTPException, OSError) as exc:
            raise TemporaryFailure(f"{type(exc).__name__}: {exc}") from exc

    def _send(self, message: EmailMessage) -> None:
        c = self.config
        if c.smtp_security == "ssl":
            client = smtplib.SMTP_SSL(c.smtp_host, c.smtp_port, context=ssl.create_default_context(),
                                      timeout=c.smtp_timeout)
        else:
            client = smtplib.SMTP(c.smtp_host, c.smtp_port, timeout=c.smtp_timeout)
        with client:
            if c.smtp_security == "starttls":
                client.starttls(context=ssl.create_default_context())
            if c.smtp_user:
                client.login(c.smtp_user, c.smtp_password or "")
            client.send_message(message)


def transport_for(config: MailConfig) -> Transport:
    return SmtpTransport(config) if config.smtp_host else OutboxTransport(config.outbox)
