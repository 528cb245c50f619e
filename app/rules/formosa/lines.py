"""A unit's line of supply as the engine uses it (19.0-19.5): `State.supply_line` traces it; using it here also
reveals a concealed static unit the first time a Japanese unit takes it as its supply source (19.3, ruling
F82). Every order that asks whether a unit is in supply (8.3 replacement, 19.5) asks through `line`."""
from __future__ import annotations

from app.rules.engine.decision import Decision
from app.rules.formosa.events import UnitRevealed
from app.rules.formosa.state import State, Unit


def line(d: Decision, u: Unit):
    """`u`'s line (or True for units that need none, or None); a concealed static at its source is revealed."""
    state: State = d.state
    found = state.supply_line(u)
    if found and found is not True and u.side == "japanese":
        source = str(found.source)
        for x in state.at(source, "japanese"):
            if x.concealed and state.japanese_source(x):
                d.emit(UnitRevealed(x.id, source, "Formosa 19.3"))
    return found
