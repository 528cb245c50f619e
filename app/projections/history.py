"""A game's history as readable lines, for the CLI log, emails and the replay viewer.

What players wrote is shown as data (app/text.py): names, reasons and notes quoted, orders with any control
character escaped, so no text of theirs can start a line of its own (a forged "blue orders: concede")."""
from __future__ import annotations

from app.events import core
from app.events.envelope import StoredEvent
from app.events.registry import decode_stored
from app.projections.sight import Sight
from app.rules.base import Rules
from app.text import escaped, quoted


def public_name(name: str, side: str) -> str:
    """A player's name as history shows it, to anyone who may read it (a finished game's replay is public), quoted
    as data: an email address (the default name of a seat that joined by email) is never shown."""
    return f"the {side} player" if "@" in name or not name.strip() else quoted(name)


def describe(rules: Rules, event: StoredEvent, body: object = None) -> str:
    """The event's line; `body`: the event object as the caller decoded it (`decode_stored`), else decoded here."""
    body = decode_stored(event.type, event.version, event.payload) if body is None else body
    if isinstance(body, core.GameCreated):
        return (f"game created: {body.rules}, scenario {body.scenario}; "
                f"dice seed committed ({body.seed_commitment[:12]}...)")
    if isinstance(body, core.PlayerJoined):
        return f"{public_name(body.name, body.side)} joins as {body.side}"
    if isinstance(body, core.OrderGiven):
        if body.auto and "standing" in body.auto:
            kind = escaped(body.auto["standing"])
            return f"{body.side} orders: {escaped(body.text)}  [its standing order for {kind}]"
        if body.auto:
            why = (body.auto.get("reason") or {}).get("summary", "")
            return f"{body.side} (automated, {body.auto.get('policy')}) orders: {body.text}" + (f"  [{why}]" if why
                                                                                                   else "")
        return f"{body.side} orders: {escaped(body.text)}"
    if isinstance(body, core.StandingOrdersSet):
        return f"{body.side} sets standing orders: " + "; ".join(
            f"{escaped(kind)}: {'; '.join(quoted(c) for c in clauses) if clauses else 'ask me'}"
            for kind, clauses in body.orders.items())
    if isinstance(body, core.SeatAutomated):
        return f"{body.side} is played by the server (policy {body.policy})"
    if isinstance(body, core.BoardOpened):
        return (f"ANALYSIS BOARD opened from {body.parent_id} after event {body.parent_seq}: a sandbox, no played "
                "game; from here the analyst chooses the dice and may edit units")
    if isinstance(body, core.BoardEdited):
        changes = ", ".join(f"{k} {v}" for k, v in body.changes.items())
        return f"analysis: {body.unit} edited: {changes}"
    if isinstance(body, core.SeatStalled):
        return (f"{body.side} (automated, {body.policy}) cannot give an order: {body.problem}; the game waits for "
                "the arbiter")
    if isinstance(body, core.RollsSpent):
        return f"{body.side}'s order could not be carried out (an engine fault after rolling): its dice are spent"
    if isinstance(body, core.DieRolled):
        return f"die roll #{body.index}: {body.value} ({body.purpose})"
    if isinstance(body, core.SeedRevealed):
        return f"dice seed revealed ({escaped(body.reason)}): {body.seed}"
    if isinstance(body, core.GameForked):
        return f"forked from {body.parent_id} after event {body.parent_seq}; new dice seed committed"
    if isinstance(body, core.Retracted):
        return f"events {body.from_seq}-{body.to_seq} retracted by {escaped(body.by)}: {escaped(body.reason)}"
    if isinstance(body, core.DisputeRaised):
        return f"{body.side} disputes event {body.order_seq} (dispute {body.dispute}): {quoted(body.reason)}"
    if isinstance(body, core.DeadlinePassed):
        return f"{body.side}'s move deadline passed (due {body.due}): {body.note or body.action}"
    if isinstance(body, core.MessageSent):
        return talk_line(body)
    if isinstance(body, core.VacationTaken):
        return f"{body.side} takes a vacation from {body.start} to {body.until} (UTC): its clock stops meanwhile"
    if isinstance(body, core.DrawOffered):
        return f"{body.side} offers a draw"
    if isinstance(body, core.DrawAnswered):
        return f"{body.side} " + ("accepts the draw: the game ends in a draw" if body.accepted
                                  else "declines the draw: the game goes on")
    if isinstance(body, core.Resigned):
        return f"{body.side} concedes" + (f" to {body.winner}" if body.winner else "") + f": {escaped(body.reason)}"
    if isinstance(body, core.DisputeAnswered):
        return f"dispute {body.dispute} {body.status} by {escaped(body.by)}" + (f": {quoted(body.note)}" if body.note
                                                                                 else "")
    return rules.describe(body)


def talk_line(message: core.MessageSent) -> str:
    """Table talk as one line: who wrote to whom, each line the player wrote quoted as data."""
    to = "all" if message.to == "all" else "the arbiter"
    return f"{escaped(message.by)} to {to}: " + " / ".join(quoted(line) for line in message.lines)


DISPUTE_TYPES = ("core.DisputeRaised", "core.DisputeAnswered")
NEVER_TAKEN_BACK = (*DISPUTE_TYPES, "core.MessageSent")


def taken_back(event: StoredEvent, retracted: frozenset[int]) -> bool:
    """Whether a retraction took this event back: one in a retracted span, but never a dispute's own events (they
    stand, and say what was disputed and how it was settled: docs/play-by-email.md, "Disputes are events"), nor
    table talk (what was said was said; it changed nothing a retraction could take back)."""
    return event.seq in retracted and event.type not in NEVER_TAKEN_BACK


ALL_SIDES = object()


def lines(rules: Rules, events: list[StoredEvent], retracted: frozenset[int] = frozenset(),
          side: str | None | object = ALL_SIDES) -> list[dict]:
    """Readable lines; retracted events are kept and marked. With `side`, only what that side may see
    (its `Sight`): hidden events are left out, redacted ones show the redacted text."""
    sight = Sight(rules, None if side is ALL_SIDES else side)
    out = []
    for e in events:
        body = decode_stored(e.type, e.version, e.payload)  # once, for the sight and the line (issue 26)
        seen = True if side is ALL_SIDES else sight.event(body)
        if seen is False:
            continue
        text = seen if isinstance(seen, str) else describe(rules, e, body)
        row = {"seq": e.seq, "at": e.at, "actor": e.actor, "type": e.type, "text": text,
               "retracted": taken_back(e, retracted)}
        if row["retracted"]:
            row["text"] = "[retracted] " + text
        out.append(row)
    return out
