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
call, then logs it; the next call (the next order, or `tick`) goes on.
"""
from __future__ import annotations

import logging

from app.events.interface import SnapshotStreams
from app.events.store import BackendError, Conflict, StoreError
from app.projections import state as projection
from app.rules import practice, standing
from app.rules.catalog import get_rules
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


def play(store: SnapshotStreams, game_id: str, limit: int = LIMIT,
         state: projection.GameState | None = None) -> list[games.Accepted]:
    """Give the automated seats' orders and the players' standing orders' while one of them answers the step
    asked; returns them as they were stored. Never raises for the caller's sake: the player's own order stands
    whatever happens here, and a failure is logged. `state`: the game at its head, if the caller has it loaded."""
    done: list[games.Accepted] = []
    try:
        state = state or projection.load(store, game_id)
        rules = get_rules(state.meta.rules)
        while (side := waiting(rules, state)) is not None or (answer := standing_answer(rules, state)) is not None:
            if len(done) >= limit:
                LOG.warning("game %s: the server gave %d orders for %s in one call, the limit; the next order or "
                            "tick goes on", game_id, limit, side or answer[0])
                break
            if side is not None:
                policy = state.meta.automated[side]
                text, reason = practice.choose(rules, policy, state.game, side)
                given, auto, by = text, {"policy": policy, "reason": reason}, actor(side)
            else:
                side, given, auto = answer
                by = standing_actor(side)
            accepted = games.submit(store, game_id, side, given, expected_seq=state.meta.seq, actor=by, auto=auto)
            done.append(accepted)
            state = accepted.state
    except Conflict:
        pass  # someone else wrote meanwhile: their call goes on from there
    except (StoreError, BackendError) as exc:
        LOG.warning("game %s: automated seat deferred, the database refused it: %s", game_id, exc)
    except (practice.NoOrder, OrderError, games.GameError) as exc:
        LOG.error("game %s: the automated seat's policy gave no order the rules accept (%s); the game waits for "
                  "it", game_id, exc)
    return done


def merged(accepted: games.Accepted, followed: list[games.Accepted]) -> games.Accepted:
    """A player's accepted order and the automated orders that answered it, as one: every event, the last state."""
    if not followed:
        return accepted
    return games.Accepted([*accepted.events, *(e for a in followed for e in a.events)], followed[-1].state)
