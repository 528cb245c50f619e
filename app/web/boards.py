"""Analysis boards in the replay viewer (issue 29, docs/replay.md "The analysis board"): the page of a game its
seat sees whole (a finished game; any game for its arbiter) opens a board at the event it shows, and the page of a
board gives its orders with the dice chosen, edits units and lets a policy play. The seat comes through the
viewer's gate (the replay cookie, or a bearer token); the board is the caller's own (app/service/boards.py
`Boards`), and the caller's browser gets the cookie of the board's arbiter seat for the board's page. The bodies
are JSON: a cross-site form cannot send one, and the cookie is SameSite=Strict.
"""
from __future__ import annotations

from flask import abort, g, jsonify, request, url_for
from marshmallow import Schema, fields, validate

from app.web.replay import COOKIE, _admitted, _errors_doc, _ext, _json_doc, data

ROWS = {"type": "array", "items": {"type": "object", "additionalProperties": True}}


class BoardAt(Schema):
    at = fields.Integer(load_default=None, validate=validate.Range(min=1))


class BoardOrder(Schema):  # the API's too (app/web/routes.py)
    side = fields.String(required=True, validate=validate.Length(min=1, max=64))
    order = fields.String(required=True, validate=validate.Length(min=1, max=2000))
    dice = fields.List(fields.Integer(validate=validate.Range(min=1, max=100)), load_default=list,
                       validate=validate.Length(max=50),
                       metadata={"description": "the faces the order's dice show, in turn; the rest are drawn from "
                                                "the board's public seed"})


class BoardPlay(Schema):  # the API's too
    side = fields.String(required=True, validate=validate.Length(min=1, max=64))
    policy = fields.String(load_default="greedy", validate=validate.Length(min=1, max=64),
                           metadata={"description": "greedy, random, search, search:N ..."})
    orders = fields.Integer(load_default=1, validate=validate.Range(min=1, max=500))


def _seat():
    """The seat the request came in by (the gate admitted it); a viewer without one cannot act on boards."""
    _admitted()
    seat = g.get("hexledger_seat")
    if seat is None or _ext()["service"] is None:
        abort(403, "an analysis board is opened and played by a seat of the game: sign in with your seat's link or "
                   "token (a game made on the command line: `python cli.py board open`)")
    return seat


@data.route("/<game_id>/board.json", methods=["POST"])
@data.arguments(BoardAt)
@data.response(201, description="the board is open: its id and its page")
@_json_doc({"type": "object", "properties": {"board": {"type": "string"}, "url": {"type": "string"}}},
           "the board's id and the address of its page (the caller's browser may open it)", "201")
@_errors_doc
def open_board(body, game_id: str):
    """Open an analysis board after event `at` (a game the seat sees whole: over, or its arbiter)"""
    service = _ext()["service"]()
    board_id, tokens = service.boards.open(_seat(), body["at"])
    board_seat = service.seats.authenticate(board_id, tokens["arbiter"])
    path = url_for("replay.page", game_id=board_id)
    response = jsonify({"board": board_id, "url": path})
    response.status_code = 201
    response.set_cookie(COOKIE, service.seats.viewer_key(board_seat), path=path, httponly=True, samesite="Strict",
                        secure=request.is_secure)
    response.headers["Cache-Control"] = "no-store"
    return response


@data.route("/<game_id>/board/order.json", methods=["POST"])
@data.arguments(BoardOrder)
@data.response(201, description="the events the order produced, as history lines")
@_json_doc(ROWS, "the events the order produced: seq, type, actor, text", "201")
@_errors_doc
def board_order(body, game_id: str):
    """An order on the analysis board for either side, with the dice chosen"""
    return jsonify(_ext()["service"]().boards.order(_seat(), body["side"], body["order"], body["dice"])), 201


@data.route("/<game_id>/board/play.json", methods=["POST"])
@data.arguments(BoardPlay)
@data.response(201, description="the orders the policy gave")
@_json_doc({"type": "object", "properties": {"orders": {"type": "array", "items": {"type": "string"}}}},
           "the orders the policy gave, in turn", "201")
@_errors_doc
def board_play(body, game_id: str):
    """Let a policy give a side's next orders on the analysis board"""
    return jsonify({"orders": _ext()["service"]().boards.play(_seat(), body["side"], body["policy"],
                                                              body["orders"])}), 201
