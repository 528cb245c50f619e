"""Hostile input (issue 8), one definition for the CI tests and the bench: the input strategies, the worlds they
are thrown at, and the property each input must keep. The tests (tests/reliability/test_hostile_input.py,
test_hostile_email.py, tests/pbem/test_schemathesis.py) run each property with the budget in PROPERTIES;
bench/hostile_inputs.py runs the same ones with a bigger budget and reports inputs tried, failures and time.
"""
from __future__ import annotations

import itertools
import json
import string
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path

from hypothesis import HealthCheck, note, settings
from hypothesis import strategies as st

from app.events.backends import open_store
from app.events.interface import Store
from app.events.registry import EventSchemaError, decode, known_types
from app.mail import inbound
from app.mail.replies import body_text
from app.mail.transport import MailConfig
from app.rules.catalog import installed
from app.rules.errors import OrderError
from app.service import audit, games, transfer
from app.service.application import Application
from app.service.demo import SKIRMISH_OPENING
from tests.outbox import Outbox

CATALOG = installed()  # the rule sets installed here


@dataclass(frozen=True)
class Property:
    name: str
    ci_examples: int  # the CI test's budget (hypothesis max_examples, per operation for the OpenAPI run)


ORDERS = Property("random orders -> parser and rules (skirmish)", 150)
PAYLOADS = Property("random event payloads -> schema decode", 300)
EXPORTS = Property("damaged export files -> import", 150)
EMAIL_BYTES = Property("random bytes -> email ingest", 120)
EMAIL_MESSAGES = Property("forged emails -> email ingest", 120)
EMAIL_MIME = Property("hostile headers and MIME -> email ingest (maildir)", 60)
OPENAPI = Property("OpenAPI requests (schemathesis) -> every operation", 30)
LANGUAGES = Property("hostile orders -> every game's order language and preview", 150)
DEEP_JSON = Property("deeply nested JSON -> every JSON route", 60)
EMAIL_HEADERS = Property("encoded-word and hostile headers -> email ingest", 60)
MAPS = Property("hostile custom maps -> POST /games and the map picture", 20)
UNICODE = Property("text that is not valid Unicode -> every door (API, email, export)", 60)
SPOOFING = Property("line breaks and controls in player-written text -> API and history", 60)
RETRACTIONS = Property("forged retractions -> verify and import", 60)
GAME_IDS = Property("unknown and forbidden games -> the same refusal (API, replay, email)", 60)
STRANGERS = Property("stranger mail (forged From, any game) -> one answer a mailbox a period", 60)
RECEIPTS = Property("forged receipts and signatures -> the receipts check", 150)
STRANGER_REPLAYS = Property("stranger replay reads -> every route of the viewer", 60)
PROPERTIES = (ORDERS, PAYLOADS, EXPORTS, EMAIL_BYTES, EMAIL_MESSAGES, EMAIL_MIME, OPENAPI, LANGUAGES, DEEP_JSON,
              EMAIL_HEADERS, MAPS, RECEIPTS, STRANGER_REPLAYS, UNICODE, SPOOFING, RETRACTIONS, GAME_IDS, STRANGERS)


def ci_budget(prop: Property) -> settings:
    """The CI test's hypothesis settings for a property (fixtures hold a world shared by its examples)."""
    return settings(max_examples=prop.ci_examples, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


# -- orders -------------------------------------------------------------------------------------------------
WORDS = st.sampled_from(["move", "attack", "with", "end", "R1", "r2", "B1", "0202", "0403", "9999", "0000",
                         "", ",", "--", "to", "via", "\u00e9", "0101" * 3, "R1R1"])
ORDER_INPUTS = {
    "order": st.one_of(st.text(max_size=80), st.lists(WORDS, max_size=8).map(" ".join),
                       st.text(alphabet=string.printable, max_size=200)),
    "side": st.sampled_from(["red", "blue", "green", "", "RED"]),
}


def skirmish_world(path: str) -> tuple[Store, str]:
    store = open_store(path)
    game_id = games.create_game(store, CATALOG, "skirmish")
    games.join(store, CATALOG, game_id, "red", "red@example.org", "red text")
    games.join(store, CATALOG, game_id, "blue", "blue@example.org", "blue text")
    return store, game_id


def check_order(store: Store, game_id: str, order: str, side: str) -> None:
    """Refused with a clear error and nothing written, or legal for that side and stored whole."""
    before = store.head(game_id)[0]
    try:
        accepted = games.submit(store, CATALOG, game_id, side, order)
    except OrderError as exc:
        assert str(exc) and store.head(game_id)[0] == before
        return
    assert accepted.events[0].payload["side"] == side


# -- every game's order language ------------------------------------------------------------------------------
# words a hostile player puts where a number, a hex or a unit belongs: digits Python reads as numbers but the
# order languages do not (superscripts, Arabic-Indic, full-width, mathematical), signs, huge and empty values
HOSTILE_WORDS = ["\u00b2", "\u0663", "\u0660\u0662\u0660\u0662", "\uff10\uff12\uff10\uff12", "\U0001d7d8\U0001d7d9",
                 "0\u00b202", "-1", "0", "99999999999999999999", "1e9", "", "\x00", "all", "with", "to", "None"]
ORDER_GAMES = ("skirmish", "snc", "ichigo", "daisenso", "olympic", "formosa")


def _candidates(rules_name: str, game, rng):
    """Orders the game's random players would give here (tests' fuzzers; the engine's legal_orders)."""

    rules = CATALOG.rules(rules_name)
    if rules_name == "snc":
        from tests.snc import snc_randomplay
        return snc_randomplay.candidates(game, rng)
    if rules_name == "ichigo":
        from tests.ichigo import ichigo_randomplay
        return ichigo_randomplay.candidates(game, rng)
    side = rules.prompt(game).side
    found = [o["order"] for o in rules.legal_orders(game, side)]
    rng.shuffle(found)
    return found


def language_world(path: str, orders_per_game: int = 60, every: int = 6) -> dict:
    """For each game: positions along a seeded random game (every `every` orders, up to `orders_per_game`), each
    with the orders its random player would give there and every syntax line of the game:
    {"positions": [(rules, GameState, [orders], [syntax lines])]}."""
    import random

    from app.projections import state as projection

    store = open_store(path)
    positions = []
    for name in ORDER_GAMES:
        rules = CATALOG.rules(name)
        game_id = games.create_game(store, CATALOG, name, auto={})  # every seat a player: both order languages
        for side in rules.sides:
            games.join(store, CATALOG, game_id, side, f"{side}@x.example", side)
        rng = random.Random(name)
        # every order's syntax line, with its slots (N, HEX, UNITS) to be filled by hostile words
        syntaxes = set(_old_syntax(name))
        mine = []
        for n in range(orders_per_game):
            state = projection.load(store, CATALOG, game_id)
            if rules.outcome(state.game) is not None:
                break
            syntaxes.update(a.syntax for a in rules.prompt(state.game).actions)
            tries = list(_candidates(name, state.game, rng))
            if n % every == 0:
                mine.append((name, state, tries[:40]))
            side = rules.prompt(state.game).side
            for text in tries:
                try:
                    games.submit(store, CATALOG, game_id, side, text)
                    break
                except OrderError:
                    continue
        positions += [(name, state, orders, sorted(syntaxes)) for name, state, orders in mine]
    store.close()
    return {"positions": positions}


def _old_syntax(rules_name: str) -> list[str]:
    """Every order SNC and Ichi-Go read, not only those prompted along the way: the syntax lines of their states
    tables (their parsers before the engine's had a table of them)."""
    if rules_name in ("snc", "ichigo"):
        table = CATALOG.rules(rules_name).table
        return [o.grammar.shown for orders in table.orders.values() for o in orders.values()]
    return []


LANGUAGE_INPUTS = {"data": st.data()}


def hostile_order(world: dict, data) -> tuple:
    """(rules, state, side, text): a position, a side, and an order: one of the position's orders with words made
    hostile or one added, a syntax line of the game with its slots filled by hostile words, or junk."""
    name, state, orders, syntaxes = world["positions"][data.draw(st.integers(0, len(world["positions"]) - 1))]
    side = data.draw(st.sampled_from([*state.meta.sides, "nobody"]))
    kind = data.draw(st.sampled_from(["mutate", "append", "syntax", "syntax", "text"]))
    hostile = st.sampled_from(HOSTILE_WORDS) | st.text(max_size=6)
    if kind == "text" or not orders:
        return name, state, side, data.draw(st.text(max_size=60))
    if kind == "syntax":
        words = [w for w in data.draw(st.sampled_from(syntaxes)).replace("[", " ").replace("]", " ").split()
                 if w != "..."]
        real = data.draw(st.sampled_from(orders)).split()
        return name, state, side, " ".join(data.draw(hostile | st.sampled_from(real)) if w.isupper() else w
                                           for w in words)
    words = data.draw(st.sampled_from(orders)).split()
    if kind == "append":
        words.append(data.draw(hostile))
    else:
        for _ in range(data.draw(st.integers(1, 2))):
            words[data.draw(st.integers(0, len(words) - 1))] = data.draw(hostile)
    return name, state, side, " ".join(words)


def check_language_order(world: dict, data) -> None:
    """Any order text in any game, at any position, for any side: accepted, or refused with a clear error (never
    another exception); the same for its preview where the game has one. Nothing is written (the dice are
    SeededDice on a copy of the position)."""
    from app.events import dice
    from app.rules.base import has_preview

    name, state, side, text = hostile_order(world, data)
    note(f"{name} at event {state.meta.seq}, as {side}: {text!r}")
    rules = CATALOG.rules(name)
    try:
        command = games.parse_order(rules, state, side, text)
        games.decide_checked(rules, state, command, dice.SeededDice(next_index=state.meta.rolls, seed="0" * 64,
                                                                    game_id="hostile"))
        if has_preview(rules):
            rules.preview(state.game, command)
    except OrderError as exc:
        assert str(exc)


# -- event payloads -----------------------------------------------------------------------------------------
json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
                           max_leaves=12)
PAYLOAD_INPUTS = {
    "type_": st.sampled_from(known_types()) | st.text(max_size=20),
    "version": st.integers(-2, 5) | st.text(max_size=3),
    "payload": st.dictionaries(st.text(max_size=12), json_values, max_size=6),
}


def check_payload(type_, version, payload) -> None:
    """Decoded, or refused with a schema error that says something: never another exception."""
    try:
        decode(type_, version, payload)
    except EventSchemaError as exc:
        assert str(exc)


# -- export files -------------------------------------------------------------------------------------------
EXPORT_INPUTS = {"data": st.data()}


def exported_lines(path: str) -> list[str]:
    store = open_store(path)
    game_id = games.create_game(store, CATALOG, "skirmish")
    for side, order in SKIRMISH_OPENING:
        games.submit(store, CATALOG, game_id, side, order)
    lines = list(transfer.export_lines(store, game_id))
    store.close()
    return lines


def damage(exported: list[str], data) -> tuple[list[str], str, int] | None:
    """One damage drawn (junk line, changed field, dropped or swapped line, changed character): the damaged
    lines, the kind and the line, or None if the draw changed nothing (e.g. swapped a line with itself)."""
    lines = list(exported)
    i = data.draw(st.integers(0, len(lines) - 1))
    kind = data.draw(st.sampled_from(["junk", "field", "drop", "swap", "char"]))
    if kind == "junk":
        lines[i] = data.draw(st.text(max_size=60)) + "\n"
    elif kind == "field":
        row = json.loads(lines[i])
        key = data.draw(st.sampled_from(sorted(row)))
        value = data.draw(json_values)
        if json.dumps(value) == json.dumps(row[key]):
            return None  # the same value (e.g. causation 2 set to 2): the file is only re-spaced
        row[key] = value
        lines[i] = json.dumps(row) + "\n"
    elif kind == "drop":
        del lines[i]
    elif kind == "swap":
        j = data.draw(st.integers(0, len(lines) - 1))
        lines[i], lines[j] = lines[j], lines[i]
    else:
        pos = data.draw(st.integers(0, len(lines[i]) - 2))
        lines[i] = lines[i][:pos] + data.draw(st.characters(blacklist_categories=["Cs"])) + lines[i][pos + 1:]
    return None if lines == exported else (lines, kind, i)


def check_damaged_export(exported: list[str], other: Store, data) -> None:
    """A damaged export file is refused with a clear error and nothing is written: `other` (the store every
    example imports into) has the games it had."""
    damaged = damage(exported, data)
    if damaged is None:
        return
    lines, kind, i = damaged
    before = other.games()
    try:
        transfer.import_game(other, CATALOG, lines)
    except games.GameError as exc:
        assert str(exc)
        assert other.games() == before
    else:
        raise AssertionError(f"a damaged file ({kind} at line {i}) was imported")


# -- email --------------------------------------------------------------------------------------------------
LINES = st.one_of(
    st.sampled_from(["move R1 0202", "end", "attack 0403 with R1", "undo", "dispute 4: no", "accept dispute 1",
                     "join: hi", "seq: 3", "token: " + "0" * 32, "game: g-00000000", "> quoted", "-- ", ""]),
    st.text(max_size=60),
)
FORGE = ["", "orders@pbem.example", "orders+{game}@pbem.example", "orders+{game}.deadbeef@pbem.example",
         "orders+{game}.{red_token_reversed}@pbem.example", "orders+nogame@pbem.example", "not an address"]
EMAIL_BYTES_INPUTS = {"raw": st.binary(max_size=2000)}
EMAIL_MESSAGE_INPUTS = {
    "to": st.sampled_from(FORGE),
    "subject": st.text(st.characters(blacklist_categories=["Cc", "Cs", "Zl", "Zp"]), max_size=40),
    "lines": st.lists(LINES, max_size=8),
    "sender": st.sampled_from(["red@x.example", "blue@x.example", "eve@evil.example", "", "<>"]),
    "mention_game": st.booleans(),
}


def mail_world(path: str) -> tuple[Application, str, dict, Outbox]:
    store = open_store(path)
    outbox = Outbox()
    # every message answered: these worlds check what an answer says (the stranger limit has a property of its own)
    pbem = Application(store, MailConfig(orders_address="orders@pbem.example", stranger_reply_hours=0), outbox)
    game_id, tokens = pbem.setup.create("skirmish", {"red": "red@x.example", "blue": "blue@x.example"})
    return pbem, game_id, tokens, outbox


def _events(pbem: Application, game_id: str) -> list[tuple[int, str]]:
    return [(e.seq, e.hash) for e in pbem.store.events(game_id)]


def check_email_bytes(world, raw: bytes) -> None:
    """Any bytes: ingest answers (lines to reply with), applies nothing, writes nothing."""
    pbem, game_id, _, _ = world
    before = _events(pbem, game_id)
    result = inbound.ingest(pbem, raw)
    assert result.applied == 0 and result.lines
    assert _events(pbem, game_id) == before


def check_email_message(world, to: str, subject: str, lines: list[str], sender: str, mention_game: bool) -> None:
    """A message without valid credentials (forged reply tags, wrong tokens, junk): refused, nothing written, a
    clear reply to a real sender, and no token in it."""
    pbem, game_id, tokens, outbox = world
    msg = EmailMessage()
    msg["To"] = to.format(game=game_id, red_token_reversed=tokens["red"][::-1])
    msg["From"] = sender
    msg["Subject"] = subject
    body = ([f"game: {game_id}"] if mention_game else []) + lines
    msg.set_content("\n".join(body))
    before, replies = _events(pbem, game_id), len(outbox.sent)
    result = inbound.ingest(pbem, bytes(msg))
    # refused; or, drawn again byte for byte (no Message-ID: its SHA-256 names it), met again: the answer repeated
    assert result.applied == 0 and (result.refused or result.repeated) and result.lines
    assert _events(pbem, game_id) == before
    if sender and "@" in sender:
        assert len(outbox.sent) == replies + 1  # a clear reply went back to the sender
        assert tokens["red"] not in str(outbox.sent[-1]) and tokens["blue"] not in str(outbox.sent[-1])


# hostile headers and bodies, as raw bytes (the email package would not write most of them): encoded words with
# line breaks, NULs and unknown or broken charsets, 8-bit bytes, huge headers, bodies in bad charsets and transfer
# encodings, deep MIME nesting; from red's seat (its reply address) or a stranger, so both reach the order path
CHARSETS = st.sampled_from(["utf-8", "iso-8859-1", "x-no-such-charset", "utf-7", "unknown-8bit", "", "utf-16",
                            "gb2312", "utf-8*en", "us-ascii"])
HEADER_TEXT = st.text(st.characters(blacklist_categories=["Cs"]), max_size=40)


@st.composite
def encoded_word(draw) -> bytes:
    raw = draw(st.one_of(HEADER_TEXT.map(lambda t: t.encode("utf-8")), st.binary(max_size=30),
                         st.sampled_from([b"a\r\nb", b"\x00", b"\r\nBcc: eve@evil.example", b"\xff\xfe"])))
    if draw(st.booleans()):
        body = "".join(f"={b:02X}" for b in raw).encode()
        return b"=?" + draw(CHARSETS).encode() + b"?q?" + body + b"?="
    import base64
    return b"=?" + draw(CHARSETS).encode() + b"?b?" + base64.b64encode(raw)[:draw(st.integers(0, 60))] + b"?="


HEADER_VALUE = st.one_of(encoded_word(), HEADER_TEXT.map(lambda t: t.encode("utf-8", "replace")),
                         st.binary(max_size=40).map(lambda b: b.replace(b"\r", b"").replace(b"\n", b"")),
                         st.lists(encoded_word(), min_size=2, max_size=4).map(b" ".join),
                         st.integers(1000, 60_000).map(lambda n: b"x" * n))
BODY_LINES = st.lists(st.one_of(LINES, st.sampled_from(["seq: \u00b2", "seq: -1", "seq: 99999999999999999999",
                                                         "join: \x00", "move R1 0202\x00", "\u202emove"])),
                      max_size=6)
TRANSFER = st.sampled_from([b"7bit", b"8bit", b"base64", b"quoted-printable", b"x-bogus", b"binary"])
EMAIL_MIME_INPUTS = {
    "headers": st.dictionaries(st.sampled_from(["Message-ID", "Subject", "From", "To", "Cc", "In-Reply-To",
                                                "Content-Type", "X-Junk"]), HEADER_VALUE, max_size=5),
    "from_seat": st.booleans(),
    "lines": BODY_LINES,
    "charset": CHARSETS,
    "transfer": TRANSFER,
    "body_bytes": st.binary(max_size=200),
    "depth": st.one_of(st.integers(0, 3), st.integers(40, 120)),
}


def mime_world(location: str, folder: Path):
    """A game both seats have joined (in the database at `location`), the maildir ingest reads (in `folder`), and
    red's reply address (a real seat)."""
    pbem, game_id, tokens, outbox = mail_world(location)
    for side in ("red", "blue"):
        pbem.setup.join(pbem.seats.authenticate(game_id, tokens[side]), side)
    maildir = folder / "hostile.maildir"
    for sub in ("new", "cur", "tmp"):
        (maildir / sub).mkdir(parents=True, exist_ok=True)
    return pbem, game_id, outbox, str(maildir), pbem.mail.reply_address(game_id, pbem.seats.reply_tag(game_id, "red"))


def hostile_message(red_address: str, headers: dict, from_seat: bool, lines: list[str], charset: str,
                    transfer: bytes, body_bytes: bytes, depth: int) -> bytes:
    head = {"From": b"red@x.example", "To": red_address.encode() if from_seat else b"orders@pbem.example",
            "Subject": b"Re: your turn", **headers}
    text = "\n".join(lines).encode("utf-8", "surrogatepass") + b"\n" + body_bytes
    part = (b"Content-Type: text/plain; charset=\"" + charset.encode() + b"\"\r\nContent-Transfer-Encoding: " +
            transfer + b"\r\n\r\n" + text)
    for level in range(depth):
        boundary = f"b{level}".encode()
        part = (b"Content-Type: multipart/mixed; boundary=" + boundary + b"\r\n\r\n--" + boundary + b"\r\n" + part +
                b"\r\n--" + boundary + b"--\r\n")
    return b"".join(name.encode() + b": " + value + b"\r\n" for name, value in head.items()) + part


def check_hostile_mime(world, **drawn) -> None:
    """Delivered to the maildir and ingested as cron does: ingest does not raise, the message ends processed (out
    of new/, never set aside), a reply goes back to a sender it can read, the game verifies."""
    from app.service import audit

    pbem, game_id, outbox, maildir, red_address = world
    raw = hostile_message(red_address, **drawn)
    before = len(outbox.sent)
    (Path(maildir) / "new" / f"{before}.{abs(hash(raw))}").write_bytes(raw)
    [result] = inbound.ingest_maildir(pbem, maildir)
    assert result.lines and not list((Path(maildir) / "new").iterdir())
    assert not (Path(maildir) / ".quarantine").exists(), result.lines
    if "From" not in drawn["headers"] and result.lines != ["unreadable message"]:
        assert len([m for m in outbox.sent[before:] if m["In-Reply-To"]]) == 1, result.lines
    assert audit.verify(CATALOG, list(pbem.store.events(game_id))).ok


# -- the OpenAPI document (schemathesis) --------------------------------------------------------------------
OPERATOR_KEY = "the-operator-key-of-the-hostile-world"


def openapi_world(path: str, app=None):
    """The app on a new database with a real game, seats and an order; returns (app, schema, world). Pass an
    `app` (from create_app) to add routes of your own before its first request."""
    import schemathesis

    from app.web import create_app

    app = app or create_app({"HEXLEDGER_DB": path, "MAIL_TRANSPORT": Outbox(), "MAIL": MailConfig(),
                             "HEXLEDGER_RATE_LIMIT": "1000000 per minute", "ADMIN_TOKEN": OPERATOR_KEY,
                             "HEXLEDGER_REPLAY_RATE_LIMIT": "1000000 per minute"})
    client = app.test_client()
    r = client.post("/games", json={"rules": "skirmish", "players": {"red": "r@x.example", "blue": "b@x.example"},
                                    "arbiter": "a@x.example"}, headers={"Authorization": f"Bearer {OPERATOR_KEY}"})
    game_id, tokens = r.json["game_id"], r.json["tokens"]
    for seat in ("red", "blue"):
        client.post(f"/games/{game_id}/join", json={"seed_text": seat},
                    headers={"Authorization": f"Bearer {tokens[seat]}"})
    client.post(f"/games/{game_id}/orders", data="move R1 0202", content_type="text/plain",
                headers={"Authorization": f"Bearer {tokens['red']}"})
    world = {"game_id": game_id, "tokens": tokens, "turn": itertools.count()}
    return app, schemathesis.openapi.from_wsgi("/openapi.json", app), world


def openapi_operations(schema) -> list:
    return [result.ok() for result in schema.get_all_operations()]


def check_openapi_case(case, world: dict, app=None) -> None:
    """No 5xx. Three requests in four carry the real game and a real seat's token (red, blue, arbiter in turn;
    the operator's key to create a game), so they reach past the token check; the fourth is as generated. `app`:
    the served app to send it to (default: the one whose document the case was generated from)."""
    from schemathesis.checks import not_a_server_error

    n = next(world["turn"])
    if n % 4:
        if case.path_parameters and "game_id" in case.path_parameters:
            case.path_parameters["game_id"] = world["game_id"]
        seat = ("red", "blue", "arbiter")[n % 3]
        key = OPERATOR_KEY if (case.method.upper(), case.path) == ("POST", "/games") else world["tokens"][seat]
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {key}"}
    case.call_and_validate(checks=[not_a_server_error], **({"app": app} if app is not None else {}))


def check_openapi_case_on_each(case, served: list[tuple]) -> None:
    """check_openapi_case for the same generated request on each served app (app, schema, world) in turn, with
    that world's game and tokens: one generation of the cases (most of the run's CPU) for every backend."""
    generated = (dict(case.path_parameters) if case.path_parameters else case.path_parameters,
                 dict(case.headers) if case.headers else case.headers)
    for app, _, world in served:
        case.path_parameters = dict(generated[0]) if generated[0] else generated[0]
        case.headers = dict(generated[1]) if generated[1] else generated[1]
        check_openapi_case(case, world, app)


# -- deeply nested JSON -------------------------------------------------------------------------------------
DEEP_JSON_INPUTS = {
    "route": st.sampled_from(["/games", "/games/{game}/join", "/games/{game}/orders", "/games/{game}/preview",
                              "/games/{game}/fork", "/games/{game}/disputes", "/games/{game}/disputes/1/answer"]),
    "depth": st.integers(1, 30000),
    "shape": st.sampled_from(["[", '{"a":', '{"order":[', '[{"x":']),
    "credential": st.booleans(),
}


def check_deep_json(world: tuple, route: str, depth: int, shape: str, credential: bool) -> None:
    """Any nesting, any JSON route, with or without a credential: never a 5xx; deeper than the limit, a 400 (or a
    413 when the body is also over the size limit)."""
    app, _, game = world
    path = route.format(game=game["game_id"])
    key = OPERATOR_KEY if route == "/games" else game["tokens"]["red"]
    closing = {"[": "]", '{"a":': "}", '{"order":[': "]}", '[{"x":': "}]"}[shape]
    body = shape * depth + "0" + closing * depth
    r = app.test_client().post(path, data=body, content_type="application/json",
                               headers={"Authorization": f"Bearer {key}"} if credential else {})
    assert r.status_code < 500, (r.status_code, r.get_data(as_text=True)[:200])
    if len(body) > app.config["MAX_CONTENT_LENGTH"]:
        assert r.status_code == 413, r.status_code
    elif depth * (2 if shape in ('{"order":[', '[{"x":') else 1) > app.config["MAX_JSON_DEPTH"]:
        assert r.status_code == 400, r.status_code


# -- hostile email headers ----------------------------------------------------------------------------------
ENCODED = st.sampled_from(["=?utf-8?q?a=0D=0Ab?=", "=?utf-8?q?=00?=", "=?x-unknown?b?QUJD?=", "=?utf-8?b?////?=",
                           "=?utf-8?q?" + "=41" * 400 + "?=", "=?iso-8859-1?q?caf=E9?=", "=?utf-8?B?4pyT?=",
                           "<a@b>", "", "\u00b2", "=?utf-8?q?=E2=80=AE?="])
EMAIL_HEADER_INPUTS = {
    "headers": st.dictionaries(st.sampled_from(["Message-ID", "Subject", "From", "In-Reply-To", "References",
                                                "Content-Type", "Date"]),
                               ENCODED | st.text(st.characters(blacklist_categories=["Cs"]), max_size=30),
                               max_size=5),
    "lines": st.lists(st.sampled_from(["seq: \u00b2", "seq: \u0663", "seq: 99999999999999999999", "move R1 0202",
                                       "end", "join: \u00b2", "undo"]) | LINES, max_size=4),
    "tagged": st.booleans(),
}


def check_email_headers(world, headers: dict, lines: list[str], tagged: bool) -> None:
    """Hostile headers (encoded words with line breaks or NULs, unknown charsets, junk) on a message, from the
    seat's own reply address or not: ingest returns an answer, never raises; without a tag nothing is written."""
    pbem, game_id, _, _ = world
    raw = ["From: red@x.example", f"To: orders+{game_id}." + (pbem.seats.reply_tag(game_id, "red") if tagged else
                                                            "0" * 32) + "@pbem.example"]
    raw += [f"{k}: {v}" for k, v in headers.items() if k != "From"]
    text = ("\r\n".join(raw) + "\r\n\r\n" + "\r\n".join(lines) + "\r\n").encode("utf-8", "surrogateescape")
    before = _events(pbem, game_id)
    result = inbound.ingest(pbem, text)
    assert result.lines
    if not tagged:
        assert _events(pbem, game_id) == before


# -- hostile custom maps ------------------------------------------------------------------------------------
HOSTILE_NAMES = ['x" onload="alert(1)', "<script>alert(1)</script>", "a'b", "&amp;", "]]>", "\u202e", "clear"]
MAP_INPUTS = {
    "size": st.sampled_from([(36, 25), (60, 60), (300, 300), (1000, 1000)]),
    "terrain": st.sampled_from(HOSTILE_NAMES),
    "name": st.sampled_from(HOSTILE_NAMES),
}


def hostile_map(size: tuple[int, int], terrain: str, name: str) -> str:
    """The Ichi-Go map (a game that takes a custom map) grown to `size` (columns, rows), with a terrain of that
    name declared and laid on a hex, and the map named `name`."""
    import re

    text = (Path(__file__).resolve().parents[2] / "app/rules/ichigo/data/map.toml").read_text(encoding="utf-8")
    text = re.sub(r"(?m)^cols = \[.*\]$", f"cols = [1, {size[0]}]", text, count=1)
    text = re.sub(r"(?m)^rows = \[.*\]$", f"rows = [1, {size[1]}]", text, count=1)
    # replacements as functions: a JSON-escaped name ("\u202e") is no template for re.sub
    text = re.sub(r"(?m)^name = .*$", lambda _: f"name = {json.dumps(name)}", text, count=1)
    text = re.sub(r'(?m)^terrain = \["clear", ', lambda _: f'terrain = [{json.dumps(terrain)}, "clear", ', text,
                  count=1)
    return text + f'\n[terrain.override]\n"2005" = {json.dumps(terrain)}\n'


def check_map(world: tuple, size: tuple[int, int], terrain: str, name: str) -> None:
    """A hostile map is refused with a clear 4xx, or its game starts and its map picture is an SVG with no
    script and no event handler: whatever a map names, it never becomes markup."""
    import xml.etree.ElementTree as ET

    app, _, _ = world
    client = app.test_client()
    r = client.post("/games", json={"rules": "ichigo", "map": hostile_map(size, terrain, name),
                                    "players": {"japanese": "j@x.example", "allied": "a@x.example"}},
                    headers={"Authorization": f"Bearer {OPERATOR_KEY}"})
    assert r.status_code < 500, (r.status_code, r.get_data(as_text=True)[:200])
    if r.status_code != 201:
        return
    svg = client.get(f"/replay/{r.json['game_id']}/map/1.svg",
                     headers={"Authorization": f"Bearer {r.json['tokens']['japanese']}"})
    assert svg.status_code == 200
    for element in ET.fromstring(svg.data).iter():
        assert not element.tag.endswith("script"), element.tag
        assert not [a for a in element.attrib if a.lower().startswith("on")], element.attrib


# -- text that is not valid Unicode (issue 25) --------------------------------------------------------------
SURROGATE = st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)
UNICODE_DOORS = ("join name", "join seed text", "dispute reason", "answer note", "order", "preview", "game player",
                 "query", "text body", "email line", "export line")
UNICODE_INPUTS = {
    "door": st.sampled_from(UNICODE_DOORS),
    "text": st.tuples(st.text(st.characters(blacklist_categories=["Cs", "Cc"]), max_size=12), SURROGATE,
                      st.text(st.characters(blacklist_categories=["Cs", "Cc"]), max_size=12)).map("".join),
}


def unicode_world(location: str) -> dict:
    """The served app on a game both seats joined (with an order) and on a game nobody joined, a mail world and an
    export, all on one database."""
    app, _, world = openapi_world(location)
    fresh = app.test_client().post("/games", json={"rules": "skirmish", "players": {"red": "r@x.example",
                                                                                    "blue": "b@x.example"}},
                                   headers={"Authorization": f"Bearer {OPERATOR_KEY}"}).json
    pbem, mail_game, mail_tokens, _ = mail_world(location)
    store = open_store(location)
    return {"app": app, "world": world, "fresh": fresh, "mail": (pbem, mail_game, mail_tokens), "store": store,
            "exported": list(transfer.export_lines(store, world["game_id"]))}


def _unicode_state(world: dict) -> tuple:
    store, games_now = world["store"], [g["id"] for g in world["store"].games()]
    return games_now, [[e.hash for e in store.events(g)] for g in games_now]


def check_unicode(world: dict, door: str, text: str) -> None:
    """Text holding a lone surrogate, at any door: refused where it enters (HTTP 400 naming it; an email refusal,
    the message processed; an export refused by line), never a 5xx or a traceback, and nothing changes."""
    before = _unicode_state(world)
    if door in ("email line", "export line"):
        if door == "email line":
            pbem, game_id, tokens = world["mail"]
            body = f"game: {game_id}\r\ntoken: {tokens['red']}\r\njoin: {text}\r\n".encode("unicode-escape")
            raw = (b"From: red@x.example\r\nTo: orders@pbem.example\r\nMessage-ID: <u-" +
                   str(next(_SEQ)).encode() + b"@x>\r\nContent-Type: text/plain; charset=unicode-escape\r\n\r\n" +
                   body.replace(b"\\r\\n", b"\r\n"))
            result = inbound.ingest(pbem, raw)
            assert result.refused and not result.quarantined and not result.applied, result.lines
            assert any("not valid Unicode" in line for line in result.lines), result.lines
        else:
            lines = list(world["exported"])
            row = json.loads(lines[1])
            row["actor"] = text
            lines[1] = json.dumps(row) + "\n"  # ensure_ascii: the surrogate as JSON's escape, as a forger writes it
            try:
                transfer.import_game(world["store"], CATALOG, lines)
            except games.GameError as exc:
                assert "not valid Unicode" in str(exc), exc
            else:
                raise AssertionError("an export holding a lone surrogate was imported")
        assert _unicode_state(world) == before
        return
    app, game, fresh = world["app"], world["world"], world["fresh"]
    token = {"join name": fresh["tokens"]["red"], "join seed text": fresh["tokens"]["red"], "game player": OPERATOR_KEY,
             "answer note": game["tokens"]["red"]}.get(door, game["tokens"]["blue"])
    body = {"join name": {"seed_text": "dice", "name": text}, "join seed text": {"seed_text": text},
            "dispute reason": {"order_seq": 4, "reason": text}, "answer note": {"accept": False, "note": text},
            "order": {"order": text}, "preview": {"order": text},
            "game player": {"rules": "skirmish", "players": {"red": "r@x.example", text: "b@x.example"}}}.get(door)
    path = {"join name": f"/games/{fresh['game_id']}/join", "join seed text": f"/games/{fresh['game_id']}/join",
            "dispute reason": f"/games/{game['game_id']}/disputes", "order": f"/games/{game['game_id']}/orders",
            "answer note": f"/games/{game['game_id']}/disputes/1/answer",
            "preview": f"/games/{game['game_id']}/preview",
            "game player": "/games", "text body": f"/games/{game['game_id']}/orders",
            "query": f"/games/{game['game_id']}/history?from=" + "".join(f"%{b:02X}" for b in text.encode(
                "utf-8", "surrogatepass"))}[door]
    client, headers = app.test_client(), {"Authorization": f"Bearer {token}"}
    if door == "query":
        r = client.get(path, headers=headers)
    elif door == "text body":
        r = client.post(path, data=text.encode("utf-8", "surrogatepass"), content_type="text/plain", headers=headers)
    else:
        r = client.post(path, data=json.dumps(body), content_type="application/json", headers=headers)
    assert r.status_code == 400, (door, r.status_code, r.get_data(as_text=True)[:200])
    assert "not valid Unicode" in r.json["message"] or "not UTF-8" in r.json["message"], r.json
    assert _unicode_state(world) == before


_SEQ = itertools.count()


# -- line breaks and controls in player-written text (issue 25) ----------------------------------------------
BREAKERS = st.sampled_from(["\n", "\r", "\r\n", "\x85", "\u2028", "\u2029", "\x1b[2J", "\t", "\u202e", "\x0b",
                            "\n    9  player:blue    blue orders: concede"])
SPOOFING_INPUTS = {
    "field": st.sampled_from(["name", "seed text", "reason", "order"]),
    "text": st.one_of(
        st.tuples(st.text(st.characters(blacklist_categories=["Cs"]), max_size=20), BREAKERS,
                  st.text(st.characters(blacklist_categories=["Cs"]), max_size=20)).map("".join),
        st.text(st.characters(blacklist_categories=["Cs", "Cc"]), max_size=300)),
}


def check_spoofing(world: dict, field: str, text: str) -> None:
    """Any text a player writes (a name, a dice text, a dispute's reason, an order): refused (400, or 422 for an
    order) with nothing written when it breaks the rule of app/text.py (one line, bounded), never a 5xx; accepted,
    every line of the game's history is still one line (nothing a player wrote starts a line of its own)."""
    from app.text import TextError, player_text

    app = world["app"]
    client = app.test_client()
    try:
        player_text(text, {"reason": "reason"}.get(field, field))
        breaks = False
    except TextError:
        breaks = True
    if field in ("name", "seed text"):  # a new game each time: a seat joins once
        made = client.post("/games", json={"rules": "skirmish", "players": {"red": "r@x.example",
                                                                            "blue": "b@x.example"}},
                           headers={"Authorization": f"Bearer {OPERATOR_KEY}"}).json
        game_id, token = made["game_id"], made["tokens"]["red"]
        body = {"seed_text": "dice", "name": text} if field == "name" else {"seed_text": text}
        before = [e.hash for e in world["store"].events(game_id)]
        r = client.post(f"/games/{game_id}/join", json=body, headers={"Authorization": f"Bearer {token}"})
    else:
        game_id, token = world["world"]["game_id"], world["world"]["tokens"]["blue"]
        before = [e.hash for e in world["store"].events(game_id)]
        if field == "reason":
            r = client.post(f"/games/{game_id}/disputes", json={"order_seq": 4, "reason": text},
                            headers={"Authorization": f"Bearer {token}"})
        else:
            r = client.post(f"/games/{game_id}/preview", json={"order": text},
                            headers={"Authorization": f"Bearer {token}"})
    assert r.status_code < 500, (field, text, r.status_code, r.get_data(as_text=True)[:200])
    if breaks:
        said = r.json["message"]
        assert r.status_code in (400, 422) and any(x in said for x in ("one line", "at most", "NUL")), (field, r.json)
    elif field == "reason" and r.status_code == 201:  # settle it (the arbiter rules), so the next may be raised
        for seat, accept in (("red", False), ("arbiter", False)):
            client.post(f"/games/{game_id}/disputes/{r.json['id']}/answer", json={"accept": accept},
                        headers={"Authorization": f"Bearer {world['world']['tokens'][seat]}"})
    history = client.get(f"/games/{game_id}/history?limit=1000", headers={"Authorization": f"Bearer {token}"}).json
    for row in history["events"]:
        assert not any(ch in row["text"] for ch in "\n\r\x85\u2028\u2029\x1b\u202e"), row
    if breaks:
        assert [e.hash for e in world["store"].events(game_id)] == before


def spoofing_world(location: str) -> dict:
    app, _, world = openapi_world(location)
    return {"app": app, "world": world, "store": open_store(location)}


# -- forged retractions (issue 25) --------------------------------------------------------------------------
def takeback_world(path: str) -> dict:
    """Two streams the live server writes, on one game each with a known seed (so every roll recomputes): a takeback
    by consent (red disputes their own attack, which rolled a die; blue accepts; red attacks again with the next
    die) and an undo (red takes back a move that rolled nothing, and moves again); each ends with the seed revealed.
    {"consent"|"undo": (events, index of the first takeback event)}."""
    from unittest import mock

    from app.events import core, dice
    from app.events.registry import encode
    from app.events.store import NewEvent

    store = open_store(path)
    out = {}
    for kind in ("consent", "undo"):
        with mock.patch.object(dice, "new_seed", return_value=f"seed of {kind}"):
            game_id = games.create_game(store, CATALOG, "skirmish")
        games.join(store, CATALOG, game_id, "red", "red@example.org", "red text")
        games.join(store, CATALOG, game_id, "blue", "blue@example.org", "blue text")
        opening = SKIRMISH_OPENING if kind == "consent" else SKIRMISH_OPENING[:10]
        for side, order in opening:
            taken = games.submit(store, CATALOG, game_id, side, order).events[0].seq
        head = store.head(game_id)[0]
        if kind == "consent":
            by = "blue (consent, dispute 1 raised by red)"
            batch = [(core.DisputeRaised(dispute=1, order_seq=taken, side="red", reason="misread"), "player:red"),
                     (core.DisputeAnswered(dispute=1, by="blue", status="accepted"), "player:blue"),
                     (core.Retracted(from_seq=taken, to_seq=head + 1, reason="dispute 1: misread", by=by), by)]
        else:
            by = "player:red (undo)"
            batch = [(core.Retracted(from_seq=taken, to_seq=head, reason="undo", by=by), by)]
        first = store.append(game_id, head, [NewEvent(*encode(b), a) for b, a in batch])[0].seq
        for side, order in SKIRMISH_OPENING[len(opening) - 1:]:
            games.submit(store, CATALOG, game_id, side, order)
        games.reveal_seed(store, CATALOG, game_id, "arbiter request")
        events = list(store.events(game_id))
        assert audit.verify(CATALOG, events, check_dice=True).ok
        out[kind] = (events, first - 1)
    store.close()
    return out


# one change to a field of a takeback that says who may retract what (never its free text: reasons, notes)
TAKEBACK_EDITS = {
    "consent": [("Retracted", "by", ["arbiter (ruling, dispute 1 raised by red)", "red (consent, dispute 1 raised by "
                                     "red)", "blue (consent, dispute 2 raised by red)", "blue (consent, dispute 1 "
                                     "raised by blue)", "player:red (undo)", "player:blue (undo)", "arbiter", "blue"]),
                ("Retracted", "from_seq", None), ("Retracted", "to_seq", None),
                ("Retracted", "actor", ["player:blue", "arbiter", "server"]),
                ("DisputeAnswered", "by", ["red", "arbiter", "green"]),
                ("DisputeAnswered", "status", ["upheld", "rejected", "referred"]),
                ("DisputeAnswered", "dispute", [2, 0]), ("DisputeAnswered", "actor", ["player:red", "arbiter"]),
                ("DisputeRaised", "side", ["blue", "arbiter", "green"]), ("DisputeRaised", "dispute", [2, 0]),
                ("DisputeRaised", "order_seq", None), ("DisputeRaised", "actor", ["player:blue", "arbiter"])],
    "undo": [("Retracted", "by", ["player:blue (undo)", "blue (consent, dispute 1 raised by red)", "arbiter",
                                  "player:green (undo)"]),
             ("Retracted", "from_seq", None), ("Retracted", "to_seq", None),
             ("Retracted", "actor", ["player:blue (undo)", "arbiter", "player:red"])],
}
RETRACTION_INPUTS = {"data": st.data()}


def forged_takeback(world: dict, data) -> tuple[list, str]:
    """A takeback of `world` with one authority field changed (or none: "as written"), the stream sealed again."""
    import dataclasses

    from tests.forgery import reseal

    kind = data.draw(st.sampled_from(["consent", "undo"]))
    events, first = world[kind]
    if data.draw(st.integers(0, 9)) == 0:
        return events, f"{kind}: as written"
    type_, field, values = data.draw(st.sampled_from(TAKEBACK_EDITS[kind]))
    at = next(i for i in range(first, len(events)) if events[i].type == f"core.{type_}")
    old = events[at].actor if field == "actor" else events[at].payload[field]
    if values is None:  # a sequence number: any other event of the stream before the takeback
        new = data.draw(st.integers(1, events[at].seq - 1).filter(lambda n: n != old))
    else:
        new = data.draw(st.sampled_from([v for v in values if v != old]))
    edited = dataclasses.replace(events[at], actor=new) if field == "actor" else dataclasses.replace(
        events[at], payload={**events[at].payload, field: new})
    return reseal([*events[:at], edited, *events[at + 1:]]), f"{kind}: {type_}.{field} = {new!r}"


def check_forged_retraction(world: dict, other: Store, data) -> None:
    """A takeback as the live server writes it verifies (dice included); the same with any one field that says who
    may retract what changed is reported by `verify --dice` and refused whole by `import`."""
    events, what = forged_takeback(world, data)
    report = audit.verify(CATALOG, events, check_dice=True)
    if what.endswith("as written"):
        assert report.ok, (what, report.problems)
        return
    assert not report.ok, what
    before = other.games()
    try:
        transfer.import_game(other, CATALOG, [json.dumps(e.to_dict()) for e in events])
    except games.GameError:
        assert other.games() == before
    else:
        raise AssertionError(f"a forged takeback ({what}) was imported")


# -- unknown and forbidden games (issue 25) -------------------------------------------------------------------
GAME_ID_ROUTES = ("GET /games/{g}", "GET /games/{g}/state", "GET /games/{g}/history", "GET /games/{g}/actions",
                  "POST /games/{g}/orders", "POST /games/{g}/preview", "POST /games/{g}/join", "POST /games/{g}/undo",
                  "GET /games/{g}/export", "GET /games/{g}/verify", "GET /games/{g}/disputes",
                  "POST /games/{g}/fork", "GET /replay/{g}/frames.json", "GET /replay/{g}/map/1.svg",
                  "GET /replay/{g}/analysis.json", "GET /replay/{g}/charts/luck.svg", "GET /replay/{g}/",
                  "GET /replay/{g}/?key=" + "3" * 32, "POST /replay/{g}/", "email")
GAME_ID_INPUTS = {
    "route": st.sampled_from(GAME_ID_ROUTES),
    "credential": st.sampled_from(["none", "another game's token", "random"]),
    "unknown": st.one_of(st.from_regex(r"g-[0-9a-f]{8}", fullmatch=True),
                         st.text(string.ascii_letters + string.digits + "-_.", min_size=1, max_size=20).filter(
                             lambda t: t.strip("."))),  # "." and ".." are no ids: a path segment of their own
}


def game_ids_world(location: str) -> dict:
    """A running game (its seats joined, an order given), a token of another game, and a mail world."""
    app, _, world = openapi_world(location)
    other = app.test_client().post("/games", json={"rules": "skirmish", "players": {"red": "r@x.example",
                                                                                    "blue": "b@x.example"}},
                                   headers={"Authorization": f"Bearer {OPERATOR_KEY}"}).json
    pbem, mail_game, _, outbox = mail_world(location)
    return {"app": app, "game_id": world["game_id"], "other_token": other["tokens"]["red"],
            "mail": (pbem, mail_game, outbox)}


def check_game_ids(world: dict, route: str, credential: str, unknown: str) -> None:
    """A game that does not exist is refused exactly as a game the caller has no seat in (status and words, its id
    aside), at every door: no answer tells a stranger which ids exist; never a 5xx."""
    if unknown in (world["game_id"], world["mail"][1]):
        return
    token = {"none": None, "another game's token": world["other_token"], "random": "4" * 32}[credential]
    if route == "email":
        pbem, known, outbox = world["mail"]
        bodies = []
        for game in (known, unknown):
            n = next(_SEQ)
            raw = (f"From: eve{n}@y.example\r\nTo: orders@pbem.example\r\nMessage-ID: <g{n}@x>\r\n\r\ngame: {game}\r\n"
                   + (f"token: {token}\r\n" if token else "") + "end\r\n").encode()
            result = inbound.ingest(pbem, raw)
            assert result.refused and not result.applied and not result.quarantined, result.lines
            bodies.append(body_text(outbox.sent[-1]).replace(f"<g{n}@x>", "MID"))
        assert bodies[0].replace(known, unknown) == bodies[1], bodies  # the known id is unique in its answer
        return
    method, _, path = route.partition(" ")
    client = world["app"].test_client()
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    answers = []
    for game in (world["game_id"], unknown):
        r = client.open(path.format(g=game), method=method, headers=headers,
                        **({"data": {"token": token or ""}} if path.startswith("/replay") and method == "POST" else
                           {"json": {}}))
        assert r.status_code < 500, (route, game, r.status_code)
        answers.append((r.status_code, r.get_data(as_text=True)))
    known = (answers[0][0], answers[0][1].replace(world["game_id"], unknown))  # the known id is unique in its answer
    assert known == answers[1], (route, credential, answers)


# -- stranger mail (issue 25) -----------------------------------------------------------------------------------
STRANGER_INPUTS = {
    "messages": st.lists(st.tuples(
        st.sampled_from(["victim@y.example", "Victim@Y.Example", "victim+{n}@y.example", "other@y.example",
                         "third+x@z.example", "red@x.example"]),
        st.sampled_from(["game: {game}", "game: g-00000000", "game: {game}\ntoken: " + "5" * 32, "end", "",
                         "game: {game}\ntoken: {red}\nundo"])), min_size=1, max_size=8),
}


def strangers_world(location: str) -> dict:
    """A mail world whose stranger limit is on (one answer an hour a mailbox) and whose clock stands still."""
    from datetime import UTC, datetime

    store = open_store(location)
    outbox = Outbox()
    pbem = Application(store, MailConfig(orders_address="orders@pbem.example"), outbox,
                       clock=lambda: datetime(2026, 11, 29, 12, 0, tzinfo=UTC))
    game_id, tokens = pbem.setup.create("skirmish", {"red": "red@x.example", "blue": "blue@x.example"})
    return {"pbem": pbem, "game_id": game_id, "tokens": tokens, "outbox": outbox}


def check_strangers(world: dict, messages: list[tuple[str, str]]) -> None:
    """Any run of messages, forged From addresses and games: every one ends processed, nothing of a stranger's is
    written, each stranger's mailbox has had at most one answer (the clock stands still: one period), and every
    message that opens a seat is answered."""
    def mailbox(address: str) -> str:  # the person an address reaches: case and a +tag make no other one
        local, _, domain = address.rpartition("@")
        return f"{local.partition('+')[0]}@{domain}".lower()

    pbem, outbox = world["pbem"], world["outbox"]
    for sender, lines in messages:
        n = next(_SEQ)
        body = lines.format(game=world["game_id"], red=world["tokens"]["red"]).replace("\n", "\r\n")
        sent = len(outbox.sent)
        result = inbound.ingest(pbem, (f"From: {sender.format(n=n)}\r\nTo: orders@pbem.example\r\nMessage-ID: "
                                       f"<st{n}@x>\r\n\r\n{body}\r\n").encode())
        assert not result.quarantined and pbem.store.mail_processed(f"<st{n}@x>"), result.lines
        if result.seat is not None:
            assert len(outbox.sent) == sent + 1 or any("already" in x for x in result.lines), result.lines
        else:
            assert result.applied == 0
    answered: dict[str, int] = {}
    for m in outbox.sent:
        if m["In-Reply-To"] and str(m["To"]) != "red@x.example":
            answered[mailbox(str(m["To"]))] = answered.get(mailbox(str(m["To"])), 0) + 1
    assert all(n == 1 for n in answered.values()), answered


# -- forged receipts (issue 31) -------------------------------------------------------------------------------
def receipts_world(location: str, folder: Path) -> dict:
    """A skirmish game by email, four orders in; the red player's mail (an mbox in `folder`), the chain as an
    honest server gives it, and the server's key."""
    from app.service import evidence

    outbox = Outbox()
    pbem = Application(open_store(location), MailConfig(orders_address="orders@pbem.example"), outbox)
    game_id, _ = pbem.setup.create("skirmish", {"red": "red@x.example", "blue": "blue@x.example"})
    seats = {s: pbem.seats.authenticate_tag(game_id, pbem.seats.reply_tag(game_id, s)) for s in ("red", "blue")}
    for seat in seats.values():
        pbem.setup.join(seat, seat.seat)
    for side, order in SKIRMISH_OPENING[:4]:
        pbem.orders.submit(seats[side], order)
    box = folder / "red.mbox"
    with box.open("wb") as fh:
        for msg in outbox.sent:
            if msg["To"] == "red@x.example":
                fh.write(b"From hexledger Mon Jan  1 00:00:00 2030\n" + msg.as_bytes().replace(b"\nFrom ", b"\n>From ")
                         + b"\n")
    honest = evidence.gather(box)
    return {"pbem": pbem, "game_id": game_id, "seat": seats["red"], "box": box, "folder": folder,
            "honest": honest, "listing": pbem.reads.chain(seats["red"]), "key": pbem.reads.receipt_keys()["current"]}


B64 = string.ascii_letters + string.digits + "-_"
SMALL_ORDER_KEYS = ["ed25519:AQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",  # the identity: OpenSSL accepts (R=1, S=0)
                    "ed25519:7P____________________________________8",  # order 2
                    "ed25519:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",  # order 4
                    "ed25519:JuiVj8KyJ7BFw_SJ8u-Y8NXfrAXTxjM5sTgCiG1T_AU"]  # order 8
UNIVERSAL_SIG = "AQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
RECEIPT_INPUTS = {"data": st.data()}


def hostile_receipt(world: dict, data) -> tuple[str, bytes]:
    """(file name, bytes): a receipt of the game forged or damaged one way (a field changed, a signature of
    another statement or key, a key of small order with the signature that passes under it, junk between the
    markers), as an email's text block or as JSON."""
    from app.events.receipts import BEGIN, END, FORMAT, Receipt, Signer

    honest = world["honest"].receipts
    base = data.draw(st.sampled_from(honest)).to_dict()
    kind = data.draw(st.sampled_from(["field", "resigned", "small-order", "replayed", "junk", "json"]))
    if kind == "field":
        name = data.draw(st.sampled_from(["game", "seq", "hash", "key", "sig"]))
        base[name] = data.draw({
            "game": st.text(max_size=20), "seq": st.one_of(st.integers(-5, 10**20), st.booleans(), st.text(max_size=5)),
            "hash": st.one_of(st.text(alphabet="0123456789abcdef", min_size=64, max_size=64), st.text(max_size=70)),
            "key": st.one_of(st.text(alphabet=B64, min_size=43, max_size=43).map(lambda t: "ed25519:" + t),
                             st.text(max_size=60)),
            "sig": st.one_of(st.text(alphabet=B64, min_size=86, max_size=86), st.text(max_size=100)),
        }[name])
    elif kind == "resigned":  # a well-made receipt of another key: the statement of the player's choosing
        forged = Signer.generate().sign(world["game_id"], data.draw(st.integers(1, 40)),
                                        data.draw(st.text(alphabet="0123456789abcdef", min_size=64, max_size=64)))
        base = forged.to_dict()
    elif kind == "small-order":
        base.update(key=data.draw(st.sampled_from(SMALL_ORDER_KEYS)), sig=UNIVERSAL_SIG,
                    hash=data.draw(st.text(alphabet="0123456789abcdef", min_size=64, max_size=64)))
    elif kind == "replayed":  # a real signature moved onto another statement
        other = data.draw(st.sampled_from(honest))
        base.update(seq=data.draw(st.integers(1, 40)), sig=other.sig)
    if kind == "json":
        return "forged.json", json.dumps({**base, "format": data.draw(st.sampled_from([FORMAT, "x"]))}).encode()
    if kind == "junk":
        body = f"{BEGIN}\n{data.draw(st.text(max_size=300))}\n{END}\n"
    else:
        body = Receipt(**{k: base[k] for k in ("game", "seq", "hash", "key", "sig")}).text() if all(
            isinstance(base[k], str) for k in ("game", "hash", "key", "sig")) else f"{BEGIN}\nseq: {base['seq']}\n{END}"
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "server@x.example", "red@x.example", "a receipt"
    msg.set_content(f"Your receipt:\n{body}\n")
    return "forged.eml", msg.as_bytes()


def check_hostile_receipt(world: dict, data) -> None:
    """A forged or damaged receipt among a player's mail is unreadable or rejected, never an error, and never
    makes the honest chain look rewritten: no difference, every honest receipt still matched. Checked against the
    server's key, and against none (then only a receipt of a large-order key that signs its own statement is
    taken: one of the player's making, which shows only what the player signed)."""
    from app.events.receipts import public_key
    from app.service import evidence

    name, raw = hostile_receipt(world, data)
    path = world["folder"] / name
    path.write_bytes(raw)
    try:
        kept = evidence.gather(world["folder"])
    finally:
        path.unlink()
    honest = len(world["honest"].receipts)
    trusted = evidence.check_listing(world["listing"], kept, [world["key"]])
    note(f"{name}: {raw[:400]!r}; {trusted.to_dict()}")
    assert not trusted.differences and trusted.receipts >= honest + 1  # the listing's own receipt counts too
    signed = {r.message() for r in world["honest"].receipts}
    for r in kept.receipts:  # what the server's key passes is a statement the server made, in a copy
        if r.key == world["key"] and r.valid():
            assert r.message() in signed or r.seq == trusted.head, r
    anyone = evidence.check_listing(world["listing"], kept, [])
    for difference in anyone.differences:  # only from a receipt signed by a real key of the player's
        forged = [r for r in kept.receipts if r not in world["honest"].receipts]
        assert forged and all(r.valid() and public_key(r.key) for r in forged), difference


# -- stranger replay reads (issue 25) -----------------------------------------------------------------------
REPLAY_INPUTS = {
    "game": st.one_of(st.sampled_from(["running", "finished", "other"]), st.from_regex(r"\Ag-[0-9a-f]{8}\Z")),
    "route": st.sampled_from(["", "frames.json", "map/{seq}.svg", "analysis.json", "charts/{chart}.svg"]),
    "seq": st.integers(0, 5000),
    "chart": st.sampled_from(["losses", "luck", "odds", "control", "x"]),
    "credential": st.sampled_from(["none", "junk bearer", "other game's token", "junk cookie", "other game's key"]),
    "query": st.dictionaries(st.sampled_from(["views", "from", "limit", "as", "key"]),
                             st.one_of(st.sampled_from(["1", "0", "red", "all", "-1", "99999"]), st.text(max_size=8)),
                             max_size=3),
}


def replay_world(path: str, undos: int = 30) -> dict:
    """The app on a new database with a running skirmish game of `undos` move+undo cycles (a stranger's replay of it
    used to build the whole game, each retraction refolding from event 1), a finished game, and another game whose
    token and replay key open nothing in the running one."""
    import random

    from app.web import create_app
    from tests.conftest import play_random

    app = create_app({"HEXLEDGER_DB": path, "MAIL_TRANSPORT": Outbox(), "MAIL": MailConfig(),
                      "HEXLEDGER_RATE_LIMIT": "1000000 per minute", "ADMIN_TOKEN": OPERATOR_KEY,
                      "HEXLEDGER_REPLAY_RATE_LIMIT": "1000000 per minute"})
    client = app.test_client()
    made = {}
    for name in ("running", "finished", "other"):
        r = client.post("/games", json={"rules": "skirmish", "players": {"red": "r@x.example", "blue": "b@x.example"}},
                        headers={"Authorization": f"Bearer {OPERATOR_KEY}"})
        made[name] = (r.json["game_id"], r.json["tokens"])
        for seat in ("red", "blue"):
            client.post(f"/games/{made[name][0]}/join", json={"seed_text": seat},
                        headers={"Authorization": f"Bearer {made[name][1][seat]}"})
    running, tokens = made["running"]
    for _ in range(undos):
        client.post(f"/games/{running}/orders", json={"order": "move R1 0202"},
                    headers={"Authorization": f"Bearer {tokens['red']}"})
        client.post(f"/games/{running}/undo", headers={"Authorization": f"Bearer {tokens['red']}"})
    store = open_store(path)
    play_random(store, made["finished"][0], random.Random(3))
    store.close()
    other = made["other"][0]
    return {"app": app, "games": {k: v[0] for k, v in made.items()}, "other_token": made["other"][1]["red"],
            "other_key": app.extensions["hexledger_service"]().seats.replay_key(other, "red")}


def check_stranger_replay(world: dict, game: str, route: str, seq: int, chart: str, credential: str,
                          query: dict) -> None:
    """Whatever a stranger asks of the viewer: never a 5xx; a running game is refused (401 without a credential,
    403 with one that opens no seat) and nothing of it is built or kept; an unknown game gets the same refusal, so
    no answer tells which game ids exist."""
    from urllib.parse import urlencode

    from app.service import replays

    game_id = world["games"].get(game, game)
    path = f"/replay/{game_id}/" + route.format(seq=seq, chart=chart) + (f"?{urlencode(query)}" if query else "")
    client = world["app"].test_client()
    headers = {"junk bearer": {"Authorization": "Bearer 0123456789abcdef0123456789abcdef"},
               "other game's token": {"Authorization": f"Bearer {world['other_token']}"}}.get(credential, {})
    cookie = {"junk cookie": "0" * 32, "other game's key": world["other_key"]}.get(credential)
    if cookie is not None:
        client.set_cookie("hexledger_replay", cookie, path=f"/replay/{game_id}/")
    r = client.get(path, headers=headers)
    note(f"{path} as {credential}: {r.status_code} {r.get_data(as_text=True)[:200]}")
    assert r.status_code < 500, r.status_code
    if game == "running":
        assert r.status_code in (400, 401, 403), r.status_code
        assert not [key for key in list(replays.KEPT._entries) if key[1] == game_id], "a refused read built it"
    elif game not in world["games"]:
        assert r.status_code in (400, 401, 403), r.status_code
