"""Which Allied orders the strong practice opponent searches in Formosa (its `searched` hook, app/rules/search.py,
from the policies' edition 7; greedy's from edition 8, app/rules/practice.py `considered`): the legal list less
the orders that throw away what the Allies' VP rest on. Games played at edition 6 lost every Allied game: the
Recruit Phase spent the LP on markers and air points before a base could be built (20.1: the base, not the hex,
scores a port's or airfield's VP, 4.2), the Base Building Phase was ended with an engineer on a port, and units
were landed or left next to far stronger Japanese stacks, whose ZOC made them attack (10.2.1, 14.2, 15.0) at odds
that cost a unit, a Japanese VP (4.2), most times. What it passes over, read from what the Allies may see (a
concealed Japanese unit counts `CONCEALED_CF`, 11.1):

- in the Allied Recruit Phase, a `recruit` or `buy` that leaves fewer LP than the bases in reach need
  (`base_reserve`; a `replace` still goes: it takes a Japanese VP back, 4.2, 8.3);
- in the Base Building Phase, `demobilise` (20.2: a base given up scores nothing; with it the search built and
  gave up the same base, an LP each time, fourteen times in one phase), and `end` while a base can be built;
- in the Invasion, Naval Transfer and Movement Phases, an order that puts units where the attack 15.0 would force
  on them is hopeless (`hopeless`: a column of the Allied CRT below 100% once the shifts they can see coming are
  counted, where four faces in six or more cost the attackers a unit, a Japanese VP); in the Movement Phase,
  `end` while a unit stands in such a hex and a listed move takes it out (14.1: a unit in an EZOC may leave it);
  in the Naval Transfer Phase, a transfer off Formosa but for such a unit (21.0: it may embark in an EZOC), and
  `end` while a unit in the Staging Area or Amoy can be shipped to a hex where no such attack waits;
  but every landing stays while no Allied unit is on Formosa and none is better (4.1: none there from GT 2 loses).

From greedy's edition 8 (`edition` 8: app/rules/practice.py `considered`; the search reads edition 7's list) it
also keeps the engineers for the bases (`for_bases`): where a `lose` may name another unit (15.5: the owner
chooses), none that names an engineer; where a landing or naval transfer puts an engineer on a port or airfield
hex without a base, none that puts one elsewhere; no `move` or `attack` that takes an engineer off or away from
such a hex it stands on or next to, but to another such hex or next to one (20.1: it builds only there).

From greedy's edition 9 (`STAGED_SINCE`) the Recruit Phase's reserve counts only the bare sites no Japanese unit
stands on (what the Allies see: a "?" counter's hex is occupied; 10.1, 21.0: no landing there, and an engineer
builds only where it stands, 20.1), and also keeps, for an engineer in the Staging Area or Amoy (which a landing or
naval transfer may put on such a site this Game-Turn, 10.2, 21.0), the LP of the dearest such site no engineer on
the map is kept LP for (`staged_reserve`): edition 8 spent every LP in the Recruit Phase, landed the engineer on a
port and airfield (4 LP) and met the Base Building Phase with 0-3 LP, and late in the game kept 14-20 LP for
engineers next to ports the Japanese held.

Greedy's edition 9 also reads `aims`: an Allied engineer's one-hex steps toward a bare site no Japanese unit
stands on, within `RESERVE_REACH` hexes, which the legal list lacks (it offers each unit its longest moves: an
engineer next to a bare port was offered only a march past it, which `for_bases` passes over); the search reads them
from edition `AIMS_SINCE` (10, practice.EDITION 10: app/rules/search.py, at most three a decision).

What is left is never empty: with nothing else listed, the list is searched as it is."""
from __future__ import annotations

from app.rules.errors import OrderError
from app.rules.formosa import strategic
from app.rules.formosa.state import State, is_hex
from app.rules.kernel.hexgrid import Hex
from app.rules.kernel.preview import preview_attack
from app.rules.kernel.shifts import Shift

CONCEALED_CF = 3  # what the Allies take a "?" counter for: the Japanese infantry regiments' commonest factor
WINNABLE = 2  # the Allied CRT's first column not below 100% (15.2): to the left four faces in six or more cost the
# attackers a unit (AE, A1, an AR in an EZOC they cannot retreat through, 15.7)
RESERVE_REACH = 6  # hexes from an engineer to a port or airfield it is kept LP for
STAGED_SINCE = 9  # greedy's edition that keeps LP for an engineer still to land (app/rules/practice.py GREEDY_9)
STAGED = 1  # engineers off the map kept LP for: one base a Game-Turn
STAGING = ("allied-staging", "amoy")  # whence an engineer lands or is shipped (10.2, 21.0)
AIMS_SINCE = 10  # the search's edition that reads `aims` (the rule set's search_editions); greedy's from 9
SPENDS = ("recruit", "buy")
PLACES = ("land", "transfer", "move")


def searched(state: State, side: str, orders: list[str], edition: int = 7) -> list[str]:
    """`orders` (the legal list's texts) less those the strong opponent does not search (module docstring);
    `edition` 8 and later (greedy's) also `for_bases`."""
    if side != "allied":
        return orders
    if edition >= 8:
        orders = for_bases(state, orders) or orders
    step = state.step
    if step == "recruit-allied":
        kept = _within_reserve(state, orders, edition)
    elif step == "base-building":
        kept = [o for o in orders if o.split()[0] != "demobilise"]
        if any(o.split()[0] == "build" for o in kept):
            kept = [o for o in kept if o.split()[0] != "end"]
    elif step in ("invasion", "naval-transfer", "allied-movement"):
        kept = _not_into_hopeless(state, orders)
    else:
        kept = orders
    return kept or orders


def for_bases(state: State, orders: list[str]) -> list[str]:
    """`orders` less a `lose` naming an engineer where another `lose` does not (15.5), a landing or naval transfer
    that carries an engineer elsewhere where one lands it on such a hex (21.0), and a `move` or `attack`
    that takes away an engineer standing on or next to a port or airfield hex without a base (20.1) to a hex that is
    neither such a hex nor next to one."""
    loses = [o for o in orders if o.split()[0] == "lose"]
    spare = [o for o in loses if not any(_engineer(state, w) for w in o.split()[1:])]
    sites = _unbased_sites(state)
    grid = state.data.map
    onto = {str(h) for h in sites}
    carrying = [o for o in orders if o.split()[0] in ("land", "transfer")
                and any(_engineer(state, u) for u in _units_and_destination(o)[0])]
    on_site = [o for o in carrying if _units_and_destination(o)[1] in onto]
    kept = []
    for text in orders:
        words = text.split()
        if words[0] == "lose" and spare and text not in spare:
            continue
        if on_site and text in carrying and text not in on_site:
            continue
        if words[0] in ("move", "attack"):
            units = words[words.index("with") + 1:] if "with" in words else words[1:2]
            by_site = lambda label: any(grid.distance(Hex.parse(label), h) <= 1 for h in sites)  # noqa: E731
            away = [u for u in units if _engineer(state, u) and is_hex(state.units[u].where)
                    and by_site(state.units[u].where)]
            if away and not (words[0] == "move" and is_hex(words[-1]) and by_site(words[-1])):
                continue
        kept.append(text)
    return kept


def _engineer(state: State, uid: str) -> bool:
    return uid in state.units and state.spec(uid).type == "engineer"


def _unbased_sites(state: State) -> list[Hex]:
    """The port and airfield hexes without an Allied base (20.1)."""
    based = {u.where for u in state.on_map("allied") if u.base}
    return [h for h in state.data.sudden_death_hexes() if str(h) not in based
            and set(state.data.objectives(h)) & {"major-port", "minor-port", "airfield"}]


def base_reserve(state: State, edition: int = 7) -> int:
    """The LP the bases in reach need (20.1: 1 for an airfield, 3 a port, 4 both): for each Allied engineer on the
    map on its mobile side, its best port or airfield hex without a base within `RESERVE_REACH` hexes (its VP
    halved every three hexes away, as victory.bases_in_view reads them), each hex once; at most the 20 LP a side
    may keep (7.2). From edition `STAGED_SINCE`, `staged_reserve` besides."""
    values, costs = state.data.charts["victory"], state.data.charts["allied_other"]
    based = {u.where for u in state.on_map("allied") if u.base}
    sites = {}
    for h in state.data.sudden_death_hexes():
        feats = set(state.data.objectives(h)) - {"industry", "peak"}
        if str(h) in based or not feats or (edition >= STAGED_SINCE and state.at(str(h), "japanese")):
            continue
        port = bool(feats & {"major-port", "minor-port"})
        cost = costs["base_port_and_airfield"] if port and "airfield" in feats else costs[
            "base_port" if port else "base_airfield"]
        sites[str(h)] = (h, sum(values[f.replace("-", "_")] for f in feats), cost)
    grid, taken, reserve = state.data.map, set(), 0
    for u in state.on_map("allied"):
        if u.base or state.spec(u.id).type != "engineer":
            continue
        here = Hex.parse(u.where)
        near = [(vp * 2 ** (-grid.distance(here, h) / 3), label, cost) for label, (h, vp, cost) in sites.items()
                if label not in taken and grid.distance(here, h) <= RESERVE_REACH]
        if near:
            _, label, cost = max(near)
            taken.add(label)
            reserve += cost
    if edition >= STAGED_SINCE:
        reserve += staged_reserve(state, {k: v for k, v in sites.items() if k not in taken})
    return min(reserve, state.data.charts["income"]["cap"])


def staged_reserve(state: State, sites: dict[str, tuple[Hex, int, int]]) -> int:
    """The LP `STAGED` engineers in the Staging Area or Amoy need for the bare sites left (`sites`: label -> (hex,
    VP, LP)), the dearest first (20.1: a port and airfield 4 LP; the landing that puts the engineer on one is not
    chosen yet)."""
    staged = [u for u in state.units.values() if u.side == "allied" and u.where in STAGING and not u.base
              and state.spec(u.id).type == "engineer"]
    dearest = sorted((cost for _, _, cost in sites.values()), reverse=True)
    return sum(dearest[:min(len(staged), STAGED)])


def _within_reserve(state: State, orders: list[str], edition: int = 7) -> list[str]:
    reserve = base_reserve(state, edition)
    if not reserve:
        return orders
    lp = state.lp["allied"]
    kept = []
    for text in orders:
        if text.split()[0] in SPENDS and lp - _cost(state, text) < reserve:
            continue
        kept.append(text)
    return kept


def _cost(state: State, text: str) -> int:
    """The LP a `recruit UNIT ...` or `buy N WORD` order spends (7.3, strategic.recruit_cost); 0 if the chart
    refuses it (the decider refuses the order then)."""
    words = text.split()
    try:
        if words[0] == "buy":
            return strategic.recruit_cost(state.data, "allied", words[2], scenario=state.scenario, setup=False,
                                          points=int(words[1]))
        return sum(strategic.recruit_cost(state.data, "allied", uid, scenario=state.scenario, setup=False)
                   for uid in words[1:])
    except (OrderError, ValueError, IndexError):
        return 0


def _not_into_hopeless(state: State, orders: list[str]) -> list[str]:
    kept, stuck = [], _stuck(state)
    rescue = ashore = False
    for text in orders:
        verb = text.split()[0]
        if verb in PLACES:
            units, to = _units_and_destination(text)
            if to is not None and is_hex(to) and state.data.is_land(Hex.parse(to)):
                if hopeless(state, to, units):
                    continue
                rescue = rescue or any(u in stuck for u in units)
                ashore = ashore or (verb == "transfer" and any(
                    u in state.units and not is_hex(state.units[u].where) for u in units))
            elif verb == "transfer" and not any(u in stuck for u in units):
                continue  # 21.0: off Formosa only a unit a hopeless attack waits for
            elif verb == "transfer":
                rescue = True
        kept.append(text)
    if (rescue and state.step in ("allied-movement", "naval-transfer")) or ashore:
        kept = [o for o in kept if o.split()[0] != "end"]
    if state.step == "invasion" and not state.occupied("allied") and not any(o.startswith("land") for o in kept):
        return orders  # 4.1: no Allied ground unit on Formosa from GT 2 loses the game; a bad landing does not
    return kept


def _units_and_destination(text: str) -> tuple[list[str], str | None]:
    """The units and the hex of a `land HEX with UNITS`, `transfer UNIT to PLACE` or `move UNIT HEX ...` order."""
    words = text.split()
    if words[0] == "land" and "with" in words:
        return words[words.index("with") + 1:], words[1]
    if words[0] == "transfer" and "to" in words:
        return words[1:words.index("to")], words[-1]
    if words[0] == "move" and len(words) >= 3:
        hexes = [w for w in words[1:] if is_hex(w)]
        return [w for w in words[1:] if not is_hex(w)], hexes[-1] if hexes else None
    return [], None


def _stuck(state: State) -> set[str]:
    """Allied units on the map that stand where a hopeless attack would be forced on them now."""
    return {u.id for u in state.on_map("allied") if hopeless(state, u.where, [])}


def hopeless(state: State, hex_label: str, adding: list[str]) -> bool:
    """Would the Allied units in `hex_label`, with `adding` moved in, be bound to attack (14.2, 15.0, 15.1: mobile
    units in an EZOC, none stacked with a static unit; every adjacent Japanese hex in one combat) left of the
    `WINNABLE` column, after the shifts the Allies can see coming (15.4.1: the defenders' terrain, a revealed "D"
    unit, an "A" attacker)? A concealed Japanese unit counts `CONCEALED_CF` (11.1: the Allies do not see its
    factor); a guerrilla exerts no ZOC (23.0)."""
    units = [u for u in state.at(hex_label, "allied") if u.id not in adding] + [
        state.units[i] for i in adding if i in state.units]
    if not units or any(state.is_static(u) for u in units):
        return False
    data = state.data
    here = Hex.parse(hex_label)
    hexes, defence, shift = [], 0, 0
    for n in data.map.neighbours(here):
        enemy = [j for j in state.at(str(n), "japanese") if data.unit(j.id).type != "guerrilla"]
        if not enemy:
            continue
        hexes.append(n)
        defence += sum(CONCEALED_CF if j.concealed else state.cf(j) for j in enemy)
        if any(not j.concealed and data.unit(j.id).indicator == "D" for j in enemy):
            shift = -1
    if not hexes:
        return False
    shifts = [Shift(shift, "Formosa 15.4.1", "defense bonus unit")] if shift else []
    if any(data.unit(u.id).indicator == "A" for u in units):
        shifts.append(Shift(1, "Formosa 15.4.1", "attack bonus unit"))
    terrain = max(data.hex_shift(h, "japanese") for h in hexes)
    if terrain:
        shifts.append(Shift(-terrain, "Formosa 15.4.1", "terrain in the defender's hex"))
    attack = sum(state.cf(u) for u in units)
    defence = defence if state.since(22) else max(defence, 1)  # ruling F168: 0 is above the top column (15.3)
    return preview_attack(data.crt("us"), attack, defence, shifts).column < WINNABLE


def aims(state: State, side: str, edition: int = 7) -> list[str]:
    """From edition `STAGED_SINCE` (greedy's 9): `move ENGINEER HEX` for each hex next to an Allied engineer on its
    mobile side that is nearer a bare port or airfield no Japanese unit stands on (20.1: it builds only there),
    within `RESERVE_REACH` hexes; unchecked (the policy keeps those the rules accept)."""
    if side != "allied" or edition < STAGED_SINCE:
        return []
    sites = [h for h in _unbased_sites(state) if not state.at(str(h), "japanese")]
    grid, out = state.data.map, []
    for u in sorted(state.on_map("allied"), key=lambda u: u.id):
        if u.base or state.spec(u.id).type != "engineer" or not sites:
            continue
        here = Hex.parse(u.where)
        near = min(grid.distance(here, h) for h in sites)
        if not 0 < near <= RESERVE_REACH:
            continue
        out += [f"move {u.id} {n}" for n in grid.neighbours(here)
                if min(grid.distance(n, h) for h in sites) < near]
    return out
