"""The state of a game at any sequence number: server-side metadata plus the rule set's own state.

State is a fold of the events (design.md practice 5). Snapshots are a cache of that fold: the loader starts
from the latest snapshot at or before the wanted sequence number, if any, and folds the events after it.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from typing import Any

from app.events import core
from app.events.envelope import StoredEvent
from app.events.registry import decode
from app.events.store import EventStore
from app.rules.base import Rules
from app.rules.catalog import get_rules

SNAPSHOT_EVERY = 250


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


@dataclass(frozen=True)
class GameState:
    meta: GameMeta
    game: Any


class NoSuchPosition(LookupError):
    pass


def fold(rules: Rules, state: GameState | None, event: StoredEvent) -> GameState:
    """Apply one stored event (validated through its schema on read)."""
    body = decode(event.type, event.version, event.payload)
    if isinstance(body, core.GameCreated):
        meta = GameMeta(game_id=event.game_id, rules=body.rules, scenario=body.scenario, sides=list(body.sides),
                        seed_commitment=body.seed_commitment, dice_game_id=event.game_id,
                        options=dict(body.options), seq=event.seq)
        return GameState(meta, rules.initial_state(body.scenario, body.options))
    if state is None:
        raise ValueError(f"event {event.seq} ({event.type}) comes before the game's creation")
    meta = replace(state.meta, seq=event.seq)
    game = state.game
    if isinstance(body, core.PlayerJoined):
        meta = replace(meta, players={**meta.players, body.side: body.name},
                       player_seeds={**meta.player_seeds, body.side: body.seed_text})
    elif isinstance(body, core.DieRolled):
        meta = replace(meta, rolls=meta.rolls + 1)
    elif isinstance(body, core.SeedRevealed):
        meta = replace(meta, revealed_seed=body.seed)
    elif isinstance(body, core.GameForked):
        meta = replace(meta, game_id=event.game_id, dice_game_id=event.game_id, seed_commitment=body.seed_commitment,
                       revealed_seed=None,
                       parent={"id": body.parent_id, "seq": body.parent_seq, "hash": body.parent_hash})
    elif not isinstance(body, core.OrderGiven):
        game = rules.evolve(game, body)
    return GameState(meta, game)


def fold_all(rules: Rules, events, state: GameState | None = None) -> GameState | None:
    for event in events:
        state = fold(rules, state, event)
    return state


def rules_key(rules: Rules) -> str:
    return f"{rules.name}:{rules.version}"


def encode(rules: Rules, state: GameState) -> dict:
    return {"meta": asdict(state.meta), "game": rules.encode_state(state.game)}


def decode_state(rules: Rules, data: dict) -> GameState:
    return GameState(GameMeta(**data["meta"]), rules.decode_state(data["game"]))


def load(store: EventStore, game_id: str, at: int | None = None, use_snapshots: bool = True) -> GameState:
    """The state after event `at` (default: the last one)."""
    rules = get_rules(store.game(game_id)["rules"])
    head, _ = store.head(game_id)
    target = head if at is None else at
    if not 1 <= target <= head:
        raise NoSuchPosition(f"game {game_id} has events 1..{head}; there is no event {target}")
    state = None
    start = 1
    if use_snapshots:
        snap = store.latest_snapshot(game_id, target, rules_key(rules))
        if snap is not None:
            start, state = snap[0] + 1, decode_state(rules, snap[1])
    return fold_all(rules, store.events(game_id, start, target), state)


def maybe_snapshot(store: EventStore, rules: Rules, state: GameState, previous_seq: int) -> None:
    """Cache the folded state when the stream crosses a multiple of SNAPSHOT_EVERY."""
    if state.meta.seq // SNAPSHOT_EVERY > previous_seq // SNAPSHOT_EVERY:
        store.save_snapshot(state.meta.game_id, state.meta.seq, rules_key(rules), encode(rules, state))


def rebuild_snapshots(store: EventStore, game_id: str) -> int:
    """Fold a game once from its first event and cache a snapshot every SNAPSHOT_EVERY events; returns how many."""
    rules = get_rules(store.game(game_id)["rules"])
    store.drop_snapshots(game_id)
    state, written = None, 0
    for event in store.events(game_id):
        state = fold(rules, state, event)
        if event.seq % SNAPSHOT_EVERY == 0:
            store.save_snapshot(game_id, event.seq, rules_key(rules), encode(rules, state))
            written += 1
    return written
