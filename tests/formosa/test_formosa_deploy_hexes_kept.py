"""8.1's deployment hexes are found once per position and unit (CI time, bench/whole_games.py): each answer is the
one a fresh walk over the map's land hexes gives, for that position and that unit's type, and a caller that changes
the list it got changes nothing kept."""
from __future__ import annotations

from formosa_given import given

from app.rules.formosa import GAME
from app.rules.formosa.sequence import japanese_deploy_hexes, stack_after

D = GAME.data({})
PORT_CITIES = sorted(str(h) for h in D.map.hexes_with("city") if h in D.ports())


def fresh(state, uid: str) -> list[str]:
    """8.1 read straight from the map file, hex by hex, nothing kept."""
    kind = state.spec(uid).type
    out = []
    for h in sorted(state.data.land()):
        label, feats = str(h), state.data.map.features_of(h)
        mine = [u for u in state.units.values() if u.where == label and u.side == "japanese"]
        if any(u.where == label and u.side == "allied" for u in state.units.values()):
            continue
        statics = [u for u in mine if state.is_static(u)]
        if kind == "coastal-defense":
            ok = bool(feats & {"major-port", "minor-port"}) and not statics
        elif kind == "heavy-weapons":
            ok = bool(feats & {"city", "town"}) and not statics
        elif kind == "guerrilla":
            ok = any(not u.concealed for u in statics) or bool(
                feats & {"city", "town", "airfield", "major-port", "minor-port"}) or state.data.map.terrain_of(
                h) in ("rough", "mountain")
        else:
            ok = bool(feats & {"city", "major-port", "minor-port"}) and bool(mine)
        if ok and not stack_after(state, label, "japanese", [uid]):
            out.append(label)
    return out


def test_8_1_deploy_hexes_are_each_positions_and_each_units_own():
    waiting = {u: "japanese-reinforcements" for u in ("jp-guard-1", "jp-cd-1", "jp-hw-1", "jp-guerrilla-1")}
    first = given(step="recruit-japanese", turn=3, units={"jp-12-24": PORT_CITIES[0], "jp-cd-2": PORT_CITIES[1],
                                                          "us-7-17": PORT_CITIES[2], **waiting})
    second = first.move("jp-12-24", PORT_CITIES[3]).move("us-7-17", PORT_CITIES[1])
    answers = set()
    for state in (first, second, first):
        for uid in waiting:
            want = fresh(state, uid)
            got = japanese_deploy_hexes(state, uid)
            assert got == want, (uid, state.units["jp-12-24"].where)
            got.append("0101")  # the caller's own list: what is kept stays as found
            assert japanese_deploy_hexes(state, uid) == want
            answers.add((uid, state is first, tuple(want)))
    # the two positions and the four unit types do not all answer alike (the check above tells them apart)
    assert len({a[2] for a in answers}) > 2
    assert {a[2] for a in answers if a[0] == "jp-guard-1" and a[1]} != {
        a[2] for a in answers if a[0] == "jp-guard-1" and not a[1]}


def test_land_sites_are_the_maps_land_hexes_in_order_with_their_features_and_terrain():
    for data in (D, GAME.data({})):
        assert data.land_sites == tuple((str(h), data.map.features_of(h), data.map.terrain_of(h))
                                        for h in sorted(data.land()))
