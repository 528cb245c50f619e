"""The rule sets this server runs, by name."""
from __future__ import annotations

from app.rules.base import Rules


class UnknownRules(LookupError):
    def __init__(self, name: str):
        super().__init__(f"unknown rules {name!r}; available: {', '.join(sorted(available()))}")


def available() -> dict[str, Rules]:
    from app.rules.skirmish import RULES as SKIRMISH
    from app.rules.snc.rules import RULES as SNC

    return {r.name: r for r in (SKIRMISH, SNC)}


def get_rules(name: str) -> Rules:
    try:
        return available()[name]
    except KeyError:
        raise UnknownRules(name) from None
