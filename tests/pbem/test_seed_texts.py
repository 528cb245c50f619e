"""Players' seed texts are the normal path (issue 12): a player who gives no text of their own gets a random one
made at join, by the CLI itself or by the server after its commitment, and is shown it; a text of their own is kept."""
import json
import re

from app.events.store import EventStore
from app.mail import inbound
from app.mail.inbound import body_text
from app.mail.transport import MailConfig
from app.projections import state as projection
from app.rules.catalog import installed
from app.web import create_app
from tests.outbox import Outbox
from tests.pbem.conftest import token_in

CATALOG = installed()  # the rule sets installed here

RED, BLUE = "red@players.example", "blue@players.example"


def test_an_empty_join_line_in_the_invitation_reply_gets_a_random_text_shown_to_the_player(pbem, smtp, store):
    game_id, _ = pbem.setup.create("skirmish", {"red": RED, "blue": BLUE})
    invitation = smtp.last(RED, "Invitation")
    assert "words of your own" in body_text(invitation) and token_in(invitation)
    smtp.reply(invitation, RED, "join:")
    smtp.reply(smtp.last(BLUE, "Invitation"), BLUE, "join: blue's own words")
    assert [r.applied for r in inbound.ingest_maildir(pbem, smtp.maildir)] == [1, 1]
    shown = re.search(r"accepted: join as red, your dice text: (\S+)", body_text(smtp.last(RED, "Orders received")))
    seeds = projection.load(store, CATALOG, game_id).meta.player_seeds
    assert shown and seeds == {"red": shown.group(1), "blue": "blue's own words"} and len(seeds["red"]) >= 16


def test_an_api_join_without_a_text_answers_with_the_one_made_for_it(tmp_path):
    app = create_app({"OPEN_GAME_CREATION": True,  # creating games is not what this tests
                      "HEXLEDGER_DB": str(tmp_path / "api.sqlite3"), "MAIL_TRANSPORT": Outbox(), "MAIL": MailConfig()})
    client = app.test_client()
    created = client.post("/games", json={"rules": "skirmish", "players": {"red": RED, "blue": BLUE}}).json
    answers = [client.post(f"/games/{created['game_id']}/join", json={},
                           headers={"Authorization": f"Bearer {created['tokens'][side]}"}) for side in ("red", "blue")]
    texts = [a.json["seed_text"] for a in answers]
    assert [a.status_code for a in answers] == [201, 201] and all(len(t) >= 16 for t in texts)
    assert texts[0] != texts[1]


def test_the_cli_makes_a_random_text_for_each_player_and_shows_it(run):
    game_id = json.loads(run("new", "skirmish", "--json").output)["game_id"]
    shown = [re.search(r"your dice text: (\S+)", run("join", game_id, "--side", "red", "--name", "red").output),
             json.loads(run("join", game_id, "--side", "blue", "--name", "b", "--seed", "mine", "--json").output)]
    store = EventStore(run.db)
    try:
        seeds = projection.load(store, CATALOG, game_id).meta.player_seeds
    finally:
        store.close()
    assert seeds == {"red": shown[0].group(1), "blue": "mine"} and len(seeds["red"]) >= 16
    assert shown[1]["seed_text"] == "mine"
