"""Map and position files from strangers (issue 12): words from a strict pattern, names plain text, and the work a
file may cause bounded and refused before it is done, with an error naming the bad value; nothing written.
(A 15 KB map of 1000x1000 hexes once cost 108 s of CPU and 914 MiB, and was accepted.)"""
import json
from pathlib import Path

import pytest

from app.mail.transport import MailConfig
from app.rules.custom_setup import SetupError, parse_position, read_files
from app.rules.kernel.mapfile import MapError, load_map, loads_map
from app.web import create_app

ICHIGO_MAP = Path("app/rules/ichigo/data/map.toml")
SMALL = """
[map]
name = "Small"
parity = "even-low"
cols = [1, COLS]
rows = [1, ROWS]
[vocabulary]
terrain = ["clear", "woods"]
[terrain]
default = "clear"
"""
PLAYERS = {"japanese": "j@x.example", "allied": "a@x.example"}


def small(cols: int = 3, rows: int = 3, more: str = "") -> str:
    return SMALL.replace("COLS", str(cols)).replace("ROWS", str(rows)) + more


def problems(text: str) -> str:
    with pytest.raises(MapError) as caught:
        loads_map(text, "custom map")
    return str(caught.value)


@pytest.mark.parametrize("cols, rows", [(120, 40), (40, 120), (80, 80)])
def test_a_map_too_large_is_refused_before_it_is_built(cols, rows):
    said = problems(small(cols, rows))
    assert f"{cols} columns by {rows} rows is too large a map" in said and "6000 hexes" in said


def test_the_largest_printed_maps_fit_the_limits():
    for path in Path("app/rules").glob("*/data/map*.toml"):
        assert load_map(path).name


def test_a_map_file_too_many_bytes_is_refused_unread(tmp_path):
    padded = small(more="# " + "x" * 140_000 + "\n")
    assert "bytes; a map file may have at most 131072" in problems(padded)
    path = tmp_path / "big.toml"
    path.write_text(padded, encoding="utf-8")
    with pytest.raises(MapError, match="at most 131072"):
        load_map(path)


def test_rectangles_that_name_too_many_hexes_in_all_stop_the_reading():
    many = "\n".join('[[hexsides.between]]\nfeature = "river"\na = ["0101..5050"]\nb = ["0101..5050"]'
                     for _ in range(60))
    text = small(50, 50).replace('terrain = ["clear", "woods"]', 'terrain = ["clear"]\nhexside = ["river"]') + many
    assert "name more than 100000 hexes in all" in problems(text)


@pytest.mark.parametrize("where, text", [
    ("[vocabulary] terrain", small().replace('"woods"]', '"woods\\" onmouseover=\\"alert(1)"]')),
    ("[terrain] Woods", small().replace('"woods"]', '"Woods"]') + 'Woods = ["0101"]\n'),
    ("[terrain.override] 0101", small() + '[terrain.override]\n"0101" = "<b>"\n'),
    ("[edges] x<y", small() + '[edges]\n"x<y" = ["0101"]\n'),
    ("[[boxes]] #1", small() + '[[boxes]]\nid = "a b"\nname = "Box"\n'),
    ("[map] status", small().replace('name = "Small"', 'name = "Small"\nstatus = "re\\"con"')),
])
def test_a_word_outside_the_pattern_is_refused_by_name(where, text):
    said = problems(text)
    assert where in said and ("is not a valid word" in said or "unknown terrain" in said)


@pytest.mark.parametrize("name", ['Han"kow', "<img src=x onerror=alert(1)>", "Nan;king", "Nan&#107;ing", "a\nb",
                                  "x" * 61])
def test_a_place_name_that_is_not_plain_text_is_refused_by_name(name):
    said = problems(small() + f'[names]\n"0101" = {json.dumps(name)}\n')
    assert "[names] 0101: name" in said and "is not plain text" in said
    assert problems(small() + f'[[roads]]\nname = {json.dumps(name)}\npath = ["0101", "0102"]\n')


def test_names_from_the_printed_maps_stay_plain_text():
    m = loads_map(small() + '[names]\n"0101" = "Ch\'ang-sha (Changsha)"\n"0102" = "Kowloon/Hong Kong"\n')
    assert m.hex_named("Kowloon/Hong Kong")


@pytest.mark.parametrize("position, said", [
    ({"turn": 2, "phase": "VI", "units": {'jp"x': "1906"}}, "'jp\"x' is not a unit id"),
    ({"turn": 2, "phase": "VI", "removed": ["<b>"]}, "'<b>' is not a unit id"),
    ({"turn": 2, "phase": "VI", "units": {"jp-cea-1bde": "19<06"}}, "[units] jp-cea-1bde: '19<06' is not a hex"),
    ({"turn": 2, "phase": "VI", "control": {"japanese": ['1906" x']}}, "[control] japanese: '1906\" x' is not a"),
    ({"turn": 2, "phase": "V I"}, "'phase' names the phase the game starts in (a word), not 'V I'"),
    ({"turn": 2, "phase": "VI", "units": {f"u{i}": "0101" for i in range(1001)}}, "units: more than 1000 entries"),
    ({"turn": 2, "phase": "VI", "control": {"japanese": ["0101"] * 1001}}, "control japanese: more than 1000"),
])
def test_a_position_outside_the_patterns_or_the_limits_is_refused_by_name(position, said):
    with pytest.raises(SetupError) as caught:
        parse_position(position, ("japanese", "allied"), ())
    assert said in str(caught.value)


def test_a_position_file_too_large_is_refused_unread(tmp_path):
    path = tmp_path / "pos.toml"
    path.write_text('turn = 2\nphase = "VI"\n# ' + "x" * 70_000 + "\n", encoding="utf-8")
    with pytest.raises(SetupError, match="at most 65536"):
        read_files(None, path)


def test_the_cli_refuses_a_huge_map_early_and_writes_nothing(run, tmp_path):
    huge = ICHIGO_MAP.read_text(encoding="utf-8").replace("cols = [1, 36]", "cols = [1, 1000]").replace(
        "rows = [1, 25]", "rows = [1, 1000]")
    path = tmp_path / "huge.toml"
    path.write_text(huge, encoding="utf-8")
    result = run("new", "ichigo", "--map", str(path), ok=False)
    assert result.exit_code == 1 and "1000 columns by 1000 rows is too large a map" in result.output
    assert run("list", "--json").output.strip() in ("[]", "")


def test_the_api_refuses_a_hostile_or_huge_map_with_400_and_writes_nothing(tmp_path):
    key = "the-operator-key-of-this-test"
    app = create_app({"ADMIN_TOKEN": key, "HEXLEDGER_DB": str(tmp_path / "api.sqlite3"), "MAIL": MailConfig(),
                      "MAIL_TRANSPORT": type("Box", (), {"send": lambda self, m: None})()})
    client, operator = app.test_client(), {"Authorization": f"Bearer {key}"}
    text = ICHIGO_MAP.read_text(encoding="utf-8")
    for bad, said in [(text.replace("rows = [1, 25]", "rows = [1, 300]"), "36 columns by 300 rows"),
                      (text.replace('"rough", "mountain"', '"rough\\" onclick=\\"x", "mountain"'),
                       "word 'rough\" onclick=\"x' is not a valid word")]:
        r = client.post("/games", headers=operator, json={"rules": "ichigo", "players": PLAYERS, "map": bad})
        assert r.status_code == 400 and said in r.json["message"], r.json
    assert client.get("/games", headers=operator).json["games"] == []
