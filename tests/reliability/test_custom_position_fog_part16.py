"""The creation event of a game made from a custom position (docs/custom-positions.md, "Who reads the position"),
read as an attacker: the position names every unit where it stands, the units beneath an enemy stack's top
(SNC 6.3, Ichi-Go 6.6) and the concealed ones (Formosa 11.0, 11.1) included, and it is stored whole in the
game's first event (core.GameCreated). A side reads that event by its line only, on every channel (history, its
own export, state, map, replay frames and pictures, analysis, chain, turn emails), the dice seed's commitment in
full; the arbiter, and everyone once the game is over, reads it whole; both the whole export and the side's own
(its salted digest) still verify. One rule for every game (app/rules/base.py `created_line`), forks and analysis
boards of such a game included."""
from __future__ import annotations

import dataclasses
import json

import pytest

from app.events import core
from app.events.envelope import StoredEvent
from app.mail.transport import MailConfig
from app.projections.sight import Sight
from app.rules import practice
from app.rules.catalog import installed
from app.service import audit, transfer
from app.service.games import GameError
from app.web import create_app
from tests.fogcheck import all_text, seen
from tests.outbox import Outbox

CATALOG = installed()
# a position of each game with fog of war that places, for each side, an enemy unit that side's view does not show
POSITIONS = {
    "snc": ("campaign", {"turn": 6, "phase": "ops1", "side": "japanese", "plan": ["fight", "move"],
                         "units": {"jp-d3-r6": "2807", "jp-d3-r68": "2807", "cn-d58": "2706", "cn-d36": "2706"}}),
    "ichigo": ("campaign", {"turn": 9, "phase": "VI", "causeway": False, "plans": {"japanese": "move-fight"},
                            "units": {"jp-cea-3div": "0812", "jp-cea-13div": "0812", "cn-mil-yrd": "1309",
                                      "cn-mil-gm": "1309"}}),
}
CHANNELS = ("/games/{g}/history", "/games/{g}/export", "/games/{g}/state", "/games/{g}/map.svg",
            "/games/{g}/chain", "/games/{g}/verify", "/replay/{g}/", "/replay/{g}/frames.json",
            "/replay/{g}/analysis.json", "/replay/{g}/map/1.svg")


class Table:
    """A game of `rules` from its position, over the API, both seats taken by email addresses."""

    def __init__(self, tmp_path, rules: str):
        self.outbox = Outbox()
        self.client = create_app({"OPEN_GAME_CREATION": True, "HEXLEDGER_DB": str(tmp_path / "g.sqlite3"),
                                  "MAIL_TRANSPORT": self.outbox, "MAIL": MailConfig()}).test_client()
        self.rules = CATALOG.rules(rules)
        scenario, self.position = POSITIONS[rules]
        made = self.client.post("/games", json={"rules": rules, "scenario": scenario, "auto": [],
                                                "position": self.position,
                                                "players": {s: f"{s}@x.example" for s in self.rules.sides},
                                                "arbiter": "arbiter@x.example"})
        assert made.status_code == 201, made.json
        self.game, self.tokens = made.json["game_id"], made.json["tokens"]
        for side in self.rules.sides:
            assert self.post(side, "/games/{g}/join", {"seed_text": f"{side} words"}).status_code == 201

    def get(self, seat: str, path: str, game: str | None = None):
        return self.client.get(path.replace("{g}", game or self.game),
                               headers={"Authorization": f"Bearer {self.tokens[seat]}"})

    def post(self, seat: str, path: str, body: dict, game: str | None = None):
        return self.client.post(path.replace("{g}", game or self.game), json=body,
                                headers={"Authorization": f"Bearer {self.tokens[seat]}"})

    def hidden_from(self, side: str) -> set[str]:
        """The position's units the side's view does not show now (what its reads must never name)."""
        state = self.rules.initial_state(POSITIONS[self.rules.name][0], {"position": self.position})
        return set(self.position["units"]) - seen(self.rules.view(state, side))

    def export(self, seat: str, game: str | None = None) -> tuple[dict | None, list[dict]]:
        """(the filtered export's head line or None for a whole one, the event rows)."""
        rows = [json.loads(line) for line in self.get(seat, "/games/{g}/export", game).get_data(as_text=True)
                .splitlines()]
        return (rows[0], rows[1:]) if "filtered_for" in rows[0] else (None, rows)


def whole_verifies(rows: list[dict], parents=None) -> StoredEvent:
    """The whole export verifies (chain, core events, orders replayed); its creation event."""
    events = transfer.parse_lines(json.dumps(r) for r in rows)
    report = audit.verify(CATALOG, events, check_dice=True, parents=parents)
    assert report.ok, report.problems
    return events[0]


@pytest.mark.parametrize("rules", sorted(POSITIONS))
def test_a_side_reads_a_custom_position_game_without_what_its_view_hides_until_the_game_ends(tmp_path, rules):
    table = Table(tmp_path, rules)
    _, whole = table.export("arbiter")
    created = whole_verifies(whole)
    assert created.payload["options"]["position"] == table.position  # the arbiter reads it whole
    line = (f"game created: {rules}, scenario {created.payload['scenario']}; dice seed committed "
            f"({created.payload['seed_commitment']}); from a custom position")
    for side in table.rules.sides:
        hidden = table.hidden_from(side)
        assert hidden, f"the position hides nothing from {side}: the attack would read nothing"
        for path in CHANNELS:
            answer = table.get(side, path)
            text = answer.get_data(as_text=True)
            assert answer.status_code == 200, (side, path, text[:300])
            assert not {u for u in hidden if u in text}, (side, path)
        mails = [all_text(m) for m in table.outbox.sent if m["To"] == f"{side}@x.example"]
        assert mails and not any(u in text for u in hidden for text in mails), side
        assert table.get(side, "/games/{g}/history").json["events"][0]["text"].startswith(line)
        head, rows = table.export(side)
        assert head is not None and "payload" not in rows[0] and rows[0]["redacted"].startswith(line)
        # its salted digest is the stored event's: the chain verifies through the line the side was given
        assert rows[0]["sealed"] == created.sealed_digest() and rows[0]["hash"] == created.hash
        assert table.get(side, "/games/{g}/verify").json["ok"] is True
        with pytest.raises(GameError, match=f"a player's own export during play \\(filtered for \"{side}\"\\)"):
            transfer.parse_lines(json.dumps(r) for r in [head, *rows])  # neither imported nor audited: said so
    # over (a resignation): everyone reads the position whole, and the dice verify against the commitment shown
    assert table.post(table.rules.sides[0], "/games/{g}/resign", {}).status_code in (200, 201)
    for side in table.rules.sides:
        head, rows = table.export(side)
        assert head is None and rows[0]["payload"]["options"]["position"] == table.position
        whole_verifies(rows)
        assert "hidden from you" not in table.get(side, "/games/{g}/history").json["events"][0]["text"]


def test_a_fork_and_an_analysis_board_of_a_custom_position_game_read_as_the_game(tmp_path):
    """The arbiter's fork of a running game goes on with its players: its copied creation event is read by its line
    as the game's; a board on the game once it is over opens, takes an order, and reads whole to its owner."""
    table = Table(tmp_path, "snc")
    at = len(table.export("arbiter")[1])
    forked = table.post("arbiter", "/games/{g}/fork", {"at": at})
    assert forked.status_code == 201, forked.json
    fork, table.tokens = forked.json["game_id"], {**table.tokens, **{f"fork {s}": t for s, t in
                                                                      forked.json["tokens"].items()}}
    for side in table.rules.sides:
        hidden = table.hidden_from(side)
        for path in ("/games/{g}/history", "/games/{g}/export", "/replay/{g}/frames.json"):
            answer = table.get(f"fork {side}", path, fork)
            text = answer.get_data(as_text=True)
            assert answer.status_code == 200 and not {u for u in hidden if u in text}, (side, path, text[:300])
        assert "the rest is hidden from you" in table.get(f"fork {side}", "/games/{g}/history", fork).json[
            "events"][0]["text"]
    _, rows = table.export("fork arbiter", fork)
    whole_verifies(rows, parents=lambda game: [StoredEvent(**r) for r in table.export("arbiter", game)[1]])
    assert table.post("japanese", "/games/{g}/resign", {}).status_code in (200, 201)
    opened = table.post("chinese", "/games/{g}/boards", {"at": at})
    assert opened.status_code == 201, opened.json
    board, board_tokens = opened.json["game_id"], opened.json["tokens"]
    table.tokens.update({f"board {s}": t for s, t in board_tokens.items()})
    order = table.post("board japanese", "/games/{g}/board/orders", {"side": "japanese", "order": "end"}, board)
    assert order.status_code == 201, order.json
    wrong = table.post("board arbiter", "/games/{g}/board/edit", {"unit": "jp-d3-r6", "changes": {"where": "2808"}},
                       board)  # a field of another game's units (Formosa's): refused naming the fields this one has
    assert wrong.status_code == 400 and "the fields of jp-d3-r6 an edit may set: " in wrong.json["message"]
    assert "hex" in wrong.json["message"].split("may set: ")[1].split(", ")
    for seat in ("board arbiter", "board chinese"):
        for path in ("/games/{g}/history", "/games/{g}/export", "/replay/{g}/frames.json"):
            assert table.get(seat, path, board).status_code == 200, (seat, path)
    assert table.export("board arbiter", board)[1][0]["payload"]["options"]["position"] == table.position


@pytest.mark.parametrize("name", CATALOG.names())
def test_every_game_shows_a_custom_position_s_creation_to_a_side_by_its_line(name):
    """One rule for every game, whatever its own fog hides: the event's line, the commitment whole, to each side;
    the event whole to a reader who sees everything; a game created without a position is shown as it is."""
    rules = CATALOG.rules(name)
    made = core.GameCreated(rules=name, scenario="s", sides=list(rules.sides), seed_commitment="c" * 64,
                            options={"position": {"units": {"x-1": "0101"}}, "map": "m"}, rules_version="1")
    for side in rules.sides:
        told = Sight(rules, side).event(made)
        assert isinstance(told, str) and f"dice seed committed ({'c' * 64})" in told and "0101" not in told
    assert Sight(rules, None).event(made) is True
    plain = core.GameCreated(rules=name, scenario="s", sides=list(rules.sides), seed_commitment="c" * 64,
                             options={"map": "m"})
    assert all(Sight(rules, side).event(plain) is True for side in rules.sides)


def test_an_automated_seat_s_reason_names_no_order_it_did_not_give_to_the_other_side(tmp_path):
    """The strong practice opponent's reason names the order it weighed next ("next 'reveal jp-9-19'"): its own
    option, read from its own view. The other side reads its order as its fog shows orders, and the reason without
    the orders it did not give (Formosa 11.1: the Allied player never reads a concealed unit's id); its own side
    and the arbiter read it whole. The Japanese seat ends its movement here with jp-9-19 concealed (it shows later
    in the turn: the reason's line is what is checked)."""
    outbox = Outbox()
    client = create_app({"OPEN_GAME_CREATION": True, "HEXLEDGER_DB": str(tmp_path / "g.sqlite3"),
                         "MAIL_TRANSPORT": outbox, "MAIL": MailConfig()}).test_client()
    position = {"turn": 3, "phase": "japanese-movement", "bases": ["us-eng-1"], "amoy_turn": 2,
                "units": {"us-7-17": "1012", "us-eng-1": "0413", "jp-9-19": "1014"},
                "where": {"us-7-32": "allied-eliminated"}, "lp": {"allied": 7, "japanese": 4}}
    made = client.post("/games", json={"rules": "formosa", "scenario": "1", "auto": ["japanese:search:16"],
                                       "position": position, "players": {"allied": "allied@x.example"},
                                       "arbiter": "arbiter@x.example"})
    assert made.status_code == 201, made.json
    game, tokens = made.json["game_id"], made.json["tokens"]

    def get(seat, path):
        return client.get(path.replace("{g}", game), headers={"Authorization": f"Bearer {tokens[seat]}"})

    joined = client.post(f"/games/{game}/join", json={"seed_text": "words"},
                         headers={"Authorization": f"Bearer {tokens['allied']}"})
    assert joined.status_code == 201, joined.json
    whole = [json.loads(line) for line in get("arbiter", "/games/{g}/export").get_data(as_text=True).splitlines()]
    weighed = [r for r in whole if r["type"] == "core.OrderGiven" and "next 'reveal jp-9-19'" in json.dumps(r)]
    assert weighed and weighed[0]["payload"]["text"] == "end"  # the attack: a public order, a reason naming jp-9-19
    for path in ("/games/{g}/history", "/games/{g}/export", "/replay/{g}/frames.json"):
        assert "next 'reveal" not in get("allied", path).get_data(as_text=True), path
        assert "next 'reveal jp-9-19'" in get("arbiter", path).get_data(as_text=True), path
    lines = [e["text"] for e in get("allied", "/games/{g}/history").json["events"]]
    assert ("japanese (automated, search) orders: end  [search: its reasons are the japanese seat's own until the "
            "game is over]") in lines
    assert not any("next 'reveal" in all_text(m) for m in outbox.sent if m["To"] == "allied@x.example")


@pytest.mark.parametrize("policy", ["random", "search:16"])
def test_an_automated_seat_s_reason_tells_the_other_side_nothing_of_what_it_holds(policy):
    """The same concealed "?-7" counter at 1014 (the same Allied view) is a deception unit, with one order, or an
    infantry regiment (11.1). The reasons of the Japanese seat's "end" told them apart: "candidate 1 of 1" against
    "1 of 4" (random), "13 of 16 playouts, worth +0.07" against "8 of 16, worth +0.19" (search). The Allied player reads
    the order the same either way, and whose reasons they are; the Japanese seat's own side reads them."""
    rules = CATALOG.rules("formosa")
    base = {"turn": 3, "phase": "japanese-movement", "bases": ["us-eng-1"], "amoy_turn": 2,
            "where": {"us-7-32": "allied-eliminated"}, "lp": {"allied": 7, "japanese": 4}}
    read, views, reasons = {}, set(), set()
    states = {unit: rules.initial_state("1", {"position": {**base, "units": {"us-7-17": "1012", "us-eng-1": "0413",
                                                                            unit: "1014"}}})
              for unit in ("jp-deception-1", "jp-10-10")}
    name, settings = practice.parse_spec(rules, policy)
    # the seat's draw is seeded by the view and the orders it has given: the first count at which both seats end (the
    # regiment's random seat ends at one count in four), so the two reasons are of the same order
    given = next(g for g in range(40) if all(practice.choose(rules, name, s, "japanese", settings, g)[0] == "end"
                                             for s in states.values()))
    for unit, state in states.items():
        views.add(json.dumps([{k: v for k, v in u.items() if k != "id"} for u in rules.view(state, "allied")["units"]
                              if u["side"] == "japanese"], sort_keys=True))
        text, reason = practice.choose(rules, name, state, "japanese", settings, given)
        order = core.OrderGiven("japanese", text, rules.parse(text, "japanese", state).to_dict(),
                                auto={"policy": name, "reason": reason})
        told = Sight(rules, "allied").event(order)
        read[unit] = told if isinstance(told, str) else json.dumps(dataclasses.asdict(order))
        reasons.add(reason["summary"])
        assert text == "end" and Sight(rules, "japanese").event(order) is True
    assert len(views) == 1 and len(reasons) == 2, "the attack would compare nothing"
    assert read["jp-deception-1"] == read["jp-10-10"] == (
        f"japanese (automated, {name}) orders: end  [{name}: its reasons are the japanese seat's own until the game "
        "is over]")
