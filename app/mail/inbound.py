"""Orders in by email: one RFC 5322 message -> the orders in its body, applied one by one, and a reply.

The sender authenticates with the game token (a `token: ...` line in the body), or by replying to any email the
server sent to their seat: its Reply-To is the plus-address orders+GAME.TAG@..., TAG being the seat's reply tag
(HMAC of the server secret, game and seat; `Pbem.reply_tag`), checked in constant time. A token in that place
(addresses written before reply tags) still works. The game comes from that address, a `game: ...` line or the
subject tag. Orders are applied in order and processing stops at the first refused one: later orders were
written for a position that did not come about. A replayed message (same Message-ID) is refused.
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import getaddresses, parseaddr

from app.events.store import Conflict, StoreError, utc_now
from app.mail import compose
from app.projections import state as projection
from app.rules.catalog import UnknownRules
from app.rules.errors import OrderError
from app.service import games
from app.service.pbem import AccessDenied, Pbem, Seat

SUBJECT = re.compile(r"\[hexledger (g-[0-9a-f]{8})\]")
HEADER_LINE = re.compile(r"^(token|game|seq|join)\s*:\s*(.*)$", re.IGNORECASE)
DISPUTE = re.compile(r"^dispute\s+(\d+)\s*:?\s*(.*)$", re.IGNORECASE)
ANSWER = re.compile(r"^(accept|reject|uphold)\s+dispute\s+(\d+)\s*:?\s*(.*)$", re.IGNORECASE)


@dataclass
class Result:
    """What happened to one message: the reply text lines, and whether anything was written."""

    game_id: str | None = None
    seat: Seat | None = None
    lines: list[str] = field(default_factory=list)
    applied: int = 0
    refused: bool = False

    @property
    def summary(self) -> str:
        return f"{self.applied} applied" + (", refused" if self.refused else "")


def parse_message(raw: bytes) -> EmailMessage:
    return BytesParser(policy=policy.default).parsebytes(raw)


def body_text(msg: EmailMessage) -> str:
    part = msg.get_body(preferencelist=("plain",))
    if part is None:
        raise ValueError("the message has no plain-text part; send your orders as plain text")
    return part.get_content()


def order_lines(text: str) -> list[str]:
    """The body's own lines: quoted text ('>') and everything after the signature separator are dropped."""
    out = []
    for line in text.splitlines():
        if line.rstrip("\r") == "-- " or line.strip() == "--":
            break
        stripped = line.strip()
        if not stripped or stripped.startswith(">"):
            continue
        if re.match(r"^On .+ wrote:$", stripped):  # the attribution line above a quote
            continue
        out.append(stripped)
    return out


def _address_tags(msg: EmailMessage, local: str) -> list[str]:
    tags = []
    for header in ("To", "Cc", "Delivered-To", "X-Original-To"):
        for _, address in getaddresses(msg.get_all(header, [])):
            name = address.partition("@")[0].lower()
            if name.startswith(local.lower() + "+"):
                tags.append(name.partition("+")[2])
    return tags


def message_id(msg: EmailMessage, raw: bytes) -> str:
    mid = (msg.get("Message-ID") or "").strip()
    return mid or "<sha256:" + hashlib.sha256(raw).hexdigest() + ">"


def ingest(pbem: Pbem, raw: bytes) -> Result:
    """Process one message and send the reply; returns what happened."""
    result = Result()
    too_large = len(raw) > pbem.config.max_email_bytes
    try:
        # an oversized message is not parsed past its headers: only who sent it and its Message-ID are read
        msg = BytesParser(policy=policy.default).parsebytes(raw[:64 * 1024], headersonly=True) if too_large \
            else parse_message(raw)
        sender = parseaddr(msg.get("From", ""))[1]
    except Exception:  # noqa: BLE001 - a message we cannot even parse gets no reply: there is no one to send it to
        result.refused = True
        result.lines.append("unreadable message")
        return result
    mid = message_id(msg, raw)
    if too_large:
        result.refused = True
        result.lines.append(f"refused: the message is {len(raw)} bytes, more than the limit of "
                            f"{pbem.config.max_email_bytes}; it was not read and nothing was written. Send your "
                            "orders as plain text, without attachments or the quoted history")
    else:
        _process(pbem, msg, raw, mid, result)
    _record(pbem, mid, result)
    to = result.seat.email if result.seat and not result.refused else sender
    if to:
        subject = "Orders received" if result.applied and not result.refused else "Orders refused" if \
            result.refused else "Your message"
        body = "\n".join([f"Your message {mid} was processed:", "", *result.lines])
        tag = pbem.reply_tag(result.game_id, result.seat.seat) if result.seat and not result.refused else None
        pbem.transport.send(compose.message(pbem.config, to, result.game_id or "unknown", subject, body, tag,
                                            in_reply_to=mid))
    if result.applied and result.game_id:
        pbem.notify(result.game_id)
    return result


def _record(pbem: Pbem, mid: str, result: Result) -> None:
    if any(line.startswith("refused: this message was already processed") for line in result.lines):
        return
    pbem.store.db["pbem_messages"].insert({"message_id": mid, "game_id": result.game_id, "received_at": utc_now(),
                                           "outcome": result.summary}, ignore=True)


def _process(pbem: Pbem, msg: EmailMessage, raw: bytes, mid: str, result: Result) -> None:
    def refuse(text: str) -> None:
        result.refused = True
        result.lines.append(f"refused: {text}")

    if pbem.store.db["pbem_messages"].count_where("message_id = ?", [mid]):
        return refuse("this message was already processed (same Message-ID); nothing was written again")
    try:
        lines = order_lines(body_text(msg))
    except (ValueError, LookupError, UnicodeError) as exc:
        return refuse(f"malformed message: {exc}")
    headers: dict[str, str] = {}
    orders: list[str] = []
    for line in lines:
        m = HEADER_LINE.match(line)
        if m:
            headers[m.group(1).lower()] = m.group(2).strip()
        else:
            orders.append(line)
    local = pbem.config.orders_address.partition("@")[0]
    tags = _address_tags(msg, local)
    game_id = headers.get("game")
    token = headers.get("token")
    reply_tag = None
    for tag in tags:
        tag_game, _, tag_secret = tag.partition(".")
        game_id = game_id or tag_game
        reply_tag = reply_tag or tag_secret or None
    if not game_id:
        m = SUBJECT.search(msg.get("Subject", ""))
        game_id = m.group(1) if m else None
    if not game_id:
        return refuse("no game named: reply to a game email, or add a line 'game: g-xxxxxxxx'")
    result.game_id = game_id
    try:
        seat = _authenticate(pbem, game_id, token, reply_tag)
    except AccessDenied as exc:
        result.game_id = None if "no game" in str(exc) else game_id
        return refuse(f"{exc}; nothing was written")
    result.seat = seat
    if "join" in headers:
        try:
            joined = pbem.join(seat, headers["join"])
            result.applied += 1
            result.lines.append(f"accepted: join as {seat.seat}, your dice text: {joined['seed_text']}")
        except (games.GameError, AccessDenied, StoreError) as exc:
            return refuse(f"join: {exc}")
    if not orders:
        if not result.applied:
            refuse("the message holds no orders")
        return
    expected = int(headers["seq"]) if headers.get("seq", "").isdigit() else None
    if expected is not None:
        head = projection.load(pbem.store, game_id).meta.seq
        if head != expected:
            return refuse(f"you wrote for event {expected}, but the game is at event {head} now; nothing was "
                          "written: read the latest email and send your orders again")
    for n, order in enumerate(orders):
        try:
            text = _apply(pbem, seat, order)
            result.applied += 1
            result.lines.append(f"accepted: {order}" + (f"  ->  {text}" if text else ""))
        except OrderError as exc:
            case = f" [{exc.case}]" if exc.case else ""
            refuse(f"{order}{case}: {exc}")
        except (games.GameError, AccessDenied, Conflict, StoreError, UnknownRules, ValueError) as exc:
            refuse(f"{order}: {exc}")
        if result.refused:
            result.lines += [f"not attempted: {rest}" for rest in orders[n + 1:]]
            if result.applied:
                result.lines.append(f"(the {result.applied} order(s) accepted above stand)")
            return


def _authenticate(pbem: Pbem, game_id: str, token: str | None, reply_tag: str | None) -> Seat:
    """A `token:` line wins; else the reply tag of the address (or a token there, as invitations once had)."""
    if token or not reply_tag:
        return pbem.authenticate(game_id, token)
    try:
        return pbem.authenticate_tag(game_id, reply_tag)
    except AccessDenied as by_tag:
        try:
            return pbem.authenticate(game_id, reply_tag)
        except AccessDenied:
            raise by_tag from None


def _apply(pbem: Pbem, seat: Seat, order: str) -> str:
    """One line: a service word (undo, disputes) or an order in the game's language. Returns a short note."""
    if order.lower() == "undo":
        done = pbem.undo(seat)
        return f"event {done['undone']} onwards retracted (event {done['retraction_seq']})"
    m = DISPUTE.match(order)
    if m:
        d = pbem.raise_dispute(seat, int(m.group(1)), m.group(2))
        return f"dispute {d['id']} opened"
    m = ANSWER.match(order)
    if m:
        verb, did, note = m.group(1).lower(), int(m.group(2)), m.group(3)
        if verb == "uphold" and not seat.is_arbiter:
            raise AccessDenied("only the arbiter upholds a dispute; the other player may 'accept' it")
        d = pbem.answer_dispute(seat, did, verb in ("accept", "uphold"), note)
        return f"dispute {did} {d['status']}"
    accepted = pbem.submit(seat, order, notify=False)
    from app.projections import history
    from app.rules.catalog import get_rules

    rules = get_rules(accepted.state.meta.rules)
    shown = history.lines(rules, accepted.events, side=seat.side)
    return "; ".join(r["text"] for r in shown if r["type"] != "core.OrderGiven")


def ingest_maildir(pbem: Pbem, folder: str) -> list[Result]:
    """Every new message in a maildir, oldest first; each is moved to cur/ once processed."""
    import mailbox

    box = mailbox.Maildir(folder, factory=None, create=False)
    results = []
    for key in sorted(box.iterkeys()):
        msg = box.get_message(key)
        if msg.get_subdir() != "new":
            continue
        results.append(ingest(pbem, bytes(msg)))
        msg.set_subdir("cur")
        msg.add_flag("S")
        box[key] = msg
    return results
