"""The SNC states table (Rally the Troops' rules.js style): for each position in the sequence of play
(5.1, 5.3) or each decision the sequence waits for, the side to act and its legal actions."""
from __future__ import annotations

from app.events.dice import Dice
from app.rules.base import Action, Prompt
from app.rules.errors import IllegalOrder
from app.rules.snc import events as ev
from app.rules.snc.combat import overstacked_hexes, require_stacking
from app.rules.snc.common import Emitter
from app.rules.snc.orders import SYNTAX
from app.rules.snc.owed import owed
from app.rules.snc.reinforcements import interdiction_due
from app.rules.snc.state import PHASE_NAMES, State
from app.rules.snc.victory import victory_check

CASES = {
    "declare": ("SNC 5.3", "announce what each Operations Phase of this player turn is for"),
    "move": ("SNC 9.0", "move a unit or a stack that starts in one hex"),
    "overrun": ("SNC 9.6", "Japanese: overrun an adjacent hex (not a city or town) during movement"),
    "attack": ("SNC 10.0", "attack one adjacent enemy hex with named units and fire support"),
    "end": ("SNC 5.1", "end this phase"),
    "lose": ("SNC 10.5.2", "choose which units lose the steps"),
    "advance": ("SNC 10.5.3", "advance surviving attackers into the emptied hex"),
    "stay": ("SNC 10.5.3", "do not advance"),
    "intercept": ("SNC 11.3", "roll for the Chinese air force against the Japanese air marker"),
    "support": ("SNC 11.4", "add a naval gunfire marker to the defence"),
    "pass": ("SNC 11.1", "add nothing"),
    "air": ("SNC 11.3", "roll for the Chinese air force against the interdiction"),
    "proceed": ("SNC 11.2", "let the Japanese interdiction roll be made"),
    "remove": ("SNC 11.2", "choose the reinforcements the interdiction removes"),
    "place": ("SNC 8.2", "place reinforcements in their listed hex (or a returning elite at Nanking, 8.1)"),
    "rail": ("SNC 8.2", "place reinforcements on a railroad hex with a rail line of communication (9.5.2)"),
    "land": ("SNC 8.4", "land reinforcements at a landing hex, assaulting any Chinese there"),
    "replace": ("SNC 8.3", "flip reduced Japanese units back to full strength"),
    "eliminate": ("SNC 6.0", "eliminate units from an overstacked hex"),
    "retreat": ("SNC 8.4", "retreat the Chinese survivors of a landing one hex"),
}
PENDING = {"losses": ("lose",), "advance": ("advance", "stay"), "intercept": ("intercept", "pass"),
           "defend": ("support", "pass"), "interdiction": ("remove",), "overstack": ("eliminate",),
           "retreat": ("retreat",)}


def _actions(*names: str) -> tuple[Action, ...]:
    return tuple(Action(n, SYNTAX[n], CASES[n][0], CASES[n][1]) for n in names)


def prompt(state: State) -> Prompt:
    if state.phase == "over":
        return Prompt(None, "game over")
    if state.pending:
        p = state.pending[0]
        return Prompt(p["side"], f"GT {state.turn}, {p['side']} decision: {p['kind']}", _actions(*PENDING[p["kind"]]),
                      owed(state))
    label = f"GT {state.turn}, {state.side} {PHASE_NAMES[state.phase]}"
    if state.phase in ("ops1", "ops2"):
        label += f" ({state.mode()})"
    if state.phase == "declare":
        return Prompt(state.side, label, _actions("declare"))
    if state.phase in ("ops1", "ops2"):
        if state.mode() == "move":
            names = ("move", "overrun", "end") if state.side == "japanese" else ("move", "end")
        else:
            names = ("attack", "end")
        return Prompt(state.side, label, _actions(*names))
    if state.side == "chinese":
        if interdiction_due(state):
            return Prompt(state.side, label + ": Japanese air interdiction",
                          _actions(*(("air", "proceed") if state.chinese_air else ("proceed",))))
        names = ["place", "move", "end"]
        if state.turn >= int(state.data.params["reinforcements"]["rail_from_turn"]):
            names.insert(1, "rail")
        return Prompt(state.side, label, _actions(*names))
    names = (["replace"] if state.replacements > 0 else []) + ["land", "end"]
    return Prompt(state.side, label, _actions(*names))


def declare(em: Emitter, side: str, first: str, second: str) -> None:
    em.emit(ev.PhasesDeclared(side, first, second))


def end(em: Emitter, side: str, dice: Dice) -> None:
    """End the phase; SNC 6.0 1) stacking is checked at the end of a movement phase: an overstacked hex is
    brought within the limits first, then the phase ends (rules.decide ends it after the last `eliminate`);
    after the Japanese Second Operations Phase comes the Victory Check (4.3, Phase II.D)."""
    state = em.state
    if state.mode() == "move":  # not after placement (ruling R23)
        if overstacked_hexes(state, side):
            require_stacking(em, side, ending=state.since(3))
            return
    if state.battle is not None:
        raise IllegalOrder("SNC 10.1", "finish the battle first")
    result = victory_check(state) if (side == "japanese" and state.phase == "ops2") else None
    em.emit(ev.PhaseEnded(state.phase, state.turn, side))
    if result is not None:
        em.emit(result)
