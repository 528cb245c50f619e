"""Every kind of Ichi-Go end (issue 7, cases 4.1-4.5), each as a custom position (docs/custom-positions.md) a few
orders from its end and the orders that reach it by legal play. Shared by the CLI test
(tests/ichigo/test_ichigo_ends_cli.py) and the email test (tests/pbem/test_email_ichigo.py), so both play the
same games.

The server's dice are fixed per end (`fixed_dice`: the secret seed and the game id the rolls are derived from,
app/events/dice.py) and the players join with the same dice texts (`DICE_TEXT`), so every roll is the same
through the CLI and by email, every run. Where a roll decides the end (the China Collapse roll, 4.1) the end
records the roll the seed gives and the tests assert it from the log."""
from __future__ import annotations

from dataclasses import dataclass, field

from app.rules.ichigo.data_load import load
from tests import position_files

GAME_ID = "g-1c41e0d5"  # the fixed game id the dice are derived from (inbound mail wants g-<8 hex>)
DICE_TEXT = {"japanese": "Ichi-Go 1944", "allied": "Chungking holds"}  # the players' `join` texts

GEARR = list(load().gearr)                         # 1801 ... 0925 (3.5)
AIRBASES = sorted(load().feature("airbase"))       # the eight USAAF airbases (8.7)


@dataclass(frozen=True)
class End:
    """A position, the orders (side, text) that end the game from it, and the end they reach."""

    id: str
    case: str                     # the case the end's reason names, e.g. "Ichi-Go 4.1"
    winner: str | None            # None: a draw
    position: dict
    orders: tuple[tuple[str, str], ...]
    seed: int = 0                 # the server's secret dice seed (fixed_dice)
    reason_has: tuple[str, ...] = ()   # more the reason must say (the VP tally and its items, the beachhead)
    log: tuple[str, ...] = field(default=())   # lines the game's log must hold (rolls and their modifiers)

    @property
    def result(self) -> str:
        return self.winner or "draw"


def fixed_dice(monkeypatch, seed: int) -> None:
    """The server's secret dice seed for the games created next, and the fixed game id."""
    position_files.fixed_dice(monkeypatch, seed, GAME_ID)


def toml(position: dict) -> str:
    """A position as a position file; the declared plans are an inline table."""
    return position_files.toml(position, inline=("plans",))


def position(turn: int, phase: str, units: dict, **keys) -> dict:
    return {"turn": turn, "phase": phase, **keys, "units": units}


# -- 4.1: the Japanese take Chungking and China collapses -------------------------------------------------
# Turn 6, Japanese movement: a division one hex from an empty Chungking; Kunming, the whole GEARR and every
# airbase are Japanese and no Chinese unit is east of the GEARR, so all four modifiers of the China Collapse
# Table apply. The seed rolls a 2: 2 + 4 = 6 collapses, and 2 + 3 would not, so an ignored modifier fails.
COLLAPSE = End(
    "4.1-china-collapses", "Ichi-Go 4.1", "japanese",
    position(6, "VI", {"jp-cea-3div": "0812", "cn-reg-05": "0716"}, plans={"japanese": "move-fight"},
             control={"japanese": sorted({*GEARR, *AIRBASES, "0119"})}),
    (("japanese", "move jp-cea-3div to 0712"),),
    seed=7, reason_has=("China collapses (roll 2, total 6)",),
    log=("die roll #0: 2 (China Collapse Table (4.1))",
         "China Collapse (4.1): die 2, +1 Kunming Japanese, +1 all GEARR Japanese, +1 all airbases Japanese, "
         "+1 no Chinese east of the GEARR = 6 -> China collapses"))


# -- 4.2: the end of Turn 9 without Causeway, on points -----------------------------------------------------
# Turn 9, Chinese reinforcement phase: the Allies roll (seed 13 rolls a 1: one counter, halved or not), place
# the counter drawn (C02: cn-reg-05 is C01) in Chungking's neighbour city 0716, west of the GEARR, and end the
# turn, which ends the game. The base position scores nothing: a Chinese army east of the GEARR (2612), the
# Japanese far from Chungking (Kaifeng 1901), the GEARR, the airbases and Kunming as at the start. Each band adds
# awards to it, so every award is counted somewhere and each boundary (1|2, 2|3) is crossed.
AWARDS_42 = {
    "no Chinese units east of the GEARR": {"units": {"cn-reg-05": "0716"}},
    "Kunming Japanese": {"japanese": ["0119"]},
    "Japanese within 5 hexes of Chungking": {"units": {"jp-cea-13div": "0812"}},
    "all GEARR Japanese": {"japanese": GEARR},
    "all US airbases Japanese": {"japanese": AIRBASES},
}
PLACE_AND_END = (("allied", "reinforce"), ("allied", "place C02 at 0716"), ("allied", "end"))
REINFORCEMENT_ROLL = ("die roll #0: 1 (Chinese reinforcements (9.7))",)


def _with_awards(base: dict, awards: dict, names) -> dict:
    units, control = dict(base["units"]), {k: list(v) for k, v in base.get("control", {}).items()}
    for name in names:
        units.update(awards[name].get("units", {}))
        for side, other in (("japanese", "allied"), ("allied", "japanese")):
            for h in awards[name].get(side, []):
                control.setdefault(side, []).append(h)
                if h in control.get(other, []):
                    control[other].remove(h)
    out = {k: v for k, v in base.items() if k not in ("units", "control")}
    if any(control.values()):
        out["control"] = {k: sorted(set(v)) for k, v in control.items() if v}
    return {**out, "units": units}


def points_no_causeway(vp: int, winner: str | None) -> End:
    base = position(9, "X", {"jp-cea-3div": "1901", "cn-reg-05": "2612"}, causeway=False)
    names = list(AWARDS_42)[:vp]
    return End(f"4.2-{vp}-vp", "Ichi-Go 4.2", winner, _with_awards(base, AWARDS_42, names), PLACE_AND_END,
               seed=13, reason_has=(f": {vp} Japanese VP (", *(names or ["(none)"])), log=REINFORCEMENT_ROLL)


POINTS_NO_CAUSEWAY = [points_no_causeway(0, "allied"), points_no_causeway(1, "allied"),
                      points_no_causeway(2, None), points_no_causeway(3, "japanese"),
                      points_no_causeway(5, "japanese")]


# -- 4.3: the end of Turn 12 after Causeway, on points ------------------------------------------------------
# Turn 12, Chinese reinforcement phase, the same three orders. US divisions hold both beachheads (3221 on
# Formosa, 2818 on the mainland); the base scores 0: a Japanese division on Formosa away from the beachhead
# (3218), the Japanese hold 1801, 0925, Shanghai and Wuhan, and nothing else counts. Awards and debits are added
# to reach each band and its boundaries (0|1, 1|2); the extremes count every award and every debit.
AWARDS_43 = {
    "+1 Japanese adjacent to the formosa beachhead": {"units": {"jp-fg-12div": "3222"}},
    "+1 Chungking Japanese": {"japanese": ["0712"]},
    "+1 Japanese adjacent to the mainland beachhead": {"units": {"jp-cea-3div": "2817"}},
    "+1 all GEARR Japanese": {"japanese": GEARR},
}
DEBITS_43 = {
    "-1 no Japanese on Formosa": {"units": {"jp-fg-9div": "2312"}},
    "-1 Allies control 1801": {"allied": ["1801"]},
    "-1 Allies control 0925": {"allied": ["0925"]},
    "-1 Allies control Shanghai or Wuhan": {"allied": ["2008"]},
}


def points_causeway(vp: int, winner: str | None) -> End:
    base = position(12, "X", {"jp-fg-9div": "3218", "jp-cea-3div": "1901", "us-6th": "3221", "us-7th": "2818",
                              "cn-reg-05": "0716"}, causeway=True, beachheads={"formosa": "3221", "mainland": "2818"},
                    control={"japanese": ["1801"]})
    names = list(AWARDS_43)[:vp] if vp >= 0 else list(DEBITS_43)[:-vp]
    return End(f"4.3-{vp}-vp", "Ichi-Go 4.3", winner, _with_awards(base, {**AWARDS_43, **DEBITS_43}, names),
               PLACE_AND_END, seed=13, reason_has=(f": {vp} Japanese VP (", *(names or ["(none)"])),
               log=REINFORCEMENT_ROLL)


POINTS_CAUSEWAY = [points_causeway(-4, "allied"), points_causeway(0, "allied"), points_causeway(1, None),
                   points_causeway(2, "japanese"), points_causeway(4, "japanese")]


# -- 4.4: the Japanese take a US beachhead (Causeway launched) ----------------------------------------------
# Formosa, Turn 7: the US division landed at Takao-Tainan 3221 has pushed inland to 3220 and left the port
# empty; a Formosa Garrison division next to it walks in. The mainland, Turn 9: six Japanese divisions attack
# the reduced US division holding the mainland beachhead 2818 (24:2, >=10:1 less city, naval gunfire and
# attenuated supply: 7:1, where every die eliminates it and costs the attacker nothing) and advance into it.
BEACHHEAD_FORMOSA = End(
    "4.4-formosa-beachhead", "Ichi-Go 4.4", "japanese",
    position(7, "VI", {"jp-fg-9div": "3222", "us-6th": "3220"}, causeway=True, beachheads={"formosa": "3221"},
             plans={"japanese": "move-fight"}, control={"allied": ["3221"]}),
    (("japanese", "move jp-fg-9div to 3221"),),
    reason_has=("the Japanese control the US beachhead 3221",))

BEACHHEAD_MAINLAND = End(
    "4.4-mainland-beachhead", "Ichi-Go 4.4", "japanese",
    position(9, "VI", {"jp-cea-3div": "2817", "jp-cea-13div": "2817", "jp-cea-26div": "2817",
                       "jp-cea-37div": "2718", "jp-cea-62div": "2718", "jp-cea-116div": "2718",
                       "us-6th": "3221", "us-7th": "2818"},
             causeway=True, beachheads={"formosa": "3221", "mainland": "2818"}, plans={"japanese": "fight-move"},
             steps={"us-7th": 1}),
    (("japanese", "attack 2818 with jp-cea-3div jp-cea-13div jp-cea-26div jp-cea-37div jp-cea-62div "
                  "jp-cea-116div"),
     ("japanese", "advance jp-cea-3div")),
    reason_has=("the Japanese control the US beachhead 2818",))

# -- 4.5: the Allies hold Shanghai and Wuhan at once ---------------------------------------------------------
# Without Causeway, Turn 5: a Chinese army holds Shanghai 3106; four Chinese armies attack the intrinsic
# garrison of Wuhan 2008 (11.29) at 18:1 (9:1 after the city shift: every die destroys it), lose the one step
# the Chinese always lose (11.23) and advance. Chinese regulars named in a position get counter handles C01,
# C02, ... in the order of their data ids (docs/custom-positions.md): cn-reg-02 is C01, cn-reg-07 C02, cn-reg-33
# C03, cn-reg-57 C04, cn-reg-60 C05.
# After Causeway, Turn 10: a Chinese army holds Wuhan; two US divisions attack the reduced Japanese 61st Division
# in Shanghai, the Japanese commit a tank regiment to the defence (11.17): 12:1, city 1L, naval gunfire 1R, tank
# 1L -> 9:1, where every die eliminates the division at no cost; the US advance.
SHANGHAI_WUHAN_CHINESE = End(
    "4.5-chinese-take-wuhan", "Ichi-Go 4.5", "allied",
    position(5, "VIII", {"cn-reg-02": "1908", "cn-reg-07": "1908", "cn-reg-33": "2109", "cn-reg-57": "2109",
                         "cn-reg-60": "3106", "jp-cea-3div": "1901"},
             plans={"japanese": "move-fight", "chinese": "fight-move"}),
    (("allied", "attack 2008 with C01 C02 C03 C04"), ("allied", "lose C04"), ("allied", "advance C01 C02")),
    reason_has=("the Allies hold Shanghai and Wuhan at once",))

SHANGHAI_WUHAN_US = End(
    "4.5-us-take-shanghai", "Ichi-Go 4.5", "allied",
    position(10, "II", {"us-6th": "3107", "us-7th": "3107", "us-24th": "3221", "us-25th": "2818",
                        "jp-cea-61div": "3106", "cn-reg-05": "2008"},
             causeway=True, beachheads={"formosa": "3221", "mainland": "2818"}, plans={"us": "fight-move"},
             steps={"jp-cea-61div": 1}),
    (("allied", "attack 3106 with us-6th us-7th"), ("japanese", "commit 1"), ("allied", "advance us-6th")),
    reason_has=("the Allies hold Shanghai and Wuhan at once",))

ENDS = [COLLAPSE, *POINTS_NO_CAUSEWAY, *POINTS_CAUSEWAY, BEACHHEAD_FORMOSA, BEACHHEAD_MAINLAND,
        SHANGHAI_WUHAN_CHINESE, SHANGHAI_WUHAN_US]
