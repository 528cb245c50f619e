"""Operation Ichi-Go (Against the Odds, 2020) as a decider (design.md practices 1-2).

Modules: state (fold), sequence (states table, set-up, turn start, airpower, reinforcements, victory), orders
(order language), movement, combat, common (supply, airpower range, garrisons). Rules are cited by case
number; data comes from app/rules/ichigo/data/. Sides: the Japanese player, and the Allied player who commands
the Chinese and the US (2.2, 5.5)."""
from __future__ import annotations

from app.events.dice import Dice
from app.rules.base import Command, Outcome, Prompt
from app.rules.errors import IllegalOrder
from app.rules.ichigo import combat, fog, legal_orders, movement, position, practice, sequence, summary
from app.rules.ichigo import events as ev
from app.rules.ichigo import orders as order_language
from app.rules.ichigo.common import Emitter
from app.rules.ichigo.data_load import load
from app.rules.ichigo.state import SIDES, State, decode, encode, evolve
from app.rules.kernel.mapfile import GameMap


class IchigoRules:
    name = "ichigo"
    title = "Operation Ichi-Go (Against the Odds, 2020)"
    version = "2"  # 2: FG/KA deploy at the Formosa landing, the Allies choose the displacement hex (E3, E10)
    sides = SIDES
    scenarios = {"campaign": "The full game from April 1944, Turns 1-9 (1-12 if Causeway is launched)"}
    sequence_case = "Ichi-Go 5.1"
    # the practice opponents' candidate orders (app/rules/practice.py: greedy and random)
    candidates = staticmethod(practice.candidates)

    def orders_to_try(self, state: State, side: str):
        """The orders worth trying for the list of legal orders (app/rules/legal.py, legal_orders.py)."""
        return legal_orders.orders_to_try(state, side)

    def initial_state(self, scenario: str, options: dict) -> State:
        if scenario not in self.scenarios:
            raise ValueError(f"ichigo has no scenario {scenario!r}")
        return position.start(options)

    def evolve(self, state: State, event) -> State:
        return evolve(state, event)

    def prompt(self, state: State) -> Prompt:
        return sequence.prompt(state)

    def parse(self, text: str, side: str, state: State) -> Command:
        return order_language.parse(text, side, state)

    def decide(self, state: State, command: Command, dice: Dice) -> list:
        refused = sequence.prompt(state).refusal(command)
        if refused:
            raise IllegalOrder(self.sequence_case, refused)
        em = Emitter(state)
        a, s, args = command.action, command.side, command.args
        if a == "deploy":
            sequence.deploy(em, dice)
        elif a == "declare":
            sequence.declare(em, s, args["nation"], args["order"])
        elif a == "move":
            movement.move(em, s, args["units"], args["to"], args.get("via", []), bool(args.get("strategic")), dice)
        elif a == "attack":
            if state.pending and state.pending[0]["kind"] == "momentum":
                if args.get("tanks") or args.get("sf"):
                    raise IllegalOrder("Ichi-Go 11.25", "tank regiments and the 1st SF never join momentum attacks")
                combat.momentum_attack(em, s, args["hex"], args["units"], dice)
            else:
                combat.attack(em, s, args["hex"], args["units"], int(args.get("tanks", 0)), bool(args.get("sf")),
                              dice)
        elif a == "advance":
            combat.advance(em, s, args["units"])
        elif a == "stay":
            combat.stay(em, s)
        elif a == "roll":
            if state.phase == "start" and state.causeway is None:
                sequence.causeway_roll(em, dice)
            elif state.phase == "start":
                sequence.b29_roll(em, dice)
            else:
                sequence.airpower_roll(em, dice)
        elif a == "air":
            sequence.air(em, s, args["hexes"])
        elif a == "b29":
            sequence.b29(em, args["hex"])
        elif a == "enter":
            sequence.enter(em, s, args["units"], args["hex"])
        elif a == "withdraw":
            sequence.withdraw(em, s, args["units"])
        elif a == "release":
            sequence.release(em, s, args["units"])
        elif a == "supply":
            sequence.aerial_supply(em, s, args["hex"])
        elif a == "airlift":
            sequence.airlift(em, s, args["unit"], args["hex"])
        elif a == "drop":
            sequence.drop(em, s, args["hex"])
        elif a == "transfer":
            sequence.transfer(em, s, args["units"])
        elif a == "lose":
            combat.lose(em, s, args["units"])
        elif a == "commit":
            combat.commit_tanks(em, s, int(args["count"]), dice)
        elif a == "ship":
            sequence.ship(em, dice)
        elif a == "absorb":
            sequence.absorb(em, s, args["brigade"], args["division"])
        elif a == "reinforce":
            sequence.reinforce(em, dice)
        elif a == "place":
            sequence.place(em, s, args["units"], args["hex"])
        elif a == "land":
            sequence.land(em, s, args["units"], args.get("hex"), args.get("displace"))
        elif a == "end":
            sequence.end(em, s, dice)
        else:
            raise IllegalOrder(self.sequence_case, f"unknown action {a!r}")
        if em.state.phase not in ("over", "setup"):
            sequence.sudden_death(em.state, dice, em)
        return em.events

    def preview(self, state: State, command: Command) -> dict:
        """Ichi-Go 11.6-11.19: strengths, odds, each shift with its case, the final column and the result of
        each die roll; writes nothing. Untried Chinese counters count as unknown (6.6): the preview says so."""
        if command.action != "attack":
            raise IllegalOrder("Ichi-Go 11.6", "preview takes an attack order")
        args, side = command.args, command.side
        momentum = state.pending[0]["data"] if state.pending and state.pending[0]["kind"] == "momentum" else None
        attackers = combat.check_attack(state, side, args["hex"], args["units"], momentum)
        combat.check_support(state, args["hex"], attackers, int(args.get("tanks", 0)), bool(args.get("sf")),
                             momentum)
        from app.rules.ichigo.view import top_unit

        defenders = [u for u in state.at(args["hex"]) if u.side != side]
        hidden = max(0, len(defenders) - 1)
        if defenders:  # 6.6: before the attack only the top unit of the enemy stack is seen
            defenders = [top_unit(defenders)]
        unknown = [u.id for u in attackers + defenders if not u.tried]
        known_att = [u for u in attackers if u.tried]
        known_def = [u for u in defenders if u.tried]
        a = combat.assess(state, side, args["hex"], known_att, known_def, int(args.get("tanks", 0)),
                          bool(args.get("sf")), nation=attackers[0].nation)
        results = {str(r): state.data.crt.lookup(a["column"], r, a["line"]).code for r in range(1, 7)}
        text = (f"{a['attack']}:{a['defence']} = {a['odds']}; shifts {'; '.join(a['shifts']) or 'none'} -> "
                f"{a['column_label']} ({a['line']} line)")
        text += "".join(f"\n{line}" for line in a["why"])
        if unknown:
            text += f"\nIchi-Go 11.27: {len(unknown)} untried counter(s) not counted (revealed in combat)"
        if hidden:
            text += f"\nIchi-Go 6.6: {hidden} more unit(s) hidden under the top unit; only its defence is shown"
        return {**a, "results": results, "untried": unknown, "hidden_defenders": hidden, "text": text}

    def outcome(self, state: State) -> Outcome | None:
        return Outcome(state.winner, state.reason) if state.phase == "over" else None

    def view(self, state: State, side: str | None) -> dict:
        from app.rules.ichigo.view import view

        return view(state, side)

    def visible(self, event, side: str | None):
        """Ichi-Go 3.3, 6.6, 11.27 (fog.py)."""
        return fog.visible(event, side, describe)

    def reveals(self, event) -> bool:
        return fog.reveals(event)

    def describe(self, event) -> str:
        return describe(event)

    def game_map(self, state: State | None) -> GameMap:
        """The Ichi-Go map (data/map.toml, or the game's custom map), for the replay's map pictures."""
        return (state.data if state is not None else load()).map

    def combat_summary(self, event, state: State | None) -> dict | None:
        """Ichi-Go 11.6-11.23 for the replay's combat panel and luck analysis (summary.py)."""
        return summary.combat_summary(event, state)

    def losses(self, event, state: State | None) -> dict[str, int] | None:
        """Steps lost per side in this event, for the analysis charts (summary.py)."""
        return summary.losses(event)

    def encode_state(self, state: State) -> dict:
        return encode(state)

    def decode_state(self, data: dict) -> State:
        return decode(data)


def describe(e) -> str:
    """Each event's own line; the shared PhaseEnded in Ichi-Go's words."""
    if isinstance(e, ev.PhaseEnded):
        return ev.describe_phase_end(e)
    return e.describe() if hasattr(e, "describe") else type(e).__name__


RULES = IchigoRules()
