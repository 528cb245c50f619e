"""A real SMTP server (aiosmtpd) on 127.0.0.1: player mail is kept per recipient, mail to the orders address
lands in a maildir, as an MTA would deliver it."""
from __future__ import annotations

import mailbox
import re
import smtplib
import socket
import xml.etree.ElementTree as ET
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import formatdate, make_msgid

import pytest
from aiosmtpd.controller import Controller

from app.mail.inbound import body_text
from app.mail.transport import MailConfig
from app.service.application import Application


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Handler:
    def __init__(self, maildir: str):
        self.orders = mailbox.Maildir(maildir, create=True)
        self.received: list[tuple[list[str], EmailMessage]] = []

    async def handle_DATA(self, server, session, envelope):
        if any(r.startswith("orders") for r in envelope.rcpt_tos):
            self.orders.add(envelope.content)
        else:
            self.received.append((list(envelope.rcpt_tos), message_from_bytes(envelope.content, policy=policy.default)))
        return "250 OK"


class MailWorld:
    """The players' side of email: read what arrived for an address, reply through SMTP."""

    def __init__(self, handler: Handler, port: int, maildir: str):
        self.handler, self.port, self.maildir = handler, port, maildir

    def inbox(self, address: str) -> list[EmailMessage]:
        return [m for rcpts, m in self.handler.received if address in rcpts]

    def last(self, address: str, subject_has: str = "") -> EmailMessage:
        """The last email to `address` whose subject holds `subject_has`, in any case ("Your turn" finds an
        answer's "Orders received - your turn: ...")."""
        want = subject_has.lower()
        for rcpts, m in reversed(self.handler.received):  # newest first: a long game's inbox is hundreds of emails
            if address in rcpts and want in m["Subject"].lower():
                return m
        raise AssertionError(f"no mail for {address} with {subject_has!r}; got "
                             f"{[m['Subject'] for m in self.inbox(address)]}")

    def send(self, msg: EmailMessage, wire_message_id: str | None = None) -> None:
        """Send through the SMTP server; `wire_message_id`: the Message-ID's bytes on the wire, as a hostile
        sender writes them (the email package would decode an encoded word in it when it serializes)."""
        with smtplib.SMTP("127.0.0.1", self.port, timeout=120) as client:  # bounds a hang
            if wire_message_id is None:
                client.send_message(msg)
                return
            raw = msg.as_bytes(policy=msg.policy.clone(linesep="\r\n"))
            raw = raw.replace(f"Message-ID: {msg['Message-ID']}".encode(), f"Message-ID: {wire_message_id}".encode())
            client.sendmail(msg["From"], [msg["To"]], raw)

    def reply(self, original: EmailMessage, sender: str, text: str, to: str | None = None,
              message_id: str | None = None, wire_message_id: str | None = None) -> EmailMessage:
        """A reply as a mail program writes it: to the Reply-To, the original quoted below, a signature."""
        msg = EmailMessage()
        msg["From"] = sender
        msg["To"] = to or original["Reply-To"]
        msg["Subject"] = "Re: " + original["Subject"]
        msg["Message-ID"] = message_id or make_msgid(domain="player.example")
        msg["In-Reply-To"] = original["Message-ID"]
        quoted = "\n".join("> " + line for line in body_text(original).splitlines())
        msg.set_content(f"{text}\n\n-- \n{sender.split('@')[0]}, sent from my phone\n\n"
                        f"On some day, Hexledger wrote:\n{quoted}\n")
        self.send(msg, wire_message_id)
        return msg


    def reply_from(self, program: str, original: EmailMessage, sender: str, text: str) -> bytes:
        """A reply to `original` in the layout a real mail program writes (tests/pbem/fixtures/README.md):
        "s-nail" bottom-posts under "ADDRESS wrote:" and a "> " quote; "mutt" (text_flowed=yes) top-posts, each
        line longer than 72 characters wrapped with a trailing space (a format=flowed soft break), over mutt's
        "On DATE, ADDRESS wrote:" and its ">" quote; both end with a signature. Sent through the SMTP server as
        the MTA takes it (CRLF); returns the bytes."""
        quoted = body_text(original).replace("\r\n", "\n").splitlines()
        head = [f"Date: {formatdate(usegmt=True)}", f"From: {sender}", f"To: {original['Reply-To']}",
                f"Subject: Re: {original['Subject']}", f"Message-ID: {make_msgid(domain='players.example')}",
                f"In-Reply-To: {original['Message-ID']}", f"References: {original['Message-ID']}"]
        charset = "us-ascii" if text.isascii() else "utf-8"
        if program == "s-nail":
            head += ["User-Agent: s-nail v14.9.24", "MIME-Version: 1.0",
                     f"Content-Type: text/plain; charset={charset}", "Content-Transfer-Encoding: 8bit"]
            body = [f"{original['From']} wrote:", "", *(f"> {line}" for line in quoted), *text.splitlines(), "",
                    "-- ", "a player"]
        elif program == "mutt":
            head += ["MIME-Version: 1.0", f"Content-Type: text/plain; charset={charset}; format=flowed",
                     "Content-Disposition: inline", "Content-Transfer-Encoding: 8bit"]
            body = [*(piece for line in text.splitlines() for piece in _flowed(line)), "",
                    f"On {original['Date']}, {original['From']} wrote:", *(f">{line}" for line in quoted), "", "",
                    "-- ", "a player"]
        else:
            raise ValueError(program)
        raw = ("\r\n".join(head) + "\r\n\r\n" + "\r\n".join(body) + "\r\n").encode("utf-8")
        with smtplib.SMTP("127.0.0.1", self.port, timeout=120) as client:
            client.sendmail(sender, [original["Reply-To"]], raw)
        return raw


def _flowed(line: str, width: int = 72) -> list[str]:
    """One line of text as an editor with format=flowed writes it (vim's `fo+=w`): words wrapped at `width`, each
    wrapped piece but the last ending in a space; a piece that begins with a space, '>' or 'From ' space-stuffed."""
    pieces, current = [], ""
    for word in line.split(" "):
        if current and len(current) + 1 + len(word) > width:
            pieces.append(current + " ")
            current = word
        else:
            current = f"{current} {word}" if current else word
    pieces.append(current)
    return [" " + p if p.startswith((" ", ">", "From ")) else p for p in pieces]


def token_in(msg: EmailMessage) -> str:
    return re.search(r"token: ([0-9a-f]{32})", body_text(msg)).group(1)


SVG = "{http://www.w3.org/2000/svg}"


def map_picture(msg: EmailMessage) -> ET.Element:
    """A turn email's map: its one image/svg+xml attachment, parsed as SVG."""
    parts = [p for p in msg.iter_attachments() if p.get_content_type() == "image/svg+xml"]
    assert len(parts) == 1, f"{msg['Subject']}: {[p.get_content_type() for p in msg.iter_attachments()]}"
    assert parts[0].get_content_disposition() == "attachment" and parts[0].get_filename().endswith(".svg")
    root = ET.fromstring(parts[0].get_content())
    assert root.tag == f"{SVG}svg"
    return root


def counters(svg: ET.Element) -> set[tuple[str, str, str]]:
    """(unit, side, hex) of every counter drawn on a map picture."""
    return {(g.get("data-unit"), g.get("data-side"), g.get("data-hex"))
            for g in svg.iter(f"{SVG}g") if g.get("class") == "counter"}


def text_map(msg: EmailMessage) -> str:
    """The 'Map near the action' section of a turn email's text."""
    body = body_text(msg).replace("\r\n", "\n")
    return body[body.index("Map near the action"):body.index("The position (as you see it)")]


def map_lines(msg: EmailMessage) -> dict[str, str]:
    """The text map's lines by hex label."""
    return {m.group(1): m.group(0) for m in re.finditer(r"^  (\d{4})  .*$", text_map(msg), re.M)}


MAP_LINE = re.compile(r"^  (\d{4})  (.*?)(?:  +(\w+: .*))?$")  # hex, place, counters


def map_places(msg: EmailMessage) -> dict[str, str]:
    """The text map's place column by hex label, read on across the lines a long place goes on to."""
    places: dict[str, str] = {}
    last = None
    for line in text_map(msg).splitlines():
        m = MAP_LINE.match(line)
        if m:
            last = m.group(1)
            places[last] = m.group(2).strip()
        elif last and re.match(r"^ {8}\S", line):
            places[last] += " " + line.strip()
        else:
            last = None
    return places


@pytest.fixture
def smtp(tmp_path):
    maildir = str(tmp_path / "orders-maildir")
    handler = Handler(maildir)
    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port, ready_timeout=120)  # bounds a hang
    controller.start()
    try:
        yield MailWorld(handler, port, maildir)
    finally:
        controller.stop()


@pytest.fixture
def pbem(store, smtp):
    config = MailConfig(smtp_host="127.0.0.1", smtp_port=smtp.port, mail_from="hexledger@pbem.example",
                        orders_address="orders@pbem.example")
    return Application(store, config)
