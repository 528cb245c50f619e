"""Rules version 19 (issue 30, session part 14): a fresh reading of the rulebook, its cases probed through what a
player uses (orders, the list of legal orders, a unit's orders, view, refusals) with positions.

- 12.3 (ruling F147): a unit that can move only one hex, whatever the terrain, may end its move in any hex next to
  it it may enter; the list offered the nearest and the farthest only, so a player picking from it (or from a
  unit's orders by email or on the play page) and every automated seat reading it reached two of six; and a unit
  that may go further elsewhere was not offered the hex its minimum move enters;
- 25.5 with 8.0 (ruling F148): the 97th Infantry Division is selected "as a reinforcement", and reinforcements are
  recruited after the initial set-up; the engine sold it during the Allied set-up."""
from __future__ import annotations

from dataclasses import replace

from formosa_given import given, of, play, refused, when
from formosa_map import D, M, position, ring

from app.rules import legal
from app.rules.formosa import GAME, played_under
from app.rules.formosa.airpower import AirPlaced
from app.rules.formosa.events import UnitEliminated, UnitMoved, UnitRecruited, UnitsLanded
from app.rules.formosa.state import Strike
from app.rules.kernel.hexgrid import Hex

H = Hex.parse


def _mountain_pocket() -> tuple[str, list[str]]:
    """A mountain or peak hex ringed by land whose every neighbour costs a foot unit more than the 2 MP a 4-MP unit
    would have left after it: a revealed guard unit (2-4) there moves one hex at most, by 12.3 or exactly."""
    from app.rules.kernel.movement import Mover, step_cost

    def cost(a: Hex, b: Hex) -> float:
        try:
            return step_cost(M, D.movement, Mover.single(a, 99, "non-mechanized"), a, b)
        except Exception:
            return 99

    for h in sorted(M.hexes()):
        ring = list(M.neighbours(h))
        if M.terrain_of(h) in ("mountain", "peak") and len(ring) == 6 and all(D.is_land(n) for n in ring) and all(
                cost(h, n) >= 3 and all(cost(n, m) > 4 - cost(h, n) for m in M.neighbours(n) if D.is_land(m))
                for n in ring):
            return str(h), sorted(str(n) for n in ring)
    raise LookupError("no mountain pocket")


POCKET, AROUND = _mountain_pocket()


def _moves(state) -> set[str]:
    return {o["order"] for o in legal.naming(GAME, state, "japanese", "jp-guard-1")}


def test_12_3_the_list_offers_every_hex_of_a_minimum_move_f147():
    state = given(step="japanese-movement", units={"jp-guard-1": POCKET})
    for n in AROUND:  # typed, each is accepted: one hex, whatever its cost
        [moved] = of(when(state, "japanese", f"move jp-guard-1 {n}"), UnitMoved)
        assert moved.path == [POCKET, n]
    every = {f"move jp-guard-1 {n}" for n in AROUND}
    assert _moves(state) == every  # the unit's orders (email `orders for`, the play page)
    assert every <= {o["order"] for o in GAME.legal_orders(state, "japanese")}  # and the list
    old = played_under(state, "18")  # ruling F147: a game created under 1-18 is listed as played
    assert len(_moves(old)) == 2 and _moves(old) < every


def test_12_3_16_4_a_unit_that_may_go_further_is_offered_the_hex_its_minimum_move_enters_f147():
    # F146's place: a revealed guard (4 MP) in the open beside a peak (4 MP) one interdiction point makes 5: it
    # enters the peak by 12.3 only, and may walk several open hexes the other way
    peak, start = next((str(p), str(n)) for p in sorted(M.hexes()) if M.terrain_of(p) == "peak"
                       and not M.is_road_hex(p) for n in M.neighbours(p)
                       if M.terrain_of(n) == "open" and not M.hexside_features(n, p))
    state = GAME.initial_state("1", {"position": position(
        phase="japanese-movement", units={"jp-guard-1": start}, revealed=["jp-guard-1"], bases=[], where={},
        missions={"allied": {"interdiction": 1}}, interdiction={peak: 1})})
    order = f"move jp-guard-1 {peak}"
    assert of(when(state, "japanese", order), UnitMoved)
    assert order in _moves(state) and order in {o["order"] for o in GAME.legal_orders(state, "japanese")}
    assert order not in _moves(played_under(state, "18"))  # listed as played before version 19


NINETY_SEVENTH = ("us-97-303", "us-97-386", "us-97-387")


def test_25_5_8_0_the_97th_is_a_reinforcement_never_recruited_at_set_up_f148():
    # 25.5: "as a reinforcement"; 8.0: reinforcements are recruited after initial set-up, from GT 2's Recruit Phase
    def at(step: str, turn: int):
        return replace(given(step=step, turn=turn, units=dict.fromkeys(NINETY_SEVENTH, "allied-reinforcements"),
                             lp={"allied": 30, "japanese": 0}), data=GAME.data({"optional": ["25.5"]}))

    order = "recruit " + " ".join(NINETY_SEVENTH)
    setup = at("setup-allied", 1)
    says = refused(setup, "allied", order, "Formosa 25.5")
    assert "reinforcement" in says and "set-up" in says
    assert of(when(at("recruit-allied", 2), "allied", order), UnitRecruited)  # GT 2 on, as before
    assert of(when(played_under(setup, "18"), "allied", order), UnitRecruited)  # ruling F148: as played before 19


def test_10_3_an_airborne_regiment_on_a_functional_port_does_not_drop_refused_naming_10_3_f149():
    # ruling F40: a drop starts where 10.2's landings do off the map (the Staging Area, Amoy); the refusal named the
    # ruling alone, not the case
    port = str(sorted(D.ports())[0])
    field = str(next(h for h in sorted(D.airfields()) if str(h) != port))
    state = given(step="invasion", units={"us-11ab-511": port, "us-eng-1": port, "us-11ab-187": "allied-staging"},
                  markers={"drop-zone": 1})
    state = state.with_units(replace(state.units["us-eng-1"], base=True))  # the port is functional (20.0)
    assert "drops from the Staging Area or Amoy" in refused(state, "allied", f"drop {field} with us-11ab-511",
                                                             "Formosa 10.3, ruling F40")
    refused(played_under(state, "18"), "allied", f"drop {field} with us-11ab-511", "Formosa ruling F40")
    assert of(when(state, "allied", f"drop {field} with us-11ab-187"), UnitsLanded)


def _orders(state, side: str, verb: str) -> set[str]:
    return {o["order"] for o in GAME.legal_orders(state, side) if o["order"].split()[0] == verb}


def test_16_3_the_list_offers_two_allied_ground_support_points_on_every_enemy_hex_next_to_allied_units_f150():
    # 16.3: two Allied points a hex (one Japanese); the list offered one point on each unit's first enemy neighbour
    x, around = ring("open")
    state = replace(given(step="allied-combat", units={"us-7-17": x, "jp-9-7": around[0], "jp-9-19": around[2]}),
                    strike=Strike(missions={"allied": {"tactical": 3}, "japanese": {}}), air={"allied-tac": 3})
    every = {f"support {h} {n}" for h in (around[0], around[2]) for n in (1, 2)}
    assert _orders(state, "allied", "support") == every
    for order in every:  # each accepted, as typed
        assert of(when(state, "allied", order), AirPlaced)
    assert _orders(played_under(state, "18"), "allied", "support") < every  # ruling F150: listed as played
    japanese = replace(given(step="japanese-combat", units={"us-7-17": x, "jp-9-7": around[0], "jp-9-19": around[2]}),
                       strike=Strike(missions={"japanese": {"tactical": 2}, "allied": {}}), air={"japanese-tac": 2})
    assert _orders(japanese, "japanese", "support") == {f"support {x} 1"}  # one Japanese point a hex (16.3)


def test_16_5_the_list_offers_the_b29_every_hex_holding_japanese_units_f150():
    held = {u.id: str(h) for u, h in zip([u for u in D.units if u.side == "japanese" and u.type == "infantry"],
                                         sorted(D.land())[::9][:12], strict=False)}
    state = replace(given(step="b29", units=held), strike=Strike(missions={"allied": {"b29": 1}, "japanese": {}}),
                    air={"b29": 1})
    every = {f"strike {h}" for h in held.values()}
    assert _orders(state, "allied", "strike") == every and len(every) == 12
    assert len(_orders(played_under(state, "18"), "allied", "strike")) < 12  # ruling F150: listed as played


def test_15_5_bb_the_list_offers_every_set_of_losses_that_pays_the_bloodbath_f151():
    # 15.5 BB: 23 Allied factors against 8 on the 300% column (the armor's A shift): the Japanese pair is
    # eliminated and the Allies name units of at least 8 factors with none to spare; ten such pairs, the list named six
    x, around = ring("open")
    attackers = ["us-1mar-1", "us-7-17", "us-7-32", "us-7-184", "us-armor-1"]
    units = {**dict.fromkeys(attackers[:3], around[0]), **dict.fromkeys(attackers[3:], around[1]),
             "jp-9-7": x, "jp-9-19": x}
    state = GAME.initial_state("1", {"position": position(
        phase="allied-combat", units=units, revealed=["jp-9-7", "jp-9-19"], bases=[], where={},
        lp={"allied": 0, "japanese": 0}, combat={"hexes": [x], "attackers": attackers, "result": "BB",
                                                 "stage": "losses"})})
    listed = _orders(state, "allied", "lose")
    assert len(listed) == 10 and "lose us-7-184 us-armor-1" in listed
    assert of(when(state, "allied", "lose us-7-184 us-armor-1"), UnitEliminated)
    assert "lose us-7-184 us-armor-1" not in _orders(played_under(state, "18"), "allied", "lose")  # as played


def test_10_1_10_3_the_list_offers_a_drop_on_every_airfield_free_of_the_enemy_f152():
    # 10.1: a drop zone on any airfield hex whatever its terrain (or any open hex); the list named the first three
    fields = sorted(str(h) for h in D.airfields())
    state = given(step="invasion", units={"us-11ab-511": "allied-staging", "us-11ab-187": "allied-staging",
                                          "jp-9-7": fields[0]}, markers={"drop-zone": 1})
    listed = _orders(state, "allied", "drop")
    assert {o.split()[1] for o in listed} == set(fields[1:])  # every airfield but the Japanese-held one
    assert f"drop {fields[-1]} with us-11ab-511" in listed  # a regiment alone, too
    assert of(when(state, "allied", f"drop {fields[-1]} with us-11ab-187 us-11ab-511"), UnitsLanded)
    assert {o.split()[1] for o in _orders(played_under(state, "18"), "allied", "drop")} < set(fields[1:])


def test_21_0_a_unit_that_landed_this_gt_transfers_by_sea_one_from_its_beach_f153():
    # 21.0 Important: a unit that made an amphibious invasion may use naval transfer in the phase that follows;
    # item 3: one unit leaves a coastal hex without a functional port
    from formosa_map import shore

    beach, _ = shore()
    state = given(step="invasion", units={"us-7-17": "allied-staging", "us-7-32": "allied-staging"},
                  markers={"amphibious": 1})
    for order in (f"land {beach} with us-7-17 us-7-32", "end"):
        state = play(state, "allied", order)
    assert state.step == "naval-transfer" and state.units["us-7-17"].pinned
    state = play(state, "allied", "transfer us-7-17 to staging")
    assert state.units["us-7-17"].where == "allied-staging"
    refused(state, "allied", "transfer us-7-32 to staging", "Formosa 21.0")


def test_11_2_23_0_a_concealed_guerrilla_in_an_allied_zoc_is_revealed_when_the_combat_phase_begins_f153():
    # 23.0 frees guerrillas from the EZOC's effects on movement and combat; 11.2 item 1 reveals every concealed
    # unit in an EZOC when a Combat Phase begins, and the guerrilla is no exception
    from app.rules.formosa.events import UnitRevealed
    x, around = ring("open")
    state = given(step="allied-movement", units={"us-7-17": x, "jp-guerrilla-1": around[0], "jp-9-7": around[3]},
                  concealed=("jp-guerrilla-1", "jp-9-7"))
    revealed = {e.unit for e in of(when(state, "allied", "end"), UnitRevealed)}
    assert revealed == {"jp-guerrilla-1", "jp-9-7"}


def test_24_1_the_list_offers_each_concealed_stack_alone_to_the_reconnaissance_f154():
    # 24.1: the Allies reveal up to the roll's stacks, any they choose; the list named the first ones in hex order
    x, around = ring("open")
    state = replace(given(step="recon-reveal", turn=1, units={"jp-9-7": x, "jp-9-19": around[0],
                                                              "jp-guard-1": around[3]},
                          concealed=("jp-9-7", "jp-9-19", "jp-guard-1")), recon=1)
    hexes = sorted({x, around[0], around[3]})
    listed = _orders(state, "allied", "reveal")
    assert listed == {f"reveal {h}" for h in hexes}  # each stack, the last in hex order too
    revealed = play(state, "allied", f"reveal {hexes[-1]}")
    assert not revealed.units[{x: "jp-9-7", around[0]: "jp-9-19", around[3]: "jp-guard-1"}[hexes[-1]]].concealed
    assert _orders(played_under(state, "18"), "allied", "reveal") == {f"reveal {hexes[0]}"}  # as played
