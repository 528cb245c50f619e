"""SVG and HTML built from parts, so that no text from game data can become markup.

Every map picture, chart and server-made page puts data into markup only through `el` (an element) and
`escape` (MarkupSafe's: `&`, `<`, `>`, `"` and `'` all escaped). A value is text unless it is already
`Markup` (an element made here, or a literal the code itself wrote): a terrain name, unit id or side name can
never close an attribute or open an element, whatever it holds (issue 12, "no script from game data").
"""
from __future__ import annotations

import re

from markupsafe import Markup, escape

__all__ = ["Markup", "el", "escape", "join"]

_NAME = re.compile(r"^[a-zA-Z][a-zA-Z0-9:-]*$")


def _attr_name(name: str) -> str:
    """`stroke_width` -> `stroke-width`, `class_` -> `class`; only names the code writes, never data."""
    name = name.rstrip("_").replace("_", "-")
    if not _NAME.match(name):
        raise ValueError(f"not an attribute name: {name!r}")
    return name


def _value(value) -> str:
    return f"{value:.1f}" if isinstance(value, float) else str(value)


def el(tag: str, *children, **attrs) -> Markup:
    """`<tag a="v">children</tag>`, or `<tag a="v"/>` without children. Attribute values are escaped (a float is
    written with one decimal; None leaves the attribute out); a child is escaped text unless it is Markup."""
    if not _NAME.match(tag):
        raise ValueError(f"not an element name: {tag!r}")
    head = tag + "".join(f' {_attr_name(k)}="{escape(_value(v))}"' for k, v in attrs.items() if v is not None)
    if not children:
        return Markup(f"<{head}/>")
    return Markup(f"<{head}>{join(children)}</{tag}>")


def join(parts, sep: str = "") -> Markup:
    """Markup of `parts` in order; any part that is not Markup is escaped as text."""
    return Markup(sep).join(parts)
