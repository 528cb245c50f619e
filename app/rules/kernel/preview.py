"""Attack preview: everything a player needs to judge an attack before the die is rolled.

Plain data (`Preview`), rendered by `Preview.to_dict` (JSON) and `Preview.to_text`: raw strengths, raw odds,
every shift with the case that grants it, the final column, and the result of every die roll. The same
function backs resolution, so a preview can never disagree with the attack it describes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from app.rules.kernel.crt import CRT, CombatResult
from app.rules.kernel.odds import Odds, compute_odds
from app.rules.kernel.shifts import Cap, NetShift, Shift, apply_shift, net_shifts
from app.rules.kernel.strength import StrengthTotal

__all__ = ["Preview", "preview_attack", "strength_lines"]


def _num(x: Fraction | int) -> int | str:
    x = Fraction(x)
    return int(x) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


@dataclass(frozen=True)
class Preview:
    """A proposed attack on one CRT line. ``results`` is None when the attack is not allowed."""

    table: str
    line: str | None
    attack: StrengthTotal | int | Fraction
    defence: StrengthTotal | int | Fraction
    odds: Odds
    shifts: NetShift
    column: int
    column_label: str
    clamped: str | None
    results: tuple[tuple[int, CombatResult | None], ...] | None
    case: str = ""  # the rules case of the table (CRT.case)

    @property
    def allowed(self) -> bool:
        return self.odds.allowed

    def result(self, die: int) -> CombatResult | None:
        for d, r in self.results or ():
            if d == die:
                return r
        raise ValueError(f"no die roll {die} in this preview")

    def to_dict(self) -> dict[str, Any]:
        def strength(s: StrengthTotal | int | Fraction) -> dict[str, Any]:
            if isinstance(s, StrengthTotal):
                return {
                    "total": s.total,
                    "exact": _num(s.exact),
                    "units": [
                        {
                            "unit": c.unit,
                            "strength": _num(c.strength),
                            "value": _num(c.exact),
                            "modifiers": [
                                {"factor": _num(m.factor), "case": m.case, "reason": m.reason}
                                for m in c.modifiers
                            ],
                        }
                        for c in s.contributions
                    ],
                }
            return {"total": _num(s)}

        return {
            "table": self.table,
            "table_case": self.case,
            "line": self.line,
            "attack": strength(self.attack),
            "defence": strength(self.defence),
            "raw_odds": self.odds.label,
            "raw_column": self.odds.virtual_column,
            "allowed": self.odds.allowed,
            "refusal": self.odds.refusal,
            "shifts": [s.to_dict() for s in self.shifts.shifts],
            "capped": {g: {"granted": a, "kept": b} for g, (a, b) in self.shifts.capped.items()},
            "net_shift": self.shifts.net,
            "column": self.column,
            "column_label": self.column_label,
            "clamped": self.clamped,
            "results": None
            if self.results is None
            else [{"die": d, "result": None if r is None else r.to_dict()} for d, r in self.results],
        }

    def to_text(self) -> str:
        def total(s: StrengthTotal | int | Fraction) -> str:
            return str(s.total) if isinstance(s, StrengthTotal) else str(_num(s))

        lines = [
            f"{self.table}" + (f" ({self.line} line)" if self.line else "") + (f", {self.case}" if self.case else ""),
            f"Strength {total(self.attack)} vs {total(self.defence)}: raw odds {self.odds.label}",
        ]
        for name, s in (("attack", self.attack), ("defence", self.defence)):
            lines += strength_lines(name, s)
        if not self.odds.allowed:
            lines.append(f"Not allowed: {self.odds.refusal}")
            return "\n".join(lines)
        for s in self.shifts.shifts:
            lines.append(f"  {s}")
        for group, (granted, kept) in self.shifts.capped.items():
            was, now = Shift(granted, "", "").notation, Shift(kept, "", "").notation
            lines.append(f"  {group} shifts capped: {was} -> {now}")
        end = f" (table {self.clamped} end)" if self.clamped else ""
        lines.append(f"Net shift {self.shifts.notation}: column {self.column_label}{end}")
        for die, r in self.results or ():
            lines.append(f"  {die}: {'unknown' if r is None else (r.code or 'no effect')}")
        return "\n".join(lines)


def strength_lines(name: str, s: StrengthTotal | int | Fraction) -> list[str]:
    """Why a total is what it is: each unit's printed strength and every modifier with its case (the text the
    JSON's `units` carry), then the rounding, where the exact sum is not the total."""
    if not isinstance(s, StrengthTotal):
        return []
    lines = []
    for c in s.contributions:
        mods = "".join(f" x{_num(m.factor)} ({m.reason}, {m.case})" for m in c.modifiers)
        lines.append(f"  {name}: {c.unit} {_num(c.strength)}{mods}" + (f" = {_num(c.exact)}" if mods else ""))
    if Fraction(s.exact) != s.total:
        lines.append(f"  {name} total {_num(s.exact)} rounded to {s.total}")
    return lines


def preview_attack(
    crt: CRT,
    attack: StrengthTotal | int | Fraction,
    defence: StrengthTotal | int | Fraction,
    shifts: Iterable[Shift] = (),
    caps: Mapping[str, Cap] | None = None,
    line: str | None = None,
    conversion: str | None = None,
) -> Preview:
    """Odds on ``crt`` (on ``line`` for multi-line tables), shifts netted with ``caps`` and applied, and the
    result per die roll (cells a partial table does not know are None)."""
    a = attack.total if isinstance(attack, StrengthTotal) else attack
    d = defence.total if isinstance(defence, StrengthTotal) else defence
    columns = crt.columns(line)
    odds = compute_odds(crt.odds, columns, a, d)
    net = net_shifts(shifts, caps)
    column, clamped = apply_shift(odds.virtual_column, net.net, len(columns), odds.above)
    results = None
    if odds.allowed:
        rows = []
        for die in crt.dice:
            try:
                rows.append((die, crt.lookup(column, die, line, conversion)))
            except LookupError:
                rows.append((die, None))
        results = tuple(rows)
    return Preview(
        crt.name, line, attack, defence, odds, net, column, columns[column].label, clamped, results, crt.case
    )
