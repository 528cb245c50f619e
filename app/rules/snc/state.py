"""SNC game state and its fold (`evolve`): units, hex control (3.2), the sequence position (5.1, 5.3),
fire support in use (11.1), the battle being fought and any decision the sequence waits for."""
from __future__ import annotations

import tomllib
from dataclasses import asdict, dataclass, field, replace
from functools import lru_cache
from pathlib import Path

from app.rules.kernel.hexgrid import Hex
from app.rules.kernel.pieces import Piece
from app.rules.snc import events as ev
from app.rules.snc.data_load import load

SIDES = ("chinese", "japanese")
RULES_VERSION = 3  # the version new games are played under; 3: issue 19 (docs/rulings/snc-engine.md E13)


@lru_cache(maxsize=1)
def params() -> dict:
    """The scenario numbers this engine uses, read from data/scenario.toml (the snc-data file)."""
    with open(Path(__file__).parent / "data" / "scenario.toml", "rb") as f:
        sc = tomllib.load(f)
    v = sc["victory"]
    return {
        "game": {"last_turn": sc["game"]["turns"], "mobile_mf": sc["movement"]["mobile_mf"],
                 "first_side": sc["game"]["first_side"], "japanese_control": sc["control"]["japanese_at_start"]},
        "victory": {"shanghai": v["chinese_sudden_death"]["control_hex"],
                    "adjacent_win_from_turn": v["chinese_sudden_death"]["occupy_from_turn"],
                    "sudden_defeat_until_turn": v["chinese_sudden_defeat"]["to_turn"],
                    "neutral_city": v["neutral_city"], "cities": v["city_hexes"]},
        "replacements": {"japanese_from_turn": sc["replacements"]["japanese"]["from_turn"],
                         "japanese_steps": sc["replacements"]["japanese"]["steps_per_turn"],
                         "snlf_loc_hexes": sc["replacements"]["japanese"]["snlf_loc_hexes"],
                         "elite_return_hex": sc["replacements"]["chinese_elite_return"]["return_hex"]},
        "reinforcements": {"rail_from_turn": sc["reinforcements"]["chinese"]["rail_placement_from_turn"],
                           "rail_origins": sc["reinforcements"]["chinese"]["rail_movement_origins"],
                           "interdiction_from_turn": sc["air"]["japanese_interdiction"]["from_turn"],
                           "landing_divisor": sc["reinforcements"]["japanese"]["landing_attack_divisor"],
                           "landing_extra_step": sc["reinforcements"]["japanese"]["extra_step_if_defenders_remain"],
                           "army_advance_hexes": sc["reinforcements"]["japanese"]["ten_army_advance_hexes"]},
        "stacking": sc["stacking"],
    }


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
                     allowance=allowance, tags=frozenset({"static"} if self.static else set()))


@dataclass(frozen=True)
class State:
    turn: int
    side: str
    phase: str                         # declare | ops1 | reinf | ops2 | over
    units: dict
    jp_control: frozenset
    plan: tuple = ()                   # SNC 5.3 (first, second): "move" | "fight"
    used: dict = field(default_factory=dict)   # side -> {marker kind: count used this window} (11.1)
    chinese_air: bool = True           # SNC 11.3
    battle: dict | None = None
    pending: tuple = ()
    attacked_hexes: tuple = ()         # SNC 10.0: each defending hex once per phase
    overruns: dict = field(default_factory=dict)  # SNC 9.6, 10.0: hex -> the units that overran it this phase
    mover: tuple = ()                  # SNC 9.0: the stack whose move is under way
    replacements: int = 0              # SNC 8.3: left this Reinforcement Phase
    interdicted: int = 0               # SNC 11.2: the GT whose interdiction is done
    winner: str | None = None
    reason: str = ""
    map_text: str = ""                 # a custom map's TOML (app/rules/custom_setup.py); "" for the printed map
    rules_version: int = RULES_VERSION  # the rules version the game is played under (ruling E13)

    # -- queries ------------------------------------------------------------------------------------------
    def since(self, version: int) -> bool:
        """Is the game played under rules `version` or later? (Ruling E13: an older game is decided as played.)"""
        return self.rules_version >= version

    def at(self, hex_label: str) -> list[Unit]:
        return [u for u in self.units.values() if u.on_map and u.hex == hex_label]

    def on_map(self, side: str | None = None) -> list[Unit]:
        return [u for u in self.units.values() if u.on_map and (side is None or u.side == side)]

    def occupied(self, side: str) -> frozenset[str]:
        return frozenset(u.hex for u in self.on_map(side))

    def positions(self) -> dict:
        mf = params()["game"]["mobile_mf"]
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
        return sum(int(m["count"]) for m in load().markers
                   if m["side"] == side and m["kind"] == kind and int(m["turn"]) <= begun)

    def markers_available(self, side: str, kind: str) -> int:
        """SNC 8.5, 11.1: markers received less those used in the current window (ruling E4)."""
        return self.markers_received(side, kind) - int(self.used.get(side, {}).get(kind, 0))


def initial_state() -> State:
    """SNC 3.1, 13.0: at-start units on the map, reinforcements in the pool, the turn marker on GT 1."""
    units = {}
    for raw in load().units:
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
    game = params()["game"]
    return State(turn=1, side=game["first_side"], phase="declare", units=units,
                 jp_control=frozenset(game["japanese_control"]))


def _fresh(units: dict) -> dict:
    return {k: replace(u, mp_used=0.0, done=False, attacked=False, placed_by="") for k, u in units.items()}


def _enter(state: State, side: str, hexes) -> frozenset:
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
    base = replace(state, units=units, attacked_hexes=(), overruns={}, mover=(), used={}, battle=None)
    if state.phase == "ops1":
        repl = 0
        r = params()["replacements"]
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


def evolve(state: State, e) -> State:
    units = dict(state.units)
    if isinstance(e, ev.PhasesDeclared):
        return replace(state, plan=(e.first, e.second), phase="ops1", used={})
    if isinstance(e, ev.PhaseEnded):
        return next_phase(state)
    if isinstance(e, ev.UnitsMoved):
        if tuple(e.units) != state.mover:
            for uid in state.mover:
                units[uid] = replace(units[uid], done=True)
        for uid in e.units:
            units[uid] = replace(units[uid], hex=e.path[-1], mp_used=units[uid].mp_used + e.mp)
        side = units[e.units[0]].side
        return replace(state, units=units, mover=tuple(e.units), jp_control=_enter(state, side, e.path[1:]))
    if isinstance(e, ev.BattleOpened):
        b = dict(e.battle)
        for uid in b["attackers"]:
            units[uid] = replace(units[uid], attacked=True)
            if b["kind"] == "landing":
                units[uid] = replace(units[uid], status="landing", hex=None)
        hexes = state.attacked_hexes + ((b["hex"],) if b["kind"] == "attack" else ())
        overruns = state.overruns
        if b["kind"] == "overrun":
            overruns = {**overruns, b["hex"]: sorted({*overruns.get(b["hex"], ()), *b["attackers"]})}
        b.setdefault("support", [])
        b.setdefault("defence_support", [])
        repl = 0 if b["kind"] == "landing" else state.replacements  # SNC 8.3: replacements come first
        return replace(state, units=units, battle=b, attacked_hexes=hexes, overruns=overruns, replacements=repl)
    if isinstance(e, ev.SupportAdded):
        b = dict(state.battle or {})
        key = "support" if b.get("side") == e.side else "defence_support"
        b[key] = list(b.get(key, [])) + [e.kind]
        used = {s: dict(v) for s, v in state.used.items()}
        used.setdefault(e.side, {})[e.kind] = used.get(e.side, {}).get(e.kind, 0) + 1
        return replace(state, battle=b, used=used)
    if isinstance(e, ev.AirInterception):
        b = dict(state.battle) if state.battle else None
        if b is not None and e.aborted:
            b["air_aborted"] = True
        return replace(state, battle=b, chinese_air=state.chinese_air and not e.air_lost)
    if isinstance(e, ev.CombatResolved):
        b = dict(state.battle)
        b.update(resolved=True, att_due=e.attacker_losses, def_due=e.defender_losses, att_taken=0, def_taken=0)
        return replace(state, battle=b)
    if isinstance(e, ev.StepsLost):
        for uid in e.units:
            u = units[uid]
            steps = u.steps - 1
            units[uid] = replace(u, steps=steps, status="dead", hex=None) if steps <= 0 else replace(u, steps=steps)
        b = state.battle
        if b is not None and e.reason == "combat":
            b = dict(b)
            key = "att_taken" if e.side == b["side"] else "def_taken"
            b[key] = b.get(key, 0) + len(e.units)
        return replace(state, units=units, battle=b)
    if isinstance(e, ev.EliteScheduled):
        u = units[e.unit]
        units[e.unit] = replace(u, status="returning" if e.turn else "dead", return_turn=e.turn, steps=1, hex=None)
        return replace(state, units=units)
    if isinstance(e, ev.UnitsRetreated):
        b = dict(state.battle) if state.battle else None
        if b is not None and (not e.units or units[e.units[0]].hex == b["hex"]):
            b["retreated"] = True  # from the battle hex (8.4 2); not the 8.4.1 push out of a hex next to it
        for uid in e.units:
            units[uid] = replace(units[uid], hex=e.to)
        if not e.units:
            return replace(state, battle=b)
        side = units[e.units[0]].side
        return replace(state, units=units, battle=b, jp_control=_enter(state, side, [e.to]))
    if isinstance(e, ev.UnitsAdvanced):
        for uid in e.units:
            units[uid] = replace(units[uid], hex=e.path[-1], status="map")
        b = dict(state.battle) if state.battle else None
        if b is not None:
            b["advanced"] = True
        side = units[e.units[0]].side if e.units else state.side
        ctl = _enter(state, side, e.path) if e.units else state.jp_control
        return replace(state, units=units, battle=b, jp_control=ctl)
    if isinstance(e, ev.BattleClosed):
        return replace(state, battle=None)
    if isinstance(e, ev.DecisionRequired):
        return replace(state, pending=state.pending + ({"kind": e.kind, "side": e.side, "data": dict(e.data)},))
    if isinstance(e, ev.DecisionMade):
        return replace(state, pending=state.pending[1:])
    if isinstance(e, ev.GarrisonPlaced):
        units[e.unit] = replace(units[e.unit], hex=e.hex, status="map")
        return replace(state, units=units)
    if isinstance(e, ev.ReinforcementsPlaced):
        for uid in e.units:
            units[uid] = replace(units[uid], hex=e.hex, status="map", placed_by=e.method, mp_used=0.0)
        side = units[e.units[0]].side
        repl = 0 if e.method == "landing" else state.replacements  # SNC 8.3: replacements come first
        return replace(state, units=units, jp_control=_enter(state, side, [e.hex]), replacements=repl)
    if isinstance(e, ev.UnitsRemoved):
        for uid in e.units:
            units[uid] = replace(units[uid], status="removed", hex=None)
        return replace(state, units=units, interdicted=state.turn)
    if isinstance(e, ev.StepsReplaced):
        for uid in e.units:
            units[uid] = replace(units[uid], steps=units[uid].steps + 1)
        return replace(state, units=units, replacements=state.replacements - len(e.units))
    if isinstance(e, ev.Overstacked):
        for uid in e.units:
            units[uid] = replace(units[uid], status="dead", hex=None, steps=0)
        return replace(state, units=units)
    if isinstance(e, ev.GameEnded):
        return replace(state, phase="over", winner=e.winner, reason=e.reason)
    return state


def encode(state: State) -> dict:
    d = asdict(state)
    d["jp_control"] = sorted(state.jp_control)
    return d


def decode(raw: dict) -> State:
    units = {k: Unit(**{**u, "strength": tuple(u["strength"]), "arrival_hexes": tuple(u["arrival_hexes"])})
             for k, u in raw["units"].items()}
    return State(**{**raw, "units": units, "jp_control": frozenset(raw["jp_control"]), "plan": tuple(raw["plan"]),
                    "pending": tuple(raw["pending"]), "attacked_hexes": tuple(raw["attacked_hexes"]),
                    "mover": tuple(raw["mover"])})
