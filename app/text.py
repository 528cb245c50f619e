"""Text from outside, one rule at every edge (issue 25; docs/reliability.md, "Text from outside").

Any text that enters (an HTTP request's path, query, cookies and body; an email's lines and addresses; a
command-line argument; a map, position or export file) is valid Unicode without NUL: `problem(text)` says what
breaks that, `problem_in(value)` finds it in a JSON value, `decoded(data)` reads bytes as UTF-8 or says where they
are not. A lone UTF-16 surrogate (JSON's "\\ud800", or a byte the email package or the command line could not
decode) is no character: an event holding one can be neither hashed nor stored, so it is refused where it
enters, with a clear answer, and never met deeper in.

Text a player writes for others to read (a name, a seed text, an order, a dispute's reason, an answer's note, a
reveal's reason, a line of table talk) is one line of characters a reader sees, bounded by `LIMITS`:
`player_text` refuses anything else with a TextError before any write. Wherever such text is shown (history, log,
emails) it is shown as data: `quoted` for free text, `escaped` for text a grammar already bounds (orders), so a
line break or control character in an old or imported stream reads as an escape, never as a line of its own.
"""
from __future__ import annotations

import unicodedata
from collections.abc import Callable

# what no player-written text may hold: line breaks and other controls (Cc: newline, tab, ESC, NEL; Zl, Zp: the
# line and paragraph separators), lone surrogates (Cs), and the bidirectional controls that reorder what follows
# them on the line (the "Trojan Source" characters)
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_BREAKING = frozenset({"Cc", "Cs", "Zl", "Zp"})

# the longest text of each kind a player may write (characters); a name is at most as long as an email address
# (RFC 5321), the name of a seat that gives none
LIMITS = {"name": 254, "seed text": 200, "order": 1000, "reason": 500, "note": 500, "message": 500}
MESSAGE_LINES = 20  # lines of table talk one message holds at most (a longer letter goes by email of its own)


class TextError(ValueError):
    """Text refused where it enters; nothing was read or written."""


def unicode_problem(text: str) -> str | None:
    """Why `text` is not valid Unicode (a lone surrogate), or None."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return (f"is not valid Unicode: character {exc.start + 1} is a lone surrogate "
                f"(\\u{ord(text[exc.start]):04x}), half of a UTF-16 pair, which no text may hold")
    return None


def problem(text: str) -> str | None:
    """What keeps `text` from entering (a NUL, a lone surrogate), or None."""
    if "\x00" in text:
        return "holds a NUL character, which no text may hold"
    return unicode_problem(text)


def problem_in(value, check: Callable[[str], str | None] = problem) -> str | None:
    """The first problem `check` finds in any text of a JSON value (its strings and its objects' keys), or None."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found = check(item)
            if found:
                return found
        elif isinstance(item, dict):
            stack += [*item.keys(), *item.values()]
        elif isinstance(item, list):
            stack += item
    return None


def decoded(data: bytes) -> str:
    """`data` read as UTF-8, or TextError naming the first byte that is not."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise TextError(f"is not UTF-8 text: byte {exc.start + 1} (0x{data[exc.start]:02x}) is not part of any "
                        "character") from None


def checked(text: str, what: str) -> str:
    """`text`, or TextError naming `what` and its `problem`."""
    found = problem(text)
    if found:
        raise TextError(f"{what} {found}; nothing was read or written")
    return text


def _breaks(ch: str) -> bool:
    return ch in _BIDI or unicodedata.category(ch) in _BREAKING


def player_text(text: str, kind: str) -> str:
    """A player's `text` of this kind (a key of LIMITS), stripped of surrounding spaces, if it is one line of
    characters a reader sees and at most as long as its limit; else TextError saying which rule it breaks."""
    checked(text, f"the {kind}")
    text = text.strip()
    bad = next((ch for ch in text if _breaks(ch)), None)
    if bad is not None:
        shown = "a line break" if bad in "\n\r\x85\u2028\u2029" else f"the control character {_escape(bad)}"
        raise TextError(f"the {kind} holds {shown}: it must be one line of text, without control characters; "
                        "nothing was written")
    limit = LIMITS[kind]
    if len(text) > limit:
        raise TextError(f"the {kind} is {len(text)} characters long; at most {limit}; nothing was written")
    return text


def message_lines(lines) -> list[str]:
    """Lines of table talk, each held to `player_text` (kind "message"), blank ones left out; TextError if one breaks
    the rule, if none is left, or if there are more than MESSAGE_LINES."""
    kept = [text for text in (player_text(line, "message") for line in lines) if text]
    if not kept:
        raise TextError("the message is empty; nothing was written")
    if len(kept) > MESSAGE_LINES:
        raise TextError(f"the message has {len(kept)} lines; at most {MESSAGE_LINES} go in one message; nothing was "
                        "written")
    return kept


def _escape(ch: str) -> str:
    return {"\n": "\\n", "\r": "\\r", "\t": "\\t"}.get(ch) or (f"\\x{ord(ch):02x}" if ord(ch) < 0x100 else
                                                              f"\\u{ord(ch):04x}")


def escaped(text: str) -> str:
    """`text` with every character `player_text` refuses written as an escape (\\n, \\x1b, \\u202e): one line."""
    return "".join(_escape(ch) if _breaks(ch) else ch for ch in text)


def quoted(text: str) -> str:
    """A player's free text as data inside a line: in double quotes, its quotes, backslashes and every character
    `player_text` refuses escaped, so it can neither end the line nor seem to end the quote."""
    return '"' + escaped(text.replace("\\", "\\\\").replace('"', '\\"')) + '"'
