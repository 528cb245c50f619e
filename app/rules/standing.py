"""Standing orders: a side's answer, set in advance, to a decision the sequence of play will ask of it (issue 27;
docs/architecture.md practice 16; docs/play-by-email.md, "Standing orders").

One mechanism for every game. A *kind* is a step of the states table (its name: `losses`, `retreat`,
`intercept`...); a game declares which kinds may stand, and at most the words a preference for each may use
(its optional member `standing`: {kind: {word: order text}}, e.g. SNC's `intercept`: {"never": "pass"}). A
standing order for a kind is a list of clauses, tried in order whenever that kind prompts the side; the first
that picks an order the rules accept now answers, else the player is asked as usual ("ask me", the default).

A clause is either an order of the kind, written out (`support naval`, `retreat to 2510`), given if the rules
accept it, or a preference over the orders the rules accept now (the list of legal orders, app/rules/legal.py):

    [at HEX[,HEX...]] [keep UNIT ...] WORD ...

- `at HEX`: the clause counts only for a decision at one of these hexes (a conditional order);
- `keep UNIT ...`: never an order that names one of these units (if every order does, the clause gives none);
- `never`: the order that declines (`pass`, `stay`, `hold`, `decline`, `stop`, or the game's word for it);
- `always`: an order that does not decline, the one naming the most units (or the largest number);
- `weakest` / `strongest`: the order whose named units have the least / the most strength, as the side's view
  shows it (a unit named twice counts twice: two steps);
- `toward HEX`: the order whose last named hex is nearest to HEX;
- a word the game declares for the kind: its order.

Ties go to the order listed first. `choose` is pure: the position, the side and the clauses in force decide it,
so `verify` re-decides every order a standing order gave (app/service/audit.py), as it does an automated seat's.
"""
from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from app.rules import legal, practice
from app.rules.base import Command, optional
from app.rules.errors import OrderError
from app.rules.kernel.hexgrid import Hex

CASE = "docs/play-by-email.md, standing orders"
ASK = "ask"
DECLINES = ("pass", "stay", "hold", "decline", "stop")
WORDS = ("never", "always", "weakest", "strongest")
LIMIT = 200  # characters of one clause
CLAUSES = 8  # clauses of one kind's standing order
_HEX = re.compile(r"[a-z]{0,2}[0-9]{4}")
_HEX_IN_TEXT = re.compile(r"\b[a-z]{0,2}[0-9]{4}\b")
_NUMBER = re.compile(r"[0-9]+")


class StandingError(ValueError):
    """A standing order that cannot stand: an unknown kind, or a clause that does not read (the text says why)."""


def kinds(rules) -> Mapping[str, Mapping[str, str]]:
    """The kinds of decision `rules` lets stand, each with its own words ({word: order text})."""
    return optional(rules, "standing") or {}


def as_lines(mine: Mapping[str, Sequence[str]]) -> list[str]:
    """Standing orders ({kind: [clause, ...]}) as the lines that would set them, as a turn email shows them."""
    return [f"standing {kind}: {'; '.join(clauses)}" for kind, clauses in mine.items()]


def kind_now(rules, state: Any) -> str | None:
    """The kind the states table prompts now: the name of its step (None for a rule set without a table)."""
    table = getattr(rules, "table", None)
    return None if table is None else table.step_of(state)


@dataclass(frozen=True)
class Clause:
    text: str
    at: tuple[str, ...] = ()
    keep: tuple[str, ...] = ()
    words: tuple[str, ...] = ()
    toward: str | None = None
    order: str | None = None  # an order written out (or a game word's)


def read(rules, kind: str, clauses: Sequence[str], side: str, state: Any) -> list[str]:
    """The clauses of a standing order for `kind`, as they will be kept (trimmed, `ask` alone meaning none);
    StandingError naming the first that cannot stand. `state`: the position now (an order written out must read
    in the game's order language)."""
    allowed = kinds(rules)
    if kind not in allowed:
        may = ", ".join(allowed) or "none"
        raise StandingError(f"{rules.name} has no standing order for {kind!r}; kinds that may stand: {may}")
    kept = [" ".join(c.split()) for c in clauses if c.strip()]
    if [c.lower() for c in kept] in ([], [ASK]):
        return []
    if len(kept) > CLAUSES:
        raise StandingError(f"a standing order holds at most {CLAUSES} clauses, not {len(kept)}")
    for text in kept:
        parse_clause(rules, kind, text, side, state)
    return kept


def parse_clause(rules, kind: str, text: str, side: str, state: Any) -> Clause:
    """One clause read (module docstring); StandingError if it does not read."""
    if len(text) > LIMIT:
        raise StandingError(f"a clause of a standing order has at most {LIMIT} characters")
    words = text.split()
    own = {w.lower(): order for w, order in kinds(rules).get(kind, {}).items()}
    actions = _actions(rules, kind)
    if words and words[0].lower() in actions:
        _reads(rules, text, side, state)
        return Clause(text, order=text)
    at: list[str] = []
    keep: list[str] = []
    chosen: list[str] = []
    toward = None
    i = 0
    while i < len(words):
        word = words[i].lower()
        if word in ("at", "keep"):
            taken = []
            while i + 1 < len(words) and words[i + 1].lower() not in (*WORDS, *own, "at", "keep", "toward"):
                i += 1
                taken += [w for w in words[i].split(",") if w]
            if not taken:
                raise StandingError(f"{text!r}: '{word}' names no " + ("hex" if word == "at" else "unit"))
            if word == "at" and not all(_HEX.fullmatch(h.lower()) for h in taken):
                raise StandingError(f"{text!r}: 'at' names hexes ({', '.join(taken)} is not one)")
            (at if word == "at" else keep).extend(taken)
        elif word == "toward":
            if i + 1 >= len(words) or not _HEX.fullmatch(words[i + 1].lower()):
                raise StandingError(f"{text!r}: 'toward' names a hex")
            i += 1
            toward = words[i]
        elif word in own:  # the game's word for an order of this kind: that order
            _reads(rules, own[word], side, state)
            chosen.append(word)
        elif word in WORDS:
            chosen.append(word)
        else:
            offered = ", ".join([*WORDS, *(w for w in own if w not in WORDS), "keep UNIT", "toward HEX", "at HEX"])
            raise StandingError(f"{text!r}: {words[i]!r} is neither an order of {kind} ({', '.join(actions)}) nor a "
                                f"preference ({offered})")
        i += 1
    if not chosen and toward is None and not keep:
        raise StandingError(f"{text!r} says where or what to keep, but not which order to prefer")
    named = [w for w in chosen if w in own]
    if named:
        if len(chosen) > 1 or keep or toward is not None:
            raise StandingError(f"{text!r}: {named[0]!r} stands for one order ({own[named[0]]}), with nothing more "
                                "than 'at HEX' before it")
        return Clause(text, tuple(at), order=" ".join(own[named[0]].split()))
    return Clause(text, tuple(at), tuple(keep), tuple(chosen), toward)


def _actions(rules, kind: str) -> tuple[str, ...]:
    table = getattr(rules, "table", None)
    return tuple(table.orders.get(kind, {})) if table is not None else ()


def _reads(rules, text: str, side: str, state: Any) -> Command:
    try:
        return rules.parse(text, side, state)
    except OrderError as exc:
        raise StandingError(f"{text!r} does not read as an order: {exc}") from None


def choose(rules, state: Any, side: str, kind: str, clauses: Sequence[str],
           given: Sequence[str] = ()) -> tuple[str, dict] | None:
    """The order the standing order `clauses` gives `side` now for `kind`, with its reason, or None (no clause
    picks an order the rules accept: the player is asked). `given`: the orders this standing order has given in
    a row on this step already; an order written out is not given twice in a row (a step that takes several
    orders, a plan then `end`, goes on to the next clause)."""
    if kinds(rules).get(kind) is None or rules.prompt(state).side != side or kind_now(rules, state) != kind:
        return None
    listed: list[tuple[str, Command]] | None = None
    for text in clauses:
        try:
            clause = parse_clause(rules, kind, text, side, state)
        except StandingError:
            continue  # a clause that no longer reads (a unit gone) gives nothing
        if clause.at and not {h.lower() for h in clause.at} & _decision_hexes(rules, state):
            continue
        if clause.order is not None:
            if clause.order in given:
                continue
            command = practice.legal(rules, state, side, clause.order)
            if command is not None:
                return clause.order, _reason(kind)
            continue
        if listed is None:
            listed = _listed(rules, state, side)
        picked = _pick(rules, state, side, clause, listed)
        if picked is not None:
            return picked, _reason(kind)
    return None


def _reason(kind: str) -> dict:
    """What the stored order says chose it: the kind, never the clauses (the other side may read the order)."""
    return {"case": CASE, "kind": kind, "summary": f"a standing order for {kind}"}


def _listed(rules, state: Any, side: str) -> list[tuple[str, Command]]:
    """The orders the rules accept now, in the order the list of legal orders names them."""
    out = []
    for text in dict.fromkeys(c.text for c in legal.candidates(rules, state, side)):
        command = practice.legal(rules, state, side, text)
        if command is not None:
            out.append((text, command))
    return out


def _pick(rules, state: Any, side: str, clause: Clause, listed: list[tuple[str, Command]]) -> str | None:
    strength = _strengths(rules.view(state, side), rules.prompt(state).owed)
    pool = [(n, text, command) for n, (text, command) in enumerate(listed)]
    keep = {u.lower() for u in clause.keep}
    if keep:
        pool = [o for o in pool if not {u.lower() for u in _named(o[2], strength)} & keep]
    keys = []
    for word in clause.words:
        if word == "never":
            pool = [o for o in pool if o[2].action in DECLINES]
        elif word == "always":
            pool = [o for o in pool if o[2].action not in DECLINES]
            keys.append(lambda o: (-len(_named(o[2], strength)), -max(_numbers(o[2].args), default=0)))
        elif word in ("weakest", "strongest"):
            sign = 1 if word == "weakest" else -1
            keys.append(lambda o, s=sign: s * sum(strength.get(u, 0) for u in _named(o[2], strength)))
    if clause.toward is not None:
        keys.append(lambda o: _distance(rules, state, _hexes(o[2].args), clause.toward))
    if not pool:
        return None
    return min(pool, key=lambda o: (*(k(o) for k in keys), o[0]))[1]


def _strengths(view: dict, owed) -> dict[str, int]:
    """Each unit's strength as the side's view shows it (every record with an id and a strength, on the map or
    off it), else as the decision's prompt values it (its candidates' first number: "4 CF, 2/2 step(s)")."""
    found: dict[str, int] = {}
    for value in view.values():
        for record in value if isinstance(value, list) else ():
            if isinstance(record, dict) and isinstance(record.get("id"), str) and "strength" in record:
                strength = record["strength"]
                found.setdefault(record["id"], strength if isinstance(strength, int) else 0)
    for unit, value in owed.candidates if owed is not None else ():
        number = _NUMBER.search(value)
        if unit not in found and number:
            found[unit] = int(number.group())
    return found


def _values(args: Any) -> list:
    if isinstance(args, dict):
        return [v for value in args.values() for v in _values(value)]
    if isinstance(args, (list, tuple)):
        return [v for value in args for v in _values(value)]
    return [args]


def _named(command: Command, units: Mapping[str, Any]) -> list[str]:
    """The units an order names (a unit named twice, twice)."""
    return [v for v in _values(command.args) if isinstance(v, str) and v in units]


def _numbers(args: Any) -> list[int]:
    return [v for v in _values(args) if isinstance(v, int) and not isinstance(v, bool)]


def _hexes(args: Any) -> list[str]:
    return [v for v in _values(args) if isinstance(v, str) and _HEX.fullmatch(v.lower())]


def _distance(rules, state: Any, hexes: list[str], goal: str) -> float:
    """From the last hex an order names to `goal`, on the game's map (no hex, or no map: last)."""
    game_map = optional(rules, "game_map")
    if not hexes or game_map is None:
        return float("inf")
    try:
        return game_map(state).distance(Hex.parse(hexes[-1]), Hex.parse(goal))
    except ValueError:
        return float("inf")


def _decision_hexes(rules, state: Any) -> set[str]:
    """The hexes the decision asked now is about: where its prompt says, and the hexes its pending record names."""
    prompt = rules.prompt(state)
    owed = prompt.owed
    found = set(_HEX_IN_TEXT.findall(f"{owed.where or ''} {owed.what}".lower())) if owed is not None else set()
    pending = getattr(state, "pending", ())
    if pending:
        record = dict(pending[0])
        record.update(record.get("data") or {})
        for key in ("hex", "hexes", "target", "from"):
            found.update(h.lower() for h in _values(record.get(key))
                         if isinstance(h, str) and _HEX.fullmatch(h.lower()))
    return found
