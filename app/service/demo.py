"""The demo: a sample game with some history, so a newcomer sees the system at work."""
from __future__ import annotations

from app.events.store import EventStore
from app.service import games

SKIRMISH_OPENING = [
    ("red", "move R1 0202"), ("red", "move R2 0203 0303"), ("red", "end"), ("red", "end"),
    ("blue", "move B1 0602 0502"), ("blue", "move B2 0603 0503"), ("blue", "end"), ("blue", "end"),
    ("red", "move R1 0302 0402"), ("red", "move R3 0204 0304"), ("red", "end"),
    ("red", "attack 0502 with R1"),
]


def play_demo(store: EventStore) -> tuple[str, list[str]]:
    game_id = games.create_game(store, "skirmish")
    games.join(store, game_id, "red", "red@example.org", "red's dice text")
    games.join(store, game_id, "blue", "blue@example.org", "blue's dice text")
    played = []
    for side, order in SKIRMISH_OPENING:
        games.submit(store, game_id, side, order)
        played.append(f"{side}: {order}")
    return game_id, played
