"""Shanghai-Nanking Campaign 1937 (SNC) as a decider (design.md practices 1-2).

Modules: state (fold), sequence (states table), orders (order language), movement, combat, reinforcements,
victory, view. Rules are cited by case number; data comes from app/rules/snc/data/.
"""
from __future__ import annotations

from dataclasses import replace

from app.events.dice import Dice
from app.rules.base import Command, Outcome, Prompt
from app.rules.errors import IllegalOrder
from app.rules.kernel.mapfile import GameMap
from app.rules.snc import (
    combat,
    fog,
    legal_orders,
    movement,
    position,
    practice,
    reinforcements,
    sequence,
    summary,
)
from app.rules.snc import events as ev
from app.rules.snc import orders as order_language
from app.rules.snc.common import Emitter
from app.rules.snc.data_load import load
from app.rules.snc.state import RULES_VERSION, SIDES, State, decode, encode, evolve
from app.rules.snc.victory import sudden_death
from app.rules.snc.view import top_unit, view


class SncRules:
    name = "snc"
    title = "Shanghai-Nanking Campaign 1937 (Decision Games, 2021)"
    # 2: the 8.4.1 push into a coastal hex; events marked as seen under 6.3 (snapshots rebuilt).
    # 3: issue 19 (0-factor odds, marker receipt and 8.4/8.5 per marker, 11.4 eligibility, one overrun stack per
    #    hex, advances within the stacking limits, SNLF LoC, an `end` that asks for eliminations ends the phase);
    #    games created before it are still decided as they were played (`played_under`, ruling E13).
    version = str(RULES_VERSION)
    sides = SIDES
    scenarios = {"campaign": "The full campaign, GT 1-12, set up as SNC 13.0 lists"}
    sequence_case = "SNC 5.1"
    # the practice opponents' candidate orders (app/rules/practice.py: greedy and random)
    candidates = staticmethod(practice.candidates)

    def orders_to_try(self, state: State, side: str):
        """The orders worth trying for the list of legal orders (app/rules/legal.py, legal_orders.py)."""
        return legal_orders.orders_to_try(state)

    def initial_state(self, scenario: str, options: dict) -> State:
        if scenario not in self.scenarios:
            raise ValueError(f"snc has no scenario {scenario!r}")
        return position.start(options)

    def evolve(self, state: State, event) -> State:
        return evolve(state, event)

    def played_under(self, state: State, version: str) -> State:
        """Ruling E13: a game created under rules version 1 or 2 (or before versions were recorded) is decided
        as it was played, so its stored orders still verify."""
        return replace(state, rules_version=int(version) if version else 2)

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
        if a == "declare":
            sequence.declare(em, s, args["first"], args["second"])
        elif a == "end":
            sequence.end(em, s, dice)
        elif a == "move":
            movement.move(em, s, args["units"], args["to"], args.get("via", []))
        elif a == "overrun":
            movement.overrun(em, s, args["hex"], args["units"], args.get("support", []), dice)
        elif a == "attack":
            if state.mode() != "fight":
                raise IllegalOrder("SNC 5.3", "attacks only in a phase chosen for combat")
            combat.check_attack(state, s, args["hex"], args["units"], "attack")
            combat.open_battle(em, s, args["hex"], args["units"], args.get("support", []), "attack", dice)
        elif a == "lose":
            combat.lose(em, s, args["units"], dice)
        elif a == "advance":
            combat.advance(em, s, args["units"], args["path"], dice)
        elif a == "stay":
            combat.stay(em, s, dice)
        elif a == "intercept":
            em.emit(ev.DecisionMade("intercept", s))
            combat.intercept(em, dice, "air support")
            combat.resolve(em, dice)
        elif a == "support":
            if not combat.defensive_naval_allowed(state, state.battle["hex"]):
                raise IllegalOrder("SNC 11.4", "no naval gunfire marker can support this defence")
            em.emit(ev.DecisionMade("defend", s), ev.SupportAdded(s, "naval"))
            combat.resolve(em, dice)
        elif a == "pass":
            em.emit(ev.DecisionMade(state.pending[0]["kind"], s))
            combat.resolve(em, dice)
        elif a == "air":
            reinforcements.air(em, dice)
        elif a == "proceed":
            reinforcements.interdict(em, dice)
        elif a == "remove":
            reinforcements.remove(em, args["units"])
        elif a == "place":
            reinforcements.place(em, args["units"], args["hex"])
        elif a == "rail":
            reinforcements.rail(em, args["units"], args["hex"])
        elif a == "land":
            reinforcements.land(em, args["units"], args["hex"], args.get("support", []), dice)
        elif a == "replace":
            reinforcements.replace_steps(em, args["units"])
        elif a == "retreat":
            combat.retreat(em, s, args["hex"], dice)
        elif a == "eliminate":
            ending = state.pending[0]["data"].get("ending")
            combat.eliminate(em, s, args["units"], dice)
            if ending and not em.state.pending:  # SNC 6.0 1): the `end` that asked for it now ends the phase
                sequence.end(em, s, dice)
        else:
            raise IllegalOrder(self.sequence_case, f"unknown action {a!r}")
        if em.state.phase != "over":
            ended = sudden_death(em.state)
            if ended is not None:
                em.emit(ended)
        return em.events

    def preview(self, state: State, command: Command) -> dict:
        """SNC 10.3-10.5: strengths, raw odds, each shift with its case, the final column and the result of
        each die roll for an `attack`, `overrun` or `land` order; writes nothing. Under the fog of war (6.3) an
        enemy stack is assessed as its top unit shows, with the number of hidden units reported."""
        if command.action not in ("attack", "overrun", "land"):
            raise IllegalOrder("SNC 10.3", "preview takes an attack, overrun or land order")
        args, side = command.args, command.side
        target = args["hex"]
        kind = {"attack": "attack", "overrun": "overrun", "land": "landing"}[command.action]
        enemy = [u for u in state.at(target) if u.side != side]
        if not enemy:
            raise IllegalOrder("SNC 10.0", f"{target} holds no enemy unit")
        # the checks of the order itself (its phase aside, so that a player may plan out of turn)
        if kind == "landing":
            reinforcements.check_landing(state, args["units"], target, args.get("support", []))
        elif kind == "overrun":
            movement.check_overrun(state, side, target, args["units"])
        else:
            combat.check_attack(state, side, target, args["units"], "attack")
        combat.check_support(state, side, target, args["units"], args.get("support", []), kind)
        hidden = 0
        if not (state.battle and state.battle.get("hex") == target):
            shown = [top_unit(enemy)]
            hidden = len(enemy) - 1
        else:
            shown = enemy
        battle = {"hex": target, "side": side, "kind": kind, "attackers": list(args["units"]),
                  "defenders": [u.id for u in shown], "support": list(args.get("support", []))}
        p = combat.assess(state, battle)
        text = p.to_text()
        if hidden:
            text += f"\nSNC 6.3: {hidden} more unit(s) hidden under the top unit; the defence shown is the top unit's"
        return {**p.to_dict(), "hidden_defenders": hidden, "text": text}

    def outcome(self, state: State) -> Outcome | None:
        return Outcome(state.winner, state.reason) if state.phase == "over" else None

    def view(self, state: State, side: str | None) -> dict:
        return view(state, side)

    def describe(self, event) -> str:
        return describe(event)

    def game_map(self, state: State | None) -> GameMap:
        """The SNC map (data/map.toml, or the game's custom map), for the replay's map pictures."""
        return (state.data if state is not None else load()).map

    def combat_summary(self, event, state: State | None) -> dict | None:
        """SNC 10.3-10.5 for the replay's combat panel and luck analysis (summary.py)."""
        return summary.combat_summary(event, state)

    def losses(self, event, state: State | None) -> dict[str, int] | None:
        """Steps lost per side in this event, for the analysis charts (summary.py)."""
        return summary.losses(event, state)

    def visible(self, event, side: str | None) -> bool | str:
        """SNC 6.3 in every per-side history, email and export (fog.py)."""
        return fog.visible(event, side)

    def reveals(self, event) -> bool:
        return fog.reveals(event)

    def encode_state(self, state: State) -> dict:
        return encode(state)

    def decode_state(self, data: dict) -> State:
        return decode(data)


def describe(e) -> str:
    """Each event's own line; the shared PhaseEnded in SNC's words."""
    if isinstance(e, ev.PhaseEnded):
        return ev.describe_phase_end(e)
    return e.describe() if hasattr(e, "describe") else type(e).__name__


RULES = SncRules()
