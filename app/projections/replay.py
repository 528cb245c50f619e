"""Replay frames: one per stored event, as one viewer sees the game after it (docs/replay.md).

A frame is the position after event `seq` seen through the viewer's `Sight` (sight.py: the one visibility rule), the
sequence-of-play label from `rules.prompt`, the event's history line and, for a combat, the rules' combat
summary (`combat_summary(event, state)`, given the state just before the event: the same fold's previous
step), and its `focus`: the map hexes the step is about, the ones its shown text names (textmap.touched_hexes, as
the turn email's map near the action) and a combat's hex, which the viewer keeps on screen. All frames of a
game come from a single fold over the stream (`StreamFold`: a retraction refolds only from the state before it),
not one load per event; a later head extends the fold and, where nothing earlier changed, the frames.

Viewer: a side name sees that side's view; "all" sees the referee's view (`view(state, None)`). Once the
game is over every viewer sees everything (`effective_viewer`).
"""
from __future__ import annotations

import bisect
import re
import threading
from dataclasses import asdict, dataclass, field, replace

from app.events.interface import EventStreams
from app.events.registry import decode_stored
from app.projections import history, textmap
from app.projections.sight import Sight, sees_all
from app.projections.state import GameState, StreamFold
from app.rules.base import Catalog, Rules, optional

ALL = "all"
HIDDEN_TEXT = "(events hidden from your side)"
_WORD = re.compile(r"[\w-]+")  # a unit id in a history line
_TURN_RE = re.compile(r"\bturn\s+(\d+)", re.IGNORECASE)


class NoAccess(PermissionError):
    """A game in progress asked for without a side."""


@dataclass(frozen=True)
class Frame:
    seq: int
    turn: int | None
    phase: str
    text: str
    type: str
    actor: str
    hidden: bool = False
    first_seq: int | None = None  # a run of hidden events shows as one frame: its first event
    combat: dict | None = None
    losses: dict | None = None  # steps each side lost in this event, as the viewer is told (Sight.losses)
    retracted: bool = False  # taken back later by a core.Retracted event: shown, marked, never silently gone
    focus: list[str] = field(default_factory=list)  # the map hexes this step is about (none: a hidden run, an end)
    view: dict = field(default_factory=dict)

    def to_dict(self, with_view: bool = True) -> dict:
        data = asdict(self)
        if not with_view:
            del data["view"]
        return data


@dataclass(frozen=True)
class Replay:
    game_id: str
    rules: Rules
    sides: list[str]
    viewer: str
    over: bool
    outcome: dict | None
    frames: list[Frame]
    final_state: GameState | None = None
    games: list = field(default_factory=list, repr=False)  # the rules' state after each event, for game_map
    retracted: frozenset[int] = frozenset()  # the events retracted by the stream's core.Retracted events
    views: bool = True  # the frames carry their views; else `view_of` makes one when asked (a kept replay)
    # what is made from the whole replay (its analysis, its charts), kept with it: a kept replay is asked for the
    # same analysis by analysis.json and by each chart the page then fetches at once
    _derived: dict = field(default_factory=dict, init=False, compare=False, repr=False)
    _deriving: threading.RLock = field(default_factory=threading.RLock, init=False, compare=False, repr=False)

    def derived(self, key: str, make):
        """`make()` once per replay and key (the callers read it, never change it); a caller that asks while it
        is being made waits for it rather than making it again."""
        with self._deriving:
            if key not in self._derived:
                self._derived[key] = make()
            return self._derived[key]

    def to_dict(self, with_views: bool = True) -> dict:
        return {"game_id": self.game_id, "rules": self.rules.name, "sides": self.sides, "viewer": self.viewer,
                "over": self.over, "outcome": self.outcome,
                "frames": [self.frame_dict(f, with_views) for f in self.frames]}

    def frame_dict(self, frame: Frame, with_view: bool = True) -> dict:
        data = frame.to_dict(with_view=False)
        if with_view:
            data["view"] = self.view_of(frame)
        return data

    def view_of(self, frame: Frame) -> dict:
        """The frame's view of the position: the one it carries, or (a replay kept without them) the same view
        made again from the state after its event."""
        if self.views:
            return frame.view
        return Sight(self.rules, None if self.viewer == ALL else self.viewer).view(self.games[frame.seq - 1])

    def with_views(self) -> Replay:
        """This replay with every frame carrying its view (the analysis reads them all)."""
        if self.views:
            return self
        return replace(self, frames=[replace(f, view=self.view_of(f)) for f in self.frames], views=True)

    def frame_at(self, seq: int) -> Frame:
        """The frame after event `seq`. Inside a run of events hidden from the viewer only the run's last
        event has a frame: the positions in between are not the viewer's to see."""
        i = bisect.bisect_left(self.frames, seq, key=lambda f: f.seq)
        if i < len(self.frames) and self.frames[i].seq == seq:
            return self.frames[i]
        raise IndexError(f"game {self.game_id} has no frame after event {seq} for {self.viewer}")


def effective_viewer(rules: Rules, final: GameState | None, viewer: str | None) -> str:
    """ALL for a reader who sees everything (`sight.sees_all`: "all" asked, or the game over); else the side
    asked, and before the game ends only a side sees anything."""
    if sees_all(viewer == ALL, rules, final.game if final is not None else None):
        return ALL
    if viewer is None:
        raise NoAccess("this game is in progress: it can be replayed only as one of its sides")
    return viewer


def whose_view(viewer: str | None, over: bool) -> str:
    """Whose view an output shows, in words: once the game is over, everything, for everyone; before, a side's, or
    the referee's (`viewer` "all" or None: the server's operator, the arbiter)."""
    if over:
        return "everything (the game is over)"
    return "the referee's view (everything)" if viewer in (ALL, None) else f"as {viewer} sees it"


def turn_of(view: dict, phase: str) -> int | None:
    """The game turn: the view's `turn` if it has one, else 'turn N' in the prompt's step label."""
    turn = view.get("turn")
    if isinstance(turn, int):
        return turn
    found = _TURN_RE.search(phase)
    return int(found.group(1)) if found else None


def focus(rules: Rules, game, view: dict, text: str, type_: str, retracted: bool, combat: dict | None,
          payload: dict | None = None) -> list[str]:
    """The on-map hexes a shown step is about: those its text names (an order, a move's path, a die roll's battle;
    bookkeeping and retracted steps name none), the hexes where the reader's `view` shows the units it names
    (a loss, an order to a unit), the attacked hex of a combat and, for an event the reader is shown as it is
    (`payload`), the hexes it records (a battle's hex on "no advance"), as labels in map order."""
    game_map = optional(rules, "game_map")
    if game_map is None:
        return []
    the_map = game_map(game)
    row = {"text": text, "type": type_, "retracted": retracted}
    hexes = textmap.touched_hexes(the_map, [row])
    if textmap.about_play(row):
        named = set(_WORD.findall(text))
        hexes |= {h for h in (textmap.hex_of(u.get("hex")) for u in view.get("units", []) or []
                              if str(u.get("id")) in named) if h is not None and the_map.on_map(h)}
        hexes |= {h for h in map(textmap.hex_of, _strings(payload)) if h is not None and the_map.on_map(h)}
    attacked = textmap.hex_of((combat or {}).get("hex"))
    if attacked is not None and the_map.on_map(attacked):
        hexes.add(attacked)
    return [str(h) for h in sorted(hexes)]


def _strings(value) -> list[str]:
    """Every string in a payload (nested lists and dicts)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        value = list(value.values())
    return [s for v in value for s in _strings(v)] if isinstance(value, list | tuple) else []


def build(store: EventStreams, catalog: Catalog, game_id: str, viewer: str | None) -> Replay:
    """Every frame of `game_id` for `viewer` (a side, "all", or None: only once the game is over), in one fold."""
    return frames(fold_stream(store, catalog, game_id), game_id, viewer)


def fold_stream(store: EventStreams, catalog: Catalog, game_id: str, upto: int | None = None,
                previous: StreamFold | None = None) -> StreamFold:
    """The game's stream through event `upto` (default: all) folded, each state kept (`StreamFold`: a
    retraction refolds from the state before it, not from event 1). `previous`: a fold of an earlier part of
    this stream, extended with the events after it when the stored stream still links to its last event (else
    the stream is folded anew)."""
    if previous is not None and previous.events and (upto is None or previous.events[-1].seq <= upto):
        last = previous.events[-1]
        later = list(store.events(game_id, last.seq + 1, upto))
        if not later or later[0].prev_hash == last.hash:
            previous.extend(later)
            return previous
    stream = StreamFold(catalog.rules(store.game(game_id)["rules"]))
    stream.extend(store.events(game_id, 1, upto))
    return stream


def frames(stream: StreamFold, game_id: str, viewer: str | None, previous: Replay | None = None,
           views: bool = True) -> Replay:
    """Every frame of the folded `stream` for `viewer` (NoAccess: None, and the game in progress). `previous`:
    this viewer's replay of an earlier head of the same stream, whose frames stand as they are when nothing since
    changes them (the game still running, no retraction since: a retraction marks the frames it takes back); only
    the events after it are then framed. `views` False: the frames keep no view (`Replay.view_of` makes one when
    asked): what a server keeps is then a few hundred bytes a frame, where an SNC view is tens of kilobytes."""
    rules = stream.rules
    events, states = stream.events, stream.states
    # The whole stream decides whether the game is over, and so what this viewer may see of every frame.
    state = stream.state
    viewer = effective_viewer(rules, state, viewer)
    if viewer != ALL and state is not None and viewer not in state.meta.sides:
        raise ValueError(f"no side {viewer!r}; sides: {', '.join(state.meta.sides)}")
    retracted = stream.retracted
    done = len(previous.games) if previous is not None else 0
    if (previous is None or previous.viewer != viewer or previous.over or done > len(events)
            or previous.retracted != retracted or previous.views != views):
        done = 0
    out = list(previous.frames) if done else []
    last_turn = out[-1].turn if out else None
    sight = Sight(rules, None if viewer == ALL else viewer)
    for i in range(done, len(events)):
        event, after = events[i], states[i]
        before = states[i - 1] if i else None  # the rules' state just before the event, for combat_summary
        body = decode_stored(event.type, event.version, event.payload)
        visibility = sight.event(body)
        shown = visibility is not False
        view = sight.view(after.game)
        phase = rules.prompt(after.game).step
        turn = turn_of(view, phase)
        last_turn = turn if turn is not None else last_turn
        prior = before.game if before is not None else None
        combat = sight.combat(body, prior, view)
        first = None
        if not shown and out and out[-1].hidden:
            # consecutive hidden events become one frame, so a side cannot count the other side's moves
            first = out.pop().first_seq
        said = (visibility if isinstance(visibility, str) else history.describe(rules, event, body)) if shown else ""
        undone = history.taken_back(event, retracted)
        out.append(Frame(seq=event.seq, turn=last_turn, phase=phase,
                         text=("[retracted] " if undone else "") + said if shown else HIDDEN_TEXT,
                         retracted=undone,
                         focus=focus(rules, after.game, view, said, event.type, undone, combat,
                                     event.payload if visibility is True else None)
                         if shown else [],
                         type=event.type if shown else "hidden", actor=event.actor if shown else "",
                         hidden=not shown, first_seq=first or (None if shown else event.seq),
                         combat=combat, losses=sight.losses(body, prior), view=view if views else {}))
    outcome = rules.outcome(state.game) if state is not None else None
    return Replay(game_id=game_id, rules=rules, sides=list(state.meta.sides) if state else [],
                  viewer=viewer, over=outcome is not None,
                  outcome={"winner": outcome.winner, "reason": outcome.reason} if outcome else None,
                  frames=out, final_state=state, games=[s.game for s in states], retracted=retracted, views=views)
