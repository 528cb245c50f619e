"""How many emails a player sends per Game-Turn (issue 27, "Measured by"; docs/benchmarks.md): each of the five
games played through the email path, with and without standing orders.

The server runs as in production behind a real SMTP server on 127.0.0.1 (aiosmtpd): its mail goes out over SMTP,
the players' replies come in over SMTP into the orders maildir, and each is taken in by `ingest-email --maildir`'s
own function (app/mail/inbound.py `ingest_maildir`, in this process, so the figures are not process starts). The
players are the practice policies (app/rules/practice.py, `practice.choose`). A player who is to act writes one
email as a correspondence player does: the orders of their turn as far as they can foresee it, tried on their own
copy of the position (their guess of the dice; the other side's decisions answered by the standing orders the
bench gave it, since the server answers them the same way; the email ends where the other side must be asked, where
an automated seat plays its turn, or before an order that names what the email's position does not hold yet, a unit
a die will draw, since every line of an email is read against the position it answers), replying to the last email
the server sent them. A line the real dice made wrong is refused and the rest not attempted, as the server does; the
player writes again. The server's dice seed and game id are fixed by `--seed`, as the tests fix them, so a run
repeats.

With standing orders, each side sets one for every kind of decision its game lets stand, in the reply that takes
its seat (`PREFERENCES`); without, every decision is asked. Printed per game and variant: Game-Turns played, the
order emails each player sent per Game-Turn (mean, and the most in one Game-Turn), the emails refused in part, and
the times a player was to act and no email since their last one said "It is your turn." (the turn email, or an
answer that carries it); then where each side's emails began (the steps that still cost a round trip).

    python bench/pbem_roundtrips.py [--games snc,ichigo,formosa,olympic,daisenso] [--turns 4] [--seed 1]
"""
from __future__ import annotations

import argparse
import mailbox
import random
import smtplib
import socket
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

from aiosmtpd.controller import Controller

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.events import dice  # noqa: E402
from app.events.core import DieRolled  # noqa: E402
from app.events.store import EventStore  # noqa: E402
from app.mail import inbound  # noqa: E402
from app.mail.replies import body_text  # noqa: E402
from app.mail.transport import MailConfig  # noqa: E402
from app.projections import state as projection  # noqa: E402
from app.rules import practice, standing  # noqa: E402
from app.rules.catalog import installed  # noqa: E402
from app.rules.errors import OrderError  # noqa: E402
from app.service import games  # noqa: E402
from app.service.application import Application  # noqa: E402

CATALOG = installed()  # the rule sets installed here

GAMES = ("snc", "ichigo", "formosa", "olympic", "daisenso")
ORDERS = "orders@bench.example"
MAX_LINES = 80  # orders in one email at most
MAX_EMAILS = 3000  # a game's order emails at most (a bound, never reached in a sound run)
STUCK = 5  # emails refused whole in a row that stop a game's run (its player writes what the server refuses)
# what the bench's players stand on: the first word of each clause list a kind reads; the rest "weakest" (among
# the orders the rules accept, the one naming the least strength; the first listed where no unit is named)
PREFERENCES = {"advance": ["always"], "exploit": ["always"], "momentum": ["always"], "intercept": ["always"],
               "defend": ["always"], "counterattack": ["always"], "tanks": ["always"],
               # Formosa: the air plan (16.1) all on one mission; the kamikaze roll every GT, no fleet sortie (18.0)
               "strike-planning-japanese": ["always"], "strike-planning-allied": ["always"],
               "japanese-special-attack": ["roll", "end"]}
TURN_EMAIL = "It is your turn."  # what a turn email (or an answer that is one) says, app/mail/layout.py


class Handler:
    def __init__(self, maildir: str):
        self.orders = mailbox.Maildir(maildir, create=True)
        self.received: list[tuple[list[str], EmailMessage]] = []

    async def handle_DATA(self, server, session, envelope):
        if any(r.startswith("orders") for r in envelope.rcpt_tos):
            self.orders.add(envelope.content)
        else:
            self.received.append((list(envelope.rcpt_tos), message_from_bytes(envelope.content,
                                                                                policy=policy.default)))
        return "250 OK"


class GuessDice:
    """A player's guess of the dice, for their own copy of the position (never the server's dice)."""

    def __init__(self, rng: random.Random):
        self.rng, self.next_index, self.taken = rng, 0, []

    def roll(self, purpose: str, sides: int = 6) -> DieRolled:
        rolled = DieRolled(index=self.next_index, sides=sides, value=self.rng.randint(1, sides), purpose=purpose)
        self.next_index += 1
        self.taken.append(rolled)
        return rolled


@dataclass
class Figures:
    game: str
    standing: bool
    turns: int = 0
    over: str | None = None
    emails: dict[str, Counter] = field(default_factory=lambda: defaultdict(Counter))  # side -> turn -> emails
    refused: int = 0
    blind: int = 0
    orders: int = 0
    seconds: float = 0.0
    asked: Counter = field(default_factory=Counter)  # (side, the step its email began at) -> emails
    policy_faults: list[str] = field(default_factory=list)  # choices the policy failed at (random chose)

    def per_turn(self, side: str) -> tuple[float, int]:
        counts = [self.emails[side][t] for t in range(1, self.turns + 1)]
        return (sum(counts) / len(counts) if counts else 0.0), max(counts, default=0)


def preferences(rules) -> dict[str, list[str]]:
    return {kind: PREFERENCES.get(kind, ["weakest"]) for kind in standing.kinds(rules)}


def turn_of(rules, game) -> int:
    return int(rules.view(game, None).get("turn") or 1)


def foreseen(rules, state: projection.GameState, side: str, policy: str, stands: dict, rng: random.Random,
             faults: list[str]) -> list[str]:
    """The orders `side` writes in one email (module docstring), tried on its own copy of the position; `faults`
    gets the policy's name each time it fails and the random policy chooses instead."""
    game, lines, dice = state.game, [], GuessDice(rng)
    automated = state.meta.automated
    while len(lines) < MAX_LINES and rules.outcome(game) is None:
        prompt = rules.prompt(game)
        kind = standing.kind_now(rules, game)
        by = prompt.side
        answer = standing.choose(rules, game, by, kind, stands.get(by, {}).get(kind) or ()) \
            if by not in automated else None
        if answer is not None:
            text = answer[0]  # the server gives it from the standing order: not written
        elif by == side:
            try:
                text = practice.choose(rules, policy, game, side)[0]
            except TypeError:  # greedy's rating of a Formosa attack (its preview's column is a label): random
                faults.append(policy)
                text = practice.choose(rules, "random", game, side)[0]
            if games.unreadable(rules, state, side, [text]):
                break  # it names what the email's position does not hold yet (a unit drawn by a die): wait for it
            lines.append(text)
        else:
            break  # the other side is asked, or an automated seat plays its turn: wait for what it does
        try:
            for event in rules.decide(game, rules.parse(text, by, game), dice):
                game = rules.evolve(game, event)
        except (OrderError, ValueError, KeyError):
            break  # a guess the dice made wrong: write no further
    return lines


def reply(port: int, to_answer: EmailMessage, sender: str, text: str) -> None:
    msg = EmailMessage()
    msg["From"], msg["To"] = sender, to_answer["Reply-To"]
    msg["Subject"] = "Re: " + to_answer["Subject"]
    msg["Message-ID"] = make_msgid(domain="player.example")
    msg["In-Reply-To"] = to_answer["Message-ID"]
    msg.set_content(text + "\n")
    with smtplib.SMTP("127.0.0.1", port, timeout=120) as client:
        client.send_message(msg)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def play(name: str, with_standing: bool, turns: int, seed: int, work: Path) -> Figures:
    rules = CATALOG.rules(name)
    policy = "greedy" if "greedy" in practice.policies(rules) else practice.default_policy(rules)
    figures = Figures(name, with_standing)
    maildir = str(work / "orders")
    handler = Handler(maildir)
    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port, ready_timeout=120)
    controller.start()
    started = time.perf_counter()
    try:
        store = EventStore(str(work / "bench.sqlite3"))
        app = Application(store, MailConfig(smtp_host="127.0.0.1", smtp_port=port, orders_address=ORDERS,
                                            mail_from="hexledger@bench.example"))
        automated = practice.automated_seats(rules)
        players = {side: f"{side}@players.example" for side in rules.sides if side not in automated}
        dice.new_seed = lambda: f"{seed:064x}"  # the server's dice fixed as the tests fix them: a run repeats
        games.new_game_id = lambda store: f"g-{seed:08x}"  # the rolls derive from it too
        game_id, _ = app.setup.create(name, players)
        stands = {side: preferences(rules) for side in players} if with_standing else {}
        rng = random.Random(seed)

        def inbox(side: str) -> list[EmailMessage]:
            return [m for rcpts, m in handler.received if players[side] in rcpts]

        for side, address in players.items():
            lines = [f"join: {side} at the table"] + [f"standing {kind}: {'; '.join(clauses)}"
                                                      for kind, clauses in stands.get(side, {}).items()]
            reply(port, inbox(side)[-1], address, "\n".join(lines))
            inbound.ingest_maildir(app, maildir)
        sent_before: dict[str, int] = {}
        stuck = 0
        for _ in range(MAX_EMAILS):
            state = projection.load(store, CATALOG, game_id)
            outcome = rules.outcome(state.game)
            turn = turn_of(rules, state.game)
            figures.turns = max(figures.turns, min(turn, turns))
            if outcome is not None:
                figures.over = f"{outcome.winner or 'draw'} ({outcome.reason})"
                break
            if turn > turns:
                break
            side = rules.prompt(state.game).side
            if side not in players:
                raise AssertionError(f"{name}: the game waits for {side}, whom no player plays")
            mail = inbox(side)
            if not any(TURN_EMAIL in body_text(m) for m in mail[sent_before.get(side, 0):]):
                figures.blind += 1  # to act, and nothing since their last email laid out their turn
            lines = foreseen(rules, state, side, policy, stands, rng, figures.policy_faults)
            if not lines:
                raise AssertionError(f"{name}: {side} is to act and finds no order ({rules.prompt(state.game).step})")
            reply(port, mail[-1], players[side], "\n".join(lines))
            figures.asked[side, standing.kind_now(rules, state.game) or rules.prompt(state.game).step] += 1
            sent_before[side] = len(mail)
            figures.emails[side][turn] += 1
            figures.orders += len(lines)
            [result] = inbound.ingest_maildir(app, maildir)
            figures.refused += int(result.refused)
            stuck = stuck + 1 if result.refused and not result.applied else 0
            if stuck >= STUCK:  # the same position refused again and again: the bench's player or the server is wrong
                raise AssertionError(f"{name}: {side}'s emails refused {stuck} times in a row at event "
                                     f"{state.meta.seq} ({rules.prompt(state.game).step}): {lines} -> "
                                     f"{result.lines}")
        else:
            raise AssertionError(f"{name}: {MAX_EMAILS} emails and the game goes on")
        store.close()
    finally:
        controller.stop()
    figures.seconds = time.perf_counter() - started
    return figures


def table(rows: list[Figures]) -> str:
    out = ["| game | standing orders | Game-Turns | emails per player per Game-Turn (most in one) | refused | "
           "left without their turn email | orders | seconds |", "|---|---|---|---|---|---|---|---|"]
    for f in rows:
        per = ", ".join(f"{side} {mean:.2f} ({most})" for side in f.emails
                        for mean, most in [f.per_turn(side)])
        out.append(f"| {f.game} | {'set' if f.standing else 'none'} | {f.turns}{' (over)' if f.over else ''} | "
                   f"{per} | {f.refused} | {f.blind} | {f.orders} | {f.seconds:.0f} |")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--turns", type=int, default=4, help="Game-Turns played at most (each game's first N)")
    parser.add_argument("--seed", type=int, default=1, help="the server's dice seed and the players' guesses")
    args = parser.parse_args(argv)
    rows = []
    for name in args.games.split(","):
        for with_standing in (False, True):
            with tempfile.TemporaryDirectory() as work:
                rows.append(play(name, with_standing, args.turns, args.seed, Path(work)))
            print(table(rows[-1:]).splitlines()[-1], flush=True)
    print(table(rows))
    for f in rows:  # where the emails began: the decisions that still cost a round trip
        print(f"{f.game} ({'standing orders set' if f.standing else 'none'}), emails by the step they began at: "
              + ", ".join(f"{side} {step} {n}" for (side, step), n in f.asked.most_common())
              + (f"; game over: {f.over}" if f.over else "")
              + (f"; {len(f.policy_faults)} choice(s) the {f.policy_faults[0]} policy failed at, made by random"
                 if f.policy_faults else ""))


if __name__ == "__main__":
    main()
