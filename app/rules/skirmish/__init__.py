"""Skirmish: a tiny complete rule set, the worked example for adding a game (docs/rules/skirmish.md)."""
from app.rules.skirmish.rules import SkirmishRules

RULES = SkirmishRules()
