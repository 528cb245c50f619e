"""Helpers every SNC module shares: 6.3's marking of what the attacker has seen, EZOC and adjacency."""
from __future__ import annotations

from dataclasses import replace

from app.rules.engine.decision import Decision
from app.rules.kernel.hexgrid import Hex
from app.rules.kernel.zoc import enemy_zoc
from app.rules.snc import events as ev
from app.rules.snc.data_load import GameData
from app.rules.snc.state import State

H = Hex.parse


def mark_revealed(state: State, e):
    """SNC 6.3: the attacker sees beneath the defending stack once he resolves the attack; a defender's loss or
    retreat in an open battle is marked as seen by the attacker (the fog-of-war filter, fog.py, reads it). Every
    step loss and retreat is emitted through here (combat.py), from the state it meets."""
    b = state.battle
    if b is None or not isinstance(e, ev.StepsLost | ev.UnitsRetreated) or not e.units:
        return e
    if isinstance(e, ev.StepsLost) and e.reason == "combat" and e.side == b["side"]:
        return e
    if any(state.units[u].side == b["side"] or state.units[u].hex != b["hex"] for u in e.units):
        return e
    return replace(e, revealed=True)


def ezoc(state: State, side: str) -> frozenset[str]:
    """SNC 7.0-7.2: hexes in the zone of control of `side`'s enemies."""
    d = state.data
    return state.memo(("ezoc", side),
                      lambda: frozenset(str(h) for h in enemy_zoc(d.map, state.positions(), side, d.zoc)))


def neighbours(d: GameData, hex_label: str) -> tuple[str, ...]:
    return d.map.neighbour_labels(hex_label)


def adjacent_to_enemy(state: State, side: str, hex_label: str) -> bool:
    enemy = state.occupied("japanese" if side == "chinese" else "chinese")
    return any(n in enemy for n in neighbours(state.data, hex_label))


def place_garrisons(em: Decision, hexes) -> None:
    """SNC 9.1: each time the Japanese occupy or reoccupy a city hex, a Japanese garrison is placed there: one never
    used first, then (rules version 14, ruling R39) one eliminated before: 8.3's bar on returning does not name it."""
    d = em.state.data
    for h in hexes:
        if "city" not in d.map.features_of(H(h)):
            continue
        if any(u.static and u.side == "japanese" for u in em.state.at(h)):
            continue
        free = sorted(u.id for u in em.state.units.values()
                      if u.side == "japanese" and u.placement == "city" and u.status == "pool")
        if not free and em.state.since(14):  # ruling R39: an eliminated garrison is placed again
            free = sorted(u.id for u in em.state.units.values()
                          if u.side == "japanese" and u.static and u.status == "dead")
        if free:
            em.emit(ev.GarrisonPlaced(free[0], h))


def newly_taken(state: State, side: str, hexes) -> list[str]:
    """Hexes a Japanese move, advance or landing occupies or reoccupies (9.1 garrison placement): those no Japanese
    unit stood in before (ruling E15: a Japanese-controlled city left empty is reoccupied). Under rules version 3
    and before (ruling E13), only the hexes the Japanese did not control."""
    if side != "japanese":
        return []
    if state.since(4):
        held = state.occupied("japanese")
        return [h for h in hexes if h not in held]
    return [h for h in hexes if h not in state.jp_control]


def last_turn(d: GameData) -> int:
    return int(d.params["game"]["last_turn"])


def named_twice(ids: list[str]) -> list[str]:
    """The units an order names more than once (rulings E18, E19: a choice of units names each once)."""
    return sorted({uid for uid in ids if ids.count(uid) > 1})
