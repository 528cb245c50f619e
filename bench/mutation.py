"""Mutation score of the rules packages (issue 19): a seeded random sample of mutmut's mutants per package, run
against the fast tier of the rules tests, printed per package beside the case table that maps rules to tests.

mutmut (configured in pyproject.toml, [tool.mutmut]) writes every mutant of app/rules/snc, app/rules/ichigo and
app/rules/kernel into mutants/ (git-ignored) and runs, for each mutant, only the tests that call the mutated
function. It has no sampling of its own, so this script asks it to generate the mutants, picks `--sample` of each
package with a seeded random generator (the same seed and code give the same sample), and hands exactly those
names to `mutmut run`. A killed mutant is a rule break some test notices; a survivor is listed with the cases whose
mapped tests (docs/cases/*.md) run the mutated function but did not notice. `mutmut show NAME` prints its diff.

Usage: python bench/mutation.py [--sample 100] [--seed 19] [--packages snc ichigo kernel] [--max-children 2] [--report]
                                [--redraw]
"""
from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import re
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("snc", "ichigo", "kernel")
PINNED = ROOT / "bench" / "mutation-sample.json"
CASE_TABLES = sorted((ROOT / "docs" / "cases").glob("*.md"))
CASE_ROW = re.compile(r"^\| *([0-9][0-9.]*) *\| *([^|]*)\|")


def generate(max_children: int) -> None:
    """mutmut's own first step of `mutmut run` (copy the tree into mutants/, write each file's mutants); it keeps
    a file's mutants and their results until the source file changes."""
    from mutmut.__main__ import copy_also_copy_files, copy_src_dir, create_mutants

    os.makedirs("mutants", exist_ok=True)
    with contextlib.redirect_stdout(io.StringIO()):  # it names every file it copies
        copy_src_dir()
        copy_also_copy_files()
        create_mutants(max_children=max_children)


def meta(package: str) -> dict[str, int | None]:
    """Exit code of every mutant of a package by name (None: not run yet), from mutmut's meta files of the files
    the configuration mutates (a file taken out of it may leave an old one behind)."""
    from mutmut.utils.file_utils import walk_mutatable_files

    codes: dict[str, int | None] = {}
    for path in sorted(walk_mutatable_files()):
        if path.parent == Path("app", "rules", package):
            written = Path("mutants", f"{path}.meta")
            if not written.exists():
                sys.exit(f"no mutants of {path} yet (a new file): run without --report to generate them")
            codes.update(json.loads(written.read_text())["exit_code_by_key"])
    return codes


def sample(names: list[str], size: int, seed: int, package: str, pinned: list[str] = ()) -> list[str]:
    """`size` of a package's mutant names: the pinned ones that still exist, topped up by a seeded draw from the
    rest (all of it a seeded draw when nothing is pinned)."""
    kept = sorted(set(pinned) & set(names))[:size]
    rest = sorted(set(names) - set(kept))
    fresh = random.Random(f"{seed}:{package}").sample(rest, min(size - len(kept), len(rest)))
    return sorted(kept + fresh)


def pinned_sample(size: int, seed: int, redraw: bool) -> dict[str, list[str]]:
    """The names pinned for this size and seed (empty for another size or seed, or with --redraw)."""
    if redraw or not PINNED.exists():
        return {}
    pinned = json.loads(PINNED.read_text())
    return pinned["packages"] if (pinned["size"], pinned["seed"]) == (size, seed) else {}


def pin(chosen: dict[str, list[str]], size: int, seed: int) -> None:
    earlier = pinned_sample(size, seed, False)
    packages = {**earlier, **chosen}
    PINNED.write_text(json.dumps({"size": size, "seed": seed, "packages": packages}, indent=1, sort_keys=True)
                      + "\n")


def run(names: list[str], max_children: int, log: Path) -> float:
    start = time.monotonic()
    with log.open("w") as out:
        done = subprocess.run([sys.executable, "-m", "mutmut", "run", "--max-children", str(max_children), *names],
                              stdout=out, stderr=subprocess.STDOUT, cwd=ROOT)
    if done.returncode:
        sys.exit(f"mutmut run failed (exit {done.returncode}); its output is in {log}")
    return time.monotonic() - start


def status(code: int | None) -> str:
    from mutmut.stats import status_by_exit_code

    return status_by_exit_code[code]


def cases_reaching(name: str) -> list[str]:
    """The rules cases whose mapped tests (docs/cases/*.md) run the function a mutant changes."""
    stats = json.loads((ROOT / "mutants" / "mutmut-stats.json").read_text())["tests_by_mangled_function_name"]
    tests = set(stats.get(name.partition("__mutmut_")[0], ()))
    found = []
    for table in CASE_TABLES:
        for line in table.read_text().splitlines():
            row = CASE_ROW.match(line)
            if row and any(t.strip() in tests for t in row.group(2).split(",")):
                found.append(f"{table.stem} {row.group(1)}")
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sample", type=int, default=100, help="mutants per package (default 100)")
    parser.add_argument("--seed", type=int, default=19)
    parser.add_argument("--packages", nargs="+", choices=PACKAGES, default=list(PACKAGES))
    parser.add_argument("--max-children", type=int, default=2, help="mutants tested at once (default 2)")
    parser.add_argument("--redraw", action="store_true",
                        help="draw a new sample instead of the one pinned in bench/mutation-sample.json")
    parser.add_argument("--report", action="store_true",
                        help="run nothing: print the sample's latest results (after `mutmut run NAME` of one)")
    args = parser.parse_args()
    os.chdir(ROOT)

    if not args.report:
        generate(args.max_children)
    pinned = pinned_sample(args.sample, args.seed, args.redraw)
    chosen = {p: sample(list(meta(p)), args.sample, args.seed, p, pinned.get(p, ())) for p in args.packages}
    if not args.report:
        pin(chosen, args.sample, args.seed)
    log = ROOT / "mutants" / "mutation-run.log"
    if args.report:
        print(f"\nlatest results of the sample of {args.sample} mutants per package, seed {args.seed}\n")
    else:
        seconds = run([n for names in chosen.values() for n in names], args.max_children, log)
        print(f"\nmutmut on a sample of {args.sample} mutants per package, seed {args.seed}, "
              f"{seconds / 60:.1f} min with {args.max_children} at once (log: {log.relative_to(ROOT)})\n")
    print(f"{'package':8} {'mutants':>7} {'sampled':>7} {'killed':>6} {'survived':>8} {'timeout':>7} "
          f"{'other':>5} {'score':>6}  case table")
    survivors = []
    for package, names in chosen.items():
        codes = meta(package)
        count = Counter(status(codes[n]) for n in names)
        other = len(names) - count["killed"] - count["survived"] - count["timeout"]
        score = (count["killed"] + count["timeout"]) / len(names)
        table = ROOT / "docs" / "cases" / f"{package}.md"
        shown = table.relative_to(ROOT) if table.exists() else "(the kernel's cases are each game's)"
        print(f"{package:8} {len(codes):7} {len(names):7} {count['killed']:6} {count['survived']:8} "
              f"{count['timeout']:7} {other:5} {score:6.1%}  {shown}")
        survivors += [(n, status(codes[n])) for n in names if status(codes[n]) not in ("killed", "timeout")]
    if survivors:
        print("\nnot killed (mutmut show NAME for the change; cases whose mapped tests run the function):")
        for name, state in survivors:
            cases = cases_reaching(name)
            more = f" and {len(cases) - 6} more" if len(cases) > 6 else ""
            print(f"  {state:9} {name}  [{', '.join(cases[:6]) + more or 'no mapped test runs it'}]")


if __name__ == "__main__":
    main()
