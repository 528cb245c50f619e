"""Dai Senso (Totaler Krieg family), the Combat Phase (chapter 4) played on its own from positions on
reconstructed West and East map sections (docs/daisenso-data.md, docs/rulings/daisenso.md).

The declaration: data files read by data_load, the state (state.py), events that apply themselves (events.py),
the states table (sequence.py) calling combat.py and blitz.py, and what each side sees (view.py)."""
from app.rules.daisenso import data_load, sequence, view
from app.rules.daisenso.state import SIDES, State, start
from app.rules.engine.game import Game

GAME = Game(
    name="daisenso",
    title="Dai Senso: the Combat Phase (Totaler Krieg family, chapter 4)",
    version="2",
    sides=SIDES,
    scenarios={
        "strait": "Across the Strait: US Marines assault Taihoku with HQ Ranged Support (West map)",
        "august-storm": "August Storm: the Transbaikal Front's Blitz with exploitation (East map)",
        "zhejiang": "Zhejiang-Kiangsi: retreats through enemy ZOC, an HQ broken down (West map)",
        "custom": "a position file (option 'position', docs/daisenso-data.md)",
    },
    sequence_case="Dai Senso 4",
    table=sequence.TABLE,
    state_type=State,
    load_data=data_load.load_data,
    start=start,
    view=view.view,
    extras={"game_map": view.game_map, "combat_summary": view.combat_summary, "preview": view.preview,
            # the decisions of a combat either side may answer in advance (docs/orders/daisenso.md)
            "standing": {"defender-hq": {"never": "support"}, "attacker-result": {}, "attacker-retreat": {},
                         "exchange": {}, "retreat": {}, "attacker-losses": {}, "defender-losses": {},
                         "advance": {}, "overstack": {}}},
)
