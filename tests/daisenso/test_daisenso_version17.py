"""Dai Senso rules version 17 (docs/rulings/daisenso.md D71, D72): the list of legal orders names every hex that may
be attacked, every unit that may attack it and every HQ that may support the attack, though a unit next to the hex
may not attack or two Minor Countries' units stand next to it (4.2.1, 4.2.1.1, 4.2.1.2), and an Exploitation into
the defending hex alone (4.2.8's Chita example). Games created under version 16 or before list what they listed
(docs/core.md "Rules versions")."""
from __future__ import annotations

import tomllib

import pytest

from app.rules.daisenso import GAME, data, played_under
from tests.daisenso.helpers import ds18_force, orders, scenario, when


def _custom(phasing: str, other: str, hold: str, units: list[tuple], version: str | None, **more):
    raw = {"name": "test", "turn": 1, "phase": "regular", "phasing": phasing, "factions": [phasing, other],
           "combat_phases": 2, "victory": {"faction": phasing, "hold": [hold]},
           "unit": [{"id": u[0], "kind": u[1], "hex": u[2], **(u[3] if len(u) > 3 else {})} for u in units], **more}
    return GAME.initial_state("custom", {"position": raw}, version)


@pytest.mark.parametrize("version", [None, "16"])
def test_4_2_1_1_d71_ds18_each_minor_countrys_force_and_its_hq_are_listed(version):
    """DS-18's Axis force next to the 9th War Zone (w4624): the Japanese 22nd Division, a Siamese and a Hopeh Exp unit
    in w4524, the 13th Army, the 3rd Tank and a regular Hopeh unit in w4625, the China HQ within two hexes. No attack
    with every unit next to the hex is legal (Siamese and regular Hopeh, 4.2.1.1), and each unit alone is weak, so
    version 16 listed the units one by one and no attack with the HQ's Ranged Support; version 17 lists the whole
    force of each Minor Country, with and without the HQ, and each unit with the HQ."""
    z = GAME.initial_state("custom", {"position": _raw_of("zhejiang", ds18_force)}, version)
    listed = orders(z)
    siam = "attack w4624 with hp-exp jp-13-army jp-22-div jp-3-tank th-1"
    hopeh = "attack w4624 with hp-1 hp-exp jp-13-army jp-22-div jp-3-tank"
    with_hq = [f"{siam} hq jp-china-hq", f"{hopeh} hq jp-china-hq", "attack w4624 with jp-13-army hq jp-china-hq"]
    new = {siam, hopeh, *with_hq}
    for text in new:  # every one of them an order the decider accepts (it steps to the defender's answer)
        _, after = when(z, text)
        assert after.combat.target == "w4624" and after.pending[0]["kind"] == "defender-hq"
    if version:
        assert not new & listed and "attack w4624 with th-1" in listed
    else:
        assert new <= listed
        assert "attack w4624 with hp-exp hq jp-china-hq" not in listed  # a Japanese HQ, a Hopeh unit alone (4.2.1.2)


def _raw_of(name: str, change) -> dict:
    with open(data.SCENARIOS / f"{name}.toml", "rb") as f:
        raw = tomllib.load(f)
    change(raw)
    return raw


@pytest.mark.parametrize("version", [None, "16"])
def test_4_2_1_d71_an_hq_that_fought_next_to_the_hex_leaves_the_attack_of_the_others_listed(version):
    """Two Japanese divisions (2 each) next to three KMT armies (9) in w4722, the China HQ next to them too but spent
    (it gave Ranged Support to the attack on w4524: 4.2.1.2). Each division alone is under a raw 1-3 (2 against 9),
    the two together are not (4 against 9), and the HQ may not attack: version 16 tried only all three and each alone,
    so it listed no attack on w4722; version 17 lists the two divisions'."""
    state = _custom("axis", "western", "w4722", [
        ("jp-a", "jp-division", "w4622"), ("jp-b", "jp-division", "w4723"),
        ("jp-hq", "jp-hq", "w4623", {"fought": True}),
        ("cn-1", "kmt-army", "w4722"), ("cn-2", "kmt-army", "w4722"), ("cn-3", "kmt-army", "w4722"),
        ("cn-x", "kmt-army", "w4524")], version, attacked_hexes=["w4524"])
    attacks = {o for o in orders(state) if o.startswith("attack")}
    assert attacks == (set() if version else {"attack w4722 with jp-a jp-b"})
    events, _ = when(state, "attack w4722 with jp-a jp-b", [3])  # legal under both versions; no defending HQ
    assert (events[0].target, events[0].attackers) == ("w4722", ["jp-a", "jp-b"])


@pytest.mark.parametrize("version", [None, "16"])
def test_4_2_8_d72_chita_an_exploitation_distance_of_1_lists_the_exploitation_into_the_defending_hex(version):
    """DS-17: the Russian infantry in Chita converts its Dr1 and is gone, one Attrition result unsatisfied: the
    Exploitation Distance is 1, "no different than Advance After Combat", and the tank may Exploit into Chita alone.
    Version 16 accepted that order but did not list it."""
    state = _custom("axis", "soviet", "e3609", [
        ("jp-t", "jp-tank", "e3509"), ("kw-a", "kwantung-army", "e3509"), ("kw-d", "kwantung-division", "e3508"),
        ("ru-i", "ru-infantry", "e3609")], version)
    _, state = when(state, "attack e3609 with jp-t kw-a kw-d", [4])  # 9 v 2: 4-1, the City 1L: 3-1, Dr1 0/1
    _, state = when(state, "convert ru-i")
    assert state.combat.exploit_distance == 1
    exploits = {o for o in orders(state) if o.startswith("exploit")}
    assert exploits == (set() if version else {"exploit jp-t e3609", "exploit kw-a e3609", "exploit kw-d e3609"})
    _, after = when(state, "exploit jp-t e3609")
    assert after.units["jp-t"].hex == "e3609"


@pytest.mark.parametrize("version", [None, "16"])
def test_4_1_2_d71_a_blitz_into_snow_lists_the_russians_together(version):
    """August Storm with Snow on e3410: only Blitz-enabled Russian units attack a hex under Snow in Blitz Combat
    (4.1.2), so the attack with every unit next to it (the Mongolian cavalry among them) is refused; version 16
    listed the Russians one by one, version 17 lists them together, with and without the Transbaikal HQ."""
    state = scenario("august-storm", lambda r: r["weather"].update(snow=["e3412", "e3410"]))
    if version:
        state = played_under(state, version)
    _, state = when(state, "next")  # past the Airdrop step
    together = {"attack e3410 with ru-1-abde ru-36-army ru-6-gta",
                "attack e3410 with ru-1-abde ru-36-army ru-6-gta hq ru-transbaikal"}
    assert together & orders(state) == (set() if version else together)
    assert {"attack e3410 with ru-36-army", "attack e3410 with ru-6-gta"} <= orders(state)
