"""The rule sets this server runs, by name, found without a list to keep by hand.

A game is a package `app/rules/<name>/` whose `__init__` declares `GAME` (an app.rules.engine.Game; a package
without it, such as a game's data waiting for its engine, is not a game), or an installed distribution's entry point in
the group "hexledger.games". A game is imported the first time it is asked for by name, so a command that plays
one game loads only that game, and holds it to the shape of a rule set as it loads it (app/rules/base.py `conform`:
a misspelled optional member fails loudly). A program's composition root makes the catalog (`installed`) once and
passes it into the application service: nothing else of the program imports this module (lint-imports).
"""
from __future__ import annotations

import ast
import importlib
import pkgutil
import re
from functools import cache
from pathlib import Path

import app.rules
from app.rules.base import Catalog, Rules, conform

ENTRY_POINT_GROUP = "hexledger.games"
_NOT_GAMES = frozenset({"kernel", "engine"})
_NAME = re.compile(r"^[a-z][a-z0-9_]{0,31}$")


def installed(*extra: Rules) -> Catalog:
    """The rule sets installed here: the game packages and the entry points, and `extra` over them by name (a
    variant a test plays under a name of its own, or in place of a game), each held to the shape of a rule set."""
    added = {conform(rules).name: rules for rules in extra}
    return Catalog(lambda name: added.get(name) or _find(name), lambda: {*_packages(), *_entry_points(), *added})


def _find(name: str) -> Rules | None:
    return _load(name) if name in _packages() or name in _entry_points() else None


def _declares_game(package: Path) -> bool:
    """Whether a package's `__init__` binds `GAME`, read from its source so that listing the games imports none.
    A package holding only data (a game whose engine is still to be written) is no game and is offered to
    nobody."""
    try:
        tree = ast.parse((package / "__init__.py").read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError):
        return False
    for node in tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == "GAME" for t in targets):
                return True
        elif isinstance(node, ast.ImportFrom) and any((a.asname or a.name) == "GAME" for a in node.names):
            return True
    return False


@cache
def _packages() -> frozenset[str]:
    return frozenset(m.name for m in pkgutil.iter_modules(app.rules.__path__)
                     if m.ispkg and m.name not in _NOT_GAMES and _NAME.match(m.name)
                     and _declares_game(Path(m.module_finder.path) / m.name))


@cache
def _entry_points() -> dict:
    from importlib.metadata import entry_points  # only when a name is not a package here: a slow import

    return {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP) if _NAME.match(ep.name)}


@cache
def _load(name: str) -> Rules | None:
    if name in _packages():
        rules = getattr(importlib.import_module(f"app.rules.{name}"), "GAME", None)
    else:
        rules = _entry_points()[name].load()
    return None if rules is None else conform(rules)
