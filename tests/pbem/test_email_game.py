"""A skirmish played purely by email through a real SMTP server on 127.0.0.1: invitations, turn emails, replies
with orders, a refused order, a replayed and a forged message, a takeback by consent, a dispute the arbiter
rejects; at the end the game verifies and its history shows what was retracted."""
import re

from app.mail import inbound
from app.mail.inbound import body_text
from app.projections import state as projection
from app.rules.catalog import installed
from app.service import audit
from tests.pbem.conftest import token_in

CATALOG = installed()  # the rule sets installed here

RED, BLUE, ARB = "red@players.example", "blue@players.example", "arbiter@club.example"


def deliver(pbem, smtp):
    """The cron job's `ingest-email --maildir`: process what the MTA delivered to the orders mailbox."""
    return inbound.ingest_maildir(pbem, smtp.maildir)


def seq_of(text: str, order_line: str) -> int:
    return int(re.search(rf"^\s+(\d+)\s+{re.escape(order_line)}$", text.replace("\r\n", "\n"), re.M).group(1))


def test_a_game_played_by_email(pbem, smtp, store):
    game_id, _ = pbem.setup.create("skirmish", {"red": RED, "blue": BLUE}, arbiter=ARB)
    invites = {a: smtp.last(a, "Invitation") for a in (RED, BLUE, ARB)}
    tokens = {a: token_in(m) for a, m in invites.items()}
    assert len(set(tokens.values())) == 3
    # the reply address names the seat by its reply tag (an HMAC the server recomputes), never by the token
    assert invites[RED]["Reply-To"] == f"orders+{game_id}.{pbem.seats.reply_tag(game_id, 'red')}@pbem.example"
    assert all(t not in str(m) for m in invites.values() for t in tokens.values() if t != token_in(m))
    assert all(token_in(m) not in m["Reply-To"] for m in invites.values())

    # both take their seats by replying to the invitation
    smtp.reply(invites[RED], RED, "join: red's lucky words")
    smtp.reply(invites[BLUE], BLUE, "join: blue's own dice text")
    assert [r.applied for r in deliver(pbem, smtp)] == [1, 1]
    turn = smtp.last(RED, "Your turn")
    assert "move UNIT HEX [HEX ...]" in body_text(turn) and "R1" in body_text(turn)

    # red's first turn in one reply, with no token line: the turn email's reply address is red's seat;
    # the quoted email and the signature are ignored
    assert turn["Reply-To"] == invites[RED]["Reply-To"] and tokens[RED] not in body_text(turn)
    smtp.reply(turn, RED, "move R1 0202\nmove R2 0203 0303\nend\nend")
    [result] = deliver(pbem, smtp)
    assert result.applied == 4 and not result.refused
    ack = body_text(smtp.last(RED, "Orders received"))
    assert "accepted: move R2 0203 0303" in ack
    assert "R2 moves 0203 - 0303" in ack.partition("Since your last email")[2]  # what it did, in the history

    # blue: the second order is refused with its rules case; the first stands, the rest are not attempted
    turn = smtp.last(BLUE, "Your turn")
    assert "R1 moves 0202" in body_text(turn)  # what happened since blue's last email
    bad = smtp.reply(turn, BLUE, f"token: {tokens[BLUE]}\nmove B1 0602 0502\nmove B1 0402\nend")
    [result] = deliver(pbem, smtp)
    assert result.refused and result.applied == 1
    refusal = body_text(smtp.last(BLUE, "Orders refused"))
    assert "refused: move B1 0402 [SK 4.1]" in refusal and "already moved" in refusal
    assert "not attempted: end" in refusal
    head = store.head(game_id)[0]

    # the same message again (a replay: its first answer repeated), and a forged one with a wrong token: refused;
    # nothing written
    smtp.send(bad)
    smtp.reply(turn, "mallory@evil.example", f"token: {'0' * 32}\nend", to=f"orders+{game_id}@pbem.example")
    results = deliver(pbem, smtp)
    assert [(r.repeated, r.refused, r.applied) for r in results] == [(True, False, 0), (False, True, 0)]
    again = body_text(smtp.last(BLUE, "Orders refused"))
    assert "already processed" in again and "refused: move B1 0402 [SK 4.1]" in again
    assert "opens no seat" in body_text(smtp.last("mallory@evil.example"))
    assert store.head(game_id)[0] == head

    smtp.reply(turn, BLUE, f"token: {tokens[BLUE]}\nseq: {head}\nmove B2 0603 0503\nend\nend")
    assert deliver(pbem, smtp)[0].applied == 3

    # blue regrets B2's move after red has seen it: a dispute, accepted by red, takes it back
    turn = body_text(smtp.last(RED, "Your turn"))
    b2 = seq_of(turn, "blue orders: move B2 0603 0503")
    smtp.reply(smtp.last(BLUE, "Orders received"), BLUE, f"token: {tokens[BLUE]}\ndispute {b2}: meant to keep B2 back")
    deliver(pbem, smtp)
    notice = body_text(smtp.last(RED, "Dispute 1"))
    assert "meant to keep B2 back" in notice and "accept dispute 1" in notice
    smtp.reply(smtp.last(RED, "Dispute 1"), RED, f"token: {tokens[RED]}\naccept dispute 1")
    deliver(pbem, smtp)
    assert "accepted by red" in body_text(smtp.last(BLUE, "Dispute 1 accepted"))
    state = projection.load(store, CATALOG, game_id)
    assert state.game.units["B2"].hex == "0703" and state.game.side == "blue"
    assert state.game.units["B1"].hex == "0502"  # before the disputed order: it stands
    again = smtp.last(BLUE, "Your turn")
    assert f"events {b2}-" in body_text(again) and "retracted by red (consent, dispute 1" in body_text(again)
    smtp.reply(again, BLUE, f"token: {tokens[BLUE]}\nmove B2 0603\nend\nend")
    assert deliver(pbem, smtp)[0].applied == 3

    # red attacks; blue disputes it, red rejects, the arbiter rules against blue
    turn = smtp.last(RED, "Your turn")
    smtp.reply(turn, RED, f"token: {tokens[RED]}\nmove R1 0302 0402\nmove R3 0204 0304\nend\n"
                          "attack 0502 with R1\nend")
    [result] = deliver(pbem, smtp)
    assert result.applied == 5, result.lines
    attack = seq_of(body_text(smtp.last(BLUE, "Your turn")), "red orders: attack 0502 with R1")
    smtp.reply(smtp.last(BLUE, "Your turn"), BLUE, f"token: {tokens[BLUE]}\ndispute {attack}: R1 was out of range")
    deliver(pbem, smtp)
    smtp.reply(smtp.last(RED, "Dispute 2"), RED, f"token: {tokens[RED]}\nreject dispute 2: it was adjacent")
    deliver(pbem, smtp)
    ruling = smtp.last(ARB, "Dispute 2 needs your ruling")
    smtp.reply(ruling, ARB, f"token: {tokens[ARB]}\nreject dispute 2: 0402 is adjacent to 0502 (SK 5.1)")
    deliver(pbem, smtp)
    for address in (RED, BLUE, ARB):
        assert "rejected by arbiter" in body_text(smtp.last(address, "Dispute 2 rejected"))
    assert projection.load(store, CATALOG, game_id).meta.rolls == 1

    # the disputes are events: in the stream, the history and the export, whatever their outcome
    kinds = [(e.type, e.payload.get("status")) for e in store.events(game_id) if e.type.startswith("core.Dispute")]
    assert kinds == [("core.DisputeRaised", None), ("core.DisputeAnswered", "accepted"),
                     ("core.DisputeRaised", None), ("core.DisputeAnswered", "referred"),
                     ("core.DisputeAnswered", "rejected")]
    arb_seat = pbem.seats.authenticate(game_id, tokens[ARB])
    assert [d["status"] for d in pbem.reads.disputes(game_id)] == ["accepted", "rejected"]
    exported = "".join(pbem.reads.export(arb_seat)[0])
    assert "R1 was out of range" in exported and "core.DisputeAnswered" in exported
    blue_log = [r["text"] for r in pbem.reads.history_rows(pbem.seats.authenticate(game_id, tokens[BLUE]))]
    assert f"blue disputes event {attack} (dispute 2): \"R1 was out of range\"" in blue_log
    assert "dispute 2 rejected by arbiter: \"0402 is adjacent to 0502 (SK 5.1)\"" in blue_log

    # the attack and its die roll stand; the retracted move is in the log, marked; the game verifies
    events = list(store.events(game_id))
    report = audit.verify(CATALOG, events)
    assert report.ok, report.problems
    log = pbem.reads.history_rows(pbem.seats.authenticate(game_id, tokens[ARB]))
    assert [r["text"] for r in log if r["retracted"]][0] == "[retracted] blue orders: move B2 0603 0503"
    assert any("retracted by red (consent, dispute 1 raised by blue): dispute 1: meant to keep B2 back" in r["text"]
               for r in log)
