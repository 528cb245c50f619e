"""Ichi-Go game state and its fold (`evolve`): units and counters, hex control (3.5), the sequence position
(5.1), the declared move/fight orders (5.5), airpower (8.x), the Chinese draw pool (3.3, 9.7) and the
decisions the sequence waits for."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace

from app.rules.ichigo import events as ev
from app.rules.ichigo.data_load import load

SIDES = ("japanese", "allied")
PHASES = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X")
PLAN_OF = {"II": ("us", 0), "III": ("us", 1), "VI": ("japanese", 0), "VII": ("japanese", 1),
           "VIII": ("chinese", 0), "IX": ("chinese", 1)}
NATION_SIDE = {"japanese": "japanese", "chinese": "allied", "us": "allied"}


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
class State:
    turn: int
    phase: str                          # setup | start | I..X | over
    units: dict
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
    attacked_hexes: tuple = ()          # hexes attacked this phase (11.4)
    pending: tuple = ()
    reinforced: bool = False            # Phase X roll made / Phase V withdrawal done
    winner: str | None = None
    reason: str = ""
    map_text: str = ""                  # a custom map's TOML (app/rules/custom_setup.py); "" for the printed map
    setup_draws: tuple = ()             # a custom position's blind draws: ((hex, count), ...) instead of 3.3's
    start_at: tuple = ()                # a custom position's (turn, phase), where play starts after the set-up

    def at(self, h: str) -> list[Unit]:
        """Units in h, by id (dict order is not stable across snapshots: canonical JSON sorts keys)."""
        return sorted((u for u in self.units.values() if u.on_map and u.hex == h), key=lambda u: u.id)

    def on_map(self, side: str | None = None) -> list[Unit]:
        return sorted((u for u in self.units.values() if u.on_map and (side is None or u.side == side)),
                      key=lambda u: u.id)

    def occupied(self, side: str) -> frozenset[str]:
        return frozenset(u.hex for u in self.on_map(side))

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

    def last_turn(self) -> int:
        g = load().scenario["game"]
        return int(g["turns_with_causeway"] if self.causeway else g["turns_without_causeway"])


def _unit(raw: dict, uid: str | None = None, **kw) -> Unit:
    nation = raw["side"]
    return Unit(id=uid or raw["id"], ref=raw["id"], side=NATION_SIDE[nation], nation=nation, army=raw.get("army", ""),
                name=raw["name"], type=raw["type"], size=raw["size"], steps_max=int(raw["steps"]),
                strength=tuple(raw.get("strength", (0,))), static=bool(raw.get("static", False)),
                shift=int(raw.get("shift", 0)), entry_turn=int(raw.get("entry_turn", 0)),
                steps=int(raw["steps"]), **kw)


def raw_unit(ref: str) -> dict:
    return next(r for r in load().units if r["id"] == ref)


def initial_state() -> State:
    """Ichi-Go 3.1-3.5: militia and CEA units set up, reinforcements aside, Chinese regulars face down."""
    d = load()
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
    return State(turn=1, phase="setup", units=units, jp_control=frozenset(jp), draw_pool=tuple(sorted(pool)))


def tracked(h: str) -> bool:
    """Ichi-Go 3.5: control matters in cities, on the GEARR and (7.1, ruling R29) on the north edge."""
    return h in load().tracked


def _enter(state: State, side: str, hexes) -> State:
    """Ichi-Go 3.5: a hex changes control the instant a unit of the other side enters it."""
    ctl, ever, lost = set(state.jp_control), set(state.ever_allied), set(state.garrison_lost)
    jp_cities = load().tagged("jp-city")
    for h in hexes:
        if not tracked(h):
            continue
        if side == "japanese":
            ctl.add(h)
            lost.discard(h)
        else:
            ctl.discard(h)
            if h in jp_cities:
                ever.add(h)
    return replace(state, jp_control=frozenset(ctl), ever_allied=frozenset(ever), garrison_lost=frozenset(lost))


def phase_applies(state: State, phase: str) -> bool:
    """Ichi-Go 5.0, ruling R6: I-III only once Causeway is launched; IV only while it is not."""
    only = {p["id"]: p.get("only") for p in load().scenario["phase"]}[phase]
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


def evolve(state: State, e) -> State:
    units = dict(state.units)
    if isinstance(e, ev.UnitDrawn):
        raw = raw_unit(e.unit)
        status = "map" if state.phase == "setup" else "drawn"
        units[e.handle] = _unit(raw, e.handle, hex=e.hex or None, status=status, tried=False)
        pool = list(state.draw_pool)
        pool.remove(e.unit)
        return replace(state, units=units, draw_pool=tuple(pool), next_handle=state.next_handle + 1)
    if isinstance(e, ev.Revealed):
        units[e.handle] = replace(units[e.handle], tried=True)
        return replace(state, units=units)
    if isinstance(e, ev.ReturnedToPool):
        u = units.pop(e.handle)
        return replace(state, units=units, draw_pool=tuple(sorted(state.draw_pool + (u.ref,))))
    if isinstance(e, ev.PhaseEnded):
        turn, phase = tuple(state.start_at) if state.phase == "setup" and state.start_at else next_position(state)
        base = replace(state, units=_fresh(units), turn=turn, phase=phase, mover=(), attacked_hexes=(),
                       reinforced=False)
        if turn != state.turn:  # 8.6 airpower retrieved; 5.5 orders declared anew
            base = replace(base, plans={}, air_side=None, air_markers=0, air_hexes=(), air_rolled=False,
                           b29_hex=None, b29_ok=False, b29_units=frozenset())
        return base
    if isinstance(e, ev.OrderDeclared):
        return replace(state, plans={**state.plans, e.nation: e.order})
    if isinstance(e, ev.MovementRolled):
        for uid in state.mover:
            if uid not in e.units:
                units[uid] = replace(units[uid], done=True)
        for uid in e.units:
            units[uid] = replace(units[uid], mp=float(e.mp), strategic=e.how == "strategic")
        return replace(state, units=units, mover=tuple(e.units))
    if isinstance(e, ev.UnitsMoved):
        for uid in e.units:
            units[uid] = replace(units[uid], hex=e.path[-1], mp_used=units[uid].mp_used + e.mp)
        side = units[e.units[0]].side
        st = _enter(replace(state, units=units), side, e.path[1:])
        if side == "japanese" and state.aerial_hex in e.path[1:]:  # 7.8: the Japanese take its hex
            st = replace(st, aerial_hex=None)
        if side == "japanese" and state.b29_hex:  # 8.9: moving within range of the B-29 marker
            rng = int(load().scenario["causeway"]["b29_range"])
            if any(load().distance(state.b29_hex, h) <= rng for h in e.path):
                st = replace(st, b29_units=st.b29_units | frozenset(e.units))
        return st
    if isinstance(e, ev.BattleResolved):
        for uid in e.attackers:
            if uid in units:
                units[uid] = replace(units[uid], attacked=True, done=True)
        return replace(state, units=units, attacked_hexes=state.attacked_hexes + (e.hex,),
                       mover=() if set(state.mover) & set(e.attackers) else state.mover)
    if isinstance(e, ev.StepsLost):
        for uid in e.units:
            u = units[uid]
            steps = u.steps - 1
            units[uid] = replace(u, steps=steps, status="dead", hex=None) if steps <= 0 else replace(u, steps=steps)
        return replace(state, units=units)
    if isinstance(e, ev.SupportExpended):
        for uid in e.units:
            units[uid] = replace(units[uid], status="dead", steps=0)
        return replace(state, units=units)
    if isinstance(e, ev.DecisionRequired):
        return replace(state, pending=state.pending + ({"kind": e.kind, "side": e.side, "data": dict(e.data)},))
    if isinstance(e, ev.DecisionMade):
        return replace(state, pending=state.pending[1:])
    if isinstance(e, ev.UnitsAdvanced):
        for uid in e.units:
            units[uid] = replace(units[uid], hex=e.hex)
        if not e.units:
            return state
        return _enter(replace(state, units=units), units[e.units[0]].side, [e.hex])
    if isinstance(e, ev.AirpowerRolled):
        return replace(state, air_side=e.winner, air_markers=e.markers, air_rolled=True)
    if isinstance(e, ev.AirpowerPlaced):
        return replace(state, air_hexes=state.air_hexes + tuple(e.hexes),
                       air_markers=state.air_markers - len(e.hexes))
    if isinstance(e, ev.ReinforcementsEntered):
        for uid in e.units:
            units[uid] = replace(units[uid], hex=e.hex, status="map", done=True)
        return _enter(replace(state, units=units), units[e.units[0]].side, [e.hex])
    if isinstance(e, ev.ChineseReinforcementRolled):
        return replace(state, reinforced=True)
    if isinstance(e, ev.UnitsWithdrawn):
        for uid, to in zip(e.units, e.to, strict=True):
            units[uid] = replace(units[uid], hex=None, status=to)
        return replace(state, units=units, reinforced=True)
    if isinstance(e, ev.FormosaReleased):
        for uid in e.units:
            units[uid] = replace(units[uid], status=e.status, entry_turn=state.turn)
        return replace(state, units=units)
    if isinstance(e, ev.BrigadeAbsorbed):
        units[e.brigade] = replace(units[e.brigade], status="removed", hex=None)
        units[e.division] = replace(units[e.division], steps=units[e.division].steps_max)
        return replace(state, units=units)
    if isinstance(e, ev.CausewayChecked):
        return replace(state, causeway=e.launched)
    if isinstance(e, ev.CollapseChecked):
        return replace(state, collapse_checked=True)
    if isinstance(e, ev.B29Placed):
        rng = int(load().scenario["causeway"]["b29_range"])
        hit = frozenset(u.id for u in state.on_map("japanese") if load().distance(e.hex, u.hex) <= rng)
        return replace(state, b29_used=True, b29_hex=e.hex, b29_ok=False, b29_units=state.b29_units | hit)
    if isinstance(e, ev.GarrisonDestroyed):
        return replace(state, garrison_lost=state.garrison_lost | {e.hex})
    if isinstance(e, ev.USLanded):
        for uid in e.displaced:
            units[uid] = replace(units[uid], hex=e.to)
        for uid in e.units:
            units[uid] = replace(units[uid], hex=e.hex, status="map", done=True)
        heads = {**state.beachheads, e.where: e.hex} if e.where in ("formosa", "mainland") else state.beachheads
        st = replace(state, units=units, beachheads=heads)
        if e.displaced:  # 3.5: the displaced units take control of the hex they are moved to
            st = _enter(st, units[e.displaced[0]].side, [e.to])
        return _enter(st, "allied", [e.hex])
    if isinstance(e, ev.B29Rolled):
        return replace(state, b29_rolled=state.turn, b29_ok=e.allowed)
    if isinstance(e, ev.ShipmentRolled):
        for uid, fate in e.fates.items():
            u = units[uid]
            if fate == "eliminated":
                units[uid] = replace(u, status="dead", steps=0)
            elif fate == "sf":
                units[uid] = replace(u, status="sf-ready")
            else:
                units[uid] = replace(u, status="landing", steps=1 if fate == "reduced" else u.steps_max)
        return replace(state, units=units, aa14_closed=state.aa14_closed or e.count == 0, aa14_turn=state.turn)
    if isinstance(e, ev.AerialSupplyPlaced):
        return replace(state, aerial_hex=e.hex, aerial_turn=state.turn)
    if isinstance(e, ev.Airlifted):
        # 8.10: after the transfer the unit may still roll for movement; 8.11: a dropped unit then moves normally
        units[e.unit] = replace(units[e.unit], hex=e.hex, status="map", done=False, mp=-1.0)
        st = replace(state, units=units, airlift_turn=state.turn)
        if e.drop:
            st = replace(st, airdropped=True, aerial_turn=state.turn)
        return _enter(st, "allied", [e.hex])
    if isinstance(e, ev.NavalTransfer):
        for uid in e.units:
            units[uid] = replace(units[uid], hex=e.hex, done=False)
        return replace(state, units=units)
    if isinstance(e, ev.GameEnded):
        return replace(state, phase="over", winner=e.winner, reason=e.reason)
    return state


def encode(state: State) -> dict:
    d = asdict(state)
    d["jp_control"] = sorted(state.jp_control)
    d["ever_allied"] = sorted(state.ever_allied)
    d["garrison_lost"] = sorted(state.garrison_lost)
    d["b29_units"] = sorted(state.b29_units)
    return d


def decode(raw: dict) -> State:
    units = {k: Unit(**{**u, "strength": tuple(u["strength"])}) for k, u in raw["units"].items()}
    return State(**{**raw, "units": units, "jp_control": frozenset(raw["jp_control"]),
                    "ever_allied": frozenset(raw["ever_allied"]),
                    "garrison_lost": frozenset(raw["garrison_lost"]),
                    "b29_units": frozenset(raw["b29_units"]), "draw_pool": tuple(raw["draw_pool"]),
                    "air_hexes": tuple(raw["air_hexes"]), "mover": tuple(raw["mover"]),
                    "attacked_hexes": tuple(raw["attacked_hexes"]), "pending": tuple(raw["pending"]),
                    "setup_draws": tuple(tuple(x) for x in raw.get("setup_draws", ())),
                    "start_at": tuple(raw.get("start_at", ()))})
