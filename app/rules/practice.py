"""Policies: how the server plays an automated seat (issues 18 and 29; app/service/autoplay.py gives their orders).

A policy is `policy(state, side) -> (order text, reason)`, the reason a JSON object naming the rule that chose
the order ({"case", "summary", ...}); the practice policies below also take `given`, the number of orders the side
has given so far (its own history). It is a pure function of what `side` may know: no clock, no I/O, and any
randomness drawn from a generator seeded by the side's own view and `given` (`view_seed`; never the hidden parts,
issue 25), so `verify` re-runs it on the stored state and finds any difference; with `given` in the seed a policy
that meets a position again (a naval transfer there and back, Ichi-Go 10.11) draws afresh, and does not go round
for ever. Which policies a rule set offers:

- its own, in the optional member `policies` (name -> policy; the first is its default): Olympic's programmed
  Japanese;
- `greedy` (a practice opponent), for a rule set that lists its legal orders and draws a map: the attack at the
  best odds (3:2 or better), else the move that brings a unit nearest an objective (a victory hex the side does
  not hold, else a hex where it sees an enemy unit) without leaving a victory hex it holds empty, else an order
  that brings units into play or spends what the side has, or a decision the step forces, else (from edition 8)
  an order that raises the game's own stakes (Formosa's `build`), else `end`; an attack the step forces below
  3:2 (Formosa 15.0): from edition 5 the one at the best odds, before it a random order; from edition 8 no order
  that puts units over the stacking limits, nor any the rule set's `searched` passes over;
- `random` (the fuzzers' random player, docs/architecture.md practice 10): a random legal order;
- `search` (the strong practice opponent, app/rules/search.py): playouts through the rules themselves, a fixed
  number of them a decision (`search:N` at creation), on positions sampled from the side's view.

Every policy gives only an order the rules accept whatever the dice show, and never one that changes nothing
(which it could give for ever).

Editions: a seat records the settings it was created with (core.SeatAutomated.settings: {"edition": 3, ...});
`verify` re-decides each order with them. A seat automated before settings were recorded is edition 1
(app/rules/practice_v1.py), decided as it was played. Edition 2 is edition 3 but for the search's evaluation,
which reads the rule set's own stakes from edition 3 on (app/rules/evaluation.py); edition 4 is edition 3 but for
what SNC's stakes read (the Shanghai ring's hexes held while 4.2 can end the game); edition 5 is edition 4 but for
the search: its evaluation weighs the game's stakes more as its end nears and SNC's cities against the Game-Turns
left, and it does not search a move that puts more units in a hex than the stacking limits allow
(app/rules/search.py `within_limits`), and greedy, rating nothing where the step may not be ended (an attack the
rules require below 3:2, Formosa 15.0), gives the listed attack at the best odds instead of a random order
(`forced_attack`). Edition 6 is edition 5 but for Formosa's search: its stakes read the net VP with a gradient over
the whole range and count the LP kept for the bases its engineers can build (app/rules/formosa/victory.py), and it
passes over moves that overstack (13.3). Edition 7 is edition 6 but for three games' search: Formosa's
does not search the Allied orders its rule set's `searched` passes over (LP spent below what the bases in reach
need, a base left unbuilt, units put or left where 15.0 forces a hopeless attack: app/rules/formosa/searched.py),
and its stakes read the net VP linearly; Olympic's stakes read R20's final count against the time left (the
Japanese units south and Kagoshima, each by the American strength near it), weighed more as the end nears
(`progress`), and it searches moves toward them beside the legal list's (`aims`); SNC's stakes read the Shanghai
ring in depth while 4.2 can end the game (each hex held by the Japanese strength next to it, each empty one by the
Chinese units near it). Edition 8 is edition 7 but for two games' search: where the rule set says the end is near
(`near_end`: Dai Senso) each playout is played out to the game's end with greedy's orders and valued by the
outcome (app/rules/search.py `rollout`); Olympic's attacks, listed without odds (the militia die), are searched as
what the step asks for, not below `end`, its final count credits the strength pressing a unit south a quarter of
it (not three quarters), and its `aims` read "nearest" along the Americans' way, Japanese units and intact militia
on it counted as the attacks they need (app/rules/olympic/aims.py `way_to`).
Edition 9 is edition 8 but for the search (search.SCALED_SINCE, olympic victory.MARCH_SINCE): its tree scales the
means to the values its playouts found alone, not to them and 0 (values that all lay near -0.6, or +0.2, scaled
over that span, so PUCT spread its playouts by the prior alone), and Olympic's final count adds to what is left
to do the Game-Turns of march along the Americans' way (`_march`: a hex of Japanese units or intact militia on it a
Game-Turn), so the attack that opens the road south reads above the others; SNC's Chinese search moves into the
Shanghai ring beside the list (victory.py `aims`) and read an empty ring hex as half held only while a move into it
is left before the Japanese player-turn; a lost played-out playout (Dai Senso) is valued -1 and a tenth of the
position where it left the tree (search.TIED_SINCE).
Edition 10 is edition 9 but for Formosa's search (search.AIMED_SINCE, formosa searched.AIMS_SINCE): it searches,
beside the list, the rule set's `aims` (an Allied engineer's step toward a port or airfield without a base, 20.1,
which the list lacks: it offers each unit its longest moves), at most three a decision, each engineer's first
before any engineer's second; greedy of edition 10 decides as greedy of edition 9.
Edition 11 is edition 10 but for Formosa's search (app/rules/formosa/unseen.py `PLANS_SINCE`): the positions it
samples draw the other side's strike plan while it is secret (16.1: the Japanese plan first, so every sample of an
Allied Strike Planning carried the real Japanese plan, and the playouts met it at the reveal); greedy of edition 11
decides as greedy of edition 9 (it reads its samples at `GREEDY_9`).
Edition 8 also changes greedy (`GREEDY_8`): an order none of its rules rates (no attack, no move toward an objective,
nothing the step asks for) is rated by the rule set's `stakes` after it against now (read on a position drawn
from the side's view, app/rules/belief.py, never the hidden parts), above `end` where they rise
(Formosa's `build`, 20.1: the base scores its port's or airfield's VP, 4.2; before it greedy's Allies never built
one, scored 12 VP at most, and could not reach the Draw band); a move by sea (`transfer`, `ship`) is rated as a
move, one that brings units onto the map by how near an objective it puts them; it considers only the orders the
rule set's `searched` keeps (Formosa's Allies: the LP the bases in reach need kept, no unit put where 15.0 forces
a hopeless attack); where the rule set counts the units over its stacking limits (`overstacked`: SNC 6.0, Formosa
13.3) it gives no order that puts more over them and, while some are, brings them within before it ends a step
(`Limits`); and when it rates nothing it draws among those orders, not every order (`drawn`).
Edition 9 changes greedy (`GREEDY_9`, issue 29): the position it reads the stakes on draws, beside the hidden units,
what the rule set's `unseen` hook says the side may not see (app/rules/belief.py; Formosa's: the other side's air
and naval points and invasion markers, 11.0, drawn from the scenario's printed start and the counter mix, never
from the real counts: a Japanese seat's reason for its kamikaze roll read how many amphibious markers the Allies
held, 10.0, 16.6); where it would end a step (or rates nothing) it gives the listed move that raises the game's
stakes most though it gains no ground toward an objective, among the listed moves and the rule set's `aims`
(`stakes_move`: Formosa's engineers one hex nearer a port or airfield without a base, 20.1, which the victory
hexes it walks toward stop drawing once a unit holds them, and which the list offered only marches past); and it
reads the rule set's `searched` at its edition (Formosa's reserve: LP kept for an engineer still to land, none for
a site the Japanese hold). The search draws its samples at its own edition too (from 9 the `unseen` parts drawn).
Random decides alike in editions 2 to 9, greedy in editions 2 to 4, in editions 5 to 7, in edition 8, and in
edition 9.

`automated_seats` (optional member of a rule set): sides the server plays unless a game's creator says otherwise
(Olympic: the Japanese).
"""
from __future__ import annotations

import functools
import hashlib
import inspect
import json
import random
from collections.abc import Callable, Iterator
from json.encoder import encode_basestring_ascii as _quote
from typing import Any

from app.rules import belief, evaluation, odds_scale, practice_v1
from app.rules import legal as listing
from app.rules.base import Command
from app.rules.engine.decision import FixedDice, ProbeDice, ReachedRoll
from app.rules.errors import OrderError
from app.rules.kernel.hexgrid import Hex

Policy = Callable[[Any, str], tuple[str, dict]]
Rated = tuple[float | None, str, dict | None]  # greedy's rating of an order: (score, order text, reason)
EDITION = 11  # the edition a seat automated now records (3: the search's evaluation reads the game's stakes; 4: SNC's
# stakes count the Shanghai ring's hexes held against 4.2; 5: the stakes weigh the time left, the search passes
# over moves that overstack, greedy's forced attack at the best odds; 6: Formosa's stakes, VP with a gradient and LP
# kept for bases, and its search passes over moves that overstack; 7: Formosa's search passes over LP spent before
# the bases in reach, a base not built and units put where a hopeless attack is forced, its stakes read the VP
# linearly; Olympic's final count read against the time left, weighed more as the end nears, and moves toward it
# searched; SNC's ring read in depth; 8: Dai Senso's playouts played out to the end, Olympic's aims along the way,
# greedy rates by the stakes what it rated not at all, and checks stacking; 9-11: see the docstring)
GREEDY_8 = 8  # greedy's edition 8: `build` and other orders rated by the game's stakes, ships and stacking checked
GREEDY_9 = 9  # greedy's edition 9: reads positions drawn with the rule set's `unseen` parts (belief.SINCE), a move
# that gains no ground toward an objective rated by the stakes (an engineer toward a base site), the rule set's
# `searched` read at the seat's edition (Formosa: LP kept for an engineer still to land)
RANDOM_CASE = "docs/architecture.md practice 10"
GREEDY_CASE = "practice opponent (docs/play-by-email.md)"
COMBAT = ("attack", "overrun", "assault", "land")
ENDS = ("end", "pass", "next", "proceed", "stop", "stay")
# orders that bring units into play, take ground or spend what the side has (points, markers, a choice of units),
# each using up what it spends: greedy gives them before it ends a step
SPEND = ("place", "land", "enter", "deploy", "reinforce", "rail", "replace", "buy", "recruit", "choose", "assign",
         "reveal", "drop", "airdrop", "airland", "airlift", "commit", "release", "air", "support",
         "advance")  # into the hex a won combat cleared: the ground is what the attack was for
MOVES = ("move", "jmove", "motorized", "advance")
SEA = ("transfer", "ship")  # moves by sea (Formosa 21.0, Ichi-Go 10.11), rated as moves from edition 8


class NoOrder(LookupError):
    """The policy finds no order it may give here (not its side's turn, or no candidate is legal)."""


# -- which policies, and how a seat records one ------------------------------------------------------------------
def _builders(rules) -> dict[str, Callable[[dict], Policy]]:
    """Each policy `rules` offers, by name, as a builder from the seat's settings; the first is its default."""
    from app.rules import search  # the strong policy plays through this module's checks

    found: dict[str, Callable[[dict], Policy]] = {
        name: (lambda settings, p=p: lambda state, side, given=0, replaying=None: p(state, side))
        for name, p in (getattr(rules, "policies", None) or {}).items()}
    if getattr(rules, "legal_orders", None) is None and getattr(rules, "candidates", None) is None:
        return found
    if getattr(rules, "game_map", None) is not None:
        found.setdefault("greedy", lambda settings: greedy(rules, settings.get("edition", EDITION)))
    found.setdefault("random", lambda settings: random_player(rules))
    if getattr(rules, "legal_orders", None) is not None:
        found.setdefault("search", lambda settings: search.policy(rules, settings))
    return found


def policies(rules) -> dict[str, str]:
    """Every policy `rules` offers, by name, with what it is; the first is the rule set's default."""
    about = {"greedy": "practice opponent: best odds, then nearest objective",
             "random": "a random legal order",
             "search": f"strong practice opponent: playouts through the rules (about {_search().SECONDS:g} s of CPU a "
                       "decision; search:3s another time, search:N exactly N playouts)"}
    return {name: about.get(name, "the rule set's own, as its rules program it") for name in _builders(rules)}


def _search():
    from app.rules import search

    return search


def default_policy(rules) -> str | None:
    return next(iter(_builders(rules)), None)


def automated_seats(rules) -> dict[str, str]:
    """The sides `rules` has the server play by default, with the default policy."""
    name = default_policy(rules)
    return {side: name for side in getattr(rules, "automated_seats", ()) or ()} if name else {}


def parse_spec(rules, spec: str | None) -> tuple[str, dict]:
    """A policy as a game's creator names it ("greedy", "search", "search:400") -> (name, settings to record).
    Raises ValueError naming what is wrong."""
    name, _, arg = (spec or default_policy(rules) or "").partition(":")
    if name not in _builders(rules):
        raise ValueError(f"{rules.name} has no policy {name!r} for an automated seat; policies: "
                         f"{', '.join(_builders(rules)) or 'none'}")
    if name not in ("greedy", "random", "search"):
        if arg:
            raise ValueError(f"the policy {name} takes no setting ({spec!r})")
        return name, {}
    settings: dict = {"edition": EDITION}
    if name == "search":
        settings.update(_search().budget_setting(arg))
    elif arg:
        raise ValueError(f"the policy {name} takes no setting ({spec!r})")
    return name, settings


def spec_text(name: str, settings: dict) -> str:
    """The spec that `parse_spec` reads back as (name, settings)."""
    if name == "search" and ("playouts" in settings or settings.get("seconds") != _search().SECONDS):
        return f"{name}:{_search().budget_text(settings)}"
    return name


def seats(rules, auto: dict | list | None) -> dict[str, str]:
    """The automated seats of a new game, side -> policy spec ("greedy", "search:400"): `auto` maps sides to specs
    (None or "": the default) or lists sides ("side" or "side:spec"); None: the rule set's own automated seats.
    Raises ValueError naming what is wrong."""
    if auto is None:
        return automated_seats(rules)
    if not isinstance(auto, dict):
        auto = dict((item.partition(":")[0], item.partition(":")[2]) for item in auto)
    out = {}
    for side, spec in auto.items():
        if side not in rules.sides:
            raise ValueError(f"{rules.name} has no side {side!r} to automate; sides: {', '.join(rules.sides)}")
        out[side] = spec_text(*parse_spec(rules, spec))
    if out and len(out) == len(rules.sides):
        raise ValueError("every side automated: at least one seat must be a player's")
    return out


def seat_record(rules, spec: str) -> dict:
    """The fields of core.SeatAutomated for a seat playing `spec`: the policy's name and its settings."""
    name, settings = parse_spec(rules, spec)
    return {"policy": name, "settings": settings}


def choose(rules, name: str, state: Any, side: str, settings: dict | None = None, given: int = 0,
           replaying: dict | None = None) -> tuple[str, dict]:
    """The order policy `name` gives for `side` now, with its reason (as JSON would store it). `settings`: the
    seat's (core.SeatAutomated); {} is a seat of edition 1; None: a seat created now with the defaults. `given`:
    the orders `side` has given so far (GameMeta.orders). `replaying`: the stored reason of the order `verify`
    re-decides (a timed search runs the playouts it records)."""
    builders = _builders(rules)
    if name not in builders:
        raise NoOrder(f"{rules.name} has no policy {name!r}; policies: {', '.join(builders)}")
    if rules.prompt(state).side != side:
        raise NoOrder(f"it is not {side}'s turn")
    if settings is None:
        settings = parse_spec(rules, name)[1]
    if name in ("greedy", "random") and not settings.get("edition"):
        first = practice_v1.policies(rules, legal, NoOrder)
        if name not in first:
            raise NoOrder(f"{rules.name} had no policy {name!r} in edition 1")
        text, reason = first[name](state, side)
    else:
        text, reason = builders[name](settings)(state, side, given, replaying)
    return text, json.loads(json.dumps(reason, sort_keys=True))


# -- what the side may know: the seed ----------------------------------------------------------------------------
def _canonical(x):
    """JSON-like data with every list taken as a set (a set's order is no part of a position)."""
    if isinstance(x, dict):
        return {str(k): _canonical(v) for k, v in x.items()}
    if isinstance(x, (list, tuple, set, frozenset)):
        return sorted((_canonical(v) for v in x), key=lambda v: json.dumps(v, sort_keys=True, default=str))
    return x


_SCALARS = frozenset({str, int, bool, float, type(None)})  # JSON's own kinds of leaf, exactly these types
_STR = frozenset({str})
# json.dumps(x, sort_keys=True) of such a dict, by json's C encoder made once (json.dumps makes one each call)
_FLAT = (json.encoder.c_make_encoder(None, None, _quote, None, ": ", ", ", True, False, True)
         if json.encoder.c_make_encoder is not None else None)


def _canonical_text(x) -> str:
    """`json.dumps(_canonical(x), sort_keys=True, default=str)`, the same text, made in one pass: each part's text
    once (`_canonical` encodes a list's members again to sort them, and its caller the whole again). About twice as
    fast on the games' views (docs/testing.md); tests/core/test_view_seed_text.py holds it to the same text. A dict
    whose keys are all text and whose values are all JSON leaves (a unit of a view) holds no list to take as a set:
    json's C encoder writes it whole, the same text, several times faster (docs/benchmarks.md)."""
    kind = type(x)
    if kind is str:
        return _quote(x)
    if kind is int:
        return int.__repr__(x)
    if x is None:
        return "null"
    if x is True:
        return "true"
    if x is False:
        return "false"
    if kind is dict and _FLAT and _SCALARS.issuperset(map(type, x.values())) and _STR.issuperset(map(type, x)):
        return "".join(_FLAT(x, 0))
    if isinstance(x, dict):
        items = {str(k): v for k, v in x.items()}
        return "{" + ", ".join(f"{_quote(k)}: {_canonical_text(items[k])}" for k in sorted(items)) + "}"
    if isinstance(x, (list, tuple, set, frozenset)):
        return "[" + ", ".join(sorted(map(_canonical_text, x))) + "]"
    return json.dumps(x, default=str)


def view_seed(rules, state: Any, side: str, given: int = 0) -> int:
    """A seed drawn from what `side` may know: its view of the position (`rules.view(state, side)`, the one
    visibility rule every channel passes through) and the number of orders it has given. Two positions that
    differ only in what the side cannot see give the same seed, in any process (issue 25)."""
    text = belief.remembered(rules, state, f"seed:{side}", lambda: _canonical_text(belief.seen_by(rules, state, side)))
    return int.from_bytes(hashlib.sha256(f"{side}\n{given}\n{text}".encode()).digest()[:8], "big")


# -- which orders a policy may give ------------------------------------------------------------------------------
def legal(rules, state: Any, side: str, text: str) -> Command | None:
    """The command `text` reads as, if the decider accepts it now whatever the dice show; else None. An order
    whose dice decide whether it can be carried out (Ichi-Go 10.15: a Chinese stack's movement allowance is
    rolled as it starts to move) is tried with every face, so the policy never gives an order the dice refuse."""
    try:
        command = rules.parse(text, side, state)
        if rules.prompt(state).refusal(command):
            return None
        rules.decide(state, command, ProbeDice())
    except ReachedRoll:
        try:
            for face in range(1, 7):
                rules.decide(state, command, FixedDice(face))
        except (OrderError, ValueError, KeyError):
            return None
        return command
    except (OrderError, ValueError, KeyError):
        return None
    return command


def after(rules, state: Any, command: Command) -> Any | None:
    """The position `command` leaves (dice all showing 1), or None if the rules refuse it there."""
    try:
        for event in rules.decide(state, command, FixedDice(1)):
            state = rules.evolve(state, event)
    except (OrderError, ValueError, KeyError):
        return None
    return state


def usable(rules, state: Any, side: str, text: str) -> Command | None:
    """`legal`, and the order changes the position: a policy never gives an order that changes nothing (Olympic's
    `retreat toward HEX` toward the hex already set), which it could give for ever."""
    command = legal(rules, state, side, text)
    if command is None:
        return None
    reached = after(rules, state, command)
    return None if reached is None or reached == state else command


def orders_to_try(rules, state: Any, side: str, rng: random.Random) -> list[str]:
    """The rule set's orders worth trying for `side` now (app/rules/legal.py), in an order drawn by `rng`; a rule
    set without that list draws its own `candidates`."""
    tries = listing.orders_to_try(rules, state, side)
    if not tries and getattr(rules, "orders_to_try", None) is None and getattr(rules, "candidates", None):
        tries = list(dict.fromkeys(rules.candidates(state, rng)))
    rng.shuffle(tries)
    return tries


# -- random ------------------------------------------------------------------------------------------------------
def random_player(rules) -> Policy:
    def play(state: Any, side: str, given: int = 0, replaying: dict | None = None) -> tuple[str, dict]:
        rng = random.Random(view_seed(rules, state, side, given))
        tries = orders_to_try(rules, state, side, rng)
        for n, text in enumerate(tries, start=1):
            if usable(rules, state, side, text) is not None:
                return text, {"case": RANDOM_CASE, "summary": f"a random legal order (candidate {n} of {len(tries)}, "
                                                              f"drawn with a seed from what {side} sees)"}
        raise NoOrder(f"no order of {side} is legal ({rules.prompt(state).step})")

    return play


# -- greedy ------------------------------------------------------------------------------------------------------
def greedy(rules, edition: int = EDITION) -> Policy:
    def play(state: Any, side: str, given: int = 0, replaying: dict | None = None) -> tuple[str, dict]:
        listed = rules.legal_orders(state, side) if getattr(rules, "legal_orders", None) else []
        random.Random(view_seed(rules, state, side, given)).shuffle(listed)
        if edition < GREEDY_8:
            rated = ratings(rules, state, side, listed)
        else:
            listed = considered(rules, state, side, listed, edition)
            rated = Limits(rules, state, side).kept(ratings(rules, state, side, listed, edition))
        for score, text, reason in rated:
            if score is not None and usable(rules, state, side, text) is not None:
                if edition >= GREEDY_9 and (reason or {}).get("rule") == "end" and (
                        moved := stakes_move(rules, state, side, listed)) is not None:
                    return moved
                return text, reason
        if edition >= 5 and (forced := forced_attack(rules, state, side, listed)) is not None:
            return forced
        if edition >= GREEDY_9 and (moved := stakes_move(rules, state, side, listed)) is not None:
            return moved
        if edition >= GREEDY_8 and (found := drawn(rules, state, side, listed)) is not None:
            return found
        text, reason = fallback(state, side, given)
        return text, {**reason, "summary": "greedy found nothing to rate: " + reason["summary"]}

    fallback = random_player(rules)
    return play


def considered(rules, state: Any, side: str, listed: list[dict], edition: int = GREEDY_8) -> list[dict]:
    """Greedy from edition 8: the listed orders less those the rule set's `searched` passes over (app/rules/base.py
    Optional; Formosa's Allies: no LP spent below what the bases in reach need, no Base Building Phase ended while
    a base can be built, no unit put where 15.0 forces a hopeless attack, no engineer lost where another unit may
    be nor taken off a base site), the list as it is if that leaves none."""
    searched = evaluation.hook(rules, "searched", GREEDY_8, since=GREEDY_8)
    if searched is None:
        return listed
    texts = [item["order"] for item in listed]
    greedy8 = "edition" in inspect.signature(searched).parameters  # Formosa: engineers kept for the bases too
    read = GREEDY_8 if edition < GREEDY_9 else edition  # edition 9: the seat's (Formosa: LP for engineers to land)
    kept = set(searched(state, side, texts, edition=read) if greedy8 else searched(state, side, texts))
    return [item for item in listed if item["order"] in kept] or listed


def stakes_move(rules, state: Any, side: str, listed: list[dict]) -> tuple[str, dict] | None:
    """Greedy from edition 9, where it would end the step (or rates nothing): the listed move (or move by sea) that
    gains no ground toward an objective but raises the game's stakes most (Formosa: an engineer toward a port or
    airfield without a base, 20.1, which the victory hexes greedy walks toward do not draw once a unit holds it;
    edition 8 left engineers 2-6 hexes from such sites all game), read on the position drawn from the side's view
    (`Seen.world`); None if none raises them. Read only here, once a step has nothing better, for its cost: a
    decide and a reading of the stakes for each move listed."""
    seen = Seen(rules, state, side, GREEDY_9)
    if seen.stakes is None:
        return None
    texts = [item["order"] for item in listed]
    found = []
    for n, text in enumerate(texts + _aims(rules, state, side, texts)):
        try:
            command = rules.parse(text, side, state)
        except (OrderError, ValueError, KeyError):
            continue
        units, to = _units_and_destination(command.args)
        if command.action not in MOVES + SEA or not units or not to or seen.left_behind(units):
            continue
        gain = _stakes_gain(rules, command, seen)
        if gain is not None and gain > 0:
            found.append((-gain, n, text, gain))
    limits = Limits(rules, state, side)
    rated = [(10 + min(gain, 0.9), text, {"case": GREEDY_CASE, "rule": "stakes", "gain": round(gain, 4), "summary": (
        f"greedy: a move nearer its victory conditions by {gain:.4f} (the game's stakes)")})
        for _, _, text, gain in sorted(found)]
    for _, text, reason in limits.kept(rated):
        if usable(rules, state, side, text) is not None:
            return text, reason
    return None


def _aims(rules, state: Any, side: str, texts: list[str]) -> list[str]:
    """The rule set's `aims` (moves toward what its victory conditions need that the list may lack: Formosa's
    engineers one hex nearer a bare site) not listed, less those its `searched` passes over (read with the list)."""
    aims = getattr(rules, "aims", None)
    if aims is None:
        return []
    extra = [t for t in dict.fromkeys(aims(state, side, edition=GREEDY_9)) if t not in texts]
    searched = getattr(rules, "searched", None)
    if extra and searched is not None and "edition" in inspect.signature(searched).parameters:
        kept = set(searched(state, side, texts + extra, edition=GREEDY_9))
        extra = [t for t in extra if t in kept]
    return extra


def drawn(rules, state: Any, side: str, listed: list[dict]) -> tuple[str, dict] | None:
    """Greedy from edition 8 when it rates nothing and no attack is forced: the first order of `considered`'s list
    (shuffled with the seed from what the side sees) the rules accept, rather than the random player's draw from
    every order, which gave back what `considered` passed over (an `end` with a base unbuilt); None with no such
    order (a rule set without the list: the random player's draw from its own candidates)."""
    for n, item in enumerate(listed, start=1):
        if usable(rules, state, side, item["order"]) is not None:
            return item["order"], {"case": GREEDY_CASE, "rule": "drawn", "summary": (
                f"greedy found nothing to rate: a listed order drawn at random (order {n} of {len(listed)}, drawn "
                f"with a seed from what {side} sees)")}
    return None


class Limits:
    """Greedy's stacking check from edition 8, where the rule set counts a side's units over its stacking limits
    (its `overstacked` hook: SNC 6.0, Formosa 13.3, whose phase ends eliminate or remove them): an order that puts
    more units over the limits is not given; while some are over them, an order that brings them within comes
    first (its own rating, else `WITHIN`), and `end` is not given while one does. Attacks and ends leave the count
    as it is (what an attack's retreat or advance does is asked as its own decision)."""

    WITHIN = 5.0  # the rating of an order greedy rates no better that brings units within the limits

    def __init__(self, rules, state: Any, side: str):
        self.rules, self.state, self.side = rules, state, side
        self.count = evaluation.hook(rules, "overstacked", GREEDY_8, since=GREEDY_8)
        self.before = self.count(state, side) if self.count is not None else 0

    def over(self, text: str) -> int:
        """The units over the limits after `text` (dice all 1), as many as before for an attack or an end."""
        verb = text.split()[0]
        if verb in ENDS or verb in COMBAT:
            return self.before
        try:
            reached = after(self.rules, self.state, self.rules.parse(text, self.side, self.state))
        except (OrderError, ValueError, KeyError):
            return self.before
        return self.before if reached is None else self.count(reached, self.side)

    def kept(self, rated: list[Rated]) -> Iterator[Rated]:
        """`rated` (best first) less the orders that put more units over the limits; while some are over them, those
        that bring them within first."""
        if self.count is None:
            yield from rated
        elif not self.before:  # counted only for the orders greedy would give, best first, as it comes to them
            yield from (r for r in rated if r[0] is not None and not self.over(r[1]))
        else:
            counted = [(r, self.over(r[1])) for r in rated]
            within = [(score if score is not None else self.WITHIN, text, reason or {
                "case": GREEDY_CASE, "rule": "within stacking limits",
                "summary": f"greedy: {self.before - n} unit(s) fewer over the stacking limits"})
                for (score, text, reason), n in counted if n < self.before]
            yield from sorted(within, key=lambda r: -r[0]) or [r for r, n in counted if n <= self.before]


def forced_attack(rules, state: Any, side: str, listed: list[dict]) -> tuple[str, dict] | None:
    """Greedy from edition 5, when it rates nothing and the step may not be ended (an attack the rules require,
    Formosa 15.0): the listed attack at the best odds, rather than a random order; None if the list offers an end
    to the step or no attack with its odds."""
    if any(item["order"].split()[0] in ENDS for item in listed):
        return None  # the step may be ended: an attack below 3:2 is not worth giving
    attacks = []
    for n, item in enumerate(listed):
        ratio = odds_scale.of(item["odds"]) if item.get("odds") is not None else None
        if ratio is not None and item["order"].split()[0] in COMBAT:
            attacks.append((-ratio, n, item["order"], item["odds"]))
    for _, _, text, odds in sorted(attacks):
        if usable(rules, state, side, text) is not None:
            return text, {"case": GREEDY_CASE, "rule": "forced attack", "column": odds,
                          "summary": f"greedy: an attack the rules require, at the best odds listed ({odds})"}
    return None


def ratings(rules, state: Any, side: str, listed: list[dict], edition: int = 7) -> list[Rated]:
    """Greedy's rating of each listed order (app/rules/legal.py's items), best first, in the list's order among
    equals: (score, order text, reason); score None for an order not worth giving, last. `edition`: greedy's
    (the search and the chances read edition 7's ratings)."""
    seen = Seen(rules, state, side, edition)
    out = []
    for n, item in enumerate(listed):
        try:
            command = rules.parse(item["order"], side, state)
        except OrderError:
            continue
        score, reason = _rate(rules, state, command, item.get("odds"), seen, edition) or (None, None)
        out.append((score, n, item["order"], reason))
    out.sort(key=lambda r: (r[0] is None, -(r[0] or 0), r[1]))
    return [(score, text, reason) for score, _, text, reason in out]


class Seen:
    """What greedy reads of the side's view: its units' hexes, the victory hexes it holds, its objectives."""

    def __init__(self, rules, state: Any, side: str, edition: int = 7):
        view = belief.seen_by(rules, state, side)
        self.edition = edition
        self.game_map = rules.game_map(state)
        units = [u for u in view.get("units") or () if u.get("hex")]
        self.hexes = {u["id"]: u["hex"] for u in units if u.get("side") == side}
        control = view.get("control") or {}
        victory = sorted(view.get("victory_hexes") or ())
        self.held = {h for h in victory if control.get(h) == side}
        goals = [h for h in victory if control.get(h) != side]
        goals = goals or [u["hex"] for u in units if u.get("side") not in (side, None)]
        self.goals = sorted(set(goals)) or victory
        markers = view.get("markers")
        self.markers = {k: v for k, v in markers.items() if isinstance(v, int)} if isinstance(markers, dict) else {}
        self.rules, self.state, self.side = rules, state, side

    @functools.cached_property
    def world(self) -> Any:
        """Edition 8's reading ground: a position the side cannot tell from this one by its view, the hidden parts
        drawn with a seed from that view (app/rules/belief.py, as the search samples its own): the stakes it reads
        never read what the side may not see (issue 25). Found once a position: greedy's ratings and its
        `stakes_move` read the same one."""
        edition = GREEDY_9 if self.edition >= GREEDY_9 else GREEDY_8
        rules, state, side = self.rules, self.state, self.side
        return belief.remembered(rules, state, f"greedy-world:{side}:{edition}", lambda: belief.sample(
            rules, state, side, random.Random(f"{view_seed(rules, state, side)}:greedy"), edition=edition))

    @functools.cached_property
    def stakes(self) -> float | None:
        """The rule set's reading of how near the side stands to its victory conditions in `world` (its `stakes`),
        or None without one. Like `world`, found once a position (greedy's ratings and `stakes_move` read both)."""
        stakes = getattr(self.rules, "stakes", None)
        if stakes is None:
            return None
        edition = GREEDY_9 if self.edition >= GREEDY_9 else GREEDY_8
        return belief.remembered(self.rules, self.state, f"greedy-stakes:{self.side}:{edition}",
                                 lambda: stakes(self.world, self.side, edition=GREEDY_8))

    def distance(self, label: str) -> int | None:
        try:
            here = Hex.parse(label)
            return min((self.game_map.distance(here, Hex.parse(g)) for g in self.goals), default=None)
        except (ValueError, KeyError):
            return None

    def left_behind(self, units: list[str]) -> bool:
        """Would moving `units` leave a victory hex the side holds with none of its units?"""
        for h in {self.hexes.get(u) for u in units} & self.held:
            if not [u for u, at in self.hexes.items() if at == h and u not in units]:
                return True
        return False


def _units_and_destination(args: dict) -> tuple[list[str], str | None]:
    units = list(args.get("units") or ([args["unit"]] if args.get("unit") else []))
    path = args.get("path") or args.get("hexes") or []
    to = args.get("to") or (path[-1] if path else None) or args.get("hex") or args.get("place")
    return units, to if isinstance(to, str) else None


def _rate(rules, state: Any, command: Command, odds: str | None, seen: Seen, edition: int = 7) -> tuple[
        float, dict] | None:
    """(score, reason) of one listed order; None for one not worth giving (an attack below 3:2)."""
    action, args = command.action, command.args
    if action in COMBAT and odds is not None:
        ratio = odds_scale.of(odds)
        if ratio is None or ratio < odds_scale.GOOD:
            return None
        return 1000 + min(ratio, 100.0), {"case": GREEDY_CASE, "rule": "best odds attack", "column": odds,
                                          "summary": f"greedy: the attack at the best odds ({odds})"}
    units, to = _units_and_destination(args)
    moves = MOVES + SEA if edition >= GREEDY_8 else MOVES
    if action in moves and units and to:
        if seen.left_behind(units):
            return None
        before = [d for u in units if u in seen.hexes and (d := seen.distance(seen.hexes[u])) is not None]
        after = seen.distance(to)
        if edition >= GREEDY_8 and after is not None and not any(u in seen.hexes for u in units):
            reach = 2 ** (-after / 3)  # a unit off the map brought in: nearer an objective, better; then what
            gain = max(0.0, min(0.5, _stakes_gain(rules, command, seen) or 0.0))  # raises the stakes most
            return 10 + reach + gain, {"case": GREEDY_CASE, "rule": "into play", "distance": after, "summary": (
                f"greedy: units brought onto the map, {after} hex(es) from an objective")}
        if not before or after is None or min(before) - after <= 0:
            return None
        gain = min(before) - after
        return 100 + gain, {"case": GREEDY_CASE, "rule": "move toward objectives", "gain": gain,
                            "summary": f"greedy: nearer an objective by {gain} hex(es)"}
    prompt = rules.prompt(state)
    forced = not any(prompt.allows(a) for a in ENDS)
    if action in ENDS and not forced:
        return 0, {"case": GREEDY_CASE, "rule": "end", "summary": "greedy: nothing better to do in this step"}
    if action in SPEND or forced:
        first = action == "buy" and not seen.markers.get(str(args.get("word")), 0)
        reason = {"case": GREEDY_CASE, "rule": "decision",
                  "summary": f"greedy: the step asks for '{action}'" + (", one of a kind it lacks" if first else "")}
        gain = _stakes_gain(rules, command, seen) if edition >= GREEDY_8 else None
        if gain:  # edition 8: among what the step asks for, what raises the game's stakes most first
            return 10 + first + max(-0.9, min(0.9, gain)), {**reason, "gain": round(gain, 4)}
        return 10 + first, reason
    if edition < GREEDY_8 or (gain := _stakes_gain(rules, command, seen)) is None or gain <= 0:
        return None
    return 10 + gain, {"case": GREEDY_CASE, "rule": "stakes", "gain": round(gain, 4),
                       "summary": f"greedy: nearer its victory conditions by {gain:.4f} (the game's stakes)"}


def _stakes_gain(rules, command: Command, seen: Seen) -> float | None:
    """Greedy from edition 8: how much the rule set's stakes for the side rise with `command` in the position it
    reads them in (`Seen.world`; the mean over the six faces where the dice decide it, every die showing the same
    face); None without stakes or where the rules refuse it there. An order none of greedy's other rules rates
    (Formosa's `build`, 20.1: a base scores its port's or airfield's VP, 4.2) is rated by it above `end` if they
    rise, else not worth giving (a base demobilised, 20.2); among the orders a step asks for (landings, transfers,
    purchases, losses) it puts first those that raise them most (an engineer landed near a port, the LP its base
    needs kept)."""
    if seen.stakes is None:
        return None
    world = seen.world
    try:
        rules.decide(world, command, ProbeDice())
        faces = (1,)
    except ReachedRoll:
        faces = tuple(range(1, 7))
    except (OrderError, ValueError, KeyError):
        return None
    found = []
    for face in faces:
        reached = world
        try:
            for event in rules.decide(world, command, FixedDice(face)):
                reached = rules.evolve(reached, event)
        except (OrderError, ValueError, KeyError):
            return None
        found.append(rules.stakes(reached, seen.side, edition=GREEDY_8))
    return sum(found) / len(found) - seen.stakes
