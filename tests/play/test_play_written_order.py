"""An order written on the play page (issue 28; docs/playing-in-the-browser.md, "Writing an order"), in Debian's
Chromium through the real app on waitress: what the player writes in the order language (docs/orders/snc.md) is
shown and previewed before it goes and sent through the same API call as a clicked order. A combination the rules'
list does not hold (a stack moving together by a path the player names) is accepted and ends the history; an order
that does not read and one the rules refuse are shown with why (the rules case) and write nothing. By the keyboard,
at a phone's width; the text goes in as text, never markup. Every wait is on a condition the page sets."""
from __future__ import annotations

import pytest

from tests.play.clicking import PHONE, clean, fits, open_seat, send
from tests.play.test_play_in_the_browser import GAMES, Game, browser, chromium, server  # noqa: F401  (the fixtures)

pytestmark = [pytest.mark.browser, pytest.mark.slow]
COMPOSED = "(order) => document.body.dataset.composed === order && document.body.dataset.previewed === order"
# two counters of 3511 together by a path of the player's choosing: the list offers moves, never a path (SNC 9.0)
STACK = "move cn-d87 cn-d98 to 3209 via 3410 3310"


def write(page, order: str) -> None:
    """Write `order` in the field and press Enter, as a keyboard does; wait until it is shown and previewed."""
    page.fill("#write-text", order)
    page.focus("#write-text")
    page.keyboard.press("Enter")
    page.wait_for_function(COMPOSED, arg=order)
    assert page.locator("#order-text").inner_text() == order  # shown as written, before it goes
    assert page.evaluate("document.activeElement.id") == "send"  # the next Enter sends it


def refused_by_the_page(page, game: Game, order: str) -> str:
    """Send the written order, which the server refuses: the refusal shown, nothing written. Returns its words."""
    head, history = game.get("chinese", "/state")["seq"], game.history("chinese")
    shown = page.locator("#history").inner_text()
    page.keyboard.press("Enter")
    page.wait_for_selector("#refusal:not([hidden])")
    assert game.get("chinese", "/state")["seq"] == head and game.history("chinese") == history  # nothing written
    assert page.locator("#history").inner_text() == shown and page.locator("#answer").is_hidden()
    return page.locator("#refusal").inner_text()


def test_a_written_order_goes_as_a_clicked_one_and_a_refused_one_changes_nothing(server, browser):  # noqa: F811
    game = Game(server, "snc", GAMES["snc"])
    game.order("chinese", "declare move fight")  # SNC 5.3: the First Operations Phase is a move phase
    listed = [o["order"] for o in game.get("chinese", "/actions")["legal_orders"]]
    assert any(o.startswith("move cn-d87 ") for o in listed) and not any(" via " in o for o in listed)
    seat = open_seat(browser, server.url, game.id, "chinese", game.seats.play_key(game.id, "chinese"), PHONE)
    page = seat.page
    page.wait_for_selector("#write-form:not([hidden])")
    assert page.locator("label[for='write-text']").inner_text().startswith("Write an order")

    # an order that does not read, with markup in it: shown as text, refused with why, nothing written
    markup = "<img src=x onerror=alert(1)> cn-d87 to 3613"
    write(page, markup)
    assert "cannot read order" in page.locator("#no-preview").inner_text()  # said before it goes, by the preview
    said = refused_by_the_page(page, game, markup)
    assert said.startswith(f"Refused: cannot read order '{markup}'"), said
    assert page.locator("#compose img, #orders img").count() == 0  # the text, never its markup

    # an order the rules refuse: its rules case, nothing written
    write(page, "move cn-d87 to 0101")
    assert page.locator("#no-preview").inner_text().startswith("No preview: the rules say (SNC 9.0): ")
    said = refused_by_the_page(page, game, "move cn-d87 to 0101")
    assert said.startswith("Refused (SNC 9.0): ") and "no legal path from 3511 to 0101" in said, said
    assert said.count("SNC 9.0") == 1, said  # the case named once, not again from the server's message

    # a combination the list does not hold: previewed (legal, no preview of a move), sent, then in the history
    write(page, STACK)
    assert page.locator("#no-preview").inner_text().endswith("the order is legal now")
    fits(page, PHONE["width"])
    assert send(seat) == STACK
    assert game.last_order("chinese") == f"chinese orders: {STACK}"
    page.wait_for_function("(line) => document.getElementById('history').innerText.includes(line)",
                           arg=f"chinese orders: {STACK}")
    assert page.locator("#write-text").input_value() == ""  # sent: the field is empty for the next one
    units = {u["id"]: u["hex"] for u in game.get("chinese", "/state")["view"]["units"]}
    assert units["cn-d87"] == units["cn-d98"] == "3209"

    # a clicked order's text taken into the field to change it
    page.click("#choices button.order[data-order='end']")
    page.wait_for_selector("body[data-composed='end']")
    page.click("#edit")
    assert page.locator("#write-text").input_value() == "end"
    assert page.evaluate("document.activeElement.id") == "write-text"

    # Chromium logs each refused request (the orders and their previews, 422) as a console error: those only
    assert set(seat.errors) == {"console: Failed to load resource: the server responded with a status of 422 "
                                "(UNPROCESSABLE ENTITY)"}, seat.errors
    seat.errors.clear()
    clean(seat)
