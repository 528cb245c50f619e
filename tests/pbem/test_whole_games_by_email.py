"""Issue 27, "Done when": a whole Shanghai-Nanking game between two players and a whole Operation Olympic solitaire
game, played to their end by email through the SMTP server on 127.0.0.1 (aiosmtpd) and `ingest-email --maildir`,
each reply written as s-nail or mutt (format=flowed) writes it, each order taken as printed from the list of the
email it answers, and every email a player gets checked to carry their situation: when they are to act, their turn
email (what they owe, their orders by kind, their map); when not, who is to act; at the end a short result with
the replay and export links. Table talk goes along and reaches the other side. `verify` re-decides every order."""
from __future__ import annotations

import random
import re
from unittest import mock

import pytest

from app.events import dice
from app.events.store import EventStore
from app.mail import inbound
from app.mail.inbound import body_text
from app.mail.transport import MailConfig
from app.rules.catalog import installed
from app.service import audit, games
from app.service.application import Application
from tests.pbem.test_replies_carry_the_situation import listed, section

CATALOG = installed()  # the rule sets installed here

pytestmark = pytest.mark.slow  # two whole games, a few hundred emails

PUBLIC = "https://hex.example/"
CN, JP, US = "chinese@players.example", "japanese@players.example", "alone@players.example"
DECISIONS = ("attack", "lose", "retreat", "advance", "stay", "land", "place", "declare", "assault", "intercept")


@pytest.fixture
def played(tmp_path, smtp):
    """The service as `ingest-email` runs it, with links (HEXLEDGER_PUBLIC_URL); the same dice every run."""
    config = MailConfig(smtp_host="127.0.0.1", smtp_port=smtp.port, mail_from="hexledger@pbem.example",
                        orders_address="orders@pbem.example", public_url=PUBLIC)
    store = EventStore(str(tmp_path / "whole.sqlite3"))
    with mock.patch.object(dice, "new_seed", lambda: "6" * 64), \
            mock.patch.object(games, "new_game_id", lambda _: "g-0000cafe"):
        yield Application(store, config), store


def text(msg) -> str:
    return body_text(msg).replace("\r\n", "\n")


def check_situation(msg, game_id: str) -> str:
    """What an email tells its player: "turn" (their turn email: the step, the map, every order by kind), "wait"
    (who is to act, and why), or "over" (the short result with its links). Fails if it tells none of these."""
    body = text(msg)
    if "The game ended at event" in body:
        assert f"{PUBLIC}replay/{game_id}/?key=" in body and f"{PUBLIC}games/{game_id}/export" in body
        assert len(msg.as_bytes()) < 40_000 and not list(msg.iter_attachments())  # short: no map, no whole log
        return "over"
    assert re.search(r"^The game is at event \d+; now: .+\.$", body, re.M), body[:500]
    if "It is your turn." in body:
        assert listed(body), body[:2000]
        assert [p.get_filename() for p in msg.iter_attachments()] == [f"{game_id}-event-{msg_seq(body)}-"
                                                                       f"{seat_of(body)}.svg"]
        return "turn"
    assert re.search(r"^It is not your turn: (\w+ to act|waiting for \w+ to join)", body, re.M), body[:2000]
    return "wait"


def msg_seq(body: str) -> int:
    return int(re.search(r"^The game is at event (\d+);", body, re.M).group(1))


def seat_of(body: str) -> str:
    return re.search(r"You play (\w+)\.", body).group(1)


def choose(body: str, rng: random.Random, end: float) -> str:
    """An order of the email's list, as printed: a decision or an attack first (the game goes on), `end` at
    times."""
    orders = listed(body)
    if "end" in orders and rng.random() < end:
        return "end"
    decisions = [o for o in orders if o.split()[0] in DECISIONS]
    return rng.choice(decisions or orders)


def send(pbem, smtp, address: str, original, lines: list[str], program: str):
    smtp.reply_from(program, original, address, "\n".join(lines))
    [result] = inbound.ingest_maildir(pbem, smtp.maildir)
    assert result.applied == len([line for line in lines if not line.startswith("say:")]) and not result.refused, \
        result.lines
    return smtp.last(address)


def test_a_whole_shanghai_nanking_game_by_email_every_email_carrying_the_situation(played, smtp):
    pbem, store = played
    game_id, _ = pbem.setup.create("snc", {"chinese": CN, "japanese": JP})
    seats = {CN: "chinese", JP: "japanese"}
    for address in seats:
        send(pbem, smtp, address, smtp.last(address, "Invitation"), [f"join: {seats[address]}"], "s-nail")
    rng = random.Random(1)
    last = {address: smtp.last(address) for address in seats}  # the email each player answers next
    told = {address: len(smtp.inbox(address)) for address in seats}
    emails, talked = 0, []
    while emails < 600:
        kinds = {address: check_situation(last[address], game_id) for address in seats}
        if "over" in kinds.values():
            break
        [acting] = [a for a, kind in kinds.items() if kind == "turn"]  # one side acts, the other is told who
        other = next(a for a in seats if a != acting)
        assert f"It is not your turn: {seats[acting]} to act" in text(last[other])
        lines = [choose(text(last[acting]), rng, 0.35)]
        if emails % 15 == 0:
            talked.append(f"Message {emails} from the {seats[acting]} side: a fine move, if I may say so.")
            lines.append(f"say: {talked[-1]}")
        last[acting] = send(pbem, smtp, acting, last[acting], lines, ("s-nail", "mutt")[emails % 2])
        emails += 1
        if len(smtp.inbox(other)) > told[other]:  # the other side was told: its turn came, or the game ended
            last[other] = smtp.last(other)
        told = {address: len(smtp.inbox(address)) for address in seats}
    assert all(kind == "over" for kind in (check_situation(last[a], game_id) for a in seats)), emails
    for address in seats:  # every email a player got since joining carried their situation
        assert all(check_situation(m, game_id) for m in smtp.inbox(address) if "Invitation" not in m["Subject"]
                   and "Dispute" not in m["Subject"])
    heard = "".join(text(m) for m in smtp.inbox(CN) + smtp.inbox(JP))
    assert talked and all(line in heard for line in talked)
    report = audit.verify(CATALOG, list(store.events(game_id)), check_dice=True)
    assert report.ok and report.orders_replayed >= emails, report.problems[:3]


def test_a_whole_olympic_solitaire_game_by_email_a_turn_email_after_every_reply(played, smtp):
    """Issue 27: the American got 1 "Your turn" email of 66; now every answer is the turn email, the programmed
    Japanese turn in its history, each automated order with its reason. Issue 18 (one player; the Japanese seat
    is the server's): when the American player-turn ends, the reply's history carries the whole programmed Japanese
    turn, the doctrine's dice as they fell, to the Game-Turn's end; nobody is emailed for the Japanese."""
    from app.projections import state as projection

    pbem, store = played
    game_id, tokens = pbem.setup.create("olympic", {"american": US})
    assert set(tokens) == {"american"}
    answer = send(pbem, smtp, US, smtp.last(US, "Invitation"), ["join: a long way from home"], "mutt")
    assert "placement" in text(answer)
    rng = random.Random(2)
    emails, japanese_turns = 0, 0
    moved: set[str] = set()  # the reasons of the Japanese moves, as the replies showed them
    while check_situation(answer, game_id) == "turn" and emails < 1500:
        turn = projection.load(store, CATALOG, game_id).game.turn
        answer = send(pbem, smtp, US, answer, [choose(text(answer), rng, 0.5)], ("mutt", "s-nail")[emails % 2])
        emails += 1
        history = section(text(answer), "Since your last email")
        if "japanese (automated, programmed) orders: doctrine" in history:  # the whole Japanese player-turn
            japanese_turns += 1
            assert "die roll" in history  # the doctrine's dice, as they fell
            if projection.load(store, CATALOG, game_id).game.turn > turn:  # ... to the Game-Turn's end
                assert "japanese (automated, programmed) orders: end  [no attack is possible]" in history
                moved.update(re.findall(r"orders: (?:jmove|hold) \S+ .*\[(.*)\]", history))
    assert check_situation(answer, game_id) == "over", text(answer)[:3000]
    assert emails > 60 and japanese_turns >= 5 and any("nearest its destination" in why for why in moved)
    assert "game over" in smtp.last(US)["Subject"].lower()
    inbox = [m for m in smtp.inbox(US) if "Invitation" not in m["Subject"]]
    assert len(inbox) == emails + 1  # one answer to each email (the join's too), nothing more, nothing less
    assert all(check_situation(m, game_id) == "turn" for m in inbox[:-1])
    assert not [m for m in smtp.handler.received if any("japanese" in r for r in m[0])]  # no one to email
    report = audit.verify(CATALOG, list(store.events(game_id)), check_dice=True)
    assert report.ok and report.rolls_checked > 0, report.problems[:3]
    automated = [e for e in store.events(game_id) if e.type == "core.OrderGiven" and e.actor == "auto:japanese"]
    assert len(automated) > 100 and all(e.payload["auto"]["policy"] == "programmed" for e in automated)
