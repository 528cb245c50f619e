"""The rule sets this server runs, by name."""
from __future__ import annotations

from app.rules.base import Rules


class UnknownRules(LookupError):
    def __init__(self, name: str):
        super().__init__(f"unknown rules {name!r}; available: {', '.join(sorted(available()))}")


_REGISTERED: dict[str, Rules] = {}


def register(rules: Rules) -> Rules:
    """Make a rule set available by its name (a game package calls this when it is imported)."""
    _REGISTERED[rules.name] = rules
    return rules


def unregister(name: str) -> None:
    _REGISTERED.pop(name, None)


def available() -> dict[str, Rules]:
    from app.rules.ichigo.rules import RULES as ICHIGO
    from app.rules.skirmish import RULES as SKIRMISH
    from app.rules.snc.rules import RULES as SNC

    return {SKIRMISH.name: SKIRMISH, SNC.name: SNC, ICHIGO.name: ICHIGO, **_REGISTERED}


def get_rules(name: str) -> Rules:
    try:
        return available()[name]
    except KeyError:
        raise UnknownRules(name) from None
