"""Orders in by email: one RFC 5322 message -> the orders in its body, applied one by one, and a reply.

The sender authenticates with the game token (a `token: ...` line in the body), or by replying to any email the
server sent to their seat: its Reply-To is the plus-address orders+GAME.TAG@..., TAG being the seat's reply tag
(HMAC of the server secret, game and seat; `Credentials.reply_tag`), checked in constant time. A token in that place
(addresses written before reply tags) still works. The game comes from that address, a `game: ...` line or the
subject tag. Every line is read (parsed) before any is played: a line that cannot be read plays nothing of the
message. Orders are then applied in order and processing stops at the first refused one: later orders were
written for a position that did not come about. An answer to a message that opened a seat carries its reply tag.
A `notify: <Apprise URL>` line (or `notify: off`) sets the seat's channel beside email (docs/players.md); the
answer shows it without its secrets.
A message whose Message-ID was processed before (an `ingest` killed after its commit and before it moved the
file, or a resend) writes nothing again: its first answer is repeated, to whom it went then, saying so.

A message is one transaction: its orders, the record that it was processed and its answer (queued in the outbox,
app/service/outbox.py) are written together or not at all, so a run cut short never applies an order twice; the
turn emails its orders cause are reactions to the stored events (docs/reactions.md). The orders of a message
without service words are played from one load of the game and one append (Orders.play). Nothing a message holds
makes `ingest` raise: it ends processed (answered), deferred (the database could not take it now: nothing
written, try again) or quarantined (we could not process it: set aside, logged).
"""
from __future__ import annotations

import hashlib
import logging
import os
import re
from dataclasses import dataclass, field
from datetime import timedelta
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import getaddresses, parseaddr

from app import text as text_rule
from app.mail.replies import body_text, own_lines
from app.numbers import DIGITS
from app.service.application import Application, Seat
from app.service.errors import (
    AccessDenied,
    Conflict,
    GameError,
    NotAuthenticated,
    OrderError,
    StoreError,
    StoreUnavailable,
    TextError,
    UnknownRules,
    Unreadable,
    cut,
)

SUBJECT = re.compile(r"\[hexledger (g-[0-9a-f]{8})\]")
HEADER_LINE = re.compile(r"^(token|game|seq|join|notify)\s*:\s*(.*)$", re.IGNORECASE)
CHANNEL_OFF = ("off", "none", "email")  # `notify: off`: email only (docs/players.md)
# the clock's words (app/service/clocks.py): resign, a draw offered or answered, vacation days taken
CLOCK = re.compile(r"^(?:(?P<resign>resign)|(?P<draw>offer|accept|decline)\s+draw|vacation\s+(?P<days>[0-9]{1,3})"
                   r"(?:\s+days?)?)$", re.IGNORECASE)
DISPUTE = re.compile(rf"^dispute\s+(\d{{1,{DIGITS}}})\s*:?\s*(.*)$", re.IGNORECASE)
# `orders for UNIT`: every order the seat may give now naming that unit or hex, all of them (legal.naming), where the
# turn email's list of a kind is cut short; a question, not an order: nothing is written for it
ASK = re.compile(r"^orders\s+for\s+(\S{1,64})$", re.IGNORECASE)
ANSWER = re.compile(rf"^(accept|reject|uphold)\s+dispute\s+(\d{{1,{DIGITS}}})\s*:?\s*(.*)$",
                    re.IGNORECASE)
MESSAGE_ID = re.compile(r"[\x21-\x7e]{1,250}")  # one header line of printable ASCII: safe to quote in a reply
ADDRESS = re.compile(r"[^\s\x00@<>()\[\]\\,;:\"]{1,200}@[^\s\x00@<>()\[\]\\,;:\"]{1,200}")
NOT_SENT = ("(your table talk was not sent: it goes with your orders, and none of them stood; send it again with "
            "them)")
QUARANTINE = "quarantine"  # the maildir's folder (.quarantine) for messages that could not be processed
LOG = logging.getLogger("hexledger.mail")


@dataclass
class Result:
    """What happened to one message: the reply text lines, and whether anything was written."""

    game_id: str | None = None
    seat: Seat | None = None
    lines: list[str] = field(default_factory=list)
    applied: int = 0
    refused: bool = False
    talked: int = 0  # messages of table talk stored
    asks: list[str] = field(default_factory=list)  # the units and hexes of `orders for ...` lines, as written
    reportable: bool = True  # the answer can carry the seat's report (a game whose rules this server has)
    repeated: bool = False  # processed before (same Message-ID): nothing written, the first answer repeated
    deferred: str | None = None  # the database could not take the message now; nothing written; try again
    quarantined: str | None = None  # we could not process it (the reason); nothing written; set aside

    @property
    def summary(self) -> str:
        if self.repeated:
            return "already processed"
        return f"{self.applied} applied" + (", refused" if self.refused else "")


def parse_message(raw: bytes) -> EmailMessage:
    return BytesParser(policy=policy.default).parsebytes(raw)


def _address_tags(msg: EmailMessage, local: str) -> list[str]:
    tags = []
    for name in ("To", "Cc", "Delivered-To", "X-Original-To"):
        try:
            values = [str(v) for v in msg.get_all(name, [])]
        except Exception:  # noqa: BLE001 - as in header(): a hostile header is no header
            values = []
        for _, address in getaddresses(values):
            name = address.partition("@")[0].lower()
            if name.startswith(local.lower() + "+"):
                tags.append(name.partition("+")[2])
    return tags


def header(msg: EmailMessage, name: str) -> str:
    """A header's decoded text, "" if it is missing or cannot be decoded (a hostile header is no header)."""
    try:
        return str(msg.get(name) or "")
    except Exception:  # noqa: BLE001 - the email package raises many kinds on malformed headers
        return ""


def message_id(msg: EmailMessage, raw: bytes) -> str:
    """The Message-ID, if it is one line of printable ASCII (an encoded word may decode to a line break); else
    the SHA-256 of the message's bytes."""
    mid = header(msg, "Message-ID").strip()
    return mid if MESSAGE_ID.fullmatch(mid) else "<sha256:" + hashlib.sha256(raw).hexdigest() + ">"


def ingest(app: Application, raw: bytes) -> Result:
    """Process one message and queue the reply, in one transaction; returns what happened, never raises."""
    result = Result()
    try:
        with app.writes():
            _ingest(app, raw, result)
    except StoreUnavailable as exc:  # the operator's log has what the database said; the result, only that
        LOG.warning("ingest: a message waits, the database is unavailable (%s): %s", exc.reason, exc.detail or exc)
        return Result(deferred=str(exc), lines=[f"not processed now, nothing written: {exc}"])
    except Exception as exc:  # noqa: BLE001 - a message must never stop the ones behind it; the log has the trace
        LOG.exception("ingest: a message could not be processed; nothing was written")
        reason = f"{type(exc).__name__}: {exc}"
        return Result(quarantined=reason, lines=[f"not processed, set aside: {reason}"])
    return result


def _ingest(app: Application, raw: bytes, result: Result) -> None:
    too_large = len(raw) > app.mail.max_email_bytes
    try:
        # an oversized message is not parsed past its headers: only who sent it and its Message-ID are read
        msg = BytesParser(policy=policy.default).parsebytes(raw[:64 * 1024], headersonly=True) if too_large \
            else parse_message(raw)
    except Exception:  # noqa: BLE001 - a message we cannot even parse gets no reply: there is no one to send it to
        result.refused = True
        result.lines.append("unreadable message")
        return
    sender = parseaddr(header(msg, "From"))[1]
    mid = message_id(msg, raw)
    if app.mailroom.processed(mid):
        return _repeat(app, mid, result)
    if too_large:
        result.refused = True
        result.lines.append(f"refused: the message is {len(raw)} bytes, more than the limit of "
                            f"{app.mail.max_email_bytes}; it was not read and nothing was written. Send your "
                            "orders as plain text, without attachments or the quoted history")
    else:
        _process(app, msg, mid, result)
        if result.asks and result.seat is not None and result.reportable:
            result.lines += _orders_for(app, result.seat, result.asks)
    # a message that opened a seat is answered to that seat, refused or not, with its reply tag: the answer can be
    # replied to as it is (issue 14); one that opened none, to its sender
    to = result.seat.email if result.seat else sender if ADDRESS.fullmatch(sender) and not text_rule.problem(sender) \
        else None
    hours = app.mail.stranger_reply_hours
    if to and result.seat is None and not app.mailroom.may_answer_stranger(to, timedelta(hours=hours)):
        LOG.info("ingest: %s opens no seat and is not answered: its sender was answered in the last %g hour(s)",
                 mid, hours)
        result.lines.append(f"not answered: a message that opens no seat gets one answer an address in {hours:g} "
                            "hour(s), and this address had it")
        to = None
    answer = None
    if to:
        subject = ("Orders refused" if result.refused else "Orders received" if result.applied else
                   "Table talk sent" if result.talked else "Where the game stands" if result.seat else "Your message")
        lines = [f"Your message {mid} was processed:", "", *result.lines]
        seat = result.seat.seat if result.seat else None
        answer = {"to": to, "game_id": result.game_id, "subject": subject, "seat": seat}
        if result.seat is not None and result.reportable:  # the answer carries the seat's situation now
            answer["answer"] = app.mailroom.answer(to, result.game_id, seat, {
                "headline": subject, "lines": lines, "seq": app.reads.head(result.game_id), "in_reply_to": mid})
        else:
            answer["body"] = "\n".join(lines)
            app.mailroom.message(to, result.game_id, subject, answer["body"], seat, in_reply_to=mid)
    app.mailroom.record(mid, result.game_id, result.summary, answer)


def _orders_for(app: Application, seat: Seat, asks: list[str]) -> list[str]:
    """The answer's lines for `orders for ...` lines: every order the seat may give now naming each unit or hex,
    read after the message's orders were played (the play page's list for a counter pointed at)."""
    lines = []
    for word in asks[:5]:
        shown = text_rule.quoted(word)
        found = [o["order"] for o in app.reads.prompt(seat, word)["legal_orders"]]
        lines.append(f"orders for {shown} now: {len(found)}" if found else
                     f"orders for {shown} now: none (no order you may give now names it)")
        lines += [f"    {order}" for order in found]
    if len(asks) > 5:
        lines.append(f"(only the first 5 of your {len(asks)} 'orders for' lines are answered)")
    return lines


def _repeat(app: Application, mid: str, result: Result) -> None:
    """A message processed before: nothing is written again; its first answer goes again, to whom it went, saying
    so (none, for a message that got none)."""
    result.repeated = True
    answer = app.mailroom.answer_of(mid)
    result.lines.append("this message was already processed (same Message-ID); nothing was written again"
                        + ("; its first answer is repeated" if answer else ""))
    if answer is None:
        return
    result.game_id = answer["game_id"]
    hours = app.mail.stranger_reply_hours
    if answer["seat"] is None and not app.mailroom.may_answer_stranger(answer["to"], timedelta(hours=hours)):
        result.lines.append(f"not answered again: a message that opens no seat gets one answer an address in "
                            f"{hours:g} hour(s)")
        return  # a stranger's resends are no way round the limit
    again = (f"Your message {mid} was already processed (sent again, or its processing was cut off before it was "
             "filed); nothing was written again. Its answer then:")
    if "answer" in answer:  # laid out again from the position it answered then
        data = answer["answer"]
        app.mailroom.answer(answer["to"], answer["game_id"], answer["seat"], {**data, "lines": [again, "",
                                                                                                *data["lines"]]})
        return
    app.mailroom.message(answer["to"], answer["game_id"], answer["subject"], f"{again}\n\n" + answer["body"],
                         answer["seat"], in_reply_to=mid)


def _process(app: Application, msg: EmailMessage, mid: str, result: Result) -> None:
    def refuse(text: str) -> None:
        result.refused = True
        result.lines.append(f"refused: {text}")

    try:
        lines = own_lines(body_text(msg))
    except (ValueError, LookupError, UnicodeError) as exc:
        return refuse(f"malformed message: {exc}")
    bad = next(((n, text_rule.problem(line)) for n, line in enumerate(lines, start=1) if text_rule.problem(line)), None)
    if bad is not None:  # as a request over HTTP (app/web); the line is not quoted: it may be a token line
        return refuse(f"line {bad[0]} of your message (quotes and signature left out) {bad[1]}; nothing was read "
                      "or written")
    headers: dict[str, str] = {}
    orders: list[str] = []
    standing: list[str] = []  # `standing KIND: ...` lines: set before the orders, in the seat's own turn
    for line in lines:
        m = HEADER_LINE.match(line)
        if m:
            headers[m.group(1).lower()] = m.group(2).strip()
        elif app.standing.is_line(line):
            standing.append(line)
        elif ASK.match(line):
            result.asks.append(ASK.match(line).group(1))
        else:
            orders.append(line)
    local = app.mail.orders_address.partition("@")[0]
    tags = _address_tags(msg, local)
    game_id = headers.get("game")
    token = headers.get("token")
    reply_tag = None
    for tag in tags:
        tag_game, _, tag_secret = tag.partition(".")
        game_id = game_id or tag_game
        reply_tag = reply_tag or tag_secret or None
    if not game_id:
        m = SUBJECT.search(header(msg, "Subject"))
        game_id = m.group(1) if m else None
    if not game_id:
        return refuse("no game named: reply to a game email, or add a line 'game: g-xxxxxxxx'")
    result.game_id = game_id
    try:
        seat = _authenticate(app, game_id, token, reply_tag)
    except AccessDenied as exc:  # a stranger: the same answer whether the game exists or not, tied to no game
        result.game_id = None
        return refuse(f"{exc}; nothing was written")
    result.seat = seat
    try:
        app.reads.rules_of(game_id)
    except UnknownRules:  # a game this server cannot play: its lines are answered as orders, refused as such
        result.reportable = False
        sorted_lines = None
    else:
        sorted_lines = app.talk.sort(seat, orders)
        if sorted_lines.mistyped:  # nothing a player meant as an order is taken for talk
            return _unreadable_refused(sorted_lines.mistyped, refuse, result)
        orders = [o for o in sorted_lines.orders if o.lower() != "status"]
    try:
        talk = [app.talk.message(seat, lines, to) for to, lines in (sorted_lines.talk if sorted_lines else {}).items()]
    except TextError as exc:
        return refuse(f"table talk: {exc}")
    plain = not seat.is_arbiter and not any(_service_word(o) for o in orders)  # one load, one append: Orders.play
    unreadable = _unreadable(app, seat, orders) if not plain or "join" in headers else []
    if unreadable:  # every line is read before any is played: nothing of a message half read is played
        return _unreadable_refused(unreadable, refuse, result)
    if "seq" in headers and not re.fullmatch(rf"[0-9]{{1,{DIGITS}}}", headers["seq"]):
        return refuse(f"'seq: {headers['seq']}' is not an event number; nothing was written")
    expected = int(headers["seq"]) if "seq" in headers else None
    if standing:
        try:
            done = app.standing.set(seat, app.standing.read_lines(standing), expected,
                                    answer=not orders and "join" not in headers)
        except StoreUnavailable:
            raise
        except Conflict as exc:
            return _stale(expected, exc.actual, refuse)
        except (GameError, AccessDenied, StoreError, TextError) as exc:
            return refuse(f"standing orders: {exc}")
        expected = done["seq"] if expected is not None else None
        result.applied += 1
        result.lines.append("accepted: your standing orders are now: " + ("; ".join(done["lines"]) or
                            "none (every decision is asked of you)"))
        _answered(len(done["events"]) - 1, result)
    if "join" in headers:
        try:
            joined = app.setup.join(seat, headers["join"])
            result.applied += 1
            result.lines.append(f"accepted: join as {seat.seat}, your dice text: {joined['seed_text']}")
        except StoreUnavailable:
            raise  # the whole message waits: nothing of it is written
        except (GameError, AccessDenied, StoreError, TextError) as exc:
            return refuse(f"join: {exc}")
    if "notify" in headers:
        wanted = headers["notify"]
        try:
            shown = app.players.set_channel(seat, None if wanted.lower() in CHANNEL_OFF else wanted)
        except StoreUnavailable:
            raise  # the whole message waits: nothing of it is written
        except (GameError, AccessDenied, StoreError, TextError) as exc:
            return refuse(str(exc))
        result.applied += 1
        result.lines.append(f"accepted: notify: {shown}, besides email, whenever it is your turn" if shown else
                            "accepted: notify: off; you are told of your turn by email only")
    if not orders and not talk:
        if not result.applied and not result.asks:
            result.lines.append("no orders: your situation as it stands now")
        return
    if plain:
        return _play(app, seat, orders, expected, talk, result, refuse)
    if expected is not None and app.reads.moved_since(game_id, expected):
        return _stale(expected, app.reads.head(game_id), refuse)
    for n, order in enumerate(orders):
        try:
            text = _apply(app, seat, order)
            result.applied += 1
            result.lines.append(f"accepted: {order}" + (f"  ->  {text}" if text else ""))
        except StoreUnavailable:
            raise  # the whole message waits: nothing of it is written
        except (OrderError, GameError, AccessDenied, Conflict, StoreError, UnknownRules, ValueError) as exc:
            _refused(order, exc, orders[n + 1:], refuse, result)
            break
    if result.applied or not orders:  # the talk goes with the lines that stand
        for message in talk:
            _said(app.talk.say(seat, message.lines, message.to), result)
    elif talk:
        result.lines.append(NOT_SENT)


def _said(message: dict, result: Result) -> None:
    """A line of the answer for table talk stored."""
    result.talked += 1
    to = "all" if message["to"] == "all" else "the arbiter only"
    result.lines.append(f"table talk to {to}: " + " / ".join(text_rule.quoted(line) for line in message["lines"]))


def _service_word(line: str) -> bool:
    return line.lower() == "undo" or bool(DISPUTE.match(line) or ANSWER.match(line) or CLOCK.match(line))


def _stale(expected: int, head: int, refuse) -> None:
    refuse(f"you wrote for event {expected}, but the game is at event {head} now; nothing was written: read the "
           "latest email and send your orders again")


def _unreadable_refused(problems: list[str], refuse, result: Result) -> None:
    for line in problems:
        refuse(line)
    result.lines.append("nothing of this message was played or written: correct the line(s) above and send all of "
                        "its orders again")


def _refused(order: str, exc: Exception, rest: list[str], refuse, result: Result) -> None:
    """The line the message stopped at, why, and what was not attempted after it."""
    case = f" [{exc.case}]" if isinstance(exc, OrderError) and exc.case else ""
    refuse(f"{cut(order)}{case}: {exc}")
    result.lines += [f"not attempted: {cut(later)}" for later in rest]
    if result.applied:
        result.lines.append(f"(the {result.applied} order(s) accepted above stand)")


def _play(app: Application, seat: Seat, orders: list[str], expected: int | None, talk: list, result: Result,
          refuse) -> None:
    """A message of orders only (and its table talk): read, decided and stored from one load and one append
    (Orders.play); the answer lists each order as accepted, refused or not attempted: what they did, and what the
    automated seats answered, the history in the answer's report tells."""
    try:
        answered = app.orders.play(seat, orders, expected, talk)
    except Conflict as exc:
        if expected is not None:
            return _stale(expected, exc.actual, refuse)
        return _refused(orders[0] if orders else "table talk", exc, orders[1:], refuse, result)
    except (GameError, AccessDenied, UnknownRules) as exc:
        return _refused(orders[0] if orders else "table talk", exc, orders[1:], refuse, result)
    if isinstance(answered.refused, Unreadable):
        return _unreadable_refused(answered.refused.problems, refuse, result)
    if answered.orders or not orders:  # the talk goes with the orders that stand
        for message in talk:
            _said({"to": message.to, "lines": message.lines}, result)
    for n, order in enumerate(orders[:len(answered.orders)]):
        result.applied += 1
        result.lines.append(f"accepted: {order}")
        if n < len(answered.between) and answered.between[n]:  # the other side's standing orders, and yours went on
            _answered(len(answered.between[n]), result, "and your orders went on from there")
    _answered(len(answered.automated), result)
    if answered.refused is not None:
        n = len(answered.orders)
        _refused(orders[n], answered.refused, orders[n + 1:], refuse, result)
        if talk and not answered.orders:
            result.lines.append(NOT_SENT)


def _answered(count: int, result: Result, then: str = "") -> None:
    """A line of the answer for the server's answer to the seat's lines: the automated seats' and the standing
    orders' orders, each with its reason (a standing order's with its kind), which the report's history shows."""
    if count:
        result.lines.append(f"(the server answered: {count} event(s) of the automated seats and standing orders, each "
                            f"order with its reason, in the history below{'; ' + then if then else ''})")


def _unreadable(app: Application, seat: Seat, orders: list[str]) -> list[str]:
    """The lines that cannot be read as orders (InvalidOrder, AmbiguousOrder), each with why, read against the
    position the message answers. Service words are read by their patterns; the arbiter's lines, and orders the
    rules refuse when their turn comes, are left to be answered as they are played."""
    if seat.is_arbiter:
        return []
    return app.orders.unreadable(seat, [o for o in orders if not _service_word(o)])


def _authenticate(app: Application, game_id: str, token: str | None, reply_tag: str | None) -> Seat:
    """A `token:` line wins; else the reply tag of the address (or a token there, as invitations once had)."""
    if not token and not reply_tag:
        raise NotAuthenticated("no token line and no reply tag: reply to a game email (its reply address names "
                               "your seat), or put your token line first: 'token: <your token from the invitation>'")
    if token:
        return app.seats.authenticate(game_id, token)
    try:
        return app.seats.authenticate_tag(game_id, reply_tag)
    except AccessDenied as by_tag:
        try:
            return app.seats.authenticate(game_id, reply_tag)
        except AccessDenied:
            raise by_tag from None


def _apply(app: Application, seat: Seat, order: str) -> str:
    """One line: a service word (undo, disputes) or an order in the game's language. Returns a short note."""
    if order.lower() == "undo":
        done = app.orders.undo(seat)
        return f"event {done['undone']} onwards retracted (event {done['retraction_seq']})"
    m = DISPUTE.match(order)
    if m:
        d = app.disputes.raise_dispute(seat, int(m.group(1)), m.group(2))
        return f"dispute {d['id']} opened"
    m = ANSWER.match(order)
    if m:
        verb, did, note = m.group(1).lower(), int(m.group(2)), m.group(3)
        if verb == "uphold" and not seat.is_arbiter:
            raise AccessDenied("only the arbiter upholds a dispute; the other player may 'accept' it")
        d = app.disputes.answer_dispute(seat, did, verb in ("accept", "uphold"), note)
        return f"dispute {did} {d['status']}"
    m = CLOCK.match(order)
    if m:
        if m.group("resign"):
            return app.clocks.resign(seat)["done"]
        if m.group("draw"):
            return app.clocks.draw(seat, m.group("draw").lower())["done"]
        return app.clocks.vacation(seat, int(m.group("days")))["done"]
    answered = app.orders.play(seat, [order])
    if answered.refused is not None:
        raise answered.refused
    return ""  # what it did is in the history of the answer's report


def ingest_maildir(app: Application, folder: str) -> list[Result]:
    """Every message in the maildir's new/, in the order they arrived, read as the bytes that arrived: a processed
    one moves to cur/ (seen), one we could not process to the folder .quarantine/new/ (the reason logged). A
    database that cannot take a message now stops the run there: it and the later ones stay in new/ for the next
    run."""
    import mailbox

    new = os.path.join(folder, "new")
    results = []
    # in the order they arrived: a maildir name's parts are not zero-padded (Python's writes M{microseconds})
    arrived = sorted((os.stat(os.path.join(new, n)).st_mtime_ns, n) for n in os.listdir(new) if not n.startswith("."))
    for _, name in arrived:
        path = os.path.join(new, name)
        with open(path, "rb") as f:
            result = ingest(app, f.read())
        results.append(result)
        if result.deferred:
            break
        if result.quarantined:
            mailbox.Maildir(folder, factory=None, create=False).add_folder(QUARANTINE)  # made if missing
            os.replace(path, os.path.join(folder, f".{QUARANTINE}", "new", name))
            LOG.error("ingest: %s moved to %s/.%s/new: %s", name, folder, QUARANTINE, result.quarantined)
        else:
            os.replace(path, os.path.join(folder, "cur", name.partition(":")[0] + ":2,S"))
    return results
