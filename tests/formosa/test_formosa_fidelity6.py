"""Formosa departures from the text found by issue 30's third fidelity pass, fixed under rules version 6; each is
tested under version 6 and as a game created under version 5 still decides it (ruling F112, docs/core.md "Rules
versions")."""
from __future__ import annotations

from dataclasses import replace

import pytest
from formosa_given import given, of, play, refused, when
from formosa_map import D, M

from app.rules.formosa import played_under
from app.rules.formosa.events import CombatResolved, UnitEliminated


def _base_on_a_field():
    """An airfield that is no port, two hexes from a port, and a Japanese hex next to the field away from the port
    whose ZOC leaves the field a line to the port (for a unit with the movement factor to trace it)."""
    for f in sorted(D.airfields()):
        if f in D.ports():
            continue
        for p in sorted(D.ports()):
            if M.distance(f, p) != 2:
                continue
            for j in sorted(M.neighbours(f)):
                if not D.is_land(j) or M.distance(j, p) != 3 or M.hexside_features(f, j):
                    continue
                state = given(step="japanese-combat", units={"us-eng-1": str(p), "us-eng-2": str(f),
                                                             "jp-9-7": str(j)}, lp={"allied": 2, "japanese": 0})
                state = state.with_units(replace(state.units["us-eng-1"], base=True),
                                         replace(state.units["us-eng-2"], base=True))
                if played_under(state, "5").supply_line(state.units["us-eng-2"]):
                    return state, str(f), str(j)
    raise LookupError("no base on a field")


@pytest.mark.parametrize("version", [6, 5])
def test_19_1_an_engineer_base_traces_with_the_movement_factor_of_its_base_side_none_f112(version):
    state, field, _j = _base_on_a_field()
    state = played_under(state, str(version))
    state = play(state, "japanese", f"attack {field} with jp-9-7")
    assert state.pending[0]["kind"] == "defence" and state.pending[0]["side"] == "allied"
    # 8.3: a base eliminated where it stands goes where its line sends it
    gone = {e.to for die in range(1, 7) for e in of(when(state, "allied", "defend", [die, 3, 3, 3]), UnitEliminated)
            if e.unit == "us-eng-2"}
    if version == 5:  # the base traced with its engineer side's 5 hexes
        assert of(when(state, "allied", "defend lp 1", [6]), CombatResolved)
        assert gone == {"allied-replacements"}
        return
    # 19.1: a line is as long as the unit's printed movement factor; a base is static (2.4), its side prints none
    why = refused(state, "allied", "defend lp 1", "Formosa 15.4.1, 19.5")
    assert "no defending unit traces a line of supply" in why
    assert gone == {"allied-eliminated"}  # without a line: never to be replaced
