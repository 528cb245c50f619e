"""Practice opponents' mutation survivor `practice._rate` 58 (docs/mutation-survivors.md, parts 13 to 15), killed by
what a player would see the Allied practice seat do with one engineer in the Staging Area.

Greedy (edition 8 on) rates a unit brought onto the map by its distance to the nearest objective, 2 ** (-d / 3), plus
what the move raises the game's stakes by. The printed Formosa map has no two transfer destinations where that
weight decides against the stakes (part 14), so the position uses a map that states its own ports (ruling F103): a
shore 24 hexes long, the Japanese-free airfield 1202 the only objective, an Allied-held open hex 0202 ten hexes from
it, and the Allied-held major port and airfield 2402 twelve hexes from it and without a base. An engineer landed at
2402 can build its base there at once (4 VP + 1 VP, 20.1), at 0202 it is ten hexes from any site: the stakes rise
by 0.044 against 0.001, more than the 0.037 the nearer hex's weight is worth, so the seat sends it to 2402. Weighted
by 2 ** (-d / 4) instead, the nearer hex would be worth 0.052 and the seat would send a unit to 0202."""
from __future__ import annotations

from app.rules import practice
from app.rules.formosa import GAME as FORMOSA

NEAR, OBJECTIVE, PORT = "0202", "1202", "2402"


def shore() -> str:
    land = ", ".join(f'"{c:02d}02"' for c in range(2, 26))
    return ('[map]\nname = "the long shore"\nparity = "even-low"\ncols = [1, 26]\nrows = [1, 3]\n'
            '[vocabulary]\nterrain = ["sea", "open", "rough", "mountain", "peak", "mud-flats"]\n'
            'hexside = ["river", "bridged-river", "all-sea"]\n'
            'features = ["city", "town", "major-port", "minor-port", "airfield", "industry", "beach"]\n'
            f'[terrain]\ndefault = "sea"\nopen = [{land}]\n'
            f'[features]\nmajor-port = ["{PORT}"]\nairfield = ["{OBJECTIVE}", "{PORT}"]\n')


def test_the_allied_seat_lands_its_staged_engineer_at_the_far_port_its_base_would_score_not_the_nearer_hex():
    position = {"turn": 3, "phase": "naval-transfer", "units": {"us-7-17": NEAR, "us-7-32": PORT},
                "pinned": ["us-7-17", "us-7-32"], "where": {"us-eng-1": "allied-staging"},
                "lp": {"allied": 10, "japanese": 0}}
    state = FORMOSA.initial_state("1", {"map": shore(), "position": position})
    text, reason = practice.choose(FORMOSA, "greedy", state, "allied", settings={"edition": practice.EDITION})
    assert text == f"transfer us-eng-1 to {PORT}"
    assert reason["rule"] == "into play" and reason["distance"] == 12
