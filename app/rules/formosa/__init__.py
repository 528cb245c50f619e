"""Operation Causeway: Formosa 1944 (Decision Games, 2022), the planned Allied invasion of Formosa (issue 16).

The data files and their loader (data_load; docs/formosa-data.md), the state (state.py) and the opening
position (position.py), events that apply themselves (events.py), the states table (sequence.py) calling
movement.py, combat.py and victory.py, the fog of war (fog.py) and what each side sees (view.py). The plan:
docs/formosa-engine-plan.md; rulings: docs/rulings/formosa.md; orders: docs/orders/formosa.md."""
from dataclasses import replace

from app.rules.engine.game import Game
from app.rules.formosa import data_load, fog, position, searched, sequence, unseen, victory, view
from app.rules.formosa.state import RULES_VERSION, SIDES, State, created_under


def _describe(event) -> str:
    return event.describe()


def played_under(state: State, version: str) -> State:
    """A game created under an older rules version is decided as it was played (RULES_VERSION); its position was
    read under that version already (position.start)."""
    return replace(state, rules_version=created_under(version))


GAME = Game(
    name="formosa",
    title="Operation Causeway: Formosa 1944 (Decision Games 2022)",
    version=str(RULES_VERSION),
    sides=SIDES,
    scenarios={"1": "Scenario 1: Operation Causeway as planned, early 1945, 13 Game-Turns (24.1)",
               "2": "Scenario 2: Causeway after the Philippines, 8 Game-Turns (24.2)"},
    sequence_case="Formosa 6.1",
    table=sequence.TABLE,
    state_type=State,
    load_data=data_load.load,
    start=position.start,
    view=view.view,
    after_order=victory.sudden_death,
    extras={"game_map": view.game_map, "combat_summary": view.combat_summary, "preview": view.preview,
            "previews": view.PREVIEWS,
            "visible": lambda event, side: fog.visible(event, side, _describe), "reveals": fog.reveals,
            "losses": view.losses, "stakes": victory.stakes, "more_orders": sequence.more_orders,
            "overstacked": victory.overstacked, "searched": searched.searched,
            "unseen": unseen.unseen,  # the policies' edition 9 (app/rules/belief.py)
            "aims": searched.aims,  # greedy's edition 9; the search's from searched.AIMS_SINCE
            "search_editions": {"overstacked": 6, "searched": 7, "aims": searched.AIMS_SINCE},
            # the decisions either side may answer in advance (docs/play-by-email.md, "Standing orders")
            "standing": {"losses": {}, "retreat": {}, "counterattack": {}, "advance": {}, "overstack": {},
                         "exploit": {}, "air-losses": {}, "kamikaze-hits": {}, "b29-fortified": {},
                         "defence": {"never": "defend"}, "strike-planning-japanese": {}, "strike-planning-allied": {},
                         "japanese-special-attack": {}}},
    played_under=played_under,
)
