"""A real SMTP server (aiosmtpd) on 127.0.0.1: player mail is kept per recipient, mail to the orders address
lands in a maildir, as an MTA would deliver it."""
from __future__ import annotations

import mailbox
import re
import smtplib
import socket
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import make_msgid

import pytest
from aiosmtpd.controller import Controller

from app.mail.transport import MailConfig
from app.service.pbem import Pbem


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Handler:
    def __init__(self, maildir: str):
        self.orders = mailbox.Maildir(maildir, create=True)
        self.received: list[tuple[list[str], EmailMessage]] = []

    async def handle_DATA(self, server, session, envelope):
        msg = message_from_bytes(envelope.content, policy=policy.default)
        if any(r.startswith("orders") for r in envelope.rcpt_tos):
            self.orders.add(envelope.content)
        else:
            self.received.append((list(envelope.rcpt_tos), msg))
        return "250 OK"


class MailWorld:
    """The players' side of email: read what arrived for an address, reply through SMTP."""

    def __init__(self, handler: Handler, port: int, maildir: str):
        self.handler, self.port, self.maildir = handler, port, maildir

    def inbox(self, address: str) -> list[EmailMessage]:
        return [m for rcpts, m in self.handler.received if address in rcpts]

    def last(self, address: str, subject_has: str = "") -> EmailMessage:
        found = [m for m in self.inbox(address) if subject_has in m["Subject"]]
        assert found, f"no mail for {address} with {subject_has!r}; got {[m['Subject'] for m in self.inbox(address)]}"
        return found[-1]

    def send(self, msg: EmailMessage) -> None:
        with smtplib.SMTP("127.0.0.1", self.port, timeout=10) as client:
            client.send_message(msg)

    def reply(self, original: EmailMessage, sender: str, text: str, to: str | None = None,
              message_id: str | None = None) -> EmailMessage:
        """A reply as a mail program writes it: to the Reply-To, the original quoted below, a signature."""
        msg = EmailMessage()
        msg["From"] = sender
        msg["To"] = to or original["Reply-To"]
        msg["Subject"] = "Re: " + original["Subject"]
        msg["Message-ID"] = message_id or make_msgid(domain="player.example")
        msg["In-Reply-To"] = original["Message-ID"]
        quoted = "\n".join("> " + line for line in original.get_content().splitlines())
        msg.set_content(f"{text}\n\n-- \n{sender.split('@')[0]}, sent from my phone\n\n"
                        f"On some day, Hexledger wrote:\n{quoted}\n")
        self.send(msg)
        return msg


def token_in(msg: EmailMessage) -> str:
    return re.search(r"token: ([0-9a-f]{32})", msg.get_content()).group(1)


@pytest.fixture
def smtp(tmp_path):
    maildir = str(tmp_path / "orders-maildir")
    handler = Handler(maildir)
    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield MailWorld(handler, port, maildir)
    finally:
        controller.stop()


@pytest.fixture
def pbem(store, smtp):
    config = MailConfig(smtp_host="127.0.0.1", smtp_port=smtp.port, mail_from="hexledger@pbem.example",
                        orders_address="orders@pbem.example")
    return Pbem(store, config)
