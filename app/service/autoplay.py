"""The server's orders: an automated seat's whenever the states table prompts it (issue 18), and a player's
standing order's whenever the decision it answers is asked (issue 27, app/rules/standing.py).

A game's automated seats are recorded at its creation (core.SeatAutomated: side and policy, app/rules/practice.py).
`play` is called after every stored order and join (the order paths: CLI, API, email) and from `tick` as a
catch-up: while the side to act is automated it asks the policy for the order and its reason, and submits it
through the one order path (games.submit), so it is stored like a human's, with its events and recorded dice, by
the actor `auto:<side>`, with {"policy", "reason"} in the stored order, which `verify` recomputes
(app/service/audit.py). A standing order's order is the player's own, stored the same way with
{"standing": kind, "reason"} by the actor `standing:<side>`, re-decided by `verify` from the clauses in force. It
waits until every player has joined (their seed texts go into the dice), and gives at most `LIMIT` orders per
call, then logs it; the next call (the next order, or `tick`) goes on. A seat that can give no order (its policy
finds none the rules accept, or fails) says so in the stream (core.SeatStalled, once a position: the history
shows it, the reactions tell the players and the arbiter) and in the operator's log, with the cause; the game
waits for the arbiter.
"""
from __future__ import annotations

import logging

from app.events import core
from app.events.interface import SnapshotStreams
from app.events.registry import encode
from app.events.store import BackendError, Conflict, NewEvent, StoreError
from app.projections import state as projection
from app.rules import practice, standing
from app.rules.base import Catalog
from app.rules.errors import OrderError
from app.service import games

LOG = logging.getLogger("hexledger.autoplay")
LIMIT = 500  # orders per call: more than any game's automated turn (an Olympic Japanese turn gives about 100)


def actor(side: str) -> str:
    return f"auto:{side}"


def standing_actor(side: str) -> str:
    """Who gives a standing order's order: the server, for the player, as the player set it."""
    return f"standing:{side}"


def waiting(rules, state: projection.GameState) -> str | None:
    """The automated side the game waits for now, or None (a player's turn, a seat not yet taken, game over)."""
    if not state.meta.automated:  # no seat is automated: nothing to wait for (the usual game: no rule to ask)
        return None
    if rules.outcome(state.game) is not None or any(s not in state.meta.players for s in state.meta.sides):
        return None
    side = rules.prompt(state.game).side
    return side if side in state.meta.automated else None


def policy_order(rules, state: projection.GameState, side: str, replaying: dict | None = None) -> tuple[str, dict]:
    """The order the automated `side`'s policy gives now, with its reason: the seat's policy and settings
    (core.SeatAutomated), the orders the side has given so far. `verify` asks the same, with the stored reason
    (`replaying`: a timed search runs the playouts it records; app/service/audit.py)."""
    return practice.choose(rules, state.meta.automated[side], state.game, side,
                           state.meta.seat_settings.get(side, {}), state.meta.orders.get(side, 0), replaying)


def standing_answer(rules, state: projection.GameState) -> tuple[str, str, dict] | None:
    """The order a player's standing order gives now, (side, text, auto), or None: no standing order answers the
    step asked (the player is asked), or nobody may act yet (a seat not taken, the game over)."""
    meta = state.meta
    if not meta.standing or rules.outcome(state.game) is not None or any(s not in meta.players for s in meta.sides):
        return None
    side = rules.prompt(state.game).side
    kind = standing.kind_now(rules, state.game)
    clauses = meta.standing.get(side, {}).get(kind) if side not in meta.automated else None
    if not clauses:
        return None
    run = meta.standing_run
    chosen = standing.choose(rules, state.game, side, kind, clauses, run[1] if run and run[0] == kind else ())
    if chosen is None:
        return None
    return side, chosen[0], {"standing": kind, "reason": chosen[1]}


def play(store: SnapshotStreams, catalog: Catalog, game_id: str, limit: int = LIMIT,
         state: projection.GameState | None = None) -> list[games.Accepted]:
    """Give the automated seats' orders and the players' standing orders' while one of them answers the step
    asked; returns them as they were stored. Never raises for the caller's sake: the player's own order stands
    whatever happens here. An automated seat that can give no order records it (`stalled`); a standing order the
    rules refuse leaves the step to its player; a database that refuses the write is logged and `tick` goes on
    later. `state`: the game at its head, if the caller has it loaded."""
    done: list[games.Accepted] = []
    side = policy = None
    try:
        state = state or projection.load(store, catalog, game_id)
        rules = catalog.rules(state.meta.rules)
        while (side := waiting(rules, state)) is not None or (answer := standing_answer(rules, state)) is not None:
            if len(done) >= limit:
                LOG.warning("game %s: the server gave %d orders for %s in one call, the limit; the next order or "
                            "tick goes on", game_id, limit, side or answer[0])
                break
            if side is None:  # a player's standing order answers the step asked
                side, given, auto = answer
                try:
                    accepted = games.submit(store, catalog, game_id, side, given, expected_seq=state.meta.seq,
                                            actor=standing_actor(side), auto=auto)
                except (OrderError, games.GameError) as exc:
                    LOG.warning("game %s: the %s standing order %r is refused (%s); its player is asked", game_id,
                                side, given, exc)
                    break
            else:
                policy = state.meta.automated[side]
                try:
                    text, reason = policy_order(rules, state, side)
                except practice.NoOrder as exc:
                    stalled(store, state, side, policy, "its policy finds no order the rules accept", exc)
                    break
                except Exception as exc:  # noqa: BLE001 - a policy's own fault stops the seat, not the player's order
                    stalled(store, state, side, policy, "its policy failed (an engine fault)", exc)
                    break
                try:
                    accepted = games.submit(store, catalog, game_id, side, text, expected_seq=state.meta.seq,
                                            actor=actor(side), auto={"policy": policy, "reason": reason})
                except (OrderError, games.GameError) as exc:
                    stalled(store, state, side, policy, "the rules refuse its policy's order", exc)
                    break
            done.append(accepted)
            state = accepted.state
    except Conflict:
        pass  # someone else wrote meanwhile: their call goes on from there
    except (StoreError, BackendError) as exc:
        LOG.warning("game %s: automated seat deferred, the database refused it: %s", game_id, exc)
    return done


def stalled(store: SnapshotStreams, state: projection.GameState, side: str, policy: str, problem: str,
            cause: Exception) -> None:
    """Record that the automated `side` can give no order here (core.SeatStalled, which the history shows and the
    reactions tell the players and the arbiter), once a position; the operator's log has the cause. `problem` is
    shown to everyone, so it is one of the fixed texts above, never the cause's message (which may name what a
    side may not see)."""
    LOG.error("game %s at event %d: the automated %s (policy %s) gives no order: %s: %s: %s", state.meta.game_id,
              state.meta.seq, side, policy, problem, type(cause).__name__, cause,
              exc_info=not isinstance(cause, practice.NoOrder | OrderError | games.GameError))
    head = list(store.events(state.meta.game_id, from_seq=state.meta.seq))
    if any(e.type == "core.SeatStalled" and e.payload.get("side") == side for e in head):
        return  # told already at this position: nothing has happened since
    name, version, payload = encode(core.SeatStalled(side=side, policy=policy, problem=problem))
    store.append(state.meta.game_id, state.meta.seq, [NewEvent(name, version, payload, actor(side))])


def merged(accepted: games.Accepted, followed: list[games.Accepted]) -> games.Accepted:
    """A player's accepted order and the automated orders that answered it, as one: every event, the last state."""
    if not followed:
        return accepted
    return games.Accepted([*accepted.events, *(e for a in followed for e in a.events)], followed[-1].state)
