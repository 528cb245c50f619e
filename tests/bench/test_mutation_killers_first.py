"""The mutation bench's untraced runs (bench/mutation.py `--untraced`) try first the test modules most likely to kill
a mutant: those that killed other mutants of its source file, then those named after the file, then the rest in the
order given. A run stops at the first failure, so this changes only how soon a kill comes."""
from __future__ import annotations

from bench.mutation import _killers_first

MODULES = ["tests/formosa/test_a.py", "tests/formosa/test_rows_views.py", "tests/formosa/test_b.py",
           "tests/formosa/test_c.py"]


def kill(by: str) -> dict:
    return {"status": "killed", "killer": f"{by}::test_x"}


def test_the_modules_that_killed_its_files_mutants_come_first_then_those_named_after_the_file():
    results = {"app.rules.formosa.combat.x_declare__mutmut_1": kill("tests/formosa/test_c.py"),
               "app.rules.formosa.combat.x_resolve__mutmut_2": kill("tests/formosa/test_c.py"),
               "app.rules.formosa.combat.x_advance__mutmut_3": kill("tests/formosa/test_b.py"),
               "app.rules.formosa.view.x_view__mutmut_4": kill("tests/formosa/test_a.py"),
               "app.rules.formosa.combat.x_declare__mutmut_5": {"status": "survived", "killer": ""}}
    assert _killers_first(MODULES, "app.rules.formosa.combat.x_declare__mutmut_9", results) == [
        "tests/formosa/test_c.py", "tests/formosa/test_b.py", "tests/formosa/test_a.py",
        "tests/formosa/test_rows_views.py"]
    assert _killers_first(MODULES, "app.rules.formosa.view.x_preview__mutmut_7", results) == [
        "tests/formosa/test_a.py", "tests/formosa/test_rows_views.py", "tests/formosa/test_b.py",
        "tests/formosa/test_c.py"]
    assert _killers_first(MODULES, "app.rules.formosa.strike.x_place__mutmut_7", {}) == MODULES
