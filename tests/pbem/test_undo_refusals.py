"""Issue 5: "A player's own undo ... needs no consent, unless it would take back a die roll or a revealed unit"
(docs/architecture.md practice 9). By email through the real SMTP server on 127.0.0.1: an `undo` of an order that
rolled a die (a skirmish attack) or revealed hidden units (an SNC 8.4 landing: declaring it lifts the fog from the
defenders, SNC 6.3) is refused, saying why, and writes nothing; the same order can still be taken back with the
opponent's consent or by the arbiter's ruling, as an appended core.Retracted that keeps the die roll in the log."""
import re

import pytest

from app.mail import inbound
from app.mail.inbound import body_text
from app.projections import state as projection
from app.rules.catalog import installed
from tests.pbem.conftest import token_in

CATALOG = installed()  # the rule sets installed here

RED, BLUE = "red@players.example", "blue@players.example"
CN, JP, ARB = "chinese@players.example", "japanese@players.example", "arbiter@club.example"


def seat_players(pbem, smtp, rules: str, players: dict[str, str], arbiter: str | None = None) -> str:
    game_id, _ = pbem.setup.create(rules, players, arbiter=arbiter)
    for address in players.values():
        smtp.reply(smtp.last(address, "Invitation"), address, f"join: {address}'s dice text")
    assert [r.applied for r in inbound.ingest_maildir(pbem, smtp.maildir)] == [1] * len(players)
    return game_id


def send(pbem, smtp, address: str, *lines: str, subject: str = "Your turn") -> inbound.Result:
    smtp.reply(smtp.last(address, subject), address, "\n".join(lines))
    [result] = inbound.ingest_maildir(pbem, smtp.maildir)
    return result


def log(store, game_id: str) -> list[tuple]:
    return [(e.seq, e.type, e.payload, e.hash) for e in store.events(game_id)]


def test_undo_of_a_die_roll_is_refused_and_writes_nothing_but_the_opponent_may_consent(pbem, smtp, store):
    game_id = seat_players(pbem, smtp, "skirmish", {"red": RED, "blue": BLUE})
    assert send(pbem, smtp, RED, "move R1 0202", "move R2 0203 0303", "end", "end").applied == 4
    assert send(pbem, smtp, BLUE, "move B1 0602 0502", "end", "end").applied == 3
    r = send(pbem, smtp, RED, "move R1 0302 0402", "end", "attack 0502 with R1")
    assert r.applied == 3 and not r.refused, r.lines
    events = list(store.events(game_id))
    attack = max(e.seq for e in events if e.type == "core.OrderGiven")
    [roll] = [e.seq for e in events if e.type == "core.DieRolled"]
    assert roll > attack
    assert projection.load(store, CATALOG, game_id).game.side == "red"  # red still acts: blue was not told
    before, rolls = log(store, game_id), projection.load(store, CATALOG, game_id).meta.rolls

    r = send(pbem, smtp, RED, "undo", subject="Orders received")
    assert r.refused and r.applied == 0
    refusal = body_text(smtp.last(RED, "Orders refused"))
    assert (f"refused: undo: event {roll} is a die roll: only your opponent or the arbiter can take it back"
            in refusal), refusal
    assert log(store, game_id) == before  # nothing written: no retraction, no new event, no roll undone
    assert projection.load(store, CATALOG, game_id).meta.rolls == rolls

    # taken back with blue's consent: red disputes the attack, blue accepts
    assert send(pbem, smtp, RED, f"dispute {attack}: I meant to attack with R2").applied
    assert send(pbem, smtp, BLUE, "accept dispute 1", subject="Dispute 1").applied
    events = list(store.events(game_id))
    [retraction] = [e for e in events if e.type == "core.Retracted"]
    assert retraction.payload["from_seq"] == attack and retraction.payload["by"].startswith("blue (consent")
    state = projection.load(store, CATALOG, game_id)
    assert state.game.units["B1"].steps == 2 and state.game.units["R1"].hex == "0402" and state.game.side == "red"
    assert state.meta.rolls == rolls  # the dice counter does not go back: the retracted roll is never rolled again
    again = body_text(smtp.last(RED, "Your turn")).replace("\r\n", "\n")  # told again: the position changed
    assert re.search(rf"^\s+{retraction.seq}\s+events {attack}-\d+ retracted by blue \(consent", again, re.M), again
    red = pbem.seats.authenticate_tag(game_id, pbem.seats.reply_tag(game_id, "red"))
    assert pbem.reads.history_rows(red, roll)[0]["text"].startswith("[retracted] die roll")  # kept, marked


@pytest.mark.slow  # a game played to its reveal
def test_undo_of_a_reveal_is_refused_and_writes_nothing_but_the_arbiter_may_take_it_back(pbem, smtp, store):
    """SNC 6.3: a landing against a defended hex opens a battle, which shows the Japanese what is in the Chinese
    stack (`reveals`); it rolls no die before the Chinese answer the air support, so only the reveal stops it."""
    game_id = seat_players(pbem, smtp, "snc", {"chinese": CN, "japanese": JP}, arbiter=ARB)
    assert send(pbem, smtp, CN, "declare move move", "end", "end", "end").applied == 4
    assert send(pbem, smtp, JP, "declare fight fight", "end", "land snlf-9 at 3512", "end", "end").applied == 5
    r = send(pbem, smtp, CN, "declare move move", "end", "place d11 d14 at 2503", "place d61 d62 d63 at 1824",
             "place d3 d6 d7 at 2410", "move d3 to 2610", "end", "end")
    assert r.applied == 8 and not r.refused, r.lines
    head, waiting = store.head(game_id)[0], projection.load(store, CATALOG, game_id).game.units["jp-d3-r6"]

    # the landing and the undo in one message: the undo comes before the Chinese are told of the landing
    r = send(pbem, smtp, JP, "declare move fight", "end",
             "land d3-r6 d3-r18 d3-r34 d3-r68 at 3510 support amphibious naval air artillery", "undo")
    assert r.applied == 3 and r.refused, r.lines
    events = list(store.events(game_id, head + 1))
    land = max(e.seq for e in events if e.type == "core.OrderGiven")
    [opened] = [e.seq for e in events if e.type == "snc.BattleOpened"]
    assert not [e for e in events if e.type == "core.DieRolled"]
    refusal = body_text(smtp.last(JP, "Orders refused"))
    assert (f"refused: undo: event {opened} revealed something: only your opponent or the arbiter can take it back"
            in refusal), refusal
    assert "(the 3 order(s) accepted above stand)" in refusal
    # nothing after the landing but the landing's own events: the refused undo wrote nothing
    assert [e.causation for e in events if e.seq > land] == [land] * (events[-1].seq - land)
    assert not [e for e in store.events(game_id) if e.type == "core.Retracted"]
    game = projection.load(store, CATALOG, game_id).game
    assert game.battle["hex"] == "3510" and game.units["jp-d3-r6"].status == "landing"

    # an undo on its own, now that the Chinese have the landing in their turn email, is refused as well
    assert "land (details hidden, SNC 6.3)" in body_text(smtp.last(CN, "Your turn"))
    before = log(store, game_id)
    assert send(pbem, smtp, JP, "undo").refused
    assert "dispute it instead" in body_text(smtp.last(JP, "Orders refused"))
    assert log(store, game_id) == before

    # the arbiter's ruling takes it back: the Japanese dispute their own landing, the Chinese refuse, the arbiter
    # upholds; the battle and the landing are retracted (kept in the log, marked)
    assert send(pbem, smtp, JP, f"dispute {land}: wrong landing hex").applied
    assert send(pbem, smtp, CN, "reject dispute 1: you have seen my garrison now", subject="Dispute 1").applied
    assert send(pbem, smtp, ARB, "uphold dispute 1: the landing was a slip of the pen",
                subject="Dispute 1 needs your ruling").applied
    [retraction] = [e for e in store.events(game_id) if e.type == "core.Retracted"]
    assert retraction.payload["from_seq"] == land and retraction.payload["by"].startswith("arbiter (ruling")
    game = projection.load(store, CATALOG, game_id).game
    assert game.battle is None and game.units["jp-d3-r6"] == waiting and game.side == "japanese"
    log_lines = [r["text"] for r in pbem.reads.history_rows(pbem.seats.authenticate(game_id, token_in(
        smtp.last(ARB, "Invitation"))), land)]
    assert log_lines[0].startswith("[retracted] japanese orders: land d3-r6")
    assert any(t.startswith("[retracted] japanese landing on 3510") for t in log_lines), log_lines
