"""Automated seats: the server gives a side's orders whenever the states table prompts it (issue 18).

A game's automated seats are recorded at its creation (core.SeatAutomated: side and policy, app/rules/practice.py).
`play` is called after every stored order and join (the order paths: CLI, API, email) and from `Pbem.tick` as a
catch-up: while the side to act is automated it asks the policy for the order and its reason, and submits it
through the one order path (games.submit), so it is stored like a human's, with its events and recorded dice, by
the actor `auto:<side>`, with {"policy", "reason"} in the stored order, which `verify` recomputes
(app/service/audit.py). It waits until every player has joined (their seed texts go into the dice), and gives at
most `LIMIT` orders per call, then logs it; the next call (the next order, or `tick`) goes on.
"""
from __future__ import annotations

import logging

from app.events.interface import SnapshotStreams
from app.events.store import BackendError, Conflict, StoreError
from app.projections import state as projection
from app.rules import practice
from app.rules.catalog import get_rules
from app.rules.errors import OrderError
from app.service import games

LOG = logging.getLogger("hexledger.autoplay")
LIMIT = 500  # orders per call: more than any game's automated turn (an Olympic Japanese turn gives about 100)


def actor(side: str) -> str:
    return f"auto:{side}"


def waiting(rules, state: projection.GameState) -> str | None:
    """The automated side the game waits for now, or None (a player's turn, a seat not yet taken, game over)."""
    if not state.meta.automated:  # no seat is automated: nothing to wait for (the usual game: no rule to ask)
        return None
    if rules.outcome(state.game) is not None or any(s not in state.meta.players for s in state.meta.sides):
        return None
    side = rules.prompt(state.game).side
    return side if side in state.meta.automated else None


def play(store: SnapshotStreams, game_id: str, limit: int = LIMIT,
         state: projection.GameState | None = None) -> list[games.Accepted]:
    """Give the automated seats' orders while one of them is to act; returns them as they were stored. Never
    raises for the caller's sake: the player's own order stands whatever happens here, and a failure is logged.
    `state`: the game at its head, if the caller has it loaded."""
    done: list[games.Accepted] = []
    try:
        state = state or projection.load(store, game_id)
        rules = get_rules(state.meta.rules)
        while (side := waiting(rules, state)) is not None:
            if len(done) >= limit:
                LOG.warning("game %s: the automated %s gave %d orders in one call, the limit; the next order or "
                            "tick goes on", game_id, side, limit)
                break
            policy = state.meta.automated[side]
            text, reason = practice.choose(rules, policy, state.game, side)
            accepted = games.submit(store, game_id, side, text, expected_seq=state.meta.seq, actor=actor(side),
                                    auto={"policy": policy, "reason": reason})
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
