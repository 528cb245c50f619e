"""Every kind of Formosa end (issue 16: "each kind of end (sudden death either way, each victory level)"), in
each scenario, as a custom position (docs/custom-positions.md, ruling F98) a few orders from its end and the
orders that reach it by legal play. Shared by the CLI test (tests/formosa/test_formosa_ends_cli.py) and the email
test (tests/pbem/test_email_formosa.py), so both play the same games; the places come from the map data
(tests/formosa/formosa_map.py), so a replaced map file still serves.

The server's dice are fixed (tests/position_files.py) and the players join with fixed dice texts, so the one roll
that decides an end (the Japanese attack of the 4.1 sudden death) is the same through the CLI and by email, every
run; the end records it and the tests assert it from the log."""
from __future__ import annotations

from dataclasses import dataclass

from app.rules.formosa import GAME
from app.rules.formosa.state import OUT
from app.rules.kernel.hexgrid import Hex
from tests import position_files
from tests.formosa.formosa_map import D, M, holding, ring, worth

GAME_ID = "g-f0e0a5e4"  # the fixed game id the dice are derived from (inbound mail wants g-<8 hex>)
SEED = 16
DICE_TEXT = {"japanese": "Takao holds", "allied": "Causeway 1944"}  # the players' `join` texts
NO_POINTS = {"lp": {"allied": 0, "japanese": 0}, "naval": {"gunfire": 0, "cw-gunfire": 0}}  # nothing to ask


@dataclass(frozen=True)
class End:
    """A position, the orders (side, text) that end the game from it, and the end they reach."""

    id: str
    scenario: str
    winner: str | None             # None: a draw
    reason: str                    # how the game-over reason begins: the level (4.1, 4.2)
    case: str                      # the case the reason names, "(Formosa 4.1)" or "(Formosa 4.2)"
    position: dict
    orders: tuple[tuple[str, str], ...]
    log: tuple[str, ...] = ()      # lines the game's log must hold (the deciding roll, the VP)

    @property
    def result(self) -> str:
        return self.winner or "draw"


def fixed_dice(monkeypatch) -> None:
    position_files.fixed_dice(monkeypatch, SEED, GAME_ID)


def toml(position: dict) -> str:
    return position_files.toml(position)


def _allied(scenario: str, *types: str) -> list[str]:
    """The US units of `types` in the scenario's counter mix (24.1, 24.2), in the data's order."""
    start = GAME.initial_state(scenario, {})
    return [u.id for u in D.units if u.side == "allied" and u.nationality == "us" and u.type in types
            and start.units[u.id].where != OUT]


# -- 4.1 Allied: the last port or airfield hex taken --------------------------------------------------------
# An Allied Movement Phase after GT 2: US regiments hold every port and airfield hex of the map but one, a
# regiment stands next to it, and moving in wins at once (ruling F38: checked after every order).
def _last_and_next() -> tuple[str, str]:
    targets = D.sudden_death_hexes()
    for h in sorted(targets):
        for n in M.neighbours(h):
            if D.is_land(n) and n not in targets and not M.hexside_features(h, n):
                return str(h), str(n)
    raise LookupError("no port or airfield hex with a land neighbour")


def allied_sudden_death(scenario: str) -> End:
    last, start = _last_and_next()
    infantry = _allied(scenario, "infantry", "marine")
    held = sorted(str(h) for h in D.sudden_death_hexes() if str(h) != last)
    units = dict(zip(infantry, held, strict=False)) | {infantry[len(held)]: start}
    mover = infantry[len(held)]
    return End(f"4.1-allied-{scenario}", scenario, "allied", "Allied Strategic Victory", "(Formosa 4.1)",
               {"turn": 4, "phase": "allied-movement", **NO_POINTS, "units": units},
               (("allied", f"move {mover} {last}"),))


# -- 4.1 Japanese: the last Allied unit on Formosa destroyed --------------------------------------------------
# A Japanese Combat Phase after GT 2: the only US regiment on the map (4 factors) is ringed by eight revealed
# Japanese regiments (30 factors): 750%, and the concentric shift, read the >=700% column, where every die
# eliminates a lone defender that cannot retreat through the ring (B1, DR, D1, DE), so no Allied ground unit is
# left on the map whatever the seed rolls.
def japanese_sudden_death(scenario: str) -> End:
    x, around = ring("open")
    attackers = ["jp-9-7", "jp-9-19", "jp-9-35", "jp-12-24", "jp-12-46", "jp-12-48", "jp-66-304", "jp-66-305"]
    units = {"us-7-17": x} | {uid: around[i % len(around)] for i, uid in enumerate(attackers)}
    attack, defence = sum(D.unit(uid).cf for uid in attackers), D.unit("us-7-17").cf
    return End(f"4.1-japanese-{scenario}", scenario, "japanese", "Japanese Strategic Victory", "(Formosa 4.1)",
               {"turn": 3, "phase": "japanese-combat", "revealed": attackers, **NO_POINTS, "units": units},
               (("japanese", f"attack {x} with {' '.join(attackers)}"),),
               log=("die roll #0: ", f"japanese attack on {x}: {attack} against {defence} = "
                                     f"{100 * attack // defence}%"))


# -- 4.2: the end of the last Game-Turn, on points ----------------------------------------------------------
# The last GT's Base Building Phase: an engineer in a port builds its base (the port's VP count only with it),
# the Allies end the phase, the Japanese end their Movement and Combat Phases, and the game is counted. Each level
# at its lower boundary (the lowest level one below the next), Allied regiments in the Eliminated and Replacements
# Displays giving the Japanese VP (ruling F7).
LEVELS = (("Allied Strategic Victory", "allied", 27, 2), ("Allied Operational Victory", "allied", 22, 3),
          ("Draw", None, 17, 4), ("Japanese Operational Victory", "japanese", 12, 5),
          ("Japanese Strategic Victory", "japanese", 6, 0))


def _port() -> str:
    """A port that is not an airfield (the base costs the port's LP, 20.1)."""
    return str(sorted(h for h in D.ports() if h not in D.airfields())[0])


def points(scenario: str, level: str, winner: str | None, allied: int, japanese: int) -> End:
    port = _port()
    units = holding(allied - worth(Hex.parse(port)), exclude=(port,))
    bases = sorted(uid for uid in units if uid.startswith("us-eng"))
    builder = next(u.id for u in D.units if u.type == "engineer" and u.nationality == "us" and u.id not in units)
    units[builder] = port
    lost = [uid for uid in _allied(scenario, "infantry", "marine", "airborne") if uid not in units]
    where = {uid: "allied-eliminated" for uid in lost[:japanese // 2]}
    where |= {uid: "allied-replacements" for uid in lost[japanese // 2:japanese]}
    cost = D.charts["allied_other"]["base_port"]
    position = {"turn": D.scenario(scenario)["turns"], "phase": "base-building", "bases": bases,
                "lp": {"allied": cost, "japanese": 0}, "units": units, "where": where}
    return End(f"4.2-{level.lower().replace(' ', '-')}-{scenario}", scenario, winner, level, "(Formosa 4.2)",
               position, (("allied", f"build {port}"), ("allied", "end"), ("japanese", "end"), ("japanese", "end")),
               log=(f"victory points: Allied {allied}, Japanese {japanese}, net {allied - japanese}: {level} "
                    "(Formosa 4.2)",))


ENDS = [end for scenario in ("1", "2") for end in (
    allied_sudden_death(scenario), japanese_sudden_death(scenario),
    *(points(scenario, *level) for level in LEVELS))]
