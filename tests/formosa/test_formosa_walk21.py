"""Rules version 21 (session part 16): a fresh reading of the rulebook against what the players read and what the
engine decides, in the areas the earlier walks held least (victory and the end of the game, the sequence of play,
the tables' facts).

- 4.2, 25.5, 25.10 (ruling F164): the score both players read is 4.2 as the end of the game would count it now,
  the VP the optional rules add at the end included."""
from __future__ import annotations

from dataclasses import replace

from formosa_given import given, of, when
from formosa_map import ring

from app.rules.formosa import GAME, played_under
from app.rules.formosa.events import VictoryCounted
from app.rules.formosa.view import view

X, _ = ring("open")
ROUGH, _ = ring("rough")
LAST = GAME.initial_state("1", {}).data.scenario(1)["turns"]


def opt(state, *rules: str):
    """The same position in a game created with these optional rules."""
    return replace(state, data=GAME.data({"optional": list(rules)}))


def test_4_2_25_5_25_10_the_score_both_players_read_is_what_the_end_of_the_game_counts_f164():
    # the last GT's Japanese Combat Phase: the PW Camp on the map (25.10: 3 Japanese VP at the end) and the Allies
    # took the camp's 5 VP earlier (a position's [vp]); in the second game the 97th Division is recruited (25.5 b: 5
    # Allied VP less)
    camp = opt(given(step="japanese-combat", turn=LAST, units={"jp-pw-camp": X, "us-7-17": ROUGH},
                     vp_adjust={"allied": 5}), "25.5", "25.10")
    the_97th = opt(given(step="japanese-combat", turn=LAST, units={
        "jp-9-7": X, "us-7-17": ROUGH, "us-97-303": "allied-staging", "us-97-386": "allied-staging",
        "us-97-387": "allied-staging"}), "25.5", "25.10")
    for state, vp in ((camp, (5, 3)), (the_97th, (-5, 0))):
        [counted] = of(when(state, "japanese", "end"), VictoryCounted)
        assert (counted.allied, counted.japanese) == vp
        for side in ("allied", "japanese"):
            assert view(state, side)["score"]["by_side"] == {"allied": vp[0], "japanese": vp[1]}
        # ruling F164: a game created under rules 1-20 shows the 4.2 objectives and losses alone, as it was played
        assert view(played_under(state, "20"), "allied")["score"]["by_side"] == {"allied": 0, "japanese": 0}
    # without the optional rules nothing is added
    plain = given(step="japanese-combat", turn=LAST, units={"jp-pw-camp": X, "us-7-17": ROUGH})
    assert view(plain, "japanese")["score"]["by_side"] == {"allied": 0, "japanese": 0}
