"""What the map, the markers and the weather say to a combat in progress: enemy ZOC (D12), Beachhead hexsides
(4.1.3, D11), countries a unit may not enter (D19), and which hexsides an attack, a retreat or an exploitation
crosses. Positions are the state's; terrain is the data's (terrain.toml)."""
from __future__ import annotations

from app.rules.daisenso.state import State, Unit
from app.rules.kernel.hexgrid import Hex
from app.rules.kernel.pieces import Piece
from app.rules.kernel.zoc import zoc_hexes

BEACHHEADS = ("beachhead", "snlf-beachhead-0")
AIRDROPS = ("airdrop-axis", "airdrop-western", "airdrop-soviet")
LONE_MARKERS = ("detachment-japan", "detachment-western", "detachment-soviet", "logistics-axis",
                "logistics-western", "logistics-soviet")


def H(label: str) -> Hex:
    return Hex.parse(label)


def beachhead_side(state: State, faction: str, a: str, b: str) -> bool:
    """4.2.5.2: a/b is the Beachhead Hexside of one of ``faction``'s Beachhead markers."""
    return any(m.kind in BEACHHEADS and m.faction == faction and {m.hex, m.toward} == {a, b} for m in state.markers)


def any_beachhead_side(state: State, a: str, b: str) -> bool:
    return any(m.kind in BEACHHEADS and {m.hex, m.toward} == {a, b} for m in state.markers)


def hexside(state: State, a: str, b: str, flag: str) -> bool:
    """The hexside a/b has ``flag`` (terrain.toml), a Beachhead Hexside counting as the [beachhead] entry."""
    if any_beachhead_side(state, a, b) and state.data.tec["beachhead"].get(flag):
        return True
    return state.data.hexside_flag(H(a), H(b), flag)


def attack_allowed_across(state: State, unit: Unit, target: str) -> bool:
    """4.2.1.1, 4.2.1.3: no attack across an All-Sea hexside (every hexside of an All-Sea hex, D11) but by a
    supplied marine, or across a Beachhead Hexside (whoever's marker makes it)."""
    d = state.data
    if any_beachhead_side(state, unit.hex, target):
        return True
    a, b = H(unit.hex), H(target)
    if not d.hexside_flag(a, b, "all_sea") and all(d.tec["hexsides"][f]["attack"] == "yes"
                                                    for f in d.atlas.hexside_features(a, b)):
        return True
    return unit.supplied and d.kinds[unit.kind].type == "marine"  # 4.2.1.3 Marine Assault


def country_closed(state: State, hex_label: str) -> bool:
    """D19: a hex of a Neutral Minor Country or a Policy Affected Country (or of a Dependent of either, D65)."""
    country = state.data.country_of(H(hex_label))
    if country is None:
        return False
    closed = state.neutral | state.policy
    return country.id in closed or (country.dependent_of in closed)


def closed_country(state: State, hex_label: str) -> str | None:
    """D19: which closed country ``hex_label`` lies in, as a player reads it ("Tibet, a Neutral Minor Country"), or
    None where `country_closed` is false."""
    country = state.data.country_of(H(hex_label))
    if country is None:
        return None
    for cid, what in ((country.id, ""), (country.dependent_of, f"{country.name}, a Dependent of ")):
        for closed, status in ((state.neutral, "a Neutral Minor Country"), (state.policy, "a Policy Affected Country")):
            if cid in closed:
                c = state.data.countries[cid]
                return f"{what}{c.name}, {country_status(state.data, c, status)}"
    return None


def country_status(data, country, status: str) -> str:
    """How a closed country is named: by its `status`, or a Dependent a position of rules version 13 or before
    named itself (ruling D67: since version 14 a position names the country it belongs to) as that Dependent,
    "a Dependent of Britain, neutral in this position"."""
    if country.kind != "dependent":
        return status
    said = "neutral" if "Neutral" in status else "Policy Affected"
    return f"a Dependent of {data.countries[country.dependent_of].name}, {said} in this position"


def enemy_zoc(state: State, faction: str) -> frozenset[str]:
    """D12: hexes in an enemy ZOC for ``faction``: enemy ground units' ZOC (not across mountain, All-Sea or lake
    hexsides; from a hex at sea only across its Beachhead Hexside, and into one from a Land hex only across a
    Beachhead Hexside: ruling D82, rules version 19), less hexes with ``faction``'s Airdrop markers (4.1.1 design
    note)."""
    d = state.data
    out: set[str] = set()
    by_hex: dict[str, list[Piece]] = {}
    for u in state.units.values():
        if u.faction != faction and d.kinds[u.kind].is_ground:
            by_hex.setdefault(u.hex, []).append(Piece(u.id, u.faction))
    for h, pieces in by_hex.items():
        reach = {str(x) for x in zoc_hexes(d.atlas, H(h), pieces, d.zoc)}
        if not d.is_land(H(h)):
            reach = {x for x in reach if beachhead_side(state, pieces[0].side, h, x)}
        elif state.since(19):  # ruling D82: every hexside of a hex at sea is an All-Sea hexside (D11); version 18
            # and before let a Land hex's ZOC into every hex at sea next to it
            reach = {x for x in reach if d.is_land(H(x)) or any_beachhead_side(state, h, x)}
        out |= reach
    negated = {m.hex for m in state.markers if m.faction == faction and m.kind in AIRDROPS}
    return frozenset(out - negated)


def enemies_in(state: State, faction: str, hex_label: str) -> bool:
    """An enemy unit (any), Airdrop or Beachhead marker in the hex (4.2.5.2)."""
    if any(u.faction != faction for u in state.at(hex_label)):
        return True
    return any(m.faction != faction and (m.kind in AIRDROPS or m.kind in BEACHHEADS)
               for m in state.markers_at(hex_label))


def retreat_problem(state: State, faction: str, current: str, origin: str, to: str) -> tuple[str, str] | None:
    """Why a force of ``faction`` in ``current`` (the combat having been at ``origin``) may not retreat into ``to``
    now, as (case, reason): the restriction of 4.2.5.2 or the priority of 4.2.5.1 that bars it, first that applies;
    None if `retreat_options` offers it."""
    d = state.data
    atlas = d.atlas
    if not atlas.on_map(H(to)) or not atlas.adjacent(H(current), H(to)):
        return "4.2.5", f"{to} is not a hex next to {current}: a force retreats one hex at a time"
    closed = closed_country(state, to)
    if closed:
        return "4.2.5.2", f"{to} lies in {closed} (ruling D19)"
    for what, there in (("unit", any(u.faction != faction for u in state.at(to))),
                        ("Airdrop marker", any(m.faction != faction for m in state.markers_at(to, AIRDROPS))),
                        ("Beachhead marker", any(m.faction != faction for m in state.markers_at(to, BEACHHEADS)))):
        if there:
            return "4.2.5.2", f"{to} holds an enemy {what}"
    if atlas.distance(H(to), H(origin)) <= atlas.distance(H(current), H(origin)):
        return "4.2.5.1", f"{to} is not farther from the defending hex {origin} than {current}"
    if not d.is_land(H(to)) and not any(m.faction == faction for m in state.markers_at(to, BEACHHEADS)):
        return "4.2.5", f"{to} is neither a Land hex nor an All-Sea hex holding a friendly Beachhead marker"
    if not beachhead_side(state, faction, current, to) and not d.retreat_crosses(H(current), H(to)):
        return "4.2.5.2", f"{current}/{to} is an All-Sea hexside, neither a Strait nor a Beachhead Hexside"
    priority, hexes = retreat_options(state, faction, current, origin)
    if to in hexes:
        return None
    if priority == 0:
        return "4.2.5.1", (f"{to} is in an enemy ZOC, and {', '.join(hexes)} farther away "
                           f"{'is' if len(hexes) == 1 else 'are'} not (Priority 1)")
    return "4.2.5.1", (f"{to} is in an enemy ZOC and holds no friendly ground, Airdrop or Air unit (Priority 2)")


def friends_in(state: State, faction: str, hex_label: str) -> bool:
    """4.2.5.1 priority 2: a friendly ground, Airdrop or Air unit."""
    return (any(u.faction == faction for u in state.at(hex_label))
            or any(m.faction == faction and m.kind in AIRDROPS for m in state.markers_at(hex_label)))


def retreat_options(state: State, faction: str, current: str, origin: str) -> tuple[int | None, list[str]]:
    """4.2.5.1-4.2.5.2 from ``current``, the combat having been at ``origin``: (priority, hexes), or (None, [])."""
    d = state.data
    atlas = d.atlas
    ezoc = enemy_zoc(state, faction)
    here = atlas.distance(H(current), H(origin))
    legal = []
    for n in atlas.neighbours(H(current)):
        label = str(n)
        if enemies_in(state, faction, label) or country_closed(state, label):
            continue
        if atlas.distance(n, H(origin)) <= here:
            continue
        crossing = beachhead_side(state, faction, current, label)
        if not crossing and not d.retreat_crosses(H(current), n):
            continue
        legal.append(label)
    first = [h for h in legal if h not in ezoc]
    if first:
        return 0, sorted(first)
    second = [h for h in legal if friends_in(state, faction, h)]
    return (1, sorted(second)) if second else (None, [])
