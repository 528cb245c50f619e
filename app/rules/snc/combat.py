"""SNC combat (10.x), fire support (11.x), overrun combat (9.6) and amphibious landing combat (8.4).

One function, `assess`, computes strengths, odds, every shift with its case and the result per die: the
`preview` command shows it and `resolve` rolls against it, so a preview never disagrees with the attack.
"""
from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from functools import partial

from app.rules.engine.decision import Decision
from app.rules.errors import IllegalOrder
from app.rules.kernel.advance import check_advance
from app.rules.kernel.concentric import concentric_shift
from app.rules.kernel.memo import ByIdentity, IdentityMemo
from app.rules.kernel.preview import Preview, preview_attack
from app.rules.kernel.results import (
    LossCheck,
    apply_step_losses,
    forced_allocation,
    in_order,
    last,
    loss_options,
    reduce_before_eliminate,
    strongest_first,
)
from app.rules.kernel.retreat import RetreatState, retreat_options
from app.rules.kernel.shifts import Shift
from app.rules.kernel.stacking import overstacked
from app.rules.kernel.strength import Contribution, Modifier, hexside_contributions, total_strength
from app.rules.snc import events as ev
from app.rules.snc.common import H, last_turn, mark_revealed, named_twice, neighbours, newly_taken, place_garrisons
from app.rules.snc.data_load import GameData
from app.rules.snc.state import State, Unit, other


def _hexside_feature(d: GameData, a, b) -> str | None:
    """The feature of the hexside from `a` to `b` that governs an attack across it (SNC 10.4.1): one no attack
    crosses (terrain.toml `no_combat`), else the one that divides the attacker's strength most."""
    factors = d.hexsides.factors
    feats = [f for f in d.map.hexside_features(a, b) if f in factors]
    return min(feats, key=lambda f: (factors[f] is not None, factors[f] or 0, f), default=None)


def naval_attack_allowed(state: State, target: str, origins) -> bool:
    """SNC 11.4 (ruling R11): an attack is next to the Yangtze or the navigable Huangpu (`ngf-coast`), or one hex
    inland from the Yangtze (`ngf-inland`), when the defending hex or a hex an attacker attacks from is. Under
    rules version 2 (ruling E13) only the defending hex counted, on or next to an `ngf-coast` hex."""
    d = state.data
    tags = d.map.tags_of
    if not state.since(3):
        return any("ngf-coast" in tags(h) for h in (H(target), *d.map.neighbours(H(target))))
    return any(tags(H(h)) & {"ngf-coast", "ngf-inland"} for h in (target, *origins))


def support_allowed(state: State, side: str, kind: str, target: str, battle_kind: str,
                    origins=()) -> str | None:
    """Why `side` may not add a `kind` marker to this battle from `origins` (the attackers' hexes; none for a
    landing) (None: it may). SNC 11.0-11.4, 8.4, 8.5."""
    if side == "chinese" and kind != "artillery":
        return "SNC 11.0: the Chinese have artillery support markers only"
    if kind == "amphibious" and battle_kind != "landing":
        return "SNC 11.0: amphibious invasion support is for amphibious assaults only"
    if kind == "naval" and not naval_attack_allowed(state, target, origins):
        return (f"SNC 11.4: naval gunfire supports attacks only next to the Yangtze or the navigable Huangpu, "
                f"or one hex inland from the Yangtze; neither {target} nor a hex attacking it is")
    if (not state.since(3) and state.phase == "reinf" and side == "japanese" and kind != "amphibious"
            and any(n for k, n in state.used.get("japanese", {}).items() if k != "amphibious")):
        return "SNC 8.5: markers were used in the First Operations Phase: none in the Reinforcement Phase too"
    if state.markers_available(side, kind) < 1:
        if state.phase == "reinf" and state.markers_received(side, kind):
            return (f"SNC 8.5: every {kind} marker was used in the First Operations Phase or already in this one; "
                    "a marker is used in the First Operations Phase or the Reinforcement Phase, not both")
        if not state.markers_received(side, kind):  # none has come yet: 13.0 lists when each arrives
            first = min((int(m["turn"]) for m in state.data.markers if m["side"] == side and m["kind"] == kind),
                        default=None)
            when = f"the first arrives on GT {first}" if first else f"the {side.title()} have none in this game"
            return f"SNC 13.0: no {kind} support marker has arrived yet ({when})"
        return f"SNC 11.1: no {kind} support marker is left for this phase"
    return None


def defensive_naval_allowed(state: State, target: str) -> bool:
    """SNC 11.4: Japanese naval gunfire in defence, only next to the Yangtze or navigable Huangpu."""
    return "ngf-coast" in state.data.map.tags_of(H(target)) and state.markers_available("japanese", "naval") > 0


def assess(state: State, battle: dict) -> Preview:
    d = state.data
    target = battle["hex"]
    units = state.units
    attackers = [units[u] for u in battle["attackers"]]
    defenders = [units[u] for u in battle["defenders"] if units[u].on_map and units[u].hex == target]
    if battle["kind"] == "landing":
        half = Modifier(Fraction(1, int(state.data.params["reinforcements"]["landing_divisor"])), "SNC 8.4",
                        "amphibious landing")
        contribs = [Contribution(u.id, u.cf, (half,)) for u in attackers]
        origins = []
    else:
        contribs = list(hexside_contributions([(u.id, u.cf, H(u.hex)) for u in attackers], H(target),
                                              partial(_hexside_feature, d), d.hexsides))
        origins = sorted({H(u.hex) for u in attackers})
    attack = total_strength(contribs, d.strength)
    defence = sum(u.cf for u in defenders)
    crt = d.crt
    if attack.total == 0 and not state.since(3):  # rules version 2 started a 0-factor attack on 1:3 (ruling E13)
        crt = replace(crt, odds=replace(crt.odds, beyond_ends="clamp"))
    defender_side = defenders[0].side if defenders else other(battle["side"])
    shifts = [Shift(-n, "SNC 10.4.1", why, "terrain") for n, why in d.terrain_shift(target, defender_side)]
    if origins:
        conc = concentric_shift(d.concentric, d.map.grid, H(target), origins, battle["side"],
                                d.map.features_of(H(target)))
        if conc is not None:
            shifts.append(conc)
    if battle["kind"] == "overrun":
        shifts.append(Shift(-1, "SNC 9.6", "overrun"))
    for kind in battle.get("support", []):
        if kind == "air" and battle.get("air_aborted"):
            continue
        case = {"amphibious": "SNC 8.4", "naval": "SNC 11.4"}.get(kind, "SNC 11.1")
        shifts.append(Shift(1, case, f"{kind} support"))
    for kind in battle.get("defence_support", []):
        shifts.append(Shift(-1, "SNC 11.4", f"defensive {kind} gunfire"))
    return preview_attack(crt, attack, defence, shifts, d.caps)


def check_attack(state: State, side: str, target: str, unit_ids: list[str], kind: str) -> None:
    """SNC 10.0, 10.2, 10.4.1, 9.6: who may attack (or overrun) which hex."""
    if not [u for u in state.at(target) if u.side != side]:
        raise IllegalOrder("SNC 10.0", f"{target} holds no enemy unit")
    if not unit_ids:
        raise IllegalOrder("SNC 10.0", "name at least one attacking unit")
    for uid in unit_ids:
        u = state.units[uid]
        if u.side != side or not u.on_map:
            raise IllegalOrder("SNC 10.0", f"{uid} is not a {side} unit on the map")
        if u.static:
            raise IllegalOrder("SNC 10.2", f"{uid} is a static unit and never attacks")
        if kind == "attack" and u.attacked:
            raise IllegalOrder("SNC 10.0", f"{uid} has already attacked this phase")
        if target not in neighbours(state.data, u.hex):
            raise IllegalOrder("SNC 10.0", f"{uid} in {u.hex} is not adjacent to {target}")
        if _hexside_feature(state.data, H(u.hex), H(target)) in state.data.flagged("hexsides", "no_combat"):
            raise IllegalOrder("SNC 10.4.1", f"{uid} in {u.hex} cannot attack across the water to {target}")
    if kind == "attack" and target in state.attacked_hexes:
        raise IllegalOrder("SNC 10.0", f"{target} has already been attacked this phase")
    if (kind == "overrun" and state.since(3) and target in state.overruns
            and not set(unit_ids) <= set(state.overruns[target])):
        raise IllegalOrder("SNC 10.0", f"{target} has already been overrun this phase: only the units that overran "
                                       f"it may overrun it again (9.6)")


def check_support(state: State, side: str, target: str, attackers: list[str], support: list[str],
                  kind: str) -> None:
    """SNC 11.0-11.4, 8.4, 8.5: the markers an attack, overrun or landing names (one of each kind at most, each
    allowed here). The order and its preview both ask here, so they cannot disagree."""
    if len(set(support)) != len(support):
        raise IllegalOrder("SNC 11.1", "one marker of each kind at most per attack")
    origins = set() if kind == "landing" else {state.units[u].hex for u in attackers}  # a landing comes by sea
    for k in support:
        why = support_allowed(state, side, k, target, kind, origins)
        if why:
            raise IllegalOrder(why.split(":")[0], why.split(": ", 1)[1])


def open_battle(em: Decision, side: str, target: str, attackers: list[str], support: list[str], kind: str,
                extra: dict | None = None) -> None:
    """Declare the battle with the attacker's markers, then let the defender answer or resolve at once."""
    state = em.state
    check_support(state, side, target, attackers, support, kind)
    defenders = sorted(u.id for u in state.at(target) if u.side != side)
    battle = {"hex": target, "side": side, "kind": kind, "attackers": list(attackers), "defenders": defenders,
              "origin": {u: state.units[u].hex for u in attackers}, **(extra or {})}
    em.emit(ev.BattleOpened(battle))
    for k in support:
        em.emit(ev.SupportAdded(side, k))
    if side == "japanese" and "air" in support and em.state.chinese_air:
        em.emit(ev.DecisionRequired("intercept", "chinese", {"hex": target}))
        return
    if side == "chinese" and defensive_naval_allowed(em.state, target):
        em.emit(ev.DecisionRequired("defend", "japanese", {"hex": target}))
        return
    resolve(em)


def intercept(em: Decision, against: str) -> None:
    """SNC 11.3: the Chinese roll; 6 aborts (the air marker, or the interdiction), 1 loses the Chinese air."""
    roll = em.roll(f"SNC 11.3 Chinese air against Japanese {against}")
    em.emit(ev.AirInterception(roll, against, roll == 6, roll == 1))


def resolve(em: Decision) -> None:
    b = em.state.battle
    p = assess(em.state, b)
    roll = em.roll(f"SNC 10.5 combat at {b['hex']} ({p.column_label})")
    r = p.result(roll)
    em.emit(ev.CombatResolved(b["hex"], b["kind"], p.attack.total if hasattr(p.attack, "total") else p.attack,
                                    int(p.defence), p.odds.label, [str(s) for s in p.shifts.shifts],
                                    p.column_label, roll, r.code, r.attacker.losses, r.defender.losses))
    continue_battle(em)


# -- losses (10.5.2) -----------------------------------------------------------------------------------------
def loss_order(units: list[Unit]) -> LossCheck:
    """SNC 10.5.2 in the precedence of ruling E2: 3) Japanese garrisons last; then 1) two-step units are
    reduced before one-step units are eliminated; then 2) the strongest (current combat factor) first."""
    by_id = {u.id: u for u in units}
    return in_order(last(lambda uid: by_id[uid].side == "japanese" and by_id[uid].static),
                    reduce_before_eliminate(),
                    strongest_first(lambda uid, steps: by_id[uid].cf_at(steps)))


def loss_candidates(units: list[Unit], steps: dict[str, int]) -> list[str]:
    """SNC 10.5.2: the units that may lose the next step, with `steps` left each."""
    return list(loss_options(steps, loss_order(units)))


def take_losses(em: Decision, side: str, allocation: list[str], reason: str = "combat") -> None:
    em.emit(mark_revealed(em.state, ev.StepsLost(side, list(allocation), reason)))
    for uid in dict.fromkeys(allocation):
        u = em.state.units[uid]
        if u.status == "dead" and u.side == "chinese" and u.elite:
            elite_eliminated(em, uid)


def elite_eliminated(em: Decision, uid: str) -> None:
    """SNC 8.1: roll; the elite returns reduced that many GTs later, or is gone if that is after GT 12."""
    roll = em.roll(f"SNC 8.1 return of {uid}")
    turn = em.state.turn + roll
    em.emit(ev.EliteScheduled(uid, roll, turn if turn <= last_turn(em.state.data) else 0))


def _survivors(state: State, ids) -> list[Unit]:
    return [state.units[u] for u in ids if state.units[u].status in ("map", "landing") and state.units[u].steps > 0]


def continue_battle(em: Decision) -> None:
    """Carry the current battle on until it needs a player's choice or is over."""
    while em.state.battle is not None and not em.state.pending:
        b = em.state.battle
        defenders = [u for u in _survivors(em.state, b["defenders"]) if u.hex == b["hex"]]
        attackers = _survivors(em.state, b["attackers"])
        def_left = b["def_due"] - b.get("def_taken", 0)
        if def_left > 0 and defenders and not b.get("retreated"):
            if not _allocate(em, defenders, def_left):
                return
            continue
        if b["kind"] == "landing" and defenders and not b.get("retreated"):
            _landing_retreat(em, defenders)  # SNC 8.4 2)
            continue
        extra = int(em.state.data.params["reinforcements"]["landing_extra_step"]) if (
            b["kind"] == "landing" and b.get("retreated")) else 0
        att_left = b["att_due"] + extra - b.get("att_taken", 0)
        if att_left > 0 and attackers:
            if not _allocate(em, attackers, att_left):
                return
            continue
        if not b.get("advanced"):
            _after_combat(em, defenders, attackers)
            if em.state.pending:
                return
            continue
        close_battle(em)


def _allocate(em: Decision, units: list[Unit], count: int) -> bool:
    side = units[0].side
    forced = forced_allocation({u.id: u.steps for u in units}, count, loss_order(units))
    if forced is not None:
        take_losses(em, side, forced)
        return True
    em.emit(ev.DecisionRequired("losses", side, {"units": sorted(u.id for u in units),
                                                 "count": min(count, sum(u.steps for u in units))}))
    return False


def _retreat_hexes(state: State, start: str) -> list[str]:
    """Ruling E3: the hexes next to `start` the Chinese may retreat into, any they could step into (which
    leaves out hexes held by Japanese units); the kernel's retreat step with no priority, the Chinese choose."""
    from app.rules.snc.movement import can_step

    _, options = retreat_options(state.data.map, RetreatState(H(start)),
                                 lambda a, b, _: can_step(state, "chinese", str(a), str(b)))
    return [str(h) for h in options]


def _retreat_chinese(em: Decision, chinese: list[Unit], start: str, advance: dict | None = None) -> bool:
    """SNC 8.4 2) and 8.4.1 (rulings E3, E10): garrison steps are eliminated; the Chinese player retreats the
    others one hex (True: his choice is awaited); with nowhere to go they are eliminated."""
    garrisons = [u for u in chinese if u.static]
    if garrisons:
        take_losses(em, "chinese", [u.id for u in garrisons for _ in range(u.steps)], reason="retreat")
    mobile = [u for u in chinese if not u.static]
    options = _retreat_hexes(em.state, start)
    if mobile and options:
        data = {"units": [u.id for u in mobile], "from": start, "options": options}
        em.emit(ev.DecisionRequired("retreat", "chinese", data if advance is None else {**data, "advance": advance}))
        return True
    if mobile:
        take_losses(em, "chinese", [u.id for u in mobile for _ in range(u.steps)], reason="retreat")
    return False


def _landing_retreat(em: Decision, defenders: list[Unit]) -> None:
    """SNC 8.4 2): surviving Chinese retreat one hex from the landing hex, the Chinese player choosing where."""
    target = em.state.battle["hex"]
    if not _retreat_chinese(em, defenders, target):
        em.emit(ev.UnitsRetreated([], target))


def retreat(em: Decision, side: str, to: str, units: list[str] | None = None) -> None:
    """SNC 8.4 2), 8.4.1: the Chinese player retreats the survivors one hex, all of them, or from rules version 11
    (ruling E23) those named, each group into a hex of his choice, the decision owed until every survivor has gone."""
    data = em.state.pending[0]["data"]
    if units and not em.state.since(11):  # before ruling E23 the survivors retreated together, as played
        raise IllegalOrder("SNC 8.4", "the Chinese survivors of a landing retreat together: `retreat to HEX`")
    twice = named_twice(units or [])
    if twice:
        raise IllegalOrder("SNC 8.4", f"{', '.join(twice)} named twice: a unit retreats once; name each unit once")
    for uid in units or []:
        if uid not in data["units"]:
            raise IllegalOrder("SNC 8.4", f"{uid} is not a Chinese survivor still to retreat from {data['from']}: "
                                          f"{', '.join(data['units'])}")
    if to not in data["options"]:
        raise IllegalOrder("SNC 8.4", f"the retreat is one hex from {data['from']} into a hex free of Japanese "
                                      f"units: {', '.join(data['options'])}")
    going = list(units) if units else list(data["units"])
    rest = [u for u in data["units"] if u not in going]
    em.emit(ev.DecisionMade("retreat", side))
    em.emit(mark_revealed(em.state, ev.UnitsRetreated(going, to)))
    if rest:  # ruling E23: the others still retreat, each group its own way
        em.emit(ev.DecisionRequired("retreat", side, {**data, "units": rest}))
        return
    if data.get("advance"):
        _army_enter(em, data["advance"]["units"], data["advance"]["to"])  # SNC 8.4.1, second clause
    continue_battle(em)


def land_neighbours(d: GameData, hex_label: str) -> list[str]:
    """Hexes next to `hex_label` a ground unit could stand in: not a water hex, nor across a water hexside
    (terrain.toml `water`: sea, Yangtze, lake; 9.3, 9.4; rulings R12, E10)."""
    here = H(hex_label)
    water, water_sides = d.flagged("terrain", "water"), d.flagged("hexsides", "water")
    return [str(n) for n in d.map.neighbours(here) if d.map.terrain_of(n) not in water
            and not d.map.hexside_features(here, n) & water_sides]


def coastal(d: GameData, hex_label: str) -> bool:
    """Ruling E10: a coastal hex is a land hex next to open water or across an open-water hexside (terrain.toml
    `coast`: sea and Yangtze, not lakes), for the 8.4.1 advance into an enemy-occupied coastal hex."""
    here = H(hex_label)
    coast, coast_sides = d.flagged("terrain", "coast"), d.flagged("hexsides", "coast")
    return d.map.terrain_of(here) not in d.flagged("terrain", "water") and any(
        d.map.terrain_of(n) in coast or d.map.hexside_features(here, n) & coast_sides
        for n in d.map.neighbours(here))


def _army_push(em: Decision, units: list[str], start: str, nxt: str, made: list) -> None:
    """SNC 8.4.1, second clause: when every hex next to the landing hex is held by the Chinese, the 10th Army
    may advance into one of them that is coastal; the Chinese player retreats its units one hex first (garrison
    steps are eliminated and, with nowhere to go, so are the others: as 8.4 2) and ruling E3)."""
    free = [n for n in land_neighbours(em.state.data, start) if not any(u.side == "chinese" for u in em.state.at(n))]
    if free:
        raise IllegalOrder("SNC 8.4.1", f"{nxt} is occupied by Chinese units; the 10th Army may advance into an "
                                        f"enemy-held hex only when every hex next to {start} is ({', '.join(free)} "
                                        "is not)")
    if not coastal(em.state.data, nxt):
        raise IllegalOrder("SNC 8.4.1", f"{nxt} is not a coastal hex: with every hex next to {start} held by the "
                                        "Chinese, the 10th Army may advance only into a coastal one")
    em.emit(*made)
    chinese = [u for u in em.state.at(nxt) if u.side == "chinese"]
    if not _retreat_chinese(em, chinese, nxt, advance={"units": list(units), "to": nxt}):
        _army_enter(em, units, nxt)
        continue_battle(em)


def _army_enter(em: Decision, units: list[str], to: str) -> None:
    taken = newly_taken(em.state, "japanese", [to])
    em.emit(ev.UnitsAdvanced(list(units), [to]))
    place_garrisons(em, taken)


def _army_hexes(state: State) -> int:
    """SNC 8.4.1: the hexes the 10th Army advances after its landing, the landing hex the first
    (scenario.toml `ten_army_advance_hexes`)."""
    return int(state.data.params["reinforcements"]["army_advance_hexes"])


def army_second_hex(em: Decision, units: list[str], start: str, nxt: str, decided: bool = True) -> None:
    """SNC 8.4.1: the 10th Army's `units`, in their landing hex `start`, advance into `nxt` next to it: a hex no
    Chinese unit holds, or, when every hex next to `start` is Chinese-held, a coastal one whose units retreat
    first (`_army_push`). `decided`: the answer to the advance decision after a landing combat; else the
    Reinforcement Phase's own `advance` order (rulings R34, R35)."""
    from app.rules.snc.movement import can_step

    state = em.state
    # Chinese-held hexes pass here: the second clause of 8.4.1 (`_army_push`) says when they may be entered.
    check_advance(state.data.map, None, [H(start), H(nxt)], {H(start)}, _army_hexes(state),
                  lambda h, prev: can_step(state, "japanese", str(prev), str(h), ignore_enemy=True), "SNC 8.4.1")
    made = [ev.DecisionMade("advance", "japanese")] if decided else []
    if any(u.side == "chinese" for u in state.at(nxt)):
        _advance_within_limits(state, "japanese", nxt, units)
        _army_push(em, units, start, nxt, made)
        return
    taken = newly_taken(state, "japanese", [nxt])
    em.emit(*made, ev.UnitsAdvanced(list(units), [nxt]))
    place_garrisons(em, taken)
    _advance_within_limits(em.state, "japanese", nxt)  # with any 9.1 garrison it brings
    continue_battle(em)


def _after_combat(em: Decision, defenders: list[Unit], attackers: list[Unit]) -> None:
    b = em.state.battle
    target = b["hex"]
    empty = not em.state.at(target)
    if b["kind"] == "landing":
        # SNC 8.4: surviving Japanese forces advance into the landing hex.
        if attackers:
            ids = [u.id for u in attackers]
            taken = newly_taken(em.state, "japanese", [target])
            em.emit(ev.UnitsAdvanced(ids, [target]))
            place_garrisons(em, taken)
            if attackers[0].army and b.get("army_advance"):
                em.emit(ev.DecisionRequired("advance", "japanese", {"units": ids, "from": target,
                                                                     "hexes": _army_hexes(em.state) - 1,
                                                                     "army": True}))
                return
        else:
            em.emit(ev.UnitsAdvanced([], [target]))
        return
    if b["kind"] == "overrun":
        from app.rules.snc.movement import overrun_success

        if empty and attackers:
            overrun_success(em, [u.id for u in attackers], target)
        em.emit(ev.UnitsAdvanced([], [target]))
        return
    if empty and attackers:
        em.emit(ev.DecisionRequired("advance", b["side"], {"units": sorted(u.id for u in attackers),
                                                           "from": None, "hexes": 1}))
        return
    em.emit(ev.UnitsAdvanced([], [target]))


def close_battle(em: Decision) -> None:
    """SNC 6.0 2): after each combat in an Operations Phase chosen for combat, both players bring their hexes
    within the limits; not after a landing, in the Reinforcement Phase (ruling E15; rules version 3 and before
    checked there too, ruling E13)."""
    target = em.state.battle["hex"]
    em.emit(ev.BattleClosed(target))
    if em.state.mode() == "fight" or (em.state.phase == "reinf" and not em.state.since(4)):
        for side in ("japanese", "chinese"):
            require_stacking(em, side)


# SNC 6.2's answers by hex and by what the stacking limits read of each unit standing there (`_stacked_as`), per
# game's stacking rules, up to VIOLATIONS_KEPT of them (then forgotten and found again): the search asks the same
# stacks of thousands of positions
_VIOLATIONS = IdentityMemo(4)
VIOLATIONS_KEPT = 8192
_MISSING = object()


def _stacks_as(u: Unit) -> tuple:
    """All `overstacked` reads of a unit's piece (Unit.piece): its side (and nationality), stacking class and
    formation; not its id nor its movement allowance."""
    return u.side, u.stack_kind, u.formation or ("SNLF" if u.type == "snlf" else "")


_stacked_as = ByIdentity(_stacks_as)  # once per unit: a unit never changes (events make new ones)


def _known(state: State) -> dict:
    known = _VIOLATIONS.of(state.data.stacking)
    if len(known) > VIOLATIONS_KEPT:
        known.clear()
    return known


def stacking_violation(state: State, side: str, h: str, joining=()) -> str | None:
    """SNC 6.2: why `side`'s units in `h`, with the units `joining` them, exceed the stacking limits (None: they
    do not)."""
    units = [u for u in state.at(h) if u.side == side and u.id not in joining]
    units += [state.units[u] for u in joining]
    return _violation_kept(state, _known(state), h, units)


def _violation_kept(state: State, known: dict, h: str, units: list[Unit]) -> str | None:
    key = (h, tuple(_stacked_as(u) for u in units))
    found = known.get(key, _MISSING)
    if found is _MISSING:
        found = known[key] = _violation(state, units, h)
    return found


def _violation(state: State, units: list[Unit], h: str) -> str | None:
    mf = state.data.params["game"]["mobile_mf"]
    v = overstacked([u.piece(mf) for u in units], state.data.stacking, H(h))
    return "; ".join(str(x) for x in v) if v else None


def overstacked_hexes(state: State, side: str) -> list[tuple[str, str]]:
    """SNC 6.2: `side`'s hexes over the stacking limits with why, by hex (found once per state)."""
    return list(state.memo(("overstacked", side), lambda: tuple(_overstacked_hexes(state, side))))


def _overstacked_hexes(state: State, side: str) -> list[tuple[str, str]]:
    known = _known(state)
    by_hex = state.memo(("at",), state._by_hex)  # State.at's lists, not copied: only read here
    out = []
    for h in sorted(state.occupied(side)):
        why = _violation_kept(state, known, h, [u for u in by_hex[h] if u.side == side])
        if why:
            out.append((h, why))
    return out


def overstacked_count(state: State, side: str) -> int:
    """SNC 6.0: how many of `side`'s units stand in hexes over the stacking limits, which the end of a phase
    would thin (the strong opponent's check: a unit moved out of such a hex lowers it, one moved in raises it)."""
    return sum(len([u for u in state.at(h) if u.side == side]) for h, _ in overstacked_hexes(state, side))


def require_stacking(em: Decision, side: str, ending: bool = False) -> bool:
    """SNC 6.0: ask `side` to bring its first overstacked hex within the limits (False), or True if none is.
    `ending`: the check of an `end` order (6.0 1)), whose phase closes once the owner has complied."""
    bad = overstacked_hexes(em.state, side)
    if bad:
        h, why = bad[0]
        em.emit(ev.DecisionRequired("overstack", side, {"hex": h, "why": why, **({"ending": True} if ending else {})}))
        return False
    return True


def eliminate(em: Decision, side: str, units: list[str]) -> None:
    """SNC 6.0: the owner eliminates units of his choice from an overstacked hex until it complies; a unit named
    twice is refused (rules version 8, ruling E19; the order of a game of version 7 or before reads it once)."""
    p = em.state.pending[0]
    h = p["data"]["hex"]
    twice = named_twice(units)
    if twice:
        raise IllegalOrder("SNC 6.0", f"{', '.join(twice)} named twice: a unit is eliminated once; name each unit "
                                      "the hex loses once")
    for uid in units:
        u = em.state.units[uid]
        if u.side != side or u.hex != h or not u.on_map:
            raise IllegalOrder("SNC 6.0", f"{uid} is not one of your units in {h}")
    d = em.state.data
    mf = em.state.data.params["game"]["mobile_mf"]
    remaining = [u.piece(mf) for u in em.state.at(h) if u.id not in units]
    if overstacked(remaining, d.stacking, H(h)):
        raise IllegalOrder("SNC 6.2", f"{h} would still be over the stacking limit")
    for uid in units:
        # a smaller choice would do: the owner must not eliminate more than needed
        if not overstacked(remaining + [em.state.units[uid].piece(mf)], d.stacking, H(h)):
            raise IllegalOrder("SNC 6.0", f"{h} is within the limit without eliminating {uid}")
    em.emit(ev.DecisionMade("overstack", side), ev.Overstacked(side, h, list(units)))
    for uid in units:
        if em.state.units[uid].elite and side == "chinese":
            elite_eliminated(em, uid)
    require_stacking(em, side, bool(p["data"].get("ending")))


def advance(em: Decision, side: str, units: list[str], path: list[str]) -> None:
    """SNC 10.5.3 (8.4.1 for the 10th Army's second hex): optional, participating survivors, no MP, EZOC
    ignored, stacking checked afterwards (6.0). The kernel checks the path: into the cleared hex from each
    advancing unit's hex; for the 10th Army, the landing hex (already entered) then one adjacent hex."""
    from app.rules.snc.movement import can_step

    state = em.state
    p = state.pending[0]["data"]
    allowed = set(p["units"])
    for uid in units:
        if uid not in allowed:
            raise IllegalOrder("SNC 10.5.3", f"{uid} did not take part in this attack or did not survive")
    gmap = em.state.data.map
    if p.get("army"):
        if len(path) != 1:
            raise IllegalOrder("SNC 8.4.1", "the 10th Army advances one more hex from the landing hex")
        army_second_hex(em, list(units), p["from"], path[0])
        return
    cleared = state.battle["hex"]
    if path[0] != cleared:
        raise IllegalOrder("SNC 10.5.3", f"an advance enters the emptied defending hex {cleared} first; "
                                         f"{path[0]} is not it: `advance {' '.join(units)} to {cleared}`, "
                                         "or `stay`")
    for origin in sorted({state.units[u].hex for u in units}):
        check_advance(gmap, H(origin), [H(h) for h in path], {H(state.battle["hex"])}, int(p["hexes"]),
                      lambda h, prev: can_step(state, side, str(prev), str(h)), "SNC 10.5.3")
    taken = newly_taken(em.state, side, path)
    em.emit(ev.DecisionMade("advance", side), ev.UnitsAdvanced(list(units), list(path)))
    place_garrisons(em, taken)
    _advance_within_limits(em.state, side, path[-1])  # with any 9.1 garrison it brings
    continue_battle(em)


def _advance_within_limits(state: State, side: str, h: str, joining=()) -> None:
    """SNC 10.5.3: an advance observes the stacking limits (up to the normal limit); refused, not followed by
    the 6.0 elimination."""
    why = stacking_violation(state, side, h, joining) if state.since(3) else None
    if why:
        raise IllegalOrder("SNC 10.5.3", f"an advance observes the stacking limits: {why}")


def stay(em: Decision, side: str) -> None:
    em.emit(ev.DecisionMade("advance", side), ev.UnitsAdvanced([], [em.state.battle["hex"]]))
    continue_battle(em)


def lose(em: Decision, side: str, allocation: list[str]) -> None:
    p = em.state.pending[0]["data"]
    units = [em.state.units[u] for u in p["units"]]
    apply_step_losses({u.id: u.steps for u in units}, p["count"], allocation, "SNC 10.5.2", loss_order(units))
    em.emit(ev.DecisionMade("losses", side))
    take_losses(em, side, allocation)
    continue_battle(em)
