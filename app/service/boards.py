"""Analysis boards (issue 29, docs/replay.md "The analysis board"): from any event of a finished game or a fork, an
analyst's sandbox where the dice may be chosen, units edited and either side played by any policy.

A board is a stream of its own, never a real game's history: the parent's events up to the chosen one are copied
(as a fork copies them, whole orders only), then `core.BoardOpened` marks the rest as analysis, and every later
event is the board's. It is marked as such everywhere: its id starts "b-", its history says "ANALYSIS BOARD",
`verify --dice` never passes it (its dice are chosen, not rolled from a committed seed), and the game order path
refuses it (it has no secret seed), so a board takes orders only here:

- `order`: an order for either side, checked by the rules like any other, with the dice the analyst names
  (`dice`, used in turn; the rest drawn from the board's public seed);
- `edit`: set fields of one unit (its hex, steps, strength...): core.BoardEdited;
- `play`: let a policy (any practice policy: greedy, random, search:N...) give the next orders of a side.
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass, field, fields, is_dataclass

from app.events import core, dice
from app.events.interface import SnapshotStreams
from app.events.registry import encode
from app.events.store import NewEvent, StoreError
from app.projections import state as projection
from app.rules import practice
from app.rules.base import Catalog
from app.service.games import GameError, check_turn, decide_checked, parse_order

ANALYST = "analyst"
MAX_PLAY = 500  # orders one `play` gives at most


@dataclass
class ChosenDice(dice.Dice):
    """The analyst's dice in turn, then the board's own (public) seed."""

    chosen: list[int] = field(default_factory=list)
    seed: str = ""
    game_id: str = ""

    def _value(self, sides: int) -> int:
        position = len(self.taken)
        if position < len(self.chosen):
            value = self.chosen[position]
            if not 1 <= value <= sides:
                raise GameError(f"a die of {sides} sides cannot show {value}")
            return value
        return dice.derive_roll(self.seed, self.game_id, {}, self.next_index, sides)


def _new(event, causation: int | None = None) -> NewEvent:
    name, version, payload = encode(event)
    return NewEvent(name, version, payload, ANALYST, causation)


def open_board(store: SnapshotStreams, catalog: Catalog, game_id: str, at_seq: int | None = None) -> str:
    """A new board from `game_id` after event `at_seq` (default: its last): the game must be over or a fork (a
    game in progress keeps its hidden parts). Returns the board's id."""
    state = projection.load(store, catalog, game_id)
    rules = catalog.rules(state.meta.rules)
    if rules.outcome(state.game) is None and state.meta.parent is None and state.meta.board is None:
        raise GameError(f"game {game_id} is in progress: an analysis board opens on a finished game or a fork")
    head = state.meta.seq
    at = head if at_seq is None else at_seq
    if not 1 <= at <= head:
        raise GameError(f"game {game_id} has events 1..{head}; no board at {at}")
    following = store.event(game_id, at + 1)
    if following is not None and following.causation is not None:
        raise GameError(f"the events of the order at event {following.causation} run past event {at}: open the "
                        f"board at {following.causation - 1}, before the order, or at its last event")
    copied = list(store.events(game_id, 1, at))
    board_id = "b-" + secrets.token_hex(4)
    marker = core.BoardOpened(parent_id=game_id, parent_seq=at, parent_hash=copied[-1].hash, seed=dice.new_seed())
    events = [NewEvent(e.type, e.version, e.payload, e.actor, e.causation) for e in copied] + [_new(marker)]
    try:
        store.create_game(board_id, rules.name, copied[0].payload["scenario"], events, None, parent=(game_id, at))
    except StoreError as exc:
        raise GameError(str(exc)) from exc
    return board_id


def _board(store: SnapshotStreams, catalog: Catalog, board_id: str) -> projection.GameState:
    state = projection.load(store, catalog, board_id)
    if state.meta.board is None:
        raise GameError(f"{board_id} is no analysis board")
    return state


def order(store: SnapshotStreams, catalog: Catalog, board_id: str, side: str, text: str,
          chosen: list[int] | None = None) -> list:
    """Give `text` for `side` on the board, with the dice `chosen` in turn; the events it produced, stored."""
    state = _board(store, catalog, board_id)
    rules = catalog.rules(state.meta.rules)
    if any(not isinstance(v, int) or not 1 <= v <= 100 for v in chosen or ()):
        raise GameError(f"dice to choose are whole numbers a die can show, not {chosen}")
    command = parse_order(rules, state, side, text)
    check_turn(rules, state, command)
    roller = ChosenDice(next_index=state.meta.rolls, chosen=list(chosen or ()), seed=state.meta.board["seed"],
                        game_id=board_id)
    produced = decide_checked(rules, state, command, roller)
    seq = state.meta.seq + 1
    batch = [_new(core.OrderGiven(side=side, text=text.strip(), command=command.to_dict()))]
    batch += [_new(e, seq) for e in produced]
    return store.append(board_id, state.meta.seq, batch)


def edit(store: SnapshotStreams, catalog: Catalog, board_id: str, unit: str, changes: dict) -> list:
    """Set fields of one unit on the board (checked against the unit's fields before anything is written)."""
    state = _board(store, catalog, board_id)
    body = core.BoardEdited(unit=unit, changes=dict(changes))
    try:
        projection.edited(state.game, body)
    except ValueError as exc:
        raise GameError(f"{exc}{_fields_of(state.game, unit)}") from None
    return store.append(board_id, state.meta.seq, [_new(body)])


def _fields_of(game, unit: str) -> str:
    """The fields an edit may set on `unit`, as a refusal names them (each game names a unit's place its own way:
    `hex`, Formosa's `where`), or nothing for a unit the board has not."""
    found = (getattr(game, "units", None) or {}).get(unit) if isinstance(unit, str) else None
    if found is None or not is_dataclass(found):
        return ""
    return f"; the fields of {unit} an edit may set: {', '.join(f.name for f in fields(found) if f.name != 'id')}"


def play(store: SnapshotStreams, catalog: Catalog, board_id: str, side: str, policy: str, orders: int = 1) -> list[str]:
    """Let `policy` give up to `orders` orders for `side` while it is that side's turn; the orders given."""
    given = []
    for _ in range(min(orders, MAX_PLAY)):
        state = _board(store, catalog, board_id)
        rules = catalog.rules(state.meta.rules)
        if rules.outcome(state.game) is not None or rules.prompt(state.game).side != side:
            break
        try:
            name, settings = practice.parse_spec(rules, policy)
            text, _ = practice.choose(rules, name, state.game, side, settings, state.meta.orders.get(side, 0))
        except (ValueError, practice.NoOrder) as exc:
            raise GameError(str(exc)) from None
        order(store, catalog, board_id, side, text)
        given.append(text)
    return given


def rows(store: SnapshotStreams, catalog: Catalog, board_id: str, stored: list) -> list[dict]:
    """Stored events of a board as history rows: seq, type, actor, the line its history shows."""
    from app.projections import history

    rules = catalog.rules(store.game(board_id)["rules"])
    return [{"seq": e.seq, "type": e.type, "actor": e.actor, "text": history.describe(rules, e)} for e in stored]


class Boards:
    """The analysis boards as a use-case of the service (the API's and the viewer's): a seat that sees everything
    of a game (its arbiter; any player once it is over) opens a board on it, which is that caller's own, as a
    player's fork of a finished game is: every seat of the board at the caller's address, their tokens given to
    the caller only, nobody told; any seat of a board may then give its orders, edit it and let a policy play."""

    def __init__(self, store, catalog: Catalog, writes, reads):
        self.catalog = catalog
        self.store, self.writes, self.reads = store, writes, reads

    def open(self, seat, at_seq: int | None = None) -> tuple[str, dict[str, str]]:
        from app.service.errors import AccessDenied
        from app.service.seats import fork_seats

        if not self.reads.sees_all(seat):
            raise AccessDenied("only the arbiter may open an analysis board on a game before it ends")
        with self.writes():  # the board and its seats, or neither
            board_id = open_board(self.store, self.catalog, seat.game_id, at_seq)
            tokens = fork_seats(self.store, self.catalog, seat.game_id, board_id, seat.email)
            self.writes.wrote(board_id)
        return board_id, tokens

    def order(self, seat, side: str, text: str, chosen: list[int] | None = None) -> list[dict]:
        with self.writes(seat.game_id):
            stored = order(self.store, self.catalog, seat.game_id, side, text, chosen)
            return rows(self.store, self.catalog, seat.game_id, stored)

    def edit(self, seat, unit: str, changes: dict) -> list[dict]:
        with self.writes(seat.game_id):
            stored = edit(self.store, self.catalog, seat.game_id, unit, changes)
            return rows(self.store, self.catalog, seat.game_id, stored)

    def play(self, seat, side: str, policy: str, orders: int = 1) -> list[str]:
        with self.writes(seat.game_id):
            return play(self.store, self.catalog, seat.game_id, side, policy, orders)
