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

    for seat in SIDES:
        assert client.post(f"/games/{g}/join", json={"seed_text": seat},
                           headers={"Authorization": f"Bearer {tokens[seat]}"}).status_code == 201
    paths = ("/games/{g}/history", "/games/{g}/export", "/games/{g}/state", "/replay/{g}/",
             "/replay/{g}/frames.json", "/replay/{g}/analysis.json", "/replay/{g}/chances.json",
             "/replay/{g}/map/1.svg")
    for path in paths:
        answer = read("allied", path)
        text = answer.get_data(as_text=True)
        # the chances of victory are the arbiter's while the game runs
        assert answer.status_code == (403 if "chances" in path else 200), (path, text[:300])
        assert "jp-9-7" not in text and "jp-9-19" not in text, path
    first = read("allied", "/games/{g}/history").json["events"][0]["text"]
    assert first.startswith("game created: formosa, scenario 1") and "Japanese units hidden from you" in first
    row = json.loads(read("allied", "/games/{g}/export").get_data(as_text=True).splitlines()[1])
    assert "payload" not in row and "Japanese units hidden" in row["redacted"]
    allied_mail = [m for m in outbox.sent if "allied@" in m["To"]]
    assert allied_mail and not any("jp-9-" in str(m) for m in allied_mail)
    # the Japanese player's own units: he reads the position as it was given
    row = json.loads(read("japanese", "/games/{g}/export").get_data(as_text=True).splitlines()[1])
    assert row["payload"]["options"]["position"]["units"]["jp-9-7"] == "1013"


@pytest.mark.parametrize("change, says", [
    ({"fleet_sortied": []}, "'fleet_sortied' is true (on an earlier GT) or this GT's result"),
    ({"fleet_sortied": {}}, "(18.0: the mobile fleet sorties once a game)"),
    ({"phase": "invasion", "landed": -1}, "'landed' is a list of unit ids (10.2.1)"),
    ({"phase": "invasion", "pinned": {"us-7-17": 1}}, "'pinned' is a list of unit ids (10.2.1, 10.3, 21.0)"),
])
def test_a_marker_key_of_the_wrong_kind_is_refused_naming_the_key_and_its_case(change, says):
    """Read as a list or a value it is not, such a key failed the reader past its checks (a 500 before the engine
    caught it as "could not be read"): it is refused naming the key and its case."""
    with pytest.raises(SetupError) as err:
        GAME.initial_state("1", {"position": {**POSITION, **change}})
    assert says in str(err.value)
