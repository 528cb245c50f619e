"""The opening position of a scenario (24.1, 24.2) from scenarios.toml: which units are in this game, which the
Japanese player must set up on Formosa, which wait in the Allied Staging Area, and what is left to recruit.

A unit is out of the game if the scenario bans it (24.2), its optional rule is not chosen (3.0 "OPT", 25.0),
it is Commonwealth in Scenario 1 (24.1), or it arrives only by a special rule (the 6th Marine Division, 24.1:
after Amoy, ruling F34; the 97th Division, 25.5). Every other unit not set up waits in its side's
Reinforcements Display (8.0)."""
from __future__ import annotations

from dataclasses import replace

from app.rules.formosa import custom, optional
from app.rules.formosa.state import OUT, State, Unit, created_under

FIRST_STEP = "setup-japanese-lp"


def group_key(side: str, index: int) -> str:
    return f"{side}-{index + 1}"


def in_game(data, scenario: dict, spec) -> bool:
    if spec.id in scenario.get("banned", ()):
        return False
    if spec.optional and spec.optional not in data.optional:
        return False
    if spec.nationality == "cw" and not scenario.get("commonwealth"):
        return False
    special = scenario["special"]
    if spec.id in special.get("after_amoy", ()):
        return False
    return not (spec.id in special.get("optional_25_5", ()) and "25.5" not in data.optional)


def start(data, scenario: str, options, version: str | None = None) -> State:
    """Scenario `scenario` ("1" or "2") before the Japanese set-up roll (24.1: the Japanese deploy first), or the
    position of `options["position"]` (custom.py) read under rules `version` (the game's engine's `start`)."""
    state = replace(printed(data, scenario), rules_version=created_under(version))
    return custom.apply(state, options)


def printed(data, scenario: str) -> State:
    number = int(scenario)
    scen = data.scenario(number)
    fixed = {side: [i for g in data.setup_groups(number, side) if "choose" not in g for i in g["units"]]
             for side in ("allied", "japanese")}
    units = {}
    for spec in data.units:
        if not in_game(data, scen, spec):
            where = OUT
        elif spec.id in fixed["allied"]:
            where = "allied-staging"
        else:
            where = f"{spec.side}-reinforcements"
        units[spec.id] = Unit(spec.id, spec.side, where)
    tac = scen["allied_tac"]
    gunfire = scen["allied_gunfire"]
    return State(scenario=number, turn=1, step=FIRST_STEP, units=units,
                 lp={"allied": scen["allied_setup_lp"], "japanese": 0},
                 air={"allied-tac": tac.get("us", 0), "cw-tac": tac.get("cw", 0)},
                 naval={"gunfire": gunfire.get("us", 0), "cw-gunfire": gunfire.get("cw", 0)},
                 to_place=(*fixed["japanese"], *optional.set_up_units(data)), data=data)
