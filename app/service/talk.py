"""Table talk (issue 27): what players write to each other beside their orders, stored as `core.MessageSent` events
by the seat that wrote them, addressed to all seats or to the arbiter only, read through the one visibility rule
(app/projections/sight.py `talk_readable`) wherever the history is read: the history and log, the turn emails and
answers, the export and the replay. Talk changes nothing in the game and rolls no die.

`Talk.say` is the API's and the email's door; `sort` reads an email's lines into orders and talk by one rule
(docs/play-by-email.md, "Table talk"):

- a line whose first word is one of the game's order words (every verb its states table knows, in any step) or a
  service word (`undo`, `dispute`, `accept`, `reject`, `uphold`, `status`, and the clock's `resign`, `offer`,
  `decline`, `vacation`) is an order: it must read, or nothing of
  the message is played;
- a line that would read as an order with its first word one typo away from an order word (`mvoe d3 to 2610`), or
  with an order word put in front of it (`d3 to 2610`), is refused as a mistyped order, not taken for talk;
- `say: ...` is talk to all and `arbiter: ...` (or `to arbiter: ...`) talk to the arbiter only, anywhere;
- any other line is talk to all, wherever it stands in the message.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from app.events import core
from app.events.interface import Store
from app.events.store import UnknownGame
from app.projections import state as projection
from app.projections.sight import talk_readable
from app.rules.base import Catalog, Rules
from app.rules.errors import AmbiguousOrder, InvalidOrder, OrderError, echo
from app.service import games
from app.service.errors import AccessDenied
from app.service.receipts import Receipts, as_dict
from app.service.seats import ARBITER, Seat
from app.service.writes import Writes
from app.text import TextError, message_lines

ADDRESSEES = ("all", "arbiter")
TALK_TYPE = "core.MessageSent"
SERVICE_WORDS = ("undo", "dispute", "accept", "reject", "uphold", "status", "resign", "offer", "decline", "vacation")
SAY = re.compile(r"^say\s*:\s*(.*)$", re.IGNORECASE)
TO_ARBITER = re.compile(r"^(?:to\s+(?:the\s+)?)?arbiter\s*:\s*(.*)$", re.IGNORECASE)


def message(seat: Seat, lines: Sequence[str], to: str = "all") -> core.MessageSent:
    """The event of `seat`'s talk to `to` ("all" or "arbiter"), its lines held to the text rule
    (app/text.py `message_lines`: one line each, bounded, at most MESSAGE_LINES)."""
    if to not in ADDRESSEES:
        raise TextError(f"talk goes to 'all' or to the 'arbiter', not {to!r}; nothing was written")
    if seat.is_arbiter and to == ARBITER:
        raise TextError("the arbiter's talk goes to all; nothing was written")
    return core.MessageSent(by=seat.seat, to=to, lines=message_lines(lines))


def unread(store: Store, seat: Seat, after: int, sees_all: bool) -> int:
    """How many messages of the others' talk `seat` may read (the one visibility rule: sight.talk_readable, or all
    for a reader who `sees_all`) were stored after event `after` (its last email: talk no email has told it yet)."""
    side = ARBITER if seat.is_arbiter else seat.seat
    return sum(1 for e in store.events(seat.game_id, after + 1) if e.type == TALK_TYPE
               and e.payload["by"] != side and (sees_all or talk_readable(core.MessageSent(**e.payload), side)))


def actor(seat: Seat) -> str:
    return ARBITER if seat.is_arbiter else f"player:{seat.seat}"


def said(store: Store, receipts: Receipts, seat: Seat, lines: Sequence[str], to: str = "all") -> dict:
    """Append `seat`'s talk to the game at its head (talk takes no turn and moves nothing, so it is never stale)
    and answer what was stored, with its receipt (signed by `receipts`); TextError (nothing written) if it breaks
    the text rule."""
    event = message(seat, lines, to)
    if not store.game_exists(seat.game_id):
        raise UnknownGame(seat.game_id)
    head = store.head(seat.game_id)[0]
    stored = store.append(seat.game_id, head, [games.new_event(event, actor(seat))])[0]
    return {"seq": stored.seq, "to": event.to, "lines": event.lines,
            "receipt": as_dict(receipts.stamp(stored))}


class Talk:
    """Table talk written by one seat, on one store; `receipts`: what signs the answer."""

    def __init__(self, store: Store, catalog: Catalog, writes: Writes, receipts: Receipts):
        self.store = store
        self.catalog = catalog
        self.writes = writes
        self.receipts = receipts

    def say(self, seat: Seat, lines: Sequence[str], to: str = "all") -> dict:
        """Store `seat`'s talk as one event (at the game's head: talk takes no turn and moves nothing, so it is
        never stale); its readers see it in their next email and in the history."""
        if seat.owner:
            raise AccessDenied("the database's owner views a seat; only its player talks from it")
        with self.writes(seat.game_id):
            return said(self.store, self.receipts, seat, lines, to)

    def message(self, seat: Seat, lines: Sequence[str], to: str = "all") -> core.MessageSent:
        """The event of `seat`'s talk, checked, not yet stored (an email's talk goes with its orders)."""
        return message(seat, lines, to)

    def sort(self, seat: Seat, lines: Sequence[str]) -> Sorted:
        """An email's lines (headers taken out) read by the module's rule against the game now, which is loaded only
        if a line needs it (one that begins with no order word): a message of orders is loaded once, to play."""
        rules = self.catalog.rules(self.store.game(seat.game_id)["rules"])
        loaded: list[projection.GameState] = []

        def state() -> projection.GameState:
            if not loaded:
                loaded.append(projection.load(self.store, self.catalog, seat.game_id))
            return loaded[0]

        return sort(rules, state, seat, lines)


@dataclass
class Sorted:
    """An email's lines by what they are: orders (service words included), talk by addressee, and lines refused
    as mistyped orders (each with why)."""

    orders: list[str] = field(default_factory=list)
    talk: dict[str, list[str]] = field(default_factory=dict)
    mistyped: list[str] = field(default_factory=list)


def order_words(rules: Rules, state: Callable[[], projection.GameState]) -> set[str]:
    """Every verb the game's orders start with, in any step (the engine's states table); for a rule set without one,
    those of the step it is at."""
    table = getattr(rules, "table", None)
    if table is not None:
        return {name for orders in table.orders.values() for name in orders}
    return {a.name for a in rules.prompt(state().game).actions}


def sort(rules: Rules, state: Callable[[], projection.GameState], seat: Seat, lines: Sequence[str]) -> Sorted:
    """`lines` by the module's rule; `state()`: the game now (asked for only if a line needs it)."""
    words = order_words(rules, state)
    out = Sorted()
    for line in lines:
        said = SAY.match(line)
        private = TO_ARBITER.match(line) if said is None else None
        if said or private:
            out.talk.setdefault("arbiter" if private else "all", []).append((said or private).group(1))
            continue
        first = line.split(maxsplit=1)[0].lower().rstrip(":,.")
        if first in words or first in SERVICE_WORDS:
            out.orders.append(line)
            continue
        meant = None if seat.side is None else _meant(rules, state(), seat.side, line, words)
        if meant is not None:
            out.mistyped.append(f"cannot read order {echo(line)}: it begins with no order word, but reads as the "
                                f"order {echo(meant)} (a mistyped word, or a line broken in two?); an order begins "
                                f"with its order word ({', '.join(sorted(words))}); to send the line as table talk, "
                                "begin it with 'say:'")
            continue
        out.talk.setdefault("all", []).append(line)
    return out


def _meant(rules: Rules, state: projection.GameState, side: str, line: str, words: set[str]) -> str | None:
    """The order `line` reads as with its first word one typo away from an order word, or an order word put in front
    of it; None if it reads as no order either way (then it is talk)."""
    first, _, rest = line.partition(" ")
    tries = [f"{word} {rest}".strip() for word in sorted(words) if _one_typo(first.lower(), word)]
    tries += [f"{word} {line}" for word in sorted(words)]
    for text in tries:
        try:
            rules.parse(text, side, state.game)
        except (InvalidOrder, AmbiguousOrder):
            continue
        except (OrderError, ValueError):
            pass  # it reads; a rule refuses it
        return text
    return None


def _one_typo(typed: str, word: str) -> bool:
    """`typed` is `word` with one letter changed, missing, added, or two neighbours swapped (words of 3 or more)."""
    if typed == word or len(word) < 3 or abs(len(typed) - len(word)) > 1:
        return False
    if len(typed) == len(word):
        diff = [i for i, (a, b) in enumerate(zip(typed, word, strict=True)) if a != b]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1 and typed[diff[0]] == word[diff[1]]
                                  and typed[diff[1]] == word[diff[0]])
    short, long_ = sorted((typed, word), key=len)
    return any(long_[:i] + long_[i + 1:] == short for i in range(len(long_)))
