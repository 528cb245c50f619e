"""Hostile orders, hostile positions and the read paths of such games, hunted with budgets the CI cannot afford
(the project's definition of done: no input gives a 5xx; bad input gets a clear error and changes nothing).

Three hunts, each printing what it tried and every finding (an exception other than a clear refusal, with the
input, the exception and its last frame):
- orders: every game (SNC, Ichi-Go, Dai Senso, Olympic, Formosa) and every scenario, positions along random and
  greedy play; at each, for every side (in turn and out of turn), hostile orders: listed orders with words made
  hostile (tests/reliability/hostile.py's words, other games' words, odd case, spacing and Unicode), each game's
  syntax lines with hostile slots, random text. Each is parsed, checked, decided (seeded dice on the position) and
  previewed: anything but an OrderError is a finding, and so is a refused order that changed the position.
- positions: positions from docs/custom-positions.md made hostile (units on sea, off the map, on the other sheet,
  duplicated, missing keys, wrong types, huge numbers, empty sides, stacking far over limits, a turn past the last)
  and read by the rules as `POST /games` reads them: anything but a ValueError (SetupError) is a finding; a
  position that is accepted then has its legal lists read for each side and each listed order (and a few random
  ones) decided.
- reads: accepted hostile positions created through the API (`POST /games` with "position"), then /state, /actions,
  map.svg, history, the replay frames and analysis, and `cli.py analyze`: a 5xx or a traceback is a finding.

The baseline, measured in the same run: the seconds to parse the same number of orders' listed (unmutated) text.

Usage: nice -n 10 python bench/hostile_part15.py [--only orders positions reads] [--orders N] [--seed S]
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import argparse  # noqa: E402
import copy  # noqa: E402
import json  # noqa: E402
import random  # noqa: E402
import re  # noqa: E402
import signal  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
import tomllib  # noqa: E402
import traceback  # noqa: E402

from app.events import dice  # noqa: E402
from app.rules import legal  # noqa: E402
from app.rules.base import has_preview  # noqa: E402
from app.rules.catalog import installed  # noqa: E402
from app.rules.errors import OrderError  # noqa: E402

CATALOG = installed()
GAMES = ("snc", "ichigo", "daisenso", "olympic", "formosa")
HOSTILE = ["\u00b2", "\u0663", "\u0660\u0662\u0660\u0662", "\uff10\uff12\uff10\uff12", "\U0001d7d8\U0001d7d9",
           "0\u00b202", "-1", "0", "99999999999999999999", "1e9", "", "all", "with", "to", "None", "w9999", "e0000",
           "x0101", "9999", "0000", "-0", "+1", "1.5", "nan", "inf", "\u0130", "\u212a", "ﬀ", "\u200b", "\t", "é",
           "W4520", "E3509", "e", "w", "hq", "HQ", "end", "END", "undo", "resign", "*", "..", "/", "a/b"]
OTHER_WORDS = ["move", "attack", "advance", "retreat", "stay", "end", "land", "airdrop", "blitz", "exploit", "bomb",
               "support", "place", "build", "base", "supply", "lp", "gunfire", "reveal", "rail", "interdict",
               "overrun", "toward", "from", "into", "by", "at", "loss", "step", "eliminate", "release", "tokko",
               "zone", "invade", "withdraw", "convert", "strategic", "sea", "air", "naval", "ranged", "hold"]
findings: list[str] = []
seen: set[tuple] = set()


class Hang(Exception):
    pass


def _alarm(signum, frame):
    raise Hang("over the time limit")


def finding(kind: str, where: str, text, exc: BaseException) -> None:
    tb = traceback.extract_tb(exc.__traceback__)
    last = f"{tb[-1].filename.replace(str(ROOT) + '/', '')}:{tb[-1].lineno} {tb[-1].name}" if tb else "?"
    key = (kind, type(exc).__name__, last)
    if key in seen:
        return
    seen.add(key)
    line = f"FINDING [{kind}] {where}: {text!r} -> {type(exc).__name__}: {str(exc)[:200]} at {last}"
    findings.append(line)
    print(line, flush=True)


def encoded(rules, state):
    try:
        return json.dumps(rules.encode_state(state), sort_keys=True, default=str)
    except Exception:  # noqa: BLE001 - a state the encoder cannot write is compared by identity instead
        return None


def step(rules, state, command, seed: str, rolls: int):
    roller = dice.SeededDice(next_index=rolls, seed=seed, game_id="hunt")
    events = list(rules.decide(state, command, roller))
    for event in events:
        state = rules.evolve(state, event)
    return state, rolls + len(roller.taken)


def listed(rules, state, side) -> list[str]:
    return [o["order"] for o in legal.legal_orders(rules, state, side)]


def try_order(name: str, rules, state, side: str, text: str, where: str) -> bool:
    """One hostile order: parse, check, decide, preview. True if accepted."""
    before = encoded(rules, state)
    accepted = False
    signal.alarm(20)
    try:
        command = rules.parse(text, side, state)
        refused = rules.refused(state, command)
        if refused is None:
            rules.decide(state, command, dice.SeededDice(next_index=0, seed="0" * 64, game_id="hunt"))
            accepted = True
        if has_preview(rules):
            try:
                rules.preview(state, command)
            except OrderError:
                pass
    except OrderError as exc:
        if not str(exc):
            finding("orders", where, text, exc)
    except BaseException as exc:  # noqa: BLE001 - a finding
        if isinstance(exc, KeyboardInterrupt):
            raise
        finding("orders", f"{name} {where} as {side}", text, exc)
    finally:
        signal.alarm(0)
    if encoded(rules, state) != before:
        findings.append(f"FINDING [orders] {name} {where} as {side}: {text!r} changed the position")
        print(findings[-1], flush=True)
    return accepted


def hostile_texts(rng: random.Random, orders: list[str], syntaxes: list[str], n: int) -> list[str]:
    out = []
    for _ in range(n):
        kind = rng.choice(["mutate", "mutate", "append", "syntax", "case", "space", "other", "text", "drop"])
        base = rng.choice(orders).split() if orders else ["end"]
        if kind == "mutate":
            for _ in range(rng.randint(1, 2)):
                base[rng.randrange(len(base))] = rng.choice(HOSTILE + OTHER_WORDS)
            out.append(" ".join(base))
        elif kind == "append":
            out.append(" ".join(base + [rng.choice(HOSTILE + OTHER_WORDS + base)]))
        elif kind == "drop" and len(base) > 1:
            del base[rng.randrange(len(base))]
            out.append(" ".join(base))
        elif kind == "syntax" and syntaxes:
            words = [w for w in rng.choice(syntaxes).replace("[", " ").replace("]", " ").split() if w != "..."]
            real = [w for o in orders[:20] for w in o.split()] or ["x"]
            out.append(" ".join(rng.choice(HOSTILE + real) if w.isupper() else w for w in words))
        elif kind == "case":
            out.append(" ".join(w.upper() if rng.random() < 0.5 else w.title() for w in base))
        elif kind == "space":
            sep = rng.choice(["  ", "\t", "\u00a0", "\u3000", " , ", ",", "\u2003"])
            out.append(sep.join(base))
        elif kind == "other":
            out.append(" ".join(rng.choice(OTHER_WORDS + base) for _ in range(rng.randint(1, 6))))
        else:
            out.append("".join(rng.choice("abcdexyzw0123456789 -/.,:+\u00b2\u0663") for _ in range(rng.randint(0, 30))))
    return out


def syntax_lines(rules, state) -> list[str]:
    try:
        lines = {a.syntax for a in rules.prompt(state).actions}
    except Exception:  # noqa: BLE001
        return []
    table = getattr(rules, "table", None)
    if table is not None and hasattr(table, "orders"):
        lines |= {o.grammar.shown for orders in table.orders.values() for o in orders.values()}
    return sorted(lines)


def hunt_orders(budget: int, seed: int, names=GAMES) -> tuple[int, float, float]:
    from app.rules import practice
    tried, base_seconds = 0, 0.0
    start = time.perf_counter()
    for name in names:
        rules = CATALOG.rules(name)
        for scenario in rules.scenarios:
            for policy_name in ("random", "greedy"):
                rng = random.Random(f"{seed}-{name}-{scenario}-{policy_name}")
                try:
                    state = rules.initial_state(scenario, {}, rules.version)
                except Exception as exc:  # noqa: BLE001
                    print(f"  {name}/{scenario}: cannot start: {exc}")
                    break
                policy = practice.random_player(rules) if policy_name == "random" else practice.greedy(rules)
                rolls, given = 0, 0
                for move in range(budget):
                    if rules.outcome(state) is not None:
                        break
                    side = rules.prompt(state).side
                    if move % 7 == 0:
                        where = f"{scenario}/{policy_name} move {move}"
                        for s in rules.sides:
                            orders = listed(rules, state, s)
                            t0 = time.perf_counter()
                            for text in orders[:10]:
                                try:
                                    rules.parse(text, s, state)
                                except OrderError:
                                    pass
                            base_seconds += time.perf_counter() - t0
                            for text in hostile_texts(rng, orders or listed(rules, state, side),
                                                      syntax_lines(rules, state), 30):
                                try_order(name, rules, state, s, text, where)
                                tried += 1
                    try:
                        text, _ = policy(state, side, given)
                        given += 1
                        state, rolls = step(rules, state, rules.parse(text, side, state), "1" * 64, rolls)
                    except practice.NoOrder:
                        break
                    except Exception as exc:  # noqa: BLE001
                        finding("play", f"{name} {scenario}/{policy_name} move {move}", "policy", exc)
                        break
                print(f"  {name}/{scenario}/{policy_name}: {move + 1} moves, {tried} hostile orders so far,"
                      f" {len(findings)} findings", flush=True)
    return tried, time.perf_counter() - start, base_seconds


# -- positions ----------------------------------------------------------------------------------------------------
def doc_positions() -> dict[str, list[dict]]:
    text = (ROOT / "docs" / "custom-positions.md").read_text()
    out: dict[str, list[dict]] = {}
    game = None
    for block in re.split(r"^```", text, flags=re.M):
        for m in re.finditer(r"^### .*\(`(\w+)`\)", block, flags=re.M):
            game = m.group(1)
        if block.startswith("toml\n") and game:
            try:
                raw = tomllib.loads(block[5:])
            except tomllib.TOMLDecodeError:
                continue
            if "turn" in raw or "units" in raw or "unit" in raw:
                out.setdefault(game, []).append(raw)
    return out


def mutations(raw: dict, rng: random.Random, hexes: list[str]) -> list[tuple[str, dict]]:
    out = []

    def m(label, f):
        r = copy.deepcopy(raw)
        try:
            f(r)
        except Exception:  # noqa: BLE001 - a mutation that does not fit this position
            return
        out.append((label, r))

    units = raw.get("units") if isinstance(raw.get("units"), dict) else {}
    uids = list(units)
    odd_hexes = ["0000", "9999", "w9999", "e0101", "w0101", "e9999", "x0101", "010101", "0101",
                 *rng.sample(hexes, min(3, len(hexes)))]
    for h in odd_hexes:
        if uids:
            m(f"unit on {h}", lambda r, h=h: r["units"].__setitem__(rng.choice(uids), h))
            m(f"all units on {h}", lambda r, h=h: r.__setitem__("units", {u: h for u in uids}))
    for key in list(raw):
        m(f"missing {key}", lambda r, key=key: r.pop(key))
        for value in (None, 0, -1, 10**30, "", "x", [], {}, [1], {"a": 1}, True, 1.5, [[]], {"japanese": 5}):
            m(f"{key} = {value!r}", lambda r, key=key, value=value: r.__setitem__(key, value))
    for turn in (0, 1, 2, 7, 12, 20, 40, 99, 10**6, 2**63, -5):
        m(f"turn {turn}", lambda r, turn=turn: r.__setitem__("turn", turn))
    for phase in ("combat", "movement", "end", "x", "setup", "reinforcement", "victory", "over", "exploitation"):
        m(f"phase {phase}", lambda r, phase=phase: r.__setitem__("phase", phase))
    if uids:
        m("empty units", lambda r: r.__setitem__("units", {}))
        for n in (0, -1, 99, 10**20):
            m(f"steps {n}", lambda r, n=n: r.setdefault("steps", {}).__setitem__(rng.choice(uids), n))
        m("removed all", lambda r: r.__setitem__("removed", list(uids)))
        m("one side only", lambda r: r.__setitem__("units", dict(list(units.items())[: max(1, len(units) // 3)])))
        m("control everything for one side", lambda r: r.__setitem__("control", {s: list(set(units.values()))
                                                                               for s in ["allied"]}))
    # Dai Senso's own units ([[unit]]): duplicated ids, odd kinds, other sheet, huge strengths
    if isinstance(raw.get("unit"), list) and raw["unit"]:
        first = raw["unit"][0]
        m("duplicate [[unit]] id", lambda r: r["unit"].append(dict(first)))
        for k in list(first):
            for value in (None, "", 10**30, -3, [], {}, "w9999", "e0000", "zz"):
                m(f"[[unit]] {k} = {value!r}", lambda r, k=k, value=value: r["unit"][0].__setitem__(k, value))
        m("[[unit]] stack of 60", lambda r: r["unit"].extend({**first, "id": f"s{i}"} for i in range(60)))
        m("[[unit]] on other sheet", lambda r: r["unit"][0].__setitem__(
            "hex", ("e" if str(first.get("hex", "w")).startswith("w") else "w") + "3509"))
        m("[[unit]] empty", lambda r: r.__setitem__("unit", []))
    for extra in list(raw):
        if isinstance(raw[extra], list) and raw[extra] and extra not in ("unit", "removed"):
            m(f"{extra} duplicated", lambda r, extra=extra: r[extra].extend(r[extra]))
    return out


def map_hexes(rules, state) -> list[str]:
    gm = getattr(rules, "game_map", None)
    try:
        labels = sorted(str(h) for h in gm(state).hexes)[:200] if gm else []
    except Exception:  # noqa: BLE001
        labels = []
    return labels or ["0101", "0202", "0303"]


def play_position(name: str, rules, state, label: str, rng: random.Random) -> None:
    where = f"position {label!r}"
    signal.alarm(60)
    try:
        rules.outcome(state)
        rules.prompt(state)
        for s in rules.sides:
            rules.view(state, s)
        rules.view(state, None)
        for s in rules.sides:
            orders = listed(rules, state, s)
            for text in orders[:25]:
                try_order(name, rules, state, s, text, where)
            for text in hostile_texts(rng, orders, syntax_lines(rules, state), 5):
                try_order(name, rules, state, s, text, where)
    except Hang as exc:
        finding("positions", f"{name} {where}", "reads", exc)
    except Exception as exc:  # noqa: BLE001
        finding("positions", f"{name} {where}", "prompt/list/view", exc)
    finally:
        signal.alarm(0)


def hunt_positions(seed: int) -> tuple[int, int, list]:
    from app.service import games as service_games
    seeds = doc_positions()
    tried, accepted_n, accepted = 0, 0, []
    for name in GAMES:
        rules = CATALOG.rules(name)
        base_state = rules.initial_state(next(iter(rules.scenarios)), {}, rules.version)
        hexes = map_hexes(rules, base_state)
        rng = random.Random(f"{seed}-{name}")
        kept = 0
        for raw in seeds.get(name, []):
            scenario = "custom" if "custom" in rules.scenarios else next(iter(rules.scenarios))
            for label, pos in [("as documented", raw), *mutations(raw, rng, hexes)]:
                tried += 1
                signal.alarm(30)
                try:
                    state = rules.initial_state(scenario, {"position": pos}, rules.version)
                except ValueError:
                    continue
                except BaseException as exc:  # noqa: BLE001
                    if isinstance(exc, KeyboardInterrupt):
                        raise
                    finding("positions", f"{name} {label}", json.dumps(pos, default=str)[:300], exc)
                    continue
                finally:
                    signal.alarm(0)
                accepted_n += 1
                play_position(name, rules, state, label, rng)
                if kept < 2 and label != "as documented" and rng.random() < 0.3:
                    accepted.append((name, scenario, label, pos))
                    kept += 1
        print(f"  {name}: {len(seeds.get(name, []))} documented positions, {tried} positions tried so far, "
              f"{accepted_n} accepted, {len(findings)} findings", flush=True)
    del service_games
    return tried, accepted_n, accepted


# -- read paths ---------------------------------------------------------------------------------------------------
def hunt_reads(accepted: list, seed: int) -> int:
    from app.mail.transport import MailConfig
    from app.web import create_app
    from tests.outbox import Outbox
    key = "hunt-operator-key"
    n = 0
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "hunt.sqlite")
        app = create_app({"HEXLEDGER_DB": db, "MAIL_TRANSPORT": Outbox(), "MAIL": MailConfig(),
                          "HEXLEDGER_RATE_LIMIT": "1000000 per minute", "ADMIN_TOKEN": key,
                          "HEXLEDGER_REPLAY_RATE_LIMIT": "1000000 per minute"})
        client = app.test_client()
        rng = random.Random(seed)
        for name, scenario, label, pos in accepted:
            rules = CATALOG.rules(name)
            players = {s: f"{s}@x.example" for s in rules.sides}
            r = client.post("/games", json={"rules": name, "scenario": scenario, "players": players,
                                            "arbiter": "a@x.example", "position": pos, "auto": []},
                            headers={"Authorization": f"Bearer {key}"})
            n += 1
            if r.status_code >= 500 or r.status_code != 201:
                if r.status_code >= 500:
                    findings.append(f"FINDING [reads] {name} {label!r}: POST /games -> {r.status_code}")
                    print(findings[-1], flush=True)
                else:
                    print(f"  {name} {label!r}: POST /games -> {r.status_code} {r.get_data(as_text=True)[:120]}")
                continue
            game_id, tokens = r.json["game_id"], r.json["tokens"]
            for s in rules.sides:
                client.post(f"/games/{game_id}/join", json={"seed_text": s},
                            headers={"Authorization": f"Bearer {tokens[s]}"})
            # a few orders: listed ones, and hostile ones (each refused one must change nothing)
            for _ in range(4):
                st = client.get(f"/games/{game_id}/state",
                                headers={"Authorization": f"Bearer {tokens[rules.sides[0]]}"})
                for s in rules.sides:
                    auth = {"Authorization": f"Bearer {tokens[s]}"}
                    a = client.get(f"/games/{game_id}/actions", headers=auth)
                    n += 1
                    if a.status_code >= 500:
                        findings.append(f"FINDING [reads] {name} {label!r}: /actions as {s} -> {a.status_code}")
                        print(findings[-1], flush=True)
                        continue
                    orders = [o.get("order") for o in (a.json or {}).get("legal_orders", []) if isinstance(o, dict)]
                    for text in (orders[:2] + hostile_texts(rng, orders, [], 2)):
                        if not text:
                            continue
                        before = client.get(f"/games/{game_id}/history", headers=auth).get_data()
                        o = client.post(f"/games/{game_id}/orders", data=text.encode(), content_type="text/plain",
                                        headers=auth)
                        n += 1
                        if o.status_code >= 500:
                            findings.append(f"FINDING [reads] {name} {label!r}: order {text!r} as {s} -> "
                                            f"{o.status_code}")
                            print(findings[-1], flush=True)
                        elif o.status_code >= 400:
                            after = client.get(f"/games/{game_id}/history", headers=auth).get_data()
                            if after != before:
                                findings.append(f"FINDING [reads] {name} {label!r}: refused {text!r} changed history")
                                print(findings[-1], flush=True)
                del st
            reads = [f"/games/{game_id}/state", f"/games/{game_id}/actions", f"/games/{game_id}/map.svg",
                     f"/games/{game_id}/history", f"/games/{game_id}/standing", f"/games/{game_id}/chain",
                     f"/games/{game_id}/export", f"/games/{game_id}/verify",
                     f"/replay/{game_id}/frames.json", f"/replay/{game_id}/analysis.json",
                     f"/replay/{game_id}/chances.json", f"/replay/{game_id}/map/1.svg", f"/replay/{game_id}/"]
            for s in [*rules.sides, "arbiter"]:
                auth = {"Authorization": f"Bearer {tokens.get(s, key)}"}
                for path in reads:
                    signal.alarm(60)
                    try:
                        got = client.get(path, headers=auth)
                        code = got.status_code
                        body = got.get_data(as_text=True)
                    except Exception as exc:  # noqa: BLE001
                        finding("reads", f"{name} {label!r} GET {path} as {s}", "", exc)
                        continue
                    finally:
                        signal.alarm(0)
                    n += 1
                    if code >= 500 or "Traceback" in body:
                        findings.append(f"FINDING [reads] {name} {label!r}: GET {path} as {s} -> {code}")
                        print(findings[-1], flush=True)
        # cli.py new --position and analyze, for the first accepted of each game
        done = set()
        for name, _scenario, label, pos in accepted:
            if name in done:
                continue
            done.add(name)
            pfile = Path(tmp) / f"{name}.toml"
            pfile.write_text(_to_toml(pos))
            env_db = str(Path(tmp) / "cli.sqlite")
            cmd = [sys.executable, str(ROOT / "cli.py"), "--db", env_db, "new", name, "--position", str(pfile)]
            out = subprocess.run(cmd, capture_output=True, text=True, timeout=120, cwd=ROOT)
            n += 1
            text = out.stdout + out.stderr
            if "Traceback" in text:
                findings.append(f"FINDING [reads] cli.py new {name} --position ({label!r}): traceback: "
                                f"{text.strip().splitlines()[-1][:200]}")
                print(findings[-1], flush=True)
                continue
            m = re.search(r"\bg-[0-9a-f]{8}\b", text)
            if m:
                for sub in (["analyze", m.group(0)], ["state", m.group(0)], ["history", m.group(0)]):
                    out = subprocess.run([sys.executable, str(ROOT / "cli.py"), "--db", env_db, *sub],
                                         capture_output=True, text=True, timeout=300, cwd=ROOT)
                    n += 1
                    if "Traceback" in out.stdout + out.stderr:
                        findings.append(f"FINDING [reads] cli.py {' '.join(sub)} ({name} {label!r}): traceback: "
                                        f"{(out.stdout + out.stderr).strip().splitlines()[-1][:200]}")
                        print(findings[-1], flush=True)
            else:
                print(f"  cli.py new {name} ({label!r}): {text.strip()[:160]}")
    return n


def _to_toml(value: dict) -> str:
    lines, tables = [], []

    def scalar(v):
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, int | float):
            return repr(v)
        if isinstance(v, str):
            return json.dumps(v)
        if isinstance(v, list):
            return "[" + ", ".join(scalar(x) for x in v) + "]"
        if isinstance(v, dict):
            return "{" + ", ".join(f"{json.dumps(k)} = {scalar(x)}" for k, x in v.items()) + "}"
        return json.dumps(str(v))

    for k, v in value.items():
        if v is None:
            continue
        if isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
            for x in v:
                tables.append(f"[[{k}]]\n" + "".join(f"{json.dumps(a)} = {scalar(b)}\n" for a, b in x.items()
                                                     if b is not None))
        else:
            lines.append(f"{json.dumps(k)} = {scalar(v)}")
    return "\n".join(lines) + "\n" + "\n".join(tables)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--only", nargs="*", default=["orders", "positions", "reads"])
    parser.add_argument("--orders", type=int, default=60, help="moves played per game, scenario and policy")
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--games", nargs="*", default=list(GAMES))
    args = parser.parse_args()
    signal.signal(signal.SIGALRM, _alarm)
    accepted = []
    if "positions" in args.only or "reads" in args.only:
        t0 = time.perf_counter()
        tried, ok, accepted = hunt_positions(args.seed)
        print(f"positions: {tried} hostile positions tried, {ok} accepted and played into, "
              f"{time.perf_counter() - t0:.1f} s")
    if "reads" in args.only:
        t0 = time.perf_counter()
        n = hunt_reads(accepted, args.seed)
        print(f"reads: {len(accepted)} accepted hostile positions through the API, {n} requests/commands, "
              f"{time.perf_counter() - t0:.1f} s")
    if "orders" in args.only:
        tried, seconds, base = hunt_orders(args.orders, args.seed, args.games)
        print(f"orders: {tried} hostile orders in {seconds:.1f} s (baseline: parsing listed orders took "
              f"{base:.1f} s of it)")
    print(f"{len(findings)} findings")
    for line in findings:
        print(line)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
