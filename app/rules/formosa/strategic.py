"""Formosa's strategic stage as pure functions over `GameData` and plain values: LP income, spending and the cap
(7.2, 24.1, 24.2), recruit and replacement costs (7.3, 8.0-8.4), Amoy (9.1), air missions (16.0-16.1), air
superiority (16.2), interdiction and ground support limits (16.3, 16.4), B-29 strikes (16.5), kamikaze (16.6)
and the mobile fleet sortie (18.0).

The engine owns the state and the dice: it passes the values each rule needs and the dice it rolled, and turns
the results into events. A function refuses an illegal request with `IllegalOrder` naming the case before any
die is needed, so a refused order rolls nothing. LP are whole numbers; rulings are docs/rulings/formosa.md.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from app.rules.errors import IllegalOrder
from app.rules.formosa.data_load import NOT_ON_CHART, GameData, side_unit
from app.rules.kernel.hexgrid import Hex

C = "Formosa "
SIDES = ("allied", "japanese")
# mission displays of the Strike Planning Phase (16.1) and what each side may put there
MISSIONS = {
    "allied": {"tac": ("air-superiority", "tactical", "interdiction"), "b29": ("b29",),
               "air-supply": ("air-supply",)},
    "japanese": {"tac": ("air-superiority", "tactical"), "kamikaze": ("kamikaze",)},
}
# pools an air superiority loss may be taken from (16.2 steps 3 and 4): never kamikaze, B-29 or air supply
LOSS_POOLS = {"allied": ("air-superiority", "tactical", "interdiction"), "japanese": ("air-superiority", "tactical")}


def _side(side: str) -> str:
    if side not in SIDES:
        raise ValueError(f"side must be one of {SIDES}, got {side!r}")
    return side


# ---------------------------------------------------------------------------------------------------------
# Logistics points (7.2, 24.1, 24.2)
# ---------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Income:
    """LP a side adds in the Logistics Phase, each item as (what, LP, case) for the event and the history."""

    side: str
    items: tuple[tuple[str, int, str], ...]

    @property
    def total(self) -> int:
        return sum(lp for _, lp, _ in self.items)


def japanese_income(game: GameData, die: int, airfields: int) -> Income:
    """7.2: the die plus one LP per two Japanese-controlled airfields on Formosa, rounded down (CF-D3: die 4 and
    five airfields give 6)."""
    inc = game.charts["income"]
    return Income("japanese", (("die roll", die, C + "7.2"),
                               (f"{airfields} airfields", airfields // inc["japanese_per_airfields"], C + "7.2")))


def allied_income(game: GameData, scenario: int, *, amoy: bool, major_ports: int, minor_ports: int,
                  airfields: int) -> Income:
    """7.2: the scenario's base, Amoy (from the GT after its capture: `amoy_pays`), 3 per functional major port,
    1 per functional minor port, 1 per two functional airfields rounded down (CF-D2: Scenario 1 with Amoy, one
    major, two minor ports and three airfields: 16)."""
    inc = game.charts["income"]
    items = [(f"Scenario {scenario}", int(inc["allied_base"][str(scenario)]), C + "7.2")]
    if amoy:
        items.append(("Amoy", inc["allied_amoy"], C + "7.2, 9.1"))
    items += [(f"{major_ports} functional major ports", major_ports * inc["allied_major_port"], C + "7.2, 20.0"),
              (f"{minor_ports} functional minor ports", minor_ports * inc["allied_minor_port"], C + "7.2, 20.0"),
              (f"{airfields} functional airfields", airfields // inc["allied_per_airfields"], C + "7.2, 20.0")]
    return Income("allied", tuple(items))


def spend(lp: int, cost: int, what: str) -> int:
    """LP left after paying ``cost`` for ``what``; never below zero (7.2)."""
    if cost < 0:
        raise ValueError(f"a cost cannot be negative, got {cost}")
    if cost > lp:
        raise IllegalOrder(C + "7.2", f"{what} costs {cost} LP and only {lp} LP are left; LP never go below zero")
    return lp - cost


def lose_lp(lp: int, amount: int) -> tuple[int, int]:
    """(LP left, LP actually lost) when an effect removes ``amount``: the track stops at zero (7.2, 18.0 a)."""
    lost = min(lp, max(amount, 0))
    return lp - lost, lost


def cap(game: GameData, lp: int) -> tuple[int, int]:
    """(LP kept, LP lost) at the end of a Recruit Phase: no more than 20 are kept (7.2; ruling F26)."""
    limit = game.charts["income"]["cap"]
    return min(lp, limit), max(lp - limit, 0)


def setup_lp(game: GameData, scenario: int, side: str, die: int | None = None) -> int:
    """LP to recruit with at set-up: Japanese a die plus 15 (24.1) or plus 20 (24.2); Allied 30 or 40. CF-13: a
    Japanese 6 in Scenario 1 gives 21."""
    s = game.scenario(scenario)
    if _side(side) == "allied":
        return int(s["allied_setup_lp"])
    if die is None:
        raise ValueError("the Japanese set-up LP need a die roll (24.1)")
    return die + int(s["japanese_setup_lp"]["add"])


def end_setup(game: GameData, scenario: int, side: str, lp: int) -> tuple[int, int]:
    """(LP kept, LP lost) when a side ends its set-up. The Japanese must spend down to 20 (24.1's "must expend",
    24.2's "must expend at least enough"): ending above is refused. The Allies lose the excess (24.1
    Important; 24.2). CF-13, CF-14 (30 LP unspent: 10 lost), CF-15; ruling F63."""
    kept = int(game.scenario(scenario)["lp_kept_after_setup"])
    if lp <= kept:
        return lp, 0
    if _side(side) == "japanese":
        raise IllegalOrder(C + ("24.2" if scenario == 2 else "24.1"),
                           f"the Japanese must spend at least {lp - kept} more LP before ending set-up "
                           f"({lp} LP, at most {kept} kept)")
    return kept, lp - kept


def setup_air(game: GameData, scenario: int, tac_die: int, kamikaze_die: int) -> tuple[int, int]:
    """(TAC points, kamikaze points) of the Japanese at set-up: a die plus 3 and a die (24.1, 24.2)."""
    s = game.scenario(scenario)
    return tac_die + int(s["japanese_tac"]["add"]), kamikaze_die + int(s["japanese_kamikaze"]["add"])


def amoy_pays(captured_on: int | None, turn: int) -> bool:
    """Amoy's 5 LP are received from the GT after its capture (9.1)."""
    return captured_on is not None and turn > captured_on


def lp_shift(side: str, attacking: bool, lp: int) -> int:
    """Columns bought with ``lp`` LP in one combat (15.4.1; ruling F22): one LP one column; only the attacking
    Allies may spend two for two. The engine checks the line of supply (19.5 item 2) before calling this."""
    top = 2 if _side(side) == "allied" and attacking else 1
    if not 1 <= lp <= top:
        role = "attacking" if attacking else "defending"
        raise IllegalOrder(C + "15.4.1", f"the {side} player {role} may spend 1{' or 2' if top == 2 else ''} LP "
                                         f"in a combat, not {lp}")
    return lp


# ---------------------------------------------------------------------------------------------------------
# Recruiting and replacing (7.3, 8.0-8.4)
# ---------------------------------------------------------------------------------------------------------
def recruit_cost(game: GameData, side: str, item: str, *, scenario: int, setup: bool, replace: bool = False,
                 points: int = 1, replace_special: bool = False) -> int:
    """LP to recruit (or replace) ``item``: a unit id of units.toml, or a counter kind ("tac", "kamikaze",
    "mobile-fleet", "gunfire", "b29", "air-supply", "amphibious", "drop-zone") bought ``points`` at a time.

    Refused: Japanese set-up-only types after set-up (8.2, 3.0), "N/A" replacements and units no chart row
    lists (8.2; F27; 8.4 kamikaze and the fleet marker), kamikaze at set-up (24.1 Important), a scenario's
    banned units (24.2; F29), Commonwealth units in Scenario 1 (24.1), the 6th Marine Division (24.1: free
    after Amoy; F34; `replace_special`, since rules version 18: its regiments are replaced as any other, 8.2,
    8.3, ruling F142), units of an optional rule not in play (25.0). Kamikaze points cost half an LP each,
    rounded up for the lot (ruling F62)."""
    _side(side)
    unit = game.by_id.get(item)
    if unit is not None:
        if unit.side != side:
            raise IllegalOrder(C + "7.3", f"{item} is not {side_unit(side)}")
        return _unit_cost(game, unit, scenario=scenario, setup=setup, replace=replace,
                          replace_special=replace_special)
    if points < 1:
        raise IllegalOrder(C + "7.3", f"buy at least one {item} point, not {points}")
    if item == "kamikaze" and setup:
        raise IllegalOrder(C + "24.1", "kamikaze points may not be recruited during initial set-up")
    try:
        cost = game.lp_cost(side, item, replace)
    except KeyError:
        raise IllegalOrder(C + "7.3", f"the {side} LP Expenditure Chart has no {item!r}") from None
    if cost == "n/a":
        raise IllegalOrder(C + "8.2", f"{item} cannot be replaced (N/A on the {side} LP Expenditure Chart)")
    if item in ("tac", "kamikaze"):
        return -(-int(cost * 2 * points) // 2)  # half-LP prices rounded up for the lot (F62)
    return int(cost) * points


def _unit_cost(game: GameData, unit, *, scenario: int, setup: bool, replace: bool,
               replace_special: bool = False) -> int:
    s = game.scenario(scenario)
    if unit.optional and unit.optional not in game.optional:
        raise IllegalOrder(C + unit.optional, f"{unit.id} exists only with optional rule {unit.optional}")
    if unit.id in s.get("banned", ()):
        raise IllegalOrder(C + "24.2", f"{unit.id} may not be recruited in Scenario {scenario}")
    if unit.nationality == "cw" and not s.get("commonwealth"):
        raise IllegalOrder(C + "24.1", f"no Commonwealth units are used in Scenario {scenario}")
    if unit.id in s["special"].get("after_amoy", ()) and not (replace and replace_special):
        raise IllegalOrder(C + "24.1", f"{unit.id} arrives free in the Amoy Display the GT after Amoy falls")
    if unit.lp_type == NOT_ON_CHART:
        raise IllegalOrder(C + "8.2", f"{unit.id} is on no LP Expenditure Chart row: never recruited or replaced "
                                      "(Formosa ruling F27)")
    if not replace and not setup and game.setup_only(unit.side, unit.lp_type):
        raise IllegalOrder(C + "8.2", f"{unit.id} ({unit.lp_type}) may only be recruited during initial set-up")
    cost = game.lp_cost(unit.side, unit.lp_type, replace)
    if cost == "n/a":
        raise IllegalOrder(C + "8.2", f"{unit.id} ({unit.lp_type}) cannot be replaced")
    if not isinstance(cost, int | float):
        return 0  # the PW Camp: "see optional rules", deployed free at set-up (25.10; ruling F30)
    return int(cost)


def air_point_limit(game: GameData, side: str, kind: str, nationality: str | None = None) -> int:
    """Most points of ``kind`` ("tac", "kamikaze") a side (or nationality) may ever hold: the counters' larger
    faces added up, the counter mix being a design limit (8.2; 2.5)."""
    return sum(c.front for c in game.counters if c.side == side and c.kind == kind
               and (nationality is None or c.nationality == nationality))


# ---------------------------------------------------------------------------------------------------------
# Amoy (9.1)
# ---------------------------------------------------------------------------------------------------------
def amoy_captured(game: GameData, turn: int, die: int) -> bool:
    """9.1: from GT 2, Amoy falls when the die is below the GT number (CF-D1: GT 2 die 1 yes, die 2 no; GT 7
    any die)."""
    first = game.charts["amoy"]["first_turn"]
    if turn < first:
        raise IllegalOrder(C + "9.1", f"the Amoy Operation Phase starts on GT {first}")
    return die < turn


# ---------------------------------------------------------------------------------------------------------
# Air missions (16.0, 16.1, 16.3, 16.4)
# ---------------------------------------------------------------------------------------------------------
def assign_air(side: str, available: Mapping[str, int], missions: Mapping[str, int]) -> dict[str, int]:
    """Check a Strike Planning assignment (16.1): ``available`` holds points (or 1 for a single unit) by kind
    ("tac", "kamikaze", "b29", "air-supply"), ``missions`` points by mission display. Points are change, not
    counters (2.5, 16.0): a 2-point TAC counter may fly two 1-point missions (CF-10). Returns the points each
    kind leaves in the Available display. The drop zone marker is never assigned (ruling F8)."""
    by_mission = {m: k for k, ms in MISSIONS[_side(side)].items() for m in ms}
    spent = {k: 0 for k in available}
    for mission, points in missions.items():
        kind = by_mission.get(mission)
        if kind is None:
            allowed = ", ".join(sorted(by_mission))
            raise IllegalOrder(C + "16.1", f"the {side} player has no {mission!r} mission (missions: {allowed})")
        if points < 0:
            raise IllegalOrder(C + "16.1", f"{points} points cannot be assigned")
        spent[kind] = spent.get(kind, 0) + points
    for kind, used in spent.items():
        if used > available.get(kind, 0):
            raise IllegalOrder(C + "16.1", f"{used} {kind} points assigned but only {available.get(kind, 0)} are "
                                           "available (each air unit flies one mission a GT)")
    return {k: available[k] - spent.get(k, 0) for k in available}


def check_air_placement(game: GameData, side: str, mission: str, placements: Mapping[Hex, int],
                        assigned: int) -> None:
    """Ground support (16.3: Allied at most 2 points a hex, Japanese 1) or interdiction (16.4: Allied only, at
    most 2 a hex) points placed on the map, within the points assigned to the mission. The engine checks that
    a ground support hex holds enemy units next to friendly ones."""
    st = game.charts["stacking"]
    if mission == "interdiction":
        if _side(side) != "allied":
            raise IllegalOrder(C + "16.4", "only the Allied player conducts interdiction missions")
        per_hex, case = st["interdiction_points_per_hex"], "16.4"
    elif mission == "tactical":
        per_hex = st[f"{_side(side)}_support_points_per_hex"]
        case = "16.3"
    else:
        raise ValueError(f"no on-map placement for mission {mission!r}")
    for h, points in placements.items():
        if not game.map.on_map(h):
            raise IllegalOrder(C + case, f"{h} is not a hex of the map")
        if not 1 <= points <= per_hex:
            raise IllegalOrder(C + case, f"the {side} player places 1 to {per_hex} air points in a hex, "
                                         f"not {points} in {h}")
    total = sum(placements.values())
    if total > assigned:
        raise IllegalOrder(C + case, f"{total} points placed but {assigned} were assigned to {mission}")


def interdiction_surcharge(game: GameData, placements: Mapping[Hex, int]) -> dict[Hex, float]:
    """Extra MP for a Japanese unit entering each interdicted hex (16.4: +1 for one point, +2 for two, along a
    road too, 12.4): the `Situation.surcharge` of Japanese movement. Leaving or staying costs nothing."""
    extra = game.terrain["interdiction"]["extra_mp"]
    return {h: float(extra[str(p)]) for h, p in placements.items() if p > 0}


# ---------------------------------------------------------------------------------------------------------
# Air superiority (16.2) and kamikaze (16.6)
# ---------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class AirBattle:
    """16.2 resolved: points each side must eliminate. Both columns are read from the points committed before
    any loss (16.2 step 4 Important); a side with none fires on the 0 column (anti-aircraft fire)."""

    allied_points: int
    japanese_points: int
    allied_die: int
    japanese_die: int
    japanese_loses: int
    allied_loses: int


def air_superiority(game: GameData, allied_points: int, japanese_points: int, allied_die: int,
                    japanese_die: int) -> AirBattle:
    """16.2: the Allies fire first on their points' column, then the Japanese on theirs."""
    return AirBattle(allied_points, japanese_points, allied_die, japanese_die,
                     game.air_combat(allied_points, allied_die), game.air_combat(japanese_points, japanese_die))


def take_air_losses(side: str, loss: int, pools: Mapping[str, int], taken: Mapping[str, int]) -> dict[str, int]:
    """Check the owner's choice of where an air superiority loss falls and return the pools after it (16.2
    steps 3-4): the Japanese from Air Superiority or Tactical (never kamikaze), the Allies from Air Superiority,
    Tactical and/or Interdiction, in any split (CF-11: two points from air superiority, from ground support, or
    one of each). A loss beyond the points there is lost with them."""
    eligible = LOSS_POOLS[_side(side)]
    for pool, n in taken.items():
        if pool not in eligible:
            raise IllegalOrder(C + "16.2", f"{side} losses come from {', '.join(eligible)}, not {pool}")
        if n < 0 or n > pools.get(pool, 0):
            raise IllegalOrder(C + "16.2", f"{n} points cannot be taken from {pool}, which holds "
                                           f"{pools.get(pool, 0)}")
    due = min(loss, sum(pools.get(p, 0) for p in eligible))
    if sum(taken.values()) != due:
        raise IllegalOrder(C + "16.2", f"the {side} player must eliminate exactly {due} air points, "
                                       f"not {sum(taken.values())}")
    return {p: pools[p] - taken.get(p, 0) for p in pools}


def kamikaze(game: GameData, points: int, die: int) -> int:
    """Hits of a kamikaze attack (16.6): the Air Combat Table column of the points, the 0 column when none are
    allocated, rolled every Special Attack Phase (ruling F5). The points attacking are then eliminated."""
    return game.air_combat(points, die)


def kamikaze_losses(hits: int, amphibious: int, gunfire: int, markers: int, ships: int) -> tuple[int, int]:
    """Check the Allied split of kamikaze hits (16.6 3): ``markers`` of the ``amphibious`` markers available and
    ``ships`` of the ``gunfire`` units in the Staging Area return to the Reinforcements Display, in any split
    adding to the hits; hits beyond what is there are lost (ruling F64)."""
    if not (0 <= markers <= amphibious and 0 <= ships <= gunfire):
        raise IllegalOrder(C + "16.6", f"{markers} amphibious markers ({amphibious} available) and {ships} "
                                       f"gunfire units ({gunfire} in the Staging Area) cannot be returned")
    due = min(hits, amphibious + gunfire)
    if markers + ships != due:
        raise IllegalOrder(C + "16.6", f"the kamikaze result is {hits}: return exactly {due} markers and gunfire "
                                       f"units in all, not {markers + ships}")
    return markers, ships


# ---------------------------------------------------------------------------------------------------------
# The mobile fleet sortie (18.0)
# ---------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Sortie:
    """18.0 result: Indecisive Action and Decisive Battle withdraw the Allied gunfire for the GT; Decisive
    Battle also costs the Allies a die of LP (`lose_lp`) and bars amphibious markers this GT."""

    die: int
    result: str
    gunfire_withdrawn: bool
    allied_lp_die: bool
    amphibious_barred: bool


def check_sortie(game: GameData, turn: int, recruited: bool, used: bool) -> None:
    """A sortie may be declared once per game, if the marker was recruited, never on GT 1 (18.0, 24.1)."""
    if turn == game.charts["mobile_fleet"]["not_on_turn"]:
        raise IllegalOrder(C + "18.0", "the mobile fleet may not sortie on GT 1")
    if used:
        raise IllegalOrder(C + "18.0", "the mobile fleet sortie is once per game, and it has sailed")
    if not recruited:
        raise IllegalOrder(C + "18.0", "the mobile fleet sortie marker has not been recruited")


def fleet_sortie(game: GameData, scenario: int, die: int) -> Sortie:
    """Read the Japanese Mobile Fleet Sortie Table for the scenario (18.0); `check_sortie` first."""
    result = game.mobile_fleet(scenario, die)
    decisive = result == "Decisive Battle"
    return Sortie(die, result, result != "Fiasco", decisive, decisive)


# ---------------------------------------------------------------------------------------------------------
# B-29 strikes (16.5)
# ---------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class B29Strike:
    """16.5: the column read (terrain, or Fortified), the die and the code: "-" none, "DS" suppression, "D1"
    one Japanese ground unit eliminated (owner's choice) and DS on the rest."""

    hex: Hex
    column: str
    die: int
    code: str


def check_b29(game: GameData, target: Hex, japanese_units: int) -> None:
    """The B-29 strikes a hex holding Japanese units, concealed ones included (16.5)."""
    if not game.map.on_map(target):
        raise IllegalOrder(C + "16.5", f"{target} is not a hex of the map")
    if japanese_units < 1:
        raise IllegalOrder(C + "16.5", f"the B-29 strikes only a hex containing Japanese units; {target} has none")


def b29_strike(game: GameData, target: Hex, die: int, *, fortified: bool) -> B29Strike:
    """Resolve a strike (16.5) after `check_b29`: ``fortified`` when the hex holds a revealed coastal defense or
    heavy weapons unit, or the Japanese player reveals a concealed one for it (16.5; ruling F6)."""
    column = game.b29_column(target, fortified)
    return B29Strike(target, column, die, game.b29(column, die))
