"""The player's page at /players/ (docs/players.md): every game of a player across the server, and where they are
told of their turn. HTML rendered here (no script), forms that post to this server only.

Who the player is: an address (their seats carry it). A browser presents it by a cookie holding the address's page
key (an HMAC the server recomputes: app/service/player_keys.py), HttpOnly, SameSite=Strict, on /players/ only. The
key arrives in the link of any game email (`?key=`: then, as the replay viewer does, a page that moves on by
itself, since a Strict cookie set in a chain that began on a webmail's site is not sent on its redirect), or by a
sign-in link mailed to the address on request: its GET shows a button (a mail scanner that fetches links spends
nothing), whose POST spends the single-use code and sets the cookie. Every POST must come from this site: the
Strict cookie, and the Origin / Sec-Fetch-Site headers a browser sends, are checked.

Errors are pages with a 4xx status; nothing a request holds makes a 5xx (tests/pbem/test_players_page.py).
"""
from __future__ import annotations

from datetime import timedelta
from urllib.parse import urlsplit

from flask import Blueprint, Flask, Response, abort, current_app, redirect, render_template, request, url_for
from werkzeug.exceptions import HTTPException

from app.service.application import SIGN_IN_MINUTES, Application
from app.service.errors import AccessDenied, GameError, NotAuthenticated, TextError
from app.web.sign_in import secure

COOKIE = "hexledger_player"
COOKIE_DAYS = 90
MAX_FIELD = 1000  # characters of a form field this page reads

bp = Blueprint("players", __name__, url_prefix="/players", template_folder="players/templates",
               static_folder="players/static", static_url_path="/static")


def register(app: Flask) -> None:
    """Mount the page on `app` (create_app), with the service create_app made."""
    app.register_blueprint(bp)


def _service() -> Application:
    return current_app.extensions["hexledger_service"]()


def _field(name: str) -> str:
    value = request.form.get(name, "")
    if len(value) > MAX_FIELD:
        abort(400, f"the field {name} is longer than {MAX_FIELD} characters")
    return value.strip()


@bp.before_request
def same_site_posts():
    """A POST from another site is refused before anything is read (defence beside the Strict cookie)."""
    if request.method != "POST":
        return
    site = request.headers.get("Sec-Fetch-Site")
    origin = request.headers.get("Origin")
    if site is not None and site not in ("same-origin", "none"):
        abort(403, "this form may be sent from this site only")
    # a page sent with Referrer-Policy: no-referrer posts its forms with Origin "null": that says nothing
    if origin not in (None, "null") and urlsplit(origin).netloc != request.host:
        abort(403, "this form may be sent from this site only")


@bp.after_request
def private(response: Response) -> Response:
    """What this page shows is one player's: no cache keeps it, no link leaves a key in a Referer."""
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "no-referrer"
    response.vary.add("Cookie")
    return response


def _email() -> str | None:
    """The signed-in player's address (AccessDenied for a cookie the server did not make), None without one."""
    key = request.cookies.get(COOKIE)
    return _service().players.email_of(key) if key else None


def _with_cookie(response: Response, key: str | None) -> Response:
    is_secure = secure(_service())
    if key is None:
        response.delete_cookie(COOKIE, path=url_for("players.page"), httponly=True, samesite="Strict", secure=is_secure)
    else:
        response.set_cookie(COOKIE, key, path=url_for("players.page"), httponly=True, samesite="Strict",
                            secure=is_secure, max_age=int(timedelta(days=COOKIE_DAYS).total_seconds()))
    return response


def _page(email: str, message: str | None = None, status: int = 200):
    games = _service().players.games(email)
    return render_template("players/page.html", email=email, games=games, message=message,
                           mine=sum(g.your_turn for g in games)), status


@bp.get("/")
def page():
    """The page: signed in, the player's games; with `?key=` (a game email's link), the sign-in it carries; else the
    form that asks for a sign-in link."""
    if "key" in request.args:
        email = _service().players.email_of(request.args.get("key"))
        response = Response(render_template("players/moving_on.html", target=url_for("players.page")))
        return _with_cookie(response, _service().players.page_key(email))
    email = _email()
    if email is None:
        return render_template("players/sign_in.html", minutes=SIGN_IN_MINUTES)
    return _page(email)


@bp.post("/sign-in-link")
def sign_in_link():
    """Mail a sign-in link to the address given; the answer is the same whatever the server did."""
    hours = _service().mail.stranger_reply_hours
    answer = _service().players.request_sign_in(_field("email"), timedelta(hours=hours))
    return render_template("players/sign_in.html", minutes=SIGN_IN_MINUTES, answer=answer)


@bp.get("/sign-in")
def sign_in_button():
    """A sign-in link's page: a button that spends it (a GET spends nothing: mail scanners fetch links)."""
    code = request.args.get("key", "")
    if not code or len(code) > MAX_FIELD:
        abort(400, "this sign-in link is incomplete: open the whole link from the email")
    return render_template("players/sign_in_button.html", code=code)


@bp.post("/sign-in")
def sign_in():
    email = _service().players.sign_in(_field("key"))
    return _with_cookie(redirect(url_for("players.page"), 303), _service().players.page_key(email))


@bp.post("/sign-out")
def sign_out():
    return _with_cookie(redirect(url_for("players.page"), 303), None)


@bp.post("/notify")
def notify():
    """Set the channel of one seat (`game`, `seat`) or of all the player's seats (`all`); `off` clears it."""
    email = _email()
    if email is None:
        raise NotAuthenticated("sign in first: open the link from one of your game emails, or ask for a sign-in link")
    url = None if "off" in request.form else _field("url")
    if url == "":
        abort(400, "give a notification URL, or press 'email only'")
    every = "all" in request.form
    game_id, seat = (None, None) if every else (_field("game"), _field("seat"))
    if not every and not (game_id and seat):
        abort(400, "name the game and seat, or choose all of your games")
    try:
        shown = _service().players.set_channels(email, url, game_id, seat)
    except GameError as exc:
        return _page(email, str(exc), 400)
    where = "every game of yours" if every else f"game {game_id} ({seat})"
    return _page(email, f"{where}: your turn is told on {shown} besides email" if shown else
                 f"{where}: email only")


@bp.errorhandler(AccessDenied)
@bp.errorhandler(GameError)
@bp.errorhandler(TextError)
@bp.errorhandler(HTTPException)
def page_error(exc):
    if isinstance(exc, HTTPException):
        status, message = exc.code or 400, exc.description
    else:
        status, message = exc.status if isinstance(exc, AccessDenied) else 400, str(exc)
    page = render_template("players/error.html", status=status, message=message)
    response = current_app.make_response((page, status))
    if isinstance(exc, AccessDenied) and request.cookies.get(COOKIE):
        _with_cookie(response, None)  # a cookie the server did not make, or no longer opens anything: gone
    return response
