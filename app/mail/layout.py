"""Turn emails and answers laid out: the service hands over what a seat is told (app/service/ports.py `TurnReport`,
every part already filtered for that seat) and this module puts it in order, with its headings, the reply
instructions (app/mail/compose.py) and the map picture as an attachment. An answer to the seat's email says first
what became of each of its lines; after the game, a short result."""
from __future__ import annotations

from email.message import EmailMessage

from app.mail import compose
from app.service.ports import TurnReport

TALK = "core.MessageSent"


def render_history(rows: list[dict], earlier: int = 0) -> str:
    lines = [f"  ({earlier} earlier event(s) left out: the history and the replay have them)"] if earlier else []
    lines += [f"  {r['seq']:>5}  {r['text']}" for r in rows]
    return "\n".join(lines) or "  (nothing new)"


def render_kinds(kinds: list[dict], actions: list[dict] = ()) -> str:
    """The orders a seat may give now, kind after kind as the step offers them (app/rules/legal.py `by_kind`): the
    kind's syntax, rules case and what it does, how many units (or hexes) it may still be given to, then its orders,
    each as it can be sent (an attack with its odds column); an offered kind the list has no order of, by its
    syntax only. Every unit that may be placed, moved or brought in is named; where a kind has more choices than
    are listed, it says so."""
    listed = {k["action"]: k for k in kinds}
    out = []
    for action in [*actions, *({"name": k["action"], "syntax": k["syntax"], "case": k["case"], "help": k["help"]}
                               for k in kinds if k["action"] not in {a["name"] for a in actions})]:
        kind = listed.get(action["name"])
        count = f" ({kind['count']} {kind['subjects']} left)" if kind and kind.get("count") is not None else ""
        out.append(f"  {action['syntax']}   [{action['case']}] {action.get('help', '')}".rstrip() + count)
        if kind is None:
            continue
        out += [f"      {o['order']}" + (f"   (odds column {o['odds']}" + (f", {o['odds_note']}" if o.get("odds_note")
                                                                             else "") + ")" if o.get("odds") else "")
                for o in kind["orders"]]
        if kind.get("unchecked"):
            out.append(f"      ... there may be more {action['name']} orders than listed: any order of this form "
                       "the rules allow is accepted; 'orders for UNIT' in your reply lists every one a unit may take")
    return "\n".join(out)


def subject(r: TurnReport) -> str:
    """A turn email's subject says whose turn and the step; an answer's, what became of the message and then so."""
    if not r.answer:
        return f"{r.headline}: {r.step}"
    if r.outcome is not None:  # as the game-over email it stands for (app/service/notices.py)
        winner = r.outcome.partition(":")[0]
        return f"Game over: {'draw' if winner == 'a draw' else winner}: {r.step} ({r.headline.lower()})"
    if r.your_turn:
        return f"{r.headline} - your turn: {r.step}"
    return f"{r.headline} - " + (f"{r.to_act} to act: {r.step}" if r.to_act else r.waiting or r.step)



def turn_text(r: TurnReport, how_to_reply: str) -> str:
    """The text of a turn email or an answer; after the game, the result, the events since the seat's last email and
    where to read the whole history (no map, no position: nothing is left to order)."""
    parts = [*r.answer, ""] if r.answer else []
    talk = [row for row in r.since if row.get("type") == TALK]
    history = [row for row in r.since if row.get("type") != TALK]
    opening = "Game over - game" if r.outcome is not None else "Game" if r.answer else f"{r.headline} - game"
    parts.append(f"{opening} {r.game_id}, {r.title}. You play {r.seat}.")
    if r.outcome is not None:
        parts += [f"The game ended at event {r.seq}: {r.outcome}."] + ([f"In all: {r.summary}."] if r.summary else [])
        parts.append("")
        if talk:
            parts += ["Table talk since your last email", render_history(talk), ""]
        parts += ["How it ended, since your last email", render_history(history, r.earlier), ""]
        parts += _links(r, over=True)
        return "\n".join([*parts, *(["", r.receipt] if r.receipt else [])])
    parts.append(f"The game is at event {r.seq}; now: {r.step}.")
    parts.append("It is your turn." if r.your_turn else f"It is not your turn: {r.waiting}.")
    parts += [line[0].upper() + line[1:] + "." for line in (r.deadline, r.clock) if line]
    parts.append("")
    if talk:
        parts += ["Table talk since your last email", render_history(talk), ""]
    parts += ["Since your last email", render_history(history, r.earlier), ""]
    if r.map_area is not None:
        parts += ["Map near the action", r.map_area, ""]
    parts += ["The position (as you see it)", r.position, ""]
    if r.owed:
        parts += ["What you owe now", r.owed, ""]
    if r.your_turn and (r.actions or r.kinds):
        parts += ["Your orders now, by kind (each order below can be sent as it is written)",
                  render_kinds(r.kinds, r.actions), ""]
    if r.standing is not None:
        parts += ["Your standing orders (only you see them; change one with a line like these, 'standing KIND: ask' "
                  "takes it away)", "\n".join(f"  {line}" for line in r.standing) or
                  "  none: every decision is asked of you (docs/play-by-email.md, e.g. 'standing losses: weakest')",
                  ""]
    parts += _links(r, over=False)
    parts.append(how_to_reply)
    return "\n".join([*parts, *(["", r.receipt] if r.receipt else [])])


def _links(r: TurnReport, over: bool) -> list[str]:
    out = []
    if r.play_link and not over:
        out += ["Play in your browser: point at the map to give your orders (the link gives your orders, as a reply "
                "to this email does: do not share it)", f"  {r.play_link}", ""]
    if r.replay_link:
        out += ["Replay " + ("the whole game" if over else "the game") + " in your browser (as you see it; the link "
                "is yours, do not share it)", f"  {r.replay_link}", ""]
    out += _page(r)
    export = r.export_link or f"the API's GET /games/{r.game_id}/export"
    if over:
        out += ["The whole game, now open to both sides, as one file (JSON Lines; your token from the invitation "
                "as the bearer):", f"  {export}", f"  (its history: GET /games/{r.game_id}/history)"]
    return out


def _page(r: TurnReport) -> list[str]:
    """The player's page: every game of theirs, and where else they are told of their turn (docs/players.md)."""
    if not r.page_link:
        return []
    return ["All your games, and your turn told on Discord, Slack, Telegram, ntfy ... (the link is yours)",
            f"  {r.page_link}", ""]


def turn_email(config: compose.Addresses, r: TurnReport, to: str, reply_tag: str, message_id: str,
               in_reply_to: str | None = None) -> EmailMessage:
    """The turn email, answer or game-over email of `r` to `to`, its Reply-To carrying the seat's reply tag."""
    body = turn_text(r, compose.how_to_reply(config, r.game_id, r.seq, r.actions))
    attachments = (r.map_file,) if r.map_file is not None and r.outcome is None else ()
    return compose.message(config, to, r.game_id, subject(r), body, reply_tag, in_reply_to=in_reply_to,
                           attachments=attachments, message_id=message_id)
