"""Map pictures: what a player sees on the SVG (counters, terrain, hexsides, roads, names, control)."""
import xml.etree.ElementTree as ET
from pathlib import Path

from click.testing import CliRunner

from app.projections import render, replay
from app.rules.catalog import installed
from app.rules.kernel.hexgrid import Hex
from app.rules.kernel.mapfile import load_map
from app.rules.skirmish import GAME as RULES
from app.service import games
from cli import cli

CATALOG = installed()  # the rule sets installed here

MAP = RULES.data().map

NS = {"s": "http://www.w3.org/2000/svg"}
SAMPLE = load_map(Path(__file__).parents[1] / "kernel" / "data" / "sample_map.toml")


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def counters(root) -> dict[str, ET.Element]:
    return {g.get("data-unit"): g for g in root.iterfind(".//s:g[@class='counter']", NS)}


def test_one_counter_per_unit_on_the_map_with_its_strength_and_steps():
    view = {"units": [{"id": "R1", "side": "red", "hex": "0102", "strength": 4, "steps": 2},
                      {"id": "R2", "side": "red", "hex": "0102", "strength": 1, "steps": 1},
                      {"id": "B1", "side": "blue", "hex": "0603", "strength": 3, "steps": 2},
                      {"id": "B2", "side": "blue", "hex": None, "strength": 1, "steps": 0}]}
    root = parse(render.render_map(MAP, view, ("red", "blue")))
    found = counters(root)
    assert set(found) == {"R1", "R2", "B1"}  # the eliminated B2 is off the map
    texts = ["".join(t.itertext()) for t in found["R2"].iterfind("s:text", NS)]
    assert texts == ["R2", "1"] and found["R2"].get("data-steps") == "1"
    assert len(found["R1"].findall("s:circle", NS)) == 2 and len(found["R2"].findall("s:circle", NS)) == 1
    fills = {uid: g.find("s:rect", NS).get("fill") for uid, g in found.items()}
    assert fills["R1"] == fills["R2"] != fills["B1"]
    badges = root.findall(".//s:g[@class='stack-size']", NS)
    assert [(b.get("data-hex"), "".join(b.itertext())) for b in badges] == [("0102", "2")]


def test_every_hex_is_drawn_with_its_terrain_colour_and_the_legend_names_each_terrain():
    view = {"units": [{"id": "R1", "side": "red", "hex": "0102", "strength": 4, "steps": 2},
                      {"id": "B1", "side": "blue", "hex": "0603", "strength": 3, "steps": 2}],
            "victory_hexes": ["0403"]}
    root = parse(render.render_map(MAP, view, ("red", "blue")))
    polys = root.findall(".//s:g[@class='terrain']/s:polygon", NS)
    assert len(polys) == len(list(MAP.hexes()))
    by_hex = {p.get("data-hex"): p.get("fill") for p in polys}
    assert by_hex["0202"] == render.terrain_colour("woods") != by_hex["0101"] == render.terrain_colour("clear")
    legend = "".join(root.find(".//s:g[@class='legend']", NS).itertext())
    assert all(t in legend for t in ("clear", "woods", "village", "red", "blue", "victory hex"))
    assert "the village" in "".join(root.find(".//s:g[@class='places']", NS).itertext())


def test_flat_top_columns_follow_the_maps_parity():
    lay = render.Layout(MAP)  # even-low: even columns sit half a hex lower
    (x1, y1), (x2, y2), (x3, y3) = (lay.centre(Hex(c, 2)) for c in (1, 2, 3))
    assert x1 < x2 < x3 and y2 - y1 > 10 and abs(y3 - y1) < 0.01
    corners = lay.corners(Hex(1, 2))
    assert corners[0][1] == y1  # flat top: a corner straight east of the centre


def test_hexside_features_and_routes_are_drawn_on_the_right_edges():
    root = parse(render.render_map(SAMPLE, {"units": []}))
    edges = root.findall(".//s:g[@class='hexsides']/s:line", NS)
    expected = sum(len(SAMPLE.hexsides_with(f)) for f in SAMPLE.vocabulary.hexside)
    assert expected and len(edges) == expected
    lay = render.Layout(SAMPLE)
    for line in edges:
        a, b = line.get("data-hexside").split("/")
        (ax, ay), (bx, by) = lay.centre(Hex.parse(a)), lay.centre(Hex.parse(b))
        x1, y1, x2, y2 = (float(line.get(k)) for k in ("x1", "y1", "x2", "y2"))
        mx, my = (x1 + x2) / 2, (y1 + y2) / 2
        assert abs(mx - (ax + bx) / 2) < 0.2 and abs(my - (ay + by) / 2) < 0.2  # on the shared edge
    assert len(root.findall(".//s:polyline[@class='road']", NS)) == len(SAMPLE.roads)
    assert len(root.findall(".//s:polyline[@class='railroad']", NS)) == len(SAMPLE.railroads)


def test_control_markers_and_victory_hexes_come_from_the_view(store, skirmish):
    from app.projections import state as projection

    root = parse(render.render_state(RULES, projection.load(store, CATALOG, skirmish), "red"))
    assert [s.get("data-hex") for s in root.iterfind(".//s:polygon[@class='victory']", NS)] == ["0403"]
    assert root.findall(".//s:circle[@class='control']", NS) == []  # nobody holds the village yet
    games.submit(store, CATALOG, skirmish, "red", "move R3 0204 0304 0403")
    root = parse(render.render_state(RULES, projection.load(store, CATALOG, skirmish), "blue"))
    marks = root.findall(".//s:circle[@class='control']", NS)
    assert [(m.get("data-hex"), m.get("data-side")) for m in marks] == [("0403", "red")]
    assert marks[0].get("fill") == render.side_colours(["red", "blue"])["red"]


def test_cli_state_of_a_finished_game_says_everything_is_shown_and_hides_nothing_from_a_side(store, finished):
    """`state` names whose view it prints as `render` does: once the game is over, everything, for everyone."""
    def state(*args):
        result = CliRunner().invoke(cli, ["--db", store.path, "state", finished, *args])
        assert result.exit_code == 0, result.output
        return result.output.splitlines()

    whole, as_red, early = state(), state("--as", "red"), state("--at", "5", "--as", "blue")
    assert whole[0].endswith(", everything (the game is over)")
    assert as_red[0] == whole[0] and as_red[1:] == whole[1:]
    assert early[0] == f"{finished} after event 5, everything (the game is over)"


def test_cli_render_writes_the_svg_of_any_position(store, finished, tmp_path):
    out = tmp_path / "at5.svg"
    result = CliRunner().invoke(cli, ["--db", store.path, "render", finished, "--at", "5", "--as", "red",
                                      "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "everything (the game is over)" in result.output  # nothing is hidden any more
    frame = replay.build(store, CATALOG, finished, "red").frame_at(5)
    on_map = {u["id"] for u in frame.view["units"] if u["hex"]}
    assert set(counters(parse(out.read_text()))) == on_map


def test_olympic_shows_japanese_control_as_the_other_games_show_control():
    """Olympic (ruling R19: a land hex not American-controlled is Japanese): the map marks the Japanese on each
    city, the victory hexes, until the Americans take it, as SNC and Ichi-Go mark their cities' holders; the
    hexes the Americans control are marked theirs."""
    from app.rules.catalog import installed
    from tests.olympic.olympic_given import given

    rules = installed().rules("olympic")
    state = given(keep_setup=True)
    city = sorted(rules.view(state, "american")["victory_hexes"])[0]

    def marks(state) -> dict[str, str]:
        view = rules.view(state, "american")
        root = parse(render.render_map(rules.game_map(state), view, rules.sides))
        return {c.get("data-hex"): c.get("data-side") for c in root.findall(".//s:circle[@class='control']", NS)}

    before = marks(state)
    cities = set(rules.view(state, "american")["victory_hexes"])
    assert before == {h: "japanese" for h in cities}
    taken = given(keep_setup=True, american_control=(city, "3338"))
    assert marks(taken) == {**{h: "japanese" for h in cities}, city: "american", "3338": "american"}
    assert rules.view(taken, "japanese")["control"] == rules.view(taken, "american")["control"]  # solitaire: public
    # the key says what the marks are, in each side's colour (the play page and the emails show this picture)
    root = parse(render.render_map(rules.game_map(taken), rules.view(taken, "american"), rules.sides))
    keys = {g.get("data-side"): "".join(g.itertext()) for g in root.findall(".//s:g[@class='control-key']", NS)}
    assert keys == {"american": "american control", "japanese": "japanese control"}
    fills = {c.get("data-side"): c.get("fill") for c in root.findall(".//s:circle[@class='control']", NS)}
    assert {g.get("data-side"): g.find("s:circle", NS).get("fill")
            for g in root.findall(".//s:g[@class='control-key']", NS)} == fills
