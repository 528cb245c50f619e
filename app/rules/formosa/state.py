"""Operation Causeway: Formosa 1944 state: where every counter is, each side's LP, air and naval points and
invasion markers, the turn and step, the set-up still owed, and the combat under way; with the queries the
rules ask of a position (who is in a hex, zones of control, stacking). Hexes are XXYY strings.

A ground unit is `where`: a hex label on the map, or a display of displays.toml ("allied-staging", "amoy",
"allied-reinforcements", "japanese-replacements", "allied-eliminated" ...), or "out" (not in this game: banned
(24.2), set aside after set-up (3.0, 8.2), an optional rule not chosen (25.0), a deception unit revealed (11.1)).
Air and naval points are counted, not tracked as counters (2.5: "points, not counters").
"""
from __future__ import annotations

from dataclasses import dataclass, field

from app.rules.engine.state import SequencedState, replace
from app.rules.formosa import supply
from app.rules.kernel.hexgrid import Hex
from app.rules.kernel.paths import TraceSituation
from app.rules.kernel.pieces import Piece
from app.rules.kernel.stacking import overstacked
from app.rules.kernel.zoc import zoc_of_side

SIDES = ("allied", "japanese")
OUT = "out"
# 2: a side's strike plan is one order, `plan` (ruling F70: its orders cannot be counted); a game created under 1
#    plans as it did, `assign` a mission at a time and `end` (`played_under`)
# 3: an over-stacked hex loses the fewest units, a static one only when no mobile one would do (F101); a game
#    created under 1 or 2 removes any unit its player names (F102)
# 4: departures from the text found by checking the engine against the rulebook, each decided as played in a game
#    created under 1-3 (ruling F105): a guerrilla's attack is not widened by 15.1 (23.0); units in Amoy transfer
#    by sea (9.0, 21.0); a naval transfer keeps the stacking limits (21.0 item 1);
#    no other Allied air unit joins the B-29 in its hex (13.1); LP received after the Logistics Phase are spent
#    from the next GT on (7.2); the B-29's shift is not given to an assault of the Invasion Phase (16.5);
#    an Allied deployment keeps the stacking limits (8.1); the PW Camp makes no counterattack (25.10);
#    a drop zone may share a hex with an amphibious marker (10.1); two Allied TAC points a hex across missions (13.1)
#    a defender that retreated is not attacked again in the phase (15.0); a B-29 D1 takes a combat unit (16.5);
#    units one result eliminates are sent by their lines on the position the result found (8.3)
# 5: further departures from the text, each decided as played in a game created under 1-4 (ruling F108): the
#    stacks at sea that assault a hex are the Allied player's choice (10.2.2); a replaced unit not deployed goes
#    back to the Replacements Display (8.1, 11.2); naval transfer may go to a fallen Amoy (9.0, 21.0); air supply
#    is placed on the defending hexes, never with the B-29 (19.4, 13.1); amphibious markers a Decisive Battle
#    barred are kept for a later GT (18.0 b)); units that made an amphibious invasion must attack the adjacent
#    Japanese units in the ensuing Combat Phase, ZOC or not (10.2.1, 10.2.2); a special landing keeps the stacking
#    limits (8.1, 25.7, 25.8)
# 6: issue 30's third fidelity pass (ruling F112), each decided as played in a game created under 1-5: an Allied
#    engineer base traces its line with its base side's movement factor, none (19.1, 2.4)
# 7: ruling F113: the Allied recruits deployed in the Staging Area or Amoy leave the units to place when the Allied
#    Recruit Phase ends (8.1); the view changes, and with it what an automated seat draws (a game created under 1-6
#    shows the list it was played with)
# 8: ruling F114: a loss order naming the PW Camp before the other units of its hex is refused (25.10); a game
#    created under 1-7 took it as named
# 9: ruling F115: terrain restrictions apply to deployment (8.1, 12.3 Important): a mechanized unit is set up in
#    mountain or peak only on a road or railroad, and moves there by naval transfer if one runs through the hex
#    (21.0); ruling F116: an Allied air point is never placed on a hex holding the other nation's ground units
#    (13.1); a game created under 1-8 is decided as played
# 10: ruling F117: the US air supply unit supports only a combat a US unit takes part in (5.1 item 3), and never
#    a defence of a hex Commonwealth units hold (13.1, F116); the list of legal orders changes, so a game created
#    under 1-9 is decided and listed as played; ruling F120: a mechanized unit is neither deployed nor landed in a
#    mountain or peak hex without a road (8.1, 10.1, 12.2: a custom map's mountain port)
# 11: ruling F121: an Allied ground unit does not end a retreat (it retreats a hex more, 15.7 item 3) or an advance
#    (refused, 15.8.1) in a hex holding the other Allied nation's air points (13.1, 5.1 item 1, F116); the
#    retreat and advance lists change, so a game created under 1-10 is decided and listed as played
# 12: ruling F123: a counterattack's defenders are the former attackers of the hex it falls on (15.6), not every
#    unit there (one that attacked earlier and advanced in, the PW Camp beside Japanese attackers); a game created
#    under 1-11 is decided as played
# 13: ruling F125: the list of legal orders names every unit that may make a naval transfer or be recruited,
#    replaced or deployed, and a unit's orders (`orders for UNIT`, the play page) every such order it may be given
#    (8.1-8.3, 21.0; sequence.more_orders); the list changes, and
#    with it what greedy and search choose from, so a game created under 1-12 is listed and decided as played
# 14: ruling F128: the listed landings (10.1, 10.2) offer a stack carrying an engineer, beside the first four units
#    ready (engineer ids sorted after every regiment, so no listed landing carried one); the list changes, and with
#    it what the random player draws and greedy and search choose from, so a game created under 1-13 is listed and
#    decided as played
# 15: ruling F129: the Japanese view no longer lists the Allied recruits still to deploy (11.0: hidden in the
#    Staging Area and Amoy as every unit there); an automated seat draws from its side's view, so a game created
#    under 1-14 shows and decides as played
# 16: ruling F131: the listed landings offer the Commonwealth's units ready too (in stacks of their own, 13.1), and
#    the listed interdiction every hex holding Japanese units or next to them, with one or two points (16.1: any
#    hex of the map); the list changes, and with it what the random player draws and greedy and search choose
#    from, so a game created under 1-15 is listed and decided as played; ruling F132: a sortie given before the
#    kamikaze roll is refused by the rule that forbids it (18.0 on GT 1 or without the marker, else 16.6), not by
#    the sequence (6.1); ruling F133: an order the rules reserve to the other side (interdiction, B-29, invasions,
#    naval transfer, bases, motorized movement, air transport; the fleet, the raiders, the Fortified reveal; ground
#    support in defence) is refused by the case that reserves it; ruling F134: the PW Camp's attack is refused by
#    25.10
# 17: ruling F135: a position's [counterattack] stands only where the CA waits for the counterattacking player's
#    choice of hex (15.6): the attackers in one hex (the counterattack falls on it at once) or a CA against the PW
#    Camp alone (no counterattack, 25.10, F105) is refused; a game created under 1-16 with such a position opens
#    with the choice as it was played; ruling F137: a `remove` (13.3) naming a unit twice is refused, not read once
# 18: ruling F138: a B-29 D1 that leaves no Japanese unit in its hex suppresses nothing (16.5: the DS falls on the
#    survivors), so Japanese units may enter the empty hex; ruling F139: a Japanese line of supply goes to a coastal
#    defense or heavy weapons unit only (19.3), never to the PW Camp; ruling F140: an Allied unit retreats toward
#    the supply sources it could trace to (15.7 item 4, 5.1 item 4): ports and the HQs of its own nationality, not
#    itself; ruling F141: 25.2's battlefield LP count no engineer eliminated on its base (static) side; ruling
#    F142: a 6th Marine regiment in the Replacements Display is replaced as any unit (8.2, 8.3), not refused by 24.1
# 19: ruling F147: the list of legal orders and a unit's orders offer every hex of a minimum move (12.3: a one-hex
#    move spending the whole allowance) and every move of a unit whose moves all end next to it, not only each
#    unit's nearest and farthest destination; the list changes, and with it what greedy and search choose from, so
#    a game created under 1-18 is listed and decided as played; ruling F148: the 97th Infantry Division (25.5) is a
#    reinforcement, recruited from the Recruit Phase of GT 2 on, never at set-up (8.0); ruling F149: a drop from a
#    port on Formosa is refused naming 10.3 (with ruling F40), not the ruling alone; ruling F150: the list offers
#    ground support on every hex it may take, with one or two points (16.3), and a B-29 strike on every hex holding
#    Japanese units (16.5); ruling F151: every set of losses a result allows (15.5), not the first six; ruling
#    F152: a drop on every airfield free of the enemy (10.1, 10.3); ruling F154: the reconnaissance's reveal of
#    each concealed stack alone (24.1); the lists change, so a game created under 1-18 is listed and decided as
#    played
# 20: ruling F155: the list of legal orders and the orders naming a hex or unit offer each attack, exploitation
#    attack and assault with each set of the optional extras the side holds (naval gunfire US and Commonwealth, LP,
#    air supply: 15.4.1, 17.0, 19.4), each assault by every set of the stacks at sea next to its hex (10.2.2), and
#    each answer the defender may give (`defend`); ruling F156: the reconnaissance's reveal of several stacks
#    together (24.1), every set of each size while they are few, and the Japanese player's reveal of each
#    concealed unit and each concealed stack (11.2); ruling F157: every attack the units may declare (15.0, 15.1):
#    each set of enemy hexes next to a stack, by every set of the stacks next to them; ruling F158: every split
#    of an air superiority loss (16.2, CF-11) and of the kamikaze hits (16.6); ruling F159: at set-up every
#    pick of a set-up group (3.0), every recruit, every kind of points or markers bought (7.3, also in the
#    Recruit Phase) and every unit to place; the lists change, so a game created under 1-19 is listed and decided
#    as played; ruling F160: Japanese naval gunfire is refused naming 17.0 (with ruling F18), not the ruling alone;
#    ruling F161: every exploitation attack (25.1): any units of a stack of the force on any of its enemy hexes;
#    ruling F162: every airlift (25.3) and every hex of the Marine Brigade's and the Raiders' landings (25.7, 25.8)
# 21 ruling F164: the score both players read (4.2 as it would count now) holds the VP the optional rules add at the
#    end (25.5's 97th, 25.10's camp on the map and the VP it earned in play); the view, so the automated seats' seed,
#    changes in a game with 25.5 or 25.10, so a game created under 1-20 shows the score it was played with; ruling
#    F165: every invasion marker and its units are placed before the first assault of the Invasion Phase (10.1), a
#    `land` or `drop` after one is refused, and no longer listed; ruling F166: an `end` before the roll 9.1, 16.2,
#    16.6 or 24.1 orders is refused naming that case, not 6.1; ruling F167: an order given in a phase that never
#    takes it names the case that puts it in its phase (`sequence.WHEN`), not 6.1
# 22 ruling F168: a defence of 0 (a position's [values]) is odds above the top column, 15.3 item 2's >=700%, not 1
#    factor's 300% (combat, the preview, the automated seats' search); a game created under 1-21 reads it as played
#    ruling F169: an order answering a decision, or of the set-up, given where none is owed names the case of its
#    moment (`sequence.AT_ITS_MOMENT`), not 6.1; a game created under 1-21 names 6.1 as played
#    ruling F170: a unit set up off Formosa is refused naming 24.1 with ruling F33, not the ruling alone
# 23 ruling F171: the score both players read names the level of victory it gives (4.2's table); the view, so the
#    automated seats' seed, changes, so a game created under 1-22 shows the score it was played with; ruling F172:
#    a position places an Allied static unit (a US heavy weapons group) nowhere on the map (13.1, 8.1 item 2 c,
#    10.2, 21.0); a game created under 1-22 read its position with F118's port hexes; ruling F173: an amphibious
#    assault spends no LP (10.2.2 "but not ground attack", the charts' Ground Attack Shift), refused and unlisted;
#    a game created under 1-22 spends them as played
RULES_VERSION = 23
JAPANESE_SOURCES = ("coastal-defense", "heavy-weapons")  # 19.3 (ruling F139)
H = Hex.parse


def created_under(version: str | None) -> int:
    """The rules version of a game whose creation recorded `version` (core.GameCreated.rules_version): "" for a game
    created before versions were recorded (1), None for a new game (RULES_VERSION)."""
    return RULES_VERSION if version is None else int(version) if version else 1


def other(side: str) -> str:
    return "japanese" if side == "allied" else "allied"


@dataclass(frozen=True)
class Unit:
    """A ground counter. `concealed`: a Japanese unit on its question-mark side (11.1); `base`: an Allied
    engineer on its base side (20.0); `moved`/`attacked`: this phase; `pinned`: landed, dropped or transferred
    this turn, so it may not move in the Allied Movement Phase (10.2.1, 10.2.2, 10.3, 21.0)."""

    id: str
    side: str
    where: str
    concealed: bool = False
    base: bool = False
    moved: bool = False
    attacked: bool = False
    pinned: bool = False
    motorized: bool = False   # moving by Allied motorized movement this phase (22.0)
    landed: bool = False      # made an amphibious invasion this GT: attacks adjacent Japanese units (10.2.1, 10.2.2)


@dataclass(frozen=True)
class Combat:
    """The combat under way while its results wait for the players' choices (15.5-15.8): who attacked which
    hexes with which units, the result code, the hexes it cleared, and how far the survivors may advance."""

    attacker: str
    hexes: tuple[str, ...]
    attackers: tuple[str, ...]
    defenders: tuple[str, ...]
    code: str
    counterattack: bool = False
    assault: str = ""                   # an opposed landing's coastal hex (10.2.2): the survivors must advance
    advance: int = 0                    # hexes the attacker's survivors may advance (15.8)
    cleared: tuple[str, ...] = ()       # defending hexes left empty: where an advance may go
    offered: bool = False               # the advance has been offered (15.8)
    advanced: tuple[str, ...] = ()      # units that have advanced
    bases: tuple[str, ...] = ()         # defenders on their engineer base side (static, 2.4) when the result fell


@dataclass(frozen=True)
class Strike:
    """This GT's air and naval missions (16.0-16.6, 17.0, 18.0; app/rules/formosa/airpower.py): the points each
    side assigned in Strike Planning by mission ("tactical"; a Commonwealth mission is "cw-tactical"), secret
    until `revealed` (16.1); air superiority losses still owed; ground support and interdiction placed on the
    map as (side, hex, nationality, points); hexes a B-29 suppressed; the special attacks made; the attack
    waiting for the defender's LP and gunfire (F22, F18). All of it but `fleet_used` ends at the Air Return
    Phase (6.1)."""

    missions: dict[str, dict[str, int]] = field(default_factory=dict)
    revealed: bool = False
    losses_due: dict[str, int] = field(default_factory=dict)
    support: tuple[tuple[str, str, str, int], ...] = ()
    interdicted: tuple[tuple[str, str, int], ...] = ()
    suppressed: tuple[str, ...] = ()
    b29_used: bool = False
    kamikaze_done: bool = False
    gunfire_withdrawn: bool = False    # 18.0 Indecisive Action or Decisive Battle
    amphibious_barred: bool = False    # 18.0 Decisive Battle
    fleet_used: bool = False           # 18.0: once per game
    declared: dict | None = None       # an attack waiting for the defender's answer
    flown: tuple[tuple[str, str], ...] = ()  # (side, hex) whose ground support has flown its combat (16.3, F86)
    b29_hex: str = ""                  # the hex the B-29 struck: it stays there until the Air Return (16.5)


@dataclass(frozen=True, kw_only=True)
class State(SequencedState):
    scenario: int
    turn: int
    step: str
    units: dict[str, Unit]
    lp: dict[str, int] = field(default_factory=lambda: {"allied": 0, "japanese": 0})
    lp_due: dict[str, int] = field(default_factory=dict)      # received after this GT's Logistics Phase: on the
                                                              # track at the next one (7.2; 25.2)
    air: dict[str, int] = field(default_factory=dict)        # "allied-tac", "japanese-tac", "kamikaze", ...
    naval: dict[str, int] = field(default_factory=dict)      # "gunfire" in the Staging Area (17.0)
    markers: dict[str, int] = field(default_factory=dict)    # "amphibious", "drop-zone" ready to place (10.0)
    amoy_turn: int | None = None                               # the GT Amoy was captured (9.1)
    setup_rolled: bool = False                                 # the Japanese set-up roll is made (24.1)
    to_place: tuple[str, ...] = ()                             # Japanese units still to set up on Formosa
    chosen: dict[str, tuple[str, ...]] = field(default_factory=dict)  # set-up group key -> units chosen
    recon: int = 0                                             # stacks the Allied player may still reveal
    used_hexes: tuple[str, ...] = ()                           # invasion marker hexes this phase (10.1)
    amphibious: tuple[str, ...] = ()                           # amphibious marker hexes this phase (19.2)
    air_supply_turn: int | None = None                         # the GT the air supply unit last served (19.4)
    kamikaze_spent: int = 0                                    # kamikaze points that attacked: gone (2.5, 8.4)
    attacked_hexes: tuple[str, ...] = ()                       # defending hexes attacked this phase (15.0)
    defended: tuple[str, ...] = ()                             # the units those attacks fell on (15.0: once)
    combat: Combat | None = None
    vp_adjust: dict[str, int] = field(default_factory=dict)
    strike: Strike = field(default_factory=Strike)
    # the optional rules (25.0; optional.py)
    special_ready: tuple[str, ...] = ()     # 25.7, 25.8: recruited at set-up, waiting in the Reinforcements Display
    replaced_now: tuple[str, ...] = ()      # 25.4: units replaced (not recruited) this Recruit Phase
    airlifted: tuple[str, ...] = ()         # 25.3: units flown in this Allied Movement Phase (one MP spent)
    airlift_turn: int = 0                   # 25.3: the GT the air supply marker last flew a unit
    pw_camp_lost: str = ""                  # 25.10: the hex where ground combat eliminated the PW Camp
    rules_version: int = RULES_VERSION      # the rules version the game is played under (RULES_VERSION)

    # -- who acts ------------------------------------------------------------------------------------------
    @property
    def side(self) -> str | None:
        step = self.step
        if "japanese" in step:
            return "japanese"
        if step == "over":
            return None
        return "allied"

    def since(self, version: int) -> bool:
        """Is the game played under rules `version` or later? (Ruling F102: an older game is decided as played.)"""
        return self.rules_version >= version

    # -- where things are ----------------------------------------------------------------------------------
    def unit(self, uid: str) -> Unit | None:
        return self.units.get(uid)

    def spec(self, uid: str):
        return self.data.unit(uid)

    def on_map(self, side: str | None = None) -> list[Unit]:
        return list(self.memo(("on map", side), lambda: sorted(
            (u for u in self.units.values() if is_hex(u.where) and (side is None or u.side == side)),
            key=lambda u: u.id)))

    def at(self, hex_label: str, side: str | None = None) -> list[Unit]:
        """The units in a hex, by id (once per position: the list of legal orders asks hundreds of times)."""
        by_hex = self.memo(("at", side), lambda: _by_hex(self.on_map(side)))
        return list(by_hex.get(hex_label, ()))

    def in_display(self, display: str) -> list[Unit]:
        return sorted((u for u in self.units.values() if u.where == display), key=lambda u: u.id)

    def occupied(self, side: str) -> frozenset[str]:
        return frozenset(u.where for u in self.on_map(side))

    def is_static(self, u: Unit) -> bool:
        """An Allied engineer on its base side is static (2.4); so are the static types."""
        return u.base or self.spec(u.id).static

    def cf(self, u: Unit) -> int:
        """The printed combat factor of the side showing: an Allied engineer's base side has its own (20.0)."""
        spec = self.spec(u.id)
        return spec.base_cf if u.base and spec.base_cf is not None else spec.cf

    def piece(self, u: Unit) -> Piece:
        spec = self.spec(u.id)
        tags = {spec.type}
        tags.add("static" if self.is_static(u) else "mobile")
        return Piece(u.id, u.side, kind=spec.type, category="ground", nationality=spec.nationality,
                     move_class=spec.mobility, tags=frozenset(tags))

    def positions(self) -> dict[Hex, list[Piece]]:
        out: dict[Hex, list[Piece]] = {}
        for u in self.on_map():
            out.setdefault(H(u.where), []).append(self.piece(u))
        return out

    def zoc_of(self, side: str) -> frozenset[str]:
        """Hexes in the ZOC of `side`'s ground units (14.0; guerrillas exert none, F1); concealed and deception
        units exert one until revealed (11.1, 14.0); Japanese units in a hex a B-29 suppressed exert none (16.5 DS
        item 1: an Allied unit that later enters the hex does), nor do units at sea on an amphibious marker (ruling
        F81)."""
        def compute():
            exerting = {}
            for h, ps in self.positions().items():
                if str(h) in self.strike.suppressed:
                    ps = [p for p in ps if p.side != "japanese"]
                if ps and self.data.is_land(h):
                    exerting[h] = ps
            return frozenset(str(h) for h in zoc_of_side(self.data.map, exerting, side, self.data.zoc))

        return self.memo(("zoc", side), compute)

    def at_sea(self, u: Unit) -> bool:
        """On an amphibious marker in an all-sea hex, waiting to assault (10.1 item 3, 10.2.2)."""
        return is_hex(u.where) and not self.data.is_land(H(u.where))

    def would_overstack(self, hex_label: str, side: str, adding: list[str]) -> list:
        """The stacking problems (13.1, 13.2) of `hex_label` with the units `adding` put in it too."""
        pieces = [self.piece(u) for u in self.at(hex_label, side) if u.id not in adding]
        return overstacked(pieces + [self.piece(self.units[i]) for i in adding], self.data.stacking, H(hex_label))

    def still_overstacked(self, hex_label: str, side: str, removing: tuple[str, ...]) -> bool:
        """Whether `hex_label` breaks `side`'s ground stacking limits (13.1, 13.2) once `removing` is taken out."""
        pieces = [self.piece(u) for u in self.at(hex_label, side) if u.id not in removing]
        return bool(overstacked(pieces, self.data.stacking, H(hex_label)))

    def overstacked(self, side: str) -> list[str]:
        """Hexes where `side` breaks its ground stacking limits (13.1, 13.2), by label."""
        out = []
        for h in sorted(self.occupied(side)):
            pieces = [self.piece(u) for u in self.at(h, side)]
            if overstacked(pieces, self.data.stacking, H(h)):
                out.append(h)
        return out

    # -- supply (19.0-19.3) -----------------------------------------------------------------------------------
    def functional_ports(self) -> list[str]:
        """Ports with an Allied engineer base (20.0)."""
        ports = self.data.ports()
        return sorted(u.where for u in self.on_map("allied") if u.base and H(u.where) in ports)

    def trace_situation(self, side: str) -> TraceSituation:
        """What blocks `side`'s lines of supply: enemy units and enemy ZOC (19.0 items 2-3, 14.3)."""
        enemy = other(side)
        return TraceSituation(enemy_occupied=frozenset(H(h) for h in self.occupied(enemy)),
                              ezoc=frozenset(H(h) for h in self.zoc_of(enemy)))

    def allied_hqs(self) -> list[supply.Hq]:
        return [supply.Hq(H(x.where), self.spec(x.id).nationality, self.spec(x.id).mf)
                for x in self.on_map("allied") if self.spec(x.id).type == "hq" and not self.at_sea(x)]

    def japanese_source(self, u: Unit) -> bool:
        """19.3: a Japanese supply source is a coastal defense or heavy weapons unit, never the PW Camp (since rules
        version 18, ruling F139; before, any Japanese static unit)."""
        return self.spec(u.id).type in JAPANESE_SOURCES if self.since(18) else self.is_static(u)

    def supply_sources(self, side: str, unit: Unit | None = None) -> frozenset[Hex]:
        """Where `side`'s supply comes from on the map (ruling F61): the functional ports and the HQs that trace
        to one (19.2); every Japanese coastal defense and heavy weapons unit, revealed or not (19.3, F139). For an
        Allied `unit` (since rules version 18, ruling F140) only the HQs it could trace to: of its nationality (5.1
        item 4), not itself."""
        if side == "allied":
            hqs = self.allied_hqs()
            if unit is not None and self.since(18):
                nat = self.spec(unit.id).nationality
                own = H(unit.where) if self.spec(unit.id).type == "hq" and is_hex(unit.where) else None
                hqs = [hq for hq in hqs if hq.nationality == nat and hq.hex != own]
            return supply.allied_sources(self.data, [H(p) for p in self.functional_ports()], hqs,
                                         self.trace_situation("allied"))
        return frozenset(H(x.where) for x in self.on_map("japanese") if self.japanese_source(x))

    def supply_line(self, u: Unit):
        """`u`'s line of supply (19.1-19.3; supply.py), or None. Guerrillas need none (23.0) and static units are
        sources, never tracing (F37): both count as supplied. A Japanese line goes to a revealed static unit if
        one is in reach, else to a concealed one, which the line reveals (19.3, ruling F82: `lines.py`); an
        amphibious marker supplies its hex during the Invasion Phase (19.2)."""
        spec = self.spec(u.id)
        if spec.type == "guerrilla" or (u.side == "japanese" and self.is_static(u)):
            return True
        sit = self.trace_situation(u.side)
        if u.side == "allied":
            # 19.1, 2.4 (ruling F112, rules version 6): a base's printed side is static, no movement factor
            mf = 0 if u.base and self.since(6) else spec.mf
            return supply.allied_line(self.data, H(u.where), spec.mobility, mf, spec.nationality,
                                      ports=[H(p) for p in self.functional_ports()], hqs=self.allied_hqs(),
                                      sit=sit, markers=[H(h) for h in self.amphibious])
        statics = [x for x in self.on_map("japanese") if self.japanese_source(x)]
        for sources in ([x for x in statics if not x.concealed], statics):
            line = supply.japanese_line(self.data, H(u.where), spec.mobility, spec.mf,
                                        statics=[H(x.where) for x in sources], sit=sit)
            if line:
                return line
        return None

    def with_units(self, *units: Unit) -> State:
        table = dict(self.units)
        for u in units:
            table[u.id] = u
        return replace(self, units=table)

    def move(self, uid: str, where: str, **changes) -> State:
        return self.with_units(replace(self.units[uid], where=where, **changes))


def is_hex(where: str) -> bool:
    """A place on the map (XXYY), not a display."""
    return len(where) == 4 and where.isdigit()


def _by_hex(units: list[Unit]) -> dict[str, list[Unit]]:
    out: dict[str, list[Unit]] = {}
    for u in units:
        out.setdefault(u.where, []).append(u)
    return out
