"""Order syntax lines as grammars (app/rules/engine/syntax.py): the line a player reads is the parser."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.rules.engine.syntax import BadSyntax, Grammar, SlotType
from app.rules.errors import InvalidOrder

KINDS = {"KIND": SlotType.choice("air", "naval", "artillery")}


def test_slots_keywords_and_lists():
    g = Grammar("attack HEX with UNIT [UNIT ...] [support KIND [KIND ...]]", KINDS)
    assert g.parse("attack 3412 with A b, C") == {"hex": "3412", "units": ["A", "b", "C"], "kinds": []}
    assert g.parse("ATTACK 3412 WITH A support air NAVAL") == {"hex": "3412", "units": ["A"],
                                                               "kinds": ["air", "naval"]}
    assert g.shown == "attack HEX with UNIT [UNIT ...] [support KIND [KIND ...]]"


def test_named_slots_are_shown_without_their_names():
    g = Grammar("move UNIT [UNIT ...] to HEX:to [via HEX:via [HEX ...]] [strategic]")
    assert g.shown == "move UNIT [UNIT ...] to HEX [via HEX [HEX ...]] [strategic]"
    assert g.parse("move a b to 0101") == {"units": ["a", "b"], "to": "0101", "via": []}
    assert g.parse("move a to 0101 via 0202 0303 strategic") == {"units": ["a"], "to": "0101",
                                                                 "via": ["0202", "0303"]}


def test_a_list_gives_back_words_the_rest_of_the_order_needs():
    g = Grammar("land UNIT [UNIT ...] HEX:at")
    assert g.parse("land a b 0101") == {"units": ["a", "b"], "at": "0101"}


def test_zero_or_more_alone():
    g = Grammar("end [UNIT ...]")
    assert g.parse("end") == {"units": []} and g.parse("end x") == {"units": ["x"]}


@pytest.mark.parametrize("text, why", [
    ("attack 34x2 with A", "'34x2' is not a hex"),
    ("attack 3412 A", "expected 'with'"),
    ("attack 3412 with", "UNIT missing"),
    ("attack 3412 with A support sea", "'sea': expected one of air, naval, artillery"),
    ("attack ²412 with A", "is not a hex"),
    ("attack ٣٤١٢ with A", "is not a hex"),
])
def test_refusals_say_where_and_why_and_show_the_syntax(text, why):
    g = Grammar("attack HEX with UNIT [UNIT ...] [support KIND [KIND ...]]", KINDS)
    with pytest.raises(InvalidOrder) as err:
        g.parse(text)
    assert why in str(err.value) and "expected 'attack HEX with UNIT [UNIT ...]" in str(err.value)


def test_numbers_are_ascii_and_bounded():
    g = Grammar("commit N")
    assert g.parse("commit 2") == {"n": 2}
    for bad in ("commit ²", "commit -1", "commit 1234567", "commit 1.5"):
        with pytest.raises(InvalidOrder):
            g.parse(bad)


def test_render_is_the_inverse_of_parse():
    g = Grammar("move UNIT [UNIT ...] to HEX:to [via HEX:via [HEX ...]]")
    for text in ("move a b to 0101", "move a to 0101 via 0202 0303"):
        assert g.render(g.parse(text)) == text


def test_overlong_orders_are_refused_before_matching():
    with pytest.raises(InvalidOrder, match="at most"):
        Grammar("end [UNIT ...]").parse("end " + " ".join(["x"] * 500))


@pytest.mark.parametrize("syntax", ["HEX move", "move [UNIT", "move UNIT]", "move Unit", "move HEX HEX",
                                    "move SHIP"])
def test_a_bad_syntax_line_is_a_declaration_error(syntax):
    with pytest.raises(BadSyntax):
        Grammar(syntax)


def test_a_syntax_line_with_unknown_slot_types_names_each():
    with pytest.raises(BadSyntax, match=r"unknown slot type\(s\) BASE, SHIP$"):
        Grammar("fly SHIP to BASE")


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=80))
def test_any_text_parses_or_is_refused_as_an_invalid_order(text):
    g = Grammar("move UNIT [UNIT ...] to HEX:to [via HEX:via [HEX ...]] [support KIND [KIND ...]]", KINDS)
    try:
        args = g.parse("move " + text)
    except InvalidOrder:
        return
    assert isinstance(args["to"], str) and len(args["to"]) in (4, 6) and args["to"].isascii()


def test_flags_and_choices_read_into_named_arguments_and_show_as_words():
    g = Grammar("declare japanese|chinese|us:nation move-fight|fight-move:plan [sf:sf]")
    assert g.shown == "declare japanese|chinese|us move-fight|fight-move [sf]"
    assert g.parse("declare US fight-move") == {"nation": "us", "plan": "fight-move", "sf": False}
    assert g.parse("declare us move-fight sf") == {"nation": "us", "plan": "move-fight", "sf": True}
    with pytest.raises(InvalidOrder, match="expected one of japanese, chinese, us"):
        g.parse("declare russian move-fight")
    for text in ("declare us move-fight", "declare us move-fight sf"):
        assert g.render(g.parse(text)) == text


def test_a_choice_needs_a_name():
    with pytest.raises(BadSyntax, match="needs a name"):
        Grammar("declare move|fight")


UNITS_HERE = {"0101": ["a1", "a2"]}


def _unit_or_hex(word, context):
    if word in UNITS_HERE:
        return UNITS_HERE[word]
    if word not in context.state:
        raise InvalidOrder(context.text, f"no unit {word!r}")
    return word


def _distinct(values, context):
    if len(set(values)) != len(values):
        raise InvalidOrder(context.text, "a unit is named twice")
    return values


def test_a_slot_read_against_the_position_may_stand_for_several_units_and_check_its_list():
    from app.rules.engine.syntax import ParseContext

    units = SlotType.in_context(_unit_or_hex, "a unit or a hex", plural=True, finish=_distinct)
    g = Grammar("move UNITS to HEX:to", {"UNITS": units})
    assert g.shown == "move UNITS to HEX"
    here = ParseContext("", "red", {"a1", "a2", "b"})
    assert g.parse("move 0101 b to 0202", here) == {"units": ["a1", "a2", "b"], "to": "0202"}
    with pytest.raises(InvalidOrder, match="no unit 'zz'"):
        g.parse("move zz to 0202", ParseContext("move zz to 0202", "red", {"b"}))
    with pytest.raises(InvalidOrder, match="named twice"):
        g.parse("move a1 0101 to 0202", here)
    with pytest.raises(InvalidOrder, match="without the position"):
        g.parse("move b to 0202")


def test_a_slot_followed_by_dots_is_one_or_more():
    g = Grammar("move UNIT to HEX:to [via HEX:via ...]")
    assert g.shown == "move UNIT to HEX [via HEX ...]"
    assert g.parse("move a to 0101 via 0202 0303") == {"unit": "a", "to": "0101", "via": ["0202", "0303"]}
    assert g.parse("move a to 0101") == {"unit": "a", "to": "0101", "via": []}
    g = Grammar("move UNIT [UNIT ...] via HEX ...")  # after a list, and unnamed: the list is named in the plural
    assert g.parse("move a b via 0101 0102") == {"units": ["a", "b"], "hexes": ["0101", "0102"]}


def test_a_slot_and_one_more_in_brackets_is_one_or_two():
    g = Grammar("advance UNIT to HEX:path [HEX]")
    assert g.shown == "advance UNIT to HEX:path [HEX]".replace(":path", "")
    assert g.parse("advance a to 0101") == {"unit": "a", "path": ["0101"]}
    assert g.parse("advance a to 0101 0102") == {"unit": "a", "path": ["0101", "0102"]}
    with pytest.raises(InvalidOrder, match="unexpected '0103'"):
        g.parse("advance a to 0101 0102 0103")


def test_one_or_two_after_a_list_of_units_reads_both_lists():
    g = Grammar("advance UNIT [UNIT ...] to HEX:path [HEX]")
    assert g.parse("advance a b to 0101 0102") == {"units": ["a", "b"], "path": ["0101", "0102"]}
    assert g.parse("advance a to 0101") == {"units": ["a"], "path": ["0101"]}
    g = Grammar("advance UNIT to HEX:path [HEX] via HEX:via")  # the one-or-two form, then more of the order
    assert g.parse("advance a to 0101 0102 via 0103") == {"unit": "a", "path": ["0101", "0102"], "via": "0103"}
