"""The replay viewer: the page (HTML, with its own JS and CSS) and its data endpoints (frames, map pictures,
analysis), docs/replay.md. `create_app` mounts it at /replay on the real server.

Who sees what is decided by one hook, `resolve_viewer(request, game_id) -> side | None | "all"`:
a side sees that side's view (fog of war through `rules.view` and `visible`), "all" the referee's view, None
nothing while the game runs (401). Once the game is over everything is visible to anyone, whatever the hook says
(the dice seed is revealed then too).

On the real server (`register(..., service=...)`) the hook is `seat_viewer`: the seats and tokens of
app/service/seats.py. A browser presents its seat by a cookie holding the seat's *replay key* (an HMAC the
server recomputes from its secret and the seat's token hash, `Credentials.replay_key`): it opens this viewer for that
seat and nothing else, it gives no orders. The key arrives once, in the link of a game email (`?key=`) or by the
player typing their token into the page's form (a POST: a token never goes into a URL); the server sets the
cookie HttpOnly, SameSite=Strict, on the path /replay/GAME/ only, and sends the browser on to the page's plain
address (a 303 after the form; after a link, a page that moves on by itself, since a Strict cookie is not sent
on a redirect that follows a click in another site). API clients send `Authorization: Bearer <token>` to the
data endpoints, as everywhere else in the API.

Without a service (tests, local use) the default hook `query_side_viewer` trusts `?as=SIDE` only when the app
config says REPLAY_TRUST_QUERY_SIDE=True.
"""
from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from flask import (
    Blueprint,
    Flask,
    Response,
    abort,
    current_app,
    g,
    jsonify,
    render_template,
    request,
    url_for,
)
from marshmallow import Schema, fields, validate
from werkzeug.exceptions import HTTPException

from app.numbers import LARGEST
from app.service.application import replays as replay
from app.service.errors import AccessDenied, NotAuthenticated
from app.web import REPLAY_COOKIE, ApiError, sign_in
from app.web.blueprint import ApiBlueprint

Replays = replay.Replays
Viewer = Callable[..., str | None]
COOKIE = REPLAY_COOKIE

# the page and its static files (HTML: not in the OpenAPI document)
bp = Blueprint("replay", __name__, url_prefix="/replay", template_folder="replay/templates",
               static_folder="replay/static", static_url_path="/static")
# the data the page reads, which API clients may read too (in the OpenAPI document when mounted with an Api)
data = ApiBlueprint("replay_data", __name__, url_prefix="/replay",
                    description="The replay viewer's data: one frame per event, map pictures and analysis, as the "
                                "caller may see them (fog of war). A finished game is open to anyone; a game in "
                                "progress needs a seat: `Authorization: Bearer <token>`, or the viewer's cookie.")
OPTIONAL_TOKEN = [{"token": []}, {}]  # a finished game needs none
SVG = {"type": "string", "description": "an SVG document"}

_BODY_CACHE_BYTES = 32 * 1024 * 1024  # serialized answers: frames.json pages, map pictures, analysis, charts
FRAMES_WITH_VIEWS = 100  # the most frames a frames.json page carries with their views


def query_side_viewer(req, game_id: str) -> str | None:
    """Hook without seats: `?as=SIDE` (or `?as=all`) when REPLAY_TRUST_QUERY_SIDE is set; else no one mid-game."""
    if not current_app.config.get("REPLAY_TRUST_QUERY_SIDE"):
        return None
    return req.args.get("as") or None


def seat_viewer(req, game_id: str) -> str | None:
    """Hook of the real server: the seat named by `Authorization: Bearer <token>` or by the replay cookie, seen
    as the service's one visibility rule says (`Reads.replay_viewer`: everything, or its side).
    No credential: None. A wrong one: AccessDenied (403), even for a finished game, as the API does."""
    from app.web import authenticated, bearer

    if not (bearer() or req.cookies.get(COOKIE)):
        return None
    return _ext()["service"]().reads.replay_viewer(authenticated(game_id))


def register(app: Flask, resolve_viewer: Viewer | None = None, reads: Callable[[], Replays] | None = None,
             service: Callable | None = None, api=None) -> None:
    """Mount the viewer on `app` at /replay.

    service() -> Application: seats and tokens decide who sees what (`seat_viewer`, through the service's one visibility
    rule), the reads are the service's, and the page signs a seat in by its replay key or token (module docstring).
    create_app passes it.
    resolve_viewer(request, game_id) -> side | None | "all": the hook; default `seat_viewer` with a service,
    else `query_side_viewer`.
    reads() -> Replays (app/service/replays.py); default the service's (one of the two is needed).
    api: a flask_smorest Api, to put the data endpoints into its OpenAPI document.
    """
    if reads is None:
        if service is None:
            raise ValueError("the replay viewer needs its reads or a service")

        def reads() -> Replays:
            return service().reads.replay_reads()

    hook = resolve_viewer or (seat_viewer if service is not None else query_side_viewer)
    app.extensions["replay"] = {"resolve_viewer": hook, "reads": reads, "service": service,
                                "lock": threading.Lock(), "bodies": OrderedDict(), "body_bytes": 0}
    app.register_blueprint(bp)
    if api is not None:
        api.register_blueprint(data)
    else:
        app.register_blueprint(data)


def _ext() -> dict:
    return current_app.extensions["replay"]


@dataclass(frozen=True)
class Admitted:
    """What the gate found for a request: the game, its head (seq, hash) and whom it is replayed as."""

    game_id: str
    head: tuple[int, str]
    viewer: str


@bp.before_request
@data.before_request
def admit():
    """Every request to the viewer passes this gate before its route runs, the same for every route, present and
    future (issue 25): the credential is checked (403 for a wrong one) and the caller may see the game at its head
    (401 for no seat mid-game, and the same 401 for no such game: `_no_access`), before any frame is built. A
    refusal builds nothing, and its answer is kept per game and head (app/service/replays.py `viewer_at`). Only the
    static files and the page's sign-in (which checks the credential it brings and builds nothing) pass without it;
    a route reads the replay through `_replay`, which refuses a request the gate did not admit."""
    game_id = (request.view_args or {}).get("game_id")
    if game_id is None or _signing_in():
        return
    ext = _ext()
    reads = ext["reads"]()
    head = reads.head(game_id)
    wanted = ext["resolve_viewer"](request, game_id)  # a wrong credential: refused alike for any game id
    if head is None:
        raise _no_access(game_id)  # no such game: refused as a game in progress, so no answer tells which exist
    try:
        viewer = reads.viewer_at(game_id, head, wanted)
    except replay.NoAccess:
        raise _no_access(game_id) from None
    except ValueError as exc:
        abort(403, str(exc))
    g.replay_admitted = Admitted(game_id, head, viewer)
    seat = g.get("hexledger_seat")
    if seat is not None and ext["service"] is not None:
        ext["service"]().reads.replayed(seat, head[0])  # every answer here is a read of the game: no undo after it


def _no_access(game_id: str) -> NotAuthenticated:
    """The refusal of a game the caller may not replay: one in progress, or none at all (the same words)."""
    how = (" Open the replay link from your game email, or give your seat's token (a game made on the command "
           f"line: its owner opens it by the link of 'python cli.py open {game_id}')." if _ext()["service"] else "")
    return NotAuthenticated(f"no game {game_id} you may replay: a game in progress is open only to its players, each "
                            f"seeing only their own side.{how}")


def _signing_in() -> bool:
    """The page's sign-in: a replay key from an email link, a token from its form (or one in a URL, refused)."""
    return request.endpoint == "replay.page" and sign_in.asked()


def _client() -> str:
    """Who asks, for the bound on builds per client: the seat the credential opened, else the address."""
    seat = g.get("hexledger_seat")
    return f"seat:{seat.game_id}/{seat.seat}" if seat is not None else f"addr:{request.remote_addr or '?'}"


def _admitted() -> Admitted:
    admitted = g.get("replay_admitted")
    if admitted is None:
        raise RuntimeError(f"{request.endpoint} reads a replay without passing the viewer's gate (admit)")
    return admitted


def _replay() -> replay.Replay:
    """The frames the admitted request may see: kept per game, head and viewer, built within the bounds of
    app/service/replays.py (`Busy`: 503 with Retry-After)."""
    admitted = _admitted()
    return _ext()["reads"]().replay(admitted.game_id, admitted.head, admitted.viewer, _client())


def _cached_body(key: tuple, make: Callable[[], bytes]) -> bytes:
    """A serialized answer, kept by what it depends on (what, the query, and the admitted game, head and viewer),
    within _BODY_CACHE_BYTES: the same question at the same head is answered without the replay."""
    ext = _ext()
    admitted = _admitted()
    key = (admitted.game_id, admitted.head, admitted.viewer, *key)
    with ext["lock"]:
        body = ext["bodies"].get(key)
        if body is not None:
            ext["bodies"].move_to_end(key)
            return body
    body = make()
    with ext["lock"]:
        if key not in ext["bodies"]:
            ext["bodies"][key] = body
            ext["body_bytes"] += len(body)
        while ext["body_bytes"] > _BODY_CACHE_BYTES and ext["bodies"]:
            ext["body_bytes"] -= len(ext["bodies"].popitem(last=False)[1])
    return body


# -- the page ---------------------------------------------------------------------------------------------
@bp.route("/<game_id>/", methods=["GET", "POST"])
def page(game_id: str):
    """The viewer; a replay key (`?key=`, from an email link) or the token form signs a seat in (app/web/sign_in.py:
    the key in an HttpOnly, SameSite=Strict cookie for /replay/GAME/ only)."""
    if sign_in.asked():
        return sign_in.answer(PAGE, game_id, _ext()["service"])
    r = _replay()
    return render_template("replay.html", game_id=game_id, view=replay.whose_view(r), rules=r.rules.name,
                           board=replay.board_of(r), sides=r.sides)


PAGE = sign_in.Page(
    "replay.page", "replay link", "signed_in.html",
    lambda service, game_id, key: service.seats.authenticate_replay_key(game_id, key),
    lambda service, seat: [(COOKIE, service.seats.viewer_key(seat), url_for("replay.page", game_id=seat.game_id))])


def _status(exc: Exception) -> tuple[int, str]:
    if isinstance(exc, AccessDenied):
        return exc.status, str(exc)
    if isinstance(exc, replay.Busy):
        return 503, f"{exc}: ask again in {exc.retry_after} s"
    return exc.code or 500, exc.description


def _retry_after(exc: Exception, response):
    """A `Busy` answer says when to ask again."""
    response = current_app.make_response(response)
    if isinstance(exc, replay.Busy):
        response.headers["Retry-After"] = str(exc.retry_after)
    return response


@bp.errorhandler(AccessDenied)
@bp.errorhandler(HTTPException)
@bp.errorhandler(replay.Busy)
def page_error(exc):
    """The page's errors are a page: what went wrong and, for a missing or wrong seat, the token form."""
    status, message = _status(exc)
    game_id = (request.view_args or {}).get("game_id")
    form = status in (401, 403) and game_id is not None and _ext()["service"] is not None
    return _retry_after(exc, (render_template("error.html", status=status, message=message, game_id=game_id,
                                              form=form), status))


@bp.after_request
@data.after_request
def private(response):
    """What a response shows depends on who asks: no shared cache may keep it."""
    response.headers.setdefault("Cache-Control", "private, no-cache")
    response.vary.update(("Cookie", "Authorization"))
    return response


# -- the data ---------------------------------------------------------------------------------------------
@data.errorhandler(AccessDenied)
@data.errorhandler(HTTPException)
@data.errorhandler(replay.Busy)
def data_error(exc):
    """JSON errors, as the rest of the API: {"error", "message"}."""
    status, message = _status(exc)
    name = exc.name.replace(" ", "") if isinstance(exc, HTTPException) else type(exc).__name__
    return _retry_after(exc, (jsonify({"error": name, "message": message}), status))


class FramesQuery(Schema):
    views = fields.Boolean(load_default=False, metadata={"description": "add each frame's view of the position "
                                                         f"(then at most {FRAMES_WITH_VIEWS} frames a page)"})
    from_seq = fields.Integer(data_key="from", load_default=1, validate=validate.Range(min=1, max=LARGEST),
                              metadata={"description": "the first frame: the frame after this event or later"})
    limit = fields.Integer(load_default=None, validate=validate.Range(min=1, max=LARGEST), metadata={
        "description": f"the most frames (default: all; with views, at most {FRAMES_WITH_VIEWS})"})


ERRORS = {401: "a game in progress, asked without a seat", 403: "a token or replay key that opens no seat here",
          404: "no such frame or chart (no such game is refused as one in progress: 401 or 403)"}


def _errors_doc(fn):
    for code, text in ERRORS.items():
        fn = data.alt_response(code, schema=ApiError, description=text)(fn)
    return fn


class FramesPage(Schema):
    """What frames.json holds (documentation: the answer is written as it is cached)."""

    game_id = fields.String()
    rules = fields.String()
    sides = fields.List(fields.String())
    viewer = fields.String(allow_none=True)
    outcome = fields.Dict(allow_none=True)
    panels = fields.List(fields.String())
    frames = fields.List(fields.Dict(), metadata={"description": "one frame per event (or run of hidden events)"})
    next_from = fields.Integer(allow_none=True)


def _json_doc(schema, description: str, code: str = "200"):
    return data.doc(responses={code: {"description": description,
                                      "content": {"application/json": {"schema": schema}}}})


@data.route("/<game_id>/frames.json", methods=["GET"])
@data.arguments(FramesQuery, location="query")
@data.own_response(200, description="game id, rules, sides, viewer, outcome, panels and one frame per event (a run "
                                    "of events hidden from the viewer is one frame), a page at a time: `next_from` "
                                    "is the next page's `from`, null after the last")
@_json_doc(FramesPage, "the replay's frames, a page at a time")
@_errors_doc
@data.doc(security=OPTIONAL_TOKEN)
def frames(args, game_id: str):
    """The replay's frames, as you may see them"""
    views, first = bool(args["views"]), args["from_seq"]
    limit = min(args["limit"] or FRAMES_WITH_VIEWS, FRAMES_WITH_VIEWS) if views else args["limit"]

    def make() -> bytes:
        r = _replay()
        out = r.to_dict(with_views=False)
        shown = [f for f in r.frames if f.seq >= first]
        page = shown[:limit] if limit else shown
        out["frames"] = [r.frame_dict(f, views) for f in page]
        out["next_from"] = shown[len(page)].seq if len(shown) > len(page) else None
        out["panels"] = replay.panels(r)
        return json.dumps(out, separators=(",", ":")).encode("utf-8")

    return Response(_cached_body(("frames", views, first, limit), make), mimetype="application/json")


@data.route(f"/<game_id>/map/<int(max={LARGEST}):seq>.svg", methods=["GET"])
@data.own_response(200, SVG, description="the map after event `seq`, as you may see it", content_type="image/svg+xml")
@_errors_doc
@data.doc(security=OPTIONAL_TOKEN)
def map_svg(game_id: str, seq: int):
    """The map after an event (SVG)"""
    def make() -> bytes:
        r = _replay()
        try:
            svg = replay.map_svg(r, game_id, seq)
        except IndexError as exc:
            abort(404, str(exc))
        if svg is None:
            abort(404, f"the {r.rules.name} rules draw no map")
        return svg.encode("utf-8")

    return Response(_cached_body(("map", seq), make), mimetype="image/svg+xml",
                    headers={"Cache-Control": "private, max-age=60"})


@data.route("/<game_id>/analysis.json", methods=["GET"])
@data.own_response(200, description="losses per turn, victory hexes, the game's score, odds taken and die-roll luck "
                                    "per side, and `charts`: each chart's name and title (or why it is left out)")
@_json_doc({"type": "object", "additionalProperties": True},
           "losses per turn, victory hexes, the game's score, odds taken and die-roll luck per side, and `charts`: "
           "each chart's name and title (or why it is left out)")
@_errors_doc
@data.doc(security=OPTIONAL_TOKEN)
def analysis_json(game_id: str):
    """The game's analysis, from what you may see"""
    body = _cached_body(("analysis",), lambda: json.dumps(replay.analysed(_replay()), separators=(",", ":"))
                        .encode("utf-8"))
    return Response(body, mimetype="application/json")


@data.route("/<game_id>/charts/<name>.svg", methods=["GET"])
@data.own_response(200, SVG, description="a chart of the analysis that analysis.json's `charts` lists as drawn",
                   content_type="image/svg+xml")
@_errors_doc
@data.doc(security=OPTIONAL_TOKEN)
def chart_svg(game_id: str, name: str):
    """A chart of the analysis (SVG)"""
    def make() -> bytes:
        charts = replay.charts(_replay())
        if name not in charts:
            abort(404, f"no chart {name!r}; charts: {', '.join(charts)}")
        return charts[name].encode("utf-8")

    return Response(_cached_body(("chart", name), make), mimetype="image/svg+xml")


from app.web import boards, chances  # noqa: E402, F401 - their routes join `data` (analysis boards, chances)
