"""Every SVG and HTML the server writes keeps game data as text (issue 12): each hostile name comes back from
the parsed document exactly, as one attribute's value or one element's text, and adds no element, attribute or
handler. Outputs: the map picture (replay, `render`, turn emails), the analysis charts, the /docs page, and the
replay's own pages."""
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from app.mail.transport import MailConfig
from app.projections import analysis, render
from app.rules.kernel.mapfile import map_from_dict
from app.web import create_app

SHAPES = ['a"b', "a'b", "x\" onmouseover=\"alert(1)", "</text><script>alert(1)</script>",
          "<img src=x onerror=alert(1)>", "&amp; &lt;", "]]><x/>"]
SVG = "{http://www.w3.org/2000/svg}"
ALLOWED = {"svg", "g", "title", "rect", "polygon", "polyline", "line", "circle", "text"}


def elements(svg: str) -> list[ET.Element]:
    root = ET.fromstring(svg)  # well-formed whatever the names hold
    found = list(root.iter())
    assert {e.tag.removeprefix(SVG) for e in found} <= ALLOWED
    assert not [a for e in found for a in e.attrib if a.lower().startswith("on") or "href" in a]
    return found


def hostile_map(word: str, name: str):
    """A map whose words and names are `word` and `name`: built from a dict, past the file loader's patterns, as
    the renderer must hold on its own."""
    m = map_from_dict({"map": {"name": "m", "parity": "even-low", "cols": [1, 3], "rows": [1, 3]},
                       "vocabulary": {"terrain": ["clear"], "hexside": ["river"], "features": ["city"]},
                       "terrain": {"default": "clear"}, "hexsides": {"river": ["0101/0102"]},
                       "features": {"city": ["0202"]}, "names": {"0202": "x"}})
    vocabulary = type(m.vocabulary)(terrain=frozenset({word}), hexside=frozenset({word}),
                                    features=frozenset({"city"}))
    sides = {s: frozenset({word}) for s in m._sides}
    return type(m)(name=m.name, grid=m.grid, vocabulary=vocabulary, default_terrain=word, _sides=sides,
                   _features=dict(m._features), _names={h: name for h in m._names})


@pytest.mark.parametrize("shape", SHAPES)
def test_the_map_picture_keeps_every_name_as_text(shape):
    game_map = hostile_map(shape, shape)
    view = {"units": [{"id": shape, "side": shape, "hex": "0101", "strength": shape, "steps": 2},
                      {"id": "u2", "side": shape, "hex": "0101", "strength": 1, "steps": 1}],
            "control": {"0202": shape}, "victory_hexes": ["0202"]}
    svg = render.render_map(game_map, view, (shape, "blue"), title=shape)
    found = elements(svg)
    terrain = [e for e in found if e.get("data-terrain") is not None]
    assert len(terrain) == 9 and {e.get("data-terrain") for e in terrain} == {shape}
    assert {e.get("data-feature") for e in found if e.get("data-hexside")} == {shape}
    counter = next(e for e in found if e.get("class") == "counter" and e.get("data-unit") == shape)
    assert counter.get("data-side") == shape
    assert [t.text for t in counter.iter(f"{SVG}text")] == [shape, shape]
    assert next(e for e in found if e.get("class") == "control").get("data-side") == shape
    texts = [e.text for e in found if e.tag in (f"{SVG}text", f"{SVG}title")]
    assert texts.count(shape) >= 5  # the title, the place name, the counter, the legend's terrain, side, hexside


@pytest.mark.parametrize("shape", SHAPES)
def test_the_analysis_charts_keep_every_name_as_text(shape):
    bars = analysis.bar_chart(shape, ["1", shape], {shape: [1, 2], "blue": [0, 1]},
                              {shape: "#111111", "blue": "#222222"}, shape)
    lines = analysis.line_chart(shape, {shape: [(1, 1), (2, 2)]}, {shape: "#111111"}, shape, shape,
                                band={shape: 1.0})
    for svg in (bars, lines):
        found = elements(svg)
        texts = [e.text for e in found]
        assert texts.count(shape) >= 3  # the title, an axis label, the legend
    found = elements(bars)
    assert {e.get("data-side") for e in found if e.get("class") == "bar"} == {shape, "blue"}
    assert shape in {e.get("data-category") for e in found if e.get("class") == "bar"}


def test_an_element_escapes_every_value_and_keeps_only_markup_it_built():
    from app.projections.markup import el

    assert str(el("text", '<b a="1">', x='1" onload="x', class_="c", data_n=None)) == \
        '<text x="1&#34; onload=&#34;x" class="c">&lt;b a=&#34;1&#34;&gt;</text>'
    assert str(el("g", el("title", "'"), "&")) == "<g><title>&#39;</title>&amp;</g>"
    with pytest.raises(ValueError):
        el("text", **{'x" onload="y': 1})


def test_the_server_pages_escape_what_they_show(tmp_path):
    app = create_app({"HEXLEDGER_DB": str(tmp_path / "db.sqlite3"), "MAIL": MailConfig()})
    client = app.test_client()
    for shape in SHAPES:
        page = client.get(f"/replay/{shape.replace('/', '')}/")  # the refusal page names the game asked for
        assert page.status_code == 401 and page.mimetype == "text/html"
        body = page.get_data(as_text=True)
        assert "<script>" not in body and "<img" not in body and 'onmouseover="' not in body
    docs = client.get("/docs").get_data(as_text=True)
    # the API reference runs Swagger UI from script files of this server's own: no inline script or style
    assert "<style>" not in docs and "<script>" not in docs and " style=" not in docs
    assert re.findall(r"<script[^>]*>", docs) == ["<script src='/docs/swagger-ui-bundle.js'>",
                                                   "<script src='/static/docs.js'>"]


def test_no_output_is_written_with_a_quote_blind_escape():
    """The mechanism, not a spot: the outputs put data into markup through app/projections/markup.py only."""
    for path in ["app/projections/render.py", "app/projections/analysis.py", "app/web/__init__.py"]:
        text = Path(path).read_text(encoding="utf-8")
        assert "saxutils" not in text and "html.escape" not in text, path
