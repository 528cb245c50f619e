"""Given a position, when an order, then events or a refusal: helpers for the Formosa engine tests."""
from __future__ import annotations

import re
import tomllib
from dataclasses import replace
from pathlib import Path

import pytest

from app.events.core import DieRolled
from app.events.dice import RecordedDice
from app.rules.errors import IllegalOrder
from app.rules.formosa import GAME
from app.rules.formosa.state import OUT

DOCS = Path(__file__).resolve().parents[2] / "docs" / "custom-positions.md"

START = GAME.initial_state("1", {})


def given(step: str = "allied-combat", turn: int = 2, units: dict[str, str] | None = None,
          concealed: tuple[str, ...] = (), **fields):
    """A position: only `units` (id -> hex or display) in play, everything else out of the game; Japanese units
    revealed unless named in `concealed`; no LP unless `lp` is given (so no defender is asked for LP, F22)."""
    fields.setdefault("lp", {"allied": 0, "japanese": 0})
    placed = {uid: replace(u, where=OUT) for uid, u in START.units.items()}
    for uid, where in (units or {}).items():
        placed[uid] = replace(placed[uid], where=where, concealed=uid in concealed)
    return replace(START, step=step, turn=turn, units=placed, to_place=(), **fields)


def when(state, side: str, order: str, rolls=()) -> list:
    command = GAME.parse(order, side, state)
    return GAME.decide(state, command, RecordedDice(next_index=0, recorded=list(rolls)))


def after(state, events: list):
    for e in events:
        if not isinstance(e, DieRolled):
            state = GAME.evolve(state, e)
    return state


def play(state, side: str, order: str, rolls=()):
    return after(state, when(state, side, order, rolls))


def refused(state, side: str, order: str, case: str) -> str:
    with pytest.raises(IllegalOrder) as err:
        when(state, side, order)
    assert err.value.case == case, str(err.value)
    return str(err.value)


def of(events: list, kind: type) -> list:
    return [e for e in events if isinstance(e, kind)]


def documented_position(n: int) -> dict:
    """The `n`th TOML block of docs/custom-positions.md's Formosa section: each documented position is played."""
    section = DOCS.read_text(encoding="utf-8").partition("### Operation Causeway: Formosa")[2]
    return tomllib.loads(re.findall(r"```toml\n(.*?)```", section, re.S)[n])
