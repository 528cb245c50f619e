"""Every reply carries the player's situation (issue 27; docs/architecture.md practice 16): whenever the player is
(again) to act, the answer to their email is their turn email (what happened since their last email, what they owe
with every candidate, their map, the orders they may give by kind, each typeable as printed); when they are not, it
says who is to act and why; `status`, or an empty reply, brings it. The API's answer to an order carries the same
report. Through the SMTP server on 127.0.0.1 (aiosmtpd), in the layouts s-nail and mutt (format=flowed) write."""
from __future__ import annotations

import re
from unittest import mock

import pytest

from app.events import dice
from app.mail import inbound
from app.mail.inbound import body_text
from app.service import games
from tests.pbem.conftest import map_picture

RED, BLUE, CN, JP = "red@players.example", "blue@players.example", "chinese@players.example", "japanese@players.example"
PROGRAMS = ("s-nail", "mutt")


def answer_to(pbem, smtp, program: str, address: str, text: str, subject: str = ""):
    """`address` replies to its last email (with `subject`) from `program`: the result and the answer email."""
    smtp.reply_from(program, smtp.last(address, subject), address, text)
    [result] = inbound.ingest_maildir(pbem, smtp.maildir)
    return result, smtp.last(address)


def text_of(msg) -> str:
    return body_text(msg).replace("\r\n", "\n")


def section(text: str, heading: str) -> str:
    """The lines under the line that begins with `heading`, up to the next blank line."""
    after = text.partition(f"\n{heading}")[2]
    return after.partition("\n")[2].partition("\n\n")[0]


def listed(text: str) -> list[str]:
    """The orders the email lists under "Your orders now, by kind": each line of an order, as it can be sent."""
    return [line.strip().split("   (odds")[0] for line in section(text, "Your orders now, by kind").splitlines()
            if line.startswith("      ") and not line.strip().startswith("...")]


def joined(pbem, smtp, rules: str, players: dict[str, str], **options) -> str:
    game_id, _ = pbem.setup.create(rules, players, **options)
    for address in players.values():
        smtp.reply(smtp.last(address, "Invitation"), address, f"join: {address}")
    assert [r.applied for r in inbound.ingest_maildir(pbem, smtp.maildir)] == [1] * len(players)
    return game_id


@pytest.mark.parametrize("program", PROGRAMS)
def test_an_empty_reply_or_status_brings_the_turn_email_and_writes_nothing(pbem, smtp, store, program):
    game_id = joined(pbem, smtp, "skirmish", {"red": RED, "blue": BLUE})
    head = store.head(game_id)[0]
    result, answer = answer_to(pbem, smtp, program, RED, "", "Your turn")  # nothing but the quote and a signature
    assert not result.refused and result.applied == 0, result.lines
    assert answer["Subject"].endswith("Where the game stands - your turn: turn 1, red movement step")
    text = text_of(answer)
    assert "It is your turn." in text and "move R1 0202" in listed(text) and "end" in listed(text)
    assert "move UNIT HEX [HEX ...]   [SK 4.1]" in text and "(3 units left)" in text
    assert map_picture(answer) is not None  # the map goes with the turn
    _, waiting = answer_to(pbem, smtp, program, BLUE, "status")
    assert waiting["Subject"].endswith("Where the game stands - red to act: turn 1, red movement step")
    assert "It is not your turn: red to act." in text_of(waiting) and not listed(text_of(waiting))
    assert not list(waiting.iter_attachments())  # no picture for a seat that waits: the text map tells
    assert store.head(game_id)[0] == head


@pytest.mark.parametrize("program", PROGRAMS)
def test_inside_a_turn_the_answer_says_what_is_owed_next(pbem, smtp, store, program):
    """SNC 5.3: after `declare move fight` the answer says the move phase is now the player's, with its orders."""
    joined(pbem, smtp, "snc", {"chinese": CN, "japanese": JP})
    result, answer = answer_to(pbem, smtp, program, CN, "declare move fight", "Your turn")
    assert result.applied == 1 and not result.refused, result.lines
    assert answer["Subject"].endswith("Orders received - your turn: GT 1, chinese First Operations Phase (move)")
    text = text_of(answer)
    assert "chinese declare move/fight (SNC 5.3)" in section(text, "Since your last email")
    assert any(order.startswith("move cn-") for order in listed(text)) and "end" in listed(text)
    _, japanese = answer_to(pbem, smtp, program, JP, "status")  # the other side: who acts, and why
    assert "It is not your turn: chinese to act." in text_of(japanese)


def test_against_the_automated_japanese_a_decision_owed_comes_with_its_candidates_typeable(pbem, smtp, store):
    """Issue 27: the answer that ended at "chinese to decide: losses" showed no candidates. Now it is the Chinese
    turn email: what they owe, each candidate, and the `lose` orders naming every one, each accepted as printed."""
    with mock.patch.object(dice, "new_seed", lambda: "6" * 64), \
            mock.patch.object(games, "new_game_id", lambda store: "g-0000cafe"):  # the same dice every run
        joined(pbem, smtp, "snc", {"chinese": CN}, auto=["japanese"])
    answer_to(pbem, smtp, "mutt", CN, "declare fight fight", "Your turn")
    _, fight = answer_to(pbem, smtp, "mutt", CN, "")
    attack = next(order for order in listed(text_of(fight)) if order.startswith("attack 3512"))
    result, answer = answer_to(pbem, smtp, "s-nail", CN, attack)
    assert result.applied == 1 and not result.refused, result.lines
    text = text_of(answer)
    assert answer["Subject"].endswith("your turn: GT 1, chinese decision: losses"), answer["Subject"]
    assert "automated, greedy) orders:" in section(text, "Since your last email")  # the Japanese answer, with why
    owed = section(text, "What you owe now")
    assert owed.startswith("lose 2 step(s) of the attack on 3512 (SNC 10.5.2)")
    candidates = set(re.findall(r"^    (cn-\S+) ", owed, re.M))
    losses = [order for order in listed(text) if order.startswith("lose ")]
    assert losses == ["lose cn-d36 cn-d87", "lose cn-d36 cn-d88", "lose cn-d87 cn-d88"]
    assert {unit for order in losses for unit in order.split()[1:]} <= candidates
    result, answer = answer_to(pbem, smtp, "s-nail", CN, losses[-1])  # typeable as printed
    assert result.applied == 1 and not result.refused, result.lines
    assert "It is your turn." in text_of(answer)  # the attacks go on: the answer is the next turn email


def test_the_apis_answer_to_an_order_carries_the_same_report(pbem, smtp, store):
    game_id = joined(pbem, smtp, "skirmish", {"red": RED, "blue": BLUE})
    red = pbem.seats.authenticate_tag(game_id, pbem.seats.reply_tag(game_id, "red"))
    done = pbem.orders.order(red, "move R1 0202", report=True)
    report = done["report"]
    assert report["your_turn"] and report["step"] == "turn 1, red movement step"
    assert [r["text"] for r in report["since"]] == [r["text"] for r in done["events"]]  # from the order on
    moves = next(k for k in report["kinds"] if k["action"] == "move")
    assert moves["count"] == 2 and all(o["order"].split()[1] in ("R2", "R3") for o in moves["orders"])
    assert report["map_file"].endswith(".svg")
    _, answer = answer_to(pbem, smtp, "s-nail", RED, "status")  # the email lists exactly these orders
    assert listed(text_of(answer)) == [o["order"] for k in report["kinds"] for o in k["orders"]]
    assert "report" not in pbem.orders.order(red, "move R2 0203")  # asked for only



def asked(text: str, word: str) -> list[str]:
    """The orders an answer lists under its `orders for "WORD" now: N` line."""
    after = text.partition(f'orders for "{word}" now:')[2].partition("\n")[2]
    return [line.strip() for line in after.partition("\n\n")[0].splitlines() if line.startswith("    ")]


@pytest.mark.parametrize("program", PROGRAMS)
def test_orders_for_a_unit_lists_every_order_past_the_turn_emails_cut_and_writes_nothing(pbem, smtp, store, program):
    """Where a kind has more orders than the turn email lists, `orders for UNIT` answers with every order that names
    the unit (the play page's list for a counter pointed at), each of which the server then accepts."""
    game_id = joined(pbem, smtp, "snc", {"chinese": CN, "japanese": JP})
    _, answer = answer_to(pbem, smtp, program, CN, "declare move fight", "Your turn")
    text = text_of(answer)
    assert "there may be more move orders than listed" in text and "'orders for UNIT' in your reply" in text
    unit = "cn-b45"
    in_email = {o for o in listed(text) if unit in o.split()}
    head = store.head(game_id)[0]
    result, answer = answer_to(pbem, smtp, program, CN, f"orders for {unit}")
    assert not result.refused and result.applied == 0, result.lines
    orders = asked(text_of(answer), unit)
    assert all(unit in o.split() for o in orders) and in_email < set(orders)  # all the email's, and more
    assert store.head(game_id)[0] == head  # a question: nothing written
    beyond = next(o for o in orders if o not in in_email)
    result, _ = answer_to(pbem, smtp, program, CN, f"{beyond}\norders for nowhere")
    assert result.applied == 1 and not result.refused, result.lines
    assert 'orders for "nowhere" now: none (no order you may give now names it)' in result.lines
