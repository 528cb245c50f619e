"""Hexledger as a package (issue 26, "A real package"): every module it imports is declared, its schema ships
inside it, and a wheel built from this checkout, installed in a fresh virtual environment outside the checkout,
creates, plays and verifies a game through the `hexledger` command."""
from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tomllib
import venv
from importlib import metadata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def imported_top_names(*places: Path) -> set[str]:
    """The top-level names of every absolute import in the .py files at or under `places`."""
    names = set()
    for path in (file for place in places for file in ([place] if place.is_file() else place.rglob("*.py"))):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
    return names


def declared(requirements: list[str]) -> set[str]:
    """Distribution names (normalized) of requirement strings such as "psycopg[binary]>=3.1"."""
    return {re.split(r"[\[<>=!~; ]", r, maxsplit=1)[0].lower().replace("_", "-") for r in requirements}


def distributions_of(names: set[str]) -> dict[str, set[str]]:
    """Each third-party module name (neither the standard library's nor this project's) and the installed
    distributions that provide it; a module not installed here (the `bench` extra's, where only `test` is
    installed) is taken to be provided by the distribution of its own name, so it counts only if that is declared."""
    provided = metadata.packages_distributions()
    third_party = {n for n in names if n not in sys.stdlib_module_names and n not in ("app", "bench", "tests")}
    return {n: {d.lower().replace("_", "-") for d in provided.get(n, [n])} for n in third_party}


def test_every_module_the_program_imports_is_declared():
    """`limits` was imported by app/web/ratelimit.py and installed only as flask-limiter's dependency; an import
    the program makes must not hang on another package's choices. psycopg belongs to the `postgres` extra."""
    wanted = declared(PYPROJECT["project"]["dependencies"] + PYPROJECT["project"]["optional-dependencies"]["postgres"])
    found = distributions_of(imported_top_names(ROOT / "app", ROOT / "cli.py"))
    missing = {name: dists for name, dists in found.items() if not dists & wanted}
    assert missing == {}


def test_every_module_the_tests_and_benches_import_is_declared():
    extras = PYPROJECT["project"]["optional-dependencies"]
    wanted = declared(PYPROJECT["project"]["dependencies"] + extras["test"] + extras["bench"])
    found = distributions_of(imported_top_names(ROOT / "tests", ROOT / "bench"))
    local = {path.stem for place in ("tests", "bench", ".") for path in (ROOT / place).rglob("*.py")}
    missing = {name: dists for name, dists in found.items() if name not in local and not dists & wanted}
    assert missing == {}


def test_the_readme_test_command_is_what_ci_runs():
    """README's Quickstart names the test command; .ci/run runs that line verbatim (README, "Tests and CI")."""
    quickstart = (ROOT / "README.md").read_text().split("## Quickstart", 1)[1].split("\n## ", 1)[0]
    block = quickstart.split("```bash\n", 1)[1].split("```", 1)[0]
    test_line = next(line for line in block.splitlines() if "pytest" in line).split("#", 1)[0].strip()
    assert test_line in (ROOT / ".ci" / "run").read_text().splitlines()


# Run by the fresh environment's Python: which `app` and which hexledger metadata it finds (the wheel's, not the
# checkout's), and each requirement of the wheel's metadata (extras' left out) that no installed distribution meets.
REQUIREMENTS = """
import importlib.metadata as md, json
import app
from packaging.requirements import Requirement
dist, unmet, checked = md.distribution("hexledger"), [], 0
for text in dist.requires or []:
    need = Requirement(text)
    if need.marker is not None and not need.marker.evaluate({"extra": ""}):
        continue
    checked += 1
    try:
        if not need.specifier.contains(md.version(need.name), prereleases=True):
            unmet.append(f"{text}: {md.version(need.name)}")
    except md.PackageNotFoundError:
        unmet.append(f"{text}: not installed")
print(json.dumps({"app": app.__file__, "metadata": str(dist.locate_file("")), "requirements": checked,
                  "unmet": unmet}))
"""


@pytest.mark.slow  # builds a wheel, makes a virtual environment and installs it there
def test_a_wheel_installed_outside_the_checkout_creates_plays_and_verifies_a_game(tmp_path):
    """`pip install` from an index installs a wheel: nothing of the checkout is there (the schema once was, and an
    installed program made a database with no tables: `no such table: games`). The wheel is built by the backend
    pyproject.toml names (setuptools, from the test extra, so no build environment is fetched from the index each
    run) and installed alone in a fresh environment, its dependencies this environment's: each requirement the
    wheel declares is checked there, the program runs on them."""
    source = tmp_path / "source"  # the checkout's files, so the build leaves nothing in the checkout itself
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".git", ".venv", "*.egg-info", "build", "db", "outbox",
                                                                 "__pycache__", ".hypothesis", "mutants", "tests"))
    wheels = tmp_path / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation", "-w",
                    str(wheels), str(source)], check=True, cwd=tmp_path)
    (wheel,) = wheels.glob("hexledger-*.whl")
    env_dir = tmp_path / "fresh"
    venv.create(env_dir)  # without a pip of its own (ensurepip's copy costs seconds): this one installs into it
    # --no-compile: the programs below compile what they import, not every module of every dependency
    subprocess.run([sys.executable, "-m", "pip", "--python", str(env_dir / "bin" / "python"), "install", "--quiet",
                    "--no-compile", "--no-deps", str(wheel)], check=True, cwd=tmp_path)
    # The dependencies: this environment's folders, named in a .pth written after the install (before it, pip took
    # the checkout's editable hexledger for the wheel's). A folder a .pth names is only put on sys.path after the
    # fresh environment's own: the .pth files inside it (the editable install's hook into the checkout) are not
    # run, so no `app` but the wheel's can be imported.
    (site,) = (env_dir / "lib").glob("python*/site-packages")
    (site / "dependencies.pth").write_text("".join(f"{p}\n" for p in dict.fromkeys(
        sysconfig.get_paths()[key] for key in ("purelib", "platlib"))))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HEXLEDGER_", "PYTHON", "VIRTUAL_ENV"))}
    hexledger = str(env_dir / "bin" / "hexledger")

    def run(*args: str) -> str:
        done = subprocess.run([hexledger, *args], cwd=elsewhere, env=env, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, (args, done.stdout, done.stderr)
        return done.stdout

    found = json.loads(subprocess.run([str(env_dir / "bin" / "python"), "-c", REQUIREMENTS], cwd=elsewhere, env=env,
                                      capture_output=True, text=True, check=True).stdout)
    assert Path(found["app"]).is_relative_to(env_dir) and Path(found["metadata"]).is_relative_to(env_dir)
    assert found["requirements"] >= 10 and found["unmet"] == []  # every dependency the wheel declares is there
    game = json.loads(run("new", "skirmish", "--json"))["game_id"]
    run("join", game, "--side", "red", "--name", "red@example.org")
    run("join", game, "--side", "blue", "--name", "blue@example.org")
    assert "R1 moves 0201" in run("do", game, "--as", "red", "move R1 0201")
    run("do", game, "--as", "red", "end")
    assert "chain intact and 2 orders replayed" in run("verify", game, "--dice")
    assert (elsewhere / "db" / "hexledger.sqlite3").exists()  # the default database, in the folder it runs in
    demo = run("demo")  # SNC's data files and the replay link's server secret, from the installed package
    snc_game = re.search(r"hexledger verify (g-[0-9a-f]+)", demo).group(1)
    assert "chain intact" in run("verify", snc_game)
