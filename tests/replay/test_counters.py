"""Counters players recognise (issue 28, docs/replay.md "Counters"): each game's units drawn as its printed counters
are, from the view alone, in one colour scheme per nation across all five games; what fog hides stays hidden."""
import xml.etree.ElementTree as ET

import pytest

from app.events.dice import SeededDice
from app.projections import counters as pieces
from app.projections import render
from app.rules.catalog import installed
from tests.formosa.formosa_given import given

CATALOG = installed()  # the rule sets installed here

S = "{http://www.w3.org/2000/svg}"
SCENARIOS = {"snc": "campaign", "ichigo": "campaign", "olympic": "solitaire", "daisenso": "strait"}
# Formosa starts with every unit off the map: a position with a concealed Japanese regiment in 1904 and a US
# Marine regiment with a US artillery group next to it, in 1905
FORMOSA_UNITS = {"jp-66-304": "1904", "us-1mar-1": "1905", "us-arty-1": "1905"}


def position(rules: str):
    if rules == "formosa":
        return CATALOG.rules(rules), given(units=FORMOSA_UNITS, concealed=("jp-66-304",))
    r = CATALOG.rules(rules)
    state = r.initial_state(SCENARIOS[rules], {})
    if rules == "ichigo":  # the Chinese regulars set up face down (3.3)
        dice = SeededDice(next_index=0, seed="counters", game_id="counters")
        for e in r.decide(state, r.parse("deploy", "allied", state), dice):
            state = r.evolve(state, e)
    return r, state


def picture(rules: str, side: str | None = None) -> tuple[dict, ET.Element]:
    r, state = position(rules)
    view = r.view(state, side)
    return view, ET.fromstring(render.render_map(r.game_map(state), view, r.sides))


def drawn(root: ET.Element) -> dict[str, ET.Element]:
    return {g.get("data-unit"): g for g in root.iter(f"{S}g") if g.get("class") == "counter"}


def texts(g: ET.Element, cls: str) -> list[str]:
    return ["".join(t.itertext()) for t in g.iter(f"{S}text") if t.get("class") == cls]


def field(g: ET.Element) -> str:
    return g.find(f"{S}rect").get("fill")


GAMES = ("snc", "ichigo", "olympic", "formosa", "daisenso")


def test_each_nation_wears_one_colour_scheme_in_all_five_games():
    """The Japanese were red in SNC and Olympic and blue in Ichi-Go and Dai Senso: now red on white everywhere (as
    SNC 2.2.1 and Ichi-Go 2.5 print them), the Chinese white on blue, the US black on olive drab."""
    fills: dict[str, dict[str, set[str]]] = {}
    for rules in GAMES:
        _, root = picture(rules)
        for g in drawn(root).values():
            fills.setdefault(g.get("data-nation"), {}).setdefault(rules, set()).add(field(g))
    assert set(fills["japanese"]) == set(GAMES)
    assert set(fills["chinese"]) == {"snc", "ichigo"} and set(fills["us"]) == {"formosa", "daisenso"}
    for nation, by_game in fills.items():
        if nation in pieces.NATIONS:
            assert set().union(*by_game.values()) == {pieces.NATIONS[nation].field}, nation
    assert pieces.NATIONS["japanese"].field != pieces.NATIONS["chinese"].field != pieces.NATIONS["us"].field
    # the charts and control markers use the same nation: SNC's and Olympic's Japanese line in one colour
    assert render.side_colours(["chinese", "japanese"])["japanese"] == \
        render.side_colours(["american", "japanese"])["japanese"] == pieces.NATIONS["japanese"].line


@pytest.mark.parametrize("rules", GAMES)
def test_a_counter_shows_its_type_size_and_factors_as_the_game_prints_them(rules):
    """Every unit on the map, as the referee sees it: the type box holds the unit's NATO-style symbol, the size mark
    is over it, the factors along its foot are the ones the view gives, and there is one pip per step left."""
    view, root = picture(rules)
    counters = drawn(root)
    on_map = [u for u in view["units"] if u.get("hex") and not pieces.face_down(u)]
    assert on_map and {u["id"] for u in on_map} <= set(counters)
    for u in on_map:
        g = counters[u["id"]]
        assert g.get("data-type") == pieces.type_of(u["type"]) != "", u
        assert texts(g, "factors") == [u["factors"]], u
        mark = pieces.size_mark(pieces.size_of(u))
        assert texts(g, "size") == ([mark] if mark else [])
        assert len([c for c in g.iter(f"{S}circle") if c.get("class") == "step"]) == min(u["steps"], 4)
        assert "".join(g.find(f"{S}title").itertext()).startswith(u["id"])


def test_the_symbols_are_the_ones_players_know():
    """Infantry's crossed diagonals, armor's track, artillery's dot, marines' waves, an HQ's staff, a static
    garrison's battlements, and the size marks of a division, a regiment and an army's X's."""
    _, snc = picture("snc")
    _, ichigo = picture("ichigo")
    _, formosa = picture("formosa")
    _, daisenso = picture("daisenso")

    def symbol(g):
        return [e.tag.replace(S, "") for e in g if e.tag != f"{S}title" and e.get("class") is None][1:]

    garrison = drawn(snc)["cn-gar-wusong"]  # SNC 2.2.1: static, its factor in parentheses
    assert texts(garrison, "factors") == ["(3)"] and symbol(garrison).count("rect") == 1 + 3  # box, battlements
    assert symbol(garrison).count("line") == 2  # the infantry cross
    division = drawn(ichigo)["jp-38a-21div"]
    assert texts(division, "size") == ["XX"] and symbol(division) == ["rect", "line", "line"]
    marines, artillery = drawn(formosa)["us-1mar-1"], drawn(formosa)["us-arty-1"]
    assert texts(marines, "size") == ["III"] and "polyline" in symbol(marines)  # the waves under the cross
    assert symbol(artillery) == ["rect", "circle"]
    hq = next(g for g in drawn(daisenso).values() if g.get("data-type") == "hq")
    assert "HQ" in "".join(hq.itertext()) and texts(hq, "factors") == ["3-3-1"]


def test_dai_senso_counters_carry_the_size_their_kind_names_and_show_a_lost_step():
    """Dai Senso's kinds name their size ("Japanese army", "Russian mech corps", "Russian front HQ"): the counter
    draws its X's; a three-step tank army that loses a step is flipped to its two-step side (4.2.6.2), and its
    counter shows the step lost as a hollow pip beside the two left, as SNC's reduced side does (2.2.1)."""
    from app.rules.daisenso.events import StepLost

    _, strait = picture("daisenso")
    assert texts(drawn(strait)["jp-10-army"], "size") == ["XXXX"]
    r = CATALOG.rules("daisenso")
    state = r.initial_state("august-storm", {})
    [tanks] = [u for u in state.units.values() if u.kind == "ru-tank-army"]
    root = ET.fromstring(render.render_map(r.game_map(state), r.view(state, None), r.sides))
    whole = drawn(root)[tanks.id]
    assert texts(whole, "size") == ["XXXX"] and whole.get("data-lost") is None
    assert [c.get("class") for c in whole.iter(f"{S}circle")] == ["step"] * 3
    state = r.evolve(state, StepLost(tanks.id, "1/0", becomes="ru-mech-corps"))
    view = r.view(state, None)
    root = ET.fromstring(render.render_map(r.game_map(state), view, r.sides))
    flipped = drawn(root)[tanks.id]
    assert texts(flipped, "size") == ["XXX"] and texts(flipped, "factors") == [
        next(u["factors"] for u in view["units"] if u["id"] == tanks.id)]
    assert [c.get("class") for c in flipped.iter(f"{S}circle")] == ["step", "step", "step lost"]
    assert flipped.get("data-lost") == "1" and "1 lost" in "".join(flipped.find(f"{S}title").itertext())
    snc_reduced = {"id": "jp-3-6", "side": "japanese", "type": "infantry", "size": "regiment", "strength": 2,
                   "steps": 1, "reduced": True, "factors": "2"}
    root = ET.fromstring(pieces.counter(snc_reduced, 0, 0, {}))
    assert [c.get("class") for c in root.iter("circle")] == ["step", "step lost"]  # a <g> alone: no namespace


def test_fog_untried_and_concealed_counters_show_only_what_their_side_may_know():
    """Ichi-Go 11.27: an untried Chinese counter is its handle only, to both players. Formosa 11.1: to the Allied
    player a concealed Japanese unit is "?" and its concealed movement factor; its owner sees it whole."""
    for side in ("japanese", "allied"):
        view, root = picture("ichigo", side)
        untried = [u for u in view["units"] if u.get("untried") and u.get("hex")]
        assert untried
        for u in untried:
            g = drawn(root)[u["id"]]
            assert g.get("data-type") == "" and texts(g, "unknown") == ["?"] and texts(g, "factors") == []
            assert texts(g, "size") == [] and "untried" in "".join(g.find(f"{S}title").itertext())
    _, allied = picture("formosa", "allied")
    [concealed] = [g for g in drawn(allied).values() if g.get("data-hex") == "1904"]
    assert concealed.get("data-unit") != "jp-66-304" and concealed.get("data-type") == ""
    assert texts(concealed, "unknown") == ["?"] and texts(concealed, "factors") == ["?-7"]
    assert "jp-66-304" not in ET.tostring(allied, encoding="unicode")
    legend = allied.find(f".//{S}g[@class='legend']")
    assert {g.get("data-type") for g in legend.iter(f"{S}g") if g.get("class") == "unit-type"} == \
        {"marine", "artillery"}  # the key lists no type of a unit the Allied player cannot see
    _, japanese = picture("formosa", "japanese")
    own = drawn(japanese)["jp-66-304"]
    assert own.get("data-type") == "infantry" and texts(own, "factors") == ["3-6"]


def test_a_stack_shows_how_many_counters_lie_beneath():
    """SNC 6.3: the other side sees the top unit of a stack, the edges of the counters beneath it (blank, in the
    top unit's colours) and a badge with the stack's height; the owner sees every counter of it."""
    r, state = position("snc")
    stacks = {}
    for u in state.on_map():
        stacks.setdefault(u.hex, []).append(u)
    hex_label, units = next((h, us) for h, us in sorted(stacks.items()) if len(us) >= 3)
    owner = units[0].side
    enemy = next(s for s in r.sides if s != owner)
    for side, shown in ((enemy, 1), (owner, len(units))):
        view = r.view(state, side)
        root = ET.fromstring(render.render_map(r.game_map(state), view, r.sides))
        here = [g for g in drawn(root).values() if g.get("data-hex") == hex_label]
        blanks = [e for e in root.iter(f"{S}rect") if e.get("class") == "beneath"]
        badge = [g for g in root.iter(f"{S}g") if g.get("class") == "stack-size" and g.get("data-hex") == hex_label]
        assert len(here) == shown and ["".join(b.itertext()) for b in badge] == [str(len(units))]
        if side == enemy:
            assert len(blanks) >= len(units) - 1
            assert {b.get("fill") for b in blanks} >= {field(here[0])}


def test_a_unit_of_no_nation_wears_its_sides_colour_and_an_unknown_type_its_letters():
    """Nothing here knows a game: skirmish's red and blue, a made-up type word, a nation no table lists."""
    from app.rules.skirmish import GAME as SKIRMISH

    view = {"units": [{"id": "R1", "side": "red", "hex": "0102", "strength": 4, "steps": 2},
                      {"id": "X1", "side": "blue", "hex": "0603", "strength": 2, "steps": 1, "type": "zeppelin",
                       "nation": "ruritania", "size": "flotilla", "factors": "2-1"}]}
    root = ET.fromstring(render.render_map(SKIRMISH.data().map, view, ("red", "blue")))
    r1, x1 = drawn(root)["R1"], drawn(root)["X1"]
    assert field(r1) == render.side_colours(["red", "blue"])["red"] and texts(r1, "factors") == ["4"]
    assert "ZEP" in "".join(x1.itertext()) and texts(x1, "size") == [] and texts(x1, "factors") == ["2-1"]
    assert field(x1) not in {c.field for c in pieces.NATIONS.values()}


def test_a_picture_opened_on_its_own_is_at_the_viewers_default_zoom():
    """A turn email's attachment or `cli.py render`'s file opened in a browser at 100 %: 1.5 px a map unit, as the
    viewer's default zoom, so a counter's id is 11 px high and its factors 15 px without zooming in."""
    _, root = picture("snc")
    _, _, w, h = (float(n) for n in root.get("viewBox").split())
    assert float(root.get("width")) == round(w * 1.5) and float(root.get("height")) == round(h * 1.5)
    ids = [t for g in drawn(root).values() for t in g.iter(f"{S}text") if t.get("class") == "id"]
    assert min(float(t.get("font-size")) for t in ids) * 1.5 >= 10
