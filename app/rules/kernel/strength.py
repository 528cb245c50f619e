"""Combat strength totals with fractional modifiers (river halving, creek thirds, out-of-supply halving).

Each unit's contribution is its printed strength times the factors of the modifiers that apply to it, kept
as exact fractions. Where the rounding happens is data (`StrengthRule`):

- ``granularity="total"``: sum the exact contributions, then round once. Ichi-Go 11.13 (round up; two
  1-factor units across a river total 1, not 2) and SNC 10.4.1 (only the units crossing the creek or river
  are reduced; "total the adjusted strength ... and then round down").
- ``granularity="unit"``: round each unit's contribution, then sum, for a game that says so per unit.

Modifiers attach to units, so only the units that cross a hexside are reduced (SNC 10.4.1); the defender's
strength can be totalled the same way (e.g. Olympic 14.3 Track 4 multiplies militia strength).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from app.rules.kernel.errors import RuleViolation
from app.rules.kernel.hexgrid import Hex

__all__ = [
    "Contribution",
    "HexsideModifiers",
    "Modifier",
    "StrengthRule",
    "StrengthTotal",
    "hexside_contributions",
    "total_strength",
]

ROUNDINGS = ("up", "down")
GRANULARITIES = ("total", "unit")


def _fraction(value: Any) -> Fraction:
    return Fraction(str(value)) if isinstance(value, str) else Fraction(value)


@dataclass(frozen=True)
class Modifier:
    """A multiplicative strength modifier and the case that imposes it."""

    factor: Fraction
    case: str
    reason: str


@dataclass(frozen=True)
class Contribution:
    """One unit's part of a total: printed strength and the modifiers applied to it."""

    unit: str
    strength: int | Fraction
    modifiers: tuple[Modifier, ...] = ()

    @property
    def exact(self) -> Fraction:
        value = Fraction(self.strength)
        for m in self.modifiers:
            value *= m.factor
        return value


@dataclass(frozen=True)
class StrengthRule:
    """Where and which way a game rounds modified strengths (module docstring)."""

    rounding: str = "down"
    granularity: str = "total"
    case: str = ""

    def __post_init__(self) -> None:
        if self.rounding not in ROUNDINGS:
            raise ValueError(f"unknown strength rounding {self.rounding!r}: expected {', '.join(ROUNDINGS)}")
        if self.granularity not in GRANULARITIES:
            raise ValueError(
                f"unknown strength granularity {self.granularity!r}: expected {', '.join(GRANULARITIES)}"
            )

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> StrengthRule:
        return cls(data.get("rounding", "down"), data.get("granularity", "total"), data.get("case", ""))

    def round(self, value: Fraction) -> int:
        return math.ceil(value) if self.rounding == "up" else math.floor(value)


@dataclass(frozen=True)
class StrengthTotal:
    """The contributions, their exact sum and the rounded total used for the odds."""

    contributions: tuple[Contribution, ...]
    exact: Fraction
    total: int

    @property
    def modified(self) -> bool:
        return any(c.modifiers for c in self.contributions)


def total_strength(contributions: Iterable[Contribution], rule: StrengthRule) -> StrengthTotal:
    """Total the contributions, rounding per ``rule``. Never negative."""
    contributions = tuple(contributions)
    for c in contributions:
        if c.strength < 0 or any(m.factor < 0 for m in c.modifiers):
            raise ValueError(f"{c.unit}: strengths and factors cannot be negative")
    exact = sum((c.exact for c in contributions), Fraction(0))
    if rule.granularity == "total":
        total = rule.round(exact)
    else:
        total = sum(rule.round(c.exact) for c in contributions)
    return StrengthTotal(contributions, exact, total)


@dataclass(frozen=True)
class HexsideModifiers:
    """Attack factors for hexside features crossed to reach the defender: feature -> factor.

    A factor of None marks a hexside no unit may attack across (Ichi-Go 11.13 lake, SNC 10.4.1 all-sea).
    """

    factors: Mapping[str, Fraction | None]
    case: str

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HexsideModifiers:
        """``{"case": "SNC 10.4.1", "factors": {"creek": "1/2", "river": "1/3", "all-sea": None}}``."""
        factors = {k: (None if v is None else _fraction(v)) for k, v in data["factors"].items()}
        return cls(factors, data.get("case", ""))


def hexside_contributions(
    attackers: Iterable[tuple[str, int | Fraction, Hex]],
    defender: Hex,
    hexside_feature: Callable[[Hex, Hex], str | None],
    modifiers: HexsideModifiers,
    extra: Callable[[str], Iterable[Modifier]] | None = None,
) -> tuple[Contribution, ...]:
    """Contributions of attackers ``(unit, strength, from_hex)`` against ``defender``.

    ``hexside_feature(from_hex, defender)`` names the feature of the hexside crossed (None when plain); only
    units crossing a listed feature are modified. ``extra(unit)`` may add other modifiers (e.g. out of
    supply). Raises `RuleViolation` when a unit would attack across a hexside whose factor is None.
    """
    out = []
    for unit, strength, origin in attackers:
        mods: list[Modifier] = []
        feature = hexside_feature(origin, defender)
        if feature is not None and feature in modifiers.factors:
            factor = modifiers.factors[feature]
            if factor is None:
                raise RuleViolation(
                    modifiers.case, f"{unit} in {origin} cannot attack {defender} across {feature}"
                )
            mods.append(Modifier(factor, modifiers.case, f"across {feature}"))
        if extra is not None:
            mods.extend(extra(unit))
        out.append(Contribution(unit, strength, tuple(mods)))
    return tuple(out)
