"""An SNC game by email up to the Japanese turn of GT 2 (the position of issue 14's long landing order): the
game the real mail programs' replies in tests/pbem/fixtures/ answer."""
from __future__ import annotations

from app.service.application import Application

CN, JP = "chinese@players.example", "japanese@players.example"
LANDING = "land d3-r6 d3-r18 d3-r34 d3-r68 at 3510 support amphibious naval air artillery"
ORDERS = ("declare move fight", "end", LANDING)  # the Japanese orders every fixture sends


def to_japanese_gt2(pbem: Application, arbiter: str | None = None) -> str:
    """Create the game (with an arbiter at `arbiter`, if given), play GT 1 and the Chinese GT 2 through the
    service; the Japanese turn email is queued."""
    game_id, tokens = pbem.setup.create("snc", {"chinese": CN, "japanese": JP}, arbiter=arbiter)
    cn, jp = (pbem.seats.authenticate(game_id, tokens[s]) for s in ("chinese", "japanese"))
    pbem.setup.join(cn, "the Yangtze at dawn")
    pbem.setup.join(jp, "Kure naval district")
    for seat, order in [(cn, "declare move move"), (cn, "end"), (cn, "end"), (cn, "end"),
                        (jp, "declare fight fight"), (jp, "end"), (jp, "land snlf-9 at 3512"), (jp, "end"),
                        (jp, "end"), (cn, "declare move move"), (cn, "end"), (cn, "place d11 d14 at 2503"),
                        (cn, "place d61 d62 d63 at 1824"), (cn, "place d3 d6 d7 at 2410"), (cn, "move d3 to 2610"),
                        (cn, "end"), (cn, "end")]:
        pbem.orders.submit(seat, order)
    return game_id
