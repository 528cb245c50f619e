"""A Formosa position with a combat under way (ruling F130; docs/custom-positions.md `[combat]`): an attack, an
assault or an exploitation attack declared, waiting for the defender's LP, naval gunfire or air supply (15.4.1,
17.0, 19.4; F18, F22), or rolled, with its result met so far: losses to choose (15.5), retreats to make (15.7), the
hex a counterattack falls on (15.6), the advance (15.8, 10.2.2) or the exploitation attack offered (25.1).

The position's units, LP, air and phase keys give the moment the attack was declared; `[combat]` says what has
happened since: the attack and its support, the defender's answer, the result (and a counterattack's), the losses
named, the retreats and advances made. The engine plays that story through the orders a player would give (each
checked by its rule, so a misstatement is refused naming the case the order would be refused by), and the game
opens where its own sequence waits. A position at any point of a combat therefore gives the same events as the
combat played from its declaration."""
from __future__ import annotations

from app.rules.custom_setup import HEX_LABEL, UNIT_ID, SetupError, bounded_list
from app.rules.engine.decision import ReachedRoll
from app.rules.errors import OrderError
from app.rules.formosa.state import State

C = "Formosa "
STAGES = {"defence": "defence", "losses": "losses", "retreat": "retreat", "counterattack": "counterattack",
          "advance": "advance", "exploitation": "exploit"}  # the stage -> the decision the sequence waits for
CASES = {"defence": "15.4.1, 17.0, 19.4", "losses": "15.5", "retreat": "15.7", "counterattack": "15.6",
         "advance": "15.8", "exploit": "25.1"}
KEYS = {"stage", "attackers", "hexes", "from", "exploitation", "gunfire", "cw_gunfire", "lp", "air_supply", "defence",
        "result", "counter_result", "lost", "retreats", "counterattacked", "advanced", "held"}
DEFENCE_KEYS = {"lp", "gunfire", "cw_gunfire", "air_supply"}


class Misstated(Exception):
    """A statement of `[combat]` the rules could not have produced; `case` names the rule."""

    def __init__(self, case: str, text: str):
        super().__init__(text)
        self.case, self.text = case, text


class _StatedDice:
    """The position's results instead of dice: at each combat die (15.2 step 7) the face that gives the next
    stated result on the combat's column (`combat._die`); any other die (a die-hard's, 25.6) stops the story."""

    next_index = 0
    taken: list = []

    def __init__(self, codes: list[tuple[str, str]]):
        self.codes = list(codes)

    def face_for(self, preview) -> int:
        if not self.codes:
            raise ReachedRoll("combat")
        key, code = self.codes.pop(0)
        faces = [f for f in range(1, 7) if preview.result(f).code == code]
        if not faces:
            given = ", ".join(sorted({preview.result(f).code for f in range(1, 7)}))
            raise Misstated("15.2", f"{key} {code!r}: the attack reads the {preview.column_label} column, whose die "
                                    f"gives {given} (15.2 steps 5-7)")
        return faces[0]

    def roll(self, purpose: str, sides: int = 6):
        raise ReachedRoll(purpose)


def _num(raw: dict, key: str, most: int, problems: list[str]) -> int:
    value = raw.get(key, 0)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= most:
        problems.append(f"[combat] {key}: a whole number from 0 to {most} (Formosa 15.4.1, 17.0, ruling F130)")
        return 0
    return value


def _support(raw: dict, problems: list[str]) -> str:
    """The support clauses of an attack (or a defence) order."""
    out = ""
    for key, word, most in (("gunfire", "gunfire", 2), ("cw_gunfire", "cw-gunfire", 2), ("lp", "lp", 2)):
        n = _num(raw, key, most, problems)
        if n:
            out += f" {word} {n}"
    supply = raw.get("air_supply", False)
    if not isinstance(supply, bool):
        problems.append("[combat] air_supply: true or false (Formosa 19.4, ruling F130)")
    elif supply:
        out += " supply air"
    return out


def open_combat(state: State, raw) -> State:
    """The position `state` (as the attack was declared) with the combat `raw` played to its stage."""
    from app.rules.formosa.sequence import COMBAT_STEPS

    problems: list[str] = []
    if not isinstance(raw, dict) or set(raw) - KEYS or "stage" not in raw or "hexes" not in raw:
        others = ", ".join(sorted(KEYS - {"stage", "hexes"}))
        raise SetupError("position", [f"[combat] has 'stage' and 'hexes' and may have {others} (Formosa 15.2, "
                                      "ruling F130)"])
    stage = raw["stage"] if isinstance(raw["stage"], str) else ""
    if stage not in STAGES:
        problems.append(f"[combat] stage: one of {', '.join(STAGES)} (Formosa 15.2-15.8, 25.1, ruling F130)")
    landing = state.step == "invasion"
    if state.step not in COMBAT_STEPS and not landing:
        problems.append(f"[combat]: an attack is made in a Combat Phase ({', '.join(COMBAT_STEPS)}) or, as an assault "
                        f"from the sea, in the Invasion Phase, not {state.step!r} (Formosa 15.0, 10.2.2, ruling F130)")
    hexes = bounded_list(raw["hexes"], "combat hexes", HEX_LABEL, "hexes", problems)
    if not hexes and not problems:
        problems.append("[combat] hexes: the enemy hexes attacked (Formosa 15.2 step 1, ruling F130)")
    attackers = bounded_list(raw.get("attackers", []), "combat attackers", UNIT_ID, "unit ids", problems)
    seas = bounded_list(raw.get("from", []), "combat from", HEX_LABEL, "hexes", problems)
    lost = bounded_list(raw.get("lost", []), "combat lost", UNIT_ID, "unit ids", problems)
    retreats = _paths(raw.get("retreats", {}), "retreats", problems)
    advanced = _paths(raw.get("advanced", {}), "advanced", problems)
    exploitation = raw.get("exploitation", False)
    support = _support(raw, problems)
    defence = raw.get("defence", {})
    if not isinstance(defence, dict) or set(defence) - DEFENCE_KEYS:
        problems.append(f"[combat] defence: {{ {', '.join(sorted(DEFENCE_KEYS))} }}, the defender's answer (15.4.1, "
                        "17.0, 19.4; ruling F130)")
        defence = {}
    answer = "defend" + _support(defence, problems)
    codes = state.data.crt_raw["codes"]
    for key in ("result", "counter_result"):
        if key in raw and (not isinstance(raw[key], str) or raw[key] not in codes):
            problems.append(f"[combat] {key}: a result of the Combat Results Tables ({', '.join(codes)}) "
                            "(Formosa 15.5, ruling F130)")
    counterattacked = raw.get("counterattacked")
    if counterattacked is not None and not (isinstance(counterattacked, str) and HEX_LABEL.fullmatch(counterattacked)):
        problems.append("[combat] counterattacked: the hex label the counterattack fell on (Formosa 15.6, ruling F130)")
    if not isinstance(exploitation, bool) or not isinstance(raw.get("held", False), bool):
        problems.append("[combat] exploitation, held: true or false (Formosa 25.1, 15.8.1, ruling F130)")
    if landing and (attackers or exploitation or "air_supply" in raw):
        problems.append("[combat] in the Invasion Phase is an assault from the sea: the attackers are the stacks at "
                        "sea ([at_sea]) in `from` (all of those next to the hex without it), never with air supply "
                        "(Formosa 10.2.2, rulings F24, F84, F130)")
    if not landing and (seas or not attackers):
        problems.append("[combat] attackers: the units that attack (15.2 step 1); `from` names the sea hexes of an "
                        "assault only (Formosa 15.2, 10.2.2, ruling F130)")
    if stage != "defence" and "result" not in raw:
        problems.append(f"[combat] result: at stage {stage} the die has been rolled; give its result "
                        "(Formosa 15.2, ruling F130)")
    if stage == "defence" and ({"result", "defence"} & set(raw)):
        problems.append("[combat] at stage defence the defender has yet to answer and the die is not rolled "
                        "(Formosa 15.2, ruling F130)")
    if problems:
        raise SetupError("position", problems)
    if landing:
        declared = f"assault {hexes[0] if hexes else ''}" + (f" from {' '.join(seas)}" if seas else "") + support
    else:
        verb = "exploit" if exploitation else "attack"
        declared = f"{verb} {' '.join(hexes)} with {' '.join(attackers)}" + support
    results = [("result", raw["result"])] if "result" in raw else []
    results += [("counter_result", raw["counter_result"])] if "counter_result" in raw else []
    story = _Story(state, _StatedDice(results), lost, retreats, advanced, counterattacked, answer,
                   "defence" in raw, raw.get("held", False))
    try:
        return story.play(declared, STAGES[stage], exploitation, attackers)
    except Misstated as exc:
        raise SetupError("position", [f"[combat] {exc.text} ({C}{exc.case}, ruling F130)"]) from None


def _paths(raw, key: str, problems: list[str]) -> dict[str, list[str]]:
    if not isinstance(raw, dict):
        problems.append(f"[combat] {key}: {{ unit-id = [\"XXYY\", ...] }}, the hexes each unit entered "
                        "(Formosa 15.7, 15.8, ruling F130)")
        return {}
    out = {}
    for uid, path in raw.items():
        if not UNIT_ID.fullmatch(str(uid)):
            problems.append(f"[combat] {key}: {uid!r} is not a unit id (ruling F130)")
            continue
        out[uid] = bounded_list(path, f"combat {key} {uid}", HEX_LABEL, "hexes", problems)
    return out


class _Story:
    """The combat told as orders: the declaration, then each choice the position states, in the order the
    sequence asks for them."""

    def __init__(self, state: State, dice: _StatedDice, lost, retreats, advanced, counterattacked, answer: str,
                 answered: bool, held: bool):
        self.state, self.dice = state, dice
        self.lost = list(lost)
        self.retreats, self.advanced = dict(retreats), dict(advanced)
        self.counterattacked, self.answer, self.answered, self.held = counterattacked, answer, answered, held

    def _order(self, side: str, text: str, what: str) -> None:
        from app.rules.formosa import GAME

        before = self.state
        try:
            events = GAME.decide(before, GAME.parse(text, side, before), self.dice)
        except ReachedRoll as exc:
            if str(exc) == "combat":
                raise Misstated("15.2", f"{what}: the combat's die is rolled next (the defender having no LP, naval "
                                        "gunfire or air supply to commit, F22; or a counterattack, 15.6), so the "
                                        "combat does not wait there: give its result (`result`, `counter_result`)"
                                ) from None
            raise Misstated("25.6", f"{what}: a die other than the combat's is rolled before the stage (a die-hard's, "
                                    "25.6): give the position after it") from None
        except OrderError as exc:
            raise Misstated((exc.case or "Formosa 15.0").removeprefix(C), f"{what} ({text!r}) is refused: "
                                                f"{getattr(exc, 'message', str(exc))}") from None
        state = before
        for e in events:
            if not _die_rolled(e):
                state = GAME.evolve(state, e)
        self.state = state

    def play(self, declared: str, wanted: str, exploitation: bool, attackers: list[str]) -> State:
        side = self.state.side
        if exploitation:  # 25.1: the offer after the DE that let this stack attack again
            from app.rules.engine.events import DecisionRequired

            self.state = DecisionRequired("exploit", side, {"units": list(attackers)}).apply(self.state)
        self._order(side, declared, "the attack")
        while True:
            pending = self.state.pending[0] if self.state.pending else None
            if pending is None or pending["kind"] not in CASES:
                break
            kind, who = pending["kind"], pending["side"]
            step = self._next(kind, pending, wanted)
            if step is None:
                break
            self._order(who, step, f"the {kind} stated")
        self._leftovers()
        if self.answered:
            raise Misstated("15.4.1", "defence: the defender was never asked (no LP, naval gunfire or air supply to "
                                      "commit: the die is rolled at once, ruling F22)")
        if self.held:
            raise Misstated("15.8.1", "held: no advance of this combat was offered before the stage")
        pending = self.state.pending[0] if self.state.pending else None
        if self.dice.codes:
            key, code = self.dice.codes[0]
            raise Misstated("15.6" if key == "counter_result" else "15.2",
                            f"{key} {code!r}: no such die is rolled in this combat before the stage")
        if pending is None or pending["kind"] != wanted:
            now = f"waits for {pending['side']}'s {pending['kind']}" if pending and pending["kind"] in CASES else \
                "is over"
            case = CASES.get(pending["kind"], "15.5") if pending and pending["kind"] in CASES else "15.5"
            stage = next(s for s, k in STAGES.items() if k == wanted)
            raise Misstated(case, f"stage {stage}: after what is stated the combat {now}")
        return self.state

    def _next(self, kind: str, pending: dict, wanted: str) -> str | None:
        from app.rules.formosa import combat

        if kind == "defence":
            if wanted == "defence":
                return None
            self.answered = False  # used
            return self.answer
        if kind == "losses":
            chosen = [u for u in self.lost if u in pending["units"]]
            if not chosen:
                return None
            self.lost = [u for u in self.lost if u not in chosen]
            return "lose " + " ".join(chosen)
        if kind == "retreat":
            uid = next((u for u in self.retreats if u in pending["units"]), None)
            if uid is None:
                return None
            return f"retreat {uid} " + " ".join(self.retreats.pop(uid))
        if kind == "counterattack":
            if self.counterattacked is None:
                return None
            hex, self.counterattacked = self.counterattacked, None
            return f"counterattack {hex}"
        if kind == "advance":
            may = combat.advance_units(self.state)
            group = [u for u in self.advanced if u in may]
            if group:
                path = self.advanced[group[0]]
                units = [u for u in group if self.advanced[u] == path]
                for u in units:
                    del self.advanced[u]
                return f"advance {' '.join(units)} to {' '.join(path)}"
            if self.held or wanted == "exploit":
                self.held = False
                return "hold"
            return None
        return None

    def _leftovers(self) -> None:
        if self.lost:
            raise Misstated("15.5", f"lost: {', '.join(self.lost)}: no loss of this combat named them before the "
                                    "stage")
        if self.retreats:
            raise Misstated("15.7", f"retreats: {', '.join(self.retreats)}: no retreat of this combat owed them "
                                    "before the stage")
        if self.advanced:
            raise Misstated("15.8", f"advanced: {', '.join(self.advanced)}: no advance of this combat let them "
                                    "before the stage")
        if self.counterattacked is not None:
            raise Misstated("15.6", f"counterattacked {self.counterattacked}: no counterattack of this combat chose "
                                    "a hex before the stage")


def _die_rolled(event) -> bool:
    from app.events.core import DieRolled

    return isinstance(event, DieRolled)
