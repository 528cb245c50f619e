"""Formosa's lines of supply (19.0-19.5) on the kernel's trace (`kernel.paths.trace`), as pure functions over
`GameData` and plain positions (a kernel `TraceSituation`: enemy-occupied hexes and the EZOC of the side
tracing).

A line is counted in hexes up to the unit's printed movement factor (19.1; a concealed unit's revealed one,
ruling F23), never into all-sea hexes or across all-sea hexsides, enemy-occupied hexes or EZOC, a supply
source in an EZOC serving only its own hex (14.3, 19.0), and for mechanized units into mountain and peak only
along a road or railroad (19.0 item 4; `GameData.supply` by class). Allied units trace to a functional port
or through an HQ of their nationality whose own line reaches a port, unlimited along roads and railroads
(19.2, 5.1); Japanese mobile units to a static unit (19.3). Guerrillas and static units never trace (19.3,
23.0; F37): the engine does not ask.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from app.rules.errors import IllegalOrder
from app.rules.formosa.data_load import GameData
from app.rules.kernel.hexgrid import Hex
from app.rules.kernel.paths import TraceRules, TraceSituation, trace

C = "Formosa "


def rules_for(game: GameData, move_class: str, length: int, *, road_unlimited: bool = False) -> TraceRules:
    """The trace rules of a unit of ``move_class`` ("mechanized", "non-mechanized") whose line may be
    ``length`` hexes (19.1), with the unlimited road leg of an HQ's line to its port (19.2)."""
    return replace(game.supply[move_class], max_length=length, road_unlimited=road_unlimited)


@dataclass(frozen=True)
class Hq:
    """An Allied HQ on the map as a supply conduit (19.2): its hex, nationality (5.1 item 4), printed movement
    factor and movement class."""

    hex: Hex
    nationality: str
    mf: int
    move_class: str = "mechanized"


@dataclass(frozen=True)
class Line:
    """A line of supply found: the hexes from the unit to its source (start first), the source, and the HQ it
    passes through (19.2) if any."""

    path: tuple[Hex, ...]
    source: Hex
    hq: Hex | None = None


def hq_line(game: GameData, hq: Hq, ports: Iterable[Hex], sit: TraceSituation) -> Line | None:
    """An HQ's own line to a functional port: its movement factor in hexes, then any length along contiguous
    roads and railroads (19.2)."""
    path = trace(game.map, hq.hex, ports, rules_for(game, hq.move_class, hq.mf, road_unlimited=True), sit)
    return Line(tuple(path), path[-1]) if path else None


def allied_line(game: GameData, start: Hex, move_class: str, mf: int, nationality: str, *, ports: Iterable[Hex],
                hqs: Iterable[Hq], sit: TraceSituation, markers: Iterable[Hex] = ()) -> Line | None:
    """An Allied unit's line (19.2): straight to an Allied-controlled functional port within ``mf`` hexes, or
    within ``mf`` hexes to an HQ of its own nationality (5.1 item 4; any port serves both, item 5) whose line
    reaches a port. ``markers``: hexes of amphibious markers, a source for their own hex during the Invasion
    Phase (19.2). The shortest such line, direct lines first."""
    ports = frozenset(ports)
    if start in frozenset(markers):
        return Line((start,), start)
    unit_rules = rules_for(game, move_class, mf)
    direct = trace(game.map, start, ports, unit_rules, sit)
    if direct:
        return Line(tuple(direct), direct[-1])
    best: Line | None = None
    for hq in hqs:
        if hq.nationality != nationality:
            continue
        leg = trace(game.map, start, {hq.hex}, unit_rules, sit)
        if not leg:
            continue
        onward = hq_line(game, hq, ports, sit)
        if onward is None:
            continue
        line = Line(tuple(leg) + onward.path[1:], onward.source, hq.hex)
        if best is None or len(line.path) < len(best.path):
            best = line
    return best


def japanese_line(game: GameData, start: Hex, move_class: str, mf: int, *, statics: Iterable[Hex],
                  sit: TraceSituation) -> Line | None:
    """A Japanese mobile unit's line to the hex of a static unit (coastal defense or heavy weapons) within
    ``mf`` hexes (19.3). ``statics``: the hexes of revealed static units and of concealed ones, which the
    engine reveals when a line first uses them (19.3), so the source is returned."""
    path = trace(game.map, start, statics, rules_for(game, move_class, mf), sit)
    return Line(tuple(path), path[-1]) if path else None


def allied_sources(game: GameData, ports: Iterable[Hex], hqs: Iterable[Hq], sit: TraceSituation) -> frozenset[Hex]:
    """Where Allied supply comes from on the map: the functional ports and every HQ whose line reaches one
    (19.2). Retreats go toward these (15.7 item 4; ruling F61)."""
    ports = frozenset(ports)
    return ports | frozenset(hq.hex for hq in hqs if hq_line(game, hq, ports, sit))


def source_distance(game: GameData, sources: Iterable[Hex]) -> Callable[[Hex], float]:
    """Hexes from a hex to the nearest of ``sources`` (infinite if none): the measure of "towards a supply
    source" in a retreat (15.7 item 4; ruling F61), for `kernel.retreat.nearer`."""
    sources = tuple(sources)

    def distance(h: Hex) -> float:
        return min((game.map.distance(h, s) for s in sources), default=float("inf"))

    return distance


def check_air_supply(*, used_this_turn: bool, any_line: bool, amphibious_assault: bool) -> None:
    """19.4: the air supply unit supports one Allied combat a GT, only when no participating unit traces a line;
    never an opposed landing (10.2.2). It then gives one favourable column."""
    if used_this_turn:
        raise IllegalOrder(C + "19.4", "the air supply unit has already supported a combat this GT")
    if amphibious_assault:
        raise IllegalOrder(C + "10.2.2", "an amphibious assault cannot be supported by air supply")
    if any_line:
        raise IllegalOrder(C + "19.4", "air supply serves only units that cannot trace a line of supply")
