"""Ichi-Go cases walked again against the text in issue 30's part 8 (rules version 10, ruling E38 of
docs/rulings/ichigo-engine.md): each order given as a player gives it, through the service, on a game made from a
position file; a game created under version 9 decides as it was played (docs/core.md "Rules versions")."""
import pytest
from ichigo_given import RULES, position
from test_ichigo_engine import us_ids

from app.projections import state as projection
from app.rules.catalog import installed
from app.rules.errors import IllegalOrder
from app.service import games
from tests.fuzzing import refusal

CATALOG = installed()
BEACHHEADS = {"formosa": "3221", "mainland": "1922"}


class Served:
    """An Ichi-Go game from a position file, both seats taken, orders given through the service."""

    def __init__(self, store, position: dict):
        self.store = store
        self.id = games.create_game(store, CATALOG, "ichigo", options={"position": position})
        games.join(store, CATALOG, self.id, "japanese", "j@example.org", "j")
        games.join(store, CATALOG, self.id, "allied", "a@example.org", "a")

    def do(self, side: str, text: str):
        return games.submit(self.store, CATALOG, self.id, side, text)

    def refused(self, side: str, text: str) -> str:
        before = self.state().meta.seq
        with pytest.raises(IllegalOrder) as refused:
            self.do(side, text)
        assert self.state().meta.seq == before          # a refused order writes nothing
        return str(refused.value)

    def state(self):
        return projection.load(self.store, CATALOG, self.id)

    @property
    def game(self):
        return self.state().game


def us_turn_7(store, plan: str = "move-fight", phase: str = "II") -> Served:
    us = us_ids(1)[0]
    return Served(store, {"turn": 7, "phase": phase, "causeway": True, "beachheads": {"formosa": "3221"},
                          "plans": {"us": plan}, "units": {us: "3221", "jp-cea-110div": "2010"}})


def test_8_11_the_11th_airborne_does_not_drop_on_turn_7_and_the_refusal_names_8_11(store):
    game = us_turn_7(store)
    assert game.refused("allied", "drop 2011") == \
        "Ichi-Go 8.11: the 11th Airborne becomes available on Turn 8 (5.3 item 13)"
    assert game.refused("allied", "land us-11ab at 3221") == \
        "Ichi-Go 9.8: US divisions enter on Turn 7 only in the Phase I landing (5.3 item 4); later ones land at a " \
        "beachhead from Turn 8 (5.3 item 12, 8.11)"


def test_9_8_a_us_division_left_out_of_the_formosa_landing_does_not_land_in_the_turn_7_movement_phase(store):
    late = us_ids(10)[9]
    for plan, phase in (("move-fight", "II"), ("fight-move", "III")):
        game = us_turn_7(store, plan, phase)
        assert game.refused("allied", f"land {late} at 3221").startswith("Ichi-Go 9.8: US divisions enter on Turn 7 "
                                                                         "only in the Phase I landing")


def test_5_1_a_landing_in_the_us_combat_phase_is_still_the_sequence_of_plays_refusal(store):
    game = us_turn_7(store, "fight-move", "II")
    assert game.refused("allied", "drop 2011").startswith("Ichi-Go 5.1: 'drop' is not allowed now")


def test_8_11_the_same_drop_on_turn_8_is_taken(store):
    us = us_ids(1)[0]
    game = Served(store, {"turn": 8, "phase": "II", "causeway": True, "beachheads": BEACHHEADS,
                          "plans": {"us": "move-fight"}, "units": {us: "3221", "jp-cea-110div": "2010"}})
    game.do("allied", "drop 2012")
    assert game.game.units["us-11ab"].hex == "2012"


def test_8_11_a_game_created_under_version_9_refuses_the_turn_7_drop_as_it_did():
    s = RULES.played_under(position({us_ids(1)[0]: "3221"}, turn=7, phase="II", plans={"us": "move-fight"},
                                    causeway=True, beachheads={"formosa": "3221"}), "9")
    assert refusal(RULES, s, "allied", "drop 2011").startswith("Ichi-Go 5.1: 'drop' is not allowed now")


def test_10_17_a_us_strategic_move_passes_and_ends_next_to_an_empty_garrisoned_japanese_city(store):
    # Ruling E39: 10.17 bars hexes next to Japanese units; an intrinsic garrison (11.29) is not one (11.29 sets it
    # apart from the Japanese units in its city). 3219 and 3218 touch Tainan-side cities 3319 and 3119, Japanese,
    # empty and garrisoned; entering such a city stays barred (a Japanese-controlled city, 10.17; E5).
    us = us_ids(1)[0]
    game = Served(store, {"turn": 8, "phase": "II", "causeway": True, "beachheads": BEACHHEADS,
                          "plans": {"us": "move-fight"}, "units": {us: "3221", "jp-cea-110div": "2010"}})
    assert game.refused("allied", f"move {us} to 3319 strategic").startswith("Ichi-Go 10.17: ")
    game.do("allied", f"move {us} to 3218 via 3220 3219 strategic")
    assert game.game.units[us].hex == "3218"


def test_10_17_a_us_stack_next_to_an_empty_garrisoned_japanese_city_may_start_a_strategic_move(store):
    us, held = us_ids(2)                                                  # `held` keeps the beachhead Allied
    game = Served(store, {"turn": 8, "phase": "II", "causeway": True, "beachheads": BEACHHEADS,
                          "plans": {"us": "move-fight"}, "units": {us: "3219", held: "3221", "jp-cea-110div": "2010"}})
    game.do("allied", f"move {us} to 3120 strategic")
    assert game.game.units[us].hex == "3120"


def test_5_5_before_causeway_the_allied_player_declaring_the_chinese_order_is_refused_by_5_5(store):
    game = Served(store, {"turn": 2, "phase": "VIII", "plans": {"japanese": "move-fight"},
                          "units": {"jp-cea-110div": "2010", "cn-reg-02": "2012"}})
    assert game.refused("allied", "declare chinese move-fight") == \
        "Ichi-Go 5.5: the japanese player declares the chinese order"
    assert game.refused("allied", "declare us move-fight") == "Ichi-Go 5.5: the us order is not declared now"
    assert game.refused("allied", "move C01 to 2013").startswith("Ichi-Go 5.1: it is japanese's turn")
    game.do("japanese", "declare chinese fight-move")
    assert game.game.plans["chinese"] == "fight-move"


def test_5_5_after_causeway_the_japanese_player_declaring_the_chinese_order_is_refused_by_5_5(store):
    game = Served(store, {"turn": 8, "phase": "VIII", "causeway": True, "beachheads": BEACHHEADS,
                          "plans": {"japanese": "move-fight", "us": "move-fight"},
                          "units": {"jp-cea-110div": "2010", "cn-reg-02": "2012", us_ids(1)[0]: "3221"}})
    assert game.refused("japanese", "declare chinese move-fight") == \
        "Ichi-Go 5.5: the allied player declares the chinese order"


def test_5_5_a_game_created_under_version_9_refuses_the_wrong_declarer_by_5_1_as_it_did():
    s = RULES.played_under(position({"jp-cea-110div": "2010"}, phase="VIII", plans={"japanese": "move-fight"}), "9")
    assert refusal(RULES, s, "allied", "declare chinese move-fight").startswith("Ichi-Go 5.1: it is japanese's turn")
