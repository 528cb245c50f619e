"""Land movement (12.0-12.4, 14.1): a unit's allowance (its concealed movement factor while concealed, 11.1),
the position it moves through (enemy units, enemy ZOC), and the path checked by the kernel's movement rules
with the two classes of terrain.toml (mechanized and non-mechanized; static units never move). Rangers and the
Takasago unit infiltrate (22.0, 25.9, F60); Allied motorized movement doubles the allowance along roads and
railroads only (22.0)."""
from __future__ import annotations

from app.rules.engine.decision import Decision
from app.rules.formosa import airpower, optional
from app.rules.formosa.data_load import side_unit
from app.rules.formosa.events import LpSpent, UnitMoved, UnitRevealed, UnitsMotorized
from app.rules.formosa.state import State, Unit, is_hex, other
from app.rules.kernel.errors import RuleViolation
from app.rules.kernel.hexgrid import Hex
from app.rules.kernel.movement import Mover, Situation, reach, step_cost, validate_path

H = Hex.parse


INFILTRATORS = ("ranger",)       # 22.0 Rangers: infiltration
INFILTRATING_UNITS = ("jp-takasago",)  # 25.9 Takasago Special Force


def allowance(state: State, u: Unit) -> int:
    """The printed movement factor, or the concealed one while concealed (11.1); doubled when moving by
    motorized movement (22.0); less an MP spent flying in (25.3)."""
    spec = state.spec(u.id)
    mf = spec.concealed_mf if u.concealed and spec.concealed_mf is not None else spec.mf
    return (mf * 2 if u.motorized else mf) - optional.spent_mp(state, u)


def infiltrates(state: State, u: Unit) -> bool:
    """22.0, 25.9: the unit ignores the first EZOC it enters in movement or retreat (ruling F60)."""
    return state.spec(u.id).type in INFILTRATORS or u.id in INFILTRATING_UNITS


def cannot_move(state: State, u: Unit) -> str | None:
    """Why `u` may not move this phase (the case first), or None."""
    spec = state.spec(u.id)
    if state.is_static(u):
        return "Formosa 2.4, 11.1: static units never move"
    if spec.immobile:
        return "Formosa 11.1: the D/O deception units never move"
    if u.moved:
        return "Formosa 12.2: each unit moves once a Movement Phase"
    if u.pinned:
        return "Formosa 10.2.1, 10.3, 21.0: a unit that landed, dropped or was transferred this turn does not move"
    if u.where in state.strike.suppressed:
        return "Formosa 16.5: units in a hex the B-29 suppressed do not move this GT"
    return None


def situation(state: State, u: Unit) -> Situation:
    """Enemy-occupied hexes and enemy ZOC as the mover meets them; guerrillas ignore enemy ZOC (23.0, F1); a
    Japanese unit pays the interdiction surcharge (16.4) and enters no hex the B-29 suppressed (16.5 DS)."""
    enemy = other(u.side)
    ezoc = frozenset() if state.spec(u.id).type == "guerrilla" else frozenset(H(h) for h in state.zoc_of(enemy))
    japanese = u.side == "japanese"
    return Situation(enemy_occupied=frozenset(H(h) for h in state.occupied(enemy)), ezoc=ezoc,
                     friendly_occupied=frozenset(H(h) for h in state.occupied(u.side)),
                     forbidden=airpower.forbidden(state) if japanese else {},
                     surcharge=airpower.surcharge(state) if japanese else {})


def mover(state: State, u: Unit) -> Mover:
    return Mover.single(H(u.where), allowance(state, u), state.spec(u.id).mobility,
                        ignore_first_ezoc=infiltrates(state, u), route_only=u.motorized)


def move(d: Decision, uid: str, hexes: list[str]) -> None:
    """12.0: move one unit along a path of adjacent hexes (its start left out)."""
    state: State = d.state
    u = state.unit(uid)
    if u is None or u.side != d.side or not is_hex(u.where):
        d.refuse("Formosa 12.0", f"{uid} is not {side_unit(d.side)} on the map")
    why = cannot_move(state, u)
    if why:
        case, _, text = why.partition(": ")
        d.refuse(case, f"{uid}: {text}")
    path = [H(u.where)]
    for label in hexes:
        h = H(label)
        if not state.data.map.on_map(h):
            d.refuse("Formosa 12.0", f"{label} is not on the map")
        if h not in state.data.map.neighbours(path[-1]):
            d.refuse("Formosa 12.0", f"{label} is not next to {path[-1]}")
        path.append(h)
    interdicted = airpower.interdicted(state)
    seen = next((i for i, h in enumerate(path[1:], 1) if str(h) in interdicted), None) if u.concealed else None
    try:
        spent = validate_path(state.data.map, state.data.movement, mover(state, u), path, situation(state, u))
        if seen is not None and seen < len(path) - 1:  # revealed on the way: its printed allowance (F71)
            printed = Mover.single(H(u.where), state.spec(uid).mf, state.spec(uid).mobility)
            validate_path(state.data.map, state.data.movement, printed, path, situation(state, u))
    except RuleViolation as exc:
        d.refuse(exc.case, exc.message)
    d.emit(UnitMoved(uid, [str(h) for h in path], spent))
    if seen is not None:  # 16.4 item 1: revealed on entering an interdicted hex
        d.emit(UnitRevealed(uid, str(path[seen]), "Formosa 16.4 item 1",
                            deception=state.spec(uid).type == "deception"))


def _reach(state: State, u: Unit):
    """`u`'s reach from where it stands (once per position: the list of legal orders lists its destinations, then
    tries a move to each)."""
    return state.memo(("reach", u.id), lambda: reach(state.data.map, state.data.movement, mover(state, u),
                                                     situation(state, u)))


def reachable(state: State, u: Unit) -> list[str]:
    """Every hex `u` may end its move in, nearest first by cost."""
    r = _reach(state, u)
    return [str(h) for h in sorted(r.hexes(), key=lambda h: (r.cost[h], str(h)))]


def cost_to(state: State, u: Unit, target: str) -> float:
    """The MP `u`'s cheapest move to `target` spends (its whole allowance for a minimum move, 12.3)."""
    return _reach(state, u).cost[H(target)]


def path_to(state: State, u: Unit, target: str) -> list[str]:
    r = _reach(state, u)
    return [str(h) for h in r.path_to(H(target))[1:]]


def enterable(state: State, u: Unit, a: str, b: str) -> bool:
    """Whether `u` could enter `b` from `a` by terrain (12.3 Important: retreat and advance keep the
    prohibitions; a road along the hexside lets a mechanized unit in), and, Japanese, `b` is no hex the B-29
    suppressed (16.5 DS item 4, ruling F88)."""
    try:
        step_cost(state.data.map, state.data.movement, Mover.single(H(a), 99, state.spec(u.id).mobility),
                  H(a), H(b))
    except RuleViolation:
        return False
    return state.data.is_land(H(b)) and not (u.side == "japanese" and b in state.strike.suppressed)


def closed_to(state: State, uid: str, hex: str) -> bool:
    """12.2, 12.3 Important, 8.1: `hex`'s terrain admits `uid` only along a road or railroad (mechanized units in
    mountain and peak) and none runs through the hex, so no unit of its class is ever placed there (ruling
    F115)."""
    h = H(hex)
    gmap = state.data.map
    table = state.data.movement.costs.get(state.spec(uid).mobility)  # static units: none, 8.1 places them
    closed = table.road_only_terrain if table else frozenset()
    return gmap.terrain_of(h) in closed and not (gmap.is_road_hex(h) or gmap.is_rail_hex(h))


# where a static unit is ever placed (8.1 Japanese and Allied deployment, ruling F33; 25.10): (features, case, what)
STATIC_PLACES = {("japanese", "coastal-defense"): ({"major-port", "minor-port"}, "Formosa 8.1", "port hexes"),
                 ("japanese", "heavy-weapons"): ({"city", "town"}, "Formosa 8.1", "city or town hexes"),
                 ("japanese", "pw-camp"): ({"town"}, "Formosa 25.10", "a town hex that is not a city"),
                 ("allied", "heavy-weapons"): ({"major-port", "minor-port"}, "Formosa 8.1",
                                               "port hexes (deployed on a functional port)")}


def static_refusal(state: State, uid: str, hex: str) -> tuple[str, str] | None:
    """(case, message) when static unit `uid` could never stand in `hex`: static units never move (2.4, 11.1),
    so one is only ever where 8.1 deploys it (coastal defense in a port, heavy weapons in a city or town, the PW
    Camp in a town that is not a city: 25.10). An Allied one (a US heavy weapons group) is deployed on the map only
    on a functional port (8.1 item 2 c), where the engineer base is already the one static unit 13.1 allows: from
    rules version 23 (ruling F172) it stands on no hex; a game created under 1-22 allowed any port (F118)."""
    spec = state.spec(uid)
    place = STATIC_PLACES.get((spec.side, spec.type))
    if place is None:
        return None
    if spec.side == "allied" and state.since(23):  # ruling F172: no rule brings one onto the map
        return "Formosa 13.1", (f"{uid} ({spec.type}) is static: no rule brings it onto Formosa (8.1 item 2 c "
                                f"deploys it only on a functional port, whose engineer base is the one static unit "
                                f"13.1 allows; 10.2 and 21.0 carry mobile units only), so never into {hex}")
    wanted, case, what = place
    feats = state.data.map.features_of(H(hex))
    if feats & wanted and not (spec.type == "pw-camp" and "city" in feats):
        return None
    return case, f"{uid} ({spec.type}) is static: it stands only in {what}, never in {hex}"


def motorize(d: Decision, hex: str) -> None:
    """22.0 Allied Motorized Movement: the Allied units that begin the Movement Phase in a road or railroad hex
    and trace a line of supply (19.5 item 1) double their movement factor for 1 LP for the hex, and then move
    only along roads and railroads (ruling F83)."""
    state: State = d.state
    case = "Formosa 22.0"
    if not is_hex(hex) or not state.data.map.on_map(H(hex)):
        d.refuse(case, f"{hex} is not a hex of the map")
    gmap = state.data.map
    if not (gmap.is_road_hex(H(hex)) or gmap.is_rail_hex(H(hex))):
        d.refuse(case, f"{hex} is neither a road nor a railroad hex")
    here = [u for u in state.at(hex, "allied") if not cannot_move(state, u) and not u.motorized]
    if not here:
        d.refuse(case, f"no Allied unit in {hex} may still move this phase")
    units = [u.id for u in here if state.supply_line(u)]
    if not units:
        d.refuse("Formosa 19.5", f"no unit in {hex} can trace a line of supply: none may move motorized")
    if state.lp["allied"] < 1:
        d.refuse(case, "motorized movement costs 1 LP; the Allies have none")
    d.emit(LpSpent("allied", 1, f"motorized movement in {hex}"), UnitsMotorized(hex, units))
