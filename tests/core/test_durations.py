"""The order the test modules are handed to the workers (tests/durations.py): longest first by the measured table,
an unmeasured module with a slow test before every measured one (it may be long), an unmeasured fast one last."""
from tests import durations


def test_a_time_log_becomes_the_table_the_modules_are_ordered_by(tmp_path, monkeypatch):
    log = tmp_path / "t.tsv"
    log.write_text("30.0\t2.0\ttests/a/test_x.py::test_one\n"
                   "12.5\t1.0\ttests/a/test_x.py::test_two[1]\n"
                   "50.0\t9.0\ttests/b/test_y.py::test_three\n", encoding="utf-8")
    monkeypatch.setattr(durations, "TABLE", tmp_path / "durations.tsv")
    durations.main([str(log)])
    table = durations.measured()
    assert table == {"tests/b/test_y.py": 50.0, "tests/a/test_x.py": 42.5}
    modules = ["tests/a/test_x.py", "tests/c/test_fast.py", "tests/b/test_y.py", "tests/d/test_new_slow.py"]
    slow = {"tests/d/test_new_slow.py"}
    ordered = sorted(modules, key=lambda m: -durations.cost(m, m in slow, table))
    assert ordered == ["tests/d/test_new_slow.py", "tests/b/test_y.py", "tests/a/test_x.py", "tests/c/test_fast.py"]


def test_the_table_names_only_modules_that_exist():
    from pathlib import Path

    assert [m for m in durations.measured() if not Path(m).is_file()] == []
