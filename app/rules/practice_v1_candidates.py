"""SNC's and Ichi-Go's candidate orders as edition 1 of the practice opponents drew them (app/rules/practice_v1.py),
frozen from the rule sets' own `candidates` before the two games moved onto the engine's shape, which listed their
legal orders instead (app/rules/legal.py) and dropped these. A stored game whose automated SNC or Ichi-Go seat is of
edition 1 re-decides each order from these lists, in the same order for the same generator, so it still verifies
(docs/core.md "Rules versions"). Not every candidate is legal: the caller checks each with the decider. Frozen:
change nothing here but what a renamed helper of the rules needs."""
from __future__ import annotations

import random

from app.rules.errors import OrderError
from app.rules.ichigo import causeway
from app.rules.ichigo import combat as ichigo_combat
from app.rules.ichigo import reinforcements as ichigo_reinforcements
from app.rules.ichigo import sequence as ichigo_sequence
from app.rules.kernel.hexgrid import Hex
from app.rules.kernel.memo import IdentityMemo
from app.rules.kernel.stacking import overstacked
from app.rules.snc import combat, movement, reinforcements, sequence

_RAIL_HEXES = IdentityMemo(4)  # per map: its railroad hexes by label, in order (a map never changes)


def snc(state, rng: random.Random) -> list[str]:
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


def ichigo(state, rng: random.Random) -> list[str]:
    p = ichigo_sequence.TABLE.prompt(state)
    side = p.side
    names = [a.name for a in p.actions]
    d = state.data
    out: list[str] = []
    for simple in ("deploy", "roll", "reinforce", "ship"):
        if simple in names:
            out.append(simple)
    if "declare" in names:
        nation = state.nation_now()
        out += [f"declare {nation} {o}" for o in ("move-fight", "fight-move")]
    nation = state.nation_now()
    own = [u for u in state.on_map(side) if u.nation == nation and not u.static and not u.militia]
    if "move" in names:
        pool = [u for u in own if not u.done]
        rng.shuffle(pool)
        for u in pool[:5]:
            group = list(state.mover) if u.id in state.mover else [u.id]
            if u.mp < 0:
                group = [x.id for x in own if x.hex == u.hex and not x.done and x.mp < 0]
                group = rng.sample(group, rng.randint(1, len(group)))
            dests = [n for n in d.neighbours(u.hex) if d.land(n)]
            for n in list(dests):
                dests += [m for m in d.neighbours(n) if d.land(m) and m != u.hex]
            for dest in rng.sample(sorted(set(dests)), min(3, len(set(dests)))):
                out.append(f"move {' '.join(group)} to {dest}" + (" strategic" if rng.random() < 0.1 else ""))
    if "attack" in names:
        pend = state.pending[0] if state.pending else None
        if pend and pend["kind"] == "momentum":
            units = pend["data"]["units"]
            hx = state.units[units[0]].hex
            for t in d.neighbours(hx):
                if any(x.side != side for x in state.at(t)):
                    out.append(f"attack {t} with {' '.join(units)}")
        else:
            targets = sorted({n for u in own if not u.attacked for n in d.neighbours(u.hex)
                              if any(x.side != side for x in state.at(n))})
            for t in targets:
                near = [u.id for u in own if not u.attacked and t in d.neighbours(u.hex)]
                tanks = 0
                if nation == "japanese" and ichigo_combat.tank_pool(state) and rng.random() < 0.3:
                    tanks = 1
                out.append(f"attack {t} with {' '.join(near)}" + (f" tanks {tanks}" if tanks else ""))
    if "advance" in names:
        data = state.pending[0]["data"]
        out.append("advance " + " ".join(data["units"]))
        out.append("advance " + data["units"][0])
        out.append("stay")
    elif "stay" in names:
        out.append("stay")
    if "airlift" in names and rng.random() < 0.3:
        cities = sorted(h for h in d.feature("city") if h not in state.jp_control)
        movers = [u for u in own if u.mp < 0 and not u.done]
        if movers and cities:
            out.append(f"airlift {rng.choice(movers).id} to {rng.choice(cities)}")
    if "drop" in names:
        out.append(f"drop {rng.choice(sorted(str(h) for h in d.map.hexes()))}")
    if "supply" in names:
        us = sorted({u.hex for u in state.on_map("allied") if u.nation == "us"})
        if us:
            out.append(f"supply {rng.choice(us)}")
    if "transfer" in names:
        for h in state.beachheads.values():
            us = [u.id for u in state.at(h) if u.nation == "us"]
            if us:
                out.append(f"transfer {' '.join(us[:rng.randint(1, len(us))])}")
    if "lose" in names:
        data = state.pending[0]["data"]
        units = [state.units[i] for i in data["units"]]
        out.append("lose " + " ".join(ichigo_combat.allocate(units, data["count"])))
        out.append("lose " + " ".join(rng.choices(data["units"], k=data["count"])))
    if "commit" in names:
        out += [f"commit {n}" for n in range(state.pending[0]["data"]["max"] + 1)]
    if "air" in names:
        n = state.pending[0]["data"]["count"]
        hexes = rng.sample(sorted(str(h) for h in d.map.hexes()), n)
        out.append("air " + " ".join(hexes))
    if "b29" in names and rng.random() < 0.1:
        cities = sorted(h for h in d.feature("city") if h in state.jp_control)
        out.append(f"b29 {rng.choice(cities)}")
    if "enter" in names and state.pending:  # a Causeway deployment (ruling E3): only hexes that take the unit
        waiting = ichigo_reinforcements.deploying(state)
        for u in waiting:
            hexes = ichigo_reinforcements.deploy_hexes(state, u)
            out += [f"enter {u.id} at {h}" for h in rng.sample(hexes, min(3, len(hexes)))]
        group = rng.sample(waiting, min(len(waiting), rng.randint(2, 5)))
        hexes = ichigo_reinforcements.deploy_hexes(state, group[0])
        if hexes:
            out.append(f"enter {' '.join(u.id for u in group)} at {rng.choice(hexes)}")
    elif "enter" in names:
        due = [u for u in state.units.values() if u.side == "japanese"
               and u.status in ichigo_reinforcements.ARRIVALS and u.entry_turn <= state.turn]
        for u in due[:4]:
            hexes = sorted(ichigo_reinforcements.ARRIVALS[u.status][0](state))
            for h in rng.sample(hexes, min(3, len(hexes))):
                out.append(f"enter {u.id} at {h}")
    if "withdraw" in names:
        full, reduced, brig = ichigo_reinforcements.withdrawal_pools(state)
        nf, nr, nb = ichigo_reinforcements.withdrawal_need(state)
        for _ in range(3):
            out.append("withdraw " + " ".join(rng.sample(full, nf) + rng.sample(reduced, nr) + rng.sample(brig, nb)))
    if "release" in names:
        fg = sorted(u.id for u in state.units.values() if u.status == "formosa-garrison")
        if len(fg) >= 2 and rng.random() < 0.7:
            out.append("release " + " ".join(rng.sample(fg, 2)))
    if "place" in names:
        for h in ichigo_reinforcements.drawn(state):
            opts = ichigo_reinforcements.placeable(state, h)
            if opts:
                out.append(f"place {h} at {rng.choice(opts)}")
    if "land" in names:
        pool = sorted(u.id for u in state.units.values() if u.status == "us-pool" and u.entry_turn <= state.turn
                      and not (state.phase == "I" and u.type == "airborne"))  # 5.3 items 12-13
        if pool:
            ports = causeway.mainland_landings(d)
            spots = list(state.beachheads.values()) or ports
            group = ' '.join(pool[:rng.randint(1, min(8, len(pool)))])
            if state.turn == int(d.scenario["causeway"]["us_formosa_landing_turn"]):
                out.append(f"land {group}")
            else:
                out += [f"land {group} at {h}" for h in spots + ports]
                for h in ports:  # 5.3 item 12 (ruling E10): the Allied player names the hex, sometimes badly
                    if causeway.port_holders(state, h):
                        away = causeway.displacement_hexes(state, h) + [rng.choice(d.neighbours(h))]
                        out += [f"land {group} at {h} displace {x}" for x in rng.sample(away, min(3, len(away)))]
    rng.shuffle(out)
    if "end" in names:
        out.insert(rng.randrange(len(out) + 1) if rng.random() < 0.75 else 0, "end")
    return out


FROZEN = {"snc": snc, "ichigo": ichigo}  # by rule set name: edition 1's candidates where the rules no longer have them
