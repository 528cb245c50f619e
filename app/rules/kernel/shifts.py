"""Column shifts: each keeps the rules case that grants it, so a preview can list why the odds moved.

Sign convention: positive amounts shift right (toward the attacker), negative left (toward the defender)
(Ichi-Go 11.9, SNC 10.4, Formosa 15.4, Dai Senso 4.2.2 step 4). All shifts are netted first and the net is
applied once (SNC 10.4: "one final left or right shift"; Formosa 15.4: defender's shifts subtracted from the
attacker's), then the result is clamped to the table's ends (Dai Senso 4.2.2 step 4, Formosa 15.3 item 3
and 15.4, SNC 10.3.1).

Some games cap a family of shifts: SNC 10.4.1 allows at most two left shifts for terrain; Ichi-Go 11.18 at
most one column for airpower. A shift may carry a ``group`` name, and `net_shifts` takes caps per group.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Cap", "NetShift", "Shift", "apply_shift", "hexside_shift", "net_shifts", "shift_from_text"]

_SHIFT_RE = re.compile(r"^\s*(\d+)\s*([LR])\s*$", re.IGNORECASE)
_STORED_RE = re.compile(r"^\s*(?:(\d+)([LR])|0)\s*\((.+?): (.*)\)\s*$", re.IGNORECASE)
_CASE_RE = re.compile(r"^\s*([^:]+?):\s*(.*)$")


@dataclass(frozen=True)
class Shift:
    """``amount`` columns (+ right, - left), the ``case`` granting it, a short ``reason`` for the preview."""

    amount: int
    case: str
    reason: str
    group: str | None = None

    @classmethod
    def parse(cls, text: str, case: str, reason: str, group: str | None = None) -> Shift:
        """Shift from the rulebooks' notation: "1L" -> -1, "2R" -> +2."""
        m = _SHIFT_RE.match(text) if isinstance(text, str) else None
        if not m:
            raise ValueError(f"invalid shift {text!r}: expected a count and L or R, e.g. '1L', '2R'")
        n = int(m.group(1))
        return cls(-n if m.group(2).upper() == "L" else n, case, reason, group)

    @property
    def notation(self) -> str:
        """ "1L", "2R" or "0"."""
        if self.amount == 0:
            return "0"
        return f"{abs(self.amount)}{'R' if self.amount > 0 else 'L'}"

    def __str__(self) -> str:
        return f"{self.notation} ({self.case}: {self.reason})"

    def to_dict(self) -> dict[str, Any]:
        return {
            "amount": self.amount,
            "notation": self.notation,
            "case": self.case,
            "reason": self.reason,
            "group": self.group,
        }


@dataclass(frozen=True)
class Cap:
    """Most columns a group of shifts may move left and right in one battle (None = unlimited)."""

    left: int | None = None
    right: int | None = None
    case: str = ""

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Cap:
        return cls(left=data.get("left"), right=data.get("right"), case=data.get("case", ""))


@dataclass(frozen=True)
class NetShift:
    """The shifts as granted, each capped group's (raw, kept) totals, and the net amount to apply."""

    shifts: tuple[Shift, ...]
    net: int
    capped: Mapping[str, tuple[int, int]] = field(default_factory=dict)

    @property
    def notation(self) -> str:
        return Shift(self.net, "", "").notation


def net_shifts(shifts: Iterable[Shift], caps: Mapping[str, Cap] | None = None) -> NetShift:
    """Net the shifts; a group with a cap contributes at most its cap in each direction."""
    shifts = tuple(shifts)
    caps = dict(caps or {})
    by_group: dict[str | None, int] = {}
    for s in shifts:
        by_group[s.group] = by_group.get(s.group, 0) + s.amount
    net = 0
    capped: dict[str, tuple[int, int]] = {}
    for group, total in by_group.items():
        kept = total
        cap = caps.get(group) if group is not None else None
        if cap is not None:
            if cap.left is not None and kept < -cap.left:
                kept = -cap.left
            if cap.right is not None and kept > cap.right:
                kept = cap.right
            if kept != total:
                capped[group] = (total, kept)
        net += kept
    return NetShift(shifts, net, capped)


def apply_shift(start: int | None, net: int, n_columns: int, above: bool = False) -> tuple[int, str | None]:
    """Final column index after moving ``net`` columns from ``start`` (which may lie past an end under
    `odds.OddsRule.beyond_ends="extend"`), clamped to ``0..n_columns-1``; second item names the end hit.
    ``start`` None lies infinitely far left of the first column (a 0-factor attack, `odds.Odds`): every
    shift leaves it on the first column. ``above`` True: the start lies infinitely far right (odds against a
    defence of 0 under "extend", `odds.Odds.above`): every shift leaves it on the last column."""
    if n_columns < 1:
        raise ValueError("a CRT needs at least one column")
    if above:
        return n_columns - 1, "high"
    if start is None:
        return 0, "low"
    target = start + net
    if target < 0:
        return 0, "low"
    if target > n_columns - 1:
        return n_columns - 1, "high"
    return target, None


def hexside_shift(amounts: Iterable[int], *, plain_counts: bool) -> int:
    """The one hexside shift a defender gets: the smallest among the hexsides attacked across.

    ``amounts`` holds, for every hexside some attacker crosses, that hexside's shift (negative = left,
    0 for a hexside with no feature). Only one hexside shift applies, the lowest (Dai Senso 4.2.3.8).
    ``plain_counts=True``: a featureless hexside among them cancels it, because every attacker must cross a
    shifting hexside (Formosa 15.4.1, Terrain). ``False``: only featured hexsides are compared.
    """
    amounts = list(amounts)
    considered = amounts if plain_counts else [a for a in amounts if a != 0]
    if not considered:
        return 0
    if any(a > 0 for a in considered):
        raise ValueError(f"hexside shifts favour the defender and must be <= 0, got {considered}")
    return max(considered)


def shift_from_text(text: str) -> dict[str, Any]:
    """A shift as events store it (`str(Shift)`: "1L (SNC 10.4.1: city)") back as {amount, case, reason}.

    A note that is no shift ("Ichi-Go 11.27: every defender zero") reads as amount 0 with its case; any other
    text as amount 0, case "" and the text as the reason. Used by the replay's combat panels."""
    m = _STORED_RE.match(text)
    if m:
        n = int(m.group(1)) if m.group(1) else 0
        return {"amount": -n if (m.group(2) or "").upper() == "L" else n, "case": m.group(3), "reason": m.group(4)}
    m = _CASE_RE.match(text)
    if m:
        return {"amount": 0, "case": m.group(1), "reason": m.group(2)}
    return {"amount": 0, "case": "", "reason": text}
