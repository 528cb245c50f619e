"""What a side sees of a Formosa game (11.0, 11.1, ruling F7; docs/formosa-engine-plan.md section 4), through one
function every channel uses, and the outputs the replay, the analysis and `preview` read (app/rules/base.py).

For the Allied player a concealed Japanese unit is a "?" counter with its hex and the concealed movement factor
only; a deception unit looks like any concealed unit; the Japanese displays and air points are hidden. For the
Japanese player every Allied unit on the map is visible, the Allied Staging Area, Amoy and the air, naval and
marker displays are not; both Eliminated and Replacements Displays of the Allies are public (F7)."""
from __future__ import annotations

from app.rules.base import Command, Previews
from app.rules.engine.decision import Decision, ProbeDice, ReachedRoll
from app.rules.errors import IllegalOrder
from app.rules.formosa import airpower, combat, invasion, optional, victory
from app.rules.formosa.events import CombatResolved, SpecialLanding, UnitEliminated
from app.rules.formosa.state import State, is_hex
from app.rules.kernel.mapfile import GameMap

PUBLIC_DISPLAYS = ("allied-eliminated", "allied-replacements")  # ruling F7


def _unit(state: State, u) -> dict:
    spec = state.spec(u.id)
    return {"id": u.id, "side": u.side, "hex": u.where if is_hex(u.where) else None, "where": u.where,
            "name": spec.name, "type": spec.type, "cf": spec.cf, "mf": spec.mf, "strength": spec.cf,
            "steps": 1 if u.where != "out" else 0, "indicator": spec.indicator, "concealed": u.concealed,
            "base": u.base, "nationality": spec.nationality, "size": spec.size,
            "factors": f"{spec.base_cf}-0" if u.base else f"{spec.cf}-{spec.mf}"}


def shown(state: State, u, side: str | None) -> str:
    """"full", "concealed" (a "?" counter) or "hidden" for this unit as `side` sees it."""
    if side is None or u.side == side:
        return "full"
    if is_hex(u.where):
        return "concealed" if u.concealed else "full"
    return "full" if u.where in PUBLIC_DISPLAYS else "hidden"


def naval_display(state: State) -> dict[str, str]:
    """Ruling F110: the display each kind of Allied naval gunfire is in: the Allied Staging Area, whence it supports
    combats (17.0) and which the kamikazes hit (16.6), or, after a sortie's Indecisive Action or Decisive Battle,
    the Allied Available Air & Naval Display until the Air Return Phase (18.0: available the next GT)."""
    where = "allied-available" if state.strike.gunfire_withdrawn else "allied-staging"
    return {k: where for k in ("gunfire", "cw-gunfire") if k in state.naval}


def still_to_place(state: State) -> tuple[str, ...]:
    """The units still to deploy (3.0, 8.1). An Allied recruit is deployed once it is in the Staging Area or Amoy
    (8.1 2a, 2b): it stays among them only while the Allied Recruit Phase may still send it to a port (`deploy`);
    after it, it has been deployed where it stands, though the state keeps it until the next Recruit Phase. From
    rules version 7 (ruling F113): the automated seats draw from this view, so a game created before shows the
    list it was played with."""
    if not state.since(7):
        return tuple(state.to_place)
    return tuple(u for u in state.to_place if state.units[u].side != "allied" or state.step == "recruit-allied")


def to_place_seen(state: State, side: str | None, placing: tuple[str, ...]) -> list[str] | int:
    """The units still to deploy as `side` may know them (11.0): the Allies learn only how many Japanese units are
    still to be set up; the Japanese, from rules version 15 (ruling F129), only their own units, not the Allied
    recruits of the Allied Recruit Phase, which stay hidden from them in the Staging Area and Amoy as every other
    unit there does. A game created under 1-14 shows the list it was played with (an automated seat draws from it)."""
    if side is None:
        return list(placing)
    if side == "japanese":
        return [u for u in placing if state.units[u].side == "japanese"] if state.since(15) else list(placing)
    return len(placing)


def score(state: State) -> dict[str, int]:
    """Each side's VP as the end of the game would count them now (4.2; public: control is occupation and the
    Allied displays are public, F7): from rules version 21 (ruling F164) with what the optional rules add at the end,
    as `victory.count` adds it: 25.5's 5 VP less for the 97th Division recruited, 25.10's 3 Japanese VP for the camp
    on the map and the 5 VP it earned in play. A game created under 1-20 shows the 4.2 objectives and losses alone
    (the view is what an automated seat draws its seed from)."""
    allied, japanese = victory.allied_vp(state)[0], victory.japanese_vp(state)[0]
    if state.since(21):
        extra = optional.end_vp(state)
        allied += sum(extra["allied"].values())
        japanese += sum(extra["japanese"].values())
    return {"allied": allied, "japanese": japanese}


def scored(state: State) -> dict:
    """The view's score: each side's VP (`score`) and, from rules version 23 (ruling F171), the level of victory
    4.2's table gives them, as the end of the game would name it now. A game created under 1-22 shows the VP alone
    (the view is what an automated seat draws its seed from)."""
    by_side = score(state)
    level = {"level": state.data.victory_level(by_side["allied"] - by_side["japanese"])} if state.since(23) else {}
    return {"name": "Victory points (Formosa 4.2)", "by_side": by_side, **level}


def view(state: State, side: str | None) -> dict:
    placing = still_to_place(state)
    units, counts = [], {}
    for _, u in sorted(state.units.items()):
        how = shown(state, u, side)
        if how == "full" and (u.where != "out" or side is None or u.side == side):
            units.append(_unit(state, u))
        elif how == "concealed":
            counts[u.where] = counts.get(u.where, 0) + 1
            units.append({"id": f"?{u.where}-{counts[u.where]}", "side": u.side, "hex": u.where,
                          "where": u.where, "concealed": True, "mf": state.spec(u.id).concealed_mf,
                          "strength": None, "steps": 1, "factors": f"?-{state.spec(u.id).concealed_mf}"})
    mine = (lambda key: True) if side is None else (lambda key: key.startswith(side) or (
        side == "allied" and key in ("gunfire", "cw-gunfire", "cw-tac", "b29", "air-supply", "amphibious",
                                     "drop-zone")) or (side == "japanese" and key in ("kamikaze", "mobile-fleet")))
    pending = [{"kind": p["kind"], "side": p["side"], **({k: v for k, v in p.items()} if side in (None, p["side"])
                                                        else {})} for p in state.pending]
    visible_ids = {x["id"] for x in units}
    strike = state.strike
    c = state.combat
    return {
        "scenario": state.scenario, "turn": state.turn, "last_turn": state.data.scenario(state.scenario)["turns"],
        "step": state.step, "side_to_act": None if state.step == "over" else (
            state.pending[0]["side"] if state.pending else state.side),
        "winner": state.winner, "end_reason": state.reason or None,
        "optional_rules": sorted(state.data.optional, key=lambda r: int(r.split(".")[1])),  # 25.0: public
        "lp": dict(state.lp), "lp_next_turn": dict(state.lp_due), "amoy_captured_on": state.amoy_turn,
        "air": {k: v for k, v in state.air.items() if mine(k)},
        "naval": {k: v for k, v in state.naval.items() if mine(k)},
        **({"naval_display": naval_display(state)} if side in (None, "allied") else {}),
        "markers": {k: v for k, v in state.markers.items() if mine(k)},
        "victory_hexes": sorted(str(h) for h in state.data.sudden_death_hexes()),
        # 4.2 as it would count now (public: control is occupation, the Allied displays are public, F7)
        "score": scored(state),
        "control": {h: "allied" for h in sorted(state.occupied("allied"))},
        "units": units,
        "pending": pending,
        "to_place": to_place_seen(state, side, placing),
        # 16.1: a side's plan is its own until the Strike Reveal Phase; what is on the map is seen by both
        "missions": {s: dict(m) for s, m in strike.missions.items() if side in (None, s) or strike.revealed},
        "air_on_map": {"support": [list(r) for r in strike.support if (r[0], r[1]) not in strike.flown],
                       "interdiction": [list(r) for r in strike.interdicted],
                       "b29_suppressed": list(strike.suppressed)},
        "combat": None if c is None else {
            "attacker": c.attacker, "hexes": list(c.hexes), "code": c.code, "cleared": list(c.cleared),
            "attackers": [i for i in c.attackers if i in visible_ids],
            "defenders": [i for i in c.defenders if i in visible_ids]},
    }


def game_map(state: State) -> GameMap:
    return state.data.map


def combat_summary(event, state: State | None) -> dict | None:
    """15.2 as the replay's combat panel and the luck analysis read it: the result of each face."""
    if not isinstance(event, CombatResolved) or state is None:
        return None
    data = state.data
    crt = data.crt("japanese" if event.attacker == "japanese" else "us")
    index = [col.label for col in crt.columns()].index(event.column)
    codes = data.crt_raw["codes"]
    defender = "allied" if event.attacker == "japanese" else "japanese"
    distribution = [{"roll": face, "result": crt.lookup(index, face).code,
                     "value": codes[crt.lookup(index, face).code]["rank"], "p": 1 / len(crt.dice)}
                    for face in crt.dice]
    spec = codes[event.code]
    return {"attacker": event.attacker, "defender": defender, "hex": event.hexes[0], "hexes": list(event.hexes),
            "attackers": list(event.attackers), "attack": event.attack, "defence": event.defence,
            "odds": event.odds, "column": event.column, "shifts": list(event.shifts), "roll": event.die,
            "result": event.code, "case": "Formosa 15.2",
            "losses": {event.attacker: spec.get("attacker", 0) if spec.get("attacker") != "retreat" else 0,
                       defender: spec.get("defender", 0) if spec.get("defender") != "retreat" else 0},
            "distribution": distribution, "columns": [col.label for col in crt.columns()]}


def losses(event, state: State | None) -> dict[str, int] | None:
    """Units each side lost in this event, for the analysis' loss chart: a unit eliminated to a display (15.5,
    15.7, 13.3; a deception unit removed is no loss, 11.1) or a special landing's eliminated unit (25.7, 25.8).
    The count is public: the history tells both sides that a unit of either side was eliminated (F7)."""
    if isinstance(event, UnitEliminated) and event.to != "out":
        return {"japanese" if event.unit.startswith("jp-") else "allied": 1}
    if isinstance(event, SpecialLanding) and "eliminated" in event.result:
        return {"japanese": 1}
    return None


# the orders `preview` draws (the rest have none: app/rules/legal.py)
PREVIEWS = Previews(("attack", "assault"), "Formosa 15.2")


def preview(state: State, command: Command) -> dict:
    """An attack's (or an opposed landing's, 10.2.2) percentage, every shift with its case, the column and the
    result of each die, after the order's own checks (a refused attack is refused here too, with the same case)."""
    PREVIEWS.check(command)
    args = command.args
    if command.action == "assault" and any(u.concealed for u in state.at(args["hex"], "japanese")):
        raise IllegalOrder("Formosa 11.1, ruling F85", f"the defenders of {args['hex']} are concealed: the assault "
                                                       "reveals them, and their strength with them")
    hidden = [h for h in args.get("hexes") or () if any(u.concealed for u in state.at(h, "japanese"))]
    if hidden and command.side == "allied":
        raise IllegalOrder("Formosa 11.2 item 1, ruling F89", f"{', '.join(hidden)} holds concealed units: their "
                                                              "strength is shown when the Combat Phase reveals them")
    us, cw, lp, air_supply = args.get("n") or 0, args.get("cw") or 0, args.get("lp") or 0, args.get("supply") == "air"
    gunfire = us + cw
    d = Decision(state, command.side, ProbeDice(), lambda s, e: e.apply(s))
    try:
        if command.action == "assault":
            invasion.assault(d, args["hex"], us, lp, cw_gunfire=cw, seas=args.get("seas"))
        else:
            combat.declare(d, args["hexes"], args["units"], us, lp, air_supply=air_supply, cw_gunfire=cw)
    except ReachedRoll:
        pass
    if command.action == "assault":
        hexes = [args["hex"]]
        attackers = invasion.force(state, args["hex"], args.get("seas"))
    else:
        hexes = args["hexes"]
        attackers = [state.units[i] for i in args["units"]]
    found = combat.shifts(state, command.side, hexes, attackers, gunfire, lp=lp, air_supply=air_supply)
    p = combat.odds(state, command.side, hexes, attackers, found)
    by_roll = {die: r.code for die, r in p.results}
    shifts = [{"amount": s.amount, "case": s.case, "reason": s.reason} for s in found]
    columns = state.data.crt_raw["table"]["columns"]
    above = p.odds.clamped == "high" and not p.defence  # 15.3 item 2, ruling F168: against 0, above every column
    odds = "above every column" if above else f"{int(p.odds.value)}%"
    lines = [f"{int(p.attack)} against {int(p.defence)}: {odds} reads {columns[p.odds.column]}"]
    lines += [f"{s['amount']:+d} {s['reason']} ({s['case']})" for s in shifts]
    lines.append(f"column {p.column_label}: " + ", ".join(f"{die}: {code}" for die, code in by_roll.items()))
    if airpower.defender_may_answer(state, command.side, hexes):
        what = "LP" if command.side == "allied" else "LP, naval gunfire or air supply"
        lines.append(f"the defender may still commit {what} for left shifts (15.4.1, 17.0, 19.4)")
    return {"hexes": list(hexes), "attack": int(p.attack), "defence": int(p.defence),
            "percent": int(p.odds.value), "shifts": shifts, "column": p.column_label, "case": "Formosa 15.2",
            "by_roll": by_roll, "text": "\n".join(lines), **({"raw_odds": odds} if above else {})}
