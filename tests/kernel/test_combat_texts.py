"""What the kernel writes for players to read about a combat: a stored shift read back for the replay's combat
panel, and a stacking violation naming who broke which limit where (found missing by the mutation run, issue 19)."""
import pytest

from app.rules.kernel.crt import Notation
from app.rules.kernel.hexgrid import Hex
from app.rules.kernel.pieces import Piece
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
