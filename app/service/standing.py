"""Standing orders as a seat sets and reads them, from any channel (issue 27; the mechanism is
app/rules/standing.py; docs/play-by-email.md, "Standing orders").

A seat sets them in its own turn (or before the game starts: in the reply that takes its seat), as one event,
core.StandingOrdersSet, which the other side reads only as "standing orders set" (the one visibility rule). They
are kept until changed; `ask` for a kind takes its standing order away. Whenever the step a standing order stands
for is asked of the side, the server gives its order (app/service/autoplay.py), now too if it is asked already.
Written as text (an email's line, the command line): `standing KIND: CLAUSE[; CLAUSE ...]`.
"""
from __future__ import annotations

import re
from collections.abc import Iterable

from app.events import core
from app.events.envelope import StoredEvent
from app.events.interface import Store
from app.projections import history
from app.projections import state as projection
from app.rules import standing
from app.rules.base import Catalog
from app.service.errors import Conflict, PbemError, TextError
from app.service.games import new_event
from app.service.orders import Orders
from app.service.seats import Seat, mark_seen, player
from app.service.writes import Writes
from app.text import player_text

LINE = re.compile(r"^standing\s+(?P<kind>[A-Za-z][\w-]*)\s*:\s*(?P<clauses>.*)$", re.IGNORECASE)
WORD = re.compile(r"^standing\b", re.IGNORECASE)


def is_line(text: str) -> bool:
    """Does this line of a message set a standing order (rather than give an order)?"""
    return bool(WORD.match(text.strip()))


def read_lines(lines: Iterable[str]) -> dict[str, list[str]]:
    """`standing KIND: CLAUSE; CLAUSE` lines as {kind: [clause, ...]} (a later line for a kind replaces an earlier);
    PbemError quoting a line that is not of that form."""
    out: dict[str, list[str]] = {}
    for text in lines:
        m = LINE.match(text.strip())
        if m is None:
            raise PbemError(f"cannot read {text.strip()!r}: a standing order reads 'standing KIND: CLAUSE[; CLAUSE "
                            "...]', e.g. 'standing losses: keep UNIT; weakest' or 'standing retreat: ask'")
        out[m.group("kind").lower()] = [c.strip() for c in m.group("clauses").split(";") if c.strip()]
    return out


class StandingOrders:
    """A seat's standing orders, on one store; `orders`: the server answers after a change (the automated seats
    and standing orders both, app/service/autoplay.py)."""

    is_line = staticmethod(is_line)
    read_lines = staticmethod(read_lines)

    def __init__(self, store: Store, catalog: Catalog, writes: Writes, orders: Orders):
        self.store = store
        self.catalog = catalog
        self.writes = writes
        self.orders = orders

    def show(self, seat: Seat) -> dict:
        """The seat's standing orders in force, and the kinds that may stand in its game with their words."""
        state = projection.load(self.store, self.catalog, seat.game_id)
        return described(self.catalog.rules(state.meta.rules), state, player(seat))

    def set(self, seat: Seat, orders: dict[str, list[str]], expected_seq: int | None = None,
            answer: bool = True) -> dict:
        """Set (or, with no clause or `ask`, take away) the seat's standing orders for the kinds named: one event;
        then (`answer`) the server answers with them if the step they stand for is asked now (a message whose
        orders follow leaves that to the end of its orders). Refused whole, nothing written, if any kind may not
        stand or any clause does not read, or it is not the seat's turn; a stale `expected_seq` is Conflict."""
        side = player(seat)
        with self.writes.group():
            with self.writes(seat.game_id):
                stored = set_orders(self.store, self.catalog, seat.game_id, side, orders, expected_seq)
                mark_seen(self.store, seat, stored.seq)
            answered = self.orders.answer_automated(seat) if answer else []
        after = answered[-1].state if answered else projection.load(self.store, self.catalog, seat.game_id)
        rules = self.catalog.rules(after.meta.rules)
        return {"seq": stored.seq, **described(rules, after, side),
                "events": history.lines(rules, [stored, *(e for a in answered for e in a.events)], side=side)}


def set_orders(store: Store, catalog: Catalog, game_id: str, side: str, orders: dict[str, list[str]],
               expected_seq: int | None = None) -> StoredEvent:
    """Check and store `side`'s standing orders for the kinds named (core.StandingOrdersSet, by the player), in
    the caller's transaction; PbemError (nothing written) if one may not stand or does not read, or it is not the
    side's turn; Conflict for a stale `expected_seq`."""
    if not orders:
        raise PbemError("no standing order given: name a kind and its clauses, e.g. 'standing losses: weakest'")
    state = projection.load(store, catalog, game_id)
    if expected_seq is not None and expected_seq != state.meta.seq:
        raise Conflict(game_id, expected_seq, state.meta.seq)
    rules = catalog.rules(state.meta.rules)
    _may_set(rules, state, side)
    kept = {}
    for kind, clauses in orders.items():
        try:
            kept[kind] = standing.read(rules, kind, [player_text(c, "order") for c in clauses], side, state.game)
        except (standing.StandingError, TextError) as exc:
            raise PbemError(f"standing {kind}: {exc}; nothing was set") from None
    event = new_event(core.StandingOrdersSet(side=side, orders=kept), f"player:{side}")
    return store.append(game_id, state.meta.seq, [event])[0]


def _may_set(rules, state: projection.GameState, side: str) -> None:
    """In the side's own turn, or before every seat is taken; never once the game is over."""
    if rules.outcome(state.game) is not None:
        raise PbemError("the game is over: no standing order is set any more")
    if side in state.meta.automated:
        raise PbemError(f"{side} is played by the server: it takes no standing orders")
    prompt = rules.prompt(state.game)
    if prompt.side != side and all(s in state.meta.players for s in state.meta.sides):
        raise PbemError(f"standing orders are set in your own turn, with your orders (it is {prompt.side}'s turn "
                        f"now: {prompt.step}); nothing was set")


def described(rules, state: projection.GameState, side: str) -> dict:
    """The side's standing orders in force ({kind: [clause, ...]}, and as text lines), and the kinds that may
    stand in this game with the words their preferences may use."""
    mine = state.meta.standing.get(side, {})
    kinds = {kind: {"orders": list(rules.table.orders.get(kind, {})) if hasattr(rules, "table") else [],
                    "words": sorted({*standing.WORDS, *words})}
             for kind, words in standing.kinds(rules).items()}
    return {"side": side, "standing": mine, "kinds": kinds, "lines": standing.as_lines(mine)}

