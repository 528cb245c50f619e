"""What a side may order now, asked of any rule set in one way (docs/architecture.md practices 2, 10 and 14).

- `by_kind(rules, state, side)`: concrete orders `side` may give now, each accepted by the decider (an attack
  with its odds column), by kind, with how many units (or hexes) each kind may still take; bounded, but every
  unit that may be placed, moved or brought in is named (issue 27, "lists players can trust"). `legal_orders`
  is the same list flat: `show`, the API, the turn email, the fuzzers and the practice opponents all read this
  one list. The rule set names the orders worth trying (`orders_to_try(state, side)`: each unit's reachable
  hexes, each attack with the markers allowed, each answer to a decision), and may name more for the list and
  `naming` alone (`more_orders`: the random player never draws them); only those the decider accepts are
  listed. Each listed order says what it is given to (`subject`) and the hexes it is aimed at (`at`), so a map can
  mark it there (the play page, docs/playing-in-the-browser.md).
- `naming(rules, state, side, word)`: every order of those `side` may give now that names one unit or hex, each
  accepted by the decider: what a player pointing at one counter may do with it.
- `refusal(rules, state, command)`: the decider's own answer to "would `do` accept this?", run up to its first
  die (no refusal may follow a roll, practice 11), so nothing is rolled and nothing written.
- `preview(rules, state, command)`: the rule set's preview, refused exactly when `do` would refuse the order
  now; an order `do` accepts that the rule set draws no preview of is answered as legal, with no preview; out of
  turn (planning) the order's own checks still apply, only the sequence of play is not asked. A kind of order the
  rule set never previews (its `previews`: a move) is answered as having no preview, out of turn too.
"""
from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterator
from typing import Any

from app.rules.base import Candidate, Command, Rules, has_preview, optional
from app.rules.engine.decision import ProbeDice, ReachedRoll
from app.rules.errors import IllegalOrder, OrderError
from app.rules.kernel.hexgrid import Hex


def refusal(rules: Rules, state: Any, command: Command) -> OrderError | None:
    """Why `do` would refuse `command` now, or None if it would accept it."""
    try:
        rules.decide(state, command, ProbeDice())
    except ReachedRoll:
        return None
    except OrderError as exc:
        return exc
    return None


def in_turn(rules: Rules, state: Any, command: Command) -> bool:
    """The states table prompts this side for this kind of order now."""
    return rules.prompt(state).refusal(command) is None


def preview(rules: Rules, state: Any, command: Command) -> dict:
    """The preview of `command`, through the decider's checks when the order could be given now. Every answer says
    whether the decider accepts the order now (`legal`: None out of turn, when it is not asked) and whether there
    is a preview (`previewed`). An order `do` would accept now that the rule set draws no preview of (an SNC
    advance, a landing on an empty beach, an attack on concealed defenders) is answered as legal with no preview
    and the rule set's reason (`why`), never as a refusal: only the decider refuses an order given in turn."""
    now = in_turn(rules, state, command)
    previews = rules.previews
    if command.action not in previews.actions:  # no preview of this kind: nothing to draw, in turn or out
        if now and (refused := refusal(rules, state, command)) is not None:
            raise refused
        none = {"previewed": False, "case": previews.case, "why": previews.why()}
        if not now:
            return {**none, "legal": None, "planning": True,
                    "text": f"Planning: {command.side} may not give this order now ({rules.prompt(state).step}); it "
                            f"has no preview ({previews.case}: {previews.why()})."}
        return {**none, "legal": True, "planning": False,
                "text": f"Legal: {command.side} may give this order now. It has no preview ({previews.case}: "
                        f"{previews.why()})."}
    if not now:
        result = rules.preview(state, command)
        note = (f"Planning: {command.side} may not give this order now ({rules.prompt(state).step}); the odds are "
                "those of the position as it stands")
        return {**result, "text": f"{result['text']}\n{note}", "legal": None, "previewed": True, "planning": True}
    refused = refusal(rules, state, command)
    if refused is not None:
        raise refused
    try:
        result = rules.preview(state, command)
    except IllegalOrder as exc:
        return {"legal": True, "previewed": False, "planning": False, "case": exc.case, "why": exc.message,
                "text": f"Legal: {command.side} may give this order now. It has no preview ({exc})."}
    return {**result, "legal": True, "previewed": True, "planning": False}


LIMIT = 40
ODDS_ACTIONS = ("attack", "overrun", "land", "assault")


def candidates(rules: Rules, state: Any, side: str) -> list[Candidate]:
    """The rule set's orders worth trying for `side` now, unchecked (none out of turn)."""
    hook = optional(rules, "orders_to_try")
    if hook is None or rules.outcome(state) is not None or rules.prompt(state).side != side:
        return []
    return list(hook(state, side))


def listed_candidates(rules: Rules, state: Any, side: str) -> list[Candidate]:
    """`candidates` and, after them, the rule set's `more_orders`: the orders the list and `naming` try, so a player
    reaches every order the rule set names (Formosa: every naval transfer) while the random player draws from
    `orders_to_try` alone."""
    found = candidates(rules, state, side)
    hook = optional(rules, "more_orders")
    return found + list(hook(state, side)) if found and hook is not None else found


def orders_to_try(rules: Rules, state: Any, side: str) -> list[str]:
    """The texts of `candidates`, without repeats: what a random player draws from (tests/fuzzing.py)."""
    return list(dict.fromkeys(c.text for c in candidates(rules, state, side)))


def by_kind(rules: Rules, state: Any, side: str, limit: int = LIMIT) -> list[dict]:
    """The concrete orders `side` may give now, each accepted by the decider, by kind in the order the step
    offers them: {"action", "syntax", "case", "help", "orders", "subjects", "count", "unchecked"}. "orders" names
    every subject first (each unit that may be placed, moved, brought in, each hex that may be attacked: its
    first accepted order), then more choices, one of each kind in turn (so a kind of many subjects, the moves,
    leaves room for the variants of an attack), each kind's subjects in turn, up to `limit` orders in all;
    "count" is how many `subjects` ("units", "hexes"; None where a count says nothing) the kind may still be
    given to, "unchecked" how many of its candidates were left untried. The turn email lays this out."""
    actions = {a.name: a for a in rules.prompt(state).actions}
    queues: dict[str, dict[tuple, deque[Candidate]]] = {}
    for c in listed_candidates(rules, state, side):
        queues.setdefault(c.action, {}).setdefault(c.subject, deque()).append(c)
    kinds = {name: {"orders": [], "subjects": set()} for name in queues}
    tried: set[str] = set()

    def take(name: str, subject: tuple, queue: deque) -> bool:
        text = queue.popleft().text
        item = None if text in tried else _accepted(rules, state, side, text, actions, subject)
        tried.add(text)
        if item is not None:
            kinds[name]["orders"].append(item)
            kinds[name]["subjects"].update(subject)
        return item is not None

    for name, subjects in queues.items():  # every subject once: its first order the decider accepts
        for subject, queue in subjects.items():
            while queue and not take(name, subject, queue):
                pass
    listed = sum(len(k["orders"]) for k in kinds.values())
    turns = {name: _in_turn(subjects) for name, subjects in queues.items()}
    while listed < limit and turns:  # then more choices: one of each kind in turn, its subjects in turn
        for name in list(turns):
            for subject, queue in turns[name]:
                if take(name, subject, queue):
                    listed += 1
                    break
            else:
                del turns[name]
            if listed >= limit:
                break
    out = []
    for name, kind in kinds.items():
        if not kind["orders"]:
            continue
        action = actions.get(name)
        noun = action.subjects if action else None
        out.append({"action": name, "syntax": action.syntax if action else name,
                    "case": action.case if action else "", "help": action.help if action else "",
                    "orders": kind["orders"], "subjects": noun, "count": len(kind["subjects"]) if noun else None,
                    "unchecked": sum(len(q) for q in queues[name].values())})
    return out


def _in_turn(subjects: dict[tuple, deque]) -> Iterator[tuple[tuple, deque]]:
    """The subjects of one kind with candidates left, each in turn, round and round until none has any."""
    while any(subjects.values()):
        for subject, queue in subjects.items():
            if queue:
                yield subject, queue


def legal_orders(rules: Rules, state: Any, side: str, limit: int = LIMIT) -> list[dict]:
    """Concrete orders `side` may give now, each accepted by the decider: {"order", "action", "case"}, and
    "odds" (the final column) for a combat order of a rule set with a preview, with "odds_note" where its preview says
    what may still change that column; `by_kind`'s orders, kind after
    kind (so a long list of moves never hides `end`, nor any unit that may be placed)."""
    return [o for kind in by_kind(rules, state, side, limit) for o in kind["orders"]]


def naming(rules: Rules, state: Any, side: str, word: str) -> list[dict]:
    """Every order `side` may give now whose subject or text names `word` (a unit's id or a hex, as the orders
    write it), each accepted by the decider, in the order the rule set offers them: a unit's moves and the attacks
    it may join, the orders aimed at a hex. Not cut at LIMIT: bounded by the rule set's own candidates (SNC: a
    unit's 40 nearest destinations)."""
    word = word.strip().lower()
    actions = {a.name: a for a in rules.prompt(state).actions}
    out, tried = [], set()
    for c in listed_candidates(rules, state, side):
        if word not in {str(s).lower() for s in c.subject} and word not in _words(c.text):
            continue
        if c.text not in tried:
            tried.add(c.text)
            item = _accepted(rules, state, side, c.text, actions, c.subject)
            if item is not None:
                out.append(item)
    return out


_SPLIT = re.compile(r"[\s,]+")


def _is_hex(word: str) -> bool:
    """A hex as orders write it: a map label, after its sheet's letters where the game has several (Hex.parse:
    "3512", "w4324")."""
    try:
        Hex.parse(word)
    except ValueError:
        return False
    return True


def _words(text: str) -> list[str]:
    return [w for w in _SPLIT.split(text.lower()) if w]


def aimed_at(text: str, subject: tuple) -> list[str]:
    """The hexes an order is aimed at, where a map marks it: its subject when that is hexes (an attack, a landing,
    a strike), else the end of the hexes after its `to` or `at` (a move's destination, not its `via`), else the
    last hex it names (a path's end, a placement); none for an order that names no hex."""
    if subject and all(_is_hex(str(s)) for s in subject):
        return [str(s) for s in subject]
    words = _words(text)
    for i, w in enumerate(words):
        if w in ("to", "at"):
            run = []
            for nxt in words[i + 1:]:
                if not _is_hex(nxt):
                    break
                run.append(nxt)
            if run:
                return run[-1:]
    named = [w for w in words if _is_hex(w)]
    return named[-1:]


def _accepted(rules: Rules, state: Any, side: str, text: str, actions: dict, subject: tuple = ()) -> dict | None:
    """The list's entry for `text` if the decider accepts it now, else None; `subject`: what the candidate is given
    to (its `subject` in the entry where the action's subjects are units, hexes or counters), with the hexes it
    is `at` (each left out when empty)."""
    try:
        command = rules.parse(text, side, state)
    except OrderError:
        return None
    if refusal(rules, state, command) is not None:
        return None
    action = actions.get(command.action)
    item = {"order": text, "action": command.action, "case": action.case if action else ""}
    odds, note = _odds(rules, state, command)
    if odds:
        item["odds"] = odds
    if note:
        item["odds_note"] = note
    if subject and action is not None and action.subjects:  # units, hexes, counters: not a number or a word
        item["subject"] = [str(s) for s in subject]
    else:
        subject = ()
    at = aimed_at(text, subject)
    if at:
        item["at"] = at
    return item


def _odds(rules: Rules, state: Any, command: Command) -> tuple[str | None, str | None]:
    """The odds column a combat order's preview gives, and what may still change it before the die (the preview's
    `odds_note`: Dai Senso's defender declares its HQ's Ranged Support after the attack, 4.2.2 step 2)."""
    if command.action not in ODDS_ACTIONS or not has_preview(rules) or not rules.previews.column:
        return None, None
    try:
        p = rules.preview(state, command)
    except (OrderError, KeyError, ValueError):  # a landing on an empty beach is no combat
        return None, None
    column = p.get("column_label") or p.get("column")
    return (None, None) if column is None else (str(column), p.get("odds_note"))
