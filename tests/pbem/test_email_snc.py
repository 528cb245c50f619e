"""Shanghai-Nanking played purely by email through a real SMTP server on 127.0.0.1 (issue 5): invitations, joins,
turn emails, the SNC 12.0 opening sent as replies, a refused order naming its SNC case, a move retracted by consent,
a dispute the arbiter rejects, then random legal orders by email into GT 3; the game verifies, and no email to the
Japanese names a Chinese unit their view never showed them (SNC 6.3)."""
import random
import re

import pytest

from app.events.dice import SeededDice
from app.mail import inbound
from app.mail.inbound import body_text
from app.projections import state as projection
from app.rules.catalog import installed
from app.rules.errors import OrderError
from app.rules.snc import GAME as RULES
from app.service import audit
from tests.pbem.conftest import counters, map_picture, token_in
from tests.snc.snc_fogcheck import named, seen
from tests.snc.snc_randomplay import candidates

CATALOG = installed()  # the rule sets installed here

pytestmark = pytest.mark.slow  # a whole game played by email

CN, JP, ARB = "chinese@players.example", "japanese@players.example", "arbiter@club.example"
EMAIL = {"chinese": CN, "japanese": JP}


def deliver(pbem, smtp):
    return inbound.ingest_maildir(pbem, smtp.maildir)


def seq_of(text: str, line: str) -> int:
    return int(re.search(rf"^\s+(\d+)\s+{re.escape(line)}$", text.replace("\r\n", "\n"), re.M).group(1))


def legal(state, rng) -> str:
    """A random order the rules accept now (tried on a copy of the state: nothing is written)."""
    side = RULES.prompt(state).side
    for text in candidates(state, rng):
        try:
            RULES.decide(state, RULES.parse(text, side, state), SeededDice(next_index=0, seed="t", game_id="t"))
            return text
        except OrderError:
            continue
    raise AssertionError(f"no legal order at {RULES.prompt(state).step}")


def test_shanghai_nanking_played_by_email(pbem, smtp, store):
    game_id, _ = pbem.setup.create("snc", {"chinese": CN, "japanese": JP}, arbiter=ARB)
    invites = {a: smtp.last(a, "Invitation") for a in (CN, JP, ARB)}
    tok = {a: token_in(m) for a, m in invites.items()}
    smtp.reply(invites[CN], CN, "join: the Yangtze at dawn")
    smtp.reply(invites[JP], JP, "join: Kure naval district")
    assert [r.applied for r in deliver(pbem, smtp)] == [1, 1]

    def orders(address: str, *lines: str, subject: str = "Your turn") -> inbound.Result:
        smtp.reply(smtp.last(address, subject), address, "\n".join([f"token: {tok[address]}", *lines]))
        [result] = deliver(pbem, smtp)
        return result

    # SNC 12.0, GT 1: the Chinese hold; SNLF 9 lands at Shanghai (13.0)
    turn = body_text(smtp.last(CN, "Your turn"))
    assert "declare move|fight move|fight" in turn and "[SNC 5.3]" in turn
    assert orders(CN, "declare move move", "end", "end", "end").applied == 4
    r = orders(JP, "declare fight fight", "end", "land snlf-9 at 3512", "end", "end")
    assert r.applied == 5 and not r.refused, r.lines

    # GT 2, Chinese reinforcements: one placement is refused with its case; what came before it stands
    r = orders(CN, "declare move move", "end", "place d11 d14 at 2503", "place d61 d62 d63 at 3510", "end")
    assert r.refused and r.applied == 3
    refusal = body_text(smtp.last(CN, "Orders refused"))
    assert "refused: place d61 d62 d63 at 3510 [SNC 13.0]: SNC 13.0: cn-d61 arrives at 1824" in refusal
    assert "not attempted: end" in refusal
    r = orders(CN, "place d61 d62 d63 at 1824", "place d3 d6 d7 at 2410", "move d3 to 2610", "end", "end",
               subject="Orders refused")
    assert r.applied == 5 and not r.refused, r.lines

    # the Japanese see the Chinese move redacted, with its event number, and dispute it; the Chinese consent
    turn = body_text(smtp.last(JP, "Your turn"))
    assert "a Chinese stack moves 2410 - 2510 - 2610" in turn  # (d3 is then alone: its view shows it)
    move = seq_of(turn, "chinese orders: move (details hidden, SNC 6.3)")
    assert orders(JP, f"dispute {move}: that stack moved through my zone of control").applied
    notice = body_text(smtp.last(JP, "Dispute 1"))
    assert "move d3" not in notice and "chinese orders: move (details hidden" in notice
    assert "move d3 to 2610" in body_text(smtp.last(CN, "Dispute 1"))  # the Chinese see their own order
    assert orders(CN, "accept dispute 1", subject="Dispute 1").applied
    assert "accepted by chinese" in body_text(smtp.last(JP, "Dispute 1 accepted"))
    game = projection.load(store, CATALOG, game_id).game
    assert game.units["cn-d3"].hex == "2410" and game.side == "chinese" and game.phase == "reinf"
    # d3 must still leave 2410 (6.2: three divisions overstack it); the Chinese move it again
    assert orders(CN, "move d3 to 2610", "end", "end").applied == 3

    # GT 2, Japanese: the 3rd Division lands at Wusong; the Chinese dispute it, the Japanese reject, the arbiter
    # rules against the Chinese
    r = orders(JP, "declare move fight", "end",
               "land d3-r6 d3-r18 d3-r34 d3-r68 at 3510 support amphibious naval air artillery")
    assert r.applied == 3 and not r.refused, r.lines
    turn = body_text(smtp.last(CN, "Your turn"))
    land = seq_of(turn, "japanese orders: land (details hidden, SNC 6.3)")
    assert orders(CN, "pass").applied == 1
    assert orders(CN, f"dispute {land}: Wusong is no landing beach", subject="Orders received").applied
    assert orders(JP, "reject dispute 2: 3510 is a landing hex of SNC 8.4", subject="Dispute 2").applied
    assert orders(ARB, "reject dispute 2: 3510 is a coastal landing hex (SNC 8.4)",
                  subject="Dispute 2 needs your ruling").applied
    for address in (CN, JP, ARB):
        assert "rejected by arbiter" in body_text(smtp.last(address, "Dispute 2 rejected"))

    # then random legal orders, each in its own reply to the latest email, until the Chinese turn of GT 3 begins
    rng = random.Random(5)
    for _ in range(80):
        game = projection.load(store, CATALOG, game_id).game
        if RULES.outcome(game) is not None or (game.turn, game.side) == (3, "japanese"):
            break
        side = RULES.prompt(game).side
        address = EMAIL[side]
        head = store.head(game_id)[0]
        smtp.reply(smtp.inbox(address)[-1], address, f"token: {tok[address]}\n{legal(game, rng)}",
                   to=f"orders+{game_id}.{tok[address]}@pbem.example")
        [r] = deliver(pbem, smtp)
        assert r.applied == 1 and not r.refused, r.lines
        assert store.head(game_id)[0] > head
    game = projection.load(store, CATALOG, game_id).game
    assert game.turn >= 3 or RULES.outcome(game) is not None

    events = list(store.events(game_id))
    if RULES.outcome(game) is not None:
        seat = pbem.seats.authenticate(game_id, tok[ARB])
        assert pbem.reads.verify(seat)["ok"]
    report = audit.verify(CATALOG, events)
    assert report.ok, report.problems

    # SNC 6.3 in the mail: every Chinese unit named in an email to the Japanese was shown in their view at some
    # point (the top of a stack, or a defender they attacked); the Chinese orders named units that never were
    shown: set[str] = set()
    for e in events:
        shown |= seen(RULES.view(projection.load(store, CATALOG, game_id, e.seq).game, "japanese"))
    chinese_named = set().union(*(named(body_text(m)) for m in smtp.inbox(CN)))
    hidden = {u for u in chinese_named if u.startswith("cn-")} - shown
    assert hidden, "the Chinese emails should name some unit the Japanese never saw"
    pictures = 0
    for m in smtp.inbox(JP):
        leaked = {u for u in named(body_text(m)) if u.startswith("cn-")} - shown
        assert not leaked, f"{m['Subject']} names hidden Chinese units {leaked}"
        if m.get_content_maintype() == "multipart":  # a turn email: its map picture draws only what JP saw
            drawn = {unit for unit, _, _ in counters(map_picture(m))}
            assert not {u for u in drawn if u.startswith("cn-")} - shown, m["Subject"]
            pictures += 1
    assert pictures >= 5
