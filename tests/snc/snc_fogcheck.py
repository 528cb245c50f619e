"""Which unit ids a text names, and which a view shows: the generic SNC 6.3 check of histories and emails."""
from __future__ import annotations

import re

from app.rules.snc.rules import RULES

ALL_IDS = sorted(RULES.initial_state("campaign", {}).units)


def named(text: str) -> set[str]:
    """Unit ids named in a text, in full (cn-d87) or without the side prefix (d87), as the order language allows."""
    out = set()
    for uid in ALL_IDS:
        for form in (uid, uid.split("-", 1)[1]):
            if re.search(rf"(?<![\w-]){re.escape(form)}(?![\w-])", text, re.IGNORECASE):
                out.add(uid)
    return out


def seen(view: dict) -> set[str]:
    ids = {u["id"] for st in view["stacks"] for u in st["units"]}
    return ids | {u["id"] for u in view.get("own_off_map", [])}
