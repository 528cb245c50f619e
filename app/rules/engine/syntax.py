"""An order's syntax line is its grammar: "attack HEX with UNIT [UNIT ...]" documents the order to the player and
parses it, so the help text and the parser cannot disagree (docs/architecture.md practice 14).

The syntax language:

- a lower-case word is a keyword, matched without regard to case: ``with``, ``to``, ``via``;
- an upper-case word is a slot of that type: ``HEX``, ``UNIT``, ``N``, or a type the game declares (``KIND``);
  ``HEX:to`` names the slot's argument (the name is not shown to players); the default name is the type in
  lower case; a keyword of the same order is never read as a slot's value;
- ``X [X ...]`` (or ``X ...``) is one or more ``X`` and gives a list, named in the plural (``units``,
  ``hexes``) unless named; ``X [X]`` is one or two;
  ``[X ...]`` alone is zero or more;
- ``[ ... ]`` is optional; an optional group that is absent leaves its lists empty and its single slots out;
- ``word:name`` is a flag: a keyword that sets the argument ``name`` to True when given (False when not), e.g.
  ``[strategic:strategic]``, shown as ``[strategic]``;
- ``a|b|c:name`` is a choice of words read into the argument ``name``, shown as ``a|b|c``.

A game's slot type may read a word against the position (``SlotType.in_context``: a unit named by a short id,
or a hex standing for the units in it), may stand for one or more words by itself (``plural``: ``UNITS``), and
may check the whole list it read (``finish``: no unit named twice).

Words are separated by blanks or commas. Only ASCII is read as digits or letters of a slot, so "²" or "٣" is
never a number or a hex.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from app.rules.errors import InvalidOrder, echo

MAX_WORDS = 64
_WORD_SPLIT = re.compile(r"[\s,]+")
_UNIT = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.\-/]{0,39}$")
_NUMBER = re.compile(r"^[0-9]{1,6}$")
_HEX = re.compile(r"^[0-9]{4}$|^[0-9]{6}$")
_KEYWORD = re.compile(r"^[a-z][a-z0-9\-]*$")
_SLOT = re.compile(r"^([A-Z][A-Z0-9_]*)(?::([a-z][a-z0-9_]*))?$")
_FLAG = re.compile(r"^([a-z][a-z0-9\-]*):([a-z][a-z0-9_]*)$")
_CHOICE = re.compile(r"^([a-z][a-z0-9\-]*(?:\|[a-z][a-z0-9\-]*)+)(?::([a-z][a-z0-9_]*))?$")


def ascii_number(word: str) -> int:
    """`word` as a whole number written in ASCII digits: "²", "٣", "-1" and "1e9" raise ValueError."""
    if not _NUMBER.match(word):
        raise ValueError(f"{word!r} is not a whole number")
    return int(word)


@dataclass(frozen=True)
class ParseContext:
    """What a slot that reads a word against the position is given: the order's text, the side giving it and the
    game's state."""

    text: str
    side: str
    state: object


class SlotType:
    """How one kind of slot reads a word: ``read(word)`` returns the value or raises ValueError with the reason.

    `plural`: a bare slot of this type is one or more words, a list named in the lower-case type (``UNITS`` ->
    ``units``). `finish(values, context)` checks or tidies a whole list of this type once read (it may raise an
    OrderError, which the player sees as it is)."""

    def __init__(self, read: Callable[[str], object], describe: str, plural: bool = False,
                 finish: Callable[[list, ParseContext | None], list] | None = None, contextual: bool = False):
        self.read = read
        self.describe = describe
        self.plural = plural
        self.finish = finish
        self.contextual = contextual

    @classmethod
    def in_context(cls, read: Callable[[str, ParseContext], object], describe: str, plural: bool = False,
                   finish: Callable[[list, ParseContext | None], list] | None = None) -> SlotType:
        """A slot read against the position: ``read(word, context)`` returns the value, or a list of values when
        one word stands for several (a hex for the units in it), or raises ValueError (the grammar says where
        and why) or an OrderError (shown as it is: an ambiguous or unknown unit)."""
        return cls(read, describe, plural, finish, contextual=True)

    def read_in(self, word: str, context: ParseContext | None) -> list:
        """The values `word` gives (one, or several for a contextual slot)."""
        if not self.contextual:
            return [self.read(word)]
        if context is None:
            raise ValueError("cannot be read without the position")
        got = self.read(word, context)
        return list(got) if isinstance(got, list | tuple) else [got]

    @classmethod
    def choice(cls, *words: str) -> SlotType:
        """A closed vocabulary, e.g. ``SlotType.choice("air", "naval", "artillery")``."""
        allowed = tuple(w.lower() for w in words)

        def read(word: str) -> str:
            if word.lower() not in allowed:
                raise ValueError(f"expected one of {', '.join(allowed)}")
            return word.lower()

        return cls(read, "one of " + ", ".join(allowed))


def _pattern(regex: re.Pattern, what: str, normalise: Callable[[str], object] = str) -> SlotType:
    def read(word: str) -> object:
        if not regex.match(word):
            raise ValueError(f"is not {what}")
        return normalise(word)

    return SlotType(read, what)


BUILTIN_SLOTS: dict[str, SlotType] = {
    "HEX": _pattern(_HEX, "a hex (XXYY)"),
    "UNIT": _pattern(_UNIT, "a unit id"),
    "N": _pattern(_NUMBER, "a whole number", int),
    "SIDE": _pattern(_KEYWORD, "a side", str.lower),
    "WORD": _pattern(_KEYWORD, "a word", str.lower),
}


@dataclass(frozen=True)
class _Keyword:
    word: str
    flag: str | None = None  # the argument this keyword sets to True when given ("word:name")


@dataclass(frozen=True)
class _Slot:
    type: str
    name: str
    many: bool = False
    at_least_one: bool = True
    at_most: int = 0  # a list of at most this many ("HEX [HEX]": two); 0: no bound


@dataclass(frozen=True)
class _Optional:
    parts: tuple


class BadSyntax(ValueError):
    """A syntax line that is not in the syntax language (a programming error in a game's declaration)."""


def _plural(name: str) -> str:
    return name + ("es" if name.endswith(("s", "x", "h")) else "s")


def _tokens(syntax: str) -> list[str]:
    return re.findall(r"\[|\]|\.\.\.|[^\s\[\]]+", syntax)


def _compile(tokens: list[str], pos: int, closing: bool) -> tuple[tuple, int]:
    parts: list = []
    while pos < len(tokens):
        tok = tokens[pos]
        if tok == "]":
            if not closing:
                raise BadSyntax("unbalanced ']'")
            return tuple(parts), pos + 1
        if tok == "[":
            # "[X ...]" repeats the slot before it (one or more) or stands alone (zero or more)
            if pos + 3 < len(tokens) and tokens[pos + 2] == "..." and tokens[pos + 3] == "]":
                slot = _SLOT.match(tokens[pos + 1])
                if not slot:
                    raise BadSyntax(f"'[{tokens[pos + 1]} ...]' repeats no slot")
                before = parts[-1] if parts else None
                if isinstance(before, _Slot) and before.type == slot.group(1) and not before.many:
                    named = before.name if before.name != before.type.lower() else _plural(before.name)
                    parts[-1] = _Slot(before.type, named, many=True)
                else:
                    parts.append(_Slot(slot.group(1), slot.group(2) or _plural(slot.group(1).lower()), many=True,
                                       at_least_one=False))
                pos += 4
                continue
            if pos + 2 < len(tokens) and tokens[pos + 2] == "]" and parts and isinstance(parts[-1], _Slot) \
                    and not parts[-1].many and tokens[pos + 1] == parts[-1].type:
                # "X [X]": one or two X ("advance UNITS to HEX:path [HEX]")
                before = parts[-1]
                named = before.name if before.name != before.type.lower() else _plural(before.name)
                parts[-1] = _Slot(before.type, named, many=True, at_most=2)
                pos += 3
                continue
            group, pos = _compile(tokens, pos + 1, True)
            parts.append(_Optional(group))
            continue
        if tok == "..." and parts and isinstance(parts[-1], _Slot) and not parts[-1].many:
            # "X ..." inside a group: the slot before is one or more ("[via HEX:via ...]")
            before = parts[-1]
            named = before.name if before.name != before.type.lower() else _plural(before.name)
            parts[-1] = _Slot(before.type, named, many=True)
            pos += 1
            continue
        slot = _SLOT.match(tok)
        choice = _CHOICE.match(tok)
        flag = _FLAG.match(tok)
        if slot:
            parts.append(_Slot(slot.group(1), slot.group(2) or slot.group(1).lower()))
        elif choice:
            if not choice.group(2):
                raise BadSyntax(f"the choice {tok!r} needs a name ({tok}:name)")
            parts.append(_Slot(choice.group(1), choice.group(2)))
        elif flag:
            parts.append(_Keyword(flag.group(1), flag.group(2)))
        elif _KEYWORD.match(tok):
            parts.append(_Keyword(tok))
        else:
            raise BadSyntax(f"{tok!r} is neither a keyword (lower case) nor a slot (upper case)")
        pos += 1
    if closing:
        raise BadSyntax("unbalanced '['")
    return tuple(parts), pos


def _display(syntax: str) -> str:
    return re.sub(r"([A-Za-z0-9_|\-]+):[a-z][a-z0-9_]*", r"\1", syntax)


def _flags(parts: tuple) -> list[str]:
    out: list[str] = []
    for p in parts:
        if isinstance(p, _Keyword) and p.flag:
            out.append(p.flag)
        elif isinstance(p, _Optional):
            out.extend(_flags(p.parts))
    return out


def _pluralise(parts: tuple, slots: Mapping[str, SlotType]) -> tuple:
    """A bare slot of a plural type (``UNITS``) is one or more words."""
    out = []
    for p in parts:
        if isinstance(p, _Slot) and not p.many and p.type in slots and slots[p.type].plural:
            p = _Slot(p.type, p.name, many=True)
        elif isinstance(p, _Optional):
            p = _Optional(_pluralise(p.parts, slots))
        out.append(p)
    return tuple(out)


def _keywords(parts: tuple) -> list[str]:
    out: list[str] = []
    for p in parts:
        if isinstance(p, _Keyword):
            out.append(p.word)
        elif isinstance(p, _Optional):
            out.extend(_keywords(p.parts))
    return out


def _names(parts: tuple) -> list[_Slot]:
    out: list[_Slot] = []
    for p in parts:
        if isinstance(p, _Slot):
            out.append(p)
        elif isinstance(p, _Optional):
            out.extend(_names(p.parts))
    return out


class Grammar:
    """One order's syntax line, compiled: ``parse(text)`` -> the arguments; ``render(args)`` -> the order text."""

    def __init__(self, syntax: str, slots: Mapping[str, SlotType] | None = None):
        self.syntax = syntax
        self.shown = _display(syntax)
        parts, _ = _compile(_tokens(syntax), 0, False)
        if not parts or not isinstance(parts[0], _Keyword):
            raise BadSyntax(f"{syntax!r} must start with the order's verb")
        self.verb = parts[0].word
        self.slots = {**BUILTIN_SLOTS, **(slots or {})}
        for s in _names(parts):
            if "|" in s.type:
                self.slots[s.type] = SlotType.choice(*s.type.split("|"))
        parts = _pluralise(parts, self.slots)
        self.parts = parts
        slot_list = _names(parts)
        unknown = sorted({s.type for s in slot_list} - set(self.slots))
        if unknown:
            raise BadSyntax(f"{syntax!r}: unknown slot type(s) {', '.join(unknown)}")
        names = [s.name for s in slot_list] + _flags(parts)
        if len(names) != len(set(names)):
            raise BadSyntax(f"{syntax!r}: two slots share a name; name them (HEX:to)")
        self._defaults = {**{s.name: [] for s in slot_list if s.many}, **{f: False for f in _flags(parts)}}
        self.keywords = frozenset(_keywords(parts))
        self._first = slot_list[0] if slot_list else None
        # each optional group's slots and flags, by the group's identity: `render` writes out every candidate of
        # the list of legal orders it tries, asking for them each time
        self._groups: dict[int, tuple[list[_Slot], list[str]]] = {}
        self._index(parts)
        self._writer = _writer(self._planned(parts))

    def _index(self, parts: tuple) -> None:
        """Each optional group's slots and flags, by the group's identity."""
        for p in parts:
            if isinstance(p, _Optional):
                self._groups[id(p)] = (_names(p.parts), _flags(p.parts))
                self._index(p.parts)

    def parse(self, text: str, context: ParseContext | None = None) -> dict:
        """The arguments of `text`; `context` (the position) for the slots read against it."""
        words = words_of(text)
        if len(words) > MAX_WORDS:
            raise InvalidOrder(text, f"an order has at most {MAX_WORDS} words")
        failure = _Failure()
        for args, end in self._match(self.parts, words, 0, {}, failure, context):
            if end == len(words):
                return {**self._defaults, **args}
        raise InvalidOrder(text, failure.message(words, self.shown))

    def subject(self, args: Mapping) -> tuple:
        """What an order of these `args` is given to: its first slot's value(s) ("move UNITS to HEX": the units,
        "attack HEX with UNITS": the hex), () for an order without slots."""
        first = self._first
        if first is None or first.name not in args:
            return ()
        value = args[first.name]
        return tuple(value) if isinstance(value, list | tuple) else (value,)

    def subject_noun(self) -> str | None:
        """What the subjects are called, plural ("units", "hexes", "counters"), or None where a count of them says
        nothing (a number, a choice of words, no slot)."""
        first = next(iter(_names(self.parts)), None)
        if first is None or first.type == "N" or "|" in first.type:
            return None
        noun = first.type.lower()
        return noun if noun.endswith("s") else _plural(noun)

    def render(self, args: Mapping) -> str:
        """The order text for `args` (the inverse of `parse`), e.g. for the list of legal orders (a random
        player's list writes out every candidate: a few hundred a position)."""
        return self._writer(args)

    def _planned(self, parts: tuple) -> tuple:
        """`parts` as `_render` walks them: (what, a, b) each, a keyword (its word, the flag it needs or None), a
        slot (its name), an optional group (its slots' names and flags, and its own parts planned)."""
        out = []
        for p in parts:
            if isinstance(p, _Keyword):
                out.append((_FLAGGED, p.word, p.flag) if p.flag else (_WORD, p.word, None))
            elif isinstance(p, _Slot):
                out.append((_MANY if p.many else _ONE, p.name, None))
            else:
                names, flags = self._groups[id(p)]
                out.append((_GROUP, (tuple(s.name for s in names), tuple(flags)), self._planned(p.parts)))
        return tuple(out)

    def _match(self, parts: tuple, words: list[str], pos: int, args: dict, failure: _Failure, context):
        """Every way `parts` can match words[pos:], as (args, end), longest lists first."""
        if not parts:
            yield args, pos
            return
        head, rest = parts[0], parts[1:]
        if isinstance(head, _Keyword):
            if pos < len(words) and words[pos].lower() == head.word:
                yield from self._match(rest, words, pos + 1, {**args, head.flag: True} if head.flag else args,
                                       failure, context)
            else:
                failure.note(pos, f"expected '{head.word}'")
            return
        if isinstance(head, _Optional):
            for inner, end in self._match(head.parts, words, pos, args, failure, context):
                yield from self._match(rest, words, end, inner, failure, context)
            yield from self._match(rest, words, pos, args, failure, context)
            return
        kind = self.slots[head.type]
        read: list[list] = []  # the values of each word read, one list per word
        end = pos
        while end < len(words) and (head.many or not read) and not (head.at_most and len(read) >= head.at_most):
            if words[end].lower() in self.keywords:  # a keyword is never a slot's value: "with", "support"
                failure.note(end, f"{head.type} missing before '{words[end]}'")
                break
            try:
                read.append(kind.read_in(words[end], context))
            except ValueError as exc:
                failure.note(end, f"{words[end]!r} {exc}" if str(exc).startswith("is ") else f"{words[end]!r}: {exc}")
                break
            end += 1
        if head.at_most and len(read) >= head.at_most and end < len(words):
            failure.note(end, f"unexpected {words[end]!r} (at most {head.at_most} {head.type})")
        if not read:
            if head.many and not head.at_least_one:
                yield from self._match(rest, words, pos, {**args, head.name: []}, failure, context)
            elif end >= len(words):
                failure.note(end, f"{head.type} missing ({kind.describe})")
            return
        if not head.many:
            yield from self._match(rest, words, pos + 1, {**args, head.name: read[0][0]}, failure, context)
            return
        for count in range(len(read), 0 if head.at_least_one else -1, -1):
            values = [v for got in read[:count] for v in got]
            if count and kind.finish is not None:
                values = kind.finish(values, context)
            yield from self._match(rest, words, pos + count, {**args, head.name: values}, failure, context)


_WORD, _FLAGGED, _ONE, _MANY, _GROUP = range(5)  # what each step of a planned render writes


def _writer(plan: tuple) -> Callable[[Mapping], str]:
    """`render` for one syntax line: a function of the arguments written from `plan` (`Grammar._planned`) once,
    so writing out the few hundred candidates of a position walks no parts. It writes each keyword (one with a
    flag only when its flag is given), each slot's value (each of a list's), an optional group when one of its
    slots has a value (not None or empty) or one of its flags is given; words joined by one space."""
    lines: list[str] = []
    _write(plan, lines, "    ")
    source = "def write(args):\n    out = []\n" + "\n".join(lines) + "\n    return ' '.join(out)\n"
    scope: dict = {}
    exec(compile(source, "<render>", "exec"), scope)  # noqa: S102 - the source is written from the plan alone
    return scope["write"]


def _write(plan: tuple, lines: list[str], indent: str) -> None:
    for what, a, b in plan:
        if what == _WORD:
            lines.append(f"{indent}out.append({a!r})")
        elif what == _ONE:
            lines.append(f"{indent}out.append(str(args[{a!r}]))")
        elif what == _MANY:
            lines.append(f"{indent}out.extend([str(v) for v in args[{a!r}]])")
        elif what == _FLAGGED:
            lines.append(f"{indent}if args.get({b!r}):")
            lines.append(f"{indent}    out.append({a!r})")
        else:
            names, flags = a
            tests = [f"({n!r} in args and args[{n!r}] not in (None, [], ()))" for n in names]
            tests += [f"args.get({f!r})" for f in flags]
            lines.append(f"{indent}if {' or '.join(tests) or 'False'}:")
            before = len(lines)
            _write(b, lines, indent + "    ")
            if len(lines) == before:
                lines.append(f"{indent}    pass")


class _Failure:
    """The furthest point any way of reading the order reached, and why it stopped there."""

    def __init__(self):
        self.pos = -1
        self.reasons: list[str] = []

    def note(self, pos: int, reason: str) -> None:
        if pos > self.pos:
            self.pos, self.reasons = pos, [reason]
        elif pos == self.pos and reason not in self.reasons:
            self.reasons.append(reason)

    def message(self, words: list[str], shown: str) -> str:
        if self.pos >= len(words) and not self.reasons:
            return f"unexpected end; expected '{shown}'"
        extra = [w for w in words[self.pos:]] if self.pos >= 0 else words
        why = "; ".join(self.reasons) if self.reasons else f"unexpected {echo(' '.join(extra))}"
        if self.pos >= len(words) and not any("missing" in r for r in self.reasons):
            why = f"the order ends too soon ({why})"
        return f"{why}; expected '{shown}'"


def words_of(text: str) -> list[str]:
    """The words of an order: split on blanks and commas."""
    return [w for w in _WORD_SPLIT.split(text.strip()) if w]
