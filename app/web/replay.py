"""The replay viewer: a Flask blueprint serving the page, its frames, map pictures and analysis (docs/replay.md).

Who sees what is decided by one pluggable hook, `resolve_viewer(request, game_id) -> side | None | "all"`:
a side sees that side's view (fog of war through `rules.view`), "all" the referee's view, None nothing (403).
Once the game is over everything is visible to anyone who can reach the page. The default hook trusts a
`?as=SIDE` query parameter only when the app config says REPLAY_TRUST_QUERY_SIDE=True (tests, local use);
the HTTP API's token check replaces it by passing its own hook to `register`.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable

from flask import Blueprint, Flask, Response, abort, current_app, jsonify, render_template, request

from app.events.store import EventStore, StoreError, default_db_path
from app.projections import analysis, render, replay
from app.rules.base import optional
from app.rules.catalog import get_rules

Viewer = Callable[..., str | None]

bp = Blueprint("replay", __name__, url_prefix="/replay", template_folder="replay/templates",
               static_folder="replay/static", static_url_path="/static")

_CACHE_SIZE = 16


def query_side_viewer(req, game_id: str) -> str | None:
    """Default hook: `?as=SIDE` (or `?as=all`) when REPLAY_TRUST_QUERY_SIDE is set; otherwise no one mid-game."""
    if not current_app.config.get("REPLAY_TRUST_QUERY_SIDE"):
        return None
    return req.args.get("as") or None


def register(app: Flask, resolve_viewer: Viewer | None = None, get_store: Callable[[], EventStore] | None = None):
    """Mount the viewer on `app` at /replay.

    resolve_viewer(request, game_id) -> side | None | "all"; default `query_side_viewer`.
    get_store() -> EventStore; default one store on app.config["HEXLEDGER_DB"] (or the default database).
    """
    if get_store is None:
        shared: dict[str, EventStore] = {}
        lock = threading.Lock()

        def get_store() -> EventStore:
            with lock:
                if "store" not in shared:
                    shared["store"] = EventStore(app.config.get("HEXLEDGER_DB") or default_db_path())
                return shared["store"]

    app.extensions["replay"] = {"resolve_viewer": resolve_viewer or query_side_viewer, "get_store": get_store,
                                "cache": OrderedDict(), "lock": threading.Lock()}
    app.register_blueprint(bp)


def _ext() -> dict:
    return current_app.extensions["replay"]


def _replay(game_id: str) -> replay.Replay:
    """The frames this request may see, cached per (game, head, viewer): a replay is immutable history."""
    ext = _ext()
    store = ext["get_store"]()
    try:
        head, _ = store.head(game_id)
        store.game(game_id)
    except (StoreError, KeyError, LookupError):
        abort(404, f"no game {game_id}")
    wanted = ext["resolve_viewer"](request, game_id)
    key = (game_id, head, wanted)
    with ext["lock"]:
        hit = ext["cache"].get(key)
        if hit is not None:
            ext["cache"].move_to_end(key)
            return hit
    try:
        result = replay.build(store, game_id, wanted)
    except replay.NoAccess:
        abort(403, "this game is in progress: you may only replay it as one of its players")
    except ValueError as exc:
        abort(403, str(exc))
    with ext["lock"]:
        ext["cache"][key] = result
        while len(ext["cache"]) > _CACHE_SIZE:
            ext["cache"].popitem(last=False)
    return result


@bp.get("/<game_id>/")
def page(game_id: str):
    r = _replay(game_id)
    return render_template("replay.html", game_id=game_id, viewer=r.viewer, rules=r.rules)


@bp.get("/<game_id>/frames.json")
def frames(game_id: str):
    r = _replay(game_id)
    rules = get_rules(r.rules)
    data = r.to_dict(with_views=request.args.get("views") == "1")
    data["panels"] = {"map": optional(rules, "game_map") is not None,
                      "combat": optional(rules, "combat_summary") is not None}
    return jsonify(data)


@bp.get("/<game_id>/map/<int:seq>.svg")
def map_svg(game_id: str, seq: int):
    r = _replay(game_id)
    rules = get_rules(r.rules)
    game_map = optional(rules, "game_map")
    if game_map is None:
        abort(404, f"the {r.rules} rules draw no map")
    try:
        frame = r.frame_at(seq)
    except IndexError as exc:
        abort(404, str(exc))
    svg = render.render_map(game_map(r.games[seq - 1]), frame.view, r.sides,
                            title=f"{game_id} after event {seq}")
    return Response(svg, mimetype="image/svg+xml", headers={"Cache-Control": "private, max-age=60"})


@bp.get("/<game_id>/analysis.json")
def analysis_json(game_id: str):
    return jsonify(analysis.analyse(_replay(game_id)))


@bp.get("/<game_id>/charts/<name>.svg")
def chart_svg(game_id: str, name: str):
    charts = analysis.charts(analysis.analyse(_replay(game_id)))
    if name not in charts:
        abort(404, f"no chart {name!r}; charts: {', '.join(charts)}")
    return Response(charts[name], mimetype="image/svg+xml")
