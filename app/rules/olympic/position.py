"""Operation Olympic custom set-ups (app/rules/custom_setup.py; docs/custom-positions.md, "Operation Olympic"):
a sandbox game that starts at the beginning of any step of any Game-Turn, from a position file. Beyond the
common keys (turn, phase = the step, units, removed, control) a position gives what the Olympic state carries
from one step to the next: the Casualty Points (ruling R20), the beachheads and the Game-Turn of the second
invasion (R17), destroyed militia (R11), which Japanese units the doctrine has released and which reinforcements
track 3 made due (14.3), eliminated American units coming back (8.8 note 6), the standing retreat order (R24),
the order of each stack (R1, 8.52), what was done in the step so far (R32) and, at phase "losses", an exchange
waiting for the American player's choice of the attackers lost (8.9, R45).

What the rules make follow from a position is not asked for: a Japanese unit next to an American unit on land
is released (14.3 note) unless the position names it in `held` (from rules version 8, ruling R43: only an American
unit entering a hex next to it releases it, so one the Americans never moved next to stays as it was), every
Japanese unit is from Game-Turn 4's doctrine on (14.3), reinforcements on the
map entered released (R12), and a militia hex the Americans hold or control has lost its militia (R11, R19).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import replace

from app.rules.custom_setup import (
    HEX_LABEL,
    MAX_ENTRIES,
    UNIT_ID,
    Position,
    SetupError,
    bounded_list,
    control_after,
    parse_options,
    place_units,
)
from app.rules.kernel.hexgrid import Hex
from app.rules.olympic.events import GT1_STEPS, STEPS
from app.rules.olympic.state import SIDES, State, created_under
from app.rules.olympic.state import start as printed

EXTRA_KEYS = ("casualty_points", "beachheads", "invasion_turn", "militia_destroyed", "released", "held", "due",
              "returns", "retreat_toward", "stacks", "values", "moved", "attacked", "attacked_hexes", "defended",
              "exchange", "militia")
LOSSES = "losses"  # the American player's choice in an exchange (8.9): a position there says it in [exchange]


def start(data, scenario: str, options, version: str | None = None) -> State:
    """The printed set-up, or the position of `options["position"]` read under rules `version` (None: this one;
    the engine's `start`)."""
    _, position = parse_options(dict(options), SIDES, EXTRA_KEYS)
    state = replace(printed(data, scenario, options), rules_version=created_under(version))
    return state if position is None else _apply(state, position)


def _on_map(data, label: str) -> bool:
    try:
        return data.map.on_map(Hex.parse(label))
    except ValueError:
        return False


def _land(data, label: str) -> bool:
    return label in data.land_links


def _apply(state: State, p: Position) -> State:
    data = state.data
    x = p.extra
    problems: list[str] = []
    last = data.scenario["game"]["game_turns"]
    if not 1 <= p.turn <= last:
        problems.append(f"'turn' is a Game-Turn from 1 to {last} (ruling R13)")
    steps = GT1_STEPS if p.turn == 1 else STEPS
    exchange = x.get("exchange")
    step = p.phase
    if p.phase == LOSSES:
        if not isinstance(exchange, dict):
            problems.append("phase 'losses' is an exchange's choice of the attackers lost (8.9): [exchange] says "
                            "which (docs/custom-positions.md)")
            exchange = None
        step = "assault" if exchange and exchange.get("attack") == "assault" else "combat"
    elif exchange is not None:
        problems.append(f"[exchange] is for a position at phase 'losses' (8.9), not {p.phase!r}")
    if step not in steps:
        problems.append(f"'phase' on Game-Turn {p.turn} is the step play starts at: one of {', '.join(steps)}, or "
                        f"{LOSSES} (Olympic sequence of play" + (
                            "; A.1: there is no American Forces Movement Phase on Game-Turn 1, ruling R52)"
                            if p.turn == 1 and step == "movement" else ")"))
    if p.steps:
        problems.append("[steps]: an Olympic counter has no steps; a unit is in play ([units]) or not (removed)")
    units, found = place_units(state.units, replace(p, steps={}), lambda h: _on_map(data, h))
    problems += found
    units = _stacked(data, units, p, x.get("stacks", {}), problems)
    problems += _where(data, p, units)
    units = _returning(units, x.get("returns", {}), p, last, problems)
    units = _released(units, bounded_list(x.get("released", []), "released", UNIT_ID, "unit ids", problems),
                      problems)
    held = _held(state, units, bounded_list(x.get("held", []), "held", UNIT_ID, "unit ids", problems), problems)
    due = _due(data, units, bounded_list(x.get("due", []), "due", UNIT_ID, "unit ids", problems), p.phase, problems)
    control, found = control_after(frozenset(), p, "american", units)
    problems += found
    problems += [f"[control] {h} is not a land hex of the map" for hexes in (p.control or {}).values()
                 for h in hexes if not _land(data, h)]
    control = frozenset(h for h in control if _land(data, h))
    militia = _militia(data, bounded_list(x.get("militia_destroyed", []), "militia_destroyed", HEX_LABEL, "hexes",
                                          problems), control, problems)
    beachheads = _beachheads(data, units, bounded_list(x.get("beachheads", []), "beachheads", HEX_LABEL, "hexes",
                                                       problems), problems)
    points = x.get("casualty_points", data.scenario["casualty_points"]["start"])
    limit = data.scenario["victory"]["sudden_death"]
    if not _number(points) or not 0 <= points < limit:
        problems.append(f"'casualty_points' is a number from 0 to {limit - 1}: at {limit} the game is over "
                        "(ruling R20)")
    invasion = x.get("invasion_turn")
    if invasion is not None and (not _number(invasion) or not 2 <= invasion <= p.turn):
        problems.append("'invasion_turn' is the Game-Turn of the second invasion, from 2 to 'turn' (ruling R17)")
    retreat = x.get("retreat_toward")
    if retreat is not None and (not isinstance(retreat, str) or not _land(data, retreat)):
        problems.append(f"'retreat_toward' is a land hex of the map (ruling R24), not {retreat!r}")
    units, attacked_hexes = _done(data, units, replace(p, phase=step), x, problems)
    context = None
    if p.phase == LOSSES and exchange is not None:
        units, context = _exchange(data, units, p, exchange, militia, attacked_hexes, problems)
        if context:  # the exchange destroyed the hex's militia (8.8 note 3), and the hex was attacked this phase
            militia |= {context["hex"]} & data.militia_hexes
            attacked_hexes = tuple(dict.fromkeys((*attacked_hexes, context["hex"])))
    if problems:
        raise SetupError("position", problems)
    placed = replace(state, turn=p.turn, step=step, units=units, casualty_points=points,
                     attacked_hexes=attacked_hexes,
                     beachheads=tuple(beachheads), militia_destroyed=tuple(sorted(militia)),
                     american_control=tuple(sorted(control)), due=tuple(due), invasion_turn=invasion,
                     retreat_toward=retreat)
    placed = replace(placed, units=_released_by_rule(placed, held))
    if context:  # supply is judged from the position, as it is at the instant of the combat (note 6, ruling R16)
        supplied = {uid: placed.supplied(placed.unit(uid)) for uid in context["attackers"]}
        placed = placed.require(LOSSES, "american", {**context, "supplied": supplied})
    return placed


def _number(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _where(data, p: Position, units: dict) -> list[str]:
    """Each placed unit's hex as the rules allow it (rulings R14, R17), and its arrival (units.toml)."""
    out = []
    for uid, h in sorted(p.units.items()):
        if uid not in units or not _on_map(data, h):
            continue
        unit = data.unit(uid)
        if unit.side == "japanese" and not _land(data, h):
            out.append(f"{uid}: {h} is a sea hex; Japanese units are on land")
        elif unit.side == "american" and not _land(data, h) and data.zone_of(Hex.parse(h)) is None:
            out.append(f"{uid}: {h} is not an invasion zone hex; American units at sea are in one (ruling R17)")
        if unit.side == "american" and unit.arrival > p.turn:
            out.append(f"{uid} arrives on Game-Turn {unit.arrival} (units.toml), not before")
    cap = data.scenario["stacking"]["max_units"]
    stacks = Counter((u.hex, u.side) for u in units.values() if u.status == "map")
    out += [f"{h}: {n} {side} units, over the stacking limit of {cap} (ruling R14)"
            for (h, side), n in sorted(stacks.items()) if n > cap]
    return out


def _stacked(data, units: dict, p: Position, raw, problems: list[str]) -> dict:
    """The order of each stack the position places (ruling R1: the last listed is on top): `units.toml` order,
    unless `[stacks]` lists a hex's units from the bottom up."""
    index = {u.id: i for i, u in enumerate(data.units)}
    out = {uid: replace(u, order=index[uid]) if uid in p.units else u for uid, u in units.items()}
    if not isinstance(raw, dict) or len(raw) > MAX_ENTRIES or not all(
            isinstance(h, str) and HEX_LABEL.fullmatch(h) and isinstance(v, list) and len(v) <= MAX_ENTRIES
            and all(isinstance(uid, str) and UNIT_ID.fullmatch(uid) for uid in v) for h, v in raw.items()):
        problems.append("[stacks] maps a hex to the units placed there, listed from the bottom up (the last on "
                        "top, ruling R1)")
        return out
    for h, listed in sorted(raw.items()):
        there = sorted(uid for uid, where in p.units.items() if where == h)
        if sorted(listed) != there:
            problems.append(f"[stacks] {h} lists {', '.join(listed) or 'nothing'}; [units] places "
                            f"{', '.join(there) or 'nothing'} there: a stack lists each of its units once")
            continue
        for uid, order in zip(listed, sorted(out[uid].order for uid in listed), strict=True):
            out[uid] = replace(out[uid], order=order)
    return out


# what a position in the middle of a step says was done in it (ruling R32): flag -> {step: the side doing it}
DONE = {"moved": {"movement": "american", "japanese-movement": "japanese"},
        "attacked": {"assault": "american", "combat": "american", "japanese-combat": "japanese"},
        "defended": {"japanese-combat": "american"}}


def _done(data, units: dict, p: Position, x: dict, problems: list[str]) -> tuple[dict, tuple[str, ...]]:
    """Ruling R32: a position in the middle of a step says what was done in it: the units that moved or
    attacked in it, the American units a Japanese unit attacked (8.52), and the hexes the Americans attacked this
    phase (8.8, 8.51, R10, R17)."""
    out = dict(units)
    for key, steps in DONE.items():
        named = bounded_list(x.get(key, []), key, UNIT_ID, "unit ids", problems)
        side = steps.get(p.phase)
        if named and side is None:
            problems.append(f"{key}: belongs to the step it happened in ({', '.join(steps)}); a position at "
                            f"{p.phase!r} has none (ruling R32)")
            continue
        for uid in named:
            u = out.get(uid)
            if u is None or u.side != side or u.status != "map":
                problems.append(f"{key}: {uid} is not {'an American' if side == 'american' else 'a Japanese'} unit "
                                "placed in [units] (ruling R32)")
            else:
                out[uid] = replace(u, **{key: True})
    hexes = bounded_list(x.get("attacked_hexes", []), "attacked_hexes", HEX_LABEL, "hexes", problems)
    if hexes and p.phase not in ("assault", "combat"):
        problems.append(f"attacked_hexes: the hexes attacked this American phase (8.8, R17); a position at "
                        f"{p.phase!r} has none")
    problems += [f"attacked_hexes: {h} is not a land hex of the map" for h in hexes if not _land(data, h)]
    if p.phase in ("assault", "combat") and any(u.attacked for u in out.values()) and not hexes:
        problems.append("attacked: the hex the units attacked is in attacked_hexes (8.8)")
    return out, tuple(hexes)


def _exchange(data, units: dict, p: Position, raw: dict, destroyed: set[str], attacked_hexes, problems: list[str]):
    """[exchange] (phase "losses"): an exchange (8.9 Ex) whose defenders are eliminated and whose attackers' losses
    the American player chooses now (ruling R25, none the payment does not need: R40). `hex` the defenders' hex,
    `attack` "american" (the American Forces Combat Phase) or "assault" (the Amphibious Assault Phase, R17),
    `attackers` the American units of the attack (placed in [units], next to the hex, at sea for an assault),
    `defenders` the Japanese units the exchange eliminated (not placed), `advance` the survivors that enter the hex
    (an American attack's, R38). What they pay is 8.9's: the defenders' printed strength, plus the hex's militia
    unmodified unless `militia_destroyed` says it was gone before the attack. Returns the units (attackers marked
    as having attacked, defenders removed) and the decision's context, or None with the problems named."""
    from app.rules.olympic.combat import adjacent_land

    problems_before = len(problems)
    known = {"hex", "attack", "attackers", "defenders", "advance"}
    problems += [f"[exchange] {k!r} is not one of {', '.join(sorted(known))}" for k in sorted(set(raw) - known)]
    hex_ = raw.get("hex")
    kind = raw.get("attack", "american")
    if kind not in ("american", "assault"):
        problems.append(f"[exchange] attack is 'american' or 'assault' (ruling R17), not {kind!r}")
    if not isinstance(hex_, str) or not _land(data, hex_):
        problems.append(f"[exchange] hex is the land hex of the defenders (8.9), not {hex_!r}")
        return units, None
    attackers = bounded_list(raw.get("attackers", []), "[exchange] attackers", UNIT_ID, "unit ids", problems)
    defenders = bounded_list(raw.get("defenders", []), "[exchange] defenders", UNIT_ID, "unit ids", problems)
    advance = bounded_list(raw.get("advance", []), "[exchange] advance", UNIT_ID, "unit ids", problems)
    out = dict(units)
    if any(u.status == "map" and u.hex == hex_ for u in units.values()):
        problems.append(f"[exchange] {hex_}: the exchange eliminated every defender (8.9), so [units] places no "
                        "unit there")
    for uid in attackers:
        u = units.get(uid)
        if u is None or u.side != "american" or u.status != "map":
            problems.append(f"[exchange] attackers: {uid} is not an American unit placed in [units]")
        elif (kind == "assault") != (u.hex not in data.land_links):
            problems.append(f"[exchange] attackers: {uid} in {u.hex} is " + (
                "ashore: only units at sea make amphibious assaults (ruling R17)" if kind == "assault"
                else "at sea: it assaults in the Amphibious Assault Phase (ruling R17)"))
        elif not adjacent_land(data, u.hex, hex_):
            problems.append(f"[exchange] attackers: {uid} in {u.hex} is not next to {hex_} (8.8)")
        else:
            out[uid] = replace(u, attacked=True)
    for uid in defenders:
        u = units.get(uid)
        if u is None or u.side != "japanese":
            problems.append(f"[exchange] defenders: {uid} is not a Japanese unit")
        elif uid in p.units:
            problems.append(f"[exchange] defenders: {uid} is placed in [units]; the exchange eliminated it (8.9)")
        else:
            out[uid] = replace(u, status="removed", hex=None)
    limit = data.crt_raw["exchange"]["advance_limit"]
    if [uid for uid in advance if uid not in attackers]:
        problems.append("[exchange] advance: only attacking units advance (8.9)")
    if advance and kind == "assault":
        problems.append("[exchange] advance: after an assault the survivors land, three at most (ruling R17)")
    if len(advance) > limit:
        problems.append(f"[exchange] advance: at most {limit} units advance (8.9)")
    if len(set(attackers)) != len(attackers) or len(set(defenders)) != len(defenders):
        problems.append("[exchange]: a unit is named twice")
    militia = data.militia(Hex.parse(hex_)) if hex_ not in destroyed else 0
    required = sum(units[uid].strength for uid in defenders if uid in units) + militia
    if len(problems) > problems_before:
        return units, None
    if not required:
        problems.append(f"[exchange] {hex_}: the exchange eliminated no defender and no militia (8.9): name the "
                        "defenders")
    elif len(attackers) < 2 or sum(out[uid].strength for uid in attackers) <= required:
        problems.append(f"[exchange]: the attackers' loss is not a choice here (ruling R25): a single attacker, or "
                        f"attackers worth no more than the {required} owed, are all eliminated at once")
    if len(problems) > problems_before:
        return units, None
    code = next(c for row in data.crt_raw["results"].values() for c in row if c.split()[0] == "Ex")
    return out, {"hex": hex_, "attack": kind, "required": required, "attackers": list(attackers),
                 "advance": list(advance), "left": int(code.split()[1].split("/")[0]), "code": code}


def _returning(units: dict, raw, p: Position, last: int, problems: list[str]) -> dict:
    """[returns]: eliminated supplied American units and the Game-Turn each comes back on (8.8 note 6)."""
    if not isinstance(raw, dict) or len(raw) > MAX_ENTRIES or not all(
            isinstance(k, str) and UNIT_ID.fullmatch(k) and _number(v) for k, v in raw.items()):
        problems.append(f"[returns] maps American unit ids to the Game-Turn each comes back on (at most "
                        f"{MAX_ENTRIES}; 8.8 note 6)")
        return units
    out = dict(units)
    for uid, turn in sorted(raw.items()):
        u = units.get(uid)
        if u is None:
            problems.append(f"no unit {uid!r}")
        elif u.side != "american":
            problems.append(f"[returns] {uid}: only American units come back (8.8 note 6)")
        elif uid in p.units or uid in p.removed:
            problems.append(f"{uid} is both returning and {'placed' if uid in p.units else 'removed'}")
        elif not 1 <= turn <= last:
            problems.append(f"[returns] {uid}: the Game-Turn it comes back on is from 1 to {last}, not {turn}")
        else:
            out[uid] = replace(u, status="eliminated", hex=None, returns_on=turn)
    return out


def _released(units: dict, named: list[str], problems: list[str]) -> dict:
    """`released`: Japanese units on the map the doctrine has released (14.3 tracks 1-2)."""
    out = dict(units)
    for uid in named:
        u = units.get(uid)
        if u is None or u.side != "japanese" or u.status != "map":
            problems.append(f"released: {uid} is not a Japanese unit placed in [units]")
        else:
            out[uid] = replace(u, released=True)
    return out


def _due(data, units: dict, named: list[str], phase: str, problems: list[str]) -> list[str]:
    """`due`: reinforcements track 3 named this Game-Turn, not yet entered (14.3, ruling R12)."""
    if named and phase != "japanese-movement":
        problems.append("'due' is for a position at the japanese-movement step: track 3 names the reinforcements "
                        "in the doctrine step (14.3)")
    for uid in named:
        u = units.get(uid)
        if u is None or u.status != "pool" or data.unit(uid).klass != "reinforcement":
            problems.append(f"due: {uid} is not a Japanese reinforcement still in the pool")
    if len(set(named)) != len(named):
        problems.append("due: a unit is named twice")
    return named


def _militia(data, named: list[str], control: frozenset, problems: list[str]) -> set[str]:
    problems += [f"militia_destroyed: {h} has no militia (ruling R11)" for h in named if h not in data.militia_hexes]
    return {h for h in named if h in data.militia_hexes} | (control & data.militia_hexes)


def _beachheads(data, units: dict, named: list[str], problems: list[str]) -> list[str]:
    """Land hexes next to an invasion zone hex where American units came ashore, none held by a Japanese unit
    (ruling R17)."""
    beaches = {str(h) for z in data.zones for h in data.beaches(z)}
    japanese = {u.hex for u in units.values() if u.status == "map" and u.side == "japanese"}
    for h in named:
        if h not in beaches:
            problems.append(f"beachheads: {h} is not a land hex next to an invasion zone hex (ruling R17)")
        elif h in japanese:
            problems.append(f"beachheads: Japanese units hold {h}, which ends a beachhead (ruling R17)")
    if len(set(named)) != len(named):
        problems.append("beachheads: a hex is named twice")
    return named


def _held(state: State, units: dict, named: list[str], problems: list[str]) -> set[str]:
    """`held`: Japanese units next to an American unit that no American unit entered a hex next to, so not
    released by contact (14.3 note read by ruling R43, rules version 8); the doctrine's releases still apply."""
    if named and not state.since(8):
        problems.append("held: a game created under Olympic rules version 7 or older releases every Japanese unit next "
                        "to an American unit (14.3 note; ruling R43 came with version 8)")
        return set()
    data = state.data
    american = [Hex.parse(u.hex) for u in units.values() if u.status == "map" and u.side == "american"]
    for uid in named:
        u = units.get(uid)
        if u is None or u.side != "japanese" or u.status != "map":
            problems.append(f"held: {uid} is not a Japanese unit placed in [units]")
        elif u.released:
            problems.append(f"held: {uid} is also named in 'released'")
        elif data.unit(uid).klass == "reinforcement":
            problems.append(f"held: {uid} is a reinforcement, which enters released (ruling R12)")
        elif not any(data.map.adjacent(Hex.parse(u.hex), a) for a in american):
            problems.append(f"held: {uid} is next to no American unit: a unit not named in 'released' is held "
                            "already (14.3 note)")
    if len(set(named)) != len(named):
        problems.append("held: a unit is named twice")
    return set(named)


def _released_by_rule(state: State, held: set[str] = frozenset()) -> dict:
    """The releases a position implies (module docstring): contact (but for the units `held`, ruling R43), Game-Turn
    4's doctrine, reinforcements."""
    data = state.data
    after_doctrine = state.step in ("japanese-movement", "japanese-combat")
    every = state.turn > data.release["automatic_turn"] or (
        state.turn == data.release["automatic_turn"] and after_doctrine)
    american = [Hex.parse(h) for h in state.hexes_of("american")]
    out = dict(state.units)
    for u in state.on_map("japanese"):
        near = u.id not in held and any(data.map.adjacent(Hex.parse(u.hex), a) for a in american)
        if every or near or data.unit(u.id).klass == "reinforcement":
            out[u.id] = replace(u, released=True)
    return out
