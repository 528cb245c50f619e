"""A Formosa scenario 1 position for the greedy tests (tests/engine/test_greedy_edition8.py and ..9.py)."""
from __future__ import annotations

from dataclasses import replace

from app.rules.formosa import GAME as FORMOSA
from app.rules.formosa.state import OUT


def allied(step: str, lp: int, where: dict[str, str], turn: int = 3):
    """Formosa scenario 1 at `step` of GT `turn`: the Allied units of `where` placed (a display or a hex), a revealed
    Japanese regiment far inland, every other unit out of play, `lp` Allied LP."""
    start = FORMOSA.initial_state("1", {})
    units = {uid: replace(u, where=OUT) for uid, u in start.units.items()}
    for uid, place in where.items():
        units[uid] = replace(start.units[uid], where=place)
    units["jp-50-301"] = replace(start.units["jp-50-301"], where="1622", concealed=False)
    return replace(start, step=step, turn=turn, units=units, to_place=(), lp={"allied": lp, "japanese": 0},
                   rules_version=19)  # the list these tests read: Formosa rules 20 lists more (rulings F155-F162)
