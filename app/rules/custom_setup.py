"""Custom set-ups: a game that starts from its own map file and a position file instead of the printed
scenario, for teaching, analysis and test positions (`cli.py new snc --map FILE --position FILE`).

Both travel in the GameCreated event's options (`{"map": TOML text, "position": {...}}`), so replay, audit,
fork and export rebuild the same game without the files. A rule set builds its data from the map text when the
game starts (and when a snapshot is read: the state keeps the map text) and carries it on its state
(`state.data`), so every rule function reads the game's own map there.

A position file (TOML) holds `turn`, `phase`, `[units]` (unit id = hex), `[steps]` (unit id = steps left),
`removed` (ids out of play), `[control]` (side = every tracked hex it controls) and the keys a game adds
(docs/custom-positions.md). Unit ids, phases and hex labels are held to strict patterns, and a position's size
(bytes of its file, entries of each table) is bounded, before anything else is checked ("Limits" there).
"""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, replace
from pathlib import Path

from app import text
from app.rules.kernel.mapfile import MAX_MAP_BYTES

OPTION_KEYS = ("map", "position")
COMMON_KEYS = ("turn", "phase", "units", "steps", "removed", "control")

# Limits and patterns (issue 12): the largest order of battle (Ichi-Go's) has under 450 units.
MAX_POSITION_BYTES = 64 * 1024
MAX_ENTRIES = 1000  # units, steps, removed, and each side's control list
UNIT_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,39}")
PHASE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,31}")
HEX_LABEL = re.compile(r"[a-z]{0,4}[0-9]{4,6}")


class SetupError(ValueError):
    """A custom map or position that cannot start a game; lists every problem found."""

    def __init__(self, source: str, problems: list[str]):
        self.problems = problems
        super().__init__(f"{source}: " + "; ".join(problems))


@dataclass(frozen=True)
class Position:
    """A starting position as read from a position file; the game checks it against its own data."""

    turn: int
    phase: str
    units: dict
    steps: dict
    removed: tuple
    control: dict | None
    extra: dict


def parse_options(options: dict, sides: tuple[str, ...], extra_keys: tuple[str, ...]) -> tuple[str, Position | None]:
    """The custom map text ('' for none) and position in a game's options; SetupError on anything else."""
    unknown = sorted(set(options) - set(OPTION_KEYS))
    if unknown:
        raise SetupError("options", [f"unknown option {k!r} (options: map, position)" for k in unknown])
    text = options.get("map") or ""
    if not isinstance(text, str):
        raise SetupError("options", ["'map' is the text of a TOML map file"])
    raw = options.get("position")
    return text, (None if raw is None else parse_position(raw, sides, extra_keys))


def parse_position(raw, sides: tuple[str, ...], extra_keys: tuple[str, ...]) -> Position:
    if not isinstance(raw, dict):
        raise SetupError("position", ["a position is a table of keys (turn, phase, units, ...)"])
    problems = [f"unknown key {k!r} (keys: {', '.join(COMMON_KEYS + extra_keys)})"
                for k in sorted(set(raw) - set(COMMON_KEYS) - set(extra_keys))]
    sizes = {k: raw.get(k) for k in ("units", "steps", "removed")}
    if isinstance(raw.get("control"), dict):
        sizes |= {f"control {s}": v for s, v in raw["control"].items()}
    too_many = [k for k, v in sizes.items() if _size(v) > MAX_ENTRIES]
    if too_many:
        raise SetupError("position", [f"{k}: more than {MAX_ENTRIES} entries (nothing else was read)"
                                      for k in too_many])
    turn = raw.get("turn")
    if not isinstance(turn, int) or isinstance(turn, bool) or turn < 1:
        problems.append("'turn' is a turn number (1 or more)")
    phase = raw.get("phase")
    if not isinstance(phase, str) or not PHASE.fullmatch(phase):
        problems.append(f"'phase' names the phase the game starts in (a word), not {phase!r}")
    units = _table(raw.get("units", {}), "units", str, problems)
    steps = _table(raw.get("steps", {}), "steps", int, problems)
    removed = raw.get("removed", [])
    if not isinstance(removed, list) or not all(isinstance(x, str) for x in removed):
        problems.append("'removed' is a list of unit ids")
        removed = []
    problems += [f"{uid!r} is not a unit id (letters, digits and - _ . only, at most 40 characters)"
                 for uid in [*units, *steps, *removed] if not UNIT_ID.fullmatch(uid)]
    control = raw.get("control")
    if control is not None:
        if not isinstance(control, dict) or set(control) - set(sides) or not all(
                isinstance(v, list) and all(isinstance(h, str) for h in v) for v in control.values()):
            problems.append(f"'control' maps a side ({', '.join(sides)}) to a list of hexes")
            control = None
    problems += [f"{where}: {h!r} is not a hex label (XXYY)" for where, h in _hexes(units, control)
                 if not HEX_LABEL.fullmatch(h)]
    for uid in sorted(set(units) & set(removed)):
        problems.append(f"{uid} is both placed and removed")
    if problems:
        raise SetupError("position", problems)
    return Position(turn, phase, units, steps, tuple(removed), control,
                    {k: raw[k] for k in extra_keys if k in raw})


def bounded_list(value, name: str, pattern: re.Pattern, what: str, problems: list[str]) -> list[str]:
    """A game's own list of unit ids or hexes (a key beyond the common ones): at most MAX_ENTRIES strings, each
    matching `pattern` (UNIT_ID or HEX_LABEL); [] with the problems named otherwise."""
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        problems.append(f"'{name}' is a list of {what}")
        return []
    if len(value) > MAX_ENTRIES:
        problems.append(f"{name}: more than {MAX_ENTRIES} entries")
        return []
    bad = [v for v in value if not pattern.fullmatch(v)]
    problems += [f"{name}: {v!r} is not {'a hex label (XXYY)' if pattern is HEX_LABEL else 'a unit id'}"
                 for v in bad]
    return [v for v in value if v not in bad]


def counter_values(position, fields: dict, units) -> tuple[dict[str, dict], list[str]]:
    """A position's `[values]`: `unit-id = { field = value, ... }`, a counter's values other than the game's data
    (a scenario designer's or teacher's what-if). `fields` maps each field a game lets a position change to the
    whole numbers (a range) or words (a tuple of strings) it takes; `units` the game's unit ids. Returns the
    changes by unit and the problems found."""
    raw = (position or {}).get("values", {}) if isinstance(position, dict) else {}
    if not isinstance(raw, dict) or len(raw) > MAX_ENTRIES or not all(
            isinstance(k, str) and UNIT_ID.fullmatch(k) and isinstance(v, dict) for k, v in raw.items()):
        return {}, [f"[values] maps unit ids to tables of values ({', '.join(fields)}); at most {MAX_ENTRIES}"]
    changes: dict[str, dict] = {}
    problems = []
    for uid, given in sorted(raw.items()):
        if uid not in units:
            problems.append(f"[values] no unit {uid!r}")
            continue
        for name, value in sorted(given.items()):
            allowed = fields.get(name)
            if allowed is None:
                problems.append(f"[values] {uid}: {name!r} is not a value a position changes "
                                f"({', '.join(fields)})")
            elif isinstance(allowed, range) and not (isinstance(value, int) and not isinstance(value, bool)
                                                     and value in allowed):
                problems.append(f"[values] {uid}: {name} is a whole number from {allowed.start} to "
                                f"{allowed.stop - 1}, not {value!r}")
            elif isinstance(allowed, tuple) and value not in allowed:
                problems.append(f"[values] {uid}: {name} is one of {', '.join(map(repr, allowed))}, not {value!r}")
            else:
                changes.setdefault(uid, {})[name] = value
    return changes, problems


def unforeseen(exc: BaseException) -> str:
    """A short account of an exception met while reading a map or position no reader foresaw (engine
    `Game.initial_state`): its kind and, for a missing key, the key, at most 120 characters of it."""
    what = {KeyError: "no such entry", IndexError: "an index past the end", OverflowError: "a number too large",
            RecursionError: "nested too deeply"}.get(type(exc), "a value of another kind")
    detail = str(exc)[:120]
    return f"{what}: {detail}" if detail else what


def _size(value) -> int:
    return len(value) if isinstance(value, dict | list) else 0


def _hexes(units: dict, control: dict | None):
    """(where, label) for every hex label a position names."""
    yield from ((f"[units] {uid}", h) for uid, h in units.items())
    yield from ((f"[control] {side}", h) for side, hexes in (control or {}).items() for h in hexes)


def _table(value, name: str, kind: type, problems: list[str]) -> dict:
    if not isinstance(value, dict) or not all(isinstance(v, kind) and not isinstance(v, bool)
                                              for v in value.values()):
        problems.append(f"[{name}] maps unit ids to {'hexes' if kind is str else 'numbers'}")
        return {}
    return dict(value)


def place_units(units: dict, position: Position, on_map) -> tuple[dict, list[str]]:
    """The position's units on the map with their steps; the scenario's other at-start units and those named in
    `removed` out of play (status "removed"); reinforcements keep their schedule. Units are dataclasses with
    `hex`, `status`, `steps`, `steps_max` (both games' Unit). Returns the units and the problems found."""
    named = {*position.units, *position.steps, *position.removed}
    problems = [f"no unit {uid!r}" for uid in sorted(named - set(units))]
    problems += [f"{uid}: {h} is not on the map" for uid, h in sorted(position.units.items()) if not on_map(h)]
    out = {}
    for uid, u in units.items():
        if uid in position.units:
            u = replace(u, hex=position.units[uid], status="map")
        elif u.status == "map" or uid in position.removed:
            u = replace(u, hex=None, status="removed")
        if uid in position.steps:
            n = position.steps[uid]
            if not 1 <= n <= u.steps_max:
                problems.append(f"{uid} has 1 to {u.steps_max} steps, not {n}")
            else:
                u = replace(u, steps=n)
        out[uid] = u
    return out, problems


def off_map_units(units: dict, on_map) -> list[str]:
    """Problems for at-start units whose set-up hex the (custom) map lacks."""
    return [f"{u.id} sets up in {u.hex}, which the map lacks: place it (or remove it) in a position file"
            for u in units.values() if u.status == "map" and u.hex and not on_map(u.hex)]


def control_after(default: frozenset, position: Position, side: str, units: dict) -> tuple[frozenset, list[str]]:
    """The hexes `side` controls in the position: the scenario's, changed by [control] (each side's list), then
    every hex occupied by one side's units goes to that side (a unit entering a hex takes it)."""
    occupied: dict = {}
    for u in units.values():
        if u.status == "map" and u.hex:
            occupied.setdefault(u.hex, set()).add(u.side)
    held = set(default)
    problems = []
    control = position.control or {}
    for s, hexes in control.items():
        for h in hexes:
            if s == side:
                held.add(h)
            else:
                held.discard(h)
    both = set(control.get(side, ())) & {h for s, v in control.items() if s != side for h in v}
    problems += [f"{h} is listed under [control] for two sides" for h in sorted(both)]
    for h, sides_there in occupied.items():
        if len(sides_there) > 1:
            problems.append(f"{h} holds units of both sides")
        elif side in sides_there:
            held.add(h)
        else:
            held.discard(h)
    return frozenset(held), problems


def read_files(map_path: str | Path | None, position_path: str | Path | None) -> dict:
    """Game options from a map file and a position file (TOML), as `cli.py new --map --position` reads them."""
    options: dict = {}
    if map_path:
        try:
            options["map"] = _read(map_path, MAX_MAP_BYTES)
        except OSError as exc:
            raise SetupError(str(map_path), [f"cannot read: {exc.strerror}"]) from None
    if position_path:
        try:
            options["position"] = tomllib.loads(_read(position_path, MAX_POSITION_BYTES))
        except OSError as exc:
            raise SetupError(str(position_path), [f"cannot read: {exc.strerror}"]) from None
        except tomllib.TOMLDecodeError as exc:
            raise SetupError(str(position_path), [f"not valid TOML: {exc}"]) from None
        found = text.problem_in(options["position"])  # a TOML escape may write a NUL
        if found:
            raise SetupError(str(position_path), [f"a text of the position {found}"])
    return options


def _read(path: str | Path, limit: int) -> str:
    """A file's text, refused unread when it is larger than `limit` bytes, and refused when it is not text by the
    rule for text from outside (app/text.py: UTF-8, no NUL)."""
    size = Path(path).stat().st_size
    if size > limit:
        raise SetupError(str(path), [f"the file is {size} bytes; at most {limit} (nothing was read)"])
    try:
        return text.checked(text.decoded(Path(path).read_bytes()), "the file")
    except text.TextError as exc:
        raise SetupError(str(path), [str(exc).removeprefix("the file ")]) from None
