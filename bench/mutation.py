"""Mutation score of the rules code (issues 19, 30): a seeded random sample of mutmut's mutants per package, run
against the fast tier of the rules tests, printed per package beside the case table that maps rules to tests; and,
with --cases, a per-case report: for each row of docs/cases/<game>.md, mutants of the code citing that case and
whether the row's own tests kill them.

mutmut (configured in pyproject.toml, [tool.mutmut]) writes every mutant of the rules packages, the engine and the
practice policies into mutants/ (git-ignored) and runs, for each mutant, only the tests that call the mutated
function. It has no sampling of its own, so this script asks it to generate the mutants, picks `--sample` of each
package with a seeded random generator (the same seed and code give the same sample), and hands exactly those
names to `mutmut run`. A killed mutant is a rule break some test notices; a survivor is listed with the cases whose
mapped tests (docs/cases/*.md) run the mutated function but did not notice. `mutmut show NAME` prints its diff.

The per-case report (--cases) reads which cases a function cites from its string literals and comments ("Formosa
13.3", or "13.3" alone inside a game's own package). A row's mutants are the sampled mutants citing its case, and,
for a row no sampled mutant cites, `--per-case` more mutants of functions citing it (seeded). Each is run once
against the fast tests of every row it cites (pytest in mutants/ with the mutant switched on, one process per
mutant), so the report tells, row by row, whether the row's own tests kill its mutants: a row whose tests kill
none is a finding. A test module whose import fails under the mutant (the game's data no longer loads) fails all
its tests: a kill, as in mutmut's run. With --report the tests are first copied into mutants/ again, so the rows
run the tests as they are now (a test added since the last run included); --rows reports only the rows named,
each with the mutants a full report draws for it.

Usage: python bench/mutation.py [--sample 100] [--seed 19] [--packages snc ...] [--max-children 1] [--report]
                                [--redraw] [--cases [--per-case 1] [--rows CASE ...]]
"""
from __future__ import annotations

import argparse
import ast
import contextlib
import io
import json
import os
import random
import re
import subprocess
import sys
import time
import tokenize
import xml.etree.ElementTree as ElementTree
from collections import Counter
from functools import cache, lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULES = Path("app", "rules")
PRACTICE = "practice.py"
# package -> is this source file (relative to the root) one of its files?
PACKAGES = {
    **{game: (lambda path, game=game: path.parent == RULES / game and path.name != PRACTICE)
       for game in ("snc", "ichigo", "kernel", "formosa", "daisenso", "olympic", "skirmish", "engine")},
    # the practice opponents: app/rules/practice.py (and a game's own practice module, where it has one)
    "practice": lambda path: path.name == PRACTICE and path.parent.parent in (RULES.parent, RULES),
}
# the name a game's cases carry in refusals and docstrings ("Formosa 13.3"), by package
CASE_PREFIX = {"snc": "SNC", "ichigo": "Ichi-Go", "formosa": "Formosa", "daisenso": "Dai Senso",
               "olympic": "Olympic", "skirmish": "SK"}
PINNED = ROOT / "bench" / "mutation-sample.json"
CASE_TABLES = sorted((ROOT / "docs" / "cases").glob("*.md"))
CASE_ROW = re.compile(r"^\| *([0-9][0-9.]*) *\| *([^|]*)\|")
TEXT_TOKENS = {tokenize.STRING, tokenize.COMMENT, getattr(tokenize, "FSTRING_MIDDLE", tokenize.STRING)}
CASE_NUMBER = re.compile(r"(?<![\w.])([0-9]{1,2}(?:\.[0-9]{1,2})+)(?![\w]|\.[0-9])")


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
        if PACKAGES[package](Path(path)):
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


@lru_cache(maxsize=1)
def tests_by_function() -> dict[str, set[str]]:
    stats = json.loads((ROOT / "mutants" / "mutmut-stats.json").read_text())["tests_by_mangled_function_name"]
    return {name: set(tests) for name, tests in stats.items()}


def _function(name: str) -> str:
    return name.partition("__mutmut_")[0]


def cases_reaching(name: str) -> list[str]:
    """The rules cases whose mapped tests (docs/cases/*.md) run the function a mutant changes."""
    tests = tests_by_function().get(_function(name), set())
    return [f"{game} {case}" for game, rows in case_rows().items() for case, mapped in rows.items()
            if mapped & tests]


# -- the per-case report ------------------------------------------------------------------------------------------
@lru_cache(maxsize=1)
def case_rows() -> dict[str, dict[str, set[str]]]:
    """game -> case -> the tests its row of docs/cases/<game>.md maps."""
    out: dict[str, dict[str, set[str]]] = {}
    for table in CASE_TABLES:
        rows = out.setdefault(table.stem, {})
        for line in table.read_text().splitlines():
            row = CASE_ROW.match(line)
            if row:
                rows.setdefault(row.group(1), set()).update(t.strip() for t in row.group(2).split(",") if t.strip())
    return out


def _locate(name: str) -> tuple[Path, str, str | None]:
    """A mutant's source file, function and class: app.rules.formosa.sequence.xǁOverstackǁremove__mutmut_3 is
    app/rules/formosa/sequence.py, remove, Overstack."""
    module, _, mangled = _function(name).rpartition(".")
    if mangled.startswith("xǁ"):
        _, cls, func = mangled.split("ǁ")
        return Path(*module.split(".")).with_suffix(".py"), func, cls
    return Path(*module.split(".")).with_suffix(".py"), mangled[2:], None


@cache
def _tokens(path: Path) -> list[tokenize.TokenInfo]:
    """The strings and comments of a file: where its code names rules cases."""
    source = (ROOT / path).read_text()
    return [t for t in tokenize.generate_tokens(io.StringIO(source).readline) if t.type in TEXT_TOKENS]


@cache
def _constants(path: Path) -> dict[str, str]:
    """The module's string constants (C15 = "Formosa 15.0", CASE = "Olympic 8.8") a function may cite through."""
    tree = ast.parse((ROOT / path).read_text())
    return {t.id: node.value.value for node in tree.body if isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
            for t in node.targets if isinstance(t, ast.Name)}


PREFIXED = re.compile(r"\b(" + "|".join(re.escape(p) for p in CASE_PREFIX.values()) + r")\s+(?:ruling\s+)?"
                      r"([0-9]{1,2}(?:\.[0-9]{1,2})+)")
GAME_OF = {p: g for g, p in CASE_PREFIX.items()}


def _cites(text: str, own: str | None) -> set[tuple[str, str]]:
    found = {(GAME_OF[m.group(1)], m.group(2)) for m in PREFIXED.finditer(text)}
    if own is not None:
        found |= {(own, m.group(1)) for m in CASE_NUMBER.finditer(text)}
    return found


def _node_citations(path: Path, node: ast.AST) -> frozenset[tuple[str, str]]:
    """The (game, case) pairs a piece of a file's code cites: the strings and comments on its lines (a game's
    bare case numbers inside its own package), and the module constants it names."""
    own = path.parent.name if path.parent.name in CASE_PREFIX else None
    found: set[tuple[str, str]] = set()
    for tok in _tokens(path):
        if node.lineno <= tok.start[0] <= node.end_lineno:
            found |= _cites(tok.string, own)
    constants = _constants(path)
    for name in {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and n.id in constants}:
        found |= _cites(constants[name], own)
    return frozenset(found)


@cache
def _citations(path: Path) -> dict[tuple[str | None, str], frozenset[tuple[str, str]]]:
    """(class, function) -> the (game, case) pairs it cites, for every function of a file."""
    tree = ast.parse((ROOT / path).read_text())
    out: dict[tuple[str | None, str], frozenset[tuple[str, str]]] = {}
    for cls, holder in [(None, tree)] + [(n.name, n) for n in tree.body if isinstance(n, ast.ClassDef)]:
        for fn in holder.body:
            if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                out[(cls, fn.name)] = _node_citations(path, fn)
    return out


def _changed_line(name: str) -> int | None:
    """Which non-blank line of its function a mutant changes (0 is the `def` line)."""
    changed = _changed(name)
    return None if changed is None else changed[0]


@cache
def _changed(name: str) -> tuple[int, str, str] | None:
    """A mutant's first changed non-blank line of its function (0 is the `def` line), as the original and the
    mutant read it: its function's copy in mutants/ (mutmut's .spans file says where each copy lies) against the
    original copy."""
    path, _, _ = _locate(name)
    try:
        spans = _spans(path)
        lines = _lines(Path("mutants") / path)
        mangled = _function(name).rpartition(".")[2]
        copies = [lines[a - 1:b] for a, b in (spans[f"{mangled}__mutmut_orig"], spans[name.rpartition(".")[2]])]
    except (OSError, KeyError, ValueError):
        return None
    orig, mutant = ([line for line in copy if line.strip()] for copy in copies)
    start = next((i for i, line in enumerate(orig) if line.lstrip().startswith(("def ", "async def "))), None)
    if start is None:
        return None
    pairs = zip(orig[start + 1:], mutant[start + 1:], strict=False)
    return next(((i, a, b) for i, (a, b) in enumerate(pairs, 1) if a != b), None)


STRING = re.compile(r"\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'")


def _changed_strings(name: str) -> list[str]:
    """The string literals of the changed line that the mutant changed or took away ("Formosa 12.3" ->
    "formosa 12.3"): when one of them names cases, those are the mutant's cases, not every case its line names."""
    changed = _changed(name)
    if changed is None:
        return []
    _, orig, mutant = changed
    theirs = STRING.findall(mutant)
    return [text for text in STRING.findall(orig) if text not in theirs]


@cache
def _spans(path: Path) -> dict[str, list[int]]:
    return json.loads((ROOT / "mutants" / f"{path}.spans").read_text())["spans"]


@cache
def _function_node(path: Path, func: str, cls: str | None):
    tree = ast.parse((ROOT / path).read_text())
    holder = next((n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls), None) if cls else tree
    return next((n for n in getattr(holder, "body", ()) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
                 and n.name == func), None)


def cited(name: str) -> list[tuple[str, str]]:
    """The cases (game, case) of docs/cases that the code a mutant changes cites (`citation`)."""
    return citation(name)[0]


@cache
def citation(name: str) -> tuple[list[tuple[str, str]], bool]:
    """The cases a mutant's code cites, and whether the changed line's own statement names them: the innermost
    statement around the changed line that cites a case (a refusal's case, an `if` block's), or, when the mutant
    changed a string naming cases (a refusal's case misspelt), those cases alone (True), else its
    function's docstring (what the function says it implements), else anything in the function (False)."""
    path, func, cls = _locate(name)
    rows = case_rows()
    if not (ROOT / path).exists():
        return [], False
    fn, offset = _function_node(path, func, cls), _changed_line(name)
    found, precise = _citations(path).get((cls, func), frozenset()), False
    if fn is not None and ast.get_docstring(fn) is not None:
        found = _node_citations(path, fn.body[0])
    if fn is not None and offset is not None:
        body = [i for i, line in enumerate(_lines(path)[fn.lineno - 1:fn.end_lineno], fn.lineno) if line.strip()]
        line = body[offset] if offset < len(body) else None
        around = sorted((n for n in ast.walk(fn) if isinstance(n, ast.stmt) and n is not fn and line is not None
                         and n.lineno <= line <= n.end_lineno), key=lambda n: n.end_lineno - n.lineno)
        near = next((c for c in (_node_citations(path, n) for n in around) if c), None)
        own = path.parent.name if path.parent.name in CASE_PREFIX else None
        named = frozenset().union(*(_cites(text, own) for text in _changed_strings(name)))
        if named or near:
            found, precise = named or near, True
    return sorted((game, case) for game, case in found if case in rows.get(game, {})), precise


@cache
def _lines(path: Path) -> list[str]:
    return (ROOT / path).read_text().splitlines()


def _fast(tests: set[str]) -> list[str]:
    return sorted(t for t in tests if (ROOT / t.partition("::")[0]).exists())


def row_kills(name: str, rows: list[tuple[str, str]], log: Path) -> dict[tuple[str, str], bool | None]:
    """Whether each row's own fast tests kill the mutant (None: none of them kills it and none runs its function).
    All of a row's tests run, not only those mutmut traced calling the function: a game's data and map are loaded
    when a test module is imported, before any test, so no test is traced running the loading code."""
    reach = tests_by_function().get(_function(name), set())
    wanted = {row: _fast(case_rows()[row[0]][row[1]]) for row in rows}
    tests = sorted({t for ts in wanted.values() for t in ts})
    if not tests:
        return dict.fromkeys(rows)
    report = ROOT / "mutants" / "case-report.xml"
    env = {**os.environ, "MUTANT_UNDER_TEST": name}
    with log.open("a") as out:
        subprocess.run([sys.executable, "-m", "pytest", "--rootdir=.", "-q", "-p", "no:randomly", "-m", "not slow",
                        "-p", "no:cacheprovider", "--hypothesis-seed=0", "--continue-on-collection-errors",
                        f"--junitxml={report}", *tests],
                       cwd=ROOT / "mutants", env=env, stdout=out, stderr=subprocess.STDOUT, timeout=900)
    failed, broken = set(), set()
    if report.exists():
        for case in ElementTree.parse(report).iter("testcase"):
            if case.find("failure") is not None or case.find("error") is not None:
                if not case.get("classname"):  # the test module's import failed under the mutant: all of it fails
                    broken.add(case.get("name", "").replace(".", "/") + ".py")
                    continue
                path = case.get("classname", "").replace(".", "/") + ".py"
                failed.add(f"{path}::{case.get('name', '').split('[')[0]}")
    failed |= {t for t in tests if t.partition("::")[0] in broken}
    return {row: True if set(ts) & failed else (False if set(ts) & reach else None) for row, ts in wanted.items()}


def case_report(chosen: dict[str, list[str]], seed: int, per_case: int, only: set[str] = frozenset()) -> None:
    """For each row of each game's case table (or only the rows `only` names): the mutants of code citing it
    (sampled, and topped up for rows the sample leaves out) and how many the row's own tests kill."""
    log = ROOT / "mutants" / "case-report.log"
    log.write_text("")
    for package, names in chosen.items():
        rows = case_rows().get(package)
        if rows is None:
            continue
        everything = list(meta(package))
        by_row: dict[str, list[str]] = {}
        citing: dict[str, list[str]] = {}
        loose: dict[str, dict[str, list[str]]] = {"sample": {}, "all": {}}
        for group, pool in (("sample", names), ("all", everything)):
            for name in pool:
                cases, precise = citation(name)
                for game, case in cases:
                    if game == package:
                        target = (by_row if group == "sample" else citing) if precise else loose[group]
                        target.setdefault(case, []).append(name)
        rng = random.Random(f"{seed}:{package}:cases")
        for case in sorted(rows, key=_case_key):
            # the row's own code first: mutants whose changed statement names the case; else its functions'
            for pool in (by_row, citing, loose["sample"], loose["all"]):
                if pool.get(case):
                    found = sorted(pool[case])
                    sampled = pool is by_row or pool is loose["sample"]
                    by_row[case] = found if sampled else rng.sample(found, min(per_case, len(found)))
                    break
        citing = {case: sorted(set(citing.get(case, [])) | set(loose["all"].get(case, []))) for case in rows}
        shown = [case for case in sorted(rows, key=_case_key) if not only or case in only]
        by_row = {case: by_row[case] for case in shown if case in by_row}  # drawn as for every row: the same draws
        verdict: dict[str, dict[tuple[str, str], bool | None]] = {}
        codes = meta(package)
        for name in sorted({n for ns in by_row.values() for n in ns}):
            mine = [(package, case) for case, ns in by_row.items() if name in ns]
            if status(codes.get(name)) == "survived":
                verdict[name] = dict.fromkeys(mine, False)  # no test at all kills it
            else:
                verdict[name] = row_kills(name, mine, log)
        print(f"\n{package}: per-case report (docs/cases/{package}.md), row by row")
        print(f"  {'case':10} {'citing':>7} {'tried':>5} {'killed by its tests':>19}  finding")
        findings = 0
        for case in shown:
            tried = by_row.get(case, [])
            kills = [verdict[n][(package, case)] for n in tried]
            killed = sum(1 for k in kills if k)
            note = ""
            if tried and not killed:
                findings += 1
                unreached = all(k is None for k in kills)
                note = "its tests never run this code" if unreached else "its tests kill none: " + ", ".join(tried)
            print(f"  {case:10} {len(citing.get(case, [])):7} {len(tried):5} {killed:19}  {note}")
        print(f"  {findings} row(s) whose tests kill none of their mutants; rows without a citing mutant: "
              f"{sum(1 for c in rows if not citing.get(c))}")


def _case_key(case: str) -> tuple[int, ...]:
    return tuple(int(x) for x in case.split("."))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sample", type=int, default=100, help="mutants per package (default 100)")
    parser.add_argument("--seed", type=int, default=19)
    parser.add_argument("--packages", nargs="+", choices=list(PACKAGES), default=list(PACKAGES))
    parser.add_argument("--max-children", type=int, default=1, help="mutants tested at once (default 1)")
    parser.add_argument("--redraw", action="store_true",
                        help="draw a new sample instead of the one pinned in bench/mutation-sample.json")
    parser.add_argument("--report", action="store_true",
                        help="run nothing: print the sample's latest results (after `mutmut run NAME` of one)")
    parser.add_argument("--cases", action="store_true",
                        help="also the per-case report: each case row's mutants against the row's own tests")
    parser.add_argument("--per-case", type=int, default=1,
                        help="mutants drawn for a case row no sampled mutant cites (default 1)")
    parser.add_argument("--rows", nargs="+", default=[], metavar="CASE",
                        help="with --cases: report only these rows (each drawn the same mutants as in a full report)")
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
        shown = table.relative_to(ROOT) if table.exists() else "(no case table: its cases are each game's)"
        print(f"{package:8} {len(codes):7} {len(names):7} {count['killed']:6} {count['survived']:8} "
              f"{count['timeout']:7} {other:5} {score:6.1%}  {shown}")
        survivors += [(n, status(codes[n])) for n in names if status(codes[n]) not in ("killed", "timeout")]
    if survivors:
        print("\nnot killed (mutmut show NAME for the change; cases whose mapped tests run the function):")
        for name, state in survivors:
            cases = cases_reaching(name)
            more = f" and {len(cases) - 6} more" if len(cases) > 6 else ""
            print(f"  {state:9} {name}  [{', '.join(cases[:6]) + more or 'no mapped test runs it'}]")
    if args.cases:
        if args.report:  # the rows' tests as they are now, not as the last mutmut run copied them
            from mutmut.__main__ import copy_also_copy_files

            with contextlib.redirect_stdout(io.StringIO()):
                copy_also_copy_files()
        case_report(chosen, args.seed, args.per_case, set(args.rows))


if __name__ == "__main__":
    main()
