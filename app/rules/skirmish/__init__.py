"""Skirmish: a tiny complete game, and the template for adding one (docs/adding-a-game.md, docs/rules/skirmish.md).

The whole declaration: data files read by data_load, the state (state.py), events that apply themselves
(events.py), the states table with each step's orders and handlers (sequence.py), combat (combat.py), and what
each side sees (view.py)."""
from app.rules.engine.game import Game
from app.rules.skirmish import data_load, sequence, view
from app.rules.skirmish.state import SIDES, State, start

GAME = Game(
    name="skirmish",
    title="Skirmish (Hexledger's worked-example rule set)",
    # 2: the engine's shape (state saved by the engine's codec; snapshots of version 1 are not read); 3: no turn
    # after the last (a snapshot at game over held turn 7); no decision changed, every game decided as played
    version="3",
    sides=SIDES,
    scenarios={"standard": "Three units a side, six turns, a village to take (SK 2.1)"},
    sequence_case="SK 3.3",
    table=sequence.TABLE,
    state_type=State,
    load_data=data_load.load,
    start=start,
    view=view.view,
    extras={"game_map": view.game_map, "combat_summary": view.combat_summary, "preview": view.preview,
            "previews": view.PREVIEWS},
)
