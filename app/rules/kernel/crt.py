"""Combat results tables as data, and the result vocabulary parsed into `CombatResult` objects.

A table is loaded from a plain dict (the shape a TOML or JSON file gives):

```
{"name": "...", "case": "Olympic 8.8",
 "odds": {...OddsRule.from_dict keys...},
 "columns": ["-2", "-1", ...],            # or {"japanese": [...], "chinese": [...], "us": [...]}
 "dice": [1, 6],                           # inclusive die range (rows)
 "results": {"1": ["Ae 10/3", ...], ...},  # one row per die, one cell per column
 "notation": {...Notation.from_dict keys...},
 "conversions": {"mud": {"Dr3": "Dr2", "Dr2": "Dr1", "Dr1": "Ex"}}}
```

``columns`` as a dict gives per-attacker odds lines over one shared result grid (Ichi-Go 11.8: "three rows
of odds", each attacker uses its own line). A table whose lines also have their own grids is written as
``"lines": {"japanese": {"columns": [...], "results": {...}}, ...}`` instead of columns/results.

The notation tells how each game's cells read (`Notation`): a numeric pair "a/d" is attacker/defender
losses (Ichi-Go 11.20, SNC 10.5.1, Dai Senso 4.2.4.2) or named values (Olympic note 4: casualty points);
tokens ("DE", "Dr{n}", "Ad", "A1", "CA", ...) map to effects. ``{n}`` in a token captures a count.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from app.rules.kernel.odds import Column, OddsRule, parse_columns

__all__ = ["CRT", "CombatResult", "Notation", "SideResult", "convert_tokens"]

_PAIR_RE = re.compile(r"^(\d+)/(\d+)$")
_SIDE_KEYS = ("losses", "eliminated", "retreat", "retreat_or_loss")


@dataclass(frozen=True)
class SideResult:
    """What a result does to one side.

    ``losses``: steps (or whole units, per the table's ``loss_unit``) to remove. ``eliminated``: every unit
    of the side involved is removed (DE/AE). ``retreat``: hexes to retreat. ``retreat_or_loss``: the side may
    take one loss per hex instead of retreating (Dai Senso 4.2.4.1 Ad, Ex).
    """

    losses: int = 0
    eliminated: bool = False
    retreat: int = 0
    retreat_or_loss: bool = False

    def merged(self, other: SideResult) -> SideResult:
        return SideResult(
            self.losses + other.losses,
            self.eliminated or other.eliminated,
            self.retreat + other.retreat,
            self.retreat_or_loss or other.retreat_or_loss,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "losses": self.losses,
            "eliminated": self.eliminated,
            "retreat": self.retreat,
            "retreat_or_loss": self.retreat_or_loss,
        }


@dataclass(frozen=True)
class CombatResult:
    """A parsed CRT cell. ``code`` is the printed text; ``exchange`` marks an exchange (Olympic 8.9 Ex,
    Dai Senso 4.2.4.1 Ex); ``markers`` hold game-specific outcomes the kernel does not interpret
    ("counterattack", "bloodbath"); ``values`` hold named numbers such as casualty points."""

    code: str
    attacker: SideResult = SideResult()
    defender: SideResult = SideResult()
    exchange: bool = False
    markers: frozenset[str] = frozenset()
    values: tuple[tuple[str, int], ...] = ()

    def value(self, name: str) -> int:
        for k, v in self.values:
            if k == name:
                return v
        raise KeyError(f"result {self.code!r} has no value {name!r}")

    @property
    def no_effect(self) -> bool:
        return (
            self.attacker == SideResult()
            and self.defender == SideResult()
            and not self.exchange
            and not self.markers
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "attacker": self.attacker.to_dict(),
            "defender": self.defender.to_dict(),
            "exchange": self.exchange,
            "markers": sorted(self.markers),
            "values": dict(self.values),
        }


def _side(spec: Mapping[str, Any], n: int | None, token: str) -> SideResult:
    unknown = set(spec) - set(_SIDE_KEYS)
    if unknown:
        raise ValueError(f"token {token!r}: unknown side effect(s) {sorted(unknown)}; expected {_SIDE_KEYS}")
    kwargs = {}
    for key, val in spec.items():
        if val == "n":
            if n is None:
                raise ValueError(f"token {token!r} uses 'n' but has no '{{n}}' in its name")
            val = n
        kwargs[key] = val
    return SideResult(**kwargs)


@dataclass(frozen=True)
class _Token:
    pattern: re.Pattern[str]
    spec: Mapping[str, Any]
    name: str

    def parse(self, text: str) -> CombatResult | None:
        m = self.pattern.fullmatch(text)
        if not m:
            return None
        n = int(m.group("n")) if "n" in m.groupdict() else None
        spec = self.spec
        unknown = set(spec) - {"attacker", "defender", "exchange", "markers"}
        if unknown:
            raise ValueError(f"token {self.name!r}: unknown key(s) {sorted(unknown)}")
        return CombatResult(
            code=text,
            attacker=_side(spec.get("attacker", {}), n, self.name),
            defender=_side(spec.get("defender", {}), n, self.name),
            exchange=bool(spec.get("exchange", False)),
            markers=frozenset(spec.get("markers", ())),
        )


@dataclass(frozen=True)
class Notation:
    """How one game prints results. Build with `from_dict`:

    ``{"pair": "losses" | ["name_left", "name_right"] | None, "tokens": {"DE": {"defender":
    {"eliminated": true}}, "Dr{n}": {"defender": {"retreat": "n"}}, "NE": {}}, "case_sensitive": true}``.
    A cell is whitespace-separated tokens whose effects add up ("Dr3 0/1", "Ae 10/3"); "" or "-" is no effect.
    """

    tokens: tuple[_Token, ...] = ()
    pair: str | tuple[str, str] | None = "losses"
    case_sensitive: bool = True

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Notation:
        case_sensitive = data.get("case_sensitive", True)
        flags = 0 if case_sensitive else re.IGNORECASE
        tokens = []
        for name, spec in data.get("tokens", {}).items():
            body = re.escape(name).replace(re.escape("{n}"), r"(?P<n>\d+)")
            tokens.append(_Token(re.compile(body, flags), spec, name))
        pair = data.get("pair", "losses")
        if isinstance(pair, list | tuple):
            if len(pair) != 2:
                raise ValueError(f"notation pair must name two values, got {pair!r}")
            pair = (str(pair[0]), str(pair[1]))
        elif pair not in ("losses", None):
            raise ValueError(f"notation pair must be 'losses', two names or null, got {pair!r}")
        return cls(tuple(tokens), pair, case_sensitive)

    def parse(self, cell: str) -> CombatResult:
        """Parse one printed cell; ValueError naming the cell and the token it cannot read."""
        text = " ".join(str(cell).split())
        result = CombatResult(code=text)
        if text in ("", "-", "—"):
            return result
        for part in text.split(" "):
            result = _combine(result, self._parse_part(part, text))
        return replace(result, code=text)

    def _parse_part(self, part: str, cell: str) -> CombatResult:
        m = _PAIR_RE.match(part)
        if m and self.pair is not None:
            left, right = int(m.group(1)), int(m.group(2))
            if self.pair == "losses":
                return CombatResult(part, SideResult(losses=left), SideResult(losses=right))
            return CombatResult(part, values=((self.pair[0], left), (self.pair[1], right)))
        for token in self.tokens:
            parsed = token.parse(part)
            if parsed is not None:
                return parsed
        known = ", ".join(t.name for t in self.tokens) or "none"
        raise ValueError(
            f"cannot read {part!r} in result {cell!r}: known tokens {known}"
            + ("; numeric pairs a/d" if self.pair else "")
        )


def _combine(a: CombatResult, b: CombatResult) -> CombatResult:
    names = {k for k, _ in a.values} & {k for k, _ in b.values}
    if names:
        raise ValueError(f"result gives {sorted(names)} twice")
    return CombatResult(
        code=a.code,
        attacker=a.attacker.merged(b.attacker),
        defender=a.defender.merged(b.defender),
        exchange=a.exchange or b.exchange,
        markers=a.markers | b.markers,
        values=a.values + b.values,
    )


def convert_tokens(code: str, mapping: Mapping[str, str]) -> str:
    """Replace whole tokens of a printed result ("Dr1 0/1" with {"Dr1": "Ex"} -> "Ex 0/1")."""
    return " ".join(mapping.get(t, t) for t in str(code).split())


@dataclass(frozen=True)
class _Line:
    columns: tuple[Column, ...]
    grid: Mapping[int, tuple[CombatResult | None, ...]]


@dataclass(frozen=True)
class CRT:
    """A loaded table; see the module docstring for the data shape. Single-line tables use line "all"."""

    name: str
    case: str  # the rules case the table is printed under; a preview names it beside the table's name
    odds: OddsRule
    dice: tuple[int, ...]
    lines: Mapping[str, _Line]
    notation: Notation
    loss_unit: str = "step"
    conversions: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CRT:
        name = data.get("name", "CRT")
        odds = OddsRule.from_dict(data.get("odds", {}))
        lo, hi = data.get("dice", (1, 6))
        dice = tuple(range(int(lo), int(hi) + 1))
        notation = Notation.from_dict(data.get("notation", {}))
        lines: dict[str, _Line] = {}
        if "lines" in data:
            for line, spec in data["lines"].items():
                cols = parse_columns(odds.method, spec["columns"])
                lines[line] = _Line(cols, _grid(spec["results"], dice, len(cols), notation, f"{name} {line}"))
        else:
            columns = data["columns"]
            by_line = columns if isinstance(columns, Mapping) else {"all": columns}
            parsed = {line: parse_columns(odds.method, labels) for line, labels in by_line.items()}
            widths = {len(c) for c in parsed.values()}
            if len(widths) != 1:
                raise ValueError(
                    f"{name}: odds lines over one grid must have equally many columns, got {widths}"
                )
            grid = _grid(data["results"], dice, widths.pop(), notation, name)
            lines = {line: _Line(cols, grid) for line, cols in parsed.items()}
        loss_unit = data.get("loss_unit", "step")
        if loss_unit not in ("step", "unit"):
            raise ValueError(f"{name}: loss_unit must be 'step' or 'unit', got {loss_unit!r}")
        return cls(
            name,
            data.get("case", ""),
            odds,
            dice,
            lines,
            notation,
            loss_unit,
            dict(data.get("conversions", {})),
        )

    def _line(self, line: str | None) -> _Line:
        if line is None:
            if len(self.lines) != 1:
                raise ValueError(f"{self.name} has lines {sorted(self.lines)}: say which one")
            return next(iter(self.lines.values()))
        try:
            return self.lines[line]
        except KeyError:
            raise ValueError(f"{self.name} has no line {line!r}; lines: {sorted(self.lines)}") from None

    def columns(self, line: str | None = None) -> tuple[Column, ...]:
        return self._line(line).columns

    def column_index(self, label: str, line: str | None = None) -> int:
        for i, col in enumerate(self.columns(line)):
            if col.label == label:
                return i
        raise ValueError(f"{self.name}: no column {label!r}")

    def lookup(
        self, column: int, die: int, line: str | None = None, conversion: str | None = None
    ) -> CombatResult:
        """The result at a column index and die roll; ``conversion`` names a token mapping to apply first
        (Dai Senso 4.2.4.1 weather: Dr3 -> Dr2 ...)."""
        ln = self._line(line)
        if not 0 <= column < len(ln.columns):
            raise ValueError(f"{self.name}: column index {column} outside 0..{len(ln.columns) - 1}")
        if die not in ln.grid:
            raise ValueError(f"{self.name}: die roll {die} outside {self.dice[0]}..{self.dice[-1]}")
        result = ln.grid[die][column]
        if result is None:
            raise LookupError(
                f"{self.name}: the cell at {ln.columns[column].label}, die {die} is not known "
                "(the printed table is needed)"
            )
        if conversion is not None:
            if conversion not in self.conversions:
                raise ValueError(
                    f"{self.name}: no conversion {conversion!r}; known {sorted(self.conversions)}"
                )
            return self.notation.parse(convert_tokens(result.code, self.conversions[conversion]))
        return result

    def cell(self, label: str, die: int, line: str | None = None) -> CombatResult:
        """The result under a printed column label, e.g. ``cell("2:1", 6, line="japanese")``."""
        return self.lookup(self.column_index(label, line), die, line)


def _grid(
    rows: Mapping[Any, Sequence[str]], dice: tuple[int, ...], width: int, notation: Notation, name: str
) -> dict[int, tuple[CombatResult | None, ...]]:
    """Parse the rows; a None cell is unknown (a partial table rebuilt from the rules' examples)."""
    grid: dict[int, tuple[CombatResult | None, ...]] = {}
    keys = {int(k): v for k, v in rows.items()}
    if set(keys) != set(dice):
        raise ValueError(f"{name}: rows {sorted(keys)} do not match dice {dice[0]}..{dice[-1]}")
    for die, cells in keys.items():
        if len(cells) != width:
            raise ValueError(f"{name}: die {die} row has {len(cells)} cells for {width} columns")
        grid[die] = tuple(None if c is None else notation.parse(c) for c in cells)
    return grid
