"""Operation Olympic (SPI, 1974): solitaire against the programmed Japanese (issue 18).

The data files and their loader (data_load; docs/olympic-data.md), the state (state.py), events that apply
themselves (events.py), the states table (sequence.py) with American combat (combat.py), the Tokko and the
doctrine (doctrine.py), the programmed Japanese (policy.py), victory (victory.py), and what each side sees
(view.py). The plan it follows: docs/olympic-engine-plan.md; rulings: docs/rulings/olympic.md."""
from dataclasses import replace

from app.rules.engine.game import Game
from app.rules.olympic import aims, data_load, position, sequence, victory, view
from app.rules.olympic.state import RULES_VERSION, SIDES, State


def played_under(state: State, version: str) -> State:
    """Rulings R29, R33-R36, R39-R44, R49, R56, R57, R59: a game is decided by the rules version it was created under,
    so its stored orders still verify. Version 1 (or a game from before versions were recorded): a Tokko zone die
    for every group, and a position's units from the pool at the bottom of their stacks in units.toml order; version
    2: a unit due back (note 6) may be placed from the start of its return turn; version 3: Game-Turn 4's Doctrine
    Phase rolls no track 1 or 2 and releases every unit itself; version 4: control changes only in the last hex of a
    move or retreat; version 5: a unit alone in a secondary destination moves on to another (R36), and a retreat
    takes its preferred hex even into a dead end (R39); version 6: an exchange may take units the payment does not
    need (R40), the Fukuoka/Imari Tokko note took full stacks first (R41), and a hex named for its units listed them
    top first, as a retreating stack went (R42); version 7: a unit was released by any American unit next to it once
    an order's American moves were done, not by the hexes an American unit passed, nor by an American retreat in the
    Japanese Forces Combat Phase (R43); version 8: the Fukuoka/Imari Tokko note was looked for again for each group,
    so zone dice followed once the units off Fukuoka and Imari were gone (R44); version 9: the list of legal orders
    named only the few candidates each kind of order tries (R49); version 10: attacking units retreated (Ar) in the
    order the attack named them (R56), and an exchange judged the attackers' supply before the defenders were
    eliminated (R57); version 11: a unit that could not retreat had its supply judged before any unit retreated
    (R59)."""
    if version and int(version) >= RULES_VERSION:
        return state
    if version and int(version) in (2, 3, 4, 5, 6, 7, 8, 9, 10, 11):
        return replace(state, rules_version=int(version))
    first = {uid: replace(u, order=0) for uid, u in state.units.items()
             if u.status == "map" and state.data.unit(uid).setup is None}
    return replace(state, rules_version=1, units={**state.units, **first})

GAME = Game(
    name="olympic",
    title="Operation Olympic (SPI 1974): solitaire against the programmed Japanese",
    # 2: issue 30 (one Tokko zone die, a position's stack order, R29); 3: units due back return in the
    # Reinforcement Phase (R33); 4: Game-Turn 4's Doctrine Phase rolls tracks 1-2, its release follows (R34); 5:
    # control changes in every hex a unit moves or retreats through (R35); 6: a unit alone in a secondary
    # destination holds it (R36), a retreat never steps into a dead end (R39); 7: an exchange takes no unit more
    # than needed (R40), the Tokko's Fukuoka/Imari note takes units hex by hex (R41), a stack moved or retreating
    # together keeps its order (R42); 8: a unit is released when an American unit moves next to it, by any hex of
    # its path, across an all-sea hexside too (R43); 9: the Fukuoka/Imari Tokko note, once it applies, takes every
    # group of the strike by hex identity (R44); 10: the list holds every landing, attack with each set of attackers and
    # advance, exchange loss, move, placement and retreat hex (R49); 11: attacking units retreat a stack at a time,
    # bottom first (R56), an exchange judges the attackers' supply once the defenders are gone (R57); 12: a unit that
    # cannot retreat has its supply judged when it is eliminated (R59); older games are decided as played
    version=str(RULES_VERSION),
    sides=SIDES,
    scenarios={"solitaire": "The invasion of Kyushu, 1 November 1945: ten weeks, the Japanese played by doctrine"},
    sequence_case="Olympic sequence of play",
    table=sequence.TABLE,
    state_type=State,
    load_data=data_load.load,
    start=position.start,
    view=view.view,
    after_order=victory.sudden_death,
    played_under=played_under,
    extras={"game_map": view.game_map, "combat_summary": view.combat_summary, "preview": view.preview,
            "previews": view.PREVIEWS, "more_orders": sequence.more_orders,
            # the American's losses to the programmed Japanese attacks (docs/play-by-email.md, "Standing orders")
            "standing": {"losses": {}}, "stakes": victory.stakes,
            # the final count's reading, its weight growing toward the end, and moves toward what it needs:
            # search edition 7 (app/rules/evaluation.py, app/rules/search.py)
            "progress": victory.progress, "aims": aims.aims, "search_editions": {"progress": 7, "aims": 7}},
    policies={"programmed": sequence.programmed},
    automated_seats=("japanese",),  # the solitaire game: the rules themselves play the Japanese
)
