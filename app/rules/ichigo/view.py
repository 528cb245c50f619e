"""Ichi-Go per-side views (design.md: the one function every output uses). Fog of war, Ichi-Go 6.6: a player
sees only the top unit of each enemy stack; untried Chinese counters (3.3, 11.27) show only their handle to
BOTH players (and to spectators) until revealed in combat; the draw pool is a count."""
from __future__ import annotations

from app.rules.ichigo.state import State


def _unit(u) -> dict:
    if not u.tried:
        return {"id": u.id, "side": u.side, "nation": u.nation, "hex": u.hex, "untried": True}
    return {"id": u.id, "name": u.name, "side": u.side, "nation": u.nation, "hex": u.hex,
            "strength": u.factor("attack"), "defence": u.factor("defence"), "steps": u.steps,
            "static": u.static, "untried": False}


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
    if side is not None:
        out["own_off_map"] = sorted(
            [{"id": u.id, "status": u.status, "entry_turn": u.entry_turn}
             for u in state.units.values() if not u.on_map and u.side == side and u.tried], key=lambda x: x["id"])
    return out
