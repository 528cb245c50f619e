"""The demo: a sample game with some history, so a newcomer sees the system at work."""
from __future__ import annotations

from app.events.interface import SnapshotStreams
from app.rules.base import Catalog
from app.service import games

SKIRMISH_OPENING = [
    ("red", "move R1 0202"), ("red", "move R2 0203 0303"), ("red", "end"), ("red", "end"),
    ("blue", "move B1 0602 0502"), ("blue", "move B2 0603 0503"), ("blue", "end"), ("blue", "end"),
    ("red", "move R1 0302 0402"), ("red", "move R3 0204 0304"), ("red", "end"),
    ("red", "attack 0502 with R1"),
]

# SNC 12.0, as far as it is determinate: the Chinese hold their positions through GT 1 and bring up the GT 2
# reinforcements; SNLF 9 lands at Shanghai (13.0); on GT 2 the Japanese land the 3rd Division at Wusong with
# all four markers. The landing's die roll ends the script (what follows depends on it).
SNC_OPENING = [
    ("chinese", "declare move move"), ("chinese", "end"), ("chinese", "end"), ("chinese", "end"),
    ("japanese", "declare fight fight"), ("japanese", "end"), ("japanese", "land snlf-9 at 3512"),
    ("japanese", "end"), ("japanese", "end"),
    ("chinese", "declare move move"), ("chinese", "end"),
    ("chinese", "place d11 d14 at 2503"), ("chinese", "place d61 d62 d63 at 1824"),
    ("chinese", "place d3 d6 d7 at 2410"), ("chinese", "move d3 to 2610"), ("chinese", "end"), ("chinese", "end"),
    ("japanese", "declare move fight"), ("japanese", "end"),
    ("japanese", "land d3-r6 d3-r18 d3-r34 d3-r68 at 3510 support amphibious naval air artillery"),
    ("chinese", "pass"),
]

OPENINGS = {
    "snc": (("chinese", "japanese"), SNC_OPENING),
    "skirmish": (("red", "blue"), SKIRMISH_OPENING),
}


def play_demo(store: SnapshotStreams, catalog: Catalog, rules: str = "snc") -> tuple[str, list[str]]:
    sides, opening = OPENINGS[rules]
    game_id = games.create_game(store, catalog, rules)
    for side in sides:
        games.join(store, catalog, game_id, side, f"{side}@example.org", f"{side}'s dice text")
    played = []
    for side, order in opening:
        games.submit(store, catalog, game_id, side, order)
        played.append(f"{side}: {order}")
    return game_id, played
