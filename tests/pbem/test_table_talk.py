"""Table talk (issue 27; docs/play-by-email.md, "Table talk"): the lines of a reply that are not orders travel with
its orders as core.MessageSent events by the sender, to all seats or to the arbiter only, and every reader sees
them through the one visibility rule: the history, the answers and turn emails, the export and the replay. A line
that begins like an order, or reads as one with a mistyped or missing order word, refuses the whole email: nothing
a player meant as an order is taken for talk. Talk changes nothing in the game: no state, no die, no stale `seq:`.
Through the SMTP server on 127.0.0.1 (aiosmtpd), in the layouts s-nail and mutt (format=flowed) write."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from app.mail import inbound
from app.mail.inbound import body_text
from app.projections import state as projection
from app.rules.catalog import installed
from app.service import audit
from app.service.seats import Seat
from cli import cli
from tests.pbem.snc_gt2 import CN, JP, ORDERS, to_japanese_gt2

CATALOG = installed()  # the rule sets installed here

ARB = "arbiter@club.example"
RED, BLUE = "red@players.example", "blue@players.example"
TALK = "Good luck holding Wusong, my friend: the marines are coming, and the tide is with them tonight."
NOTE = "I will be away from 3 to 10 December; the deadline may want a look."
PROGRAMS = ("s-nail", "mutt")


def talk_events(store, game_id: str) -> list[tuple[str, str, list[str]]]:
    return [(e.payload["by"], e.payload["to"], e.payload["lines"]) for e in store.events(game_id)
            if e.type == "core.MessageSent"]


def ask(pbem, smtp, program: str, address: str, text: str, subject: str = "") -> tuple[inbound.Result, str]:
    """`address` answers its last email (with `subject`) from `program`; the result and the answer's text."""
    smtp.reply_from(program, smtp.last(address, subject), address, text)
    [result] = inbound.ingest_maildir(pbem, smtp.maildir)
    return result, body_text(smtp.last(address)).replace("\r\n", "\n")


def seat(pbem, game_id: str, name: str) -> Seat:
    return pbem.seats.authenticate_tag(game_id, pbem.seats.reply_tag(game_id, name))


@pytest.mark.parametrize("program", PROGRAMS)
def test_talk_in_a_real_mail_programs_reply_travels_with_its_orders_to_whom_it_is_addressed(pbem, smtp, store,
                                                                                             program):
    game_id = to_japanese_gt2(pbem, arbiter=ARB)
    head = store.head(game_id)[0]
    result, answer = ask(pbem, smtp, program, JP, "\n".join([*ORDERS, TALK, f"arbiter: {NOTE}"]), "Your turn")
    assert (result.applied, result.talked, result.refused) == (len(ORDERS), 2, False), result.lines
    # mutt wrapped the long line (a soft break): it is one line of talk again
    assert talk_events(store, game_id) == [("japanese", "all", [TALK]), ("japanese", "arbiter", [NOTE])]
    said = [e.seq for e in store.events(game_id) if e.type == "core.MessageSent"]
    assert said == [head + 1, head + 2]  # ahead of the message's orders, in the same write
    assert f'table talk to all: "{TALK}"' in answer and f'table talk to the arbiter only: "{NOTE}"' in answer
    assert f'japanese to the arbiter: "{NOTE}"' in answer  # the sender reads its own note in its history

    # the Chinese read the talk to all, never the note to the arbiter: their turn email (the landing asks them to
    # intercept), history, export and replay
    chinese = body_text(smtp.last(CN, "Your turn")).replace("\r\n", "\n")
    talk = chinese.partition("Table talk since your last email")[2].partition("Since your last email")[0]
    assert f'japanese to all: "{TALK}"' in talk and NOTE not in chinese
    cn = seat(pbem, game_id, "chinese")
    assert any(TALK in r["text"] for r in pbem.reads.history_rows(cn))
    assert not any(NOTE in r["text"] for r in pbem.reads.history_rows(cn))
    lines, full = pbem.reads.export(cn)
    assert not full and TALK in "".join(lines) and NOTE not in "".join(lines)
    texts = _replay_texts(store, game_id, "chinese")
    assert any(TALK in t for t in texts) and not any(NOTE in t for t in texts)
    # the arbiter reads both
    _, arbiter = ask(pbem, smtp, program, ARB, "status", "Invitation")
    assert TALK in arbiter and NOTE in arbiter

    # talk changes nothing in the game: the position and the dice are those before it, and the audit agrees
    rules = CATALOG.rules("snc")
    before, after = projection.load(store, CATALOG, game_id, head), projection.load(store, CATALOG, game_id, head + 2)
    assert rules.encode_state(before.game) == rules.encode_state(after.game)
    assert before.meta.rolls == after.meta.rolls
    assert audit.verify(CATALOG, list(store.events(game_id)), check_dice=True).ok


def _replay_texts(store, game_id: str, viewer: str) -> list[str]:
    from app.projections import replay

    return [f.text for f in replay.build(store, CATALOG, game_id, viewer).frames]


@pytest.mark.parametrize("line, why", [
    ("move to the woods", "cannot read order 'move to the woods'"),  # an order word: an order, which must read
    ("mvoe R1 0202", "reads as the order 'move R1 0202'"),  # one letter swapped
    ("R1 0202", "reads as the order 'move R1 0202'"),  # the order word left out
    ("atack 0502 with R1", "reads as the order 'attack 0502 with R1'"),  # one letter missing
    ("move R1 9999", "refused: move R1 9999 [SK 1.1]"),  # it reads, the rules refuse it: the talk waits for it
])
@pytest.mark.parametrize("program", PROGRAMS)
def test_a_line_meant_as_an_order_is_never_taken_for_talk(pbem, smtp, store, program, line, why):
    game_id = skirmish(pbem, smtp)
    head = store.head(game_id)[0]
    result, answer = ask(pbem, smtp, program, RED, f"Hi Blue!\n{line}\nend", "Your turn")
    assert result.refused and result.applied == 0 and result.talked == 0, result.lines
    assert why in answer and ("nothing of this message was played" in answer or "talk was not sent" in answer)
    assert store.head(game_id)[0] == head  # no order, no talk: nothing written
    assert "It is your turn." in answer and "Your orders now, by kind" in answer  # and where the game stands


@pytest.mark.parametrize("program", PROGRAMS)
def test_prose_that_merely_looks_like_an_order_word_is_talk(pbem, smtp, store, program):
    game_id = skirmish(pbem, smtp)
    lines = ["And good luck, Blue!", "More coffee, then the end of your village.", "say: move fast or lose, Blue"]
    result, answer = ask(pbem, smtp, program, RED, "\n".join(["move R1 0202", *lines]), "Your turn")
    assert (result.applied, result.talked, result.refused) == (1, 1, False), result.lines
    assert talk_events(store, game_id) == [("red", "all", [*lines[:2], "move fast or lose, Blue"])]


def test_talk_is_held_to_the_text_rule_and_refused_whole(pbem, smtp, store):
    game_id = skirmish(pbem, smtp)
    head = store.head(game_id)[0]
    result, answer = ask(pbem, smtp, "s-nail", RED, "move R1 0202\n" + "x" * 501, "Your turn")
    assert result.refused and result.applied == 0
    assert "table talk: the message is 501 characters long; at most 500" in answer
    result, answer = ask(pbem, smtp, "s-nail", RED, "\n".join(f"line {n} of my letter" for n in range(21)),
                         "Your turn")
    assert result.refused and "the message has 21 lines; at most 20" in answer
    assert store.head(game_id)[0] == head


def test_the_opponents_talk_does_not_make_a_seq_line_stale(pbem, smtp, store):
    game_id = skirmish(pbem, smtp)
    turn = smtp.last(RED, "Your turn")
    seq = store.head(game_id)[0]
    result, waiting = ask(pbem, smtp, "mutt", BLUE, "Take your time, Red.")  # blue's talk while red is to act
    assert result.talked == 1 and "It is not your turn: red to act." in waiting
    smtp.reply_from("s-nail", turn, RED, f"seq: {seq}\nmove R1 0202")
    [result] = inbound.ingest_maildir(pbem, smtp.maildir)
    assert result.applied == 1 and not result.refused, result.lines  # only talk came after event `seq`
    ask(pbem, smtp, "s-nail", BLUE, "end")  # refused: not blue's turn, and nothing written
    smtp.reply_from("s-nail", turn, RED, f"seq: {seq}\nend")  # the game moved on since: refused
    [result] = inbound.ingest_maildir(pbem, smtp.maildir)
    assert result.refused and f"you wrote for event {seq}" in body_text(smtp.last(RED))


def test_talk_over_the_api_and_the_command_line_and_an_arbiters_note(pbem, smtp, store):
    game_id = skirmish(pbem, smtp, arbiter=ARB)
    red, blue = seat(pbem, game_id, "red"), seat(pbem, game_id, "blue")
    done = pbem.talk.say(red, ["Good luck!", "Have fun."])
    assert done["lines"] == ["Good luck!", "Have fun."] and done["receipt"]["seq"] == done["seq"]
    pbem.talk.say(blue, ["The arbiter should know my clock is slow."], "arbiter")
    runner = CliRunner()
    out = runner.invoke(cli, ["--db", store.path, "say", game_id, "Rules question for later.", "--as", "red",
                              "--to", "arbiter", "--json"])
    assert out.exit_code == 0 and json.loads(out.output)["to"] == "arbiter", out.output
    bad = runner.invoke(cli, ["--db", store.path, "say", game_id, "hello", "--as", "green"])
    assert bad.exit_code == 1 and "no seat 'green'" in bad.output
    seen = {name: [r["text"] for r in pbem.reads.history_rows(s) if r["type"] == "core.MessageSent"]
            for name, s in (("red", red), ("blue", blue), ("arbiter", seat(pbem, game_id, "arbiter")))}
    assert seen["red"] == ['red to all: "Good luck!" / "Have fun."', 'red to the arbiter: "Rules question for later."']
    assert seen["blue"] == ['red to all: "Good luck!" / "Have fun."',
                            'blue to the arbiter: "The arbiter should know my clock is slow."']
    assert len(seen["arbiter"]) == 3
    assert pbem.reads.prompt(red)["your_turn"]  # talk took no turn


def skirmish(pbem, smtp, arbiter: str | None = None) -> str:
    """A skirmish both players joined by email; red is to act."""
    game_id, _ = pbem.setup.create("skirmish", {"red": RED, "blue": BLUE}, arbiter=arbiter)
    for address in (RED, BLUE):
        smtp.reply(smtp.last(address, "Invitation"), address, f"join: {address}")
    assert [r.applied for r in inbound.ingest_maildir(pbem, smtp.maildir)] == [1, 1]
    return game_id
