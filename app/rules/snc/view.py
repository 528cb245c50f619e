"""SNC per-side views (docs/architecture.md practice 12: the one function every output uses). Fog of war, SNC 6.3: a
player sees only the top unit of each enemy stack, until he begins resolving an attack against it. `side=None` is the
full truth, for after the game."""
from __future__ import annotations

from app.rules.base import Command, Previews
from app.rules.errors import IllegalOrder
from app.rules.kernel.mapfile import GameMap
from app.rules.kernel.memo import ByIdentity
from app.rules.snc import combat, movement, reinforcements, victory
from app.rules.snc.data_load import load
from app.rules.snc.state import SIDES, State

ELIMINATED = ("dead", "removed", "returning")  # off the map for good or until an elite returns (SNC 8.1)


def _unit(u) -> dict:
    """A counter as it shows (2.2.1): its side's colours, type and size, the combat factor (a static unit's in
    parentheses: it only defends) and the steps left. A new dict each call, of what is found once per unit
    (a unit never changes: events make new ones; the practice opponents' samples view thousands of positions)."""
    return dict(_shown(u))


def _shows(u) -> dict:
    return {"id": u.id, "name": u.name, "side": u.side, "hex": u.hex, "strength": u.cf, "steps": u.steps,
            "reduced": u.reduced, "static": u.static, "nation": u.side, "type": u.type, "size": u.size,
            "factors": f"({u.cf})" if u.static else str(u.cf)}


_shown = ByIdentity(_shows)
_in_order = ByIdentity(lambda hexes: tuple(sorted(hexes)))  # the Japanese hexes sorted once per frozenset


def top_unit(units: list) -> object:
    """SNC 6.4: the order in a stack has no significance; the top unit shown is the strongest (then by id)."""
    return sorted(units, key=lambda u: (-u.cf, u.id))[0]


def view(state: State, side: str | None) -> dict:
    revealed = state.battle["hex"] if state.battle and state.battle.get("side") == side else None
    stacks = state.memo(("at",), state._by_hex)  # State.at's lists (the units on the map by hex), only read here
    hexes = []
    for h in sorted(stacks):
        units = stacks[h]
        owner = units[0].side
        if side is None or owner == side or h == revealed:
            shown = [_unit(u) for u in sorted(units, key=lambda u: u.id)]
            hidden = 0
        else:
            shown = [_unit(top_unit(units))]
            hidden = len(units) - 1
        hexes.append({"hex": h, "side": owner, "units": shown, "hidden": hidden})
    # The replay contract (app/rules/base.py): every counter this side sees, straight from the stacks above,
    # so an enemy stack not revealed gives its top unit only (SNC 6.3); eliminated units the side may know of
    # (its own; all of them for the referee) with hex None and no steps, so step losses can be counted.
    units = [{**u, "hidden_below": s["hidden"] if i == 0 else 0} for s in hexes for i, u in enumerate(s["units"])]
    units += [{"id": u.id, "name": u.name, "side": u.side, "hex": None, "strength": u.cf, "steps": 0,
               "status": u.status}
              for u in sorted((u for u in state.units.values()
                               if u.status in ELIMINATED and (side is None or u.side == side)), key=lambda u: u.id)]
    cities = sorted(state.data.params["victory"]["cities"])
    out = {
        "game": "snc", "units": units, "victory_hexes": cities,
        "control": victory.control(state),  # SNC 3.2, 4.3: control is public; 3513 as 4.3 counts it (E33)
        "turn": state.turn, "player": state.side, "phase": state.phase, "plan": list(state.plan),
        "japanese_control": list(_in_order(state.jp_control)), "chinese_air": state.chinese_air,
        "stacks": hexes, "winner": state.winner, "end_reason": state.reason,
        "pending": [_pending(state, p) for p in state.pending],
    }
    if state.since(14):  # rules version 14 (ruling E26): what lies on the table beside the map
        out["fire_support"] = [dict(m) for m in state.memo(("fire support",), lambda: fire_support(state))]
        out["victory"] = [dict(r) for r in state.memo(("standing",), lambda: victory.standing(state))]
        if side in (None, "japanese"):
            out["replacement_steps_left"] = state.replacements
    if side is None:
        out["off_map"] = sorted(
            [{"id": u.id, "status": u.status, "arrival_turn": u.arrival_turn, "return_turn": u.return_turn}
             for u in state.units.values() if not u.on_map], key=lambda x: x["id"])
    elif side:
        out["own_off_map"] = sorted(
            [{"id": u.id, "status": u.status, "arrival_turn": u.arrival_turn, "return_turn": u.return_turn}
             for u in state.units.values() if not u.on_map and u.side == side], key=lambda x: x["id"])
    return out


def _pending(state: State, p: dict) -> dict:
    """A decision waited for: its kind and side; from rules version 14 (ruling E26) the interdiction's die too (11.2:
    the Japanese player rolls it in front of both players; which reinforcements it may take stays the Chinese's)."""
    out = {"kind": p["kind"], "side": p["side"]}
    if p["kind"] == "interdiction" and state.since(14):
        out["roll"] = p["data"]["roll"]
    return out


def fire_support(state: State) -> list[dict]:
    """SNC 2.2.2, 8.5, 11.1 (rules version 14, ruling E26): each side's fire support markers of each kind it is ever
    given (13.0), as they lie beside the map: received so far (8.5: at the beginning of the owner's player turn),
    set aside after use this Operations Phase (11.1; the Japanese Reinforcement Phase carries on the First
    Operations Phase's, 8.5), and in hand."""
    out = []
    for side, kind in _marker_kinds(state.data.markers):
        received = state.markers_received(side, kind)
        used = min(int(state.used.get(side, {}).get(kind, 0)), received)
        out.append({"side": side, "kind": kind, "received": received, "used": used, "in_hand": received - used})
    return out


MARKER_KINDS = ("air", "artillery", "naval", "amphibious")  # SNC 11.1's four categories, in its order
# each side's kinds of marker 13.0 gives it, in 11.1's order (once per game data's markers)
_marker_kinds = ByIdentity(lambda markers: tuple((side, k) for side in SIDES for k in MARKER_KINDS
                                                 if any(m["side"] == side and m["kind"] == k for m in markers)))


def game_map(state: State | None) -> GameMap:
    """The SNC map (data/map.toml, or the game's custom map), for the replay's map pictures."""
    return (state.data if state is not None else load()).map


# the orders `preview` draws (the rest have none: app/rules/legal.py)
PREVIEWS = Previews(("attack", "overrun", "land"), "SNC 10.3")


def preview(state: State, command: Command) -> dict:
    """SNC 10.3-10.5: strengths, raw odds, each shift with its case, the final column and the result of
    each die roll for an `attack`, `overrun` or `land` order; writes nothing. Under the fog of war (6.3) an
    enemy stack is assessed as its top unit shows, with the number of hidden units reported."""
    PREVIEWS.check(command)
    args, side = command.args, command.side
    target = args["hex"]
    kind = {"attack": "attack", "overrun": "overrun", "land": "landing"}[command.action]
    enemy = [u for u in state.at(target) if u.side != side]
    if not enemy:
        raise IllegalOrder("SNC 10.0", f"{target} holds no enemy unit")
    # the checks of the order itself (its phase aside, so that a player may plan out of turn)
    if kind == "landing":
        reinforcements.check_landing(state, args["units"], target, args.get("support", []))
    elif kind == "overrun":
        movement.check_overrun(state, side, target, args["units"])
    else:
        combat.check_attack(state, side, target, args["units"], "attack")
    combat.check_support(state, side, target, args["units"], args.get("support", []), kind)
    hidden = 0
    if not (state.battle and state.battle.get("hex") == target):
        shown = [top_unit(enemy)]
        hidden = len(enemy) - 1
    else:
        shown = enemy
    battle = {"hex": target, "side": side, "kind": kind, "attackers": list(args["units"]),
              "defenders": [u.id for u in shown], "support": list(args.get("support", []))}
    p = combat.assess(state, battle)
    text = p.to_text()
    if hidden:
        text += f"\nSNC 6.3: {hidden} more unit(s) hidden under the top unit; the defence shown is the top unit's"
    answers = _answers(state, battle)
    text += "".join(f"\n{a['case']}: {a['what']}: column {a['column']}" for a in answers)
    return {**p.to_dict(), "hidden_defenders": hidden, "answers": answers, "text": text}


def _answers(state: State, battle: dict) -> list[dict]:
    """SNC 11.1, 11.3, 11.4: what the other side may yet do to the battle once it is declared, each with the column it
    would leave: the Japanese may add a naval gunfire marker to a defence next to the rivers (11.4), the Chinese air
    force may intercept the Japanese air marker (11.3: a 6 aborts it; a 1 grounds the air force, the marker stays)."""
    out = []
    if battle["side"] == "chinese" and combat.defensive_naval_allowed(state, battle["hex"]):
        column = combat.assess(state, {**battle, "defence_support": ["naval"]}).column_label
        out.append({"case": "SNC 11.4", "what": "the Japanese may add a naval gunfire marker to the defence (1L)",
                    "column": column})
    if battle["side"] == "japanese" and "air" in battle["support"] and state.chinese_air:
        column = combat.assess(state, {**battle, "air_aborted": True}).column_label
        out.append({"case": "SNC 11.3", "what": "the Chinese air force may intercept the air marker: a 6 aborts it",
                    "column": column})
    return out
