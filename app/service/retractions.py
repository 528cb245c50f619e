"""Who may retract what (docs/architecture.md practice 9; docs/core.md, "Retractions"): the rules of core.Retracted,
one place for the live server, which writes retractions (app/service/disputes.py), and the audit, which holds every
stream to them offline (app/service/audit.py), so a forged export cannot take back an order after its die was seen
and give it again with the next die.

- An undo (`by` "player:SIDE (undo)") takes back the player's own latest standing order, if no order of the
  opponent's came after it, with everything after it up to the undo; never a die roll or a reveal.
- A takeback by consent or a ruling (`by` "SEAT (consent|ruling, dispute N raised by SIDE)") follows, in the same
  write, the answer that accepted (the other player) or upheld (the arbiter) dispute N, raised by SIDE on the order it
  takes back; it takes back that order and everything after it up to the dispute's answer.
- Either kind: the order still stands, and the dice seed was not revealed since it (the dice to come are known).

What no stream holds, the audit cannot check: whether the opponent had seen an undone order (the server's record
of reads), and whether a dispute came within the game's window (its settings).

The live server's writing of them (`stream`, `retraction_event`, `drop_snapshots`) is here too: undo
(app/service/orders.py) and the settling of disputes (app/service/disputes.py) share it.
"""
from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from dataclasses import dataclass

from app.events import core
from app.events.envelope import NewEvent, StoredEvent
from app.events.interface import EventStreams, Snapshots
from app.events.registry import decode_stored
from app.events.store import BackendError, StoreUnavailable
from app.projections import state as projection
from app.rules.base import Rules, event_reveals
from app.service.errors import PbemError
from app.service.games import new_event

ARBITER = "arbiter"  # the arbiter's seat (app/service/seats.py)
AUTHORITIES = {"accepted": "consent", "upheld": "ruling"}  # a dispute's answer -> the authority its retraction cites
# an undo looks no further back than these (a passed deadline too: its record and passes were everyone's)
UNDO_STOPS = ("core.Retracted", "core.PlayerJoined", "core.GameCreated", "core.GameForked", "core.DeadlinePassed")
LOG = logging.getLogger("hexledger.service")
_UNDO = re.compile(r"player:(?P<side>\S+) \(undo\)")
_SETTLED = re.compile(r"(?P<seat>\S+) \((?P<authority>consent|ruling), dispute (?P<dispute>[0-9]+) raised by "
                      r"(?P<raiser>\S+)\)")


def by_undo(side: str) -> str:
    """The `by` of a player's undo."""
    return f"player:{side} (undo)"


def by_dispute(seat: str, status: str, dispute: int, raiser: str) -> str:
    """The `by` of the retraction that follows an accepted or upheld dispute."""
    return f"{seat} ({AUTHORITIES[status]}, dispute {dispute} raised by {raiser})"


def actor(seat: str) -> str:
    """The actor of a seat's answer to a dispute."""
    return ARBITER if seat == ARBITER else f"player:{seat}"


def latest_order(standing: Iterable[StoredEvent], side: str) -> StoredEvent | None:
    """The order an undo by `side` takes back, among the standing events (oldest first): `side`'s latest order, if
    no order of the opponent's, retraction, join, creation or fork came after it."""
    for e in reversed(list(standing)):
        if e.type == "core.OrderGiven":
            return e if e.payload["side"] == side else None
        if e.type in UNDO_STOPS:
            return None
    return None


def undo_refusal(rules: Rules, since: Iterable[StoredEvent]) -> str | None:
    """Why an undo may not take back the events `since` its order (all of them, retracted ones too), or None: a die
    roll or a reveal is taken back only by the opponent's consent or the arbiter's ruling."""
    for e in since:
        body = decode_stored(e.type, e.version, e.payload)
        if isinstance(body, core.DieRolled):
            return f"event {e.seq} is a die roll: only your opponent or the arbiter can take it back"
        if event_reveals(rules, body):
            return f"event {e.seq} revealed something: only your opponent or the arbiter can take it back"
    return None


@dataclass
class _Dispute:
    side: str
    order_seq: int
    status: str = "open"


def first_problem(rules: Rules, events: list[StoredEvent]) -> tuple[int, str] | None:
    """The first retraction, dispute or answer in `events` (a whole stream from event 1) that the live server could
    not have written, as (its seq, why), or None. One pass: the standing orders and stops an undo looks back over,
    the disputes and their answers, the seqs retracted, the last reveal."""
    sides = set(events[0].payload.get("sides") or ()) if events[0].type == "core.GameCreated" else set()
    retracted: set[int] = set()
    stops: list[StoredEvent] = []  # standing orders and the events an undo stops at, oldest first
    disputes: dict[int, _Dispute] = {}
    revealed_at = 0
    settled: StoredEvent | None = None  # an accepted or upheld answer: its retraction comes next, in its write
    for i, e in enumerate(events):
        if settled is not None and e.type != "core.Retracted":
            return settled.seq, (f"dispute {settled.payload['dispute']} is {settled.payload['status']}, but the "
                                 "retraction that goes with it does not follow")
        found = None
        if e.type == "core.SeedRevealed":
            revealed_at = e.seq
        elif e.type == "core.DisputeRaised":
            found = _raised(e, sides, retracted, disputes)
        elif e.type == "core.DisputeAnswered":
            found = _answered(e, sides, disputes)
            settled = e if found is None and e.payload["status"] in AUTHORITIES else None
        elif e.type == "core.Retracted":
            found = _retraction(rules, events, i, sides, retracted, stops, disputes, revealed_at, settled)
            if found is None:
                lo, hi = e.payload["from_seq"], e.payload["to_seq"]
                retracted.update(range(lo, hi + 1))
                stops = [s for s in stops if not lo <= s.seq <= hi]
            settled = None
        if found:
            return e.seq, found
        if e.type == "core.OrderGiven" or e.type in UNDO_STOPS:
            stops.append(e)
    if settled is not None:
        return settled.seq, (f"dispute {settled.payload['dispute']} is {settled.payload['status']}, but the "
                             "retraction that goes with it does not follow")
    return None


def _raised(e: StoredEvent, sides: set[str], retracted: set[int], disputes: dict[int, _Dispute]) -> str | None:
    p = e.payload
    if p["side"] not in sides or e.actor != actor(p["side"]):
        return f"dispute {p['dispute']} is raised by {p['side']!r} (written by {e.actor!r}): only a player raises one"
    if p["order_seq"] in retracted:
        return f"dispute {p['dispute']} disputes event {p['order_seq']}, which was already retracted"
    still_open = [n for n, d in disputes.items() if d.status in ("open", "referred")]
    if still_open:
        return f"dispute {p['dispute']} is raised while dispute {still_open[0]} is not settled"
    if p["dispute"] != len(disputes) + 1:
        return f"dispute {p['dispute']} is numbered out of turn: the game's disputes so far are {len(disputes)}"
    disputes[p["dispute"]] = _Dispute(p["side"], p["order_seq"])
    return None


def _answered(e: StoredEvent, sides: set[str], disputes: dict[int, _Dispute]) -> str | None:
    p = e.payload
    d = disputes.get(p["dispute"])
    if d is None:
        return f"answers dispute {p['dispute']}, which was never raised"
    if d.status not in ("open", "referred"):
        return f"answers dispute {p['dispute']}, which is already {d.status}"
    if e.actor != actor(p["by"]):
        return f"the answer of {p['by']!r} is written by {e.actor!r}"
    if p["by"] == ARBITER:
        allowed = ("upheld", "rejected")
    elif p["by"] in sides and p["by"] != d.side and d.status == "open":
        allowed = ("accepted", "rejected", "referred")
    else:
        return (f"{p['by']!r} may not answer dispute {p['dispute']}: the other player answers it (before it goes "
                "to the arbiter), the arbiter rules")
    if p["status"] not in allowed:
        return f"{p['by']} may not answer dispute {p['dispute']} {p['status']!r}"
    d.status = p["status"]
    return None


def _retraction(rules: Rules, events: list[StoredEvent], i: int, sides: set[str], retracted: set[int],
                stops: list[StoredEvent], disputes: dict[int, _Dispute], revealed_at: int,
                settled: StoredEvent | None) -> str | None:
    e = events[i]
    p = e.payload
    lo, hi, by = p["from_seq"], p["to_seq"], p["by"]
    if not 1 <= lo <= hi < e.seq:
        return f"retracts events {lo}-{hi}, not before it"
    if events[lo - 1].type != "core.OrderGiven":
        return f"retraction starts at event {lo}, which is not an order"
    if hi < e.seq - 1 and events[hi].causation is not None:
        return f"retraction ends at event {hi}, inside an order"
    if lo in retracted:
        return f"retracts event {lo}, which an earlier retraction already took back"
    if revealed_at >= lo:
        return (f"retracts event {lo}, but the dice seed was revealed after it (event {revealed_at}): the game "
                "cannot go on with these dice")
    if e.actor != by:
        return f"is written by {e.actor!r} but says it was made by {by!r}"
    undo, ruled = _UNDO.fullmatch(by), _SETTLED.fullmatch(by)
    if undo:
        side = undo.group("side")
        if side not in sides:
            return f"an undo by {side!r}, who plays no side"
        if hi != e.seq - 1:
            return f"an undo takes back everything up to itself, not events {lo}-{hi} of {e.seq - 1}"
        latest = stops[-1] if stops else None
        if latest is None or latest.seq != lo or latest.payload.get("side") != side:
            return (f"an undo by {side} takes back their own latest order since their opponent's, and event {lo} "
                    "is not it")
        refused = undo_refusal(rules, events[lo - 1:e.seq - 1])
        return f"an undo by {side}, but {refused}" if refused else None
    if ruled:
        n, seat = int(ruled.group("dispute")), ruled.group("seat")
        d = disputes.get(n)
        if settled is None or settled.seq != e.seq - 1 or settled.payload["dispute"] != n:
            return (f"a retraction by dispute {n} comes right after the answer that accepted or upheld it, and does "
                    "not")
        if (settled.payload["by"], AUTHORITIES[settled.payload["status"]]) != (seat, ruled.group("authority")) or \
                d is None or d.side != ruled.group("raiser"):
            return f"says {by!r}, but dispute {n} was {settled.payload['status']} by {settled.payload['by']}"
        if d.order_seq != lo or hi != e.seq - 2:
            return (f"dispute {n} takes back event {d.order_seq} and everything after it up to the dispute's "
                    f"answer, not events {lo}-{hi}")
        return None
    return (f"retracted by {by!r}, who may not: only a player's undo of their own order, or a dispute accepted by the "
            "other player or upheld by the arbiter, retracts")


def stream(store: EventStreams, game_id: str) -> tuple[list[StoredEvent], frozenset[int]]:
    """The game's events and the seqs retracted among them."""
    events = list(store.events(game_id))
    return events, projection.retracted_seqs(events)


def retraction_event(events: list[StoredEvent], retracted: frozenset[int], from_seq: int, reason: str,
                     by: str) -> NewEvent:
    """A core.Retracted of `from_seq` up to the game's last event, checked; the caller appends it."""
    head = events[-1].seq
    start = next((e for e in events if e.seq == from_seq), None)
    if start is None or start.type != "core.OrderGiven" or from_seq in retracted:
        raise PbemError(f"event {from_seq} is not an order that stands")
    if any(e.type == "core.SeedRevealed" for e in events if e.seq >= from_seq):
        raise PbemError("the dice seed was revealed after that order: the game cannot go on with these dice; "
                        "fork it before the order instead")
    return new_event(core.Retracted(from_seq=from_seq, to_seq=head, reason=reason, by=by), by)


def drop_snapshots(store: Snapshots, game_id: str) -> None:
    """After a retraction's commit: its game's snapshots are stale (a cache: later loads fold past the retraction
    anyway, `projection.load` skips a stale snapshot). A locked database or a full disk here is logged and the step
    skipped, never reported as a failure of the write, which a caller would repeat."""
    try:
        store.drop_snapshots(game_id)
    except (BackendError, StoreUnavailable) as exc:
        LOG.warning("game %s: dropping snapshots deferred, the database refused it: %s", game_id, exc)
