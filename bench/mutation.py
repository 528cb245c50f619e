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

The per-case report (--cases) reads which cases code cites from its string literals and comments ("Formosa 13.3",
or "13.3" alone inside a game's own package), and charges a mutant to the cases cited nearest the statement it
changes (`Citations`: the statement's own comment or strings, else the branch around it, else the function's
docstring). A row's mutants are the sampled mutants citing its case, and,
for a row no sampled mutant cites, `--per-case` more mutants of functions citing it (seeded). Each is run once
against the fast tests of every row it cites (pytest in mutants/ with the mutant switched on, one process per
mutant), so the report tells, row by row, whether the row's own tests kill its mutants: a row whose tests kill
none is a finding. A test module whose import fails under the mutant (the game's data no longer loads) fails all
its tests: a kill, as in mutmut's run. With --report the tests are first copied into mutants/ again, so the rows
run the tests as they are now (a test added since the last run included); --rows reports only the rows named,
each with the mutants a full report draws for it.

Usage: python bench/mutation.py [--sample 100] [--seed 19] [--packages snc ...] [--max-children 1] [--report]
                                [--redraw] [--cases [--per-case 1] [--rows CASE ...]]
                                [--lines [--resume] [--only MUTANT ...] [--since [PACKAGE=]COMMIT ...]
                                         [--untraced [--own-only]]]
"""
from __future__ import annotations

import argparse
import ast
import contextlib
import fnmatch
import hashlib
import importlib.util
import io
import json
import math
import os
import random
import re
import subprocess
import sys
import time
import tokenize
import tomllib
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
    # the practice opponents: their policies (app/rules/practice.py and the frozen editions practice_v1*.py) and
    # the search (app/rules/search.py)
    "practice": lambda path: path.parent == RULES and path.name.startswith(("practice", "search")),
    # the analysis: the evaluation the search's playouts end on and the win chances read (app/rules/evaluation.py),
    # and the chances after every Game-Turn (app/projections/chances.py)
    "analysis": lambda path: path in (RULES / "evaluation.py", Path("app", "projections", "chances.py")),
}
# the name a game's cases carry in refusals and docstrings ("Formosa 13.3"), by package
CASE_PREFIX = {"snc": "SNC", "ichigo": "Ichi-Go", "formosa": "Formosa", "daisenso": "Dai Senso",
               "olympic": "Olympic", "skirmish": "SK"}
PINNED = ROOT / "bench" / "mutation-sample.json"
CASE_TABLES = sorted((ROOT / "docs" / "cases").glob("*.md"))
CASE_ROW = re.compile(r"^\| *([0-9][0-9.]*) *\| *([^|]*)\|")
TEXT_TOKENS = {tokenize.STRING, tokenize.COMMENT, getattr(tokenize, "FSTRING_MIDDLE", tokenize.STRING)}
CASE_NUMBER = re.compile(r"(?<![\w.])([0-9]{1,2}(?:\.[0-9]{1,2})+)(?![\w]|\.[0-9])")


def generate(max_children: int, packages: list[str]) -> None:
    """mutmut's own first step of `mutmut run` (copy the tree into mutants/, write each file's mutants), for the
    files of `packages` only (another package's files stay plain copies until a run of it: writing every file's
    mutants takes half an hour on a busy machine); it keeps a file's mutants and their results until the source
    file changes."""
    from multiprocessing import Pool

    from mutmut.__main__ import copy_also_copy_files, copy_src_dir, create_file_mutants
    from mutmut.configuration import config
    from mutmut.utils.file_utils import walk_all_files, walk_source_files

    os.makedirs("mutants", exist_ok=True)
    files = [path for path in walk_source_files()
             if not config().should_mutate(path) or any(PACKAGES[p](path) for p in packages)]
    for root, name in walk_all_files():  # mutmut copies a file only once: a copy older than its source (a merge
        source = Path(root, name)  # since) is taken away, so the tests do not run today's tests on yesterday's code
        copy = Path("mutants", source)
        if not copy.exists() or source.suffix == ".py" and source in files and config().should_mutate(source):
            continue  # (this run's own packages: mutmut writes their mutants again when the source is newer)
        if (copy.read_bytes() != source.read_bytes() if not config().should_mutate(source)
                else source.stat().st_mtime > copy.stat().st_mtime):
            for stale in (copy, copy.with_name(copy.name + ".meta"), copy.with_name(copy.name + ".spans")):
                stale.unlink(missing_ok=True)
    for path in files:  # a run stopped while writing a file's mutants leaves them half written and no .meta:
        written = Path("mutants", path)  # mutmut would take the file as done (newer than its source)
        if config().should_mutate(path) and written.exists() and not written.with_name(written.name + ".meta").exists():
            written.unlink()
    with contextlib.redirect_stdout(io.StringIO()):  # it names every file it copies
        copy_src_dir()
        copy_also_copy_files()
        with Pool(processes=max_children) as pool:
            for result in pool.imap_unordered(create_file_mutants, files):
                if result.error:
                    raise result.error


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
    """mutmut's trace of which tests call which function (none yet when only `--lines` has run)."""
    written = ROOT / "mutants" / "mutmut-stats.json"
    if not written.exists():
        return {}
    stats = json.loads(written.read_text())["tests_by_mangled_function_name"]
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
    path = Path(*module.split("."))  # a package's own functions are in its __init__.py (formosa.played_under)
    path = path / "__init__.py" if (ROOT / path).is_dir() else path.with_suffix(".py")
    if mangled.startswith("xǁ"):
        _, cls, func = mangled.split("ǁ")
        return path, func, cls
    return path, mangled[2:], None


PREFIXED = re.compile(r"\b(" + "|".join(re.escape(p) for p in CASE_PREFIX.values()) + r")\s+(?:ruling\s+)?"
                      r"([0-9]{1,2}(?:\.[0-9]{1,2})+)")
GAME_OF = {p: g for g, p in CASE_PREFIX.items()}


def _cites(text: str, own: str | None) -> set[tuple[str, str]]:
    """The cases a text names: "Formosa 13.3" anywhere, and a bare "13.3" inside the package of game `own` (not
    the number of another game's prefixed case)."""
    found = {(GAME_OF[m.group(1)], m.group(2)) for m in PREFIXED.finditer(text)}
    if own is not None:
        found |= {(own, m.group(1)) for m in CASE_NUMBER.finditer(PREFIXED.sub(" ", text))}
    return found


class Citations:
    """What a file's code cites, statement by statement: the per-case report charges a mutant to the cases cited nearest
    the statement it changes. A statement cites what its own line says (its comments and strings, the module
    constants it names, the comment lines just above it), else what the whole statement's strings say (a refusal
    spread over lines) with the comment on or above its first line; a comment inside a statement (one key of a dict)
    speaks for its own line only; a compound statement's header citing nothing takes the comment on its block's
    first line (`if in_range:` / `return "oos" # 8.9`). Failing that, the branch around it (an `if`'s header,
    `else:` or `except` line and the comment above the compound statement), then the next branch out, and only then
    the function's docstring (what the function says it implements)."""

    def __init__(self, source: str, own: str | None):
        self.own = own  # the game whose bare case numbers ("13.3") this file may use
        self.tree = ast.parse(source)
        self.lines = source.splitlines()
        self.comments: dict[int, list[str]] = {}
        self.strings: list[tuple[int, int, str]] = []
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.type == tokenize.COMMENT:
                self.comments.setdefault(tok.start[0], []).append(tok.string)
            elif tok.type in TEXT_TOKENS:
                self.strings.append((tok.start[0], tok.end[0], tok.string))
        constants = {t.id: node.value.value for node in self.tree.body if isinstance(node, ast.Assign)
                     and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
                     for t in node.targets if isinstance(t, ast.Name)}  # C15 = "Formosa 15.0"
        self.named: dict[int, list[str]] = {}  # line -> the constants' texts named on it
        for n in ast.walk(self.tree):
            if isinstance(n, ast.Name) and n.id in constants:
                self.named.setdefault(n.lineno, []).append(constants[n.id])

    def function(self, func: str, cls: str | None = None) -> ast.FunctionDef | None:
        holder = next((n for n in self.tree.body if isinstance(n, ast.ClassDef) and n.name == cls), None) \
            if cls else self.tree
        return next((n for n in getattr(holder, "body", ()) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
                     and n.name == func), None)

    def cases(self, fn: ast.FunctionDef, line: int | None) -> tuple[frozenset[tuple[str, str]], bool]:
        """The (game, case) pairs cited nearest `line` of `fn`, and whether a statement or branch around the line
        cites them (True) or only the docstring does (False). Without a line: the docstring, else anything in
        the function."""
        if line is None:
            return self.docstring(fn) or self._cites_in(fn.lineno, fn.end_lineno, comments=True), False
        for stmt, branch in reversed(self._path([fn.body], line)):
            if branch is None:  # the line is the statement's own (a simple statement, a compound one's header)
                first, last = self._header(stmt, line)
                found = self._at(line) or self._cites_in(first, last) | self._at(first)
                if not found and _branches(stmt):  # a condition its block's first line explains: `return x  # 8.9`
                    found = self._cite(self.comments.get(last + 1, []))
            else:
                first, last = self._regions(stmt)[branch]
                found = self._cites_in(first, last, comments=True) | self._above(stmt.lineno) \
                    | (self.docstring(stmt) if isinstance(stmt, ast.FunctionDef | ast.ClassDef) else frozenset())
            if found:
                return frozenset(found), True
        return self.docstring(fn), False

    def docstring(self, fn: ast.AST) -> frozenset[tuple[str, str]]:
        body = getattr(fn, "body", [])
        if body and ast.get_docstring(fn) is not None:
            return frozenset(self._cites_in(body[0].lineno, body[0].end_lineno))
        return frozenset()

    def _path(self, branches: list[list[ast.stmt]], line: int) -> list[tuple[ast.stmt, int | None]]:
        """The statements around `line`, outermost first, each with the index of its branch holding the line
        (None: the line is the statement's own)."""
        for stmt in (s for branch in branches for s in branch):
            if stmt.lineno <= line <= stmt.end_lineno:
                inner = _branches(stmt)
                for i, branch in enumerate(inner):
                    if branch[0].lineno <= line <= branch[-1].end_lineno:
                        return [(stmt, i), *self._path([branch], line)]
                return [(stmt, None)]
        return []

    def _regions(self, stmt: ast.stmt) -> list[tuple[int, int]]:
        """Each branch's header lines: the first from the statement's start, each later one (`else:`, `except`)
        from the line after the branch before it."""
        out, start = [], stmt.lineno
        for branch in _branches(stmt):
            out.append((start, branch[0].lineno - 1))
            start = branch[-1].end_lineno + 1
        return out

    def _header(self, stmt: ast.stmt, line: int) -> tuple[int, int]:
        regions = self._regions(stmt)
        if not regions:
            return stmt.lineno, stmt.end_lineno
        return next(((a, b) for a, b in regions if a <= line <= b), regions[0])

    def _cite(self, texts) -> set[tuple[str, str]]:
        return set().union(*(_cites(text, self.own) for text in texts))

    def _at(self, line: int) -> set[tuple[str, str]]:
        """What the line itself cites: its comments, strings and constants, and the comment lines just above it."""
        return self._cites_in(line, line, comments=True) | self._above(line)

    def _above(self, line: int) -> set[tuple[str, str]]:
        above = []
        while line > 1 and self.lines[line - 2].strip().startswith("#"):
            line -= 1
            above += self.comments.get(line, [])
        return self._cite(above)

    def _cites_in(self, first: int, last: int, comments: bool = False) -> set[tuple[str, str]]:
        texts = [text for a, b, text in self.strings if a <= last and b >= first]
        texts += [text for n in range(first, last + 1) for text in self.named.get(n, [])]
        if comments:
            texts += [text for n in range(first, last + 1) for text in self.comments.get(n, [])]
        return self._cite(texts)


def _branches(stmt: ast.stmt) -> list[list[ast.stmt]]:
    """A compound statement's blocks in source order (a simple statement has none)."""
    blocks = [getattr(stmt, "body", None)]
    blocks += [h.body for h in getattr(stmt, "handlers", ())] + [c.body for c in getattr(stmt, "cases", ())]
    blocks += [getattr(stmt, "orelse", None), getattr(stmt, "finalbody", None)]
    blocks = [b for b in blocks if isinstance(b, list) and b and isinstance(b[0], ast.stmt)]
    return sorted(blocks, key=lambda b: b[0].lineno)


@cache
def _attribution(path: Path) -> Citations:
    own = path.parent.name if path.parent.name in CASE_PREFIX else None
    return Citations((ROOT / path).read_text(), own)


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
def citation(name: str) -> tuple[list[tuple[str, str]], bool]:
    """The cases a mutant's code cites, and whether its own statement or a branch around it names them: when the
    mutant changed a string naming cases (a refusal's case misspelt), those cases alone, else the cases cited
    nearest the changed line (`Citations`) (True); else its function's docstring (False)."""
    path, func, cls = _locate(name)
    rows = case_rows()
    if not (ROOT / path).exists():
        return [], False
    attribution = _attribution(path)
    fn = attribution.function(func, cls)
    if fn is None:
        return [], False
    offset = _changed_line(name)
    body = [i for i, line in enumerate(_lines(path)[fn.lineno - 1:fn.end_lineno], fn.lineno) if line.strip()]
    line = body[offset] if offset is not None and offset < len(body) else None
    found, precise = attribution.cases(fn, line)
    named = frozenset().union(*(_cites(text, attribution.own) for text in _changed_strings(name)))
    if named:
        found, precise = named, True
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


def row_kills_by_lines(name: str, rows: list[tuple[str, str]], trace: dict, warm: Warm,
                       cpu_factor: float) -> dict[tuple[str, str], bool | None]:
    """`row_kills` with the line runner (--cases --lines): each row's fast tests of the traced selection in one
    pytest forked from the warm collection (a fresh process when the mutant's function runs at import), stopping
    at the first failure; a row whose tests pass is "never run" when none of them is traced running the mutant's
    statement (nor, for a mutant whose function runs at import, its function)."""
    reached, import_time = tests_of(name, trace)
    seconds = dict(zip(trace["tests"], trace["durations"], strict=True))
    args = _mutmut_config()["pytest_add_cli_args"]
    out: dict[tuple[str, str], bool | None] = {}
    for row in rows:
        tests = [t for t in _fast(case_rows()[row[0]][row[1]]) if any(_runs(t, traced) for traced in seconds)]
        if not tests:
            out[row] = None
            continue
        estimate = sum(v for k, v in seconds.items() if any(_runs(t, k) for t in tests))
        verdict, _ = _run_stage(name, tests, math.ceil(60 + cpu_factor * estimate), args,
                                None if import_time else warm)
        reach = import_time or any(_runs(t, traced) for t in tests for traced in reached)
        out[row] = True if verdict != "survived" else (False if reach else None)
    return out


def _case_rows_at(commit: str) -> dict[str, dict[str, set[str]]]:
    """`case_rows` as the case tables read at `commit` (a table missing then: no rows)."""
    out: dict[str, dict[str, set[str]]] = {}
    for table in CASE_TABLES:
        then = subprocess.run(["git", "show", f"{commit}:{table.relative_to(ROOT).as_posix()}"], cwd=ROOT,
                              capture_output=True, text=True)
        rows = out.setdefault(table.stem, {})
        for line in then.stdout.splitlines() if then.returncode == 0 else ():
            row = CASE_ROW.match(line)
            if row:
                rows.setdefault(row.group(1), set()).update(t.strip() for t in row.group(2).split(",") if t.strip())
    return out


def _runs(named: str, traced: str) -> bool:
    """Does a test a row names (a module, a test, a test without its parameters) run the traced test id?"""
    return traced == named or traced.startswith((named + "[", named + "::"))


def draw_rows(package: str, names: list[str], seed: int, per_case: int) -> tuple[dict[str, list[str]],
                                                                               dict[str, list[str]]]:
    """Each case row's mutants (the sampled ones charged to it by their statement or branch; else `per_case`
    drawn from every such mutant; else the sampled ones charged to it by a docstring; else `per_case` drawn from
    every such one), and every mutant charged to each row."""
    rows = case_rows()[package]
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
    for case in sorted(rows, key=_case_key):
        rng = random.Random(f"{seed}:{package}:cases:{case}")  # a row's draw is its own: no other row's shifts it
        # the row's own code first: mutants whose statement or branch names the case; else a docstring's
        for pool in (by_row, citing, loose["sample"], loose["all"]):
            if pool.get(case):
                found = sorted(pool[case])
                sampled = pool is by_row or pool is loose["sample"]
                by_row[case] = found if sampled else rng.sample(found, min(per_case, len(found)))
                break
    citing = {case: sorted(set(citing.get(case, [])) | set(loose["all"].get(case, []))) for case in rows}
    return by_row, citing


def case_report(chosen: dict[str, list[str]], seed: int, per_case: int, only: set[str] = frozenset(),
                lines: bool = False, cpu_factor: float = 5.0, since: dict[str, str] | None = None) -> None:
    """For each row of each game's case table (or only the rows `only` names): the mutants of code citing it
    (sampled, and topped up for rows the sample leaves out) and how many the row's own tests kill. With `lines`,
    each row's tests run as `--lines` runs a mutant (`row_kills_by_lines`). `since` (package -> commit, "" for
    every package): only the rows one of whose drawn mutants' functions changed since the commit (`changed_since`:
    another row's mutants are the same changes of the same code, and its tests only grew), or whose own tests
    the case table maps anew since then (a row new since, or its tests changed)."""
    log = ROOT / "mutants" / "case-report.log"
    log.write_text("")
    trace = trace_lines(False) if lines else None
    warm = Warm() if lines else None
    for package, names in chosen.items():
        rows = case_rows().get(package)
        if rows is None:
            continue
        by_row, citing = draw_rows(package, names, seed, per_case)
        shown = [case for case in sorted(rows, key=_case_key) if not only or case in only]
        commit = None if since is None else since.get(package, since.get(""))
        if commit is not None:
            changed = set(changed_since(sorted({n for ns in by_row.values() for n in ns}), commit))
            mapped = _case_rows_at(commit).get(package, {})
            shown = [case for case in shown if changed & set(by_row.get(case, ()))
                     or mapped.get(case) != rows[case]]
            print(f"\n{package}: {len(shown)} of {len(rows)} rows whose drawn code or mapped tests changed since "
                  f"{commit}: {' '.join(shown)}", flush=True)
        by_row = {case: by_row[case] for case in shown if case in by_row}  # drawn as for every row: the same draws
        verdict: dict[str, dict[tuple[str, str], bool | None]] = {}
        codes = meta(package)
        for name in sorted({n for ns in by_row.values() for n in ns}):
            mine = [(package, case) for case, ns in by_row.items() if name in ns]
            if status(codes.get(name)) == "survived":
                verdict[name] = dict.fromkeys(mine, False)  # no test at all kills it
            elif trace is not None:
                verdict[name] = row_kills_by_lines(name, mine, trace, warm, cpu_factor)
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
    if warm is not None:
        warm.close()


# -- the bench's own runner (--lines): each mutant against the fast tests that run the line it changes ------------
# mutmut runs a mutant against every test that calls its function, in no order: for the engine, whose functions
# every game's tests call, that is the whole rules tier for each mutant (~8,800 s of traced test time for the
# sample). Here a coverage run over the same tests records which test runs which line (LINES); a mutant runs only
# the tests that run the statement it changes (none other can tell it from the code), its package's own tests
# first, then the rest, fastest first, stopping at the first failure, each pytest under a CPU-time limit.
LINES = ROOT / "mutants" / "lines-by-test.json"
RESULTS = ROOT / "mutants" / "lines-results.json"
RUN_LOG = ROOT / "mutants" / "lines-run.log"
IMPORT_TIME = -1  # the "test" of a line run while test modules are imported (collection), before any test
# a package's own tests, run before the others that reach a mutant
OWN_TESTS = {"engine": ("tests/engine/",), "skirmish": ("tests/rules/test_skirmish",), "kernel": ("tests/kernel/",),
             "practice": ("tests/engine/test_greedy_policy.py", "tests/engine/test_practice_policies.py",
                          "tests/engine/test_practice_mutants_", "tests/engine/test_search_",
                          "tests/rules/test_search_budget.py", "tests/core/"),
             "analysis": ("tests/core/test_evaluation.py", "tests/replay/test_chances.py")}
# exit codes written to mutmut's meta files, so `--report` and `mutmut results` read these runs too
EXIT_CODE = {"killed": 1, "survived": 0, "timeout": 36, "import failure": 255, "no tests": 33}


def _mutmut_config() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mutmut"]


def _digest(path: Path) -> str:
    return hashlib.sha1((ROOT / path).read_bytes()).hexdigest()


def _package_files(packages: list[str]) -> list[Path]:
    from mutmut.utils.file_utils import walk_mutatable_files

    return sorted(Path(p) for p in walk_mutatable_files() if any(PACKAGES[k](Path(p)) for k in packages))


def _test_files() -> dict[str, str]:
    return {str(p.relative_to(ROOT)): _digest(p.relative_to(ROOT)) for p in sorted((ROOT / "tests").rglob("*.py"))}


def trace_worker(include: list[str], args: list[str], out: str) -> None:
    """Run pytest (`args`) under coverage with one context per test, and write which tests ran each line of the
    `include`d files (run in a process of its own by `trace_lines`)."""
    import coverage
    import pytest

    cov = coverage.Coverage(data_file=None, include=[str(ROOT / p) for p in include], config_file=False)
    durations: dict[str, float] = {}

    class Contexts:
        @pytest.hookimpl(hookwrapper=True)
        def pytest_runtest_protocol(self, item, nextitem):
            cov.switch_context(item.nodeid)
            yield
            cov.switch_context("")

        def pytest_runtest_logreport(self, report):
            durations[report.nodeid] = durations.get(report.nodeid, 0.0) + report.duration

    cov.start()
    code = pytest.main(["-q", "-p", "no:randomly", *args], plugins=[Contexts()])
    cov.stop()
    if code not in (0, 5):
        sys.exit(f"the traced tests failed (pytest exit {code}): fix them before a mutation run")
    data = cov.get_data()
    tests = sorted(durations)
    index = {t: i for i, t in enumerate(tests)}
    lines = {}
    for measured in data.measured_files():
        by_line = data.contexts_by_lineno(measured)
        lines[str(Path(measured).relative_to(ROOT))] = {
            str(n): sorted(index.get(c, IMPORT_TIME) for c in contexts) for n, contexts in by_line.items()}
    Path(out).write_text(json.dumps({"tests": tests, "durations": [durations[t] for t in tests], "lines": lines}))


def trace_lines(retrace: bool) -> dict:
    """Which fast tests run each line of every package's files (LINES), traced again where something changed: all
    of it when a source file or a test helper changed, only the changed test modules when only they did. Every
    package's files whatever `--packages` names, so one trace serves a run of each package in turn."""
    old = json.loads(LINES.read_text()) if LINES.exists() and not retrace else None
    files = {str(p) for p in _package_files(list(PACKAGES))}
    sources = {f: _digest(Path(f)) for f in sorted(files)}
    tests_now = _test_files()
    conf = _mutmut_config()
    args, selection = conf["pytest_add_cli_args"], conf["pytest_add_cli_args_test_selection"]
    if old is not None and old["sources"] == sources:
        changed = {t for t in tests_now.keys() | old["test_files"].keys()
                   if tests_now.get(t) != old["test_files"].get(t)}
        if not changed:
            return old
        if all(Path(t).name.startswith("test_") for t in changed):
            modules = sorted(t for t in changed if t in tests_now and any(t.startswith(s) for s in selection))
            print(f"tracing the lines run by {len(modules)} changed test module(s)", flush=True)
            fresh = _trace(list(sources), args, modules) if modules else {"tests": [], "durations": [], "lines": {}}
            return _save_lines(_merge(old, fresh, changed), sources, tests_now)
    print(f"tracing which fast tests run each line of {len(sources)} files (one pytest run under coverage)",
          flush=True)
    return _save_lines(_trace(list(sources), args, selection), sources, tests_now)


def _trace(include: list[str], args: list[str], tests: list[str]) -> dict:
    out = ROOT / "mutants" / "lines-trace.json"
    with RUN_LOG.open("a") as log:
        done = subprocess.run([sys.executable, "-c", "import sys; from bench.mutation import trace_worker; "
                               "trace_worker(*__import__('json').loads(sys.argv[1]))",
                               json.dumps([include, [*args, *tests], str(out)])],
                              cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    if done.returncode:
        sys.exit(f"tracing the tests failed (exit {done.returncode}): see {RUN_LOG.relative_to(ROOT)}")
    return json.loads(out.read_text())


def _merge(old: dict, fresh: dict, modules: set[str]) -> dict:
    """`old`'s trace with the tests of `modules` replaced by `fresh`'s."""
    keep = [i for i, t in enumerate(old["tests"]) if t.partition("::")[0] not in modules]
    tests = [old["tests"][i] for i in keep] + fresh["tests"]
    durations = [old["durations"][i] for i in keep] + fresh["durations"]
    renumber = {o: n for n, o in enumerate(keep)} | {IMPORT_TIME: IMPORT_TIME}
    shift = len(keep)
    lines: dict[str, dict[str, list[int]]] = {}
    for source, by_line in old["lines"].items():
        lines[source] = {n: [renumber[i] for i in ts if i in renumber] for n, ts in by_line.items()}
    for source, by_line in fresh["lines"].items():
        mine = lines.setdefault(source, {})
        for n, ts in by_line.items():
            mine[n] = sorted(set(mine.get(n, [])) | {i + shift if i != IMPORT_TIME else i for i in ts})
    return {"tests": tests, "durations": durations, "lines": lines}


def _save_lines(trace: dict, sources: dict[str, str], tests: dict[str, str]) -> dict:
    trace = {**trace, "sources": sources, "test_files": tests}
    LINES.write_text(json.dumps(trace))
    return trace


def _statement_lines(name: str) -> tuple[list[int], list[int]]:
    """The source lines of the statement a mutant changes (a compound statement's header), and those of its whole
    function (the fallback when the change is in the signature or on a line no trace records)."""
    path, func, cls = _locate(name)
    fn = _attribution(path).function(func, cls)
    if fn is None:
        return [], []
    whole = list(range(fn.body[0].lineno, fn.end_lineno + 1))
    offset = _changed_line(name)
    body = [i for i, line in enumerate(_lines(path)[fn.lineno - 1:fn.end_lineno], fn.lineno) if line.strip()]
    if offset is None or offset >= len(body):
        return whole, whole
    line = body[offset]
    around = [n for n in ast.walk(fn) if isinstance(n, ast.stmt) and n is not fn and n.lineno <= line <= n.end_lineno]
    if not around:
        return whole, whole
    stmt = min(around, key=lambda n: n.end_lineno - n.lineno)
    inner = getattr(stmt, "body", None)
    header = isinstance(inner, list) and inner and inner[0].lineno > stmt.lineno
    end = inner[0].lineno - 1 if header else stmt.end_lineno
    return sorted(set(range(stmt.lineno, end + 1)) | {line}), whole


def tests_of(name: str, trace: dict) -> tuple[list[str], bool]:
    """The traced tests that run the statement a mutant changes (those of its function if none does), and whether
    its function also runs while test modules are imported: what it made then (a slot type's reading function
    built when a module's grammars are, a cached table) is the mutant's in a fresh process, not in a warm one."""
    path, _, _ = _locate(name)
    by_line = trace["lines"].get(str(path), {})
    hits: set[int] = set()
    statement, whole = _statement_lines(name)
    for lines in (statement, whole):
        for n in lines:
            hits.update(by_line.get(str(n), ()))
        if hits - {IMPORT_TIME}:
            break
    at_import = any(IMPORT_TIME in by_line.get(str(n), ()) for n in whole)
    return [trace["tests"][i] for i in hits if i != IMPORT_TIME], at_import


def statement_reached(name: str, trace: dict) -> bool:
    """Does any traced test (or import) run the statement the mutant changes?"""
    by_line = trace["lines"].get(str(_locate(name)[0]), {})
    return any(str(n) in by_line for n in _statement_lines(name)[0])


def _stages(package: str, tests: list[str], import_time: bool, trace: dict) -> list[list[str]]:
    """The package's own tests, then the others, each fastest first. Code that also runs while test modules are
    imported (a game's states table compiled, its data loaded) may change what any test sees, whoever traced it:
    the package's own test modules then run whole too. (Any test might notice such a mutant, but running the whole
    selection for each one would take an hour on this machine: a survivor here may be killed by a test no trace
    ties to it, never the other way round.)"""
    seconds = dict(zip(trace["tests"], trace["durations"], strict=True))
    own_prefixes = OWN_TESTS.get(package, (f"tests/{package}/",))
    own = sorted((t for t in tests if t.startswith(own_prefixes)), key=lambda t: seconds.get(t, 0.0))
    rest = sorted((t for t in tests if not t.startswith(own_prefixes)), key=lambda t: seconds.get(t, 0.0))
    whole = []
    if import_time:  # the traced tests first: a fresh process imports only their modules
        whole = sorted({t.partition("::")[0] for t in trace["tests"] if t.startswith(own_prefixes)})
    return [stage for stage in (own, whole, rest) if stage]


PYTEST = ["--rootdir=.", "-x", "-q", "-p", "no:randomly", "--tb=line"]


def warm_worker() -> None:
    """Collect the whole selection once (test modules imported, game data and maps loaded), then answer each
    request on stdin ({"name", "tests", "cpu", "log"}, a line of JSON) with a pytest forked from this process with
    the mutant switched on, and its exit code on stdout. Only for a mutant whose code no import runs: what the
    imports computed is then the same with the mutant (mutmut's own fork server, warmed by collecting)."""
    import resource
    import signal

    import pytest

    conf = _mutmut_config()
    channel = os.fdopen(os.dup(1), "w", buffering=1)  # the answers; whatever else is printed goes nowhere
    quiet = os.open(os.devnull, os.O_WRONLY)
    os.dup2(quiet, 1)
    pytest.main(["--rootdir=.", "--collect-only", "-q", *conf["pytest_add_cli_args"],
                 *conf["pytest_add_cli_args_test_selection"]])
    channel.write(json.dumps({"ready": True}) + "\n")
    for line in sys.stdin:
        request = json.loads(line)
        pid = os.fork()
        if pid == 0:
            try:
                resource.setrlimit(resource.RLIMIT_CPU, (request["cpu"], request["cpu"] + 5))
                os.environ["MUTANT_UNDER_TEST"] = request["name"]
                out = os.open(request["log"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
                os.dup2(out, 1)
                os.dup2(out, 2)
                sys.stdout = os.fdopen(1, "w", buffering=1)
                sys.stderr = os.fdopen(2, "w", buffering=1)
                code = int(pytest.main([*PYTEST, *conf["pytest_add_cli_args"], *request["tests"]]))
            except BaseException:  # noqa: BLE001 - whatever the child met, its parent must learn an exit code
                code = 3
            os._exit(code)
        deadline = time.monotonic() + request["cpu"] * 20
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                code = os.waitstatus_to_exitcode(status)
                break
            if time.monotonic() > deadline:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                code = -9
                break
            time.sleep(0.1)
        channel.write(json.dumps({"code": code}) + "\n")


class Warm:
    """A `warm_worker` process in mutants/, started on first use."""

    def __init__(self):
        self.process = None

    def run(self, name: str, tests: list[str], cpu_limit: int, log: Path) -> int:
        if self.process is None:
            self.process = subprocess.Popen(
                [sys.executable, "-c", "import importlib.util, sys; "  # this file, not mutants/'s copy of it
                 "spec = importlib.util.spec_from_file_location('bench_mutation', sys.argv[1]); "
                 "module = importlib.util.module_from_spec(spec); spec.loader.exec_module(module); "
                 "module.warm_worker()", __file__],
                cwd=ROOT / "mutants", stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                env={k: v for k, v in os.environ.items() if k != "MUTANT_UNDER_TEST"})
            assert json.loads(self.process.stdout.readline()).get("ready"), "the warm worker did not start"
        self.process.stdin.write(json.dumps({"name": name, "tests": tests, "cpu": cpu_limit, "log": str(log)}) + "\n")
        self.process.stdin.flush()
        return json.loads(self.process.stdout.readline())["code"]

    def close(self) -> None:
        if self.process is not None:
            self.process.stdin.close()
            self.process.wait()


def _run_stage(name: str, tests: list[str], cpu_limit: int, args: list[str], warm: Warm | None) -> tuple[str, str]:
    """One pytest over `tests` in mutants/ with the mutant switched on (forked from the warm worker, or a fresh
    process when the mutant's code runs at import): its verdict and the failing test."""
    import resource

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_limit, cpu_limit + 5))

    out = ROOT / "mutants" / f"lines-stage-{os.getpid()}.log"  # a run of its own beside another (a report)
    if warm is not None:
        code = warm.run(name, tests, cpu_limit, out)
    else:
        try:
            with out.open("w") as log:
                code = subprocess.run([sys.executable, "-m", "pytest", *PYTEST, *args, *tests], cwd=ROOT / "mutants",
                                      env={**os.environ, "MUTANT_UNDER_TEST": name}, stdout=log,
                                      stderr=subprocess.STDOUT, preexec_fn=limit, timeout=cpu_limit * 20).returncode
        except subprocess.TimeoutExpired:
            code = -9
    output = out.read_text(errors="replace")
    with RUN_LOG.open("a") as log:
        log.write(f"\n=== {name}: {len(tests)} tests, {'warm' if warm else 'fresh'}, CPU limit {cpu_limit} s, "
                  f"exit {code}\n{output}")
    failed = next((line.split()[1] for line in output.splitlines() if line.startswith(("FAILED ", "ERROR "))), "")
    if code == 0:
        return "survived", ""
    if code in (1, 3):
        return "killed", failed
    if code == 2 or (code == 4 and "ERROR collecting" in output):  # a test module's import raised
        return "import failure", failed
    if code < 0:
        return "timeout", ""
    sys.exit(f"pytest exited {code} on {name}'s tests (a test renamed since the trace? run with --retrace); "
             f"see {RUN_LOG.relative_to(ROOT)}")


def _module_seconds() -> dict[str, float]:
    """Each test module's seconds in a whole run (tests/durations.tsv, kept by the lead)."""
    table = ROOT / "tests" / "durations.tsv"
    rows = (line.split("\t") for line in table.read_text().splitlines() if line and not line.startswith("#"))
    return {module.strip(): float(wall) for wall, module in rows}


def _untraced_stages(package: str, own_only: bool = False) -> list[list[str]]:
    """With --untraced: the package's own tests of the selection, then (unless `own_only`) the rest of the
    selection, each module fastest first by tests/durations.tsv (no trace: every test of the selection may be the
    one that notices)."""
    selection = _mutmut_config()["pytest_add_cli_args_test_selection"]
    copy = ROOT / "mutants"  # the tests run there: a module added since the run began is not (yet) copied
    modules = sorted({str(p.relative_to(copy)) for entry in selection for p in
                      ([copy / entry] if entry.endswith(".py") else sorted((copy / entry).rglob("test_*.py")))
                      if p.exists()})
    own_prefixes = OWN_TESTS.get(package, (f"tests/{package}/",))
    seconds = _module_seconds()
    by_time = sorted(modules, key=lambda m: (seconds.get(m, 0.0), m))
    own = [m for m in by_time if m.startswith(own_prefixes)]
    return [stage for stage in (own, [] if own_only else [m for m in by_time if m not in own]) if stage]


def _killers_first(modules: list[str], name: str, results: dict) -> list[str]:
    """An untraced stage's modules in the order most likely to kill `name` first (a run stops at the first
    failure, so the order changes only how soon a kill comes, never a verdict): the modules whose tests killed
    other mutants of its source file in this `mutants/` (most kills first), then those named after the file
    (test_rows_combat.py for combat.py), then the rest as given (fastest first). Part 14's Formosa mutants waited
    1 to 4 min each for a killer late in the fastest-first order of 47 modules."""
    source = _locate(name)[0]
    kills = Counter(r["killer"].partition("::")[0] for n, r in results.items()
                    if r.get("status") == "killed" and r.get("killer") and n != name and _locate(n)[0] == source)
    stem = source.stem.rstrip("s")  # view.py: test_rows_views.py; strategic.py: test_formosa_strategic.py
    position = {m: i for i, m in enumerate(modules)}
    return sorted(modules, key=lambda m: (-kills[m], stem not in Path(m).stem, position[m]))


def run_by_lines(chosen: dict[str, list[str]], resume: bool, only: list[str], cpu_factor: float,
                 retrace: bool, untraced: bool = False, own_only: bool = False) -> float:
    """Run the sampled mutants (those `only` names, or not yet run under the current code with --resume) against
    their tests stage by stage; each verdict is saved at once (RESULTS and mutmut's meta files). `untraced`: no
    line trace (it took 34 min to over an hour on a busy machine): each mutant against its package's test
    modules, then every other module of the selection, stopping at the first failure, forked from the warm
    collection and, when it survives there, again in a fresh process."""
    start = time.monotonic()
    if untraced:
        trace = {"tests": [], "durations": [], "lines": {}}
        seconds = _module_seconds()
    else:
        trace = trace_lines(retrace)
        seconds = dict(zip(trace["tests"], trace["durations"], strict=True))
    args = _mutmut_config()["pytest_add_cli_args"]
    results = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    todo = [(p, n) for p, names in chosen.items() for n in names
            if (not only or _named(n, only))
            and not (resume and results.get(n, {}).get("source") == _digest(_locate(n)[0]))]
    print(f"{len(todo)} mutants to run", flush=True)
    warm = Warm()
    checked: set[str] = set()
    for count, (package, name) in enumerate(todo, 1):
        if untraced and package not in checked:  # the package's tests must pass with no mutant switched on: a
            checked.add(package)  # copy in mutants/ half written or older than the tests fails them all (no kill)
            for group in _untraced_stages(package, own_only):
                verdict, failed = _run_stage("NO_MUTANT", group, 60 * 60, args, warm)
                if verdict != "survived":
                    sys.exit(f"{package}'s tests fail in mutants/ with no mutant ({verdict}: {failed}); see "
                             f"{RUN_LOG.relative_to(ROOT)}")
        if untraced:
            stages = [_killers_first(group, name, results) for group in _untraced_stages(package, own_only)]
            tests, import_time = [t for stage in stages for t in stage], True
        else:
            tests, import_time = tests_of(name, trace)
            stages = _stages(package, tests, import_time, trace)
        verdict, killer, ran, began = ("no tests" if not stages else "survived"), "", 0, time.monotonic()
        for stage, group in enumerate(stages, 1):
            estimate = sum(seconds[t] if t in seconds else
                           sum(v for k, v in seconds.items() if k.startswith(t)) for t in group)
            limit = math.ceil(60 + cpu_factor * estimate)
            if untraced:  # forked from the warm collection first: a kill there is a kill (the tests saw the
                # mutant); a survivor there may have met the imports' unmutated results, so it runs fresh too
                verdict, killer = _run_stage(name, group, limit, args, warm)
                if verdict == "survived":
                    verdict, killer = _run_stage(name, group, limit, args, None)
            else:
                verdict, killer = _run_stage(name, group, limit, args, None if import_time else warm)
            ran = stage
            if verdict != "survived":
                break
        results[name] = {"status": verdict, "stage": ran, "tests": len(tests), "killer": killer,
                         "statement run": None if untraced else statement_reached(name, trace),
                         "fresh": import_time,
                         "seconds": round(time.monotonic() - began, 1), "source": _digest(_locate(name)[0])}
        # read again before writing: a run of other packages beside this one writes its verdicts there too
        results = {**(json.loads(RESULTS.read_text()) if RESULTS.exists() else {}), name: results[name]}
        RESULTS.write_text(json.dumps(results, indent=1, sort_keys=True))
        _record(name, EXIT_CODE[verdict])
        print(f"[{count}/{len(todo)}] {verdict:14} {name}  ({len(tests)} tests, stage {ran} of {len(stages)}, "
              f"{results[name]['seconds']} s){'  by ' + killer if killer else ''}", flush=True)
    warm.close()
    return time.monotonic() - start


def _function_dump(source: str | None, func: str, cls: str | None) -> str | None:
    """A function's syntax tree as text (no line numbers, comments left out), None where the source has none."""
    if source is None:
        return None
    tree = ast.parse(source)
    scope = tree.body
    if cls is not None:
        scope = next((n.body for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls), [])
    fn = next((n for n in scope if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == func), None)
    return None if fn is None else ast.dump(fn)


def changed_since(names: list[str], commit: str) -> list[str]:
    """The mutants whose function's source is not as at `commit` (a function new since, or edited): mutmut
    numbers a function's mutants in order, so an edit may give an old name another change, and only these can
    have another verdict than at a run on that commit (the same change of the same code, against the same tests
    or more)."""
    sources: dict[Path, tuple[str | None, str]] = {}
    out = []
    for name in names:
        path, func, cls = _locate(name)
        if path not in sources:
            then = subprocess.run(["git", "show", f"{commit}:{path.as_posix()}"], cwd=ROOT, capture_output=True,
                                  text=True)
            sources[path] = (then.stdout if then.returncode == 0 else None, (ROOT / path).read_text())
        then, now = sources[path]
        if _function_dump(then, func, cls) != _function_dump(now, func, cls):
            out.append(name)
    return out


def _named(name: str, only: list[str]) -> bool:
    return any(fnmatch.fnmatch(name, o) or name.endswith(o) for o in only)


def _record(name: str, code: int) -> None:
    """Write a verdict into mutmut's meta file of the mutant's source, as `mutmut run` would."""
    meta_file = ROOT / "mutants" / f"{_locate(name)[0]}.meta"
    written = json.loads(meta_file.read_text())
    written["exit_code_by_key"][name] = code
    partial = meta_file.with_name(meta_file.name + ".partial")  # a run stopped while writing leaves the old one
    partial.write_text(json.dumps(written, indent=4))
    partial.replace(meta_file)


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
    parser.add_argument("--only", nargs="+", default=[], metavar="MUTANT",
                        help="run only these mutants of the sample (names, the ends of names or patterns)")
    parser.add_argument("--lines", action="store_true",
                        help="the bench's runner: each mutant against the fast tests that run the statement it "
                             "changes, its package's own tests first (not mutmut's run)")
    parser.add_argument("--resume", action="store_true",
                        help="with --lines: skip the mutants already run on the code as it is now")
    parser.add_argument("--cpu-factor", type=float, default=5.0,
                        help="with --lines: a pytest's CPU-time limit is 60 s + this times its tests' traced "
                             "seconds (default 5); past it the mutant is a timeout")
    parser.add_argument("--retrace", action="store_true",
                        help="with --lines: trace which tests run which line afresh")
    parser.add_argument("--untraced", action="store_true",
                        help="with --lines: no line trace; each mutant against its package's test modules, then the "
                             "rest of the selection, stopping at the first failure (forked from the warm "
                             "collection, then in a fresh process if it survives there)")
    parser.add_argument("--own-only", action="store_true",
                        help="with --untraced: the package's own test modules only (the rest of the selection takes "
                             "20 min a survivor at a load of 9): a survivor may still be killed elsewhere, so the "
                             "score is a floor")
    parser.add_argument("--since", nargs="+", metavar="[PACKAGE=]COMMIT",
                        help="with --lines: run only the sampled mutants whose function changed since COMMIT (the "
                             "package's last scored run; the others keep that run's verdict) and those drawn since; "
                             "PACKAGE=COMMIT for one package (another package named in --packages runs none); with "
                             "--report --cases: only the case rows whose drawn mutants' functions or mapped tests "
                             "changed since COMMIT (the package's last per-case report)")
    args = parser.parse_args()
    if importlib.util.find_spec("mutmut") is None:
        parser.error("mutmut writes the mutants: pip install -e '.[bench]' first")
    os.chdir(ROOT)

    if not args.report:
        generate(args.max_children, args.packages)
    pinned = pinned_sample(args.sample, args.seed, args.redraw)
    chosen = {p: sample(list(meta(p)), args.sample, args.seed, p, pinned.get(p, ())) for p in args.packages}
    if not args.report:
        pin(chosen, args.sample, args.seed)
    log = ROOT / "mutants" / "mutation-run.log"
    if args.report:
        print(f"\nlatest results of the sample of {args.sample} mutants per package, seed {args.seed}\n")
    elif args.lines:
        only = args.only
        if args.since:  # and the names drawn since (not in the sample pinned then: a pinned one's code was gone)
            commits = dict(c.rpartition("=")[::2] for c in args.since)  # "engine=ded562c0", or a commit for all
            only = []
            for package, names in chosen.items():
                commit = commits.get(package, commits.get(""))
                if commit is None:
                    continue
                then = subprocess.run(["git", "show", f"{commit}:{PINNED.relative_to(ROOT).as_posix()}"], cwd=ROOT,
                                      capture_output=True, text=True)
                before = set(json.loads(then.stdout or '{"packages": {}}')["packages"].get(package, []))
                mine = sorted(set(changed_since(names, commit)) | (set(names) - before))
                only += [n for n in mine if not args.only or _named(n, args.only)]
                print(f"{package}: {len(mine)} sampled mutants changed or drawn since {commit}: {' '.join(mine)}",
                      flush=True)
            only = only or ["NO_SUCH_MUTANT"]
        seconds = run_by_lines(chosen, args.resume, only, args.cpu_factor, args.retrace, args.untraced,
                               args.own_only)
        print(f"\nthe sample of {args.sample} mutants per package, seed {args.seed}, each against the tests that run "
              f"its statement: {seconds / 60:.1f} min (log: {RUN_LOG.relative_to(ROOT)})\n")
    else:
        names = [n for ns in chosen.values() for n in ns if not args.only or _named(n, args.only)]
        seconds = run(names, args.max_children, log)
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
        since = dict(c.rpartition("=")[::2] for c in args.since) if args.since else None
        case_report(chosen, args.seed, args.per_case, set(args.rows), args.lines, args.cpu_factor, since)


if __name__ == "__main__":
    main()
