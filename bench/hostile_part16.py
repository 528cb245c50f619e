"""Hostile custom positions, many a game, read through every channel (the project's definition of done: no input
gives a 5xx or a traceback; bad input gets a clear error and changes nothing). Part 15's hunt
(bench/hostile_part15.py) read two accepted positions a game; this one reads every accepted one it keeps.

For each game (SNC, Ichi-Go, Dai Senso, Olympic, Formosa; skirmish, which takes no position, is given some), the
positions of docs/custom-positions.md and the tests' own, made hostile: part 15's mutations (missing keys, wrong
types, off-map hexes, duplicated lists, turns and phases out of range, over-stacked hexes) and counter values of
their own (Dai Senso `values`, Formosa and Olympic `[values]`, Olympic `[militia]`, steps): 0, negative, huge,
fractional, strings, Unicode digits, booleans. Each is
1. read by the rules (`initial_state`): anything but a ValueError (SetupError) is a finding;
2. when accepted: the prompt, each side's and the arbiter's view, the list of legal orders for each side, and
   every listed order (up to --listed) checked, decided on seeded dice and previewed (part 15's `play_position`);
3. sent through the API (`POST /games`: a refusal must be a 4xx), and when accepted read as each side and as the
   arbiter: /state, /actions, /history, /map.svg, /export, /verify, /chain, /standing, the replay's frames,
   analysis and map, /preview of listed orders; then a listed order is played and the reads are made again;
4. for a few a game, the same through the CLI (in process, click's runner): `new --position`, `show`, `state
   --as`, `log`, `preview`, `do`, `render`, `analyze`: a traceback (an exception other than the CLI's own exit) is
   a finding.

The baseline, measured in the same run: the seconds to read the documented (unmutated) positions the same way.

Usage: nice -n 10 python bench/hostile_part16.py [--games snc ...] [--max N] [--api N] [--cli N] [--listed N]
       [--seed S]
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import argparse  # noqa: E402
import copy  # noqa: E402
import json  # noqa: E402
import random  # noqa: E402
import re  # noqa: E402
import signal  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
import traceback  # noqa: E402

import hostile_part15 as h15  # noqa: E402

from app.rules.catalog import installed  # noqa: E402

CATALOG = installed()
GAMES = ("snc", "ichigo", "daisenso", "olympic", "formosa", "skirmish")
VALUES = [0, 1, 99, 100, -1, -(10**6), 10**30, 2**63, 1.5, 0.0, -0.5, "3", "\u0663", "", "x", True, False, None, [], {},
          [3], float("nan"), float("inf")]
findings: list[str] = h15.findings  # one list: part 15's helpers append to it
seen = h15.seen


def finding(kind: str, where: str, text, exc: BaseException | None = None, note: str = "") -> None:
    if exc is not None:
        h15.finding(kind, where, text, exc)
        return
    line = f"FINDING [{kind}] {where}: {str(text)[:200]!r} {note}"
    if line not in findings:
        findings.append(line)
        print(line, flush=True)


# -- positions ----------------------------------------------------------------------------------------------------
def test_positions() -> dict[str, list[dict]]:
    """A few more seeds than the doc's: a combat under way or a what-if with values, from the tests' own files."""
    out: dict[str, list[dict]] = {}
    out.setdefault("daisenso", []).append({
        "name": "hunt", "turn": 1, "phase": "regular", "phasing": "axis", "factions": ["axis", "western"],
        "combat_phases": 2, "victory": {"faction": "axis", "hold": ["w4722"]},
        "unit": [{"id": "jp-a", "kind": "jp-army", "hex": "w4622"},
                 {"id": "cn-1", "kind": "kmt-army", "hex": "w4722"}]})
    out.setdefault("formosa", []).append({"turn": 4, "phase": "allied-combat", "revealed": ["jp-9-7"],
                                          "units": {"us-7-17": "1012", "us-7-32": "1012", "jp-9-7": "1013"}})
    out.setdefault("olympic", []).append({"turn": 2, "phase": "combat", "beachheads": ["3336"],
                                          "units": {"us-25-27": "3235", "us-25-35": "3137", "jp-154-1": "3136"}})
    out.setdefault("ichigo", []).append({"turn": 2, "phase": "I", "units": {"jp-cea-3div": "0812",
                                                                             "cn-reg-05": "0813"}})
    return out


def value_mutations(name: str, raw: dict, rng: random.Random) -> list[tuple[str, dict]]:
    """Counter values of the position's own: each field of each game's `values`, steps, militia."""
    out: list[tuple[str, dict]] = []

    def m(label, f):
        r = copy.deepcopy(raw)
        try:
            f(r)
        except Exception:  # noqa: BLE001 - does not fit this position
            return
        out.append((label, r))

    units = raw.get("units") if isinstance(raw.get("units"), dict) else {}
    uids = list(units)
    fields = {"olympic": ("strength", "movement"), "formosa": ("cf", "mf", "concealed_mf", "base_cf", "indicator")}
    if name in fields and uids:
        for f in fields[name]:
            for v in VALUES:
                m(f"values {f} = {v!r}", lambda r, f=f, v=v: r.setdefault("values", {}).__setitem__(
                    rng.choice(uids), {f: v}))
                m(f"values {f} = {v!r} for every unit", lambda r, f=f, v=v: r.__setitem__(
                    "values", {u: {f: v} for u in uids}))
        m("values for a unit not placed", lambda r: r.setdefault("values", {}).__setitem__("us-1mar-1", {"cf": 0}))
        m("values for no unit", lambda r: r.setdefault("values", {}).__setitem__("nobody", {"strength": 0}))
        m("values a list", lambda r: r.__setitem__("values", [0]))
    if name == "olympic":
        hexes = sorted(set(units.values())) or ["3236"]
        for v in VALUES:
            m(f"militia = {v!r}", lambda r, v=v: r.setdefault("militia", {}).__setitem__(rng.choice(hexes), v))
        m("militia off the map", lambda r: r.setdefault("militia", {}).__setitem__("9999", 3))
        m("casualty_points huge", lambda r: r.__setitem__("casualty_points", 10**30))
        m("casualty_points -1", lambda r: r.__setitem__("casualty_points", -1))
    if name == "daisenso" and isinstance(raw.get("unit"), list):
        for i in range(len(raw["unit"])):
            for f in ("attack", "defense", "ma"):
                for v in VALUES:
                    m(f"unit {i} values {f} = {v!r}", lambda r, i=i, f=f, v=v: r["unit"][i].__setitem__(
                        "values", {f: v}))
            m(f"unit {i} all values 0", lambda r, i=i: r["unit"][i].__setitem__(
                "values", {"attack": 0, "defense": 0, "ma": 0}))
        m("every defence 0", lambda r: [u.__setitem__("values", {"defense": 0}) for u in r["unit"]])
        m("every value 0", lambda r: [u.__setitem__("values", {"attack": 0, "defense": 0, "ma": 0})
                                      for u in r["unit"]])
        m("every attack 99", lambda r: [u.__setitem__("values", {"attack": 99}) for u in r["unit"]])
        m("duplicate ids, other hex", lambda r: r["unit"].append({**r["unit"][0], "hex": r["unit"][-1]["hex"]}))
    if name in ("snc", "ichigo") and uids:
        for v in VALUES:
            m(f"steps = {v!r}", lambda r, v=v: r.setdefault("steps", {}).__setitem__(rng.choice(uids), v))
            m(f"steps = {v!r} for every unit", lambda r, v=v: r.__setitem__("steps", {u: v for u in uids}))
    if name == "ichigo":
        for v in (0, -1, 99, 10**30, 1.5, "2", True):
            m(f"draw = {v!r}", lambda r, v=v: r.setdefault("draw", {}).__setitem__("0712", v))
    if name == "formosa" and uids:
        m("every Japanese unit a 0-factor", lambda r: r.__setitem__(
            "values", {u: {"cf": 0} for u in uids if u.startswith("jp")}))
        m("every unit a 0-factor", lambda r: r.__setitem__("values", {u: {"cf": 0} for u in uids}))
    if uids:
        m("unicode unit id", lambda r: r["units"].__setitem__("us-\u0663", next(iter(units.values()))))
        m("unit id with markup", lambda r: r["units"].__setitem__("<b>x</b>", next(iter(units.values()))))
        m("unicode hex", lambda r: r["units"].__setitem__(uids[0], "\u0660\u0668\u0661\u0662"))
        m("all units on one hex", lambda r: r.__setitem__("units", {u: units[uids[0]] for u in uids}))
    return out


def positions(name: str, rng: random.Random, hexes: list[str]) -> list[tuple[str, dict]]:
    seeds = h15.doc_positions().get(name, []) + test_positions().get(name, [])
    if name == "skirmish":  # no position: each given one must be refused clearly
        return [("a position", {"turn": 1, "units": {}}), ("a map", {"map": "x"})]
    out = []
    for i, raw in enumerate(seeds):
        out.append((f"#{i} as documented", raw))
        out += [(f"#{i} {label}", p) for label, p in h15.mutations(raw, rng, hexes)]
        out += [(f"#{i} {label}", p) for label, p in value_mutations(name, raw, rng)]
    return out


def read_rules(name: str, scenario: str, label: str, pos: dict, rng: random.Random, listed: int):
    """1 and 2: the rules read the position; an accepted one is listed and played into. Returns the state or None."""
    rules = CATALOG.rules(name)
    options = pos if name == "skirmish" and "map" in pos else {"position": pos}
    signal.alarm(60)
    try:
        state = rules.initial_state(scenario, options, rules.version)
    except ValueError as exc:
        if not str(exc).strip():
            finding("positions", f"{name} {label}", "", note="refused with an empty message")
        return None
    except BaseException as exc:  # noqa: BLE001 - a finding
        if isinstance(exc, KeyboardInterrupt):
            raise
        finding("positions", f"{name} {label}", json.dumps(pos, default=str)[:300], exc)
        return None
    finally:
        signal.alarm(0)
    h15_listed = h15.listed

    def fewer(rules_, state_, side):
        return h15_listed(rules_, state_, side)[:listed]
    h15.listed = fewer
    try:
        h15.play_position(name, rules, state, label, rng)
    finally:
        h15.listed = h15_listed
    return state


# -- the API ------------------------------------------------------------------------------------------------------
class Api:
    def __init__(self, tmp: str):
        from app.mail.transport import MailConfig
        from app.web import create_app
        from tests.outbox import Outbox
        self.key = "hunt-operator-key"
        self.app = create_app({"HEXLEDGER_DB": str(Path(tmp) / "hunt.sqlite"), "MAIL_TRANSPORT": Outbox(),
                               "MAIL": MailConfig(), "HEXLEDGER_RATE_LIMIT": "1000000 per minute",
                               "ADMIN_TOKEN": self.key, "HEXLEDGER_REPLAY_RATE_LIMIT": "1000000 per minute"})
        self.client = self.app.test_client()
        self.requests = 0

    def call(self, method: str, path: str, where: str, token: str | None = None, **kw):
        headers = {"Authorization": f"Bearer {token or self.key}"}
        signal.alarm(120)
        try:
            got = getattr(self.client, method)(path, headers=headers, **kw)
        except BaseException as exc:  # noqa: BLE001
            if isinstance(exc, KeyboardInterrupt):
                raise
            finding("api", f"{where} {method.upper()} {path}", "", exc)
            return None
        finally:
            signal.alarm(0)
        self.requests += 1
        body = got.get_data(as_text=True)
        if got.status_code >= 500 or "Traceback (most recent call last)" in body:
            finding("api", f"{where} {method.upper()} {path}", body[:160], note=f"-> {got.status_code}")
        return got

    def create(self, name: str, scenario: str, label: str, pos: dict):
        rules = CATALOG.rules(name)
        body = {"rules": name, "scenario": scenario, "players": {s: f"{s}@x.example" for s in rules.sides},
                "arbiter": "a@x.example", "auto": []}
        body.update(pos if name == "skirmish" and "map" in pos else {"position": pos})
        try:
            json.dumps(body, allow_nan=False)
        except ValueError:  # NaN and infinities are no JSON: sent as the text a client would send
            r = self.call("post", "/games", f"{name} {label!r}", data=json.dumps(body), content_type="application/json")
        else:
            r = self.call("post", "/games", f"{name} {label!r}", json=body)
        if r is None or r.status_code != 201:
            if r is not None and r.status_code < 500 and not (r.json or {}).get("message", r.get_data(as_text=True)):
                finding("api", f"{name} {label!r}", "POST /games", note="refused with no message")
            return None
        game_id, tokens = r.json["game_id"], r.json["tokens"]
        for s in rules.sides:
            self.call("post", f"/games/{game_id}/join", f"{name} {label!r}", tokens[s], json={"seed_text": s})
        return game_id, tokens

    def reads(self, name: str, label: str, game_id: str, tokens: dict, rng: random.Random) -> list[str]:
        rules = CATALOG.rules(name)
        where = f"{name} {label!r}"
        paths = [f"/games/{game_id}", f"/games/{game_id}/state", f"/games/{game_id}/actions",
                 f"/games/{game_id}/map.svg", f"/games/{game_id}/history", f"/games/{game_id}/standing",
                 f"/games/{game_id}/chain", f"/games/{game_id}/export", f"/games/{game_id}/verify",
                 f"/games/{game_id}/clock", f"/replay/{game_id}/frames.json", f"/replay/{game_id}/analysis.json",
                 f"/replay/{game_id}/map/1.svg", f"/replay/{game_id}/"]
        orders: dict[str, list[str]] = {}
        for seat in [*rules.sides, "arbiter"]:
            token = tokens.get(seat)
            for path in paths:
                r = self.call("get", path, f"{where} as {seat}", token)
                if r is not None and path.endswith("/actions") and r.status_code == 200:
                    orders[seat] = [o.get("order") for o in (r.json or {}).get("legal_orders", [])
                                    if isinstance(o, dict) and o.get("order")]
        for seat, listed in orders.items():
            for text in rng.sample(listed, min(3, len(listed))):
                self.call("post", f"/games/{game_id}/preview", f"{where} as {seat}", tokens.get(seat),
                          data=text.encode(), content_type="text/plain")
        return [(seat, text) for seat in rules.sides for text in orders.get(seat, [])]

    def play(self, name: str, label: str, game_id: str, tokens: dict, rng: random.Random) -> None:
        """A listed order played (each refused one must leave the history as it was), then every read again."""
        rules = CATALOG.rules(name)
        where = f"{name} {label!r}"
        listed = self.reads(name, label, game_id, tokens, rng)
        rng.shuffle(listed)
        for seat, text in listed[:3]:
            before = self.call("get", f"/games/{game_id}/history", where, tokens[seat])
            o = self.call("post", f"/games/{game_id}/orders", f"{where} as {seat}", tokens[seat],
                          data=text.encode(), content_type="text/plain")
            if o is not None and 400 <= o.status_code < 500 and before is not None:
                after = self.call("get", f"/games/{game_id}/history", where, tokens[seat])
                if after is not None and after.get_data() != before.get_data():
                    finding("api", f"{where} as {seat}", text, note="a refused order changed the history")
            if o is not None and o.status_code < 300:
                break
        del rules
        self.reads(name, label, game_id, tokens, rng)


# -- the CLI (in process) -----------------------------------------------------------------------------------------
def cli_round(name: str, scenario: str, label: str, pos: dict, tmp: str, n: int) -> int:
    from click.testing import CliRunner

    from app.cli import cli
    runner = CliRunner()
    db = str(Path(tmp) / "cli.sqlite")
    pfile = Path(tmp) / f"{name}-{n}.toml"
    if name == "skirmish" and "map" in pos:
        pfile.write_text("not = 'a map'\n")
        first = ["--db", db, "new", name, "--map", str(pfile)]
    else:
        pfile.write_text(h15._to_toml(pos))
        first = ["--db", db, "new", name, "--scenario", scenario, "--position", str(pfile), "--no-auto"]
    calls = 0

    def run(args: list[str]):
        nonlocal calls
        calls += 1
        signal.alarm(300)
        try:
            res = runner.invoke(cli, args, catch_exceptions=True)
        finally:
            signal.alarm(0)
        if res.exception is not None and not isinstance(res.exception, SystemExit):
            tb = "".join(traceback.format_exception(res.exception))[-300:]
            finding("cli", f"cli.py {' '.join(args[2:4])} ({name} {label!r})", tb.replace("\n", " | "))
        return res

    res = run(first)
    m = re.search(r"\bg-[0-9a-f]{6,}\b", res.output)
    if not m:
        return calls
    game = m.group(0)
    rules = CATALOG.rules(name)
    for s in rules.sides:
        run(["--db", db, "join", game, "--side", s, "--name", f"{s}@x.example"])
    run(["--db", db, "show", game])
    run(["--db", db, "log", game])
    for s in [*rules.sides, None]:
        run(["--db", db, "state", game, "--json", *(["--as", s] if s else [])])
        run(["--db", db, "render", game, "-o", str(Path(tmp) / "m.svg"), *(["--as", s] if s else [])])
    try:
        from app.rules import legal
        st = rules.initial_state(scenario, {"position": pos}, rules.version)
        side = rules.prompt(st).side or rules.sides[0]
        texts = [o["order"] for o in legal.legal_orders(rules, st, side)]
        texts = sorted(texts, key=lambda t: (t.split()[0] in ("end", "pass"), t))[:3]
    except Exception:  # noqa: BLE001 - the rules' own findings are counted by read_rules
        side, texts = rules.sides[0], []
    for text in texts:
        run(["--db", db, "preview", game, text, "--as", side])
    if texts:
        run(["--db", db, "do", game, texts[0], "--as", side])
    run(["--db", db, "analyze", game])
    run(["--db", db, "log", game])
    return calls


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", nargs="*", default=list(GAMES))
    parser.add_argument("--api", type=int, default=40, help="accepted positions a game sent through the API")
    parser.add_argument("--cli", type=int, default=4, help="accepted positions a game sent through the CLI")
    parser.add_argument("--listed", type=int, default=12, help="listed orders decided per side and position")
    parser.add_argument("--max", type=int, default=300, help="positions a game, the documented ones first")
    parser.add_argument("--seed", type=int, default=16)
    args = parser.parse_args()
    signal.signal(signal.SIGALRM, h15._alarm)
    totals = {"tried": 0, "accepted": 0, "api": 0, "cli": 0}
    with tempfile.TemporaryDirectory() as tmp:
        api = Api(tmp)
        for name in args.games:
            rules = CATALOG.rules(name)
            scenario = "custom" if "custom" in rules.scenarios else next(iter(rules.scenarios))
            base = rules.initial_state(next(iter(rules.scenarios)), {}, rules.version)
            rng = random.Random(f"{args.seed}-{name}")
            hexes = h15.map_hexes(rules, base)
            t0 = time.perf_counter()
            found = positions(name, rng, hexes)
            documented = [x for x in found if x[0].endswith("as documented")]
            # the edges of what a reader accepts first: 0 and the largest values, every unit at once
            edges = [x for x in found if x not in documented and re.search(
                r"= (0|1|99)( |$)|all values 0|every|0-factor|duplicate|one hex", x[0])]
            rest = [x for x in found if x not in documented and x not in edges]
            documented += rng.sample(edges, min(len(edges), args.max // 2))
            n_made = len(found)
            found = documented + rng.sample(rest, min(len(rest), max(0, args.max - len(documented))))
            accepted, baseline = [], 0.0
            for i, (label, pos) in enumerate(found):
                totals["tried"] += 1
                if i and i % 50 == 0:
                    print(f"    {name}: {i} positions read, {len(accepted)} accepted, {time.perf_counter() - t0:.0f} s",
                          flush=True)
                s0 = time.perf_counter()
                state = read_rules(name, scenario, label, pos, rng, args.listed)
                if label.endswith("as documented"):
                    baseline += time.perf_counter() - s0
                if state is not None:
                    accepted.append((label, pos))
            totals["accepted"] += len(accepted)
            t_rules = time.perf_counter() - t0
            # the API: every accepted one up to --api (the documented first), and a sample of the refused ones
            t1 = time.perf_counter()
            refused = [x for x in found if x not in accepted]
            chosen = accepted[:1] + rng.sample(accepted[1:], min(len(accepted) - 1, args.api - 1)) if accepted else []
            for label, pos in chosen + rng.sample(refused, min(len(refused), args.api)):
                made = api.create(name, scenario, label, pos)
                if made:
                    api.play(name, label, made[0], made[1], rng)
            t_api = time.perf_counter() - t1
            t2 = time.perf_counter()
            for i, (label, pos) in enumerate((chosen or found)[: args.cli]):
                totals["cli"] += cli_round(name, scenario, label, pos, tmp, i)
            t_cli = time.perf_counter() - t2
            print(f"  {name}: {len(found)} positions (of {n_made} made), {len(accepted)} accepted "
                  f"(rules {t_rules:.1f} s, the documented ones {baseline:.1f} s of it); API {len(chosen)} accepted "
                  f"+ refused sample, {t_api:.1f} s; CLI {t_cli:.1f} s; {len(findings)} findings so far", flush=True)
        totals["api"] = api.requests
    print(f"{totals['tried']} hostile positions, {totals['accepted']} accepted; {totals['api']} API requests, "
          f"{totals['cli']} CLI commands; {len(findings)} findings")
    for line in findings:
        print(line)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
