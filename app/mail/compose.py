"""Outgoing emails: headers, attachments and the reply instructions. Everything about the game in them comes from
the service already filtered through the rule set's `view(state, side)` and the per-side history filter (a turn
email's parts are laid out by app/mail/layout.py): this module wraps them."""
from __future__ import annotations

from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from typing import Protocol

SUBJECT_TAG = "[hexledger {game_id}]"


class Addresses(Protocol):
    """What a message needs of the mail settings (app/mail/transport.py, MailConfig): who it is from, where orders
    go, and the reply address of a game's seat."""

    mail_from: str
    orders_address: str

    def reply_address(self, game_id: str, seat_tag: str | None = None) -> str: ...


def message(config: Addresses, to: str, game_id: str, subject: str, body: str, reply_tag: str | None = None,
            in_reply_to: str | None = None, attachments: tuple[tuple[str, str, bytes], ...] = (),
            message_id: str | None = None) -> EmailMessage:
    """A plain-text email; `attachments` are (filename, MIME type, bytes), e.g. the map as image/svg+xml: the
    message is then multipart/mixed with the text first, which is what a reader shows and `ingest` reads.
    `message_id`: the one the outbox fixed when it queued the message (so a retry is the same message)."""
    msg = EmailMessage()
    msg["From"] = config.mail_from
    msg["To"] = to
    msg["Subject"] = f"{SUBJECT_TAG.format(game_id=game_id)} {subject}"
    msg["Date"] = formatdate(localtime=False, usegmt=True)
    msg["Message-ID"] = message_id or new_message_id(config)
    msg["Reply-To"] = config.reply_address(game_id, reply_tag)
    msg["Auto-Submitted"] = "auto-generated"
    if in_reply_to:
        msg["In-Reply-To"] = in_reply_to
        msg["References"] = in_reply_to
    msg.set_content(body)
    for filename, mime, data in attachments:
        maintype, _, subtype = mime.partition("/")
        msg.add_attachment(data, maintype=maintype, subtype=subtype, filename=filename, cte=transfer_encoding(data))
    return msg


def transfer_encoding(data: bytes) -> str:
    """How an attachment travels (RFC 2045 section 2.7): as it is ("7bit") when it is short lines of ASCII text, as
    the map's SVG is, else base64, which is a third larger and one line of text per 57 bytes for every server and
    mail program on the way to handle."""
    if not data.isascii() or b"\r" in data or b"\0" in data:
        return "base64"
    return "7bit" if all(len(line) <= 998 for line in data.split(b"\n")) else "base64"


def new_message_id(config: Addresses) -> str:
    return make_msgid(domain=config.mail_from.partition("@")[2] or "hexledger.local")


HOW_TO_REPLY = """How to reply
  Reply to this email with one order a line: the reply address names the game and your seat, no token needed.
{example}
  A line that begins with an order word is an order; any other line you write is table talk, which every
  player reads in the history (begin a line with 'arbiter:' for the arbiter's eyes only, or with 'say:' to
  send talk that begins with an order word). An empty reply, or 'status', brings your situation now;
  'orders for UNIT' (or a hex) brings every order you may give it now, where a list above is cut short.
  Quoted lines ('>') and everything after a signature line ('-- ') are ignored.
  If your mail program does not keep the reply address, send to {orders} with the lines 'game: {game_id}'
  and 'token: <your token from the invitation>'.
  Optional: 'seq: {seq}' refuses your orders if the game has moved on since this email.
  Also understood: 'undo' (your last orders, before your opponent has seen them), 'dispute EVENT: reason',
  'accept dispute N', 'reject dispute N' and (arbiter) 'uphold dispute N' / 'reject dispute N'."""


def how_to_reply(config: Addresses, game_id: str, seq: int, actions: list[dict]) -> str:
    example = "\n".join(f"    {a['syntax']}" for a in actions[:3]) or "    (no orders are due from you now)"
    return HOW_TO_REPLY.format(example=example, orders=config.orders_address, game_id=game_id, seq=seq)
