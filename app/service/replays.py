"""The replay viewer's reads (app/web/replay.py serves them): a game's frames as one viewer may see them, the map
after an event, the analysis and its charts. The viewer is a side, None (no seat) or ALL (arbiter, finished game)."""
from __future__ import annotations

from app.events import backends
from app.events.interface import SnapshotStreams
from app.events.store import StoreError
from app.projections import analysis, chances, render, replay
from app.rules.base import optional
from app.rules.catalog import get_rules

ALL = replay.ALL
NoAccess = replay.NoAccess
Cancelled = chances.Cancelled
Replay = replay.Replay


class Replays:
    """The replay viewer's reads on one database: the viewer holds this, never the store."""

    def __init__(self, store: SnapshotStreams):
        self._store = store

    @classmethod
    def open(cls, path: str | None = None) -> Replays:
        """On the database at `path` (default: the configured one), for a viewer without a service."""
        return cls(backends.open_store(path))

    def head(self, game_id: str) -> int | None:
        """The game's last event, or None if this server has no such game."""
        try:
            self._store.game(game_id)
            return self._store.head(game_id)[0]
        except (StoreError, KeyError, LookupError):
            return None

    def build(self, game_id: str, viewer: str | None) -> Replay:
        """Every frame `viewer` may see (NoAccess: a game in progress, and no seat)."""
        return replay.build(self._store, game_id, viewer)


def whose_view(r: Replay) -> str:
    """Whose view the replay shows, in the words every output uses (app/projections/replay.py `whose_view`): "as
    SIDE sees it", "the referee's view (everything)" or "everything (the game is over)"."""
    return replay.whose_view(r.viewer, r.over)


def panels(r: Replay) -> dict:
    """Which of the viewer's panels the game's rules can fill."""
    rules = get_rules(r.rules)
    return {"map": optional(rules, "game_map") is not None, "combat": optional(rules, "combat_summary") is not None}


def map_svg(r: Replay, game_id: str, seq: int) -> str | None:
    """The map after event `seq` as the replay's viewer sees it; None if the rules draw no map (IndexError: no
    such frame)."""
    game_map = optional(get_rules(r.rules), "game_map")
    if game_map is None:
        return None
    frame = r.frame_at(seq)
    return render.render_map(game_map(r.games[seq - 1]), frame.view, r.sides, title=f"{game_id} after event {seq}")


def analysed(r: Replay) -> dict:
    """Losses per turn, victory hexes, odds taken and die-roll luck, from what the viewer may see."""
    return analysis.analyse(r)


def charts(r: Replay) -> dict[str, str]:
    """The analysis's charts (SVG), by name."""
    return analysis.charts(analysis.analyse(r))


def chances_of_victory(r: Replay, **run) -> dict:
    """Each side's chance of victory after every Game-Turn, and the turning points (app/projections/chances.py;
    `run`: playouts, policy, progress, cancelled). The caller has checked who may ask: a finished game, anyone; a
    running one, its arbiter (`r.viewer` ALL)."""
    return chances.forecast(r, **run)


def chances_chart(found: dict) -> str:
    return analysis.chances_chart(found)


def board_of(r: Replay) -> dict | None:
    """An analysis board's origin ({"parent_id", "parent_seq"}), or None for a played game."""
    board = r.final_state.meta.board if r.final_state is not None else None
    return None if board is None else {"parent_id": board["parent_id"], "parent_seq": board["parent_seq"]}
