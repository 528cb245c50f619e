"""The leak check of docs/architecture.md practice 12 for any game with fog of war: a side never reads a unit name its
view did not show, in any channel. History lines, export rows, replay frame texts and combat panels are measured
event by event against the side's view just before or just after the event; turn emails, the replay's map
pictures and analysis against every view that side was shown up to then."""
from __future__ import annotations

import dataclasses
import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from email.message import EmailMessage
from unittest import mock

from app.events import core, dice, receipts
from app.events.registry import decode
from app.events.store import EventStore
from app.mail.inbound import body_text
from app.mail.transport import MailConfig
from app.projections import analysis, render, replay
from app.projections.sight import Sight
from app.projections.state import fold
from app.rules.catalog import installed
from app.service import games
from app.service.application import Application, Seat
from tests.outbox import Outbox

CATALOG = installed()  # the rule sets installed here


def namer(ids: list[str]) -> Callable[[str], set[str]]:
    """Unit ids named in full in a text (a short form such as "6th" is also a word of unit names, "6th Army")."""
    known = frozenset(ids)
    return lambda text: known.intersection(re.findall(r"[\w-]+", text))


SVG_NS = "{http://www.w3.org/2000/svg}"


def seen(view: dict) -> set[str]:
    """Every unit id a view shows: its counters, its stacks, its own off-map units, and its drawn counters."""
    ids = {u["id"] for u in view.get("units", [])}
    ids |= {u["id"] for st in view.get("stacks", []) for u in st["units"]}
    ids |= {u["id"] for u in view.get("own_off_map", [])}
    return ids | set(view.get("drawn", []))


def unseen_in_lines(rules, state, orders: list[tuple[str, str, list]], named: Callable[[str], set[str]]) -> list[str]:
    """The practice 12 check on a fixed position, event by event, without the service: `orders` are (side, text,
    events) played in turn from `state`; for each side, each event's history line and export row as the rule
    set's `visible` lets that side read them (the line, or its redacted text; the payload only when shown whole)
    are measured against the side's views just before and just after the event. Returns what a side read that
    neither view showed ("side: line")."""
    found = []
    for side in rules.sides:
        s = state
        for by, text, events in orders:
            command = rules.parse(text, by, s)
            for event in [core.OrderGiven(by, text, command.to_dict()), *events]:
                before = s
                if not isinstance(event, core.OrderGiven):
                    s = rules.evolve(s, event)
                may = seen(rules.view(before, side)) | seen(rules.view(s, side))
                told = rules.visible(event, side)
                if told is False:
                    continue
                line = told if isinstance(told, str) else rules.describe(event) + " " + json.dumps(
                    dataclasses.asdict(event), default=str)
                if named(line) - may:
                    found.append(f"{side}: {line} names {sorted(named(line) - may)}")
    return found


def pictured(svg: str, may: set[str]) -> str:
    """A map picture's text, less the id lines of the counters of units `may` be seen (a counter's id is drawn
    on two lines where it is long: "cn-" and "gar-b", and "gar-b" alone names both sides' garrison B). Every
    counter drawn must be one of those units."""
    root = ET.fromstring(svg)
    for g in root.iter(f"{SVG_NS}g"):
        if g.get("class") == "counter":
            assert g.get("data-unit") in may, f"the picture draws hidden {g.get('data-unit')}"
            for t in [t for t in g if t.tag == f"{SVG_NS}text" and t.text and t.text in g.get("data-unit")]:
                g.remove(t)
    return ET.tostring(root, encoding="unicode")


def played_through_service(path: str, rules: str, emails: dict[str, str], game_id: str, play: Callable,
                           scenario: str | None = None, options: dict | None = None):
    """A game of `rules` (its `scenario`, created with `options`) between `emails` (side: address) played by
    `play(submit)` through the service, turn emails kept: the same game every run (the dice mix the server seed and
    the game id); snapshots keep each load short. Returns (pbem, game id, outbox, play's result)."""
    outbox = Outbox()
    pbem = Application(EventStore(path, snapshot_every=20), MailConfig(orders_address="orders@x.example"), outbox)
    with mock.patch.object(dice, "new_seed", lambda: "6" * 64), \
            mock.patch.object(games, "new_game_id", lambda store: game_id):
        pbem.setup.create(rules, emails, scenario, options=options)
        seats = {s: Seat(game_id, s, e) for s, e in emails.items()}
        for seat in seats.values():
            pbem.setup.join(seat, seat.seat)
        result = play(lambda side, text: pbem.orders.submit(seats[side], text).state.game)
    return pbem, game_id, outbox, result


def check_every_channel(pbem: Application, game_id: str, named: Callable[[str], set[str]], outbox) -> set[tuple]:
    """Assert no leak in any channel, for each side; returns the (side, event type) pairs of history lines
    checked."""
    store = pbem.store
    rules = pbem.reads.rules_of(game_id)
    events = list(store.events(game_id))
    members = pbem.seats.members(game_id)
    checked = set()
    for side in rules.sides:
        seat = Seat(game_id, side, members[side]["email"])
        rows = {r["seq"]: r["text"] for r in pbem.reads.history_rows(seat)}
        lines, whole = pbem.reads.export(seat)
        assert not whole, "the game is over: nothing is hidden any more, there is nothing to check"
        exported = {r["seq"]: json.dumps(r) for r in map(json.loads, lines[1:])}
        rep = replay.build(store, CATALOG, game_id, side)
        frames = {f.seq: f for f in rep.frames}
        state, ever, shown = None, set(), set()
        for e in events:
            state = fold(rules, state, e)
            before, shown = shown, seen(rules.view(state.game, side))  # the views just before and just after
            may = before | shown
            ever |= may
            frame = frames.get(e.seq)
            texts = {"history line": rows.get(e.seq, ""), "export row": exported.get(e.seq, ""),
                     "replay text": frame.text if frame else "",
                     "combat panel": json.dumps(frame.combat) if frame and frame.combat else ""}
            for channel, text in texts.items():
                leaked = named(text) - may
                assert not leaked, f"{side} {channel} {e.seq} ({e.type}) names hidden {leaked}: {text}"
            if e.seq in rows:
                checked.add((side, decode(e.type, e.version, e.payload).__class__.__name__))
        for frame in rep.frames:  # the replay's map pictures and the analysis draw only the frames' views
            leaked = named(json.dumps(frame.view)) - ever
            assert not leaked, f"{side} replay view {frame.seq} shows hidden {leaked}"
        game_map = getattr(rules, "game_map", None)
        if game_map is not None:
            svg = render.render_map(game_map(rep.games[-1]), rep.frames[-1].view, rules.sides)
            shown = pictured(svg, ever)
            assert not named(shown) - ever, f"{side} map picture shows hidden {named(shown) - ever}"
        result = analysis.analyse(rep)
        charts = json.dumps(result) + "".join(analysis.charts(result).values())
        assert not named(charts) - ever, f"{side} analysis shows hidden {named(charts) - ever}"
        mails = [m for m in outbox.sent if m["To"] == members[side]["email"]]
        for msg in mails:
            leaked = named(all_text(msg, ever)) - ever
            assert not leaked, f"{side} email {msg['Subject']} names hidden {leaked}"
        told = json.dumps(pbem.reads.chain(seat)) + "".join(lines) + json.dumps(list(rows.values())) + "".join(
            all_text(m) for m in mails)
        check_hashes(pbem, seat, events, Sight(rules, side), told, mails)
    return checked


def check_hashes(pbem: Application, seat: Seat, events: list, sight: Sight, told: str, mails: list) -> None:
    """Of each event hidden from `seat`, the chain it fetches gives only the salted digest and hash: nothing of
    the payload, and its salt in nothing the seat was told (`told`: every text it got); the digest and hash are
    not those of the true event with no salt, an empty or a guessable one, so even a guess of the true payload
    cannot be confirmed. Every receipt in its mail is the server's for the stored chain."""
    listing = pbem.reads.chain(seat)
    entries = {e["seq"]: e for e in listing["entries"]}
    hidden = 0
    for e in events:
        if sight.event(decode(e.type, e.version, e.payload)) is True:
            continue
        hidden += 1
        entry = entries[e.seq]
        assert set(entry) == {"seq", "hash", "sealed"} and e.salt not in told, (seat.side, e.seq, e.type)
        for salt in ("", "0" * 32):
            guessed = dataclasses.replace(e, salt=salt)
            assert guessed.sealed_digest() != entry["sealed"] and guessed.computed_hash() != entry["hash"]
        assert dataclasses.replace(e, salt=None).computed_hash() != entry["hash"]
    assert hidden, f"nothing is hidden from {seat.side}: the check would check nothing"
    stored = {e.seq: e.hash for e in events}
    for msg in mails:
        found, problems = receipts.found_in(all_text(msg))
        assert len(found) == 1 and not problems and found[0].valid(), msg["Subject"]
        assert stored[found[0].seq] == found[0].hash and found[0].game == seat.game_id


def all_text(msg: EmailMessage, may: set[str] | None = None) -> str:
    """The email's text and its attachments' (a map picture's as `pictured` reads it, given the units that `may`
    be seen; as written, without)."""
    parts = [body_text(msg)]
    for part in msg.iter_attachments():
        text = (part.get_content() if part.get_content_maintype() == "text" else
                part.get_payload(decode=True).decode("utf-8", "replace"))
        parts.append(pictured(text, may) if may is not None and part.get_content_type() == "image/svg+xml" else text)
    return "\n".join(parts)
