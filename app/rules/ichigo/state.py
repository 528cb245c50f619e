"""Ichi-Go game state (each event applies itself to it, events.py): units and counters, hex control (3.5), the
sequence position (5.1), the declared move/fight orders (5.5), airpower (8.x), the Chinese draw pool (3.3, 9.7) and the
decisions the sequence waits for."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.rules.engine.state import Memo, replace
from app.rules.ichigo.data_load import load, phase_names

SIDES = ("japanese", "allied")
PHASES = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X")
PLAN_OF = {"II": ("us", 0), "III": ("us", 1), "VI": ("japanese", 0), "VII": ("japanese", 1),
           "VIII": ("chinese", 0), "IX": ("chinese", 1)}
NATION_SIDE = {"japanese": "japanese", "chinese": "allied", "us": "allied"}
# 3: a battle after its flips names only the attackers still in it (11.27); games created before are decided as
# they were played (`since`, ruling E15, docs/rulings/ichigo-engine.md)
# 4: departures from the text fixed, rulings E16-E28 (docs/rulings/ichigo-engine.md): movement rolls and
# split stacks (10.3, 10.14, 10.15), absorption (9.5), the Aerial Supply Marker (7.8), defensive tank support
# (11.17), airpower ties (8.1), US landings and the 11th Airborne's drop (8.11, 9.8), the 14AA roll (5.3 item 7), the
# withdrawal's supply (9.2), momentum by the supplied (11.25); games created before are decided as they were played
RULES_VERSION = 18  # 5: issue 30's open readings (docs/rulings/ichigo-engine.md E29); 6: E32; 7: E33; 8: E34;
#                    9: E36, E37; 10: E38, E40-E42; 11: E43, E45; 12: E46; 13: E48-E50; 14: E51, E52; 15: E53-E55;
#                    16: E56; 17: E60; 18: E66, E67


def created_under(version: str | None) -> int:
    """The rules version of a game whose creation recorded `version` (core.GameCreated.rules_version): "" for a game
    created before versions were recorded (2), None for a new game (RULES_VERSION)."""
    return RULES_VERSION if version is None else int(version) if version else 2


def phase_name(phase: str) -> str:
    """A phase as the sequence of play names it (5.1, scenario.toml [[phase]])."""
    name = phase_names().get(phase)
    return f"Phase {phase} ({name})" if name else phase


def other(side: str) -> str:
    return SIDES[1 - SIDES.index(side)]


@dataclass(frozen=True)
class Unit:
    id: str                 # public name: the data id, or a counter handle for a Chinese regular
    ref: str                # the data id (hidden for an untried Chinese counter)
    side: str               # player side: japanese | allied
    nation: str             # japanese | chinese | us
    army: str
    name: str
    type: str
    size: str
    steps_max: int
    strength: tuple
    static: bool = False
    shift: int = 0
    entry_turn: int = 0
    hex: str | None = None
    steps: int = 1
    status: str = "map"     # map | pool | drawn | off-map | formosa-garrison | kwantung | 14aa-pool | us-pool | dead
    tried: bool = True
    mp: float = -1.0        # allowance this phase (-1: not rolled yet)
    mp_used: float = 0.0
    done: bool = False
    attacked: bool = False
    strategic: bool = False

    @property
    def on_map(self) -> bool:
        return self.status == "map" and self.hex is not None

    @property
    def militia(self) -> bool:
        return self.type == "militia"

    def factor(self, role: str = "attack") -> int:
        """Ichi-Go 2.10, 2.12, 2.15: the combat factor on the side showing; static units print
        [attack, defence, movement]; US divisions one factor per step count."""
        s = self.strength
        if self.static:
            return int(s[0] if role == "attack" else s[1]) if self.steps >= self.steps_max else (
                0 if role == "attack" else int(s[1]) // 2)
        if self.steps_max == 4 and len(s) == 4:
            return int(s[4 - self.steps])
        if self.steps_max == 2 and len(s) == 2:
            return int(s[0] if self.steps >= 2 else s[1])
        return int(s[0])


@dataclass(frozen=True)
class State(Memo):
    turn: int
    phase: str                          # setup | start | I..X | over
    units: dict[str, Unit]
    jp_control: frozenset
    draw_pool: tuple                    # Chinese regulars face down (3.3, 9.7), data ids
    next_handle: int = 1
    ever_allied: frozenset = frozenset()   # initial Japanese cities once Allied-controlled (7.1, 11.29)
    garrison_lost: frozenset = frozenset()  # 11.29: intrinsic garrisons destroyed, until the Japanese return
    plans: dict = field(default_factory=dict)   # nation -> "move-fight" | "fight-move" this turn (5.5)
    causeway: bool | None = None        # 5.2: None until rolled
    beachheads: dict = field(default_factory=dict)   # 5.3: "formosa" / "mainland" -> hex
    air_side: str | None = None         # 8.1: who holds the markers this turn
    air_markers: int = 0                # left to place
    air_hexes: tuple = ()
    air_rolled: bool = False
    b29_used: bool = False
    b29_hex: str | None = None
    b29_units: frozenset = frozenset()  # 8.9: Japanese units that started or moved within range this turn
    b29_rolled: int = 0                 # 8.9: the turn of the last post-Causeway B-29 roll
    b29_ok: bool = False
    aerial_hex: str | None = None       # 7.8
    aerial_turn: int = 0
    airlift_turn: int = 0               # 8.10: the turn the one-unit airlift was used
    airdropped: bool = False            # 8.11
    aa14_closed: bool = False           # 5.3 item 8
    aa14_turn: int = 0                  # the turn of the last 14AA shipment
    collapse_checked: bool = False
    mover: tuple = ()                   # the stack whose move is under way (10.1)
    phase_control: frozenset | None = None  # 10.17 (E37): jp_control as this phase began (None: not known)
    phase_aerial: str | None = None     # 10.17 (E37): the Aerial Supply Marker's hex as this phase began
    stack_rolls: tuple = ()             # 10.14, 10.15: (hex, how, MP, its stack's ids) of each roll this phase
    attacked_hexes: tuple = ()          # hexes attacked this phase (11.4)
    pending: tuple = ()
    reinforced: bool = False            # Phase X roll made / Phase V withdrawal done
    winner: str | None = None
    reason: str = ""
    setup_draws: tuple = ()             # a custom position's blind draws: ((hex, count), ...) instead of 3.3's
    start_at: tuple = ()                # a custom position's (turn, phase), where play starts after the set-up
    rules_version: int = RULES_VERSION  # the rules version the game is played under (ruling E15)
    # the game's data (map, units, tables, scenario) as this game was set up, on its custom map if it has one:
    # passed in (initial_state, the engine's decode), never read from a global; not part of a snapshot (the data's
    # options say which map it is on)
    data: Any = field(default=None, compare=False, repr=False)

    def since(self, version: int) -> bool:
        """Is the game played under rules `version` or later? (Ruling E15: an older game is decided as played.)"""
        return self.rules_version >= version

    def at(self, h: str) -> list[Unit]:
        """Units in h, by id (dict order is not stable across snapshots: canonical JSON sorts keys)."""
        return list(self.memo(("at",), self._by_hex).get(h, ()))

    def _by_hex(self) -> dict[str, tuple[Unit, ...]]:
        """The units on the map by hex, by id (once per state: the list of legal orders asks hundreds of times)."""
        out: dict[str, list[Unit]] = {}
        for u in self.on_map():
            out.setdefault(u.hex, []).append(u)
        return {h: tuple(units) for h, units in out.items()}

    def on_map(self, side: str | None = None) -> list[Unit]:
        return list(self.memo(("on map", side), lambda: tuple(sorted(
            (u for u in self.units.values() if u.on_map and (side is None or u.side == side)), key=lambda u: u.id))))

    def occupied(self, side: str) -> frozenset[str]:
        return self.memo(("occupied", side), lambda: frozenset(u.hex for u in self.on_map(side)))

    def controller(self, h: str) -> str:
        return "japanese" if h in self.jp_control else "allied"

    def mode(self) -> str | None:
        """'move' or 'fight' in a movement/combat phase (5.1, 5.5), else None; None too if undeclared."""
        if self.phase not in PLAN_OF:
            return None
        nation, i = PLAN_OF[self.phase]
        plan = self.plans.get(nation)
        return None if plan is None else plan.split("-")[i]

    def nation_now(self) -> str | None:
        return PLAN_OF[self.phase][0] if self.phase in PLAN_OF else None

    # -- the shared events (app/rules/engine/events.py) change a state through these ---------------------------
    def require(self, kind: str, side: str, data: dict) -> State:
        return replace(self, pending=self.pending + ({"kind": kind, "side": side, "data": dict(data)},))

    def decided(self, kind: str, side: str) -> State:
        return replace(self, pending=self.pending[1:])

    def after_phase(self, event) -> State:
        """The next phase played (5.1); a custom position's set-up ends where the position starts."""
        turn, phase = tuple(self.start_at) if self.phase == "setup" and self.start_at else next_position(self)
        base = replace(self, units=_fresh(dict(self.units)), turn=turn, phase=phase, mover=(), attacked_hexes=(),
                       reinforced=False, stack_rolls=(), phase_control=self.jp_control, phase_aerial=self.aerial_hex)
        if turn != self.turn:  # 8.6 airpower retrieved; 5.5 orders declared anew
            base = replace(base, plans={}, air_side=None, air_markers=0, air_hexes=(), air_rolled=False,
                           b29_hex=None, b29_ok=False, b29_units=frozenset())
        return base

    def ended(self, winner: str | None, reason: str) -> State:
        return replace(self, phase="over", winner=winner, reason=reason)

    def last_turn(self) -> int:
        g = self.data.scenario["game"]
        return int(g["turns_with_causeway"] if self.causeway else g["turns_without_causeway"])


def _unit(raw: dict, uid: str | None = None, **kw) -> Unit:
    nation = raw["side"]
    return Unit(id=uid or raw["id"], ref=raw["id"], side=NATION_SIDE[nation], nation=nation, army=raw.get("army", ""),
                name=raw["name"], type=raw["type"], size=raw["size"], steps_max=int(raw["steps"]),
                strength=tuple(raw.get("strength", (0,))), static=bool(raw.get("static", False)),
                shift=int(raw.get("shift", 0)), entry_turn=int(raw.get("entry_turn", 0)),
                steps=int(raw["steps"]), **kw)


def raw_unit(d, ref: str) -> dict:
    """The order of battle's entry `ref` in the game data `d`."""
    return next(r for r in d.units if r["id"] == ref)


def initial_state(data=None) -> State:
    """Ichi-Go 3.1-3.5: militia and CEA units set up, reinforcements aside, Chinese regulars face down. `data`:
    the game's data (default: on the printed map)."""
    d = data or load()
    units = {}
    pool = []
    for raw in d.units:
        placement = raw.get("placement", "")
        if placement == "draw-pool":
            pool.append(raw["id"])
            continue
        if raw.get("setup"):
            u = _unit(raw, hex=str(raw["setup"]), status="map")
        elif placement:
            u = _unit(raw, status=placement)
        else:
            u = _unit(raw, status="pool")
        units[u.id] = u
    cn_cities = d.tagged("cn-city")
    jp = set(d.tagged("jp-city")) | set(d.tagged("jp-gearr-start")) | (set(d.north_edge()) - cn_cities)
    return State(turn=1, phase="setup", units=units, jp_control=frozenset(jp), draw_pool=tuple(sorted(pool)),
                 data=d)


def tracked(d, h: str) -> bool:
    """Ichi-Go 3.5: control matters in cities, on the GEARR and (7.1, ruling R29) on the north edge (`d`: the game
    data)."""
    return h in d.tracked


def _enter(state: State, side: str, hexes, moving: bool = False) -> State:
    """Ichi-Go 3.5: a hex changes control the instant a unit of the other side enters it; 7.8: the Japanese who
    take the Aerial Supply Marker's hex remove it, by a move, or (rules version 4, ruling E18) any other entry:
    an advance after combat, a reinforcement, units displaced by a landing. 11.29: a destroyed intrinsic garrison
    returns when the Japanese liberate its city from the Allies (rules version 8, ruling E34: before it, whenever a
    Japanese unit entered the city)."""
    if side == "japanese" and state.aerial_hex in hexes and (moving or state.since(4)):
        state = replace(state, aerial_hex=None)
    ctl, ever, lost = set(state.jp_control), set(state.ever_allied), set(state.garrison_lost)
    jp_cities = state.data.tagged("jp-city")
    for h in hexes:
        if not tracked(state.data, h):
            continue
        if side == "japanese":
            if h not in ctl or not state.since(8):
                lost.discard(h)
            ctl.add(h)
        else:
            ctl.discard(h)
            if h in jp_cities:
                ever.add(h)
    return replace(state, jp_control=frozenset(ctl), ever_allied=frozenset(ever), garrison_lost=frozenset(lost))


def phase_applies(state: State, phase: str) -> bool:
    """Ichi-Go 5.0, ruling R6: I-III only once Causeway is launched; IV only while it is not."""
    only = {p["id"]: p.get("only") for p in state.data.scenario["phase"]}[phase]
    if only == "causeway":
        return bool(state.causeway)
    if only == "no-causeway":
        return not state.causeway
    return True


_FRESH = {"mp": -1.0, "mp_used": 0.0, "done": False, "attacked": False, "strategic": False}


def _fresh(units: dict) -> dict:
    """Every unit with its phase marks cleared; a unit already clear is kept, not copied (most units, most phases)."""
    return {k: u if _is_fresh(u) else replace(u, **_FRESH) for k, u in units.items()}


def _is_fresh(u: Unit) -> bool:
    return (type(u.mp) is float and u.mp == -1.0 and type(u.mp_used) is float and u.mp_used == 0.0
            and u.done is False and u.attacked is False and u.strategic is False)


def next_position(state: State) -> tuple[int, str]:
    """The next phase played after the current one (5.1): 'start' opens each turn, then I..X."""
    order = ("start",) + PHASES
    i = order.index(state.phase) if state.phase in order else -1
    turn = state.turn
    for p in order[i + 1:]:
        if p == "start" or phase_applies(state, p):
            return turn, p
    return turn + 1, "start"
