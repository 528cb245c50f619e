"""The player's page (issue 28; docs/players.md): every game of a player (their address) across the server, opened
by the link in any of their game emails or by a sign-in link mailed on request (single use, short-lived, bound to
the address; a stranger learns nothing and cannot make the server mail anyone more than once a period), each
game showing what that seat's prompt shows and no more; the seat's channel set from it. Through the real app
(create_app); every refusal a 4xx page, never a 5xx."""
from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from html import unescape

import pytest

from app.events.backends import open_store
from app.mail import inbound
from app.mail.replies import body_text
from app.mail.transport import MailConfig
from app.service import clocks
from app.service.application import Application
from app.web import create_app
from tests.outbox import Outbox
from tests.pbem.test_security import SECRET_HEX, told
from tests.pbem.test_security import world as security_world  # noqa: F401 - a fixture

ANN, BOB, CY = "ann@x.example", "bob@x.example", "cy@x.example"
CONFIG = MailConfig(orders_address="orders@pbem.example", public_url="https://hex.example/",
                    notify_private_hosts=("127.0.0.1",))


@pytest.fixture
def site(db_location):
    outbox = Outbox()
    app = create_app({"OPEN_GAME_CREATION": True, "HEXLEDGER_DB": db_location, "MAIL": CONFIG,
                      "MAIL_TRANSPORT": outbox, "HEXLEDGER_RATE_LIMIT": "100000 per minute"})
    service = app.extensions["hexledger_service"]()
    made = {}
    for name, players in (("first", {"red": ANN, "blue": BOB}), ("second", {"red": BOB, "blue": "Ann@X.example"}),
                          ("third", {"red": CY, "blue": BOB})):
        game_id, tokens = service.setup.create("skirmish", players)
        made[name] = (game_id, tokens)
    for name in ("first", "second"):  # the third waits for its players
        game_id, tokens = made[name]
        for side, token in tokens.items():
            service.setup.join(service.seats.authenticate(game_id, token), side)
    return app, service, made, outbox


def page_link(outbox: Outbox, address: str) -> str:
    """The page link of the newest email to `address` that has one."""
    for msg in reversed(outbox.sent):
        found = re.search(r"https://hex\.example(/players/\?key=\S+)", body_text(msg))
        if found and msg["To"].lower() == address:
            return found.group(1)
    raise AssertionError(f"no page link in any email to {address}")


def signed_in(app, outbox: Outbox, address: str):
    client = app.test_client()
    moved = client.get(page_link(outbox, address))
    assert moved.status_code == 200 and 'http-equiv="refresh"' in moved.text
    cookie = moved.headers["Set-Cookie"]
    assert all(part in cookie for part in ("HttpOnly", "SameSite=Strict", "Path=/players/"))
    return client


def rows(html: str) -> dict[tuple[str, str], str]:
    """The page's games: (game, seat) -> the row's state (mine, theirs, waiting, over)."""
    return {(g, s): st for g, s, st in re.findall(r'data-game="([^"]+)" data-seat="([^"]+)" data-state="([^"]+)"',
                                                   html)}


def test_a_game_emails_link_opens_every_game_of_that_address(site):
    app, service, made, outbox = site
    client = signed_in(app, outbox, ANN)
    page = client.get("/players/")
    assert page.status_code == 200
    first, second, third = (made[n][0] for n in ("first", "second", "third"))
    # ann is red in the first (whose turn it is) and blue in the second (an address in another case); not in the third
    assert rows(page.text) == {(first, "red"): "mine", (second, "blue"): "theirs"}
    assert "Your turn in 1 of 2 game(s)" in page.text
    assert "Your turn</strong>: <span class=\"step\">turn 1, red movement step" in page.text
    assert "red to act" in page.text
    # each game's replay opens as that seat, with that seat's key and no other
    own = service.seats.replay_key(first, "red")
    assert f"/replay/{first}/?key={own}" in page.text
    assert service.seats.replay_key(first, "blue") not in page.text
    # and its play page, where that seat gives its orders (docs/playing-in-the-browser.md)
    play = f"/play/{first}/?key={service.seats.play_key(first, 'red')}"
    assert play in page.text and service.seats.play_key(first, "blue") not in page.text
    moved = client.get(play)
    assert moved.status_code == 200 and f"hexledger_play={service.seats.play_key(first, 'red')}" in moved.headers[
        "Set-Cookie"]
    assert 'you play <strong>red</strong>' in client.get(f"/play/{first}/").text
    assert not any(token in page.text for _, tokens in made.values() for token in tokens.values())
    assert page.headers["Cache-Control"] == "no-store" and "script-src 'self'" in page.headers[
        "Content-Security-Policy"]
    bob = signed_in(app, outbox, BOB).get("/players/").text
    assert rows(bob) == {(first, "blue"): "theirs", (second, "red"): "mine", (third, "blue"): "waiting"}
    assert "Waiting for red, blue to take their seat" in bob


def test_the_page_shows_what_the_seats_prompt_shows_and_counts_as_a_read(site):
    """Each row says what its seat's own prompt says (GET /games/GAME with that seat's token): whose turn, the step,
    what that seat owes; the deadline of a game with one; opening the page is a read of each game (its seat has
    seen the head)."""
    app, service, made, outbox = site
    game_id, tokens = service.setup.create("skirmish", {"red": ANN, "blue": CY}, deadline_hours=48)
    for side, token in tokens.items():
        service.setup.join(service.seats.authenticate(game_id, token), side)
    page = signed_in(app, outbox, CY).get("/players/").text
    assert rows(page)[(game_id, "blue")] == "theirs" and "Deadline for red: <time" in page
    seen = {m["seat"]: m["last_seen_seq"] for m in service.store.members(game_id)}
    assert seen["blue"] == service.store.head(game_id)[0]
    for address, side in ((ANN, "red"), (CY, "blue")):
        row = next(g for g in service.players.games(address) if g.game_id == game_id)
        prompt = app.test_client().get(f"/games/{game_id}", headers={"Authorization": f"Bearer {tokens[side]}"}).json
        assert (row.to_act, row.step, row.your_turn) == (prompt["to_act"], prompt["step"], prompt["your_turn"])
        assert row.owed == (prompt["owed"]["text"] if prompt["owed"] else None)


def test_each_row_shows_when_the_turn_runs_out_and_the_seats_own_clock(site):
    """Issue 28: the clock beside the deadline. A time-bank game (docs/play-by-email.md, "Clocks"): each row says
    when the side to act's bank runs out, vacations left out, as the turn emails say it, and the seat's own clock
    as its turn email words it (its bank, the increment, its vacation days); a vacation moves the deadline."""
    app, service, made, outbox = site
    game_id, tokens = service.setup.create("skirmish", {"red": ANN, "blue": CY}, bank_hours=72, increment_hours=24,
                                           vacation_days=5)
    for side, token in tokens.items():
        service.setup.join(service.seats.authenticate(game_id, token), side)

    def row(address: str) -> str:
        page = signed_in(app, outbox, address).get("/players/").text
        return unescape(re.search(rf'<li [^>]*data-game="{game_id}".*?</li>', page, re.S).group(0))

    def due() -> str:
        running = clocks.running(service.store, service.catalog, service.store.pbem_settings(game_id))
        assert running.side == "red"
        return running.due.strftime("%Y-%m-%d %H:%M")

    blue, red = row(CY), row(ANN)
    for shown in (blue, red):
        assert re.search(rf'Deadline for red: <time datetime="[^"]+">\s*{due()} UTC</time>', shown), shown
    assert ("Your clock: time bank: 3.0 day(s) left; +24 hours after each turn; vacation: 5 of 5 day(s) left"
            in blue)
    assert "Your clock: time bank: 3.0 day(s) left when your turn began; +24 hours" in red
    before = due()
    service.clocks.vacation(service.seats.authenticate(game_id, tokens["red"]), 2)
    assert due() != before
    red = row(ANN)
    assert f"{due()} UTC" in red and "vacation: 3 of 5 day(s) left" in red
    assert "vacation: 5 of 5 day(s) left" in row(CY)  # blue's own clock: red's vacation is red's


def test_the_page_counts_the_table_talk_no_email_has_told_yet_as_the_seat_may_read_it(site):
    """Issue 28: unread table talk on the player's page. Blue's word to all counts for red and the arbiter, blue's
    note to the arbiter for the arbiter only (the one visibility rule), nobody's own talk counts; once red's next
    email has told it, it is read."""
    app, service, made, outbox = site
    game_id, tokens = service.setup.create("skirmish", {"red": ANN, "blue": CY}, arbiter="arb@x.example")
    for side in ("red", "blue"):
        service.setup.join(service.seats.authenticate(game_id, tokens[side]), side)
    blue = service.seats.authenticate(game_id, tokens["blue"])
    service.talk.say(blue, ["Good luck, Ann!"])
    service.talk.say(blue, ["She opens on the left, I think"], "arbiter")

    def unread(address: str) -> int:
        return next(g.unread_talk for g in service.players.games(address) if g.game_id == game_id)

    assert (unread(ANN), unread(CY), unread("arb@x.example")) == (1, 0, 2)
    page = signed_in(app, outbox, ANN).get("/players/").text
    assert "1 table talk message(s) since your last email" in page and "left, I think" not in page
    red = service.seats.authenticate(game_id, tokens["red"])
    service.talk.say(red, ["Thanks, Cy!"])
    assert unread(CY) == 1
    service.orders.play(red, ["move R1 0202", "end", "end"])  # blue's turn email goes, telling blue red's word
    service.mailroom.deliver()
    assert any("Thanks, Cy!" in body_text(m) for m in outbox.sent if m["To"] == CY)
    assert (unread(ANN), unread(CY), unread("arb@x.example")) == (1, 0, 3)


def test_a_sign_in_link_is_mailed_once_works_once_and_tells_a_stranger_nothing(site):
    app, service, made, outbox = site
    client = app.test_client()
    before = len(outbox.sent)
    answers = {client.post("/players/sign-in-link", data={"email": address}).text
               for address in ("nobody@y.example", "ANN@x.example", "ann@x.example", "ann+x@x.example")}
    assert len({re.search(r'id="answer"[^>]*>([^<]*)', a).group(1) for a in answers}) == 1  # the same answer
    mailed = outbox.sent[before:]
    assert [m["To"] for m in mailed] == [ANN]  # one link: the stranger's address is never mailed, ann's once
    link = re.search(r"https://hex\.example(/players/sign-in\?key=\S+)", body_text(mailed[0])).group(1)
    assert client.get(link).status_code == 200 and client.get(link).status_code == 200  # a GET spends nothing
    code = link.partition("key=")[2]
    done = client.post("/players/sign-in", data={"key": code})
    assert done.status_code == 303 and done.headers["Location"].endswith("/players/")
    assert rows(client.get("/players/").text).keys() == {(made["first"][0], "red"), (made["second"][0], "blue")}
    again = app.test_client().post("/players/sign-in", data={"key": code})
    assert again.status_code == 403 and "used already or has expired" in again.text


def test_a_sign_in_link_expires_and_shares_the_strangers_limit(db_location):
    """Fifteen minutes, then spent; an address answered as a stranger by email this hour gets no link either."""
    clock = [datetime(2026, 11, 29, 12, 0, tzinfo=UTC)]
    outbox = Outbox()
    app = Application(open_store(db_location), CONFIG, outbox, clock=lambda: clock[0])
    app.setup.create("skirmish", {"red": ANN, "blue": BOB})
    hour = timedelta(hours=1)
    app.players.request_sign_in(ANN, hour)
    code = re.search(r"sign-in\?key=(\S+)", body_text(outbox.sent[-1])).group(1)
    clock[0] += timedelta(minutes=15)
    with pytest.raises(Exception, match="expired"):
        app.players.sign_in(code)
    sent = len(outbox.sent)
    app.players.request_sign_in(ANN, hour)  # within the hour: nothing
    assert len(outbox.sent) == sent
    clock[0] += hour
    inbound.ingest(app, b"From: bob@x.example\r\nTo: orders@pbem.example\r\nSubject: hi\r\nMessage-ID: <b1@x>\r\n\r\n"
                        b"hello\r\n")  # bob, as a stranger (no seat opened): answered, and that is bob's one
    assert outbox.sent[-1]["To"] == BOB
    app.players.request_sign_in(BOB, hour)
    assert len(outbox.sent) == sent + 1
    app.players.request_sign_in(ANN, hour)
    assert outbox.sent[-1]["To"] == ANN and len(outbox.sent) == sent + 2


def test_a_channel_is_set_from_the_page_for_one_game_or_all(site):
    app, service, made, outbox = site
    client = signed_in(app, outbox, ANN)
    first, second = made["first"][0], made["second"][0]
    done = client.post("/players/notify", data={"game": first, "seat": "red", "url": "discord://1234/s3cr3t-token"})
    assert done.status_code == 200 and "your turn is told on discord://" in done.text
    assert "s3cr3t-token" not in done.text  # shown without its secret
    assert service.store.channels(first) == {"red": "discord://1234/s3cr3t-token"}
    done = client.post("/players/notify", data={"all": "1", "url": "ntfy://ann-games"})
    assert done.status_code == 200
    assert service.store.channels(first) == {"red": "ntfy://ann-games"}
    assert service.store.channels(second) == {"blue": "ntfy://ann-games"}
    refused = client.post("/players/notify", data={"all": "1", "url": "json://10.0.0.1/x"})
    assert refused.status_code == 400 and "inside the server&#39;s network" in refused.text
    assert service.store.channels(second) == {"blue": "ntfy://ann-games"}  # nothing changed
    assert client.post("/players/notify", data={"game": second, "seat": "blue", "off": "1"}).status_code == 200
    assert service.store.channels(second) == {}
    # a seat of another player's: refused, nothing changed
    theirs = client.post("/players/notify", data={"game": first, "seat": "blue", "url": "ntfy://mine"})
    assert theirs.status_code == 403 and service.store.channels(first) == {"red": "ntfy://ann-games"}


def test_what_a_request_holds_is_escaped_and_no_request_makes_a_5xx(site):
    app, service, made, outbox = site
    client = signed_in(app, outbox, ANN)
    first = made["first"][0]
    refused = client.post("/players/notify", data={"game": first, "seat": "red",
                                                   "url": 'json://"><script>alert(1)</script>/x'})
    assert refused.status_code == 400 and "<script>" not in refused.text
    odd = "o'neil&<script>x</script>@x.example"  # an address as a seat may carry it (the API checks; a console no)
    game_id, tokens = service.setup.create("skirmish", {"red": odd, "blue": BOB})
    service.setup.join(service.seats.authenticate(game_id, tokens["red"]), "red")
    visitor = app.test_client()
    assert visitor.get(f"/players/?key={service.players.page_key(odd)}").status_code == 200
    shown = visitor.get("/players/").text
    assert "<script>" not in shown and unescape(shown).count(odd.lower()) == 1  # shown, as text
    key = page_link(outbox, ANN).partition("key=")[2]
    named, _, mac = key.partition(".")
    hostile = [("get", "/players/?key=", {}), ("get", "/players/?key=%%%", {}), ("get", "/players/?key=.", {}),
               ("get", f"/players/?key={named}.{'0' * 32}", {}), ("get", f"/players/?key=/w8.{mac}", {}),
               ("get", "/players/?key=" + "a" * 5000, {}), ("get", "/players/sign-in", {}),
               ("get", "/players/sign-in?key=" + "x" * 2000, {}),
               ("post", "/players/sign-in", {"data": {"key": ""}}), ("post", "/players/sign-in", {"data": {}}),
               ("post", "/players/sign-in-link", {"data": {"email": "not an address"}}),
               ("post", "/players/sign-in-link", {"data": {"email": "a@" + "b" * 2000}}),
               ("post", "/players/sign-in-link", {"data": {}}),
               ("post", "/players/notify", {"data": {"url": "ntfy://x"}}),
               ("post", "/players/notify", {"data": {"game": first, "seat": "red"}}),
               ("post", "/players/notify", {"data": {"game": "g-00000000", "seat": "red", "url": "ntfy://x"}}),
               ("post", "/players/notify", {"data": {"game": first, "seat": "red", "url": "ntfy://x"},
                                            "headers": {"Origin": "https://evil.example"}}),
               ("post", "/players/sign-out", {"headers": {"Sec-Fetch-Site": "cross-site"}}),
               ("post", "/players/notify", {"data": b"game=\xff\xfe", "content_type":
                                            "application/x-www-form-urlencoded"}),
               ("get", "/players/nothing-here", {}), ("put", "/players/", {})]
    for method, path, kw in hostile:
        answer = client.open(path, method=method.upper(), **kw)
        assert 400 <= answer.status_code < 500, (method, path, answer.status_code, answer.text[:300])
    stranger = app.test_client()
    stranger.set_cookie("hexledger_player", "bm9ib2R5.0123", path="/players/")
    refused = stranger.get("/players/")
    assert refused.status_code == 403 and "hexledger_player=;" in refused.headers["Set-Cookie"]  # and forgotten
    assert service.store.channels(first) == {}  # none of it changed anything


def test_every_game_email_links_to_the_page(site):
    app, service, made, outbox = site
    turn = next(m for m in reversed(outbox.sent) if m["To"] == ANN and "Your turn" in m["Subject"])
    invitation = next(m for m in outbox.sent if m["To"] == ANN and "Invitation" in m["Subject"])
    for msg in (turn, invitation):
        assert re.search(r"https://hex\.example/players/\?key=\S+", body_text(msg)), msg["Subject"]


def test_reds_page_shows_nothing_blue_hides(security_world):  # noqa: F811 - the fixture imported above
    """The fog test's game (tests/pbem/test_security.py): blue has moved a unit red must not see; red's page,
    opened with red's key, names nothing of it, nor anything of blue's."""
    app, client, games, outbox = security_world
    service = app.extensions["hexledger_service"]()
    g = games["one"]["game_id"]
    visitor = app.test_client()
    assert visitor.get(f"/players/?key={service.players.page_key('red-one@x.example')}").status_code == 200
    page = visitor.get("/players/").text
    assert rows(page) == {(g, "red"): "mine"}
    assert SECRET_HEX not in told(page) and service.seats.replay_key(g, "blue") not in page
