"""Operation Causeway: Formosa 1944 state: where every counter is, each side's LP, air and naval points and
invasion markers, the turn and step, the set-up still owed, and the combat under way; with the queries the
rules ask of a position (who is in a hex, zones of control, stacking). Hexes are XXYY strings.

A ground unit is `where`: a hex label on the map, or a display of displays.toml ("allied-staging", "amoy",
"allied-reinforcements", "japanese-replacements", "allied-eliminated" ...), or "out" (not in this game: banned
(24.2), set aside after set-up (3.0, 8.2), an optional rule not chosen (25.0), a deception unit revealed (11.1)).
Air and naval points are counted, not tracked as counters (2.5: "points, not counters").
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from app.rules.engine.state import SequencedState
from app.rules.formosa import supply
from app.rules.kernel.hexgrid import Hex
from app.rules.kernel.paths import TraceSituation
from app.rules.kernel.pieces import Piece
from app.rules.kernel.stacking import overstacked
from app.rules.kernel.zoc import zoc_of_side

SIDES = ("allied", "japanese")
OUT = "out"
H = Hex.parse


def other(side: str) -> str:
    return "japanese" if side == "allied" else "allied"


@dataclass(frozen=True)
class Unit:
    """A ground counter. `concealed`: a Japanese unit on its question-mark side (11.1); `base`: an Allied
    engineer on its base side (20.0); `moved`/`attacked`: this phase; `pinned`: landed, dropped or transferred
    this turn, so it may not move in the Allied Movement Phase (10.2.1, 10.2.2, 10.3, 21.0)."""

    id: str
    side: str
    where: str
    concealed: bool = False
    base: bool = False
    moved: bool = False
    attacked: bool = False
    pinned: bool = False


@dataclass(frozen=True)
class Combat:
    """The combat under way while its results wait for the players' choices (15.5-15.8): who attacked which
    hexes with which units, the result code, the hexes it cleared, and how far the survivors may advance."""

    attacker: str
    hexes: tuple[str, ...]
    attackers: tuple[str, ...]
    defenders: tuple[str, ...]
    code: str
    counterattack: bool = False
    assault: bool = False               # an opposed landing (10.2.2): the survivors must advance
    advance: int = 0                    # hexes the attacker's survivors may advance (15.8)
    cleared: tuple[str, ...] = ()       # defending hexes left empty: where an advance may go
    offered: bool = False               # the advance has been offered (15.8)
    advanced: tuple[str, ...] = ()      # units that have advanced


@dataclass(frozen=True, kw_only=True)
class State(SequencedState):
    scenario: int
    turn: int
    step: str
    units: dict[str, Unit]
    lp: dict[str, int] = field(default_factory=lambda: {"allied": 0, "japanese": 0})
    air: dict[str, int] = field(default_factory=dict)        # "allied-tac", "japanese-tac", "kamikaze", ...
    naval: dict[str, int] = field(default_factory=dict)      # "gunfire" in the Staging Area (17.0)
    markers: dict[str, int] = field(default_factory=dict)    # "amphibious", "drop-zone" ready to place (10.0)
    amoy_turn: int | None = None                               # the GT Amoy was captured (9.1)
    setup_rolled: bool = False                                 # the Japanese set-up roll is made (24.1)
    to_place: tuple[str, ...] = ()                             # Japanese units still to set up on Formosa
    chosen: dict[str, tuple[str, ...]] = field(default_factory=dict)  # set-up group key -> units chosen
    recon: int = 0                                             # stacks the Allied player may still reveal
    used_hexes: tuple[str, ...] = ()                           # invasion marker hexes this phase (10.1)
    attacked_hexes: tuple[str, ...] = ()                       # defending hexes attacked this phase (15.0)
    combat: Combat | None = None
    vp_adjust: dict[str, int] = field(default_factory=dict)
    # the optional rules (25.0; optional.py)
    special_ready: tuple[str, ...] = ()     # 25.7, 25.8: recruited at set-up, waiting in the Reinforcements Display
    replaced_now: tuple[str, ...] = ()      # 25.4: units replaced (not recruited) this Recruit Phase
    airlifted: tuple[str, ...] = ()         # 25.3: units flown in this Allied Movement Phase (one MP spent)
    airlift_turn: int = 0                   # 25.3: the GT the air supply marker last flew a unit
    pw_camp_lost: str = ""                  # 25.10: the hex where ground combat eliminated the PW Camp

    # -- who acts ------------------------------------------------------------------------------------------
    @property
    def side(self) -> str | None:
        step = self.step
        if "japanese" in step:
            return "japanese"
        if step == "over":
            return None
        return "allied"

    # -- where things are ----------------------------------------------------------------------------------
    def unit(self, uid: str) -> Unit | None:
        return self.units.get(uid)

    def spec(self, uid: str):
        return self.data.unit(uid)

    def on_map(self, side: str | None = None) -> list[Unit]:
        return sorted((u for u in self.units.values() if is_hex(u.where) and (side is None or u.side == side)),
                      key=lambda u: u.id)

    def at(self, hex_label: str, side: str | None = None) -> list[Unit]:
        return [u for u in self.on_map(side) if u.where == hex_label]

    def in_display(self, display: str) -> list[Unit]:
        return sorted((u for u in self.units.values() if u.where == display), key=lambda u: u.id)

    def occupied(self, side: str) -> frozenset[str]:
        return frozenset(u.where for u in self.on_map(side))

    def is_static(self, u: Unit) -> bool:
        """An Allied engineer on its base side is static (2.4); so are the static types."""
        return u.base or self.spec(u.id).static

    def cf(self, u: Unit) -> int:
        """The printed combat factor of the side showing: an Allied engineer's base side has its own (20.0)."""
        spec = self.spec(u.id)
        return spec.base_cf if u.base and spec.base_cf is not None else spec.cf

    def piece(self, u: Unit) -> Piece:
        spec = self.spec(u.id)
        tags = {spec.type}
        tags.add("static" if self.is_static(u) else "mobile")
        return Piece(u.id, u.side, kind=spec.type, category="ground", nationality=spec.nationality,
                     move_class=spec.mobility, tags=frozenset(tags))

    def positions(self) -> dict[Hex, list[Piece]]:
        out: dict[Hex, list[Piece]] = {}
        for u in self.on_map():
            out.setdefault(H(u.where), []).append(self.piece(u))
        return out

    def zoc_of(self, side: str) -> frozenset[str]:
        """Hexes in the ZOC of `side`'s ground units (14.0; guerrillas exert none, F1); concealed and deception
        units exert one until revealed (11.1, 14.0)."""
        key = ("zoc", side)
        cache = _memo(self)
        if key not in cache:
            cache[key] = frozenset(str(h) for h in zoc_of_side(self.data.map, self.positions(), side,
                                                                self.data.zoc))
        return cache[key]

    def overstacked(self, side: str) -> list[str]:
        """Hexes where `side` breaks its ground stacking limits (13.1, 13.2), by label."""
        out = []
        for h in sorted(self.occupied(side)):
            pieces = [self.piece(u) for u in self.at(h, side)]
            if overstacked(pieces, self.data.stacking, H(h)):
                out.append(h)
        return out

    # -- supply (19.0-19.3) -----------------------------------------------------------------------------------
    def functional_ports(self) -> list[str]:
        """Ports with an Allied engineer base (20.0)."""
        ports = self.data.ports()
        return sorted(u.where for u in self.on_map("allied") if u.base and H(u.where) in ports)

    def supply_line(self, u: Unit):
        """`u`'s line of supply (19.1-19.3; supply.py), or None. Guerrillas need none (23.0) and static units are
        sources, never tracing (F37): both count as supplied."""
        spec = self.spec(u.id)
        if spec.type == "guerrilla" or (u.side == "japanese" and self.is_static(u)):
            return True
        enemy = other(u.side)
        sit = TraceSituation(enemy_occupied=frozenset(H(h) for h in self.occupied(enemy)),
                             ezoc=frozenset(H(h) for h in self.zoc_of(enemy)))
        if u.side == "allied":
            hqs = [supply.Hq(H(x.where), self.spec(x.id).nationality, self.spec(x.id).mf)
                   for x in self.on_map("allied") if self.spec(x.id).type == "hq"]
            return supply.allied_line(self.data, H(u.where), spec.mobility, spec.mf, spec.nationality,
                                      ports=[H(p) for p in self.functional_ports()], hqs=hqs, sit=sit)
        statics = [H(x.where) for x in self.on_map("japanese") if self.is_static(x)]
        return supply.japanese_line(self.data, H(u.where), spec.mobility, spec.mf, statics=statics, sit=sit)

    def with_units(self, *units: Unit) -> State:
        table = dict(self.units)
        for u in units:
            table[u.id] = u
        return replace(self, units=table)

    def move(self, uid: str, where: str, **changes) -> State:
        return self.with_units(replace(self.units[uid], where=where, **changes))


def is_hex(where: str) -> bool:
    """A place on the map (XXYY), not a display."""
    return len(where) == 4 and where.isdigit()


def _memo(state: State) -> dict:
    """A position never changes (events make new states), so what is computed from it is kept with it."""
    cache = state.__dict__.get("_cache")
    if cache is None:
        cache = {}
        object.__setattr__(state, "_cache", cache)
    return cache
