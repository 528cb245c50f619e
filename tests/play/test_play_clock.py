"""The clock's actions on the play page (issue 28; docs/playing-in-the-browser.md, "Your clock"), in Debian's
Chromium through the real app on waitress: a vacation taken, a draw offered that the other side's page shows and
declines, a resignation after its confirmation, each the API call an email's line makes (docs/play-by-email.md,
"Clocks") and each then in the game's history. Every wait is on a condition the page sets; no console error, no
Content-Security-Policy violation, nothing wider than a phone's screen."""
from __future__ import annotations

import pytest

from tests.play.clicking import PHONE, ask_again, clean, fits, open_seat
from tests.play.test_play_in_the_browser import GAMES, Game, browser, chromium, server  # noqa: F401  (the fixtures)

pytestmark = [pytest.mark.browser, pytest.mark.slow]
CLOCK = {"deadline_hours": 72, "vacation_days": 5}


def done(page, line: str) -> None:
    """Wait until the page's clock action `line` is answered and the page drawn again after it (play.js sets
    data-clock-done once it has read the game after the answer)."""
    page.wait_for_function("(line) => (document.body.dataset.clockDone || '').startsWith(line + ' @')", arg=line)
    assert page.locator("#clock-refusal").is_hidden(), page.locator("#clock-refusal").inner_text()


def last_event(game: Game, side: str) -> dict:
    return game.history(side)[-1]


def test_vacation_draw_offer_and_resigning_from_the_page(server, browser):  # noqa: F811  (the fixtures)
    game = Game(server, "snc", GAMES["snc"], clock=CLOCK)
    seats = {side: open_seat(browser, server.url, game.id, side, game.seats.play_key(game.id, side), PHONE)
             for side in game.sides}
    chinese, japanese = seats["chinese"].page, seats["japanese"].page

    # a vacation: the line shown before it goes, the clock's words after it
    chinese.wait_for_selector("#clock:not([hidden]) #vacation-form:not([hidden])")
    before = chinese.locator("#clock-text").inner_text()
    assert "vacation: 5 of 5 day(s) left" in before and "your move is due by" in before, before
    chinese.fill("#vacation-days", "3")
    assert chinese.locator("#vacation-text").inner_text() == "vacation 3"
    chinese.click("#vacation-form button[type=submit]")
    done(chinese, "vacation 3")
    after = chinese.locator("#clock-text").inner_text()
    assert "vacation: 2 of 5 day(s) left" in after and after != before, after  # the deadline moved by 3 days
    assert game.get("chinese", "/clock")["vacation_days_used"] == 3
    event = last_event(game, "japanese")
    assert event["type"] == "core.VacationTaken" and event["text"].startswith("chinese takes a vacation from "), event
    assert event["text"] in chinese.locator("#history").inner_text()  # the page's history says it too

    # a draw offered; the other side's page shows it without a reload, and declines it
    chinese.click("#draw-buttons button[data-draw='offer']")
    done(chinese, "offer draw")
    assert chinese.locator("#draw-buttons button").count() == 0  # no answer to one's own offer
    assert last_event(game, "chinese")["text"] == "chinese offers a draw"
    japanese.wait_for_selector("#draw-buttons button[data-draw='decline']")
    assert "chinese offers a draw" in japanese.locator("#clock-offer").inner_text()
    japanese.click("#draw-buttons button[data-draw='decline']")
    done(japanese, "decline draw")
    event = last_event(game, "chinese")
    assert event["text"] == "japanese declines the draw: the game goes on", event
    assert game.get("chinese", "/clock")["draw_offer"] is None
    ask_again(chinese)  # the other page's own poll was seen above: this one is asked at once
    chinese.wait_for_selector("#draw-buttons button[data-draw='offer']")  # the offer is gone on both pages
    assert japanese.locator("#clock-offer").is_hidden()

    # resigning, by keyboard: asked first; Escape takes it back and nothing is written; then confirmed
    head = game.get("chinese", "/state")["seq"]
    chinese.focus("#resign")
    chinese.keyboard.press("Enter")
    chinese.wait_for_selector("#resign-confirm:not([hidden])")
    assert chinese.evaluate("document.activeElement.id") == "resign-yes"
    chinese.keyboard.press("Escape")
    chinese.wait_for_selector("#resign-confirm", state="hidden")
    assert chinese.evaluate("document.activeElement.id") == "resign"
    assert game.get("chinese", "/state")["seq"] == head  # nothing written
    chinese.keyboard.press("Enter")
    chinese.wait_for_selector("#resign-confirm:not([hidden])")
    for seat in seats.values():
        fits(seat.page, PHONE["width"])
    chinese.keyboard.press("Enter")
    done(chinese, "resign")
    resigned = [e for e in game.history("japanese") if e["type"] == "core.Resigned"]
    assert [e["text"] for e in resigned] == ["chinese concedes to japanese: chinese resigned"], resigned
    assert game.get("chinese", "/actions")["outcome"]["winner"] == "japanese"
    ask_again(japanese)
    for page in (chinese, japanese):
        page.wait_for_selector("#clock", state="hidden")  # no clock action once the game is over
        assert page.locator("#status .turn").inner_text().startswith("Game over: japanese")
    for seat in seats.values():
        clean(seat)
