"""Dai Senso, issue 30 part 18: the chapter's opening clarification (the Western and Soviet factions are enemies to
each other, so combat may occur between them) played from a position (ruling D87, rules version 21)."""

from __future__ import annotations

import pytest

from app.rules.custom_setup import SetupError
from app.rules.daisenso import GAME
from app.rules.daisenso.events import CombatResolved
from tests.daisenso.helpers import drop, orders, preview, refused, scenario, step, unit, when

CIVIL_WAR = [  # the Chinese civil war on the West map: Communist Chinese (Soviet) against Nationalist (Western)
    {"id": "pla-1", "kind": "ccp-infantry", "hex": "w4625"},
    {"id": "pla-2", "kind": "ccp-infantry", "hex": "w4524"},
    {"id": "pla-hq", "kind": "ccp-hq", "hex": "w4725"},
    {"id": "kmt-res", "kind": "kiangsu-res", "hex": "w4624"},
    {"id": "kmt-hq", "kind": "kmt-hq", "hex": "w4623"},
]


def _raw(units=CIVIL_WAR, factions=("soviet", "western"), phasing="soviet") -> dict:
    return {
        "name": "civil war",
        "turn": 1,
        "phase": "regular",
        "phasing": phasing,
        "factions": list(factions),
        "combat_phases": 2,
        "victory": {"faction": "soviet", "hold": ["w4624"]},
        "unit": [dict(u) for u in units],
    }


def test_4_d87_the_western_and_soviet_factions_fight_each_other_and_version_20_refused_the_position():
    """Chapter 4's clarification: the Western and Soviet factions are enemies to each other, so, unless something
    restricts it, combat occurs between them. A position may set them against each other (rules version 21): the
    Allied player commands the Western faction and the other seat the Soviet; each HQ exception of 4.2.1.2 then
    meets the other (a Soviet Communist Chinese HQ behind Communist Chinese units, a Western Nationalist Chinese HQ
    behind a Kiangsu unit). Version 20 refused such a position (ruling D25)."""
    state = GAME.initial_state("custom", {"position": _raw()})
    assert state.factions == {"axis": "soviet", "allied": "western"}
    assert step(state) == "regular-combat" and GAME.prompt(state).side == "axis"
    assert "attack w4624 with pla-1 pla-2 hq pla-hq" in orders(state)
    p = preview(state, "attack w4624 with pla-1 pla-2 hq pla-hq")
    assert p["attack"] == 3 and p["defence"] == 1 and p["defender_may_add_hq"]
    assert any("4.2.3.5: attacking HQ" in s for s in p["shifts"])
    _, asked = when(state, "attack w4624 with pla-1 pla-2 hq pla-hq")
    assert step(asked) == "defender-hq" and GAME.prompt(asked).side == "allied"
    assert orders(asked) == {"support", "support kmt-hq"}
    events, after = when(asked, "support kmt-hq", [6])
    resolved = next(e for e in events if isinstance(e, CombatResolved))
    assert (resolved.attack, resolved.defence) == (3, 1 + 3)
    assert resolved.column == "1-3" and resolved.result == "Ex"  # 1-2, one right and two left (4.2.3.5, 4.2.3.8)
    assert any("4.2.3.5" in s and "defending HQ" in s for s in resolved.shifts)
    # the Soviet attackers, their HQ's Ranged Support among them, cannot retreat: one of them loses the step
    assert step(after) == "attacker-result" and GAME.prompt(after).side == "axis"
    assert orders(after) == {"lose pla-1", "lose pla-2", "lose pla-hq"}
    with pytest.raises(SetupError) as err:
        GAME.initial_state("custom", {"position": _raw()}, version="20")
    assert any("ruling D25" in p for p in err.value.problems)


def test_4_d87_the_western_faction_attacks_the_soviet_faction_in_its_own_combat_phase():
    """The other way round: the Western faction phasing, the Allied seat gives the attack and the Soviet seat
    answers it; a hex of the other faction's units is a hex of enemy units (4.2.1), and one of its own is not."""
    state = GAME.initial_state("custom", {"position": _raw(phasing="western")})
    assert GAME.prompt(state).side == "allied"
    assert {"attack w4625 with kmt-res hq kmt-hq", "attack w4524 with kmt-res hq kmt-hq"} <= orders(state)
    refused(state, "attack w4623 with kmt-res", "Dai Senso 4.2.1")  # its own HQ's hex holds no enemy


def test_4_2_3_5_an_unsupplied_hq_in_the_defending_hex_gives_no_shift_yet_bars_another_hqs_ranged_support():
    """4.2.3.5 asks for a supplied HQ, 4.2.2 step 2 only for a defending hex with no HQ in it: Chungking's KMT HQ cut
    off gives the defence no shift, and the KMT HQ at Chengtu, which supports it when Chungking holds no HQ, is not
    asked for (the combat is resolved at once)."""

    def chengtu(raw):
        unit(raw, "cn-x-hq", "kmt-hq", "w4719")

    def cut_off_chungking(raw):
        next(u for u in raw["unit"] if u["id"] == "cn-chungking-hq")["supplied"] = False

    order = "attack w4620 with jp-15-army"
    cut_off = scenario("zhejiang", lambda r: (chengtu(r), cut_off_chungking(r)))
    events, after = when(cut_off, order, [3])
    resolved = next(e for e in events if isinstance(e, CombatResolved))
    assert not any("4.2.3.5" in s for s in resolved.shifts) and resolved.defence == 4 + 2  # the HQ and the War Zone
    assert step(after) != "defender-hq"
    _, asked = when(scenario("zhejiang", lambda r: (chengtu(r), drop(r, "cn-chungking-hq"))), order)
    assert step(asked) == "defender-hq" and "support cn-x-hq" in orders(asked)
