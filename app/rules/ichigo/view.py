"""Ichi-Go per-side views (docs/architecture.md practice 12: the one function every output uses). Fog of war, Ichi-Go
6.6: a player sees only the top unit of each enemy stack; untried Chinese counters (3.3, 11.27) show only their handle
to BOTH players (and to spectators) until revealed in combat; the draw pool is a count."""
from __future__ import annotations

from dataclasses import replace

from app.rules.base import Command, Previews
from app.rules.ichigo import combat, victory
from app.rules.ichigo.data_load import load
from app.rules.ichigo.state import State
from app.rules.kernel.mapfile import GameMap


def _unit(u) -> dict:
    if not u.tried:
        return {"id": u.id, "side": u.side, "nation": u.nation, "hex": u.hex, "untried": True}
    return {"id": u.id, "name": u.name, "side": u.side, "nation": u.nation, "hex": u.hex,
            "strength": u.factor("attack"), "defence": u.factor("defence"), "steps": u.steps,
            "static": u.static, "untried": False, "type": u.type, "size": u.size, "factors": _factors(u)}


def _factors(u) -> str:
    """As the counter prints them: the combat factor (2.10; movement is not printed, 2.11), a static unit's
    attack-defence-movement (2.12)."""
    if u.static:
        return f"{u.factor('attack')}-{u.factor('defence')}-0"
    return str(u.factor("attack"))


def top_unit(units: list):
    """Ichi-Go 6.6: the top unit shown is the strongest tried unit, else an untried counter (then by id)."""
    return sorted(units, key=lambda u: (not u.tried, -u.factor("defence") if u.tried else 0, u.id))[0]


def view(state: State, side: str | None) -> dict:
    stacks: dict[str, list] = {}
    for u in state.on_map():
        stacks.setdefault(u.hex, []).append(u)
    hexes = []
    for h in sorted(stacks):
        units = stacks[h]
        owner = units[0].side
        if side is None or owner == side:
            shown, hidden = [_unit(u) for u in sorted(units, key=lambda u: u.id)], 0
        else:
            shown, hidden = [_unit(top_unit(units))], len(units) - 1
        hexes.append({"hex": h, "side": owner, "units": shown, "hidden": hidden})
    # The replay contract (app/rules/base.py): every counter this side sees, straight from the stacks above (an
    # enemy stack shows its top unit, 6.6; an untried counter only its handle, with no strength or steps, 11.27),
    # plus the tried units the side knows to be eliminated, with hex None and no steps, to count losses.
    units = [{**u, "hidden_below": s["hidden"] if i == 0 else 0} for s in hexes for i, u in enumerate(s["units"])]
    units += [{"id": u.id, "name": u.name, "side": u.side, "nation": u.nation, "hex": None, "steps": 0,
               "untried": False, "status": u.status}
              for u in sorted(state.units.values(), key=lambda u: u.id)
              if u.status == "dead" and u.tried and (side is None or u.side == side)]
    watched = state.data.victory_hexes
    out = {
        "game": "ichigo", "units": units, "victory_hexes": list(watched),
        "control": {h: state.controller(h) for h in watched},  # 3.5: control is public
        "turn": state.turn, "phase": state.phase, "plans": dict(state.plans),
        "causeway": state.causeway, "japanese_control": sorted(state.jp_control), "stacks": hexes,
        "airpower": {"side": state.air_side, "hexes": list(state.air_hexes)}, "b29": state.b29_hex,
        "beachheads": dict(state.beachheads), "chinese_pool": len(state.draw_pool),
        "drawn": sorted(u.id for u in state.units.values() if u.status == "drawn"),
        "winner": state.winner, "end_reason": state.reason,
        "pending": [{"kind": p["kind"], "side": p["side"]} for p in state.pending],
    }
    if state.since(17):  # rules version 17 (ruling E60): what lies on the table beside the map, for both players
        out["victory"] = victory.standing(state)
        out["aerial_supply"] = {"hex": state.aerial_hex, "placed_this_turn": state.aerial_turn == state.turn}
        out["b29_raid"] = b29_raid(state)
        out["china_collapse_rolled"] = state.collapse_checked
        out["airlift_used_this_turn"] = state.airlift_turn == state.turn  # 8.10 (the airdrop uses it too, 8.11)
        out["airborne_dropped"] = state.airdropped  # 8.11: one airdrop a game
        out["aa14_closed"] = state.aa14_closed  # 5.3 item 8, 9.4: a 0 ends 14AA arrivals
    if side is not None:
        out["own_off_map"] = sorted(
            [{"id": u.id, "status": u.status, "entry_turn": u.entry_turn}
             for u in state.units.values() if not u.on_map and u.side == side and u.tried], key=lambda x: x["id"])
    return out


def b29_raid(state: State) -> dict:
    """Ichi-Go 8.9 (rules version 17, ruling E60): without Causeway, whether the one raid of the game is made; once
    Causeway is launched, this turn's roll: None before it, else whether it gave a raid (1-3) or not (4-6)."""
    if not state.causeway:
        return {"once_a_game": True, "made": state.b29_used}
    rolled = state.b29_rolled == state.turn
    return {"once_a_game": False, "this_turn": None if not rolled else
            "raid" if state.b29_ok or state.b29_hex else "no raid"}


def game_map(state: State | None) -> GameMap:
    """The Ichi-Go map (data/map.toml, or the game's custom map), for the replay's map pictures."""
    return (state.data if state is not None else load()).map


# the orders `preview` draws (the rest have none: app/rules/legal.py)
PREVIEWS = Previews(("attack",), "Ichi-Go 11.6")


def preview(state: State, command: Command) -> dict:
    """Ichi-Go 11.6-11.19: strengths, odds, each shift with its case, the final column and the result of
    each die roll; writes nothing. Untried Chinese counters are unknown (6.6, 11.27): the odds are those the
    attacker can count on, an untried defender as the countermix's strongest regular and an untried attacker as
    none, with the best case beside them (`best`; ruling E33, rules version 7)."""
    PREVIEWS.check(command)
    args, side = command.args, command.side
    momentum = state.pending[0]["data"] if state.pending and state.pending[0]["kind"] == "momentum" else None
    attackers = combat.check_attack(state, side, args["hex"], args["units"], momentum)
    combat.check_support(state, args["hex"], attackers, int(args.get("tanks", 0)), bool(args.get("sf")),
                         momentum)
    defenders = [u for u in state.at(args["hex"]) if u.side != side]
    hidden = max(0, len(defenders) - 1)
    if defenders:  # 6.6: before the attack only the top unit of the enemy stack is seen
        defenders = [top_unit(defenders)]
    unknown = [u.id for u in attackers + defenders if not u.tried]
    tanks, sf = int(args.get("tanks", 0)), bool(args.get("sf"))

    def odds(att: list, dfn: list) -> dict:
        return combat.assess(state, side, args["hex"], att, dfn, tanks, sf, nation=attackers[0].nation)

    known_att = [u for u in attackers if u.tried]
    if unknown and state.since(7):  # ruling E33: an untried defender counts as the countermix's strongest
        weakest, strongest = combat.untried_bounds(state)
        a = odds(known_att, [_stand_in(u, strongest) for u in defenders])
        best = odds([_stand_in(u, strongest) for u in attackers], [_stand_in(u, weakest) for u in defenders])
    else:  # rules version 6 and before: an untried defender counted as no defence at all
        a, best = odds(known_att, [u for u in defenders if u.tried]), None
    results = {str(r): state.data.crt.lookup(a["column"], r, a["line"]).code for r in range(1, 7)}
    text = (f"{a['attack']}:{a['defence']} = {a['odds']}; shifts {'; '.join(a['shifts']) or 'none'} -> "
            f"{a['column_label']} ({a['line']} line)")
    text += "".join(f"\n{line}" for line in a["why"])
    if best is not None:
        text += (f"\nIchi-Go 11.27 (ruling E33): {len(unknown)} untried counter(s), unknown until flipped in combat: "
                 f"the odds above count an untried defender as the strongest Chinese regular ({strongest}) and an "
                 f"untried attacker as none (a zero); at best {best['attack']}:{best['defence']} -> "
                 f"{best['column_label']} (the weakest defender, {weakest}, and the strongest attacker); a zero "
                 f"defender is removed untried, in effect a DE when it is alone")
    elif unknown:
        text += f"\nIchi-Go 11.27: {len(unknown)} untried counter(s) not counted (revealed in combat)"
    if hidden:
        text += f"\nIchi-Go 6.6: {hidden} more unit(s) hidden under the top unit; only its defence is shown"
    shown = {**a, "results": results, "untried": unknown, "hidden_defenders": hidden, "text": text}
    if best is not None:
        shown["best"] = {k: best[k] for k in ("attack", "defence", "odds", "column", "column_label")}
    return shown


def _stand_in(unit, factor: int):
    """Ruling E33: an untried counter as the preview counts it, a Chinese regular of `factor` (from the public
    countermix, never the counter's own); a tried unit as it is."""
    return unit if unit.tried else replace(unit, strength=(factor,), tried=True)
