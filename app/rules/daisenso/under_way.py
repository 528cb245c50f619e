"""A Dai Senso position with play under way (ruling D60, rules version 11): the step of its segment it starts in
(`step`) and the attack it stands in the middle of (`[combat]`), from the declaration (4.2.2 steps 1-2) through
the die (step 5) to the results of steps 6-8 (4.2.4-4.2.8). The position says what happened; what the rules
derive from it (the defending force, the results still owed, the Exploitation Distance) is derived here, each
statement checked by the rule it would break (SetupError naming the case), and play opens where the engine's own
sequence would wait: the decision owed, or a choice only one way allows applied at once (ruling D27)."""
from __future__ import annotations

from app.rules.custom_setup import SetupError
from app.rules.daisenso import blitz, combat, sequence, terrain
from app.rules.daisenso.position import PlacedCombat
from app.rules.daisenso.state import Combat, State
from app.rules.daisenso.terrain import H
from app.rules.engine.decision import Decision, ProbeDice
from app.rules.engine.state import replace

C = "Dai Senso "
_BEFORE_RESULT = ("support", "roll")
_ATTACKER_MOVED = ("attacker-retreat", "attacker-losses", "defender-losses", "advance")


def _decide(state: State, side: str, then) -> State:
    """`then(d)` run on the position as the sequence runs it after an order (no die: nothing here rolls one)."""
    d = Decision(state, side, ProbeDice(), lambda s, e: e.apply(s))
    then(d)
    return d.state


def open_at_step(state: State, step: str) -> State:
    """The position's `step` (ruling D60): a Blitz step with nothing to do passes to the next as in play (ruling
    D26), an Airdrop Landing step begins by sending lapsed Airdrop markers to the Delay Box (4.1.4)."""
    if step in ("landing", "airdrop-landing"):
        return _decide(state, state.side, lambda d: sequence.enter(d, step))
    if step == "overstack":  # the segment's end (ruling D15): after 4.1.5 in the Blitz segment
        if not any(sequence.overstacked(state, f) for f in state.factions.values()):
            raise SetupError("position", ["'step' overstack: no hex holds more ground units than the stacking limit, "
                                          "so the segment's end has nothing to settle (ruling D15)"])
        if state.step == "blitz":
            return _decide(replace(state, step="airdrop-landing"), state.side, sequence.end_blitz)
        return _decide(replace(state, step="regular-combat"), state.side,
                       lambda d: sequence.settle_overstacks(d, "convoys"))
    if step == "airdrop" and not blitz.airdrop_units(state):
        step = "blitz-combat"
    return replace(state, step=step)


def open_combat(state: State, placed: PlacedCombat) -> State:
    """The attack under way, checked by the rules; SetupError("position", problems) naming each case."""
    problems = _Check(state, placed).problems()
    if problems:
        raise SetupError("position", problems)
    state = _with_flags(state, placed)
    state = replace(state, combat=_combat(state, placed))
    attacker = state.side
    if placed.stage == "support":
        if combat.defender_hq_options(state):
            return state.require("defender-hq", state.side_of(state.other_faction(state.phasing)),
                                 {"target": str(placed.hex)})
        return state.require("roll", attacker, {"target": str(placed.hex)})
    if placed.stage == "roll":
        return state.require("roll", attacker, {"target": str(placed.hex)})
    return _decide(state, attacker, combat.after_results)


_RESULT_STAGES = ("attacker-result", "attacker-retreat", "exchange", "retreat", "attacker-losses", "defender-losses",
                  "advance")  # 4.2.2 steps 6-8 in order (4.2.4: Retreat results before Attrition, attacker first)


def _owed(at: int, stage: str, full: int, owed: int | None) -> int:
    here = _RESULT_STAGES.index(stage)
    return full if at < here else (owed or full) if at == here else 0


def _defending_hex(placed: PlacedCombat) -> str:
    return str(placed.retreated[-1]) if placed.retreated else str(placed.hex)


def _defenders(state: State, placed: PlacedCombat) -> list[str]:
    """4.2.1, 4.2.5: every enemy ground unit where the defending force stands (joined units included)."""
    enemy = state.other_faction(state.phasing)
    return [u.id for u in state.ground_at(_defending_hex(placed), enemy)]


def _with_flags(state: State, placed: PlacedCombat) -> State:
    """4.2.1, 4.2.1.2: the attackers have attacked; the HQs and the defending units have taken part."""
    units = dict(state.units)
    for uid in placed.attackers:
        units[uid] = replace(units[uid], attacked=True)
    for uid in placed.joined:  # ruling D32: they count as having attacked and taken part
        units[uid] = replace(units[uid], attacked=True, fought=True)
    for uid in (placed.hq, placed.defender_hq, *_defenders(state, placed)):
        if uid:
            units[uid] = replace(units[uid], fought=True)
    return replace(state, units=units)


def _combat(state: State, placed: PlacedCombat) -> Combat:
    """The engine's record of the attack, with what the position leaves to be derived."""
    crt = state.data.crt
    result = crt.notation.parse(placed.result) if placed.result else None
    stage = placed.stage
    at = _RESULT_STAGES.index(stage) if stage in _RESULT_STAGES else -1
    attacker_losses = defender_losses = 0
    if result is not None:  # an Attrition result is owed whole until its stage, the rest of it at it, none after
        attacker_losses = _owed(at, "attacker-losses", result.attacker.losses, placed.owed)
        defender_losses = _owed(at, "defender-losses", result.defender.losses, placed.owed)
    paid = (result.attacker.losses - attacker_losses) if result is not None else 0
    lost = paid + (1 if placed.attacker_result == "step" or stage == "exchange" else 0)
    retreat_left = 0
    if stage == "retreat":
        retreat_left = result.defender.retreat - len(placed.retreated) - placed.converted
    elif stage == "exchange":
        retreat_left = 1
    fronts = {uid: str(placed.fronts.get(uid, state.units[uid].hex)) for uid in placed.attackers}
    stacks = sorted({state.units[uid].hex for uid in placed.attackers if state.units[uid].hex == fronts[uid]})
    automatic = stage == "advance" and result is None
    path = tuple(str(h) for h in placed.retreated)
    armor = placed.armor if placed.armor is not None else any(
        state.kind(state.units[uid]).armor_type for uid in placed.attackers)
    return Combat(
        target=str(placed.hex), attackers=(*placed.attackers, *placed.joined), attacker_hq=placed.hq,
        defenders=tuple(_defenders(state, placed)), defender_hq=placed.defender_hq,
        blitz=state.step == "blitz-combat", stage="hq" if stage in _BEFORE_RESULT else stage,
        result=placed.result, retreat_left=retreat_left, path=path, converted=placed.converted,
        unsatisfied=placed.unsatisfied, attacker_losses=attacker_losses, defender_losses=defender_losses,
        attacker_lost=lost, stacks_to_retreat=tuple(stacks) if stage == "attacker-retreat" else (),
        automatic=automatic, armor=armor,
        exploit_distance=len(set(path)) + placed.unsatisfied if stage == "advance" and not automatic else 0,
        fronts=tuple(fronts.items()))


class _Check:
    """Each statement of a `[combat]` against the rules it would break."""

    def __init__(self, state: State, placed: PlacedCombat):
        self.state, self.p = state, placed
        self.out: list[str] = []
        self.target = str(placed.hex)
        self.faction = state.phasing
        self.enemy = state.other_faction(state.phasing)

    def err(self, case: str, text: str) -> None:
        self.out.append(f"[combat] {text} ({C}{case}, ruling D60)")

    def problems(self) -> list[str]:
        s = self.state
        if s.step not in sequence.COMBAT_STEPS:
            self.err("4.2", f"an attack is made in Blitz Combat or the Regular Combat Segment, not at {s.step}")
            return self.out
        if not s.data.atlas.on_map(H(self.target)):
            self.err("4.2.1", f"{self.target} is not on the map")
            return self.out
        self._attackers()
        self._hqs()
        self._result()
        if not self.out:
            self._stage()
        return self.out

    # -- step 1-2: who fights ------------------------------------------------------------------------------
    def _attackers(self) -> None:
        s, p = self.state, self.p
        if not p.attackers and p.stage in (*_BEFORE_RESULT, "attacker-result", "attacker-retreat"):
            self.err("4.2.2", "attackers names the units that attack (step 1)")
        atlas = s.data.atlas
        for uid in p.attackers:
            u = s.units[uid]
            k = s.kind(u)
            front = str(p.fronts.get(uid, u.hex))
            if u.faction != self.faction or not k.is_ground:
                self.err("4.2.1", f"{uid}: only the phasing faction's ground units attack")
            elif k.attack == 0:
                self.err("4.2.1.1", f"{uid} has an Attack Factor of 0")
            elif s.step == "blitz-combat" and not u.blitz:
                self.err("4.1.2", f"{uid} is not Blitz-enabled: it does not attack in Blitz Combat")
            if not atlas.adjacent(H(front), H(self.target)):
                self.err("4.2.1", f"{uid} attacked from {front}, which is not adjacent to {self.target}")
            moved = p.stage == "attacker-retreat" or (p.stage in _ATTACKER_MOVED and p.attacker_result == "retreat")
            if front != u.hex and (not moved or not atlas.adjacent(H(front), H(u.hex))):
                self.err("4.2.5", f"{uid} stands in {u.hex}, not {front}: an attacker leaves the hex it attacked "
                                  "from only by its one-hex retreat after an Ad or Ex (attacker_result = \"retreat\")")
            there = replace(u, hex=front)
            if combat.has_failure(s, self.faction, front):
                self.err("4.2.1.1", f"a {self.faction} Failure marker in {front} stops {uid} (ruling D17)")
            if not terrain.attack_allowed_across(s, there, self.target):
                self.err("4.2.1.1", f"{uid} cannot attack across the All-Sea hexside {front}/{self.target}")
            why = combat.confined(s, u, self.target)
            if why:
                self.err("4.2.1.1", why)
        minors = sorted({m for m in (combat.minor_of(s, s.units[x]) for x in p.attackers) if m})
        if len(minors) > 1:
            self.err("4.2.1.1", f"units of two Minor Countries ({', '.join(minors)}) cannot attack the same hex")
        if terrain.country_closed(s, self.target):
            self.err("4.2.1.1", f"{self.target} lies in a Neutral Minor or Policy Affected Country (ruling D19)")
        weather = s.weather_at(self.target)
        russians = all(s.kind(s.units[x]).nations == ("ussr",) for x in p.attackers)
        on_units = p.result or p.stage != "advance"  # not the attack on markers alone (ruling D43)
        if s.step == "blitz-combat" and weather and on_units and not (weather == "snow" and russians):
            self.err("4.1.2", f"{self.target} is under {weather}: no Blitz attack on its units")
        retreated_to = {s.units[x].hex for x in p.attackers if s.units[x].hex != str(p.fronts.get(x, s.units[x].hex))}
        for uid in p.joined:
            u = s.units[uid]
            if u.faction != self.faction or not s.kind(u).is_ground:
                self.err("4.2.5", f"joined: {uid} is not one of the attacker's ground units")
            elif u.hex not in retreated_to:
                self.err("4.2.5", f"joined: {uid} in {u.hex} stands where no attacking stack retreated (ruling D32)")
        hqs = [x for x in p.attackers if s.kind(s.units[x]).type == "hq"] + ([p.hq] if p.hq else [])
        if len(hqs) > 1:
            self.err("4.2.1.2", f"one HQ per faction takes part in a combat, not {', '.join(hqs)}")

    def _hqs(self) -> None:
        s, p = self.state, self.p
        force = [s.units[x] for x in p.attackers]
        if p.hq:
            hq = replace(s.units[p.hq], fought=False, attacked=False)
            why = ("it belongs to the defender" if hq.faction != self.faction else
                   f"{p.hq} attacks already" if p.hq in p.attackers else
                   combat.hq_problem(s, hq, self.target, force, s.step == "blitz-combat"))
            if why:
                self.err("4.2.1.2", f"hq {p.hq}: {why}")
        if p.defender_hq:
            hq = replace(s.units[p.defender_hq], fought=False, attacked=False)
            defending = [s.units[x] for x in _defenders(s, p)]
            if p.stage == "support":
                self.err("4.2.2", "defender_hq: at stage support the defender has yet to declare it (step 2)")
            elif hq.faction != self.enemy:
                self.err("4.2.1.2", f"defender_hq {p.defender_hq} is not the defender's")
            elif hq.hex == self.target or any(s.kind(u).type == "hq" for u in s.ground_at(self.target, self.enemy)):
                self.err("4.2.2", f"defender_hq {p.defender_hq}: a defending hex holding an HQ gets no other HQ's "
                                  "Ranged Support (step 2)")
            else:
                why = combat.hq_problem(s, hq, self.target, defending or [hq], False)
                if why:
                    self.err("4.2.1.2", f"defender_hq {p.defender_hq}: {why}")

    # -- step 5: the result --------------------------------------------------------------------------------
    def _result(self) -> None:
        s, p = self.state, self.p
        crt = s.data.crt
        if p.stage in _BEFORE_RESULT:
            if p.result:
                self.err("4.2.2", f"result: at stage {p.stage} the die is not rolled yet (step 5)")
            return
        if not p.result:
            if p.stage != "advance":
                self.err("4.2.2", f"result: at stage {p.stage} the die has been rolled; give the result (step 5)")
            return
        weather = "weather" if s.weather_at(self.target) else None
        given = {crt.lookup(i, die, conversion=weather).code for i in range(len(crt.columns())) for die in crt.dice}
        if p.result not in given:
            where = f" under {s.weather_at(self.target)}" if weather else ""
            self.err("4.2.4", f"result {p.result!r} is not one the Combat Results Table gives{where}: one of "
                              f"{', '.join(sorted(given))}")

    # -- steps 6-8: how far the results stand ---------------------------------------------------------------
    def _stage(self) -> None:
        s, p = self.state, self.p
        stage = p.stage
        result = s.data.crt.notation.parse(p.result) if p.result else None
        defenders = _defenders(s, p)
        here = s.ground_at(self.target, self.enemy)
        if result is None:
            self._declared(stage, here)
            return
        ad = result.attacker.retreat_or_loss
        if ad and stage not in ("attacker-result", "attacker-retreat", "exchange") and p.attacker_result is None:
            self.err("4.2.4.1", f"attacker_result: how the attacker met its {p.result} (\"retreat\" or \"step\")")
        if p.attacker_result and (not ad or stage in ("attacker-result", "attacker-retreat", "exchange")):
            self.err("4.2.4.1", "attacker_result is given after an Ad or Ex, once the attacker has met it")
        need = {"attacker-result": ad, "attacker-retreat": ad, "exchange": result.exchange,
                "retreat": bool(result.defender.retreat), "attacker-losses": bool(result.attacker.losses),
                "defender-losses": bool(result.defender.losses), "advance": True}[stage]
        if not need:
            self.err("4.2.4", f"stage {stage}: the result {p.result} owes nothing there")
        if p.attacker_result == "retreat" and result.exchange and (p.retreated or p.converted):
            self.err("4.2.4.1", f"after the attacker's retreat from an {p.result} the defender does nothing")
        self._retreated(stage, result, defenders)
        if p.owed is not None:
            full = {"attacker-losses": result.attacker.losses, "defender-losses": result.defender.losses}.get(stage)
            if full is None or p.owed > full:
                self.err("4.2.6", f"owed: in an Attrition stage, at most the result's steps ({p.result})")
        if p.unsatisfied and defenders:
            self.err("4.2.8", f"unsatisfied: results go unsatisfied only once the defending force is gone, and "
                              f"{', '.join(defenders)} remain")
        if stage == "advance" and here:
            self.err("4.2.7", f"stage advance: {self.target} still holds {', '.join(u.id for u in here)}")
        if stage == "attacker-retreat" and not any(
                s.units[x].hex == str(p.fronts.get(x, s.units[x].hex)) for x in p.attackers):
            self.err("4.2.5", "stage attacker-retreat: every attacking stack has retreated already")

    def _declared(self, stage: str, here: list) -> None:
        """Before the die (or without one): the defenders in the hex, the raw odds (4.2.1.1)."""
        s, p = self.state, self.p
        if stage == "advance":
            if here:
                self.err("4.2.2", f"stage advance without a result is the attack on markers alone, which succeeds "
                                  f"without a die; {self.target} holds {', '.join(u.id for u in here)}")
            if p.defender_hq:
                self.err("4.2.2", "defender_hq: the attack on markers alone has no step 2")
            if any(m.faction == self.enemy for m in s.markers_at(self.target, terrain.LONE_MARKERS)):
                self.err("4.2.2", f"the attack on markers alone put the {self.enemy} Detachment and Logistics "
                                  f"markers of {self.target} in the Delay Box when it was declared")
            if p.hq and s.since(10):
                self.err("4.2.2", "hq: no HQ gives Ranged Support to an attack on markers alone (ruling D57)")
            if p.retreated or p.converted or p.unsatisfied:
                self.err("4.2.2", "an attack on markers alone has no retreat and no result (no die)")
            return
        if not here:
            self.err("4.2.2", f"{self.target} holds no {self.enemy} ground unit: an attack on markers alone succeeds "
                              "at once, without a die (its only stage is advance)")
            return
        if p.retreated or p.converted or p.unsatisfied or p.owed is not None or p.attacker_result:
            self.err("4.2.2", f"at stage {stage} no result has been met yet")
        attack = sum(s.kind(s.units[x]).attack for x in p.attackers) + (s.kind(s.units[p.hq]).attack if p.hq else 0)
        raw = combat.odds_preview(s.data.crt, attack, sum(s.kind(u).defense for u in here))
        if not raw.allowed:
            self.err("4.2.1.1", f"{attack} against {raw.odds.defence} is under a raw 1-3: no such attack")

    def _retreated(self, stage: str, result, defenders: list[str]) -> None:
        """4.2.5, 4.2.5.1: each hex entered is adjacent to the last and farther from the defending hex; the force
        stands in the last, having retreated no more hexes than its result."""
        s, p = self.state, self.p
        atlas = s.data.atlas
        if (p.retreated or p.converted) and not result.defender.retreat and not result.exchange:
            self.err("4.2.5", f"retreated, converted: the result {p.result} has no Retreat result for the defender")
            return
        if (p.retreated or p.converted) and stage in ("attacker-result", "attacker-retreat", "exchange"):
            self.err("4.2.4.1", f"retreated, converted: the defender's Retreat comes after stage {stage}")
            return
        owed = result.defender.retreat or (1 if result.exchange else 0)
        if len(p.retreated) + p.converted > owed:
            self.err("4.2.5", f"retreated {len(p.retreated)} hexes and converted {p.converted} of a {p.result}")
        if stage == "retreat" and len(p.retreated) + p.converted >= owed:
            self.err("4.2.5", f"stage retreat: the {p.result}'s Retreat result is met already")
        if p.retreated and p.defender_hq:
            self.err("4.2.5.2", "retreated: a force with the HQ giving it Ranged Support does not retreat")
        before = self.target
        for h in p.retreated:
            if not atlas.adjacent(H(before), h) or not (  # adjacent first: no distance joins two sheets (D74)
                    atlas.distance(h, H(self.target)) > atlas.distance(H(before), H(self.target))):
                self.err("4.2.5.1", f"retreated: {h} is not a hex next to {before} farther from {self.target}")
                return
            before = str(h)
        if p.retreated and s.ground_at(self.target, self.enemy):
            self.err("4.2.5", f"retreated: the defending force left {self.target}, which still holds "
                              f"{', '.join(u.id for u in s.ground_at(self.target, self.enemy))}")
        if stage == "retreat" and not defenders:
            self.err("4.2.5", f"stage retreat: no {self.enemy} ground unit stands in {_defending_hex(p)}")
