"""Dai Senso (Totaler Krieg family), the Combat Phase (chapter 4) played on its own from positions on
reconstructed West and East map sections (docs/daisenso-data.md, docs/rulings/daisenso.md).

The declaration: data files read by data_load, the state (state.py), events that apply themselves (events.py),
the states table (sequence.py) calling combat.py and blitz.py, and what each side sees (view.py)."""
from dataclasses import replace

from app.rules.daisenso import blitz, data_load, sequence, view
from app.rules.daisenso.state import RULES_VERSION, SIDES, State, start
from app.rules.daisenso.terrain import AIRDROPS
from app.rules.engine.game import Game


def played_under(state: State, version: str) -> State:
    """Rulings D37-D58: a game is decided by the rules version it was created under (version 2 for a game from
    before versions were recorded), so its stored orders still verify. Before version 5 a position's Airdrop
    markers carried no airborne unit (4.1.4), and before version 8 a position in the middle of its Blitz Combat
    opened at the Airdrop step (D54), so the state such a game starts from is as it was."""
    if version and int(version) >= RULES_VERSION:
        return state
    number = int(version) if version and int(version) >= 2 else 2
    if state.step == "blitz-combat" and sequence.attacks_made(state) and blitz.airdrop_units(state):
        state = replace(state, step="airdrop")  # ruling D54: before version 8 such a position opened at the Airdrop
    if number >= 5:
        return replace(state, rules_version=number)
    markers = tuple(replace(m, origin=None) if m.kind in AIRDROPS else m for m in state.markers)
    return replace(state, rules_version=number, markers=markers)


GAME = Game(
    name="daisenso",
    title="Dai Senso: the Combat Phase (Totaler Krieg family, chapter 4)",
    # 3: a marine's first loss after a retreat, an Air unit left in the defending hex (ruling D37); 4: every CV
    # Strike in a hex returns in 4.1.5, the defender's too (D38); a Beachhead Landing from an SNLF Beachhead-0 (D39);
    # any marine's step as the first loss (D40); a Holding Box unit keeps only a component it can take (D41); 5: a
    # landing sends enemy Detachment and Logistics markers to the Delay Box (D42), no weather ban on markers (D43); 6:
    # so do a retreat, an Advance After Combat and an Exploitation into their hex (D44); 7: an Ex's defending step
    # from the HQ giving Ranged Support too (D45), and an Airdrop Landing sends enemy markers away (D46); an Air
    # unit's shift needs its own nationality in the combat (D49); 8: a Ranged Support HQ lands no more (D50), Airdrop
    # markers go one at a time (D51), a Blitz position with attacks made opens past the Airdrop (D54); 9: every
    # Exploitation path in the list of legal orders (D55); 10: a position no play leaves is refused (D56), no Ranged
    # Support to an attack on markers alone (D57), the IG HQ leaves the game at sea too (D58); 11: a position with play
    # under way (D60); 12: no Exploitation offered where 4.2.2 or 4.2.8 bars it (D62); 13: at truce nothing lands on
    # the other faction's Detachment or Logistics markers (D63), an SNLF Beachhead-0 that cannot land opens no step
    # (D64); 14: no Dependent with a status of its own in a position (D67), no Exploitation Distance written where no
    # unit may advance (D69); 15: an SNLF Beachhead-0 lands without the Blitz marker (D70); 16: a plain hexside crossed
    # makes the hexside shift none (D9); 17: the list names every hex that may be attacked, every unit that may attack
    # it and every HQ that may support it (D71), and the Exploitation into the defending hex alone (D72); 18: breakdowns
    # by country (D79), odds under 1-3 written 1-3 (D80); 19: no ZOC from a Land hex into a hex at sea but across a
    # Beachhead Hexside (D82), an adjacent HQ's Ranged Support spoils no Voluntary Retreat Conversion (D83); 20: a
    # Holding Box unit's counter to its Force Pool (D84), the view's Exploitation Distance (D85), a flipped counter
    # removed as its own kind (D86); 21: a position may set the Western and Soviet factions against each other (D87)
    version=str(RULES_VERSION),
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
    played_under=played_under,
    snapshot_format=3,  # 3: a unit's steps lost that its counter shows (`Unit.lost`); older snapshots lack them
    extras={"game_map": view.game_map, "combat_summary": view.combat_summary, "preview": view.preview,
            "previews": view.PREVIEWS,
            "stakes": sequence.stakes, "near_end": sequence.near_end, "more_orders": sequence.more_orders,
            # the decisions of a combat either side may answer in advance (docs/play-by-email.md, "Standing orders")
            "standing": {"defender-hq": {"never": "support"}, "attacker-result": {}, "attacker-retreat": {},
                         "exchange": {}, "retreat": {}, "attacker-losses": {}, "defender-losses": {},
                         "advance": {}, "overstack": {}}},
)
