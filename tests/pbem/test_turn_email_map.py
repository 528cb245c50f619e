"""Issue 5, "a map of the area (attached picture or readable text)": every turn email, through the real SMTP server
on 127.0.0.1, carries the recipient side's view of the whole map as an SVG attachment and a text map of the hexes
near the action in its body, both from the same `view(state, side)` as the rest of the email: the recipient's own
units are there, the other side's hidden ones (SNC 6.3 beneath the top of a stack, Ichi-Go untried counters and
6.6) are not, for skirmish, Shanghai-Nanking and Ichi-Go."""
import random
import re
import xml.etree.ElementTree as ET

from app.events.dice import SeededDice
from app.mail import compose, inbound
from app.mail.inbound import body_text
from app.projections import counters as pieces
from app.projections import state as projection
from app.projections import textmap
from app.rules.catalog import installed
from app.rules.errors import OrderError
from app.rules.ichigo import GAME as ICHIGO
from app.rules.snc import GAME as SNC
from tests.ichigo.ichigo_randomplay import candidates
from tests.pbem.conftest import (
    MAP_LINE,
    SVG,
    counters,
    map_lines,
    map_picture,
    map_places,
    text_map,
    token_in,
)

CATALOG = installed()  # the rule sets installed here


def seat_players(pbem, smtp, rules: str, players: dict[str, str]) -> tuple[str, dict[str, str]]:
    game_id, _ = pbem.setup.create(rules, players)
    tokens = {}
    for address in players.values():
        invite = smtp.last(address, "Invitation")
        tokens[address] = token_in(invite)
        smtp.reply(invite, address, f"join: {address}'s dice text")
    assert [r.applied for r in inbound.ingest_maildir(pbem, smtp.maildir)] == [1] * len(players)
    return game_id, tokens


def orders(pbem, smtp, address: str, *lines: str, subject: str = "Your turn") -> inbound.Result:
    smtp.reply(smtp.last(address, subject), address, "\n".join(lines))
    [result] = inbound.ingest_maildir(pbem, smtp.maildir)
    return result


def names(text: str, uid: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(uid)}(?![\w-])", text) is not None


def drawn(view: dict) -> set[tuple[str, str, str]]:
    """(unit, side, hex) of every counter a view shows on the map: what the picture must draw, no more."""
    return {(u["id"], u["side"], u["hex"]) for u in view["units"] if u.get("hex")}


def test_skirmish_turn_emails_attach_the_map_and_list_the_hexes_near_the_action(pbem, smtp, store):
    red, blue = "red@players.example", "blue@players.example"
    game_id, _ = seat_players(pbem, smtp, "skirmish", {"red": red, "blue": blue})
    turn = smtp.last(red, "Your turn")
    svg = map_picture(turn)
    assert counters(svg) == {("R1", "red", "0102"), ("R2", "red", "0103"), ("R3", "red", "0104"),
                             ("B1", "blue", "0702"), ("B2", "blue", "0703"), ("B3", "blue", "0704")}  # no fog
    assert svg.find(f"{SVG}title").text == f"{game_id} after event 3, as red"
    # nothing in contact and nothing happened yet: the text map lists the stacks that can act, red's own
    assert list(map_lines(turn)) == ["0102", "0103", "0104"]
    assert "0102  clear  red: R1 (4)" in text_map(turn)
    assert f"attached as a picture: {game_id}-event-3-red.svg" in text_map(turn)

    assert orders(pbem, smtp, red, "move R1 0202", "move R2 0203 0303", "end", "end").applied == 4
    assert orders(pbem, smtp, blue, "move B1 0602 0502", "end", "end").applied == 3
    turn = smtp.last(red, "Your turn")
    state = projection.load(store, CATALOG, game_id)
    assert counters(map_picture(turn)) == drawn(CATALOG.rules("skirmish").view(state.game, "red"))
    lines = map_lines(turn)
    # B1 in 0502 is two hexes from R2 in 0303 (the front); B2 in 0703 is beside 0602, which B1 moved through (since
    # red's last email, the answer to its orders, only blue moved); B3 in 0704 is none of these
    assert state.game.units["B1"].hex == "0502"
    assert set(lines) == {"0303", "0502", "0703"}
    assert "woods  red: R2 (3)" in lines["0303"] and "blue: B1 (4)" in lines["0502"]
    assert list(lines).index("0303") < list(lines).index("0502")  # by label within a part of the map


def test_the_map_travels_as_plain_text_lines_a_third_smaller_than_base64(pbem, smtp, store):
    """The SVG is short lines of ASCII, so the attachment goes as it is (7bit), not base64: every mail program
    shows the same picture, the email is smaller, and every line stays under SMTP's 998 octets."""
    game_id, _ = seat_players(pbem, smtp, "snc", {"chinese": "cn@players.example", "japanese": "jp@players.example"})
    turn = smtp.last("cn@players.example", "Your turn")
    [part] = [p for p in turn.iter_attachments() if p.get_content_type() == "image/svg+xml"]
    assert part["Content-Transfer-Encoding"] == "7bit"
    svg = part.get_content()
    assert svg.startswith(b"<svg") and svg.isascii() and ET.fromstring(svg).tag == f"{SVG}svg"
    wire = turn.as_bytes()
    assert max(len(line) for line in wire.splitlines()) <= 998 and len(wire) < len(svg) * 4 / 3
    hexes = SNC.game_map(projection.load(store, CATALOG, game_id).game).hexes()
    assert len(map_picture(turn).findall(f".//{SVG}g[@class='terrain']/{SVG}polygon")) == len(list(hexes))


def test_an_attachment_that_is_not_short_ascii_lines_goes_as_base64():
    assert compose.transfer_encoding(b"<svg>\n<text>Nanking</text>\n</svg>") == "7bit"
    assert compose.transfer_encoding("<text>Nánjīng</text>".encode()) == "base64"  # 7bit is ASCII only
    assert compose.transfer_encoding(b"<g>" + b"x" * 999 + b"</g>") == "base64"  # SMTP's 998 octets a line
    assert compose.transfer_encoding(b"a\r\nb\0") == "base64"


def test_snc_pictures_and_text_maps_show_only_the_top_of_the_other_sides_stacks(pbem, smtp, store):
    """SNC 6.3: each side sees the top unit of an enemy stack and how high it is, never what is beneath."""
    cn, jp = "chinese@players.example", "japanese@players.example"
    game_id, _ = seat_players(pbem, smtp, "snc", {"chinese": cn, "japanese": jp})
    assert orders(pbem, smtp, cn, "declare move move", "end", "end", "end").applied == 4
    game = projection.load(store, CATALOG, game_id).game
    for side, address in (("japanese", jp), ("chinese", cn)):
        turn = smtp.last(address, "Your turn")
        view = SNC.view(game, side)
        svg, text = map_picture(turn), text_map(turn)
        assert counters(svg) == drawn(view)
        own = {(u.id, u.side, u.hex) for u in game.units.values() if u.side == side and u.on_map}
        assert own and own <= counters(svg)  # all the recipient's own units, where they are
        faces = {g.get("data-unit"): g for g in svg.iter(f"{SVG}g") if g.get("class") == "counter"}
        for uid, _, _ in own:  # as the counter prints them (SNC 2.2.1): type symbol, factor, the side's colours
            unit, g = game.units[uid], faces[uid]
            factor = [t.text for t in g.iter(f"{SVG}text") if t.get("class") == "factors"]
            assert g.get("data-type") == pieces.type_of(unit.type) and g.get("data-nation") == side
            assert factor == [f"({unit.cf})" if unit.static else str(unit.cf)]
        hidden = {u.id for u in game.units.values() if u.on_map and u.side != side} - {c[0] for c in counters(svg)}
        assert hidden, "the other side should have units beneath the top of a stack"
        raw = [p.get_content() for p in turn.iter_attachments()][0].decode()
        for uid in hidden:
            assert not names(raw, uid) and not names(text, uid), f"{side} is shown hidden {uid}"
    # the Japanese see the 87th Division on top of the Chinese stack in 3511, and how many units are beneath it
    jp_lines = map_lines(smtp.last(jp, "Your turn"))
    assert jp_lines["3511"].endswith("chinese: cn-d87 (5) +2 hidden below")
    badge = [g for g in map_picture(smtp.last(jp, "Your turn")).iter(f"{SVG}g")
             if g.get("class") == "stack-size" and g.get("data-hex") == "3511"]
    assert ["".join(b.itertext()) for b in badge] == ["3"]
    # and their own stack in Shanghai in full; the Chinese see its top unit only
    shanghai = sorted(u.id for u in game.at("3512"))
    assert len(shanghai) == 3 and all(uid in jp_lines["3512"] for uid in shanghai)
    cn_turn = smtp.last(cn, "Your turn")
    assert map_lines(cn_turn)["3512"].endswith("japanese: jp-gar-shanghai (2) +2 hidden below")
    # laid out as `cli.py state`: the place too long for its column goes on below, every line's counters start
    # in one column
    assert map_places(cn_turn)["3512"] == "paddy, Shanghai, victory hex (japanese control)"
    assert len({MAP_LINE.match(line).start(3) for line in map_lines(cn_turn).values()}) == 1


def ichigo_order(state, rng) -> str:
    """A legal Ichi-Go order for the side to act, 'end' or 'pass' first (tried on a copy: nothing is written)."""
    side = ICHIGO.prompt(state).side
    for text in sorted(candidates(state, rng), key=lambda t: t.split()[0] not in ("end", "pass")):
        try:
            ICHIGO.decide(state, ICHIGO.parse(text, side, state), SeededDice(next_index=0, seed="t", game_id="t"))
            return text
        except OrderError:
            continue
    raise AssertionError(f"no legal order at {ICHIGO.prompt(state).step}")


def check_ichigo_turn_email(turn, game, side: str) -> set[tuple[str, str, str]]:
    svg = map_picture(turn)
    assert counters(svg) == drawn(ICHIGO.view(game, side))
    raw = [p.get_content() for p in turn.iter_attachments()][0].decode()
    untried = [u for u in game.units.values() if u.on_map and not u.tried]
    assert len(untried) > 30
    for u in untried:
        assert u.ref not in raw and u.ref not in body_text(turn), f"{side} learns what {u.id} is"
    faces = {g.get("data-unit"): g for g in svg.iter(f"{SVG}g") if g.get("class") == "counter"}
    for u in untried:  # face down: "?", no type, no factors, and the tooltip says untried
        if u.id in faces:
            g = faces[u.id]
            assert g.get("data-type") == "" and "".join(g.find(f"{SVG}title").itertext()).endswith("untried")
            assert [t.text for t in g.iter(f"{SVG}text") if t.get("class") in ("factors", "size")] == []
    return counters(svg)


def test_ichigo_untried_counters_show_only_their_handle_in_picture_and_text(pbem, smtp, store):
    """Ichi-Go 3.3, 11.27: which unit an untried counter is, is hidden from both players; 6.6: the top unit only."""
    jp, al = "japanese@players.example", "allied@players.example"
    game_id, _ = seat_players(pbem, smtp, "ichigo", {"japanese": jp, "allied": al})
    assert orders(pbem, smtp, al, "deploy", "end").applied == 2
    game = projection.load(store, CATALOG, game_id).game
    turn = smtp.last(jp, "Your turn")
    shown = check_ichigo_turn_email(turn, game, "japanese")
    # C01 on top of the untried pair in 1703, next to the Japanese bridgehead in 1701; the one beneath is not shown
    top, *beneath = sorted(u.id for u in game.at("1703"))
    lines = map_lines(turn)
    assert beneath and lines["1703"].endswith(f"allied: {top} (untried) +{len(beneath)} hidden below")
    assert "japanese: jp-cea-110div (4)" in lines["1701"]
    assert all(b not in text_map(turn) and (b, "allied", "1703") not in shown for b in beneath)

    # the Japanese play on by email until the Allied player's next turn email: that one shows the stack in full,
    # still as handles only
    rng = random.Random(5)
    for _ in range(30):
        game = projection.load(store, CATALOG, game_id).game
        if ICHIGO.prompt(game).side != "japanese":
            break
        smtp.reply(smtp.inbox(jp)[-1], jp, ichigo_order(game, rng))
        [r] = inbound.ingest_maildir(pbem, smtp.maildir)
        assert r.applied == 1 and not r.refused, r.lines
    turn = smtp.last(al, "Your turn")
    assert ICHIGO.prompt(game).side == "allied" and f"event {projection.load(store, CATALOG, game_id).meta.seq};" in \
        body_text(turn)
    shown = check_ichigo_turn_email(turn, game, "allied")
    assert {(u.id, "allied", "1703") for u in game.at("1703")} <= shown


def test_text_map_keeps_the_front_first_within_its_limit_and_serves_the_arbiter():
    """textmap on its own: the limit keeps the hexes closest to another side; the arbiter (side None) sees all."""
    from app.projections import textmap
    from app.rules.skirmish import GAME

    smap = GAME.data().map

    units = [{"id": f"R{i}", "side": "red", "hex": f"01{i:02d}", "strength": 1} for i in range(1, 6)]
    units += [{"id": "B1", "side": "blue", "hex": "0303", "strength": 2, "hidden_below": 1},
              {"id": "B2", "side": "blue", "hex": "0205", "strength": 2},
              {"id": "B9", "side": "blue", "hex": None, "strength": 2}]  # off the map: never listed
    view = {"units": units, "victory_hexes": ["0403"], "control": {}}
    hexes, more, _ = textmap.area(smap, view, "red", limit=10)
    # R5 and B2 are adjacent; 0102-0104 and B1's 0303 are two hexes from the other side; R1 in 0101 is further
    assert [str(h) for h in hexes] == ["0105", "0205", "0102", "0103", "0104", "0303"] and more == 0
    hexes, more, _ = textmap.area(smap, view, "red", limit=3)
    assert [str(h) for h in hexes] == ["0105", "0205", "0102"] and more == 3
    text = textmap.render_area(smap, view, None, [], None, limit=6)
    assert "0303  woods  blue: B1 (2) +1 hidden below" in text and "0101" not in text and "B9" not in text
    assert "more hex(es)" not in textmap.render_area(smap, view, None, [], None, limit=6)
    assert "... and 1 more hex(es) with stacks\n" in textmap.render_area(smap, view, None, [], None, limit=5) + "\n"
    assert "attached" not in text
    assert textmap.render_area(smap, {"units": []}, "red") == "  (no units on the map)"


def test_the_position_text_shows_nested_records_by_id_and_groups_control_by_side():
    view = {"units": [{"id": "C01", "hex": "1703"}],
            "stacks": [{"hex": "1703", "units": [{"id": "C01", "name": "?"}, {"id": "C02"}], "hidden": 1}],
            "control": {"0712": "allied", "2008": "japanese", "3106": "japanese"}, "plans": {}}
    text = textmap.render_view(view)
    assert "{'" not in text and "[{" not in text
    assert "  1703  C01 C02  1" in text
    assert "  japanese: 2008 3106" in text and "  allied: 0712" in text and "plans: -" in text


def test_text_map_reads_hexes_of_a_map_sheet_in_the_history():
    """Dai Senso's labels carry their sheet ("w4324"); a bare number or an index is still no hex."""
    from app.rules.daisenso import GAME as DAISENSO

    state = DAISENSO.initial_state("strait", {})
    west = DAISENSO.game_map(state)
    rows = [{"type": "daisenso.StackRetreated", "text": "jp-9-div retreat from w4324 to w4224 (die roll #4424)"}]
    assert {str(h) for h in textmap.touched_hexes(west, rows)} == {"w4324", "w4224"}
