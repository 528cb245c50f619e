"""The Operation Olympic states table (the Abbreviated Sequence of Play, A-D): each phase with its prompt and its
orders side by side. The American steps take the player's orders (docs/orders/olympic.md); the Japanese steps
take only the order the programmed Japanese gives (`policy`, `doctrine`), so an automated seat, the list of
legal orders and `verify` all re-decide the same thing."""
from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from app.rules.base import Candidate, Owed
from app.rules.engine.decision import Decision
from app.rules.engine.syntax import words_of
from app.rules.engine.table import StatesTable, Step, order
from app.rules.kernel.hexgrid import Hex
from app.rules.kernel.movement import Mover, Situation, reach, validate_path
from app.rules.olympic import combat, doctrine, policy, victory
from app.rules.olympic.data_load import hex_identity
from app.rules.olympic.events import (
    DecisionMade,
    InvasionLaunched,
    ReinforcementEntered,
    ReinforcementsDue,
    RetreatPreferenceSet,
    StepEnded,
    TurnEnded,
    UnitHeld,
    UnitMoved,
    UnitsLanded,
    UnitsPlaced,
)
from app.rules.olympic.state import State
from app.rules.practice import NoOrder

H = Hex.parse
SEQ = "Olympic sequence"
R10, R14, R17, R18 = "Olympic ruling R10", "Olympic ruling R14", "Olympic ruling R17", "Olympic ruling R18"
C14_4 = "Olympic 14.4"  # the Tokko procedure, which places the first invasion at sea
ONE_ZONE_HEX = "the units an order places go to sea in one invasion zone hex, three at most (ruling R14)"


# -- naming units --------------------------------------------------------------------------------------------
def resolve(d: Decision, names: list[str]) -> list[str]:
    """Unit ids from the order's words: an id, an id without its side prefix, or a hex (every unit of the side
    giving the order there, from the bottom of the stack up, so a stack moved together arrives as it stood: ruling
    R42, rules version 7; top first before it)."""
    state: State = d.state
    out: list[str] = []
    prefix = "us-" if d.side == "american" else "jp-"
    for name in names:
        word = name.lower()
        if word in state.units or prefix + word in state.units:
            uid = word if word in state.units else prefix + word
            if state.units[uid].side != d.side:
                d.refuse(SEQ, f"{uid} is a {state.units[uid].side} unit; {d.side} cannot order it")
            out.append(uid)
        elif len(word) == 4 and word.isascii() and word.isdigit():
            found = [u.id for u in state.stack(word) if u.side == d.side][::-1 if state.since(7) else 1]
            if not found:
                d.refuse(SEQ, f"no {d.side} unit in {word}")
            out += found
        else:
            d.refuse(SEQ, f"there is no unit {name!r}")
    if len(set(out)) != len(out):
        d.refuse(SEQ, "a unit is named twice")
    return out


def _room(state: State, hex_label: str, side: str, moving: int) -> bool:
    here = [u for u in state.stack(hex_label) if u.side == side]
    return len(here) + moving <= state.data.scenario["stacking"]["max_units"]


def _label(s: State, what: str) -> str:
    return f"Game-Turn {s.turn}: {what} (Casualty Points {s.casualty_points})"


# the phase of the sequence of play (scenario.toml [[sequence]]) in which each order is given
PHASE_OF = {"move": "american-movement", "land": "american-amphibious-assault",
            "assault": "american-amphibious-assault", "attack": "american-combat",
            "doctrine": "japanese-doctrine", "enter": "japanese-movement", "delay": "japanese-movement",
            "jmove": "japanese-movement", "hold": "japanese-movement", "jattack": "japanese-combat"}
WHEN = {"american-movement": "units move in the American Forces Movement Phase, the first of the American "
                             "player-turn",
        "american-amphibious-assault": "units at sea land or assault in the American Amphibious Assault Phase",
        "american-combat": "American attacks are made in the American Forces Combat Phase",
        "japanese-doctrine": "the doctrine tracks are rolled in the Japanese Doctrine Phase",
        "japanese-movement": "the programmed Japanese move in the Japanese Forces Movement Phase",
        "japanese-combat": "the programmed Japanese attack in the Japanese Forces Combat Phase"}


def outside_its_phase(state: State, step: str, action: str) -> tuple[str, str] | None:
    """Ruling R52: an order the step does not take, refused by the case of the phase it is given in (the sequence
    of play's A.1-A.4, B.1-B.3), or by the rule that times it (14.4 and track 5 for the Tokko and the assaults after
    it, 8.9 for an exchange's losses, R24 for the standing retreat order), not by the sequence of play at large. A
    refusal's case only: nothing listed, accepted or decided changes, so no rules version (as R48)."""
    if step == "losses":
        p = state.pending[0]
        return "Olympic 8.9", (f"the exchange at {p['hex']} waits for the attacking American units it eliminates "
                               f"first (lose UNIT ...: printed strengths worth at least {p['required']})")
    if action == "move" and state.turn == 1:
        return "Olympic sequence A.1", ("there is no American Forces Movement Phase on Game-Turn 1: units ashore "
                                        "move from Game-Turn 2's on")
    if action in ("land", "assault") and step in ("placement", "tokko"):
        return "Olympic 14.4", ("the amphibious assaults come after the invasion force is placed in the invasion "
                                "zone hexes and the Tokko strike is rolled")
    if action == "place":
        if step == "tokko":
            return "Olympic 14.4", "the invasion force is placed: the Tokko strike comes before the assaults"
        return "Olympic sequence A.4", ("units are placed on beachheads in the American Reinforcement Phase (ruling "
                                        "R18), or at sea in the American Amphibious Assault Phase (ruling R17)")
    if action == "lose":
        return "Olympic 8.9", "no exchange waits for its losses: they are chosen when an attack's result is Ex"
    if action == "end" and step == "tokko":  # ruling R55: the step's one order, not an end, comes next
        return "Olympic 14.4", ("the Tokko strike is rolled now ('tokko'): the table doctrine track 5 names, its "
                                "points and the zones struck, before the amphibious assaults")
    if action == "end" and step == "doctrine":
        return "Olympic sequence B.1", ("the Japanese Doctrine Phase rolls its tracks ('doctrine') before the "
                                        "Japanese Forces Movement Phase")
    if action == "retreat":
        return "Olympic ruling R24", ("the standing retreat order is given in the American Forces Movement, Combat "
                                      "or Reinforcement Phase")
    if action == "tokko":
        return "Olympic 14.3 track 5", ("the Tokko tables are used only on Game-Turn 1, in the American Amphibious "
                                        "Assault Phase, once the invasion force is placed (14.4)")
    phase = PHASE_OF.get(action)
    if phase is None:
        return None
    case = next(p["case"] for p in state.data.scenario["sequence"] if p["phase"] == phase)
    return case, WHEN[phase]


class Phase(Step):
    """A step of the Olympic sequence of play; an order it does not take is refused by its phase's case (R52)."""

    def closed(self, state: State, command) -> tuple[str, str] | None:
        if command.action in TABLE.orders[self.name]:
            return None  # the step's own order, given by the side not acting: the sequence of play refuses it
        return outside_its_phase(state, self.name, command.action)


# -- the American phases --------------------------------------------------------------------------------------
class American(Phase):
    """A step of the American player-turn; `retreat toward` sets the standing retreat order (ruling R24)."""

    def label(self, s: State) -> str:
        return _label(s, f"American {self.name} phase")

    def end_step(self, d: Decision) -> None:
        d.emit(StepEnded(self.name, d.state.turn))


def _retreat_candidates(state: State, side: str):
    for h in state.beachheads[:1]:
        yield {"hex": h}


class Standing(American):
    @order("retreat toward HEX", "Olympic ruling R24", "where American units retreat when the Japanese attack",
           _retreat_candidates, forbidden=(("retreat toward HEX HEX [HEX ...]", "Olympic ruling R24",
                                            "the standing retreat order names one land hex to retreat toward"),))
    def retreat(self, d: Decision, hex: str) -> None:
        if not d.data.map.on_map(H(hex)) or not d.data.is_land(H(hex)):
            d.refuse("Olympic ruling R24", f"{hex} is not a land hex of the map")
        d.emit(RetreatPreferenceSet(hex))


def _place_at_sea(d: Decision, names: list[str], hex: str, case: str) -> None:
    """Units go to sea in an invasion zone hex, three a hex (R14). The hex is refused by the case of the placement:
    14.4 on Game-Turn 1 (its Tokko procedure places the American units in the invasion zone hexes), ruling R17 for
    the later invasion the fragments do not give (ruling R48)."""
    data = d.data
    units = resolve_available(d, names)
    if not data.map.on_map(H(hex)) or data.zone_of(H(hex)) is None:
        d.refuse(case, f"{hex} is not an invasion zone hex")
    if not _room(d.state, hex, "american", len(units)):
        d.refuse(R14, f"{hex} would hold more than {data.scenario['stacking']['max_units']} American units")
    d.emit(UnitsPlaced(units, hex))


def resolve_available(d: Decision, names: list[str]) -> list[str]:
    """Units named that the American player may place now (arrived, or due back: note 6, ruling R18)."""
    available = {u.id for u in d.state.available()}
    out = []
    for name in names:
        uid = name.lower() if name.lower() in d.state.units else "us-" + name.lower()
        if uid not in available:
            d.refuse(R18, f"{name} is not available to be placed now")
        out.append(uid)
    if len(set(out)) != len(out):
        d.refuse(SEQ, "a unit is named twice")
    return out


def _placement_candidates(state: State, side: str):
    units = [u.id for u in state.available()]
    zones = sorted((str(h) for z in state.data.zones for h in state.data.zone_hexes(z)), key=lambda h: h)
    for h in zones:
        room = state.data.scenario["stacking"]["max_units"] - len(state.stack(h))
        if units and room > 0:
            yield {"units": units[:room], "hex": h}
            units = units[room:]


class Placement(American):
    """A.2 on Game-Turn 1 (14.4, ruling R17): every unit of the first invasion is placed at sea."""

    name = "placement"

    def label(self, s: State) -> str:
        return _label(s, "place the invasion force in the invasion zones (American Amphibious Assault Phase)")

    @order("place UNIT [UNIT ...] at HEX", "Olympic 14.4", "place units at sea in an invasion zone hex",
           _placement_candidates, forbidden=(("place UNIT [UNIT ...] at HEX HEX [HEX ...]", C14_4, ONE_ZONE_HEX),))
    def place(self, d: Decision, units: list[str], hex: str) -> None:
        _place_at_sea(d, units, hex, C14_4)

    @order("end", "Olympic ruling R17", "the invasion force is placed: the Tokko strike")
    def end(self, d: Decision) -> None:
        left = [u.id for u in d.state.available() if d.data.unit(u.id).arrival <= d.state.turn]
        if left:
            d.refuse(R17, f"every unit of the first invasion is placed first; not yet: {', '.join(left[:6])}")
        self.end_step(d)


def _land_targets(state: State, unit) -> list[str]:
    data = state.data
    out = []
    for n in data.map.neighbours(H(unit.hex)):
        label = str(n)
        if data.is_land(n) and not any(u.side == "japanese" for u in state.stack(label)) \
                and not state.militia_intact(label) and _room(state, label, "american", 1) \
                and not data.map.hexside_features(H(unit.hex), n) & data.blocking_hexsides:
            out.append(label)
    return out


def _landable(state: State) -> list:
    return [u for u in state.on_map("american") if state.at_sea(u) and not u.attacked and _land_targets(state, u)]


def _land_candidates(state: State, side: str):
    for u in _landable(state)[:8]:
        for h in _land_targets(state, u)[:2]:
            yield {"units": [u.id], "hex": h}


def _assault_candidates(state: State, side: str):
    data = state.data
    seen = set()
    for u in state.on_map("american"):
        if not state.at_sea(u) or u.attacked:
            continue
        for n in data.map.neighbours(H(u.hex)):
            label = str(n)
            if label in seen or label in state.attacked_hexes or not data.is_land(n):
                continue
            if any(x.side == "japanese" for x in state.stack(label)) or state.militia_intact(label):
                seen.add(label)
                yield {"hexes": [label], "units": _next_to(state, label, at_sea=True)}


def _invasion_candidates(state: State, side: str):
    if state.turn > 1 and state.invasion_turn in (None, state.turn):
        yield from _placement_candidates(state, side)


class Assault(American):
    """A.2 (ruling R17): units at sea land next to their zone hex or assault a defended hex; once in the game,
    on a later Game-Turn, more units are placed at sea for a second invasion."""

    name = "assault"

    def label(self, s: State) -> str:
        return _label(s, "American Amphibious Assault Phase: land or assault from the invasion zones")

    @order("land UNIT [UNIT ...] at HEX", R17, "units at sea come ashore in an adjacent land hex", _land_candidates,
           forbidden=(("land UNIT [UNIT ...] at HEX HEX [HEX ...]", R17, "the units an order lands come ashore in one "
                       "land hex; land the others with an order of their own"),))
    def land(self, d: Decision, units: list[str], hex: str) -> None:
        state: State = d.state
        ids = resolve(d, units)
        for uid in ids:
            u = state.unit(uid)
            if not state.at_sea(u):
                d.refuse(R17, f"{uid} is not at sea")
            if u.attacked:
                d.refuse(R17, f"{uid} assaulted this phase and stays at sea until the next one")
            if not combat.adjacent_land(d.data, u.hex, hex) or not d.data.is_land(H(hex)):
                d.refuse(R17, f"{hex} is not a land hex next to {uid} in {u.hex}")
        if any(u.side == "japanese" for u in state.stack(hex)) or state.militia_intact(hex):
            d.refuse(R17, f"{hex} is defended: assault it")
        if not _room(state, hex, "american", len(ids)):
            d.refuse(R14, f"{hex} would hold more than {d.data.scenario['stacking']['max_units']} American units")
        d.emit(UnitsLanded(ids, hex))
        combat.release_contacts(d)

    @order("assault HEX [HEX ...] with UNIT [UNIT ...]", R17, "units at sea attack one land hex next to them",
           _assault_candidates)
    def assault(self, d: Decision, hexes: list[str], units: list[str]) -> None:
        if "advance" in (u.lower() for u in units):  # ruling R50: refused by the rule, not as a unit named "advance"
            d.refuse(R17, "an amphibious assault names no advance: if it clears the hex, the surviving assaulting "
                          "units land in it, three at most (rulings R17, R38)")
        combat.american_attack(d, combat.one_hex(d, hexes, R17), resolve(d, units), [], "assault")

    @order("place UNIT [UNIT ...] at HEX", R17, "the second invasion: units not yet ashore go to sea",
           _invasion_candidates, forbidden=(("place UNIT [UNIT ...] at HEX HEX [HEX ...]", R17, ONE_ZONE_HEX),))
    def place(self, d: Decision, units: list[str], hex: str) -> None:
        state: State = d.state
        if state.turn == 1:  # ruling R55 (R52): the first invasion is placed before the Tokko strike
            d.refuse(C14_4, "the invasion force was placed in the invasion zone hexes before the Tokko strike; the "
                            "one later invasion comes on a later Game-Turn (ruling R17)")
        if state.invasion_turn not in (None, state.turn):
            d.refuse(R17, "the one later invasion is made on one Game-Turn after the first")
        _place_at_sea(d, units, hex, R17)
        if state.invasion_turn is None:
            d.emit(InvasionLaunched(state.turn))

    @order("end", R17, "end the Amphibious Assault Phase")
    def end(self, d: Decision) -> None:
        waiting = _landable(d.state)
        if waiting:
            d.refuse(R17, f"units at sea must land while they can: {', '.join(u.id for u in waiting[:6])}")
        self.end_step(d)


@lru_cache(maxsize=8192)
def _kept_reach(data, here: Hex, allowance: int, occupied: frozenset, ezoc: frozenset, forbidden: frozenset):
    """Where an American unit's allowance takes it (R10, R11, R15): the same Japanese units, zones of control and
    militia give the same hexes, so the positions a search weighs within one Movement Phase find it once."""
    return reach(data.map, data.movement, Mover.single(here, allowance, "american"),
                 Situation(enemy_occupied=occupied, ezoc=ezoc, forbidden=dict(forbidden)))


def _american_reach(data, here: Hex, allowance: int, sit: Situation):
    return _kept_reach(data, here, allowance, sit.enemy_occupied, sit.ezoc, frozenset(sit.forbidden.items()))


def _move_candidates(state: State, side: str):
    data = state.data
    sit = _situation(state)
    for u in state.on_map("american"):
        if u.moved or state.at_sea(u):
            continue
        found = _american_reach(data, H(u.hex), data.unit(u.id).movement, sit)
        options = sorted(found.hexes(), key=hex_identity)
        for h in options[:: max(1, len(options) // 3)][:3]:
            if _room(state, str(h), "american", 1):
                yield {"units": [u.id], "to": str(h), "via": []}


def _situation(state: State) -> Situation:
    """American movement (R10, R11, R15): no entry into Japanese units or intact militia; stop on entering a
    Japanese zone of control."""
    return state.memo("american-movement", lambda: Situation(
        enemy_occupied=frozenset(H(h) for h in state.hexes_of("japanese")),
        ezoc=frozenset(H(h) for h in state.zoc_of("japanese")),
        forbidden={H(h): "Olympic ruling R11" for h in state.intact_militia()}))


class Movement(Standing):
    """A.1 (no movement on Game-Turn 1): American units move (rulings R10, R15)."""

    name = "movement"

    @order("move UNIT [UNIT ...] to HEX:to [via HEX [HEX ...]]", "Olympic ruling R10",
           "move units by the cheapest way (through the via hexes)", _move_candidates,
           forbidden=(("move UNIT [UNIT ...] to HEX:to HEX:more [HEX:more ...] [via HEX [HEX ...]]", R10,
                       "a move goes to one hex; the hexes it passes through are named after 'via'"),))
    def move(self, d: Decision, units: list[str], to: str, hexes: list[str]) -> None:
        data = d.data
        ids = resolve(d, units)
        if not _room(d.state, to, "american", len(ids)):
            d.refuse(R14, f"{to} would hold more than {data.scenario['stacking']['max_units']} American units")
        for uid in ids:
            u = d.state.unit(uid)
            if u.moved:
                d.refuse("Olympic ruling R10", f"{uid} has already moved this phase")
            if d.state.at_sea(u):
                d.refuse(R17, f"{uid} is at sea: it lands in the Amphibious Assault Phase")
            path = self._path(d, u, [*hexes, to])
            d.emit(UnitMoved(uid, [str(h) for h in path[1:]], int(validate_path(
                data.map, data.movement, Mover.single(H(u.hex), data.unit(uid).movement, "american"), path,
                _situation(d.state)))))
        combat.release_contacts(d)

    def _path(self, d: Decision, unit, waypoints: list[str]) -> list[Hex]:
        """The cheapest way through the waypoints (the via hexes, then the destination), each leg searched only as
        far as the allowance left; a waypoint it cannot reach is refused by the rule that bars it."""
        data = d.data
        sit = _situation(d.state)
        path = [H(unit.hex)]
        left = float(data.unit(unit.id).movement)
        for i, w in enumerate(waypoints):
            here = str(path[-1])
            if not data.map.on_map(H(w)):
                d.refuse("Olympic ruling R10", f"{w} is not on the map")
            if not data.is_land(H(w)):
                d.refuse("Olympic ruling R10", f"{w} is a sea hex: units move on land only")
            if w == here:
                d.refuse("Olympic ruling R10", _same_hex(unit.id, w, first=i == 0, via=i < len(waypoints) - 1))
            if d.state.militia_intact(w):
                d.refuse("Olympic ruling R11", f"the militia of {w} is intact: attack it before entering")
            if w in d.state.hexes_of("japanese"):
                d.refuse("Olympic ruling R10", f"Japanese units hold {w}")
            if i > 0 and here in d.state.zoc_of("japanese"):
                d.refuse("Olympic ruling R15", f"via {here}: it is in a Japanese zone of control, where {unit.id} "
                                               f"stops; it cannot go on to {w}")
            found = _american_reach(data, path[-1], left, sit)
            if H(w) not in found:
                self._unreachable(d, unit, here, w, left, first=i == 0)
            left -= found.cost[H(w)]
            path += found.path_to(H(w))[1:]
        return path

    def _unreachable(self, d: Decision, unit, here: str, w: str, left: float, first: bool) -> None:
        """Why `w` is out of reach from `here`: a zone of control the way stops in (ruling R15), the movement points
        (R10), or no way by land at all (R10: sea hexes, all-sea hexsides, Japanese units, intact militia)."""
        data = d.data
        sit = _situation(d.state)
        zoc = d.state.zoc_of("japanese")
        far = float(sum(data.land_mp.values()))
        free = reach(data.map, data.movement, Mover.single(H(here), far, "american"),
                     Situation(enemy_occupied=sit.enemy_occupied, forbidden=sit.forbidden))
        if H(w) not in free:
            d.refuse("Olympic ruling R10", f"no way by land leads from {here} to {w} (sea hexes, all-sea hexsides, "
                                           "Japanese units and intact militia bar every way)")
        stopped = reach(data.map, data.movement, Mover.single(H(here), far, "american"), sit)
        spend = f"{left:g} MP{'' if first else ' left'}"
        if free.cost[H(w)] <= left or H(w) not in stopped:
            leaving = f"{unit.id} leaves a Japanese zone of control in {here}, so its first hex may not be in one; " \
                if here in zoc else ""
            around = f"; the way around costs {stopped.cost[H(w)]:g} MP, more than its {spend}" \
                if H(w) in stopped else ""
            d.refuse("Olympic ruling R15", f"{leaving}every way from {here} to {w} enters a Japanese zone of control "
                                           f"before it, where {unit.id} would stop{around}")
        d.refuse("Olympic ruling R10", f"{w} is {stopped.cost[H(w)]:g} MP from {here} by the cheapest way; "
                                       f"{unit.id} has {spend}")

    @order("end", SEQ + " A.1", "end the American Forces Movement Phase")
    def end(self, d: Decision) -> None:
        self.end_step(d)


def _same_hex(unit: str, hex_: str, first: bool, via: bool) -> str:
    """Why a move naming the hex the unit would already be in goes nowhere (ruling R10)."""
    if first and via:
        return f"via {hex_}: {unit} is in {hex_} already; a via hex is one the way passes through"
    if first:
        return f"{unit} is in {hex_} already: a move goes to another hex"
    if via:
        return f"via {hex_} {hex_}: a via hex is named twice in a row"
    return f"to {hex_} via {hex_}: a move does not pass through its own destination on the way there; name it once"


def _attack_candidates(state: State, side: str):
    for target in sorted(state.hexes_of("japanese") | state.intact_militia()):
        if target in state.attacked_hexes:
            continue
        near = _next_to(state, target, at_sea=False)
        if near:
            yield {"hexes": [target], "units": near}


def _next_to(state: State, target: str, at_sea: bool) -> list[str]:
    """The American units (by id) that have not attacked this phase, at sea or ashore, next to `target` and not
    across an all-sea hexside: those that may attack or assault it (8.8, R17, R30)."""
    data = state.data
    around = set(data.map.neighbour_labels(target))
    return [u.id for u in state.on_map("american") if u.hex in around and not u.attacked
            and state.at_sea(u) == at_sea and combat.adjacent_land(data, u.hex, target)]


class Combat(Standing):
    """A.3: American attacks, one hex each (8.8, 8.9)."""

    name = "combat"

    @order("attack HEX [HEX ...] with UNIT [UNIT ...] [advance UNIT:adv [UNIT ...]]", "Olympic 8.8",
           "attack one hex's Japanese units and militia (ruling R30); the units named after advance enter it if it "
           "is cleared", _attack_candidates)
    def attack(self, d: Decision, hexes: list[str], units: list[str], adv: list[str]) -> None:
        target = combat.one_hex(d, hexes, "Olympic 8.8")
        combat.american_attack(d, target, resolve(d, units), resolve(d, adv) if adv else [], "american")

    @order("end", SEQ + " A.3", "end the American Forces Combat Phase")
    def end(self, d: Decision) -> None:
        self.end_step(d)


def _lose_candidates(state: State, side: str):
    context = state.pending[0]
    units = sorted(context["attackers"], key=lambda u: -state.unit(u).strength)
    paid, chosen = 0, []
    for uid in units:
        if paid >= context["required"]:
            break
        chosen.append(uid)
        paid += state.unit(uid).strength
    yield {"units": chosen}


class Losses(American):
    """Olympic 8.9 Ex: the American player picks the units whose printed strengths pay for the defenders, none
    that the payment does not need (ruling R40)."""

    name = "losses"

    def label(self, s: State) -> str:
        p = s.pending[0]
        return _label(s, f"exchange at {p['hex']}: eliminate American units worth at least {p['required']} "
                         f"strength points from {', '.join(p['attackers'])}")

    def owed(self, s: State) -> Owed:
        p = s.pending[0]
        return Owed("eliminate attacking American units in the exchange (Olympic 8.9)", p["hex"],
                    f"printed strengths worth at least {p['required']}" + (
                        ", no unit more than needed (ruling R40)" if s.since(7) else ""),
                    tuple((u, f"strength {s.unit(u).strength}") for u in p["attackers"]))

    @order("lose UNIT [UNIT ...]", "Olympic 8.9", "the attacking units eliminated in the exchange",
           _lose_candidates)
    def lose(self, d: Decision, units: list[str]) -> None:
        context = dict(d.state.pending[0])
        combat.finish_exchange(d, context, resolve(d, units))
        d.emit(DecisionMade("losses", "american"))


def _reinforce_candidates(state: State, side: str):
    units = [u.id for u in state.available()]
    for h in state.beachheads:
        room = state.data.scenario["stacking"]["max_units"] - len(state.stack(h))
        if units and room > 0 and not state.hexes_of("japanese") & {h}:
            yield {"units": units[:room], "hex": h}


class Reinforcement(Standing):
    """A.4 (ruling R18): arrived and returning American units are placed on beachheads."""

    name = "reinforcement"

    @order("place UNIT [UNIT ...] at HEX", R18, "place arrived or returning units on a beachhead",
           _reinforce_candidates, forbidden=(("place UNIT [UNIT ...] at HEX HEX [HEX ...]", R18,
                                              "the units an order places go on one beachhead"),))
    def place(self, d: Decision, units: list[str], hex: str) -> None:
        state: State = d.state
        ids = resolve_available(d, units)
        if hex not in state.beachheads:
            d.refuse(R18, f"{hex} is not a beachhead")
        if any(u.side == "japanese" for u in state.stack(hex)):
            d.refuse(R18, f"Japanese units hold {hex}")
        if not _room(state, hex, "american", len(ids)):
            d.refuse(R14, f"{hex} would hold more than {d.data.scenario['stacking']['max_units']} American units")
        d.emit(UnitsPlaced(ids, hex))
        combat.release_contacts(d)

    @order("end", SEQ + " A.4", "end the American player-turn: the Japanese player-turn follows")
    def end(self, d: Decision) -> None:
        self.end_step(d)


# -- the programmed Japanese ---------------------------------------------------------------------------------
class Japanese(Phase):
    """A step the automated Japanese seat plays; it takes only the programmed order (module docstring), which
    the prompt shows, so a person can also give it by hand."""

    def label(self, s: State) -> str:
        return _label(s, f"Japanese {self.name.replace('japanese-', '')} phase, programmed order: "
                         f"'{render(self.programmed(s))}'")

    def programmed(self, s: State) -> dict:
        return {"action": self.name}


def _expect(d: Decision, expected: dict, action: str, **args) -> None:
    """Refuse any order but the programmed one (so `verify` re-decides it)."""
    if expected["action"] != action or any(expected.get(k) != v for k, v in args.items()):
        d.refuse(expected["reason"]["case"], f"the programmed Japanese order now is {render(expected)!r} "
                                             f"({expected['reason'].get('summary', '')})")


def render(expected: dict) -> str:
    """The order text of a programmed decision."""
    a = expected["action"]
    if a == "jmove":
        return f"jmove {expected['unit']} {' '.join(expected['path'])}"
    if a in ("hold", "delay"):
        return f"{a} {expected['unit']}"
    if a == "enter":
        return f"enter {expected['unit']} at {expected['hex']}" if expected["hex"] else f"delay {expected['unit']}"
    if a == "jattack":
        return f"jattack {expected['unit']} on {expected['target']}"
    return a


def programmed(state: State, side: str) -> tuple[str, dict]:
    """The automated Japanese seat's policy (app/rules/practice.py): the programmed order the prompt shows, with
    its reason; a step whose one order rolls for the doctrine (tokko, doctrine) names its case."""
    step = TABLE.step(state)
    if not isinstance(step, Japanese) or step.who(state) != side:
        raise NoOrder(f"{SEQ}: the programmed Japanese do not act now ({step.name})")
    expected = step.programmed(state)
    own = TABLE.orders[step.name].get(expected["action"])
    reason = expected.get("reason") or {"case": own.case if own else SEQ, "summary": f"the {step.name} step's one "
                                                                                     "order, rolled by the doctrine"}
    return render(expected), reason


def _programmed(fn, verb: str):
    """The candidates of one Japanese order: the programmed decision, if it is an order of this verb."""

    def candidates(state: State, side: str):
        text = render(fn(state))
        if words_of(text)[0] == verb:
            yield TABLE.orders[TABLE.step(state).name][verb].grammar.parse(text)

    return candidates


class Tokko(Japanese):
    """A.2 on Game-Turn 1 (14.3 track 5, 14.4; ruling R8), after the American units are placed."""

    name = "tokko"

    @order("tokko", "Olympic 14.4", "roll doctrine track 5 and the Tokko tables")
    def tokko(self, d: Decision) -> None:
        doctrine.tokko(d)
        d.emit(StepEnded(self.name, d.state.turn))


class Doctrine(Japanese):
    """B.1 (14.3 tracks 1-3; rulings R5, R6, R9, R12)."""

    name = "doctrine"

    @order("doctrine", "Olympic 14.3", "roll doctrine tracks 1-3")
    def doctrine(self, d: Decision) -> None:
        doctrine.doctrine(d)
        d.emit(StepEnded(self.name, d.state.turn))
        doctrine.automatic_release(d)  # the Movement Phase has begun (14.3, ruling R34)


class JapaneseMovement(Japanese):
    """B.2 (14.51-14.58; rulings R12, R23)."""

    name = "japanese-movement"

    def programmed(self, s: State) -> dict:
        return policy.next_movement(s)

    @order("enter UNIT at HEX", "Olympic ruling R12", "a reinforcement enters",
           _programmed(policy.next_movement, "enter"))
    def enter(self, d: Decision, unit: str, hex: str) -> None:
        expected = policy.next_movement(d.state)
        _expect(d, expected, "enter", unit=unit, hex=hex)
        d.emit(ReinforcementEntered(unit, hex, expected["reason"]))

    @order("delay UNIT", "Olympic ruling R12", "a reinforcement finds no free entry hex",
           _programmed(policy.next_movement, "delay"))
    def delay(self, d: Decision, unit: str) -> None:
        expected = policy.next_movement(d.state)
        _expect(d, expected, "enter", unit=unit, hex=None)
        d.emit(ReinforcementsDue([u for u in d.state.due if u != unit]))

    @order("jmove UNIT HEX:path [HEX ...]", "Olympic 14.52", "a programmed Japanese move",
           _programmed(policy.next_movement, "jmove"))
    def jmove(self, d: Decision, unit: str, path: list[str]) -> None:
        expected = policy.next_movement(d.state)
        _expect(d, expected, "jmove", unit=unit, path=list(path))
        d.emit(UnitMoved(unit, list(path), expected["mp"], expected["reason"]))

    @order("hold UNIT", "Olympic ruling R23", "a programmed Japanese unit stays",
           _programmed(policy.next_movement, "hold"))
    def hold(self, d: Decision, unit: str) -> None:
        expected = policy.next_movement(d.state)
        _expect(d, expected, "hold", unit=unit)
        d.emit(UnitHeld(unit, expected["reason"]))

    @order("end", "Olympic 14.51", "every released Japanese unit has moved", _programmed(policy.next_movement, "end"))
    def end(self, d: Decision) -> None:
        _expect(d, policy.next_movement(d.state), "end")
        d.emit(StepEnded(self.name, d.state.turn))


class JapaneseCombat(Japanese):
    """B.3 (8.51-8.54; rulings R21, R25), then D: the Game-Turn Indication Phase."""

    name = "japanese-combat"

    def programmed(self, s: State) -> dict:
        return policy.next_attack(s)

    @order("jattack UNIT on UNIT:target", "Olympic 8.52", "a programmed Japanese attack",
           _programmed(policy.next_attack, "jattack"),
           forbidden=(("jattack UNIT on UNIT:target UNIT:more [UNIT:more ...]", "Olympic 8.52",
                       "one Japanese unit attacks one American unit (ruling R25): in a stack, the strongest first, "
                       "then the top"),))
    def jattack(self, d: Decision, unit: str, target: str) -> None:
        expected = policy.next_attack(d.state)
        _expect(d, expected, "jattack", unit=unit, target=target)
        combat.japanese_attack(d, unit, target, expected["reason"])

    @order("end", "Olympic 8.51", "no Japanese attack is possible: the Game-Turn ends",
           _programmed(policy.next_attack, "end"))
    def end(self, d: Decision) -> None:
        _expect(d, policy.next_attack(d.state), "end")
        if d.state.turn >= d.data.scenario["game"]["game_turns"]:
            d.emit(victory.final(d.state))
        else:
            d.emit(TurnEnded(d.state.turn))


TABLE = StatesTable(
    [Placement(), Tokko(), Assault(), Losses(), Movement(), Combat(), Reinforcement(), Doctrine(),
     JapaneseMovement(), JapaneseCombat()],
    sequence_case="Olympic sequence of play",
)


# -- every order, for the list (ruling R49, rules version 10) -------------------------------------------------------
SUBSETS_UP_TO = 5  # units next to one hex: every set of them is tried up to this many; beyond, singles, pairs, stacks


def more_orders(state: State, side: str):
    """Ruling R49 (rules version 10): the orders the candidates above leave out, for the list of legal orders and a
    unit's or hex's orders (app/rules/legal.py `listed_candidates`): every landing hex of each unit at sea and of
    each stack, every set of the units next to a hex in an attack or assault and every set of them to advance (three
    at most, 8.9), every set of attackers an exchange may eliminate (8.9, R40), every hex each unit (and each
    stack) may move to, every invasion zone hex each unit may be placed in and every beachhead each unit may be
    placed on, and the standing retreat toward every beachhead and every hex American units hold. The candidates
    above stay what the random player draws from, as they were; the decider keeps those it accepts. Version 9 and
    before listed the candidates alone."""
    if not state.since(10) or side != "american" or state.side != side:
        return
    if state.pending:
        if state.pending[0].get("kind") == "losses":
            yield from _every_loss(state)
        return
    step = state.step
    if step == "placement":
        yield from _every_placement(state)
    elif step == "assault":
        yield from _every_landing(state)
        yield from _every_attack(state, "assault")
        if state.turn > 1 and state.invasion_turn in (None, state.turn):
            yield from _every_placement(state)
    elif step == "movement":
        yield from _every_move(state)
    elif step == "combat":
        yield from _every_attack(state, "american")
    elif step == "reinforcement":
        yield from _every_reinforcement(state)
    if step in ("movement", "combat", "reinforcement"):
        yield from _every_retreat_hex(state)


def _bottom_up(state: State, hex_label: str, keep) -> list[str]:
    """The units of a hex that `keep` accepts, from the bottom of the stack up (R42: a stack named so keeps its top)."""
    return [u.id for u in state.stack(hex_label)[::-1] if keep(u)]


def _every_placement(state: State):
    data = state.data
    cap = data.scenario["stacking"]["max_units"]
    units = [u.id for u in state.available()]
    for h in sorted(str(h) for z in data.zones for h in data.zone_hexes(z)):
        if len(state.stack(h)) < cap:
            for uid in units:
                yield Candidate("place", (), text=f"place {uid} at {h}")  # every unit is named above already


def _every_landing(state: State):
    ready = [u for u in state.on_map("american") if state.at_sea(u) and not u.attacked]
    for u in ready:
        for h in _land_targets(state, u):
            yield Candidate("land", (u.id,), text=f"land {u.id} at {h}")
    for sea in sorted({u.hex for u in ready}):
        stack = _bottom_up(state, sea, lambda u: not u.attacked)
        if len(stack) > 1:
            for h in _land_targets(state, state.unit(stack[0])):
                yield Candidate("land", tuple(stack), text=f"land {' '.join(stack)} at {h}")


def _sets(state: State, units: list[str]) -> list[tuple[str, ...]]:
    """The sets of `units` an attack tries: every one while they are few; else each unit, each pair, each hex's
    stack and all of them."""
    if len(units) <= SUBSETS_UP_TO:
        return [c for k in range(1, len(units) + 1) for c in combinations(units, k)]
    stacks = {}
    for uid in units:
        stacks.setdefault(state.unit(uid).hex, []).append(uid)
    found = [c for k in (1, 2) for c in combinations(units, k)] + [tuple(s) for s in stacks.values()] + [tuple(units)]
    return list(dict.fromkeys(found))


def _every_attack(state: State, kind: str):
    data = state.data
    limit = data.crt_raw["exchange"]["advance_limit"]
    verb = "assault" if kind == "assault" else "attack"
    for target in sorted(state.hexes_of("japanese") | state.intact_militia()):
        if target in state.attacked_hexes:
            continue
        near = _next_to(state, target, at_sea=kind == "assault")
        for chosen in _sets(state, near):
            text = f"{verb} {target} with {' '.join(chosen)}"
            yield Candidate(verb, (target,), text=text)
            if kind == "assault":
                continue
            advances = [c for k in range(1, min(limit, len(chosen)) + 1) for c in combinations(chosen, k)] \
                if len(chosen) <= SUBSETS_UP_TO else [(uid,) for uid in chosen] + [chosen[:limit]]
            for adv in advances:
                yield Candidate(verb, (target,), text=f"{text} advance {' '.join(adv)}")


def _every_loss(state: State):
    """8.9 Ex (R40): every set of the attackers whose printed strengths reach the loss owed, no unit of it spare."""
    p = state.pending[0]
    for combo in combat.loss_sets({uid: state.unit(uid).strength for uid in p["attackers"]}, p["required"]):
        yield Candidate("lose", combo, text=f"lose {' '.join(combo)}")


def _every_move(state: State):
    data = state.data
    sit = _situation(state)
    ready = [u for u in state.on_map("american") if not u.moved and not state.at_sea(u)]
    reached = {u.id: _american_reach(data, H(u.hex), data.unit(u.id).movement, sit) for u in ready}
    cap = data.scenario["stacking"]["max_units"]
    there: dict[str, int] = {}
    for u in state.on_map("american"):
        there[u.hex] = there.get(u.hex, 0) + 1
    for u in ready:
        for h in sorted(map(str, reached[u.id].hexes()), key=int):
            if h != u.hex and there.get(h, 0) < cap:
                yield Candidate("move", (u.id,), text=f"move {u.id} to {h}")
    for here in sorted({u.hex for u in ready}):
        stack = _bottom_up(state, here, lambda u: not u.moved)
        if len(stack) < 2:
            continue
        common = set.intersection(*(set(map(str, reached[uid].hexes())) for uid in stack))
        for h in sorted(common, key=int):
            if h != here and there.get(h, 0) + len(stack) <= cap:
                yield Candidate("move", tuple(stack), text=f"move {' '.join(stack)} to {h}")


def _every_reinforcement(state: State):
    units = [u.id for u in state.available()]
    for h in state.beachheads:
        for uid in units:
            yield Candidate("place", (), text=f"place {uid} at {h}")  # every unit is named above already


def _every_retreat_hex(state: State):
    held = sorted(state.hexes_of("american"), key=hex_identity)
    for h in dict.fromkeys([*state.beachheads, *held]):
        yield Candidate("retreat", (), text=f"retreat toward {h}")
