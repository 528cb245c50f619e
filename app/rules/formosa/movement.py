"""Land movement (12.0-12.4, 14.1): a unit's allowance (its concealed movement factor while concealed, 11.1),
the position it moves through (enemy units, enemy ZOC), and the path checked by the kernel's movement rules
with the two classes of terrain.toml (mechanized and non-mechanized; static units never move)."""
from __future__ import annotations

from app.rules.engine.decision import Decision
from app.rules.formosa import optional
from app.rules.formosa.events import UnitMoved
from app.rules.formosa.state import State, Unit, is_hex, other
from app.rules.kernel.errors import RuleViolation
from app.rules.kernel.hexgrid import Hex
from app.rules.kernel.movement import Mover, Situation, reach, step_cost, validate_path

H = Hex.parse


def allowance(state: State, u: Unit) -> int:
    """The printed movement factor, or the concealed one while concealed (11.1), less an MP spent flying in
    (25.3)."""
    spec = state.spec(u.id)
    return (spec.concealed_mf if u.concealed and spec.concealed_mf is not None else spec.mf) - optional.spent_mp(
        state, u)


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
    return None


def situation(state: State, u: Unit) -> Situation:
    """Enemy-occupied hexes and enemy ZOC as the mover meets them; guerrillas ignore enemy ZOC (23.0, F1)."""
    enemy = other(u.side)
    ezoc = frozenset() if state.spec(u.id).type == "guerrilla" else frozenset(H(h) for h in state.zoc_of(enemy))
    return Situation(enemy_occupied=frozenset(H(h) for h in state.occupied(enemy)), ezoc=ezoc,
                     friendly_occupied=frozenset(H(h) for h in state.occupied(u.side)))


def mover(state: State, u: Unit) -> Mover:
    return Mover.single(H(u.where), allowance(state, u), state.spec(u.id).mobility)


def move(d: Decision, uid: str, hexes: list[str]) -> None:
    """12.0: move one unit along a path of adjacent hexes (its start left out)."""
    state: State = d.state
    u = state.unit(uid)
    if u is None or u.side != d.side or not is_hex(u.where):
        d.refuse("Formosa 12.0", f"{uid} is not a {d.side} unit on the map")
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
    try:
        spent = validate_path(state.data.map, state.data.movement, mover(state, u), path, situation(state, u))
    except RuleViolation as exc:
        d.refuse(exc.case, exc.message)
    d.emit(UnitMoved(uid, [str(h) for h in path], spent))


def reachable(state: State, u: Unit) -> list[str]:
    """Every hex `u` may end its move in, nearest first by cost."""
    r = reach(state.data.map, state.data.movement, mover(state, u), situation(state, u))
    return [str(h) for h in sorted(r.hexes(), key=lambda h: (r.cost[h], str(h)))]


def path_to(state: State, u: Unit, target: str) -> list[str]:
    r = reach(state.data.map, state.data.movement, mover(state, u), situation(state, u))
    return [str(h) for h in r.path_to(H(target))[1:]]


def enterable(state: State, u: Unit, a: str, b: str) -> bool:
    """Whether `u` could enter `b` from `a` by terrain (12.3 Important: retreat and advance keep the
    prohibitions; a road along the hexside lets a mechanized unit in)."""
    try:
        step_cost(state.data.map, state.data.movement, Mover.single(H(a), 99, state.spec(u.id).mobility),
                  H(a), H(b))
    except RuleViolation:
        return False
    return state.data.is_land(H(b))
