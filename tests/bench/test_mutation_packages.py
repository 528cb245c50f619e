"""Every file mutmut mutates (pyproject.toml, [tool.mutmut] only_mutate) belongs to exactly one package of the
mutation bench (bench/mutation.py, issue 30), so its mutants are drawn once: the evaluation and the chances are the
`analysis` package, apart from the practice policies."""
from __future__ import annotations

import ast
import fnmatch
import tomllib
from pathlib import Path

from bench.mutation import PACKAGES, ROOT


def _mutated() -> list[Path]:
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mutmut"]["only_mutate"]
    return sorted(p.relative_to(ROOT) for p in (ROOT / "app").rglob("*.py")
                  if any(fnmatch.fnmatch(str(p.relative_to(ROOT)), pattern) for pattern in patterns))


def _has_functions(path: Path) -> bool:
    """mutmut mutates functions only: a module of constants (a game's data/__init__.py) has no mutant."""
    tree = ast.parse((ROOT / path).read_text())
    return any(isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) for node in ast.walk(tree))


def test_every_mutated_file_is_in_exactly_one_package():
    owners = {path: [name for name, holds in PACKAGES.items() if holds(path)] for path in _mutated()}
    assert {path: names for path, names in owners.items() if len(names) > 1} == {}
    assert [path for path, names in owners.items() if not names and _has_functions(path)] == []


def test_the_analysis_package_is_the_evaluation_and_the_chances():
    assert [path for path in _mutated() if PACKAGES["analysis"](path)] == [
        Path("app/projections/chances.py"), Path("app/rules/evaluation.py")]
    assert not PACKAGES["practice"](Path("app/rules/evaluation.py"))
