"""The SNC candidate orders of the side to act, drawn at random from the prompt: the fuzzers' random player
(docs/architecture.md practice 10) and the practice opponents' source of orders (app/rules/practice.py). Not every
candidate is legal: the caller checks each with the decider."""
from __future__ import annotations

import random

from app.rules.errors import OrderError
from app.rules.kernel.hexgrid import Hex
from app.rules.kernel.memo import IdentityMemo
from app.rules.kernel.stacking import overstacked
from app.rules.snc import combat, movement, reinforcements, sequence
from app.rules.snc.state import State

_RAIL_HEXES = IdentityMemo(4)  # per map: its railroad hexes by label, in order (a map never changes)


def candidates(state: State, rng: random.Random) -> list[str]:
    p = sequence.TABLE.prompt(state)
    side = p.side
    names = [a.name for a in p.actions]
    out: list[str] = []
    d = state.data
    own = [u for u in state.on_map(side) if not u.static]
    if "declare" in names:
        out += [f"declare {a} {b}" for a in ("move", "fight") for b in ("move", "fight")]
    if "move" in names:
        pool = [u for u in own if not u.done and (state.phase != "reinf" or u.placed_by == "listed")]
        rng.shuffle(pool)
        for u in pool[:4]:
            group = list(state.mover) if u.id in state.mover else [u.id]
            try:
                units = movement.movers(state, side, group)
                dests = movement.destinations(state, side, units)
            except OrderError:
                continue
            for dest in rng.sample(dests, min(3, len(dests))):
                out.append(f"move {' '.join(group)} to {dest}")
    if "attack" in names or "overrun" in names:
        verb = "attack" if "attack" in names else "overrun"
        targets = sorted({n for u in own for n in (str(h) for h in d.map.neighbours(Hex.parse(u.hex)))
                          if any(x.side != side for x in state.at(n))})
        for t in targets:
            near = [u.id for u in own if t in [str(h) for h in d.map.neighbours(Hex.parse(u.hex))]]
            if verb == "overrun":
                by_hex: dict = {}
                for uid in near:
                    by_hex.setdefault(state.units[uid].hex, []).append(uid)
                near = rng.choice(list(by_hex.values()))
            kinds = [k for k in ("air", "artillery", "naval")
                     if combat.support_allowed(state, side, k, t, verb, {state.units[u].hex for u in near}) is None
                     and rng.random() < 0.5]
            sup = f" support {' '.join(kinds)}" if kinds else ""
            out.append(f"{verb} {t} with {' '.join(near)}{sup}")
    pend = state.pending[0] if state.pending else None
    if "lose" in names:
        units = [state.units[u] for u in pend["data"]["units"]]
        steps = {u.id: u.steps for u in units}
        alloc = []
        for _ in range(pend["data"]["count"]):
            c = rng.choice(combat.loss_candidates(units, steps))
            alloc.append(c)
            steps[c] -= 1
        out.append("lose " + " ".join(alloc))
    if "advance" in names:
        data = pend["data"]
        if data.get("army"):
            out += [f"advance {' '.join(data['units'])} to {n}" for n in
                    (str(h) for h in d.map.neighbours(Hex.parse(data["from"])))]
        else:
            out.append(f"advance {' '.join(data['units'])} to {state.battle['hex']}")
        out.append("stay")
    for simple in ("intercept", "pass", "air", "proceed"):
        if simple in names:
            out.append(simple)
    if "support" in names:
        out.append("support naval")
    if "remove" in names:
        ids = sorted(pend["data"]["units"], key=lambda u: -state.units[u].cf)
        chosen, total = [], 0
        for uid in ids:
            if total >= pend["data"]["roll"]:
                break
            chosen.append(uid)
            total += state.units[uid].cf
        while True:  # drop the weakest that is not needed
            spare = [u for u in chosen if total - state.units[u].cf >= pend["data"]["roll"]]
            if not spare:
                break
            chosen.remove(spare[0])
            total -= state.units[spare[0]].cf
        out.append("remove " + " ".join(chosen))
    if "eliminate" in names:
        h = pend["data"]["hex"]
        mine = [u for u in state.at(h) if u.side == side]
        rng.shuffle(mine)
        mf = 8
        chosen: list = []
        while overstacked([u.piece(mf) for u in mine if u not in chosen], d.stacking):
            chosen.append(next(u for u in mine if u not in chosen))
        for u in list(chosen):
            if not overstacked([x.piece(mf) for x in mine if x not in chosen or x is u], d.stacking):
                chosen.remove(u)
        out.append("eliminate " + " ".join(u.id for u in chosen))
    if "place" in names or "rail" in names:
        due = reinforcements.due(state, side)
        rails = _RAIL_HEXES.remembered(d.map, "labels", lambda: sorted(str(h) for h in d.map.rail_hexes()))
        for u in due[:6]:
            for h in u.arrival_hexes:
                out.append(f"place {u.id} at {h}")
            if u.status == "returning":
                out.append(f"place {u.id} at 0202")
            if "rail" in names:
                out.append(f"rail {u.id} to {rng.choice(rails)}")
    if "land" in names:
        due = reinforcements.due(state, side)
        forms: dict = {}
        for u in due:
            forms.setdefault(u.formation or u.id, []).append(u)
        for units in forms.values():
            h = rng.choice(reinforcements.landing_hexes(state.data, units[0]))
            sup = " support amphibious" if rng.random() < 0.5 else ""
            out.append(f"land {' '.join(u.id for u in units)} at {h}{sup}")
    if "retreat" in names:
        out += [f"retreat to {h}" for h in pend["data"]["options"]]
    if "replace" in names:
        out += [f"replace {u.id}" for u in state.on_map(side) if u.reduced and not u.static]
    rng.shuffle(out)
    if "end" in names:
        out.insert(rng.randrange(len(out) + 1) if rng.random() < 0.7 else 0, "end")
    return out
