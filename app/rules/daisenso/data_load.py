"""Dai Senso game data: the map sheets, the terrain effects, the CRT, the countries and the unit and marker kinds,
loaded from app/rules/daisenso/data/ and checked against each other (every problem named at once, `DataError`).

Nothing here is a game number in code: shifts, factors, steps and the table come from the TOML files, which a
player who owns the printed game may replace one by one (docs/daisenso-data.md, docs/rulings/daisenso.md).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from app.rules import datafiles
from app.rules.daisenso import data
from app.rules.datafiles import read_toml
from app.rules.kernel.atlas import Atlas, load_atlas
from app.rules.kernel.crt import CRT
from app.rules.kernel.hexgrid import Hex
from app.rules.kernel.mapfile import loads_map
from app.rules.kernel.zoc import ZocRules

COUNTRY_KINDS = ("major", "minor", "dependent")
GROUPS = ("nationalist-chinese", "communist-chinese")
UNIT_TYPES = ("infantry", "armor", "mech", "marine", "airborne", "hq", "fortress", "air-force", "cv-strike")
ARMOR_TYPES = ("armor", "mech")
AIR_TYPES = ("air-force", "cv-strike")
MARKER_OWNERS = ("faction", "nations")
COUNTRY_TAG = "country-"


class DataError(datafiles.DataError):
    """Every problem found in the game's data files; ``problems`` holds one message each."""

    title = "Dai Senso"


@dataclass(frozen=True)
class Country:
    id: str
    name: str
    faction: str
    kind: str
    dependent_of: str | None = None
    group: str | None = None


@dataclass(frozen=True)
class UnitKind:
    """One side of a counter (units.toml explains each field)."""

    id: str
    name: str
    nations: tuple[str, ...]
    type: str
    steps: int
    attack: int
    defense: int
    ma: int
    flip: str | None = None
    breaks_to: str | None = None
    cls: str | None = None
    components: tuple[str, ...] = ()
    airdrop: str | None = None
    elite: bool = False
    exp: bool = False
    delay: bool = False
    kwantung: bool = False
    leaves_game: bool = False

    @property
    def is_air(self) -> bool:
        return self.type in AIR_TYPES

    @property
    def is_ground(self) -> bool:
        return not self.is_air

    @property
    def armor_type(self) -> bool:
        """4.2.3.3, 4.2.6.1, 4.2.8: armor and mech units."""
        return self.type in ARMOR_TYPES

    @property
    def factors(self) -> str:
        return f"{self.attack}-{self.defense}-{self.ma}"


@dataclass(frozen=True)
class MarkerKind:
    id: str
    name: str
    owner: str
    nations: tuple[str, ...] = ()
    factions: tuple[str, ...] = ()
    points: bool = False


@dataclass(frozen=True)
class GameData:
    atlas: Atlas
    tec: Mapping[str, Any]
    crt: CRT
    crt_raw: Mapping[str, Any]
    factions: tuple[str, ...]
    countries: Mapping[str, Country]
    kinds: Mapping[str, UnitKind]
    markers: Mapping[str, MarkerKind]
    stacking_limit: int
    zoc: ZocRules
    _country_of: Mapping[Hex, str] = field(default_factory=dict, repr=False)
    options: Mapping = field(default_factory=dict)

    def scenario_path(self, name: str) -> Path:
        return data.SCENARIOS / f"{name}.toml"

    # -- map questions the combat rules ask ---------------------------------------------------------------
    def country_of(self, h: Hex) -> Country | None:
        """The country a hex belongs to (its map tag), None at sea."""
        cid = self._country_of.get(h)
        return None if cid is None else self.countries[cid]

    def is_land(self, h: Hex) -> bool:
        """A Land hex (terrain.toml `land`): 4.1.1, 4.1.3, 4.2.5, 4.2.8."""
        return bool(self.tec["terrain"][self.atlas.terrain_of(h)]["land"])

    def hexside_flag(self, a: Hex, b: Hex, flag: str) -> bool:
        """Whether the hexside a/b has a feature whose TEC entry sets ``flag`` (all_sea, hard_crossing, ...);
        every hexside of a hex that is not Land is an All-Sea hexside (ruling D11)."""
        features = set(self.atlas.hexside_features(a, b))
        if not (self.is_land(a) and self.is_land(b)):
            features.add("all-sea")
        return any(self.tec["hexsides"][f].get(flag) for f in features)

    def retreat_crosses(self, a: Hex, b: Hex) -> bool:
        """4.2.5.2 by terrain alone: both hexes are Land and no feature of the hexside forbids a retreat (All-Sea
        and lake do, a Strait does not). A Beachhead hexside, given by a marker, is the position's to add."""
        features = self.atlas.hexside_features(a, b)
        return self.is_land(a) and self.is_land(b) and all(self.tec["hexsides"][f]["retreat"] for f in features)

    def hex_shift(self, h: Hex) -> tuple[int, str]:
        """4.2.3.8: columns left for a defender in ``h`` and why: the larger of its terrain and City (D8)."""
        terrain = self.atlas.terrain_of(h)
        shifts = [(int(self.tec["terrain"][terrain].get("shift_left", 0)), terrain)]
        shifts += [(int(self.tec["features"][f]["shift_left"]), f) for f in sorted(self.atlas.features_of(h))]
        return max(shifts, key=lambda s: s[0])

    def hexside_shift(self, a: Hex, b: Hex) -> int:
        """4.2.3.8: columns left across the hexside a/b (0 for a plain one): its largest feature's shift, and
        All-Sea's for every hexside of a hex that is not Land (D11)."""
        amounts = [int(self.tec["hexsides"][f].get("shift_left", 0)) for f in self.atlas.hexside_features(a, b)]
        if not (self.is_land(a) and self.is_land(b)):
            amounts.append(int(self.tec["hexsides"]["all-sea"]["shift_left"]))
        return max(amounts, default=0)

    def shift(self, source: str) -> int:
        """Columns a 4.2.3 shift source moves the odds (crt.toml [shifts]: air, airdrop, armor, fortress, hq,
        marines)."""
        return int(self.crt_raw["shifts"][source])

    # -- counters -----------------------------------------------------------------------------------------
    def class_members(self, cls: str) -> tuple[UnitKind, ...]:
        """The one-step kinds of a class (what a two-step kind breaks down to, 4.2.6.2)."""
        return tuple(k for k in self.kinds.values() if k.cls == cls)

    def faction_of_nations(self, nations: Iterable[str]) -> str:
        return self.countries[next(iter(nations))].faction



OPTION_KEYS = ("map", "position")


def load_data(options: Mapping) -> GameData:
    """The data a game with these options plays on (the engine's `load_data`): `map` is the text of one map
    sheet, or a list of them, each replacing the sheet of its prefix; `position` is read by `state.start`."""
    unknown = sorted(set(options) - set(OPTION_KEYS))
    if unknown:
        raise ValueError(f"unknown option(s) {', '.join(unknown)}; Dai Senso takes: {', '.join(OPTION_KEYS)}")
    sheets = options.get("map") or ()
    sheets = (sheets,) if isinstance(sheets, str) else tuple(sheets)
    if not all(isinstance(t, str) for t in sheets):
        raise ValueError("'map' is the text of a map sheet file, or a list of them")
    game = load(sheets)
    return replace(game, options=dict(options), kinds={**game.kinds, **what_if_kinds(game, options.get("position"))})


# what a position's [[unit]] `values` may change on a counter (a what-if; docs/daisenso-data.md, ruling D35)
VALUES = {"attack": range(0, 100), "defense": range(0, 100), "ma": range(0, 100)}


def what_if(kind: str, uid: str) -> str:
    """The kind a unit with its own values plays as: its counter's kind, changed for it alone (ruling D35)."""
    return f"{kind}~{uid}"


def what_if_kinds(game: GameData, position) -> dict[str, UnitKind]:
    """Ruling D35: each [[unit]] that gives `values` plays as a kind of its own, its counter's kind with those
    values (a what-if); on a step loss it flips or breaks down to the printed kinds."""
    from app.rules.custom_setup import SetupError, counter_values

    entries = [u for u in (position or {}).get("unit", ()) if isinstance(u, dict) and "values" in u] \
        if isinstance(position, dict) and isinstance(position.get("unit"), list) else []
    raw = {u.get("id"): u["values"] for u in entries if isinstance(u.get("id"), str)}
    changes, problems = counter_values({"values": raw}, VALUES, set(raw))
    out = {}
    for u in entries:
        kind = game.kinds.get(u.get("kind"))
        if kind is not None and u.get("id") in changes:
            out[what_if(kind.id, u["id"])] = replace(kind, id=what_if(kind.id, u["id"]), cls=None,
                                                     **changes[u["id"]])
    if problems:
        raise SetupError("position", problems)
    return out


def load(custom_sheets: tuple[str, ...] = ()) -> GameData:
    """The game's data; ``custom_sheets`` are map texts that replace the sheets of the same prefix."""
    return _load(tuple(custom_sheets))


@lru_cache(maxsize=4)
def _load(custom_sheets: tuple[str, ...]) -> GameData:
    atlas = load_atlas(data.MAP_SHEETS)
    for i, text in enumerate(custom_sheets, 1):
        atlas = atlas.replaced(loads_map(text, f"custom map sheet {i}"))
    return build(atlas, read_toml(data.TERRAIN), read_toml(data.CRT), read_toml(data.UNITS))


def build(atlas: Atlas, tec: dict, crt_raw: dict, units: dict) -> GameData:
    """Check the files against each other and build the data; `DataError` lists every problem."""
    problems: list[str] = []
    factions = tuple(units.get("factions", ()))
    countries = _countries(units.get("country", {}), factions, problems)
    markers = _markers(units.get("marker", {}), factions, countries, problems)
    kinds = _kinds(units.get("kind", {}), countries, markers, problems)
    problems += _tec_problems(atlas, tec)
    stacking = units.get("limits", {}).get("stacking")
    if not isinstance(stacking, int) or stacking < 1:
        problems.append("units.toml [limits] stacking is the number of ground units a hex holds (1 or more)")
    country_of: dict[Hex, str] = {}
    for h in atlas.hexes():
        tags = [t[len(COUNTRY_TAG):] for t in atlas.tags_of(h) if t.startswith(COUNTRY_TAG)]
        land = bool(tec.get("terrain", {}).get(atlas.terrain_of(h), {}).get("land"))
        if len(tags) > 1:
            problems.append(f"hex {h} is tagged with two countries: {', '.join(sorted(tags))}")
        elif tags and tags[0] not in countries:
            problems.append(f"hex {h}: no country {tags[0]!r} in units.toml")
        elif tags:
            country_of[h] = tags[0]
        elif land:
            problems.append(f"land hex {h} belongs to no country (tag it country-...)")
    try:
        crt = _crt(crt_raw)
    except (KeyError, ValueError) as exc:
        problems.append(f"crt.toml: {exc}")
        crt = None
    if problems:
        raise DataError(problems)
    zoc = ZocRules(case="Dai Senso 4.2.5.1", categories=frozenset({"ground"}),
                   blocked_hexsides=frozenset(k for k, v in tec["hexsides"].items() if v.get("blocks_zoc")))
    return GameData(atlas, tec, crt, crt_raw, factions, countries, kinds, markers, stacking, zoc, country_of)


def _crt(raw: dict) -> CRT:
    table = raw["table"]
    return CRT.from_dict({
        "name": "Dai Senso CRT",
        "case": "Dai Senso 4.2.4",
        "odds": {"method": "ratio", "rounding": "defender", "minimum": "1-3", "case": "Dai Senso 4.2.2",
                 "minimum_case": "Dai Senso 4.2.1.1"},
        "dice": (1, 6),
        "columns": table["columns"],
        "notation": raw["notation"],
        "results": {k: list(v) for k, v in raw["results"].items()},
        "conversions": raw.get("conversions", {}),
    })


def _countries(raw: dict, factions: tuple[str, ...], problems: list[str]) -> dict[str, Country]:
    out = {}
    for cid, c in raw.items():
        where = f"units.toml [country.{cid}]"
        if c.get("faction") not in factions:
            problems.append(f"{where}: faction is one of {', '.join(factions)}")
        if c.get("kind") not in COUNTRY_KINDS:
            problems.append(f"{where}: kind is one of {', '.join(COUNTRY_KINDS)}")
        if c.get("group") not in (None, *GROUPS):
            problems.append(f"{where}: group is one of {', '.join(GROUPS)}")
        if (c.get("kind") == "dependent") != (c.get("dependent_of") is not None):
            problems.append(f"{where}: a dependent names the country it depends on (dependent_of), no other does")
        out[cid] = Country(cid, c.get("name", cid), c.get("faction", ""), c.get("kind", ""),
                           c.get("dependent_of"), c.get("group"))
    for cid, c in out.items():
        if c.dependent_of is not None and c.dependent_of not in out:
            problems.append(f"units.toml [country.{cid}]: dependent_of names no country: {c.dependent_of!r}")
    return out


def _markers(raw: dict, factions, countries, problems: list[str]) -> dict[str, MarkerKind]:
    out = {}
    for mid, m in raw.items():
        where = f"units.toml [marker.{mid}]"
        if m.get("owner") not in MARKER_OWNERS:
            problems.append(f"{where}: owner is one of {', '.join(MARKER_OWNERS)}")
        nations = tuple(m.get("nations", ()))
        problems += [f"{where}: no country {n!r}" for n in nations if n not in countries]
        if m.get("owner") == "nations" and not nations:
            problems.append(f"{where}: a nationality's marker lists its nations")
        problems += [f"{where}: no faction {f!r}" for f in m.get("factions", ()) if f not in factions]
        out[mid] = MarkerKind(mid, m.get("name", mid), m.get("owner", ""), nations,
                              tuple(m.get("factions", ())), bool(m.get("points", False)))
    return out


_KIND_KEYS = {"name", "nations", "type", "steps", "attack", "defense", "ma", "flip", "breaks_to", "class",
              "components", "airdrop", "elite", "exp", "delay", "kwantung", "leaves_game", "attested", "note"}


def _kinds(raw: dict, countries, markers, problems: list[str]) -> dict[str, UnitKind]:
    out = {}
    for kid, k in raw.items():
        where = f"units.toml [kind.{kid}]"
        problems += [f"{where}: unknown key {key!r}" for key in sorted(set(k) - _KIND_KEYS)]
        nations = tuple(k.get("nations", ()))
        if not nations:
            problems.append(f"{where}: nations lists the unit's nationality")
        problems += [f"{where}: no country {n!r}" for n in nations if n not in countries]
        if len({countries[n].faction for n in nations if n in countries}) > 1:
            problems.append(f"{where}: its nations belong to different factions")
        if k.get("type") not in UNIT_TYPES:
            problems.append(f"{where}: type is one of {', '.join(UNIT_TYPES)}")
        numbers = {key: k.get(key) for key in ("steps", "attack", "defense", "ma")}
        for key, value in numbers.items():
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                problems.append(f"{where}: {key} is a whole number, 0 or more")
                numbers[key] = 0
        air = k.get("type") in AIR_TYPES
        if air != (numbers["steps"] == 0) or numbers["steps"] > 3:
            problems.append(f"{where}: ground units have 1 to 3 steps (4.2.6.2), air units none")
        if k.get("airdrop") is not None and k.get("airdrop") not in markers:
            problems.append(f"{where}: airdrop names no marker: {k.get('airdrop')!r}")
        out[kid] = UnitKind(
            kid, k.get("name", kid), nations, k.get("type", ""), numbers["steps"], numbers["attack"],
            numbers["defense"], numbers["ma"], k.get("flip"), k.get("breaks_to"), k.get("class"),
            tuple(k.get("components", ())), k.get("airdrop"),
            *(bool(k.get(f, False)) for f in ("elite", "exp", "delay", "kwantung", "leaves_game")),
        )
    classes = {k.cls for k in out.values() if k.cls}
    for kid, k in out.items():
        where = f"units.toml [kind.{kid}]"
        problems += _step_problems(where, k, out, classes)
    return out


def _step_problems(where: str, k: UnitKind, kinds: Mapping[str, UnitKind], classes: set[str]) -> list[str]:
    """4.2.6.2: how each multi-step kind loses a step must be answerable from the data."""
    out = []
    if k.flip is not None:
        other = kinds.get(k.flip)
        if other is None:
            out.append(f"{where}: flip names no kind: {k.flip!r}")
        elif other.steps != k.steps - 1:
            out.append(f"{where}: its other side {k.flip} must have one step fewer ({k.steps - 1})")
    if k.breaks_to is not None and k.breaks_to not in classes:
        out.append(f"{where}: breaks_to names no class of one-step kinds: {k.breaks_to!r}")
    for comp in k.components:
        if comp not in kinds or kinds[comp].steps != 1:
            out.append(f"{where}: component {comp!r} is not a one-step kind")
    if k.cls is not None and k.steps != 1:
        out.append(f"{where}: only one-step kinds belong to a class")
    if k.steps >= 2 and k.flip is None and k.breaks_to is None and not k.components:
        out.append(f"{where}: a {k.steps}-step kind says how it loses a step (flip, breaks_to or components)")
    if k.steps == 3 and k.flip is None:
        out.append(f"{where}: a three-step unit flips to its two-step side (4.2.6.2)")
    return out


def _tec_problems(atlas: Atlas, tec: dict) -> list[str]:
    out = []
    for prefix, sheet in atlas.sheets.items():
        vocab = sheet.vocabulary
        out += [f"terrain.toml has no [terrain.{t}] for sheet {prefix!r}" for t in sorted(vocab.terrain)
                if t not in tec.get("terrain", {})]
        out += [f"terrain.toml has no [hexsides.{t}] for sheet {prefix!r}" for t in sorted(vocab.hexside)
                if t not in tec.get("hexsides", {})]
        out += [f"terrain.toml has no [features.{t}] for sheet {prefix!r}" for t in sorted(vocab.features)
                if t not in tec.get("features", {})]
    if "all-sea" not in tec.get("hexsides", {}):
        out.append("terrain.toml has no [hexsides.all-sea] (4.2.1.1, 4.2.3.6)")
    return out


__all__ = ["Country", "DataError", "GameData", "MarkerKind", "UnitKind", "build", "load", "load_data"]
