"""Outgoing email texts. Everything about the game in them comes from the caller already filtered through
the rule set's `view(state, side)` and the per-side history filter: this module only lays text out."""
from __future__ import annotations

import textwrap
from email.message import EmailMessage
from email.utils import formatdate, make_msgid

from app.mail.transport import MailConfig

SUBJECT_TAG = "[hexledger {game_id}]"


def message(config: MailConfig, to: str, game_id: str, subject: str, body: str, reply_tag: str | None = None,
            in_reply_to: str | None = None, attachments: tuple[tuple[str, str, bytes], ...] = (),
            message_id: str | None = None) -> EmailMessage:
    """A plain-text email; `attachments` are (filename, MIME type, bytes), e.g. the map as image/svg+xml: the
    message is then multipart/mixed with the text first, which is what a reader shows and `ingest` reads.
    `message_id`: the one the outbox fixed when it queued the message (so a retry is the same message)."""
    msg = EmailMessage()
    msg["From"] = config.mail_from
    msg["To"] = to
    msg["Subject"] = f"{SUBJECT_TAG.format(game_id=game_id)} {subject}"
    msg["Date"] = formatdate(localtime=False, usegmt=True)
    msg["Message-ID"] = message_id or new_message_id(config)
    msg["Reply-To"] = config.reply_address(game_id, reply_tag)
    msg["Auto-Submitted"] = "auto-generated"
    if in_reply_to:
        msg["In-Reply-To"] = in_reply_to
        msg["References"] = in_reply_to
    msg.set_content(body)
    for filename, mime, data in attachments:
        maintype, _, subtype = mime.partition("/")
        msg.add_attachment(data, maintype=maintype, subtype=subtype, filename=filename)
    return msg


def new_message_id(config: MailConfig) -> str:
    return make_msgid(domain=config.mail_from.partition("@")[2] or "hexledger.local")


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


HOW_TO_REPLY = """How to reply
  Reply to this email with one order a line: the reply address names the game and your seat, no token needed.
{example}
  Quoted lines ('>') and everything after a signature line ('-- ') are ignored.
  If your mail program does not keep the reply address, send to {orders} with the lines 'game: {game_id}'
  and 'token: <your token from the invitation>'.
  Optional: 'seq: {seq}' refuses your orders if the game has moved on since this email.
  Also understood: 'undo' (your last orders, before your opponent has seen them), 'dispute EVENT: reason',
  'accept dispute N', 'reject dispute N' and (arbiter) 'uphold dispute N' / 'reject dispute N'."""


def how_to_reply(config: MailConfig, game_id: str, seq: int, actions: list[dict]) -> str:
    example = "\n".join(f"    {a['syntax']}" for a in actions[:3]) or "    (no orders are due from you now)"
    return HOW_TO_REPLY.format(example=example, orders=config.orders_address, game_id=game_id, seq=seq)
