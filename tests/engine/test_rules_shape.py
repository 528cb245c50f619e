"""A rule set is held to the shape app/rules/base.py declares (`Rules`, `Optional`) when it is loaded: an optional
member misspelled or of another signature fails loudly, naming it, instead of being silently never called."""
from __future__ import annotations

import dataclasses

import pytest

from app.rules import catalog
from app.rules.base import OPTIONAL_MEMBERS, Catalog, NotARuleSet, conform
from app.rules.skirmish import GAME as SKIRMISH


def test_a_misspelled_extra_fails_when_the_game_is_declared():
    with pytest.raises(NotARuleSet, match="'visibile' is no optional member"):
        dataclasses.replace(SKIRMISH, extras={**SKIRMISH.extras, "visibile": lambda event, side: True})


def test_an_extra_of_another_signature_fails_naming_what_it_must_take():
    with pytest.raises(NotARuleSet, match=r"'visible' must take \(event, side\)"):
        dataclasses.replace(SKIRMISH, extras={**SKIRMISH.extras, "visible": lambda event: True})


def test_an_extra_that_is_a_field_of_the_declaration_is_refused():
    with pytest.raises(NotARuleSet, match="played_under is a field"):
        dataclasses.replace(SKIRMISH, extras={"played_under": lambda state, version: state})


def test_a_rule_set_lacking_a_required_member_is_refused_by_the_catalog():
    class Half:
        name = "half"

    with pytest.raises(NotARuleSet, match="half: lacks .*title"):
        catalog.installed(Half())
    with pytest.raises(NotARuleSet, match="half: lacks .*title"):
        Catalog.of(SKIRMISH, Half())


def test_every_shipped_game_has_the_shape_and_exposes_its_extras_as_members():
    for name, rules in catalog.installed().available().items():
        assert conform(rules) is rules
        for member in OPTIONAL_MEMBERS:
            declared = rules.extras.get(member)
            if declared is not None:
                assert getattr(rules, member) is declared, (name, member)
