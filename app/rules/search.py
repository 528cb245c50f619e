"""The strong practice opponent, `search` (issue 29): a Monte Carlo tree search over the legal orders, with
playouts through the rules themselves on positions sampled from what its side may see.

Its shape is OpenSpiel's MCTS bot, open loop (each playout deals its own dice and replays the orders of its path,
so chance needs no nodes of its own), with a value at the leaves where TripleA's Pro AI would simulate a battle:

1. a position the side cannot tell from the real one, its hidden parts drawn (app/rules/belief.py): playout i
   plays on sample i mod `WORLDS`, and playout i of every order deals the same dice (common random numbers);
2. down the tree by PUCT (AlphaZero's rule: the mean, scaled to the values seen as MuZero does (from edition 9 to
   those alone; before, to them and 0, which flattened values that all lay far from 0), plus a bonus
   for orders little tried, weighted by a prior), from the orders the rule set lists as legal (app/rules/legal.py):
   at most `WIDTH` a decision, those the greedy rating puts first (the best odds, the nearest objectives, what the
   step asks for or brings into play, `end`) and others drawn at random, each tried once, then the prior from
   that rating (`TIERS`): so a step's reinforcements are placed before it is ended, unless the playouts say
   otherwise; from edition 5, where the rule set counts the units over its stacking limits, none that puts more
   over them, and no `end` while one brings them within (`within_limits`); from edition 7, beside the list, the
   orders toward what the victory conditions still need where the rule set names them (`aims`: Olympic's moves
   nearest the last Japanese units south and Kagoshima), for the list spreads a unit's moves over the map, and
   of the listed orders only those the rule set's `searched` keeps (Formosa: no LP spent before the bases, no
   hopeless forced attack). A decision below the root is opened on its second visit, the opponent's choosing the
   order worst for the side;
3. at the leaf, `settle`: the sequence carried on through the steps no side may end (a loss to take, a retreat,
   an advance, a roll) by random legal orders; from edition 3 (app/rules/practice.py) then `close`: the side
   deciding there ends its steps until the other side has a choice, so what a phase's end does is seen;
4. the position valued for the side (app/rules/evaluation.py): 1 won, -1 lost, else material, the victory hexes
   held, reach and safety, and from edition 3 the game's own stakes, within +-0.9; every decision on the path
   learns the value.

The order played is the root's most visited. A decision with one usable order plays it without a playout.

The budget, chosen at the game's creation: `search` thinks for about `SECONDS` of CPU a decision (`search:3s`
for another time): it runs playouts while another as long as the longest so far fits in its CPU time (at least
`MIN_PLAYOUTS`), and its reason records the playouts done, which `verify` re-runs exactly, whatever its clock says.
`search:N` runs exactly N playouts a decision, whatever the time. Every draw is seeded by the side's view and the
orders it has given (app/rules/practice.py `view_seed`), so a given number of playouts gives the same order in any
process.

A seat's decision is kept in the process by everything it reads (`Search.kept`, `Search.question`): `verify`, in
the process that played the game, re-decides each order from what its play found, without its playouts; only a
decision made here fills what is kept, never a stored order or reason.
"""
from __future__ import annotations

import collections
import copy
import functools
import hashlib
import io
import math
import pickle
import random
import threading
import time
import weakref
from typing import Any

from app.events.core import DieRolled
from app.rules import belief, evaluation, odds_scale, practice
from app.rules.errors import OrderError

SEARCH_CASE = "strong practice opponent (docs/play-by-email.md)"
SECONDS = 2.0  # CPU a decision when the creator names no budget (docs/benchmarks.md: the 95th percentile)
MAX_SECONDS = 60.0
MIN_PLAYOUTS = 16  # a timed decision runs at least these, however slow the machine
RESERVE = 0.01  # CPU seconds a timed decision keeps, at least, for choosing after its playouts
MAX_PLAYOUTS = 20000
WIDTH = 12  # orders searched a decision
RATED = 8  # of them, those the greedy rating puts first; the rest drawn at random
HORIZON = 40  # orders `settle` gives at the end of a playout, at most
CLOSE = 60  # orders edition 3's `close` gives after `settle`, at most
WORLDS = 8  # positions sampled from the side's view a decision; playout i plays on sample i mod WORLDS
EXPAND_AT = 2  # a decision below the root is searched from its second visit (before, a playout values it)
DEPTH = 24  # decisions a playout goes down the tree, at most
EXPLORE = 1.5  # PUCT's exploration constant, on means scaled to 0..1 (AlphaZero's c_puct)
TIERS = ((1000, 4.0), (100, 3.0), (10, 2.0), (0, 1.0))  # greedy's rating -> prior weight: an attack at good odds,
# a move toward an objective, what the step asks for or brings units in, `end`; anything else 0.5
ENDS = practice.ENDS
SEARCHED_SINCE = 7  # the edition that reads a rule set's `searched` (app/rules/base.py Optional)
ROLLOUT_SINCE = 8  # the edition that plays a playout out where the rule set's `near_end` says the end is near
ROLLOUT = 80  # orders edition 8's `rollout` gives past the tree, at most
TIED_SINCE, TIE = 9, 0.1  # from edition 9 a played-out playout lost is valued -1 and TIE of the leaf's value, where
# the playout left the tree: where every playout is lost (Dai Senso's august-storm soviets against greedy's axis)
# the outcome alone reads every order alike, and the search advanced the last unit out of Manchouli (D16) when a
# random axis had given Hailar up; a playout won or drawn keeps its outcome's value
AIMED_SINCE, AIMS = 10, 3  # from edition 10 at most AIMS of the rule set's `aims` a decision, one a unit first
# (Olympic's and SNC's give three at most; Formosa's, read by the search from edition 10, up to ten: searched.py)
SCALED_SINCE = 9  # the edition that scales the tree's means to the values seen alone (MuZero), not to them and 0
UNPRICED_SINCE, UNPRICED = 8, 2.0  # from edition 8 an attack listed without odds (its column known only as the
# dice fall: Olympic's militia die, R28) is weighed as what the step asks for, not as an order not worth giving


def budget_setting(text: str) -> dict:
    """The settings of `search:TEXT`: "" -> {"seconds": SECONDS}; "3s" -> {"seconds": 3.0}; "400" ->
    {"playouts": 400}. Raises ValueError naming what is wrong."""
    if not text:
        return {"seconds": SECONDS}
    try:
        if text.endswith("s"):
            seconds = float(text[:-1])
            if not 0.1 <= seconds <= MAX_SECONDS:
                raise ValueError
            return {"seconds": seconds}
        n = int(text)
        if not 1 <= n <= MAX_PLAYOUTS:
            raise ValueError
        return {"playouts": n}
    except ValueError:
        raise ValueError(f"search takes a number of playouts a decision (1 to {MAX_PLAYOUTS}: search:400) or a CPU "
                         f"time (0.1 to {MAX_SECONDS:g} s: search:3s), not {text!r}") from None


def budget_text(settings: dict) -> str:
    """What `budget_setting` reads back as these settings."""
    return f"{settings['seconds']:g}s" if "seconds" in settings else str(settings["playouts"])


class PlayoutDice:
    """A playout's chance: the dice, faces drawn by `rng` (never stored, never the game's dice), and the random
    orders `settle` picks with the same generator (`picks`)."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.next_index = 0
        self.picks = 0

    def roll(self, purpose: str, sides: int = 6) -> DieRolled:
        rolled = DieRolled(index=self.next_index, sides=sides, value=self.rng.randint(1, sides), purpose=purpose)
        self.next_index += 1
        return rolled


def _tier(score: float | None) -> float:
    return next((weight for least, weight in TIERS if score is not None and score >= least), 0.5)


class Node:
    """A decision in the tree, reached by the orders on the path to it whatever the dice did on the way (open
    loop: each playout deals its own dice and replays the path): who decides, the orders searched there, and for
    each its visits and the sum of its playouts' values (for the searching side)."""

    def __init__(self):
        self.side: str | None = None
        self.arms: dict[str, float] | None = None  # order -> prior
        self.visits = 0
        self.n: dict[str, int] = {}
        self.total: dict[str, float] = {}
        self.children: dict[str, Node] = {}

    def mean(self, arm: str) -> float:
        return self.total[arm] / self.n[arm] if self.n.get(arm) else 0.0


def policy(rules, settings: dict) -> practice.Policy:
    """`search` with the seat's settings ({"playouts": N} or {"seconds": T}); a decision `verify` re-runs passes the
    stored reason, whose playouts it runs again exactly."""
    def play(state: Any, side: str, given: int = 0, replaying: dict | None = None) -> tuple[str, dict]:
        if replaying is not None and isinstance(replaying.get("playouts"), int):  # bounded: a stored reason is
            playouts, seconds = min(max(replaying["playouts"], 0), MAX_PLAYOUTS), None  # no licence to run for ever
        else:
            playouts, seconds = settings.get("playouts", MAX_PLAYOUTS), settings.get("seconds")
        return Search(rules, state, side, playouts, given, seconds, settings.get("edition", 2)).kept()

    return play


KEPT = 512  # answers a process keeps (`Search.kept`), the least recently asked dropped first
_KEPT: collections.OrderedDict[tuple, tuple[str, dict]] = collections.OrderedDict()
_KEEPING = threading.Lock()


class _Same:
    """An object in a key by identity, not by value (the rule set, the game's data): equal only to a key holding
    the same object, and held weakly where it can be (a game's data), so a key outlives nothing: a dead object's
    key equals no live one's, whatever `id` the new one gets."""

    __slots__ = ("ref", "id")

    def __init__(self, obj: Any):
        try:
            self.ref = weakref.ref(obj)
        except TypeError:
            self.ref = lambda obj=obj: obj
        self.id = id(obj)

    def __hash__(self) -> int:
        return self.id

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, _Same) or other.id != self.id:
            return False
        mine = self.ref()
        return mine is not None and mine is other.ref()


def _position(state: Any) -> bytes | None:
    """What the search reads of `state`, whole: its fields (the game's rules version among them, the hidden parts
    too: the root's list of orders is the real position's) pickled, but the game's `data` (its map and tables, as
    the game was set up, held in the key by identity: `question`) and the derived values each state keeps beside it
    (engine/state.py Memo), as a digest; None for a position that cannot be pickled (asked afresh every time). Two
    positions equal but pickled otherwise (a set met in another order) are two questions: answered afresh, never
    wrongly."""
    fields = getattr(state, "__dict__", None)
    out = io.BytesIO()
    writer = pickle.Pickler(out, protocol=5)
    writer.fast = True  # no memo: an object met twice is written twice, so a position folded from the events and
    # the same position read from a snapshot (equal values, shared otherwise) give the same bytes
    try:
        writer.dump({k: v for k, v in fields.items() if k != "data"} if isinstance(fields, dict) else state)
    except (pickle.PicklingError, TypeError, AttributeError, ValueError, RecursionError):
        return None
    return hashlib.sha256(out.getvalue()).digest()


class Search:
    """One decision of the strong opponent (see the module docstring)."""

    def __init__(self, rules, state: Any, side: str, budget: int, given: int = 0, seconds: float | None = None,
                 edition: int = practice.EDITION):
        self.rules, self.state, self.side, self.budget, self.given = rules, state, side, budget, given
        self.edition = edition  # the seat's policies' edition: which evaluation it plays by
        self.seconds = seconds  # None: exactly `budget` playouts; else until this much CPU time, at most `budget`
        self.done = 0
        self.worlds: dict[int, Any] = {}
        self.root = Node()
        # the values seen so far, to scale the tree's means (as MuZero does); before edition 9 from 0, so a
        # decision whose values all lay near -0.6 scaled them over 0.6 and PUCT could not tell them apart
        self.low, self.high = (0.0, 0.0) if edition < SCALED_SINCE else (math.inf, -math.inf)
        self.made = 0  # nodes expanded, for their draws' seeds
        self.started = time.process_time()  # a timed decision's CPU counts from here
        self.ran_at = 0.0

    @functools.cached_property
    def seed(self) -> int:
        """Every draw's seed: what the side may know (practice.view_seed), asked only when there is a choice."""
        return practice.view_seed(self.rules, self.state, self.side, self.given)

    def question(self, playouts: int) -> tuple | None:
        """Everything the decision reads, as a key: the search's class, the rule set and the game's data (each by
        identity), the position (`_position`: the rules version the game is played under among its fields), the
        side, the orders it has given (with the side's view, the seed of every draw), the edition (its evaluation,
        its choice of orders) and the playouts run. The clock is not in it: a timed decision is the exact one of
        as many playouts as it ran (what `verify` re-runs). None where the position has no key."""
        position = self.__dict__.get("_digest", False)
        if position is False:
            position = self._digest = _position(self.state)
        if position is None:
            return None
        return (type(self), _Same(self.rules), _Same(getattr(self.state, "data", None)), type(self.state), position,
                self.side, self.given, self.edition, playouts)

    def kept(self) -> tuple[str, dict]:
        """`decide`, the answer kept (at most `KEPT` in a process): a question asked again (`question`: an
        automated seat's decision that `verify` re-decides in the process that played it, the tests' whole games)
        is answered as the first time, and any other is decided. Only a decision made here fills it, never a
        stored order or reason: `verify` compares the stored order with a decision (this process's, or one made
        now), so a stored order or reason changed after the fact still differs from it. A timed decision is looked
        up by nobody (its playouts are the clock's) but kept as the exact decision of the playouts it ran, as is
        any decision (one with a single order worth giving runs none: `verify` asks it with none)."""
        asked = self.question(self.budget) if self.seconds is None else None
        if asked is not None:
            with _KEEPING:  # a server's threads may decide at once
                found = _KEPT.get(asked)
                if found is not None:
                    _KEPT.move_to_end(asked)
            if found is not None:
                return found[0], copy.deepcopy(found[1])
        text, why = self.decide()
        kept, keys = (text, copy.deepcopy(why)), {asked, self.question(self.done)} - {None}
        with _KEEPING:
            for key in keys:
                _KEPT[key] = kept
                _KEPT.move_to_end(key)
            while len(_KEPT) > KEPT:
                _KEPT.popitem(last=False)
        return text, why

    def decide(self) -> tuple[str, dict]:
        root = self.root
        root.side, root.arms = self.side, self.candidates(self.state, self.side, root=True)
        while root.arms:
            if len(root.arms) == 1:
                only = next(iter(root.arms))
                if practice.usable(self.rules, self.state, self.side, only) is not None:
                    return only, {"case": SEARCH_CASE, "rule": "only order", "playouts": 0,
                                  "summary": "search: the one order worth giving here"}
                break
            if not root.visits:
                self.run()
            ranked = sorted(root.arms, key=lambda a: (-root.n.get(a, 0), -root.mean(a)))
            if practice.usable(self.rules, self.state, self.side, ranked[0]) is not None:
                return ranked[0], self.reason(ranked)
            root.arms = {a: p for a, p in root.arms.items() if a != ranked[0]}
        raise practice.NoOrder(f"no order of {self.side} is legal ({self.rules.prompt(self.state).step})")

    def reason(self, ranked: list[str]) -> dict:
        root, best = self.root, ranked[0]
        value = round(root.mean(best), 3)
        why = {"case": SEARCH_CASE, "rule": "most playouts", "playouts": self.done, "visits": root.n.get(best, 0),
               "value": value}
        runner = ranked[1] if len(ranked) > 1 else None
        against = (f"; next {runner!r}, {root.n.get(runner, 0)} playouts, {root.mean(runner):+.2f}"
                   if runner is not None else "")
        why["summary"] = (f"search: {why['visits']} of {self.done} playouts, worth {value:+.2f} (1 won, -1 "
                          f"lost){against}")
        return why

    def run(self) -> None:
        """The playouts: `budget` of them, or, timed, while one more playout (as long as the longest so far) and the
        choosing after them fit in what is left of `seconds` of CPU time since the decision began (at least
        `MIN_PLAYOUTS`, at most `budget`): so the decision stays within its budget rather than ending with the
        playout that passes it. The longest, not the mean: a playout that opens a decision of many orders costs
        far more than most (an Olympic combat phase's list of attacks, each with its odds: 76 ms where the mean
        was 11), and the mean let one such playout begun near the end carry the decision past its budget. A stored
        reason records the playouts done, which `verify` runs again whatever the clock."""
        longest, last = 0.0, 0.0
        for i in range(self.budget):
            if self.seconds is not None:
                now = time.process_time()
                if i == 0:
                    self.ran_at = now - self.started  # CPU before the first playout: the choosing after is as long
                longest, last = (max(longest, now - last) if i else 0.0), now
                if i >= MIN_PLAYOUTS and now - self.started + longest + max(self.ran_at, RESERVE) >= self.seconds:
                    break
            self.iterate(i)
            self.done = i + 1

    # -- which orders ------------------------------------------------------------------------------------------
    def candidates(self, state: Any, side: str, root: bool = False) -> dict[str, float]:
        """The orders searched at a decision, each with its prior: the legal list, the greedy rating's first
        `RATED`, `end`, then others at random, `WIDTH` in all, best rated first."""
        rules = self.rules
        try:
            listed = rules.legal_orders(state, side)
        except (OrderError, ValueError, KeyError):
            return {}  # a sampled position the rules cannot list: the playout ends there
        aims = self.aims(state, side, listed)
        if len(listed) + len(aims) <= 1:
            return {item["order"]: 1.0 for item in listed} or dict.fromkeys(aims, 1.0)
        self.made += 1
        random.Random(f"{self.seed}:node:{0 if root else self.made}").shuffle(listed)
        searched = evaluation.hook(rules, "searched", self.edition, since=SEARCHED_SINCE)
        if searched is not None:
            kept = set(searched(state, side, [item["order"] for item in listed]))
            listed = [item for item in listed if item["order"] in kept] or listed
            if len(listed) <= 1:
                return {item["order"]: 1.0 for item in listed}
        rated = [(text, _tier(score)) for score, text, _ in practice.ratings(rules, state, side, listed)]
        if self.edition >= UNPRICED_SINCE:
            unpriced = {item["order"] for item in listed
                        if item["order"].split()[0] in practice.COMBAT and item.get("odds") is None}
            if unpriced:
                rated = sorted(((text, max(tier, UNPRICED) if text in unpriced else tier) for text, tier in rated),
                               key=lambda r: -r[1])
        if evaluation.hook(rules, "overstacked", self.edition) is not None:
            chosen = self.within_limits(state, side, rated)
        else:
            first = rated[:RATED]
            ends = [r for r in rated if r[0].split()[0] in ENDS and r not in first][:1]
            rest = [r for r in rated[RATED:] if r not in ends]
            chosen = first + ends + rest[:WIDTH - len(first) - len(ends)]
        if aims:
            chosen = chosen[:max(WIDTH - len(aims), RATED + 1)] + [(text, _tier(100)) for text in aims]
        total = sum(tier for _, tier in chosen)
        return {text: tier / total for text, tier in chosen}

    def aims(self, state: Any, side: str, listed: list[dict]) -> list[str]:
        """From edition 7, the rule set's moves toward what its victory conditions still need (its optional `aims`:
        Olympic's units toward the last Japanese units south and Kagoshima) that the legal list lacks, each one the
        rules accept and that changes the position: searched beside the list's, for the list offers a unit's moves
        spread over the map, not toward anything. From edition 10 (`AIMED_SINCE`, when the search first reads
        Formosa's: each engineer's steps toward a bare port or airfield, up to ten at once in scenario 2) at most
        `AIMS`, each unit's first before any unit's second, so the orders searched stay about `WIDTH` (a rule set
        naming `AIMS` or fewer, Olympic's and SNC's, is searched as in edition 9)."""
        found = evaluation.hook(self.rules, "aims", self.edition, since=7)
        if found is None:
            return []
        known = {item["order"] for item in listed}
        texts = [text for text in found(state, side, edition=self.edition) if text not in known]
        cut = self.edition >= AIMED_SINCE and len(texts) > AIMS  # Olympic's and SNC's (three at most) as before
        if cut:
            texts = _one_a_unit(texts)
        out = []
        for text in texts:
            if cut and len(out) >= AIMS:
                break
            if practice.usable(self.rules, state, side, text) is not None:
                out.append(text)
        return out

    def within_limits(self, state: Any, side: str, rated: list[tuple[str, float]]) -> list[tuple[str, float]]:
        """Edition 5's choice of the orders searched, where the rule set counts the units over its stacking limits
        (`overstacked`), which the end of a phase eliminates (SNC 6.0): as `candidates` chooses, but passing over
        an order that puts more units over the limits, and while some are, the orders that bring them within
        first and no `end` as long as one does. The evaluation weighs such a loss as a share of all the strength
        on the map (15 Chinese units of 60 lost so in one SNC game moved its value by 0.013), too little beside
        the playouts' noise, so the search placed and moved units into full hexes and ended its phases there."""
        rules = self.rules
        before = rules.overstacked(state, side)

        def over(text: str) -> int:
            if text.split()[0] in ENDS or text.split()[0] in practice.COMBAT:
                return before
            try:
                after = practice.after(rules, state, rules.parse(text, side, state))
            except (OrderError, ValueError, KeyError):
                return before
            return before if after is None else rules.overstacked(after, side)

        if before:
            counted = [(r, over(r[0])) for r in rated]
            lower = [r for r, n in counted if n < before]
            if lower:
                return (lower + [r for r, n in counted if n == before and r[0].split()[0] not in ENDS])[:WIDTH]
            rated = [r for r, n in counted if n <= before]
        first, i = [], 0
        while len(first) < RATED and i < len(rated):
            if before or over(rated[i][0]) <= before:
                first.append(rated[i])
            i += 1
        ends = [r for r in rated if r[0].split()[0] in ENDS and r not in first][:1]
        rest: list[tuple[str, float]] = []
        for r in rated[i:]:
            if len(first) + len(ends) + len(rest) >= WIDTH:
                break
            if r not in ends and (before or over(r[0]) <= before):
                rest.append(r)
        return first + ends + rest

    # -- the tree ----------------------------------------------------------------------------------------------
    def world(self, k: int) -> Any:
        """Sample k of the position, hidden parts drawn (the same for every order: common random numbers)."""
        if k not in self.worlds:
            self.worlds[k] = belief.sample(self.rules, self.state, self.side, random.Random(f"{self.seed}:world:{k}"),
                                           edition=self.edition)  # from 9 the rule set's `unseen` parts drawn too
        return self.worlds[k]

    def iterate(self, i: int) -> None:
        """Playout i: down the tree from sample i mod `WORLDS` with its own dice (`descend`), then, from a decision
        the tree did not know yet, `settle` (and edition 3's `close`), and value the position; every decision on
        the way learns the value. From edition 8, where the rule set says the game's end is near (`near_end`),
        the playout is played out instead (`rollout`) wherever it left the tree, the dice's detours included: the
        outcome is its value; from edition 9 a loss's with a tenth of the value of the position where it left the
        tree (`TIE`), so that orders whose playouts are all lost are told apart by what they keep."""
        dice = PlayoutDice(random.Random(f"{self.seed}:dice:{i}"))
        state, path, unknown = self.descend(self.world(i % WORLDS), dice)
        near_end = evaluation.hook(self.rules, "near_end", self.edition, since=ROLLOUT_SINCE)
        if near_end is not None and self.rules.outcome(state) is None and near_end(state):
            leaf = evaluation.value(self.rules, state, self.side, self.edition) if self.edition >= TIED_SINCE else None
            state = rollout(self.rules, state, dice)
            found = evaluation.value(self.rules, state, self.side, self.edition)
            if leaf is not None and found <= -1.0:  # edition 9: a loss, and a tenth of the leaf's value
                found = (1 - TIE) * found + TIE * leaf
            self.learn(path, found)
            return
        elif unknown:
            state = settle(self.rules, state, dice)
            if self.edition >= 3:
                state = close(self.rules, state, dice)
        self.learn(path, evaluation.value(self.rules, state, self.side, self.edition))

    def descend(self, state: Any, dice: PlayoutDice) -> tuple[Any, list[tuple[Node, str]], bool]:
        """Down the tree by PUCT from `state` with `dice`, one decision further than the tree knew: the position
        reached, the (node, order) path taken, and whether it stopped at a decision the tree does not know yet
        (rather than at the game's end, a decision the dice moved elsewhere, or an order refused in this
        sample, where the position is valued as it is)."""
        rules, node, path = self.rules, self.root, []
        while rules.outcome(state) is None:
            if node is not self.root and (node.visits < EXPAND_AT or len(path) >= DEPTH):
                node.visits += 1
                return state, path, True
            side = rules.prompt(state).side
            if node.arms is None:
                node.side, node.arms = side, self.candidates(state, side)
            node.visits += 1
            if side != node.side or not node.arms:
                break  # the dice took this playout elsewhere than the tree's first visit
            arm = self.select(node)
            path.append((node, arm))
            try:
                state = apply_command(rules, state, rules.parse(arm, side, state), dice)
            except (OrderError, ValueError, KeyError):
                break  # refused in this sample: it does nothing there
            node = node.children.setdefault(arm, Node())
        return state, path, False

    def learn(self, path: list[tuple[Node, str]], found: float) -> None:
        """Every decision on `path` learns a playout's value `found` (for the searching side)."""
        self.low, self.high = min(self.low, found), max(self.high, found)
        for at, arm in path:
            at.n[arm] = at.n.get(arm, 0) + 1
            at.total[arm] = at.total.get(arm, 0.0) + found

    def select(self, node: Node) -> str:
        """PUCT: an order not yet tried (the best rated first), else the best of mean (for the side deciding
        there, scaled to the values seen) plus `EXPLORE` * prior * sqrt(N) / (1 + n)."""
        for arm in node.arms:
            if not node.n.get(arm):
                return arm
        sign = 1.0 if node.side == self.side else -1.0
        span = (self.high - self.low) or 1.0
        root_n = math.sqrt(sum(node.n[a] for a in node.arms))

        def score(arm: str) -> float:
            q = (sign * node.mean(arm) - (self.low if sign > 0 else -self.high)) / span
            return q + EXPLORE * node.arms[arm] * root_n / (1 + node.n[arm])

        return max(node.arms, key=score)


def _one_a_unit(texts: list[str]) -> list[str]:
    """`texts` (moves, `move UNIT ...`) with each unit's first before any unit's second, else as given."""
    rank: dict[str, int] = {}
    keyed = []
    for n, text in enumerate(texts):
        words = text.split()
        unit = words[1] if len(words) > 1 else text
        keyed.append((rank.get(unit, 0), n, text))
        rank[unit] = rank.get(unit, 0) + 1
    return [text for _, _, text in sorted(keyed)]


def apply_command(rules, state: Any, command, dice) -> Any:
    """The position after `command`, decided with `dice` (a playout's: nothing is stored)."""
    for event in rules.decide(state, command, dice):
        state = rules.evolve(state, event)
    return state


def settle(rules, state: Any, dice: PlayoutDice, horizon: int = HORIZON) -> Any:
    """Carry the sequence on through the steps no side may end, by random legal orders drawn with the dice's
    generator, until a step a side may end, the end of the game, or `horizon` orders."""
    for _ in range(horizon):
        if rules.outcome(state) is not None:
            return state
        prompt = rules.prompt(state)
        if prompt.side is None or any(prompt.allows(a) for a in ENDS):
            return state
        nxt = step(rules, state, prompt.side, dice)
        if nxt is None:
            return state
        state = nxt
    return state


def close(rules, state: Any, dice: PlayoutDice, horizon: int = CLOSE) -> Any:
    """Edition 3's rollout from a leaf: the side deciding there ends each step it may end, and the steps no side
    may end are answered at random (`settle`), until the other side may end a step, the end of the game, or
    `horizon` orders. What a phase's end does to the orders given in it (SNC 6.0's stacking check, a Formosa
    invasion's landing) is then in the position valued; the opponent's own choices stay with the evaluation's
    safety and stakes readings."""
    prompt = rules.prompt(state)
    mine = prompt.side
    for _ in range(horizon):
        if mine is None or rules.outcome(state) is not None:
            return state
        prompt = rules.prompt(state)
        ends = [a for a in ENDS if prompt.allows(a)]
        if prompt.side is None or (ends and prompt.side != mine):
            return state
        if not ends:
            nxt = step(rules, state, prompt.side, dice)
        else:
            try:
                nxt = apply_command(rules, state, rules.parse(ends[0], prompt.side, state), dice)
            except (OrderError, ValueError, KeyError):
                nxt = None
        if nxt is None:
            return state
        state = nxt
    return state


def rollout(rules, state: Any, dice: PlayoutDice, horizon: int = ROLLOUT) -> Any:
    """Edition 8's playout past the tree where the game's end is near: each side's order as greedy would give it
    (`greedy_step`), to the end of the game or `horizon` orders. A leaf's evaluation reads material and ground
    where the victory conditions are a count at the end (Dai Senso D16: the hexes held after the last Combat
    Phase): two orders whose chances of that count lie far apart read alike, and an order is chosen on the noise;
    the outcome itself tells them apart."""
    for _ in range(horizon):
        if rules.outcome(state) is not None:
            return state
        side = rules.prompt(state).side
        nxt = None if side is None else greedy_step(rules, state, side, dice)
        if nxt is None:
            return state
        state = nxt
    return state


def greedy_step(rules, state: Any, side: str, dice: PlayoutDice) -> Any | None:
    """The position after one order of `side`: the one greedy rates best (app/rules/practice.py `ratings`, equals
    in an order drawn by the dice's generator) that the rules accept with `dice`, else a random one (`step`).
    Where greedy would end the step and the game's stakes read the side as losing (`desperate`), the listed attack
    at the best odds first: greedy attacks only from 3:2, and a side that loses if nothing changes loses nothing
    by a long chance (Across the Strait: the Japanese counterattack on Taihoku, their one way back to D16)."""
    listed = rules.legal_orders(state, side)
    dice.rng.shuffle(listed)
    rated = [(text, score) for score, text, _ in practice.ratings(rules, state, side, listed) if score is not None]
    if (not rated or rated[0][0].split()[0] in ENDS) and desperate(rules, state, side):
        attacks = sorted((-ratio, n, item["order"]) for n, item in enumerate(listed)
                         if item["order"].split()[0] in practice.COMBAT
                         and item.get("odds") is not None and (ratio := odds_scale.of(item["odds"])) is not None)
        rated = [(text, 0) for _, _, text in attacks] + rated
    for text, _ in rated:
        try:
            return apply_command(rules, state, rules.parse(text, side, state), dice)
        except (OrderError, ValueError, KeyError):
            continue
    return step(rules, state, side, dice)


def desperate(rules, state: Any, side: str) -> bool:
    """The rule set's stakes read `side` as losing the game as the position stands (below 0)."""
    stakes = getattr(rules, "stakes", None)
    return stakes is not None and stakes(state, side, edition=ROLLOUT_SINCE) < 0


def step(rules, state: Any, side: str, dice: PlayoutDice) -> Any | None:
    """The position after one order of `side`: a random one the rules accept with `dice`."""
    dice.picks += 1
    for text in practice.orders_to_try(rules, state, side, dice.rng):
        try:
            return apply_command(rules, state, rules.parse(text, side, state), dice)
        except (OrderError, ValueError, KeyError):
            continue
    return None
