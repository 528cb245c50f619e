"""SNC game state (each event applies itself to it, events.py): units, hex control (3.2), the sequence position
(5.1, 5.3), fire support in use (11.1), the battle being fought and any decision the sequence waits for."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.rules.engine.state import Memo, replace
from app.rules.kernel.hexgrid import Hex
from app.rules.kernel.pieces import Piece
from app.rules.snc.data_load import GameData, load

SIDES = ("chinese", "japanese")
PHASE_NAMES = {"declare": "phase-order declaration", "ops1": "First Operations Phase",
               "reinf": "Reinforcement Phase", "ops2": "Second Operations Phase"}
RULES_VERSION = 16  # the version new games are played under; 3: issue 19 (docs/rulings/snc-engine.md E13); 4: E15;
#                     5: E16; 6: E17; 7: E18; 8: E19; 9: E20; 10: E21, E22; 11: E23;
#                     12: E24; 13: E25; 14: E26-E30, R39 (docs/rulings/snc.md); 15: E32, E33; 16: E35


def created_under(version: str | None) -> int:
    """The rules version of a game whose creation recorded `version` (core.GameCreated.rules_version): "" for a game
    created before versions were recorded (2), None for a new game (RULES_VERSION)."""
    return RULES_VERSION if version is None else int(version) if version else 2


def other(side: str) -> str:
    return SIDES[1 - SIDES.index(side)]


@dataclass(frozen=True)
class Unit:
    id: str
    side: str
    name: str
    type: str          # infantry | garrison | snlf
    size: str          # division | brigade | regiment | battalion | detachment | garrison
    elite: bool
    steps_max: int
    strength: tuple    # full[, reduced]
    formation: str = ""
    army: str = ""
    arrival_turn: int = 0
    arrival_hexes: tuple = ()
    arrival_landing: str = ""
    arrival_min_col: int = 0
    placement: str = ""
    # dynamic
    hex: str | None = None
    steps: int = 1
    status: str = "pool"   # pool | map | landing | dead | removed | returning
    return_turn: int = 0
    mp_used: float = 0.0
    done: bool = False     # SNC 9.0: its move is complete for this phase
    attacked: bool = False  # SNC 10.0: attacked this phase
    placed_by: str = ""    # SNC 8.2: listed | rail | elite, this Reinforcement Phase
    landed_at: str = ""    # SNC 8.4: the landing hex it came ashore at (8.4.1, 8.4.2: one location; ruling E15)

    @property
    def static(self) -> bool:
        return self.type == "garrison"

    @property
    def cf(self) -> int:
        """Current combat factor (2.2.1): the reduced side once a two-step unit has lost a step."""
        return self.cf_at(self.steps)

    def cf_at(self, steps: int) -> int:
        """The combat factor with ``steps`` steps left (10.5.2 compares the strengths as losses are taken)."""
        return int(self.strength[0] if steps >= self.steps_max or len(self.strength) == 1 else self.strength[1])

    @property
    def reduced(self) -> bool:
        return self.steps_max == 2 and self.steps == 1

    @property
    def on_map(self) -> bool:
        return self.status == "map" and self.hex is not None

    @property
    def stack_kind(self) -> str:
        """SNC 6.2 stacking class."""
        if self.static:
            return "garrison"
        if self.side == "chinese":
            return ("elite-" if self.elite else "") + self.size
        return self.size

    def piece(self, mf: float) -> Piece:
        formation = self.formation or ("SNLF" if self.type == "snlf" else "")
        allowance = 0.0 if self.static else max(0.0, mf - self.mp_used)
        return Piece(self.id, self.side, kind=self.stack_kind, formation=formation, move_class=self.side,
                     allowance=allowance)


@dataclass(frozen=True)
class State(Memo):
    turn: int
    side: str
    phase: str                         # declare | ops1 | reinf | ops2 | over
    units: dict[str, Unit]
    jp_control: frozenset
    plan: tuple = ()                   # SNC 5.3 (first, second): "move" | "fight"
    used: dict = field(default_factory=dict)   # side -> {marker kind: count used this window} (11.1)
    chinese_air: bool = True           # SNC 11.3
    battle: dict | None = None
    pending: tuple = ()
    attacked_hexes: tuple = ()         # SNC 10.0: each defending hex once per phase
    defended: tuple = ()               # SNC 10.0, 8.4: the units a landing has attacked this phase (ruling E32)
    overruns: dict = field(default_factory=dict)  # SNC 9.6, 10.0: hex -> the units that overran it this phase
    mover: tuple = ()                  # SNC 9.0: the stack whose move is under way
    halted: tuple = ()                 # SNC 9.6: units whose overrun left Chinese units in the hex (ruling E21)
    replacements: int = 0              # SNC 8.3: left this Reinforcement Phase
    interdicted: int = 0               # SNC 11.2: the GT whose interdiction is done
    winner: str | None = None
    reason: str = ""
    rules_version: int = RULES_VERSION  # the rules version the game is played under (ruling E13)
    # the game's data (map, units, tables) as this game was set up, on its custom map if it has one: passed in,
    # never saved (the data's options say which map it is on), never compared (data_load.load)
    data: Any = field(default=None, compare=False, repr=False)

    # -- the shared events (app/rules/engine/events.py) change the sequence through these ----------------------
    def require(self, kind: str, side: str, data: dict) -> State:
        return replace(self, pending=self.pending + ({"kind": kind, "side": side, "data": dict(data)},))

    def decided(self, kind: str, side: str) -> State:
        return replace(self, pending=self.pending[1:])

    def after_phase(self, event) -> State:
        return next_phase(self)

    def ended(self, winner: str | None, reason: str) -> State:
        return replace(self, phase="over", winner=winner, reason=reason)

    # -- queries ------------------------------------------------------------------------------------------
    def since(self, version: int) -> bool:
        """Is the game played under rules `version` or later? (Ruling E13: an older game is decided as played.)"""
        return self.rules_version >= version

    def moving(self) -> tuple:
        """SNC 9.0, 9.6: the stack whose move is under way, as it goes on: from rules version 10 (ruling E21) its units
        still on the map (an overrun may have eliminated some of them, and the others go on regardless of the losses);
        before, every unit it set out with."""
        if not self.since(10):
            return self.mover
        return tuple(u for u in self.mover if self.units[u].status == "map")

    def goes_on(self, unit_ids) -> bool:
        """SNC 9.0: do `unit_ids` name the stack whose move is under way? From rules version 10 (ruling E21) its
        units still on the map in any order (by their ids as the last move named them, or by their hex); before,
        exactly as the last move named them."""
        if not self.since(10):
            return tuple(unit_ids) == self.mover
        return bool(self.mover) and set(unit_ids) == set(self.moving())

    def at(self, hex_label: str) -> list[Unit]:
        return list(self.memo(("at",), self._by_hex).get(hex_label, ()))

    def _by_hex(self) -> dict[str, list[Unit]]:
        """The units on the map by hex, in the order of `units` (once per state: `at` is asked hundreds of times
        a position by the list of legal orders)."""
        out: dict[str, list[Unit]] = {}
        for u in self.memo(("on_map",), self._on_map)[None]:  # on_map's one pass: the same units, in that order
            out.setdefault(u.hex, []).append(u)
        return out

    def on_map(self, side: str | None = None) -> list[Unit]:
        """`side`'s units on the map (None: both sides'), in the order of `units`: a new list each call, of the units
        found once per state (victory's stakes ask it for every order greedy and the search weigh)."""
        return list(self.memo(("on_map",), self._on_map).get(side, ()))

    def _on_map(self) -> dict[str | None, tuple[Unit, ...]]:
        """The units on the map, each side's and both sides' (None), in the order of `units`: one pass a state."""
        both = [u for u in self.units.values() if u.status == "map" and u.hex is not None]  # Unit.on_map
        out: dict[str | None, tuple[Unit, ...]] = {s: tuple(u for u in both if u.side == s) for s in SIDES}
        out[None] = tuple(both)
        return out

    def occupied(self, side: str) -> frozenset[str]:
        return self.memo(("occupied", side), lambda: frozenset(u.hex for u in self.on_map(side)))

    def positions(self) -> dict:
        mf = self.data.params["game"]["mobile_mf"]
        out: dict = {}
        for u in self.on_map():
            out.setdefault(Hex.parse(u.hex), []).append(u.piece(mf))
        return out

    def mode(self) -> str | None:
        """'move' or 'fight' in an Operations Phase (5.3), else None."""
        if self.phase == "ops1" and self.plan:
            return self.plan[0]
        if self.phase == "ops2" and self.plan:
            return self.plan[1]
        return None

    def controller(self, hex_label: str) -> str:
        return "japanese" if hex_label in self.jp_control else "chinese"

    def markers_received(self, side: str, kind: str) -> int:
        """SNC 8.5: a side receives the markers of a GT at the beginning of its own player turn of that GT (the
        at-start ones, GT 0, before GT 1). The Japanese markers of GT n are not theirs during the Chinese
        player turn of GT n, which comes first (5.1)."""
        begun = self.turn if SIDES.index(self.side) >= SIDES.index(side) or not self.since(3) else self.turn - 1
        return sum(int(m["count"]) for m in self.data.markers
                   if m["side"] == side and m["kind"] == kind and int(m["turn"]) <= begun)

    def markers_available(self, side: str, kind: str) -> int:
        """SNC 8.5, 11.1: markers received less those used in the current window (ruling E4)."""
        return self.markers_received(side, kind) - int(self.used.get(side, {}).get(kind, 0))


def initial_state(data: GameData | None = None) -> State:
    """SNC 3.1, 13.0: at-start units on the map, reinforcements in the pool, the turn marker on GT 1 (on the
    printed map unless `data` says otherwise)."""
    data = data or load()
    units = {}
    for raw in data.units:
        steps = int(raw["steps"])
        setup = raw.get("setup")
        u = Unit(id=raw["id"], side=raw["side"], name=raw["name"], type=raw["type"], size=raw["size"],
                 elite=bool(raw.get("elite", False)), steps_max=steps, strength=tuple(raw["strength"]),
                 formation=raw.get("formation", ""), army=raw.get("army", ""),
                 arrival_turn=int(raw.get("arrival_turn", 0)), arrival_hexes=tuple(raw.get("arrival_hexes", ())),
                 arrival_landing=raw.get("arrival_landing", ""), arrival_min_col=int(raw.get("arrival_min_col", 0)),
                 placement=raw.get("placement", ""), hex=setup, steps=steps,
                 status="map" if setup else "pool")
        units[u.id] = u
    game = data.params["game"]
    return State(turn=1, side=game["first_side"], phase="declare", units=units,
                 jp_control=frozenset(game["japanese_control"]), data=data)


_FRESH = {"mp_used": 0.0, "done": False, "attacked": False, "placed_by": ""}


def _fresh(units: dict) -> dict:
    """Every unit with its phase marks cleared; a unit already clear (its marks `_FRESH`'s, mp_used a float) is
    kept, not copied (most units, most phases; the test inline: every phase's end runs it over every unit)."""
    return {k: u if (type(u.mp_used) is float and u.mp_used == 0.0 and u.done is False and u.attacked is False
                     and u.placed_by == "") else replace(u, **_FRESH) for k, u in units.items()}


def enter(state: State, side: str, hexes) -> frozenset:
    """SNC 3.2: a hex changes control as soon as a ground unit of the other side enters it."""
    ctl = set(state.jp_control)
    for h in hexes:
        if side == "japanese":
            ctl.add(h)
        else:
            ctl.discard(h)
    return frozenset(ctl)


def next_phase(state: State) -> State:
    """SNC 5.1: ops1 -> reinforcement -> ops2; then the other player's turn or the next GT."""
    units = _fresh(state.units)
    base = replace(state, units=units, attacked_hexes=(), defended=(), overruns={}, mover=(), halted=(), used={},
                   battle=None)
    if state.phase == "ops1":
        repl = 0
        r = state.data.params["replacements"]
        if state.side == "japanese" and state.turn >= r["japanese_from_turn"]:
            repl = int(r["japanese_steps"])
        return replace(base, phase="reinf", used=state.used, replacements=repl)
    if state.phase == "reinf":
        return replace(base, phase="ops2", replacements=0)
    if state.phase == "ops2":
        if state.side == SIDES[0]:
            return replace(base, side=SIDES[1], phase="declare", plan=())
        return replace(base, turn=state.turn + 1, side=SIDES[0], phase="declare", plan=())
    return base
