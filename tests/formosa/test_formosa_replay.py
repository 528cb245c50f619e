"""Formosa in the replay viewer, the analysis and the turn email: a game created with optional rules played
through the service; each side's loss chart counts the units its history tells it were eliminated, the odds
taken are the attacks made, and the turn email names the optional rules in play (25.0)."""
from __future__ import annotations

import random

import pytest
from formosa_randomplay import invader

from app.events.registry import decode
from app.projections import analysis, replay
from app.rules.catalog import installed
from app.rules.formosa import GAME
from app.rules.formosa.events import CombatResolved, SpecialLanding, UnitEliminated
from tests.fogcheck import played_through_service
from tests.fuzzing import play as fuzz

CATALOG = installed()  # the rule sets installed here

OPTIONS = {"optional": ["25.2", "25.6", "25.10"]}
EMAILS = {"japanese": "j@x.example", "allied": "a@x.example"}


@pytest.mark.slow  # a game of random orders through the service
def test_analysis_counts_losses_and_attacks_and_the_email_names_the_optional_rules(tmp_path):
    pbem, game_id, outbox, (state, accepted) = played_through_service(
        str(tmp_path / "replay.sqlite3"), "formosa", EMAILS, "g-formosa-replay",
        lambda submit: fuzz(GAME, invader, random.Random(1), 160, "unused", submit=submit,
                            state=GAME.initial_state("1", OPTIONS)), scenario="1", options=OPTIONS)
    events = [decode(e.type, e.version, e.payload) for e in pbem.store.events(game_id)]
    attacks = [e for e in events if isinstance(e, CombatResolved)]
    assert attacks, "the random game fought"
    lost = {"allied": 0, "japanese": 0}
    for e in events:
        if isinstance(e, UnitEliminated) and e.to != "out":
            lost["japanese" if e.unit.startswith("jp-") else "allied"] += 1
        if isinstance(e, SpecialLanding) and "eliminated" in e.result:
            lost["japanese"] += 1
    assert sum(lost.values()) > 0
    for viewer in (replay.ALL, "allied", "japanese"):
        result = analysis.analyse(replay.build(pbem.store, CATALOG, game_id, viewer))
        assert {s: sum(v.values()) for s, v in result["step_losses"].items()} == lost  # public counts (F7)
        for side in ("allied", "japanese"):
            assert sum(result["odds"]["by_side"][side].values()) == sum(1 for a in attacks if a.attacker == side)
        assert result["luck"]["allied"]["attacks"] + result["luck"]["japanese"]["attacks"] == len(attacks)
    frames = replay.build(pbem.store, CATALOG, game_id, "allied").frames
    assert frames[-1].view["optional_rules"] == ["25.2", "25.6", "25.10"]
    turns = [m.get_body(("plain",)).get_content() for m in outbox.sent]
    turns = [body for body in turns if "optional_rules:" in body]
    assert len(turns) > 10 and all("optional_rules: 25.2 25.6 25.10" in body for body in turns)
    pbem.store.close()
