"""Games from a position file a few orders from their end, played the same through the CLI and by email (the
ends tests of Ichi-Go and Formosa): a position written as a position file (docs/custom-positions.md), and the
server's dice fixed so every roll is the same in both channels, every run."""
from __future__ import annotations

import tomllib

from app.events import dice
from app.service import games


def fixed_dice(monkeypatch, seed: int, game_id: str) -> None:
    """The server's secret dice seed and the game id (inbound mail wants g-<8 hex>) for the games created next
    (tests/replay/conftest.py fixes the seed the same way): the rolls are derived from both (app/events/dice.py)."""
    monkeypatch.setattr(dice, "new_seed", lambda: f"{seed:064x}")
    monkeypatch.setattr(games, "new_game_id", lambda store: game_id)


def toml(position: dict, inline: tuple[str, ...] = ()) -> str:
    """A position as a position file (TOML): top-level keys, then one table per dict (those named in `inline`
    written as inline tables among the top-level keys)."""
    def value(v) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, int):
            return str(v)
        if isinstance(v, str):
            return f'"{v}"'
        if isinstance(v, list):
            return "[" + ", ".join(value(x) for x in v) + "]"
        return "{ " + ", ".join(f'"{k}" = {value(x)}' for k, x in v.items()) + " }"

    lines = [f"{k} = {value(v)}" for k, v in position.items() if not isinstance(v, dict) or k in inline]
    for k, v in position.items():
        if isinstance(v, dict) and k not in inline:
            lines += ["", f"[{k}]", *(f'"{x}" = {value(y)}' for x, y in v.items())]
    text = "\n".join(lines) + "\n"
    assert tomllib.loads(text) == position, text
    return text
