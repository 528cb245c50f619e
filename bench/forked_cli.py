"""`python cli.py ARGS` as a child forked from a process that imported the command line once (the launchers of
bench/faults.py and bench/reliability.py): the child takes its own environment and output files and ends with the
exit status the command line would have given."""
from __future__ import annotations

import os
import sys
import traceback
from collections.abc import Callable


def run_cli(args: list[str], env: dict[str, str], out: str, err: str, append: bool = False,
            before: Callable[[], None] | None = None) -> None:
    """In the forked child: `env` as its whole environment, `before()` (a launcher's own setting), standard output
    to `out` and error to `err` (truncated, or appended to with `append`), no standard input, then the command;
    never returns (os._exit with the command's status, 1 for an exception, whose traceback goes to `err`)."""
    from app.cli import cli

    code = 1
    try:
        os.environ.clear()
        os.environ.update(env)
        if before is not None:
            before()
        flags = os.O_WRONLY | os.O_CREAT | (os.O_APPEND if append else os.O_TRUNC)
        for fd, name in ((1, out), (2, err)):
            opened = os.open(name, flags, 0o600)
            os.dup2(opened, fd)
            os.close(opened)
        os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
        cli(args, prog_name="cli.py")
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException:
        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
