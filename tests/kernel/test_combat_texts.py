"""What the kernel writes for players to read about a combat: a stored shift read back for the replay's combat
panel, and a stacking violation naming who broke which limit where (found missing by the mutation run, issue 19)."""
import pytest
from combat_tables import ICHIGO_CRT

from app.rules.kernel.crt import CRT, Notation
from app.rules.kernel.hexgrid import Hex
from app.rules.kernel.pieces import Piece
from app.rules.kernel.preview import preview_attack
from app.rules.kernel.shifts import Shift, shift_from_text
from app.rules.kernel.stacking import StackingRules, StackLimit, overstacked


def test_a_stored_left_shift_reads_back_negative_and_a_right_shift_positive():
    assert str(Shift(-2, "SNC 10.4.1", "city")) == "2L (SNC 10.4.1: city)"
    assert shift_from_text("2L (SNC 10.4.1: city)") == {"amount": -2, "case": "SNC 10.4.1", "reason": "city"}
    assert shift_from_text(str(Shift(1, "SNC 11.1", "air support"))) == \
        {"amount": 1, "case": "SNC 11.1", "reason": "air support"}


def test_a_limit_with_no_side_and_no_label_is_named_for_all_units_it_counts():
    rules = StackingRules(limits=(StackLimit(case="X 1", max_total=2),))
    [v] = overstacked([Piece(str(i), "red", kind="division") for i in range(3)], rules, Hex.parse("0101"))
    assert (v.case, v.message) == ("X 1", "all ground: 3 stacked in 0101, limit 2")
    assert overstacked([Piece(str(i), "red", kind="division") for i in range(2)], rules, Hex.parse("0101")) == []


def test_a_notation_that_ignores_case_reads_de_and_one_that_does_not_refuses_it():
    tokens = {"DE": {"defender": {"eliminated": True}}}
    assert Notation.from_dict({"tokens": tokens, "case_sensitive": False}).parse("de").defender.eliminated
    with pytest.raises(ValueError, match="cannot read 'de' in result 'de': known tokens DE"):
        Notation.from_dict({"tokens": tokens}).parse("de")


def test_a_result_as_the_preview_sends_it_keeps_each_sides_losses_apart():
    shown = Notation.from_dict({}).parse("1/2").to_dict()
    assert (shown["attacker"]["losses"], shown["defender"]["losses"]) == (1, 2)


def test_a_token_with_a_number_reads_the_number_printed_in_the_cell():
    notation = Notation.from_dict({"tokens": {"Dr{n}": {"defender": {"retreat": "n"}}}})
    assert notation.parse("Dr3").defender.retreat == 3
    assert notation.parse("Dr3 1/2").defender.losses == 2


def test_a_preview_names_the_table_with_its_case_and_says_when_a_shift_ran_off_its_end():
    """The table is built inside the test, so the mutation run traces the reading of its case (issue 19)."""
    crt = CRT.from_dict(ICHIGO_CRT)
    past = preview_attack(crt, 9, 1, [Shift(2, "Ichi-Go 11.15", "concentric attack")], line="japanese").to_text()
    assert past.splitlines()[:4] == [
        "Ichi-Go CRT (partial) (japanese line), Ichi-Go 11.8",
        "Strength 9 vs 1: raw odds 9:1",
        "  2R (Ichi-Go 11.15: concentric attack)",
        "Net shift 2R: column ≥10:1 (table high end)",
    ]
    inside = preview_attack(crt, 1, 1, [Shift(-1, "Ichi-Go 11.14", "city")], line="japanese").to_text()
    assert inside.splitlines()[3] == "Net shift 1L: column 1:2"
    below = preview_attack(crt, 1, 1, [Shift(-5, "Ichi-Go 11.14", "city")], line="japanese").to_text()
    assert below.splitlines()[3] == "Net shift 5L: column ≤1:5 (table low end)"
