"""Helpers every Ichi-Go module shares: airpower ranges (8.3), supply (7.x), intrinsic garrisons
(11.29), the victory-condition queries (4.x, 5.2) and the die tables of the scenario file."""
from __future__ import annotations

from app.rules.ichigo.data_load import H
from app.rules.ichigo.state import State, Unit, other
from app.rules.kernel.memo import Kept
from app.rules.kernel.paths import TraceSituation, linked


def air_range(state: State, side: str) -> frozenset[str]:
    """Ichi-Go 8.3: each marker's hex and its six neighbours, for the side holding the markers."""
    if state.air_side != side:
        return frozenset()
    d = state.data
    out = set()
    for h in state.air_hexes:
        out.add(h)
        out.update(d.neighbours(h))
    return frozenset(out)


def garrison_at(state: State, h: str) -> bool:
    """Ichi-Go 11.29: an initial Japanese city, Japanese-controlled, with no Japanese unit in it, defends with
    its intrinsic 1-factor garrison (unless destroyed and not yet liberated)."""
    d = state.data
    return (h in d.tagged("jp-city") and h in state.jp_control and h not in state.garrison_lost
            and not any(u.side == "japanese" for u in state.at(h)))


def enemy_hexes(state: State, side: str) -> frozenset[str]:
    """Hexes a `side` unit may not enter: enemy units, and for the Allies intrinsic garrisons (11.29)."""
    out = set(state.occupied(other(side)))
    if side == "allied":
        out |= {h for h in state.data.tagged("jp-city") if garrison_at(state, h)}
    return frozenset(out)


def japanese_sources(state: State) -> frozenset[str]:
    """Ichi-Go 7.1, rulings R1, R29: friendly north-edge hexes, 0925 and Kaifeng while Japanese-controlled."""
    d = state.data
    allied = state.occupied("allied")
    srcs = (d.north_edge() | d.tagged("supply-source")) & state.jp_control
    return frozenset(h for h in srcs if h not in allied)


def japanese_supplied(state: State, h: str) -> bool:
    """Ichi-Go 7.1: a path of any length to a source, never across all-lake/all-sea hexsides, into an enemy
    city or an enemy-occupied hex; or inside a never-lost initial Japanese city. Traced once per position."""
    return state.memo(("japanese-supplied", h), lambda: _japanese_supplied(state, h))


def _japanese_supplied(state: State, h: str) -> bool:
    d = state.data
    if h in d.tagged("jp-city") and h not in state.ever_allied and h in state.jp_control:
        return True
    return H(h) in state.memo(("japanese supply links",), lambda: _japanese_links(state))


def _japanese_links(state: State) -> frozenset:
    """Every hex a Japanese supply path leaves from (7.1): one search back from the sources (`linked`, which
    finds a path exactly where `trace` would), by all it reads of the position: the Allied hexes, the cities the
    Allies control and the sources."""
    d = state.data
    key = (state.occupied("allied"), frozenset(x for x in d.feature("city") if x not in state.jp_control),
           japanese_sources(state))
    return _links(d, ("japanese", *key), lambda: TraceSituation(
        enemy_occupied=frozenset(H(x) for x in key[0]), enemy_controlled=frozenset(H(x) for x in key[1])),
        key[2])


_LINKS = Kept(64)
"""The hexes in supply by everything the search reads of the position: a move changes few of them, so the positions
of a movement phase mostly find the answer of the one before (the list of legal orders asks every stack's supply
at each)."""


def _links(d, key: tuple, situation, sources) -> frozenset:
    return _LINKS.answer(d, key, lambda: linked(d.map, [H(x) for x in sources], d.supply, situation()))


def us_supplied(state: State, h: str) -> bool:
    """Ichi-Go 7.5-7.8: a path to a beachhead, a coastal hex, or the Aerial Supply Marker's hex."""
    if h in state.data.tagged("coastal") or h == state.aerial_hex:
        return True
    return us_beachhead_supplied(state, h)


def us_beachhead_supplied(state: State, h: str) -> bool:
    """Ichi-Go 7.5: a path to a beachhead (the only US supply that allows momentum attacks, 11.25). Traced once
    per position."""
    return state.memo(("beachhead-supplied", h), lambda: _us_beachhead_supplied(state, h))


def _us_beachhead_supplied(state: State, h: str) -> bool:
    beaches = [x for x in beachheads(state).values() if x]
    if not beaches:
        return False
    return H(h) in state.memo(("beachhead supply links",), lambda: _beachhead_links(state, beaches))


def _beachhead_links(state: State, beaches: list[str]) -> frozenset:
    """Every hex a path to a beachhead leaves from (7.5), as `_japanese_links` finds the Japanese ones."""
    d = state.data
    key = (state.occupied("japanese"), frozenset(x for x in d.feature("city") if x in state.jp_control),
           frozenset(beaches))
    return _links(d, ("us", *key), lambda: TraceSituation(
        enemy_occupied=frozenset(H(x) for x in key[0]), enemy_controlled=frozenset(H(x) for x in key[1])),
        sorted(key[2]))


def beachheads(state: State) -> dict:
    """Ichi-Go 5.3 items 4 and 12: where the US beachhead markers lie ("formosa", "mainland")."""
    return dict(state.beachheads)


def supply_state(state: State, u: Unit) -> str:
    """'full', 'attenuated' or 'oos' (7.2-7.4, 7.6, 8.9); Chinese are always in supply (7.0)."""
    if u.nation == "chinese":
        return "full"
    if u.nation == "us":
        return "full" if us_supplied(state, u.hex) else "oos"
    d = state.data
    if u.id in state.b29_units or (
            state.b29_hex and d.distance(state.b29_hex, u.hex) <= int(d.scenario["causeway"]["b29_range"])):
        return "oos"  # 8.9: started or moved within range this turn, even if it has left it
    if not japanese_supplied(state, u.hex):
        return "oos"
    if state.turn >= int(state.data.scenario["turn_start"]["attenuated_supply_from_turn"]):
        return "attenuated"
    return "full"


def frozen(state: State, h: str) -> bool:
    """Ichi-Go 5.4: the 38th Army force neither moves, attacks nor is attacked on the scenario's frozen turn."""
    d = state.data
    return state.turn == int(d.scenario["turn_start"]["frozen_turn"]) and h in d.tagged("no-attack-turn-1")


def all_airbases_japanese(state: State) -> bool:
    return all(h in state.jp_control for h in state.data.feature("airbase"))


def allied_airbases(state: State) -> int:
    return sum(1 for h in state.data.feature("airbase") if h not in state.jp_control)


def all_gearr_japanese(state: State) -> bool:
    return all(h in state.jp_control for h in state.data.gearr)


def japanese_near(state: State, target: str, n: int) -> bool:
    """Ichi-Go 4.2, 5.2 (ruling R8): a Japanese unit within n hexes of target, or target Japanese."""
    d = state.data
    return target in state.jp_control or any(d.distance(target, u.hex) <= n for u in state.on_map("japanese"))


def east_of_gearr(d, h: str) -> bool:
    """Ruling R28: east of the GEARR means a column beyond the easternmost GEARR hex of that row (`d`: the game
    data)."""
    row = int(h[2:])
    cols = [int(g[:2]) for g in d.gearr if int(g[2:]) == row]
    return bool(cols) and int(h[:2]) > max(cols)


def no_chinese_east_of_gearr(state: State) -> bool:
    return not any(u.nation == "chinese" and east_of_gearr(state.data, u.hex) for u in state.on_map("allied"))


def mainland(d, h: str) -> bool:
    """The hex is not on Formosa (`d`: the game data)."""
    return h not in d.tagged("formosa")


def die_table(table: dict, roll: int) -> int:
    return int(table[str(roll)])
