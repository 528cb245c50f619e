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

from flask import Blueprint, Flask, current_app, redirect, render_template, request, url_for
from werkzeug.exceptions import HTTPException

from app.service.application import Application, Seat
from app.service.errors import AccessDenied, NotAuthenticated
from app.web import PLAY_COOKIE, authenticated, bearer, sign_in
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
    """The page for the seat the play cookie opens; a key (`?key=`, from an email link) or the token form signs in
    (app/web/sign_in.py)."""
    if sign_in.asked():
        return sign_in.answer(PAGE, game_id, _service)
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


def _keys(service: Application, seat: Seat) -> list[tuple[str, str, str]]:
    """The sign-in's cookies: the seat's play key for the page and the API, its replay key for the viewer."""
    keys = {PLAY_COOKIE: service.seats.play_key(seat.game_id, seat.seat), REPLAY_COOKIE: service.seats.viewer_key(seat)}
    return [(name, keys[name], path) for name, path in _cookies(seat.game_id)]


PAGE = sign_in.Page("play.page", "play link", "play_signed_in.html",
                    lambda service, game_id, key: service.seats.authenticate_play_key(game_id, key), _keys, _player)


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
