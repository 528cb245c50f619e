"""14.0 and 19.0 item 1 on a custom map with a strait: a ZOC and a line of supply stop at an all-sea hexside between
two land hexes. The printed map has no such hexside (its sea hexes block by their terrain), so only a map that
states its own strait (ruling F103, docs/custom-positions.md) tells these rules apart from 12.2's sea terrain."""
from __future__ import annotations

from formosa_given import of, refused, when

from app.rules.formosa import GAME
from app.rules.formosa.events import LpSpent, UnitMoved

WEST = ["0202", "0203", "0204", "0205", "0302", "0303", "0304", "0305"]
EAST = ["0402", "0403", "0404", "0405", "0502", "0503", "0504", "0505"]
# every hexside between column 03 and column 04 (even-low parity) is the strait
STRAIT = ["0302/0402", "0303/0402", "0303/0403", "0304/0403", "0304/0404", "0305/0404", "0305/0405"]


def island(strait: bool) -> str:
    sides = "[hexsides]\nall-sea = [" + ", ".join(f'"{s}"' for s in STRAIT) + "]\n" if strait else ""
    land = ", ".join(f'"{h}"' for h in WEST + EAST)
    return ('[map]\nname = "two shores"\nparity = "even-low"\ncols = [1, 6]\nrows = [1, 6]\n'
            '[vocabulary]\nterrain = ["sea", "open", "rough", "mountain", "peak", "mud-flats"]\n'
            'hexside = ["river", "bridged-river", "all-sea"]\n'
            'features = ["city", "town", "major-port", "minor-port", "airfield", "industry", "beach"]\n'
            f'[terrain]\ndefault = "sea"\nopen = [{land}]\n'
            '[features]\ncity = ["0203"]\ntown = ["0503"]\nmajor-port = ["0402"]\nminor-port = ["0202"]\n'
            f'{sides}')


def start(strait: bool, phase: str, units: dict[str, str], **extra):
    position = {"turn": 3, "phase": phase, "units": units, "revealed": [u for u in units if u.startswith("jp-")],
                "lp": {"allied": 5, "japanese": 0}, **extra}
    return GAME.initial_state("1", {"map": island(strait), "position": position})


def test_14_0_no_zoc_across_an_all_sea_hexside_a_unit_moves_on_past_the_enemy_across_the_strait():
    units = {"us-7-17": "0203", "jp-9-7": "0403"}
    narrows = start(True, "allied-movement", units)
    [moved] = of(when(narrows, "allied", "move us-7-17 0303 0304"), UnitMoved)  # 0303 faces 0403 across the strait
    assert moved.path[-1] == "0304"
    assert "0303" not in narrows.zoc_of("japanese") and "0402" in narrows.zoc_of("japanese")
    land = start(False, "allied-movement", units)
    refused(land, "allied", "move us-7-17 0303 0304", "Formosa 14.1")  # the same hexes, no strait: 0303 stops it


def test_14_0_15_0_a_unit_facing_the_enemy_across_a_strait_is_not_bound_to_attack():
    units = {"us-7-17": "0303", "jp-9-7": "0403"}
    narrows = start(True, "allied-combat", units)
    assert when(narrows, "allied", "end")  # 15.0: in no EZOC, nothing to attack (and 15.0 bars it across the sea)
    refused(start(False, "allied-combat", units), "allied", "end", "Formosa 15.0")


def test_19_0_item_1_no_line_of_supply_across_an_all_sea_hexside():
    """us-7-17 faces the functional port 0402 across the strait: no line, so no LP shift (19.5 item 2)."""
    units = {"us-7-17": "0303", "us-eng-1": "0402", "jp-9-7": "0202"}
    narrows = start(True, "allied-combat", units, bases=["us-eng-1"])
    assert narrows.supply_line(narrows.units["us-7-17"]) is None
    refused(narrows, "allied", "attack 0202 with us-7-17 lp 1", "Formosa 15.4.1, 19.5")
    land = start(False, "allied-combat", units, bases=["us-eng-1"])
    assert land.supply_line(land.units["us-7-17"]) is not None
    [spent] = of(when(land, "allied", "attack 0202 with us-7-17 lp 1", rolls=[6]), LpSpent)
    assert spent.amount == 1
