"""The API's routes. Each game route authenticates its token for that game, then asks the service as that seat."""
from __future__ import annotations

from flask import Response, current_app, request
from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate

from app.service.games import rule_sets
from app.service.pbem import DEADLINE_ACTIONS, AccessDenied, NotAuthenticated, Pbem, Seat
from app.web import authenticated, bearer, is_operator

blp = Blueprint("games", __name__, description="Play-by-email games")
SECURED = [{"token": []}]
# every route that writes: the database could not take the write (locked, disk full); nothing was written
UNAVAILABLE = blp.alt_response(503, description="the database cannot take the write now (locked, or the disk is "
                               "full); nothing was written: try again after Retry-After seconds")


def svc() -> Pbem:
    return current_app.extensions["hexledger_service"]()


def operator() -> None:
    """The caller holds the operator's key, or the server is open to all (OPEN_GAME_CREATION); with neither,
    creating games is closed."""
    if not current_app.config.get("ADMIN_TOKEN"):
        if current_app.config.get("OPEN_GAME_CREATION"):
            return
        raise AccessDenied("creating games is closed on this server: its operator has set no key "
                           "(HEXLEDGER_ADMIN_TOKEN, or `cli.py serve --admin-token-file`)")
    if not bearer():
        raise NotAuthenticated("creating a game needs the operator's key: 'Authorization: Bearer <key>'")
    if not is_operator():
        raise AccessDenied("this is not the operator's key")


def seat(game_id: str) -> Seat:
    return authenticated(game_id)


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
        "description": "when a move deadline passes: tell the arbiter (or both players), or pass for the late side"})
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
    expected_seq = fields.Integer(load_default=None, metadata={
        "description": "refuse (409) if the game has moved past this event"})


class OrderQuery(Schema):
    expected_seq = fields.Integer(load_default=None)


class AtQuery(Schema):
    at = fields.Integer(load_default=None, validate=validate.Range(min=1))


class GamesQuery(Schema):
    after = fields.String(load_default=None, validate=validate.Length(max=64),
                          metadata={"description": "the last game id of the previous page (its next_after)"})
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=200))


class HistoryQuery(Schema):
    from_seq = fields.Integer(data_key="from", load_default=1, validate=validate.Range(min=1))
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=1000))


class Fork(Schema):
    at = fields.Integer(required=True, validate=validate.Range(min=1))


class Preview(Schema):
    order = fields.String(required=True, metadata={"example": "attack 0502 with R1"})


class Dispute(Schema):
    order_seq = fields.Integer(required=True, metadata={"description": "the disputed order's event number"})
    reason = fields.String(required=True, validate=validate.Length(min=1, max=2000))


class Answer(Schema):
    accept = fields.Boolean(required=True, metadata={
        "description": "player: accept (take back) or reject; arbiter: uphold or reject"})
    note = fields.String(load_default="")


# -- routes -----------------------------------------------------------------------------------------------
@blp.route("/rules", methods=["GET"])
@blp.response(200)
def list_rules():
    """The rule sets this server runs"""
    return rule_sets()


@blp.route("/games", methods=["GET"])
@blp.arguments(GamesQuery, location="query")
@blp.response(200)
@blp.doc(security=[{"operator": []}, {}])
def list_games(args):
    """Games on this server, a page at a time: finished games (their replays are open to anyone); with the
    operator's key, every game. Public facts only: rules, scenario, event count, never a player's address"""
    everything = is_operator()
    rows = svc().games(args["after"], args["limit"] + 1, finished_only=not everything)
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
    game_id, tokens = svc().create(body["rules"], body["players"], body["scenario"], body["arbiter"],
                                   body["deadline_hours"], body["reminder_hours"], body["dispute_window_hours"],
                                   options=custom_options(body), on_deadline=body["on_deadline"], auto=body["auto"])
    return {"game_id": game_id, "tokens": tokens}


@blp.route("/games/<game_id>/join", methods=["POST"])
@UNAVAILABLE
@blp.arguments(Join)
@blp.response(201)
@blp.doc(security=SECURED)
def join(body, game_id):
    """Take your seat, adding your own text to every later die roll"""
    return svc().join(seat(game_id), body["seed_text"], body["name"])


@blp.route("/games/<game_id>", methods=["GET"])
@blp.response(200)
@blp.doc(security=SECURED)
def summary(game_id):
    """Where the game stands for you: whose turn, your legal actions, open disputes"""
    s = seat(game_id)
    service = svc()
    return {"game_id": game_id, "you": s.seat, **service.prompt(s),
            "disputes": [d for d in service.disputes(game_id) if d["status"] in ("open", "referred")]}


@blp.route("/games/<game_id>/state", methods=["GET"])
@blp.arguments(AtQuery, location="query")
@blp.response(200)
@blp.doc(security=SECURED)
def state(args, game_id):
    """Your view of the position, now or after event `at` (fog of war applied)"""
    return svc().view(seat(game_id), args["at"])


@blp.route("/games/<game_id>/actions", methods=["GET"])
@blp.response(200)
@blp.doc(security=SECURED)
def actions(game_id):
    """Your legal actions now, with their syntax (empty when it is not your turn)"""
    return svc().prompt(seat(game_id))


@blp.route("/games/<game_id>/orders", methods=["POST"])
@UNAVAILABLE
@blp.arguments(OrderQuery, location="query")
@blp.response(201)
@blp.alt_response(409, description="expected_seq is behind the game: reload and try again")
@blp.alt_response(422, description="the order is refused; `case` names the rule")
@blp.doc(security=SECURED, requestBody={"required": True, "content": {
    "application/json": {"schema": Order}, "text/plain": {"schema": {"type": "string",
                                                                    "example": "move R1 0202"}}}})
def submit(args, game_id):
    """Give an order in the game's order language (plain text, or JSON {"order", "expected_seq"})"""
    s = seat(game_id)
    if request.mimetype == "application/json":
        body = Order().load(request.get_json(force=True, silent=False) or {})
        text, expected = body["order"], body["expected_seq"]
    else:
        text, expected = request.get_data(as_text=True), None
    expected = args["expected_seq"] if args["expected_seq"] is not None else expected
    return svc().order(s, text, expected)


@blp.route("/games/<game_id>/history", methods=["GET"])
@blp.arguments(HistoryQuery, location="query")
@blp.response(200)
@blp.doc(security=SECURED)
def game_history(args, game_id):
    """The game's history as you may see it, a page at a time; retracted events are marked"""
    return svc().history(seat(game_id), args["from_seq"], args["limit"])


@blp.route("/games/<game_id>/preview", methods=["POST"])
@blp.arguments(Preview)
@blp.response(200)
@blp.doc(security=SECURED)
def preview(body, game_id):
    """What an order would do (combat odds, the result for each die roll), without rolling"""
    return svc().preview(seat(game_id), body["order"])


@blp.route("/games/<game_id>/fork", methods=["POST"])
@UNAVAILABLE
@blp.arguments(Fork)
@blp.response(201, Created)
@blp.doc(security=SECURED)
def fork(body, game_id):
    """A sandbox branch after event `at` (arbiter; players once the game is over)"""
    new_id, tokens = svc().fork(seat(game_id), body["at"])
    return {"game_id": new_id, "tokens": tokens}


@blp.route("/games/<game_id>/export", methods=["GET"])
@blp.response(200, description="JSON Lines: the whole stream (arbiter, or after the game), else your view")
@blp.doc(security=SECURED)
def export(game_id):
    """The game as JSON Lines"""
    lines, full = svc().export(seat(game_id))
    return Response("".join(lines), mimetype="application/x-ndjson",
                    headers={"Content-Disposition": f"attachment; filename={game_id}.jsonl",
                             "X-Hexledger-Export": "full" if full else "filtered"})


@blp.route("/games/<game_id>/verify", methods=["GET"])
@blp.response(200)
@blp.doc(security=SECURED)
def verify(game_id):
    """Audit: hash chain intact and every order re-run through the rules"""
    return svc().verify(seat(game_id))


@blp.route("/games/<game_id>/undo", methods=["POST"])
@UNAVAILABLE
@blp.response(201)
@blp.doc(security=SECURED)
def undo(game_id):
    """Take back your latest order, before your opponent has seen it (never a die roll or a reveal)"""
    return svc().undo(seat(game_id))


@blp.route("/games/<game_id>/disputes", methods=["GET"])
@blp.response(200)
@blp.doc(security=SECURED)
def disputes(game_id):
    """The game's disputes and how they were settled"""
    seat(game_id)
    return svc().disputes(game_id)


@blp.route("/games/<game_id>/disputes", methods=["POST"])
@UNAVAILABLE
@blp.arguments(Dispute)
@blp.response(201)
@blp.doc(security=SECURED)
def raise_dispute(body, game_id):
    """Dispute a recent order (within the game's window), with a reason"""
    return svc().raise_dispute(seat(game_id), body["order_seq"], body["reason"])


@blp.route("/games/<game_id>/disputes/<int:dispute_id>/answer", methods=["POST"])
@UNAVAILABLE
@blp.arguments(Answer)
@blp.response(200)
@blp.doc(security=SECURED)
def answer_dispute(body, game_id, dispute_id):
    """The other player accepts (takeback) or rejects (to the arbiter); the arbiter upholds or rejects"""
    return svc().answer_dispute(seat(game_id), dispute_id, body["accept"], body["note"])
