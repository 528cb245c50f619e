"""The Ichi-Go states table (Rally the Troops' rules.js style): for each position in the sequence of play
(3.0 set-up, turn start, Phases I-X of 5.1) or each decision the sequence waits for, the side to act, its
legal actions and their handlers, side by side. The handlers' work is in the concept modules: movement.py,
combat.py, reinforcements.py (draws, entries, withdrawals, deployments: 3.3, 9.x, 5.3), causeway.py (the
Causeway roll, the US landings, naval transfer: 5.2-5.3, 10.11), airpower.py (7.8, 8.x) and victory.py (4.x);
here are the order declarations (5.5), what each decision owes, the candidates the list of legal orders tries for
each order (app/rules/legal.py keeps those the decider accepts) and the end of a step.

How orders name units (docs/orders/ichigo.md): by id (`jp-cea-26div`), by id without its side prefix
(`cea-26div`), by the public counter handle of a Chinese regular (`C07`), or, where the order moves or fights, by
a hex (`1906`: every own unit there that may act). An unknown or ambiguous name is an InvalidOrder or
AmbiguousOrder quoting the order; the rules' refusals (IllegalOrder, with the case) come later."""
from __future__ import annotations

import re
import weakref
from collections.abc import Iterator
from itertools import combinations, combinations_with_replacement

from app.rules.base import Candidate, Command, Owed
from app.rules.engine.cases import OrderCases, sequence_words
from app.rules.engine.decision import Decision
from app.rules.engine.syntax import BUILTIN_SLOTS, ParseContext, SlotType, words_of
from app.rules.engine.table import OVER, StatesTable, Step, order
from app.rules.errors import AmbiguousOrder, IllegalOrder, InvalidOrder
from app.rules.ichigo import airpower, causeway, combat, movement, reinforcements, victory
from app.rules.ichigo import events as ev
from app.rules.ichigo.common import mainland
from app.rules.ichigo.state import State, Unit, phase_name

# -- how orders read their slots against the position ---------------------------------------------------------
HEX_RE = re.compile(r"^[0-9]{4}$")


def _unit(word: str, context: ParseContext, hex_ok: bool) -> list[str]:
    state, side, order = context.state, context.side, context.text.strip()
    w = word.lower()
    if w in state.units:
        return [w]
    if w.upper() in state.units:
        return [w.upper()]
    if hex_ok and HEX_RE.match(w):
        here = sorted(u.id for u in state.at(w) if u.side == side and not u.static and not u.militia)
        if not here:
            # the grammar's to say: the word may be the next slot's hex ("move 110div 2012" lacks its "to")
            raise ValueError("is a hex with no unit of yours that can act")
        return here
    matches = [k for k in state.units if k.split("-", 1)[-1] == w]
    if len(matches) > 1:
        raise AmbiguousOrder(order, f"{w!r} could be {', '.join(sorted(matches))}")
    if not matches:
        raise InvalidOrder(order, f"no unit {w!r}")
    return matches


# ruling E44: the case of each order naming units, and why a unit is named once in it
ONCE = {"move": ("Ichi-Go 10.0", "a unit moves once"),
        "attack": ("Ichi-Go 11.0", "a unit's combat factor counts once in an attack"),
        "advance": ("Ichi-Go 11.24", "a unit advances once"),
        "enter": ("Ichi-Go 9.1", "a reinforcement enters once"),
        "land": ("Ichi-Go 5.3", "a US division lands once"),
        "transfer": ("Ichi-Go 10.11", "a unit is transferred once"),
        "withdraw": ("Ichi-Go 9.2", "the withdrawal takes each division (or brigade) once"),
        "release": ("Ichi-Go 9.3", "two different Formosa Garrison divisions are released"),
        "place": ("Ichi-Go 9.7", "a drawn counter is placed once")}


def _named_once(values: list, context: ParseContext | None) -> list:
    """Ruling E44: an order names each unit once (by its id, handle or hex); a unit named twice is refused by the
    order's case, naming the unit, and nothing happens (`lose` names a unit once per step: it reads UNIT words)."""
    twice = sorted({v for v in values if values.count(v) > 1})
    if twice:
        text = context.text.strip() if context else ""
        case, why = ONCE.get(text.split()[0].lower() if text else "", ("Ichi-Go 5.1", "a unit is named once"))
        raise IllegalOrder(case, f"{', '.join(twice)} named twice: {why}; name each unit once")
    return values


def _hex(word: str) -> str:
    if not HEX_RE.match(word):
        raise ValueError("is not a hex number (XXYY)")
    return word


HEX = SlotType(_hex, "a hex number (XXYY)")
# units that move or fight: a hex names every own unit there that may act
UNITS = SlotType.in_context(lambda w, c: _unit(w, c, hex_ok=True), "units (ids, counter handles or a hex)",
                            plural=True, finish=_named_once)
# units off the map or named one by one (entering, landing, withdrawn, released, placed)
UNITS_BY_NAME = SlotType.in_context(lambda w, c: _unit(w, c, hex_ok=False), "units (ids or counter handles)",
                                    plural=True, finish=_named_once)
UNIT = SlotType.in_context(lambda w, c: _unit(w, c, hex_ok=False), "a unit (id or counter handle)")
BUILTIN_N = BUILTIN_SLOTS["N"]
SLOTS = {"HEX": HEX, "UNITS": UNITS, "UNIT": UNIT, "BRIGADE": UNIT, "DIVISION": UNIT}


# -- what a decision owes (issue 14): its candidates with their values; an untried counter's stay hidden (6.6) -
def value(u: Unit) -> str:
    """A unit as a decision weighs it: attack-defence now and its steps; an untried counter is only untried."""
    if not u.tried:
        return "untried (6.6)"
    return f"{u.factor('attack')}-{u.factor('defence')}, {u.steps}/{u.steps_max} step(s), {u.size}"


def _units(state: State, ids) -> tuple[tuple[str, str], ...]:
    return tuple((uid, value(state.units[uid])) for uid in ids if uid in state.units)



def decider_of_order(state: State, nation: str) -> str:
    """Ichi-Go 5.5, 5.3 item 1: who declares each nation's move/fight order."""
    oc = state.data.scenario["order_choice"]
    if nation == "japanese":
        return oc["japanese"]
    if nation == "us":
        return oc["us"]
    return oc["chinese_after_causeway"] if state.causeway else oc["chinese_before_causeway"]


def phase_side(state: State) -> str:
    return {"I": "allied", "II": "allied", "III": "allied", "IV": "japanese", "V": "japanese",
            "VI": "japanese", "VII": "japanese", "VIII": "allied", "IX": "allied", "X": "allied"}[state.phase]


def declare(em: Decision, side: str, nation: str, order: str) -> None:
    state = em.state
    if nation != state.nation_now() or nation in state.plans:
        raise IllegalOrder("Ichi-Go 5.5", f"the {nation} order is not declared now")
    em.emit(ev.OrderDeclared(side, nation, order))


def end(em: Decision, side: str) -> None:
    state = em.state
    roll_turn = int(em.state.data.scenario["turn_start"]["causeway_roll_turn"])
    if state.phase == "start" and state.turn == roll_turn and state.causeway is None:
        raise IllegalOrder("Ichi-Go 5.2", "roll on the Causeway or Philippines Table first")
    if state.phase == "start" and state.causeway and state.b29_rolled != state.turn:
        raise IllegalOrder("Ichi-Go 8.9", "roll for the B-29 raid first")
    if state.phase == "I" and not causeway.landing_done(state):
        raise IllegalOrder("Ichi-Go 5.3", "the US landing is mandatory this turn")
    if state.phase == "V" and state.since(4) and reinforcements.shipment_due(state):  # ruling E23
        raise IllegalOrder("Ichi-Go 5.3", "roll for this turn's 14AA shipment first (item 7: every Phase V while "
                                          "the pool lasts)")
    if state.phase == "X":
        left = reinforcements.drawn(state)
        if any(reinforcements.placeable(state, h) for h in left):
            raise IllegalOrder("Ichi-Go 9.7", "place every drawn counter first")
        for h in left:
            em.emit(ev.ReturnedToPool(h, "no initially Chinese city to take it (9.7)"))
    if em.state.phase == "X" and em.state.turn >= em.state.last_turn():
        em.emit(victory.final_outcome(em.state))
        return
    em.emit(ev.PhaseEnded(phase=state.phase, turn=state.turn))


# -- the orders worth trying (the list of legal orders, app/rules/legal.py) -----------------------------------
MAX_CHOICES = 12  # allocations of losses, sets of units to withdraw


def _own(state: State, side: str) -> list[Unit]:
    nation = state.nation_now()
    return [u for u in state.on_map(side) if u.nation == nation and not u.static and not u.militia]


def _move_candidates(state: State, side: str) -> Iterator[dict]:
    """Each movable unit (or the stack under way, and each of its units splitting off, 10.3) to every land hex
    within two hexes; with a stack under way, also each unit that has not begun to move (10.1: another unit may
    begin once the stack stops; rules version 6, ruling E32: before it only the stack under way was offered), and the
    stack under way with every unit that has not moved in its hex (10.3; rules version 13, ruling E50)."""
    d = state.data
    groups = [[u.id] for u in _own(state, side) if not u.done]
    if state.mover:
        split = [[uid] for uid in state.mover] if len(state.mover) > 1 and state.since(4) else []
        fresh = [g for g in groups if g[0] not in state.mover and state.units[g[0]].mp < 0] if state.since(6) else []
        here = state.units[state.mover[0]].hex  # 10.3 (ruling E50, rules version 13): it picks up the units met
        met = [g[0] for g in fresh if state.units[g[0]].hex == here] if state.since(13) else []
        groups = [list(state.mover), *split, *([[*state.mover, *met]] if met else []), *fresh]
    for group in groups:
        start = state.units[group[0]].hex
        for dest in _within_two(d, start):
            yield {"units": group, "to": dest, "via": []}


# the land hexes within two of a hex, by the map (its id: the map never changes; dropped with it) and the hex
_NEAR: dict[int, dict[str, tuple[str, ...]]] = {}


def _within_two(d, start: str) -> tuple[str, ...]:
    """The land hexes one or two land hexes away from `start` (but `start`), sorted: the destinations a move is
    tried to (`_move_candidates`), found once a map and hex (asked for every unit at every move order)."""
    found = _NEAR.get(id(d.map))
    if found is None:
        found = _NEAR[id(d.map)] = {}
        weakref.finalize(d.map, _NEAR.pop, id(d.map), None)
    near = found.get(start)
    if near is None:
        one = {n for n in d.neighbours(start) if d.land(n)}
        one |= {m for n in one for m in d.neighbours(n) if d.land(m)}
        near = found[start] = tuple(sorted(one - {start}))
    return near


def _attack_candidates(state: State, side: str) -> Iterator[dict]:
    """Each adjacent enemy hex with all the units next to it, with the tank regiments and the 1st SF where they
    may help (11.17, 11.28); a momentum attack (11.25): the units that advanced, against each adjacent enemy hex."""
    d = state.data
    if state.pending:
        units = state.pending[0]["data"]["units"]
        for t in d.neighbours(state.units[units[0]].hex):
            if any(x.side != side for x in state.at(t)):
                yield {"hex": t, "units": list(units)}
        return
    own = [u for u in _own(state, side) if not u.attacked]
    targets = sorted({n for u in own for n in d.neighbours(u.hex) if any(x.side != side for x in state.at(n))})
    for t in targets:
        base = {"hex": t, "units": [u.id for u in own if t in d.neighbours(u.hex)]}
        yield base
        if side == "japanese":
            for n in range(1, len(combat.tank_pool(state)) + 1):
                yield {**base, "tanks": n}
            if combat.sf_ready(state) is not None:
                yield {**base, "sf": True}


def _declare_candidates(state: State, side: str) -> Iterator[dict]:
    for o in ("move-fight", "fight-move"):
        yield {"nation": state.nation_now(), "order": o}


def _advance_candidates(state: State, side: str) -> Iterator[dict]:
    units = state.pending[0]["data"]["units"]
    yield {"units": list(units)}
    if len(units) > 1:
        yield {"units": [units[0]]}


def _loss_candidates(state: State, side: str) -> Iterator[dict]:
    """Ichi-Go 11.21: the allocation the loss order suggests, then others (a unit named once per step it loses),
    at most MAX_CHOICES."""
    data = state.pending[0]["data"]
    units = [state.units[i] for i in data["units"]]
    first = combat.allocate(units, data["count"])
    yield {"units": first}
    shown = {tuple(sorted(first))}
    steps = {u.id: u.steps for u in units}
    for allocation in combinations_with_replacement(sorted(steps), min(data["count"], sum(steps.values()))):
        if len(shown) >= MAX_CHOICES:
            return
        if allocation not in shown and all(allocation.count(uid) <= n for uid, n in steps.items()):
            shown.add(allocation)
            yield {"units": list(allocation)}


def _commit_candidates(state: State, side: str) -> Iterator[dict]:
    for n in range(state.pending[0]["data"]["max"] + 1):
        yield {"count": n}


def _air_candidates(state: State, side: str) -> Iterator[dict]:
    """Ichi-Go 8.2: the markers won, one per hex, over the enemy's stacks first (8.3: each affects its hex and the
    six around it), then over one's own."""
    n = state.pending[0]["data"]["count"]
    enemy = sorted({u.hex for u in state.units.values() if u.on_map and u.side != side})
    own = sorted({u.hex for u in state.units.values() if u.on_map and u.side == side} - set(enemy))
    hexes = (enemy + own)[:n]
    if len(hexes) == n:
        yield {"hexes": hexes}


def _deploy_candidates(state: State, side: str) -> Iterator[dict]:
    """Ichi-Go 5.3 items 5-6 (ruling E3): each unit waiting to deploy in each hex that takes it, then all of them
    together in the first."""
    waiting = reinforcements.deploying(state)
    for u in waiting:
        for h in reinforcements.deploy_hexes(state, u):
            yield {"units": [u.id], "hex": h}
    if len(waiting) > 1 and (hexes := reinforcements.deploy_hexes(state, waiting[0])):
        yield {"units": [u.id for u in waiting], "hex": hexes[0]}


def _enter_candidates(state: State, side: str) -> Iterator[dict]:
    """Ichi-Go 9.1, 9.3, 9.4: every Japanese reinforcement due at every hex it may enter at; in a deployment
    (5.3 items 5-6), the units deploying."""
    if state.pending:
        yield from _deploy_candidates(state, side)
        return
    for u in state.units.values():
        if u.side == "japanese" and u.status in reinforcements.ARRIVALS and u.entry_turn <= state.turn:
            for h in sorted(reinforcements.ARRIVALS[u.status][0](state)):
                yield {"units": [u.id], "hex": h}


def _withdraw_candidates(state: State, side: str) -> Iterator[dict]:
    """Ichi-Go 9.2: the divisions (or brigades) the withdrawal may take, at most MAX_CHOICES sets."""
    full, reduced, brigades = reinforcements.withdrawal_pools(state)
    nf, nr, nb = reinforcements.withdrawal_need(state)
    shown = 0
    for a in combinations(full, nf):
        for b in combinations(reduced, nr):
            for c in combinations(brigades, nb):
                yield {"units": [*a, *b, *c]}
                shown += 1
                if shown >= MAX_CHOICES:
                    return


def _absorb_candidates(state: State, side: str) -> Iterator[dict]:
    """Ichi-Go 9.5: each reduced division with each infantry brigade in its hex."""
    for dv in state.on_map("japanese"):
        if dv.size == "division" and dv.steps < dv.steps_max:
            for b in state.at(dv.hex):
                if b.side == "japanese" and b.size == "brigade" and b.type == "infantry":
                    yield {"brigade": b.id, "division": dv.id}


def _release_candidates(state: State, side: str) -> Iterator[dict]:
    fg = sorted(u.id for u in state.units.values() if u.status == "formosa-garrison")
    for pair in combinations(fg, 2):
        yield {"units": list(pair)}


def _place_candidates(state: State, side: str) -> Iterator[dict]:
    """Ichi-Go 9.7: every counter drawn, in every initially Chinese city that may take it."""
    for h in reinforcements.drawn(state):
        for city in reinforcements.placeable(state, h):
            yield {"units": [h], "hex": city}


def _land_candidates(state: State, side: str) -> Iterator[dict]:
    """Ichi-Go 5.3 items 4 and 12, 8.11: up to eight US divisions from the pool, ashore at Takao-Tainan on the
    Formosa landing turn, else at a beachhead or a mainland port (an occupied port with each hex its units may be
    moved to); since rules version 12 (ruling E46) as many as the hex still takes (6.4)."""
    d = state.data
    pool = sorted(u.id for u in state.units.values() if u.status == "us-pool" and u.entry_turn <= state.turn
                  and not (state.phase == "I" and u.type == "airborne"))  # 5.3 items 12-13
    if not pool:
        return
    group = pool[:8]
    if state.turn == int(d.scenario["causeway"]["us_formosa_landing_turn"]):
        yield {"units": group}
        return
    ports = causeway.mainland_landings(d)
    room = int(d.scenario["stacking"]["us"])
    for h in dict.fromkeys([*state.beachheads.values(), *ports]):
        if state.since(12):  # ruling E46: as many as the hex still takes (6.4), so a landing is listed where it fits
            fits = pool[:room - len([u for u in state.at(h) if u.nation == "us"])]
            if fits:
                yield {"units": fits, "hex": h}
        else:
            yield {"units": group, "hex": h}
        if h in ports and causeway.port_holders(state, h):
            for away in causeway.displacement_hexes(state, h):
                yield {"units": group, "hex": h, "displace": away}


def _transfer_candidates(state: State, side: str) -> Iterator[dict]:
    """Ichi-Go 10.11: the US units of each beachhead that began Phase I there (ruling E51: not those that sailed in
    this phase; before rules version 14 no unit is marked so)."""
    for h in state.beachheads.values():
        if us := [u.id for u in state.at(h) if u.nation == "us" and not u.done]:
            yield {"units": us}


def _b29_candidates(state: State, side: str) -> Iterator[dict]:
    for h in sorted(h for h in state.data.feature("city") if h in state.jp_control):
        yield {"hex": h}


def _airlift_candidates(state: State, side: str) -> Iterator[dict]:
    """Ichi-Go 8.10: each unit that may fly (in a city of its side) to the three other cities of its side nearest
    the enemy."""
    d = state.data
    cities = sorted(h for h in d.feature("city") if h not in state.jp_control)
    enemy = {u.hex for u in state.units.values() if u.on_map and u.side != side}
    near = sorted(cities, key=lambda h: (min((d.distance(h, e) for e in enemy), default=0), h))
    for u in _own(state, side):
        if u.mp < 0 and not u.done and u.hex in cities:
            for h in [c for c in near if c != u.hex][:3]:
                yield {"unit": u.id, "hex": h}


def _drop_candidates(state: State, side: str) -> Iterator[dict]:
    """Ichi-Go 8.11: land hexes within two of a US beachhead (the decider keeps the clear and rough ones free of
    Japanese units)."""
    d = state.data
    near = set()
    for h in state.beachheads.values():
        ring = {n for n in d.neighbours(h) if d.land(n)}
        near |= ring | {m for n in ring for m in d.neighbours(n) if d.land(m)}
    for h in sorted(near):
        yield {"hex": h}


def _supply_candidates(state: State, side: str) -> Iterator[dict]:
    for h in sorted({u.hex for u in state.on_map("allied") if u.nation == "us"}):
        yield {"hex": h}


MAX_SUBSET = 6  # the units an advance or an attack names in every combination (2**6 - 1 = 63 orders at most)


def more_orders(state: State, side: str) -> Iterator[Candidate]:
    """Ruling E55 (rules version 15): every order of a kind whose candidates name only a few, for the list of legal
    orders and a unit's orders (app/rules/legal.py `listed_candidates`): a stack that has not moved, moving as one
    (10.3) to each hex within two; an airlift to every friendly city (8.10, 8.11, not the three nearest the enemy
    only); an attack or a momentum attack by every set of the units that may make it (not all of them only), an
    advance by every set of the survivors (not all or the first only; 11.2, 11.5, 11.24, 11.25), up to MAX_SUBSET
    units. The few candidates stay what the random player draws from, as they were; the decider keeps the orders
    it accepts. A game created under version 14 or before lists the few, as played."""
    if not state.since(15):
        return
    if state.pending:
        p = state.pending[0]
        if p["side"] != side or p["kind"] not in ("advance", "momentum"):
            return
        units = list(p["data"]["units"])
        if p["kind"] == "advance":
            for group in _subsets(units, skip=({*units}, {units[0]})):
                yield Candidate("advance", tuple(group), text=f"advance {' '.join(group)}")
            return
        d = state.data
        for t in d.neighbours(state.units[units[0]].hex):
            if any(x.side != side for x in state.at(t)):
                for group in _subsets(units, skip=({*units},)):
                    yield Candidate("attack", (t,), text=f"attack {t} with {' '.join(group)}")
        return
    if state.nation_now() is None or phase_side(state) != side:
        return
    if state.mode() == "move":
        yield from _every_stack_move(state, side)
        if airpower.airlift_open(state, state.nation_now()):
            yield from _every_airlift(state, side)
    elif state.mode() == "fight":
        yield from _every_attack(state, side)


def _subsets(units: list[str], skip: tuple = ()) -> Iterator[list[str]]:
    """Every non-empty set of `units` (at most MAX_SUBSET of them, else none) but those in `skip`, largest first."""
    if len(units) > MAX_SUBSET:
        return
    for n in range(len(units), 0, -1):
        for group in combinations(units, n):
            if set(group) not in [set(x) for x in skip]:
                yield list(group)


def _every_stack_move(state: State, side: str) -> Iterator[Candidate]:
    """Ichi-Go 10.3, 10.14, 10.15: each stack of units that have not moved, as one order (a stack moves together on
    one roll), to every land hex within two (`_move_candidates` names each unit alone, and the stack under way)."""
    stacks: dict[str, list[str]] = {}
    for u in _own(state, side):
        if not u.done and u.mp < 0 and u.id not in state.mover:
            stacks.setdefault(u.hex, []).append(u.id)
    for h, ids in stacks.items():
        if len(ids) > 1:
            for dest in _within_two(state.data, h):
                yield Candidate("move", tuple(ids), text=f"move {' '.join(ids)} to {dest}")


def _every_airlift(state: State, side: str) -> Iterator[Candidate]:
    """Ichi-Go 8.10, 8.11: each unit `_airlift_candidates` names, to every other city of its side (the decider
    keeps the friendly mainland ones, Formosa's too for the 11th Airborne)."""
    cities = sorted(h for h in state.data.feature("city") if h not in state.jp_control)
    for u in _own(state, side):
        if u.mp < 0 and not u.done and u.hex in cities:
            for h in cities:
                if h != u.hex:
                    yield Candidate("airlift", (u.id,), text=f"airlift {u.id} to {h}")


def _every_attack(state: State, side: str) -> Iterator[Candidate]:
    """Ichi-Go 11.2, 11.5: each adjacent enemy hex attacked by every set of the units next to it that have not
    attacked (`_attack_candidates` names all of them together)."""
    d = state.data
    own = [u for u in _own(state, side) if not u.attacked]
    targets = sorted({n for u in own for n in d.neighbours(u.hex) if any(x.side != side for x in state.at(n))})
    for t in targets:
        units = [u.id for u in own if t in d.neighbours(u.hex)]
        for group in _subsets(units, skip=({*units},)):
            yield Candidate("attack", (t,), text=f"attack {t} with {' '.join(group)}")


# -- the states table (5.1): each step's prompt, the orders it takes and their handlers -----------------------
END = order("end", "Ichi-Go 5.0", "end this step")
SUPPLY = order("supply HEX", "Ichi-Go 7.8", "place the US Aerial Supply Marker on an out-of-supply US stack (once a "
                                           "turn)", _supply_candidates,
               forbidden=(("supply HEX HEX [HEX ...]", "Ichi-Go 7.8",
                           "there is one US Aerial Supply Marker: it supplies the US units of one hex"),))
STAY = order("stay", "Ichi-Go 11.24", "do not advance / make no momentum attack")
# the `roll` of each moment, helped by what it rolls for (ruling E64: one help for both read "airpower in Phase IV"
# at the start of a turn and never named the B-29 roll)
TURN_ROLL = order("roll", "Ichi-Go 5.2", "roll: at the start of Turn 7 the Causeway or Philippines check (5.2); once "
                                         "Causeway is launched, this turn's B-29 roll, a raid on 1-3 (8.9)")
AIRPOWER_ROLL = order("roll", "Ichi-Go 8.1", "roll for airpower: the Japanese player's roll makes both players' dice "
                                             "(ruling E7), the difference in markers to the higher (8.1, 8.7)")
ATTACK_FORMS = dict(candidates=_attack_candidates, defaults={"tanks": 0},
                    forbidden=(("attack HEX HEX [HEX ...] with UNITS [tanks N:tanks] [sf:sf]", "Ichi-Go 11.2",
                                "only one hex may be the object of an attack: attack each hex by its own order"),))


def _attack_tanks(word: str, context: ParseContext) -> int:
    """Ichi-Go 11.17 (rules version 18, ruling E67): tank regiments are Japanese and fight on the mainland only, so an
    Allied attack, or an attack on a hex of Formosa, names none, not even `tanks 0`; a game of version 17 or before
    reads the number, as played (its handler refuses any but 0)."""
    n = BUILTIN_N.read(word)
    if not context.state.since(18):
        return n
    if context.side != "japanese":
        raise ValueError("names Japanese tank regiments in an Allied attack (11.17)")
    words = words_of(context.text)  # `attack HEX with ...`: the hex is read before the number
    if len(words) > 1 and not mainland(context.state.data, words[1]):
        raise IllegalOrder("Ichi-Go 11.17", f"tank regiments fight on the mainland only: an attack on {words[1]}, on "
                                            "Formosa, names no 'tanks', not even 'tanks 0'")
    return n


ATTACK = order("attack HEX with UNITS [tanks N:tanks] [sf:sf]", "Ichi-Go 11.0",
               "attack one adjacent enemy hex with named units", candidates=ATTACK_FORMS["candidates"],
               defaults=ATTACK_FORMS["defaults"],
               slots={"N": SlotType.in_context(_attack_tanks, "a whole number"), "COUNT": BUILTIN_N},
               forbidden=(*ATTACK_FORMS["forbidden"],
                          ("attack HEX with UNITS tanks COUNT:tanks [sf:sf]", "Ichi-Go 11.17",
                           "tank regiments are Japanese and support Japanese attacks only: an Allied attack names no "
                           "'tanks', not even 'tanks 0'")))
NO_MOMENTUM_TANKS = "tank regiments and the 1st SF never join momentum attacks"


def _momentum_tanks(word: str, context: ParseContext) -> int:
    """Ichi-Go 11.25 (rules version 18, ruling E66): a momentum attack names no tank regiments, not even `tanks 0`;
    a game of version 17 or before reads the number, as played (its handler refuses any but 0)."""
    n = BUILTIN_N.read(word)
    if context.state.since(18):
        raise ValueError("names tank regiments, which never join a momentum attack (11.25)")
    return n


# ruling E65: the momentum attack offered says what 11.25 allows, not the help of any attack; E66: `tanks 0` refused
MOMENTUM_ATTACK = order("attack HEX with UNITS [tanks N:tanks] [sf:sf]", "Ichi-Go 11.25",
                        "a momentum attack, now or never: units that advanced, from the hex just taken against one "
                        "adjacent enemy hex; no tank regiments or 1st SF (11.25, 11.28)",
                        candidates=ATTACK_FORMS["candidates"], defaults=ATTACK_FORMS["defaults"],
                        slots={"N": SlotType.in_context(_momentum_tanks, "a whole number"), "COUNT": BUILTIN_N},
                        forbidden=(*ATTACK_FORMS["forbidden"],
                                   ("attack HEX with UNITS tanks COUNT:tanks [sf:sf]", "Ichi-Go 11.25",
                                    f"{NO_MOMENTUM_TANKS}: give the attack without 'tanks', not even 'tanks 0'")))
ENTER = order("enter UNITS at HEX", "Ichi-Go 9.1",
              "enter Japanese reinforcements (the Kwantung Army too, 5.3 item 6) at a north-edge source or a rail "
              "city; the Formosa Garrison on Formosa (5.3 item 5); 14AA survivors at a friendly port or on the "
              "Formosa coast (9.4)", _enter_candidates, slots={"UNITS": UNITS_BY_NAME})
LAND = order("land UNITS [at HEX] [displace HEX:displace]", "Ichi-Go 5.3",
             "bring US divisions ashore with a beachhead marker (in an occupied port, name the hex its units move "
             "to)", _land_candidates, slots={"UNITS": UNITS_BY_NAME}, defaults={"hex": None, "displace": None},
             forbidden=(("land [at HEX] [displace HEX:displace]", "Ichi-Go 5.3",
                         "a landing brings US divisions ashore, up to eight (items 4 and 12, mandatory on their "
                         "turns): name the divisions that land"),))


class Decided(Step):
    """A decision the sequence waits for (state.pending): its side decides, and the prompt says what is owed."""

    def label(self, state: State) -> str:
        p = state.pending[0]
        return f"Turn {state.turn}, {p['side']} decision: {p['kind']}"

    def closed(self, state: State, command: Command) -> tuple[str, str] | None:
        """Ichi-Go 11.4, 8.2, 5.3 (rules version 16, ruling E56): an order other than the decision owed, refused by
        the case that puts the decision first; an order only the other side gives, by the case that says whose."""
        if not state.since(16):
            return None
        never = sea_closed(state, command) or CASES.not_theirs(command)
        if never or command.side != state.pending[0]["side"]:
            return never
        case, why = FIRST_OF.get(state.pending[0]["kind"], FIRST_OF["deployment"])
        return case, f"{why}; {sequence_words(TABLE, state, command)}"


class Losses(Decided):
    """Ichi-Go 11.20-11.23: the side that lost steps apportions them."""
    name = "losses"

    def owed(self, state: State) -> Owed:
        data = state.pending[0]["data"]
        return Owed(f"lose {data['count']} step(s) (Ichi-Go 11.20-11.23; name a unit twice for two steps)",
                    (data.get("cont") or {}).get("hex"), f"{data['count']} step(s) from these units",
                    _units(state, data["units"]))

    @order("lose UNIT [UNIT ...]", "Ichi-Go 11.21",
           "apportion the step losses of this battle (name a unit twice for two steps)", _loss_candidates,
           forbidden=(("lose", "Ichi-Go 11.20",
                       "the steps the result calls for are lost: name a unit for each step (twice for two)"),))
    def lose(self, em: Decision, units: list[str]) -> None:
        combat.lose(em, em.side, units)


class Advance(Decided):
    """Ichi-Go 11.24: advance after combat, or stay."""
    name = "advance"

    def owed(self, state: State) -> Owed:
        data = state.pending[0]["data"]
        return Owed("advance into the emptied hex, or stay (Ichi-Go 11.24)", data["hex"], "any of these units",
                    _units(state, data["units"]))

    @order("advance UNITS", "Ichi-Go 11.24", "advance surviving attackers into the emptied hex",
           _advance_candidates, forbidden=(("advance", "Ichi-Go 11.24",
                                            "name the units that advance; `stay` advances none (an advance is an "
                                            "option)"),))
    def advance(self, em: Decision, units: list[str]) -> None:
        combat.advance(em, em.side, units)

    @STAY
    def stay(self, em: Decision) -> None:
        combat.stay(em, em.side)


class Momentum(Decided):
    """Ichi-Go 11.25: a momentum attack from the hex just taken, or stay."""
    name = "momentum"

    def owed(self, state: State) -> Owed:
        data = state.pending[0]["data"]
        return Owed("a momentum attack from the hex just taken, or stay (Ichi-Go 11.25)", data["from"],
                    "any of these units, against one adjacent enemy hex", _units(state, data["units"]))

    @MOMENTUM_ATTACK
    def attack(self, em: Decision, hex: str, units: list[str], tanks: int, sf: bool) -> None:
        if tanks or sf:
            em.refuse("Ichi-Go 11.25", NO_MOMENTUM_TANKS)
        combat.momentum_attack(em, em.side, hex, units)

    @STAY
    def stay(self, em: Decision) -> None:
        combat.stay(em, em.side)


class Airpower(Decided):
    """Ichi-Go 8.2: the side that won the airpower roll places its markers."""
    name = "airpower"

    def owed(self, state: State) -> Owed:
        return Owed("place the airpower markers won (Ichi-Go 8.2)", None,
                    f"{state.pending[0]['data']['count']} marker(s), one per hex")

    @order("air HEX [HEX ...]", "Ichi-Go 8.2", "place every airpower marker won, one per hex", _air_candidates,
           forbidden=(("air", "Ichi-Go 8.2", "all the airpower markers won are placed, one per hex: name a hex for "
                                            "each"),))
    def air(self, em: Decision, hexes: list[str]) -> None:
        airpower.air(em, em.side, hexes)


class Tanks(Decided):
    """Ichi-Go 11.17: the Japanese defender commits tank regiments before the die."""
    name = "tanks"

    def owed(self, state: State) -> Owed:
        data = state.pending[0]["data"]  # the attackers are the enemy's: not listed (6.6), only the attack's odds
        return Owed("commit tank regiments to this defence before the die (Ichi-Go 11.17)", data["hex"],
                    f"0 to {data['max']} regiment(s); {combat.odds_before_tanks(state, data)}")

    @order("commit N:count", "Ichi-Go 11.17", "commit N tank regiments to this defence (0 for none), before the die",
           _commit_candidates, forbidden=(("commit [N:count] sf", "Ichi-Go 11.28",
                                           "the 1st SF never supports a defence, only an attack"),))
    def commit(self, em: Decision, count: int) -> None:
        combat.commit_tanks(em, em.side, count)


class Deployment(Decided):
    """Ichi-Go 5.3 items 5-6, ruling E3: the Formosa Garrison, then the Kwantung Army, deploy after the landing."""

    def __init__(self, name: str):
        self.name = name

    def owed(self, state: State) -> Owed:
        return Owed(f"deploy {'the Formosa Garrison' if self.name == 'formosa-garrison' else 'the Kwantung Army'} "
                    "(Ichi-Go 5.3, ruling E3)", None, "each of these units",
                    _units(state, state.pending[0]["data"]["units"]))

    @ENTER
    def enter(self, em: Decision, units: list[str], hex: str) -> None:
        reinforcements.enter(em, em.side, units, hex)


def sea_closed(state: State, command: Command) -> tuple[str, str] | None:
    """Ichi-Go 10.11 (rules version 14, ruling E51): a naval transfer is refused by the case that says who sails and
    when, whatever the step: by the Japanese at any time (they never move by sea between Formosa and the mainland),
    by the Allies outside Phase I (the Naval Transfer Phase of 5.1, from Turn 9); before, by the sequence of play."""
    if command.action != "transfer" or not state.since(14):
        return None
    if command.side == "japanese":
        return "Ichi-Go 10.11", "Japanese units never move by sea between Formosa and the mainland: only US units sail"
    if state.phase != "I":
        return "Ichi-Go 10.11", (f"US units sail from one beachhead to the other in Phase I (the Naval Transfer Phase "
                                 f"of 5.1) from Turn {causeway.turn_of(state, 'naval_transfer_from_turn')}, those "
                                 "that begin it in a beachhead hex")
    return None


# Ichi-Go (rules version 16, ruling E56): the orders only one side ever gives, with the case that says whose they are
_AIRLIFT = ("Ichi-Go 8.10", "the airlift is the Allies': one Chinese unit (or the 11th Airborne) a turn")
NEVER_THEIRS = {
    ("japanese", "reinforce"): ("Ichi-Go 9.7", "the Allied player rolls for and places the Chinese reinforcements"),
    ("japanese", "place"): ("Ichi-Go 9.7", "the Allied player rolls for and places the Chinese reinforcements"),
    ("japanese", "deploy"): ("Ichi-Go 3.3", "the Allied player sets up the Chinese regulars"),
    ("japanese", "drop"): ("Ichi-Go 8.11", "the 11th Airborne's airdrop is the Allies'"),
    ("japanese", "airlift"): _AIRLIFT,
    ("japanese", "supply"): ("Ichi-Go 7.8", "the US Aerial Supply Marker is the Allies'"),
    ("japanese", "land"): ("Ichi-Go 5.3", "the US landings are the Allies'; Japanese reinforcements enter (9.1)"),
    ("japanese", "b29"): ("Ichi-Go 8.9", "the Allied player places the B-29 marker"),
    ("allied", "withdraw"): ("Ichi-Go 9.2", "the Japanese player withdraws two divisions on Turn 5"),
    ("allied", "ship"): ("Ichi-Go 9.4", "the Japanese player rolls for the 14AA units shipped"),
    ("allied", "enter"): ("Ichi-Go 9.1", "Japanese reinforcements enter; Chinese ones are placed (9.7), US ones land "
                                         "(9.8)"),
    ("allied", "absorb"): ("Ichi-Go 9.5", "Japanese divisions absorb Japanese brigades"),
    ("allied", "release"): ("Ichi-Go 9.3", "the Japanese player brings the Formosa Garrison divisions over"),
    ("allied", "commit"): ("Ichi-Go 11.17", "the tank regiments are the Japanese player's"),
}

# Ichi-Go (rules version 16, ruling E56): the orders of one moment of the turn, with the case that sets it
AT_ITS_MOMENT = {
    "withdraw": ("Ichi-Go 9.2", "two divisions are withdrawn at the start of Turn 5's Phase V"),
    "ship": ("Ichi-Go 9.4", "the 14AA shipment is rolled once a Phase V once Causeway is launched, while its pool "
                            "holds units (5.3 item 7)"),
    "enter": ("Ichi-Go 9.1", "Japanese reinforcements enter in Phase V (the Formosa Garrison and the Kwantung Army "
                             "after the Formosa landing, 5.3)"),
    "absorb": ("Ichi-Go 9.5", "a brigade is absorbed in Phase V"),
    "release": ("Ichi-Go 9.3", "two Formosa Garrison divisions come over on Turn 9's Phase V if Causeway is not "
                               "launched"),
    "reinforce": ("Ichi-Go 9.7", "the Chinese reinforcements are rolled for and placed in Phase X"),
    "place": ("Ichi-Go 9.7", "the Chinese reinforcements are rolled for and placed in Phase X"),
    "roll": ("Ichi-Go 8.1", "the airpower roll opens Phase IV; the Causeway roll opens Turn 7 (5.2) and the B-29 roll "
                            "a turn after Causeway (8.9)"),
    "b29": ("Ichi-Go 8.9", "the B-29 marker is placed at the start of a game turn"),
    "air": ("Ichi-Go 8.2", "airpower markers are placed by the winner of the airpower roll once it is made"),
    "commit": ("Ichi-Go 11.17", "tank regiments are committed to a defence before the die of an attack on it"),
    "lose": ("Ichi-Go 11.21", "step losses are apportioned when a battle's result leaves a choice"),
    "advance": ("Ichi-Go 11.24", "an advance after combat is decided right after a battle that empties the defender's "
                                 "hex"),
    "stay": ("Ichi-Go 11.24", "an advance after combat is decided right after a battle that empties the defender's "
                              "hex"),
    "drop": ("Ichi-Go 8.11", "the 11th Airborne drops in a US Movement Phase, from Turn 8 once Causeway is launched"),
    "airlift": ("Ichi-Go 8.10", "the airlift is made in a Chinese or US movement phase of a turn of Allied air "
                                "superiority"),
    "land": ("Ichi-Go 5.3", "the US landings are made in Phase I of Turns 7 and 8; later US divisions land in a US "
                            "Movement Phase (9.8)"),
    "supply": ("Ichi-Go 7.8", "the US Aerial Supply Marker is placed in a US phase once Causeway is launched"),
    "deploy": ("Ichi-Go 3.3", "the Chinese regulars are set up before play begins"),
    "declare": ("Ichi-Go 5.5", "a nation's move/fight order is declared before its first phase of the turn"),
}

# Ichi-Go (rules version 16, ruling E56): the case that puts each decision before any other order
FIRST_OF = {
    "losses": ("Ichi-Go 11.4", "the resolution of one attack is completed before anything else"),
    "advance": ("Ichi-Go 11.4", "the resolution of one attack is completed before anything else"),
    "momentum": ("Ichi-Go 11.4", "the resolution of one attack is completed before anything else"),
    "tanks": ("Ichi-Go 11.4", "the resolution of one attack is completed before anything else"),
    "airpower": ("Ichi-Go 8.2", "all the airpower markers won are placed first"),
    "deployment": ("Ichi-Go 5.3", "the units deploying after the Formosa landing are placed first (ruling E3)"),
}
CASES = OrderCases(NEVER_THEIRS, AT_ITS_MOMENT)


def _not_this_moment(state: State, command: Command) -> tuple[str, str] | None:
    """Ichi-Go 9.x, 8.x, 11.x, 3.3, 5.3, 5.5, 7.8 (rules version 16, ruling E56): an order of another moment of the
    turn given by the side acting, refused by the case of the moment that takes it; `end` in Phase IV before its
    roll by 8.1."""
    if command.action == "end" and state.phase == "IV":
        return "Ichi-Go 8.1", ("both players roll at the start of the Airpower Phase; "
                               f"{sequence_words(TABLE, state, command)}")
    return CASES.not_now(command, sequence_words(TABLE, state, command))


class InPhase(Step):
    """A step of Phases I-X (5.1): the phase's side acts."""

    def who(self, state: State) -> str:
        return phase_side(state)

    def closed(self, state: State, command: Command) -> tuple[str, str] | None:
        """Ichi-Go 10.11 (ruling E51): a naval transfer out of its phase or by the Japanese; the step's own refusals
        (`closed_here`); from rules version 16 (ruling E56) an order only the other side gives, and one of a moment
        this step is not, each by its case."""
        if sailed := sea_closed(state, command):
            return sailed
        never = CASES.not_theirs(command) if state.since(16) else None
        if never:
            return never
        found = self.closed_here(state, command)
        if found or not state.since(16) or command.side != self.who(state):
            return found
        return _not_this_moment(state, command)

    def closed_here(self, state: State, command: Command) -> tuple[str, str] | None:
        return None

    def label(self, state: State) -> str:
        return f"Turn {state.turn}, {phase_name(state.phase)}"

    @END
    def end(self, em: Decision) -> None:
        end(em, em.side)


class SetUp(Step):
    """Ichi-Go 3.3: the Chinese regulars are drawn blind and set up."""
    name = "setup"

    def who(self, state: State) -> str:
        return "allied"

    def label(self, state: State) -> str:
        return "Set-up (3.3)"

    def closed(self, state: State, command: Command) -> tuple[str, str] | None:
        """Ichi-Go 3.3 (rules version 16, ruling E56): play begins once the Chinese regulars are set up."""
        if not state.since(16):
            return None
        if never := CASES.not_theirs(command):
            return never
        return "Ichi-Go 3.3", ("the Chinese regulars are drawn and set up before play begins; "
                               f"{sequence_words(TABLE, state, command)}")

    @order("deploy", "Ichi-Go 3.3", "draw the Chinese regulars blind and set them up untried")
    def deploy(self, em: Decision) -> None:
        reinforcements.deploy(em)


class TurnStart(InPhase):
    """Ichi-Go 5.2, 8.9: the Causeway roll, the B-29 raid and its roll at the start of a turn."""
    name = "start"

    def who(self, state: State) -> str:
        return "allied"

    def label(self, state: State) -> str:
        return f"Turn {state.turn}, start of turn"

    def allowed(self, state: State, orders: tuple[str, ...]):
        names = []
        if state.turn == int(state.data.scenario["turn_start"]["causeway_roll_turn"]) and state.causeway is None:
            names.append("roll")
        elif state.causeway and state.b29_rolled != state.turn:
            names.append("roll")
        if (not state.b29_used and not state.causeway) or (state.causeway and state.b29_ok):
            names.append("b29")
        return [*names, "end"]

    def closed_here(self, state: State, command: Command) -> tuple[str, str] | None:
        """Ichi-Go 5.2, 8.9 (ruling E57): a roll or a B-29 placement whose one chance is spent, refused by the case
        that limits it: the one Causeway check of a game, the one B-29 roll a turn after Causeway, the B-29 marker
        placed this turn, not rolled for, denied by the roll, or (without Causeway) the one raid of the game made."""
        if not state.since(16) or command.side != "allied":
            return None
        if command.action == "b29" and (spent := airpower.b29_spent(state)):
            return "Ichi-Go 8.9", spent
        if command.action != "roll":
            return None
        if state.causeway is False and state.turn == int(state.data.scenario["turn_start"]["causeway_roll_turn"]):
            return "Ichi-Go 5.2", ("only one check of the Causeway or Philippines Table a game, and it is made: the "
                                   "US invades the Philippines")
        if state.causeway and state.b29_rolled == state.turn:
            return "Ichi-Go 8.9", ("the B-29 roll is made once at the start of each turn after Causeway, and this "
                                   f"turn's is made ({'a raid' if state.b29_ok or state.b29_hex else 'no raid'})")
        return None

    @TURN_ROLL
    def roll(self, em: Decision) -> None:
        if em.state.causeway is None:
            causeway.causeway_roll(em)
        else:
            airpower.b29_roll(em)

    @order("b29 HEX", "Ichi-Go 8.9", "place the B-29 marker on a Japanese-controlled city", _b29_candidates,
           forbidden=(("b29 HEX HEX [HEX ...]", "Ichi-Go 8.9", "there is one B-29 marker: place it on one city"),))
    def b29(self, em: Decision, hex: str) -> None:
        airpower.b29(em, hex)


class Declare(InPhase):
    """Ichi-Go 5.5, 5.3 item 1: a nation's move/fight order for the turn, declared before its first phase."""
    name = "declare"

    def who(self, state: State) -> str:
        return decider_of_order(state, state.nation_now())

    def label(self, state: State) -> str:
        return super().label(state) + f": declare the {state.nation_now()} order"

    def allowed(self, state: State, orders: tuple[str, ...]):
        return ("declare",)

    def closed_here(self, state: State, command: Command) -> tuple[str, str] | None:
        """Ichi-Go 5.5, 5.3 item 1 (rules version 10, ruling E40): a declaration by the player who does not decide
        the nation's order is refused by 5.5, naming who declares it (before, by 5.1: not that side's turn); from
        rules version 16 (ruling E56) any other order of the declaring player too: the declaration comes first."""
        nation = state.nation_now()
        if state.since(16) and command.side == self.who(state) and command.action != "declare":
            return "Ichi-Go 5.5", (f"the {nation} move/fight order is announced before its phases: `declare {nation} "
                                   f"move-fight|fight-move` comes first; {sequence_words(TABLE, state, command)}")
        if not state.since(10) or command.action != "declare" or command.side == self.who(state):
            return None
        nation = command.args.get("nation")
        if nation != state.nation_now():
            return "Ichi-Go 5.5", f"the {nation} order is not declared now"
        return "Ichi-Go 5.5", f"the {decider_of_order(state, nation)} player declares the {nation} order"

    @order("declare japanese|chinese|us:nation move-fight|fight-move:order", "Ichi-Go 5.5",
           "announce move-then-fight or fight-then-move for a nation this turn", _declare_candidates)
    def declare(self, em: Decision, nation: str, order: str) -> None:
        declare(em, em.side, nation, order)


class Operations(InPhase):
    """Ichi-Go 5.1 Phases II-III, VI-VII, VIII-IX: a nation moves or fights, as it declared (5.5)."""
    name = "operations"

    def label(self, state: State) -> str:
        return super().label(state) + f" ({state.mode()})"

    def allowed(self, state: State, orders: tuple[str, ...]):
        nation, moving = state.nation_now(), state.mode() == "move"
        names = ["move"] if moving else ["attack"]
        if (causeway.us_movement_phase(state) and moving
                and state.turn >= causeway.turn_of(state, "us_reinforcements_from_turn")):
            names.append("land")
            if airpower.can_drop(state):
                names.append("drop")
        if moving and airpower.airlift_open(state, nation):
            names.append("airlift")
        if nation == "us" and airpower.aerial_open(state):
            names.append("supply")
        return [*names, "end"]

    def closed_here(self, state: State, command: Command) -> tuple[str, str] | None:
        """Ichi-Go 8.11, 9.8, 5.3 items 4, 12, 13, 5.5, 7.8, 8.10 (rules version 10, ruling E38): an order this
        phase does not take, refused by the case that forbids it, not by the sequence of play: in a US Movement
        Phase before the turn later US divisions may land, a landing or the 11th Airborne's drop; an attack in a
        phase declared for movement or a move in one declared for combat; the Aerial Supply Marker or the airlift
        once spent or not open."""
        if not state.since(10) or command.side != self.who(state):
            return None
        action, nation, mode = command.action, state.nation_now(), state.mode()
        first = causeway.turn_of(state, "us_reinforcements_from_turn")
        if action in ("land", "drop") and nation == "us" and mode == "move" and state.turn < first:
            if action == "drop":
                return "Ichi-Go 8.11", f"the 11th Airborne becomes available on Turn {first} (5.3 item 13)"
            return "Ichi-Go 9.8", (f"US divisions enter on Turn {state.turn} only in the Phase I landing (5.3 item "
                                   f"4); later ones land at a beachhead from Turn {first} (5.3 item 12, 8.11)")
        if action == "attack" and mode == "move":
            return "Ichi-Go 5.5", f"this {nation} phase was declared for movement: attacks come in its combat phase"
        if action in ("move", "land", "drop", "airlift") and mode == "fight":
            return "Ichi-Go 5.5", f"this {nation} phase was declared for combat: units move in its movement phase"
        if action == "supply":
            if nation != "us" or not state.causeway:
                return "Ichi-Go 7.8", "the US Aerial Supply Marker is placed in a US phase once Causeway is launched"
            return "Ichi-Go 7.8", "the Aerial Supply Marker is placed at most once a turn"
        if action == "drop" and state.since(16) and nation == "us" and (spent := airpower.drop_spent(state)):
            return "Ichi-Go 8.11", spent  # ruling E57: the one airdrop made, or this turn's airlift or marker spent
        if action == "airlift":
            return "Ichi-Go 8.10", ("one Chinese unit (or the 11th Airborne) a turn, in a Chinese or US movement "
                                    "phase of a turn the Allies have air superiority")
        return None

    @order("move UNITS to HEX:to [via HEX:via ...] [strategic:strategic]", "Ichi-Go 10.0",
           "move a unit or a stack that starts in one hex", _move_candidates)
    def move(self, em: Decision, units: list[str], to: str, via: list[str], strategic: bool) -> None:
        movement.move(em, em.side, units, to, via, strategic)

    @ATTACK
    def attack(self, em: Decision, hex: str, units: list[str], tanks: int, sf: bool) -> None:
        combat.attack(em, em.side, hex, units, tanks, sf)

    @LAND
    def land(self, em: Decision, units: list[str], hex: str | None, displace: str | None) -> None:
        causeway.land(em, em.side, units, hex, displace)

    @order("drop HEX", "Ichi-Go 8.11", "airdrop the 11th Airborne on a clear or rough hex free of Japanese units",
           _drop_candidates, forbidden=(("drop HEX HEX [HEX ...]", "Ichi-Go 8.11",
                                         "the 11th Airborne makes one airdrop, into one hex"),))
    def drop(self, em: Decision, hex: str) -> None:
        airpower.drop(em, em.side, hex)

    @order("airlift UNIT to HEX", "Ichi-Go 8.10", "fly one Chinese unit (or the 11th Airborne) between friendly "
                                                  "cities", _airlift_candidates,
           forbidden=(("airlift UNIT UNIT [UNIT ...] to HEX", "Ichi-Go 8.10",
                       "the airlift carries one unit a turn: name one unit"),))
    def airlift(self, em: Decision, unit: str, hex: str) -> None:
        airpower.airlift(em, em.side, unit, hex)

    @SUPPLY
    def supply(self, em: Decision, hex: str) -> None:
        airpower.aerial_supply(em, em.side, hex)


class Landings(InPhase):
    """Ichi-Go 5.3 items 4 and 12, 10.11: Phase I, the US landings and naval transfer."""
    name = "landings"

    def allowed(self, state: State, orders: tuple[str, ...]):
        landings = (causeway.turn_of(state, "us_formosa_landing_turn"),
                    causeway.turn_of(state, "us_mainland_landing_turn"))
        names = ["land"] if state.turn in landings else (["transfer"] if len(state.beachheads) == 2 else [])
        if (state.since(14) and airpower.aerial_open(state) and causeway.landing_done(state)
                and airpower.us_cut_off(state)):
            names.append("supply")  # ruling E52: the marker may be placed at any time in the turn (7.8)
        return [*names, "end"]

    def closed_here(self, state: State, command: Command) -> tuple[str, str] | None:
        """Ichi-Go 10.11, 5.3 items 4 and 12 (rules version 10, ruling E38): a naval transfer before Turn 9, or a
        landing after the two landings' turns, refused by its case."""
        if not state.since(10) or command.side != "allied":
            return None
        if command.action == "transfer":
            return "Ichi-Go 10.11", (f"naval transfer from Turn {causeway.turn_of(state, 'naval_transfer_from_turn')},"
                                     " between the two beachheads")
        if command.action == "land":
            return "Ichi-Go 5.3", ("the US landings are made in Phase I of Turns 7 (Formosa) and 8 (the mainland); "
                                   "later US divisions land at a beachhead in a US Movement Phase (9.8, 8.11)")
        if command.action == "supply" and state.since(14):  # ruling E52
            if not causeway.landing_done(state):
                return "Ichi-Go 5.3", "the US landing of this Phase I comes first"
            if not airpower.aerial_open(state):
                return "Ichi-Go 7.8", "the Aerial Supply Marker is placed at most once a turn"
            return "Ichi-Go 7.8", ("no US stack is out of supply: the marker is placed atop an otherwise "
                                   "out-of-supply one")
        return None

    @LAND
    def land(self, em: Decision, units: list[str], hex: str | None, displace: str | None) -> None:
        causeway.land(em, em.side, units, hex, displace)

    @order("transfer UNITS", "Ichi-Go 10.11", "move US units by sea from one beachhead to the other",
           _transfer_candidates)
    def transfer(self, em: Decision, units: list[str]) -> None:
        causeway.transfer(em, em.side, units)

    @SUPPLY
    def supply(self, em: Decision, hex: str) -> None:
        airpower.aerial_supply(em, em.side, hex)


class AirPhase(InPhase):
    """Ichi-Go 8.1: Phase IV, the airpower roll."""
    name = "air-phase"

    def allowed(self, state: State, orders: tuple[str, ...]):
        return ("end",) if state.air_rolled else ("roll",)

    def closed_here(self, state: State, command: Command) -> tuple[str, str] | None:
        """Ichi-Go 8.1 (ruling E57): the airpower roll is made once a Phase IV, by the Japanese `roll` that makes
        both players' rolls (ruling E7)."""
        if not state.since(16) or command.action != "roll":
            return None
        if command.side == "allied":
            return "Ichi-Go 8.1", "both players roll, and the Japanese player's `roll` makes both rolls (ruling E7)"
        if state.air_rolled:
            return "Ichi-Go 8.1", "both players roll once at the start of the Airpower Phase (a tie is rerolled in "\
                                  "that roll), and this turn's roll is made"
        return None

    @AIRPOWER_ROLL
    def roll(self, em: Decision) -> None:
        airpower.airpower_roll(em)


class JapaneseReinforcements(InPhase):
    """Ichi-Go 9.1-9.5, 5.3 item 7: Phase V, Japanese reinforcements, withdrawals and 14AA shipments."""
    name = "japanese-reinforcements"

    def label(self, state: State) -> str:
        return super().label(state) + (": withdrawal (9.2)" if reinforcements.withdrawal_due(state) else "")

    def allowed(self, state: State, orders: tuple[str, ...]):
        if reinforcements.withdrawal_due(state):
            return ("withdraw",)
        return [*(["ship"] if reinforcements.shipment_due(state) else []), "enter", "absorb",
                *(["release"] if reinforcements.release_open(state) else []), "end"]

    def closed_here(self, state: State, command: Command) -> tuple[str, str] | None:
        """Ichi-Go 9.2, 9.3, 9.4, 5.3 items 7-8 (ruling E57): in this Phase V an order whose moment is now but that
        waits for the withdrawal, or whose one chance is spent, refused by the case that says so: the Turn 5
        withdrawal comes first, and once (or finds nothing to take); the Formosa Garrison comes over once; the 14AA
        roll is made once a Phase V, and a 0 ends it for the game."""
        if not state.since(16) or command.side != "japanese":
            return None
        if reinforcements.withdrawal_due(state) and command.action != "withdraw":
            return "Ichi-Go 9.2", ("the Japanese player withdraws two divisions at the start of Turn 5's Phase V, "
                                   f"before anything else; {sequence_words(TABLE, state, command)}")
        if command.action == "withdraw":
            return reinforcements.withdrawal_spent(state)
        if command.action == "release":
            return reinforcements.release_spent(state)
        if command.action == "ship":
            return reinforcements.shipment_spent(state)
        return None

    @order("withdraw UNITS", "Ichi-Go 9.2", "withdraw two full-strength 4-factor divisions (Turn 5)",
           _withdraw_candidates, slots={"UNITS": UNITS_BY_NAME},
           forbidden=(("withdraw", "Ichi-Go 9.2", "the Japanese player must withdraw two divisions (or their "
                                                  "fallbacks): name them"),))
    def withdraw(self, em: Decision, units: list[str]) -> None:
        reinforcements.withdraw(em, em.side, units)

    @order("ship", "Ichi-Go 5.3", "roll for the 14AA units shipped this turn and their transport survival")
    def ship(self, em: Decision) -> None:
        reinforcements.ship(em)

    @ENTER
    def enter(self, em: Decision, units: list[str], hex: str) -> None:
        reinforcements.enter(em, em.side, units, hex)

    @order("absorb BRIGADE into DIVISION", "Ichi-Go 9.5",
           "a reduced division in an initial Japanese city absorbs a brigade there", _absorb_candidates,
           forbidden=(("absorb BRIGADE BRIGADE [BRIGADE ...] into DIVISION", "Ichi-Go 9.5",
                       "one brigade flips a reduced division to full strength: absorb one brigade at a time"),))
    def absorb(self, em: Decision, brigade: str, division: str) -> None:
        reinforcements.absorb(em, em.side, brigade, division)

    @order("release UNITS", "Ichi-Go 9.3", "bring two Formosa Garrison divisions to the mainland (Turn 9, no "
                                           "Causeway)", _release_candidates, slots={"UNITS": UNITS_BY_NAME},
           forbidden=(("release", "Ichi-Go 9.3", "two of the four Formosa Garrison divisions come over: name two"),))
    def release(self, em: Decision, units: list[str]) -> None:
        reinforcements.release(em, em.side, units)


class ChineseReinforcements(InPhase):
    """Ichi-Go 9.7: Phase X, the Chinese reinforcements drawn blind and placed."""
    name = "chinese-reinforcements"

    def allowed(self, state: State, orders: tuple[str, ...]):
        return ("place", "end") if state.reinforced else ("reinforce",)

    def closed_here(self, state: State, command: Command) -> tuple[str, str] | None:
        """Ichi-Go 9.7 (rules version 10, ruling E38): the roll and blind draw come first, once a phase."""
        if not state.since(10) or command.side != "allied":
            return None
        if command.action in ("place", "end") and not state.reinforced:
            return "Ichi-Go 9.7", "roll and draw this phase's Chinese reinforcements first (reinforce)"
        if command.action == "reinforce":
            return "Ichi-Go 9.7", "the Chinese reinforcements are rolled and drawn once a phase"
        return None

    @order("reinforce", "Ichi-Go 9.7", "roll and draw the Chinese reinforcements blind")
    def reinforce(self, em: Decision) -> None:
        reinforcements.reinforce(em)

    @order("place COUNTER:units at HEX", "Ichi-Go 9.7",
           "place a drawn Chinese counter in an initially Chinese city still held", _place_candidates,
           slots={"COUNTER": UNITS_BY_NAME})
    def place(self, em: Decision, units: list[str], hex: str) -> None:
        reinforcements.place(em, em.side, units, hex)


_PHASE_STEPS = {"I": "landings", "IV": "air-phase", "V": "japanese-reinforcements", "X": "chinese-reinforcements"}


def step_of(state: State) -> str:
    """The step a position is in: the decision waited for, the set-up, the turn's start, a nation's declaration
    or operations, or the phase's own step."""
    if state.phase == "over":
        return OVER
    if state.pending:
        return state.pending[0]["kind"]
    if state.phase in ("setup", "start"):
        return state.phase
    nation = state.nation_now()
    if nation is not None:
        return "operations" if nation in state.plans else "declare"
    return _PHASE_STEPS[state.phase]


def after_order(em: Decision) -> None:
    """Ichi-Go 4.1, 4.4, 4.5: the sudden-death checks after every order once play has begun."""
    if em.state.phase != "setup":
        victory.sudden_death(em.state, em)


TABLE = StatesTable([Losses(), Advance(), Momentum(), Airpower(), Tanks(), Deployment("formosa-garrison"),
                     Deployment("kwantung-army"), SetUp(), TurnStart(), Declare(), Operations(), Landings(),
                     AirPhase(), JapaneseReinforcements(), ChineseReinforcements()],
                    sequence_case="Ichi-Go 5.1", step_of=step_of, slots=SLOTS)
