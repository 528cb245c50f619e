"""Operation Olympic (SPI, 1974): solitaire against the programmed Japanese (issue 18).

The data files and their loader (data_load; docs/olympic-data.md), the state (state.py), events that apply
themselves (events.py), the states table (sequence.py) with American combat (combat.py), the Tokko and the
doctrine (doctrine.py), the programmed Japanese (policy.py), victory (victory.py), and what each side sees
(view.py). The plan it follows: docs/olympic-engine-plan.md; rulings: docs/rulings/olympic.md."""
from app.rules.engine.game import Game
from app.rules.olympic import data_load, position, sequence, victory, view
from app.rules.olympic.state import SIDES, State

GAME = Game(
    name="olympic",
    title="Operation Olympic (SPI 1974): solitaire against the programmed Japanese",
    version="1",
    sides=SIDES,
    scenarios={"solitaire": "The invasion of Kyushu, 1 November 1945: ten weeks, the Japanese played by doctrine"},
    sequence_case="Olympic sequence of play",
    table=sequence.TABLE,
    state_type=State,
    load_data=data_load.load,
    start=position.start,
    view=view.view,
    after_order=victory.sudden_death,
    extras={"game_map": view.game_map, "combat_summary": view.combat_summary, "preview": view.preview},
    policies={"programmed": sequence.programmed},
    automated_seats=("japanese",),  # the solitaire game: the rules themselves play the Japanese
)
