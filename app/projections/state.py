"""The state of a game at any sequence number: server-side metadata plus the rule set's own state.

State is a fold of the events (docs/architecture.md practice 5). Snapshots are a cache of that fold: the loader starts
from the latest snapshot at or before the wanted sequence number, if any, and folds the events after it.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field, fields, replace
from typing import Any

from app.events import core
from app.events.envelope import EventBody, StoredEvent
from app.events.interface import SnapshotStreams
from app.events.registry import DIRECT, decode_stored
from app.projections.cache import STATES
from app.rules.base import Catalog, Rules


@dataclass(frozen=True)
class GameMeta:
    """What the server tracks beside the rules: players, dice, provenance."""

    game_id: str
    rules: str
    scenario: str
    sides: list[str]
    seed_commitment: str
    dice_game_id: str
    options: dict = field(default_factory=dict)
    players: dict = field(default_factory=dict)
    player_seeds: dict = field(default_factory=dict)
    rolls: int = 0
    seq: int = 0
    revealed_seed: str | None = None
    parent: dict | None = None
    retractions: list = field(default_factory=list)
    automated: dict = field(default_factory=dict)  # side -> policy name (core.SeatAutomated)
    seat_settings: dict = field(default_factory=dict)  # side -> the policy's settings (core.SeatAutomated)
    orders: dict = field(default_factory=dict)  # side -> orders it has given (core.OrderGiven, retracted or not)
    board: dict | None = None  # an analysis board: {"parent_id", "parent_seq", "seed"} (core.BoardOpened)
    standing: dict = field(default_factory=dict)  # side -> {kind: [clause, ...]} in force (core.StandingOrdersSet)
    # the orders a standing order gave in a row for one kind, [kind, [text, ...]] (app/rules/standing.py `given`)
    standing_run: list = field(default_factory=list)
    draw_offer: str | None = None  # the side whose draw offer stands (core.DrawOffered), until answered
    vacations: dict = field(default_factory=dict)  # side -> [[start, until], ...] (core.VacationTaken), UTC


_META_FIELDS = tuple(f.name for f in fields(GameMeta))


def _with(meta: GameMeta, **changes) -> GameMeta:
    """`dataclasses.replace` for the metadata, without its per-call field walk and checks (a fold makes one a
    core event and one a fold: a fifth of a replay's build, of an audit's re-run)."""
    new = object.__new__(GameMeta)
    new.__dict__.update(meta.__dict__, **changes)
    return new


@dataclass(frozen=True)
class GameState:
    meta: GameMeta
    game: Any


class NoSuchPosition(LookupError):
    pass


class RetractionNeedsRebuild(ValueError):
    """A core.Retracted event reached a state already folded with the events it retracts."""


def retracted_seqs(events) -> frozenset[int]:
    """The sequence numbers retracted by the core.Retracted events among `events`."""
    out: set[int] = set()
    for event in events:
        if event.type == "core.Retracted":
            out.update(range(event.payload["from_seq"], event.payload["to_seq"] + 1))
    return frozenset(out)


def fold(rules: Rules, state: GameState | None, event: StoredEvent | EventBody,
         retracted: frozenset[int] = frozenset()) -> GameState:
    """Apply one stored event (the store's own: read without a second schema pass, registry.decode_stored).

    `retracted` holds the sequence numbers retracted by core.Retracted events at or before the position being
    built: such events still count for the server's metadata (sequence, roll counter) but not for the game.
    """
    return fold_all(rules, (event,), state, retracted)


def fold_all(rules: Rules, events, state: GameState | None = None,
             retracted: frozenset[int] = frozenset()) -> GameState | None:
    """`fold` each of `events` in turn. The metadata's sequence number is set once at the end, so an event that
    changes only the game makes no new metadata."""
    meta, game = (state.meta, state.game) if state is not None else (None, None)
    last = None
    # the commonest steps, taken here as `_step` takes them: a game event; a die roll and an order, counted (the
    # metadata made once for a run of them, not once each)
    rolls, orders = 0, {}
    evolve, stored = rules.evolve, decode_stored
    for event in events:
        type_, last = event.type, event.seq
        if meta is not None:
            if not type_.startswith("core."):
                if last not in retracted:
                    game = evolve(game, stored(type_, event.version, event.payload))
                continue
            if type_ == "core.DieRolled":
                rolls += 1
                continue
            if type_ == "core.OrderGiven":
                side = event.payload["side"]
                orders[side] = orders.get(side, 0) + 1
                if last in retracted or not (meta.standing_run or (event.payload.get("auto") or {}).get("standing")):
                    continue  # no run of standing orders begins, goes on or ends
            if rolls or orders:
                meta, rolls, orders = _counted(meta, rolls, orders), 0, {}
            if type_ == "core.OrderGiven":
                meta = _standing_run(meta, event.payload)
                continue
        meta, game = _step(rules, meta, game, event, retracted)
    return _closed(state, meta, game, last, rolls, orders)


def fold_rows(rules: Rules, rows, game_id: str, state: GameState | None = None,
              retracted: frozenset[int] = frozenset()) -> GameState | None:
    """`fold_all` of a game's rows as the store gives them (`body_rows`: seq, type, version, the payload's stored
    JSON text), each payload decoded here only when the fold reads it: the same states as `fold_all` of the same
    events' `bodies` (a game event's class looked up once a row, registry.DIRECT, else `decode_stored`; every other
    event as `fold_all` takes it), without an object made or a generator step a row (issue 26: a full rebuild)."""
    meta, game = (state.meta, state.game) if state is not None else (None, None)
    last = None
    rolls, orders = 0, {}
    evolve, stored, direct, loads = rules.evolve, decode_stored, DIRECT, json.loads
    for last, type_, version, text in rows:
        if meta is not None:
            if not type_.startswith("core."):
                if last not in retracted:
                    payload = loads(text)
                    made = direct.get(type_)
                    if made is not None and made[0] == version:
                        try:
                            body = made[1](**payload)
                        except TypeError:  # a payload that does not fit the fields: decode_stored says so
                            body = stored(type_, version, payload)
                    else:
                        body = stored(type_, version, payload)
                    game = evolve(game, body)
                continue
            if type_ == "core.DieRolled":
                rolls += 1
                continue
            if type_ == "core.OrderGiven":
                payload = loads(text)
                side = payload["side"]
                orders[side] = orders.get(side, 0) + 1
                if last in retracted or not (meta.standing_run or (payload.get("auto") or {}).get("standing")):
                    continue
                if rolls or orders:
                    meta, rolls, orders = _counted(meta, rolls, orders), 0, {}
                meta = _standing_run(meta, payload)
                continue
            if rolls or orders:
                meta, rolls, orders = _counted(meta, rolls, orders), 0, {}
        event = EventBody(game_id, last, type_, version, None if type_ in UNREAD else loads(text))
        meta, game = _step(rules, meta, game, event, retracted)
    return _closed(state, meta, game, last, rolls, orders)


def _closed(state: GameState | None, meta: GameMeta, game, last: int | None, rolls: int,
            orders: dict[str, int]) -> GameState | None:
    """A fold's end: `state` unchanged when no event came (`last` None), else the position after event `last` with
    the rolls and orders counted since the last count."""
    if last is None:
        return state
    if rolls or orders:
        meta = _counted(meta, rolls, orders)
    return GameState(meta if meta.seq == last else _with(meta, seq=last), game)


def _counted(meta: GameMeta, rolls: int, orders: dict[str, int]) -> GameMeta:
    """The metadata after `rolls` more die rolls and `orders` more orders by side."""
    return _with(meta, rolls=meta.rolls + rolls,
                 orders={**meta.orders, **{side: meta.orders.get(side, 0) + n for side, n in orders.items()}})


# core events the fold leaves alone (the game's record of orders, disputes, spent dice, deadlines and table talk):
# read by their type name, never decoded (a long fold decodes only what it applies)
_NOT_FOLDED = frozenset({"core.OrderGiven", "core.DisputeRaised", "core.DisputeAnswered", "core.RollsSpent",
                         "core.DeadlinePassed", "core.MessageSent", "core.SeatStalled"})


# the core events whose payload the fold never reads (it counts the die rolls, passes the others by): a load reads
# them without decoding their JSON
UNREAD = frozenset({"core.DieRolled", *_NOT_FOLDED} - {"core.OrderGiven"})


def _standing_run(meta: GameMeta, order: dict) -> GameMeta:
    """After an order: the orders a standing order gave in a row for one kind (app/rules/standing.py `choose`'s
    `given`), ended by any other order."""
    kind = (order.get("auto") or {}).get("standing")
    run = meta.standing_run
    if kind is not None:
        return _with(meta, standing_run=[kind, [*(run[1] if run and run[0] == kind else []), order["text"]]])
    return _with(meta, standing_run=[]) if run else meta


def _step(rules: Rules, meta: GameMeta | None, game: Any, event: StoredEvent | EventBody,
          retracted: frozenset[int]) -> tuple[GameMeta, Any]:
    type_ = event.type
    if not type_.startswith("core."):
        if meta is None:
            raise ValueError(f"event {event.seq} ({type_}) comes before the game's creation")
        if event.seq in retracted:
            return meta, game
        return meta, rules.evolve(game, decode_stored(type_, event.version, event.payload))
    if meta is not None:
        if type_ == "core.OrderGiven":  # counted by side (an automated seat's policy is seeded by its count), and its
            side = event.payload["side"]  # raw payload: the run of orders a standing order gave in a row
            meta = _with(meta, orders={**meta.orders, side: meta.orders.get(side, 0) + 1})
            return (meta if event.seq in retracted else _standing_run(meta, event.payload)), game
        if type_ in _NOT_FOLDED:
            return meta, game
        if type_ == "core.DieRolled":  # counted: its payload changes no state
            return _with(meta, rolls=meta.rolls + 1), game
    body = decode_stored(type_, event.version, event.payload)
    if isinstance(body, core.GameCreated):
        meta = GameMeta(game_id=event.game_id, rules=body.rules, scenario=body.scenario, sides=list(body.sides),
                        seed_commitment=body.seed_commitment, dice_game_id=event.game_id,
                        options=dict(body.options), seq=event.seq)
        return meta, rules.initial_state(body.scenario, body.options, body.rules_version)
    if meta is None:
        raise ValueError(f"event {event.seq} ({event.type}) comes before the game's creation")
    if isinstance(body, core.PlayerJoined):
        meta = _with(meta, players={**meta.players, body.side: body.name},
                       player_seeds={**meta.player_seeds, body.side: body.seed_text})
    elif isinstance(body, core.SeatAutomated):
        meta = _with(meta, players={**meta.players, body.side: f"automated ({body.policy})"},
                     automated={**meta.automated, body.side: body.policy},
                     seat_settings={**meta.seat_settings, body.side: dict(body.settings)})
    elif event.seq in retracted and isinstance(body, core.StandingOrdersSet | core.VacationTaken | core.DrawOffered):
        pass  # taken back: the standing orders, vacations and draw offers go on as if it never was
    elif isinstance(body, core.StandingOrdersSet):
        mine = {**meta.standing.get(body.side, {}), **{k: list(v) for k, v in body.orders.items()}}
        meta = _with(meta, standing={**meta.standing, body.side: {k: v for k, v in mine.items() if v}})
    elif isinstance(body, core.VacationTaken):
        meta = _with(meta, vacations={**meta.vacations,
                                      body.side: [*meta.vacations.get(body.side, []), [body.start, body.until]]})
    elif isinstance(body, core.DrawOffered):
        meta = _with(meta, draw_offer=body.side)
    elif isinstance(body, core.SeedRevealed):
        meta = _with(meta, revealed_seed=body.seed)
    elif isinstance(body, core.Retracted):
        span = set(range(body.from_seq, body.to_seq + 1))
        if not span <= retracted:
            raise RetractionNeedsRebuild(f"event {event.seq} retracts events {body.from_seq}-{body.to_seq}: "
                                         "rebuild the state with load() or rebuild()")
        meta = _with(meta, retractions=[*meta.retractions, [body.from_seq, body.to_seq]])
    elif isinstance(body, core.GameForked):
        meta = _with(meta, game_id=event.game_id, dice_game_id=event.game_id, seed_commitment=body.seed_commitment,
                       revealed_seed=None,
                       parent={"id": body.parent_id, "seq": body.parent_seq, "hash": body.parent_hash})
    elif isinstance(body, core.BoardOpened):
        meta = _with(meta, game_id=event.game_id, dice_game_id=event.game_id, revealed_seed=None,
                       board={"parent_id": body.parent_id, "parent_seq": body.parent_seq, "seed": body.seed})
    elif isinstance(body, core.BoardEdited):
        game = game if event.seq in retracted else edited(game, body)
    else:  # a core type this fold does not know is still the game's (only _NOT_FOLDED leave it alone)
        if isinstance(body, core.DrawAnswered) and event.seq not in retracted:
            meta = _with(meta, draw_offer=None)
        game = game if event.seq in retracted else rules.evolve(game, body)
    return meta, game


def edited(game: Any, edit: core.BoardEdited) -> Any:
    """The game with one unit's fields set (an analysis board's edit): the state's `units` by id, each a
    dataclass. ValueError for a unit or field the state has not, or a value of another kind than the field's."""
    units = getattr(game, "units", None)
    if not isinstance(units, dict) or edit.unit not in units:
        raise ValueError(f"no unit {edit.unit!r} to edit")
    unit = units[edit.unit]
    for name, value in edit.changes.items():
        if name == "id" or not hasattr(unit, name):
            raise ValueError(f"{edit.unit} has no field {name!r} an edit may set")
        old = getattr(unit, name)
        if old is not None and value is not None and not isinstance(value, type(old)):
            raise ValueError(f"{edit.unit}.{name} is a {type(old).__name__}, not {value!r}")
    return replace(game, units={**units, edit.unit: replace(unit, **edit.changes)})


class StreamFold:
    """A stream folded one event at a time, the state after each event kept (the replay's frames and the audit
    read them all). A core.Retracted refolds from the last kept state that holds none of the events any
    retraction so far takes back (the state before the first retracted order, as `load` starts from a snapshot
    there), not from the first event: a move and its undo refold the move only, so each event is folded a
    bounded number of times however many undos the game holds (issue 25: 600 undos made the replay quadratic)."""

    def __init__(self, rules: Rules):
        self.rules = rules
        self.events: list[StoredEvent | EventBody] = []
        self.states: list[GameState] = []
        self.retracted: frozenset[int] = frozenset()
        self._spans: list[tuple[int, int]] = []  # (retraction's seq, its from_seq)

    @property
    def state(self) -> GameState | None:
        return self.states[-1] if self.states else None

    def add(self, event: StoredEvent | EventBody) -> GameState:
        """Fold the stream's next event; the state after it."""
        if event.seq != len(self.events) + 1:
            raise ValueError(f"event {event.seq} does not follow event {len(self.events)} of the folded stream")
        self.events.append(event)
        if event.type != "core.Retracted":
            self.states.append(fold(self.rules, self.state, event, self.retracted))
            return self.states[-1]
        first, last = event.payload["from_seq"], event.payload["to_seq"]
        self.retracted = self.retracted | frozenset(range(first, last + 1))
        self._spans.append((event.seq, first))
        base = first - 1  # the kept state to start from: after `base`, with no event a retraction since retracts
        moved = True
        while moved:
            moved = False
            for at, start in reversed(self._spans):  # in stream order: those after `base` are at the end
                if at <= base:
                    break
                if start <= base:
                    base, moved = start - 1, True
                    break
        start = self.states[base - 1] if base >= 1 else None
        self.states.append(fold_all(self.rules, self.events[max(base, 0):], start, self.retracted))
        return self.states[-1]

    def extend(self, events) -> GameState | None:
        for event in events:
            self.add(event)
        return self.state


def rebuild(rules: Rules, events: list[StoredEvent]) -> GameState | None:
    """The state after `events` (a whole stream from its first event), retractions applied."""
    return fold_all(rules, events, None, retracted_seqs(events))


def rules_key(rules: Rules) -> str:
    """What a snapshot is valid for: the rule set's version, and the shape of its saved state when a rule set
    has changed that (`snapshot_format`), so a snapshot of another shape is never read, only rebuilt."""
    shape = getattr(rules, "snapshot_format", 1)
    return f"{rules.name}:{rules.version}" + (f"/{shape}" if shape != 1 else "")


def encode(rules: Rules, state: GameState) -> dict:
    """A state as a snapshot holds it. The metadata's fields are JSON data already (no dataclass inside them), read
    here, not deep-copied as `asdict` would copy them (a third of a snapshot's encoding: issue 26); the caller
    encodes the result and never changes it."""
    meta = state.meta
    return {"meta": {name: getattr(meta, name) for name in _META_FIELDS}, "game": rules.encode_state(state.game)}


def decode_state(rules: Rules, data: dict) -> GameState:
    return GameState(GameMeta(**data["meta"]), rules.decode_state(data["game"]))


def load(store: SnapshotStreams, catalog: Catalog, game_id: str, at: int | None = None,
         use_snapshots: bool = True, head: tuple[int, str] | None = None) -> GameState:
    """The state after event `at` (default: the last one), folded by the game's rule set in `catalog`.

    Starts from the latest cached state at or before `at` (app/projections/cache.py: checked against the stored
    hashes, so it is right whoever appended since) or stored snapshot, whichever is later, and folds the events
    after it; `use_snapshots=False` folds every event from the first and touches no cache. `head`: the stream's
    head (seq, hash) as the caller just read it (`store.head`), not read again; `at` defaults to it."""
    head, head_hash = store.head(game_id) if head is None else head
    target = head if at is None else at
    if not 1 <= target <= head:
        raise NoSuchPosition(f"game {game_id} has events 1..{head}; there is no event {target}")
    where = store_key(store)
    cached = STATES.nearest(where, game_id, target) if use_snapshots else None
    if cached is not None and cached[0] == target:
        stored_hash = head_hash if target == head else store.event(game_id, target).hash
        if cached[1] == stored_hash:
            return cached[2]
        STATES.drop(where, game_id, target)
        cached = None
    rules = catalog.rules(store.game(game_id)["rules"])
    retractions = store.retractions(game_id, target)
    retracted = frozenset(s for _, p in retractions for s in range(p["from_seq"], p["to_seq"] + 1))

    def stale(seq: int) -> list[int]:
        """A state after `seq` still holds events that a later retraction retracts: their first seqs."""
        return [p["from_seq"] for r, p in retractions if r > seq and p["from_seq"] <= seq]

    state, start, link = None, 1, None
    if use_snapshots:
        snap = store.latest_snapshot(game_id, target, rules_key(rules))
        while snap is not None and stale(snap[0]):
            snap = store.latest_snapshot(game_id, min(stale(snap[0])) - 1, rules_key(rules))
        if snap is not None:
            start, state = snap[0] + 1, decode_state(rules, snap[1])
        if cached is not None and cached[0] >= start and not stale(cached[0]):
            start, link, state = cached[0] + 1, cached[1], cached[2]
    if link is not None and store.event(game_id, start).prev_hash != link:
        STATES.drop(where, game_id, start - 1)  # the cached state is of a stream that is not this one any more
        return load(store, catalog, game_id, at, head=(head, head_hash))
    state = fold_rows(rules, store.body_rows(game_id, start, target), game_id, state, retracted)
    if use_snapshots:
        STATES.put(where, game_id, target, head_hash if target == head else store.event(game_id, target).hash,
                   state)
    return state


def newest(store: SnapshotStreams, game_id: str) -> tuple[GameState, str] | None:
    """The newest state this process keeps of the game (app/projections/cache.py) with its last event's hash, **not
    checked** against the store: another process or connection may have appended since, or the entry may be of a
    transaction that rolled back. Only for a writer whose append names that head, (seq, hash), and refuses any
    other (`EventStreams.append`'s `expected_hash`), and who decides again on a `load` when it is refused
    (app/service/games.py `play`); None when none is kept."""
    kept = STATES.nearest(store_key(store), game_id)
    return None if kept is None else (kept[2], kept[1])


def remember(store: SnapshotStreams, state: GameState, hash_: str) -> None:
    """Keep a state the caller folded from events it just appended (the last one's hash `hash_`), so the next
    `load` of the game starts from it without reading the store: an order's state is folded once. Checked against
    the stored hash like any entry, so a transaction that rolled back leaves nothing wrong behind."""
    STATES.put(store_key(store), state.meta.game_id, state.meta.seq, hash_, state)


def store_key(store: SnapshotStreams) -> str:
    """Which database a cached state belongs to: the store's location (an in-memory database: this object)."""
    return store.path if store.path != ":memory:" else f":memory:{id(store)}"


def maybe_snapshot(store: SnapshotStreams, rules: Rules, state: GameState, previous_seq: int) -> None:
    """Cache the folded state when the stream crosses a multiple of the store's `snapshot_every`
    (HEXLEDGER_SNAPSHOT_EVERY, default 50). An SNC event folds in about 0.1 ms, so a state at any seq folds at most
    49 of them after its snapshot (issue 15: <= 20 ms). A snapshot is a cache, so the interval changes no answer,
    only how many events a load folds after the latest snapshot; the reliability runs set it low so their games
    cross many snapshot boundaries."""
    every = store.snapshot_every
    if state.meta.seq // every > previous_seq // every:
        store.save_snapshot(state.meta.game_id, state.meta.seq, rules_key(rules), encode(rules, state))


def rebuild_snapshots(store: SnapshotStreams, catalog: Catalog, game_id: str, every: int | None = None) -> int:
    """Fold a game once from its first event and cache a snapshot every `every` (default the store's
    `snapshot_every`) events; returns how many."""
    every = every or store.snapshot_every
    rules = catalog.rules(store.game(game_id)["rules"])
    store.drop_snapshots(game_id)
    state, written = None, 0
    for event in store.events(game_id):
        state = fold(rules, state, event)
        if event.seq % every == 0:
            store.save_snapshot(game_id, event.seq, rules_key(rules), encode(rules, state))
            written += 1
    return written
