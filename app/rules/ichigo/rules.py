"""Operation Ichi-Go (Against the Odds, 2020) as a decider (design.md practices 1-2).

Modules: state (fold), sequence (states table, set-up, turn start, airpower, reinforcements, victory), orders
(order language), movement, combat, common (supply, airpower range, garrisons). Rules are cited by case
number; data comes from app/rules/ichigo/data/. Sides: the Japanese player, and the Allied player who commands
the Chinese and the US (2.2, 5.5)."""
from __future__ import annotations

from app.events.dice import Dice
from app.rules.base import Command, Outcome, Prompt
from app.rules.errors import IllegalOrder
from app.rules.ichigo import combat, fog, movement, position, practice, sequence, summary
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
    if isinstance(e, ev.UnitDrawn):
        return f"Chinese counter {e.handle} drawn blind" + (f" at {e.hex}" if e.hex else "")
    if isinstance(e, ev.Revealed):
        return f"{e.handle} revealed: {e.name}, {e.strength} (11.27)"
    if isinstance(e, ev.ReturnedToPool):
        return f"{e.handle} back to the Chinese pool: {e.reason}"
    if isinstance(e, ev.PhaseEnded):
        return f"end of {sequence.phase_name(e.phase)}, Turn {e.turn}"
    if isinstance(e, ev.OrderDeclared):
        return f"{e.side} declare {e.nation}: {e.order} (5.5)"
    if isinstance(e, ev.MovementRolled):
        return f"{', '.join(e.units)}: {e.mp} MP ({e.how})"
    if isinstance(e, ev.UnitsMoved):
        return f"{', '.join(e.units)} move {' - '.join(e.path)} ({e.mp:g} MP)"
    if isinstance(e, ev.BattleResolved):
        return (f"attack on {e.hex}: {e.attack}:{e.defence} = {e.odds}, shifts {'; '.join(e.shifts) or 'none'} -> "
                f"{e.column}, die {e.roll}: {e.result} (attacker {e.attacker_losses}, defender "
                f"{'all' if e.eliminated else e.defender_losses})")
    if isinstance(e, ev.StepsLost):
        return f"steps lost: {', '.join(e.units)}"
    if isinstance(e, ev.GarrisonDestroyed):
        return f"the intrinsic garrison of {e.hex} is destroyed (11.29)"
    if isinstance(e, ev.SupportExpended):
        return f"{', '.join(e.units)} eliminated after the battle (11.17, 11.28)"
    if isinstance(e, ev.UnitsAdvanced):
        return f"{', '.join(e.units)} advance into {e.hex}"
    if isinstance(e, ev.AirpowerRolled):
        return (f"airpower: Japanese {e.japanese}, Allied {e.allied} -> "
                + (f"{e.winner} get {e.markers}" if e.winner else "no markers"))
    if isinstance(e, ev.AirpowerPlaced):
        return f"{e.side} airpower over {', '.join(e.hexes)}"
    if isinstance(e, ev.ReinforcementsEntered):
        return f"{', '.join(e.units)} enter at {e.hex}"
    if isinstance(e, ev.ChineseReinforcementRolled):
        return f"Chinese reinforcements: die {e.roll}{' halved' if e.halved else ''} -> {e.count}"
    if isinstance(e, ev.CausewayChecked):
        return (f"Causeway or Philippines (5.2): die {e.roll}{_modifiers(e.modifiers)} = {e.total} -> "
                f"{'Causeway launched' if e.launched else 'Philippines'}")
    if isinstance(e, ev.CollapseChecked):
        return (f"China Collapse (4.1): die {e.roll}{_modifiers(e.modifiers)} = {e.total} -> "
                f"{'China collapses' if e.collapsed else 'China fights on'}")
    if isinstance(e, ev.GameEnded):
        return f"game over: {f'{e.winner} wins' if e.winner else 'a draw'} - {e.reason}"
    if isinstance(e, ev.USLanded):
        pushed = f"; {', '.join(e.displaced)} pushed out to {e.to} (5.3 item 12)" if e.displaced else ""
        where = {"formosa": "the Formosa beachhead", "mainland": "the mainland beachhead"}.get(e.where, "a beachhead")
        return f"US {', '.join(e.units)} land at {e.hex}, {where}{pushed}"
    if isinstance(e, ev.NavalTransfer):
        return f"US {', '.join(e.units)} sail from {e.origin} to {e.hex} (10.11)"
    if isinstance(e, ev.Airlifted):
        how = "airdropped on" if e.drop else f"airlifted from {e.origin} to"
        return f"{e.unit} {how} {e.hex} ({'8.11' if e.drop else '8.10'})"
    if isinstance(e, ev.AerialSupplyPlaced):
        return f"US Aerial Supply Marker placed on {e.hex} (7.8)"
    if isinstance(e, ev.B29Placed):
        return f"B-29 raid on {e.hex}: Japanese units within range are out of supply this turn (8.9)"
    if isinstance(e, ev.B29Rolled):
        return f"B-29 roll {e.roll}: {'a raid this turn' if e.allowed else 'no raid this turn'} (8.9)"
    if isinstance(e, ev.BrigadeAbsorbed):
        return f"{e.division} absorbs {e.brigade} and returns to full strength (9.5)"
    if isinstance(e, ev.FormosaReleased):
        what = {"formosa-deploy": "deploy on Formosa (5.3 item 5)", "pool": "are Japanese reinforcements"}
        return f"{', '.join(e.units)} {what.get(e.status, e.status)}"
    if isinstance(e, ev.UnitsWithdrawn):
        gone = [f"{u} {'leaves the game' if to == 'removed' else 'goes to the 14AA pool'}"
                for u, to in zip(e.units, e.to, strict=True)]
        return f"withdrawn (9.2): {'; '.join(gone)}"
    if isinstance(e, ev.ShipmentRolled):
        fates = ", ".join(f"{u} {f}" for u, f in sorted(e.fates.items())) or "none"
        tail = "; no more 14AA units (5.3 item 8)" if e.count == 0 else ""
        return f"14AA shipment: die {e.roll} -> {e.count} unit(s): {fates}{tail}"
    if isinstance(e, ev.DecisionRequired):
        return f"{e.side} to decide: {e.kind}"
    if isinstance(e, ev.DecisionMade):
        return f"{e.side} decided: {e.kind}"
    return type(e).__name__


def _modifiers(mods: list[str]) -> str:
    """The die roll modifiers of a table roll as the log shows them: ", +1 all GEARR Japanese, ..." """
    return "".join(f", {m}" for m in mods)


RULES = IchigoRules()
