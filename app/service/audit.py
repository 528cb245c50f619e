"""Audit a game's stream: the hash chain, every stored command re-run through the rules, and the dice.

Works on a list of events, so it checks the database and an export file alike. It reports the first event that
differs, by sequence number: tampering, or a rules change since the game was played. `verify_stored` keeps a stored
game's report per head.
"""
from __future__ import annotations

import copy
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass, field

from app.events import core, dice
from app.events.envelope import GENESIS_HASH, SALT_PATTERN, StoredEvent
from app.events.registry import EventSchemaError, decode, decode_stored
from app.events.store import UnknownGame
from app.projections import state as projection
from app.projections.cache import HeadCache
from app.rules import practice, standing
from app.rules.base import Catalog, Command, UnknownRules
from app.rules.errors import OrderError
from app.service import autoplay, retractions
from app.service.games import RolledThenFailed, check_turn, decide_checked
from app.text import TextError, message_lines


@dataclass
class Problem:
    seq: int
    check: str
    message: str

    def __str__(self) -> str:
        return f"event {self.seq} ({self.check}): {self.message}"


@dataclass
class AuditReport:
    game_id: str
    events: int = 0
    orders_replayed: int = 0
    rolls_checked: int = 0
    rolls_unchecked: int = 0
    dice_notes: list[str] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def first_bad_seq(self) -> int | None:
        return min((p.seq for p in self.problems), default=None)

    def to_dict(self) -> dict:
        return {"game_id": self.game_id, "ok": self.ok, "first_bad_seq": self.first_bad_seq,
                "events": self.events, "orders_replayed": self.orders_replayed,
                "rolls_checked": self.rolls_checked, "rolls_unchecked": self.rolls_unchecked,
                "dice_notes": self.dice_notes, "problems": [vars(p) for p in self.problems]}


Parents = Callable[[str], list[StoredEvent] | None]


_DECODED: ContextVar[dict] = ContextVar("audit_decoded")  # seq -> body, for one `verify`: each event decoded once


def _decode(event: StoredEvent):
    """The event's body through its schema (`decode`), once per event in one `verify`: the checks below each read
    every event, and the schema pass is most of what reading costs (EventSchemaError is raised each time)."""
    memo = _DECODED.get()
    body = memo.get(event.seq)
    if body is None:
        body = memo[event.seq] = decode(event.type, event.version, event.payload)
    return body


def verify(catalog: Catalog, events: list[StoredEvent], check_dice: bool = False, seeds: dict[str, str] | None = None,
           parents: Parents | None = None) -> AuditReport:
    """Chain, then the rules of the core events and of retractions, then replay, then (optionally) dice. `seeds`
    maps a seed commitment to a seed the caller knows; `parents(game_id)` gives a fork's parent stream where it is
    present."""
    report = AuditReport(game_id=events[0].game_id if events else "?", events=len(events))
    if not events:
        report.problems.append(Problem(0, "chain", "the game has no events"))
        return report
    decoded = _DECODED.set({})
    try:
        return _verify(catalog, events, report, check_dice, seeds, parents)
    finally:
        _DECODED.reset(decoded)


def _verify(catalog: Catalog, events: list[StoredEvent], report: AuditReport, check_dice: bool,
            seeds: dict[str, str] | None, parents: Parents | None) -> AuditReport:
    _check_chain(events, report)
    if report.ok:
        _check_payloads(catalog, events, report)
    known = dict(seeds or {})
    if report.ok:
        known.update(_check_core(events, report, parents or (lambda game_id: None)))
    if report.ok:
        _check_retractions(catalog, events, report)
    final = _replay(catalog, events, report) if report.ok else None
    if report.ok and check_dice:
        over = final is not None and _rules_of(catalog, events).outcome(final.game) is not None
        _check_dice(events, report, known, over=over)
    return report


REPORTS = HeadCache(256)  # HEXLEDGER_AUDIT_CACHE (application.size_caches)


def verify_stored(store, catalog: Catalog, game_id: str, parents: Parents | None = None) -> AuditReport:
    """`verify` of a game of `store`, kept per game and head (seq, hash), with the heads of the fork parents it
    read: a stored stream is append-only and hash-chained, so the same heads give the same report, and any append,
    by any process, retires it (issue 25: a player may ask for it 120 times a minute)."""
    key = (projection.store_key(store), game_id)
    kept = REPORTS.get(key, store.head(game_id))
    if kept is not None and all(_head(store, parent) == head for parent, head in kept[1].items()):
        return copy.deepcopy(kept[0])
    read: dict[str, tuple | None] = {}

    def parent(parent_id: str) -> list[StoredEvent] | None:
        stream = parents(parent_id) if parents is not None else None
        read[parent_id] = (stream[-1].seq, stream[-1].hash) if stream else None
        return stream

    events = list(store.events(game_id))
    report = verify(catalog, events, parents=parent)
    REPORTS.put(key, (events[-1].seq, events[-1].hash), (copy.deepcopy(report), read))
    return report


def _head(store, game_id: str) -> tuple[int, str] | None:
    try:
        return store.head(game_id)
    except UnknownGame:
        return None


def _check_chain(events: list[StoredEvent], report: AuditReport) -> None:
    """Each event links to the one before and matches its hash; once events are salted (docs/core.md, "Salted
    events") every later one is, each with a salt of 128 random bits, so no hash can be searched for a payload."""
    prev = GENESIS_HASH
    salted = False
    for expected_seq, event in enumerate(events, start=1):
        if event.salt is not None and not SALT_PATTERN.fullmatch(event.salt):
            report.problems.append(Problem(event.seq, "chain", "a salt is 32 hexadecimal digits"))
        elif salted and event.salt is None:
            report.problems.append(Problem(event.seq, "chain", "an event without a salt after salted ones"))
        elif event.game_id != report.game_id:
            report.problems.append(Problem(event.seq, "chain", f"belongs to game {event.game_id}"))
        elif event.seq != expected_seq:
            report.problems.append(Problem(expected_seq, "chain", f"sequence broken: found event {event.seq}"))
        elif event.prev_hash != prev:
            report.problems.append(Problem(event.seq, "chain", "does not link to the event before it"))
        elif event.hash != event.computed_hash():
            report.problems.append(Problem(event.seq, "chain", "content does not match its hash (altered)"))
        if report.problems:
            return
        prev = event.hash
        salted = event.salt is not None


def _check_payloads(catalog: Catalog, events: list[StoredEvent], report: AuditReport) -> None:
    """Every payload fits its type's schema, and reads the same without it: play reads the store's events without
    a second schema pass (registry.decode_stored), so a payload that only the schema would turn into the right
    value (a number stored as text) is refused here, before an import stores it."""
    try:
        _rules_of(catalog, events)  # the game's own event types are registered when its rule set is imported
    except UnknownRules:
        return  # the replay reports it, at the first event
    for event in events:
        try:
            body = _decode(event)
            if decode_stored(event.type, event.version, event.payload) != body:
                raise EventSchemaError(f"{event.type} v{event.version}: the payload holds a value of the wrong type")
        except EventSchemaError as exc:
            report.problems.append(Problem(event.seq, "schema", str(exc)))
            return


def _core(event: StoredEvent):
    """A core event's body, or None (another type, or a payload the replay will report)."""
    if not event.type.startswith("core."):
        return None
    try:
        return _decode(event)
    except EventSchemaError:
        return None


def _check_core(events: list[StoredEvent], report: AuditReport, parents: Parents) -> dict[str, str]:
    """The rules of the core events (docs/core.md): one creation; each side joins once, before the first roll, as
    the rolls to come depend on the seed texts; no roll after its seed is public; a fork marker follows the events
    copied from its parent, and matches the parent where it is present; table talk is by a seat, to all or the
    arbiter, in lines the text rule allows. Returns the seeds a present parent revealed, by commitment."""
    learned: dict[str, str] = {}
    sides = events[0].payload.get("sides") or () if events and events[0].type == "core.GameCreated" else ()
    joined: set[str] = set()
    forks: list[str] = []
    rolled = revealed = False
    sides = set(events[0].payload.get("sides") or ()) if events[0].type == "core.GameCreated" else set()
    offer: str | None = None  # the side whose draw offer stands

    def problem(seq: int, message: str) -> None:
        report.problems.append(Problem(seq, "core", message))

    for e in events:
        body = _core(e)
        if isinstance(body, core.GameCreated) and e.seq != 1:
            problem(e.seq, "a second core.GameCreated: a game is created once, as its first event")
        elif isinstance(body, core.PlayerJoined):
            if body.side in joined:
                problem(e.seq, f"side {body.side} joins a second time")
            elif rolled:
                problem(e.seq, f"side {body.side} joins after the first die roll: a seed text added then would "
                               "change the rolls to come")
            joined.add(body.side)
        elif isinstance(body, core.MessageSent) and (why := _talk_problem(body, sides)):
            problem(e.seq, why)
        elif isinstance(body, core.DieRolled):
            if revealed:
                problem(e.seq, "a die rolled after its seed was revealed, when anyone could compute it")
            rolled = True
        elif isinstance(body, core.SeedRevealed):
            revealed = True
        elif isinstance(body, core.Resigned):
            if body.side not in sides or body.winner == body.side or (body.winner and body.winner not in sides):
                problem(e.seq, f"{body.side} concedes to {body.winner}: a side of the game concedes to another")
        elif isinstance(body, core.DrawOffered):
            offer = body.side
        elif isinstance(body, core.DrawAnswered):
            if offer is None or offer == body.side:
                problem(e.seq, f"{body.side} answers a draw offer, but no other side's offer stands")
            offer = None
        elif isinstance(body, core.GameForked):
            if body.parent_seq != e.seq - 1:
                problem(e.seq, f"a fork marker comes right after the {e.seq - 1} events copied from its parent, but "
                               f"this one says the fork copied {body.parent_seq}")
            elif body.parent_id == report.game_id or body.parent_id in forks:
                problem(e.seq, f"a fork marker names {body.parent_id}, a game of this stream, as its parent")
            else:
                learned.update(_check_parent(events, e, body, parents(body.parent_id), problem))
            forks.append(body.parent_id)
            revealed = False
        if report.problems:
            return {}
    return learned


def _talk_problem(body: core.MessageSent, sides) -> str | None:
    """Why stored table talk could not have been written by this server (app/service/talk.py), or None: it is by a
    seat, to all or (from a player) to the arbiter, its lines as the text rule keeps them."""
    if body.by not in (*sides, retractions.ARBITER):
        return f"table talk by {body.by!r}, who holds no seat"
    if body.to not in ("all", retractions.ARBITER) or body.by == body.to:
        return f"table talk by {body.by} to {body.to!r}"
    try:
        kept = message_lines(body.lines)
    except TextError as exc:
        return f"table talk that breaks the text rule: {exc}"
    return None if kept == list(body.lines) else "table talk with blank lines, or spaces around a line"


def _check_parent(events: list[StoredEvent], marker: StoredEvent, fork: core.GameForked,
                  parent: list[StoredEvent] | None, problem) -> dict[str, str]:
    """A present parent must hold the copied events and the hash the marker names; its revealed seeds are known."""
    if parent is None:
        return {}
    copied = fork.parent_seq
    if len(parent) < copied or parent[copied - 1].hash != fork.parent_hash:
        problem(marker.seq, f"the parent {fork.parent_id} has no event {copied} with the hash this fork names")
        return {}
    for mine, theirs in zip(events[:copied], parent, strict=False):
        if (mine.type, mine.version, mine.payload, mine.causation) != (theirs.type, theirs.version, theirs.payload,
                                                                        theirs.causation):
            problem(mine.seq, f"differs from event {theirs.seq} of the parent {fork.parent_id}, which it copies")
            return {}
    return {dice.commitment(e.payload["seed"]): e.payload["seed"] for e in parent if e.type == "core.SeedRevealed"}


def _check_retractions(catalog: Catalog, events: list[StoredEvent], report: AuditReport) -> None:
    """Every retraction, dispute and answer is one the live server could have written (app/service/retractions.py):
    who may retract what, never a die roll or a reveal by undo, a takeback only after a dispute accepted or
    upheld by the right seat."""
    try:
        rules = _rules_of(catalog, events)
    except UnknownRules:
        return  # the replay reports it, at the first event
    found = retractions.first_problem(rules, events)
    if found:
        report.problems.append(Problem(found[0], "retraction", found[1]))


def _rules_of(catalog: Catalog, events: list[StoredEvent]):
    return catalog.rules(events[0].payload.get("rules", ""))


def _replay(catalog: Catalog, events: list[StoredEvent], report: AuditReport):
    """Re-run the stream; the state it ends in (None if a problem stopped it)."""
    first = events[0]
    if first.type != "core.GameCreated":
        report.problems.append(Problem(1, "replay", "a game must start with core.GameCreated"))
        return
    try:
        rules = catalog.rules(first.payload.get("rules", ""))
    except UnknownRules as exc:
        report.problems.append(Problem(1, "replay", str(exc)))
        return
    stream = projection.StreamFold(rules)  # a retraction refolds from the state before it, not from event 1
    state = None
    i = 0
    while i < len(events):
        event = events[i]
        try:
            body = _decode(event)
        except EventSchemaError as exc:
            report.problems.append(Problem(event.seq, "schema", str(exc)))
            return
        if event.causation is not None:
            report.problems.append(Problem(event.seq, "replay", "produced by no order before it"))
            return
        if isinstance(body, core.Retracted):  # checked before the replay (_check_retractions)
            state = stream.add(event)
            i += 1
            continue
        if isinstance(body, core.DisputeRaised) and not (
                1 <= body.order_seq < event.seq and events[body.order_seq - 1].type == "core.OrderGiven"):
            report.problems.append(Problem(event.seq, "replay", f"disputes event {body.order_seq}, not an order "
                                           "before it"))
            return
        if not isinstance(body, core.OrderGiven | core.RollsSpent):
            if not event.type.startswith("core."):
                report.problems.append(Problem(event.seq, "replay", "a game event that no order produced"))
                return
            state = stream.add(event)
            i += 1
            continue
        batch = []
        j = i + 1
        while j < len(events) and events[j].causation == event.seq:
            batch.append(events[j])
            j += 1
        rerun = _rerun if isinstance(body, core.OrderGiven) else _rerun_fault
        problem = rerun(rules, state, event, body, batch)
        if problem:
            report.problems.append(problem)
            return
        report.orders_replayed += 1
        state = stream.extend([event, *batch])
        i = j
    return state


def _command(rules, state, order: core.OrderGiven | core.RollsSpent) -> Command:
    """The stored command, checked to be what the stored text reads as and an order prompted then."""
    command = Command.from_dict(order.command)
    if rules.parse(order.text, order.side, state.game) != command:
        raise _Differs(f"order {order.text!r} no longer reads as the stored command")
    check_turn(rules, state, command)
    return command


class _Differs(Exception):
    """The stored order and the rules disagree (the message says how)."""


REPLAY_ERRORS = (OrderError, dice.DiceError, EventSchemaError, KeyError, TypeError, ValueError, _Differs)


def _rerun(rules, state, order_event: StoredEvent, order: core.OrderGiven, batch: list[StoredEvent]):
    """Decide the stored command again with the recorded dice; the first differing event, if any."""
    seq = order_event.seq
    try:
        stored = [_decode(e) for e in batch]
        recorded = [e.value for e in stored if isinstance(e, core.DieRolled)]
        command = _command(rules, state, order)
        redecided = _redecide(rules, state, seq, order)
        if redecided:
            return redecided
        produced = decide_checked(rules, state, command, dice.RecordedDice(next_index=state.meta.rolls,
                                                                          recorded=recorded))
    except _Differs as exc:
        return Problem(seq, "replay", str(exc))
    except RolledThenFailed as exc:
        return Problem(seq, "replay", f"order {order.text!r} is refused on replay after a roll: {exc.cause}")
    except REPLAY_ERRORS as exc:
        return Problem(seq, "replay", f"order {order.text!r} is refused on replay: {exc}")
    for k in range(max(len(produced), len(stored))):
        if k >= len(produced) or k >= len(stored) or produced[k] != stored[k]:
            at = batch[k].seq if k < len(batch) else seq + len(batch) + 1
            want = produced[k] if k < len(produced) else "nothing"
            return Problem(at, "replay", f"the rules now produce {want!r} here")
    return None


def _redecide(rules, state, seq: int, order: core.OrderGiven) -> Problem | None:
    """An automated seat's order must be the one its policy gives in that position, for the reason stored
    (app/service/autoplay.py); a player's seat takes no automated order, but a standing order's, which must be
    the one the player's standing orders in force give there (app/rules/standing.py)."""
    policy = state.meta.automated.get(order.side)
    if policy is None and order.auto and "standing" in order.auto:
        return _restand(rules, state, seq, order)
    if policy is None:
        return Problem(seq, "replay", f"order {order.text!r} claims an automated seat, but {order.side} is a "
                                      "player's") if order.auto else None
    if not order.auto or order.auto.get("policy") != policy:
        return Problem(seq, "replay", f"{order.side} is played by the policy {policy}, but order {order.text!r} is "
                                      "not its")
    try:
        stored = order.auto.get("reason")
        text, reason = autoplay.policy_order(rules, state, order.side, stored if isinstance(stored, dict) else None)
    except practice.NoOrder as exc:
        return Problem(seq, "replay", f"the policy {policy} gives no order here ({exc}), yet {order.text!r} is "
                                      "stored")
    if text != order.text or reason != order.auto.get("reason"):
        why = (order.auto.get("reason") or {}).get("summary", "") if isinstance(order.auto.get("reason"), dict) else ""
        return Problem(seq, "replay", f"the policy {policy} gives {text!r} ({reason.get('summary', '')}) here, not "
                                      f"the stored {order.text!r} ({why})")
    return None


def _restand(rules, state, seq: int, order: core.OrderGiven) -> Problem | None:
    """A standing order's order: the kind asked then is the one it names, and the clauses the side had set for it
    give this very order (a standing order never gives one twice in a row on a step: the run so far)."""
    kind = order.auto.get("standing")
    if standing.kind_now(rules, state.game) != kind:
        return Problem(seq, "replay", f"order {order.text!r} claims a standing order for {kind}, but "
                                      f"{standing.kind_now(rules, state.game)} was asked")
    clauses = state.meta.standing.get(order.side, {}).get(kind)
    if not clauses:
        return Problem(seq, "replay", f"order {order.text!r} claims a standing order for {kind}, but {order.side} "
                                      "had none set")
    run = state.meta.standing_run
    chosen = standing.choose(rules, state.game, order.side, kind, clauses, run[1] if run and run[0] == kind else ())
    if chosen is None or chosen[0] != order.text or chosen[1] != order.auto.get("reason"):
        gives = f"gives {chosen[0]!r}" if chosen else "gives no order (the player is asked)"
        return Problem(seq, "replay", f"{order.side}'s standing order for {kind} {gives} here, not the stored "
                                      f"{order.text!r}")
    return None


def _rerun_fault(rules, state, fault_event: StoredEvent, fault: core.RollsSpent, batch: list[StoredEvent]):
    """A failed order's spent dice (core.RollsSpent): the rules, given exactly these rolls, must still fail after
    taking all of them, so no roll is spent that the rules did not draw (the server cannot skip a die it dislikes)."""
    seq = fault_event.seq
    try:
        stored = [_decode(e) for e in batch]
        if not stored or not all(isinstance(e, core.DieRolled) for e in stored):
            return Problem(seq, "replay", "a failed order's record must be followed by the dice it spent, and only "
                                          "by them")
        command = _command(rules, state, fault)
        roller = dice.RecordedDice(next_index=state.meta.rolls, recorded=[e.value for e in stored])
        decide_checked(rules, state, command, roller)
    except RolledThenFailed as exc:
        if isinstance(exc.cause, dice.DiceError) or exc.taken != stored:
            return Problem(seq, "replay", f"order {fault.text!r} now takes other rolls than the ones spent")
        return None
    except _Differs as exc:
        return Problem(seq, "replay", str(exc))
    except REPLAY_ERRORS as exc:
        return Problem(seq, "replay", f"order {fault.text!r} is refused before any roll on replay: {exc}")
    return Problem(seq, "replay", f"order {fault.text!r} is carried out on replay: its dice were spent for nothing")


def _check_dice(events: list[StoredEvent], report: AuditReport, known: dict[str, str], over: bool) -> None:
    """Recompute every roll whose seed is known; each fork starts a new seed epoch (core.GameForked). A game that
    is over must have revealed its own seed (the service does so with the event that ends it)."""
    board = next((e for e in events if e.type == "core.BoardOpened"), None)
    if board is not None:
        report.problems.append(Problem(board.seq, "dice", "an analysis board: its dice from here were chosen by the "
                                                          "analyst, not rolled from a committed seed; it is no "
                                                          "played game"))
        return
    markers = [e for e in events if e.type in ("core.GameCreated", "core.GameForked")]
    if over and not any(e.type == "core.SeedRevealed" for e in events if e.seq > markers[-1].seq):
        report.problems.append(Problem(events[-1].seq, "dice", "the game is over but its dice seed was never "
                                       "revealed, so its rolls cannot be checked"))
        return
    for n, marker in enumerate(markers):
        end = markers[n + 1].seq if n + 1 < len(markers) else events[-1].seq + 1
        derive_id = markers[n + 1].payload["parent_id"] if n + 1 < len(markers) else report.game_id
        commitment = marker.payload["seed_commitment"]
        revealed = [e for e in events if marker.seq <= e.seq < end and e.type == "core.SeedRevealed"]
        seed = revealed[0].payload["seed"] if revealed else known.get(commitment)
        rolls = [e for e in events if marker.seq <= e.seq < end and e.type == "core.DieRolled"]
        label = f"events {marker.seq}-{end - 1}"
        if seed is None:
            report.rolls_unchecked += len(rolls)
            whose = f"the seed of {derive_id}, this game's parent," if derive_id != report.game_id else "the seed"
            report.dice_notes.append(f"{label}: {whose} is not revealed yet, {len(rolls)} rolls cannot be checked")
            continue
        if dice.commitment(seed) != commitment:
            at = revealed[0].seq if revealed else marker.seq
            report.problems.append(Problem(at, "dice", "the seed does not match the commitment made at event "
                                           f"{marker.seq}"))
            return
        seeds_at: dict[str, str] = {}
        for e in events:
            if e.seq >= end:
                break
            if e.type == "core.PlayerJoined":
                seeds_at[e.payload["side"]] = e.payload["seed_text"]
            if e.seq >= marker.seq and e.type == "core.DieRolled":
                p = e.payload
                expected = dice.derive_roll(seed, derive_id, seeds_at, p["index"], p["sides"])
                if expected != p["value"]:
                    report.problems.append(Problem(e.seq, "dice", f"roll #{p['index']} is {p['value']}, "
                                                   f"but the seed gives {expected}"))
                    return
                report.rolls_checked += 1
        report.dice_notes.append(f"{label}: {len(rolls)} rolls recomputed from the revealed seed")
