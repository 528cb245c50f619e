"""Turn emails' texts: a side's view, its history and its orders laid out as plain text (app/service/pbem.py
composes the email from them, app/mail wraps it). Everything passed in is already filtered for the seat."""
from __future__ import annotations

import textwrap


def render_view(view: dict) -> str:
    """A side's view as text: scalars as `key: value`, lists of records as aligned tables, long lists and maps
    wrapped (a map of hexes to a side is grouped by side), nested records by their ids."""
    out = []
    for key, value in view.items():
        if isinstance(value, list) and value and isinstance(value[0], dict):
            cols = list(value[0])
            cells = [{c: _cell(r.get(c, "")) for c in cols} for r in value]
            widths = {c: max(len(c), *(len(r[c]) for r in cells)) for c in cols}
            out.append(f"{key}:")
            out.append("  " + "  ".join(c.ljust(widths[c]) for c in cols))
            out += [("  " + "  ".join(r[c].ljust(widths[c]) for c in cols)).rstrip() for r in cells]
        elif isinstance(value, dict) and value and all(not isinstance(v, dict | list) for v in value.values()):
            groups: dict = {}
            for k, v in value.items():
                groups.setdefault(str(v), []).append(str(k))
            if len(groups) < len(value):  # e.g. control: hexes grouped by the side holding them
                out.append(f"{key}:")
                out += [_wrapped(f"  {v}:", ks) for v, ks in groups.items()]
            else:
                out.append(_wrapped(f"{key}:", [f"{k}={v}" for k, v in value.items()]))
        elif isinstance(value, list | dict) and value:
            out.append(_wrapped(f"{key}:", [_cell(v) for v in value] if isinstance(value, list)
                                else [f"{k}={_cell(v)}" for k, v in value.items()]))
        else:
            out.append(f"{key}: {_cell(value) if value not in ([], {}) else '-'}")
    return "\n".join(out)


def _cell(value) -> str:
    """A nested value in one cell: a record by its id (or its fields), a list joined."""
    if isinstance(value, dict):
        return str(value["id"]) if "id" in value else " ".join(f"{k}={_cell(v)}" for k, v in value.items())
    if isinstance(value, list):
        return " ".join(_cell(v) for v in value)
    return str(value)


def _wrapped(head: str, words: list[str], width: int = 100) -> str:
    return textwrap.fill(" ".join(words), width=width, initial_indent=head + " ", subsequent_indent="    ")


def render_history(rows: list[dict]) -> str:
    return "\n".join(f"  {r['seq']:>5}  {r['text']}" for r in rows) or "  (nothing new)"


def render_actions(actions: list[dict]) -> str:
    return "\n".join(f"  {a['syntax']:40} [{a['case']}] {a.get('help', '')}".rstrip() for a in actions)
