"""A refusal quotes a long order back cut to its start and its length (issue 30): in the shared refusal path
(app/rules/errors.py), so every game, the API, the command line and an email answer alike; the order itself is
refused as before, and nothing is written."""
from __future__ import annotations

from email.message import EmailMessage

from app.mail import inbound
from app.rules.errors import ECHO, IllegalOrder, InvalidOrder
from tests.pbem.test_deadlines_and_ingest import seated

LONG = "move R1 " + "x" * 2992  # 3,000 characters: over the order's limit of 1,000 (app/text.py)
LONG_WORD = "move " + "R" * 900  # under it, but one word no unit is called
PATH = "move R1 " + " ".join(["0202", "0101"] * 29)  # read, then refused by the rules (SK 4.1: not a path)


def _mail(game_id: str, token: str, lines: list[str], mid: str) -> bytes:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "red@x.example", f"orders+{game_id}@pbem.example", "orders"
    msg["Message-ID"] = mid
    msg.set_content("\n".join([f"token: {token}", *lines]))
    return bytes(msg)


def test_a_refusal_of_a_3000_character_order_quotes_its_start_and_its_length_not_the_whole(store):
    pbem, outbox, game_id, seats, tokens = seated(store)
    head = store.head(game_id)
    for order in (LONG, LONG_WORD):
        try:
            pbem.orders.submit(seats["red"], order)
        except (InvalidOrder, IllegalOrder) as exc:
            said = str(exc)
        else:
            raise AssertionError(f"{order[:40]} was accepted")
        assert len(said) < 400, said
        assert order[:ECHO] in said and f"({len(order):,} characters)" in said
    assert store.head(game_id) == head  # refused: nothing written
    # an email answer repeats the line it stopped at, and the lines not attempted, cut the same way
    lines = [PATH, PATH + " 0101", PATH + " 0102"]
    result = inbound.ingest(pbem, _mail(game_id, tokens["red"], lines, "<long@x.example>"))
    assert result.refused and store.head(game_id) == head
    reply = outbox.to("red@x.example")[-1].get_body(("plain",)).get_content()
    told = [line for line in reply.splitlines() if line.startswith(("refused:", "not attempted:"))]
    assert [line.split(":")[0] for line in told] == ["refused", "not attempted", "not attempted"]
    assert all(len(line) < 400 for line in told), told
    assert [f"({len(line):,} characters)" in said for line, said in zip(lines, told, strict=True)] == [True] * 3
    assert PATH[:ECHO] in told[0] and PATH not in reply
    # a line one typo from an order is refused as mistyped, quoting the line and the order it reads as, cut alike
    typo = PATH.replace("move", "mvoe", 1)
    inbound.ingest(pbem, _mail(game_id, tokens["red"], [typo], "<typo@x.example>"))
    assert store.head(game_id) == head
    reply = outbox.to("red@x.example")[-1].get_body(("plain",)).get_content()
    told = [line for line in reply.splitlines() if "reads as the order" in line]
    assert len(told) == 1 and len(told[0]) < 600 and typo not in told[0] and PATH not in told[0], told
    assert f"({len(typo):,} characters)" in told[0] and typo[:ECHO] in told[0]

def test_a_short_order_is_quoted_whole_as_before():
    assert str(InvalidOrder("move R1 0202 0303", "too many hexes")) == (
        "cannot read order 'move R1 0202 0303': too many hexes")
    exact = "m" * ECHO
    assert str(InvalidOrder(exact, "no such order")) == f"cannot read order {exact!r}: no such order"
    assert str(IllegalOrder("SK 4.3", "R1 must stop on entering the enemy ZOC at 0302")) == (
        "SK 4.3: R1 must stop on entering the enemy ZOC at 0302")
