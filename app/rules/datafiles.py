"""A game's data files (docs/architecture.md practice 8: rule data as data a player can read and replace): the one TOML
reader every game's data_load module uses, and the error that lists every problem found in a game's files at once."""
from __future__ import annotations

import tomllib
from pathlib import Path


def read_toml(path: str | Path) -> dict:
    """The TOML file at `path` as a dict (tomllib.TOMLDecodeError names the line of a malformed file)."""
    with open(path, "rb") as f:
        return tomllib.load(f)


class DataError(ValueError):
    """A game's data files that do not fit together; ``problems`` holds one message each. A game subclasses it
    with its `title`, which starts the message."""

    title = "game"

    def __init__(self, problems: list[str]):
        self.problems = list(problems)
        super().__init__(f"{self.title} data: " + "; ".join(self.problems))
