"""The Formosa states table (6.1; docs/formosa-engine-plan.md section 2): the set-up (3.0, 24.1, 24.2), the
pre-invasion reconnaissance, and each Game-Turn's Allied Player Turn (invasion, naval transfer, movement,
combat, base building) and Japanese Player Turn (movement, combat), then the end of the turn; with the decisions
a combat or an over-stack leaves to a player.

The Strategic Stage's logistics, recruit and Amoy phases are here; its strike stage (strike planning and reveal,
air superiority, special attacks, B-29), the Interdiction Phase, the Air Return Phase and the defender's combat
choices are the steps of strike.py (events in airpower.py)."""
from __future__ import annotations

from itertools import combinations
from math import comb

from app.rules.base import Candidate
from app.rules.engine.cases import OrderCases
from app.rules.engine.decision import Decision
from app.rules.engine.events import DecisionMade, DecisionRequired
from app.rules.engine.syntax import SlotType
from app.rules.engine.table import StatesTable, Step, order
from app.rules.formosa import airpower, combat, invasion, movement, optional, strategic, strike, victory
from app.rules.formosa.data_load import side_unit
from app.rules.formosa.events import (
    AmoyRolled,
    BaseBuilt,
    BaseDemobilised,
    LogisticsReceived,
    LpLost,
    LpSpent,
    PointsBought,
    ReconRolled,
    SetupEnded,
    SetupRolled,
    SpecialHeld,
    StepBegan,
    TurnEnded,
    UnitDeployed,
    UnitEliminated,
    UnitPlaced,
    UnitRecruited,
    UnitRevealed,
    UnitsChosen,
    UnitsLanded,
    UnitsReturned,
    UnitTransferred,
)
from app.rules.formosa.position import group_key
from app.rules.formosa.state import State, Unit, is_hex, other
from app.rules.kernel.hexgrid import Hex

H = Hex.parse
SEQ = "Formosa 6.1"
# The Game-Turn's steps in the order of 6.1 that the engine plays now.
TURN = ("logistics", "recruit-japanese", "recruit-allied", "amoy", "strike-planning-japanese",
        "strike-planning-allied", "strike-reveal", "air-superiority", "japanese-special-attack", "b29", "invasion",
        "naval-transfer", "allied-movement", "allied-combat", "base-building", "interdiction", "japanese-movement",
        "japanese-combat", "air-return")
FIRST_ON_GT1 = "strike-planning-japanese"  # 24.1: GT 1 skips the Logistics, Recruit and Amoy Operation Phases
# steps passed over when their air mission was not assigned (16.4, 16.5)
NEEDS_MISSION = {"b29": ("b29",), "interdiction": ("interdiction", "cw-interdiction")}
COMBAT_STEPS = ("allied-combat", "japanese-combat")
BUYABLE = {"japanese": ("tac", "mobile-fleet", "kamikaze"),
           "allied": ("tac", "gunfire", "amphibious", "drop-zone", "b29", "air-supply")}


# -- the clock ------------------------------------------------------------------------------------------------
def begin(d: Decision, step: str) -> None:
    """Enter `step`; at the start of every Combat Phase concealed units in an enemy ZOC are revealed (11.2); the
    Logistics Phase is played at once (7.2), the Amoy Operation Phase once Amoy has fallen is passed over."""
    if step == "amoy" and d.state.amoy_turn is not None:
        return after(d, step)
    if step in NEEDS_MISSION and not any(airpower.assigned(d.state, "allied", m) for m in NEEDS_MISSION[step]):
        return after(d, step)
    d.emit(StepBegan(step, d.state.turn))
    if step in COMBAT_STEPS:
        reveal_in_ezoc(d)
    if step == "logistics":
        logistics(d)
        after(d, step)
    if step in ("strike-reveal", "air-return"):  # 16.1, 6.1: played at once
        d.emit(airpower.StrikesRevealed({s: dict(m) for s, m in d.state.strike.missions.items()})
               if step == "strike-reveal" else airpower.AirReturned())
        after(d, step)
    if step == "recruit-allied":
        sixth_marines(d)
    return None


def logistics(d: Decision) -> None:
    """7.2: the Japanese roll and add one LP per two airfields they control; the Allies add their base, Amoy,
    and their functional ports and airfields (strategic.py); each side adds the LP it received after the last
    Logistics Phase (`State.lp_due`)."""
    state: State = d.state
    data = state.data
    japanese_fields = sum(1 for h in data.airfields() if state.at(str(h), "japanese"))
    income = strategic.japanese_income(data, d.roll("Japanese logistics (7.2)"), japanese_fields)
    d.emit(LogisticsReceived("japanese", [list(i) for i in income.items] + _due(state, "japanese")))
    based = {u.where for u in state.on_map("allied") if u.base}
    feats = {h: data.map.features_of(H(h)) for h in based}
    allied = strategic.allied_income(
        data, state.scenario, amoy=strategic.amoy_pays(state.amoy_turn, state.turn),
        major_ports=sum("major-port" in f for f in feats.values()),
        minor_ports=sum("minor-port" in f for f in feats.values()),
        airfields=sum("airfield" in f for f in feats.values()))
    d.emit(LogisticsReceived("allied", [list(i) for i in allied.items] + _due(state, "allied")))


def _due(state: State, side: str) -> list[list]:
    """7.2: LP received after the last Logistics Phase (25.2) join the track now."""
    due = state.lp_due.get(side, 0)
    return [["LP received after the last Logistics Phase", due, "Formosa 7.2"]] if due else []


def sixth_marines(d: Decision) -> None:
    """24.1, ruling F34: the 6th Marine Division enters the Amoy Display, free, the GT after Amoy falls."""
    state: State = d.state
    if state.amoy_turn is None or state.turn != state.amoy_turn + 1:
        return
    for uid in state.data.scenario(state.scenario)["special"].get("after_amoy", ()):
        d.emit(UnitDeployed(uid, state.data.scenario(state.scenario)["special"]["after_amoy_box"]))


def reveal_in_ezoc(d: Decision) -> None:
    state: State = d.state
    zoc = state.zoc_of("allied")
    for u in state.on_map("japanese"):
        if u.concealed and u.where in zoc:
            d.emit(UnitRevealed(u.id, u.where, "Formosa 11.2 item 1",
                                deception=state.spec(u.id).type == "deception"))


def after(d: Decision, step: str) -> None:
    """The step after `step` in the Game-Turn, or the end of the turn (6.1 Administrative Segment)."""
    i = TURN.index(step)
    if i + 1 < len(TURN):
        begin(d, TURN[i + 1])
        return
    state: State = d.state
    if state.turn >= state.data.scenario(state.scenario)["turns"]:
        victory.count(d)
        return
    d.emit(TurnEnded(state.turn))
    begin(d, TURN[0])


def end_recruit(d: Decision, side: str, then: str) -> None:
    """8.1 Important: recruits not deployed go back; 7.2, F26: LP above 20 are lost; 13.3, F36: stacking."""
    state: State = d.state
    left = [u for u in state.to_place if state.units[u].side == side and not is_hex(state.units[u].where)
            and state.units[u].where != "allied-staging" and state.units[u].where != "amoy"]
    if left:  # 11.2: a replaced unit goes back to be replaced again, never to be recruited concealed (F108)
        d.emit(UnitsReturned(side, left, [u for u in left if u in state.replaced_now] if state.since(5) else []))
    _kept, lost = strategic.cap(state.data, d.state.lp[side])
    if lost:
        d.emit(LpLost(side, lost, "Formosa 7.2, ruling F26"))
    if not check_stacking(d, (side,), then):
        after(d, then)


def check_stacking(d: Decision, sides: tuple[str, ...], then: str) -> bool:
    """13.0, 13.3, ruling F36: at the end of a Movement Phase (the phasing side) or Combat Phase (both sides)
    the over-stacked player removes units to the Replacements Display; True while that is waited for."""
    state: State = d.state
    for side in sides:
        hexes = state.overstacked(side)
        if hexes:
            d.emit(DecisionRequired("overstack", side, {"hexes": hexes, "then": then,
                                                        "sides": list(sides)}))
            return True
    return False


# -- naming things --------------------------------------------------------------------------------------------
def own_unit(d: Decision, uid: str, case: str = SEQ) -> Unit:
    u = d.state.unit(uid)
    if u is None or u.side != d.side:
        d.refuse(case, f"{uid} is not {side_unit(d.side)}")
    return u


def on_land(d: Decision, hex: str, case: str) -> None:
    if not d.data.map.on_map(H(hex)) or not d.data.is_land(H(hex)):
        d.refuse(case, f"{hex} is not a land hex of the map")


def stack_after(state: State, hex: str, side: str, adding: list[str]) -> list:
    return state.would_overstack(hex, side, adding)


# -- set-up ----------------------------------------------------------------------------------------------------
def _groups(state: State, side: str) -> list[tuple[str, dict]]:
    return [(group_key(side, i), g) for i, g in enumerate(state.data.setup_groups(state.scenario, side))
            if "choose" in g]


def _open_groups(state: State, side: str) -> list[tuple[str, dict, int]]:
    out = []
    for key, g in _groups(state, side):
        left = g["choose"] - len(state.chosen.get(key, ()))
        if left > 0:
            out.append((key, g, left))
    return out


def _open_group_texts(state: State, side: str) -> list[str]:
    """3.0: each set-up group still to choose from, as a player knows it: how many more, of what, from which units
    (the `choose` order names them), never the data's group id."""
    out = []
    for _key, g, left in _open_groups(state, side):
        units = _pickable(state, g)
        kinds = {state.spec(u).type.replace("-", " ") for u in units}
        kind = f"{kinds.pop()} " if len(kinds) == 1 else ""
        out.append(f"{left} more {kind}unit{'s' if left > 1 else ''} from {', '.join(units)}")
    return out


def _pickable(state: State, g: dict) -> list[str]:
    return [i for i in g["units"] if state.units[i].where.endswith("-reinforcements") and i not in state.to_place]


def choose(d: Decision, unit_ids: list[str]) -> None:
    """3.0 "player's choice": pick units of one set-up group, up to its number."""
    state: State = d.state
    for key, g, left in _open_groups(state, d.side):
        if set(unit_ids) <= set(g["units"]):
            if len(set(unit_ids)) != len(unit_ids) or any(i not in _pickable(state, g) for i in unit_ids):
                d.refuse("Formosa 3.0", f"choose among {', '.join(_pickable(state, g))}")
            if len(unit_ids) > left:
                d.refuse("Formosa 3.0", f"this group sets up {g['choose']}: {left} more to choose")
            d.emit(UnitsChosen(d.side, key, list(unit_ids)))
            return
    d.refuse("Formosa 3.0", "name units of one set-up group still to choose: " + "; ".join(
        f"{left} of {', '.join(_pickable(state, g))}" for _, g, left in _open_groups(state, d.side)))


def recruit(d: Decision, unit_ids: list[str], setup: bool, replacing: bool = False) -> None:
    """7.3, 8.0-8.3: buy units from the Reinforcements (or, replacing, the Replacements) Display at the LP
    Expenditure Chart's cost (strategic.recruit_cost, with every restriction of 8.2 and the scenarios)."""
    state: State = d.state
    display = f"{d.side}-{'replacements' if replacing else 'reinforcements'}"
    if len(set(unit_ids)) != len(unit_ids):
        d.refuse("Formosa 8.0", "a unit is named twice")
    optional.check_recruit(d, unit_ids, setup)
    total = 0
    for uid in unit_ids:
        u = own_unit(d, uid, "Formosa 8.0")
        if u.where != display or uid in state.to_place:
            d.refuse("Formosa 8.3" if replacing else "Formosa 8.0", f"{uid} is not in the {display.replace('-', ' ')}")
        if setup and any(uid in g["units"] for _, g, _left in _open_groups(state, d.side)):
            d.refuse("Formosa 3.0, ruling F43", f"{uid} is in a set-up group still to choose: choose it, at no LP")
        total += strategic.recruit_cost(d.data, d.side, uid, scenario=state.scenario, setup=setup,
                                        replace=replacing, replace_special=state.since(18))  # ruling F142
    strategic.spend(state.lp[d.side], total, f"recruiting {len(unit_ids)} unit(s)")
    d.emit(LpSpent(d.side, total, f"{'replace' if replacing else 'recruit'} {len(unit_ids)} unit(s)"))  # 11.0
    for uid in unit_ids:
        if optional.special(state, uid):
            d.emit(SpecialHeld(uid))  # 25.7, 25.8: it waits off the map for its landing
        else:
            d.emit(UnitRecruited(uid, "formosa" if d.side == "japanese" else "allied-staging", replacing))


def _counter_limit(state: State, side: str, kind: str) -> int:
    """8.2: the counter mix is a limit: air points up to the counters' larger faces, other counters by count;
    kamikaze points that have attacked are used once a game and never replaced (2.5, 8.4), so they leave the
    mix."""
    if kind == "kamikaze":
        return strategic.air_point_limit(state.data, side, kind) - state.kamikaze_spent
    if kind == "tac":
        return strategic.air_point_limit(state.data, side, kind, "us" if side == "allied" else None)
    return sum(1 for c in state.data.counters if c.kind == kind and c.side == side
               and c.nationality in ("us", "japanese", ""))


def _held(state: State, side: str, kind: str) -> int:
    if kind in ("amphibious", "drop-zone"):
        return state.markers.get(kind, 0)
    if kind == "gunfire":
        return state.naval.get("gunfire", 0)
    return state.air.get(f"{side}-tac" if kind == "tac" else kind, 0)


def buy(d: Decision, n: int, kind: str, setup: bool) -> None:
    """7.3: air points, naval gunfire, invasion markers or the mobile fleet bought at the chart's price."""
    state: State = d.state
    if kind not in BUYABLE[d.side]:
        d.refuse("Formosa 7.3", f"{d.side} buys units with 'recruit'; points and markers: "
                                f"{', '.join(BUYABLE[d.side])}")
    cost = strategic.recruit_cost(d.data, d.side, kind, scenario=state.scenario, setup=setup, points=max(n, 1))
    if n < 1:
        d.refuse("Formosa 7.3", "buy at least one")
    if kind == "mobile-fleet" and state.strike.fleet_used:
        d.refuse("Formosa 18.0", "the mobile fleet has sortied: its marker is out of the game")
    if _held(state, d.side, kind) + n > _counter_limit(state, d.side, kind):
        spent = f" ({state.kamikaze_spent} have attacked: used once a game, 2.5, 8.4)" if kind == "kamikaze" \
            and state.kamikaze_spent else ""
        d.refuse("Formosa 8.2", f"the counter mix holds {_counter_limit(state, d.side, kind)} {kind}{spent}")
    strategic.spend(state.lp[d.side], cost, f"{n} {kind}")
    d.emit(LpSpent(d.side, cost, f"{n} {kind}"), PointsBought(d.side, kind, n))


def _set_aside(state: State, side: str) -> list[str]:
    """3.0, 8.2, 24.1: types of the chart's first two rows not recruited at set-up are set aside."""
    return sorted(u.id for u in state.units.values() if u.side == side and u.where == f"{side}-reinforcements"
                  and u.id not in state.to_place and u.id not in state.special_ready
                  and state.data.setup_only(side, state.spec(u.id).lp_type))


def _choose_candidates(state: State, side: str):
    for _, g, left in _open_groups(state, side):
        yield {"units": _pickable(state, g)[:left]}


def _recruit_candidates(state: State, side: str):
    seen = set()
    for u in state.in_display(f"{side}-reinforcements"):
        lp_type = state.spec(u.id).lp_type
        if lp_type not in seen and u.id not in state.to_place:
            seen.add(lp_type)
            yield {"units": [u.id]}


def _buy_candidates(state: State, side: str):
    for kind in BUYABLE[side]:
        yield {"n": 2 if kind == "kamikaze" else 1, "word": kind}


class SetupJapaneseLp(Step):
    """24.1/24.2: the Japanese player rolls his set-up LP, tactical air points and kamikaze points."""

    name = "setup-japanese-lp"

    def label(self, s: State) -> str:
        return f"Scenario {s.scenario} set-up: the Japanese roll for set-up LP, TAC and kamikaze points"

    @order("roll", "Formosa 24.1", "roll for set-up LP (1d6 + 15, Scenario 2: + 20), TAC (1d6 + 3) and kamikaze "
                                   "points (1d6)")
    def roll(self, d: Decision) -> None:
        scen = d.data.scenario(d.state.scenario)
        lp = d.roll("Japanese set-up LP (24.1)") + scen["japanese_setup_lp"]["add"]
        tac = d.roll("Japanese TAC points (24.1)") + scen["japanese_tac"]["add"]
        kamikaze = d.roll("Japanese kamikaze points (24.1)") + scen["japanese_kamikaze"]["add"]
        d.emit(SetupRolled(lp, tac, kamikaze), StepBegan("setup-japanese", 1))


def _place_candidates(state: State, side: str):
    data = state.data
    where = {"coastal-defense": data.ports(), "heavy-weapons": data.map.hexes_with("city") | data.map.hexes_with(
        "town"), "pw-camp": data.map.hexes_with("town") - data.map.hexes_with("city")}
    for uid in state.to_place[:3]:
        default = data.deployment.get(uid)
        if default is not None:
            yield {"unit": uid, "hex": str(default)}
        hexes = [str(h) for h in sorted(where.get(state.spec(uid).type, data.land()))]
        room = [h for h in hexes if not stack_after(state, h, "japanese", [uid])
                and not (state.since(9) and movement.closed_to(state, uid, h))]
        for h in room[:: max(1, len(room) // 6)]:
            yield {"unit": uid, "hex": h}


class SetupStep(Step):
    """3.0, 8.0: a side's set-up: the picks of its set-up groups and what it buys with its set-up LP (the
    Japanese set their recruits up on Formosa, the Allies put theirs in the Staging Area, 8.1)."""

    @order("choose UNIT [UNIT ...]", "Formosa 3.0", "pick units of a set-up group (player's choice)",
           _choose_candidates)
    def choose(self, d: Decision, units: list[str]) -> None:
        choose(d, units)

    @order("recruit UNIT [UNIT ...]", "Formosa 8.0", "recruit units with set-up LP", _recruit_candidates)
    def recruit(self, d: Decision, units: list[str]) -> None:
        recruit(d, units, setup=True)

    @order("buy N WORD", "Formosa 7.3", "buy points or markers: Japanese tac, mobile-fleet; Allied tac, gunfire, "
           "amphibious, drop-zone, b29, air-supply", _buy_candidates)
    def buy(self, d: Decision, n: int, word: str) -> None:
        buy(d, n, word, setup=True)


class SetupJapanese(SetupStep):
    """3.0, 24.1: the Japanese set up on Formosa, concealed or revealed, and recruit with their set-up LP."""

    name = "setup-japanese"

    def label(self, s: State) -> str:
        groups = "; ".join(f"choose {text}" for text in _open_group_texts(s, "japanese"))
        return (f"Scenario {s.scenario} set-up: the Japanese deploy on Formosa ({len(s.to_place)} units to place"
                f"{'; ' + groups if groups else ''}; {s.lp['japanese']} LP)")

    @order("place UNIT HEX [FACE]", "Formosa 3.0", "set a unit up on Formosa, concealed (the default) or revealed",
           _place_candidates)
    def place(self, d: Decision, unit: str, hex: str, face: str = "concealed") -> None:
        place(d, unit, hex, face != "revealed")

    @order("deploy default", "Formosa ruling F32", "choose and place the at-start units as the default deployment")
    def deploy(self, d: Decision) -> None:
        state: State = d.state
        deployment = d.data.deployment
        for key, g, _left in _open_groups(state, "japanese"):
            picks = [i for i in g["units"] if i in deployment and i in _pickable(d.state, g)]
            if picks:
                d.emit(UnitsChosen("japanese", key, picks[:_left]))
        placed = False
        for uid in d.state.to_place:
            if uid in deployment:
                place(d, uid, str(deployment[uid]), True)
                placed = True
        if not placed:
            d.refuse("Formosa ruling F32", "no unit left to place has a default hex")

    @order("end", "Formosa 24.1", "the Japanese set-up is complete")
    def end(self, d: Decision) -> None:
        state: State = d.state
        if _open_groups(state, "japanese"):
            d.refuse("Formosa 24.1",
                     "set-up groups still to choose: " + "; ".join(_open_group_texts(state, "japanese")))
        if state.to_place:
            d.refuse("Formosa 24.1", f"units still to set up: {', '.join(state.to_place)}")
        keep = d.data.scenario(state.scenario)["lp_kept_after_setup"]
        if state.lp["japanese"] > keep:
            d.refuse("Formosa 24.1", f"no more than {keep} LP may be kept after set-up: spend "
                                     f"{state.lp['japanese'] - keep} more")
        d.emit(SetupEnded("japanese", _set_aside(state, "japanese"), "setup-allied"))


def place(d: Decision, uid: str, hex: str, concealed: bool) -> None:
    """3.0, 8.1, rulings F33, F30: a Japanese unit set up on a land hex, within stacking, statics where 8.1
    deploys them."""
    state: State = d.state
    if uid not in state.to_place:
        d.refuse("Formosa 3.0", f"{uid} is not a unit to set up (still to place: {', '.join(state.to_place)})")
    # ruling F170 (rules version 22): 24.1 sets the Japanese up "On Formosa", named with the ruling that reads it
    on_land(d, hex, "Formosa 24.1, ruling F33" if state.since(22) else "Formosa ruling F33")
    static = movement.static_refusal(state, uid, hex)
    if static:
        d.refuse(*static)
    if state.since(9) and movement.closed_to(state, uid, hex):  # ruling F115
        d.refuse("Formosa 8.1", f"{uid} is mechanized: it is deployed in {d.data.map.terrain_of(H(hex))} only on a "
                                "road or railroad (12.2; terrain restrictions apply to deployment, 12.3)")
    problems = stack_after(state, hex, "japanese", [uid])
    if problems:
        d.refuse(problems[0].case, f"{hex} would be over-stacked: {problems[0].message}")
    d.emit(UnitPlaced(uid, hex, concealed))


class SetupAllied(SetupStep):
    """3.0, 24.1: the Allied forces wait in the Staging Area; the Allied player recruits with set-up LP."""

    name = "setup-allied"

    def label(self, s: State) -> str:
        groups = "; ".join(f"choose {text}" for text in _open_group_texts(s, "allied"))
        keep = s.data.scenario(s.scenario)["lp_kept_after_setup"]
        return (f"Scenario {s.scenario} set-up: the Allies recruit ({s.lp['allied']} LP; more than {keep} are "
                f"lost at the end{'; ' + groups if groups else ''})")

    @order("end", "Formosa 24.1", "the Allied set-up is complete (LP above 20 are lost)")
    def end(self, d: Decision) -> None:
        state: State = d.state
        if _open_groups(state, "allied"):
            d.refuse("Formosa 24.1", "set-up groups still to choose: " + "; ".join(_open_group_texts(state, "allied")))
        keep = d.data.scenario(state.scenario)["lp_kept_after_setup"]
        if state.lp["allied"] > keep:
            d.emit(LpLost("allied", state.lp["allied"] - keep, "Formosa 24.1"))
        d.emit(SetupEnded("allied", _set_aside(state, "allied"), "recon"))


class Recon(Step):
    """24.1 Special Rules: the Allied player rolls for the pre-invasion reconnaissance."""

    name = "recon"

    def label(self, s: State) -> str:
        return "Pre-invasion reconnaissance: the Allied player rolls for the stacks he may reveal"

    @order("roll", "Formosa 24.1", "roll 1d6: reveal that many Japanese stacks")
    def roll(self, d: Decision) -> None:
        d.emit(ReconRolled(d.roll("pre-invasion reconnaissance (24.1)")), StepBegan("recon-reveal", 1))


def _concealed_hexes(state: State) -> list[str]:
    return sorted({u.where for u in state.on_map("japanese") if u.concealed})


def _reveal_hex_candidates(state: State, side: str):
    hexes = _concealed_hexes(state)
    if hexes:
        yield {"hexes": hexes[:max(state.recon, 1)]}


RECON_SETS = 120  # ruling F156: the most sets of several stacks the reconnaissance list tries


def _every_reveal(state: State):
    """Ruling F154 (rules version 19): each concealed Japanese stack alone (24.1), where `_reveal_hex_candidates`
    names the first ones in hex order only. Ruling F156 (rules version 20): and every set of two stacks, of three,
    ... up to the stacks left to reveal, each size while the sets of it and of the smaller sizes number at most
    RECON_SETS (the reveals are free of dice, so a larger set is also reached one stack at a time: each listed)."""
    first = next(iter(_reveal_hex_candidates(state, "allied")), {"hexes": []})["hexes"]
    hexes = _concealed_hexes(state)
    if state.recon >= 1:
        for h in hexes:
            if [h] != first:
                yield Candidate("reveal", (h,), text=f"reveal {h}")
    if not state.since(20):
        return
    count = 0  # ruling F156 (rules version 20): every set of each size that fits RECON_SETS with the smaller ones
    for k in range(2, min(state.recon, len(hexes)) + 1):
        count += comb(len(hexes), k)
        if count > RECON_SETS:
            break
        for group in combinations(hexes, k):
            if list(group) != first:
                yield Candidate("reveal", group, text=f"reveal {' '.join(group)}")


class ReconReveal(Step):
    name = "recon-reveal"

    def label(self, s: State) -> str:
        return f"Pre-invasion reconnaissance: reveal up to {s.recon} Japanese stacks, then 'end'"

    @order("reveal HEX [HEX ...]", "Formosa 24.1", "reveal every concealed unit in these hexes",
           _reveal_hex_candidates)
    def reveal(self, d: Decision, hexes: list[str]) -> None:
        state: State = d.state
        if len(set(hexes)) != len(hexes):
            d.refuse("Formosa 24.1", "a hex is named twice")
        if len(hexes) > state.recon:
            d.refuse("Formosa 24.1", f"the reconnaissance reveals {state.recon} more stacks")
        for h in hexes:
            if h not in _concealed_hexes(state):
                d.refuse("Formosa 24.1", f"{h} holds no concealed Japanese stack")
        for h in hexes:
            units = [u for u in d.state.at(h, "japanese") if u.concealed]
            for i, u in enumerate(units):
                d.emit(UnitRevealed(u.id, h, "Formosa 24.1", deception=d.state.spec(u.id).type == "deception",
                                    recon=i == 0))
        if d.state.recon == 0:
            begin(d, FIRST_ON_GT1)

    @order("end", "Formosa 24.1", "reveal no more stacks: Game-Turn 1 begins")
    def end(self, d: Decision) -> None:
        begin(d, FIRST_ON_GT1)


# -- the Allied Player Turn --------------------------------------------------------------------------------------
def functional_port(state: State, hex: str) -> bool:
    """20.0: a port with an Allied engineer base in it."""
    return (bool(state.data.map.features_of(H(hex)) & {"major-port", "minor-port"})
            and any(u.base for u in state.at(hex, "allied")))


class Phase(Step):
    def label(self, s: State) -> str:
        phase = self.name.replace("-", " ").removeprefix(f"{s.side} ")  # "japanese combat": said once
        return f"Game-Turn {s.turn}: {s.side} {phase} phase"

    @order("end", SEQ, "end this phase")
    def end(self, d: Decision) -> None:
        after(d, self.name)


def _invaders(state: State) -> list[Unit]:
    return [u for u in state.units.values() if u.side == "allied" and not state.is_static(u) and (
        u.where in ("allied-staging", "amoy") or (is_hex(u.where) and functional_port(state, u.where)))]


def _land_candidates(state: State, side: str):
    """10.1, 10.2: the first four US units ready to land, on a spread of the beaches and ports free of the enemy and
    on every eighth all-sea hex next to a Japanese-held one. Since rules version 14 (ruling F128) also the first
    three other units with the first engineer ready (engineer ids sort after every regiment, so no listed landing
    carried one), on those hexes and on a spread of the port and airfield hexes it could build a base in (20.1).
    Since rules version 16 (ruling F131) the Commonwealth's units ready are listed the same way, in stacks of their
    own (10.2: every Allied mobile unit lands; 13.1: never with US units)."""
    if state.markers.get("amphibious", 0) < 1:
        return
    nations = ("us", "cw") if state.since(16) else ("us",)
    readies = [ready for ready in (sorted(u.id for u in _invaders(state) if state.spec(u.id).nationality == nat)
                                   for nat in nations) if ready]
    if not readies:
        return
    targets = sorted(str(h) for h in state.data.open_coastal() | state.data.ports()
                     if not state.at(str(h), "japanese") and str(h) not in state.used_hexes)
    spread = targets[:: max(1, len(targets) // 6)]
    sites = state.data.ports() | state.data.airfields()
    bases = [h for h in targets if H(h) in sites and h not in spread]
    by_nation = [[ready[:4], *_with_engineer(state, ready)] for ready in readies]  # each hex offers both nations'
    for h in spread:
        for stacks in by_nation:
            for units in stacks:
                yield {"hex": h, "units": units}
    for h in bases[:: -(-len(bases) // 6) or 1]:  # six at most
        for stacks in by_nation:
            if len(stacks) > 1:
                yield {"hex": h, "units": stacks[1]}
    for i, found in enumerate(invasion.sea_candidates(state, readies[0][:4])):
        if i % 8 == 0:
            for stacks in by_nation:
                for units in stacks:
                    yield {**found, "units": units}


def _with_engineer(state: State, ready: list[str]) -> list[list[str]]:
    """Ruling F128 (rules version 14): the stack of the first three units ready that are not engineers and the first
    engineer ready, when no engineer is among the first four (none, before version 14)."""
    engineers = [i for i in ready if state.spec(i).type == "engineer"]
    if not state.since(14) or not engineers or engineers[0] in ready[:4]:
        return []
    return [[i for i in ready if state.spec(i).type != "engineer"][:3] + engineers[:1]]


def _assault_candidates(state: State, side: str):
    yield from invasion.candidates(state)


def _drop_candidates(state: State, side: str):
    if state.markers.get("drop-zone", 0) < 1:
        return
    units = sorted(u.id for u in _invaders(state) if state.spec(u.id).type == "airborne"
                   and u.where in ("allied-staging", "amoy"))[:2]
    if not units:
        return
    for h in sorted(str(h) for h in state.data.airfields())[:3]:
        yield {"hex": h, "units": units}


def _every_drop(state: State):
    """Ruling F152 (rules version 19): the first two airborne regiments ready, together and each alone, on every
    airfield hex free of the enemy (10.1: an airfield whatever its terrain; 10.3), where `_drop_candidates` names
    the first three airfields."""
    if state.markers.get("drop-zone", 0) < 1:
        return
    units = sorted(u.id for u in _invaders(state) if state.spec(u.id).type == "airborne"
                   and u.where in ("allied-staging", "amoy"))[:2]
    groups = [units, *([[u] for u in units] if len(units) > 1 else [])] if units else []
    for h in sorted(str(h) for h in state.data.airfields() if not state.at(str(h), "japanese")):
        for group in groups:
            yield Candidate("drop", (h,), text=f"drop {h} with {' '.join(group)}")


class Invasion(Phase):
    """10.0-10.3: amphibious and airborne invasions from the invasion markers bought."""

    name = "invasion"

    def label(self, s: State) -> str:
        return (f"Game-Turn {s.turn}: Allied invasion phase ({s.markers.get('amphibious', 0)} amphibious, "
                f"{s.markers.get('drop-zone', 0)} drop zone markers)")

    @order("land HEX with UNIT [UNIT ...]", "Formosa 10.2.1", "land up to four units on an amphibious marker in "
           "an open coastal or port hex free of the enemy, or put them at sea in an all-sea hex next to a "
           "Japanese-held one to assault it (10.1 item 3)", _land_candidates)
    def land(self, d: Decision, hex: str, units: list[str]) -> None:
        state: State = d.state
        _marker(d, "amphibious", "Formosa 10.0")
        _before_assaults(d, "amphibious")
        if d.data.map.on_map(H(hex)) and not d.data.is_land(H(hex)):
            return invasion.place_at_sea(d, hex, units, _amphibious_units)
        on_land(d, hex, "Formosa 10.1")
        rangers = all(state.spec(i).type == "ranger" for i in units if i in state.units)
        ports = state.data.ports()
        if H(hex) not in ports and not (H(hex) in state.data.open_coastal()
                                        or (rangers and state.data.is_coastal(H(hex)))):
            d.refuse("Formosa 10.1", f"{hex} is neither an open coastal hex nor a port (rangers: any coastal hex, "
                                     "22.0)")
        _amphibious_units(d, hex, units)
        d.emit(UnitsLanded("amphibious", hex, list(units)))
        return None

    @order("assault HEX [from HEX:seas [HEX:seas ...]] [gunfire N] [cw-gunfire N:cw] [lp N:lp]", "Formosa 10.2.2",
           "the stacks at sea next to a Japanese-held coastal hex (all of them, or those in the sea hexes named) "
           "attack it, with up to 2 naval gunfire (17.0); no LP since rules version 23 (10.2.2, F173)",
           _assault_candidates,
           forbidden=(("assault HEX [from HEX:seas [HEX:seas ...]] [gunfire N] [cw-gunfire N:cw] [lp N:lp] supply air",
                       "Formosa 10.2.2", "an amphibious assault cannot be supported by air supply (19.4)"),))
    def assault(self, d: Decision, hex: str, seas: list[str], n: int = 0, cw: int = 0, lp: int = 0) -> None:
        invasion.assault(d, hex, n, lp, cw_gunfire=cw, seas=seas)

    @order("support HEX N [NATION]", "Formosa 10.2.2", "place N ground support points (assigned to tactical) on a "
           "hex the stacks at sea may assault, before the first assault (16.3, F86; 'cw' for Commonwealth points)",
           lambda state, side: invasion.support_candidates(state))
    def support(self, d: Decision, hex: str, n: int, nation: str | None = None) -> None:
        invasion.support(d, hex, n, nation)

    @order("drop HEX with UNIT [UNIT ...]", "Formosa 10.3", "drop up to two airborne regiments on a drop zone "
           "marker in an open or airfield hex free of the enemy", _drop_candidates)
    def drop(self, d: Decision, hex: str, units: list[str]) -> None:
        state: State = d.state
        _marker(d, "drop-zone", "Formosa 10.3")
        _before_assaults(d, "drop zone")
        on_land(d, hex, "Formosa 10.1")
        if state.data.map.terrain_of(H(hex)) != "open" and H(hex) not in state.data.airfields():
            d.refuse("Formosa 10.1", f"{hex} is neither an open hex nor an airfield")
        for uid in units:
            spec = state.spec(uid) if uid in state.units else None
            if spec is None or spec.type != "airborne" or spec.size != "regiment":
                d.refuse("Formosa 10.3", f"{uid} is not an airborne regiment")
            if state.units[uid].where not in ("allied-staging", "amoy"):  # 10.2's off-map starts (ruling F40)
                d.refuse("Formosa 10.3, ruling F40" if state.since(19) else "Formosa ruling F40",  # F149
                         f"{uid} drops from the Staging Area or Amoy only")
        _landing(d, hex, units, state.data.charts["stacking"]["drop_zone_units"], "Formosa 10.3")
        d.emit(UnitsLanded("drop-zone", hex, list(units)))

    @order("end", "Formosa 10.1", "end the Invasion Phase (every stack at sea must have assaulted; markers go "
           "back to the Reinforcements Display)")
    def end(self, d: Decision) -> None:
        invasion.end_phase(d)
        after(d, self.name)


def _amphibious_units(d: Decision, hex: str, units: list[str]) -> None:
    _landing(d, hex, units, d.data.charts["stacking"]["amphibious_units"], "Formosa 10.2", amphibious=True)


def _marker(d: Decision, kind: str, case: str) -> None:
    if kind == "amphibious" and d.state.strike.amphibious_barred:
        d.refuse("Formosa 18.0", "after the Decisive Battle no amphibious marker is placed this GT")
    if d.state.markers.get(kind, 0) < 1:
        d.refuse(case, f"no {kind} marker is ready: buy one in the Recruit Phase or at set-up")


def _before_assaults(d: Decision, kind: str) -> None:
    """10.1 (since rules version 21, ruling F165): the Allied player places all the markers he uses and then the
    units on them, and only then are the opposed landings fought (10.2.2): no marker is placed once an assault of
    this Invasion Phase has been declared, so no landing or drop is chosen knowing what an assault revealed or did."""
    state: State = d.state
    if state.since(21) and invasion.assault_declared(state):
        d.refuse("Formosa 10.1", f"the {kind} markers and their units are placed before the first assault of the "
                                 "Invasion Phase: an assault has been declared (ruling F165)")


def _landing(d: Decision, hex: str, units: list[str], limit: int, case: str, amphibious: bool = False) -> None:
    """10.1, 10.2: one amphibious marker a hex (a drop zone may join it, since rules version 4: ruling F105); up
    to `limit` mobile units from the Staging Area, Amoy or a functional port; the hex free of enemy units (an
    opposed landing is an assault); US and CW apart (13.1)."""
    state: State = d.state
    if state.since(4) and amphibious and hex in state.amphibious:
        d.refuse("Formosa 10.1", f"{hex} already has an amphibious marker: one a hex")
    if not state.since(4) and hex in state.used_hexes:
        d.refuse("Formosa 10.1", f"{hex} already has an invasion marker")
    if state.at(hex, "japanese") and not amphibious:  # 10.1 drop zone items 1-2: no hex the enemy occupies
        d.refuse("Formosa 10.1", f"{hex} holds Japanese units: a drop zone is placed only where no enemy unit is")
    if state.at(hex, "japanese"):
        d.refuse("Formosa 10.2.2", f"{hex} holds Japanese units: an opposed landing is an assault")
    if not 1 <= len(units) <= limit or len(set(units)) != len(units):
        d.refuse(case, f"one marker lands 1 to {limit} different units")
    ready = {u.id for u in _invaders(state)}
    for uid in units:
        u = own_unit(d, uid, case)
        if uid not in ready:
            d.refuse("Formosa 10.2", f"{uid} must be a mobile unit in the Staging Area, Amoy or a functional port")
        del u
        if state.since(10) and movement.closed_to(state, uid, hex):  # a custom map's mountain port (F115, F120)
            d.refuse("Formosa 12.2", f"{uid} is mechanized: it lands in {d.data.map.terrain_of(H(hex))} only where a "
                                     "road or railroad runs through the hex (ruling F115)")
    if len({state.spec(i).nationality for i in units}
           | {state.spec(u.id).nationality for u in state.at(hex, "allied")}) > 1:
        d.refuse("Formosa 13.1", "US and Commonwealth units never stack together")


def staging_displays(state: State) -> tuple[str, ...]:
    """Where Allied units stage from for a landing or a naval transfer: the Allied Staging Area, and Amoy once it
    has fallen (9.0, ruling F34; for naval transfer since rules version 4, F105, and to it since 5, F108)."""
    amoy = ("amoy",) if state.amoy_turn is not None and state.since(4) else ()
    return ("allied-staging", *amoy)


def _transfer_candidates(state: State, side: str):
    for u in [u for where in staging_displays(state) for u in state.in_display(where)[:2]]:
        for h in sorted({x.where for x in state.on_map("allied") if state.data.is_coastal(H(x.where))})[:2]:
            yield {"unit": u.id, "place": h}
    for u in state.on_map("allied")[:4]:
        yield {"unit": u.id, "place": "staging"}
        if "amoy" in staging_displays(state) and state.since(5):
            yield {"unit": u.id, "place": "amoy"}


def more_orders(state: State, side: str):
    """Ruling F125 (rules version 13): every order of a kind whose candidates name only a few, for the list of legal
    orders and a unit's orders (`orders for UNIT`, the play page's ?naming=; app/rules/legal.py
    `listed_candidates`): the few stay what the random player draws from, as they were, but a unit past them was
    listed nowhere. The decider keeps those it accepts."""
    if state.since(19) and state.pending:  # a decision waits: only its own orders (ruling F151)
        p = state.pending[0]
        if p["kind"] == "losses" and p["side"] == side:
            for combo in combat.loss_choices(state, p["units"], p["count"], p["min_cf"])[6:]:
                yield Candidate("lose", tuple(combo), text=f"lose {' '.join(combo)}")
        elif p["kind"] == "defence" and p["side"] == side and state.since(20):
            yield from _every_defence(state, side)
        elif p["kind"] == "exploit" and p["side"] == side and state.since(20):
            exploits = _every_exploit(state)
            yield from (Candidate("exploit", tuple(a["hexes"]), text=_attack_text("exploit", a)) for a in exploits)
            yield from _every_extra(state, side, "exploit", exploits)
        elif p["kind"] in ("air-losses", "kamikaze-hits") and p["side"] == side and state.since(20):
            yield from strike.every_split(state, side)
        return
    if not state.since(13) or state.side != side:
        return
    if state.step == "naval-transfer":
        yield from _every_transfer(state)
    elif state.step == f"recruit-{side}":
        yield from _every_recruit(state, side)
        if state.since(20):
            yield from _every_buy(state, side)
    elif state.step == f"setup-{side}" and state.since(20):
        yield from _every_setup(state, side)
    elif state.step == f"{side}-movement" and state.since(19):
        yield from _every_move(state, side)
        if side == "japanese" and state.since(20):
            yield from _every_japanese_reveal(state)
        if state.since(20):
            yield from _every_special(state, side)
    elif state.step == "recon-reveal" and state.since(19):
        yield from _every_reveal(state)
    elif state.step in (f"{side}-combat", "invasion") and state.since(19):
        yield from _every_support(state, side)
        if state.step == "invasion":
            yield from _every_drop(state)
            if state.since(20):
                yield from _every_assault(state)
        elif state.since(20):
            attacks = _every_attack(state, side)
            yield from (Candidate("attack", tuple(a["hexes"]), text=_attack_text("attack", a)) for a in attacks)
            yield from _every_extra(state, side, "attack", attacks)
            if side == "japanese":
                yield from _every_japanese_reveal(state)
    elif state.step == "b29" and state.since(19) and not state.strike.b29_used and airpower.assigned(
            state, "allied", "b29"):
        yield from (Candidate("strike", (h,), text=f"strike {h}") for h in sorted(
            {u.where for u in state.on_map("japanese")}))  # 16.5: any hex holding Japanese units (ruling F150)


GUNFIRE_KEYS = (("gunfire", "us", "gunfire"), ("cw-gunfire", "cw", "cw-gunfire"))


def _extras(state: State, side: str, units: list[Unit], *, attacking: bool = True, assault: bool = False,
            air: bool = True) -> list[dict[str, int]]:
    """Ruling F155 (rules version 20): each set of the optional extras a combat may be given that the side holds:
    Allied naval gunfire, US and Commonwealth, up to two with a unit of that nationality and (but in an assault)
    one in a coastal hex (17.0, 16.0, 5.1 item 3); LP, the Allies two attacking, else one (15.4.1; never in an
    assault from rules version 23, 10.2.2, ruling F173); the air supply
    unit unused this GT (19.4, never with LP: one needs a line, the other none; never an assault, 10.2.2). A cheap
    reading of what the side has: the decider judges each (lines of supply, the B-29's hex, 25.3)."""
    gunfire = [(0, 0)]
    limit = state.data.charts["stacking"]["gunfire_per_combat"]
    if side == "allied" and not state.strike.gunfire_withdrawn and (
            assault or any(is_hex(u.where) and state.data.is_coastal(H(u.where)) for u in units)):
        nats = {state.spec(u.id).nationality for u in units}
        us, cw = (min(state.naval.get(key, 0), limit) if nat in nats else 0 for key, nat, _ in GUNFIRE_KEYS)
        gunfire = [(n, c) for n in range(us + 1) for c in range(cw + 1) if n + c <= limit]
    lps = range(1) if assault and state.since(23) else range(  # ruling F173: no LP in an assault
        min(state.lp.get(side, 0), 2 if side == "allied" and attacking else 1) + 1)
    airs = (False, True) if (air and not assault and side == "allied" and state.air.get("air-supply", 0)
                             and state.air_supply_turn != state.turn) else (False,)
    return [{"n": n, "cw": c, "lp": lp, "air": int(a)} for n, c in gunfire for lp in lps for a in airs
            if (n or c or lp or a) and not (lp and a)]


def _words_of(extra: dict[str, int], defending: bool = False) -> str:
    """The extras as the order writes them (attack, exploit, assault: gunfire, cw-gunfire, lp, supply; defend: lp
    first)."""
    gun = [f"gunfire {extra['n']}"] * bool(extra["n"]) + [f"cw-gunfire {extra['cw']}"] * bool(extra["cw"])
    lp = [f"lp {extra['lp']}"] * bool(extra["lp"])
    words = [*lp, *gun] if defending else [*gun, *lp]
    return " ".join(words + ["supply air"] * bool(extra["air"]))


def _every_attack(state: State, side: str) -> list[dict]:
    """Ruling F157 (rules version 20): every attack a side's units may declare (15.0, 15.1): each set of the enemy
    hexes next to a stack that may attack (not attacked this phase, not across an all-sea hexside), by every set
    of the stacks next to all of them (five or more such stacks: all of them and each alone), each stack's units
    together (F41); the decider keeps those it accepts (15.1's binding ZOC, 10.2.1). `_attack_candidates` names
    only each unit's ZOC hexes with every unit that may join, or the first enemy hex next to a unit no ZOC binds."""
    enemy = other(side)
    near = state.data.map.neighbours
    stacks: dict[str, list[str]] = {}
    for u in state.on_map(side):
        if combat.can_attack(state, u):
            stacks.setdefault(u.where, []).append(u.id)
    out, seen = [], set()
    for h in stacks:
        foes = sorted(str(n) for n in near(H(h)) if state.at(str(n), enemy) and not combat.attacked(state, str(n))
                      and not combat.attack_blocked(state, h, str(n)))
        for k in range(1, len(foes) + 1):
            for hexes in combinations(foes, k):
                if hexes in seen:
                    continue
                seen.add(hexes)
                by = sorted(s for s in stacks if all(H(t) in near(H(s)) and not combat.attack_blocked(state, s, t)
                                                     for t in hexes))
                groups = ([g for n in range(len(by), 0, -1) for g in combinations(by, n)] if len(by) <= 4
                          else [tuple(by), *((s,) for s in by)])
                for group in groups:
                    out.append({"hexes": list(hexes), "units": sorted(i for s in group for i in stacks[s])})
    return out


def _every_special(state: State, side: str):
    """Ruling F162 (rules version 20): each unit the air supply marker may fly to each functional airbase (25.3),
    and the Marine Brigade's landing (25.7) and the Airborne Raiders' drop (25.8) on every hex they may take, where
    the candidates name the first unit to the first airbase and a spread of three hexes."""
    if side == "allied" and optional.chosen(state, "25.3") and state.air.get("air-supply", 0) >= 1:
        bases = optional.functional_airbases(state)
        for u in state.in_display("allied-staging") if bases else ():
            if state.spec(u.id).type in optional.AIRLIFT_TYPES:
                yield from (Candidate("airlift", (u.id,), text=f"airlift {u.id} to {b}") for b in bases)
    if side == "japanese":
        for rule, verb in (("25.7", "land {} with jp-marine"), ("25.8", "raid {}")):
            if optional.chosen(state, rule):
                for h in optional.landing_hexes(state, rule):
                    yield Candidate(verb.split()[0], (h,), text=verb.format(h))


def _every_exploit(state: State) -> list[dict]:
    """Ruling F161 (rules version 20): every exploitation attack (25.1): each stack of the force that may make one,
    with any number of its units (every set; five or more units: all and each alone), on each set of the enemy
    hexes next to it, where `optional.exploit_candidates` names the whole stack against each of its first two
    enemy hexes alone."""
    by_hex: dict[str, list[str]] = {}
    for uid in state.pending[0]["units"]:
        by_hex.setdefault(state.units[uid].where, []).append(uid)
    out = []
    for hex, units in sorted(by_hex.items()):
        foes = optional.exploit_targets(state, hex)
        groups = ([g for n in range(len(units), 0, -1) for g in combinations(sorted(units), n)] if len(units) <= 4
                  else [tuple(sorted(units)), *((u,) for u in sorted(units))])
        for k in range(1, len(foes) + 1):
            for hexes in combinations(foes, k):
                out.extend({"hexes": list(hexes), "units": list(g)} for g in groups)
    return out


def _attack_text(verb: str, args: dict) -> str:
    return f"{verb} {' '.join(args['hexes'])} with {' '.join(args['units'])}"


def _every_extra(state: State, side: str, verb: str, found):
    """Ruling F155 (rules version 20): each attack (or exploitation attack, 25.1) the candidates name, with each
    set of its optional extras (`_extras`), where the candidates name none."""
    for args in found:
        units = [state.units[u] for u in args["units"]]
        head = _attack_text(verb, args)
        for extra in _extras(state, side, units):
            yield Candidate(verb, tuple(args["hexes"]), text=f"{head} {_words_of(extra)}")


def _every_assault(state: State):
    """Ruling F155 (rules version 20): each opposed landing's assault (10.2.2) by every set of the stacks at sea
    next to the hex (F24, F108), each with each set of its extras (gunfire, LP: `_extras`), where
    `invasion.candidates` names the stacks all together and each alone, with the most gunfire or one LP."""
    for h in sorted({h for u in invasion.waiting(state) for h in invasion.targets(state, u.where)}):
        seas = sorted({u.where for u in invasion.assaulting(state, h)})
        groups = [[]] + ([list(g) for k in range(1, len(seas)) for g in combinations(seas, k)]
                         if state.since(5) else [])
        for group in groups:
            head = f"assault {h}" + (f" from {' '.join(group)}" if group else "")
            extras = _extras(state, "allied", invasion.force(state, h, group or None), assault=True)
            for extra in ([{"n": 0, "cw": 0, "lp": 0, "air": 0}] if 1 < len(group) else []) + extras:
                words = _words_of(extra)
                yield Candidate("assault", (h,), text=f"{head} {words}".strip())


def _every_defence(state: State, side: str):
    """Ruling F155 (rules version 20): each answer the defender may give (15.4.1, 17.0, 19.4): `_extras` for the
    defending units (one LP at most), where the candidates name none, one LP, one US gunfire and air supply."""
    attack = state.strike.declared
    defenders = [u for h in attack["hexes"] for u in state.at(h, side)]
    for extra in _extras(state, side, defenders, attacking=False):
        yield Candidate("defend", (), text=f"defend {_words_of(extra, defending=True)}")


def _every_japanese_reveal(state: State):
    """Ruling F156 (rules version 20): 11.2's voluntary reveal of each concealed Japanese unit on the map, alone
    (a deception unit too: it is then removed, 11.1), and of each concealed stack whole, where the candidates name
    the first unit only; under one subject, so they never crowd out the units' moves of a full list."""
    stacks: dict[str, list[str]] = {}
    for u in state.on_map("japanese"):  # one subject for all: the list's first pass names one reveal, as before,
        if u.concealed:                 # and the rest fill its rounds; a unit's orders name its own (`naming`)
            stacks.setdefault(u.where, []).append(u.id)
            yield Candidate("reveal", (), text=f"reveal {u.id}")
    for ids in stacks.values():
        if len(ids) > 1:
            yield Candidate("reveal", (), text=f"reveal {' '.join(sorted(ids))}")


def _every_transfer(state: State):
    """21.0: a staged unit to each functional port and Allied-held coastal hex (item 1); a unit at a functional port
    to the Staging Area (or a fallen Amoy), each functional port and each coastal hex free of the enemy (item 2);
    from another coastal hex to the Staging Area, Amoy or a functional port (item 3)."""
    data = state.data
    boxes = ("staging", *(("amoy",) if "amoy" in staging_displays(state) and state.since(5) else ()))
    functional = state.functional_ports()
    held = sorted({u.where for u in state.on_map("allied") if data.is_coastal(H(u.where))})
    free = sorted(str(h) for h in data.land() if data.is_coastal(h) and not state.at(str(h), "japanese"))
    movers = [u for where in staging_displays(state) for u in state.in_display(where)] + [
        u for u in state.on_map("allied") if data.is_land(H(u.where)) and data.is_coastal(H(u.where))]
    for u in movers:
        if state.is_static(u) or u.moved:
            continue
        if u.where in staging_displays(state):
            places = [*functional, *held]
        elif u.where in functional:
            places = [*boxes, *functional, *free]
        else:
            places = [*boxes, *functional]
        for place in dict.fromkeys(places):
            if place != u.where:
                yield Candidate("transfer", (u.id,), text=f"transfer {u.id} to {place}")


def _every_recruit(state: State, side: str):
    """8.0-8.3: each unit of the Reinforcements Display (8.2: of a type of several strengths, the player picks
    which), each of the Replacements Display (8.3), and each unit bought this phase to each place 8.1 deploys it."""
    for u in state.in_display(f"{side}-reinforcements"):
        if u.id not in state.to_place:
            yield Candidate("recruit", (u.id,), text=f"recruit {u.id}")
    for u in state.in_display(f"{side}-replacements"):
        yield Candidate("replace", (u.id,), text=f"replace {u.id}")
    for uid in [u for u in state.to_place if state.units[u].side == side]:
        if side == "japanese":
            places = japanese_deploy_hexes(state, uid)
        else:
            places = [*state.functional_ports(), *(["amoy"] if state.amoy_turn is not None else []),
                      *optional.usmc_hexes(state, uid)]
        for place in dict.fromkeys(places):
            yield Candidate("deploy", (uid,), text=f"deploy {uid} {place}")


def _every_buy(state: State, side: str):
    """Ruling F159 (rules version 20): the purchase of each kind of points or markers (7.3) under a subject of its
    own, so a list that names every unit (the set-up's) still names every kind the side may buy. Several of a kind
    are bought one order at a time (no die, nothing between two purchases), so `buy N` stays typed only: listing
    each number skewed the automated seats toward the kinds with the most counters (ten `buy N tac` to one
    `buy 1 amphibious`)."""
    for kind in BUYABLE[side]:
        yield Candidate("buy", (kind,), text=f"buy {2 if kind == 'kamikaze' else 1} {kind}")


CHOICES = 30  # ruling F159: the most picks of one set-up group the list tries


def _every_setup(state: State, side: str):
    """Ruling F159 (rules version 20): at set-up (3.0, 24.1), every pick of each set-up group still open (each
    unit alone, and every set of up to the units left to choose while there are at most CHOICES of them), each
    unit the set-up LP may recruit, each kind of points and markers (`_every_buy`), and each Japanese unit still
    to place on its default hex (ruling F32), where the candidates name the first pick, the first unit of each
    type and the first three units to place."""
    for _, g, left in _open_groups(state, side):
        units = _pickable(state, g)
        sizes = range(1, min(left, len(units)) + 1)
        many = sum(comb(len(units), k) for k in sizes) > CHOICES
        for k in sizes[:1] if many else sizes:
            for group in combinations(units, k):
                yield Candidate("choose", group, text=f"choose {' '.join(group)}")
    grouped = {i for _, g, _ in _open_groups(state, side) for i in g["units"]}
    for u in state.in_display(f"{side}-reinforcements"):
        if u.id not in state.to_place and u.id not in grouped:
            yield Candidate("recruit", (u.id,), text=f"recruit {u.id}")
    yield from _every_buy(state, side)
    if side == "japanese":
        for uid in state.to_place[3:]:
            default = state.data.deployment.get(uid)
            if default is not None:
                yield Candidate("place", (uid,), text=f"place {uid} {default}")


def _read_place(word: str) -> str:
    if word.lower() in ("staging", "amoy"):
        return word.lower()
    if len(word) == 4 and word.isascii() and word.isdigit():
        return word
    raise ValueError("is neither a hex (XXYY) nor 'staging' nor 'amoy'")


class NavalTransfer(Phase):
    """21.0: Allied units move by sea between the Staging Area, ports and coastal hexes."""

    name = "naval-transfer"

    @order("transfer UNIT to PLACE", "Formosa 21.0", "move a mobile unit by sea to a port or coastal hex, or to "
           "the Staging Area ('staging') or a fallen Amoy ('amoy', 9.0)", _transfer_candidates)
    def transfer(self, d: Decision, unit: str, place: str) -> None:
        transfer(d, unit, place)


def transfer(d: Decision, uid: str, place: str) -> None:
    state: State = d.state
    case = "Formosa 21.0"
    u = own_unit(d, uid, case)
    data = state.data
    if state.is_static(u):
        d.refuse(case, f"{uid} is static: only mobile units transfer by sea")
    if u.moved:
        d.refuse(case, f"{uid} has been transferred this phase")
    frm = u.where
    staged = frm in staging_displays(state)
    if not staged and not (is_hex(frm) and data.is_coastal(H(frm))):
        d.refuse(case, f"{uid} must begin in the Staging Area (or Amoy once it has fallen, 9.0), a functional port "
                       "or a coastal hex")
    if place == "amoy" and not state.since(5):
        d.refuse(case, "naval transfer goes to a port or coastal hex or to the Staging Area, not to Amoy")
    if place == "amoy" and state.amoy_turn is None:
        d.refuse("Formosa 9.0", "Amoy serves as a Staging Area only once the Allies have conquered it")
    to = "allied-staging" if place == "staging" else place  # 9.0: a fallen Amoy is a Staging Area (ruling F108)
    if to == frm:
        d.refuse(case, f"{uid} is already there")
    if is_hex(to):
        on_land(d, to, case)
        if not data.is_coastal(H(to)):
            d.refuse(case, f"{to} is neither a port nor a coastal hex")
        if state.at(to, "japanese"):
            d.refuse(case, f"{to} holds enemy units: no unit debarks there")
        mover_class = state.spec(uid).mobility
        closed = data.map.terrain_of(H(to)) in data.movement.costs[mover_class].road_only_terrain
        if movement.closed_to(state, uid, to) if state.since(9) else closed:  # a road lets it in (F115)
            d.refuse(case, f"{uid} could not otherwise enter {to} ({data.map.terrain_of(H(to))})")
    functional = {h for h in (frm, to) if is_hex(h) and functional_port(state, h)}
    if staged and is_hex(to) and not state.at(to, "allied"):
        d.refuse(case, f"{to} is not friendly-controlled: from the Staging Area units go to hexes Allied units hold")
    if is_hex(frm) and frm not in functional and to not in staging_displays(state) and to not in functional:
        d.refuse(case, f"from {frm} (no functional port) a unit goes only to a functional port or the Staging Area")
    limits = data.charts["stacking"]
    for h in functional:
        if sum(1 for x in state.used_hexes if x.endswith(h)) >= limits["transfer_per_functional_port"]:
            d.refuse(case, f"{limits['transfer_per_functional_port']} units have already used the port in {h}")
    if is_hex(frm) and frm not in functional and f"from-{frm}" in state.used_hexes:
        d.refuse(case, f"one unit a phase leaves {frm} (no functional port)")
    problems = stack_after(state, to, "allied", [uid]) if is_hex(to) and state.since(4) else []
    if problems:  # 21.0 item 1: "within stacking limits" (ruling F105)
        d.refuse(case, f"{to} would be over-stacked: {problems[0].message} ({problems[0].case})")
    d.emit(UnitTransferred(uid, frm, to))


def _move_candidates(state: State, side: str):
    """Each unit that may move to its farthest and its nearest destination (what the random player draws from; the
    others: `_every_move`)."""
    for u in state.on_map(side):
        if movement.cannot_move(state, u):
            continue
        hexes = movement.reachable(state, u)
        for target in hexes[-1:] + hexes[:1]:
            yield {"unit": u.id, "hexes": movement.path_to(state, u, target)}


def _every_move(state: State, side: str):
    """Ruling F147 (rules version 19): the moves `_move_candidates` leaves out that spend a unit's whole allowance on
    the one hex next to it (12.3's minimum move, or a hex that costs exactly its allowance), and every move of a unit
    whose moves all end next to it, for the list and a unit's orders (`sequence.more_orders`)."""
    near = state.data.map.neighbours
    for u in state.on_map(side):
        if movement.cannot_move(state, u):
            continue
        hexes = movement.reachable(state, u)
        around = {str(h) for h in near(H(u.where))}
        whole = movement.allowance(state, u)
        every = set(hexes) <= around
        for target in hexes[1:-1]:
            if target in around and (every or movement.cost_to(state, u, target) >= whole):
                yield Candidate("move", (u.id,), text=f"move {u.id} {target}")


def _every_support(state: State, side: str):
    """Ruling F150 (rules version 19): ground support on every hex it may be placed on, before the first attack (16.3:
    a hex of enemy units next to the side's units; in the Invasion Phase a hex the stacks at sea may assault, F86),
    with each number of points a hex may take (the Allies two, US or Commonwealth, the Japanese one: 16.3, 13.2)."""
    if state.attacked_hexes or state.combat is not None:
        return
    if state.step == "invasion":
        hexes = sorted({h for u in invasion.waiting(state) for h in invasion.targets(state, u.where)})
    else:
        enemy = other(side)
        hexes = sorted({str(n) for u in state.on_map(side) for n in state.data.map.neighbours(H(u.where))
                        if state.at(str(n), enemy)})
    nations = (("us", "tactical"), ("cw", "cw-tactical")) if side == "allied" else (("japanese", "tactical"),)
    for nat, mission in nations:
        left = airpower.assigned(state, side, mission) - airpower.placed(state, side, nat)
        most = min(left, 2 if side == "allied" else 1)
        for h in hexes:
            for n in range(1, most + 1):
                yield Candidate("support", (h,), text=f"support {h} {n}{' cw' if nat == 'cw' else ''}")


class Movement(Phase):
    """12.0: the phasing player moves units one at a time; stacking is checked at the end (13.0)."""

    @order("move UNIT HEX [HEX ...]", "Formosa 12.0", "move a unit along adjacent hexes (its start left out)",
           _move_candidates, forbidden=(("move UNIT [UNIT ...] to HEX [HEX ...]", "Formosa 12.0",
                                         "a unit moves alone, along every hex it enters: 'move UNIT HEX [HEX ...]'"),))
    def move(self, d: Decision, unit: str, hexes: list[str]) -> None:
        movement.move(d, unit, hexes)

    @order("end", "Formosa 13.0", "end the Movement Phase (stacking is checked)")
    def end(self, d: Decision) -> None:
        if not check_stacking(d, (d.state.side,), self.name):
            after(d, self.name)


def _motorized_candidates(state: State, side: str):
    gmap = state.data.map
    for h in sorted({u.where for u in state.on_map("allied") if not movement.cannot_move(state, u)
                     and not u.motorized}):
        if gmap.is_road_hex(H(h)) or gmap.is_rail_hex(H(h)):
            yield {"hex": h}


class AlliedMovement(Movement):
    name = "allied-movement"

    @order("motorized HEX", "Formosa 22.0", "for 1 LP the units in a road or railroad hex that trace a line of "
           "supply double their movement factor this phase, moving only along roads and railroads",
           _motorized_candidates)
    def motorized(self, d: Decision, hex: str) -> None:
        movement.motorize(d, hex)

    @order("airlift UNIT to HEX", "Formosa 25.3", "fly an infantry, airborne, ranger or engineer unit from the "
           "Staging Area to a functional airbase with the air supply marker (one MP)",
           lambda s, side: optional.airlift_candidates(s, side), option="25.3")
    def airlift(self, d: Decision, unit: str, hex: str) -> None:
        optional.airlift(d, unit, hex)


def _attack_candidates(state: State, side: str):
    seen = set()
    for u in state.on_map(side):
        if not combat.can_attack(state, u):
            continue
        targets = [h for h in combat.zoc_hexes_on(state, u) if not combat.attacked(state, h)]
        if not targets:
            targets = [str(n) for n in state.data.map.neighbours(H(u.where))
                       if state.at(str(n), other(side)) and not combat.attacked(state, str(n))]
            targets = targets[:1]
        if not targets or tuple(targets) in seen:
            continue
        seen.add(tuple(targets))
        units = sorted(x.id for x in state.on_map(side) if combat.can_attack(state, x)
                       and all(H(t) in state.data.map.neighbours(H(x.where)) for t in targets))
        yield {"hexes": targets, "units": units}


class CombatPhase(Phase, strike.GroundSupport):
    """15.0: the phasing player attacks; every unit in an EZOC must attack (14.2); stacking is checked for both
    sides at the end (13.0)."""

    @order("attack HEX [HEX ...] with UNIT [UNIT ...] [gunfire N] [cw-gunfire N:cw] [lp N:lp] [supply SUPPLY]",
           "Formosa 15.0", "attack enemy hexes with adjacent units (Allied: up to 2 naval gunfire, US or "
           "Commonwealth for a unit of that nationality, 17.0, 16.0; LP for right shifts: Allied 1 or 2, Japanese "
           "1, 15.4.1; 'supply air': the Allied air supply unit, 19.4)", _attack_candidates)
    def attack(self, d: Decision, hexes: list[str], units: list[str], n: int = 0, cw: int = 0, lp: int = 0,
               supply: str = "") -> None:
        combat.declare(d, hexes, units, n, lp, air_supply=supply == "air", cw_gunfire=cw)

    @order("end", "Formosa 15.0", "end the Combat Phase (every unit in an enemy ZOC must have attacked)")
    def end(self, d: Decision) -> None:
        owed = combat.owed_attacks(d.state, d.side)
        if owed:
            d.refuse("Formosa 15.0", f"units in an enemy ZOC must attack: {', '.join(owed[:6])}")
        owed = combat.owed_attacks(d.state, d.side, landed=True)
        if owed:
            d.refuse("Formosa 10.2.1", f"units that made an amphibious invasion this GT must attack the adjacent "
                                       f"Japanese units: {', '.join(owed[:6])}")
        if not check_stacking(d, (d.side, other(d.side)), self.name):
            after(d, self.name)


class AlliedCombat(CombatPhase):
    name = "allied-combat"


def _build_candidates(state: State, side: str):
    for u in state.on_map("allied"):
        if state.spec(u.id).type == "engineer" and not u.base and state.data.objectives(H(u.where)):
            yield {"hex": u.where}


def _demobilise_candidates(state: State, side: str):
    for u in state.on_map("allied"):
        if u.base:
            yield {"hex": u.where}


class BaseBuilding(Phase):
    """20.1, 20.2: engineers flip to bases in port and airfield hexes, and back."""

    name = "base-building"

    @order("build HEX", "Formosa 20.1", "flip an engineer in a port or airfield hex to its base side (3, 1 or 4 "
           "LP)", _build_candidates)
    def build(self, d: Decision, hex: str) -> None:
        state: State = d.state
        feats = d.data.map.features_of(H(hex)) if d.data.map.on_map(H(hex)) else set()
        port = bool(feats & {"major-port", "minor-port"})
        field_ = "airfield" in feats
        if not port and not field_:
            d.refuse("Formosa 20.1", f"{hex} has neither a port nor an airfield")
        engineers = [u for u in state.at(hex, "allied") if state.spec(u.id).type == "engineer" and not u.base]
        if not engineers:
            d.refuse("Formosa 20.1", f"no Allied engineer on its mobile side is in {hex}")
        if any(u.base for u in state.at(hex, "allied")):
            d.refuse("Formosa 20.1", f"{hex} already has an engineer base")
        costs = d.data.charts["allied_other"]
        cost = costs["base_port_and_airfield"] if port and field_ else costs["base_port" if port else "base_airfield"]
        if cost > state.lp["allied"]:
            d.refuse("Formosa 7.2", f"a base in {hex} costs {cost} LP; the Allies have {state.lp['allied']}")
        d.emit(LpSpent("allied", cost, f"base in {hex}"), BaseBuilt(engineers[0].id, hex))

    @order("demobilise HEX", "Formosa 20.2", "flip the base in a hex back to its engineer side",
           _demobilise_candidates)
    def demobilise(self, d: Decision, hex: str) -> None:
        bases = [u for u in d.state.at(hex, "allied") if u.base] if is_hex(hex) else []
        if not bases:
            d.refuse("Formosa 20.2", f"no Allied base is in {hex}")
        d.emit(BaseDemobilised(bases[0].id, hex))


# -- the Strategic Stage ------------------------------------------------------------------------------------------
def japanese_deploy_hexes(state: State, uid: str) -> list[str]:
    """8.1: where a Japanese reinforcement or replacement deploys: a city or port hex holding a Japanese unit;
    coastal defense in a port, heavy weapons in a city or town, neither where a static unit is; guerrillas with
    a revealed static unit or in a city, town, airfield, port, rough or mountain hex free of Allied units.
    Found once per position and unit (the list of legal orders and its checks ask again and again)."""
    return list(state.memo(("japanese deploy hexes", uid), lambda: tuple(_japanese_deploy_hexes(state, uid))))


def _japanese_deploy_hexes(state: State, uid: str) -> list[str]:
    kind = state.spec(uid).type
    out = []
    for label, feats, terrain in state.data.land_sites:
        mine = state.at(label, "japanese")
        if state.at(label, "allied"):
            continue
        statics = [u for u in mine if state.is_static(u)]
        if kind == "coastal-defense":
            ok = bool(feats & {"major-port", "minor-port"}) and not statics
        elif kind == "heavy-weapons":
            ok = bool(feats & {"city", "town"}) and not statics
        elif kind == "guerrilla":
            ok = any(not u.concealed for u in statics) or bool(
                feats & {"city", "town", "airfield", "major-port", "minor-port"}) or terrain in ("rough", "mountain")
        else:
            ok = bool(feats & {"city", "major-port", "minor-port"}) and bool(mine)
        if ok and not stack_after(state, label, "japanese", [uid]):
            out.append(label)
    return out


def _recruit_phase_candidates(state: State, side: str):
    yield from _recruit_candidates(state, side)


def _replace_candidates(state: State, side: str):
    for u in state.in_display(f"{side}-replacements")[:3]:
        yield {"units": [u.id]}


def _deploy_candidates(state: State, side: str):
    for uid in [u for u in state.to_place if state.units[u].side == side][:3]:
        if side == "japanese":
            for h in japanese_deploy_hexes(state, uid)[:4]:
                yield {"unit": uid, "place": h}
        else:
            for h in state.functional_ports()[:2] + (["amoy"] if state.amoy_turn is not None else []) + \
                    optional.usmc_candidates(state, uid):
                yield {"unit": uid, "place": h}


class Recruit(Phase):
    """8.0-8.3: the side recruits and replaces with LP and deploys what it bought (Japanese first)."""

    side_of_step = ""

    def label(self, s: State) -> str:
        return (f"Game-Turn {s.turn}: {self.side_of_step} recruit phase ({s.lp[self.side_of_step]} LP; more than "
                f"{s.data.charts['income']['cap']} are lost at its end)")

    @order("recruit UNIT [UNIT ...]", "Formosa 8.0", "recruit units from the Reinforcements Display",
           _recruit_phase_candidates)
    def recruit(self, d: Decision, units: list[str]) -> None:
        recruit(d, units, setup=False)

    @order("replace UNIT [UNIT ...]", "Formosa 8.3", "bring units back from the Replacements Display",
           _replace_candidates)
    def replace(self, d: Decision, units: list[str]) -> None:
        recruit(d, units, setup=False, replacing=True)

    @order("buy N WORD", "Formosa 7.3", "buy air points, gunfire, invasion markers or the mobile fleet",
           _buy_candidates)
    def buy(self, d: Decision, n: int, word: str) -> None:
        buy(d, n, word, setup=False)

    @order("deploy UNIT PLACE", "Formosa 8.1", "deploy a unit bought this phase (Japanese: a hex of 8.1; "
           "Allied: Amoy or a functional port, else it stays in the Staging Area)", _deploy_candidates)
    def deploy(self, d: Decision, unit: str, place: str) -> None:
        state: State = d.state
        u = own_unit(d, unit, "Formosa 8.1")
        if unit not in state.to_place:
            d.refuse("Formosa 8.1", f"{unit} was not recruited or replaced this phase")
        if d.side == "japanese":
            if not is_hex(place):
                d.refuse("Formosa 5.3", f"Japanese units never enter the Allied {place.title()} display: only Allied "
                                        "units enter Amoy, and no side enters the other's displays")
            if place not in japanese_deploy_hexes(state, unit):
                d.refuse("Formosa 8.1", f"{unit} cannot deploy in {place}")
            d.emit(UnitDeployed(unit, place, u.concealed))
            return
        if place == "amoy" and state.amoy_turn is not None:
            d.emit(UnitDeployed(unit, "amoy"))
            return
        if not optional.usmc_deploys(d, unit, place) and place not in state.functional_ports():
            d.refuse("Formosa 8.1, ruling F35", f"Allied units deploy in the Staging Area, Amoy once captured, or a "
                                                f"functional port, not {place}")
        if state.since(10) and movement.closed_to(state, unit, place):  # a custom map's mountain port (F120)
            d.refuse("Formosa 8.1", f"{unit} is mechanized: it is deployed in {d.data.map.terrain_of(H(place))} only "
                                    "on a road or railroad (12.2; terrain restrictions apply to deployment, 12.3)")
        problems = stack_after(state, place, "allied", [unit]) if state.since(4) else []
        if problems:  # 8.1: deployed on the map within the stacking limits (ruling F105)
            d.refuse("Formosa 8.1", f"{place} would be over-stacked: {problems[0].message} ({problems[0].case})")
        d.emit(UnitDeployed(unit, place))

    @order("end", "Formosa 8.1", "end the recruit phase: units not deployed return, LP above 20 are lost")
    def end(self, d: Decision) -> None:
        end_recruit(d, d.side, self.name)


class RecruitJapanese(Recruit):
    name = "recruit-japanese"
    side_of_step = "japanese"


class RecruitAllied(Recruit):
    name = "recruit-allied"
    side_of_step = "allied"


class Automatic(Step):
    """A step played at once when it begins (no orders); a state is in it only between two events of one order:
    the Logistics (7.2), Strike Reveal (16.1) and Air Return (6.1) Phases."""

    def __init__(self, name: str):
        self.name = name

    def who(self, state: State) -> None:
        return None

    def label(self, s: State) -> str:
        return f"Game-Turn {s.turn}: {self.name.replace('-', ' ')} phase"


class Amoy(Phase):
    """9.1: until Amoy is captured the Allied player rolls each GT from GT 2."""

    name = "amoy"

    @order("roll", "Formosa 9.1", "roll for Amoy: captured if the die is below the GT")
    def roll(self, d: Decision) -> None:
        die = d.roll(f"Amoy, GT {d.state.turn} (9.1)")
        d.emit(AmoyRolled(d.state.turn, die, strategic.amoy_captured(d.data, d.state.turn, die)))
        after(d, self.name)

    def allowed(self, state: State, orders: tuple[str, ...]):
        return ("roll",)


# -- the Japanese Player Turn -------------------------------------------------------------------------------------
def _reveal_candidates(state: State, side: str):
    for u in state.on_map("japanese")[:40]:
        if u.concealed and state.spec(u.id).type != "deception":
            yield {"units": [u.id]}
            return


class Revealing(Phase):
    @order("reveal UNIT [UNIT ...]", "Formosa 11.2", "turn concealed units face up (for the rest of the game)",
           _reveal_candidates)
    def reveal(self, d: Decision, units: list[str]) -> None:
        for uid in units:
            u = own_unit(d, uid, "Formosa 11.2")
            if not u.concealed or not is_hex(u.where):
                d.refuse("Formosa 11.2", f"{uid} is not a concealed unit on the map")
            d.emit(UnitRevealed(uid, u.where, "Formosa 11.2", deception=d.state.spec(uid).type == "deception"))


class JapaneseMovement(Movement, Revealing):
    name = "japanese-movement"

    @order("land HEX with UNIT [UNIT ...]", "Formosa 25.7", "land the Marine Brigade on a port or beach hex free "
           "of Allied units and ZOC (from GT 2; its die decides)",
           lambda s, side: ({**a, "units": ["jp-marine"]} for a in optional.landing_candidates(s, "25.7")),
           option="25.7")
    def land(self, d: Decision, hex: str, units: list[str]) -> None:
        if len(units) != 1:
            d.refuse("Formosa 25.7", "the Marine Brigade lands alone")
        optional.special_landing(d, "25.7", hex, units[0])

    @order("raid HEX", "Formosa 25.8", "drop the Airborne Raiders on an airfield (from GT 2; its die decides)",
           lambda s, side: optional.landing_candidates(s, "25.8"), option="25.8")
    def raid(self, d: Decision, hex: str) -> None:
        optional.special_landing(d, "25.8", hex)


class JapaneseCombat(CombatPhase, Revealing):
    name = "japanese-combat"


# -- decisions ----------------------------------------------------------------------------------------------------
class DecisionStep(Step):
    def label(self, s: State) -> str:
        p = s.pending[0]
        return f"Game-Turn {s.turn}: {p['side']} to decide: {self.name} ({self.describe(s, p)})"

    def describe(self, s: State, p: dict) -> str:
        return ""


def _lose_candidates(state: State, side: str):
    p = state.pending[0]
    for combo in combat.loss_choices(state, p["units"], p["count"], p["min_cf"])[:6]:
        yield {"units": list(combo)}


class Losses(DecisionStep):
    """15.5: the owner picks the units a result eliminates."""

    name = "losses"

    def describe(self, s: State, p: dict) -> str:
        what = f"{p['count']} unit(s)" if p["count"] else f"units of at least {p['min_cf']} combat factors"
        return f"eliminate {what} of {', '.join(p['units'])}; {p['case']}"

    @order("lose UNIT [UNIT ...]", "Formosa 15.5", "the units this result eliminates", _lose_candidates)
    def lose(self, d: Decision, units: list[str]) -> None:
        combat.lose(d, units)


def _retreat_candidates(state: State, side: str):
    for uid in state.pending[0]["units"]:
        for path in combat.retreat_paths(state, state.units[uid]):
            yield {"unit": uid, "hexes": list(path)}


class Retreat(DecisionStep):
    """15.7: the owner retreats each unit one hex (toward a supply source; one additional hex when over-stacked)."""

    name = "retreat"

    def describe(self, s: State, p: dict) -> str:
        return f"retreat {', '.join(p['units'])} one hex"

    @order("retreat UNIT HEX [HEX ...]", "Formosa 15.7", "retreat a unit one hex, toward a supply source (item "
           "4), and one additional hex when the hex reached over-stacks it (item 3)", _retreat_candidates)
    def retreat(self, d: Decision, unit: str, hexes: list[str]) -> None:
        combat.retreat(d, unit, hexes)


def _counterattack_candidates(state: State, side: str):
    for h in state.pending[0]["hexes"]:
        yield {"hexes": [h]}


class Counterattack(DecisionStep):
    """15.6: the defenders counterattack one hex of the attackers."""

    name = "counterattack"

    def describe(self, s: State, p: dict) -> str:
        return f"counterattack one of {', '.join(p['hexes'])}"

    @order("counterattack HEX [HEX ...]", "Formosa 15.6", "the one hex of attackers the defenders counterattack",
           _counterattack_candidates)
    def counterattack(self, d: Decision, hexes: list[str]) -> None:
        if len(set(hexes)) > 1:
            d.refuse("Formosa 15.6", f"the counterattacking force attacks one hex only, not {', '.join(hexes)}")
        combat.counterattack(d, hexes[0])


def _advance_candidates(state: State, side: str):
    units = combat.advance_units(state)
    for h in combat.advance_hexes(state):
        if state.combat.assault:  # 10.2.2: as many as stacking allows
            fit: list[str] = []
            for uid in units:
                if not state.would_overstack(h, side, [*fit, uid]):
                    fit.append(uid)
            units = fit
            yield {"units": units, "hexes": [h]}
        elif not state.since(18):  # ruling F121: not where the other Allied nation's air points are
            yield {"units": [uid for uid in units if not airpower.other_nations_air(state, uid, h)], "hexes": [h]}
        else:  # ruling F144: the units that may make each advance, and after a DE each second hex
            paths = [[h]]
            if state.combat.advance == 2:
                paths += [[h, str(n)] for n in state.data.map.neighbours(H(h))
                          if state.data.is_land(n) and not state.at(str(n), other(side))]
            for path in paths:
                fit = [uid for uid in units if combat.can_advance(state, uid, path)]
                if fit:
                    yield {"units": fit, "hexes": path}


class Advance(DecisionStep):
    """15.8: the attacker's survivors may advance into the cleared hexes."""

    name = "advance"

    def describe(self, s: State, p: dict) -> str:
        c = s.combat
        units = ", ".join(combat.advance_units(s))
        if c.assault:
            return f"the assaulting units must advance into {c.assault} as stacking allows: {units} (10.2.2)"
        return f"advance up to {c.advance} hex(es) into {', '.join(c.cleared)} with {units}"

    @order("advance UNIT [UNIT ...] to HEX [HEX ...]", "Formosa 15.8", "advance units into a cleared hex (after a "
           "DE, one hex more)", _advance_candidates)
    def advance(self, d: Decision, units: list[str], hexes: list[str]) -> None:
        combat.advance(d, units, hexes)

    @order("hold", "Formosa 15.8.1", "advance no further")
    def hold(self, d: Decision) -> None:
        combat.hold(d)


class Exploit(DecisionStep):
    """25.1: after a DE the attacker may attack at once with one stack of the original force."""

    name = "exploit"

    def describe(self, s: State, p: dict) -> str:
        return f"an exploitation attack by one stack of {', '.join(p['units'])} (Formosa 25.1), or 'hold'"

    @order("exploit HEX [HEX ...] with UNIT [UNIT ...] [gunfire N] [cw-gunfire N:cw] [lp N:lp] [supply SUPPLY]",
           "Formosa 25.1", "attack again with one stack of the force whose attack gave a DE, supported as any "
           "attack", optional.exploit_candidates, option="25.1")
    def exploit(self, d: Decision, hexes: list[str], units: list[str], n: int = 0, cw: int = 0, lp: int = 0,
                supply: str = "") -> None:
        optional.exploit(d, hexes, units, n, lp, air_supply=supply == "air", cw_gunfire=cw)

    @order("hold", "Formosa 25.1", "make no exploitation attack")
    def hold(self, d: Decision) -> None:
        d.emit(DecisionMade("exploit", d.side))


def smallest_removals(state: State, side: str, hex: str) -> list[tuple[str, ...]]:
    """13.3, ruling F101: the smallest sets of units whose removal brings an over-stacked hex within the limits,
    and of those the ones with the fewest static units (a static unit only when no mobile unit would do)."""
    units = [u.id for u in state.at(hex, side)]
    for size in range(1, len(units) + 1):
        fits = [set_ for set_ in combinations(units, size) if not state.still_overstacked(hex, side, set_)]
        if fits:
            statics = {set_: sum(state.is_static(state.units[u]) for u in set_) for set_ in fits}
            return [set_ for set_ in fits if statics[set_] == min(statics.values())]
    return []


def removable(state: State, side: str, hex: str) -> list[str]:
    """The units of an over-stacked hex that one `remove` may name (13.3, ruling F101)."""
    if not state.since(3):
        return [u.id for u in state.at(hex, side)]  # ruling F102: a game before version 3 removed any unit
    return sorted({u for set_ in smallest_removals(state, side, hex) for u in set_})


def _remove_candidates(state: State, side: str):
    for h in state.pending[0]["hexes"][:1]:
        for u in removable(state, side, h):
            yield {"units": [u]}


class Overstack(DecisionStep):
    """13.3: the over-stacked player removes units to his Replacements Display."""

    name = "overstack"

    def describe(self, s: State, p: dict) -> str:
        return f"remove units from {', '.join(p['hexes'])}"

    @order("remove UNIT [UNIT ...]", "Formosa 13.3", "remove units from an over-stacked hex (the fewest needed)",
           _remove_candidates)
    def remove(self, d: Decision, units: list[str]) -> None:
        state: State = d.state
        p = state.pending[0]
        every = [own_unit(d, unit, "Formosa 13.3") for unit in units]
        twice = sorted({u.id for u in every if [x.id for x in every].count(u.id) > 1})
        if twice and state.since(17):  # ruling F137: a unit named twice is refused; before, it counted once
            d.refuse("Formosa 13.3", f"{', '.join(twice)} named twice: a unit is removed once; name each unit the "
                                     "hex loses once")
        named = list({u.id: u for u in every}.values())
        for u in named:
            if u.where not in p["hexes"]:
                d.refuse("Formosa 13.3", f"{u.id} is not in an over-stacked hex ({', '.join(p['hexes'])})")
        if len({u.where for u in named}) > 1:
            d.refuse("Formosa 13.3", "one over-stacked hex at a time: the units named stand in different hexes")
        hex = named[0].where
        ids = tuple(u.id for u in named)
        if not state.since(3):
            ok = True  # ruling F102: a game before version 3 removed any unit of the hex
        else:
            ok = any(set(ids) <= set(fewest) for fewest in smallest_removals(state, d.side, hex))
        if not ok:
            d.refuse("Formosa 13.3", f"removing {', '.join(ids)} is not part of the fewest units that bring {hex} "
                                  f"within the stacking limits (ruling F101): remove "
                                  f"{' or '.join(removable(state, d.side, hex))}")
        d.emit(DecisionMade("overstack", d.side),
               *(UnitEliminated(u, hex, f"{d.side}-replacements", "Formosa 13.3") for u in ids))
        if not check_stacking(d, tuple(p["sides"]), p["then"]):
            after(d, p["then"])


def _slot_face():
    return SlotType.choice("concealed", "revealed")


# Ruling F133 (rules version 16): orders the rules give one side only, refused by the case that reserves them when
# the other side gives them, whatever the moment (an order by the side that may give it, at the wrong moment, keeps
# the sequence of play's refusal, 6.1)
RESERVED = {
    ("japanese", "interdict"): ("Formosa 16.4", "only the Allied player conducts interdiction missions"),
    ("japanese", "strike"): ("Formosa 16.5", "B-29 strikes are the Allied player's"),
    ("japanese", "drop"): ("Formosa 10.0", "only the Allied player conducts amphibious and airborne invasions"),
    ("japanese", "assault"): ("Formosa 10.0", "only the Allied player conducts amphibious and airborne invasions"),
    ("japanese", "transfer"): ("Formosa 21.0", "naval transfer is the Allied player's"),
    ("japanese", "build"): ("Formosa 7.0", "only the Allied player may build infrastructure (20.0: Allied "
                                           "engineers only)"),
    ("japanese", "demobilise"): ("Formosa 20.2", "only the Allied player has bases to demobilise"),
    ("japanese", "motorized"): ("Formosa 22.0", "motorized movement is the Allied player's"),
    ("japanese", "airlift"): ("Formosa 25.3", "air transport is the Allied player's"),
    ("allied", "sortie"): ("Formosa 18.0", "the mobile fleet sortie is the Japanese player's"),
    ("allied", "raid"): ("Formosa 25.8", "the Airborne Raiders are the Japanese player's"),
    ("allied", "fortify"): ("Formosa 16.5", "only the Japanese player reveals a unit for the Fortified column"),
}

# Ruling F167 (rules version 21): an order given in a phase that never takes it is refused naming the case that says
# in which phase it is given (the sequence of play, 6.1, lists the phases; these cases put each action in its own);
# an order the phase takes but not now (not his turn, a decision waited for, what the phase allows at this point)
# keeps 6.1 or its own refusal
WHEN = {
    "move": ("Formosa 12.0", "units move in their own side's Movement Phase"),
    "motorized": ("Formosa 22.0", "motorized movement is chosen in the Allied Movement Phase, for units that begin "
                                  "it on a road or railroad"),
    "airlift": ("Formosa 25.3", "air transport is flown in the Allied Movement Phase"),
    "attack": ("Formosa 15.0", "attacks are made by the phasing player in his Combat Phase"),
    "support": ("Formosa 16.3", "ground support is placed at the beginning of the friendly Combat Phase, before any "
                                "attack (an assault's in the Invasion Phase, 10.2.2)"),
    "build": ("Formosa 20.1", "bases are built in the Allied Base Building Phase"),
    "demobilise": ("Formosa 20.2", "bases are demobilised in the Allied Base Building Phase"),
    "interdict": ("Formosa 16.4", "interdiction points are placed in the Allied Interdiction Phase"),
    "strike": ("Formosa 16.5", "the B-29 strikes in the Allied B-29 Phase"),
    "land": ("Formosa 10.1", "invasions are made in the Allied Invasion Phase"),
    ("japanese", "land"): ("Formosa 25.7", "the Japanese Marine Brigade lands in a Japanese Movement Phase from GT 2"),
    "drop": ("Formosa 10.1", "invasions are made in the Allied Invasion Phase"),
    "assault": ("Formosa 10.2.2", "opposed landings are fought in the Allied Invasion Phase"),
    "transfer": ("Formosa 21.0", "naval transfer is made in the Allied Naval Transfer Phase"),
    "recruit": ("Formosa 8.0", "units are recruited at set-up and in the Recruit Phase of GT 2 and later"),
    "replace": ("Formosa 8.0", "units are replaced in the Recruit Phase of GT 2 and later"),
    "buy": ("Formosa 8.0", "points and markers are bought at set-up and in the Recruit Phase of GT 2 and later"),
    "deploy": ("Formosa 8.1", "units bought are deployed in the Recruit Phase they are bought in"),
    "sortie": ("Formosa 18.0", "the mobile fleet sorties in the Japanese Special Attack Phase"),
    "raid": ("Formosa 25.8", "the Airborne Raiders land in a Japanese Movement Phase from GT 2"),
    "plan": ("Formosa 16.1", "air missions are planned in the Strike Planning Phase"),
    "assign": ("Formosa 16.1", "air missions are planned in the Strike Planning Phase"),
}
# Ruling F169 (rules version 22): the orders that answer a decision or set up the game, given where none is owed,
# refused naming the case of the moment that asks for them (as F167's phases; SNC's E25 and Ichi-Go's E56 alike)
AT_ITS_MOMENT = {
    "place": ("Formosa 3.0", "units are placed on Formosa in the Japanese set-up, before play begins, once its LP "
                             "are rolled (a reinforcement is deployed in the Recruit Phase, 8.1)"),
    ("allied", "place"): ("Formosa 8.1", "the Allied ground units set up in the Allied Staging Area; they reach "
                                         "Formosa by invasion (10.0), naval transfer (21.0) or deployment on a "
                                         "functional port in the Recruit Phase"),
    "choose": ("Formosa 3.0", "the units of a set-up group are picked in each side's set-up, in the scenario's order "
                              "(the Japanese first, 24.1), before play begins"),
    ("allied", "reveal"): ("Formosa 24.1", "the pre-invasion reconnaissance reveals Japanese stacks after the Japanese "
                                           "set-up"),
    ("japanese", "reveal"): ("Formosa 11.2", "the Japanese player reveals his units during his player turn (his "
                                             "Movement and Combat Phases)"),
    "lose": ("Formosa 15.5", "units are eliminated when a combat result leaves their owner a choice (air points when "
                             "an air combat's loss does, 16.2)"),
    "retreat": ("Formosa 15.7", "units retreat when a combat result makes them (AR, DR)"),
    "counterattack": ("Formosa 15.6", "the defenders counterattack when a combat's result is CA"),
    "advance": ("Formosa 15.8", "an advance after combat is made right after a combat that clears a defending hex"),
    "hold": ("Formosa 15.8.1", "'hold' declines an advance after combat (or an exploitation attack, 25.1) when one "
                               "is offered"),
    "exploit": ("Formosa 25.1", "an exploitation attack follows a DE, at the conclusion of its advance"),
    "remove": ("Formosa 13.3", "units are removed from a hex found over-stacked at the end of a Recruit, Movement or "
                               "Combat Phase"),
    "defend": ("Formosa 15.4.1", "the defender commits LP (the Allies also naval gunfire or air supply) when an attack "
                                 "on his units is declared"),
    "decline": ("Formosa 16.5", "the Fortified column is asked for when the B-29 strikes a hex holding a concealed "
                                "coastal defense or heavy weapons unit"),
    "fortify": ("Formosa 16.5", "the Fortified column is asked for when the B-29 strikes a hex holding a concealed "
                                "coastal defense or heavy weapons unit"),
    "return": ("Formosa 16.6", "the kamikaze hits are taken when the kamikaze attack's roll scores them"),
}
PHASES = OrderCases(RESERVED, WHEN)  # rules version 21 (F167)
CASES = OrderCases(RESERVED, {**WHEN, **AT_ITS_MOMENT})  # since rules version 22 (F169)


def _reserved(self, state: State, command) -> tuple[str, str] | None:
    """Step.closed for every Formosa step (ruling F133): an order reserved to the other side, named by its case;
    16.3's ground support by the defender too (it supports an attack only); an `end` before a roll the rules order
    (ruling F166), an order of a phase that never takes it (ruling F167) and a decision's or the set-up's order where
    none is owed (ruling F169), each by its case."""
    if not state.since(16):
        return None
    found = CASES.not_theirs(command)
    if found:
        return found
    if command.action == "support" and state.step in COMBAT_STEPS and command.side != state.side:
        return "Formosa 16.3", "ground support missions support an attack only; they are never used in the defence"
    owed = ROLLS_OWED.get(state.step)
    if state.since(21) and command.action == "end" and owed and not state.pending and command.side == owed[0] and not (
            state.step == "japanese-special-attack" and state.strike.kamikaze_done):
        return owed[1:]  # ruling F166
    when = (CASES if state.since(22) else PHASES).not_now(command)
    if state.since(21) and when and not state.pending and state.step != "over" and \
            command.action not in type(self).declared():
        return when  # rulings F167, F169: an order out of its phase or moment, named by the case that gives it one
    return None


# Ruling F166 (rules version 21): the phases whose die the rules make a player roll, and so end only by the roll: an
# `end` before it is refused naming the case that orders the roll (an order the step never takes keeps 6.1)
ROLLS_OWED = {
    "recon": ("allied", "Formosa 24.1", "after the Japanese set-up the Allied player rolls 1d6 for the pre-invasion "
                                        "reconnaissance: 'roll'"),
    "amoy": ("allied", "Formosa 9.1", "until Amoy is captured the Allied player rolls 1d6 in the Amoy Operation "
                                      "Phase of every GT from GT 2: 'roll'"),
    "air-superiority": ("allied", "Formosa 16.2", "both players resolve air superiority, the Allied player firing "
                                                  "first, on the 0 column without air points: 'roll'"),
    "japanese-special-attack": ("japanese", "Formosa 16.6", "the Japanese player rolls for the kamikaze attack every "
                                                            "turn, on the 0 column if none are allocated: 'roll'"),
}


STEPS = [SetupJapaneseLp(), SetupJapanese(), SetupAllied(), Recon(), ReconReveal(), RecruitJapanese(), RecruitAllied(),
     Automatic("logistics"), Amoy(), Invasion(), NavalTransfer(),
     AlliedMovement(), AlliedCombat(), BaseBuilding(), JapaneseMovement(), JapaneseCombat(), Losses(), Retreat(),
     Counterattack(), Advance(), Overstack(), Exploit(),
     strike.StrikePlanningJapanese(), strike.StrikePlanningAllied(), strike.AirSuperiority(), strike.AirLosses(),
     strike.SpecialAttack(), strike.KamikazeHits(), strike.B29(), strike.B29Fortified(), strike.Interdiction(),
     strike.Defence(), Automatic("strike-reveal"), Automatic("air-return")]
for _step in {type(x) for x in STEPS}:
    _step.closed = _reserved
TABLE = StatesTable(
    STEPS,
    sequence_case=SEQ,
    options=lambda state: state.data.optional,
    slots={"FACE": _slot_face(), "PLACE": SlotType(_read_place, "a hex (XXYY), 'staging' or 'amoy'"),
           "MISSION": SlotType.choice(*dict.fromkeys(m for ms in strike.MISSIONS.values() for m in ms)),
           "NATION": SlotType.choice("us", "cw"), "SUPPLY": SlotType.choice("air")},
)
