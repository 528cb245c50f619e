"""Where outgoing mail goes: an SMTP server, or (the embedded default) .eml files in an outbox folder.

Configuration comes from the environment (docs/play-by-email.md):
  HEXLEDGER_SMTP_HOST       SMTP server; unset -> write .eml files to HEXLEDGER_OUTBOX instead
  HEXLEDGER_SMTP_PORT       default 25 (587 with STARTTLS, 465 with SSL are usual)
  HEXLEDGER_SMTP_SECURITY   none | starttls | ssl   (default none)
  HEXLEDGER_SMTP_USER, HEXLEDGER_SMTP_PASSWORD   login, if the server wants one
  HEXLEDGER_MAIL_FROM       From address of every email (default hexledger@localhost)
  HEXLEDGER_ORDERS_ADDRESS  where players send orders; replies go to its plus-address (default orders@localhost)
  HEXLEDGER_OUTBOX          outbox folder for the embedded default (default ./outbox)
  HEXLEDGER_MAX_EMAIL_BYTES incoming messages larger than this are refused unread (default 262144)
  HEXLEDGER_PUBLIC_URL      the server's address as players reach it (https://host/); set, emails carry replay links
  HEXLEDGER_SMTP_TIMEOUT    seconds an SMTP conversation may stall before the attempt fails (default 30)
  HEXLEDGER_MAIL_RETRY      seconds from a failed delivery to its first retry, doubling up to an hour (default 60)
  HEXLEDGER_STRANGER_REPLY_HOURS  a message that opens no seat is answered at most once per mailbox in this many
                            hours (default 1; 0 answers every one): app/service/strangers.py; the same bounds
                            the sign-in links mailed to an address (docs/players.md)
  HEXLEDGER_NOTIFY_PRIVATE_HOSTS  hosts inside the server's network that players' notification URLs may name all
                            the same (comma-separated; e.g. a LAN's ntfy): app/mail/channels.py
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
    def from_env(cls, env: dict | None = None) -> MailConfig:
        env = os.environ if env is None else env
        security = env.get("HEXLEDGER_SMTP_SECURITY", "none").lower()
        if security not in ("none", "starttls", "ssl"):
            raise ValueError(f"HEXLEDGER_SMTP_SECURITY must be none, starttls or ssl, not {security!r}")
        return cls(smtp_host=env.get("HEXLEDGER_SMTP_HOST") or None,
                   smtp_port=int(env.get("HEXLEDGER_SMTP_PORT") or (465 if security == "ssl" else 25)),
                   smtp_security=security,
                   smtp_user=env.get("HEXLEDGER_SMTP_USER") or None,
                   smtp_password=env.get("HEXLEDGER_SMTP_PASSWORD") or None,
                   mail_from=env.get("HEXLEDGER_MAIL_FROM") or cls.mail_from,
                   orders_address=env.get("HEXLEDGER_ORDERS_ADDRESS") or cls.orders_address,
                   outbox=env.get("HEXLEDGER_OUTBOX") or cls.outbox,
                   max_email_bytes=int(env.get("HEXLEDGER_MAX_EMAIL_BYTES") or cls.max_email_bytes),
                   public_url=env.get("HEXLEDGER_PUBLIC_URL") or None,
                   smtp_timeout=float(env.get("HEXLEDGER_SMTP_TIMEOUT") or cls.smtp_timeout),
                   retry_seconds=float(env.get("HEXLEDGER_MAIL_RETRY") or cls.retry_seconds),
                   stranger_reply_hours=float(env.get("HEXLEDGER_STRANGER_REPLY_HOURS") or cls.stranger_reply_hours),
                   notify_private_hosts=tuple(
                       h.strip() for h in env.get("HEXLEDGER_NOTIFY_PRIVATE_HOSTS", "").split(",") if h.strip()))

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
