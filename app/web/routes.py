"""The API's routes. Each game route authenticates its token for that game, then asks the service as that seat."""
from __future__ import annotations

import functools
import hashlib
from typing import NamedTuple

from flask import Response, abort, current_app, request
from marshmallow import Schema, fields, validate
from werkzeug.http import parse_etags

from app.numbers import LARGEST
from app.service.application import DEADLINE_ACTIONS, Application, Seat
from app.service.errors import AccessDenied, NotAuthenticated
from app.web import ApiError, authenticated, bearer, is_operator
from app.web.blueprint import ApiBlueprint
from app.web.boards import BoardOrder, BoardPlay
from app.web.declared import keep_declared

blp = ApiBlueprint("games", __name__, description="Play-by-email games")
SECURED = [{"token": []}]


# every route that writes: the database could not take the write (locked, disk full); nothing was written
UNAVAILABLE = blp.alt_response(503, schema=ApiError, description="the database cannot take the write now (locked, or "
                               "the disk is full); nothing was written: try again after Retry-After seconds")


def returns(code: int, schema, description: str = "", content_type: str = "application/json",
            own_response: bool = False):
    """Document a response body (`schema`: a Schema class or instance, or a plain OpenAPI schema dict) and, for a
    schema, answer only what it declares (app/web/declared.py: any other key of the service's answer is dropped;
    values are not converted). A route answering a Response (a conditional read) cuts its body itself; one that
    always does (`own_response`) is only documented."""
    body = {"schema": schema}
    document = blp.doc(responses={str(code): {"description": description or "OK", "content": {content_type: body}}})
    if isinstance(schema, dict) or own_response:
        return document
    cut = keep_declared(schema)

    def decorate(func):
        @functools.wraps(func)
        def route(*args, **kwargs):
            answer = func(*args, **kwargs)
            return answer if isinstance(answer, Response) else cut(answer)

        return document(route)

    return decorate


def svc() -> Application:
    return current_app.extensions["hexledger_service"]()


def operator() -> None:
    """The caller holds the operator's key, or the server is open to all (OPEN_GAME_CREATION); with neither,
    creating games is closed."""
    settings = current_app.config["SETTINGS"]
    if not settings.admin_token:
        if settings.open_game_creation:
            return
        raise AccessDenied("creating games is closed on this server: its operator has set no key "
                           "(HEXLEDGER_ADMIN_TOKEN, or `cli.py serve --admin-token-file`)")
    if not bearer():
        raise NotAuthenticated("creating a game needs the operator's key: 'Authorization: Bearer <key>'")
    if not is_operator():
        raise AccessDenied("this is not the operator's key")


def seat(game_id: str) -> Seat:
    return authenticated(game_id)


class JsonBody(NamedTuple):
    data: bytes
    etag: str  # as the ETag header carries it: quoted, W/ before a weak one
    tag: str  # the same without quotes or W/: what If-None-Match is compared with


def _digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def json_body(obj) -> JsonBody:
    """An answer's bytes as jsonify writes them, and its entity tag (a digest of exactly those bytes). Module-level:
    the service keeps what it renders per renderer (`Reads.view_now`)."""
    data = current_app.json.response(obj).get_data()
    tag = _digest(data)
    return JsonBody(data, f'"{tag}"', tag)


def svg_body(svg: str, shown: str) -> JsonBody:
    """A map picture's bytes and a weak entity tag made from what it shows (`shown`: the picture without its title,
    which names the event it was drawn after; RFC 9110 8.8.1: the pictures of two events are equivalent while they
    show the same), so a conditional GET gets 304 while the seat's picture stays the same as the game goes on.
    Module-level, for `Reads.map_now`."""
    tag = _digest(shown.encode("utf-8"))
    return JsonBody(svg.encode("utf-8"), f'W/"{tag}"', tag)


def conditional(body: JsonBody, content_type: str = "application/json") -> Response:
    """200 with the body and its ETag, or 304 without a body when the request's If-None-Match names that ETag
    (compared weakly, RFC 9110 13.1.2). `private, no-cache`: a browser may keep the answer but asks again each
    time; a shared cache never keeps it."""
    asked = request.environ.get("HTTP_IF_NONE_MATCH")  # request.headers' own lookup, without its key's rewriting
    unchanged = asked is not None and parse_etags(asked).contains_weak(body.tag)
    return Response(None if unchanged else body.data, status=304 if unchanged else 200,
                    headers={"ETag": body.etag, "Cache-Control": "private, no-cache"},
                    content_type=content_type)


# -- schemas ----------------------------------------------------------------------------------------------
class CreateGame(Schema):
    rules = fields.String(required=True, metadata={"example": "skirmish"})
    scenario = fields.String(load_default=None)
    players = fields.Dict(keys=fields.String(), values=fields.Email(), required=True,
                          metadata={"description": "side -> email address", "example": {"red": "r@example.org",
                                                                                         "blue": "b@example.org"}})
    arbiter = fields.Email(load_default=None)
    deadline_hours = fields.Float(load_default=None, validate=validate.Range(min=0, min_inclusive=False))
    reminder_hours = fields.Float(load_default=None, validate=validate.Range(min=0, min_inclusive=False))
    dispute_window_hours = fields.Float(load_default=24, validate=validate.Range(min=0))
    on_deadline = fields.String(load_default="notify-arbiter", validate=validate.OneOf(DEADLINE_ACTIONS), metadata={
        "description": "when a clock runs out: tell the arbiter (or both players), pass for the late side, or the "
                       "late side loses (forfeit)"})
    bank_hours = fields.Float(load_default=None, validate=validate.Range(min=0, min_inclusive=False), metadata={
        "description": "a time bank instead of a fixed deadline: the hours each side starts with "
                       "(docs/play-by-email.md, Clocks)"})
    increment_hours = fields.Float(load_default=None, validate=validate.Range(min=0), metadata={
        "description": "hours added to a side's bank after each of its turns"})
    max_hours = fields.Float(load_default=None, validate=validate.Range(min=0, min_inclusive=False), metadata={
        "description": "the most a bank may hold"})
    vacation_days = fields.Integer(load_default=None, validate=validate.Range(min=0, max=60), metadata={
        "description": "vacation days each player may take (their clock stops meanwhile); default 0"})
    map = fields.String(load_default=None, metadata={
        "description": "a custom map: the text of a TOML map file (docs/map-format.md)"})
    position = fields.Dict(load_default=None, metadata={
        "description": "a custom starting position (docs/custom-positions.md): turn, phase, units per hex, ..."})
    optional = fields.List(fields.String(validate=validate.Length(min=1, max=10)), load_default=None,
                           validate=validate.Length(max=20), metadata={
        "description": "the optional rules to play with, recorded in the game's first event (Formosa: '25.1' to "
                       "'25.10', docs/orders/formosa.md); a rule set without optional rules refuses them",
        "example": ["25.1", "25.6"]})
    auto = fields.List(fields.String(validate=validate.Length(min=1, max=80)), load_default=None,
                       validate=validate.Length(max=8), metadata={
        "description": "the sides the server plays, as 'side' or 'side:policy' (GET /rules lists the policies); "
                       "they take no player. Left out: the rule set's own (Olympic: japanese); [] for none",
        "example": ["japanese"]})


def custom_options(body: dict) -> dict:
    """A custom map and position (app/rules/custom_setup.py) and the optional rules chosen travel in the game's
    options."""
    options = {k: body[k] for k in ("map", "position") if body.get(k) is not None}
    return {**options, **({"optional": body["optional"]} if body.get("optional") else {})}


class Created(Schema):
    game_id = fields.String()
    tokens = fields.Dict(keys=fields.String(), values=fields.String(),
                         metadata={"description": "seat -> token; shown only here and in each invitation"})


class Join(Schema):
    seed_text = fields.String(load_default="", validate=validate.Length(max=200), metadata={
        "description": "your text, mixed into every later die roll: a client makes a random one; if none is sent, "
                       "the server makes one and answers with it"})
    name = fields.String(load_default=None)


class Order(Schema):
    order = fields.String(required=True, metadata={"example": "move R1 0202"})
    expected_seq = fields.Integer(load_default=None, validate=validate.Range(min=1, max=LARGEST), metadata={
        "description": "refuse (409) if the game has moved past this event"})


# the body of an order (POST .../orders) and of its preview (POST .../preview)
ORDER_BODY = {"required": True, "content": {
    "application/json": {"schema": Order},
    "text/plain": {"schema": {"type": "string", "example": "move R1 0202"}}}}


ORDER = Order()  # a schema object loads any number of bodies; made once, not a request


def order_body() -> tuple[str, int | None]:
    """The order text and its expected_seq, from a JSON body ({"order", "expected_seq"}) or a plain-text one. A body
    that is already what the schema loads it to (the order a string, expected_seq absent, null or an integer in its
    range, no other key) is taken as it is (`_plain_order`); any other goes through the schema, which converts or
    refuses it as it always did (issue 26: the schema's load was a twentieth of a submit's route)."""
    if request.mimetype == "application/json":
        given = request.get_json(force=True, silent=False) or {}
        plain = _plain_order(given)
        if plain is not None:
            return plain
        body = ORDER.load(given)
        return body["order"], body["expected_seq"]
    return request.get_data(as_text=True), None


def _plain_order(given) -> tuple[str, int | None] | None:
    """(order, expected_seq) of a JSON body the Order schema would load unchanged, else None."""
    if type(given) is not dict:
        return None
    order, expected = given.get("order"), given.get("expected_seq")
    if type(order) is not str or len(given) != 1 + ("expected_seq" in given):  # no key the schema does not know
        return None
    if expected is None or (type(expected) is int and 1 <= expected <= LARGEST):
        return order, expected
    return None


class OrderQuery(Schema):
    expected_seq = fields.Integer(load_default=None, validate=validate.Range(min=1, max=LARGEST))
    report = fields.Boolean(load_default=False, metadata={
        "description": "also answer with `report`: what your turn email would say now (your turn and every order "
                       "you may give by kind, or who is to act and why)"})


class Talk(Schema):
    text = fields.String(required=True, validate=validate.Length(min=1, max=20000), metadata={
        "description": "table talk: one line, or several separated by line breaks (each one line of at most 500 "
                       "characters, at most 20 lines)", "example": "Good luck, and may the dice be kind!"})
    to = fields.String(load_default="all", validate=validate.OneOf(["all", "arbiter"]), metadata={
        "description": "every seat (all), or the arbiter only (and you)"})


class ActionsQuery(Schema):
    naming = fields.String(load_default=None, validate=validate.Length(min=1, max=64), metadata={
        "description": "a unit's id or a hex: legal_orders is then every order you may give now that names it (a "
                       "unit's moves and the attacks it may join, the orders aimed at a hex), not a sample",
        "example": "jp-d3-r6"})


class AtQuery(Schema):
    at = fields.Integer(load_default=None, validate=validate.Range(min=1, max=LARGEST))


class GamesQuery(Schema):
    after = fields.String(load_default=None, validate=validate.Length(max=64),
                          metadata={"description": "the last game id of the previous page (its next_after)"})
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=200))


class HistoryQuery(Schema):
    from_seq = fields.Integer(data_key="from", load_default=1, validate=validate.Range(min=1, max=LARGEST))
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=1000))


class Fork(Schema):
    at = fields.Integer(required=True, validate=validate.Range(min=1, max=LARGEST))
    invite = fields.Boolean(load_default=True, metadata={
        "description": "the arbiter's fork: invite each seat at its address in the game (the default), or keep "
                       "the fork to yourself (false: every seat yours, nobody told); a player's fork of a finished "
                       "game is always their own"})


class BoardOpen(Schema):
    at = fields.Integer(load_default=None, validate=validate.Range(min=1),
                        metadata={"description": "after this event (default: the game's last); whole orders only"})


class BoardEdit(Schema):
    unit = fields.String(required=True, validate=validate.Length(min=1, max=64))
    changes = fields.Dict(keys=fields.String(validate=validate.Length(min=1, max=64)), required=True,
                          validate=validate.Length(min=1, max=20),
                          metadata={"description": "field -> value: hex, steps, strength... of the unit"})


class BoardPlayed(Schema):
    orders = fields.List(fields.String(), metadata={"description": "the orders the policy gave, in turn"})


class BoardRow(Schema):
    seq = fields.Integer()
    type = fields.String()
    actor = fields.String()
    text = fields.String()


class Dispute(Schema):
    order_seq = fields.Integer(required=True, validate=validate.Range(min=1, max=LARGEST),
                               metadata={"description": "the disputed order's event number"})
    reason = fields.String(required=True, validate=validate.Length(min=1, max=2000))


class StandingBody(Schema):
    orders = fields.Dict(keys=fields.String(validate=validate.Length(min=1, max=40)),
                         values=fields.List(fields.String(validate=validate.Length(max=1000)),
                                            validate=validate.Length(max=20)),
                         required=True, validate=validate.Length(min=1, max=40), metadata={
        "description": "kind -> clauses, tried in order (docs/play-by-email.md, Standing orders); an empty list or "
                       "[\"ask\"] takes a kind's standing order away",
        "example": {"losses": ["keep cn-d36", "weakest"], "retreat": ["toward 0202"], "intercept": ["ask"]}})
    expected_seq = fields.Integer(load_default=None, validate=validate.Range(min=1, max=LARGEST))


class Vacation(Schema):
    days = fields.Integer(required=True, validate=validate.Range(min=1, max=60))


class DrawBody(Schema):
    action = fields.String(required=True, validate=validate.OneOf(("offer", "accept", "decline")))


class Answer(Schema):
    accept = fields.Boolean(required=True, metadata={
        "description": "player: accept (take back) or reject; arbiter: uphold or reject"})
    note = fields.String(load_default="")


# -- response bodies (documentation: what each answer holds) ----------------------------------------------
class RuleSet(Schema):
    name = fields.String()
    title = fields.String()
    version = fields.String()
    sides = fields.List(fields.String())
    scenarios = fields.Dict(keys=fields.String(), values=fields.String())
    preview = fields.Boolean(metadata={"description": "POST /games/{game_id}/preview is offered"})
    policies = fields.List(fields.String(), metadata={"description": "the automated seats' policies"})
    policy_about = fields.Dict(keys=fields.String(), values=fields.String(),
                               metadata={"description": "what each policy is, by name"})
    automated_seats = fields.List(fields.String())


class GameRow(Schema):
    game_id = fields.String()
    rules = fields.String()
    scenario = fields.String()
    created_at = fields.String()
    events = fields.Integer()
    parent = fields.String(allow_none=True, metadata={"description": "with the operator's key only"})


class GamesPage(Schema):
    games = fields.List(fields.Nested(GameRow))
    next_after = fields.String(allow_none=True)


class ReceiptDoc(Schema):
    format = fields.String(metadata={"example": "hexledger-receipt/1"})
    game = fields.String()
    seq = fields.Integer()
    hash = fields.String(metadata={"description": "the hash of event `seq`, which commits to every event before it"})
    key = fields.String(metadata={"description": "the server's Ed25519 public key, ed25519:<base64url>"})
    sig = fields.String(metadata={"description": "base64url Ed25519 signature (docs/core.md, Receipts)"})


RECEIPT = fields.Nested(ReceiptDoc, allow_none=True, metadata={
    "description": "the server's signed receipt for the game's history up to here: keep it (docs/core.md, Receipts)"})


class ChainEntry(Schema):
    seq = fields.Integer()
    hash = fields.String(metadata={"description": "absent for an old event hidden from you"})
    sealed = fields.String(metadata={"description": "the salted digest of the event's body (none for an old event)"})


class ChainDoc(Schema):
    game_id = fields.String()
    entries = fields.List(fields.Nested(ChainEntry))
    receipt = RECEIPT


class ChainQuery(Schema):
    from_seq = fields.Integer(data_key="from", load_default=1, validate=validate.Range(min=1, max=LARGEST))


class ReceiptKeys(Schema):
    format = fields.String()
    algorithm = fields.String()
    current = fields.String(metadata={"description": "the key signing receipts now, ed25519:<base64url>"})
    retired = fields.List(fields.String(), metadata={"description": "earlier keys: their receipts still count"})
    receipt = fields.String(metadata={"description": "what a receipt's signature is over"})


class Joined(Schema):
    seq = fields.Integer()
    side = fields.String()
    seed_text = fields.String(metadata={"description": "your text, as mixed into the dice"})
    receipt = RECEIPT


class ActionDoc(Schema):
    name = fields.String()
    syntax = fields.String(metadata={"example": "move UNIT HEX [HEX ...]"})
    case = fields.String()
    help = fields.String()
    subjects = fields.String(allow_none=True, metadata={
        "description": "what its orders are given to, plural (\"units\", \"hexes\", \"counters\"): their "
                       "`subject` in legal_orders; null where an order is given to a number or a word"})


class Candidate(Schema):
    id = fields.String(metadata={"description": "a unit, a hex, or a choice"})
    value = fields.String(metadata={"description": "its strength and steps, or why it is offered"})


class OwedDoc(Schema):
    what = fields.String()
    where = fields.String(allow_none=True)
    amount = fields.String(allow_none=True, metadata={"example": "at least 1 unit(s), none more than needed"})
    candidates = fields.List(fields.Nested(Candidate))
    text = fields.String(metadata={"description": "all of it, as the turn email prints it"})


class LegalOrder(Schema):
    order = fields.String(metadata={"example": "attack 3511 with jp-d3-r6 support air"})
    action = fields.String()
    case = fields.String()
    odds = fields.String(metadata={"description": "a combat order's final odds column"})
    odds_note = fields.String(metadata={
        "description": "what may still change that column before the die, where the rules say (Dai Senso: "
                       "\"before the defender's Ranged Support\", which the defender declares after the attack)"})
    subject = fields.List(fields.String(), metadata={
        "description": "what the order is given to: its units, or the hexes it attacks (left out for an order "
                       "given to no unit or hex)"})
    at = fields.List(fields.String(), metadata={
        "description": "the hexes the order is aimed at, where a map marks it: a move's destination, an attack's "
                       "hexes (left out for an order that names no hex)"})


class OrderKind(Schema):
    action = fields.String()
    syntax = fields.String()
    case = fields.String()
    help = fields.String()
    orders = fields.List(fields.Nested(LegalOrder), metadata={"description": "each can be given as written"})
    subjects = fields.String(allow_none=True, metadata={"example": "units"})
    count = fields.Integer(allow_none=True, metadata={"description": "how many subjects the kind may still take"})
    unchecked = fields.Integer(metadata={"description": "candidates of this kind not tried: there may be more "
                                                        "orders than listed; every one is in `GET .../actions?naming=` "
                                                        "of the kind's subjects (each named in `orders`)"})


class Outcome(Schema):
    winner = fields.String(allow_none=True)
    reason = fields.String()


class PromptDoc(Schema):
    seq = fields.Integer()
    to_act = fields.String(allow_none=True)
    step = fields.String()
    your_turn = fields.Boolean()
    waiting_for_players = fields.List(fields.String())
    outcome = fields.Nested(Outcome, allow_none=True)
    actions = fields.List(fields.Nested(ActionDoc), metadata={"description": "the kinds of order you may give"})
    owed = fields.Nested(OwedDoc, allow_none=True, metadata={
        "description": "what the decision the game waits for owes: where, how much, the candidates"})
    kinds = fields.List(fields.Nested(OrderKind), metadata={
        "description": "the orders you may give now by kind, in the order the step offers them: every unit that "
                       "may be placed, moved or brought in is named, with how many each kind may still take"})
    legal_orders = fields.List(fields.Nested(LegalOrder), metadata={
        "description": "the same orders in one list, each accepted by the rules"})


class DisputeDoc(Schema):
    id = fields.Integer()
    game_id = fields.String()
    order_seq = fields.Integer()
    raised_by = fields.String()
    reason = fields.String()
    status = fields.String(metadata={"example": "open"})
    raised_at = fields.String()
    raised_seq = fields.Integer()
    resolved_by = fields.String(allow_none=True)
    resolved_at = fields.String(allow_none=True)
    note = fields.String(allow_none=True)
    retraction_seq = fields.Integer(allow_none=True)
    receipt = RECEIPT


class SummaryDoc(PromptDoc):
    game_id = fields.String()
    you = fields.String()
    disputes = fields.List(fields.Nested(DisputeDoc))


class ViewDoc(Schema):
    game_id = fields.String()
    seq = fields.Integer()
    you = fields.String()
    players = fields.Dict(keys=fields.String(), values=fields.String())
    view = fields.Dict(metadata={"description": "the position as you may see it (the rule set's view)"})


VIEW = keep_declared(ViewDoc)


def view_body(view: dict) -> JsonBody:
    """The state read's answer: the seat's view as ViewDoc declares it, its bytes and entity tag (module-level:
    `Reads.view_now` keeps what it renders per renderer)."""
    return json_body(VIEW(view))


class HistoryLine(Schema):
    seq = fields.Integer()
    at = fields.String()
    actor = fields.String()
    type = fields.String()
    text = fields.String()
    retracted = fields.Boolean(metadata={"description": "taken back (an undo or an upheld dispute): its text "
                                                        "begins with [retracted]"})


class HistoryPage(Schema):
    events = fields.List(fields.Nested(HistoryLine))
    next_from = fields.Integer(allow_none=True)


class OrderDone(Schema):
    accepted = fields.Boolean()
    seq = fields.Integer()
    events = fields.List(fields.Nested(HistoryLine), metadata={
        "description": "the events of your order and of any automated seat's answer, as you may see them"})
    view = fields.Dict()
    receipt = RECEIPT
    report = fields.Dict(metadata={"description": "with ?report=true: what your turn email would say now (history "
                                                  "from your order on, your turn and orders by kind, or who acts)"})


class Said(Schema):
    seq = fields.Integer()
    to = fields.String()
    lines = fields.List(fields.String())
    receipt = RECEIPT


class PreviewDoc(Schema):
    order = fields.String()
    seq = fields.Integer()
    preview = fields.Dict(metadata={"description": "strengths with each unit's modifiers, odds, shifts with "
                                                   "their cases, the result of each die, and always: `text`; "
                                                   "`previewed`: false for an order the rules draw no preview of "
                                                   "(an SNC advance, a move), with `case` and `why`; `legal`: "
                                                   "true, the order may be given now as it stands (null out of "
                                                   "turn); `planning`: true when it is not your turn for this "
                                                   "order"})


class VerifyDoc(Schema):
    game_id = fields.String()
    ok = fields.Boolean()
    first_bad_seq = fields.Integer(allow_none=True, metadata={"description": "the first event that differs"})
    events = fields.Integer()
    orders_replayed = fields.Integer(metadata={"description": "orders re-run through the rules"})
    rolls_checked = fields.Integer(metadata={"description": "die rolls recomputed from the revealed seed"})
    rolls_unchecked = fields.Integer(metadata={"description": "die rolls not recomputed (the seed not revealed)"})
    dice_notes = fields.List(fields.String())
    problems = fields.List(fields.Dict(), metadata={"description": "seq, check and message of each (a player "
                                                                   "reads only seq and check)"})


class StandingKind(Schema):
    orders = fields.List(fields.String(), metadata={"description": "the orders of this kind, written out"})
    words = fields.List(fields.String(), metadata={"description": "the preferences a clause may use"})


class StandingDoc(Schema):
    side = fields.String()
    standing = fields.Dict(keys=fields.String(), values=fields.List(fields.String()), metadata={
        "description": "your standing orders in force: kind -> clauses (only you see them)"})
    lines = fields.List(fields.String(), metadata={"description": "the same, as the lines that set them"})
    kinds = fields.Dict(keys=fields.String(), values=fields.Nested(StandingKind), metadata={
        "description": "the kinds of decision that may stand in this game"})
    seq = fields.Integer(metadata={"description": "the event that set them (PUT)"})
    events = fields.List(fields.Nested(HistoryLine), metadata={
        "description": "(PUT) that event and the orders the server gave with them at once, as you may see them"})
    receipt = RECEIPT


class ClockDoc(Schema):
    side = fields.String(allow_none=True)
    clock = fields.String(allow_none=True, metadata={"description": "your clock in words, as the turn email says"})
    bank_hours = fields.Float(allow_none=True)
    increment_hours = fields.Float()
    max_hours = fields.Float(allow_none=True)
    vacation_days = fields.Integer()
    vacation_days_used = fields.Integer()
    draw_offer = fields.String(allow_none=True, metadata={"description": "the side whose draw offer stands"})
    takes_draw_offers = fields.Boolean(metadata={
        "description": "false where the other side is played by the server, which takes no draw offer"})
    on_timeout = fields.String(allow_none=True)


class ClockDone(Schema):
    seq = fields.Integer()
    done = fields.String()
    receipt = RECEIPT


class Undone(Schema):
    retraction_seq = fields.Integer()
    undone = fields.Integer()
    receipt = RECEIPT


def receipted(game_id: str, answer: dict) -> dict:
    """An answer to a write, with the signed receipt for the game's head (the order's answer has its own)."""
    return {**answer, "receipt": svc().reads.receipt(game_id)}


# -- routes -----------------------------------------------------------------------------------------------
@blp.route("/rules", methods=["GET"])
@blp.response(200)
@returns(200, RuleSet(many=True))
def list_rules():
    """The rule sets this server runs"""
    return svc().reads.rule_sets()


@blp.route("/games", methods=["GET"])
@blp.arguments(GamesQuery, location="query")
@blp.response(200)
@returns(200, GamesPage)
@blp.doc(security=[{"operator": []}, {}])
def list_games(args):
    """Games on this server, a page at a time: finished games (their replays are open to anyone); with the
    operator's key, every game. Public facts only: rules, scenario, event count, never a player's address"""
    everything = is_operator()
    rows = svc().reads.games(args["after"], args["limit"] + 1, finished_only=not everything)
    shown = ("game_id", "rules", "scenario", "created_at", "events", *(("parent",) if everything else ()))
    page = [{k: g[k] for k in shown} for g in rows[:args["limit"]]]
    return {"games": page, "next_after": page[-1]["game_id"] if len(rows) > args["limit"] else None}


@blp.route("/games", methods=["POST"])
@UNAVAILABLE
@blp.arguments(CreateGame)
@blp.response(201, Created)
@blp.doc(security=[{"operator": []}])
def create_game(body):
    """Create a game (needs the operator's key as the bearer); each seat gets its token in its invitation email
    (and once, here)"""
    operator()
    game_id, tokens = svc().setup.create(body["rules"], body["players"], body["scenario"], body["arbiter"],
                                   body["deadline_hours"], body["reminder_hours"], body["dispute_window_hours"],
                                   options=custom_options(body), on_deadline=body["on_deadline"], auto=body["auto"],
                                   bank_hours=body["bank_hours"], increment_hours=body["increment_hours"],
                                   max_hours=body["max_hours"], vacation_days=body["vacation_days"])
    return {"game_id": game_id, "tokens": tokens}


@blp.route("/games/<game_id>/join", methods=["POST"])
@UNAVAILABLE
@blp.arguments(Join)
@blp.response(201)
@returns(201, Joined, "Created")
@blp.doc(security=SECURED)
def join(body, game_id):
    """Take your seat, adding your own text to every later die roll"""
    return receipted(game_id, svc().setup.join(seat(game_id), body["seed_text"], body["name"]))


@blp.route("/games/<game_id>", methods=["GET"])
@blp.response(200)
@returns(200, SummaryDoc)
@blp.doc(security=SECURED)
def summary(game_id):
    """Where the game stands for you: whose turn, your legal actions, open disputes"""
    s = seat(game_id)
    service = svc()
    return {"game_id": game_id, "you": s.seat, **service.reads.prompt(s),
            "disputes": [d for d in service.reads.disputes(game_id) if d["status"] in ("open", "referred")]}


@blp.route("/games/<game_id>/state", methods=["GET"])
@blp.arguments(AtQuery, location="query")
@blp.own_response(200)
@returns(200, ViewDoc, own_response=True)
@blp.doc(security=SECURED)
def state(args, game_id):
    """Your view of the position, now or after event `at` (fog of war applied)

    The answer carries an ETag: sent back as If-None-Match, it gets 304 and no body while the position is unchanged"""
    s = seat(game_id)
    reads = svc().reads
    return conditional(reads.view_now(s, view_body) if args["at"] is None else view_body(reads.view(s, args["at"])))


@blp.route("/games/<game_id>/map.svg", methods=["GET"])
@blp.own_response(200)
@returns(200, {"type": "string", "description": "an SVG document"}, "the map now, as you see it", "image/svg+xml")
@blp.alt_response(404, schema=ApiError, description="these rules draw no map")
@blp.doc(security=SECURED)
def map_now(game_id):
    """The map of the position now as you see it (fog of war applied), the picture the turn emails and the replay
    viewer draw

    The answer carries an ETag: sent back as If-None-Match, it gets 304 and no body while the picture is unchanged"""
    picture = svc().reads.map_now(seat(game_id), svg_body)
    if picture is None:
        abort(404, "these rules draw no map")
    return conditional(picture, "image/svg+xml")


@blp.route("/games/<game_id>/actions", methods=["GET"])
@blp.arguments(ActionsQuery, location="query")
@blp.response(200)
@returns(200, PromptDoc)
@blp.doc(security=SECURED)
def actions(args, game_id):
    """Your legal actions now, with their syntax (empty when it is not your turn); `naming`: every legal order that
    names one unit or hex"""
    return svc().reads.prompt(seat(game_id), args["naming"])


@blp.route("/games/<game_id>/orders", methods=["POST"])
@UNAVAILABLE
@blp.arguments(OrderQuery(), location="query")  # one schema object for every request
@blp.response(201)
@returns(201, OrderDone, "Created")
@blp.alt_response(409, schema=ApiError, description="expected_seq is behind the game: reload and try again")
@blp.alt_response(422, schema=ApiError, description="the order is refused; `case` names the rule")
@blp.doc(security=SECURED, requestBody=ORDER_BODY)
def submit(args, game_id):
    """Give an order in the game's order language (plain text, or JSON {"order", "expected_seq"})"""
    s = seat(game_id)
    text, expected = order_body()
    expected = args["expected_seq"] if args["expected_seq"] is not None else expected
    return svc().orders.order(s, text, expected, report=args["report"])


@blp.route("/games/<game_id>/messages", methods=["POST"])
@UNAVAILABLE
@blp.arguments(Talk)
@blp.response(201)
@returns(201, Said, "Created")
@blp.doc(security=SECURED)
def say(body, game_id):
    """Table talk: a message to every seat, or to the arbiter only; stored in the game's history as you wrote it,
    it changes nothing in the game (docs/play-by-email.md, "Table talk")"""
    return svc().talk.say(seat(game_id), body["text"].splitlines(), body["to"])


@blp.route("/games/<game_id>/history", methods=["GET"])
@blp.arguments(HistoryQuery, location="query")
@blp.response(200)
@returns(200, HistoryPage)
@blp.doc(security=SECURED)
def game_history(args, game_id):
    """The game's history as you may see it, a page at a time; retracted events are marked"""
    return svc().reads.history(seat(game_id), args["from_seq"], args["limit"])


@blp.route("/games/<game_id>/preview", methods=["POST"])
@blp.response(200)
@returns(200, PreviewDoc)
@blp.alt_response(422, schema=ApiError, description="the order is refused, as it would be if given now (a legal "
                  "order with no preview is a 200 with `previewed` false)")
@blp.doc(security=SECURED, requestBody=ORDER_BODY)
def preview(game_id):
    """What an order would do (strengths, odds, each shift, the result for each die roll), without rolling: the
    same bodies as /orders; refused as the order would be now; a legal order the rules draw no preview of is said
    to be legal, with no preview; out of turn too, for planning"""
    text, _ = order_body()
    return svc().orders.preview(seat(game_id), text)


@blp.route("/games/<game_id>/fork", methods=["POST"])
@UNAVAILABLE
@blp.arguments(Fork)
@blp.response(201, Created)
@blp.doc(security=SECURED)
def fork(body, game_id):
    """A branch after event `at` (arbiter; players once the game is over, as their own sandbox); the arbiter's
    fork invites each seat unless `invite` is false"""
    new_id, tokens = svc().setup.fork(seat(game_id), body["at"], body["invite"])
    return {"game_id": new_id, "tokens": tokens}


@blp.route("/games/<game_id>/boards", methods=["POST"])
@UNAVAILABLE
@blp.arguments(BoardOpen)
@blp.response(201, Created)
@blp.doc(security=SECURED)
def open_board(body, game_id):
    """An analysis board on the game after event `at` (the arbiter; players once the game is over): a sandbox of
    the caller's own where dice are chosen, units edited and any policy plays either side (docs/replay.md); the
    caller gets every seat's token for it"""
    board_id, tokens = svc().boards.open(seat(game_id), body["at"])
    return {"game_id": board_id, "tokens": tokens}


@blp.route("/games/<game_id>/board/orders", methods=["POST"])
@UNAVAILABLE
@blp.arguments(BoardOrder)
@blp.response(201, BoardRow(many=True))
@blp.alt_response(422, schema=ApiError, description="the order is refused; `case` names the rule")
@blp.doc(security=SECURED)
def board_order(body, game_id):
    """An order for either side on an analysis board, with the dice you choose"""
    return svc().boards.order(seat(game_id), body["side"], body["order"], body["dice"])


@blp.route("/games/<game_id>/board/edit", methods=["POST"])
@UNAVAILABLE
@blp.arguments(BoardEdit)
@blp.response(201, BoardRow(many=True))
@blp.doc(security=SECURED)
def board_edit(body, game_id):
    """Set fields of a unit on an analysis board ("what if this division had been at full strength")"""
    return svc().boards.edit(seat(game_id), body["unit"], body["changes"])


@blp.route("/games/<game_id>/board/play", methods=["POST"])
@UNAVAILABLE
@blp.arguments(BoardPlay)
@blp.response(201, BoardPlayed)
@blp.doc(security=SECURED)
def board_play(body, game_id):
    """Let a policy give a side's next orders on an analysis board (the orders given)"""
    return {"orders": svc().boards.play(seat(game_id), body["side"], body["policy"], body["orders"])}


@blp.route("/games/<game_id>/export", methods=["GET"])
@blp.response(200, description="JSON Lines: the whole stream (arbiter, or after the game), else your view")
@returns(200, {"type": "string", "description": "one event a line, as JSON"},
         "JSON Lines: the whole stream (arbiter, or after the game), else your view", "application/x-ndjson")
@blp.doc(security=SECURED)
def export(game_id):
    """The game as JSON Lines"""
    lines, full = svc().reads.export(seat(game_id))
    return Response("".join(lines), mimetype="application/x-ndjson",
                    headers={"Content-Disposition": f"attachment; filename={game_id}.jsonl",
                             "X-Hexledger-Export": "full" if full else "filtered"})


@blp.route("/games/<game_id>/verify", methods=["GET"])
@blp.response(200)
@returns(200, VerifyDoc)
@blp.doc(security=SECURED)
def verify(game_id):
    """Audit: hash chain intact and every order re-run through the rules"""
    return svc().reads.verify(seat(game_id))


@blp.route("/games/<game_id>/chain", methods=["GET"])
@blp.arguments(ChainQuery, location="query")
@blp.response(200)
@returns(200, ChainDoc)
@blp.doc(security=SECURED)
def chain(args, game_id):
    """The chain of hashes up to now, no payload (hashes only, salted digests), with the signed receipt for its
    head: check the receipts you kept against it (`cli.py receipts check`)"""
    return svc().reads.chain(seat(game_id), args["from_seq"])


@blp.route("/.well-known/hexledger-receipts", methods=["GET"])
@blp.response(200)
@returns(200, ReceiptKeys)
def receipt_keys():
    """The server's receipt keys: the one signing now and every earlier one (their receipts still count)"""
    return svc().reads.receipt_keys()


@blp.route("/games/<game_id>/standing", methods=["GET"])
@blp.response(200)
@returns(200, StandingDoc)
@blp.doc(security=SECURED)
def standing_orders(game_id):
    """Your standing orders in force, and the kinds of decision that may stand in this game"""
    return svc().standing.show(seat(game_id))


@blp.route("/games/<game_id>/standing", methods=["PUT"])
@UNAVAILABLE
@blp.arguments(StandingBody)
@blp.response(200)
@returns(200, StandingDoc)
@blp.alt_response(409, schema=ApiError, description="expected_seq is behind the game: reload and try again")
@blp.doc(security=SECURED)
def set_standing_orders(body, game_id):
    """Set standing orders, in your own turn: the server answers those decisions for you when they are asked
    (kept until changed; hidden from the other side)"""
    return receipted(game_id, svc().standing.set(seat(game_id), body["orders"], body["expected_seq"]))


@blp.route("/games/<game_id>/clock", methods=["GET"])
@blp.response(200)
@returns(200, ClockDoc)
@blp.doc(security=SECURED)
def clock(game_id):
    """Your clock: the deadline or time bank, vacation days left, a draw offer standing"""
    return svc().clocks.show(seat(game_id))


@blp.route("/games/<game_id>/vacation", methods=["POST"])
@UNAVAILABLE
@blp.arguments(Vacation)
@blp.response(201)
@returns(201, ClockDone, "Created")
@blp.doc(security=SECURED)
def vacation(body, game_id):
    """Take vacation days (within the game's allowance): your clock stops meanwhile"""
    return receipted(game_id, svc().clocks.vacation(seat(game_id), body["days"]))


@blp.route("/games/<game_id>/resign", methods=["POST"])
@UNAVAILABLE
@blp.response(201)
@returns(201, ClockDone, "Created")
@blp.doc(security=SECURED)
def resign(game_id):
    """Resign: the other side wins, the game is over and its dice seed revealed"""
    return receipted(game_id, svc().clocks.resign(seat(game_id)))


@blp.route("/games/<game_id>/draw", methods=["POST"])
@UNAVAILABLE
@blp.arguments(DrawBody)
@blp.response(201)
@returns(201, ClockDone, "Created")
@blp.doc(security=SECURED)
def draw(body, game_id):
    """Offer a draw, or accept or decline the other side's offer (accepted, the game ends in a draw)"""
    return receipted(game_id, svc().clocks.draw(seat(game_id), body["action"]))


@blp.route("/games/<game_id>/undo", methods=["POST"])
@UNAVAILABLE
@blp.response(201)
@returns(201, Undone, "Created")
@blp.doc(security=SECURED)
def undo(game_id):
    """Take back your latest order, before your opponent has seen it (never a die roll or a reveal)"""
    return receipted(game_id, svc().orders.undo(seat(game_id)))


@blp.route("/games/<game_id>/disputes", methods=["GET"])
@blp.response(200)
@returns(200, DisputeDoc(many=True))
@blp.doc(security=SECURED)
def disputes(game_id):
    """The game's disputes and how they were settled"""
    seat(game_id)
    return svc().reads.disputes(game_id)


@blp.route("/games/<game_id>/disputes", methods=["POST"])
@UNAVAILABLE
@blp.arguments(Dispute)
@blp.response(201)
@returns(201, DisputeDoc, "Created")
@blp.doc(security=SECURED)
def raise_dispute(body, game_id):
    """Dispute a recent order (within the game's window), with a reason"""
    return receipted(game_id, svc().disputes.raise_dispute(seat(game_id), body["order_seq"], body["reason"]))


@blp.route(f"/games/<game_id>/disputes/<int(max={LARGEST}):dispute_id>/answer", methods=["POST"])
@UNAVAILABLE
@blp.arguments(Answer)
@blp.response(200)
@returns(200, DisputeDoc)
@blp.doc(security=SECURED)
def answer_dispute(body, game_id, dispute_id):
    """The other player accepts (takeback) or rejects (to the arbiter); the arbiter upholds or rejects"""
    return receipted(game_id, svc().disputes.answer_dispute(seat(game_id), dispute_id, body["accept"], body["note"]))
