"""SNC rules fidelity, session part 18 (issue 30; docs/rulings/snc-engine.md E36 and on)."""
from __future__ import annotations

import json
import re

from app.mail.transport import MailConfig
from app.web import create_app
from tests.outbox import Outbox

PLAYERS = {"chinese": "cn@x.example", "japanese": "jp@x.example"}
# GT 3, the Japanese Reinforcement Phase: the 18th Regiment at full strength on top of the stack (6.4: the strongest
# shows), the 6th and 34th reduced beneath it, where the Chinese may not look (6.3)
BENEATH = {"turn": 3, "phase": "reinf", "side": "japanese", "plan": ["move", "fight"],
           "units": {"jp-d3-r18": "3410", "jp-d3-r6": "3410", "jp-d3-r34": "3410", "cn-d57": "3612"},
           "steps": {"jp-d3-r6": 1, "jp-d3-r34": 1}}


# what differs between any two games: ids, hashes, seeds, salts, receipts, keys, times
SCRUB = re.compile(r'g-[0-9a-f]+|[0-9a-f]{16,}|(key=|ed25519:|sig: |Receipt|\d{4}-\d\d-\d\dT)[^\s"\\]*')


def _served(tmp_path, name: str):
    outbox = Outbox()
    app = create_app({"OPEN_GAME_CREATION": True, "HEXLEDGER_DB": str(tmp_path / f"{name}.sqlite3"),
                      "MAIL_TRANSPORT": outbox, "MAIL": MailConfig(orders_address="orders@x.example")})
    client = app.test_client()
    made = client.post("/games", json={"rules": "snc", "players": PLAYERS, "position": BENEATH})
    assert made.status_code == 201, made.json
    game, tokens = made.json["game_id"], made.json["tokens"]

    def call(method: str, path: str, seat: str, **kw):
        return client.open(path.replace("{g}", game), method=method,
                           headers={"Authorization": f"Bearer {tokens[seat]}"}, **kw)

    for seat in PLAYERS:
        assert call("POST", "/games/{g}/join", seat, json={"seed_text": seat}).status_code == 201
    return call, outbox


def _chinese_reads(call, outbox) -> dict:
    """Everything the Chinese player is told, by every channel, with what differs between two games anyway (ids,
    hashes, salts, receipts, times, tokens) taken out."""
    game = call("GET", "/games/{g}", "chinese").json
    state = call("GET", "/games/{g}/state", "chinese").json
    history = [row["text"] for row in call("GET", "/games/{g}/history", "chinese").json["events"]]
    export = [json.loads(line) for line in call("GET", "/games/{g}/export", "chinese").data.decode().splitlines()]
    refused = call("POST", "/games/{g}/orders", "chinese", data="end", content_type="text/plain").json
    mails = [m for m in outbox.sent if PLAYERS["chinese"] in str(m["To"])]
    told = {"step": game.get("step"), "view": state["view"], "history": history,
            "export": [row.get("text") or row.get("payload") for row in export[1:]],
            "refusal": refused.get("message"), "mail": [m.get_body(("plain",)).get_content() for m in mails]}
    return {k: json.loads(SCRUB.sub("", json.dumps(v))) for k, v in told.items()}


def test_8_3_6_3_e36_the_chinese_are_told_in_no_channel_how_many_replacement_steps_the_japanese_took(tmp_path):
    """Ruling E36: one step taken beneath the top unit, or two, read the same to the Chinese in the history, the
    view, the game's step, a refusal, the export and every email; the Japanese read their steps left (E26)."""
    told, left = {}, {}
    for n, order in ((1, "replace d3-r6"), (2, "replace d3-r6 d3-r34")):
        call, outbox = _served(tmp_path, f"steps{n}")
        done = call("POST", "/games/{g}/orders", "japanese", data=order, content_type="text/plain")
        assert done.status_code == 201, done.json
        told[n] = _chinese_reads(call, outbox)
        left[n] = call("GET", "/games/{g}/state", "japanese").json["view"]["replacement_steps_left"]
    assert left == {1: 1, 2: 0}
    assert "replacement_steps_left" not in told[1]["view"]
    assert any("replacements are taken" in line for line in told[1]["history"])
    assert told[1]["mail"], "the Chinese were sent no email to read"
    for channel in told[1]:
        assert told[1][channel] == told[2][channel], channel
    text = json.dumps(told[1])
    assert "step left" not in text and "steps left" not in text and "1 step" not in text

