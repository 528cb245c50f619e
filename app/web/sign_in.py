"""Signing a seat in to a page of its game: the one gate of the play page (app/web/play.py) and the replay viewer
(app/web/replay.py); docs/playing-in-the-browser.md, "The play link", and docs/replay.md.

A token never goes into a URL (links end up in logs and browser histories): a request with `?token=` is refused. A
page's key (`?key=`, from the link of a game email) or the seat's token (the page form's POST) signs in: the
credential is checked against the game's seats, the page's keys go into HttpOnly, SameSite=Strict cookies on that
game's paths only, and the browser goes on to the page's plain address, no key left in it: a 303 after the form
(same site); after a link, whose click may come from a webmail's site, a page that moves on by itself (a meta
refresh, no script), as a redirect in a cross-site chain would not carry the Strict cookie.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlencode

from flask import Response, abort, g, redirect, render_template, request, url_for

from app.service.application import Application, Seat


@dataclass(frozen=True)
class Page:
    """What one page's sign-in is made of."""

    endpoint: str  # the page's route (its plain address: `game_id` is its one argument)
    link: str  # what its game emails call its link ("play link"), for the refusal of a token in one
    moving_on: str  # the template of the page that moves on by itself after a link: `game_id`, `target`
    by_key: Callable[[Application, str, str | None], Seat]  # the seat a link's key opens in a game (or AccessDenied)
    cookies: Callable[[Application, Seat], list[tuple[str, str, str]]]  # what the browser keeps: (name, key, path)
    admits: Callable[[Seat], object] = lambda seat: None  # refuses a seat the page is not for (AccessDenied)


def asked() -> bool:
    """Does this request of a page sign in (or try to, with a token in its link)? Then `answer` answers it."""
    return request.method == "POST" or "key" in request.args or "token" in request.args


def answer(page: Page, game_id: str, service: Callable[[], Application] | None) -> Response:
    """The answer to a request that `asked` to sign in to `page` for game `game_id` (module docstring). No such
    game is refused as a key or a token that opens no seat in it; `service` None: a server without seats (404)."""
    if "token" in request.args:
        abort(400, "a seat token does not belong in a link (links end up in logs and browser histories): use the "
                   f"{page.link} from your game email, or give the token in this page's form")
    if service is None:
        abort(404, "this server has no seats to sign in to")
    app = service()
    if request.method == "POST":
        seat = app.seats.authenticate(game_id, request.form.get("token"))
    else:
        seat = page.by_key(app, game_id, request.args.get("key"))
    g.hexledger_seat = seat
    page.admits(seat)
    path = url_for(page.endpoint, game_id=game_id)
    rest = [(k, v) for k, v in request.args.items(multi=True) if k != "key"]
    target = path + (f"?{urlencode(rest)}" if rest else "")
    if request.method == "POST":
        response = redirect(target, 303)
    else:
        response = Response(render_template(page.moving_on, game_id=game_id, target=target), 200)
    for name, key, cookie_path in page.cookies(app, seat):
        response.set_cookie(name, key, path=cookie_path, httponly=True, samesite="Strict", secure=secure(app))
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


def secure(app: Application) -> bool:
    """Are the cookies Secure: served over HTTPS, or the server's public address is https://."""
    return request.is_secure or (app.seats.public_url or "").lower().startswith("https://")
