"""The SNC states table (after Rally the Troops' rules modules): for each step of the sequence of play (5.1,
5.3) or each decision the sequence waits for, who acts, how the prompt reads, what a decision owes, and the orders
it takes, each with its syntax line (its parser), case, handler and the candidates the list of legal orders tries
(app/rules/legal.py keeps those the decider accepts), calling movement.py, combat.py and reinforcements.py.

How orders name units (docs/orders/snc.md): by id (`jp-d3-r6`), by id without the side prefix (`d3-r6`) or its
last part, or, where the order moves or fights, by a hex (`3512`: every own mobile unit there). An unknown or
ambiguous name is an InvalidOrder or AmbiguousOrder quoting the order; the rules' refusals come later. Words are
split on blanks, commas and '/', and `move fight` (two phases' purposes) is short for `declare move fight`."""
from __future__ import annotations

import re
from collections.abc import Iterator
from functools import partial
from itertools import chain, combinations

from app.rules.base import Candidate, Command, Owed
from app.rules.engine.cases import OrderCases, sequence_words
from app.rules.engine.decision import Decision
from app.rules.engine.syntax import ParseContext, SlotType
from app.rules.engine.table import OVER, StatesTable, Step, order
from app.rules.errors import AmbiguousOrder, IllegalOrder, InvalidOrder, OrderError
from app.rules.kernel.hexgrid import Hex
from app.rules.kernel.stacking import overstacked
from app.rules.snc import combat, movement, reinforcements
from app.rules.snc import events as ev
from app.rules.snc.combat import overstacked_hexes, require_stacking
from app.rules.snc.common import H, named_twice, neighbours
from app.rules.snc.reinforcements import interdiction_due
from app.rules.snc.state import PHASE_NAMES, State, Unit
from app.rules.snc.victory import sudden_death, victory_check

# -- how orders read their slots against the position ---------------------------------------------------------
HEX_RE = re.compile(r"^[0-9]{4}$")
MODES = ("move", "fight")
SUPPORT_KINDS = ("air", "artillery", "naval", "amphibious")


def _unit(word: str, context: ParseContext, hex_ok: bool) -> list[str]:
    state, side, order = context.state, context.side, context.text
    low = word.lower()
    if hex_ok and HEX_RE.match(low):
        found = sorted(u.id for u in state.at(low) if u.side == side and not u.static)
        if not found:
            # the grammar's to say: the word may be the next slot's hex ("move d36 3411" lacks its "to")
            raise ValueError(f"is a hex with no {side} mobile unit in it")
        return found
    if low in state.units:
        return [low]
    matches = [uid for uid in state.units if uid.split("-", 1)[1] == low]
    if not matches:
        matches = [uid for uid in state.units if uid.endswith("-" + low)]
    if not matches:
        raise InvalidOrder(order, f"no unit is called {word!r}")
    if len(matches) > 1:
        raise AmbiguousOrder(order, f"{word!r} could be {', '.join(sorted(matches))}")
    return matches


def _once(values: list, context: ParseContext | None) -> list:
    """A unit named twice (or by its hex and its id) counts once."""
    return list(dict.fromkeys(values))


def _replaced(values: list, context: ParseContext | None) -> list:
    """Rules version 7 (ruling E18): every unit as named, for 8.3 to refuse one named twice; before, once."""
    if context is not None and context.state.since(7):
        return list(values)
    return _once(values, context)


def _chosen(values: list, context: ParseContext | None) -> list:
    """Rules version 8 (ruling E19): every unit as named, for 11.2 or 6.0 to refuse one named twice; before, once."""
    if context is not None and context.state.since(8):
        return list(values)
    return _once(values, context)


def _named(values: list, context: ParseContext | None) -> list:
    """Rules version 9 (ruling E20): every unit as named (by its id, short id or hex), for the order's case to refuse
    one named twice; before, once."""
    if context is not None and context.state.since(9):
        return list(values)
    return _once(values, context)


def once_each(state: State, units: list[str], case: str, what: str) -> None:
    """Rules version 9 (ruling E20): an order that moves, fights, places, rails, lands or advances units names each
    once; a unit named twice (by its id twice, or by its id and its hex) is refused by the order's case."""
    twice = named_twice(units) if state.since(9) else []
    if twice:
        raise IllegalOrder(case, f"{', '.join(twice)} named twice: {what}; name each unit once")


def _hex(word: str) -> str:
    if not HEX_RE.match(word):
        raise ValueError("is not a hex number (XXYY)")
    return word


def shorthand(text: str) -> str:
    """'/' separates words as a blank does; `move fight` alone is `declare move fight` (5.3)."""
    words = text.replace("/", " ").split()
    if len(words) == 2 and all(w.lower() in MODES for w in words):
        return "declare " + " ".join(words)
    return text.replace("/", " ")


HEX = SlotType(_hex, "a hex number (XXYY)")
# units that move or fight: a hex names every own mobile unit there; from rules version 9 (ruling E20) each unit as
# often as named and the order's case refuses one named twice (once_each); a game of version 8 or before, once
UNITS = SlotType.in_context(lambda w, c: _unit(w, c, hex_ok=True), "units (ids or a hex)", plural=True,
                            finish=_named)
# units named one by one (placed, railed, landed)
UNITS_BY_NAME = SlotType.in_context(lambda w, c: _unit(w, c, hex_ok=False), "units (ids)", plural=True,
                                    finish=_named)
# one unit a word; `lose` names a unit once per step it loses
UNIT = SlotType.in_context(lambda w, c: _unit(w, c, hex_ok=False), "a unit id")
# the units a replacement flips: from rules version 7 (ruling E18) each as often as named, and 8.3 refuses a unit
# named twice; a game of version 6 or before counts it once, as played
UNIT_REPLACED = SlotType.in_context(lambda w, c: _unit(w, c, hex_ok=False), "a unit id", finish=_replaced)
# the units the interdiction removes (11.2) or an overstacked hex loses (6.0): from rules version 8 (ruling E19) each
# as often as named, and the case refuses a unit named twice; a game of version 7 or before counts it once, as played
UNIT_CHOSEN = SlotType.in_context(lambda w, c: _unit(w, c, hex_ok=False), "a unit id", finish=_chosen)
KIND = SlotType.choice(*SUPPORT_KINDS)
SLOTS = {"HEX": HEX, "UNITS": UNITS, "UNIT": UNIT, "KIND": KIND}


# -- what a decision owes (issue 14): where, how much, the candidates with their values -----------------------
def value(u: Unit) -> str:
    """A unit as a decision weighs it: its combat factor now, its steps, its size."""
    return f"{u.cf} CF, {u.steps}/{u.steps_max} step(s), {u.size}"


def _units(state: State, ids) -> tuple[tuple[str, str], ...]:
    return tuple((uid, value(state.units[uid])) for uid in ids)


def fewest_to_eliminate(state: State, side: str, h: str) -> int:
    """SNC 6.0, 6.2: the fewest of `side`'s units in `h` whose elimination brings it within the limits (once per
    position: the prompt and the list of legal orders both ask)."""
    return _fewest(state, side, h)[0]


def _fewest(state: State, side: str, h: str) -> tuple[int, tuple]:
    """(the fewest, one set of that many units that does it)."""
    return state.memo(("fewest to eliminate", side, h), lambda: _fewest_to_eliminate(state, side, h))


def _fewest_to_eliminate(state: State, side: str, h: str) -> tuple[int, tuple]:
    """Exact, without trying every set when it need not: the answer lies between a lower bound (each limit alone,
    its heaviest units first) and the count of a greedy elimination (the unit that cuts the excess most, in
    turn); only sizes below the greedy count and from the bound up are tried (a hex of twenty units took seconds
    a prompt when every set of each size was tried from one up)."""
    mf = state.data.params["game"]["mobile_mf"]
    mine = [u for u in state.at(h) if u.side == side]
    rules = state.data.stacking

    pieces = {id(u): u.piece(mf) for u in mine}  # each unit's piece once, not once a set tried

    def over(kept) -> list:
        return overstacked([pieces[id(u)] for u in kept], rules, H(h))

    def badness(kept) -> float:
        found = over(kept)
        return sum(v.excess for v in found) + len(found)

    gone, kept = [], list(mine)
    while kept and over(kept):
        gone.append(min(kept, key=lambda u: badness([x for x in kept if x is not u])))
        kept.remove(gone[-1])
    for k in range(max(1, _least_to_eliminate(mine, mf, rules)), len(gone)):
        for fewer in combinations(mine, k):
            if not over([u for u in mine if u not in fewer]):
                return k, fewer
    return (len(gone), tuple(gone)) if gone else (1, tuple(mine[:1]))


def _least_to_eliminate(units: list, mf: float, rules) -> int:
    """A lower bound of the units to eliminate: for each cap of a limit alone, its heaviest units first."""
    pieces = [u.piece(mf) for u in units]
    pieces = [p for p in pieces if not any(p.is_(w) for w in rules.free)]
    least = 0
    for lim in rules.limits:
        group = [p for p in pieces if lim.applies_to(p)]
        caps = [(group, lim.max_total)] + [([p for p in group if p.is_(w)], cap) for w, cap in lim.per_class.items()]
        for members, cap in caps:
            if cap is None:
                continue
            weights = sorted((lim.weight(p) for p in members), reverse=True)
            total, n = sum(weights), 0
            while total > cap + 1e-9 and n < len(weights):
                total -= weights[n]
                n += 1
            least = max(least, n)
    return least



def declare(em: Decision, side: str, first: str, second: str) -> None:
    em.emit(ev.PhasesDeclared(side, first, second))


def end(em: Decision, side: str) -> None:
    """End the phase; SNC 6.0 1) stacking is checked at the end of a movement phase: an overstacked hex is
    brought within the limits first, then the phase ends (the last `eliminate` ends it);
    after the Japanese Second Operations Phase comes the Victory Check (4.3, Phase II.D). A battle under way is
    finished first (10.1): its decisions are the steps then, and none of them takes `end`."""
    state = em.state
    if state.mode() == "move":  # not after placement (ruling R23)
        if overstacked_hexes(state, side):
            require_stacking(em, side, ending=state.since(3))
            return
    result = victory_check(state) if (side == "japanese" and state.phase == "ops2") else None
    em.emit(ev.PhaseEnded(state.phase, state.turn, side))
    if result is not None:
        em.emit(result)


# -- the orders worth trying (the list of legal orders, app/rules/legal.py) -----------------------------------
MAX_PER_UNIT = 40  # destinations per unit or stack, the nearest first: a bounded list keeps the hexes next to it
MAX_CHOICES = 12   # allocations of losses, sets of units to eliminate
TRIES = 2000  # sets of units to eliminate tried for the list (a big stack has millions of sets of the fewest size)


def _movable_groups(state: State, side: str) -> list[list[str]]:
    """The stack under way (from rules version 10, ruling E21, the units of it still on the map), then every unit
    that has not moved."""
    moving = state.moving()
    groups = [list(moving)] if moving else []
    return groups + [[u.id] for u in state.on_map(side)
                     if not (u.static or u.done or u.mp_used > 0 or u.id in state.mover)]


def _move_candidates(state: State, side: str) -> Iterator[dict]:
    """The stack under way, then every unit that has not moved (9.0: moving another ends the stack's move; in the
    Reinforcement Phase, those placed in their listed hex: 8.2); each unit's nearest destinations first (by MP,
    then label)."""
    for group in _movable_groups(state, side):
        try:
            units = movement.may_move(state, side, group)
        except OrderError:  # the stack may not move on now: no destination of it would be accepted
            continue
        for dest in movement.nearest_destinations(state, side, units)[:MAX_PER_UNIT]:
            yield {"units": group, "to": dest, "via": []}


def _battle_candidates(verb: str):
    """Every adjacent enemy hex with all the units next to it (an overrun: those of one hex, 9.6), alone and with
    each fire support marker allowed there, then with all of them (11.1)."""
    def candidates(state: State, side: str) -> Iterator[dict]:
        d = state.data
        own = [u for u in state.on_map(side) if not u.static and (verb == "overrun" or not u.attacked)]
        targets = sorted({str(n) for u in own for n in d.map.neighbours(Hex.parse(u.hex))
                          if any(x.side != side for x in state.at(str(n)))})
        for t in targets:
            near = [u for u in own if t in {str(h) for h in d.map.neighbours(Hex.parse(u.hex))}]
            groups = [near] if verb == "attack" else [[u for u in near if u.hex == h]
                                                      for h in sorted({u.hex for u in near})]
            for group in groups:
                ids = [u.id for u in group]
                origins = {u.hex for u in group}
                kinds = [k for k in ("air", "artillery", "naval")
                         if combat.support_allowed(state, side, k, t, verb, origins) is None]
                yield {"hex": t, "units": ids, "support": []}
                for k in kinds:
                    yield {"hex": t, "units": ids, "support": [k]}
                if len(kinds) > 1:
                    yield {"hex": t, "units": ids, "support": kinds}

    return candidates


def _loss_candidates(state: State, side: str) -> Iterator[dict]:
    """SNC 10.5.2: the ways to take the steps owed that the loss order allows (at most MAX_CHOICES)."""
    for allocation in _allocations(state, state.pending[0]["data"], MAX_CHOICES):
        yield {"units": list(allocation)}


def _allocations(state: State, data: dict, limit: int) -> list[tuple[str, ...]]:
    """SNC 10.5.2: the first `limit` ways to take the steps owed, each once (the same steps lost, in the order the
    loss order takes them); a larger limit finds the same first ones, then more."""
    units = [state.units[u] for u in data["units"]]
    found: dict[tuple[str, ...], tuple[str, ...]] = {}

    def walk(steps: dict, taken: tuple[str, ...]):
        if len(found) >= limit:
            return
        if len(taken) == data["count"] or not any(steps.values()):
            found.setdefault(tuple(sorted(taken)), taken)
            return
        for uid in combat.loss_candidates(units, steps):
            walk({**steps, uid: steps[uid] - 1}, (*taken, uid))

    walk({u.id: u.steps for u in units}, ())
    return list(found.values())


def _advance_candidates(state: State, side: str) -> Iterator[dict]:
    """SNC 10.5.3: every surviving attacker into the emptied hex; a landing army (8.4.1) into the landing hex,
    then one hex beyond."""
    data = state.pending[0]["data"]
    if data.get("army"):
        for n in (str(h) for h in state.data.map.neighbours(Hex.parse(data["from"]))):
            yield {"units": list(data["units"]), "path": [n]}
    else:
        yield {"units": list(data["units"]), "path": [state.battle["hex"]]}


def _army_candidates(state: State, side: str) -> Iterator[dict]:
    """SNC 8.4.1 (rulings R34, R35): the 10th Army units still in their landing hex, into each hex next to it."""
    by_hex: dict[str, list[str]] = {}
    for u in reinforcements.army_going_on(state):
        by_hex.setdefault(u.hex, []).append(u.id)
    for h, ids in sorted(by_hex.items()):
        for n in (str(x) for x in state.data.map.neighbours(Hex.parse(h))):
            yield {"units": ids, "hex": n}


def _remove_candidates(state: State, side: str) -> Iterator[dict]:
    """SNC 11.2: the strongest reinforcements until the roll is met, then without any not needed."""
    data = state.pending[0]["data"]
    chosen, total = [], 0
    for uid in sorted(data["units"], key=lambda u: -state.units[u].cf):
        if total >= data["roll"]:
            break
        chosen.append(uid)
        total += state.units[uid].cf
    while spare := [u for u in chosen if total - state.units[u].cf >= data["roll"]]:  # the weakest not needed
        chosen.remove(spare[0])
        total -= state.units[spare[0]].cf
    yield {"units": chosen}


def _eliminate_candidates(state: State, side: str) -> Iterator[dict]:
    """SNC 6.0: every set of the fewest units whose elimination brings the hex within the limits."""
    h = state.pending[0]["data"]["hex"]
    mf = state.data.params["game"]["mobile_mf"]
    mine = [u for u in state.at(h) if u.side == side]
    pieces = [u.piece(mf) for u in mine]  # each unit's piece once, not once a set tried
    n, witness = _fewest(state, side, h)
    yield {"units": [u.id for u in witness]}  # one set of the fewest, then others, trying at most TRIES sets
    found, first = 1, {u.id for u in witness}
    for tried, gone in enumerate(combinations(range(len(mine)), n)):
        if found >= MAX_CHOICES or tried >= TRIES:
            return
        if {mine[i].id for i in gone} != first and not overstacked(
                [p for i, p in enumerate(pieces) if i not in gone], state.data.stacking, H(h)):
            yield {"units": [mine[i].id for i in gone]}
            found += 1


def _retreat_candidates(state: State, side: str) -> Iterator[dict]:
    """SNC 8.4: every survivor still to retreat into each hex it may (the list offers them together; ruling E23
    lets the player name some of them)."""
    for h in state.pending[0]["data"]["options"]:
        yield {"units": [], "hex": h}


def _declare_candidates(state: State, side: str) -> Iterator[dict]:
    for first in MODES:
        for second in MODES:
            yield {"first": first, "second": second}


def _place_candidates(state: State, side: str) -> Iterator[dict]:
    """SNC 8.2 a), 8.1: every reinforcement due in each of its listed hexes, a returning elite at Nanking."""
    nanking = state.data.params["replacements"]["elite_return_hex"]
    for u in reinforcements.due(state, side):
        hexes = u.arrival_hexes if u.status != "returning" else [nanking, *neighbours(state.data, nanking)]
        for h in hexes:
            yield {"units": [u.id], "hex": h}


def _rail_candidates(state: State, side: str) -> Iterator[dict]:
    """SNC 8.2 b): every reinforcement due (not a returning elite) to a railroad hex it may be placed on, one per
    unit: the first such hex (the list shows who may come by rail; any such hex takes any of them)."""
    due = [u for u in reinforcements.due(state, side) if u.status != "returning"]
    first = _first_rail_hex(state) if due else None
    for u in due if first is not None else ():
        yield {"units": [u.id], "hex": first}


def _first_rail_hex(state: State) -> str | None:
    """SNC 8.2 b), 9.5.2: the first railroad hex (by label) a reinforcement may be placed on now, if any."""
    def compute() -> str | None:
        to_edge, from_origin = reinforcements.rail_links(state)
        for h in sorted(str(x) for x in to_edge & from_origin):
            try:
                reinforcements.check_rail_hex(state, h)
            except OrderError:
                continue
            return h
        return None

    return state.memo(("first rail hex",), compute)


def _land_candidates(state: State, side: str) -> Iterator[dict]:
    """SNC 8.4: each formation due at each of its landing hexes, with an amphibious invasion marker where there
    are Chinese units to assault."""
    forms: dict[str, list[Unit]] = {}
    for u in reinforcements.due(state, side):
        forms.setdefault(u.formation or u.id, []).append(u)
    for units in forms.values():
        ids = [u.id for u in units]
        for h in reinforcements.landing_hexes(state.data, units[0]):
            yield {"units": ids, "hex": h, "support": []}
            if any(x.side != side for x in state.at(h)):
                yield {"units": ids, "hex": h, "support": ["amphibious"]}


def _replace_candidates(state: State, side: str) -> Iterator[dict]:
    for u in state.on_map(side):
        if u.reduced and not u.static:
            yield {"units": [u.id]}


# -- the states table (5.1, 5.3): each step's prompt, the orders it takes and their handlers -----------------
END = order("end", "SNC 5.1", "end this phase")
MOVE = order("move UNITS to HEX:to [via HEX:via ...]", "SNC 9.0", "move a unit or a stack that starts in one hex",
             _move_candidates)
PASS = order("pass", "SNC 11.1", "add nothing")


class Decided(Step):
    """A decision the sequence waits for (state.pending): its side decides, and the prompt says what is owed."""

    def label(self, state: State) -> str:
        p = state.pending[0]
        return f"GT {state.turn}, {p['side']} decision: {p['kind']}"

    def closed(self, state: State, command: Command) -> tuple[str, str] | None:
        """SNC 10.1, 6.0, 11.2 (rules version 13, ruling E25): an order other than the decision owed, refused by the
        case that makes the decision come first; an order its side never gives, by the case that says whose it is."""
        if not state.since(13):
            return None
        never = CASES.not_theirs(command)
        if never or command.side != state.pending[0]["side"]:
            return never
        kind, now = state.pending[0]["kind"], sequence_words(TABLE, state, command)
        if state.battle is not None:
            return "SNC 10.1", f"the battle at {state.battle['hex']} is resolved before another order is given; {now}"
        if kind == "overstack":
            return "SNC 6.0", f"{state.pending[0]['data']['hex']} is brought within the stacking limits first; {now}"
        return "SNC 11.2", f"the reinforcements the interdiction removes are chosen first; {now}"


class Losses(Decided):
    """SNC 10.5.2: the owner chooses which units lose the steps."""
    name = "losses"

    def owed(self, state: State) -> Owed:
        """Where the units that lose the steps are: the defender's hex, or the attackers' own hexes (the attack
        on the defender's hex named in what is owed)."""
        p = state.pending[0]
        data, battle = p["data"], state.battle or {}
        if battle and battle.get("side") == p["side"]:
            where = ", ".join(sorted({state.units[u].hex for u in data["units"] if state.units[u].hex})) or None
            return Owed(f"lose {data['count']} step(s) of the attack on {battle['hex']} (SNC 10.5.2)", where,
                        f"{data['count']} step(s) from these units", _units(state, data["units"]))
        return Owed(f"lose {data['count']} step(s) (SNC 10.5.2)", battle.get("hex"),
                    f"{data['count']} step(s) from these units", _units(state, data["units"]))

    @order("lose UNIT [UNIT ...]", "SNC 10.5.2", "choose which units lose the steps", _loss_candidates)
    def lose(self, em: Decision, units: list[str]) -> None:
        combat.lose(em, em.side, units)


class Advance(Decided):
    """SNC 10.5.3: advance after combat, or stay."""
    name = "advance"

    def owed(self, state: State) -> Owed:
        data = state.pending[0]["data"]
        into = (f"the landing hex {data['from']}, then one hex beyond" if data.get("army")
                else (state.battle or {}).get("hex"))
        return Owed(f"advance into {into} or stay (SNC 10.5.3)", None,
                    f"up to {data['hexes']} hex(es), any of these units", _units(state, data["units"]))

    @order("advance UNITS to HEX:path [HEX]", "SNC 10.5.3", "advance surviving attackers into the emptied hex",
           _advance_candidates, forbidden=(("advance UNITS to HEX:path HEX:beyond HEX [HEX ...]", "SNC 10.5.3",
                                            "an advance after combat enters the emptied hex (a 10th Army landing "
                                            "goes one hex beyond, 8.4.1), no farther"),))
    def advance(self, em: Decision, units: list[str], path: list[str]) -> None:
        once_each(em.state, units, "SNC 10.5.3", "a unit advances once")
        combat.advance(em, em.side, units, path)

    @order("stay", "SNC 10.5.3", "do not advance")
    def stay(self, em: Decision) -> None:
        combat.stay(em, em.side)


class Passing(Decided):
    """A fire-support decision that may add nothing (11.1): the battle is resolved at once."""

    @PASS
    def pass_(self, em: Decision) -> None:
        em.emit(ev.DecisionMade(em.state.pending[0]["kind"], em.side))
        combat.resolve(em)


class Intercept(Passing):
    """SNC 11.3: the Chinese air force may try to intercept the Japanese air marker."""
    name = "intercept"

    def owed(self, state: State) -> Owed:
        return Owed("the Japanese air marker supports this attack: intercept it with the Chinese air force, or "
                    "pass (SNC 11.3: a 6 aborts the marker, a 1 loses the Chinese air force)",
                    state.pending[0]["data"].get("hex"))

    @order("intercept", "SNC 11.3", "roll for the Chinese air force against the Japanese air marker")
    def intercept(self, em: Decision) -> None:
        em.emit(ev.DecisionMade("intercept", em.side))
        combat.intercept(em, "air support")
        combat.resolve(em)


class Defend(Passing):
    """SNC 11.4: the Chinese defender may add a naval gunfire marker."""
    name = "defend"

    def owed(self, state: State) -> Owed:
        return Owed("add a naval gunfire marker to this defence, or pass (SNC 11.4)",
                    state.pending[0]["data"].get("hex"),
                    f"{state.markers_available('japanese', 'naval')} naval marker(s) left")

    @order("support naval", "SNC 11.4", "add a naval gunfire marker to the defence", defaults={"kind": "naval"},
           forbidden=(("support KIND [KIND ...]", "SNC 11.1",
                       "only the Japanese naval gunfire marker may support a defence: 'support naval'"),))
    def support(self, em: Decision, kind: str) -> None:
        state = em.state
        if not combat.defensive_naval_allowed(state, state.battle["hex"]):
            em.refuse("SNC 11.4", "no naval gunfire marker can support this defence")
        em.emit(ev.DecisionMade("defend", em.side), ev.SupportAdded(em.side, "naval"))
        combat.resolve(em)


class Interdiction(Decided):
    """SNC 11.2: the Chinese choose the reinforcements the interdiction removes."""
    name = "interdiction"

    def owed(self, state: State) -> Owed:
        data = state.pending[0]["data"]
        units = sorted(data["units"], key=lambda u: (-state.units[u].cf, u))
        return Owed("remove reinforcements of this GT (SNC 11.2)", None,
                    f"at least {data['roll']} combat factor(s), no more units than needed (die {data['roll']})",
                    _units(state, units))

    @order("remove UNIT [UNIT ...]", "SNC 11.2", "choose the reinforcements the interdiction removes",
           _remove_candidates, slots={"UNIT": UNIT_CHOSEN})
    def remove(self, em: Decision, units: list[str]) -> None:
        reinforcements.remove(em, units)


class Overstack(Decided):
    """SNC 6.0: an overstacked hex is brought within the limits; the `end` that asked for it then ends the
    phase (6.0 1))."""
    name = "overstack"

    def owed(self, state: State) -> Owed:
        p = state.pending[0]
        h, side = p["data"]["hex"], p["side"]
        n = fewest_to_eliminate(state, side, h)
        mine = sorted((u for u in state.at(h) if u.side == side), key=lambda u: (-u.cf, u.id))
        return Owed(f"eliminate units until the hex is within the stacking limits (SNC 6.0; {p['data']['why']})",
                    h, f"at least {n} unit(s), none more than needed", tuple((u.id, value(u)) for u in mine))

    @order("eliminate UNIT [UNIT ...]", "SNC 6.0", "eliminate units from an overstacked hex",
           _eliminate_candidates, slots={"UNIT": UNIT_CHOSEN})
    def eliminate(self, em: Decision, units: list[str]) -> None:
        ending = em.state.pending[0]["data"].get("ending")
        combat.eliminate(em, em.side, units)
        if ending and not em.state.pending:
            end(em, em.side)


class Retreat(Decided):
    """SNC 8.4: the Chinese survivors of a landing retreat one hex."""
    name = "retreat"

    def owed(self, state: State) -> Owed:
        data = state.pending[0]["data"]
        apart = " (together, or each its own way)" if len(data["units"]) > 1 else ""
        who = f": {', '.join(data['units'])}{apart}" if state.since(11) else ""  # ruling E23
        return Owed(f"retreat the Chinese survivors one hex (SNC 8.4){who}", (state.battle or {}).get("hex"),
                    "one of these hexes", tuple((h, "open") for h in data["options"]))

    @order("retreat [UNIT ...] to HEX", "SNC 8.4", "retreat the Chinese survivors of a landing one hex (all of "
           "them, or those named: rules version 11, ruling E23)", _retreat_candidates,
           slots={"UNIT": UNIT_CHOSEN},
           forbidden=(("retreat [UNIT ...] to HEX HEX [HEX ...]", "SNC 8.4",
                       "the Chinese survivors of a landing retreat one hex: name that hex"),))
    def retreat(self, em: Decision, units: list[str], hex: str) -> None:
        combat.retreat(em, em.side, hex, units)


class InPhase(Step):
    """A phase of a player turn (5.1): the phasing side acts."""

    def closed(self, state: State, command: Command) -> tuple[str, str] | None:
        """An order this step does not take, refused by the case that forbids it here (from rules version 6, ruling
        E17: `closed_here`); from rules version 13 (ruling E25) also an order its side never gives, and one of a
        moment this step is not (a decision's order with no decision owed), each by its case."""
        never = CASES.not_theirs(command) if state.since(13) else None
        if never or not state.since(6) or command.side != state.side:
            return never
        return self.closed_here(state, command) or (_not_this_moment(state, command) if state.since(13) else None)

    def closed_here(self, state: State, command: Command) -> tuple[str, str] | None:
        return None

    def label(self, state: State) -> str:
        return f"GT {state.turn}, {state.side} {PHASE_NAMES[state.phase]}"

    @END
    def end(self, em: Decision) -> None:
        end(em, em.side)


class Declare(InPhase):
    """SNC 5.3: what each Operations Phase of this player turn is for."""
    name = "declare"

    def allowed(self, state: State, orders: tuple[str, ...]):
        return ("declare",)

    def closed_here(self, state: State, command: Command) -> tuple[str, str] | None:
        """SNC 5.3 (rules version 13, ruling E25): nothing before the declaration of the player turn."""
        if not state.since(13):
            return None
        return "SNC 5.3", ("prior to the start of his player turn the player announces what each Operations Phase is "
                           "for: `declare move|fight move|fight` comes first")

    @order("declare move|fight:first move|fight:second", "SNC 5.3",
           "announce what each Operations Phase of this player turn is for", _declare_candidates)
    def declare(self, em: Decision, first: str, second: str) -> None:
        declare(em, em.side, first, second)


class Operations(InPhase):
    """SNC 5.3: an Operations Phase, for movement or for combat as declared."""
    name = "operations"

    def label(self, state: State) -> str:
        return super().label(state) + f" ({state.mode()})"

    def allowed(self, state: State, orders: tuple[str, ...]):
        """SNC 5.3: moves (and the Japanese overrun, 9.6) in a phase chosen for movement, attacks in one chosen
        for combat; the one place this is decided."""
        if state.mode() == "move":
            return ("move", "overrun", "end") if state.side == "japanese" else ("move", "end")
        return ("attack", "end")

    def closed_here(self, state: State, command: Command) -> tuple[str, str] | None:
        """SNC 5.3, 9.6, 5.4, 8.3 (rules version 6, ruling E17): an order this phase does not take, refused by the
        case that forbids it here."""
        action, mode = command.action, state.mode()
        if action == "overrun" and state.side == "chinese":
            return "SNC 9.6", "only the Japanese overrun"
        if action == "attack" and mode == "move":
            return "SNC 5.3", "this Operations Phase was declared for movement: attacks come in one declared for combat"
        if action in ("move", "overrun") and mode == "fight":
            return "SNC 5.3", ("this Operations Phase was declared for combat: units move (and overrun, 9.6) in one "
                               "declared for movement")
        return _outside_its_phase(state, action)

    @MOVE
    def move(self, em: Decision, units: list[str], to: str, via: list[str]) -> None:
        once_each(em.state, units, "SNC 9.0", "a unit moves once")
        movement.move(em, em.side, units, to, via)

    @order("overrun HEX with UNITS [support KIND:support ...]", "SNC 9.6",
           "Japanese: overrun an adjacent hex (not a city or town) during movement", _battle_candidates("overrun"),
           forbidden=(("overrun HEX HEX [HEX ...] with UNITS [support KIND:support ...]", "SNC 10.0",
                       "only one hex may be the object of an attack: overrun each hex by its own order"),))
    def overrun(self, em: Decision, hex: str, units: list[str], support: list[str]) -> None:
        once_each(em.state, units, "SNC 9.6", "a unit's combat factors count once in an overrun")
        movement.overrun(em, em.side, hex, units, support)

    @order("attack HEX with UNITS [support KIND:support ...]", "SNC 10.0",
           "attack one adjacent enemy hex with named units and fire support", _battle_candidates("attack"),
           forbidden=(("attack HEX HEX [HEX ...] with UNITS [support KIND:support ...]", "SNC 10.0",
                       "only one hex may be the object of an attack: attack each hex by its own order"),))
    def attack(self, em: Decision, hex: str, units: list[str], support: list[str]) -> None:
        once_each(em.state, units, "SNC 10.0", "a unit's combat factors count once in an attack")
        combat.check_attack(em.state, em.side, hex, units, "attack")
        combat.open_battle(em, em.side, hex, units, support, "attack")


class ChineseReinforcements(InPhase):
    """SNC 8.1, 8.2, 11.2: the Chinese Reinforcement Phase, after any Japanese air interdiction."""
    name = "chinese-reinforcements"

    def label(self, state: State) -> str:
        return super().label(state) + (": Japanese air interdiction" if interdiction_due(state) else "")

    def allowed(self, state: State, orders: tuple[str, ...]):
        if interdiction_due(state):  # SNC 11.3: the Chinese air force, while in the game, may try to disrupt it
            return ("air", "proceed") if state.chinese_air else ("proceed",)
        names = ["place", "move", "end"]
        if state.turn >= int(state.data.params["reinforcements"]["rail_from_turn"]):
            names.insert(1, "rail")
        return names

    def closed_here(self, state: State, command: Command) -> tuple[str, str] | None:
        """SNC 8.2, 11.2, 11.3, 5.3 (rules version 6, ruling E17): an order this phase does not take, refused by the
        case that forbids it here."""
        action, first = command.action, int(state.data.params["reinforcements"]["rail_from_turn"])
        if action == "air":
            if not state.chinese_air:
                return "SNC 11.3", "the Chinese air force rolled a 1 and is out of the game"
            return "SNC 11.3", "the Chinese air force answers the Japanese air interdiction, which is not rolled now"
        if interdiction_due(state) and action in ("place", "rail", "move"):
            return "SNC 11.2", "the Japanese air interdiction of this GT's reinforcements comes first"
        if interdiction_due(state) and action == "end" and state.since(14):  # ruling E29
            air = " (or `air`, the Chinese air force first, 11.3)" if state.chinese_air else ""
            return "SNC 11.2", ("the Japanese air interdiction of this GT's reinforcements is rolled in this phase, "
                                f"before it ends: `proceed`{air}")
        if action == "rail" and state.turn < first:
            return "SNC 8.2", f"railroad placement starts on GT {first}"
        if action == "attack":
            return "SNC 5.3", "arriving Chinese reinforcements move in the Reinforcement Phase; no battle is fought"
        return _outside_its_phase(state, action)

    @order("air", "SNC 11.3", "roll for the Chinese air force against the interdiction")
    def air(self, em: Decision) -> None:
        reinforcements.air(em)

    @order("proceed", "SNC 11.2", "let the Japanese interdiction roll be made")
    def proceed(self, em: Decision) -> None:
        reinforcements.interdict(em)

    @order("place UNITS at HEX", "SNC 8.2",
           "place reinforcements in their listed hex (or a returning elite at Nanking, 8.1)", _place_candidates,
           slots={"UNITS": UNITS_BY_NAME})
    def place(self, em: Decision, units: list[str], hex: str) -> None:
        once_each(em.state, units, "SNC 8.2", "a reinforcement is placed once")
        reinforcements.place(em, units, hex)

    @order("rail UNITS to HEX", "SNC 8.2",
           "place reinforcements on a railroad hex with a rail line of communication (9.5.2)", _rail_candidates,
           slots={"UNITS": UNITS_BY_NAME})
    def rail(self, em: Decision, units: list[str], hex: str) -> None:
        once_each(em.state, units, "SNC 8.2", "a reinforcement is placed once")
        reinforcements.rail(em, units, hex)

    @MOVE
    def move(self, em: Decision, units: list[str], to: str, via: list[str]) -> None:
        once_each(em.state, units, "SNC 9.0", "a unit moves once")
        movement.move(em, em.side, units, to, via)


class JapaneseReinforcements(InPhase):
    """SNC 8.3, 8.4: the Japanese Reinforcement Phase: replacements, then landings."""
    name = "japanese-reinforcements"

    def allowed(self, state: State, orders: tuple[str, ...]):
        army = ["advance"] if reinforcements.army_going_on(state) else []
        return (["replace"] if state.replacements > 0 else []) + ["land", *army, "end"]

    def closed_here(self, state: State, command: Command) -> tuple[str, str] | None:
        """SNC 8.3, 8.4, 8.4.1, 5.3 (rules version 6, ruling E17): an order this phase does not take, refused by the
        case that forbids it here."""
        action, first = command.action, int(state.data.params["replacements"]["japanese_from_turn"])
        if action == "replace":
            if state.turn < first:
                return "SNC 8.3", f"replacement steps begin on GT {first}"
            return "SNC 8.3", ("no replacement step is left this GT: they are used first thing in the phase, "
                               "before any landing, or lost")
        if action == "advance":
            return "SNC 8.4.1", ("only 10th Army units still in the hex they landed at this phase go on one hex more "
                                 "(and only when the 10th Army landed alone)")
        if action in ("attack", "move", "overrun"):
            return "SNC 5.3", ("in the Reinforcement Phase Japanese reinforcements arrive and attack by their landing "
                               "(8.4); the army moves and fights in the Operations Phases")
        return _outside_its_phase(state, action)

    @order("replace UNIT [UNIT ...]", "SNC 8.3", "flip reduced Japanese units back to full strength",
           _replace_candidates, slots={"UNIT": UNIT_REPLACED})
    def replace(self, em: Decision, units: list[str]) -> None:
        reinforcements.replace_steps(em, units)

    @order("land UNITS at HEX [support KIND:support ...]", "SNC 8.4",
           "land reinforcements at a landing hex, assaulting any Chinese there", _land_candidates,
           slots={"UNITS": UNITS_BY_NAME})
    def land(self, em: Decision, units: list[str], hex: str, support: list[str]) -> None:
        once_each(em.state, units, "SNC 8.4", "a reinforcement lands once, its combat factors counted once")
        reinforcements.land(em, units, hex, support)

    @order("advance UNITS to HEX", "SNC 8.4.1", "10th Army units in the hex they landed at this phase advance one "
           "hex more", _army_candidates, forbidden=(("advance UNITS to HEX HEX [HEX ...]", "SNC 8.4.1",
                                                     "the 10th Army goes on one hex beyond the landing hex, no "
                                                     "farther"),))
    def advance(self, em: Decision, units: list[str], hex: str) -> None:
        once_each(em.state, units, "SNC 8.4.1", "a unit advances once")
        reinforcements.army_advance(em, units, hex)


# SNC (rules version 13, ruling E25): the orders only one side ever gives, with the case that says whose they are
NEVER_THEIRS = {
    ("chinese", "replace"): ("SNC 8.1", "the Chinese player receives no replacements; an eliminated elite unit comes "
                                        "back by the Turn Record Track"),
    ("chinese", "land"): ("SNC 8.2", "Chinese reinforcements are placed in their listed hex or on a railroad hex; only "
                                     "Japanese reinforcements land (8.4)"),
    ("chinese", "overrun"): ("SNC 9.6", "only the Japanese overrun"),
    ("chinese", "support"): ("SNC 11.1", "only the Japanese naval gunfire markers support a defence"),
    ("japanese", "place"): ("SNC 8.4", "Japanese reinforcements arrive by amphibious landing: `land UNITS at HEX`"),
    ("japanese", "rail"): ("SNC 8.4", "Japanese reinforcements arrive by amphibious landing: `land UNITS at HEX`"),
    ("japanese", "retreat"): ("SNC 8.4", "only the Chinese survivors of a landing retreat"),
    ("japanese", "remove"): ("SNC 11.2", "the Chinese player chooses the reinforcements the interdiction removes"),
    ("japanese", "intercept"): ("SNC 11.3", "the Chinese air force intercepts; the Japanese have no such roll"),
    ("japanese", "air"): ("SNC 11.3", "the Chinese air force answers the interdiction; the Japanese have no such roll"),
    ("japanese", "proceed"): ("SNC 11.2", "the Chinese player lets the interdiction roll be made"),
}

# SNC (rules version 13, ruling E25): the orders that answer a decision, with the case of the moment that asks for it
AT_ITS_MOMENT = {
    "advance": ("SNC 10.5.3", "an advance after combat is decided right after a battle that leaves the defender's hex "
                              "empty, and by its attacker"),
    "stay": ("SNC 10.5.3", "an advance after combat is decided right after a battle that leaves the defender's hex "
                           "empty, and by its attacker"),
    "lose": ("SNC 10.5.2", "steps are lost when a battle's result leaves their owner a choice of units"),
    "retreat": ("SNC 8.4", "the Chinese survivors of a landing retreat when the landing leaves them in its hex"),
    "remove": ("SNC 11.2", "reinforcements are removed when the Japanese air interdiction's roll calls for a choice"),
    "eliminate": ("SNC 6.0", "units are eliminated when a check finds their hex over the stacking limits"),
    "intercept": ("SNC 11.3", "the Chinese air force intercepts when a Japanese air support marker is added to an "
                              "attack"),
    "air": ("SNC 11.3", "the Chinese air force answers the Japanese air interdiction in the Chinese Reinforcement "
                        "Phase (11.2)"),
    "proceed": ("SNC 11.2", "the Japanese air interdiction is rolled in the Chinese Reinforcement Phase, from GT 3"),
    "support": ("SNC 11.4", "naval gunfire supports a defence when the Chinese attack a hex next to the Yangtze or the "
                            "navigable Huangpu"),
    "pass": ("SNC 11.1", "a defender adds a fire support marker, or passes, when a battle is resolved"),
}
CASES = OrderCases(NEVER_THEIRS, AT_ITS_MOMENT)


def _not_this_moment(state: State, command: Command) -> tuple[str, str] | None:
    """SNC 10.5.3, 10.5.2, 8.4, 11.2, 6.0, 11.3, 11.4, 11.1 (rules version 13, ruling E25): a decision's order given
    in a phase, with no decision owed, refused by the case of the moment that asks for it."""
    return CASES.not_now(command, sequence_words(TABLE, state, command))


def _outside_its_phase(state: State, action: str) -> tuple[str, str] | None:
    """SNC 5.3, 5.4, 8.3: a declaration, a placement or a replacement outside the one phase that takes it."""
    if action == "declare":
        return "SNC 5.3", "one phase order declaration per player turn, made before its First Operations Phase"
    if action in ("place", "rail", "land") and state.phase != "reinf":
        return "SNC 5.4", "reinforcements are placed in their side's Reinforcement Phase"
    if action == "replace" and state.phase != "reinf":
        return "SNC 8.3", "replacement steps are used first thing in the Japanese Reinforcement Phase"
    return None


# -- the orders the list tries after the candidates (rules version 12, ruling E24) --------------------------------
SUBSETS_UP_TO = 5  # survivors whose every set is offered for an advance (31 sets); more are offered by group


def more_orders(state: State, side: str) -> Iterator[Candidate]:
    """Ruling E24 (rules version 12): orders the rules allow that the candidates (what the random player draws from)
    never name, for the list of legal orders and `orders for UNIT|HEX` (app/rules/legal.py `listed_candidates`): a
    landing with the fire support markers not used in the First Operations Phase (8.4, 8.5, 11.1; the 12.0 Wusong
    landing takes all four), an attack or an overrun with any two of three markers allowed (11.1), the units of one
    attacking hex alone (10.0), an advance by part of the survivors (10.5.3: any number, up to the stacking limit;
    6.2), the 10th Army's second hex by part of the units in its landing hex (8.4.1, ruling R34), each survivor of a
    landing retreating its own way (8.4, ruling E23), every set of reinforcements the interdiction may remove (11.2,
    ruling R28), a reinforcement placed on every railroad hex it may be (8.2 b)), a stack moving together in a
    movement phase (9.0; an overrun's units move together, 9.6), one unit of a formation landing alone (8.0, 8.4),
    two replacements in one order (8.3), every destination past a unit's 40 nearest (9.0), more allocations of losses
    (10.5.2) and every set of units an overstacked hex may lose, none not needed (6.0). The decider keeps those it
    accepts. A game created under rules version 11 or before is listed as it was."""
    if not state.since(12):
        return
    if state.pending:
        p = state.pending[0]
        data = p["data"]
        if p["side"] != side:
            return
        if p["kind"] == "advance":
            paths = ([[str(h)] for h in state.data.map.neighbours(Hex.parse(data["from"]))] if data.get("army")
                     else [[state.battle["hex"]]])
            found = [{"units": group, "path": path} for group in _parts(state, data["units"]) for path in paths]
            yield from _as_candidates(state, "advance", found)
        elif p["kind"] == "retreat" and len(data["units"]) > 1:  # each survivor its own way (ruling E23)
            found = [{"units": [u], "hex": h} for u in data["units"] for h in data["options"]]
            yield from _as_candidates(state, "retreat", found)
        elif p["kind"] == "interdiction":
            yield from _as_candidates(state, "remove", _removals(state, data))
        elif p["kind"] == "losses":
            yield from _as_candidates(state, "lose", _more_losses(state, data))
        elif p["kind"] == "overstack":
            yield from _as_candidates(state, "eliminate", _more_eliminations(state, side, data["hex"]))
        return
    if state.side != side:
        return
    if state.phase == "reinf" and side == "chinese":
        due = [u for u in reinforcements.due(state, side) if u.status != "returning"]
        hexes = _rail_hexes(state) if due and "rail" in {o.name for o in TABLE.allowed(state)} else []
        yield from _as_candidates(state, "rail", [{"units": [u.id], "hex": h} for u in due for h in hexes[1:]])
        yield from _as_candidates(state, "move", _farther_moves(state, side))
    elif state.phase == "reinf" and side == "japanese":
        if state.replacements > 1:  # two reduced units in one order (8.3)
            reduced = [a["units"][0] for a in _replace_candidates(state, side)]
            yield from _as_candidates(state, "replace", [{"units": list(c)} for c in combinations(reduced, 2)])
        yield from _as_candidates(state, "land", _landings_with_markers(state, side))
        yield from _as_candidates(state, "land", _landings_of_one(state, side))
        by_hex: dict[str, list[str]] = {}
        for u in reinforcements.army_going_on(state):
            by_hex.setdefault(u.hex, []).append(u.id)
        found = [{"units": group, "hex": str(n)} for h, ids in sorted(by_hex.items())
                 for group in _parts(state, ids) for n in state.data.map.neighbours(Hex.parse(h))]
        yield from _as_candidates(state, "advance", found)
    elif state.mode() in MODES:
        verb = "attack" if state.mode() == "fight" else "overrun"
        if verb == "overrun":
            yield from _as_candidates(state, "move", _stack_moves(state, side))
        yield from _as_candidates(state, verb, _battles_with_markers(state, side, verb))
        if verb == "overrun":
            yield from _as_candidates(state, "move", _farther_moves(state, side))


def _as_candidates(state: State, name: str, found) -> Iterator[Candidate]:
    for o in TABLE.allowed(state):
        if o.name == name:
            g = o.grammar
            for args in found:
                yield Candidate(name, g.subject(args), render=partial(g.render, args))
            return


def _pairs(kinds: list[str]) -> list[list[str]]:
    """The sets of markers the candidates leave out: every set but none, one alone and all of them (11.1)."""
    every = chain.from_iterable(combinations(kinds, n) for n in range(2, len(kinds)))
    return [list(c) for c in every]


def _battles_with_markers(state: State, side: str, verb: str) -> Iterator[dict]:
    """Each attack (overrun) the candidates name with every other set of the markers allowed there; for an attack
    from more than one hex, the units of each hex alone."""
    seen = set()
    for args in _battle_candidates(verb)(state, side):
        key = (args["hex"], tuple(args["units"]))
        if args["support"] or key in seen:
            continue
        seen.add(key)
        origins = {state.units[u].hex for u in args["units"]}
        kinds = [k for k in ("air", "artillery", "naval")
                 if combat.support_allowed(state, side, k, args["hex"], verb, origins) is None]
        for chosen in _pairs(kinds):
            yield {**args, "support": chosen}
        if verb == "attack" and len(origins) > 1:
            for h in sorted(origins):
                yield {"hex": args["hex"], "units": [u for u in args["units"] if state.units[u].hex == h],
                       "support": []}


def _landings_with_markers(state: State, side: str) -> Iterator[dict]:
    """Each landing on Chinese units with every set of the air, artillery and naval markers it may take (8.4: those
    not used in the First Operations Phase), with and without the amphibious marker, each hex's fullest first."""
    found = []
    for args in _land_candidates(state, side):
        h = args["hex"]
        if args["support"] or not any(x.side != side for x in state.at(h)):
            continue
        kinds = [k for k in ("air", "artillery", "naval")
                 if combat.support_allowed(state, side, k, h, "landing") is None]
        sets = [list(c) for c in chain.from_iterable(combinations(kinds, n) for n in range(len(kinds), 0, -1))]
        found.append((args, [s for chosen in sets for s in (["amphibious", *chosen], chosen)]))
    for i in range(max((len(sets) for _, sets in found), default=0)):  # each hex's fullest first, then the next
        for args, sets in found:
            if i < len(sets):
                yield {**args, "support": sets[i]}


def _farther_moves(state: State, side: str) -> Iterator[dict]:
    """SNC 9.0: the destinations past the MAX_PER_UNIT nearest the candidates name, for each unit or stack they move."""
    for group in _movable_groups(state, side):
        try:
            units = movement.may_move(state, side, group)
        except OrderError:
            continue
        for dest in movement.nearest_destinations(state, side, units)[MAX_PER_UNIT:]:
            yield {"units": group, "to": dest, "via": []}


def _stack_moves(state: State, side: str) -> Iterator[dict]:
    """SNC 9.0, 9.6: each stack of two or more units that have not moved, moving together (as an overrun's units
    must), to its nearest destinations."""
    stacks: dict[str, list[str]] = {}
    for u in state.on_map(side):
        if not (u.static or u.done or u.mp_used > 0 or u.id in state.mover):
            stacks.setdefault(u.hex, []).append(u.id)
    for _, ids in sorted(stacks.items()):
        if len(ids) < 2:
            continue
        try:
            units = movement.may_move(state, side, ids)
        except OrderError:
            continue
        for dest in movement.nearest_destinations(state, side, units)[:MAX_PER_UNIT]:
            yield {"units": ids, "to": dest, "via": []}


def _landings_of_one(state: State, side: str) -> Iterator[dict]:
    """SNC 8.0, 8.4: a unit of a formation landing without the rest (they may be delayed), at each landing hex."""
    for args in _land_candidates(state, side):
        if not args["support"] and len(args["units"]) > 1:
            for uid in args["units"]:
                yield {"units": [uid], "hex": args["hex"], "support": []}


MORE_CHOICES = 60  # allocations of losses and sets of units to eliminate past the candidates' MAX_CHOICES


def _more_losses(state: State, data: dict) -> Iterator[dict]:
    """SNC 10.5.2: the ways to take the steps owed past the candidates' first MAX_CHOICES (at most MORE_CHOICES)."""
    for allocation in _allocations(state, data, MAX_CHOICES + MORE_CHOICES)[MAX_CHOICES:]:
        yield {"units": list(allocation)}


def _more_eliminations(state: State, side: str, h: str) -> Iterator[dict]:
    """SNC 6.0: sets of units whose elimination brings the hex within the limits, none of them not needed (a larger
    set than the fewest is one when no unit of it could be spared), past the candidates' (at most MORE_CHOICES, trying
    at most TRIES sets)."""
    mf = state.data.params["game"]["mobile_mf"]
    mine = [u for u in state.at(h) if u.side == side]
    pieces = [u.piece(mf) for u in mine]
    listed = {frozenset(a["units"]) for a in _eliminate_candidates(state, side)}
    n = _fewest(state, side, h)[0]

    def fits(gone: frozenset) -> bool:
        return not overstacked([p for i, p in enumerate(pieces) if i not in gone], state.data.stacking, H(h))

    found, tried = 0, 0
    for k in range(n, len(mine) + 1):
        for gone in combinations(range(len(mine)), k):
            tried += 1
            if found >= MORE_CHOICES or tried > TRIES:
                return
            ids = frozenset(mine[i].id for i in gone)
            g = frozenset(gone)
            if ids not in listed and fits(g) and not any(fits(g - {i}) for i in g):
                found += 1
                yield {"units": [mine[i].id for i in gone]}


def _rail_hexes(state: State) -> list[str]:
    """SNC 8.2 b), 9.5.2: every railroad hex a reinforcement may be placed on now, by label (the first is the
    candidates' own)."""
    def compute() -> list[str]:
        to_edge, from_origin = reinforcements.rail_links(state)
        out = []
        for h in sorted(str(x) for x in to_edge & from_origin):
            try:
                reinforcements.check_rail_hex(state, h)
            except OrderError:
                continue
            out.append(h)
        return out

    return state.memo(("rail hexes",), compute)


def _removals(state: State, data: dict) -> Iterator[dict]:
    """SNC 11.2 (ruling R28): the sets of this GT's reinforcements that cover the roll with no unit not needed, the
    fewest units first, at most MAX_CHOICES * 2 of them, trying at most TRIES sets."""
    units = sorted(data["units"], key=lambda u: (-state.units[u].cf, u))
    cf = {u: state.units[u].cf for u in units}
    roll, found, tried = data["roll"], 0, 0
    for n in range(1, len(units) + 1):
        for chosen in combinations(units, n):
            tried += 1
            if found >= 2 * MAX_CHOICES or tried > TRIES:
                return
            total = sum(cf[u] for u in chosen)
            if total >= roll and all(total - cf[u] < roll for u in chosen):
                found += 1
                yield {"units": list(chosen)}


def _parts(state: State, ids: list[str]) -> list[list[str]]:
    """Parts of a group of units that may go on without the rest (10.5.3, 8.4.1): every set but the whole when they
    are few, else each formation's units, each with one unit more, each hex's units and each unit alone."""
    ids = sorted(ids)
    if len(ids) <= SUBSETS_UP_TO:
        return [list(c) for n in range(len(ids) - 1, 0, -1) for c in combinations(ids, n)]
    forms: dict[str, list[str]] = {}
    hexes: dict[str, list[str]] = {}
    for uid in ids:
        u = state.units[uid]
        forms.setdefault(u.formation or uid, []).append(uid)
        hexes.setdefault(u.hex or "", []).append(uid)
    out = [g for g in forms.values() if len(g) > 1]
    out += [sorted([*g, x]) for g in list(out) for x in ids if x not in g]
    out += [g for g in hexes.values() if 1 < len(g) < len(ids)]
    out += [[uid] for uid in ids]
    return list({tuple(g): g for g in out if len(g) < len(ids)}.values())


def step_of(state: State) -> str:
    """The step a position is in: the decision waited for, else its phase (the reinforcement phase by side)."""
    if state.phase == "over":
        return OVER
    if state.pending:
        return state.pending[0]["kind"]
    if state.phase in ("ops1", "ops2"):
        return "operations"
    if state.phase == "reinf":
        return f"{state.side}-reinforcements"
    return state.phase


def after_order(em: Decision) -> None:
    """SNC 4.1, 4.2: the sudden-death checks after every order."""
    ended = sudden_death(em.state)
    if ended is not None:
        em.emit(ended)


TABLE = StatesTable([Losses(), Advance(), Intercept(), Defend(), Interdiction(), Overstack(), Retreat(), Declare(),
                     Operations(), ChineseReinforcements(), JapaneseReinforcements()],
                    sequence_case="SNC 5.1", slots=SLOTS, step_of=step_of, shorthand=shorthand)
