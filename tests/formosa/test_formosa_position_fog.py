"""A Formosa game created from a custom position (docs/custom-positions.md) that places concealed Japanese units:
the creation event carries the position, so the Allied player reads it by its line only (11.1, ruling F163), on
every channel, and no read fails. The Japanese player, whose units they are, reads it in full."""
from __future__ import annotations

import json

import pytest

from app.mail.transport import MailConfig
from app.rules.custom_setup import SetupError
from app.rules.formosa import GAME
from app.web import create_app
from tests.fogcheck import all_text
from tests.outbox import Outbox

POSITION = {"turn": 3, "phase": "allied-movement", "bases": ["us-eng-1"], "amoy_turn": 2,
            "units": {"us-7-17": "1012", "us-eng-1": "0413", "jp-9-7": "1013", "jp-9-19": "1014"},
            "where": {"us-7-32": "allied-eliminated"}, "lp": {"allied": 7, "japanese": 4}}
SIDES = ("allied", "japanese")


def test_f163_the_allies_read_a_custom_position_game_without_its_concealed_japanese_units(tmp_path):
    outbox = Outbox()
    app = create_app({"OPEN_GAME_CREATION": True, "HEXLEDGER_DB": str(tmp_path / "g.sqlite3"),
                      "MAIL_TRANSPORT": outbox, "MAIL": MailConfig()})
    client = app.test_client()
    r = client.post("/games", json={"rules": "formosa", "scenario": "1", "auto": [], "position": POSITION,
                                    "players": {s: f"{s}@x.example" for s in SIDES}})
    assert r.status_code == 201, r.json
    g, tokens = r.json["game_id"], r.json["tokens"]

    def read(seat, path):
        return client.get(path.replace("{g}", g), headers={"Authorization": f"Bearer {tokens[seat]}"})

    for seat in SIDES:  # the Japanese seed text begins as a unit id would: the players' words are shown as written
        assert client.post(f"/games/{g}/join", json={"seed_text": f"jp-{seat}-words"},
                           headers={"Authorization": f"Bearer {tokens[seat]}"}).status_code == 201
    def write(seat, path, body):
        return client.post(path.replace("{g}", g), json=body, headers={"Authorization": f"Bearer {tokens[seat]}"})

    # the Allies end their movement: jp-9-7, next to us-7-17, is revealed (11.2); jp-9-19 stays concealed
    order = write("allied", "/games/{g}/orders", {"order": "end"})
    assert order.status_code == 201, order.json
    seq = next(e["seq"] for e in read("allied", "/games/{g}/history").json["events"] if e["type"] == "core.OrderGiven")
    disputed = write("japanese", "/games/{g}/disputes", {"order_seq": seq, "reason": "jp-words: too early"})
    assert disputed.status_code == 201, disputed.json
    paths = ("/games/{g}/history", "/games/{g}/export", "/games/{g}/state", "/replay/{g}/",
             "/replay/{g}/frames.json", "/replay/{g}/analysis.json", "/replay/{g}/chances.json",
             "/replay/{g}/map/1.svg")
    for path in paths:
        answer = read("allied", path)
        text = answer.get_data(as_text=True)
        # the chances of victory are the arbiter's while the game runs
        assert answer.status_code == (403 if "chances" in path else 200), (path, text[:300])
        assert "jp-9-19" not in text, path  # concealed at 1014: a "?" counter there, never its id
    lines = [e["text"] for e in read("allied", "/games/{g}/history").json["events"]]
    assert lines[0].startswith("game created: formosa, scenario 1") and "the rest is hidden from you" in lines[0]
    assert any("jp-words: too early" in line for line in lines)
    rows = [json.loads(line) for line in read("allied", "/games/{g}/export").get_data(as_text=True).splitlines()[1:]]
    assert "payload" not in rows[0] and "the rest is hidden from you" in rows[0]["redacted"]
    assert {r["payload"]["seed_text"] for r in rows if r["type"] == "core.PlayerJoined"} == {
        "jp-allied-words", "jp-japanese-words"}  # every seed text, as the dice need
    allied_mail = [all_text(m) for m in outbox.sent if "allied@" in m["To"]]
    assert len(allied_mail) == 3 and not any("jp-9-19" in text for text in allied_mail)  # invitation, turn, dispute
    # the position names the Allied displays and air the Japanese may not read either (11.0): its line only
    row = json.loads(read("japanese", "/games/{g}/export").get_data(as_text=True).splitlines()[1])
    assert "payload" not in row and "the rest is hidden from you" in row["redacted"]


@pytest.mark.parametrize("change, says", [
    ({"fleet_sortied": []}, "'fleet_sortied' is true (on an earlier GT) or this GT's result"),
    ({"fleet_sortied": {}}, "(18.0: the mobile fleet sorties once a game)"),
    ({"phase": "invasion", "landed": -1}, "'landed' is a list of unit ids (10.2.1)"),
    ({"phase": "invasion", "pinned": {"us-7-17": 1}}, "'pinned' is a list of unit ids (10.2.1, 10.3, 21.0)"),
])
def test_10_2_1_18_0_a_key_of_the_wrong_kind_is_refused_naming_the_key_and_its_case(change, says):
    """Read as a list or a value it is not, such a key failed the reader past its checks (a 500 before the engine
    caught it as "could not be read"): it is refused naming the key and its case."""
    with pytest.raises(SetupError) as err:
        GAME.initial_state("1", {"position": {**POSITION, **change}})
    assert says in str(err.value)
