"""Combat odds: turn attack and defence strengths into a column of a combat results table.

Three ways of comparing strengths exist among the games, chosen by data (`OddsRule.method`):

- ``"ratio"``: attack divided by defence, columns such as "1:3" .. "6:1" (Ichi-Go 11.6, SNC 10.3,
  Dai Senso 4.2.2). Two rounding conventions (`OddsRule.rounding`):

  * ``"integer"`` (Ichi-Go 11.6-11.7, SNC 10.3): when the attacker is at least as strong, the quotient is
    rounded down to ``n:1``; when weaker ("poor odds"), defence / attack is rounded *up* to ``1:n``.
  * ``"defender"`` (Dai Senso 4.2.2 step 3): the exact ratio snaps to the highest column not above it,
    which keeps fractional columns such as "3:2" reachable.

  On tables whose columns are all ``n:1`` / ``1:n`` the two agree; they differ on fractional columns.
- ``"differential"``: attack minus defence (Olympic 8.8, CRT note 1).
- ``"percentage"``: 100 x attack / defence, rounded per `OddsRule.percent_rounding` (Formosa 15.2 step 4,
  which does not say how; the default rounds down, in the defender's favour).

Values beyond the table's first or last column use that end column (Ichi-Go 11.8, SNC 10.3.1, Dai Senso
4.2.2, Formosa 15.3, Olympic note 1). When is the end reached? ``beyond_ends="clamp"`` clamps the raw odds
before any shift (Dai Senso 4.2.2 step 3, Formosa 15.4 second example); ``"extend"`` keeps counting virtual
columns past the ends so that shifts act on the true odds and only the *final* column is clamped (SNC 10.3.1
speaks of "final odds"). Extension needs evenly stepped ends: n:1 / 1:n ratios or differentials. Under
``"extend"`` a ratio attack of 0 factors lies below every 1:n column, however large n: no number of shifts
brings it onto the table, so it is resolved on the first column (``Odds.virtual_column`` is None); under
``"clamp"`` it is clamped to the first column like any odds below it (combat-kernel rulings, "0-factor attack").

A raw value below `OddsRule.minimum` forbids the attack
(Dai Senso 4.2.1.1: raw 1-3; Olympic note 1: -2); the result then says so and names the case.

Strengths are ints or `fractions.Fraction`; no floats, so the arithmetic is exact.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

__all__ = ["Column", "Odds", "OddsRule", "compute_odds", "format_ratio", "parse_columns", "select_column"]

METHODS = ("ratio", "differential", "percentage")
RATIO_ROUNDINGS = ("integer", "defender")
BEYOND_ENDS = ("clamp", "extend")
PERCENT_ROUNDINGS = ("down", "up", "nearest")

Number = int | Fraction

_OPEN_LOW = re.compile(r"^\s*(?:≤|<=|<)\s*")
_OPEN_HIGH = re.compile(r"^\s*(?:≥|>=|>)\s*")


@dataclass(frozen=True)
class Column:
    """One CRT column: its printed label and the lowest value (on the table's scale) that it covers.

    ``open_low``/``open_high`` record a printed "≤"/"≥" end (informational: every table clamps at its ends).
    """

    label: str
    low: Fraction
    open_low: bool = False
    open_high: bool = False


def _ratio_value(text: str) -> Fraction:
    m = re.fullmatch(r"\s*(\d+)\s*[:\-]\s*(\d+)\s*", text)
    if not m:
        raise ValueError(f"invalid odds column {text!r}: expected 'A:D' or 'A-D', e.g. '3:1', '1-3'")
    a, d = int(m.group(1)), int(m.group(2))
    if a <= 0 or d <= 0:
        raise ValueError(f"invalid odds column {text!r}: both sides must be positive")
    return Fraction(a, d)


def _number_low(text: str, label: str) -> Fraction:
    """Lowest integer of a differential or percentage label: "-2", "+2..+3", "+2, +3", "50-99", "700+"."""
    t = text.replace("%", "").replace("–", "-").replace("−", "-").strip()
    m = re.match(r"^([+-]?\d+)", t)
    if not m:
        raise ValueError(
            f"invalid column {label!r}: expected a number or a range such as '+2..+3' or '50-99%'"
        )
    return Fraction(int(m.group(1)))


def parse_columns(method: str, labels: Sequence[str]) -> tuple[Column, ...]:
    """Columns from printed labels, lowest first; the values must strictly increase.

    ratio: "≤1:5", "1:2", "3:2", "≥10:1", "9-1"; differential: "-2", "+2, +3", "+4..+7", "+10";
    percentage: "≤49%", "50-99%", "300%", "≥700%".
    """
    if method not in METHODS:
        raise ValueError(f"unknown odds method {method!r}: expected one of {', '.join(METHODS)}")
    if not labels:
        raise ValueError("a CRT needs at least one column")
    out: list[Column] = []
    for label in labels:
        text = str(label)
        open_low = bool(_OPEN_LOW.match(text))
        open_high = bool(_OPEN_HIGH.match(text))
        body = _OPEN_HIGH.sub("", _OPEN_LOW.sub("", text))
        if method == "ratio":
            low = _ratio_value(body)
        else:
            low = _number_low(body, text)
        if open_low and method == "percentage":
            low = Fraction(0)  # "≤49%": everything below the next column
        out.append(Column(label=text, low=low, open_low=open_low, open_high=open_high))
    for prev, nxt in zip(out, out[1:], strict=False):
        if nxt.low <= prev.low:
            raise ValueError(f"CRT columns must increase: {prev.label!r} is followed by {nxt.label!r}")
    return tuple(out)


@dataclass(frozen=True)
class OddsRule:
    """How a game compares strengths (see the module docstring); build it from data with `from_dict`."""

    method: str = "ratio"
    rounding: str = "integer"
    percent_rounding: str = "down"
    minimum: Fraction | None = None
    case: str = ""
    minimum_case: str = ""
    beyond_ends: str = "clamp"

    def __post_init__(self) -> None:
        if self.beyond_ends not in BEYOND_ENDS:
            raise ValueError(f"unknown beyond_ends {self.beyond_ends!r}: expected {', '.join(BEYOND_ENDS)}")
        if self.beyond_ends == "extend" and (self.method == "percentage" or self.rounding == "defender"):
            raise ValueError(
                "beyond_ends='extend' needs integer-stepped columns: integer ratios or differentials"
            )
        if self.method not in METHODS:
            raise ValueError(f"unknown odds method {self.method!r}: expected one of {', '.join(METHODS)}")
        if self.rounding not in RATIO_ROUNDINGS:
            raise ValueError(
                f"unknown ratio rounding {self.rounding!r}: expected {', '.join(RATIO_ROUNDINGS)}"
            )
        if self.percent_rounding not in PERCENT_ROUNDINGS:
            raise ValueError(
                f"unknown percent rounding {self.percent_rounding!r}: expected {', '.join(PERCENT_ROUNDINGS)}"
            )

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> OddsRule:
        """Keys: method, rounding, percent_rounding, minimum ("1:3" for ratios, "-2" otherwise), case,
        minimum_case, beyond_ends."""
        method = data.get("method", "ratio")
        minimum = data.get("minimum")
        if minimum is not None:
            minimum = _ratio_value(str(minimum)) if method == "ratio" else Fraction(str(minimum))
        return cls(
            method=method,
            rounding=data.get("rounding", "integer"),
            percent_rounding=data.get("percent_rounding", "down"),
            minimum=minimum,
            case=data.get("case", ""),
            minimum_case=data.get("minimum_case", ""),
            beyond_ends=data.get("beyond_ends", "clamp"),
        )


@dataclass(frozen=True)
class Odds:
    """Where an attack lands on the table before any column shift.

    ``value`` is the rounded comparison on the table's scale (ratio as a Fraction: 3 for 3:1, 1/3 for 1:3;
    differential and percentage as integers); ``label`` prints it ("3:1", "+4", "333%"). ``column`` is the
    index of the column it falls in, clamped to the table (``clamped`` is "low", "high" or None).
    ``virtual_column`` is where shifts start: ``column`` itself, or under ``beyond_ends="extend"`` an index
    past either end (-2 is two columns left of the first), or None for a 0-factor ratio attack, which no shift
    brings onto the table (`shifts.apply_shift` then gives the first column).
    ``allowed`` is False when the raw value is under the rule's minimum; ``refusal`` then names the case.
    ``above`` is True for odds against a defence of 0 under ``beyond_ends="extend"``: they lie above every
    column, however far right, so no shift brings them onto the table (`shifts.apply_shift` then gives the
    last column); ``virtual_column`` is then the last column.
    """

    attack: Number
    defence: Number
    value: Fraction
    label: str
    column: int
    clamped: str | None
    allowed: bool = True
    refusal: str | None = None
    virtual_column: int | None = 0
    above: bool = False


def format_ratio(value: Fraction, sep: str = ":") -> str:
    """3 -> "3:1", 1/3 -> "1:3", 3/2 -> "3:2"."""
    value = Fraction(value)
    if value >= 1 and value.denominator == 1:
        return f"{value.numerator}{sep}1"
    if value > 0 and value.numerator == 1:
        return f"1{sep}{value.denominator}"
    return f"{value.numerator}{sep}{value.denominator}"


def select_column(columns: Sequence[Column], value: Fraction) -> tuple[int, str | None]:
    """Index of the highest column whose low bound is <= value (the defender's side of any gap),
    clamped to the table's ends; second item says which end clamped ("low"/"high") or None."""
    if value < columns[0].low:
        return 0, "low"
    index = 0
    for i, col in enumerate(columns):
        if col.low <= value:
            index = i
    clamped = "high" if index == len(columns) - 1 and value > columns[-1].low else None
    return index, clamped


def _round_percent(exact: Fraction, how: str) -> int:
    if how == "down":
        return math.floor(exact)
    if how == "up":
        return math.ceil(exact)
    return math.floor(exact + Fraction(1, 2))  # "nearest": halves go up


def compute_odds(rule: OddsRule, columns: Sequence[Column], attack: Number, defence: Number) -> Odds:
    """Raw odds and their column. Strengths must be >= 0 (a negative one is a ValueError).

    A defence of 0 (units a what-if position gave a factor of 0) divides into no ratio or percentage: any
    attack is greater odds than every column, so they are the odds "above the extremes" that each table
    resolves on its last column (Ichi-Go 11.8, SNC 10.3.1, Dai Senso 4.2.2 step 3, Formosa 15.3 item 2): under
    ``"clamp"`` the shifts act from the last column (Dai Senso ruling D78), under ``"extend"`` no shift brings
    them back onto the table (``Odds.above``). An attack of 0 against a defence of 0 is an attack of 0 factors
    (its own rule, below). A hex with no defender at all stays a rule of each game (Ichi-Go 11.27)."""
    attack, defence = Fraction(attack), Fraction(defence)
    if attack < 0 or defence < 0:
        raise ValueError(f"strengths cannot be negative: attack {attack}, defence {defence}")
    if rule.method != "differential" and defence == 0:
        return _against_nothing(rule, columns, attack)
    if rule.method == "ratio":
        exact = attack / defence
        if rule.rounding == "integer":
            if attack >= defence:
                value = Fraction(math.floor(exact))
            elif attack == 0:
                value = Fraction(0)
            else:
                value = Fraction(1, math.ceil(defence / attack))
        else:
            index, _ = select_column(columns, exact)
            value = columns[index].low if exact >= columns[0].low else exact
        label = format_ratio(value) if value > 0 else "0"
    elif rule.method == "differential":
        exact = attack - defence
        value = Fraction(math.floor(exact))
        label = f"{int(value):+d}" if value else "0"
    else:
        exact = attack * 100 / defence
        value = Fraction(_round_percent(exact, rule.percent_rounding))
        label = f"{int(value)}%"
    column, clamped = select_column(columns, value)
    virtual: int | None = column
    if rule.beyond_ends == "extend" and clamped:
        steps = _steps_beyond(rule.method, columns, value)
        virtual = None if steps is None else column + steps
    allowed, refusal = True, None
    if rule.minimum is not None and value < rule.minimum:
        allowed = False
        shown = format_ratio(rule.minimum) if rule.method == "ratio" else f"{int(rule.minimum):+d}"
        refusal = f"{rule.minimum_case}: raw odds {label} are below the minimum {shown}; no attack allowed"
    return Odds(attack, defence, value, label, column, clamped, allowed, refusal, virtual)


def _against_nothing(rule: OddsRule, columns: Sequence[Column], attack: Fraction) -> Odds:
    """Odds against a defence of 0 (`compute_odds`): above the last column for any attack; an attack of 0
    is one of 0 factors, below the first column (``"extend"``: no shift brings it onto the table)."""
    if attack == 0:
        virtual = None if rule.beyond_ends == "extend" else 0
        value, label, column, clamped, above = Fraction(0), "0:0", 0, "low", False
    else:
        last = len(columns) - 1
        value, column, clamped, virtual = columns[last].low, last, "high", last
        above = rule.beyond_ends == "extend"
        label = f"{_plain(attack)}:0" if rule.method == "ratio" else f"{_plain(attack)} to 0"
    allowed, refusal = True, None
    if rule.minimum is not None and value < rule.minimum:
        allowed = False
        shown = format_ratio(rule.minimum) if rule.method == "ratio" else f"{int(rule.minimum):+d}"
        refusal = f"{rule.minimum_case}: raw odds {label} are below the minimum {shown}; no attack allowed"
    return Odds(attack, Fraction(0), value, label, column, clamped, allowed, refusal, virtual, above)


def _plain(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def _steps_beyond(method: str, columns: Sequence[Column], value: Fraction) -> int | None:
    """Whole columns between ``value`` and the end column it was clamped to (negative below the table); None
    for a ratio of 0, which lies below every 1:n column."""
    first, last = columns[0].low, columns[-1].low
    if method == "differential":
        return int(value - last) if value > last else int(value - first)
    if value > last:
        if last.denominator != 1:
            raise ValueError(f"cannot extend past {columns[-1].label!r}: not an n:1 column")
        return int(value - last)
    if value == 0:
        return None
    if first.numerator != 1 or value.numerator != 1:
        raise ValueError(f"cannot extend below {columns[0].label!r}: not a 1:n column")
    return -(value.denominator - first.denominator)
