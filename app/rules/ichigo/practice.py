"""The Ichi-Go candidate orders of the side to act, drawn at random from the prompt: the fuzzers' random player
(docs/architecture.md practice 10) and the practice opponents' source of orders (app/rules/practice.py). Not every
candidate is legal: the caller checks each with the decider."""
from __future__ import annotations

import random

from app.rules.ichigo import causeway, combat, reinforcements, sequence
from app.rules.ichigo.state import State


def candidates(state: State, rng: random.Random) -> list[str]:
    p = sequence.TABLE.prompt(state)
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
                if nation == "japanese" and combat.tank_pool(state) and rng.random() < 0.3:
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
        out.append("lose " + " ".join(combat.allocate(units, data["count"])))
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
        waiting = reinforcements.deploying(state)
        for u in waiting:
            hexes = reinforcements.deploy_hexes(state, u)
            out += [f"enter {u.id} at {h}" for h in rng.sample(hexes, min(3, len(hexes)))]
        group = rng.sample(waiting, min(len(waiting), rng.randint(2, 5)))
        hexes = reinforcements.deploy_hexes(state, group[0])
        if hexes:
            out.append(f"enter {' '.join(u.id for u in group)} at {rng.choice(hexes)}")
    elif "enter" in names:
        due = [u for u in state.units.values() if u.side == "japanese"
               and u.status in reinforcements.ARRIVALS and u.entry_turn <= state.turn]
        for u in due[:4]:
            hexes = sorted(reinforcements.ARRIVALS[u.status][0](state))
            for h in rng.sample(hexes, min(3, len(hexes))):
                out.append(f"enter {u.id} at {h}")
    if "withdraw" in names:
        full, reduced, brig = reinforcements.withdrawal_pools(state)
        nf, nr, nb = reinforcements.withdrawal_need(state)
        for _ in range(3):
            out.append("withdraw " + " ".join(rng.sample(full, nf) + rng.sample(reduced, nr) + rng.sample(brig, nb)))
    if "release" in names:
        fg = sorted(u.id for u in state.units.values() if u.status == "formosa-garrison")
        if len(fg) >= 2 and rng.random() < 0.7:
            out.append("release " + " ".join(rng.sample(fg, 2)))
    if "place" in names:
        for h in reinforcements.drawn(state):
            opts = reinforcements.placeable(state, h)
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
