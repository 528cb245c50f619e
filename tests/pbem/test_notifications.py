"""Notifications where players are (issue 28; docs/players.md): beside email, each seat may name a channel (an
Apprise URL), and is told there whenever it becomes its turn and when the game ends, through the outbox with the
guarantees of email. The channels here are real: Apprise's JSON webhook and its ntfy client, posting to a real
HTTP server on 127.0.0.1 (tests/pbem/webhooks.py), which the operator allows as a private host."""
from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from app.events.backends import open_store
from app.mail import inbound
from app.mail.channels import AppriseChannels
from app.mail.transport import MailConfig
from app.projections import state as projection
from app.rules.catalog import installed
from app.rules.errors import OrderError
from app.service.application import Application
from app.service.errors import GameError
from app.service.ports import ChannelRefused, Notification, PermanentFailure
from tests.conftest import skirmish_candidates
from tests.outbox import Outbox
from tests.pbem.webhooks import Receiver

CATALOG = installed()  # the rule sets installed here

PLAYERS = {"red": "red@x.example", "blue": "blue@x.example"}
PAGE = "https://hex.example/players/"
TITLE = CATALOG.rules("skirmish").title
CONFIG = MailConfig(orders_address="orders@pbem.example", public_url="https://hex.example/",
                    notify_private_hosts=("127.0.0.1",))


@pytest.fixture
def receiver():
    r = Receiver().start()
    yield r
    r.stop()


class Never:
    """A notifier that never runs the reactions it is told of: a server killed right after each commit."""

    def kick(self) -> None:
        pass


@pytest.fixture
def world(db_location, receiver):
    clock = [datetime(2026, 11, 29, 12, 0, tzinfo=UTC)]
    app = Application(open_store(db_location), CONFIG, Outbox(), clock=lambda: clock[0])
    game_id, tokens = app.setup.create("skirmish", PLAYERS)
    seats = {side: app.seats.authenticate(game_id, token) for side, token in tokens.items()}
    app.players.set_channel(seats["red"], f"json://{receiver.url}/red")
    app.players.set_channel(seats["blue"], f"ntfy://{receiver.url}/blue-topic")
    yield app, game_id, tokens, seats, clock
    app.store.close()


def said(receiver: Receiver, seat: str) -> list[str]:
    """What each notification to `seat` said (title and text), in order: red's JSON webhook, blue's ntfy."""
    if seat == "red":
        return [f"{r.json['title']}\n{r.json['message']}" for r in receiver.on("/red")]
    return [f"{r.json['title']}\n{r.json['message']}" for r in receiver.on("/") if r.json["topic"] == "blue-topic"]


def turn_text(game_id: str, side: str, step: str, seq: int) -> str:
    return (f"Hexledger {game_id}: your turn\nYour turn in game {game_id} ({TITLE}), as {side}: {step} "
            f"(event {seq}).\nYour games: {PAGE}")


def whose_turn(app: Application, game_id: str) -> tuple[str | None, str, int, bool]:
    state = projection.load(app.store, CATALOG, game_id)
    rules = CATALOG.rules(state.meta.rules)
    prompt = rules.prompt(state.game)
    return prompt.side, prompt.step, state.meta.seq, rules.outcome(state.game) is not None


def test_every_turn_change_is_told_on_the_seats_channel_and_nothing_else(world, receiver):
    """A whole game of random legal orders, each through the service as a player gives it: after every order
    whose position is the other side's turn, that side's channel has one notification more, saying exactly whose
    turn, the step and the event, with the page's link and nothing else (no key, no token, no position); at the
    end each seat is told the result."""
    app, game_id, tokens, seats, clock = world
    expected: dict[str, list[str]] = {"red": [], "blue": []}
    for side in ("red", "blue"):
        app.setup.join(seats[side], f"{side} text")
    side, step, seq, over = whose_turn(app, game_id)
    expected[side].append(turn_text(game_id, side, step, seq))
    assert said(receiver, "red") == expected["red"] and said(receiver, "blue") == expected["blue"]
    rng = random.Random(28)
    while not over:
        candidates = skirmish_candidates(projection.load(app.store, CATALOG, game_id))
        rng.shuffle(candidates)
        candidates.sort(key=lambda o: o == "end" and rng.random() < 0.7)
        for order in candidates:
            try:
                app.orders.order(seats[side], order)
                break
            except OrderError:
                continue
        now, step, seq, over = whose_turn(app, game_id)
        if over:
            winner = CATALOG.rules("skirmish").outcome(projection.load(app.store, CATALOG, game_id).game).winner
            for each in ("red", "blue"):
                expected[each].append(f"Hexledger {game_id}: game over\nGame {game_id} ({TITLE}) is over: "
                                      f"{winner or 'a draw'}.\nYour games: {PAGE}")
        elif now != side:
            expected[now].append(turn_text(game_id, now, step, seq))
        side = now
        assert said(receiver, "red") == expected["red"] and said(receiver, "blue") == expected["blue"]
    assert len(expected["red"]) + len(expected["blue"]) > 6  # turns did change, several times
    everything = "\n".join(r.text for r in receiver.received)
    assert not any(token in everything for token in tokens.values())
    assert "key=" not in everything and "0" * 4 not in everything.replace(game_id, "")  # no key, nothing hex-long


def test_a_refused_notification_is_tried_again_until_it_goes(world, receiver):
    """The channel answers 500: the notification stays in the outbox with its error and goes on a later round,
    once, as an email would."""
    app, game_id, tokens, seats, clock = world
    receiver.status = 500
    app.setup.join(seats["red"], "r")
    app.setup.join(seats["blue"], "b")
    assert receiver.refused >= 1 and receiver.received == []
    [row] = [r for r in app.mailroom.mail_queue() if r["kind"] == "notify"]
    assert row["attempts"] == 1 and "did not take" in row["last_error"] and "red" not in row["last_error"]
    assert row["recipient"] == PLAYERS["red"]  # the URL, a secret, is in no row: looked up when it goes
    receiver.status = 200
    app.mailroom.deliver()
    assert receiver.received == []  # not due yet
    clock[0] += timedelta(minutes=5)
    app.mailroom.deliver()
    app.mailroom.deliver()
    assert len(said(receiver, "red")) == 1 and "your turn" in said(receiver, "red")[0]
    assert not [r for r in app.mailroom.mail_queue() if r["kind"] == "notify"]


def test_a_crash_after_the_commit_loses_no_notification(db_location, receiver):
    """Orders committed by a server killed before any reaction ran (its notifier never runs them): the next
    sender round reacts to the stored events and the seat whose turn it is now is told; the notification of a
    turn that has already passed is superseded, not sent, as a turn email is."""
    world = Application(open_store(db_location), CONFIG, Outbox(), notifier=Never())
    game_id, tokens = world.setup.create("skirmish", PLAYERS)
    seats = {side: world.seats.authenticate(game_id, token) for side, token in tokens.items()}
    world.players.set_channel(seats["red"], f"json://{receiver.url}/red")
    world.players.set_channel(seats["blue"], f"ntfy://{receiver.url}/blue-topic")
    for side in ("red", "blue"):
        world.setup.join(seats[side], side)
    while whose_turn(world, game_id)[0] == "red":  # red's turn began, and passed to blue
        world.orders.order(seats["red"], "end")
    assert receiver.received == []
    world.store.close()

    after = Application.open(db_location, CONFIG)
    after.sender_round()
    side, step, seq, _ = whose_turn(after, game_id)
    assert side == "blue" and said(receiver, "blue") == [turn_text(game_id, "blue", step, seq)]
    assert said(receiver, "red") == []
    assert [r["status"] for r in after.mailroom.mail_queue() if r["kind"] == "notify"] == ["superseded"]
    after.sender_round()  # made once: a second round reacts to nothing and sends nothing
    assert len(receiver.received) == 1


def test_a_seat_without_a_channel_is_told_by_email_only_and_off_stops_one_queued(world, receiver):
    app, game_id, tokens, seats, clock = world
    app.players.set_channel(seats["red"], None)
    receiver.status = 500
    app.setup.join(seats["red"], "r")
    app.setup.join(seats["blue"], "b")
    while whose_turn(app, game_id)[0] == "red":  # blue's turn: its notification fails, and waits
        app.orders.order(seats["red"], "end")
    assert [r["seat"] for r in app.mailroom.mail_queue() if r["kind"] == "notify"] == ["blue"]
    app.players.set_channel(seats["blue"], None)  # notify: off, before the retry
    receiver.status = 200
    clock[0] += timedelta(hours=1)
    app.mailroom.deliver()
    assert receiver.received == [] and not [r for r in app.mailroom.mail_queue() if r["kind"] == "notify"]


def message(n: int, lines: list[str]) -> bytes:
    return (f"From: red@x.example\r\nTo: orders@pbem.example\r\nSubject: orders\r\nMessage-ID: <n{n}@x>\r\n\r\n"
            + "\r\n".join(lines) + "\r\n").encode()


def test_notify_lines_in_an_email_set_and_clear_the_seats_channel(world, receiver):
    """`notify: <URL>` sets the seat's channel (the answer shows it without its secrets), `notify: off` clears
    it; a URL the server will not call is refused with why, nothing changed and nothing of the message played."""
    app, game_id, tokens, seats, clock = world
    head = [f"game: {game_id}", f"token: {tokens['red']}"]
    result = inbound.ingest(app, message(1, [*head, f"notify: json://user:secret-pw@{receiver.url}/mine"]))
    assert result.applied == 1 and not result.refused, result.lines
    assert app.store.channels(game_id)["red"] == f"json://user:secret-pw@{receiver.url}/mine"
    answer = "\n".join(app.mailroom.answer_of("<n1@x>")["answer"]["lines"])
    assert f"accepted: notify: json://user:****@{receiver.url}/mine" in answer and "secret-pw" not in answer
    for n, refused in enumerate(["file:///etc/passwd", "mailto://me:pw@mail.example", "json://169.254.169.254/x",
                                 "json://10.1.2.3/x", "ntfy://localhost/t", "apprise://127.0.0.1/t", "nonsense"],
                                start=2):
        before = [e.hash for e in app.store.events(game_id)]
        result = inbound.ingest(app, message(n, [*head, f"notify: {refused}", "end"]))
        assert result.refused and result.applied == 0, (refused, result.lines)
        assert app.store.channels(game_id)["red"].endswith("/mine")
        assert [e.hash for e in app.store.events(game_id)] == before  # "end" was not played
    assert "inside the server's network" in "\n".join(inbound.ingest(app, message(20, [
        *head, "notify: json://169.254.169.254/latest"])).lines)
    result = inbound.ingest(app, message(30, [*head, "notify: off"]))
    assert result.applied == 1 and "email only" in result.lines[-1] and "red" not in app.store.channels(game_id)


def test_only_public_hosts_of_allowed_services_are_called():
    """The server's rule for a channel (app/mail/channels.py): the services it lists, at their own fixed address
    (no lookup), or at a host that resolves only to public addresses, unless the operator allowed that host."""
    names = {"chat.example": ["93.184.215.14"], "inside.example": ["93.184.215.14", "192.168.1.4"],
             "v6.example": ["2001:db8::1"], "public6.example": ["2606:4700::1111"], "meta.example": ["169.254.169.254"]}

    def resolver(host: str):
        return names[host]

    channels = AppriseChannels(["inside.example"], resolver)
    assert channels.checked("discord://4242/tok-en").startswith("discord://")  # fixed: never looked up
    assert channels.checked("https://hooks.slack.com/services/T1JJ3T3L2/A1BRTD4JD/TIiajkdnlazkcOXrIdevi7FQ")
    assert channels.checked("tgram://123456789:abcdefgh/987654321").startswith("tgram://")
    assert channels.checked("ntfy://my-games").startswith("ntfys://my-games")  # ntfy.sh
    assert channels.checked("ntfys://public6.example/t") and channels.checked("matrixs://u:p@chat.example/#r")
    assert channels.checked("json://inside.example/hook")  # the operator allowed it
    for url, why in [("json://meta.example/x", "inside the server's network"),
                     ("ntfys://v6.example/t", "inside the server's network"),
                     ("gotify://[::1]/token", "inside the server's network"),
                     ("mailto://a:b@chat.example", "not a channel this server calls"),
                     ("syslog://", "not a channel this server calls"),
                     ("file:///etc/passwd", "not a notification URL"), ("json://ok.example/a b", "one line")]:
        with pytest.raises(ChannelRefused, match=why):
            channels.checked(url)
    with pytest.raises(ChannelRefused, match="cannot be resolved"):
        AppriseChannels().checked("json://no-such-host.invalid/x")
    # a host that has moved inside since it was set is not called: refused for good, not retried
    names["chat.example"] = ["10.0.0.8"]
    with pytest.raises(PermanentFailure, match="inside the server's network"):
        channels.send(Notification("json://chat.example/x", "t", "b"))


def test_the_page_and_the_service_refuse_a_bad_channel_alike(world):
    app, game_id, tokens, seats, clock = world
    with pytest.raises(GameError, match="notify: .*inside the server's network.*; nothing was changed"):
        app.players.set_channel(seats["blue"], "json://127.0.0.2/x")
    assert app.store.channels(game_id)["blue"].startswith("ntfy://")
