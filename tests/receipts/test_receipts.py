"""Receipts (issue 31, docs/core.md "Receipts"): what a receipt is, that every message and answer a player gets
carries one signed with the key their invitation announced, the chain of hashes a seat may fetch, the checks on
the command line, old games, and the key's rotation."""
from __future__ import annotations

import dataclasses
import json
import mailbox
from pathlib import Path

import pytest
from click.testing import CliRunner

from app.cli import cli
from app.events.envelope import StoredEvent, canonical_json, sha256_hex
from app.events.receipts import BEGIN, Receipt, ReceiptError, Signer, announced_keys, check, found_in
from app.mail.inbound import body_text
from app.mail.transport import MailConfig
from app.rules.catalog import installed
from app.service import evidence, games, receipts
from app.service.console import Console
from app.settings import Settings
from app.web import create_app
from tests.forgery import reseal
from tests.outbox import Outbox
from tests.pbem.test_security import FOG_RULES, SECRET_HEX

CATALOG = installed(FOG_RULES)  # the rule sets installed here, and the fogged skirmish

OLD_EXPORT = Path(__file__).parent.parent / "data" / "exports-1329c69" / "g-oldsnc01.jsonl"


def test_a_receipt_is_the_servers_signature_over_exactly_its_statement():
    signer = Signer.generate()
    receipt = signer.sign("g-1", 12, "ab" * 32)
    assert receipt.valid() and Receipt.from_dict(json.loads(json.dumps(receipt.to_dict()))) == receipt
    for change in ({"game": "g-2"}, {"seq": 13}, {"hash": "cd" * 32}, {"key": Signer.generate().public}):
        assert not dataclasses.replace(receipt, **change).valid(), change
    assert Signer.from_pem(signer.pem()).sign("g-1", 12, "ab" * 32) == receipt  # Ed25519 is deterministic
    for bad in ({**receipt.to_dict(), "seq": True}, {**receipt.to_dict(), "hash": "AB" * 32},
                {**receipt.to_dict(), "sig": receipt.sig + "A"}, {**receipt.to_dict(), "key": "ed25519:x"},
                {**receipt.to_dict(), "extra": 1}, [receipt.to_dict()]):
        with pytest.raises(ReceiptError):
            Receipt.from_dict(bad)


def test_a_receipt_is_found_again_in_a_quoted_reply_and_a_damaged_one_is_named():
    receipt = Signer.generate().sign("g-1", 3, "0f" * 32)
    quoted = "\n".join(f"> {line}" for line in receipt.text().splitlines())
    found, problems = found_in(f"thanks\n\nOn Monday you wrote:\n{quoted}\n")
    assert found == [receipt] and problems == []
    found, problems = found_in(receipt.text().replace("seq: 3", "seq: three"))
    assert found == [] and "does not read" in problems[0]


@pytest.fixture
def world(tmp_path):
    """The fogged skirmish of tests/pbem/test_security.py by email and the API: blue's B3 moves to a hex red may
    not learn; both players keep their mail."""
    outbox = Outbox()
    app = create_app({"OPEN_GAME_CREATION": True, "HEXLEDGER_DB": str(tmp_path / "r.sqlite3"),
                      "MAIL_TRANSPORT": outbox, "MAIL": MailConfig(orders_address="orders@pbem.example"),
                      "CATALOG": CATALOG})
    client = app.test_client()
    made = client.post("/games", json={"rules": "fogtest", "players": {"red": "red@x.example",
                                                                        "blue": "blue@x.example"}}).json
    g, tokens = made["game_id"], made["tokens"]
    answers = {"red": [], "blue": []}

    def post(seat, path, body):
        r = client.post(f"/games/{g}{path}", json=body, headers={"Authorization": f"Bearer {tokens[seat]}"})
        assert r.status_code == 201, r.json
        answers[seat].append(r.json)
        return r.json

    for seat in ("red", "blue"):
        post(seat, "/join", {"seed_text": seat})
    for seat, order in (("red", "end"), ("red", "end"), ("blue", f"move B3 {SECRET_HEX}"), ("blue", "end"),
                        ("blue", "end")):
        post(seat, "/orders", {"order": order})
    return app, client, g, tokens, outbox, answers, tmp_path


def test_every_email_and_every_answer_to_a_write_carries_a_receipt_signed_with_the_invitations_key(world):
    app, client, g, tokens, outbox, answers, tmp_path = world
    console = Console(str(tmp_path / "r.sqlite3"), CATALOG)
    stored = {e.seq: e for e in console._store.events(g)}
    key = client.get("/.well-known/hexledger-receipts").json["current"]
    for seat in ("red", "blue"):
        mails = [m for m in outbox.sent if m["To"] == f"{seat}@x.example"]
        assert mails[0]["Subject"].endswith(f"Invitation: {FOG_RULES.title}, you play {seat}")
        assert announced_keys(body_text(mails[0])) == {key}
        assert len(mails) >= 2
        for msg in mails:
            found, problems = found_in(body_text(msg))
            assert len(found) == 1 and not problems, msg["Subject"]
            r = found[0]
            assert r.valid() and r.key == key and r.game == g and stored[r.seq].hash == r.hash, msg["Subject"]
        for answer in answers[seat]:
            r = Receipt.from_dict(answer["receipt"])
            assert r.valid() and r.key == key and stored[r.seq].hash == r.hash
        assert answers[seat][-1]["receipt"]["seq"] == answers[seat][-1]["seq"]  # an order's: its own last event


def test_a_seat_fetches_the_chain_of_hashes_without_any_payload_and_it_checks_against_its_receipts(world):
    app, client, g, tokens, outbox, answers, tmp_path = world
    listing = client.get(f"/games/{g}/chain", headers={"Authorization": f"Bearer {tokens['red']}"}).json
    events = list(Console(str(tmp_path / "r.sqlite3"), CATALOG)._store.events(g))
    assert [e["seq"] for e in listing["entries"]] == [e.seq for e in events]
    assert all(set(e) == {"seq", "hash", "sealed"} for e in listing["entries"])
    assert listing["receipt"]["seq"] == events[-1].seq and listing["receipt"]["hash"] == events[-1].hash
    assert not any(e.salt in json.dumps(listing) for e in events)  # of the payloads: the next test
    kept = tmp_path / "red"
    kept.mkdir()
    for n, answer in enumerate(answers["red"]):
        (kept / f"answer-{n}.json").write_text(json.dumps(answer))
    report = evidence.check_listing(listing, evidence.gather(kept), [])
    assert report.ok and report.receipts == len(answers["red"]) + 1 and report.links_checked == len(events)
    assert client.get(f"/games/{g}/chain").status_code == 401  # a seat's, like every game read


def test_a_hidden_payloads_salted_hash_resists_the_search_its_unsalted_hash_would_lose(world):
    """Red knows every field of blue's hidden move but the hex (its history says 'a blue unit moves'), and the map
    has few hexes: each one tried against the chain's digest and hash finds nothing; the same event hashed without
    its salt (a legacy event) gives its hex away at once."""
    app, client, g, tokens, outbox, answers, tmp_path = world
    listing = client.get(f"/games/{g}/chain", headers={"Authorization": f"Bearer {tokens['red']}"}).json
    events = list(Console(str(tmp_path / "r.sqlite3"), CATALOG)._store.events(g))
    move = next(e for e in events if e.type == "skirmish.UnitMoved" and e.payload["unit"] == "B3")
    entry = listing["entries"][move.seq - 1]
    hexes = [f"{c:02d}{r:02d}" for c in range(1, 20) for r in range(1, 20)]
    guesses = [dataclasses.replace(move, payload={**move.payload, "path": [*move.payload["path"][:-1], h]})
               for h in hexes]
    salts = {e.salt for e in events if e.seq != move.seq}  # every other salt, in case one were reused
    for guess in guesses:
        for salt in salts | {"", "0" * 32}:
            tried = dataclasses.replace(guess, salt=salt)
            assert tried.sealed_digest() != entry["sealed"] and tried.computed_hash() != entry["hash"]
    legacy = dataclasses.replace(move, salt=None)
    unsalted = sha256_hex(canonical_json(legacy.hashed_fields()))
    found = [g.payload["path"][-1] for g in guesses if dataclasses.replace(g, salt=None).computed_hash() == unsalted]
    assert found == [SECRET_HEX]


def test_verify_receipts_and_chain_on_the_command_line(world, monkeypatch):
    app, client, g, tokens, outbox, answers, tmp_path = world
    db = str(tmp_path / "r.sqlite3")
    runner = CliRunner()
    box = mailbox.mbox(str(tmp_path / "red.mbox"))
    for msg in outbox.sent:
        if msg["To"] == "red@x.example":
            box.add(msg)
    box.flush()
    export = tmp_path / "game.jsonl"
    assert runner.invoke(cli, ["--db", db, "export", g, "-o", str(export)], obj=CATALOG).exit_code == 0
    ok = runner.invoke(cli, ["--db", db, "verify", str(export), "--receipts", str(tmp_path / "red.mbox")],
                       obj=CATALOG)
    assert ok.exit_code == 0 and "all match" in ok.output, ok.output
    events = [StoredEvent(**json.loads(line)) for line in export.read_text().splitlines()]
    first_receipt = min(r.seq for r in evidence.gather(tmp_path / "red.mbox").receipts if r.seq >= 5)
    edited = [dataclasses.replace(e, at="2001-01-01T00:00:00.000000Z") if e.seq == 5 else e for e in events]
    forged = tmp_path / "forged.jsonl"
    forged.write_text("".join(canonical_json(e.to_dict()) + "\n" for e in reseal(edited)))
    bad = runner.invoke(cli, ["--db", db, "verify", str(forged), "--receipts", str(tmp_path / "red.mbox"),
                              "--json"], obj=CATALOG)
    assert bad.exit_code == 1
    assert json.loads(bad.output)["receipts"]["first_bad_seq"] == first_receipt
    # during play, from the server over HTTP: the chain command fetches, checks and keeps the chain
    monkeypatch.setattr(evidence, "fetch_chain", lambda server, game, token: client.get(
        f"/games/{game}/chain", headers={"Authorization": f"Bearer {token}"}).json)
    folder = tmp_path / "kept"
    folder.mkdir()
    (folder / "mail.mbox").write_bytes((tmp_path / "red.mbox").read_bytes())
    fetched = runner.invoke(cli, ["chain", g, "--server", "http://127.0.0.1:1", "--token", tokens["red"],
                                  "--receipts", str(folder), "--keep"], obj=CATALOG)
    assert fetched.exit_code == 0 and "all match" in fetched.output and "chain saved" in fetched.output
    assert len(evidence.gather(folder).chains[g]) == 1
    # a receipt made with another key (red framing the server): rejected, and the chain is not accused
    (folder / "framed.json").write_text(json.dumps(Signer.generate().sign(g, 3, "ee" * 32).to_dict()))
    framed = runner.invoke(cli, ["chain", g, "--server", "http://127.0.0.1:1", "--token", tokens["red"],
                                 "--receipts", str(folder), "--json"], obj=CATALOG)
    assert framed.exit_code == 1
    report = json.loads(framed.output)
    assert report["differences"] == [] and "not a key you were given" in report["rejected"][0]["message"]


def test_an_old_game_without_salts_verifies_and_gives_no_hash_a_side_could_search(tmp_path):
    console = Console(str(tmp_path / "old.sqlite3"), CATALOG)
    with open(OLD_EXPORT, encoding="utf-8") as fh:
        game_id = console.import_game(fh)
    assert console.verify(game_id).ok
    store = console._store
    signed = receipts.Receipts(store, CATALOG)
    assert all(e.salt is None for e in store.events(game_id)) and signed.at(game_id) is None
    listing = signed.chain(game_id, "chinese", sees_all=False)
    hidden = [e for e in listing["entries"] if "hash" not in e]
    assert hidden and all(set(e) == {"seq"} for e in hidden)  # an old hidden event: not even its hash
    assert all(set(e) == {"seq", "hash"} for e in listing["entries"] if "hash" in e)
    report = check(game_id, listing["entries"], [], set())
    assert report.ok and report.links_checked == 0


def test_a_stream_that_drops_its_salts_after_salted_events_does_not_verify(tmp_path):
    console = Console(str(tmp_path / "s.sqlite3"), CATALOG)
    game_id = console.create("skirmish", None, None, None, None)["game_id"]
    for side in ("red", "blue"):
        games.join(console._store, CATALOG, game_id, side, side, side)
    events = list(console._store.events(game_id))
    assert len(events) == 3 and all(e.salt for e in events)
    stripped = reseal([dataclasses.replace(e, salt=None) if e.seq == len(events) else e for e in events])
    assert "without a salt after salted ones" in str(console_verify(stripped).problems[0])
    weak = reseal([dataclasses.replace(e, salt="") if e.seq == 1 else e for e in events])
    assert "32 hexadecimal digits" in str(console_verify(weak).problems[0])


def console_verify(events):
    from app.service import audit

    return audit.verify(CATALOG, events)


def test_the_key_is_kept_and_rotates_with_its_predecessors_published(tmp_path, monkeypatch):
    db = str(tmp_path / "k.sqlite3")
    runner = CliRunner()
    first = json.loads(runner.invoke(cli, ["--db", db, "receipt-key", "--json"], obj=CATALOG).output)["current"]
    assert json.loads(runner.invoke(cli, ["--db", db, "receipt-key", "--json"], obj=CATALOG).output)["current"] == first
    made = runner.invoke(cli, ["--db", db, "receipt-key", "--new", str(tmp_path / "next.pem"), "--json"], obj=CATALOG)
    new = json.loads(made.output)["new"]
    assert (tmp_path / "next.pem").stat().st_mode & 0o077 == 0
    again = runner.invoke(cli, ["--db", db, "receipt-key", "--new", str(tmp_path / "next.pem")], obj=CATALOG)
    assert again.exit_code == 1 and "cannot write" in again.output + str(again.stderr_bytes or b"")
    monkeypatch.setenv("HEXLEDGER_RECEIPT_KEY", str(tmp_path / "next.pem"))
    monkeypatch.setenv("HEXLEDGER_RECEIPT_RETIRED", first)
    published = json.loads(runner.invoke(cli, ["--db", db, "receipt-key", "--json"], obj=CATALOG).output)
    assert published["current"] == new and published["retired"] == [first]
    console = Console(Settings.from_env().with_flags(db=db), CATALOG)
    game_id = console.create("skirmish", None, None, None, None)["game_id"]
    assert receipts.Receipts(console._store, CATALOG, str(tmp_path / "next.pem")).at(game_id).key == new


def test_a_receipt_in_an_email_is_its_text_block():
    receipt = Signer.generate().sign("g-1", 1, "00" * 32)
    assert receipts.as_text(receipt).splitlines()[1] == BEGIN and receipts.as_text(None) == ""


def test_a_players_own_export_binds_what_they_were_shown_to_the_chain(world):
    """Red's export during play carries, of each event shown in full, its salt: red recomputes its digest, so a
    server that showed red one thing and chained another is caught there; a redacted event gives its digest only."""
    app, client, g, tokens, outbox, answers, tmp_path = world
    r = client.get(f"/games/{g}/export", headers={"Authorization": f"Bearer {tokens['red']}"})
    assert r.headers["X-Hexledger-Export"] == "filtered"
    rows = [json.loads(line) for line in r.get_data(as_text=True).splitlines()]
    redacted = [row for row in rows[1:] if "redacted" in row]
    assert redacted and all("salt" not in row and "payload" not in row and row["sealed"] for row in redacted)
    view = tmp_path / "red-view.jsonl"
    view.write_text(r.get_data(as_text=True))
    folder = tmp_path / "red"
    folder.mkdir()
    for n, answer in enumerate(answers["red"]):
        (folder / f"answer-{n}.json").write_text(json.dumps(answer))
    runner = CliRunner()
    ok = runner.invoke(cli, ["--db", str(tmp_path / "r.sqlite3"), "verify", str(view), "--receipts", str(folder)],
                       obj=CATALOG)
    assert ok.exit_code == 0 and "all match" in ok.output, ok.output
    shown = next(row for row in rows[1:] if row["type"] == "core.OrderGiven" and row["payload"]["side"] == "red")
    shown["payload"]["text"] = "move R1 0101"  # what a lying server might have shown
    view.write_text("".join(json.dumps(row) + "\n" for row in rows))
    bad = runner.invoke(cli, ["--db", str(tmp_path / "r.sqlite3"), "verify", str(view), "--receipts", str(folder),
                              "--json"], obj=CATALOG)
    assert bad.exit_code == 1 and json.loads(bad.output)["receipts"]["first_bad_seq"] == shown["seq"]
