"""A game stored with a `search` seat of edition 2 (before the search's evaluation read each game's stakes and its
playouts ran on to the end of the deciding side's steps) still verifies: `verify` re-runs every automated
decision with the edition the seat recorded (app/rules/practice.py, app/rules/evaluation.py). The export in
tests/data/exports-611a980 was written by main at 611a980."""
from pathlib import Path

from app.rules import search
from app.rules.catalog import installed
from app.service import audit, transfer

CATALOG = installed()  # the rule sets installed here

EXPORT = Path(__file__).parents[1] / "data" / "exports-611a980" / "g-e2snc-search.jsonl"


def _events():
    return transfer.parse_lines(EXPORT.read_text().splitlines())


def test_a_game_with_an_edition_2_search_seat_verifies_every_automated_order_and_its_dice():
    events = _events()
    [seat] = [e for e in events if e.type == "core.SeatAutomated"]
    assert seat.payload["policy"] == "search" and seat.payload["settings"] == {"edition": 2, "playouts": 8}
    searched = [e for e in events if e.type == "core.OrderGiven" and e.actor == "auto:japanese"
                and e.payload["auto"]["reason"]["playouts"]]
    assert len(searched) == 78
    report = audit.verify(CATALOG, events, check_dice=True)
    assert report.ok, [str(p) for p in report.problems]
    assert report.rolls_unchecked == 0


def test_the_search_of_edition_3_would_decide_that_game_otherwise(monkeypatch):
    """Played by edition 3's evaluation and playouts, some stored order is not the one the search gives: the
    edition recorded with the seat is what keeps the game verifying."""
    made = search.Search.__init__

    def edition_3(self, *args, **kwargs):
        made(self, *args, **kwargs)
        self.edition = 3

    monkeypatch.setattr(search.Search, "__init__", edition_3)
    report = audit.verify(CATALOG, _events())
    assert not report.ok and "policy search gives" in str(report.problems[0])
