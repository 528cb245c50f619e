"""The list of legal orders writes out every candidate it tries (a random player's list: every candidate of the
position), through `Grammar.render`, now a function written once per syntax line: for every order of every game
installed, and every way its optional parts may be given or left out, it writes the text the parts themselves
say, word for word (the reading below, as `render` read them before)."""
from __future__ import annotations

from itertools import product

import pytest

from app.rules.catalog import installed
from app.rules.engine.syntax import Grammar, _flags, _Keyword, _names, _Optional, _Slot


def _spoken(parts: tuple, args: dict) -> list[str]:
    """The words of `args` read off the syntax line's parts."""
    out: list[str] = []
    for p in parts:
        if isinstance(p, _Keyword):
            if not p.flag or args.get(p.flag):
                out.append(p.word)
        elif isinstance(p, _Slot):
            value = args[p.name]
            out.extend(str(v) for v in value) if p.many else out.append(str(value))
        else:
            assert isinstance(p, _Optional)
            names, flags = _names(p.parts), _flags(p.parts)
            if [s for s in names if s.name in args and args[s.name] not in (None, [], ())] or \
                    any(args.get(f) for f in flags):
                out.extend(_spoken(p.parts, args))
    return out


def _grammars() -> list[Grammar]:
    catalog = installed()
    found = {}
    for name in catalog.names():
        table = getattr(catalog.rules(name), "table", None)
        for orders in (table.orders.values() if table is not None else ()):
            for order in orders.values():
                found.setdefault(order.grammar.syntax, order.grammar)
    line = "move UNIT [UNIT ...] to HEX:to [via HEX:via [HEX ...]] [support WORD ...] [sf:sf] [fast:fast HEX:at]"
    found.setdefault(line, Grammar(line))
    return list(found.values())


def _ways(grammar: Grammar):
    """Arguments with each slot and flag given, empty or left out, up to 512 ways an order."""
    slots = _names(grammar.parts)
    flags = _flags(grammar.parts)
    values = [[["u1", 2], [], (), None] if s.many else ["w1", 0, None] for s in slots] + [[True, False]] * len(flags)
    for n, chosen in enumerate(product(*values)):
        if n >= 512:
            return
        args = {s.name: v for s, v in zip(slots, chosen, strict=False) if v is not None}
        args.update(zip(flags, chosen[len(slots):], strict=True))
        yield args


def test_every_order_of_every_game_is_written_as_its_syntax_line_says():
    grammars = _grammars()
    assert len(grammars) > 50
    for grammar in grammars:
        for args in _ways(grammar):
            try:
                want = " ".join(_spoken(grammar.parts, args))
            except KeyError:  # a slot the line always names, left out: refused alike
                with pytest.raises(KeyError):
                    grammar.render(args)
                continue
            assert grammar.render(args) == want, (grammar.syntax, args)
