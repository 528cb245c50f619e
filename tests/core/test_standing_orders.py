"""Standing orders (issue 27, docs/play-by-email.md "Standing orders"): a side answers a decision of the other
side's turn in advance; the server gives that answer when the decision is asked, stored as the side's order with
the standing order that chose it, which `verify` re-decides; a decision no standing order answers still goes to
the player; the orders are hidden from the other side; a refused setting writes nothing. Shanghai-Nanking GT 2,
the Japanese landing at 3510 with air support (SNC 11.3: the Chinese may intercept), the server's dice fixed."""
from __future__ import annotations

import dataclasses

import pytest

from app.events import dice
from app.events.backends import open_store
from app.events.envelope import StoredEvent
from app.mail.transport import MailConfig
from app.projections import state as projection
from app.rules import standing
from app.rules.catalog import installed
from app.rules.engine.decision import FixedDice
from app.rules.kernel.hexgrid import Hex
from app.service import audit, games
from app.service.application import Application
from app.service.errors import AccessDenied, PbemError
from app.service.seats import ARBITER, Seat
from tests.outbox import Outbox

CATALOG = installed()  # the rule sets installed here

SNC = CATALOG.rules("snc")
LANDING = "land d3-r6 d3-r18 d3-r34 d3-r68 at 3510 support amphibious naval air artillery"
GT1_GT2 = [("chinese", "declare move move"), ("chinese", "end"), ("chinese", "end"), ("chinese", "end"),
           ("japanese", "declare fight fight"), ("japanese", "end"), ("japanese", "land snlf-9 at 3512"),
           ("japanese", "end"), ("japanese", "end"), ("chinese", "declare move move"), ("chinese", "end"),
           ("chinese", "place d11 d14 at 2503"), ("chinese", "place d61 d62 d63 at 1824"),
           ("chinese", "place d3 d6 d7 at 2410"), ("chinese", "move d3 to 2610"), ("chinese", "end"),
           ("chinese", "end"), ("japanese", "declare move fight"), ("japanese", "end")]
ATTACK = "attack 3511 with jp-snlf-1 jp-snlf-2 jp-snlf-3 jp-snlf-9 jp-d3-r6 jp-d3-r18 jp-d3-r34 jp-d3-r68"


class Game:
    def __init__(self, app: Application, game_id: str, outbox: Outbox):
        self.app, self.game_id, self.outbox = app, game_id, outbox
        self.seat = {s: Seat(game_id, s, f"{s}@players.example") for s in ("chinese", "japanese", ARBITER)}

    @property
    def state(self) -> projection.GameState:
        return projection.load(self.app.store, CATALOG, self.game_id)

    def events(self) -> list[StoredEvent]:
        return list(self.app.store.events(self.game_id))


def snc_at_the_landing(tmp_path, monkeypatch, seed: int, chinese_standing: dict | None) -> Game:
    """SNC to the Japanese GT 2 reinforcement phase (the landing next); the Chinese set `chinese_standing` before
    the game starts; the server's dice seed fixed by `seed` (seed 1: the landing wins without a Japanese loss, and
    the attack on 3511 after it costs the Japanese a step, theirs to choose)."""
    monkeypatch.setattr(dice, "new_seed", lambda: f"{seed:064x}")
    monkeypatch.setattr(games, "new_game_id", lambda store: "g-57a4d1ce")  # the rolls derive from it too
    outbox = Outbox()
    app = Application(open_store(str(tmp_path / "standing.sqlite3")), MailConfig(orders_address="orders@pbem.example"),
                      transport=outbox)
    game_id, _ = app.setup.create("snc", {"chinese": "chinese@players.example", "japanese": "japanese@players.example"},
                                  arbiter="arbiter@club.example")
    game = Game(app, game_id, outbox)
    if chinese_standing:
        app.standing.set(game.seat["chinese"], chinese_standing)
    app.setup.join(game.seat["chinese"], "the Yangtze at dawn")
    app.setup.join(game.seat["japanese"], "Kure naval district")
    for side, order in GT1_GT2:
        app.orders.submit(game.seat[side], order)
    return game


def resealed(events: list[StoredEvent], seq: int, payload: dict) -> list[StoredEvent]:
    """The stream with event `seq`'s payload replaced and the chain sealed again from there, as someone holding the
    database could: only re-deciding the order can find it."""
    out: list[StoredEvent] = []
    for e in events:
        if e.seq == seq:
            e = dataclasses.replace(e, payload=payload)
        if e.seq >= seq:
            fields = {k: v for k, v in dataclasses.asdict(e).items() if k != "hash"}
            e = StoredEvent.sealed(**{**fields, "prev_hash": out[-1].hash})
        out.append(e)
    return out


def test_the_server_answers_the_decision_with_the_standing_order_and_verify_re_decides_it(tmp_path, monkeypatch):
    game = snc_at_the_landing(tmp_path, monkeypatch, 1, {"intercept": ["never"], "losses": ["weakest"]})
    asked = len([m for m in game.outbox.sent if m["To"] == "chinese@players.example"])
    landed = game.app.orders.submit(game.seat["japanese"], LANDING)

    order = next(e for e in landed.events if e.type == "core.OrderGiven" and e.payload["side"] == "chinese")
    assert order.actor == "standing:chinese" and order.payload["text"] == "pass"  # SNC 11.3: not intercepted
    assert order.payload["auto"]["standing"] == "intercept"
    assert SNC.prompt(landed.state.game).side == "japanese"  # the Japanese go on: nobody waited for the Chinese
    assert len([m for m in game.outbox.sent if m["To"] == "chinese@players.example"]) == asked  # nobody asked

    events = game.events()
    assert audit.verify(CATALOG, events).ok
    taken = audit.verify(CATALOG, resealed(events, order.seq, {**order.payload, "text": "intercept",
                                                      "command": {**order.payload["command"], "action": "intercept"}}))
    assert taken.first_bad_seq == order.seq
    assert "standing order for intercept gives 'pass' here, not the stored 'intercept'" in taken.problems[0].message
    setting = next(e for e in events if e.type == "core.StandingOrdersSet")
    unset = audit.verify(CATALOG, resealed(events, setting.seq, {**setting.payload, "orders": {"losses": ["weakest"]}}))
    assert unset.first_bad_seq == order.seq and "chinese had none set" in unset.problems[0].message


def test_a_decision_no_standing_order_answers_goes_to_the_player_until_one_is_set(tmp_path, monkeypatch):
    game = snc_at_the_landing(tmp_path, monkeypatch, 1, {"intercept": ["never"]})
    game.app.orders.play(game.seat["japanese"], [LANDING, "end"])
    landed = game.app.orders.submit(game.seat["japanese"], ATTACK)  # the Japanese lose a step: theirs to choose
    assert SNC.prompt(landed.state.game).side == "japanese" and standing.kind_now(SNC, landed.state.game) == "losses"
    offered = [o["order"] for o in SNC.legal_orders(landed.state.game, "japanese")]
    assert offered[:2] == ["lose jp-d3-r18 jp-d3-r34", "lose jp-d3-r18 jp-d3-r6"]  # SNC 10.5.2: strongest first

    # each preference picks among the orders the rules accept now; a clause that picks none leaves it to the player
    at = landed.state.game
    assert standing.choose(SNC, at, "japanese", "losses", ["weakest"])[0] == offered[0]  # equals: the first listed
    assert standing.choose(SNC, at, "japanese", "losses", ["keep jp-d3-r18", "weakest"])[0] == "lose jp-d3-r34 jp-d3-r6"
    assert standing.choose(SNC, at, "japanese", "losses", ["keep jp-d3-r18 jp-d3-r34 jp-d3-r6"]) is None
    assert standing.choose(SNC, at, "japanese", "losses", ["keep jp-d3-r6 jp-d3-r68 jp-d3-r18 weakest"]) is None
    assert standing.choose(SNC, at, "japanese", "losses", ["keep jp-d3-r6 jp-d3-r68 jp-d3-r18 weakest",
                                                           "strongest"])[0] == offered[0]  # the next clause
    assert standing.choose(SNC, at, "japanese", "losses", ["at 0101 weakest"]) is None  # another battle's
    assert standing.choose(SNC, at, "japanese", "losses", ["at 3511 keep jp-d3-r18"])[0] == "lose jp-d3-r34 jp-d3-r6"
    assert standing.choose(SNC, at, "japanese", "losses", ["lose jp-snlf-1 jp-snlf-2", offered[-1]])[0] == offered[-1]
    assert standing.choose(SNC, at, "chinese", "losses", ["weakest"]) is None  # not the Chinese's decision
    weakest = offered[0]

    done = game.app.standing.set(game.seat["japanese"], {"losses": ["weakest"]})
    assert done["lines"] == ["standing losses: weakest"]
    answered = [r for r in done["events"] if r["actor"] == "standing:japanese" and r["type"] == "core.OrderGiven"]
    assert [r["text"] for r in answered] == [f"japanese orders: {weakest}  [its standing order for losses]"]
    assert audit.verify(CATALOG, game.events()).ok


def test_a_message_plays_on_after_the_other_sides_standing_answer(tmp_path, monkeypatch):
    game = snc_at_the_landing(tmp_path, monkeypatch, 1, {"intercept": ["never"]})
    played = game.app.orders.play(game.seat["japanese"], [LANDING, "end"])
    assert played.refused is None and len(played.orders) == 2
    assert any("chinese orders: pass  [its standing order for intercept]" == r["text"] for r in played.between[0])
    assert standing.kind_now(SNC, played.state.game) != "reinforcement"


def test_without_a_standing_order_the_message_stops_where_the_other_side_is_asked(tmp_path, monkeypatch):
    game = snc_at_the_landing(tmp_path, monkeypatch, 1, None)
    played = game.app.orders.play(game.seat["japanese"], [LANDING, "end"])
    assert len(played.orders) == 1 and "it is chinese's turn" in str(played.refused)
    assert SNC.prompt(played.state.game).side == "chinese" and standing.kind_now(SNC, played.state.game) == "intercept"


def test_the_other_side_reads_only_that_standing_orders_were_set(tmp_path, monkeypatch):
    game = snc_at_the_landing(tmp_path, monkeypatch, 1, {"intercept": ["never"], "retreat": ["toward 0202"]})
    rows = game.app.reads.history_rows(game.seat["japanese"], 1)
    setting = next(r for r in rows if r["type"] == "core.StandingOrdersSet")
    assert setting["text"] == "chinese set standing orders (hidden from you)"
    lines, _ = game.app.reads.export(game.seat["japanese"])
    exported = next(line for line in lines if '"core.StandingOrdersSet"' in line)
    assert "0202" not in exported and "never" not in exported
    mine = game.app.reads.history_rows(game.seat["chinese"], setting["seq"], setting["seq"])[0]["text"]
    assert 'intercept: "never"' in mine and 'retreat: "toward 0202"' in mine
    assert game.app.standing.show(game.seat["chinese"])["standing"] == {"intercept": ["never"],
                                                                        "retreat": ["toward 0202"]}
    assert game.app.standing.show(game.seat["japanese"])["standing"] == {}


@pytest.mark.parametrize("orders, why", [
    ({"attack": ["weakest"]}, "no standing order for 'attack'; kinds that may stand: losses, retreat"),
    ({"losses": ["bravely"]}, "'bravely' is neither an order of losses (lose) nor a preference"),
    ({"retreat": ["toward nowhere"]}, "'toward' names a hex"),
    ({"losses": ["lose"]}, "does not read as an order"),
    ({"intercept": ["at 3510"]}, "not which order to prefer"),
])
def test_a_standing_order_that_cannot_stand_is_refused_and_nothing_is_written(tmp_path, monkeypatch, orders, why):
    game = snc_at_the_landing(tmp_path, monkeypatch, 1, None)
    head = game.state.meta.seq
    # the Japanese turn: the Chinese set nothing now, whatever they write
    with pytest.raises(PbemError, match="set in your own turn"):
        game.app.standing.set(game.seat["chinese"], {"losses": ["weakest"]})
    with pytest.raises(PbemError) as refused:
        game.app.standing.set(game.seat["japanese"], orders)
    assert why in str(refused.value) and "nothing was set" in str(refused.value)
    with pytest.raises(AccessDenied):
        game.app.standing.set(game.seat[ARBITER], {"losses": ["weakest"]})
    assert game.state.meta.seq == head


def test_every_game_declares_kinds_of_its_states_table_and_words_that_read():
    for name in ("snc", "ichigo", "formosa", "olympic", "daisenso"):
        rules = CATALOG.rules(name)
        declared = standing.kinds(rules)
        assert declared, name
        for kind, words in declared.items():
            assert kind in rules.table.orders, (name, kind)
            for word, order in words.items():
                assert order.split()[0] in rules.table.orders[kind], (name, kind, word)


@pytest.mark.parametrize("clauses", [["toward 1615"], ["weakest"]])
def test_ichigo_chinese_reinforcements_drawn_blind_are_placed_by_the_standing_order_then_the_phase_ends(clauses):
    """Ichi-Go 9.7: the Chinese reinforcements are rolled for and drawn blind in Phase X, so the Chinese player
    cannot name them in advance; the standing order rolls, places each counter drawn (`toward HEX`: in the city
    nearest that hex that takes it), and gives `end` once none is left to place."""
    rules = CATALOG.rules("ichigo")
    game = rules.initial_state("campaign", {"position": {"turn": 1, "phase": "X"}})
    the_map = rules.game_map(game)
    rolls = iter([4])  # four counters drawn
    given = []
    while standing.kind_now(rules, game) == "chinese-reinforcements":
        text, reason = standing.choose(rules, game, "allied", "chinese-reinforcements", clauses, given)
        assert reason["kind"] == "chinese-reinforcements"
        command = rules.parse(text, "allied", game)
        if command.action == "place" and clauses == ["toward 1615"]:
            cities = [rules.parse(c.text, "allied", game).args["hex"]
                      for c in standing.legal.candidates(rules, game, "allied") if c.text.startswith("place")]
            nearest = min(the_map.distance(Hex.parse(h), Hex.parse("1615")) for h in cities)
            assert the_map.distance(Hex.parse(command.args["hex"]), Hex.parse("1615")) == nearest
        for event in rules.decide(game, command, FixedDice(next(rolls, 1))):
            game = rules.evolve(game, event)
        given.append(text)
    assert given[0] == "reinforce" and given[-1] == "end"
    assert [t.split()[0] for t in given[1:-1]] == ["place"] * 4, given


def test_formosa_a_standing_air_plan_and_kamikaze_roll_keep_the_strike_stage_in_the_other_players_email():
    """Formosa 16.1, 16.6: the Japanese plan their air missions first, then the Allies, and the Japanese roll the
    kamikaze attack every GT in the middle of the Allied strike stage (then may sortie the mobile fleet, 18.0); a
    standing plan (written out, a smaller one after it for a turn with fewer points) and `roll; end` answer both,
    so the Allied email goes on."""
    rules = CATALOG.rules("formosa")
    units = {"us-7-17": "1012", "jp-9-7": "1013"}
    planning = rules.initial_state("1", {"position": {"turn": 2, "phase": "strike-planning-japanese",
                                                      "units": units, "air": {"japanese-tac": 2}}})
    plan = ["plan 3 tactical", "plan 2 tactical", "plan"]
    assert standing.choose(rules, planning, "japanese", "strike-planning-japanese", plan) == \
        ("plan 2 tactical", {"case": standing.CASE, "kind": "strike-planning-japanese",
                             "summary": "a standing order for strike-planning-japanese"})
    special = rules.initial_state("1", {"position": {"turn": 2, "phase": "japanese-special-attack", "units": units,
                                                     "air": {"kamikaze": 1, "mobile-fleet": 1}}})
    given = []
    while standing.kind_now(rules, special) == "japanese-special-attack":
        text, _ = standing.choose(rules, special, "japanese", "japanese-special-attack", ["roll", "end"], given)
        for event in rules.decide(special, rules.parse(text, "japanese", special), FixedDice(1)):
            special = rules.evolve(special, event)
        given.append(text)
    assert given == ["roll", "end"] and rules.prompt(special).side == "allied"
