"""Which unit ids a text names, and which a view shows: the generic SNC 6.3 check of histories and emails."""
from __future__ import annotations

import re

from app.rules.snc import GAME as RULES

ALL_IDS = sorted(RULES.initial_state("campaign", {}).units)
# every way a text may name a unit, lower case: in full (cn-d87) or without the side prefix (d87), as the order
# language allows; "gar-a" names both sides' garrison A
_FORMS: dict[str, set[str]] = {}
for _uid in ALL_IDS:
    for _form in (_uid, _uid.split("-", 1)[1]):
        _FORMS.setdefault(_form.lower(), set()).add(_uid)


def named(text: str) -> set[str]:
    """Unit ids named in a text: a whole word of letters, digits, '_' and '-' that is one of their forms."""
    return set().union(*(_FORMS.get(w, ()) for w in set(re.findall(r"[\w-]+", text.lower()))))


def seen(view: dict) -> set[str]:
    ids = {u["id"] for st in view["stacks"] for u in st["units"]}
    return ids | {u["id"] for u in view.get("own_off_map", [])}
