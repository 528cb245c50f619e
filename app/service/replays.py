"""The replay viewer's reads (app/web/replay.py serves them): a game's frames as one viewer may see them, the map
after an event, the analysis and its charts. The viewer is a side, None (no seat) or ALL (arbiter, finished game).

What one request may cost is bounded (issue 25; docs/replay.md, "What a request may cost"):
- who sees what is decided first, from the state at the head (`viewer_at`: snapshots and the state cache, the
  answer kept per game and head), so a refusal builds nothing, and a refusal repeated costs a head query;
- a game's stream is folded once and kept (`StreamFold`: a retraction refolds from the state before it), a
  later head extends it; each viewer's replay is kept per game and head (seq, hash), a later head extends its
  frames where nothing earlier changed (app/projections/replay.py);
- builds are admitted by `Builds`: one at a time per game (another request for it waits for that build and
  shares it), at most `max_builds` at once and one per client, at most `max_waiting` requests waiting, each for at
  most `wait_seconds`. Past any of these the answer is `Busy` at once (HTTP 503 with Retry-After): no request
  queues behind a build holding a server thread.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field

from app.events.interface import SnapshotStreams
from app.events.store import StoreError, UnknownGame
from app.projections import analysis, chances, render, replay
from app.projections import state as projection
from app.projections.cache import HeadCache
from app.projections.sight import sees_all
from app.rules.base import Catalog, optional

ALL = replay.ALL
NoAccess = replay.NoAccess
Cancelled = chances.Cancelled
Replay = replay.Replay
Head = tuple[int, str]


class Busy(Exception):
    """The replay's builds are at their bounds: ask again after `retry_after` seconds (nothing was built)."""

    def __init__(self, message: str, retry_after: int = 2):
        super().__init__(message)
        self.retry_after = retry_after


@dataclass
class _Flight:
    """A build under way: the client that started it, and who waits for it."""

    client: str
    done: threading.Event = field(default_factory=threading.Event)


class Builds:
    """Admission of replay builds, shared by every thread of a process (module docstring)."""

    def __init__(self, max_builds: int = 2, max_waiting: int = 4, wait_seconds: float = 10.0):
        self.max_builds, self.max_waiting, self.wait_seconds = max_builds, max_waiting, wait_seconds
        self._lock = threading.Lock()
        self._flights: dict[tuple, _Flight] = {}  # (store, game) -> the build under way
        self._waiting = 0

    def run(self, game: tuple, client: str, cached, build):
        """`cached()` if it gives something, else `build()`, admitted as the bounds allow (`Busy` if not)."""
        while True:
            with self._lock:
                hit = cached()
                if hit is not None:
                    return hit
                flight = self._flights.get(game)
                if flight is None:
                    if len(self._flights) >= self.max_builds:
                        raise Busy(f"the server is building {len(self._flights)} replays already")
                    if any(f.client == client for f in self._flights.values()):
                        raise Busy("a replay you asked for is still being built")
                    flight = self._flights[game] = _Flight(client)
                    break
                if self._waiting >= self.max_waiting:
                    raise Busy("too many requests are waiting for replays being built")
                self._waiting += 1
            try:
                if not flight.done.wait(self.wait_seconds):
                    raise Busy("the replay is still being built", retry_after=max(1, round(self.wait_seconds)))
            finally:
                with self._lock:
                    self._waiting -= 1
            # the build shared: from the cache now (or, if it failed or was for another viewer, ours to start)
        try:
            return build()
        finally:
            with self._lock:
                del self._flights[game]
            flight.done.set()


BUILDS = Builds(max_builds=2)  # HEXLEDGER_REPLAY_BUILDS (application.size_caches)


@dataclass
class _Kept:
    """A game's replays kept at one head: the folded stream, and each viewer's frames."""

    head: Head
    fold: projection.StreamFold
    replays: dict[str, Replay] = field(default_factory=dict)


class _Games:
    """The kept replays, least recently used games first out, at most `capacity` games per process."""

    def __init__(self, capacity: int):
        self.capacity = capacity
        self._entries: OrderedDict[tuple, _Kept] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple) -> _Kept | None:
        with self._lock:
            kept = self._entries.get(key)
            if kept is not None:
                self._entries.move_to_end(key)
            return kept

    def put(self, key: tuple, kept: _Kept) -> None:
        if not self.capacity:
            return
        with self._lock:
            self._entries[key] = kept
            self._entries.move_to_end(key)
            while len(self._entries) > self.capacity:
                self._entries.popitem(last=False)

    def drop(self, key: tuple) -> None:
        with self._lock:
            self._entries.pop(key, None)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


KEPT = _Games(8)  # HEXLEDGER_REPLAY_CACHE (application.size_caches)
OPEN = HeadCache(1024)  # HEXLEDGER_REPLAY_ACCESS_CACHE


class Replays:
    """The replay viewer's reads on one database: the viewer holds this, never the store."""

    def __init__(self, store: SnapshotStreams, catalog: Catalog, builds: Builds | None = None):
        self._store = store
        self.catalog = catalog
        self._where = projection.store_key(store)
        self._builds = builds or BUILDS

    def head(self, game_id: str) -> Head | None:
        """The game's last event (seq, hash), or None if this server has no such game."""
        try:
            return self._store.head(game_id)
        except (StoreError, UnknownGame, KeyError, LookupError):
            return None

    def viewer_at(self, game_id: str, head: Head, wanted: str | None) -> str:
        """Whom the game at `head` is replayed as for a reader asking as `wanted` (a side, ALL, or None): ALL once
        the game is over (`sight.sees_all`), else the side asked (NoAccess: None; ValueError: no such side). Read
        from the state at the head, kept per game and head: no frame is built for it."""
        key = (self._where, game_id)
        known = OPEN.get(key, head)
        if known is None:
            state = projection.load(self._store, self.catalog, game_id, head[0])
            known = (sees_all(False, self.catalog.rules(state.meta.rules), state.game), tuple(state.meta.sides))
            OPEN.put(key, head, known)
        over, sides = known
        if over or wanted == ALL:
            return ALL
        if wanted is None:
            raise NoAccess("this game is in progress: it can be replayed only as one of its sides")
        if wanted not in sides:
            raise ValueError(f"no side {wanted!r}; sides: {', '.join(sides)}")
        return wanted

    def replay(self, game_id: str, head: Head, viewer: str, client: str = "-") -> Replay:
        """The game's frames up to `head` as `viewer` (from `viewer_at`) sees them: kept per game, head and viewer,
        built (or extended from an earlier head) within the bounds of `Builds` (`Busy` past them)."""
        key = (self._where, game_id)

        def cached() -> Replay | None:
            kept = KEPT.get(key)
            hit = kept.replays.get(viewer) if kept is not None and kept.head == head else None
            return hit if hit is not None and len(hit.games) == head[0] else None

        def build() -> Replay:
            kept = KEPT.get(key)
            if kept is None or kept.head != head:
                behind = kept is not None and kept.head[0] < head[0]
                fold = replay.fold_stream(self._store, self.catalog, game_id, head[0], kept.fold if behind else None)
                if (fold.events[-1].seq, fold.events[-1].hash) != head:  # not this stream: keep none of it
                    KEPT.drop(key)
                    raise StoreError(f"game {game_id}: the stored stream changed while it was read")
                kept = _Kept(head, fold, {v: r for v, r in kept.replays.items() if not r.over} if behind else {})
            built = replay.frames(kept.fold, game_id, viewer, kept.replays.get(viewer), views=False)
            kept.replays[viewer] = built
            KEPT.put(key, kept)
            return built

        return self._builds.run(key, client, cached, build)


def whose_view(r: Replay) -> str:
    """Whose view the replay shows, in the words every output uses (app/projections/replay.py `whose_view`): "as
    SIDE sees it", "the referee's view (everything)" or "everything (the game is over)"."""
    return replay.whose_view(r.viewer, r.over)


def panels(r: Replay) -> dict:
    """Which of the viewer's panels the game's rules can fill."""
    rules = r.rules
    return {"map": optional(rules, "game_map") is not None, "combat": optional(rules, "combat_summary") is not None}


def map_svg(r: Replay, game_id: str, seq: int) -> str | None:
    """The map after event `seq` as the replay's viewer sees it; None if the rules draw no map (IndexError: no
    such frame)."""
    game_map = optional(r.rules, "game_map")
    if game_map is None:
        return None
    frame = r.frame_at(seq)
    return render.render_map(game_map(r.games[seq - 1]), r.view_of(frame), r.sides,
                             title=f"{game_id} after event {seq}")


def analysed(r: Replay) -> dict:
    """Losses per turn, victory hexes, the game's score, odds taken and die-roll luck, from what the viewer may
    see; `charts` lists the charts in the order the viewer shows them, each with its title, and why it is left out
    when it would show nothing."""
    result = dict(_analysis(r))
    result["charts"] = analysis.chart_index(result)
    return result


def charts(r: Replay) -> dict[str, str]:
    """The analysis's charts (SVG), by name."""
    return r.derived("charts", lambda: analysis.charts(_analysis(r)))


def _analysis(r: Replay) -> dict:
    """The analysis of `r`, made once per replay: analysis.json and each chart read the same one."""
    return r.derived("analysis", lambda: analysis.analyse(r.with_views()))


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
