"""The HTTP API (Flask + flask-smorest): JSON in and out, an OpenAPI document at /openapi.json, docs at /docs.

Every game route acts as one seat, named by its token (`Authorization: Bearer <token>`); all it shows is what that
seat may see (the application service's facade, app/service/application.py, the one door it calls). Errors are JSON:
{"error", "message", "case"?}; a stale submission (expected_seq behind the game) is 409; a database that cannot take
the write (locked, disk full) is 503 with Retry-After, and nothing was written; the caller's own mistakes stay 4xx."""
from __future__ import annotations

import hmac
import json
import logging
import re
import threading
from functools import partial
from urllib.parse import unquote_to_bytes, urlsplit

from flask import Flask, abort, current_app, g, jsonify, request, send_from_directory
from flask_limiter import ExemptionScope
from flask_smorest import Api
from markupsafe import escape
from marshmallow import Schema, ValidationError, fields
from swagger_ui_bundle import swagger_ui_path
from werkzeug.exceptions import HTTPException

from app import text
from app.mail.transport import MailConfig, transport_for
from app.service.application import (
    Application,
    BackgroundSender,
    Seat,
    SenderProcess,
    Settings,
    installed,
    sender_round,
    size_caches,
)
from app.service.errors import (
    AccessDenied,
    BackendError,
    Conflict,
    GameError,
    NoSuchPosition,
    OrderError,
    StoreError,
    StoreUnavailable,
    TextError,
    UnknownGame,
    UnknownRules,
    unavailable,
)
from app.settings import VARIABLES
from app.web import ratelimit

# config keys create_app takes as flags over the settings: each variable's name, and these names of Flask's own kind
CONFIG_FLAGS = {**{v.name: v.field for v in VARIABLES}, "ADMIN_TOKEN": "admin_token",
                "OPEN_GAME_CREATION": "open_game_creation", "MAIL_SENDER": "mail_sender",
                "RATELIMIT_STORAGE_URI": "rate_limit_storage"}


def create_app(config: dict | None = None, settings: Settings | None = None) -> Flask:
    """The web app on the settings (app/settings.py, docs/configuration.md; default: read from the environment now),
    with `config`'s keys over them as flags: a variable's name (HEXLEDGER_DB, HEXLEDGER_RATE_LIMIT, ...) or ADMIN_TOKEN,
    OPEN_GAME_CREATION, MAIL_SENDER, RATELIMIT_STORAGE_URI, each with its value (not its text). Other keys: MAIL (a
    MailConfig; default the settings' mail), MAIL_TRANSPORT (an object with send(EmailMessage); default from MAIL),
    MAX_CONTENT_LENGTH (bytes of a request body, default 64 KiB), MAX_JSON_DEPTH (how deeply a JSON body may nest
    arrays and objects; default 32), CATALOG (the rule sets it runs; default: those installed, made once here; not
    with MAIL_SENDER "process", whose sender finds the installed ones itself), and Flask's own.
    `app.config["SETTINGS"]` is the settings the app runs on.

    MAIL_SENDER (HEXLEDGER_MAIL_SENDER): "inline", the default: a request's mail is sent after its commit, before
    the answer; "background": a thread sends it, the answer waits for the commit only; "process", as `cli.py serve`
    runs: the same from a process of its own, so laying emails out never holds this process's interpreter lock
    (app/service/outbox.py).

    The replay viewer (app/web/replay.py) is mounted at /replay and the play page (app/web/play.py) at /play, with the
    seats and tokens of the service, the player's page (app/web/players.py) at /players/."""
    config = dict(config or {})
    settings = (settings or Settings.from_env()).with_flags(
        **{CONFIG_FLAGS[key]: config.pop(key) for key in list(config) if key in CONFIG_FLAGS})
    app = Flask(__name__)
    app.config.update(
        API_TITLE="Hexledger play-by-email API", API_VERSION="1", OPENAPI_VERSION="3.0.3",
        OPENAPI_URL_PREFIX="/", OPENAPI_JSON_PATH="openapi.json", JSON_SORT_KEYS=False,
        MAX_CONTENT_LENGTH=64 * 1024, MAX_JSON_DEPTH=32, SETTINGS=settings,
    )
    app.config.update(config)
    if settings.admin_token and len(settings.admin_token.strip()) < MIN_ADMIN_TOKEN:
        raise ValueError(f"the operator's key (HEXLEDGER_ADMIN_TOKEN) must have at least {MIN_ADMIN_TOKEN} "
                         "characters: it is the only thing between a stranger and creating games")
    if settings.mail_sender not in ("inline", "background", "process"):
        raise ValueError(f"MAIL_SENDER (HEXLEDGER_MAIL_SENDER) is inline, background or process, not "
                         f"{settings.mail_sender!r}")
    size_caches(settings)
    mail = app.config.get("MAIL") or MailConfig.from_settings(settings)
    transport = app.config.get("MAIL_TRANSPORT") or transport_for(mail)
    catalog = app.config.get("CATALOG") or installed()
    local = threading.local()

    def new_service(notifier=None) -> Application:
        return Application.open(settings, mail, transport, notifier=notifier, catalog=catalog)

    sender = None
    if settings.mail_sender == "background":
        sender = app.extensions["hexledger_sender"] = BackgroundSender(lambda: new_service().sender_round).start()
    elif settings.mail_sender == "process":
        if app.config.get("MAIL_TRANSPORT") is not None:
            raise ValueError("MAIL_SENDER 'process' sends through the transport MAIL names; a MAIL_TRANSPORT object "
                             "stays in this process: use 'background' with it")
        if app.config.get("CATALOG") is not None:  # a catalog holds functions a fresh (spawned) process cannot take
            raise ValueError("MAIL_SENDER 'process' runs the installed rule sets (it starts afresh and finds them "
                             "itself); a CATALOG object stays in this process: use 'background' with it")
        sender = app.extensions["hexledger_sender"] = SenderProcess(partial(sender_round, settings, mail)).start()

    def service() -> Application:
        """One store connection per thread (SQLite connections are not shared across threads)."""
        if getattr(local, "service", None) is None:
            local.service = new_service(sender)
        return local.service

    app.extensions["hexledger_service"] = service
    limiter = ratelimit.limiter(rate_key, app, application_limits=[settings.rate_limit],  # the API
                                storage_uri=ratelimit.storage_uri(settings.rate_limit_storage))
    _access_log(app)
    _json_depth(app)
    _text_only(app)
    api = HexledgerApi(app)
    api.spec.components.security_scheme("token", {"type": "http", "scheme": "bearer",
                                                  "description": "the seat's game token, from the invitation"})
    api.spec.components.security_scheme("operator", {"type": "http", "scheme": "bearer",
                                                     "description": "the operator's key (HEXLEDGER_ADMIN_TOKEN)"})
    from app.web import headers, play, players, replay
    from app.web.routes import blp

    api.register_blueprint(blp)
    replay.register(app, service=service, api=api)
    play.register(app)
    players.register(app)
    viewer_limit = limiter.shared_limit(settings.replay_rate_limit, scope="replay")
    for part in (replay.bp, replay.data, play.bp):  # the pages count against the viewer's limit, not the API's
        limiter.exempt(part, flags=ExemptionScope.APPLICATION)
        viewer_limit(part)
    _errors(app)
    headers.install(app)

    @app.get("/docs")
    def docs():
        """The API reference: Swagger UI (vendored, served from here: no CDN) over /openapi.json, with every
        request and response body and a "Try it out" against this server; below it, the routes as a plain table
        for a reader without script."""
        spec = api.spec.to_dict()
        rows = []
        for path, ops in spec["paths"].items():
            for verb, op in ops.items():
                if verb not in ("get", "post", "put", "patch", "delete"):
                    continue
                rows.append(f"<tr><td><code>{verb.upper()}</code></td><td><code>{escape(path)}</code></td>"
                            f"<td>{escape(op.get('summary', ''))}<br><small>"
                            f"{escape(op.get('description', ''))}</small></td></tr>")
        title = escape(spec["info"]["title"])
        page = (f"<!doctype html><html><head><meta charset='utf-8'><title>{title}</title>"
                "<link rel='stylesheet' href='/docs/swagger-ui.css'>"
                "<link rel='stylesheet' href='/static/docs.css'></head><body>"
                f"<h1>{title}</h1><p>Machine-readable: <a href='/openapi.json'>/openapi.json</a>. "
                "Game routes need <code>Authorization: Bearer &lt;token&gt;</code> (the Authorize button below). "
                "The replay viewer, a page for browsers, is at <code>/replay/GAME/</code>.</p>"
                "<div id='swagger-ui'></div>"
                f"<h2>Routes</h2><table>{''.join(rows)}</table>"
                "<script src='/docs/swagger-ui-bundle.js'></script><script src='/static/docs.js'></script>"
                "</body></html>")
        return page, 200, {"Content-Type": "text/html; charset=utf-8"}

    @app.get("/docs/<name>")
    def docs_asset(name: str):
        """Swagger UI's own files, from the swagger-ui-bundle package (docs/dependencies.md)."""
        if name not in DOCS_ASSETS:
            abort(404)
        return send_from_directory(swagger_ui_path, name, max_age=3600)

    return app


DOCS_ASSETS = frozenset({"swagger-ui.css", "swagger-ui-bundle.js"})


class ApiError(Schema):
    """Every refusal and error the API answers with (`_errors`), documented on every route."""

    error = fields.String(required=True, metadata={"example": "IllegalOrder"})
    message = fields.String(required=True, metadata={"example": "SK 4.1: R1 has already moved this turn"})
    case = fields.String(metadata={"description": "the rules case that refuses the order", "example": "SK 4.1"})


class HexledgerApi(Api):
    """flask-smorest's Api, its default error response documented as this API's errors read."""

    ERROR_SCHEMA = ApiError


MIN_ADMIN_TOKEN = 16


def rate_key() -> str:
    """Rate limits count per seat when the request's credential opens one (checked once a request: the route
    reuses the check, `authenticated`), per operator for the operator's key, else per client address: a bearer
    that opens nothing (a random string, another game's token) counts against its sender's address."""
    game_id = (request.view_args or {}).get("game_id")
    if game_id is not None and _credential()[1]:
        try:
            seat = authenticated(game_id)
            return f"seat:{seat.game_id}/{seat.seat}"
        except AccessDenied:
            pass
    if is_operator():
        return "operator"
    return "addr:" + (request.remote_addr or "?")


def is_operator() -> bool:
    """The bearer is the operator's key (HEXLEDGER_ADMIN_TOKEN), compared in constant time."""
    key, given = current_app.config["SETTINGS"].admin_token, bearer()
    return bool(key and given) and hmac.compare_digest(given.encode(), key.strip().encode())


_REPLAY_BLUEPRINTS = ("replay", "replay_data")
_PLAY_BLUEPRINTS = ("games", "play")  # the API and the play page take the play page's cookie (app/web/play.py)
PLAY_COOKIE = "hexledger_play"
REPLAY_COOKIE = "hexledger_replay"  # the replay viewer's (app/web/replay.py)


def _credential() -> tuple[str, str | None]:
    """The request's credential, by kind: its bearer token ("token"); without one, on the replay viewer the
    viewer's cookie ("replay", None if it has none), on the API and the play page the play page's cookie ("play"),
    where it has one; else ("token", None)."""
    token = bearer()
    if token:
        return "token", token
    req = request._get_current_object()
    blueprint = req.blueprint
    if blueprint in _REPLAY_BLUEPRINTS:
        return "replay", req.cookies.get(REPLAY_COOKIE)
    if blueprint in _PLAY_BLUEPRINTS and req.cookies.get(PLAY_COOKIE):
        return "play", req.cookies[PLAY_COOKIE]
    return "token", None


def authenticated(game_id: str) -> Seat:
    """The seat the request's credential opens in `game_id` (AccessDenied if none): the bearer token; on the
    replay viewer a replay key cookie (which opens the viewer only); on the API and the play page, the play page's
    cookie (a play key, which gives the seat's orders: only from this server's own pages, `same_origin`). Checked
    once a request, whoever asks."""
    request_globals = g._get_current_object()
    done = request_globals.get("hexledger_auth")
    if done is None or done[0] != game_id:
        seats = current_app.extensions["hexledger_service"]().seats
        kind, given = _credential()
        try:
            if kind == "replay":
                done = (game_id, seats.authenticate_replay_key(game_id, given), None)
            elif kind == "play":
                same_origin()
                done = (game_id, seats.authenticate_play_key(game_id, given), None)
            else:
                done = (game_id, seats.authenticate(game_id, given), None)
        except AccessDenied as exc:
            done = (game_id, None, exc)
        request_globals.hexledger_auth = done
    if done[2] is not None:
        raise done[2]
    request_globals.hexledger_seat = done[1]  # for the access log: the seat, never the credential
    return done[1]


SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


def same_origin() -> None:
    """A request signed in by a cookie that gives orders (the play page's) and that may change something comes from
    this server's own pages, or is refused (403) and does nothing: the browser says where it comes from
    (`Sec-Fetch-Site`, which no page can set, else `Origin`), so another site's page cannot make a player's browser
    give an order (cross-site request forgery), on top of the cookie's SameSite=Strict
    (docs/playing-in-the-browser.md, "The play link")."""
    if request.method in SAFE_METHODS:
        return
    site = request.headers.get("Sec-Fetch-Site")
    if site is not None:
        if site == "same-origin":
            return
    else:
        origin = urlsplit(request.headers.get("Origin") or "")
        public = current_app.extensions["hexledger_service"]().seats.public_url
        if origin.netloc and origin.netloc in (request.host, urlsplit(public or "").netloc):
            return
    raise AccessDenied("a request signed in by the play page's cookie must come from this server's own pages: "
                       "nothing was done (give orders from the play page, or with your token)")


ACCESS_LOG = logging.getLogger("hexledger.http")
ERROR_LOG = logging.getLogger("hexledger.web")  # the operator's: what a client is not shown


def _access_log(app: Flask) -> None:
    """One line a request: method, path, status and the seat that acted, never a token, a body or a view."""

    @app.after_request
    def log(response):
        seat = getattr(g, "hexledger_seat", None)
        ACCESS_LOG.info("%s %s %s seat=%s", request.method, request.path, response.status_code,
                        f"{seat.game_id}/{seat.seat}" if seat else "-")
        return response


_JSON_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"')
_JSON_BRACKET = re.compile(rb"[\[\]{}]")


def json_depth(body: bytes) -> int:
    """How deeply a JSON text nests arrays and objects (strings skipped), without parsing it: Python's parsers
    recurse and fail on deep nesting with RecursionError, which no JSON error handler catches."""
    depth = deepest = 0
    for bracket in _JSON_BRACKET.findall(_JSON_STRING.sub(b"", body)):
        depth += 1 if bracket in b"[{" else -1
        deepest = max(deepest, depth)
    return deepest


def _json_depth(app: Flask) -> None:
    """Every JSON body is measured before any parser reads it (flask-smorest's arguments, get_json): deeper than
    MAX_JSON_DEPTH is a 400 that says so, on every route, with or without a token."""

    @app.before_request
    def refuse_deep_json():
        if not request.is_json:
            return None
        limit = app.config["MAX_JSON_DEPTH"]
        body = request.get_data(cache=True)
        if body.count(b"[") + body.count(b"{") > limit and json_depth(body) > limit:
            return jsonify({"error": "BadRequest", "message": f"the JSON body nests deeper than {limit} levels; "
                            "nothing was read or written"}), 400
        return None


# a JSON string's escape that may stand for a NUL or half of a UTF-16 surrogate pair (or be an escaped backslash
# before such letters, which the parse tells apart)
_JSON_SUSPECT = re.compile(rb"\\u(?:0000|[dD][89a-fA-F])")


def text_problem_in_request() -> str | None:
    """What breaks the rule for text from outside (app/text.py: valid Unicode, no NUL) in this request, and where:
    its path, query or cookies (as the bytes that came, percent-escapes decoded), its body (UTF-8; a form's
    percent-escapes; a JSON body's strings and keys, escapes read), or None. One check for every route, before
    any route reads the request."""
    environ = request.environ
    uri = environ.get("REQUEST_URI") or environ.get("RAW_URI")  # as sent (a test client decodes PATH_INFO itself)
    path = unquote_to_bytes(_wsgi_bytes(uri.partition("?")[0])) if uri else _wsgi_bytes(environ.get("PATH_INFO", ""))
    query = unquote_to_bytes(_wsgi_bytes(environ.get("QUERY_STRING", "")).replace(b"+", b" "))
    for where, raw in (("path", path), ("query", query), ("cookies", _wsgi_bytes(environ.get("HTTP_COOKIE", "")))):
        found = _bytes_problem(raw)
        if found:
            return f"{where} {found}"
    body = request.get_data(cache=True)
    found = _bytes_problem(body)
    if found is None and request.mimetype == "application/x-www-form-urlencoded":
        found = _bytes_problem(unquote_to_bytes(body.replace(b"+", b" ")))
    if found is None and request.is_json and _JSON_SUSPECT.search(body):
        try:
            found = text.problem_in(json.loads(body))
        except (ValueError, RecursionError):
            found = None  # not JSON: the route that reads it says so
    return f"body {found}" if found else None


def _wsgi_bytes(value: str) -> bytes:
    """A WSGI environ string as the bytes that came (PEP 3333: each byte a code point below 256)."""
    return value.encode("latin-1", "surrogateescape")


def _bytes_problem(data: bytes) -> str | None:
    try:
        return text.problem(text.decoded(data))
    except text.TextError as exc:
        return str(exc)


def _text_only(app: Flask) -> None:
    """A request whose text breaks the rule for text from outside (a NUL, bytes that are not UTF-8, a lone
    surrogate such as JSON's "\\ud800") is a 400 that says what and where, before any route reads it: bad input
    changes nothing, on either store (PostgreSQL's TEXT cannot hold NUL; no event holding a lone surrogate can be
    hashed)."""

    @app.before_request
    def refuse_bad_text():
        found = text_problem_in_request()
        if found is None:
            return None
        return jsonify({"error": "BadRequest", "message": f"the request's {found}; nothing was read or written"}), 400


# seconds a client should wait after a 503: the server already waited its busy timeout (30 s) for a lock; a full
# disk needs someone to free space
RETRY_AFTER = {"locked": 30, "full": 300, "refused": 300}


def _errors(app: Flask) -> None:
    def payload(exc: Exception, status: int, kind: str | None = None):
        data = exc.to_dict() if isinstance(exc, OrderError) else {"error": kind or type(exc).__name__,
                                                                  "message": str(exc)}
        return jsonify(data), status

    app.register_error_handler(OrderError, lambda e: payload(e, 422))
    app.register_error_handler(Conflict, lambda e: payload(e, 409))
    app.register_error_handler(AccessDenied, lambda e: payload(e, e.status))
    app.register_error_handler(UnknownGame, lambda e: payload(e, 404))
    app.register_error_handler(NoSuchPosition, lambda e: payload(e, 404))
    app.register_error_handler(UnknownRules, lambda e: payload(e, 400))
    app.register_error_handler(GameError, lambda e: payload(e, 400))
    app.register_error_handler(StoreError, lambda e: payload(e, 400))
    app.register_error_handler(TextError, lambda e: payload(e, 400))  # app/text.py: a player's text

    def store_unavailable(exc: Exception):
        """The server's fault, not the caller's: 503 and when to try again (docs/reliability.md). The answer names
        no part of the infrastructure; the operator's log has what the database said and where it is."""
        if not isinstance(exc, StoreUnavailable):  # the backend's raw refusal outside the store's lock
            exc = unavailable(exc)
        ERROR_LOG.warning("%s %s: 503, the database is unavailable (%s): %s", request.method, request.path,
                          exc.reason, exc.detail or exc)
        response, status = payload(exc, 503, "StoreUnavailable")
        response.headers["Retry-After"] = str(RETRY_AFTER.get(exc.reason, RETRY_AFTER["refused"]))
        return response, status

    app.register_error_handler(StoreUnavailable, store_unavailable)
    app.register_error_handler(BackendError, store_unavailable)
    app.register_error_handler(ValidationError, lambda e: (jsonify({"error": "ValidationError", "message": "the "
                                                                    "request body is not valid",
                                                                    "errors": e.messages}), 422))

    @app.errorhandler(413)
    def too_large(exc):
        limit = app.config["MAX_CONTENT_LENGTH"]
        return jsonify({"error": "RequestTooLarge", "message": f"the request body is larger than {limit} bytes; "
                        "nothing was read or written"}), 413

    @app.errorhandler(429)
    def rate_limited(exc):
        return jsonify({"error": "RateLimited", "message": f"too many requests ({exc.description}); nothing was "
                        "done: wait and try again"}), 429

    @app.errorhandler(HTTPException)
    def http_error(exc):
        if exc.code == 422 and getattr(exc, "data", None):  # flask-smorest's argument errors keep their detail
            return jsonify({"error": "ValidationError", "message": "the request is not valid",
                            "errors": exc.data.get("messages", {})}), 422
        return jsonify({"error": exc.name.replace(" ", ""), "message": exc.description}), exc.code or 500


def bearer() -> str | None:
    header = request.environ.get("HTTP_AUTHORIZATION", "")
    scheme, _, value = header.partition(" ")
    return value.strip() if scheme.lower() == "bearer" and value.strip() else None
