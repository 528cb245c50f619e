"""Hostile input at scale (issue 8): the CI's property tests with a bigger budget, and their figures.

Runs the strategies and property checks of tests/reliability/hostile.py (the same ones the CI tests run: random
orders, event payloads, damaged export files, random bytes, forged emails and hostile MIME, schemathesis requests
built from the served OpenAPI document, hostile orders in every game's order language (skirmish, SNC, Ichi-Go,
Dai Senso, Olympic) with their previews, deeply nested JSON on every JSON route, encoded-word and other hostile
email headers, hostile custom maps, forged receipts and signatures among a player's kept mail, strangers' reads of
the replay viewer of a game of --undos move+undo cycles, and (issue 25) text that is not valid Unicode at every
door, line breaks and controls in player-written text, forged retractions, unknown and forbidden games, and
stranger mail) with `--scale` times the CI budget, and prints for each: inputs tried, failures, seconds, beside a
baseline measured in the same run:
- in-process properties: drawing the same number of inputs from the same strategies without checking them
  (what hypothesis itself costs);
- the OpenAPI run: the same number of requests to a bare Flask endpoint through the same WSGI test client.
A failure prints hypothesis's smallest failing input; the exit status is 1 if any property failed. Needs the
test extras (hypothesis, schemathesis: `pip install -e '.[test]'`).

A hostile map that takes more than --map-seconds (default 20) to answer is a failure ("Overtime"): a request's work
must be bounded.

Usage: python bench/hostile_inputs.py [--scale 10] [--seed N] [--postgres]
       [--only orders payloads exports bytes emails mime openapi languages deepjson headers maps receipts replays
               unicode spoofing retractions gameids strangers]
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import argparse  # noqa: E402
import contextlib  # noqa: E402
import os  # noqa: E402
import platform  # noqa: E402
import random  # noqa: E402
import signal  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402

from flask import Flask  # noqa: E402
from hypothesis import HealthCheck, given, seed, settings  # noqa: E402

from app.events.backends import open_store  # noqa: E402
from bench import pg_cluster  # noqa: E402
from tests.reliability import hostile  # noqa: E402


@dataclass
class Run:
    name: str
    budget: int
    tried: int = 0
    failures: list = field(default_factory=list)
    seconds: float = 0.0
    baseline: str = ""
    baseline_seconds: float = 0.0


def run_property(inputs: dict, check: Callable[..., None], examples: int, rng_seed: int) -> tuple[int, list, float]:
    """Hypothesis draws up to `examples` inputs from `inputs` and runs `check` on each (shrinking a failure, as in
    the tests). Returns (inputs tried, failures, seconds)."""
    tried = 0

    @settings(max_examples=examples, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @seed(rng_seed)
    @given(**inputs)
    def prop(**drawn):
        nonlocal tried
        tried += 1
        check(**drawn)

    start = time.perf_counter()
    failures = []
    try:
        prop()
    except BaseException as exc:  # noqa: BLE001 - every failure is a figure; several distinct bugs come grouped
        if isinstance(exc, KeyboardInterrupt):
            raise
        found = exc.exceptions if isinstance(exc, BaseExceptionGroup) else [exc]
        failures = [f"{type(e).__name__}: {str(e)[:300]}\n    " + "\n    ".join(getattr(e, "__notes__", [])[:8])
                    for e in found]
    return tried, failures, time.perf_counter() - start


def in_process(name: str, prop: hostile.Property, inputs: dict, check, draw_only, scale: int, rng_seed: int) -> Run:
    run = Run(name, prop.ci_examples * scale)
    run.tried, run.failures, run.seconds = run_property(inputs, check, run.budget, rng_seed)
    _, _, run.baseline_seconds = run_property(inputs, draw_only, run.tried, rng_seed)
    run.baseline = f"drawing as many inputs ({run.tried}) from the same strategies, unchecked"
    return run


def openapi(location: str, scale: int, rng_seed: int) -> Run:
    _, schema, world = hostile.openapi_world(location)
    operations = hostile.openapi_operations(schema)
    run = Run(f"{hostile.OPENAPI.name} ({len(operations)} operations)", hostile.OPENAPI.ci_examples * scale)
    for operation in operations:
        tried, failures, seconds = run_property({"case": operation.as_strategy()},
                                                lambda case: hostile.check_openapi_case(case, world),
                                                run.budget, rng_seed)
        run.tried += tried
        run.seconds += seconds
        run.failures += [f"{operation.method.upper()} {operation.path}: {f}" for f in failures]
    run.budget *= len(operations)
    bare = Flask("bare")
    bare.add_url_rule("/bare", "bare", lambda: {"ok": True})
    client = bare.test_client()
    start = time.perf_counter()
    for _ in range(run.tried):
        client.get("/bare")
    run.baseline_seconds = time.perf_counter() - start
    run.baseline = f"{run.tried} requests to a bare Flask endpoint"
    return run


class Overtime(BaseException):
    """An input took longer than its bound (a BaseException: no handler in the app may turn it into an answer)."""


def within(seconds: int, check: Callable[..., None]) -> Callable[..., None]:
    """`check`, failing with Overtime when one input takes more than `seconds`."""

    def timed(**drawn) -> None:
        def expire(signum, frame):
            raise Overtime(f"one input took more than {seconds} s: {drawn}")

        previous = signal.signal(signal.SIGALRM, expire)
        signal.alarm(seconds)
        try:
            check(**drawn)
        finally:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, previous)

    return timed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scale", type=int, default=10, help="times the CI budget of each property")
    parser.add_argument("--seed", type=int, default=None, help="hypothesis seed (default: random, printed)")
    names = ["orders", "payloads", "exports", "bytes", "emails", "mime", "openapi", "languages", "deepjson", "headers",
             "maps", "receipts", "replays", "unicode", "spoofing", "retractions", "gameids", "strangers"]
    parser.add_argument("--only", nargs="+", choices=names, default=names)
    parser.add_argument("--map-seconds", type=int, default=20, help="the most one hostile map may take")
    parser.add_argument("--undos", type=int, default=600, help="move+undo cycles of the running game strangers read")
    parser.add_argument("--postgres", action="store_true", help="every world's database on a PostgreSQL server "
                        "started for the run (bench/pg_cluster.py) instead of SQLite files")
    args = parser.parse_args()
    rng_seed = args.seed if args.seed is not None else random.randrange(2**32)
    print(f"hostile inputs: {args.scale}x the CI budgets, hypothesis seed {rng_seed}; {platform.python_version()}, "
          f"{os.cpu_count()} cores; {'PostgreSQL' if args.postgres else 'SQLite'}", flush=True)
    runs = []
    cluster = pg_cluster.start() if args.postgres else None
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stop:
        if cluster:
            stop.callback(cluster.stop)
        work = Path(tmp)

        def database(name: str) -> str:
            """A new database for one world: a SQLite file, or (--postgres) a database on the run's server."""
            return cluster.create_database(name) if cluster else str(work / f"{name}.sqlite3")

        if "orders" in args.only:
            store, game_id = hostile.skirmish_world(database("orders"))
            runs.append(in_process(hostile.ORDERS.name, hostile.ORDERS, hostile.ORDER_INPUTS,
                                   lambda order, side: hostile.check_order(store, game_id, order, side),
                                   lambda order, side: None, args.scale, rng_seed))
            store.close()
        if "payloads" in args.only:
            runs.append(in_process(hostile.PAYLOADS.name, hostile.PAYLOADS, hostile.PAYLOAD_INPUTS,
                                   hostile.check_payload, lambda type_, version, payload: None, args.scale, rng_seed))
        if "exports" in args.only:
            exported = hostile.exported_lines(str(work / "export-source.sqlite3"))
            imports = open_store(database("imports"))
            runs.append(in_process(hostile.EXPORTS.name, hostile.EXPORTS, hostile.EXPORT_INPUTS,
                                   lambda data: hostile.check_damaged_export(exported, imports, data),
                                   lambda data: hostile.damage(exported, data), args.scale, rng_seed))
            imports.close()
        if "languages" in args.only:
            world = hostile.language_world(str(work / "languages.sqlite3"))
            runs.append(in_process(hostile.LANGUAGES.name, hostile.LANGUAGES, hostile.LANGUAGE_INPUTS,
                                   lambda data: hostile.check_language_order(world, data),
                                   lambda data: hostile.hostile_order(world, data), args.scale, rng_seed))
        if "deepjson" in args.only or "maps" in args.only:
            served = hostile.openapi_world(database("served"))
            if "deepjson" in args.only:
                runs.append(in_process(hostile.DEEP_JSON.name, hostile.DEEP_JSON, hostile.DEEP_JSON_INPUTS,
                                       lambda **drawn: hostile.check_deep_json(served, **drawn),
                                       lambda **drawn: None, args.scale, rng_seed))
            if "maps" in args.only:
                runs.append(in_process(hostile.MAPS.name, hostile.MAPS, hostile.MAP_INPUTS,
                                       within(args.map_seconds, lambda **drawn: hostile.check_map(served, **drawn)),
                                       lambda **drawn: hostile.hostile_map(**drawn), args.scale, rng_seed))
        if "headers" in args.only:
            mail = hostile.mail_world(database("headers"))
            runs.append(in_process(hostile.EMAIL_HEADERS.name, hostile.EMAIL_HEADERS, hostile.EMAIL_HEADER_INPUTS,
                                   lambda **drawn: hostile.check_email_headers(mail, **drawn),
                                   lambda **drawn: None, args.scale, rng_seed))
        if "bytes" in args.only or "emails" in args.only:
            world = hostile.mail_world(database("mail"))
            if "bytes" in args.only:
                runs.append(in_process(hostile.EMAIL_BYTES.name, hostile.EMAIL_BYTES, hostile.EMAIL_BYTES_INPUTS,
                                       lambda raw: hostile.check_email_bytes(world, raw), lambda raw: None,
                                       args.scale, rng_seed))
            if "emails" in args.only:
                runs.append(in_process(hostile.EMAIL_MESSAGES.name, hostile.EMAIL_MESSAGES,
                                       hostile.EMAIL_MESSAGE_INPUTS,
                                       lambda **drawn: hostile.check_email_message(world, **drawn),
                                       lambda **drawn: None, args.scale, rng_seed))
        if "mime" in args.only:
            mime_world = hostile.mime_world(database("mime"), work)
            runs.append(in_process(hostile.EMAIL_MIME.name, hostile.EMAIL_MIME, hostile.EMAIL_MIME_INPUTS,
                                   lambda **drawn: hostile.check_hostile_mime(mime_world, **drawn),
                                   lambda **drawn: hostile.hostile_message("orders@pbem.example", **drawn),
                                   args.scale, rng_seed))
        if "unicode" in args.only:
            world = hostile.unicode_world(database("unicode"))
            runs.append(in_process(hostile.UNICODE.name, hostile.UNICODE, hostile.UNICODE_INPUTS,
                                   lambda **drawn: hostile.check_unicode(world, **drawn),
                                   lambda **drawn: None, args.scale, rng_seed))
            world["store"].close()
        if "spoofing" in args.only:
            world = hostile.spoofing_world(database("spoofing"))
            runs.append(in_process(hostile.SPOOFING.name, hostile.SPOOFING, hostile.SPOOFING_INPUTS,
                                   lambda **drawn: hostile.check_spoofing(world, **drawn),
                                   lambda **drawn: None, args.scale, rng_seed))
            world["store"].close()
        if "retractions" in args.only:
            takebacks = hostile.takeback_world(str(work / "takebacks.sqlite3"))
            imports = open_store(database("retraction-imports"))
            runs.append(in_process(hostile.RETRACTIONS.name, hostile.RETRACTIONS, hostile.RETRACTION_INPUTS,
                                   lambda data: hostile.check_forged_retraction(takebacks, imports, data),
                                   lambda data: hostile.forged_takeback(takebacks, data), args.scale, rng_seed))
            imports.close()
        if "gameids" in args.only:
            world = hostile.game_ids_world(database("gameids"))
            runs.append(in_process(hostile.GAME_IDS.name, hostile.GAME_IDS, hostile.GAME_ID_INPUTS,
                                   lambda **drawn: hostile.check_game_ids(world, **drawn),
                                   lambda **drawn: None, args.scale, rng_seed))
        if "strangers" in args.only:
            world = hostile.strangers_world(database("strangers"))
            runs.append(in_process(hostile.STRANGERS.name, hostile.STRANGERS, hostile.STRANGER_INPUTS,
                                   lambda **drawn: hostile.check_strangers(world, **drawn),
                                   lambda **drawn: None, args.scale, rng_seed))
            world["pbem"].store.close()
        if "openapi" in args.only:
            runs.append(openapi(database("openapi"), args.scale, rng_seed))
        if "receipts" in args.only:
            (work / "receipts").mkdir()
            kept = hostile.receipts_world(database("receipts"), work / "receipts")
            runs.append(in_process(hostile.RECEIPTS.name, hostile.RECEIPTS, hostile.RECEIPT_INPUTS,
                                   lambda data: hostile.check_hostile_receipt(kept, data),
                                   lambda data: hostile.hostile_receipt(kept, data), args.scale, rng_seed))
            kept["pbem"].store.close()
        if "replays" in args.only:
            replays = hostile.replay_world(database("replays"), undos=args.undos)
            runs.append(in_process(f"{hostile.STRANGER_REPLAYS.name} ({args.undos} undos)", hostile.STRANGER_REPLAYS,
                                   hostile.REPLAY_INPUTS,
                                   lambda **drawn: hostile.check_stranger_replay(replays, **drawn),
                                   lambda **drawn: None, args.scale, rng_seed))
        for run in runs:
            print(f"{run.name}: {run.tried} inputs tried (budget {run.budget}), {len(run.failures)} failures, "
                  f"{run.seconds:.1f} s; baseline, {run.baseline}: {run.baseline_seconds:.1f} s", flush=True)
            for failure in run.failures:
                print(f"  FAILED: {failure}")
    print(f"total: {sum(r.tried for r in runs)} inputs tried, {sum(len(r.failures) for r in runs)} failures, "
          f"{sum(r.seconds for r in runs):.1f} s (baselines {sum(r.baseline_seconds for r in runs):.1f} s)")
    sys.exit(1 if any(r.failures for r in runs) else 0)


if __name__ == "__main__":
    main()
