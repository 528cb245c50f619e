"""What a side sees of a Dai Senso game: everything (the chapter hides nothing; the dice seed stays the
server's), and the combat summary and preview the replay, analysis and `preview` read."""
from __future__ import annotations

from app.rules.base import Command, Previews
from app.rules.daisenso import combat
from app.rules.daisenso.events import CombatResolved, StepBegan
from app.rules.daisenso.state import State
from app.rules.engine.decision import Decision, ProbeDice, ReachedRoll
from app.rules.kernel.shifts import shift_from_text


def view(state: State, side: str | None) -> dict:
    """Everything; units that step losses took off the map are listed without a hex, with the steps left in
    their place (the analysis counts losses from them), and each victory hex's holder (D16) as its control."""
    d = state.data
    c = state.combat
    control = {h: state.side_of(held[0].faction) for h in state.victory_hold if (held := state.ground_at(h))}
    removed = [{"id": uid, "side": state.side_of(faction), "faction": faction, "hex": None, "kind": kind,
                "name": d.kinds[kind].name, "factors": d.kinds[kind].factors, "strength": d.kinds[kind].attack,
                "steps": steps} for uid, (faction, kind, steps) in sorted(state.removed.items())]
    return {
        "scenario": state.name, "combat_phase": state.combat_phase, "last_phase": state.last_phase,
        "turn": state.combat_phase,  # the charts count by Combat Phase: the scenario's turns
        "phasing": state.phasing, "factions": dict(state.factions), "step": state.step,
        "side_to_act": None if state.step == "over" else (state.pending[0]["side"] if state.pending else state.side),
        "winner": state.winner, "end_reason": state.reason or None,
        "victory": {"faction": state.victory_faction, "hold": list(state.victory_hold)},
        "victory_hexes": list(state.victory_hold),
        "units": [{"id": u.id, "side": state.side_of(u.faction), "faction": u.faction, "hex": u.hex,
                   "kind": u.kind, "name": d.kinds[u.kind].name, "factors": d.kinds[u.kind].factors,
                   "type": d.kinds[u.kind].type, "nation": _nation(d, u.kind),
                   "strength": d.kinds[u.kind].attack, "steps": d.kinds[u.kind].steps, "supplied": u.supplied,
                   "blitz": u.blitz, **({"holding": list(u.holding)} if u.holding else {}),
                   **({"steps_lost": u.lost} if u.lost else {}),
                   **({"zone": u.zone} if u.zone else {})}
                  for u in sorted(state.units.values(), key=lambda x: x.id)] + removed,
        "control": control,
        "markers": [{"kind": m.kind, "hex": m.hex, "faction": m.faction,
                     **({"toward": m.toward} if m.toward else {})} for m in state.markers],
        "force_pool": state.force_pool, "delay_box": state.delay_box,
        "used_box": {z: list(v) for z, v in state.used_box.items()}, "convoys": state.convoys,
        "weather": state.weather,
        "combat": None if c is None else {"target": c.target, "attackers": list(c.attackers),
                                          "attacker_hq": c.attacker_hq, "defenders": list(c.defenders),
                                          "defender_hq": c.defender_hq, "result": c.result, "stage": c.stage,
                                          "retreat_left": c.retreat_left, "path": list(c.path),
                                          **_exploitation(state, c)},
    }


def _exploitation(state: State, c) -> dict:
    """4.2.8: the combat's Exploitation Distance once set (ruling D85, rules version 20; before, the history's line
    alone wrote it): at the advance of a combat with a defender gone, not of an attack on markers alone (4.2.2)."""
    shown = state.since(20) and c.stage == "advance" and not c.automatic
    return {"exploit_distance": c.exploit_distance} if shown else {}


def _nation(d, kind: str) -> str:
    """The nation whose colours a counter wears: its (first) country's, a Dependent's owner's, a Chinese province's
    group's (units.toml countries)."""
    country = d.countries[d.kinds[kind].nations[0]]
    return country.dependent_of or country.group or country.id


def game_map(state: State):
    """The map sheet the picture shows: the one holding the most units (each scenario here is on one sheet; the
    two sheets join nowhere, ruling D2)."""
    sheets = state.data.atlas.sheets
    counts = {prefix: sum(1 for u in state.units.values() if u.hex.startswith(prefix)) for prefix in sheets}
    return sheets[max(sorted(counts), key=lambda p: counts[p])]


def combat_summary(event, state: State | None) -> dict | None:
    """4.2.2's resolution as the replay's combat panel and the luck analysis read it (app/rules/base.py)."""
    if not isinstance(event, CombatResolved) or state is None or state.combat is None:
        return None
    c = state.combat
    crt = state.data.crt
    column = next(i for i, col in enumerate(crt.columns()) if col.label == event.column)
    conversion = "weather" if state.weather_at(c.target) else None
    faces = [(die, crt.lookup(column, die, conversion=conversion)) for die in crt.dice]
    attacker = state.side_of(state.phasing)
    defender = next(s for s in state.factions if s != attacker)
    result = crt.notation.parse(event.result)
    return {"attacker": attacker, "defender": defender, "hex": c.target,
            "attackers": list(c.attackers), "attack": event.attack, "defence": event.defence, "odds": event.odds,
            "column": event.column, "shifts": [shift_from_text(s) for s in event.shifts],  # "1L": -1 (4.2.2 step 4)
            "roll": event.die, "result": event.result, "case": "Dai Senso 4.2.2",
            # the result's Attrition, both numbers of "a/d" (4.2.4.2)
            "losses": {attacker: result.attacker.losses, defender: result.defender.losses},
            "distribution": [{"roll": die, "result": r.code, "value": _value(r), "p": 1 / len(faces)}
                             for die, r in faces], "columns": [col.label for col in crt.columns()]}


def _value(r) -> float:
    """Ruling D3's score of a result for the attacker."""
    value = r.defender.retreat + 1.5 * (r.defender.losses - r.attacker.losses)
    if r.attacker.retreat_or_loss:
        value -= 0.25 if r.exchange else 1
    return value


# what the list of legal orders says beside such an attack's odds (app/rules/legal.py): the column is before the
# defender's Ranged Support, which it declares only after the attack (4.2.2 step 2) and which may lower it
ODDS_NOTE = "before the defender's Ranged Support (Dai Senso 4.2.2 step 2)"

# the orders `preview` draws (the rest have none: app/rules/legal.py)
PREVIEWS = Previews(("attack",), "Dai Senso 4.2.2")


def preview(state: State, command: Command) -> dict:
    """An attack's odds, each shift with its case and the result of every die, by the order's own checks (a
    refused attack is refused here too); before the defender's Ranged Support if it has one to declare."""
    PREVIEWS.check(command)
    if state.step == "airdrop":  # the attack it plans is made in the next step, Blitz Combat (4.1; ruling D81)
        state = StepBegan("blitz-combat").apply(state)
    d = Decision(state, command.side, ProbeDice(), lambda s, e: e.apply(s))
    target = combat.one_hex(d, command.args["hexes"])
    try:
        combat.declare(d, target, command.args["units"], combat.one_hq(d, command.args["hq"]))
    except ReachedRoll:
        pass
    c = d.state.combat
    if c is None or c.automatic:
        return {"hex": target, "automatic": True, "case": "Dai Senso 4.2.2",
                "text": f"{target} holds only Detachment or Logistics markers: the attack succeeds "
                        "without a die; Advance After Combat, no Exploitation (Dai Senso 4.2.2)"}
    p = combat.preview(d.state)
    text = p.to_text()
    if d.state.pending:
        text += "\nThe defender may still add an HQ's Ranged Support (Dai Senso 4.2.2 step 2)"
    note = {"odds_note": ODDS_NOTE} if d.state.pending else {}
    return {**note, "hex": c.target, "attack": int(p.attack), "defence": int(p.defence),
            "raw_odds": p.odds.label.replace(":", "-"), "shifts": [str(x) for x in p.shifts.shifts],
            "column": p.column_label, "case": "Dai Senso 4.2.2",
            "defender_may_add_hq": bool(d.state.pending), "by_roll": {die: r.code for die, r in p.results},
            "text": text}
