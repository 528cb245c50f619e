"""Formosa games played to their end purely by email through a real SMTP server on 127.0.0.1 (issue 16: "both
scenarios can be played to each kind of end ... by email"): both players join by replying to their invitations,
each order is a reply to the latest email its player received, and the game-over email both players get names
the result, the level and its case, and reveals the dice seed. Every kind of end in each scenario (either sudden
death, each victory level), from the positions and orders of the CLI test (tests/formosa/formosa_ends.py). A whole
game from the printed set-up by email is Scenario 1's against the strong opponent (tests/pbem/test_email_search.py);
Scenario 2's from its printed set-up is played to its end through the CLI (tests/formosa/test_formosa_cli.py) and by
the practice policies (tests/core/test_practice_opponents.py). (Scenario 2's random game by email, 50 s of CPU for
what those hold already, left the CI in session part 11: docs/testing.md.)"""

import pytest

from app.mail import inbound
from app.rules.catalog import installed
from app.service import audit
from tests.formosa.formosa_ends import DICE_TEXT, ENDS, SEED, End, fixed_dice

CATALOG = installed()  # the rule sets installed here

pytestmark = pytest.mark.slow  # games played to their end by email

EMAIL = {"japanese": "japanese@players.example", "allied": "allied@players.example"}


@pytest.mark.parametrize("end", ENDS, ids=lambda e: e.id)
def test_a_game_from_a_position_ends_by_email(pbem, smtp, store, monkeypatch, end: End):
    fixed_dice(monkeypatch)
    game_id, _ = pbem.setup.create("formosa", EMAIL, scenario=end.scenario, options={"position": end.position})
    for side, address in EMAIL.items():
        smtp.reply(smtp.last(address, "Invitation"), address, f"join: {DICE_TEXT[side]}")
    assert [r.applied for r in inbound.ingest_maildir(pbem, smtp.maildir)] == [1, 1]
    assert smtp.last(EMAIL[end.orders[0][0]], "Your turn")

    for side, order in end.orders:
        address = EMAIL[side]
        assert not any(m["Subject"].startswith("Game over") for m in smtp.inbox(address)), order
        smtp.reply(smtp.inbox(address)[-1], address, order)
        [result] = inbound.ingest_maildir(pbem, smtp.maildir)
        assert result.applied == 1 and not result.refused, result.lines

    for address in EMAIL.values():
        over = smtp.last(address, "Game over")
        assert f"] Game over: {end.result}: " in over["Subject"], over["Subject"]
        body = inbound.body_text(over)  # the plain-text part (a turn email may carry the map as well)
        said = f"game over: {f'{end.winner} wins' if end.winner else 'a draw'} - {end.reason}: "
        assert said in body and end.case in body, body
        for part in end.log:
            assert part in body, (part, body)
        assert f"dice seed revealed (game over): {SEED:064x}" in body, body
    report = audit.verify(CATALOG, list(store.events(game_id)), check_dice=True)
    assert report.ok and report.rolls_unchecked == 0, report.problems
