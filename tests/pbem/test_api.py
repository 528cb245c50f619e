"""The HTTP API as a client sees it: the OpenAPI document, JSON errors with the rules case, 409 on a stale
submission, plain-text and JSON orders, paging, rewind, preview, undo, export and verify; on each store backend
(SQLite, PostgreSQL: tests/conftest.py, `db_location`)."""
import json
import re

import pytest

from app.mail.transport import MailConfig
from app.rules import legal
from app.service import reads
from app.web import create_app
from tests.outbox import Outbox


@pytest.fixture
def api(db_location):
    app = create_app({"OPEN_GAME_CREATION": True,  # creating games is not what this tests
                      "HEXLEDGER_DB": db_location, "MAIL_TRANSPORT": Outbox(),
                      "MAIL": MailConfig()})
    client = app.test_client()
    r = client.post("/games", json={"rules": "skirmish", "players": {"red": "r@x.example", "blue": "b@x.example"}})
    g, tokens = r.json["game_id"], r.json["tokens"]

    def call(method, path, seat=None, **kw):
        headers = {"Authorization": f"Bearer {tokens[seat]}"} if seat else {}
        return client.open(path.replace("{g}", g), method=method, headers=headers, **kw)

    for seat in ("red", "blue"):
        call("POST", "/games/{g}/join", seat, json={"seed_text": seat})
    return app, call, g


def test_openapi_document_lists_every_route(api):
    app, call, _ = api
    spec = call("GET", "/openapi.json").json
    documented = {(path, verb.upper()) for path, ops in spec["paths"].items() for verb in ops}
    served = set()
    for rule in app.url_map.iter_rules():
        if rule.endpoint in ("static", "api-docs.openapi_json", "docs", "docs_asset"):  # the document, its page
            continue
        if rule.endpoint in ("replay.page", "replay.static"):  # the replay viewer's page (HTML) and its JS/CSS
            continue
        if rule.endpoint.startswith("play."):  # the play page (HTML: its sign-in, its sign-out) and its JS/CSS
            continue
        if rule.endpoint.startswith("players."):  # the player's page (HTML), its forms and its CSS
            continue
        path = re.sub(r"<(?:\w+(?:\([^)]*\))?:)?(\w+)>", r"{\1}", rule.rule)  # <int(max=...):seq> -> {seq}
        served |= {(path, m) for m in rule.methods - {"HEAD", "OPTIONS"}}
    assert served and served <= documented
    assert ("/replay/{game_id}/frames.json", "GET") in served  # the viewer's data is part of the API
    assert spec["components"]["securitySchemes"]["token"]["scheme"] == "bearer"
    page = call("GET", "/docs")
    assert page.status_code == 200 and "/games/{game_id}/orders" in page.get_data(as_text=True)
    # Swagger UI from this server (no CDN), no inline script: only script files of its own
    html = page.get_data(as_text=True)
    assert "<script src='/docs/swagger-ui-bundle.js'></script>" in html and "http" not in html.split("<body>")[1]
    assert "'unsafe-inline'" not in page.headers["Content-Security-Policy"].split("script-src")[1].split(";")[0]
    bundle = call("GET", "/docs/swagger-ui-bundle.js")
    assert bundle.status_code == 200 and bundle.mimetype == "text/javascript"
    assert call("GET", "/docs/index.html").status_code == 404  # only the two files the page uses


def test_the_replay_viewers_data_is_documented_and_served_as_the_games_routes(api):
    """The replay viewer's data (frames, maps, analysis, boards, chances) is on the API's own blueprint
    (app/web/blueprint.py: each route's documentation recorded on it, not run around it on every request), as every
    blueprint of the OpenAPI document is, and the document still says what each route takes and answers; a frames
    request without a query gets the defaults it documents, and a bad one the API's JSON refusal."""
    from flask_smorest import Blueprint

    from app.web.blueprint import ApiBlueprint

    app, call, _ = api
    documented = [bp for bp in app.blueprints.values() if isinstance(bp, Blueprint)]
    assert {bp.name for bp in documented} >= {"games", "replay_data"}
    assert all(isinstance(bp, ApiBlueprint) for bp in documented)
    paths = call("GET", "/openapi.json").json["paths"]
    frames = paths["/replay/{game_id}/frames.json"]["get"]
    assert {p["name"] for p in frames["parameters"] if p["in"] == "query"} == {"views", "from", "limit"}
    assert frames["security"] == [{"token": []}, {}] and {"200", "401", "403", "404"} <= set(frames["responses"])
    assert "FramesPage" in json.dumps(frames["responses"]["200"]) and "ApiError" in json.dumps(frames["responses"])
    assert "image/svg+xml" in paths["/replay/{game_id}/map/{seq}.svg"]["get"]["responses"]["200"]["content"]
    assert "requestBody" in paths["/replay/{game_id}/board.json"]["post"]
    plain = call("GET", "/replay/{g}/frames.json", "red")
    assert plain.status_code == 200 and plain.json == call("GET", "/replay/{g}/frames.json?from=1&views=false",
                                                           "red").json
    refused = call("GET", "/replay/{g}/frames.json?from=0", "red")
    assert refused.status_code == 422 and refused.json["error"]


def test_every_response_in_the_openapi_document_has_a_schema(api):
    """Issue 14: client generators need a body schema for each response, errors included."""
    _, call, _ = api
    spec = call("GET", "/openapi.json").json
    shared = spec["components"].get("responses", {})
    missing = []
    for path, ops in spec["paths"].items():
        for verb, op in ops.items():
            if not isinstance(op, dict):
                continue
            for code, response in op["responses"].items():
                response = shared[response["$ref"].rsplit("/", 1)[1]] if "$ref" in response else response
                if not any("schema" in c for c in response.get("content", {}).values()):
                    missing.append(f"{verb.upper()} {path} {code}")
    assert missing == []
    assert spec["components"]["schemas"]["ApiError"]["required"] == ["error", "message"]
    prompt = spec["components"]["schemas"]["PromptDoc"]["properties"]
    assert {"owed", "legal_orders"} <= set(prompt)


def test_an_answer_carries_only_the_keys_its_schema_declares(api, monkeypatch):
    """A key the rules or the service add to an answer reaches no client until the OpenAPI document declares it
    (app/web/declared.py): `odds_note` was answered in the legal orders before LegalOrder said what it was."""
    _, call, _ = api
    accepted, view_dict = legal._accepted, reads.view_dict
    monkeypatch.setattr(legal, "_accepted", lambda *a, **kw: {**accepted(*a, **kw), "undeclared": "inner detail"})
    monkeypatch.setattr(reads, "view_dict", lambda *a: {**view_dict(*a), "undeclared": "inner detail"})
    spec = call("GET", "/openapi.json").json["components"]["schemas"]
    prompt = call("GET", "/games/{g}/actions", "red").json
    assert prompt["legal_orders"] and prompt["legal_orders"][0]["order"] == "move R1 0101"
    for order in prompt["legal_orders"] + [o for kind in prompt["kinds"] for o in kind["orders"]]:
        assert set(order) <= set(spec["LegalOrder"]["properties"]), order
    state = call("GET", "/games/{g}/state", "red")
    assert state.json["view"]["units"] and set(state.json) <= set(spec["ViewDoc"]["properties"])
    for answer in (prompt, state.json, call("GET", "/games/{g}/state?at=3", "red").json):
        assert "inner detail" not in json.dumps(answer)


def test_preview_takes_the_bodies_orders_take_and_plans_out_of_turn(api):
    _, call, g = api
    as_text = call("POST", "/games/{g}/preview", "red", data="attack 0402 with R1", content_type="text/plain")
    as_json = call("POST", "/games/{g}/preview", "red", json={"order": "attack 0402 with R1"})
    assert as_text.status_code == as_json.status_code
    planned = call("POST", "/games/{g}/preview", "blue", data="attack 0302 with B1", content_type="text/plain")
    assert planned.status_code in (200, 422), planned.json
    assert "turn" not in planned.json.get("message", "")  # never refused for being out of turn


def test_a_preview_of_a_legal_move_says_legal_with_no_preview_and_of_a_refused_one_refuses(api):
    _, call, g = api
    r = call("POST", "/games/{g}/preview", "red", json={"order": "move R1 0202"})
    assert r.status_code == 200, r.json
    p = r.json["preview"]
    assert (p["legal"], p["previewed"], p["planning"], p["case"]) == (True, False, False, "SK 5.1")
    assert "may give this order now" in p["text"] and "no preview" in p["text"]
    call("POST", "/games/{g}/orders", "red", json={"order": "move R1 0202"})
    r = call("POST", "/games/{g}/preview", "red", json={"order": "move R1 0302"})
    assert r.status_code == 422 and r.json["case"] == "SK 4.1"  # a refusal stays a refusal, with its case


def test_a_preview_out_of_turn_of_a_kind_never_previewed_says_so_and_refuses_nothing(api):
    """The rule set declares the kinds it previews (SK: attacks): blue's move, out of turn, is planning with no
    preview, not a refusal that reads as if the move were wrong; blue's attack out of turn is still previewed."""
    _, call, g = api
    head = call("GET", "/games/{g}/state", "blue").json["seq"]
    r = call("POST", "/games/{g}/preview", "blue", json={"order": "move B1 0502"})
    assert r.status_code == 200, r.json
    p = r.json["preview"]
    assert (p["legal"], p["previewed"], p["planning"], p["case"]) == (None, False, True, "SK 5.1")
    assert "may not give this order now" in p["text"] and "only attack orders have a preview" in p["text"]
    assert call("GET", "/games/{g}/state", "blue").json["seq"] == head  # nothing written


def test_orders_as_text_and_json_and_a_stale_one_is_409(api):
    _, call, g = api
    r = call("POST", "/games/{g}/orders", "red", data="move R1 0202", content_type="text/plain")
    assert r.status_code == 201 and r.json["events"][-1]["text"] == "R1 moves 0202"
    seq = r.json["seq"]
    r = call("POST", "/games/{g}/orders", "red", json={"order": "move R2 0203", "expected_seq": seq - 1})
    assert r.status_code == 409 and "reload" in r.json["message"]
    r = call("POST", "/games/{g}/orders", "red", json={"order": "move R2 0203", "expected_seq": seq})
    assert r.status_code == 201
    r = call("POST", "/games/{g}/orders", "red", json={"order": "move R1 0302"})
    assert r.status_code == 422 and r.json == {"error": "IllegalOrder", "case": "SK 4.1",
                                               "message": "SK 4.1: R1 has already moved this turn"}
    r = call("POST", "/games/{g}/orders", "red", json={"order": "fly R1 home"})
    assert r.status_code == 422 and r.json["error"] == "InvalidOrder"
    r = call("POST", "/games/{g}/orders", "blue", json={"order": "end"})
    assert r.status_code == 422 and "red's turn" in r.json["message"]
    assert call("POST", "/games/{g}/orders", "red", json={}).status_code == 422


def test_state_rewind_history_paging_and_actions(api):
    _, call, g = api
    call("POST", "/games/{g}/orders", "red", json={"order": "move R1 0202"})
    units = {u["id"]: u["hex"] for u in call("GET", "/games/{g}/state?at=3", "blue").json["view"]["units"]}
    assert units["R1"] == "0102"
    assert call("GET", "/games/{g}/state?at=999", "blue").status_code == 404
    page = call("GET", "/games/{g}/history?limit=2", "blue").json
    assert [e["seq"] for e in page["events"]] == [1, 2] and page["next_from"] == 3
    rest = call("GET", f"/games/{{g}}/history?from={page['next_from']}", "blue").json
    assert rest["events"][0]["seq"] == 3 and rest["next_from"] is None
    assert [a["name"] for a in call("GET", "/games/{g}/actions", "red").json["actions"]] == ["move", "end"]
    assert call("GET", "/games/{g}/actions", "blue").json["actions"] == []


def test_preview_gives_odds_and_each_roll(api):
    _, call, g = api
    for order in ["move R1 0202", "move R2 0203 0303", "end", "end"]:
        call("POST", "/games/{g}/orders", "red", json={"order": order})
    for order in ["move B1 0602 0502", "move B2 0603 0503", "end", "end"]:
        call("POST", "/games/{g}/orders", "blue", json={"order": order})
    for order in ["move R1 0302 0402", "end"]:
        call("POST", "/games/{g}/orders", "red", json={"order": order})
    r = call("POST", "/games/{g}/preview", "red", json={"order": "attack 0502 with R1"})
    assert r.status_code == 200, r.json
    p = r.json["preview"]
    assert (p["attack"], p["defence"], p["column"]) == (4, 8, "1:2")
    assert (p["legal"], p["previewed"], p["planning"]) == (True, True, False)
    assert p["by_roll"]["1"]["result"] == "AE" and p["by_roll"]["6"]["result"] == "D1"
    assert call("GET", "/games/{g}/state", "red").json["seq"] == r.json["seq"]  # nothing rolled or written


def test_undo_before_the_opponent_has_looked_but_not_after(api):
    _, call, g = api
    call("POST", "/games/{g}/orders", "red", json={"order": "move R1 0202"})
    r = call("POST", "/games/{g}/undo", "red")
    assert r.status_code == 201
    units = {u["id"]: u["hex"] for u in call("GET", "/games/{g}/state", "red").json["view"]["units"]}
    assert units["R1"] == "0102"
    history = call("GET", "/games/{g}/history", "red").json["events"]
    assert history[-1]["text"].startswith("events") and "undo" in history[-1]["text"]
    call("POST", "/games/{g}/orders", "red", json={"order": "move R1 0202"})
    call("GET", "/games/{g}/state", "blue")  # blue has now seen it
    r = call("POST", "/games/{g}/undo", "red")
    assert r.status_code == 400 and "dispute it instead" in r.json["message"]


# Undo's "not seen" (docs/architecture.md practice 9): any read of the position by the opponent, through any door.
READS = {
    "state at the order": lambda call, seq: call("GET", f"/games/{{g}}/state?at={seq}", "blue"),
    "history": lambda call, seq: call("GET", "/games/{g}/history", "blue"),
    "export": lambda call, seq: call("GET", "/games/{g}/export", "blue"),
    "replay frames": lambda call, seq: call("GET", "/replay/{g}/frames.json", "blue"),
    "replay map": lambda call, seq: call("GET", f"/replay/{{g}}/map/{seq}.svg", "blue"),
    "replay analysis": lambda call, seq: call("GET", "/replay/{g}/analysis.json", "blue"),
    "replay chart": lambda call, seq: call("GET", "/replay/{g}/charts/losses.svg", "blue"),
}


@pytest.mark.parametrize("read", sorted(READS))
def test_any_read_of_the_position_by_the_opponent_stops_undo(api, read):
    """Issue 12: `state?at=`, the export and the replay with its frames, maps and analysis were not counted."""
    _, call, _ = api
    seq = call("POST", "/games/{g}/orders", "red", json={"order": "move R1 0202"}).json["seq"]
    r = READS[read](call, seq)
    assert r.status_code == 200
    r = call("POST", "/games/{g}/undo", "red")
    assert r.status_code == 400 and "already seen" in r.json["message"], (read, r.json)
    assert {u["id"]: u["hex"] for u in call("GET", "/games/{g}/state", "red").json["view"]["units"]}["R1"] == "0202"


def test_a_position_before_the_order_is_not_a_read_of_it(api):
    _, call, _ = api
    order = call("POST", "/games/{g}/orders", "red", json={"order": "move R1 0202"}).json["events"][0]
    assert order["text"] == "red orders: move R1 0202"
    assert call("GET", f"/games/{{g}}/state?at={order['seq'] - 1}", "blue").status_code == 200
    assert call("POST", "/games/{g}/undo", "red").status_code == 201


def test_export_and_verify(api):
    _, call, g = api
    call("POST", "/games/{g}/orders", "red", json={"order": "move R1 0202"})
    r = call("GET", "/games/{g}/export", "red")
    assert r.status_code == 200 and r.headers["X-Hexledger-Export"] == "filtered"
    assert "move R1 0202" in r.get_data(as_text=True)
    v = call("GET", "/games/{g}/verify", "blue").json
    assert v["ok"] and v["orders_replayed"] == 1
    assert call("POST", "/games/{g}/fork", "red", json={"at": 3}).status_code == 403


def test_a_game_is_created_with_optional_rules_in_its_first_event_and_bad_ones_are_refused(api):
    """POST /games "optional" (Formosa 25.0, ruling F91): recorded when the game starts, shown in each view; an
    unknown rule, or a game without optional rules, answers 400 and creates nothing."""
    app, call, _ = api
    client = app.test_client()
    players = {"allied": "a@x.example", "japanese": "j@x.example"}
    made = client.post("/games", json={"rules": "formosa", "players": players, "optional": ["25.3", "25.10"]})
    assert made.status_code == 201, made.json
    token = made.json["tokens"]["allied"]
    shown = client.get(f"/games/{made.json['game_id']}/state", headers={"Authorization": f"Bearer {token}"})
    assert shown.json["view"]["optional_rules"] == ["25.3", "25.10"]
    skirmish = {"red": "r@x.example", "blue": "b@x.example"}
    for body, says in (({"rules": "formosa", "players": players, "optional": ["25.11"]}, "unknown optional rule"),
                       ({"rules": "skirmish", "players": skirmish, "optional": ["25.1"]}, "takes no options")):
        refused = client.post("/games", json=body)
        assert refused.status_code == 400 and says in json.dumps(refused.json), refused.json
