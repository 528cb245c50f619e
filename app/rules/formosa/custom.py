"""Formosa custom positions (app/rules/custom_setup.py; docs/custom-positions.md, "Operation Causeway: Formosa"):
a game that starts at the beginning of any phase of any Game-Turn from a position file, the set-up done. Beyond
the common keys (turn, phase, units, removed) a position gives what the Formosa state carries: units in the
displays (`where`), the Japanese units face up (`revealed`; on the map a Japanese unit is concealed unless named,
11.1), the Allied engineer bases (`bases`, 20.0), each side's LP, air and naval points and invasion markers, and
the GT Amoy fell (9.1). `[steps]` and `[control]` are refused: a Formosa counter has no steps, and control is
occupation (5.2). Ruling F98. What the rules talk about mid-turn can be written too (ruling F104): this GT's
air plan (`[missions]`, 16.1), the hexes the B-29 suppressed (`suppressed`, 16.5), a mobile fleet that has
sortied (`fleet_sortied`, 18.0), and a counterattack declared by a CA result (`[counterattack]`, 15.5, 15.6);
`[values]` gives a counter other values than units.toml's (read by data_load, a what-if). Ruling F122 adds the ground
support waiting for its combat (`[support]`, 16.3), the hex the B-29 struck (`b29_struck`, 16.5), the units flown by
air transport (`airlifted`, 25.3), the units attacked this phase that retreated (`defended`, 15.0) and the PW Camp's
VP earned in play (`[vp]`, 25.10). Ruling F124 adds the middle of an Invasion Phase (stacks at sea on their
markers, `[at_sea]`; landings, drops and assaults made; support waiting for the first assault; an assault's CA),
F126 the phasing side over the stacking limits in the middle of a phase (13.0), and F127 an advance after combat still
to choose (`[advance]`, 15.8, 10.2.2); F130 a combat under way at any point (`[combat]`, under_way.py: the defender's
answer, losses, retreats, the counterattack's hex, the advance, 25.1's offer). A unit is placed only
where a rule could have brought it, and Amoy's timing and the 6th Marine Division's arrival are kept (ruling F118).
"""
from __future__ import annotations

from dataclasses import replace

from app.rules.custom_setup import HEX_LABEL, UNIT_ID, Position, SetupError, bounded_list, parse_options
from app.rules.formosa import optional
from app.rules.formosa.state import OUT, SIDES, State, is_hex, other
from app.rules.kernel.hexgrid import Hex

EXTRA_KEYS = ("where", "revealed", "bases", "lp", "air", "naval", "markers", "amoy_turn", "values", "missions",
              "suppressed", "fleet_sortied", "counterattack", "pinned", "landed", "interdiction", "kamikaze_spent",
              "air_supply_used", "moved", "attacked", "attacked_hexes", "lp_next_turn", "support", "vp",
              "b29_struck", "airlifted", "defended", "at_sea", "advance", "combat")
FLEET_RESULTS = {"fiasco": "Fiasco", "indecisive": "Indecisive Action", "decisive": "Decisive Battle"}
POOLS = {"air": ("allied-tac", "cw-tac", "japanese-tac", "kamikaze", "b29", "air-supply", "mobile-fleet"),
         "naval": ("gunfire", "cw-gunfire"), "markers": ("amphibious", "drop-zone"), "lp": SIDES}


def apply(state: State, options) -> State:
    """The printed start, or the position in `options` placed on it."""
    _, position = parse_options({k: v for k, v in dict(options).items() if k != "optional"}, SIDES, EXTRA_KEYS)
    return state if position is None else _place(state, position)


def _phases(turn: int, missions: dict | None = None) -> tuple[str, ...]:
    """The phases a position may start in: those a player acts in (the Logistics, Strike Reveal and Air Return
    Phases are played on entering them, 7.2, 16.1, 6.1), and the B-29 and Interdiction Phases only when the
    position's air plan assigns their mission (16.1: without one they are passed over); GT 1 from Strike
    Planning (24.1: no Logistics, Recruit or Amoy Phase)."""
    from app.rules.formosa.sequence import FIRST_ON_GT1, NEEDS_MISSION, TURN

    planned = (missions or {}).get("allied", {})
    idle = [step for step, needs in NEEDS_MISSION.items() if not any(planned.get(m, 0) for m in needs)]
    skipped = ("logistics", "strike-reveal", "air-return", *idle)
    phases = tuple(p for p in TURN if p not in skipped)
    return phases[phases.index(FIRST_ON_GT1):] if turn == 1 else phases


def _after_step(phase: str, step: str) -> bool:
    """Does a Game-Turn that starts at `phase` come after its `step` (6.1)?"""
    from app.rules.formosa.sequence import TURN

    return phase in TURN and TURN.index(phase) > TURN.index(step)


def _land(data, label: str) -> bool:
    try:
        h = Hex.parse(label)
    except ValueError:
        return False
    return data.map.on_map(h) and data.is_land(h)


def _terrain_problem(state: State, uid: str, h: str) -> str:
    """Ruling F118: a hex no rule could have brought `uid` to: a static unit outside the hexes 8.1 (or 25.10)
    deploys it in, since it never moves; a mechanized unit in mountain or peak no road or railroad runs through
    (12.2, 8.1, 12.3 Important: ruling F115). A game created under 1-9 read its position without these checks."""
    from app.rules.formosa import movement

    if not state.since(10):
        return ""
    static = movement.static_refusal(state, uid, h)
    if static:
        return f"{static[1]} ({static[0]}; ruling F118{', F172' if static[0] == 'Formosa 13.1' else ''})"
    if movement.closed_to(state, uid, h):
        terrain = state.data.map.terrain_of(Hex.parse(h))
        return (f"{uid} is mechanized: it enters {terrain} only along a road or railroad, and none runs through {h} "
                "(Formosa 12.2, 8.1; rulings F115, F118)")
    return ""


def _sixth_marines_arrived(state: State, p: Position, amoy) -> tuple[str, ...]:
    """Ruling F118: the 6th Marine Division, out of play until then, enters the Amoy Display when the Allied
    Recruit Phase begins the GT after Amoy fell (24.1, F34): a position past that moment may place it, and has it
    there unless it says otherwise. Its unit ids, or none before that moment (or in a game created under 1-9, which
    had it out of play unless the position named it in a display or on a hex)."""
    from app.rules.formosa.sequence import TURN

    if not state.since(10) or not _number(amoy) or p.phase not in TURN:
        return ()
    if p.turn < amoy + 1 or (p.turn == amoy + 1 and TURN.index(p.phase) < TURN.index("recruit-allied")):
        return ()
    return tuple(state.data.scenario(state.scenario)["special"].get("after_amoy", ()))


def _number(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _place(state: State, p: Position) -> State:
    data = state.data
    x = p.extra
    problems: list[str] = []
    last = data.scenario(state.scenario)["turns"]
    if not 1 <= p.turn <= last:
        problems.append(f"'turn' is a Game-Turn from 1 to {last} in Scenario {state.scenario}")
    missions = _missions(state, p, x.get("missions"), problems)
    if p.phase not in _phases(p.turn, missions):
        problems.append(f"'phase' on Game-Turn {p.turn} is one of {', '.join(_phases(p.turn, missions))} "
                        "(Formosa 6.1, 24.1; the B-29 and Interdiction Phases need their mission in [missions])")
    if p.steps:
        problems.append("[steps]: a Formosa counter has no steps")
    if p.control is not None:
        problems.append("[control]: in Formosa control is occupation (5.2): place units instead")
    units = dict(state.units)
    fixed = set(state.to_place)
    for uid, u in units.items():
        if u.side == "japanese" and uid in fixed:
            units[uid] = replace(u, where=OUT)  # the printed set-up is replaced by the position's
    where = x.get("where", {})
    if not isinstance(where, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in where.items()):
        problems.append("[where] maps unit ids to displays")
        where = {}
    revealed = set(bounded_list(x.get("revealed", []), "revealed", UNIT_ID, "unit ids", problems))
    bases = set(bounded_list(x.get("bases", []), "bases", UNIT_ID, "unit ids", problems))
    for uid in sorted({*p.units, *p.removed, *where, *revealed, *bases} - set(units)):
        problems.append(f"no unit {uid!r}")
    marines = _sixth_marines_arrived(state, p, x.get("amoy_turn"))
    for uid, h in sorted(p.units.items()):
        if uid not in units:
            continue
        if state.units[uid].where == OUT and uid not in marines:
            problems.append(f"{uid} is not in this game (the scenario, an optional rule not chosen or Amoy not yet "
                            "fallen: 24.1, 24.2, 25.0)")
        elif not _land(data, h):
            problems.append(f"{uid}: {h} is not a land hex of the map")
        elif _terrain_problem(state, uid, h):
            problems.append(_terrain_problem(state, uid, h))
        else:
            units[uid] = replace(units[uid], where=h, concealed=units[uid].side == "japanese" and uid not in revealed)
    for uid, display in sorted(where.items()):
        if uid in units and uid in p.units:
            problems.append(f"{uid} is both on the map and in the {display} display")
        elif uid in units and state.units[uid].where == OUT and uid not in marines and state.since(10):
            problems.append(f"{uid} is not in this game (the scenario, an optional rule not chosen or Amoy not yet "
                            "fallen: 24.1, 24.2, 25.0)")
        elif uid in units and data.displays.get(display, {}).get("owner") != units[uid].side:
            problems.append(f"[where] {uid}: {display!r} is not a display of the {units[uid].side} player")
        elif uid in units:
            units[uid] = replace(units[uid], where=display)
    for uid in p.removed:
        if uid in units:
            units[uid] = replace(units[uid], where=OUT)
    seas = _at_sea(state, units, p, x, marines, problems)
    for uid in sorted(revealed & set(units)):
        if units[uid].side != "japanese" or not is_hex(units[uid].where):
            problems.append(f"revealed: {uid} is not a Japanese unit placed in [units]")
        elif data.unit(uid).type == "deception":
            problems.append(f"revealed: {uid} is a deception unit, removed when revealed (11.1): leave it out")
    for uid in sorted(bases & set(units)):
        u = units[uid]
        if data.unit(uid).type != "engineer" or u.side != "allied" or not is_hex(u.where) or not (
                data.map.features_of(Hex.parse(u.where)) & {"major-port", "minor-port", "airfield"}):
            problems.append(f"bases: {uid} is not an Allied engineer placed in a port or airfield hex (20.1)")
        else:
            units[uid] = replace(u, base=True)
    pools = {}
    for key, names in POOLS.items():
        value = x.get(key, {})
        if not isinstance(value, dict) or set(value) - set(names) or not all(_number(v) for v in value.values()):
            problems.append(f"[{key}] maps {', '.join(names)} to numbers (0 or more)")
            value = {}
        pools[key] = value
    amoy = x.get("amoy_turn")
    if amoy is not None and (not _number(amoy) or not 2 <= amoy <= p.turn):
        problems.append("'amoy_turn' is the GT Amoy fell: from 2 to 'turn' (9.1)")
    elif amoy == p.turn and not _after_step(p.phase, "amoy") and state.since(10):
        problems.append(f"'amoy_turn' {amoy}: Amoy falls in the Amoy Operation Phase (9.1, 6.1), which comes after "
                        f"{p.phase!r}: a position at that phase gives an earlier GT or none")
    else:
        box = data.scenario(state.scenario)["special"]["after_amoy_box"]
        for uid in marines:  # 24.1: arrived, where no other line of the position puts them
            if uid in units and uid not in p.units and uid not in where and uid not in p.removed:
                units[uid] = replace(units[uid], where=box)
    fleet = x.get("fleet_sortied", False)
    this_gt = isinstance(fleet, str) and fleet in FLEET_RESULTS  # a list or a map is no result (and unhashable)
    if not isinstance(fleet, bool) and not this_gt:
        problems.append("'fleet_sortied' is true (on an earlier GT) or this GT's result: "
                        f"{', '.join(map(repr, FLEET_RESULTS))} (18.0: the mobile fleet sorties once a game)")
    elif fleet and pools["air"].get("mobile-fleet"):
        problems.append("fleet_sortied: the marker is removed from the game after its sortie (18.0); [air] "
                        "mobile-fleet is then 0")
    elif this_gt and (p.turn == 1 or not _after_step(p.phase, "japanese-special-attack")):
        problems.append("fleet_sortied: this GT's sortie is made in its Japanese Special Attack Phase, from GT 2 on "
                        f"(18.0); a position at {p.phase!r} on GT {p.turn} comes before it")
    elif fleet is True and p.turn <= 2:
        problems.append("fleet_sortied: a sortie on an earlier GT was made on GT 2 at the earliest (18.0)")
    pinned = set(bounded_list(x.get("pinned", []), "pinned", UNIT_ID, "unit ids (10.2.1, 10.3, 21.0)", problems))
    if pinned and p.phase not in ("invasion", "naval-transfer", "allied-movement"):
        problems.append("pinned: units that landed, dropped or moved by sea this GT are held in the Allied Movement "
                        "Phase that follows (10.2.1, 10.3, 21.0): a position at invasion (ruling F124), "
                        "naval-transfer or allied-movement")
    for uid in sorted(pinned & set(units)):
        if units[uid].side != "allied" or not is_hex(units[uid].where):
            problems.append(f"pinned: {uid} is not an Allied unit placed in [units]")
        else:
            units[uid] = replace(units[uid], pinned=True)
    landed = set(bounded_list(x.get("landed", []), "landed", UNIT_ID, "unit ids (10.2.1)", problems))
    if landed and p.phase not in ("invasion", "naval-transfer", "allied-movement", "allied-combat"):
        problems.append("landed: units that made an amphibious invasion this GT attack the adjacent Japanese units "
                        "in the ensuing Allied Combat Phase (10.2.1, 10.2.2): a position at invasion (ruling F124), "
                        "naval-transfer, allied-movement or allied-combat")
    for uid in sorted(landed & set(units)):
        if units[uid].side != "allied" or not is_hex(units[uid].where):
            problems.append(f"landed: {uid} is not an Allied unit placed in [units]")
        else:
            units[uid] = replace(units[uid], landed=True, pinned=units[uid].pinned or p.phase != "allied-combat")
    markers = _markers_placed(state, units, p, x, pinned, landed, problems) if p.phase == "invasion" else []
    _done(units, p, x, problems)
    spent = x.get("kamikaze_spent", 0)
    if not _number(spent):
        problems.append("'kamikaze_spent' is the number of kamikaze points that have attacked (2.5: once a game)")
        spent = 0
    due = x.get("lp_next_turn", {})
    if not isinstance(due, dict) or set(due) - set(SIDES) or not all(_number(v) for v in due.values()):
        problems.append("[lp_next_turn] maps allied, japanese to numbers (0 or more)")
        due = {}
    elif any(due.values()) and ("25.2" not in state.data.optional or not _after_step(p.phase, "b29")):
        problems.append("lp_next_turn: LP received after this GT's Logistics Phase come from battlefield victories "
                        "(25.2, chosen with --optional), from the Invasion Phase's assaults on (7.2)")
    used = x.get("air_supply_used", False)
    if not isinstance(used, bool):
        problems.append("'air_supply_used' is true or false (19.4: the air supply unit serves one combat a GT)")
        used = False
    if problems:
        raise SetupError("position", problems)
    placed = replace(state, turn=p.turn, step=p.phase, units=units, to_place=(), setup_rolled=True,
                     lp={**state.lp, **pools["lp"]}, air={**state.air, **pools["air"]},
                     naval={**state.naval, **pools["naval"]}, markers={**state.markers, **pools["markers"]},
                     amoy_turn=amoy, special_ready=tuple(
                         u.id for u in units.values() if u.where == "japanese-reinforcements"
                         and optional.special(state, u.id)),
                     kamikaze_spent=spent, air_supply_turn=p.turn if used else None,
                     lp_due={k: v for k, v in due.items() if v},
                     used_hexes=(*seas, *(h for h, _ in markers)),
                     amphibious=(*seas, *(h for h, kind in markers if kind == "amphibious")))
    placed = replace(placed, attacked_hexes=tuple(bounded_list(x.get("attacked_hexes", []), "attacked_hexes",
                                                                HEX_LABEL, "hexes", problems)))
    if placed.attacked_hexes and p.phase not in ("invasion", "allied-combat", "japanese-combat"):
        problems.append("attacked_hexes: the hexes attacked in this Combat Phase (15.0), or assaulted in this "
                        f"Invasion Phase (10.2.2, ruling F124); a position at {p.phase!r} has none")
    elif p.phase == "invasion":
        problems += [f"attacked_hexes: {h} is no coastal hex of the map: an assault of the Invasion Phase comes from "
                     "the sea (10.2.2, ruling F124)" for h in placed.attacked_hexes
                     if not _land(data, h) or not data.is_coastal(Hex.parse(h))]
    placed = _defended(placed, x.get("defended"), problems)
    placed = _air_plan(placed, missions, x.get("suppressed", []), fleet, problems)
    placed = _interdiction(placed, missions, x.get("interdiction"), problems)
    placed = _support(placed, missions, x.get("support"), problems)
    placed = _vp(placed, x.get("vp"), problems)
    placed = _b29_struck(placed, missions, x.get("b29_struck"), problems)
    placed = _airlifted(placed, x.get("airlifted"), problems)
    problems += [f"{h} holds units of both sides" for h in sorted(placed.occupied("allied") & placed.occupied(
        "japanese"))]
    problems += [f"{h}: {side} units over the stacking limits (13.1, 13.2)"
                 + (": US and Commonwealth units never stack together (Formosa 5.1 item 1, 13.1)" if mixed else
                    "; stacking is checked at the end of the Recruit, Movement and Combat Phases, so only the "
                    "phasing side stands over the limits in the middle of a phase, in a hex a unit landed, dropped "
                    "(pinned, landed), moved (moved) or advanced (attacked) into (13.0, 13.3; ruling F126)")
                 for side in SIDES for h in placed.overstacked(side)
                 for mixed in [len({placed.spec(u.id).nationality for u in placed.at(h, side)}) > 1]
                 if mixed or not _overstack_pending(placed, side, h)]
    if problems:
        raise SetupError("position", problems)
    placed = _revealed_in_combat(placed)
    counter, advance, under_way = x.get("counterattack"), x.get("advance"), x.get("combat")
    if sum(v is not None for v in (counter, advance, under_way)) > 1:
        raise SetupError("position", ["[counterattack], [advance] and [combat]: one combat is under way at a time "
                                      "(15.5)"])
    if under_way is not None:
        from app.rules.formosa.under_way import open_combat

        return open_combat(placed, under_way)
    if advance is not None:
        return _advance(placed, advance)
    return placed if counter is None else _counterattack(placed, counter)


def _at_sea(state: State, units: dict, p: Position, x: dict, arrived: tuple[str, ...],
            problems: list[str]) -> tuple[str, ...]:
    """`[at_sea]`: `"XXYY" = [unit ids]`, in the Invasion Phase, the stacks on amphibious markers in all-sea hexes
    whose assault is not yet made (10.1 item 3, 10.2.2; ruling F124): each an all-sea hex next to a port or open
    coastal hex (any coastal hex for a stack of rangers only, 22.0) that Japanese units hold or that was assaulted
    this phase (`attacked_hexes`: another stack's assault may have taken it), one marker carrying 1 to 4 Allied
    mobile units of one nation (10.2, 13.1), none after this GT's Decisive Battle (18.0 b)). The sea hexes, each
    holding its marker."""
    raw = x.get("at_sea")
    if raw is None:
        return ()
    data = state.data
    if not isinstance(raw, dict) or len(raw) > 1000:
        problems.append("[at_sea] maps all-sea hexes to the units on their amphibious marker (10.1 item 3)")
        return ()
    if p.phase != "invasion":
        problems.append("[at_sea]: stacks wait at sea on their amphibious markers in the Invasion Phase only and "
                        f"never remain at sea after it (10.2.2); a position at {p.phase!r} has none")
        return ()
    if x.get("fleet_sortied") == "decisive":
        problems.append("[at_sea]: after this GT's Decisive Battle no amphibious marker is placed (18.0 b))")
        return ()
    limit = data.charts["stacking"]["amphibious_units"]
    japanese = {u.where for u in units.values() if u.side == "japanese" and is_hex(u.where)}
    raw_hexes = x.get("attacked_hexes")
    assaulted = {h for h in raw_hexes if isinstance(h, str)} if isinstance(raw_hexes, list) else set()
    where = x.get("where")
    elsewhere = {*p.units, *p.removed, *(where if isinstance(where, dict) else ())}
    aboard: set[str] = set()
    seas: list[str] = []
    for h, given in sorted(raw.items()):
        ids = bounded_list(given, f"at_sea {h}", UNIT_ID, "unit ids", problems)
        if not HEX_LABEL.fullmatch(str(h)) or not data.map.on_map(Hex.parse(h)) or data.is_land(Hex.parse(h)):
            problems.append(f"[at_sea] {h}: an amphibious marker waits at sea in an all-sea hex of the map "
                            "(10.1 item 3)")
            continue
        if not 1 <= len(ids) <= limit or len(set(ids)) != len(ids):
            problems.append(f"[at_sea] {h}: one amphibious marker carries 1 to {limit} different units (10.2)")
            continue
        wrong = [uid for uid in ids if uid not in units or units[uid].side != "allied" or data.unit(uid).static
                 or (state.units[uid].where == OUT and uid not in arrived)]
        twice = [uid for uid in ids if uid in elsewhere or uid in aboard]
        aboard.update(ids)
        if wrong or twice:
            problems += [f"[at_sea] {h}: {uid} is not an Allied mobile unit in this game (10.2)" for uid in wrong]
            problems += [f"[at_sea] {h}: {uid} is placed elsewhere in the position too" for uid in twice]
            continue
        rangers = all(data.unit(uid).type == "ranger" for uid in ids)
        if not any(data.is_land(n) and (n in data.ports() or n in data.open_coastal() or rangers)
                   and (str(n) in japanese or str(n) in assaulted) for n in data.map.neighbours(Hex.parse(h))):
            problems.append(f"[at_sea] {h}: a marker is placed at sea only next to a Japanese-held port or open "
                            "coastal hex (rangers: any coastal hex, 22.0), held still or assaulted this phase "
                            "(attacked_hexes) (10.1 item 3)")
            continue
        if len({data.unit(uid).nationality for uid in ids}) > 1:
            problems.append(f"[at_sea] {h}: US and Commonwealth units never stack together (5.1 item 1, 13.1)")
            continue
        for uid in ids:  # as a landing puts them at sea (events.UnitsLanded): pinned, and bound to attack (10.2.2)
            units[uid] = replace(units[uid], where=h, pinned=True, landed=True)
        seas.append(h)
    return tuple(seas)


def _markers_placed(state: State, units: dict, p: Position, x: dict, pinned: set[str], landed: set[str],
                    problems: list[str]) -> list[tuple[str, str]]:
    """Ruling F124: in the Invasion Phase, the markers under the units that have landed (`landed`: an amphibious
    marker, 10.2.1) or dropped (`pinned` and not landed: a drop zone, 10.3) this phase: (hex, kind) for each. A hex
    assaulted this phase (`attacked_hexes`) was entered from a marker at sea (10.2.2), so holds none. Each marker
    where 10.1 places it, with the units it carries (10.2, 10.3)."""
    data = state.data
    raw_hexes = x.get("attacked_hexes")
    assaulted = set(raw_hexes) if isinstance(raw_hexes, list) and all(isinstance(h, str) for h in raw_hexes) else set()
    by_hex: dict[str, list[str]] = {}
    for uid in sorted(pinned | landed):  # as read (`landed` -1 is refused naming its key, not read here again)
        u = units.get(uid)
        if u is not None and u.side == "allied" and is_hex(u.where):
            by_hex.setdefault(u.where, []).append(uid)
    out = []
    for h, ids in sorted(by_hex.items()):
        hx = Hex.parse(h)
        came = [i for i in ids if i in landed]
        dropped = [i for i in ids if i not in landed]
        if came and h not in assaulted:
            rangers = all(data.unit(i).type == "ranger" for i in came)
            if not (hx in data.ports() or hx in data.open_coastal() or (rangers and data.is_coastal(hx))):
                problems.append(f"landed: {h} is neither an open coastal hex nor a port (rangers: any coastal hex, "
                                "22.0), nor a hex assaulted this phase (attacked_hexes): no landing reaches it "
                                "(10.1, 10.2.2)")
            else:
                out.append((h, "amphibious"))
        if dropped:
            wrong = [i for i in dropped if data.unit(i).type != "airborne" or data.unit(i).size != "regiment"]
            if wrong:
                problems.append(f"pinned: in the Invasion Phase the units pinned and not landed have dropped (10.3): "
                                f"{', '.join(wrong)} is no airborne regiment")
            elif len(dropped) > data.charts["stacking"]["drop_zone_units"]:
                problems.append(f"pinned: one drop zone marker carries up to "
                                f"{data.charts['stacking']['drop_zone_units']} airborne regiments (10.3): {h}")
            elif data.map.terrain_of(hx) != "open" and hx not in data.airfields():
                problems.append(f"pinned: {h} is neither an open hex nor an airfield: no drop zone there (10.1)")
            else:
                out.append((h, "drop-zone"))
    return out


def _overstack_pending(state: State, side: str, hex: str) -> bool:
    """13.0, 13.3 (ruling F126): may `side` stand over the stacking limits in `hex` in this position? Only in the
    middle of a phase whose end checks them, in a hex a unit entered in it: in the Allies' Invasion, Naval Transfer
    and Movement Phases a hex holding a unit that landed or dropped this GT (`pinned`, `landed`: a drop zone shares
    a hex with an amphibious marker, F105, so six units may land there) or, in a Movement Phase, one that moved
    (`moved`); in a Combat Phase a hex holding a unit that attacked (`attacked`: an advance after combat, 15.8).
    Never the side whose units stand still: its stacks were checked at the end of its own last phase (13.3), and a
    retreat keeps the limits (15.7 item 3)."""
    if side != state.side:
        return False
    here = state.at(hex, side)
    if state.step in ("invasion", "naval-transfer", "allied-movement") and any(u.pinned for u in here):
        return True
    if state.step in ("allied-movement", "japanese-movement"):
        return any(u.moved for u in here)
    return state.step in ("allied-combat", "japanese-combat") and any(u.attacked for u in here)


# a position in the middle of a phase (ruling F104): flag -> {phase: the side whose units did it}
DONE = {"moved": {"allied-movement": "allied", "japanese-movement": "japanese"},
        "attacked": {"allied-combat": "allied", "japanese-combat": "japanese"}}


def _done(units: dict, p: Position, x: dict, problems: list[str]) -> None:
    """The units that moved in this Movement Phase or attacked in this Combat Phase (12.2, 15.0): each moves and
    attacks once a phase."""
    for key, phases in DONE.items():
        named = bounded_list(x.get(key, []), key, UNIT_ID, "unit ids", problems)
        side = phases.get(p.phase)
        if named and side is None:
            problems.append(f"{key}: belongs to the phase it happened in ({', '.join(phases)}); a position at "
                            f"{p.phase!r} has none (12.2, 15.0)")
            continue
        for uid in named:
            u = units.get(uid)
            if u is None or u.side != side or not is_hex(u.where):
                problems.append(f"{key}: {uid} is not {'an Allied' if side == 'allied' else 'a Japanese'} unit "
                                "placed in [units]")
            else:
                units[uid] = replace(u, **{key: True})
    if x.get("attacked") and not x.get("attacked_hexes"):
        problems.append("attacked: the hexes the units attacked are in attacked_hexes (15.0)")


def _missions(state: State, p: Position, raw, problems: list[str]) -> dict[str, dict[str, int]]:
    """[missions]: each side's air plan of this GT (16.1), made in its Strike Planning Phase before the position
    starts, within the points it holds (16.0, 16.1)."""
    from app.rules.errors import IllegalOrder
    from app.rules.formosa import strategic
    from app.rules.formosa.strike import MISSIONS

    if raw is None:
        return {}
    if not isinstance(raw, dict) or set(raw) - set(SIDES) or not all(
            isinstance(v, dict) and set(v) <= set(MISSIONS[side]) and all(_number(n) for n in v.values())
            for side, v in raw.items()):
        problems.append("[missions] maps allied and japanese to their missions and points: allied "
                        f"{', '.join(MISSIONS['allied'])}; japanese {', '.join(MISSIONS['japanese'])} (16.1)")
        return {}
    for side, planned in raw.items():
        if not _after_step(p.phase, f"strike-planning-{side}") or p.phase == "air-return":
            problems.append(f"[missions] {side}: the air plan is made in the {side} Strike Planning Phase and "
                            f"flies until the Air Return Phase (16.1, 6.1): a position at {p.phase!r} has none")
            continue
        air = p.extra.get("air")
        pools = {**state.air, **air} if isinstance(air, dict) else state.air
        if side == "japanese":
            groups = [({"tac": pools.get("japanese-tac", 0), "kamikaze": pools.get("kamikaze", 0)}, planned)]
        else:
            groups = [({"tac": pools.get("allied-tac", 0), "b29": pools.get("b29", 0)},
                       {m: n for m, n in planned.items() if not m.startswith("cw-")}),
                      ({"tac": pools.get("cw-tac", 0)}, {m[3:]: n for m, n in planned.items() if m.startswith("cw-")})]
        for available, missions in groups:
            try:
                strategic.assign_air(side, available, missions)
            except IllegalOrder as exc:
                problems.append(f"[missions] {side}: {exc}")
    return {side: dict(v) for side, v in raw.items()}


def _air_plan(state: State, missions: dict, suppressed, fleet, problems: list[str]) -> State:
    """The strike stage of the position's GT: the plan (revealed once the Strike Reveal Phase is past, 16.1),
    the hexes the B-29 suppressed (16.5 DS), a mobile fleet that has sortied, with this GT's result if it
    sortied this GT (18.0)."""
    hexes = bounded_list(suppressed, "suppressed", HEX_LABEL, "hexes", problems)
    if hexes and not _after_step(state.step, "b29"):
        problems.append("suppressed: the B-29 strikes in the Allied B-29 Phase (16.5); a position at "
                        f"{state.step!r} comes before it")
    elif hexes and not missions.get("allied", {}).get("b29"):
        problems.append("suppressed: the B-29 that struck was assigned in Strike Planning: give [missions] allied "
                        "b29 = 1 (16.1, 16.5)")
    elif len(hexes) > 1:
        problems.append("suppressed: the one B-29 strikes one hex a GT (16.5)")
    problems += [f"suppressed: {h} holds no Japanese unit (16.5: the B-29 strikes a hex holding Japanese units)"
                 for h in hexes if not state.at(h, "japanese")]
    strike = replace(state.strike, missions={s: dict(m) for s, m in missions.items()},
                     revealed=_after_step(state.step, "strike-reveal"), suppressed=tuple(hexes),
                     b29_used=bool(hexes), kamikaze_done=_after_step(state.step, "japanese-special-attack"),
                     fleet_used=bool(fleet), gunfire_withdrawn=fleet in ("indecisive", "decisive"),
                     amphibious_barred=fleet == "decisive")
    return replace(state, strike=strike)


def _interdiction(state: State, missions: dict, raw, problems: list[str]) -> State:
    """[interdiction]: `"XXYY" = points` the Allies placed in this GT's Interdiction Phase (16.4; a table
    `{ cw = n }` for Commonwealth points), at most two a hex, within the points the plan assigned."""
    from app.rules.formosa.state import H

    if raw is None:
        return state
    rows = []
    if not isinstance(raw, dict) or len(raw) > 1000:
        problems.append("[interdiction] maps hexes to Allied interdiction points (16.4)")
        return state
    for h, given in sorted(raw.items()):
        nation, points = ("cw", given.get("cw")) if isinstance(given, dict) else ("us", given)
        if not HEX_LABEL.fullmatch(str(h)) or not _number(points) or not 1 <= points <= 2 or (
                isinstance(given, dict) and set(given) != {"cw"}):
            problems.append(f"[interdiction] {h}: 1 or 2 points on a hex of the map (16.4), or {{ cw = n }}")
        elif not state.data.map.on_map(H(h)):
            problems.append(f"[interdiction] {h} is not a hex of the map")
        else:
            rows.append((h, nation, points))
    if not _after_step(state.step, "interdiction"):
        problems.append(f"[interdiction]: the points are placed in the Allied Interdiction Phase (16.4); a position "
                        f"at {state.step!r} comes before it")
    planned = missions.get("allied", {})
    for nation, mission in (("us", "interdiction"), ("cw", "cw-interdiction")):
        placed = sum(p for _, n, p in rows if n == nation)
        if placed > planned.get(mission, 0):
            problems.append(f"[interdiction]: {placed} {nation} points placed, {planned.get(mission, 0)} assigned to "
                            f"{mission} in [missions] (16.1, 16.4)")
    return replace(state, strike=replace(state.strike, interdicted=tuple(rows)))


def _support(state: State, missions: dict, raw, problems: list[str]) -> State:
    """[support]: `"XXYY" = points` of ground support the phasing player placed at the start of this Combat
    Phase (16.3; Allied `{ cw = n }` for Commonwealth points) that waits for its combat: on a hex of enemy units
    next to his units, not yet attacked (support returns after its combat), at most two Allied points or one
    Japanese point a hex, none with the B-29 (13.1), within the points the plan assigned to tactical (16.1)."""
    from app.rules.errors import IllegalOrder
    from app.rules.formosa import invasion, strategic
    from app.rules.formosa.airpower import b29_hexes
    from app.rules.formosa.sequence import COMBAT_STEPS
    from app.rules.formosa.state import H

    if raw is None:
        return state
    if not isinstance(raw, dict) or len(raw) > 1000:
        problems.append("[support] maps hexes to ground support points (16.3)")
        return state
    if state.step not in (*COMBAT_STEPS, "invasion"):
        problems.append(f"[support]: ground support is placed at the start of a Combat Phase and returns after its "
                        f"combat (16.3), or before the first assault of an Invasion Phase (ruling F86); a position "
                        f"at {state.step!r} has none")
        return state
    if state.step == "invasion" and state.attacked_hexes:
        problems.append("[support]: in the Invasion Phase ground support is placed before the first assault and flies "
                        "with that assault only (16.3, ruling F86): a position with attacked_hexes has none waiting")
        return state
    assaultable = {h for u in invasion.waiting(state) for h in invasion.targets(state, u.where)}
    side = state.side
    rows = []
    for h, given in sorted(raw.items()):
        nation, points = ("cw", given.get("cw")) if isinstance(given, dict) else (
            "us" if side == "allied" else "japanese", given)
        if not HEX_LABEL.fullmatch(str(h)) or not _number(points) or not points or (
                isinstance(given, dict) and (set(given) != {"cw"} or side != "allied")):
            problems.append(f"[support] {h}: a number of points (Allied: {{ cw = n }} for Commonwealth points) "
                            "(16.3)")
        elif not state.data.map.on_map(H(h)):
            problems.append(f"[support] {h} is not a hex of the map")
        elif state.step == "invasion" and h not in assaultable:
            problems.append(f"[support] {h}: in the Invasion Phase ground support is placed on a Japanese-held hex a "
                            "stack at sea may assault ([at_sea]; 10.2.2, ruling F86)")
        elif not state.at(h, other(side)) or not any(state.at(str(n), side)
                                                     for n in state.data.map.neighbours(H(h))):
            problems.append(f"[support] {h}: ground support is placed on a hex of {other(side)} units next to "
                            f"{side} units (16.3)")
        elif h in state.attacked_hexes:
            problems.append(f"[support] {h} has been attacked this phase: its ground support has flown and "
                            "returned (16.3); leave it out")
        elif side == "allied" and h in b29_hexes(state):
            problems.append(f"[support] {h}: the B-29 there stacks with no other Allied air unit (13.1)")
        else:
            rows.append((side, h, nation, points))
    planned = missions.get(side, {})
    for nation in {n for _, _, n, _ in rows}:
        mission = "cw-tactical" if nation == "cw" else "tactical"
        try:
            strategic.check_air_placement(state.data, side, "tactical", {
                H(h): p for _, h, n, p in rows if n == nation}, planned.get(mission, 0))
        except IllegalOrder as exc:
            problems.append(f"[support]: {exc} ({mission} in [missions], 16.1)")
    return replace(state, strike=replace(state.strike, support=tuple(rows)))


def _vp(state: State, raw, problems: list[str]) -> State:
    """[vp]: `allied = n`, `japanese = n`: victory points earned during play (25.10, chosen with --optional): the
    Allies' for taking the PW Camp's hex in the combat that eliminated it, the Japanese player's for a B-29 strike
    that destroyed it; one camp earns one of them, and it is then off the map."""
    if raw is None:
        return state
    table = optional._table(state, "25.10") if "25.10" in state.data.optional else {}
    earned = {"allied": table.get("allied_vp_taken"), "japanese": table.get("japanese_vp_bombed")}
    if not isinstance(raw, dict) or set(raw) - set(SIDES) or not all(_number(v) for v in raw.values()):
        problems.append("[vp] maps allied, japanese to victory points earned in play (25.10)")
        return state
    given = {k: v for k, v in raw.items() if v}
    if not given:
        return state
    camp_on_map = any(state.spec(u.id).type == "pw-camp" for u in state.on_map("japanese"))
    if not table:
        problems.append("[vp]: victory points are earned in play only by the PW Camp (25.10, chosen with "
                        "--optional)")
    elif len(given) > 1 or any(v != earned[k] for k, v in given.items()):
        problems.append(f"[vp]: the one PW Camp earns the Allies {earned['allied']} VP taken or the Japanese "
                        f"{earned['japanese']} VP bombed, once (25.10)")
    elif camp_on_map:
        problems.append("[vp]: the PW Camp that earned them is off the map (25.10); it is placed in [units]")
    return replace(state, vp_adjust=dict(given))


def _defended(state: State, raw, problems: list[str]) -> State:
    """`defended = [...]`: in a Combat Phase, the units an attack of this phase fell on, wherever they stand now (a
    retreat took them out of `attacked_hexes`): no defending unit is attacked twice in a phase, so neither is the
    hex it is in (15.0)."""
    from app.rules.formosa.sequence import COMBAT_STEPS

    named = bounded_list(raw if raw is not None else [], "defended", UNIT_ID, "unit ids", problems)
    if not named:
        return state
    if state.step not in COMBAT_STEPS:
        problems.append(f"defended: the units attacked in this Combat Phase (15.0); a position at {state.step!r} has "
                        "none")
        return state
    enemy = other(state.side)
    for uid in named:
        u = state.unit(uid)
        if u is None or u.side != enemy or not is_hex(u.where):
            problems.append(f"defended: {uid} is not a {enemy} unit placed in [units]")
    if not state.attacked_hexes:
        problems.append("defended: the hexes attacked this phase are in attacked_hexes (15.0)")
    return replace(state, defended=tuple(named))


def _b29_struck(state: State, missions: dict, raw, problems: list[str]) -> State:
    """`b29_struck = "XXYY"`: the hex the B-29 struck this GT, whatever the result (16.5: a D1 that left the hex
    empty, a DS, or none); it stays there until the Air Return Phase and stacks with no other Allied air unit (13.1).
    A hex the B-29 suppressed (`suppressed`) is that hex."""
    if raw is None:
        return state
    if not isinstance(raw, str) or not HEX_LABEL.fullmatch(raw) or not state.data.map.on_map(Hex.parse(raw)):
        problems.append("'b29_struck' is the hex of the map the B-29 struck this GT (16.5)")
    elif not _after_step(state.step, "b29") or state.step == "air-return":
        problems.append(f"b29_struck: the B-29 strikes in the Allied B-29 Phase and returns in the Air Return Phase "
                        f"(16.5); a position at {state.step!r} has it in no hex")
    elif not missions.get("allied", {}).get("b29"):
        problems.append("b29_struck: the B-29 that struck was assigned in Strike Planning: give [missions] allied "
                        "b29 = 1 (16.1, 16.5)")
    elif state.strike.suppressed and state.strike.suppressed != (raw,):
        problems.append(f"b29_struck: the one B-29 struck {raw}, so the hex it suppressed is {raw} (16.5)")
    else:
        return replace(state, strike=replace(state.strike, b29_hex=raw, b29_used=True))
    return state


def _airlifted(state: State, raw, problems: list[str]) -> State:
    """`airlifted = [...]`: in the Allied Movement Phase, the units the air supply marker flew from the Staging Area
    to a functional airbase (25.3, chosen with --optional): each has spent one MP, and the marker flies no other
    mission this player turn; one unit a marker."""
    named = bounded_list(raw if raw is not None else [], "airlifted", UNIT_ID, "unit ids", problems)
    if not named:
        return state
    if "25.3" not in state.data.optional or state.step != "allied-movement":
        problems.append("airlifted: air transport is made in the Allied Movement Phase with rule 25.3 chosen "
                        f"(--optional); a position at {state.step!r} has none")
        return state
    if len(named) > state.air.get("air-supply", 0):
        problems.append(f"airlifted: each air supply marker flies one unit a player turn (25.3); [air] air-supply "
                        f"is {state.air.get('air-supply', 0)}")
    bases = optional.functional_airbases(state)
    for uid in named:
        u = state.unit(uid)
        if u is None or u.side != "allied" or not is_hex(u.where) or (u.where not in bases and not u.moved):
            problems.append(f"airlifted: {uid} is not an Allied unit placed in [units] on a functional airbase, "
                            "or moved on from it (`moved`) (25.3)")
        elif state.spec(uid).type not in optional.AIRLIFT_TYPES:
            problems.append(f"airlifted: {uid} is {state.spec(uid).type}: air transport carries infantry, airborne, "
                            "ranger or engineer units (25.3)")
    return replace(state, airlifted=tuple(named), airlift_turn=state.turn)


def _counterattack(state: State, raw) -> State:
    """[counterattack]: the phasing side's attack on the `defenders` (every unit of their hexes) by `attackers`,
    checked as the attack order checks it (15.0-15.2), has rolled a CA: the defenders now choose the hex of
    attackers they counterattack (15.5, 15.6). Since rules version 17 (ruling F135) only where there is a choice: the
    attackers in two hexes or more, a defence that is not the PW Camp alone (25.10, F105)."""
    from app.rules.engine.decision import Decision, ProbeDice, ReachedRoll
    from app.rules.engine.events import DecisionRequired
    from app.rules.errors import IllegalOrder
    from app.rules.formosa import combat, invasion
    from app.rules.formosa.events import CombatResolved
    from app.rules.formosa.sequence import COMBAT_STEPS

    problems: list[str] = []
    if not isinstance(raw, dict) or set(raw) != {"attackers", "defenders"}:
        raise SetupError("position", ["[counterattack] has 'attackers' and 'defenders', each a list of unit ids"])
    attackers = bounded_list(raw["attackers"], "counterattack attackers", UNIT_ID, "unit ids", problems)
    defenders = bounded_list(raw["defenders"], "counterattack defenders", UNIT_ID, "unit ids", problems)
    side = state.side
    landing = state.step == "invasion"  # an assault's CA (10.2.2, ruling F80): the stack at sea is counterattacked
    if state.step not in COMBAT_STEPS and not landing:
        problems.append(f"[counterattack] is declared in a Combat Phase ({', '.join(COMBAT_STEPS)}) or by an assault "
                        f"of the Invasion Phase (10.2.2, rulings F80, F124), not {state.step!r} (15.5, 15.6)")
    placed = [state.unit(u) for u in defenders]
    if not attackers or not defenders or any(u is None or u.side != other(side) or not is_hex(u.where)
                                              for u in placed):
        problems.append(f"[counterattack] defenders: {other(side)} units on the map, attacked by {side} attackers")
    if problems:
        raise SetupError("position", problems)
    hexes = sorted({u.where for u in placed})
    whole = sorted(u.id for h in hexes for u in state.at(h, other(side)))
    if sorted(defenders) != whole:
        problems.append(f"[counterattack] defenders: every unit in {', '.join(hexes)} defends (15.0): "
                        f"{', '.join(whole)}")
    if any(state.spec(u).type in combat.ENDS_CA for u in whole):
        problems.append("[counterattack]: a CA against a coastal defense or heavy weapons unit ends the combat "
                        "(15.5 CA item 1): there is no counterattack to declare")
    seas = sorted({state.units[u].where for u in attackers if state.unit(u) is not None})
    if landing and (len(hexes) != 1 or not all(state.unit(u) is not None and state.at_sea(state.units[u])
                                               for u in attackers)):
        problems.append("[counterattack] in the Invasion Phase: the attackers are stacks at sea ([at_sea]) that "
                        "assaulted one coastal hex, the defenders every unit in it (10.2.2, rulings F80, F124)")
        raise SetupError("position", problems)
    if landing and sorted(u.id for u in invasion.force(state, hexes[0], seas)) != sorted(attackers):
        problems.append(f"[counterattack] attackers: the stacks at sea in {', '.join(seas)} assault together, every "
                        f"unit of each: {', '.join(u.id for u in invasion.force(state, hexes[0], seas))} (10.2.2)")
    d = Decision(state, side, ProbeDice(), lambda s, e: e.apply(s))
    try:
        if landing:
            invasion.assault(d, hexes[0], 0, seas=seas)
        else:
            combat.declare(d, hexes, attackers)
    except ReachedRoll:
        pass
    except IllegalOrder as exc:
        problems.append(f"[counterattack]: the attack that rolled the CA is not one the rules allow: {exc}")
    if state.since(17):  # ruling F135: the CA waits for the counterattacking player's choice, so only where he has one
        if all(combat.never_attacks(state, state.units[u]) for u in whole):
            problems.append("[counterattack]: the PW Camp never attacks, not even in a counterattack, so the CA ends "
                            "the combat (Formosa 25.10, ruling F105, F135): there is no counterattack to declare")
        elif len(seas) == 1:
            problems.append(f"[counterattack]: the attackers stand in one hex, {seas[0]}: the counterattack falls on "
                            "it at once, with no choice to wait for (Formosa 15.6, ruling F135); give the position "
                            "after it with [combat] (its stage, `result = \"CA\"` and the `counter_result`, F130)")
    if problems:
        raise SetupError("position", problems)
    rolled = CombatResolved(side, hexes, list(attackers), whole, 0, 0, 0, [], "", 0, "CA",
                            assault=hexes[0] if landing else "")
    state = rolled.apply(state)
    return DecisionRequired("counterattack", other(side), {
        "hexes": sorted({state.units[u].where for u in attackers})}).apply(state)

def _revealed_in_combat(state: State) -> State:
    """11.2 item 1: a Combat Phase begins with the concealed units in an enemy ZOC revealed (a deception unit
    revealed is removed, 11.1); a position that starts there has done so."""
    from app.rules.formosa.sequence import COMBAT_STEPS

    if state.step not in COMBAT_STEPS:
        return state
    zoc = state.zoc_of("allied")
    found = [u for u in state.on_map("japanese") if u.concealed and u.where in zoc]
    return state.with_units(*(replace(u, concealed=False, **({"where": OUT} if state.spec(u.id).type == "deception"
                                                               else {})) for u in found))


def _advance(state: State, raw) -> State:
    """[advance] (ruling F127): `attackers = [...]`, `hexes = [...]`, `result = "DE"`: the phasing side's attack on
    `hexes` (attacked this phase, `attacked_hexes`) gave `result` and cleared them, and the attackers now choose who
    advances (15.8: one hex, two after a DE). In the Invasion Phase an assault's: the attackers are the stacks at sea
    that assaulted the one hex, which must advance as stacking allows, so the choice is owed only when not all fit
    (10.2.2, F24)."""
    from app.rules.engine.events import DecisionRequired
    from app.rules.formosa.sequence import COMBAT_STEPS
    from app.rules.formosa.state import Combat

    problems: list[str] = []
    if not isinstance(raw, dict) or set(raw) != {"attackers", "hexes", "result"}:
        raise SetupError("position", ["[advance] has 'attackers', 'hexes' and 'result' (15.8)"])
    attackers = bounded_list(raw["attackers"], "advance attackers", UNIT_ID, "unit ids", problems)
    hexes = bounded_list(raw["hexes"], "advance hexes", HEX_LABEL, "hexes", problems)
    codes = state.data.crt_raw["codes"]
    code = raw["result"]
    side, landing = state.side, state.step == "invasion"
    if state.step not in COMBAT_STEPS and not landing:
        problems.append(f"[advance]: an advance after combat follows an attack of a Combat Phase or an assault of the "
                        f"Invasion Phase (15.8, 10.2.2), not {state.step!r}")
    if not isinstance(code, str) or not codes.get(code, {}).get("advance"):
        problems.append(f"[advance] result: one that lets the attacker advance "
                        f"({', '.join(c for c, v in codes.items() if v.get('advance'))}) (15.5, 15.8)")
    units = [state.unit(u) for u in attackers]
    if not attackers or not hexes or any(u is None or u.side != side or not is_hex(u.where) for u in units):
        problems.append(f"[advance] attackers: {side} units placed in [units] (or [at_sea]) that attacked `hexes`")
    if problems:
        raise SetupError("position", problems)
    for h in hexes:
        if h not in state.attacked_hexes:
            problems.append(f"[advance] {h}: the hexes cleared were attacked this phase: name them in attacked_hexes "
                            "(15.0)")
        elif state.at(h, other(side)):
            problems.append(f"[advance] {h} still holds {other(side)} units: only a cleared hex is advanced into "
                            "(15.8)")
        elif any(Hex.parse(h) not in state.data.map.neighbours(Hex.parse(u.where)) for u in units):
            problems.append(f"[advance] {h}: every attacker is next to every defending hex (15.0)")
    if landing:
        if len(hexes) != 1 or not all(state.at_sea(u) for u in units):
            problems.append("[advance] in the Invasion Phase: the attackers are stacks at sea ([at_sea]) that "
                            "assaulted one coastal hex (10.2.2)")
        elif not state.would_overstack(hexes[0], side, attackers):
            problems.append(f"[advance]: all of {', '.join(attackers)} fit in {hexes[0]}, so they have advanced into "
                            "it (10.2.2: they must); place them there")
    if problems:
        raise SetupError("position", problems)
    state = state.with_units(*(replace(u, attacked=True) for u in units))
    combat = Combat(side, tuple(hexes), tuple(attackers), (), code, assault=hexes[0] if landing else "",
                    advance=codes[code]["advance"], cleared=tuple(hexes), offered=True)
    return DecisionRequired("advance", side, {"hexes": list(hexes)}).apply(replace(state, combat=combat))
