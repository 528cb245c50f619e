"""A defence of 0 on every game's own table (combat-kernel rulings, "a defending strength of 0").

A position may give counters a factor of 0 (Dai Senso D35, Formosa F104, Olympic R31): the kernel's odds divided by
it and raised, which ended the list of legal orders, the preview and the attack in a server error (Dai Senso D78
found it and answered it for its game only). Any attack against 0 is now odds above every column, resolved as each
game's text resolves odds above its top: the last column (Ichi-Go 11.8, SNC 10.3.1, Dai Senso 4.2.2 step 3,
Formosa 15.3 item 2); a differential (Olympic 8.8 note 1) never divided. Found by bench/hostile_part16.py."""
from __future__ import annotations

import pytest

from app.rules.daisenso.data_load import load as daisenso
from app.rules.formosa.data_load import load as formosa
from app.rules.ichigo.data_load import load as ichigo
from app.rules.kernel.preview import preview_attack
from app.rules.kernel.shifts import Shift
from app.rules.olympic.data_load import load as olympic
from app.rules.snc.data_load import load as snc

LEFT = Shift(-1, "test", "terrain", "terrain")


@pytest.mark.parametrize("game, table, line, top, two_left", [
    # "clamp": the odds are the top column's, the shifts act from there (Dai Senso D78: 9-1, two left 4-1)
    ("ichigo", lambda: ichigo().crt, "japanese", "≥10:1", "8:1"),
    ("daisenso", lambda: daisenso().crt, None, "9-1", "4-1"),
    ("formosa", lambda: formosa().crt("us"), None, ">=700%", "500-599%"),
    # "extend" (SNC 10.3.1, final odds): odds above every column stay above it whatever the shifts
    ("snc", lambda: snc().crt, None, "6:1", "6:1"),
])
def test_an_attack_on_a_defence_of_0_is_resolved_on_the_last_column(game, table, line, top, two_left):
    crt = table()
    alone = preview_attack(crt, 3, 0, line=line)
    assert alone.allowed and alone.column == len(crt.columns(line)) - 1 and alone.column_label == top
    assert alone.odds.attack == 3 and alone.odds.defence == 0  # the real totals are shown
    assert all(r is not None for _, r in alone.results)  # a die has a result on it
    assert preview_attack(crt, 3, 0, [LEFT, LEFT], line=line).column_label == two_left
    assert "3 vs 0" in alone.to_text()


def test_olympic_differential_never_divided_and_0_against_0_is_a_0_factor_attack():
    assert preview_attack(olympic().crt, 3, 0).column_label == "+2, +3"  # 8.8: 3 - 0
    crt = snc().crt
    nothing = preview_attack(crt, 0, 0, [Shift(2, "SNC 11.1", "fire support")])
    assert nothing.column_label == "1:3"  # below every column, as 0 against 2 (R30)
    with pytest.raises(ValueError, match="cannot be negative"):
        preview_attack(crt, 3, -1)
