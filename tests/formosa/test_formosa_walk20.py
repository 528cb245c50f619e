"""Rules version 20 (issue 30, session part 15): the list of legal orders (what a player picks from, a hex's or a
unit's orders, and every automated seat) against every order the decider accepts, found by trying each one typed.

- 15.4.1, 17.0, 19.4, 10.2.2 (ruling F155): an attack, an assault and a defence may each be given the side's
  naval gunfire (US and Commonwealth), LP and air supply in any allowed amount; the list named the bare attack (an
  assault with the most gunfire or one LP, a defence with one of each), and an assault by all the stacks at sea
  or each alone, though every other set was accepted typed;
- 24.1, 11.2 (ruling F156): the reconnaissance reveals up to its roll's stacks at once, and the Japanese player
  any of his units at any time; the list named each stack alone (and the first ones together), and one Japanese
  unit of the whole map."""
from __future__ import annotations

from dataclasses import replace
from itertools import combinations, product

from formosa_given import given, of, play
from formosa_map import D, M, ring, shore

from app.rules import legal
from app.rules.formosa import GAME, played_under
from app.rules.formosa.events import UnitRevealed
from app.rules.kernel.hexgrid import Hex

H = Hex.parse


def _accepted(state, side: str, text: str) -> bool:
    return legal.refusal(GAME, state, GAME.parse(text, side, state)) is None


def _listed(state, side: str, word: str, verb: str) -> set[str]:
    """The orders naming `word` (a hex's or a unit's orders) and the list itself, of one kind: the two agree."""
    named = {o["order"] for o in legal.naming(GAME, state, side, word) if o["order"].split()[0] == verb}
    flat = {o["order"] for o in GAME.legal_orders(state, side) if o["order"].split()[0] == verb}
    assert named <= flat or len(flat) >= legal.LIMIT
    return named


def _extras(defending: bool = False, air: bool = True) -> list[str]:
    """Every set of extras an order may be typed with, in the order's words."""
    out = []
    for n, cw, lp, supply in product(range(3), range(3), range(3), (False, True) if air else (False,)):
        gun = [f"gunfire {n}"] * bool(n) + [f"cw-gunfire {cw}"] * bool(cw)
        lps = [f"lp {lp}"] * bool(lp)
        out.append(" ".join([*lps, *gun] if defending else [*gun, *lps]) + " supply air" * supply)
    return [e.strip() for e in out]


def _port_front():
    """A port with an open land neighbour, and a second land hex next to that neighbour (not the port)."""
    for port in sorted(D.ports()):
        for front in M.neighbours(port):
            if D.is_land(front) and not M.features_of(front) & {"major-port", "minor-port"}:
                side = [n for n in M.neighbours(front) if D.is_land(n) and n != port and n not in D.ports()
                        and not M.hexside_features(n, front)]
                if side and not M.hexside_features(port, front):
                    return str(port), str(front), str(side[0])
    raise LookupError("no port front")


PORT, FRONT, FLANK = _port_front()


def test_15_4_1_17_0_the_list_offers_each_attack_with_every_set_of_gunfire_and_lp_it_may_take_f155():
    # a US regiment on a functional port (a line of supply, a coastal hex) and a Commonwealth one beside it attack
    # one Japanese hex: US and Commonwealth gunfire (two at most), one or two LP, never air supply (a line, 19.4)
    state = given(step="allied-combat", units={"us-7-17": PORT, "us-eng-1": PORT, "cw-7-18": FLANK, "jp-9-7": FRONT},
                  lp={"allied": 3, "japanese": 0}, naval={"gunfire": 2, "cw-gunfire": 2}, air={"air-supply": 1})
    state = replace(state, units={**state.units, "us-eng-1": replace(state.units["us-eng-1"], base=True)})
    head = f"attack {FRONT} with cw-7-18 us-7-17 us-eng-1"  # the base attacks with its stack (F41)
    typed = {f"{head} {e}".strip() for e in _extras()}
    accepted = {t for t in typed if _accepted(state, "allied", t)}
    assert f"{head} gunfire 1 cw-gunfire 1 lp 2" in accepted and f"{head} supply air" not in accepted
    assert len(accepted) == 6 * 3  # six gunfire splits, three LP amounts
    def by_the_three(listed: set[str]) -> set[str]:  # the other attacks, by fewer units, are F157's
        return {o for o in listed if o == head or o.startswith(f"{head} ")}

    assert by_the_three(_listed(state, "allied", FRONT, "attack")) == accepted
    assert _listed(played_under(state, "19"), "allied", FRONT, "attack") == {head}  # ruling F155: as played


def test_19_4_17_0_the_list_offers_an_attack_without_a_line_with_air_supply_and_gunfire_f155():
    beach, _ = shore()
    land = next(str(n) for n in M.neighbours(H(beach)) if D.is_land(n))
    state = given(step="allied-combat", units={"us-7-17": beach, "jp-9-7": land}, lp={"allied": 3, "japanese": 0},
                  naval={"gunfire": 2, "cw-gunfire": 2}, air={"air-supply": 1})
    head = f"attack {land} with us-7-17"
    accepted = {t for t in (f"{head} {e}".strip() for e in _extras()) if _accepted(state, "allied", t)}
    assert accepted == {" ".join([head, *g, *s]) for g in ([], ["gunfire 1"], ["gunfire 2"])
                        for s in ([], ["supply air"])}
    assert _listed(state, "allied", land, "attack") == accepted


def test_15_4_1_17_0_19_4_the_list_offers_every_answer_of_the_defender_f155():
    # a Japanese attack on a US regiment on a functional port: one LP (a line), one or two US gunfire
    state = given(step="japanese-combat", units={"us-7-17": PORT, "us-eng-1": PORT, "jp-9-7": FRONT},
                  lp={"allied": 2, "japanese": 0}, naval={"gunfire": 2}, air={"air-supply": 1})
    state = replace(state, units={**state.units, "us-eng-1": replace(state.units["us-eng-1"], base=True)})
    state = play(state, "japanese", f"attack {PORT} with jp-9-7")
    assert state.pending[0]["kind"] == "defence"
    accepted = {t for t in (f"defend {e}".strip() for e in _extras(defending=True)) if _accepted(state, "allied", t)}
    assert accepted == {f"defend {lp}{g}".strip() for lp in ("", "lp 1 ") for g in ("", "gunfire 1", "gunfire 2")}
    listed = {o["order"] for o in GAME.legal_orders(state, "allied")}
    assert listed == accepted
    assert listed > {o["order"] for o in GAME.legal_orders(played_under(state, "19"), "allied")}  # as played


def test_10_2_2_the_list_offers_an_assault_by_every_set_of_the_stacks_at_sea_with_its_gunfire_and_lp_f155():
    beach, seas = shore(3)
    stacks = ("us-7-17", "us-7-32", "us-7-184")
    state = given(step="invasion", turn=1, units={**dict.fromkeys(stacks, "allied-staging"), "jp-guard-1": beach},
                  lp={"allied": 2, "japanese": 0}, naval={"gunfire": 2}, markers={"amphibious": 3})
    for unit, sea in zip(stacks, seas, strict=True):  # each on its marker, supplied by it (19.2)
        state = play(state, "allied", f"land {sea} with {unit}")
    assert all(state.at_sea(state.units[u]) for u in ("us-7-17", "us-7-32", "us-7-184"))
    groups = [""] + [" from " + " ".join(g) for k in (1, 2) for g in combinations(sorted(seas), k)]
    typed = {f"assault {beach}{g} {e}".strip() for g in groups for e in _extras(air=False)}
    played = played_under(state, "22")  # since rules version 23 no LP in an assault (ruling F173)
    accepted = {t for t in typed if _accepted(played, "allied", t)}
    assert len(accepted) == 7 * 3 * 3  # every set of the three stacks, gunfire 0-2, LP 0-2
    assert _listed(played, "allied", beach, "assault") == accepted
    now = {t for t in typed if _accepted(state, "allied", t)}
    assert now == {t for t in accepted if " lp " not in f"{t} "} and len(now) == 7 * 3
    assert _listed(state, "allied", beach, "assault") == now
    assert len(_listed(played_under(state, "19"), "allied", beach, "assault")) == 6  # ruling F155: as played


def _recon(recon: int):
    x, around = ring("open")
    where = {"jp-9-7": x, "jp-9-19": around[0], "jp-guard-1": around[2], "jp-guard-2": around[4]}
    state = replace(given(step="recon-reveal", turn=1, units=where, concealed=tuple(where)), recon=recon)
    return state, sorted(where.values())


def test_24_1_the_list_offers_the_reconnaissance_every_set_of_stacks_up_to_its_roll_f156():
    for recon in (2, 3):
        state, hexes = _recon(recon)
        every = {"reveal " + " ".join(g) for k in range(1, recon + 1) for g in combinations(hexes, k)}
        assert {t for t in every | {f"reveal {' '.join(hexes)}"} if _accepted(state, "allied", t)} == every
        assert {o["order"] for o in GAME.legal_orders(state, "allied") if o["action"] == "reveal"} == every
        revealed = of(GAME.decide(state, GAME.parse(f"reveal {hexes[0]} {hexes[3]}", "allied", state), None),
                      UnitRevealed)
        assert {e.hex for e in revealed} == {hexes[0], hexes[3]}
    old = {o["order"] for o in GAME.legal_orders(played_under(state, "19"), "allied") if o["action"] == "reveal"}
    assert old == {f"reveal {h}" for h in hexes} | {f"reveal {' '.join(hexes[:3])}"}  # ruling F156: as played


def test_11_2_the_list_offers_the_japanese_the_reveal_of_each_concealed_unit_and_stack_f156():
    x, around = ring("open")
    hidden = ("jp-9-7", "jp-9-19", "jp-guard-1", "jp-deception-1")
    where = {"jp-9-7": x, "jp-9-19": x, "jp-guard-1": around[2], "jp-deception-1": around[4], "jp-guard-2": around[1]}
    state = given(step="japanese-movement", units=where, concealed=hidden)
    every = {f"reveal {u}" for u in hidden} | {"reveal jp-9-19 jp-9-7"}
    assert all(_accepted(state, "japanese", t) for t in every)
    assert not _accepted(state, "japanese", "reveal jp-guard-2")  # already face up
    assert {o["order"] for o in GAME.legal_orders(state, "japanese") if o["action"] == "reveal"} == every
    old = {o["order"] for o in GAME.legal_orders(played_under(state, "19"), "japanese") if o["action"] == "reveal"}
    assert len(old) == 1 and old < every  # ruling F156: as played


def test_15_0_15_1_the_list_offers_every_attack_the_units_may_declare_f157():
    # two regiments next to one Japanese hex may attack it together or either alone (the hex is then attacked, so
    # the other owes nothing: 15.0); a regiment next to two guerrilla hexes (no ZOC, 23.0) may attack either or both
    x, around = ring("open")
    state = given(step="allied-combat", units={"us-7-17": around[0], "us-7-32": around[1], "jp-9-7": x}, naval={})
    every = {f"attack {x} with {u}" for u in ("us-7-17 us-7-32", "us-7-17", "us-7-32")}
    assert all(_accepted(state, "allied", t) for t in every)
    assert _listed(state, "allied", x, "attack") == every
    alone = play(state, "allied", f"attack {x} with us-7-17", [6] * 4)
    assert _accepted(alone, "allied", "end")  # the hex has been attacked: us-7-32 owes no attack
    assert _listed(played_under(state, "19"), "allied", x, "attack") == {f"attack {x} with us-7-17 us-7-32"}
    g1, g2 = around[0], around[3]
    state = given(step="allied-combat", units={"us-7-17": x, "jp-guerrilla-1": g1, "jp-guerrilla-2": g2}, naval={})
    every = {f"attack {g1} with us-7-17", f"attack {g2} with us-7-17", f"attack {g1} {g2} with us-7-17"}
    assert all(_accepted(state, "allied", t) for t in every)
    assert {o["order"] for o in GAME.legal_orders(state, "allied") if o["action"] == "attack"} == every
    old = {o["order"] for o in GAME.legal_orders(played_under(state, "19"), "allied") if o["action"] == "attack"}
    assert old == {f"attack {g1} with us-7-17"}  # ruling F157: as played


def _decision_orders(state, side: str) -> set[str]:
    return {o["order"] for o in GAME.legal_orders(state, side)}


def test_16_2_16_6_the_list_offers_every_split_of_an_air_loss_cf_11_and_of_the_kamikaze_hits_f158():
    from app.rules.formosa.state import Strike

    # CF-11: two Allied points lost, from air superiority, from ground support (tactical), or one of each
    strike = Strike(missions={"allied": {"air-superiority": 6, "tactical": 4},
                              "japanese": {"air-superiority": 2, "tactical": 2}}, revealed=True)
    ashore = {"us-7-17": ring("open")[0]}  # an Allied unit on Formosa: no sudden death (4.1)
    state = given(step="air-superiority", air={"allied-tac": 10, "japanese-tac": 4}, strike=strike, units=ashore)
    state = play(play(state, "allied", "roll", [6, 6]), "japanese", "lose 2 from air-superiority")
    assert state.pending[0] == {"kind": "air-losses", "side": "allied", "due": 2}
    every = {f"lose {n} from {m}" for n in (1, 2) for m in ("air-superiority", "tactical")}
    assert _decision_orders(state, "allied") == every and all(_accepted(state, "allied", t) for t in every)
    assert "lose 1 from tactical" not in _decision_orders(played_under(state, "19"), "allied")  # as played
    # 16.6: three hits on two amphibious markers, two US and one Commonwealth gunfire units, in any split
    state = given(step="japanese-special-attack", air={"kamikaze": 5}, strike=Strike(
        missions={"japanese": {"kamikaze": 5}}, revealed=True), markers={"amphibious": 2},
                  naval={"gunfire": 2, "cw-gunfire": 1}, units=ashore)
    state = play(state, "japanese", "roll", [6])
    hits = state.pending[0]["due"]
    every = {f"return {m} amphibious {s} gunfire {c} cw-gunfire"
             for m in range(3) for s in range(3) for c in range(2) if m + s + c == hits}
    assert hits >= 2 and len(every) > 2
    assert _decision_orders(state, "allied") == every and all(_accepted(state, "allied", t) for t in every)
    assert len(_decision_orders(played_under(state, "19"), "allied")) == 2  # ruling F158: as played


def test_3_0_7_3_24_1_the_set_up_list_offers_every_pick_recruit_purchase_and_unit_to_place_f159():
    state = play(GAME.initial_state("1", {}), "japanese", "roll", [3, 3, 3])
    listed = {o["order"] for o in GAME.legal_orders(state, "japanese")}
    # 3.0 "player's choice": two coastal defense units of five, any two (the list named the first two)
    pairs = {f"choose {a} {b}" for a, b in combinations([f"jp-cd-{i}" for i in range(1, 6)], 2)}
    assert pairs <= listed and all(_accepted(state, "japanese", t) for t in pairs)
    placed = {o.split()[1] for o in listed if o.startswith("place ")}
    assert placed == set(state.to_place)  # every unit still to place is named (the list named the first three)
    assert "recruit jp-guard-6" in listed and _accepted(state, "japanese", "recruit jp-guard-6")
    old = {o["order"] for o in GAME.legal_orders(played_under(state, "19"), "japanese")}
    assert not pairs <= old and {o.split()[1] for o in old if o.startswith("place ")} < placed  # F159: as played
    # the Allied list names every unit it may choose or recruit, and still every kind of purchase (7.3)
    allied = replace(state, step="setup-allied", to_place=())
    listed = {o["order"] for o in GAME.legal_orders(allied, "allied")}
    assert {"buy 1 amphibious", "buy 1 drop-zone", "buy 1 gunfire", "buy 1 tac"} <= listed
    assert _accepted(allied, "allied", "buy 3 amphibious")  # several at once, typed; listed one at a time


def test_17_0_japanese_gunfire_is_refused_naming_17_0_f160():
    # 17.0 gives naval gunfire to the Allied player alone; the refusal named ruling F18 and no case
    from formosa_given import refused

    x, around = ring("open")
    state = given(step="japanese-combat", units={"us-7-17": x, "jp-9-7": around[0]}, naval={"gunfire": 2})
    refused(state, "japanese", f"attack {x} with jp-9-7 gunfire 1", "Formosa 17.0, ruling F18")
    refused(played_under(state, "19"), "japanese", f"attack {x} with jp-9-7 gunfire 1", "Formosa ruling F18")
    assert _accepted(state, "japanese", f"attack {x} with jp-9-7")


def test_25_1_the_list_offers_every_exploitation_attack_of_any_units_of_a_stack_on_any_of_its_enemy_hexes_f161():
    # 25.1: one stack of the force, "any number of units in the stack", attacks again after a DE
    x, around = ring("open")
    stack = around[1]
    foes = [str(n) for n in M.neighbours(H(stack)) if D.is_land(n) and str(n) not in (x, *around)
            and not M.hexside_features(H(stack), n)][:2]
    state = given(units={"us-7-17": stack, "us-7-184": stack, "jp-guerrilla-1": x, "jp-guerrilla-2": foes[0],
                         "jp-guerrilla-3": foes[1]}, naval={})
    state = replace(state, data=GAME.data({"optional": ["25.1"]}))
    state = play(play(state, "allied", f"attack {x} with us-7-17 us-7-184", [3]), "allied", "hold")  # DE
    assert state.pending[0]["kind"] == "exploit"
    targets = [" ".join(h) for k in (1, 2) for h in combinations(sorted(foes), k)]
    every = {f"exploit {t} with {u}" for t in targets for u in ("us-7-17 us-7-184", "us-7-17", "us-7-184")}
    assert all(_accepted(state, "allied", t) for t in every)
    assert {o["order"] for o in GAME.legal_orders(state, "allied") if o["action"] == "exploit"} == every
    old = {o["order"] for o in GAME.legal_orders(played_under(state, "19"), "allied") if o["action"] == "exploit"}
    assert len(old) == 2 and old < every  # ruling F161: as played


def test_25_3_25_7_25_8_the_list_offers_every_airlift_and_every_special_landing_hex_f162():
    from app.rules.formosa.optional import landing_hexes

    fields = [str(h) for h in sorted(D.airfields()) if D.is_land(h)][:2]
    state = given(step="allied-movement", units={"us-eng-1": fields[0], "us-eng-2": fields[1],
                                                  "us-7-17": "allied-staging", "us-7-32": "allied-staging"},
                  air={"air-supply": 1})
    state = state.with_units(*(replace(state.units[e], base=True) for e in ("us-eng-1", "us-eng-2")))
    state = replace(state, data=GAME.data({"optional": ["25.3"]}))
    every = {f"airlift {u} to {f}" for u in ("us-7-17", "us-7-32") for f in fields}  # 25.3: any unit, any airbase
    assert all(_accepted(state, "allied", t) for t in every)
    assert {o["order"] for o in GAME.legal_orders(state, "allied") if o["action"] == "airlift"} == every
    assert len({o["order"] for o in GAME.legal_orders(played_under(state, "19"), "allied")
                if o["action"] == "airlift"}) == 1  # ruling F162: as played
    japanese = given(step="japanese-movement", units={"jp-marine": "japanese-reinforcements",
                                                      "jp-raiders": "japanese-reinforcements",
                                                      "us-27-105": ring("rough")[0]},
                     special_ready=("jp-marine", "jp-raiders"))
    japanese = replace(japanese, data=GAME.data({"optional": ["25.7", "25.8"]}))
    lands = {o["order"] for o in legal.naming(GAME, japanese, "japanese", "jp-marine") if o["action"] == "land"}
    assert lands == {f"land {h} with jp-marine" for h in landing_hexes(japanese, "25.7")} and len(lands) > 3
    raids = {o["order"] for o in GAME.legal_orders(japanese, "japanese") if o["action"] == "raid"}
    assert raids == {f"raid {h}" for h in landing_hexes(japanese, "25.8")} and len(raids) > 3
