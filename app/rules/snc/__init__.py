"""Shanghai-Nanking Campaign 1937 (SNC, Decision Games 2021), declared on the engine (docs/adding-a-game.md).

The data files and their loader (data_load; docs/snc-data.md), the state (state.py) and the opening position or a
custom one (position.py), events that apply themselves (events.py), the states table (sequence.py: the phases of
5.1 and 5.3 and the decisions they wait for, what each owes, the orders each takes with how they name units and
the candidates the list of legal orders tries, calling movement.py, combat.py and reinforcements.py), victory
(victory.py), the fog of war (fog.py) and what each side sees (view.py)."""
from dataclasses import replace

from app.rules.engine.events import PhaseEnded
from app.rules.engine.game import Game
from app.rules.snc import combat, events, fog, position, sequence, summary, victory, view
from app.rules.snc.state import RULES_VERSION, SIDES, State, created_under


def played_under(state: State, version: str) -> State:
    """Ruling E13: a game created under rules version 1 or 2 (or before versions were recorded) is decided as it
    was played, so its stored orders still verify."""
    return replace(state, rules_version=created_under(version))


GAME = Game(
    name="snc",
    title="Shanghai-Nanking Campaign 1937 (Decision Games, 2021)",
    # 2: the 8.4.1 push into a coastal hex; events marked as seen under 6.3 (snapshots rebuilt).
    # 3: issue 19 (0-factor odds, marker receipt and 8.4/8.5 per marker, 11.4 eligibility, one overrun stack per
    #    hex, advances within the stacking limits, SNLF LoC, an `end` that asks for eliminations ends the phase);
    #    games created before it are still decided as they were played (`played_under`, ruling E13).
    # 4: issue 30's fidelity pass (ruling E15: the 9.1 garrison of a reoccupied city, no 6.0 check after a landing,
    #    the one landing location of 8.4.1/8.4.2 across GTs).
    # 5-9: rulings E16-E20; 10: E21 (a stack goes on however named, 9.0; an overrun's units after it, 9.6), E22 (8.1).
    # 11-13: E23-E25; 14: E26 (the view shows the markers, the replacement steps, the interdiction's die and 4.1-4.3),
    #     E27 (8.2 a) paths go round the barred hexes), E28 (a destination no unit enters names its case), E29 (11.2),
    #     E30 (8.0/8.1/9.1 refusals); R39 (9.1: an eliminated garrison placed again).
    # 15: E32 (10.0: a landing's survivors are not assaulted by a second landing that phase), E33 (the view's control
    #     of 3513 as 4.3 counts it).
    version=str(RULES_VERSION),
    sides=SIDES,
    scenarios={"campaign": "The full campaign, GT 1-12, set up as SNC 13.0 lists"},
    sequence_case="SNC 5.1",
    table=sequence.TABLE,
    state_type=State,
    load_data=position.data_for,
    start=position.start,
    view=view.view,
    after_order=sequence.after_order,
    extras={"game_map": view.game_map, "combat_summary": summary.combat_summary, "preview": view.preview,
            "previews": view.PREVIEWS,
            "visible": fog.visible, "reveals": fog.reveals, "losses": summary.losses, "stakes": victory.stakes,
            "more_orders": sequence.more_orders,  # ruling E24 (rules version 12)
            "progress": victory.progress, "overstacked": combat.overstacked_count,
            "aims": victory.aims, "search_editions": {"aims": 9},  # the search's moves into the ring (edition 9)
            # the decisions either side may answer in advance (docs/play-by-email.md, "Standing orders")
            "standing": {"losses": {}, "retreat": {}, "advance": {}, "intercept": {"always": "intercept"},
                         "defend": {"always": "support naval"}, "overstack": {}, "interdiction": {}}},
    played_under=played_under,
    phrases={PhaseEnded: events.describe_phase_end},
    snapshot_format=3,  # 2: the engine's saved state ({"options", "state"}); 3: its units as ordered pairs
)
