"""The chances of victory in the replay viewer (issue 29, docs/replay.md "Chances of victory"): a run of playouts
(app/projections/chances.py) in the background, one per game at its head, which the page starts, watches and may
cancel.

`GET /replay/GAME/chances.json` starts the run if none is under way or done for the game's head and answers its
state: 202 {"state": "running", "done", "total"} while it runs, 200 with the chances once done, {"state":
"cancelled"} or {"state": "failed"} after. `DELETE` cancels it. `GET /replay/GAME/chances.svg` is the chart of a
finished run. A finished game (or a fork of one) is anyone's to ask; a running game only its arbiter's (the
replay's viewer "all"), 403 for a player. At most `RUNNING` runs at once in a server process (503 with
Retry-After beyond); a run nobody has asked about for `ABANDONED` seconds stops by itself.
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

from flask import Response, abort, jsonify, request

from app.service.application import replays as replay
from app.web.replay import OPTIONAL_TOKEN, SVG, _admitted, _errors_doc, _ext, _json_doc, _replay, data

RUNNING = 1
ABANDONED = 60.0
PLAYOUTS = 100


@dataclass
class Run:
    """One run of playouts: its progress, its result, and the flag that cancels it."""

    total: int = 0
    done: int = 0
    result: dict | None = None
    state: str = "running"
    asked: float = field(default_factory=time.monotonic)
    stop: threading.Event = field(default_factory=threading.Event)

    def answer(self) -> dict:
        if self.state == "done":
            return {"state": "done", **self.result}
        return {"state": self.state, "done": self.done, "total": self.total}

    def cancelled(self) -> bool:
        return self.stop.is_set() or time.monotonic() - self.asked > ABANDONED

    def progress(self, done: int, total: int) -> None:
        self.done, self.total = done, total

    def work(self, built: replay.Replay, playouts: int) -> None:
        try:
            self.result = replay.chances_of_victory(built, playouts=playouts, progress=self.progress,
                                                    cancelled=self.cancelled)
            self.state = "done"
        except replay.Cancelled:
            self.state = "cancelled"
        except Exception:  # noqa: BLE001 - a run that fails says so to whoever asks; the server goes on
            self.state = "failed"


def _runs() -> dict:
    return _ext().setdefault("chances", {})


def _allowed(game_id: str) -> tuple[replay.Replay, tuple]:
    """The replay the request may see (the viewer's gate admitted it), if it may ask for the chances, and the
    key of its run: the game at its head."""
    built = _replay()
    if not built.over and built.viewer != replay.ALL:
        abort(403, f"game {game_id} is running: only its arbiter may ask for the chances of victory")
    return built, (game_id, _admitted().head)


@data.route("/<game_id>/chances.json", methods=["GET"])
@data.response(200, description="each side's chance of victory after every Game-Turn and the turning points")
@_json_doc({"type": "object", "additionalProperties": True},
           "the run's state; once done, each side's chance after every Game-Turn and the turning points")
@_errors_doc
@data.doc(security=OPTIONAL_TOKEN)
def chances_json(game_id: str):
    """The chances of victory: starts the run, then tells its progress and its result"""
    built, key = _allowed(game_id)
    runs = _runs()
    with _ext()["lock"]:
        run = runs.get(key)
        if run is None or run.state in ("cancelled", "failed") and request.args.get("again"):
            if sum(1 for r in runs.values() if r.state == "running") >= RUNNING:
                response = jsonify({"message": "another run of playouts is under way on this server; ask again "
                                               "in a minute"})
                response.status_code, response.headers["Retry-After"] = 503, "60"
                return response
            run = runs[key] = Run(total=PLAYOUTS)
            threading.Thread(target=run.work, args=(built, PLAYOUTS), daemon=True, name=f"chances {game_id}").start()
        run.asked = time.monotonic()
    return jsonify(run.answer()), 200 if run.state != "running" else 202


@data.route("/<game_id>/chances.json", methods=["DELETE"])
@data.response(200, description="the run is cancelled")
@_json_doc({"type": "object", "properties": {"state": {"type": "string"}}}, "the run's state: cancelled, or done")
@_errors_doc
@data.doc(security=OPTIONAL_TOKEN)
def chances_cancel(game_id: str):
    """Cancel the run of playouts"""
    _, key = _allowed(game_id)
    run = _runs().get(key)
    if run is None:
        abort(404, f"no run of playouts for game {game_id}")
    run.stop.set()
    return jsonify({"state": "cancelled" if run.state == "running" else run.state})


@data.route("/<game_id>/chances.svg", methods=["GET"])
@data.own_response(200, SVG, description="the chart of the chances of victory", content_type="image/svg+xml")
@_errors_doc
@data.doc(security=OPTIONAL_TOKEN)
def chances_svg(game_id: str):
    """The chart of the chances of victory (SVG), once the run is done"""
    _, key = _allowed(game_id)
    run = _runs().get(key)
    if run is None or run.state != "done":
        abort(404, f"the chances of game {game_id} are not worked out yet: GET chances.json first")
    return Response(replay.chances_chart(run.result), mimetype="image/svg+xml")
