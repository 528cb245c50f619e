"""The mutation bench (bench/mutation.py, issue 30) finds every sampled mutant's source, a package's own functions
in its __init__.py among them, and `--since` reruns only the mutants whose function's code changed: a comment or a
line moved keeps the verdict, any edit of the function's code does not."""
from __future__ import annotations

from pathlib import Path

from bench.mutation import _function_dump, _locate


def test_a_function_of_a_package_itself_is_found_in_its_init():
    assert _locate("app.rules.formosa.x_played_under__mutmut_8") == (
        Path("app/rules/formosa/__init__.py"), "played_under", None)
    assert _locate("app.rules.engine.syntax.xǁGrammarǁ__init____mutmut_7") == (
        Path("app/rules/engine/syntax.py"), "__init__", "Grammar")


def test_only_an_edit_of_the_function_s_code_changes_it():
    then = "class A:\n    def f(self, x):\n        return x + 1\n\ndef g():\n    return 2\n"
    moved = "# a comment\n\nclass A:\n    def f(self, x):  # why\n        return x + 1\n\ndef g():\n    return 2\n"
    edited = "class A:\n    def f(self, x):\n        return x - 1\n\ndef g():\n    return 2\n"
    assert _function_dump(then, "f", "A") == _function_dump(moved, "f", "A")
    assert _function_dump(then, "f", "A") != _function_dump(edited, "f", "A")
    assert _function_dump(then, "g", None) == _function_dump(edited, "g", None)
    assert _function_dump(then, "f", None) is None  # not a module-level function
    assert _function_dump(None, "g", None) is None  # the file did not exist then
