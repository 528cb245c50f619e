"""The play page: a seat gives its orders by pointing at the map (issue 28; docs/playing-in-the-browser.md).

The page is HTML with its own script and style (no build step, no CDN); everything it shows and sends goes through
the JSON API of app/web/routes.py, the same routes, checks and events as any API client's, and every order it
sends is the text the order language takes, as an email would carry it. The map and its camera are the replay
viewer's (app/web/replay/static/map.js).

A browser presents its seat by a *play key*: HMAC-SHA256(server secret, game id, seat, the seat's token hash)
(`Credentials.play_key`), which the server recomputes for every email. It arrives once, in the link of a game email
(`?key=`) or by the player typing their token into the page's form (a POST: a token never goes into a URL); the
server keeps it in an HttpOnly, SameSite=Strict cookie for this game's page and API paths only, with the seat's
replay key for its viewer, and sends the browser on to the page's plain address. The API takes that cookie as the
seat's credential, and a request it signs that may change something only from this server's own pages
(`app.web.same_origin`).
"""
from __future__ import annotations

from urllib.parse import urlencode

from flask import Blueprint, Flask, Response, abort, current_app, g, redirect, render_template, request, url_for
from werkzeug.exceptions import HTTPException

from app.service.application import Seat
from app.service.errors import AccessDenied, NotAuthenticated
from app.web import PLAY_COOKIE, authenticated, bearer
from app.web.replay import COOKIE as REPLAY_COOKIE

bp = Blueprint("play", __name__, url_prefix="/play", template_folder="play/templates",
               static_folder="play/static", static_url_path="/static")


def register(app: Flask) -> None:
    """Mount the play page at /play (create_app does, with the service's seats)."""
    app.register_blueprint(bp)


def _service():
    return current_app.extensions["hexledger_service"]()


@bp.route("/<game_id>/", methods=["GET", "POST"])
def page(game_id: str):
    """The page for the seat the play cookie opens; a key (`?key=`, from an email link) or the token form signs in."""
    if "token" in request.args:
        abort(400, "a seat token does not belong in a link (links end up in logs and browser histories): use the "
                   "play link from your game email, or give the token in this page's form")
    if request.method == "POST" or "key" in request.args:
        return _sign_in(game_id)
    if not (bearer() or request.cookies.get(PLAY_COOKIE)):
        raise NotAuthenticated(f"no seat of game {game_id} is signed in here: open the play link from your game "
                               "email, or give your seat's token")
    seat = _player(authenticated(game_id))
    name = _service().reads.rules_of(game_id).name
    rules = next(r for r in _service().reads.rule_sets() if r["name"] == name)
    return render_template("play.html", game_id=game_id, seat=seat.seat, rules=rules)


@bp.route("/<game_id>/forget", methods=["POST"])
def forget(game_id: str):
    """Sign this browser out of the game: its cookies go, and the page asks for the link or the token again."""
    response = redirect(url_for("play.page", game_id=game_id), 303)
    for name, path in _cookies(game_id):
        response.delete_cookie(name, path=path)
    return response


def _cookies(game_id: str) -> list[tuple[str, str]]:
    """Where the sign-in keeps its keys: the play key for the page and the game's API routes, the replay key for
    the game's viewer (docs/playing-in-the-browser.md, "The play link")."""
    return [(PLAY_COOKIE, url_for("play.page", game_id=game_id).rstrip("/")),
            (PLAY_COOKIE, f"/games/{game_id}"), (REPLAY_COOKIE, url_for("replay.page", game_id=game_id))]


def _player(seat: Seat) -> Seat:
    if seat.is_arbiter:
        raise AccessDenied("the arbiter gives no orders: the replay viewer shows the arbiter the whole game "
                           f"(/replay/{seat.game_id}/)")
    return seat


def _sign_in(game_id: str):
    """A play key (`?key=`, an email link) or a token (the form's POST) -> the seat's play key in HttpOnly,
    SameSite=Strict cookies for this game's page and API paths, its replay key for the game's viewer, and on to the
    page's plain address: a 303 after the form; after a link, whose click may come from a webmail's site, a page
    that moves on by itself (a meta refresh, no script), as a redirect in a cross-site chain would not carry the
    Strict cookie (as the replay viewer's sign-in, docs/replay.md)."""
    seats = _service().seats  # no such game: refused below as a key or token that opens no seat in it
    if request.method == "POST":
        seat = seats.authenticate(game_id, request.form.get("token"))
    else:
        seat = seats.authenticate_play_key(game_id, request.args.get("key"))
    g.hexledger_seat = seat
    _player(seat)
    path = url_for("play.page", game_id=game_id)
    rest = [(k, v) for k, v in request.args.items(multi=True) if k != "key"]
    target = path + (f"?{urlencode(rest)}" if rest else "")
    if request.method == "POST":
        response = redirect(target, 303)
    else:
        response = Response(render_template("play_signed_in.html", game_id=game_id, target=target), 200)
    secure = request.is_secure or (seats.public_url or "").lower().startswith("https://")
    keys = {PLAY_COOKIE: seats.play_key(game_id, seat.seat), REPLAY_COOKIE: seats.viewer_key(seat)}
    for name, cookie_path in _cookies(game_id):
        response.set_cookie(name, keys[name], path=cookie_path, httponly=True, samesite="Strict", secure=secure)
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


@bp.errorhandler(AccessDenied)
@bp.errorhandler(HTTPException)
def page_error(exc):
    """The page's errors are a page: what went wrong and, for a missing or wrong seat, the token form."""
    status, message = (exc.status, str(exc)) if isinstance(exc, AccessDenied) else (exc.code or 500, exc.description)
    game_id = (request.view_args or {}).get("game_id")
    form = status in (401, 403) and game_id is not None
    return render_template("play_error.html", status=status, message=message, game_id=game_id, form=form), status


@bp.after_request
def private(response):
    """What the page shows depends on who asks: no shared cache may keep it."""
    response.headers.setdefault("Cache-Control", "private, no-cache")
    response.vary.update(("Cookie",))
    return response
