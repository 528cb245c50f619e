"""How good an odds column is for the attacker, on one scale for every game: the practice opponents compare
attacks by it (app/rules/practice.py). A column's label is read as its table prints it (app/rules/kernel/odds.py
`parse_columns`): a ratio ("3:2", "≤1:5", "6-1") is its value, a percentage ("150%") its hundredth, and a
differential ("+3", Olympic 8.8) the ratio that doubles every 4 points (0 reads as even odds)."""
from __future__ import annotations

from app.rules.kernel.odds import parse_columns


def of(label) -> float | None:
    """The odds `label` stands for as a ratio of attack to defence; None for a label that is no odds column."""
    if isinstance(label, int | float):
        return None  # a column index, not odds: only its table knows what it stands for
    text = str(label).strip()
    if not text:
        return None
    if text.endswith("%"):
        method, scale = "percentage", lambda low: low / 100
    elif text[0] in "+-" or text == "0":
        method, scale = "differential", lambda low: 2 ** (low / 4)
    else:
        method, scale = "ratio", lambda low: low
    try:
        [column] = parse_columns(method, [text])
    except ValueError:
        return None
    return float(scale(column.low))


EVEN = 1.0
GOOD = 1.5  # 3:2: from here an attack is worth making for a practice opponent that weighs nothing else
