"""Each side's chance of victory after every Game-Turn of a game, and the turning points (issue 29).

The points: the position before any order (turn 0), then the position after each Game-Turn's last order and
everything it caused (`turn_ends`), then the game's end. At each, `playouts` playouts (100 by default), by one of:

- `search` (the default): the strong opponent's search (app/rules/search.py, the policies' current edition) decides
  for the side to move there as it does when it plays (its tree of candidate orders, PUCT, the greedy rating as
  its prior), but each of its playouts, once down its tree, is carried on through the whole next Game-Turn by
  greedy for both sides (the rating the search orders its candidates by: a fast rollout policy guided by the strong
  one, as AlphaGo's search rolled out with a fast policy) and valued as below. The side to move's chance is the
  mean over all the search's playouts (the search's root value, as KataGo and Leela Chess Zero report a search's
  win rate), the other side's the rest. The position is taken whole (a finished game is all visible; a running
  game is its arbiter's to ask), so no hidden part is drawn. `Ahead`.
- `greedy` or `random` (or a rule set's own policy): `playouts` playouts from the position through the whole next
  Game-Turn, both sides played by that policy, each with its own dice: `greedy` and `random` draw their tie-breaks
  for the position and the number of orders since it, give the first order the rules take (a seat's policy seeds
  its draws from the side's view and checks an order before giving it, work a playout does without), and so give
  the same orders in every playout until a die tells the playouts apart: those are worked out once (`Shared`).
  Each side's chance is the mean of its scores.

Either way a playout goes on to the end of the next Game-Turn or of the game (`DEPTH` orders at most, far more than
any Game-Turn takes, so that a policy that never ends its steps still stops; the result's `endings` counts how the
playouts ended). One that ends the game scores 1 for the winner, 0 for the loser, 1/2 each for a draw; one that
does not is valued by the strong opponent's evaluation of the position it reaches (app/rules/evaluation.py, from
-1 to 1, read as the chance (1 + v) / 2). It is an estimate from these playouts: how the game would go on if the
sides played as the policy does, not a frequency of real games. Why not the strong opponent for every order of a
playout: at its 2 s a decision a whole SNC Game-Turn takes it some 200 s, so 100 playouts after each of 13 points
would take three days of CPU (docs/benchmarks.md, "The chances row").

The turning points are the Game-Turns whose chance moved most (the largest swings, either way). For each, the
event of that turn that moved the evaluation most in the swing's direction names its cause: the order that
produced it and any die rolled with it (the evaluation is read after every event of the turn, without playouts).

Deterministic: every draw is seeded by the position (`search`: the search's own seed, from the position) or by the
game id, the turn and the playout's number (the others), so the same game gives the same chances in any process,
with any number of `workers` (the points worked out in that many forked processes at once). `progress(done,
total)` is told after each playout (pooled: every `POLL` seconds); `cancelled()` is asked before each (pooled: as
often), and a True answer stops the run (Cancelled).
"""
from __future__ import annotations

import multiprocessing
import random
import signal
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from app.projections.replay import Frame, Replay, turn_of
from app.rules import evaluation, practice, search
from app.rules.errors import OrderError
from app.rules.search import PlayoutDice

PLAYOUTS = 100
POLICY = "search"
TURNING_POINTS = 3
POLL = 0.2  # seconds between a pooled run's progress reports
FAST = ("greedy", "random")  # policies a playout plays with its own tie-breaks (`_fast`)
ORDER = "core.OrderGiven"
DEPTH = 2000  # orders a playout gives at most (a whole SNC Game-Turn is some 150: docs/benchmarks.md)
# how a playout ends: the game over, the next Game-Turn played to its end, or stopped before (no order the rules
# take, no side to act, `DEPTH` orders), each valued as it stands
ENDINGS = ("game over", "turn played", "stopped")


class Cancelled(Exception):
    """The caller stopped the run."""


def forecast(rep: Replay, playouts: int = PLAYOUTS, policy: str = POLICY,
             progress: Callable[[int, int], None] | None = None,
             cancelled: Callable[[], bool] | None = None, workers: int = 1) -> dict:
    """The chances after every Game-Turn of `rep` (a finished game, a fork of one, or a running game as its
    arbiter sees it: the caller checks who may ask), and the turning points. `workers` > 1: the points are worked
    out in that many processes at once (`_pooled`), with the same result."""
    rules = rep.rules
    name, settings = practice.parse_spec(rules, policy)
    if name == "search" and policy != "search":
        raise ValueError(f"the chances' strong opponent runs the playouts asked for at each Game-Turn ({playouts}):"
                         f" give the policy as 'search', not {policy!r}")
    ends = turn_ends(rep)
    run = Run(rep, name, settings, playouts, ends)
    found = (_pooled(run, workers, progress, cancelled) if workers > 1 and len(ends) > 1 else
             _in_turn(run, progress, cancelled))
    endings: Counter = Counter()
    points = []
    for (turn, index), (chances, ended) in zip(ends, found, strict=True):
        endings.update(ended)
        points.append({"turn": turn, "seq": rep.frames[index].seq,
                       "chances": {side: round(chances[side], 4) for side in rep.sides}})
    edition = settings.get("edition", practice.EDITION) if name == "search" else None
    return {"game_id": rep.game_id, "sides": list(rep.sides), "playouts": playouts, "policy": policy,
            "edition": edition, "method": method(rules, name, playouts, edition),
            "points": points, "endings": {how: endings[how] for how in ENDINGS},
            "turning_points": turning_points(rules, rep, points, ends)}


def method(rules, name: str, playouts: int, edition: int | None) -> str:
    """What produced the chances, in the words the CLI and the viewer show beside them."""
    if name == "search":
        return (f"{playouts} playouts a Game-Turn of the strong opponent's search (edition {edition}), each carried "
                f"through the next Game-Turn by {rollout_policy(rules)}")
    return f"{playouts} playouts a Game-Turn through the next Game-Turn, {name} both sides"


def rollout_policy(rules) -> str:
    """The policy that carries the search's playouts on from its tree: greedy, the rating the search orders and
    weighs its candidates by; random where the rule set has no greedy."""
    return "greedy" if "greedy" in practice.policies(rules) else "random"


@dataclass(frozen=True)
class Run:
    """What a run works out: the replay, the policy, the playouts a point, the points (`turn_ends`)."""

    rep: Replay
    name: str
    settings: dict
    playouts: int
    ends: list[tuple[int, int]]

    @property
    def total(self) -> int:
        return self.playouts * len(self.ends)

    def point(self, k: int, tick: Callable[[], None], stop: Callable[[], None]) -> tuple[dict, Counter]:
        """Each side's chance at point k, and how its playouts ended."""
        turn, index = self.ends[k]
        rules, state, endings = self.rep.rules, self.rep.games[index], Counter()
        if self.name == "search":
            found = searched(rules, state, self.rep.sides, turn, self.playouts,
                             self.settings.get("edition", practice.EDITION), tick, stop, endings)
        else:
            found = played(rules, state, self.rep, turn, self.name, self.settings, self.playouts, tick, stop,
                           endings)
        return found, endings


def _in_turn(run: Run, progress: Callable[[int, int], None] | None,
             cancelled: Callable[[], bool] | None) -> list[tuple[dict, Counter]]:
    """The points one after the other in this process: `progress` told after each playout, `cancelled` asked
    before each."""
    done = 0

    def tick() -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(done, run.total)

    def stop() -> None:
        if cancelled is not None and cancelled():
            raise Cancelled(f"stopped after {done} of {run.total} playouts")

    return [run.point(k, tick, stop) for k in range(len(run.ends))]


_RUN: tuple | None = None  # a pooled run, as its forked workers inherit it (a game's states do not pickle)


def _pooled(run: Run, workers: int, progress: Callable[[int, int], None] | None,
            cancelled: Callable[[], bool] | None) -> list[tuple[dict, Counter]]:
    """The points in `workers` forked processes at once, each point's playouts in one of them (every point is
    seeded on its own, so the result is the one `_in_turn` gives): the playouts done are counted in shared
    memory, told to `progress` and checked against `cancelled` every `POLL` seconds; a cancelled run stops its
    workers."""
    global _RUN
    context = multiprocessing.get_context("fork")
    done, halt = context.Value("i", 0), context.Event()
    _RUN = (run, done, halt)
    try:
        with context.Pool(min(workers, len(run.ends)), initializer=signal.signal,
                          initargs=(signal.SIGINT, signal.SIG_IGN)) as pool:  # Ctrl-C: this process stops them
            pending = [pool.apply_async(_worked, (k,)) for k in range(len(run.ends))]
            for waiting in pending:
                while not waiting.ready():
                    waiting.wait(POLL)
                    if progress is not None:
                        progress(done.value, run.total)
                    if cancelled is not None and cancelled():
                        halt.set()
                        raise Cancelled(f"stopped after {done.value} of {run.total} playouts")
            found = [waiting.get() for waiting in pending]
    finally:
        _RUN = None
    if progress is not None:
        progress(run.total, run.total)
    return found


def _worked(k: int) -> tuple[dict, Counter]:
    """Point k of the pooled run, in a worker."""
    run, done, halt = _RUN

    def tick() -> None:
        with done.get_lock():
            done.value += 1

    def stop() -> None:
        if halt.is_set():
            raise Cancelled("stopped")

    return run.point(k, tick, stop)


def played(rules, state: Any, rep: Replay, turn: int, name: str, settings: dict, playouts: int,
           tick: Callable[[], None], stop: Callable[[], None], endings: Counter) -> dict[str, float]:
    """Each side's chance at `state` (the end of `turn`): the mean score of `playouts` playouts through the next
    Game-Turn by the policy `name` for both sides."""
    wins = {side: 0.0 for side in rep.sides}
    shared = Shared(f"{rep.game_id}:{turn}")
    for j in range(playouts):
        stop()
        reached = playout(rules, state, turn, name, settings, f"{rep.game_id}:{turn}:{j}", j, shared, endings)
        for side in rep.sides:
            wins[side] += score(rules, reached, side)
        tick()
    return {side: wins[side] / playouts for side in rep.sides}


class Ahead(search.Search):
    """The strong opponent's search (app/rules/search.py) at the end of a Game-Turn, its playouts carried on
    through the next Game-Turn: down its tree of the orders of the side to move (and, deeper, of the other side),
    as it searches when it plays, then, from the leaf, `rollout` (greedy, the policy whose rating orders and
    weighs the search's candidates) for both sides to the end of the next Game-Turn or of the game, valued as the
    chances value every playout (`score`). The position is taken whole: the analysis of a finished game, or a
    running game's arbiter's, sees everything, so no hidden part is drawn (a seat's search draws them from its
    side's view, app/rules/belief.py). Its draws are seeded by the position (the search's `seed`), so the same
    position gives the same chances in any game, a fork's turns before the fork those of its game."""

    def __init__(self, rules, state: Any, side: str, playouts: int, edition: int, turn: int, rollout: str,
                 endings: Counter):
        super().__init__(rules, state, side, playouts, 0, None, edition)
        self.turn, self.rollout, self.endings = turn, rollout, endings
        self.values = 0.0  # the sum of the playouts' values
        self.shared = Shared(f"{self.seed}:rollout")
        self.root.side, self.root.arms = side, self.candidates(state, side, root=True)

    def iterate(self, i: int) -> None:
        """Playout i: down the tree by PUCT with its own dice, one decision further than the tree knew, then the
        rollout through the next Game-Turn; every decision on the way learns the value (for the searching side,
        -1 lost to 1 won)."""
        dice = PlayoutDice(random.Random(f"{self.seed}:dice:{i}"))
        state, path, _ = self.descend(self.state, dice)  # wherever it stopped, the rollout carries it on
        shared = self.shared if state is self.state else Shared(self.shared.seed)  # a leaf below the root is
        # this playout's own position: the same tie-breaks, nothing kept for the others
        reached = playout(self.rules, state, self.turn, self.rollout, {}, f"{self.seed}:rollout:{i}", i, shared,
                          self.endings)
        found = 2 * score(self.rules, reached, self.side) - 1
        self.values += found
        self.learn(path, found)


def searched(rules, state: Any, sides: tuple[str, ...], turn: int, playouts: int, edition: int,
             tick: Callable[[], None], stop: Callable[[], None], endings: Counter) -> dict[str, float]:
    """Each side's chance at `state` (the end of `turn`) from the strong opponent's search for the side to move,
    `playouts` playouts each carried through the next Game-Turn (`Ahead`): that side's chance is the mean of all
    its playouts' scores (the root's value, as KataGo and Leela Chess Zero report a search's win rate), the
    other side's the rest. A position with no order to search (the game over, no side to move, no order listed)
    is scored as it stands, and its playouts counted done."""
    side = None if rules.outcome(state) is not None else rules.prompt(state).side
    ahead = (Ahead(rules, state, side, playouts, edition, turn, rollout_policy(rules), endings)
             if side is not None else None)
    if ahead is None or not ahead.root.arms:
        endings["game over" if rules.outcome(state) is not None else "stopped"] += playouts
        for _ in range(playouts):
            stop()
            tick()
        return {s: score(rules, state, s) for s in sides}
    for i in range(playouts):
        stop()
        ahead.iterate(i)
        tick()
    mine = (1 + ahead.values / playouts) / 2
    return {s: mine if s == side else (1 - mine) / max(1, len(sides) - 1) for s in sides}


def turn_ends(rep: Replay) -> list[tuple[int, int]]:
    """(turn, index of its last frame): the start (turn 0, the first frame: the position before any order), then
    every Game-Turn after the last event of its last order (an order that ends the Game-Turn's last phase causes
    events the view counts in the next one: they are that order's, so the point is after them, a position between
    two orders); a game whose sequence names no Game-Turn (Dai Senso's Combat Phases) has its start and its last
    frame."""
    frames = rep.frames
    last: list[tuple[int, int]] = []
    for i, frame in enumerate(frames[1:], start=1):
        if frame.turn is None:
            continue
        if last and last[-1][0] == frame.turn:
            last[-1] = (frame.turn, i)
        else:
            last.append((frame.turn, i))
    out: list[tuple[int, int]] = [(0, 0)]
    for turn, i in last:
        while i + 1 < len(frames) and frames[i + 1].type != ORDER:
            i += 1
        if i > out[-1][1]:  # a Game-Turn wholly made of the previous one's last order's events has no point
            out.append((turn, i))
    if out[-1][1] != len(frames) - 1:
        out.append((out[-1][0] + 1, len(frames) - 1))
    return out


class Shared:
    """The orders of `greedy` or `random` in the playouts from one position, worked out once: their tie-breaks are
    drawn for the position and the number of orders since it (`tie_break`), so every playout gives the same
    orders until a die tells it apart, and an order no die took part in leads, from the same position, to the
    same one in every playout (`after`: the position before, kept so its id stays its own, and the one after)."""

    def __init__(self, seed: str):
        self.seed = seed
        self.after: dict[int, tuple[Any, Any]] = {}

    def tie_break(self, orders: int) -> random.Random:
        return random.Random(f"{self.seed}:ties:{orders}")


def playout(rules, state: Any, turn: int, name: str, settings: dict, seed: str, given: int,
            shared: Shared | None = None, endings: Counter | None = None) -> Any:
    """The position one playout reaches from `state` (the end of `turn`): through the next Game-Turn, or to the
    game's end (`DEPTH` orders at most), by the policy for both sides with the playout's own dice. `endings`
    counts how it ended (`ENDINGS`)."""
    endings = endings if endings is not None else Counter()
    shared = shared if shared is not None else Shared(seed)
    dice = PlayoutDice(random.Random(seed))
    orders = dict.fromkeys(rules.sides, given)
    step, now = None, None
    for k in range(DEPTH):
        if rules.outcome(state) is not None:
            endings["game over"] += 1
            return state
        prompt = rules.prompt(state)
        if prompt.step != step:  # the turn changes only with the step: the view is read once a step
            step, now = prompt.step, turn_of(rules.view(state, None), prompt.step)
        if prompt.side is None or (now is not None and now > turn + 1):
            endings["turn played" if prompt.side is not None else "stopped"] += 1
            return state
        if name in FAST:
            known = shared.after.get(id(state))
            if known is not None and known[0] is state:
                state = known[1]
                continue
            rolled = dice.next_index
            after = _fast(rules, state, prompt.side, name, dice, shared.tie_break(k))
            if after is None:
                endings["stopped"] += 1
                return state  # no order the rules take here: valued as it stands
            if dice.next_index == rolled == 0:  # no die yet: every playout that reaches `state` goes on to `after`
                shared.after[id(state)] = (state, after)  # (after a die, the positions are this playout's own)
            state = after
            continue
        try:
            text, _ = practice.choose(rules, name, state, prompt.side, settings, orders[prompt.side])
            for event in rules.decide(state, rules.parse(text, prompt.side, state), dice):
                state = rules.evolve(state, event)
        except (practice.NoOrder, OrderError, ValueError, KeyError):
            endings["stopped"] += 1
            return state  # a position the policy cannot go on from: valued as it stands
        orders[prompt.side] += 1
    endings["stopped"] += 1
    return state


def _fast(rules, state: Any, side: str, name: str, dice: PlayoutDice, rng: random.Random) -> Any | None:
    """The position after `side`'s next order in a playout of `greedy` or `random`: the policy's choice with the
    tie-breaks `rng` draws (`Shared.tie_break`; not a seed from the side's view, which a seat's policy needs and
    a playout does not), each order tried once by the rules with the playout's dice (no separate check first);
    greedy's rated orders best first, then a random one. None: the rules take none."""
    rated: list[str] = []
    if name == "greedy":
        listed = rules.legal_orders(state, side)
        rng.shuffle(listed)
        rated = [text for score, text, _ in practice.ratings(rules, state, side, listed) if score is not None]
    for tries in (rated, None):
        for text in tries if tries is not None else practice.orders_to_try(rules, state, side, rng):
            try:
                after = search.apply_command(rules, state, rules.parse(text, side, state), dice)
            except (OrderError, ValueError, KeyError):
                continue
            if after != state:  # an order that changes nothing could be given for ever
                return after
    return None


def score(rules, state: Any, side: str) -> float:
    """1 won, 0 lost, 1/2 drawn; a game not over: the evaluation read as a chance."""
    outcome = rules.outcome(state)
    if outcome is not None:
        return 0.5 if outcome.winner is None else float(outcome.winner == side)
    return (1 + evaluation.value(rules, state, side)) / 2


def turning_points(rules, rep: Replay, points: list[dict], ends: list[tuple[int, int]]) -> list[dict]:
    """The `TURNING_POINTS` largest swings of the first side's chance, each with the event that caused it."""
    if len(points) < 2:
        return []
    first = rep.sides[0]
    swings = [(abs(b["chances"][first] - a["chances"][first]), k) for k, (a, b) in
              enumerate(zip(points, points[1:], strict=False), start=1)]
    out = []
    for size, k in sorted(swings, reverse=True)[:TURNING_POINTS]:
        if size <= 0:
            break
        before, after = points[k - 1], points[k]
        lo, hi = ends[k - 1][1] + 1, ends[k][1]
        cause = _cause(rules, rep, lo, hi, first, after["chances"][first] - before["chances"][first])
        out.append({"turn": after["turn"], "swing": {s: round(after["chances"][s] - before["chances"][s], 4)
                                                     for s in rep.sides}, **cause})
    return out


def _cause(rules, rep: Replay, lo: int, hi: int, side: str, direction: float) -> dict:
    """The event among frames lo..hi whose evaluation change for `side` went furthest in `direction`, with the
    order that produced it and the dice rolled with that order."""
    best, best_change = None, 0.0
    previous = evaluation.value(rules, rep.games[lo - 1], side)
    for i in range(lo, hi + 1):
        now = evaluation.value(rules, rep.games[i], side)
        change = (now - previous) * (1 if direction >= 0 else -1)
        if change > best_change:
            best, best_change = i, change
        previous = now
    if best is None:
        return {"seq": None, "event": None, "order": None, "dice": []}
    order_at = next((j for j in range(best, -1, -1) if rep.frames[j].type == ORDER), None)
    batch: list[Frame] = []
    if order_at is not None:
        for frame in rep.frames[order_at + 1:]:
            if frame.type == ORDER:
                break
            batch.append(frame)
    return {"seq": rep.frames[best].seq, "event": rep.frames[best].text,
            "order": None if order_at is None else {"seq": rep.frames[order_at].seq,
                                                    "text": rep.frames[order_at].text},
            "dice": [f.text for f in batch if f.type == "core.DieRolled"]}
