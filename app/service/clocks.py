"""Clocks (issue 27; docs/play-by-email.md, "Clocks"): how long a side may take, and the game's end by agreement.

A game's clock is one of two kinds, chosen at creation:

- a **fixed deadline** (`deadline_hours` a turn, from the start of each turn: the turn subscriber's
  `turn_side`/`turn_started_at`, app/service/notices.py), as before;
- a **time bank**, as correspondence servers keep one: each side starts with `bank_hours`; the time it takes while
  it is to act is spent from its bank, and when its turn ends `increment_hours` are added, up to `max_hours`. The
  clock subscriber (app/service/clock_records.py) keeps whose clock runs since when and each side's bank
  (`pbem_games.clock_state`), following the side to act at every complete write of the stream (an automated
  seat's turn and a standing order's answer run nobody's clock).

Either kind: a player may take **vacation** days, up to the game's allowance (`vacation_days`), as an event
(core.VacationTaken): their clock does not run meanwhile, and a deadline falling in it moves by as much. When a
clock runs out, `tick` (app/service/deadlines.py) takes the game's action on timeout (`on_deadline`):
`notify-arbiter`, `auto-pass`, or `forfeit` (the late side concedes, core.Resigned, in the deadline's own write).

A player may **resign** (core.Resigned) or **offer a draw** (core.DrawOffered), which the other side accepts or
declines (core.DrawAnswered), from any channel; the game's outcome then says so, and the dice seed is revealed in
the same write, as at any end. Who is told is the clock subscriber's (a reaction to those events,
app/service/clock_records.py).
"""
from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from app.events import core
from app.events.interface import Store
from app.events.store import NewEvent, utc_parse
from app.projections import state as projection
from app.rules.base import Catalog
from app.service.errors import PbemError
from app.service.games import SERVER, new_event
from app.service.seats import Seat, mark_seen, player
from app.service.writes import Writes

TIMEOUT_ACTIONS = ("notify-arbiter", "auto-pass", "forfeit")
MAX_VACATION_DAYS = 60  # a vacation at a time, and a game's allowance


@dataclass(frozen=True)
class Settings:
    """A game's clock as its creator chose it: a time bank (None: the fixed deadline) and the vacation allowance."""

    bank_hours: float | None = None
    increment_hours: float = 0.0
    max_hours: float | None = None
    vacation_days: int = 0

    @classmethod
    def of(cls, row: dict) -> Settings:
        return cls(**json.loads(row["clock"])) if row.get("clock") else cls()

    def to_json(self) -> str:
        return json.dumps(vars(self), sort_keys=True)

    @property
    def bank(self) -> bool:
        return self.bank_hours is not None


def checked(bank_hours: float | None, increment_hours: float | None, max_hours: float | None,
            vacation_days: int | None, deadline_hours: float | None) -> Settings:
    """A new game's clock settings, or PbemError saying what is wrong."""
    if bank_hours is not None:
        if deadline_hours is not None:
            raise PbemError("a game runs on a time bank or on a fixed deadline a turn, not both")
        if bank_hours <= 0:
            raise PbemError("the time bank must be a positive number of hours")
        if (increment_hours or 0) < 0:
            raise PbemError("the increment a turn is a number of hours, 0 or more")
        if max_hours is not None and max_hours < bank_hours:
            raise PbemError("the time bank's ceiling (max_hours) is at least the bank it starts with")
    elif increment_hours or max_hours:
        raise PbemError("an increment or a ceiling belongs to a time bank: give bank_hours too")
    if vacation_days is not None and not 0 <= vacation_days <= MAX_VACATION_DAYS:
        raise PbemError(f"vacation days are 0 to {MAX_VACATION_DAYS}")
    return Settings(bank_hours, increment_hours or 0.0, max_hours, vacation_days or 0)


def first_state(settings: Settings, sides: list[str]) -> str | None:
    """The clock subscriber's record of a new game: every side's bank full, nobody's clock running yet."""
    if not settings.bank:
        return None
    return json.dumps({"side": None, "since": None, "left": {s: settings.bank_hours * 3600 for s in sides},
                       "reminded": 0, "expired": 0}, sort_keys=True)


# -- time, with vacations left out --------------------------------------------------------------------------------
def _periods(meta: projection.GameMeta, side: str) -> list[tuple[datetime, datetime]]:
    return sorted((utc_parse(a), utc_parse(b)) for a, b in meta.vacations.get(side, []))


def spent(meta: projection.GameMeta, side: str, start: datetime, end: datetime) -> timedelta:
    """The time from `start` to `end` that counts on `side`'s clock: its vacations left out."""
    off = timedelta(0)
    for a, b in _periods(meta, side):
        lo, hi = max(a, start), min(b, end)
        if hi > lo:
            off += hi - lo
    return max(end - start - off, timedelta(0))


def runs_out(meta: projection.GameMeta, side: str, start: datetime, budget: timedelta) -> datetime:
    """When `side`'s clock, started at `start` with `budget` on it, runs out: vacations stop it."""
    at, left = start, budget
    for a, b in _periods(meta, side):
        if b <= at:
            continue
        a = max(a, at)
        if at + left <= a:
            break
        left -= a - at
        at = b
    return at + left


@dataclass(frozen=True)
class Running:
    """A clock that runs now: whose, since when, when it runs out, and the turn's marks."""

    side: str
    since: datetime
    due: datetime
    reminded: bool
    expired: bool

    @property
    def span(self) -> timedelta:
        return self.due - self.since


def running(store: Store, catalog: Catalog, row: dict, meta=None) -> Running | None:
    """The clock running in the game of this settings row, or None (nobody's turn on the clock); `meta`: the game's
    state's meta at its head, when the caller holds it (else loaded)."""
    settings = Settings.of(row)
    meta = meta or projection.load(store, catalog, row["game_id"]).meta
    if not settings.bank:
        if row["deadline_hours"] is None or row["turn_side"] is None or row["turn_started_at"] is None:
            return None
        since = utc_parse(row["turn_started_at"])
        return Running(row["turn_side"], since, runs_out(meta, row["turn_side"], since,
                                                         timedelta(hours=row["deadline_hours"])),
                       bool(row["reminded"]), bool(row["expired"]))
    record = json.loads(row["clock_state"] or "null")
    if not record or record["side"] is None:
        return None
    since = utc_parse(record["since"])
    left = timedelta(seconds=max(record["left"][record["side"]], 0))
    return Running(record["side"], since, runs_out(meta, record["side"], since, left), bool(record["reminded"]),
                   bool(record["expired"]))


def mark(store: Store, game_id: str, name: str) -> None:
    """Mark the running turn `reminded` or `expired` (a fixed deadline's column, or the bank's record)."""
    row = store.pbem_settings(game_id)
    if not Settings.of(row).bank:
        store.update_pbem_game(game_id, {name: 1})
        return
    record = json.loads(row["clock_state"])
    store.update_pbem_game(game_id, {"clock_state": json.dumps({**record, name: 1}, sort_keys=True)})


def described(store: Store, catalog: Catalog, game_id: str, side: str | None, due: bool = True,
              meta=None) -> str | None:
    """`side`'s clock in words (None: the game has none); `due=False` leaves out when its running turn is due, which
    a turn email says on its own line (app/service/letters.py); `meta` as `running`'s."""
    row = store.pbem_settings(game_id)
    if row is None or side is None:
        return None
    settings = Settings.of(row)
    meta = meta or projection.load(store, catalog, game_id).meta
    parts = []
    clock = running(store, catalog, row, meta)
    if settings.bank:
        record = json.loads(row["clock_state"] or "null") or {"left": {}}
        left = timedelta(seconds=max(record["left"].get(side, 0), 0))
        if due and clock is not None and clock.side == side:
            parts.append(f"your time bank runs out at {_minutes(clock.due)} UTC "
                         f"({_span(left)} left when your turn began)")
        else:
            parts.append(f"time bank: {_span(left)} left" + (" when your turn began"
                                                             if clock is not None and clock.side == side else ""))
        parts.append(f"+{settings.increment_hours:g} hours after each turn" +
                     (f", at most {settings.max_hours:g} hours" if settings.max_hours else ""))
    elif due and row["deadline_hours"] is not None:
        if clock is not None and clock.side == side:
            parts.append(f"your move is due by {_minutes(clock.due)} UTC")
        parts.append(f"{row['deadline_hours']:g} hours a turn")
    elif due:
        parts.append("no deadline")
    return _rest(parts, settings, meta, side)


def _rest(parts: list[str], settings: Settings, meta: projection.GameMeta, side: str) -> str | None:
    """The vacation allowance and a standing draw offer after the clock's own words."""
    if settings.vacation_days:
        left_days = settings.vacation_days - used_days(meta, side)
        parts.append(f"vacation: {left_days} of {settings.vacation_days} day(s) left ('vacation N' takes N)")
    if meta.draw_offer:
        parts.append(f"{meta.draw_offer} offers a draw" + (" ('accept draw' or 'decline draw')"
                                                           if meta.draw_offer != side else ""))
    return "; ".join(parts) or None


def used_days(meta: projection.GameMeta, side: str) -> int:
    return sum(round((b - a) / timedelta(days=1)) for a, b in _periods(meta, side))


def _minutes(at: datetime) -> str:
    return at.strftime("%Y-%m-%d %H:%M")


def _span(left: timedelta) -> str:
    hours = left.total_seconds() / 3600
    return f"{hours / 24:.1f} day(s)" if hours >= 48 else f"{hours:.1f} hour(s)"


# -- the end by agreement, vacations: a seat's clock actions ---------------------------------------------------------
def concession(state: projection.GameState, side: str, reason: str, actor: str, seed: str) -> list[NewEvent]:
    """`side` concedes (core.Resigned) and the dice seed is revealed, the game being over: one write's events."""
    others = [s for s in state.meta.sides if s != side]
    winner = others[0] if len(others) == 1 else None
    return [new_event(core.Resigned(side=side, winner=winner, reason=reason), actor),
            new_event(core.SeedRevealed(seed=seed, reason="game over"), SERVER)]


class Clocks:
    """A seat's clock actions, on one store: show its clock, take vacation, resign, offer and answer a draw. Each
    is one write of the game's stream; who is told is the clock subscriber's."""

    def __init__(self, store: Store, catalog: Catalog, writes: Writes, clock: Callable[[], datetime]):
        self.store = store
        self.catalog = catalog
        self.writes = writes
        self.clock = clock

    def show(self, seat: Seat) -> dict:
        settings = Settings.of(self.store.pbem_settings(seat.game_id) or {})
        meta = projection.load(self.store, self.catalog, seat.game_id).meta
        return {"side": seat.side, "clock": described(self.store, self.catalog, seat.game_id, seat.side),
                "bank_hours": settings.bank_hours, "increment_hours": settings.increment_hours,
                "max_hours": settings.max_hours, "vacation_days": settings.vacation_days,
                "vacation_days_used": used_days(meta, seat.side) if seat.side else 0, "draw_offer": meta.draw_offer,
                "takes_draw_offers": not any(s in meta.automated for s in meta.sides if s != seat.side),
                "on_timeout": (self.store.pbem_settings(seat.game_id) or {}).get("on_deadline")}

    def vacation(self, seat: Seat, days: int) -> dict:
        """Take `days` of vacation from now (or from the end of one running): the seat's clock stops meanwhile."""
        return self._as(seat, lambda side: vacation(self.store, self.catalog, seat.game_id, side, days, self.clock()))

    def resign(self, seat: Seat) -> dict:
        return self._as(seat, lambda side: resign(self.store, self.catalog, seat.game_id, side))

    def draw(self, seat: Seat, action: str) -> dict:
        """`offer` a draw; `accept` or `decline` the other side's offer."""
        return self._as(seat, lambda side: draw(self.store, self.catalog, seat.game_id, side, action))

    def _as(self, seat: Seat, write: Callable[[str], dict]) -> dict:
        side = player(seat)
        with self.writes(seat.game_id):
            done = write(side)
            mark_seen(self.store, seat, done["seq"])
        return done


def vacation(store: Store, catalog: Catalog, game_id: str, side: str, days: int, now: datetime) -> dict:
    """`side` takes `days` of vacation from `now` (or from the end of one it has running), within the game's
    allowance (core.VacationTaken); PbemError, nothing written, past it."""
    settings = Settings.of(store.pbem_settings(game_id) or {})
    state = _running(store, catalog, game_id)
    left = settings.vacation_days - used_days(state.meta, side)
    if days < 1:
        raise PbemError("a vacation is a whole number of days, at least 1")
    if days > left:
        raise PbemError(f"this game allows {settings.vacation_days} vacation day(s) a player; {left} left to you, "
                        f"so {days} cannot be taken; nothing was written")
    start = max([now, *(b for _, b in _periods(state.meta, side))])
    until = start + timedelta(days=days)
    event = core.VacationTaken(side=side, start=_iso(start), until=_iso(until))
    return _write(store, state, [new_event(event, f"player:{side}")],
                  f"{side} is on vacation from {_minutes(start)} to {_minutes(until)} UTC")


def resign(store: Store, catalog: Catalog, game_id: str, side: str) -> dict:
    """`side` resigns: the other side wins, and the dice seed is revealed in the same write."""
    state = _running(store, catalog, game_id)
    if side not in state.meta.sides or side in state.meta.automated:
        raise PbemError(f"{side!r} is no player's side of this game; sides: {', '.join(state.meta.sides)}")
    return _write(store, state, concession(state, side, f"{side} resigned", f"player:{side}", _seed(store, game_id)),
                  f"{side} resigned")


def draw(store: Store, catalog: Catalog, game_id: str, side: str, action: str) -> dict:
    """`side` offers a draw, or accepts or declines the other side's offer (accepted: the game ends in a draw and
    the dice seed is revealed in the same write)."""
    state = _running(store, catalog, game_id)
    if side not in state.meta.sides:
        raise PbemError(f"no side {side!r}; sides: {', '.join(state.meta.sides)}")
    offer = state.meta.draw_offer
    if action == "offer":
        if offer is not None:
            raise PbemError(f"{offer}'s draw offer stands: " + ("wait for the answer" if offer == side else
                                                                 "accept or decline it"))
        automated = [s for s in state.meta.sides if s != side and s in state.meta.automated]
        if automated:
            raise PbemError(f"{', '.join(automated)} is played by the server, which takes no draw offer")
        return _write(store, state, [new_event(core.DrawOffered(side=side), f"player:{side}")],
                      f"{side} offers a draw")
    if action not in ("accept", "decline"):
        raise PbemError(f"a draw is offered, accepted or declined, not {action!r}")
    if offer is None or offer == side:
        raise PbemError("there is no draw offer of the other side's to answer")
    events = [new_event(core.DrawAnswered(side=side, accepted=action == "accept"), f"player:{side}")]
    if action == "accept":
        events.append(new_event(core.SeedRevealed(seed=_seed(store, game_id), reason="game over"), SERVER))
    return _write(store, state, events, f"{side} {action}s the draw")


def _seed(store: Store, game_id: str) -> str:
    seed = store.dice_seed(game_id)
    if seed is None:
        raise PbemError(f"game {game_id} takes nothing here: this server does not hold its dice seed (an imported "
                        "game)")
    return seed


def _running(store: Store, catalog: Catalog, game_id: str) -> projection.GameState:
    state = projection.load(store, catalog, game_id)
    if catalog.rules(state.meta.rules).outcome(state.game) is not None:
        raise PbemError("the game is over")
    return state


def _write(store: Store, state: projection.GameState, events: list[NewEvent], done: str) -> dict:
    stored = store.append(state.meta.game_id, state.meta.seq, events)
    return {"seq": stored[0].seq, "done": done}


def _iso(at: datetime) -> str:
    return at.isoformat(timespec="seconds").replace("+00:00", "Z")
