"""Operation Ichi-Go (Against the Odds, 2020; China 1944-45), declared on the engine (docs/adding-a-game.md).

The data files and their loader (data_load; docs/ichigo-data.md), the state (state.py) and the opening position
or a custom one (position.py), events that apply themselves (events.py), the states table (sequence.py: the
set-up, the turn start, Phases I-X of 5.1 and the decisions they wait for) and the concept modules its handlers
call (movement.py, combat.py, reinforcements.py, causeway.py, airpower.py, victory.py), with how orders name units,
what each decision owes and the candidates the list of legal orders tries, the fog of war (fog.py) and what each
side sees (view.py). Sides: the Japanese player, and the
Allied player who commands the Chinese and the US (2.2, 5.5)."""
from dataclasses import replace

from app.rules.engine.events import PhaseEnded
from app.rules.engine.game import Game
from app.rules.ichigo import events, fog, position, sequence, summary, victory, view
from app.rules.ichigo.state import RULES_VERSION, SIDES, State, created_under


def played_under(state: State, version: str) -> State:
    """Ruling E15: a game created under rules version 1 or 2 (or before versions were recorded) is decided as it
    was played, so its stored orders still verify."""
    return replace(state, rules_version=created_under(version))


GAME = Game(
    name="ichigo",
    title="Operation Ichi-Go (Against the Odds, 2020)",
    # 2: FG/KA deploy at the Formosa landing, the Allies choose the displacement hex (E3, E10)
    # 3: a battle names only the attackers still in it after 11.27's flips (E15); older games decided as played
    #    (snapshots are keyed by the version: those of version 2, saved in a shape of their own, are not read)
    # 4: departures from the text fixed (E16-E28); older games decided as played
    # 5: E29; 6: E32; 7: the odds of an attack on untried counters count them as the countermix allows (E33)
    # 8: a destroyed intrinsic garrison returns only when the Japanese liberate its city from the Allies (E34)
    # 9: E36, E37; 10: refusals named by their cases (E38, E40-E42)
    # 11: units of two ways of arrival enter by one order (E43); a US/Chinese mixed stack is refused by the case of
    #     the units arriving (E45)
    # 12: a US reinforcement landing at a beachhead moves no unit out of it: onto Chinese units it is refused (E46)
    # 13: a US reinforcement landed at a beachhead in the US Movement Phase moves in that phase (9.0, E48); no tank
    #     regiment defends against a US momentum attack (11.17, 11.25, E49)
    # 14: naval transfer read again (E51); the Aerial Supply Marker in Phase I (E52)
    # 15: a position's beachheads where 5.3 puts them, none Japanese-controlled (4.4, E53); its
    #     flags true or false (E54); the list holds stacks moving as one, every airlift, attack and advance (E55)
    # 16: E56; 17: E60
    # 18: a momentum attack naming `tanks`, `tanks 0` too, is refused by 11.25 (E66); an Allied attack or
    #     one on Formosa naming it, by 11.17 (E67)
    version=str(RULES_VERSION),
    sides=SIDES,
    scenarios={"campaign": "The full game from April 1944, Turns 1-9 (1-12 if Causeway is launched)"},
    sequence_case="Ichi-Go 5.1",
    table=sequence.TABLE,
    state_type=State,
    load_data=position.data_for,
    start=position.start,
    view=view.view,
    after_order=sequence.after_order,
    extras={"game_map": view.game_map, "combat_summary": summary.combat_summary, "preview": view.preview,
            "previews": view.PREVIEWS,
            "visible": lambda event, side: fog.visible(event, side, GAME.describe), "reveals": fog.reveals,
            "losses": lambda event, state: summary.losses(event),
            "stakes": victory.stakes, "more_orders": sequence.more_orders,
            # the decisions either side may answer in advance (docs/play-by-email.md, "Standing orders")
            "standing": {"losses": {}, "advance": {}, "momentum": {}, "tanks": {"never": "commit 0"},
                         "airpower": {}, "chinese-reinforcements": {}}},
    played_under=played_under,
    phrases={PhaseEnded: events.describe_phase_end},
)
