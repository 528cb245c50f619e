"""Ichi-Go rules version 13 (docs/rulings/ichigo-engine.md E48, E49): a US reinforcement that lands at a beachhead in
the US Movement Phase (9.8, 8.11) operates normally at once (9.0), so it may move in that phase, as a dropped or
airlifted unit already does (8.10, 8.11); and no tank regiment defends against a US momentum attack (11.17, 11.25).
From position files (docs/custom-positions.md); a game created under version 12 is decided as played."""
import pytest
from ichigo_given import RULES, ev, of, then, when

from app.rules.ichigo import GAME
from app.rules.legal import legal_orders
from tests.fuzzing import refusal


def turn_9_us_movement(version: str | None = None, plan: str = "move-fight"):
    """Turn 9, the US Movement Phase (Phase II under move-fight, III under fight-move): both beachheads ashore, the
    Allies holding Canton, the US divisions not named still waiting to land (9.8)."""
    pos = {"turn": 9, "phase": "II" if plan == "move-fight" else "III", "causeway": True, "plans": {"us": plan},
           "beachheads": {"formosa": "3221", "mainland": "1922"}, "units": {"us-1c": "3221"},
           "control": {"allied": ["1922"]}}
    return GAME.initial_state("campaign", {"position": pos}, version)


@pytest.mark.parametrize("plan", ["move-fight", "fight-move"])
def test_9_0_e48_a_us_division_landed_at_a_beachhead_moves_in_the_us_movement_phase_it_landed_in(plan):
    s = then(turn_9_us_movement(plan=plan), "allied", "land us-24th us-11ab at 3221")
    moves = [o["order"] for o in legal_orders(RULES, s, "allied") if o["action"] == "move"]
    assert "move us-24th to 3220" in moves and "move us-11ab to 3220" in moves
    s = then(s, "allied", "move us-24th us-11ab to 3220")
    assert (s.units["us-24th"].hex, s.units["us-11ab"].hex, s.units["us-1c"].hex) == ("3220", "3220", "3221")


def test_e48_a_game_created_under_version_12_keeps_the_landed_division_in_its_beachhead_as_played():
    s = then(turn_9_us_movement("12"), "allied", "land us-24th at 3221")
    assert refusal(RULES, s, "allied", "move us-24th to 3220") == \
        "Ichi-Go 10.4: us-24th has completed its move this phase"
    assert not [o for o in legal_orders(RULES, s, "allied") if o["action"] == "move" and "us-24th" in o["order"]]


def momentum_ready(version: str | None = None):
    """Turn 8, the US Combat Phase: three US divisions in the mainland beachhead (Canton) destroy the Japanese 1st
    Brigade in 2021 (no tank regiment committed to its defence, a 1) and advance into it: a momentum attack on the
    26th Division in 2121 is open to them (11.25: traced to the beachhead)."""
    pos = {"turn": 8, "phase": "III", "causeway": True, "plans": {"us": "move-fight"},
           "beachheads": {"formosa": "3221", "mainland": "1922"}, "control": {"allied": ["1922", "3221"]},
           "units": {"us-1c": "1922", "us-24th": "1922", "us-25th": "1922", "jp-cea-1bde": "2021",
                     "jp-cea-26div": "2121", "jp-cea-62div": "3106"}}
    s = then(GAME.initial_state("campaign", {"position": pos}, version), "allied", "attack 2021 with 1922")
    assert s.pending[0]["kind"] == "tanks"  # 11.17: the brigade's defence may take a regiment
    s = then(then(s, "japanese", "commit 0", rolls=[1]), "allied", "advance us-1c us-24th us-25th")
    assert s.pending[0]["kind"] == "momentum"
    return s


def test_11_17_11_25_e49_no_tank_regiment_defends_against_a_us_momentum_attack():
    battle = of(when(momentum_ready(), "allied", "attack 2121 with us-1c us-24th us-25th", rolls=[1]),
                ev.BattleResolved)
    assert [(b.hex, b.tanks) for b in battle] == [("2121", [])]  # resolved at once: no `commit` was asked


def test_e49_a_game_created_under_version_12_offers_the_tank_regiment_against_momentum_as_played():
    s = then(momentum_ready("12"), "allied", "attack 2121 with us-1c us-24th us-25th")
    assert s.pending[0]["kind"] == "tanks"
    assert [o["order"] for o in legal_orders(RULES, s, "japanese")] == ["commit 0", "commit 1"]
