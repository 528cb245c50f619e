"""Games and their orders: the one path every order takes (docs/architecture.md, "The path of one order").

parse -> load state -> prompt check -> decide(state, command, dice) -> append(expected seq) -> snapshot.
"""
from __future__ import annotations

import logging
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from app.events import core, dice
from app.events.envelope import EventBody, StoredEvent
from app.events.interface import SnapshotStreams
from app.events.registry import encode
from app.events.store import Conflict, NewEvent, StoreError
from app.projections import state as projection
from app.projections.state import GameState
from app.rules import legal, practice
from app.rules.base import Catalog, Command, Rules, has_preview
from app.rules.errors import AmbiguousOrder, IllegalOrder, InvalidOrder, OrderError
from app.text import TextError, player_text

SERVER = "server"
LOG = logging.getLogger("hexledger.dice")


class GameError(Exception):
    """A request about a game that cannot be carried out (not an order error); nothing is written."""


@dataclass(frozen=True)
class Accepted:
    events: list[StoredEvent]
    state: GameState


def rule_sets(catalog: Catalog) -> list[dict]:
    """The rule sets this server runs, as the API lists them: sides, scenarios, preview, the policies an automated
    seat may play (with what each is, for a player choosing one at creation) and the seats automated by default."""
    return [{"name": r.name, "title": r.title, "version": r.version, "sides": list(r.sides),
             "scenarios": r.scenarios, "preview": has_preview(r), "policies": list(practice.policies(r)),
             "policy_about": practice.policies(r),
             "automated_seats": practice.automated_seats(r)} for r in catalog.available().values()]


def listed(store: SnapshotStreams, after: str | None = None, limit: int | None = None,
           finished_only: bool = False) -> list[dict]:
    """The games in the order they were created (from just after `after`, at most `limit`; with `finished_only`
    only the finished ones), named as every channel names them: `game_id`, and the fork's `parent` and
    `parent_seq`."""
    return [{"game_id": g["id"], "rules": g["rules"], "scenario": g["scenario"], "created_at": g["created_at"],
             "events": g["last_seq"] or 0, "parent": g["parent_id"], "parent_seq": g["parent_seq"]}
            for g in store.games(after, limit, finished_only)]


def new_game_id(store: SnapshotStreams) -> str:
    while True:
        game_id = "g-" + secrets.token_hex(4)
        if not store.game_exists(game_id):
            return game_id


def new_event(event: Any, actor: str, causation: int | None = None) -> NewEvent:
    """An event body as the store appends it, by `actor` (caused by the order at `causation`)."""
    name, version, payload = encode(event)
    return NewEvent(name, version, payload, actor, causation)




def create_game(store: SnapshotStreams, catalog: Catalog, rules_name: str, scenario: str | None = None,
                options: dict | None = None, game_id: str | None = None, auto: dict | None = None) -> str:
    """Start a game: commit to a fresh secret dice seed, set up the scenario. `auto`: the sides the server plays,
    side -> policy name (None: the policy's default); left out, the rule set's own automated seats."""
    rules = catalog.rules(rules_name)
    try:
        seats = practice.seats(rules, auto)
    except ValueError as exc:
        raise GameError(str(exc)) from None
    scenario = scenario or next(iter(rules.scenarios))
    if scenario not in rules.scenarios:
        raise GameError(f"{rules.name} has no scenario {scenario!r}; scenarios: {', '.join(rules.scenarios)}")
    options = dict(options or {})
    try:  # refuses a bad custom map or position (read under the version it records) before anything is written
        rules.initial_state(scenario, options, rules.version)
    except ValueError as exc:  # SetupError, MapError and a rule set's refusal of its options
        raise GameError(f"cannot start {rules.name}: {exc}") from None
    seed = dice.new_seed()
    game_id = game_id or new_game_id(store)
    created = core.GameCreated(rules=rules.name, scenario=scenario, sides=list(rules.sides),
                               seed_commitment=dice.commitment(seed), options=options, rules_version=rules.version)
    automated = [new_event(core.SeatAutomated(side=side, **practice.seat_record(rules, spec)), SERVER)
                 for side, spec in seats.items()]
    store.create_game(game_id, rules.name, scenario, [new_event(created, SERVER), *automated], seed)
    return game_id


def join(store: SnapshotStreams, catalog: Catalog, game_id: str, side: str, name: str,
         seed_text: str = "") -> StoredEvent:
    """Take `side`, with the player's seed text (a random one made now if none is given; the stored event shows
    it). The name and the seed text are player-written text (app/text.py: one line, bounded)."""
    name, seed_text = player_text(name, "name"), player_text(seed_text, "seed text") or dice.new_player_text()
    state = projection.load(store, catalog, game_id)
    if side not in state.meta.sides:
        raise GameError(f"{state.meta.rules} has no side {side!r}; sides: {', '.join(state.meta.sides)}")
    if side in state.meta.players:
        raise GameError(f"side {side} is already taken")
    if state.meta.rolls:  # the rolls to come would change with a new seed text (docs/core.md)
        raise GameError(f"game {game_id}: sides join before the first die is rolled")
    joined = core.PlayerJoined(side=side, name=name, seed_text=seed_text)
    return store.append(game_id, state.meta.seq, [new_event(joined, f"player:{side}")])[0]


def check_turn(rules: Rules, state: GameState, command: Command) -> None:
    """The states table: only the prompted side, only a prompted action (docs/architecture.md practice 2)."""
    outcome = rules.outcome(state.game)
    if outcome is not None:
        raise IllegalOrder(rules.sequence_case, f"the game is over ({outcome.reason})")
    refused = rules.refused(state.game, command)
    if refused is not None:
        raise refused


def order_text(text: str) -> str:
    """An order as a player wrote it, held to the rule for player-written text (app/text.py: one line, bounded),
    stripped; InvalidOrder if it breaks the rule."""
    try:
        return player_text(text, "order")
    except TextError as exc:
        raise InvalidOrder(text, str(exc)) from None


def parse_order(rules: Rules, state: GameState, side: str, text: str) -> Command:
    if side not in state.meta.sides:
        raise InvalidOrder(text, f"there is no side {side!r} in {rules.name}; sides: {', '.join(state.meta.sides)}")
    command = rules.parse(order_text(text), side, state.game)
    check_turn(rules, state, command)
    return command


def preview(rules: Rules, state: GameState, side: str, text: str) -> dict:
    """What an order would do, without rolling or writing: refused exactly as `submit` would refuse it now, and
    given out of turn too, for planning (app/rules/legal.py)."""
    if not has_preview(rules):
        raise GameError(f"{rules.name} offers no preview")
    if side not in state.meta.sides:
        raise InvalidOrder(text, f"there is no side {side!r} in {rules.name}; sides: {', '.join(state.meta.sides)}")
    command = rules.parse(order_text(text), side, state.game)
    return legal.preview(rules, state.game, command)


class RolledThenFailed(Exception):
    """The decider raised after drawing dice (`taken`): no order may be refused after a roll (practice 11)."""

    def __init__(self, taken: list[core.DieRolled], cause: Exception):
        super().__init__(f"failed after {len(taken)} roll(s): {type(cause).__name__}")
        self.taken = taken
        self.cause = cause


class EngineFault(GameError):
    """An order the rules failed on after rolling: its dice are spent (core.RollsSpent), nothing else is written,
    and the answer is this fixed text, which names no value (docs/core.md, "Dice are spent, never peeked")."""

    def __init__(self, game_id: str):
        super().__init__(f"game {game_id}: the order could not be carried out, because the rules failed after "
                         "rolling (an engine fault, reported to the operator); the dice it drew are spent and "
                         "recorded, nothing else changed")


def decide_checked(rules: Rules, state: GameState, command: Command, roller: dice.Dice) -> list[Any]:
    """Run the decider and hold it to the dice contract: every roll it took is recorded, in order, and it raises
    nothing once it has rolled (RolledThenFailed, whatever it raised: the value must not reach the player)."""
    try:
        produced = list(rules.decide(state.game, command, roller))
    except Exception as exc:
        if roller.taken:
            raise RolledThenFailed(list(roller.taken), exc) from exc
        raise
    recorded = [e for e in produced if isinstance(e, core.DieRolled)]
    if recorded != roller.taken:
        raise RuntimeError(f"{rules.name}: decide took {len(roller.taken)} rolls but recorded {len(recorded)}")
    return produced


def refuse_without_dice(store: SnapshotStreams, state: GameState) -> str:
    """A game this server cannot roll for takes no orders at all: one imported (its seed stays with the server
    that made it) or whose seed was revealed before its end. Refused before any rule runs, so no order is
    half-played until the first die it needs (docs/architecture.md practice 11). Returns the game's dice seed."""
    game_id = state.meta.game_id
    fork_hint = (f"to play on, fork it with a new seed of this server's: `fork {game_id} --at {state.meta.seq}` "
                 f"(API: POST /games/{game_id}/fork)")
    if state.meta.revealed_seed is not None:
        raise GameError(f"game {game_id} takes no orders: its dice seed was revealed, so every die to "
                        f"come is known to all; {fork_hint}")
    if state.meta.board is not None:
        raise GameError(f"{game_id} is an analysis board, no played game: its orders go through `board do` "
                        "(app/service/boards.py), with the dice the analyst chooses")
    seed = store.dice_seed(game_id)
    if seed is None:
        raise GameError(f"game {game_id} takes no orders here: it was imported, and its dice seed stays with the "
                        f"server that made it, so this server cannot roll for it; {fork_hint}")
    return seed


def live_dice(state: GameState, seed: str) -> dice.Dice:
    """The server's dice for this game, from its unrevealed `seed` (`refuse_without_dice`)."""
    return dice.SeededDice(next_index=state.meta.rolls, seed=seed,
                           game_id=state.meta.dice_game_id, player_seeds=dict(state.meta.player_seeds))


def submit(store: SnapshotStreams, catalog: Catalog, game_id: str, side: str, text: str,
           expected_seq: int | None = None,
           actor: str | None = None, auto: dict | None = None,
           within: Callable[[Accepted], None] | None = None) -> Accepted:
    """Check an order against the rules and store it with its events, or raise and write nothing. `auto`: an
    automated seat's order, {"policy", "reason"} (app/service/autoplay.py). `within` writes what the order causes
    (bookkeeping) in the order's own transaction. One load of the game, one append."""
    played = play(store, catalog, game_id, side, [text], expected_seq, actor, auto, within)
    if played.refused is not None:
        raise played.refused
    return played.accepted[0]


def moved_since(store: SnapshotStreams, game_id: str, seq: int, head: int) -> bool:
    """Whether the game (at event `head`) moved on since event `seq`, which an order was written against: any event
    after it but table talk, which changes nothing in the game (so a player's `seq:` line or expected_seq is not
    made stale by their opponent's "good luck")."""
    if seq == head:
        return False
    return seq > head or any(e.type != "core.MessageSent" for e in store.events(game_id, seq + 1, head))


class Unreadable(GameError):
    """Lines that cannot be read as orders (InvalidOrder, AmbiguousOrder), each with why: nothing was played."""

    def __init__(self, problems: list[str]):
        super().__init__("; ".join(problems))
        self.problems = problems


def unreadable(rules: Rules, state: GameState, side: str, texts: Sequence[str]) -> list[str]:
    """Why each of `texts` cannot be read as an order against `state` (InvalidOrder, AmbiguousOrder); a text that
    reads but the rules refuse (answered when its turn comes) is not listed."""
    bad = []
    for text in texts:
        try:
            rules.parse(order_text(text), side, state.game)
        except (InvalidOrder, AmbiguousOrder) as exc:
            bad.append(str(exc))
        except (OrderError, GameError, ValueError):
            continue
    return bad


@dataclass
class Played:
    """Orders given one after another from one load (`play`): those accepted, each as stored with the state after
    it, and the refusal that stopped the rest (None: every one was accepted)."""

    accepted: list[Accepted]
    refused: Exception | None
    state: GameState  # the game after the accepted orders (as loaded, if none was)


def play(store: SnapshotStreams, catalog: Catalog, game_id: str, side: str,
         texts: Sequence[str] | Callable[[GameState], str | None],
         expected_seq: int | None = None,
         actor: str | None = None, auto: dict | None = None, within: Callable[[Accepted], None] | None = None,
         before: Sequence[Any] = (), all_readable: bool = False, alone: bool = True) -> Played:
    """Orders of one side, in order, from one load of the game and one append: each is checked and decided on the
    position the ones before it left; the first refused stops the rest (later orders were written for a position
    that did not come about), and those before it stand. A stale `expected_seq` is Conflict, nothing written. A
    rule set failing after a roll: the orders before it and the dice it drew are stored (core.RollsSpent), and
    the refusal is EngineFault. `before`: core events stored ahead of the orders in the same append (a passed
    deadline's record, a message's table talk), even when no order stands unless `alone` is False (table talk
    goes with the orders it came with). `within(accepted)` runs in the append's transaction, with the state after
    it all.
    `all_readable`: every text is read first, and one that cannot be read plays nothing (Unreadable). `texts` may
    be a function of the position reached, giving the next order or None (a deadline's end/pass steps).

    The orders are decided on the newest state this process keeps of the game without reading the stream's head
    (projection.newest): the append names the head they were decided on, (seq, hash), and takes them only onto
    it; an answer that writes nothing (a refusal, a Conflict) is given only once the head read then is that one.
    When another writer moved the game on meanwhile, the orders are decided again on the state loaded at the new
    head, as if this had been the first try: no die drawn on the state passed by is stored or told
    (docs/architecture.md, "The write path"). Inside a caller's transaction, and for texts given as a function
    (which may count what they gave), the orders are decided on a loaded state only."""
    args = (store, catalog, game_id, side, texts, expected_seq, actor, auto, before, all_readable, alone)
    kept = None if callable(texts) or store.in_transaction else projection.newest(store, game_id)
    if kept is not None:
        state, hash_ = kept
        try:
            decided = _decided(state, *args)
        except Exception:
            if store.head(game_id) == (state.meta.seq, hash_):
                raise
        else:
            if not decided.batch:
                if store.head(game_id) == (state.meta.seq, hash_):
                    return decided.played
            else:
                try:
                    return _stored(store, game_id, decided, within, hash_)
                except _Passed:
                    pass
    decided = _decided(projection.load(store, catalog, game_id), *args)
    return _stored(store, game_id, decided, within) if decided.batch else decided.played


@dataclass
class _Decided:
    """`play`'s orders decided on the state `base`: the events to store (none: `played` is the answer, nothing to
    store) and where each accepted order's events end in them, with the state after it."""

    base: GameState
    rules: Rules
    played: Played
    batch: list[NewEvent] = field(default_factory=list)
    orders: list[tuple[int, int, GameState]] = field(default_factory=list)


class _Passed(Exception):
    """The head a kept state was decided on is not the stored one's: decide again on the head."""


def _decided(state: GameState, store: SnapshotStreams, catalog: Catalog, game_id: str, side: str,
             texts: Sequence[str] | Callable[[GameState], str | None], expected_seq: int | None, actor: str | None,
             auto: dict | None, before: Sequence[Any], all_readable: bool, alone: bool) -> _Decided:
    """`play`'s orders decided on `state`, nothing written."""
    rules = catalog.rules(state.meta.rules)
    if all_readable and not callable(texts) and (problems := unreadable(rules, state, side, texts)):
        return _Decided(state, rules, Played([], Unreadable(problems), state))
    if expected_seq is not None and moved_since(store, game_id, expected_seq, state.meta.seq):
        raise Conflict(game_id, expected_seq, state.meta.seq)
    if side in state.meta.automated and auto is None:
        raise GameError(f"{side} is played by the server (policy {state.meta.automated[side]}): it takes no orders "
                        "from anyone")
    actor = actor or f"player:{side}"
    batch = [new_event(e, actor) for e in before]
    after = _fold_new(rules, state, game_id, batch) if batch else state
    orders: list[tuple[int, int, GameState]] = []  # each accepted order: its first and end index, the state after
    refused: Exception | None = None
    seed = None
    given = iter(()) if callable(texts) else iter(texts)
    while (text := texts(after) if callable(texts) else next(given, None)) is not None:
        try:
            command = parse_order(rules, after, side, text)
            seed = seed or refuse_without_dice(store, after)
            produced = decide_checked(rules, after, command, live_dice(after, seed))
        except RolledThenFailed as fault:
            spent = _spent(after, core.RollsSpent(side=side, text=text.strip(), command=command.to_dict()), actor,
                           fault)
            after = _fold_new(rules, after, game_id, spent)
            batch += spent
            refused = EngineFault(game_id)
            break
        except (OrderError, GameError, ValueError) as exc:  # refused: a ValueError as the rules raised it
            refused = exc
            break
        order_seq = after.meta.seq + 1
        mine = [new_event(core.OrderGiven(side=side, text=text.strip(), command=command.to_dict(), auto=auto), actor)]
        mine += [new_event(e, actor, order_seq) for e in produced]
        ahead = _fold_new(rules, after, game_id, mine)
        if rules.outcome(ahead.game) is not None and ahead.meta.revealed_seed is None:
            mine.append(new_event(core.SeedRevealed(seed=seed, reason="game over"), SERVER))
            ahead = _fold_new(rules, after, game_id, mine)
        orders.append((len(batch), len(batch) + len(mine), ahead))
        batch += mine
        after = ahead
    if not batch or (not orders and not alone and len(batch) == len(before)):
        return _Decided(state, rules, Played([], refused, state))  # refused before anything was decided
    return _Decided(state, rules, Played([], refused, after), batch, orders)


def _stored(store: SnapshotStreams, game_id: str, decided: _Decided, within: Callable[[Accepted], None] | None,
            head_hash: str | None = None) -> Played:
    """Store what `_decided` decided in one append onto the state it was decided on, and answer it. `head_hash`:
    that state's last event's hash, named to the append, which refuses any other head (_Passed: nothing written)."""
    base, after = decided.base.meta.seq, decided.played.state
    with store.transaction():
        try:
            stored = store.append(game_id, base, decided.batch, head_hash)
        except Conflict:
            if head_hash is None:
                raise
            raise _Passed from None
        if within is not None:
            within(Accepted(stored, after))
    # the fold reads what the chain does not change (seq, type, version, payload): `after` is the stored state
    projection.remember(store, after, stored[-1].hash)
    projection.maybe_snapshot(store, decided.rules, after, base)
    return Played([Accepted(stored[first:end], ahead) for first, end, ahead in decided.orders],
                  decided.played.refused, after)


def _spent(state: GameState, spent: core.RollsSpent, actor: str, fault: RolledThenFailed) -> list[NewEvent]:
    """A failed order's record and the dice it drew (practice 11), to store; the operator's log has the cause."""
    order_seq = state.meta.seq + 1
    LOG.error("engine fault in game %s at event %d: %s's order %r failed after %d roll(s): %s: %s",
              state.meta.game_id, order_seq, spent.side, spent.text, len(fault.taken), type(fault.cause).__name__,
              fault.cause)
    return [new_event(spent, actor)] + [new_event(e, actor, order_seq) for e in fault.taken]


def _fold_new(rules: Rules, state: GameState, game_id: str, batch: Sequence[NewEvent],
              after_seq: int | None = None) -> GameState:
    """Fold not-yet-stored events (to see whether they end the game) onto `state` without touching the store; the
    first of them comes after `after_seq` (default: the state's). Each is given as the fold reads it, an EventBody
    (game, seq, type, version, payload), not a StoredEvent with empty chain fields (3 us an event less)."""
    first = (state.meta.seq if after_seq is None else after_seq) + 1
    return projection.fold_all(rules, [EventBody(game_id, first + i, e.type, e.version, e.payload)
                                       for i, e in enumerate(batch)], state)


def reveal_seed(store: SnapshotStreams, catalog: Catalog, game_id: str, reason: str) -> StoredEvent:
    """Publish the dice seed (game over, or an arbiter's request); no roll can be taken after it."""
    reason = player_text(reason, "reason")
    state = projection.load(store, catalog, game_id)
    if state.meta.revealed_seed is not None:
        raise GameError(f"game {game_id}: the dice seed is already revealed")
    seed = store.dice_seed(game_id)
    if seed is None:
        raise GameError(f"game {game_id}: this server does not hold its dice seed (an imported game)")
    return store.append(game_id, state.meta.seq, [new_event(core.SeedRevealed(seed=seed, reason=reason), SERVER)])[0]


def fork(store: SnapshotStreams, game_id: str, at_seq: int) -> str:
    """A new game with the parent's events 1..at_seq and a dice seed of its own; the parent is untouched."""
    rules_name = store.game(game_id)["rules"]
    head, _ = store.head(game_id)
    if not 1 <= at_seq <= head:
        raise GameError(f"game {game_id} has events 1..{head}; cannot fork at {at_seq}")
    parent_events = list(store.events(game_id, 1, at_seq))
    following = store.event(game_id, at_seq + 1)
    if following is not None and following.causation is not None:
        order_seq = following.causation
        batch_end = max(e.seq for e in store.events(game_id, order_seq) if e.causation == order_seq)
        raise GameError(f"event {at_seq} is inside the order at event {order_seq}, whose events run to "
                        f"{batch_end}: fork at {order_seq - 1} or {batch_end}")
    seed = dice.new_seed()
    new_id = new_game_id(store)
    copies = [NewEvent(e.type, e.version, e.payload, e.actor, e.causation) for e in parent_events]
    marker = core.GameForked(parent_id=game_id, parent_seq=at_seq, parent_hash=parent_events[-1].hash,
                             seed_commitment=dice.commitment(seed))
    created = parent_events[0].payload
    try:
        store.create_game(new_id, rules_name, created["scenario"], copies + [new_event(marker, SERVER)], seed,
                          parent=(game_id, at_seq))
    except StoreError as exc:
        raise GameError(str(exc)) from exc
    return new_id
