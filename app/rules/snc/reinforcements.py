"""SNC reinforcements and replacements (8.x, 13.0): Chinese placement a) and b) with railroad movement
(8.2, 9.5.2), Japanese air interdiction and the Chinese air against it (11.2, 11.3), the return of Chinese
elites (8.1), Japanese replacements with their LoC (8.3) and amphibious landings (8.4, 8.4.1, 8.4.2)."""
from __future__ import annotations

from app.rules.engine.decision import Decision
from app.rules.errors import IllegalOrder
from app.rules.kernel.hexgrid import Hex
from app.rules.kernel.memo import Kept
from app.rules.kernel.paths import TraceSituation, linked, trace
from app.rules.snc import events as ev
from app.rules.snc.combat import army_second_hex, intercept, open_battle
from app.rules.snc.common import H, adjacent_to_enemy, ezoc, named_twice, neighbours, newly_taken, place_garrisons
from app.rules.snc.data_load import GameData
from app.rules.snc.state import State, Unit


def due(state: State, side: str) -> list[Unit]:
    """Reinforcements that may enter now: their GT has come (8.0: they may be delayed), or an elite's return
    (once per position: each placement the list of legal orders tries asks)."""
    return list(state.memo(("due", side), lambda: _due(state, side)))


def _due(state: State, side: str) -> list[Unit]:
    out = []
    for u in state.units.values():
        if u.side != side or u.placement == "city":
            continue
        if u.status == "pool" and 0 < u.arrival_turn <= state.turn:
            out.append(u)
        elif u.status == "returning" and u.return_turn <= state.turn:
            out.append(u)
    return sorted(out, key=lambda u: u.id)


def this_turns(state: State) -> list[Unit]:
    """SNC 11.2: the current GT's Chinese reinforcements (not yet placed)."""
    return [u for u in state.units.values()
            if u.side == "chinese" and u.status == "pool" and u.arrival_turn == state.turn]


def interdiction_due(state: State) -> bool:
    return (state.side == "chinese" and state.phase == "reinf"
            and state.turn >= int(state.data.params["reinforcements"]["interdiction_from_turn"])
            and state.interdicted != state.turn and bool(this_turns(state)))


def _units(state: State, side: str, ids: list[str], case: str) -> list[Unit]:
    ready = {u.id for u in due(state, side)}
    for uid in ids:
        if uid not in ready:
            if state.since(14):
                _not_yet(state, side, state.units[uid])
            raise IllegalOrder(case, f"{uid} is not a reinforcement available this GT")
    return [state.units[u] for u in ids]


def _not_yet(state: State, side: str, u: Unit) -> None:
    """SNC 8.0, 8.1, 9.1 (rules version 14, ruling E30): a unit of `side` off the map that is not due now is refused by
    the case that says when it comes: a reinforcement before its GT (8.0, its GT listed in 13.0), an eliminated elite
    before its return (8.1), a Japanese garrison, which only 9.1 places."""
    if u.side != side:
        return
    if u.status == "pool" and u.placement == "city":
        raise IllegalOrder("SNC 9.1", f"{u.id} is a Japanese garrison: it is placed in a city hex the Japanese occupy, "
                                      "never landed")
    if u.status == "pool" and u.arrival_turn > state.turn:
        raise IllegalOrder("SNC 8.0", f"{u.id} arrives on GT {u.arrival_turn} (13.0): no reinforcement arrives earlier "
                                      "than its GT")
    if u.status == "returning":
        raise IllegalOrder("SNC 8.1", f"{u.id} returns on GT {u.return_turn}, the box of the Turn Record Track its die "
                                      "put it in")


def _check_chinese_hex(state: State, h: str, case: str) -> None:
    if any(u.side == "japanese" for u in state.at(h)):
        raise IllegalOrder(case, f"{h} is occupied by Japanese units")
    if adjacent_to_enemy(state, "chinese", h):
        raise IllegalOrder("SNC 8.2", f"Chinese reinforcements may not be placed adjacent to a Japanese unit ({h})")


def place(em: Decision, ids: list[str], h: str) -> None:
    """SNC 8.2 a): in the listed hex (they may then move); 8.1: a returning elite in or next to Nanking."""
    state = em.state
    units = _units(state, "chinese", ids, "SNC 8.2")
    nanking = em.state.data.params["replacements"]["elite_return_hex"]
    methods = set()
    for u in units:
        if u.status == "returning":
            if h != nanking and h not in neighbours(state.data, nanking):
                raise IllegalOrder("SNC 8.1", f"{u.id} returns in or adjacent to Nanking ({nanking}), not {h}")
            methods.add("elite")
        else:
            if h not in u.arrival_hexes:
                raise IllegalOrder("SNC 13.0", f"{u.id} arrives at {' or '.join(u.arrival_hexes)}, not {h}")
            methods.add("listed")
    if len(methods) > 1:
        raise IllegalOrder("SNC 8.1", "place returning elites and new reinforcements by separate orders")
    if methods == {"elite"} and state.since(10):
        # ruling E22: a returning elite is no reinforcement (8.0, 8.1; ruling R36), so 8.2's bar on a hex next to a
        # Japanese unit is not its; no unit enters a hex the other side holds (6.0)
        if any(u.side == "japanese" for u in state.at(h)):
            raise IllegalOrder("SNC 8.1", f"{h} is occupied by Japanese units")
    else:
        _check_chinese_hex(state, h, "SNC 8.2")
    em.emit(ev.ReinforcementsPlaced(list(ids), h, methods.pop()))


def rail(em: Decision, ids: list[str], h: str) -> None:
    """SNC 8.2 b), 9.5.2: from GT 3, on a railroad hex with a rail LoC to the west or south edge free of
    Japanese units and ZOC; such units may not move this phase."""
    state = em.state  # before GT 3 the phase takes no `rail` order (sequence.ChineseReinforcements.closed)
    units = _units(state, "chinese", ids, "SNC 8.2")
    if any(u.status == "returning" for u in units):
        raise IllegalOrder("SNC 8.1", "returning elites are placed in or adjacent to Nanking")
    check_rail_hex(state, h)
    em.emit(ev.ReinforcementsPlaced(list(ids), h, "rail"))


def check_rail_hex(state: State, h: str) -> None:
    """SNC 8.2 b), 9.5.2: may a reinforcement be placed on railroad hex `h` now? (The order and the list of legal
    orders both ask here.)"""
    if not state.data.map.is_rail_hex(H(h)):
        raise IllegalOrder("SNC 8.2", f"{h} is not a railroad hex")
    _check_chinese_hex(state, h, "SNC 8.2")  # a hex in a Japanese zone of control is next to a Japanese unit (7.0)
    to_edge, from_origin = rail_links(state)
    if H(h) not in to_edge:
        raise IllegalOrder("SNC 8.2", f"no railroad line of communication from {h} to the west or south edge "
                                      "free of Japanese units and zones of control")
    if H(h) not in from_origin:
        raise IllegalOrder("SNC 9.5.2", f"no railroad from Nanking or Hangzhou to {h} free of Japanese units and "
                                        "zones of control")


def rail_links(state: State) -> tuple[frozenset[Hex], frozenset[Hex]]:
    """SNC 8.2 b), 9.5.2: the hexes with a railroad line of communication to the west or south edge, and those with
    a railroad from Nanking or Hangzhou, free of Japanese units and zones of control (once per position: the list
    of legal orders tries railroad placements to many hexes of one position)."""
    return state.memo(("rail links",), lambda: _rail_links(state))


_RAIL_LINKS = Kept(64)
"""The rail links by all they read of the position (the Japanese hexes and their zones of control): a Chinese
placement changes neither, so each placement of a Reinforcement Phase finds the links the one before it found."""


def _rail_links(state: State) -> tuple[frozenset[Hex], frozenset[Hex]]:
    d = state.data
    key = (state.occupied("japanese"), ezoc(state, "chinese"))

    def compute() -> tuple[frozenset[Hex], frozenset[Hex]]:
        edges = frozenset(x for e in ("west", "south") for x in d.map.edge_hexes(e) if d.map.is_rail_hex(x))
        origins = frozenset(H(x) for x in d.params["reinforcements"]["rail_origins"])
        sit = TraceSituation(enemy_occupied=frozenset(H(x) for x in key[0]), ezoc=frozenset(H(x) for x in key[1]))
        return linked(d.map, edges, d.rail_loc, sit), linked(d.map, origins, d.rail_loc, sit)

    return _RAIL_LINKS.answer(d, key, compute)


def air(em: Decision) -> None:
    """SNC 11.3 against 11.2: the Chinese air tries to disrupt the interdiction (offered by the states table only
    while the Chinese air force is in the game)."""
    intercept(em, "interdiction")
    if em.events[-1].aborted:
        em.emit(ev.UnitsRemoved([], 0))
        return
    interdict(em)


def interdict(em: Decision) -> None:
    """SNC 11.2: the Japanese roll; that many combat factors of this GT's reinforcements are removed."""
    roll = em.roll("SNC 11.2 Japanese air interdiction")
    units = this_turns(em.state)
    if sum(u.cf for u in units) <= roll:
        em.emit(ev.UnitsRemoved(sorted(u.id for u in units), roll))
        return
    em.emit(ev.DecisionRequired("interdiction", "chinese", {"roll": roll,
                                                             "units": sorted(u.id for u in units)}))


def remove(em: Decision, ids: list[str]) -> None:
    """SNC 11.2: the Chinese remove reinforcements of this GT covering the roll, none not needed; a unit named twice
    is refused (rules version 8, ruling E19; the order of a game of version 7 or before reads it once, as played)."""
    data = em.state.pending[0]["data"]
    twice = named_twice(ids)
    if twice:
        raise IllegalOrder("SNC 11.2", f"{', '.join(twice)} named twice: the interdiction removes each reinforcement "
                                       "once, its combat factors counted once")
    for uid in ids:
        if uid not in data["units"]:
            raise IllegalOrder("SNC 11.2", f"{uid} is not among this GT's reinforcements")
    total = sum(em.state.units[u].cf for u in ids)
    if total < data["roll"]:
        raise IllegalOrder("SNC 11.2", f"{total} combat factors named; the roll was {data['roll']}")
    for uid in ids:
        if total - em.state.units[uid].cf >= data["roll"]:
            raise IllegalOrder("SNC 11.2", f"{data['roll']} factors are covered without {uid}")
    em.emit(ev.DecisionMade("interdiction", "chinese"), ev.UnitsRemoved(list(ids), data["roll"]))


def replace_steps(em: Decision, ids: list[str]) -> None:
    """SNC 8.3: flip reduced Japanese units with a LoC to a landing hex, first thing in the phase. A step flips a
    reduced unit back to full strength: a unit named twice is refused (rules version 7, ruling E18; the order of a
    game of version 6 or before reads it once, as played)."""
    state = em.state
    twice = named_twice(ids)
    if twice:
        raise IllegalOrder("SNC 8.3", f"{', '.join(twice)} named twice: a replacement step flips a reduced unit back "
                                      "to full strength, once")
    if len(ids) > state.replacements:
        raise IllegalOrder("SNC 8.3", f"{state.replacements} replacement step(s) left this GT")
    d = em.state.data
    landing = d.map.hexes_tagged("landing")
    z = ezoc(state, "japanese")
    sit = TraceSituation(enemy_occupied=frozenset(H(x) for x in state.occupied("chinese")),
                         ezoc=frozenset(H(x) for x in z))
    for uid in ids:
        u = state.units[uid]
        if u.side != "japanese" or not u.on_map or not u.reduced or u.static:
            raise IllegalOrder("SNC 8.3", f"{uid} is not a reduced Japanese unit on the map")
        sources, where = landing, "a landing hex"
        if u.type == "snlf" and state.since(3):
            sources, where = snlf_sources(state.data), "Wusong or another Yangtze landing hex (8.3 designer's note)"
        elif u.type == "snlf":  # rules version 2 (ruling E13): the landing hexes on the naval gunfire coast
            sources = frozenset(x for x in landing if "ngf-coast" in d.map.tags_of(x))
        if trace(d.map, H(u.hex), sources, d.loc, sit) is None:
            raise IllegalOrder("SNC 8.3", f"{uid} has no line of communication to {where}")
    em.emit(ev.StepsReplaced(list(ids)))


def snlf_sources(d: GameData) -> frozenset:
    """SNC 8.3 designer's note (ruling R31): SNLF replacements need a LoC to Wusong (named in scenario.toml) or
    another landing hex on the Yangtze (next to a Yangtze estuary hex or across a Yangtze hexside); 3610, on the
    Huangpu only (12.0), is not one."""

    def on_yangtze(h) -> bool:
        return any(d.map.terrain_of(n) == "yangtze" or "yangtze" in d.map.hexside_features(h, n)
                   for n in d.map.neighbours(h))

    named = frozenset(H(x) for x in d.params["replacements"]["snlf_loc_hexes"])
    return named | frozenset(h for h in d.map.hexes_tagged("landing") if on_yangtze(h))


def landing_hexes(d: GameData, u: Unit) -> list[str]:
    if u.arrival_landing == "any":
        return sorted(str(h) for h in d.map.hexes_tagged("landing") if h.col >= u.arrival_min_col)
    return list(u.arrival_hexes)


def land(em: Decision, ids: list[str], h: str, support: list[str]) -> None:
    """SNC 8.4: placed next to the landing hex; an amphibious assault on any Chinese units in it."""
    state = em.state
    check_landing(state, ids, h, support)
    chinese = [u for u in state.at(h) if u.side == "chinese"]
    if not chinese:
        taken = newly_taken(state, "japanese", [h])
        em.emit(ev.ReinforcementsPlaced(list(ids), h, "landing"))
        place_garrisons(em, taken)
        return
    army = all(state.units[u].army for u in ids)
    open_battle(em, "japanese", h, list(ids), support, "landing", {"army_advance": army})


def army_going_on(state: State) -> list[Unit]:
    """SNC 8.4.1 (rulings R34, R35; rules version 5): the 10th Army's units that came ashore in this Reinforcement
    Phase (by a landing combat, which marks them as attackers, or unopposed) and still stand in their landing hex:
    each may yet advance into one hex next to it, by the phase's `advance` order."""
    if not state.since(5) or state.phase != "reinf" or state.side != "japanese":
        return []
    return sorted((u for u in state.units.values() if u.army and u.status == "map" and u.landed_at
                   and u.hex == u.landed_at and (u.attacked or u.placed_by == "landing")), key=lambda u: u.id)


def army_advance(em: Decision, ids: list[str], h: str) -> None:
    """SNC 8.4.1 (rulings R34, R35): 10th Army units standing in the hex they landed at this phase advance one hex
    more, as after a landing combat: a group at a time, whether their landing fought or not."""
    ready = {u.id: u for u in army_going_on(em.state)}
    for uid in ids:
        if uid not in ready:
            raise IllegalOrder("SNC 8.4.1", f"{uid} is not a 10th Army unit standing in the hex it landed at this "
                                            "phase: only those advance a second hex")
    starts = sorted({ready[u].hex for u in ids})
    if len(starts) > 1:
        raise IllegalOrder("SNC 8.4.1", f"units advancing together start in one landing hex, not {', '.join(starts)}")
    army_second_hex(em, list(ids), starts[0], h, decided=False)


def _landed_elsewhere(state: State, u: Unit, h: str) -> set[str]:
    """SNC 8.4.1, 8.4.2: the landing hexes other than `h` where units of `u`'s group (the reinforcements of its GT
    that may land anywhere) have come ashore, whatever GT they were delayed to (8.0; ruling E15). Under rules
    version 3 and before (ruling E13), only those landed in this Reinforcement Phase and still on the map."""
    group = [x for x in state.units.values() if x.arrival_turn == u.arrival_turn and x.arrival_landing == "any"]
    if state.since(4):
        return {x.landed_at for x in group if x.landed_at} - {h}
    return {x.hex for x in group if x.status == "map" and x.placed_by} - {h}


def check_landing(state: State, ids: list[str], h: str, support: list[str]) -> None:
    """SNC 8.4, 8.4.1, 8.4.2, 13.0, 10.0: which reinforcements may land where, with which markers, against whom.
    The order and its preview both ask here."""
    units = _units(state, "japanese", ids, "SNC 8.4")
    for u in units:
        if h not in landing_hexes(state.data, u):
            case = "SNC 8.4.1" if u.army else ("SNC 8.4.2" if u.arrival_landing else "SNC 13.0")
            raise IllegalOrder(case, f"{u.id} may land at {', '.join(landing_hexes(state.data, u))}, not {h}")
        if u.arrival_landing == "any":
            elsewhere = _landed_elsewhere(state, u, h)
            if elsewhere:
                raise IllegalOrder("SNC 8.4.1" if u.army else "SNC 8.4.2",
                                   f"these reinforcements land at one location ({', '.join(sorted(elsewhere))})")
    again = [u for u in state.at(h) if u.id in state.defended] if state.since(15) else []
    if again:  # ruling E32: survivors of a landing retreated (8.4 2) into this landing hex
        raise IllegalOrder("SNC 10.0", f"{', '.join(u.id for u in again)} in {h} defended against a landing this "
                                       "phase: defending units are not attacked more than once per phase (land "
                                       "elsewhere, or delay the landing, 8.0)")
    if support.count("amphibious") > 1:
        raise IllegalOrder("SNC 8.4", "one amphibious invasion support marker per landing")
    if support and not any(u.side == "chinese" for u in state.at(h)):
        raise IllegalOrder("SNC 8.4", f"there is no Chinese unit in {h} to assault")
