"""Turn emails laid out: the service hands over what a seat's turn email says (app/service/ports.py `TurnReport`,
every part already filtered for that seat) and this module puts it in order, with its headings, the reply
instructions (app/mail/compose.py) and the map picture as an attachment. After the game, a short result."""
from __future__ import annotations

from email.message import EmailMessage

from app.mail import compose
from app.service.ports import TurnReport

SHOWN_ORDERS = 40


def render_history(rows: list[dict]) -> str:
    return "\n".join(f"  {r['seq']:>5}  {r['text']}" for r in rows) or "  (nothing new)"


def render_legal_orders(orders: list[dict], shown: int = SHOWN_ORDERS) -> str:
    """Concrete legal orders (app/rules/legal.py), an attack with its odds column; the first `shown` of them."""
    lines = [f"  {o['order']}" + (f"   (odds column {o['odds']})" if o.get("odds") else "") for o in orders[:shown]]
    if len(orders) > shown:
        lines.append(f"  ... and {len(orders) - shown} more (the API's GET /games/GAME/actions lists them all)")
    return "\n".join(lines)


def render_actions(actions: list[dict]) -> str:
    return "\n".join(f"  {a['syntax']:40} [{a['case']}] {a.get('help', '')}".rstrip() for a in actions)


def turn_text(r: TurnReport, how_to_reply: str) -> str:
    """A turn email's text; after the game, the result, the events since the seat's last email and where to read the
    whole history (no map, no position: nothing is left to order)."""
    if r.outcome is not None:
        parts = [f"{r.headline} - game {r.game_id}, {r.title}. You play {r.seat}.",
                 f"The game ended at event {r.seq}: {r.outcome}.", "",
                 "How it ended, since your last email", render_history(r.since), ""]
        if r.replay_link:
            parts += ["Replay the whole game in your browser (the link is yours, do not share it)",
                      f"  {r.replay_link}", ""]
        parts.append(f"The whole history, now open to both sides: the API's GET /games/{r.game_id}/history, or an "
                     f"export (GET /games/{r.game_id}/export).")
        return "\n".join([*parts, *(["", r.receipt] if r.receipt else [])])
    parts = [f"{r.headline} - game {r.game_id}, {r.title}. You play {r.seat}.",
             f"The game is at event {r.seq}; now: {r.step}.", "",
             "Since your last email", render_history(r.since), ""]
    if r.map_area is not None:
        parts += ["Map near the action", r.map_area, ""]
    parts += ["The position (as you see it)", r.position, ""]
    if r.owed:
        parts += ["What you owe now", r.owed, ""]
    if r.actions:
        parts += ["Your orders now", render_actions(r.actions), ""]
    if r.legal_orders:
        parts += ["You may, for instance", render_legal_orders(r.legal_orders), ""]
    if r.standing is not None:
        parts += ["Your standing orders (only you see them; change one with a line like these, 'standing KIND: ask' "
                  "takes it away)", "\n".join(f"  {line}" for line in r.standing) or
                  "  none: every decision is asked of you (docs/play-by-email.md, e.g. 'standing losses: weakest')",
                  ""]
    if r.clock:
        parts += ["Your clock", f"  {r.clock}", ""]
    if r.replay_link:
        parts += ["Replay in your browser (as you see it; the link is yours, do not share it)", f"  {r.replay_link}",
                  ""]
    parts.append(how_to_reply)
    return "\n".join([*parts, *(["", r.receipt] if r.receipt else [])])


def turn_email(config: compose.Addresses, r: TurnReport, to: str, reply_tag: str, message_id: str) -> EmailMessage:
    """The turn (or game-over) email of `r` to `to`, its Reply-To carrying the seat's reply tag."""
    body = turn_text(r, compose.how_to_reply(config, r.game_id, r.seq, r.actions))
    attachments = (r.map_file,) if r.map_file is not None and r.outcome is None else ()
    return compose.message(config, to, r.game_id, f"{r.headline}: {r.step}", body, reply_tag,
                           attachments=attachments, message_id=message_id)
