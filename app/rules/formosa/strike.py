"""The Strike Stage's steps and the air and LP choices of combat (6.1; 15.4.1, 16.0-16.6, 17.0, 18.0), on the
pure functions of strategic.py and the events of airpower.py:

- strike planning, one sealed plan a side (Japanese, then Allied; ruling F70), and the reveal (16.1);
- air superiority with each loser's choice of where its losses fall (16.2; CF-11);
- the Japanese Special Attack Phase: kamikaze every GT, on the 0 column without points (16.6, F5), the Allied
  split of its hits (F64), and the mobile fleet sortie, never on GT 1 (18.0);
- the B-29 strike, the Japanese player revealing a concealed static for the Fortified column (16.5, F6);
- ground support placed before the first attack of a Combat Phase (16.3; CF-10: points are change);
- the Interdiction Phase (16.4), whose surcharge Japanese movement pays (movement.py);
- the defender's LP, Allied naval gunfire and air supply, asked after an attack is declared (15.4.1, 17.0, 19.4,
  F18, F22, F87).
"""
from __future__ import annotations

from app.rules.base import Candidate
from app.rules.engine.decision import Decision
from app.rules.engine.events import DecisionMade, DecisionRequired
from app.rules.engine.syntax import ParseContext, SlotType, ascii_number
from app.rules.engine.table import Step, order
from app.rules.errors import IllegalOrder, InvalidOrder
from app.rules.formosa import airpower as ap
from app.rules.formosa import combat, optional, strategic
from app.rules.formosa.events import AirSupplyFlown, LpSpent, UnitRevealed
from app.rules.formosa.state import State, is_hex, other
from app.rules.kernel.hexgrid import Hex

H = Hex.parse
# the missions each side may assign (16.0, 16.1); "cw-" missions fly the Commonwealth's TAC points
MISSIONS = {"allied": ("air-superiority", "tactical", "interdiction", "b29", "cw-air-superiority", "cw-tactical",
                       "cw-interdiction"),
            "japanese": ("air-superiority", "tactical", "kamikaze")}
FORTIFIED = ("coastal-defense", "heavy-weapons")  # 16.5


def _after(d: Decision, step: str) -> None:
    from app.rules.formosa.sequence import after  # the sequence's table imports this module's steps

    after(d, step)


# -- strike planning (16.1) ---------------------------------------------------------------------------------------
def _groups(state: State, side: str) -> list[tuple[dict[str, int], dict[str, int], str]]:
    """(available, missions, prefix) for each nationality's points, as strategic.assign_air checks them."""
    planned = state.strike.missions.get(side, {})
    if side == "japanese":
        return [({"tac": state.air.get("japanese-tac", 0), "kamikaze": state.air.get("kamikaze", 0)},
                 {m: p for m, p in planned.items() if m in MISSIONS["japanese"]}, "")]
    return [({"tac": state.air.get("allied-tac", 0), "b29": state.air.get("b29", 0)},
             {m: p for m, p in planned.items() if not m.startswith("cw-")}, ""),
            ({"tac": state.air.get("cw-tac", 0)},
             {m[3:]: p for m, p in planned.items() if m.startswith("cw-")}, "cw-")]


def assign(d: Decision, n: int, mission: str) -> None:
    """16.1: put `n` points on `mission` (replacing what was put there); points are change (16.0, CF-10)."""
    state: State = d.state
    if mission not in MISSIONS[d.side]:
        d.refuse("Formosa 16.1", f"the {d.side} missions are {', '.join(MISSIONS[d.side])}")
    prefix = "cw-" if mission.startswith("cw-") else ""
    for available, missions, group in _groups(state, d.side):
        if group == prefix:
            strategic.assign_air(d.side, available, {**missions, mission[len(prefix):]: n})
    d.emit(ap.StrikeAssigned(d.side, mission, n))


def _assign_candidates(state: State, side: str):
    for available, missions, prefix in _groups(state, side):
        left = strategic.assign_air(side, available, missions)
        for kind, points in left.items():
            if points <= 0:
                continue
            for mission in strategic.MISSIONS[side][kind]:
                if prefix + mission in MISSIONS[side]:
                    now = missions.get(mission, 0)
                    yield {"n": now + (1 if kind == "b29" else max(1, points // 2)), "mission": prefix + mission}


def _read_plan_word(word: str) -> int | str:
    if word.lower() in _ALL_MISSIONS:
        return word.lower()
    try:
        return ascii_number(word)
    except ValueError:
        raise ValueError(f"is neither a number of points nor a mission ({', '.join(_ALL_MISSIONS)})") from None


def _plan_pairs(words: list, context: ParseContext | None) -> list:
    """A plan's words are points and a mission, pair after pair ("plan 3 kamikaze 1 tactical")."""
    pairs = list(zip(words[::2], words[1::2], strict=False))
    if len(words) % 2 or not all(isinstance(n, int) and isinstance(m, str) for n, m in pairs):
        raise InvalidOrder(context.text if context else " ".join(map(str, words)),
                           "a plan names its points before each mission: plan N MISSION [N MISSION ...]")
    return words


_ALL_MISSIONS = tuple(dict.fromkeys(m for ms in MISSIONS.values() for m in ms))
PLAN = SlotType(_read_plan_word, "points and a mission", finish=_plan_pairs)


def seal_plan(d: Decision, words: list) -> None:
    """16.1, ruling F70: the side's whole plan in one order: every mission of the side gets its points (none named:
    0), in one event each whatever the order names, so the other side can count nothing of a plan."""
    plan: dict[str, int] = {}
    for n, mission in zip(words[::2], words[1::2], strict=True):
        if mission not in MISSIONS[d.side]:
            d.refuse("Formosa 16.1", f"the {d.side} missions are {', '.join(MISSIONS[d.side])}")
        if mission in plan:
            d.refuse("Formosa 16.1", f"{mission} is named twice in the plan")
        plan[mission] = n
    for available, _, prefix in _groups(d.state, d.side):
        strategic.assign_air(d.side, available, {m[len(prefix):]: n for m, n in plan.items()
                                                 if m.startswith("cw-") == (prefix == "cw-")})
    for mission in MISSIONS[d.side]:
        d.emit(ap.StrikeAssigned(d.side, mission, plan.get(mission, 0)))


def _plan_candidates(state: State, side: str):
    """The empty plan, and each single mission the old `assign` offered, as a whole plan."""
    yield {"words": []}
    for args in _assign_candidates(state, side):
        yield {"words": [args["n"], args["mission"]]}


class StrikePlanning(Step):
    """16.1: a side assigns its air points to missions in secret (ruling F70): in one order, `plan`, so nothing of
    the plan (not even how many orders made it) reaches the other side before the reveal. A game created under
    rules version 1 plans as it did: `assign` a mission at a time, then `end`."""

    def label(self, s: State) -> str:
        return (f"Game-Turn {s.turn}: {s.side} strike planning: assign air points to missions, in secret until "
                "the reveal (16.1)")

    def allowed(self, state: State, orders: tuple[str, ...]):
        sealed = state.rules_version >= 2
        return [o for o in orders if (o == "plan") == sealed]

    @order("plan [PLAN:words ...]", "Formosa 16.1", "the whole plan at once: N air points on each mission named "
           "(air-superiority, tactical, interdiction, b29; Japanese kamikaze; Commonwealth points: cw-...), none on "
           "the others; 'plan' alone assigns none", _plan_candidates, slots={"PLAN": PLAN})
    def plan(self, d: Decision, words: list) -> None:
        seal_plan(d, words)
        _after(d, self.name)

    @order("assign N MISSION", "Formosa 16.1", "put N air points on a mission (air-superiority, tactical, "
           "interdiction, b29; Japanese kamikaze; Commonwealth points: cw-...)", _assign_candidates)
    def assign(self, d: Decision, n: int, mission: str) -> None:
        assign(d, n, mission)

    @order("end", "Formosa 16.1", "the plan is made")
    def end(self, d: Decision) -> None:
        _after(d, self.name)


class StrikePlanningJapanese(StrikePlanning):
    name = "strike-planning-japanese"


class StrikePlanningAllied(StrikePlanning):
    name = "strike-planning-allied"


def reveal(d: Decision) -> None:
    """16.1 Strike Reveal Phase, played at once."""
    d.emit(ap.StrikesRevealed({s: dict(m) for s, m in d.state.strike.missions.items()}))


# -- air superiority (16.2) ------------------------------------------------------------------------------------
def _loss_pools(state: State, side: str) -> dict[str, int]:
    names = strategic.LOSS_POOLS[side]
    if side == "allied":
        names = (*names, *(f"cw-{n}" for n in names))
    return {m: ap.assigned(state, side, m) for m in names if ap.assigned(state, side, m) > 0}


class AirSuperiority(Step):
    """16.2: the Allies fire first, then the Japanese, each on the column of the points committed (0 without)."""

    name = "air-superiority"

    def label(self, s: State) -> str:
        return f"Game-Turn {s.turn}: air superiority phase: roll for both sides' air combat (16.2)"

    @order("roll", "Formosa 16.2", "roll the Allied and then the Japanese air combat")
    def roll(self, d: Decision) -> None:
        state: State = d.state
        points = {side: sum(ap.assigned(state, side, m) for m in MISSIONS[side] if m.endswith("air-superiority"))
                  for side in ("allied", "japanese")}
        allied_die = d.roll("Allied air superiority (16.2)")
        japanese_die = d.roll("Japanese air superiority (16.2)")
        b = strategic.air_superiority(d.data, points["allied"], points["japanese"], allied_die, japanese_die)
        due = {"japanese": min(b.japanese_loses, sum(_loss_pools(state, "japanese").values())),
               "allied": min(b.allied_loses, sum(_loss_pools(state, "allied").values()))}
        d.emit(ap.AirBattleFought(b.allied_points, b.japanese_points, b.allied_die, b.japanese_die,
                                  b.japanese_loses, b.allied_loses, due))
        air_losses(d)


def air_losses(d: Decision) -> None:
    """16.2 steps 3-5: the Japanese, then the Allies, take their losses; a loss with one way to take it is taken
    at once; then the air superiority points return."""
    for side in ("japanese", "allied"):
        due = d.state.strike.losses_due.get(side, 0)
        if not due:
            continue
        pools = _loss_pools(d.state, side)
        if len(pools) == 1 or due >= sum(pools.values()):
            left = due
            for mission, points in pools.items():
                if left:
                    d.emit(ap.AirPointsLost(side, mission, min(points, left)))
                    left -= min(points, left)
            continue
        d.emit(DecisionRequired("air-losses", side, {"due": due}))
        return
    d.emit(ap.AirSuperiorityReturned())
    _after(d, "air-superiority")


def _lose_candidates(state: State, side: str):
    for mission, points in _loss_pools(state, side).items():
        yield {"n": min(points, state.strike.losses_due.get(side, 0)), "mission": mission}


def every_split(state: State, side: str):
    """Ruling F158 (rules version 20): every answer to an air superiority loss (16.2: each mission's points, part of
    the loss or all, CF-11) and to the kamikaze hits (16.6 step 3: every split of the markers and US and
    Commonwealth gunfire that adds up to the hits, F64), for the list (`sequence.more_orders`), where the
    candidates name each mission's most and two splits."""
    p = state.pending[0]
    if p["kind"] == "air-losses":
        for mission, points in _loss_pools(state, side).items():
            for n in range(1, min(points, p["due"])):
                yield Candidate("lose", (), text=f"lose {n} from {mission}")
        return
    t = _targets(state)
    for markers in range(t["markers"] + 1):
        for ships in range(t["ships"] + 1):
            cw = p["due"] - markers - ships
            if 0 <= cw <= t["cw"]:
                yield Candidate("return", (), text=f"return {markers} amphibious {ships} gunfire {cw} cw-gunfire")


class AirLosses(Step):
    """16.2: the owner takes an air superiority loss from the missions it may fall on (CF-11)."""

    name = "air-losses"

    def label(self, s: State) -> str:
        p = s.pending[0]
        return (f"Game-Turn {s.turn}: {p['side']} to decide: eliminate {p['due']} air points from air superiority "
                f"or tactical{' or interdiction' if p['side'] == 'allied' else ''} (16.2)")

    @order("lose N from MISSION", "Formosa 16.2", "eliminate air points of a mission (part of the loss or all)",
           _lose_candidates)
    def lose(self, d: Decision, n: int, mission: str) -> None:
        state: State = d.state
        due = state.pending[0]["due"]
        if not 1 <= n <= due:
            d.refuse("Formosa 16.2", f"{due} air points are still to be eliminated")
        base = mission[3:] if mission.startswith("cw-") else mission
        if d.side == "japanese" and mission.startswith("cw-"):
            d.refuse("Formosa 16.2", f"the Japanese have no {mission} mission")
        strategic.take_air_losses(d.side, n, {base: ap.assigned(state, d.side, mission)}, {base: n})
        d.emit(DecisionMade("air-losses", d.side), ap.AirPointsLost(d.side, mission, n))
        air_losses(d)


# -- the Japanese Special Attack Phase (16.6, 18.0) -----------------------------------------------------------------
def _may_sortie(state: State) -> bool:
    try:
        strategic.check_sortie(state.data, state.turn, state.air.get("mobile-fleet", 0) > 0, state.strike.fleet_used)
    except IllegalOrder:
        return False
    return True


def _targets(state: State) -> dict[str, int]:
    return {"markers": state.markers.get("amphibious", 0), "ships": state.naval.get("gunfire", 0),
            "cw": state.naval.get("cw-gunfire", 0)}


def _special_done(d: Decision) -> None:
    if not d.state.pending and not _may_sortie(d.state):
        _after(d, "japanese-special-attack")


class SpecialAttack(Step):
    """16.6, 18.0: the kamikaze roll every GT, then the mobile fleet sortie if the Japanese player declares it."""

    name = "japanese-special-attack"

    def label(self, s: State) -> str:
        if not s.strike.kamikaze_done:
            return (f"Game-Turn {s.turn}: Japanese special attack phase: roll the kamikaze attack "
                    f"({ap.assigned(s, 'japanese', 'kamikaze')} points; 16.6)")
        return f"Game-Turn {s.turn}: Japanese special attack phase: the mobile fleet may sortie (18.0)"

    def allowed(self, state: State, orders: tuple[str, ...]):
        """Since rules version 16 a sortie before the kamikaze roll reaches its order, refused by 18.0 where 18.0
        forbids it (GT 1, no marker, the one sortie made) and else by 16.6 (ruling F132)."""
        if state.strike.kamikaze_done:
            return ("sortie", "end")
        return ("roll", "sortie") if state.since(16) else ("roll",)

    @order("roll", "Formosa 16.6", "roll the kamikaze attack (every GT; the 0 column without points, F5)")
    def roll(self, d: Decision) -> None:
        points = ap.assigned(d.state, "japanese", "kamikaze")
        die = d.roll("kamikaze attack (16.6)")
        hits = strategic.kamikaze(d.data, points, die)
        d.emit(ap.KamikazeResolved(points, die, hits))
        t = _targets(d.state)
        due = min(hits, sum(t.values()))
        if due:
            present = [k for k, v in t.items() if v]
            if len(present) == 1 or due == sum(t.values()):
                take = {k: (min(due, v) if len(present) == 1 else v) for k, v in t.items()}
                d.emit(ap.KamikazeHitsTaken(take["markers"], take["ships"], take["cw"]))
            else:
                d.emit(DecisionRequired("kamikaze-hits", "allied", {"hits": hits, "due": due}))
        _special_done(d)

    @order("sortie", "Formosa 18.0", "the mobile fleet sorties (once a game, not on GT 1)")
    def sortie(self, d: Decision) -> None:
        state: State = d.state
        strategic.check_sortie(d.data, state.turn, state.air.get("mobile-fleet", 0) > 0, state.strike.fleet_used)
        if not state.strike.kamikaze_done:  # ruling F132 (rules version 16)
            d.refuse("Formosa 16.6", "the kamikaze attack is rolled first in the Japanese Special Attack Phase, every "
                                     "GT ('roll', ruling F5); the mobile fleet may sortie after it (6.1)")
        result = strategic.fleet_sortie(d.data, state.scenario, d.roll("mobile fleet sortie (18.0)"))
        lp_die = lost = 0
        if result.allied_lp_die:
            lp_die = d.roll("Allied LP lost to the Decisive Battle (18.0)")
            _, lost = strategic.lose_lp(state.lp["allied"], lp_die)
        d.emit(ap.FleetSortied(result.die, result.result, lp_die, lost))
        _after(d, self.name)

    @order("end", "Formosa 18.0", "no sortie this GT")
    def end(self, d: Decision) -> None:
        _after(d, self.name)


def _hits_candidates(state: State, side: str):
    due = state.pending[0]["due"]
    t = _targets(state)
    markers = min(due, t["markers"])
    ships = min(due - markers, t["ships"])
    yield {"markers": markers, "ships": ships, "cw": due - markers - ships}
    ships = min(due, t["ships"])
    markers = min(due - ships, t["markers"])
    yield {"markers": markers, "ships": ships, "cw": due - markers - ships}


class KamikazeHits(Step):
    """16.6 step 3, ruling F64: the Allied player splits the kamikaze hits between amphibious markers and naval
    gunfire units in the Staging Area."""

    name = "kamikaze-hits"

    def label(self, s: State) -> str:
        return (f"Game-Turn {s.turn}: allied to decide: return {s.pending[0]['due']} amphibious markers and naval "
                "gunfire units in all (16.6)")

    @order("return N:markers amphibious N:ships gunfire [N:cw cw-gunfire]", "Formosa 16.6",
           "the kamikaze hits: amphibious markers and naval gunfire units returned, in any split", _hits_candidates)
    def return_(self, d: Decision, markers: int, ships: int, cw: int = 0) -> None:
        t = _targets(d.state)
        if cw > t["cw"] or ships > t["ships"]:
            d.refuse("Formosa 16.6", f"the Staging Area holds {t['ships']} US and {t['cw']} Commonwealth gunfire units")
        strategic.kamikaze_losses(d.state.pending[0]["hits"], t["markers"], t["ships"] + t["cw"], markers, ships + cw)
        d.emit(DecisionMade("kamikaze-hits", d.side), ap.KamikazeHitsTaken(markers, ships, cw))
        _special_done(d)


setattr(KamikazeHits, "return", KamikazeHits.return_)  # the order's verb, a Python keyword
del KamikazeHits.return_


# -- B-29 (16.5) -------------------------------------------------------------------------------------------------
def _strike_candidates(state: State, side: str):
    hexes = sorted({u.where for u in state.on_map("japanese")})
    for h in hexes[:: max(1, len(hexes) // 4)]:
        yield {"hexes": [h]}


def _concealed(state: State, hex: str) -> list:
    return [u for u in state.at(hex, "japanese") if u.concealed]


def b29(d: Decision, hex: str, fortified: bool) -> None:
    """16.5 steps 1-3: roll on the hex's column (or Fortified) and apply the result; D1: the Japanese player
    eliminates one combat unit in the hex (a decision when there is a choice; never a deception unit, which is
    not revealed either, 11.2), unless the PW Camp there is struck (25.10: `optional.camp_bombed`; otherwise a
    combat unit, never the camp, is lost)."""
    result = strategic.b29_strike(d.data, H(hex), d.roll(f"B-29 strike on {hex} (16.5)"), fortified=fortified)
    d.emit(ap.B29Struck(hex, result.column, result.die, result.code))
    if result.code == "D1" and not optional.camp_bombed(d, hex):
        units = [u for u in d.state.at(hex, "japanese") if d.state.spec(u.id).type != "pw-camp"]
        if d.state.since(4):  # a combat unit (25.10 "per 16.5"): never a deception unit (ruling F105)
            units = [u for u in units if not combat.never_attacks(d.state, u)]
        if units:
            combat._losses(d, "japanese", units, 1, 0, "Formosa 16.5 D1")
    if result.code == "D1" and d.state.since(18) and not d.state.pending and not d.state.at(hex, "japanese"):
        d.emit(ap.B29NoSurvivors(hex))  # 16.5 D1 item 2: the DS falls on the survivors, and none is left (F138)
    if not d.state.pending:
        _after(d, "b29")


class B29(Step):
    """16.5: the Allied B-29, if assigned, strikes a hex holding Japanese units."""

    name = "b29"

    def label(self, s: State) -> str:
        return f"Game-Turn {s.turn}: Allied B-29 phase: strike a hex holding Japanese units, or end (16.5)"

    def allowed(self, state: State, orders: tuple[str, ...]):
        return ("end",) if state.strike.b29_used else orders

    @order("strike HEX [HEX ...]", "Formosa 16.5", "the B-29 strikes one hex holding Japanese units",
           _strike_candidates)
    def strike(self, d: Decision, hexes: list[str]) -> None:
        state: State = d.state
        if len(set(hexes)) > 1:
            d.refuse("Formosa 16.5", f"the one B-29 unit strikes one hex, not {', '.join(hexes)}")
        hex = hexes[0]
        if ap.assigned(state, "allied", "b29") < 1:
            d.refuse("Formosa 16.5", "no B-29 was assigned in the Strike Planning Phase")
        strategic.check_b29(d.data, H(hex), len(state.at(hex, "japanese")) if is_hex(hex) else 0)
        if any(not u.concealed and state.spec(u.id).type in FORTIFIED for u in state.at(hex, "japanese")):
            return b29(d, hex, True)
        if _concealed(state, hex):  # asked whenever concealed units are there, so asking tells nothing
            d.emit(DecisionRequired("b29-fortified", "japanese", {"hex": hex}))
            return None
        return b29(d, hex, False)

    @order("end", "Formosa 16.5", "no B-29 strike (or the strike is over)")
    def end(self, d: Decision) -> None:
        _after(d, self.name)


def _fortify_candidates(state: State, side: str):
    for u in _concealed(state, state.pending[0]["hex"]):
        if state.spec(u.id).type in FORTIFIED:
            yield {"unit": u.id}


class B29Fortified(Step):
    """16.5: the Japanese player may reveal a concealed coastal defense or heavy weapons unit in the hex struck,
    for the Fortified column (rulings F6, F71)."""

    name = "b29-fortified"

    def label(self, s: State) -> str:
        return (f"Game-Turn {s.turn}: japanese to decide: reveal a coastal defense or heavy weapons unit in "
                f"{s.pending[0]['hex']} for the Fortified column, or decline (16.5)")

    @order("fortify UNIT", "Formosa 16.5", "reveal a concealed coastal defense or heavy weapons unit in the hex",
           _fortify_candidates)
    def fortify(self, d: Decision, unit: str) -> None:
        hex = d.state.pending[0]["hex"]
        u = d.state.unit(unit)
        if u is None or u not in _concealed(d.state, hex) or d.state.spec(unit).type not in FORTIFIED:
            d.refuse("Formosa 16.5", f"{unit} is not a concealed coastal defense or heavy weapons unit in {hex}")
        d.emit(DecisionMade("b29-fortified", d.side), UnitRevealed(unit, hex, "Formosa 16.5"))
        b29(d, hex, True)

    @order("decline", "Formosa 16.5", "reveal nothing: the terrain column is used")
    def decline(self, d: Decision) -> None:
        hex = d.state.pending[0]["hex"]
        d.emit(DecisionMade("b29-fortified", d.side))
        b29(d, hex, False)


# -- ground support (16.3) and interdiction (16.4) ------------------------------------------------------------------
def place(d: Decision, what: str, hex: str, n: int, nation: str | None) -> None:
    """Air points on a hex within the mission's assigned points and the per-hex limit (strategic.
    check_air_placement); US and Commonwealth points never share a hex (16.1 Important); no Allied point joins
    the B-29 in its hex, and ground support still there and interdiction are two points at most together (13.1)."""
    state: State = d.state
    side = d.side
    case = "Formosa 16.4" if what == "interdiction" else "Formosa 16.3"
    if side == "japanese" and nation:
        d.refuse(case, "only the Allied player names a nationality")
    nat = nation or ("us" if side == "allied" else "japanese")
    mission = ("cw-" if nat == "cw" else "") + ("interdiction" if what == "interdiction" else "tactical")
    rows = state.strike.interdicted if what == "interdiction" else [r[1:] for r in state.strike.support
                                                                      if r[0] == side]
    if any(h == hex and other_nat != nat for h, other_nat, _ in rows):
        d.refuse("Formosa 16.1", "US and Commonwealth air points cannot be placed in the same hex")
    ground = {state.spec(u.id).nationality for u in state.at(hex, "allied")} if side == "allied" else set()
    if state.since(9) and ground - {nat}:  # ruling F116
        d.refuse("Formosa 13.1", f"{hex} holds {'Commonwealth' if nat == 'us' else 'US'} ground units: US and "
                                 "Commonwealth ground and air units never stack together")
    if side == "allied" and state.since(4) and hex in ap.b29_hexes(state):
        d.refuse("Formosa 13.1", f"the B-29 in {hex} stacks with no other Allied air unit (ruling F105)")
    placements: dict = {}
    for h, row_nat, points in rows:
        if row_nat == nat:
            placements[H(h)] = placements.get(H(h), 0) + points
    placements[H(hex)] = placements.get(H(hex), 0) + n
    strategic.check_air_placement(d.data, side, "interdiction" if what == "interdiction" else "tactical",
                                  placements, ap.assigned(state, side, mission))
    there = ap.allied_tac_on(state, hex) if side == "allied" and state.since(4) else {}
    if set(there) - {nat}:  # ground support left on the hex and interdiction together (ruling F105)
        d.refuse("Formosa 16.1", "US and Commonwealth air points cannot be placed in the same hex")
    limit = d.data.charts["stacking"]["allied"]["tac_points"]
    if sum(there.values()) + n > limit:
        d.refuse("Formosa 13.1", f"{hex} holds {sum(there.values())} Allied tactical air points already: at most "
                                 f"{limit} a hex")
    d.emit(ap.AirPlaced(side, what, hex, nat, n))


def _support_candidates(state: State, side: str):
    for u in state.on_map(side)[:30]:
        for n in state.data.map.neighbours(H(u.where)):
            if state.at(str(n), other(side)):
                nat = "cw" if state.spec(u.id).nationality == "cw" else None
                yield {"hex": str(n), "n": 1, **({"nation": nat} if nat else {})}
                break


class GroundSupport(Step):
    """16.3: the phasing player places ground support points on enemy hexes next to his units at the start of
    his Combat Phase, before any attack; each point gives an attack on the hex one right shift."""

    @order("support HEX N [NATION]", "Formosa 16.3", "place N ground support points (assigned to tactical) on an "
           "enemy hex next to your units, before the first attack (Allied: 'cw' for Commonwealth points)",
           _support_candidates)
    def support(self, d: Decision, hex: str, n: int, nation: str | None = None) -> None:
        state: State = d.state
        if state.attacked_hexes or state.combat is not None:
            d.refuse("Formosa 16.3", "ground support is placed before any attack is declared")
        if not is_hex(hex) or not state.at(hex, other(d.side)) or not any(
                state.at(str(n), d.side) for n in d.data.map.neighbours(H(hex))):
            d.refuse("Formosa 16.3", f"{hex} is not a hex of enemy units next to {d.side} units")
        place(d, "support", hex, n, nation)


def _interdict_candidates(state: State, side: str):
    """16.4: one point on every seventh Japanese unit's hex (three at most). Since rules version 16 (ruling F131)
    one or two points, as many as are left, on every hex interdiction acts on now or next: each hex a Japanese
    unit stands in (item 1 reveals the concealed ones) and each land hex free of Allied units next to one, where a
    Japanese move goes first (items 2-3). The order takes any hex of the map (16.1)."""
    for nat, mission in (("us", "interdiction"), ("cw", "cw-interdiction")):
        left = ap.assigned(state, "allied", mission) - ap.placed(state, "allied", nat, "interdiction")
        if left <= 0:
            continue
        nation = {"nation": "cw"} if nat == "cw" else {}
        if not state.since(16):
            for u in state.on_map("japanese")[:: 7][:3]:
                yield {"hex": u.where, "n": 1, **nation}
            continue
        for h in interdiction_hexes(state):
            for n in range(1, min(left, 2) + 1):
                yield {"hex": h, "n": n, **nation}


def interdiction_hexes(state: State) -> list[str]:
    """Ruling F131: the hexes holding Japanese units and the land hexes free of Allied units next to them."""
    held = {u.where for u in state.on_map("japanese")}
    near = {str(n) for h in held for n in state.data.map.neighbours(H(h))
            if state.data.is_land(n) and not state.at(str(n), "allied")}
    return sorted(held | near)


class Interdiction(Step):
    """16.4: the Allied player places his interdiction points (at most two a hex); concealed units there are
    revealed, and Japanese units pay one or two MP more to enter."""

    name = "interdiction"

    def label(self, s: State) -> str:
        return f"Game-Turn {s.turn}: Allied interdiction phase (16.4)"

    @order("interdict HEX N [NATION]", "Formosa 16.4", "place N interdiction points on a hex (Allied: 'cw' for "
           "Commonwealth points)", _interdict_candidates)
    def interdict(self, d: Decision, hex: str, n: int, nation: str | None = None) -> None:
        place(d, "interdiction", hex, n, nation)
        for u in _concealed(d.state, hex):
            d.emit(UnitRevealed(u.id, hex, "Formosa 16.4 item 1", deception=d.state.spec(u.id).type == "deception"))

    @order("end", "Formosa 16.4", "end the Interdiction Phase")
    def end(self, d: Decision) -> None:
        _after(d, self.name)


# -- the defender's LP and naval gunfire (15.4.1, 17.0, F18, F22) ----------------------------------------------------
def _defend_candidates(state: State, side: str):
    yield {}
    yield {"lp": 1}
    if side == "allied":
        yield {"n": 1}
        yield {"supply": "air"}


class Defence(Step):
    """15.4.1, 17.0, 19.4, rulings F18, F22, F87: the defender may spend one LP (a defending unit tracing a line
    of supply) and, Allied, up to two naval gunfire units for a defending unit in a coastal hex, or the air supply
    unit if no defending unit traces a line."""

    name = "defence"

    def label(self, s: State) -> str:
        return (f"Game-Turn {s.turn}: {s.pending[0]['side']} to decide: defend {', '.join(s.pending[0]['hexes'])} "
                "with LP, naval gunfire or air supply, or not (15.4.1, 17.0, 19.4)")

    @order("defend [lp N:lp] [gunfire N] [cw-gunfire N:cw] [supply SUPPLY]", "Formosa 15.4.1", "commit 1 LP (one "
           "left shift) and, Allied, up to 2 naval gunfire units (US or Commonwealth for a defender of that "
           "nationality) to the defence, or the air supply unit ('supply air', 19.4: no defending unit traces a "
           "line); 'defend' alone commits nothing", _defend_candidates)
    def defend(self, d: Decision, lp: int = 0, n: int = 0, cw: int = 0, supply: str = "") -> None:
        state: State = d.state
        attack = state.strike.declared
        defenders = [u for h in attack["hexes"] for u in state.at(h, d.side)]
        for wanted, why in ((n + cw, ap.gunfire_refusal(state, d.side, n, defenders, cw=cw) if n + cw else None),
                            (lp, ap.lp_refusal(d, d.side, False, lp, defenders) if lp else None)):
            if wanted and why:
                d.refuse(*why)
        if supply:
            combat.check_air_supply(state, d.side, defenders, hexes=attack["hexes"])
        d.emit(DecisionMade("defence", d.side))
        if lp:
            d.emit(LpSpent(d.side, lp, f"a left shift defending {', '.join(attack['hexes'])} (Formosa 15.4.1)"))
        if supply:
            d.emit(AirSupplyFlown(state.turn, list(attack["hexes"])))
        d.emit(ap.DefenceChosen(d.side, lp, n + cw, bool(supply)))
        combat.resolve(d, attack["side"], attack["hexes"], [d.state.units[i] for i in attack["units"]],
                       gunfire=attack["gunfire"], lp=attack["lp"], defence=(lp, n + cw, int(bool(supply))),
                       air_supply=attack.get("air_supply", False), assault=attack.get("assault", ""),
                       exploitation=attack.get("exploitation", False))
