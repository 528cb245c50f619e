"""Text that is not valid Unicode (issue 25): a lone UTF-16 surrogate (JSON's "\\ud800", a UTF-7 or unicode-escape
email body, a byte the shell passed that is not UTF-8) or bytes that are not UTF-8, wherever text enters. No event
holding a lone surrogate can be hashed, so on main each of these was a 500, a quarantined email or a traceback;
now each is refused where it enters with an answer that says so, and nothing changes, on both backends.
app/text.py holds the rule; each edge applies it once for all its routes (app/web `_text_only`, app/mail/inbound,
app/cli `Commands.parse_args`, app/rules/custom_setup `_read`, app/service/transfer `parse_lines`)."""
from __future__ import annotations

import json

import pytest

from app.events.backends import open_store
from app.mail import inbound
from app.mail.replies import body_text
from app.rules.catalog import installed
from app.service import games, transfer
from tests.reliability import hostile

CATALOG = installed()  # the rule sets installed here

OPERATOR = {"Authorization": f"Bearer {hostile.OPERATOR_KEY}"}
PLAYERS = {"red": "r@x.example", "blue": "b@x.example"}
SURROGATE = "\\ud800"  # as JSON writes it: valid JSON, no character


@pytest.fixture
def served(db_location):
    app, _, world = hostile.openapi_world(db_location)
    fresh = app.test_client().post("/games", json={"rules": "skirmish", "players": PLAYERS}, headers=OPERATOR).json
    return app, world, fresh, db_location


def snapshot(location: str, *game_ids: str):
    store = open_store(location)
    try:
        return ([g["id"] for g in store.games()], [[e.hash for e in store.events(g)] for g in game_ids],
                [store.members(g) for g in game_ids])
    finally:
        store.close()


def http_cases(game: str, fresh: str) -> list[tuple]:
    """(method, path, seat (None: the operator, "new-red": red of the game nobody joined), body, content type)."""
    return [
        ("POST", f"/games/{fresh}/join", "new-red", f'{{"seed_text": "dice", "name": "Ann{SURROGATE}"}}', "json"),
        ("POST", f"/games/{fresh}/join", "new-red", f'{{"seed_text": "{SURROGATE}"}}', "json"),
        ("POST", f"/games/{game}/disputes", "blue", f'{{"order_seq": 5, "reason": "{SURROGATE}"}}', "json"),
        ("POST", f"/games/{game}/disputes/1/answer", "red", f'{{"accept": false, "note": "{SURROGATE}"}}', "json"),
        ("POST", f"/games/{game}/orders", "blue", f'{{"order": "end{SURROGATE}"}}', "json"),
        ("POST", f"/games/{game}/preview", "blue", f'{{"order": "end{SURROGATE}"}}', "json"),
        ("POST", "/games", None, json.dumps({"rules": "skirmish", "players": PLAYERS})[:-1] +
         f', "position": {{"units": {{"R1{SURROGATE}": "0202"}}}}}}', "json"),
        ("POST", "/games", None, '{"rules": "skirmish", "players": {"red' + SURROGATE + '": "r@x.example", '
         '"blue": "b@x.example"}}', "json"),
        ("POST", f"/games/{game}/orders", "blue", b"end \xed\xa0\x80", "text"),  # a surrogate encoded in UTF-8
        ("POST", f"/games/{game}/orders", "blue", b"end \xff", "text"),
        ("GET", "/games?after=g-%ED%A0%80", None, None, None),
        ("GET", f"/games/{game}/history?from=1&x=%FF", "red", None, None),
        ("GET", f"/games/{game}%FF/state", "red", None, None),
        ("POST", f"/replay/{game}/", "none", b"token=%FF", "form"),
    ]


def test_text_that_is_not_valid_unicode_is_a_clear_400_on_every_route_and_changes_nothing(served):
    """JSON bodies (any string or key), text bodies, forms, queries and paths: a 400 that says the text is not valid
    Unicode (or not UTF-8), and the games, their events and seats are as before. On main the surrogates in a join,
    a dispute or a note were a 500: the event's hash cannot encode them."""
    app, world, fresh, location = served
    client = app.test_client()
    before = snapshot(location, world["game_id"], fresh["game_id"])
    tokens = {**world["tokens"], "new-red": fresh["tokens"]["red"]}
    types = {"json": "application/json", "text": "text/plain", "form": "application/x-www-form-urlencoded"}
    for method, path, seat, body, kind in http_cases(world["game_id"], fresh["game_id"]):
        headers = OPERATOR if seat is None else {"Authorization": f"Bearer {tokens[seat]}"} if seat in tokens else {}
        answer = client.open(path, method=method, data=body, content_type=types.get(kind), headers=headers)
        assert answer.status_code == 400, (path, body, answer.status_code, answer.get_data(as_text=True))
        message = answer.json["message"]
        assert ("not valid Unicode" in message or "not UTF-8" in message) and "nothing was read or written" in \
            message, message
    assert snapshot(location, world["game_id"], fresh["game_id"]) == before


def test_a_surrogate_pair_is_one_character_and_goes_through(served):
    """JSON's escaped pair "\\ud83d\\ude00" is one character (an emoji), valid text: the join is taken."""
    app, _, fresh, _ = served
    answer = app.test_client().post(f"/games/{fresh['game_id']}/join", data='{"seed_text": "\\ud83d\\ude00 dice"}',
                                    content_type="application/json",
                                    headers={"Authorization": f"Bearer {fresh['tokens']['red']}"})
    assert answer.status_code == 201 and answer.json["seed_text"] == "\U0001f600 dice", answer.json


@pytest.fixture
def mail(db_location):
    pbem, game_id, tokens, outbox = hostile.mail_world(db_location)
    yield pbem, game_id, tokens, outbox
    pbem.store.close()


def email_in(charset: str, lines: list[bytes], mid: str) -> bytes:
    return (b"From: red@x.example\r\nTo: orders@pbem.example\r\nSubject: orders\r\nMessage-ID: <" + mid.encode() +
            b">\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=" + charset.encode() +
            b"\r\nContent-Transfer-Encoding: 8bit\r\n\r\n" + b"\r\n".join(lines) + b"\r\n")


@pytest.mark.parametrize(("charset", "hostile"), [("utf-7", b"+2AA-"), ("unicode-escape", b"\\ud800")],
                         ids=["utf-7", "unicode-escape"])
@pytest.mark.parametrize("line", [b"join: dice %s", b"dispute 1: %s", b"move R1 0202%s"], ids=["join", "dispute",
                                                                                                "order"])
def test_an_email_whose_text_decodes_to_a_lone_surrogate_is_refused_with_a_clear_reply(mail, charset, hostile, line):
    """A charset Python decodes to lone surrogates: on main the join (or dispute) could not be hashed and the message
    was set aside unanswered; now it ends processed, its sender is told which line is not valid Unicode, and nothing
    of it is played."""
    pbem, game_id, tokens, outbox = mail
    mid = f"bad-{charset}-{line[:4].decode()}@x"
    raw = email_in(charset, [f"game: {game_id}".encode(), f"token: {tokens['red']}".encode(), line % hostile], mid)
    before = [e.hash for e in pbem.store.events(game_id)]
    result = inbound.ingest(pbem, raw)
    assert result.refused and not result.quarantined and not result.deferred and result.applied == 0, result.lines
    assert any("line 3 of your message" in x and "not valid Unicode" in x for x in result.lines), result.lines
    assert [e.hash for e in pbem.store.events(game_id)] == before and pbem.store.mail_processed(f"<{mid}>")
    assert outbox.sent[-1]["To"] == "red@x.example" and "not valid Unicode" in body_text(outbox.sent[-1])


def test_a_command_line_argument_that_is_not_utf8_is_a_usage_error(run):
    """The shell passes bytes; Python reads the ones that are not UTF-8 as lone surrogates. On main `join --name`
    with such a byte raised UnicodeEncodeError from the hash (a traceback); now every command refuses it before it
    runs: exit 2, the argument named, nothing written."""
    game = run("new", "skirmish").output.strip()
    for args in (["join", game, "--side", "red", "--name", "Ann\udcff"],
                 ["join", game, "--side", "red", "--name", "Ann", "--seed", "\udced\udca0\udc80"],
                 ["reveal", game, "--reason", "\udcff"], ["do", game, "move R1 0202\udcff", "--as", "red"]):
        result = run(*args, ok=False)
        assert result.exit_code == 2 and "is not valid Unicode" in result.output, (args, result.output)
    assert run("log", game).output.count("\n") == 1  # the creation only


def test_position_and_map_files_that_are_not_utf8_are_refused_by_name(run, tmp_path):
    """On main a map or position file with a byte that is not UTF-8 raised UnicodeDecodeError (a traceback)."""
    bad_map, bad_position = tmp_path / "map.toml", tmp_path / "position.toml"
    bad_map.write_bytes(b'name = "caf\xe9"\n')
    bad_position.write_bytes(b'turn = 1\nphase = "move"\n[units]\n"R\xff" = "0202"\n')
    nul_position = tmp_path / "nul.toml"
    nul_position.write_text('turn = 1\nphase = "move"\n[units]\n"R1\\u0000" = "0202"\n')  # TOML's escape for NUL
    for option, path, said in (("--map", bad_map, "is not UTF-8 text"), ("--position", bad_position,
                                                                         "is not UTF-8 text"),
                               ("--position", nul_position, "holds a NUL character")):
        result = run("new", "skirmish", option, str(path), ok=False)
        assert result.exit_code == 1 and str(path) in result.output and said in result.output, result.output
    assert run("list").output.strip() == "no games yet"


@pytest.fixture
def exported(tmp_path):
    store = open_store(str(tmp_path / "source.sqlite3"))
    game_id = games.create_game(store, CATALOG, "skirmish")
    games.join(store, CATALOG, game_id, "red", "Ann", "red text")
    lines = list(transfer.export_lines(store, game_id))
    store.close()
    return lines


def test_an_export_holding_a_lone_surrogate_or_bytes_not_utf8_is_refused_by_import_and_verify(exported, tmp_path,
                                                                                              run):
    """An export line whose JSON escapes a lone surrogate (as the forger writes it: no hash can be computed over it),
    or a file that is not UTF-8: `import` and `verify FILE` refuse it by line with a clear error, where main raised
    UnicodeEncodeError or UnicodeDecodeError (a traceback); nothing is imported."""
    forged = tmp_path / "surrogate.jsonl"
    forged.write_text("".join([exported[0], exported[1].replace('"name":"Ann"', '"name":"Ann\\ud800"')]),
                      encoding="utf-8")
    latin = tmp_path / "latin.jsonl"
    latin.write_bytes("".join(exported).replace('"name":"Ann"', '"name":"Ann\u00e9"').encode("latin-1"))
    for path, said in ((forged, "line 2: a text of the event is not valid Unicode"), (latin, "is not UTF-8 text")):
        for command in ("import", "verify"):
            result = run(command, str(path), ok=False)
            assert result.exit_code == 1 and said in result.output, (command, path, result.output)
    assert run("list").output.strip() == "no games yet"
    other = open_store(str(tmp_path / "other.sqlite3"))
    with pytest.raises(games.GameError, match="line 2 is not UTF-8 text"):
        transfer.import_game(other, CATALOG, [line.encode("utf-8") for line in exported[:1]] + [b"\xff\n"])
    assert other.games() == []
    other.close()
