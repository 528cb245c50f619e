"""Policies: how the server plays an automated seat (issue 18; app/service/autoplay.py gives their orders).

A policy is `policy(state, side) -> (order text, reason)`, the reason a JSON object naming the rule that chose
the order ({"case", "summary", ...}). It is a pure function of the position: no clock, no I/O, and any
randomness drawn from a generator seeded by the position itself (`position_seed`), so `verify` re-runs it on the
stored state and finds any difference. Which policies a rule set offers:

- its own, in the optional member `policies` (name -> policy; the first is its default): Olympic's programmed
  Japanese;
- `greedy` (a practice opponent), for a rule set that can list candidate orders and draws a map: the attack with
  the best final odds column (the rule set's `preview`), else the move that brings units nearest an objective (a
  victory hex the side does not hold, or a hex where it sees an enemy unit), else an order that brings units
  into play or a decision the step forces, else `end`;
- `random` (the fuzzers' random player, docs/architecture.md practice 10), for a rule set that can list candidate
  orders: its optional `candidates(state, rng) -> [order text, ...]`, or, on the engine, its `legal_orders`.

`automated_seats` (optional member of a rule set): sides the server plays unless a game's creator says otherwise
(Olympic: the Japanese).
"""
from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Iterable
from typing import Any

from app.rules.base import Command
from app.rules.engine.decision import FixedDice, ProbeDice, ReachedRoll
from app.rules.errors import OrderError
from app.rules.kernel.hexgrid import Hex

Policy = Callable[[Any, str], tuple[str, dict]]
RANDOM_CASE = "docs/architecture.md practice 10"
GREEDY_CASE = "practice opponent (docs/play-by-email.md)"
ATTACKS = ("attack", "overrun", "assault")
ENDS = ("end", "pass")
# orders that bring units into play, each spending what it brings: a greedy player gives them before it ends a
# step; any other optional order (one the step does not force) it leaves, as it could be repeated for ever
BRING_IN = ("place", "land", "enter", "deploy", "reinforce", "rail", "replace")


class NoOrder(LookupError):
    """The policy finds no order it may give here (not its side's turn, or no candidate is legal)."""


def policies(rules) -> dict[str, Policy]:
    """Every policy `rules` offers, by name; the first is its default."""
    found = dict(getattr(rules, "policies", None) or {})
    candidates = candidate_source(rules)
    if candidates is not None:
        if getattr(rules, "game_map", None) is not None:
            found.setdefault("greedy", greedy(rules, candidates))
        found.setdefault("random", random_player(rules, candidates))
    return found


def default_policy(rules) -> str | None:
    return next(iter(policies(rules)), None)


def automated_seats(rules) -> dict[str, str]:
    """The sides `rules` has the server play by default, with the default policy."""
    name = default_policy(rules)
    return {side: name for side in getattr(rules, "automated_seats", ()) or ()} if name else {}


def seats(rules, auto: dict | list | None) -> dict[str, str]:
    """The automated seats of a new game, side -> policy: `auto` maps sides to policy names (None or "": the
    default) or lists sides ("side" or "side:policy"); None: the rule set's own automated seats. Raises
    ValueError naming what is wrong."""
    if auto is None:
        return automated_seats(rules)
    if not isinstance(auto, dict):
        auto = dict((item.partition(":")[0], item.partition(":")[2]) for item in auto)
    offered = policies(rules)
    out = {}
    for side, name in auto.items():
        if side not in rules.sides:
            raise ValueError(f"{rules.name} has no side {side!r} to automate; sides: {', '.join(rules.sides)}")
        name = name or default_policy(rules)
        if name not in offered:
            raise ValueError(f"{rules.name} has no policy {name!r} for an automated seat; policies: "
                             f"{', '.join(offered) or 'none'}")
        out[side] = name
    if out and len(out) == len(rules.sides):
        raise ValueError("every side automated: at least one seat must be a player's")
    return out


def choose(rules, name: str, state: Any, side: str) -> tuple[str, dict]:
    """The order policy `name` gives for `side` now, with its reason (as JSON would store it)."""
    try:
        policy = policies(rules)[name]
    except KeyError:
        raise NoOrder(f"{rules.name} has no policy {name!r}; policies: {', '.join(policies(rules))}") from None
    if rules.prompt(state).side != side:
        raise NoOrder(f"it is not {side}'s turn")
    text, reason = policy(state, side)
    return text, json.loads(json.dumps(reason, sort_keys=True))


def position_seed(rules, state: Any) -> int:
    """A seed drawn from the position alone (the rule set's encoded state, lists taken as sets, since a set's
    order is no part of the position): the same position gives the same seed in any process."""
    def canonical(x):
        if isinstance(x, dict):
            return {str(k): canonical(v) for k, v in x.items()}
        if isinstance(x, (list, tuple, set, frozenset)):
            return sorted((canonical(v) for v in x), key=lambda v: json.dumps(v, sort_keys=True))
        return x

    text = json.dumps(canonical(rules.encode_state(state)), sort_keys=True, default=str)
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")


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


def candidate_source(rules) -> Callable[[Any, random.Random], Iterable[str]] | None:
    """The rule set's candidate orders for the side to act: its own `candidates`, or its `legal_orders`."""
    own = getattr(rules, "candidates", None)
    if own is not None:
        return own
    if getattr(rules, "legal_orders", None) is None:
        return None

    def from_legal_orders(state: Any, rng: random.Random) -> list[str]:
        orders = [o["order"] for o in rules.legal_orders(state, rules.prompt(state).side)]
        rng.shuffle(orders)
        return orders

    return from_legal_orders


def random_player(rules, candidates) -> Policy:
    def play(state: Any, side: str) -> tuple[str, dict]:
        rng = random.Random(position_seed(rules, state))
        for n, text in enumerate(candidates(state, rng), start=1):
            if legal(rules, state, side, text) is not None:
                return text, {"case": RANDOM_CASE, "summary": f"a random legal order (candidate {n}, drawn with "
                                                              "the position's own seed)"}
        raise NoOrder(f"no candidate order of {side} is legal ({rules.prompt(state).step})")

    return play


def greedy(rules, candidates, draws: int = 4) -> Policy:
    """Rates the candidates of `draws` draws (a rule set's `candidates` samples a few units at a time)."""
    def play(state: Any, side: str) -> tuple[str, dict]:
        rng = random.Random(position_seed(rules, state))
        goals = objectives(rules, state, side)
        scored = []
        drawn = [text for _ in range(draws) for text in candidates(state, rng)]
        for n, text in enumerate(dict.fromkeys(drawn)):
            try:
                command = rules.parse(text, side, state)
            except OrderError:
                continue
            rated = _rate(rules, state, command, goals)
            if rated is not None:
                scored.append((-rated[0], n, text, rated[1]))
        for _, _, text, reason in sorted(scored):
            if legal(rules, state, side, text) is not None:
                return text, reason
        text, reason = fallback(state, side)
        return text, {**reason, "summary": "greedy found nothing to rate: " + reason["summary"]}

    fallback = random_player(rules, candidates)
    return play


def objectives(rules, state: Any, side: str) -> list[str]:
    """Where `side` wants to go, as it sees the map: victory hexes it does not hold, and enemy units' hexes."""
    view = rules.view(state, side)
    control = view.get("control") or {}
    goals = [h for h in view.get("victory_hexes") or () if control.get(h) != side]
    goals += [u["hex"] for u in view.get("units") or () if u.get("hex") and u.get("side") not in (side, None)]
    return sorted(set(goals)) or sorted(view.get("victory_hexes") or ())


def _distance(rules, state: Any, a: str, goals: list[str]) -> int | None:
    game_map = rules.game_map(state)
    try:
        here = Hex.parse(a)
        return min((game_map.distance(here, Hex.parse(g)) for g in goals), default=None)
    except ValueError:
        return None


def _rate(rules, state: Any, command: Command, goals: list[str]) -> tuple[float, dict] | None:
    """(score, reason) of one candidate; None for one not worth giving (a hopeless attack)."""
    action, args = command.action, command.args
    if action in ATTACKS and getattr(rules, "preview", None) is not None:
        try:
            seen = rules.preview(state, command)
        except (OrderError, ValueError, KeyError):
            return None
        if seen.get("allowed") is False or seen.get("column") is None:
            return None
        label = seen.get("column_label", seen["column"])
        return 1000 + seen["column"], {"case": GREEDY_CASE, "rule": "best odds attack", "column": label,
                                       "summary": f"greedy: the attack at the best odds column ({label})"}
    if action == "move" and args.get("to") and args.get("units"):
        hexes = {u["id"]: u["hex"] for u in rules.view(state, command.side).get("units") or () if u.get("hex")}
        before = [d for u in args["units"] if u in hexes and (d := _distance(rules, state, hexes[u], goals))
                  is not None]
        after = _distance(rules, state, args["to"], goals)
        if not before or after is None:
            return -1, {"case": GREEDY_CASE, "rule": "move", "summary": "greedy: a move with no objective in sight"}
        gain = min(before) - after
        return (100 + gain if gain > 0 else -1), {
            "case": GREEDY_CASE, "rule": "move toward objectives", "gain": gain,
            "summary": f"greedy: nearer an objective by {gain} hex(es)" if gain > 0 else "greedy: no nearer"}
    if action in ENDS:
        return 0, {"case": GREEDY_CASE, "rule": "end", "summary": "greedy: nothing better to do in this step"}
    if action in BRING_IN or not any(rules.prompt(state).allows(a) for a in ENDS):
        return 10, {"case": GREEDY_CASE, "rule": "decision", "summary": f"greedy: the step asks for '{action}'"}
    return None
