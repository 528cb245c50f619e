"""Verifiable dice.

At creation the server draws a secret seed and stores only its SHA-256 in the game's first event. Roll number i
is HMAC-SHA256(seed, [game id, the players' seed texts, i]) mapped to 1..sides by rejection sampling (bytes at or
above the largest multiple of `sides` are skipped), so no face is favoured. Once the seed is revealed, anyone can
recompute every roll from an exported game. `decide` gets a Dice object and records each roll it takes as a
core.DieRolled event; replay and audit hand it the recorded values instead (RecordedDice): replay never rolls.
"""
from __future__ import annotations

import hashlib
import hmac
import secrets
from abc import ABC, abstractmethod
from dataclasses import dataclass, field

from app.events.core import DieRolled
from app.events.envelope import canonical_json


def new_seed() -> str:
    return secrets.token_hex(32)


def new_player_text() -> str:
    """A random seed text for a player who gives none: made after the server's commitment, it keeps an honest
    server from having searched its seed for chosen rolls; only a text of the player's own also binds a dishonest
    one (README, "What the dice guarantee")."""
    return secrets.token_urlsafe(12)


def commitment(seed: str) -> str:
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


def derive_roll(seed: str, game_id: str, player_seeds: dict[str, str], index: int, sides: int = 6) -> int:
    """The value of roll `index` (0-based), 1..sides, without modulo bias."""
    if not 2 <= sides <= 256:
        raise ValueError(f"a die has 2 to 256 sides, not {sides}")
    limit = 256 - 256 % sides
    message = canonical_json([game_id, sorted(player_seeds.items()), index])
    block = 0
    while True:
        digest = hmac.new(seed.encode("utf-8"), f"{message}#{block}".encode(), hashlib.sha256).digest()
        for byte in digest:
            if byte < limit:
                return byte % sides + 1
        block += 1


class DiceError(Exception):
    """Dice asked for more rolls than recorded (audit: the rules now decide differently), or none allowed."""


@dataclass
class Dice(ABC):
    """What `decide` rolls with. `roll` returns the value and the event that records it."""

    next_index: int
    taken: list[DieRolled] = field(default_factory=list)

    def roll(self, purpose: str, sides: int = 6) -> DieRolled:
        event = DieRolled(index=self.next_index, sides=sides, value=self._value(sides), purpose=purpose)
        self.next_index += 1
        self.taken.append(event)
        return event

    @abstractmethod
    def _value(self, sides: int) -> int:
        """The next value, 1..sides."""


@dataclass
class SeededDice(Dice):
    """Live dice from the server's secret seed."""

    seed: str = ""
    game_id: str = ""
    player_seeds: dict[str, str] = field(default_factory=dict)

    def _value(self, sides: int) -> int:
        return derive_roll(self.seed, self.game_id, self.player_seeds, self.next_index, sides)


@dataclass
class RecordedDice(Dice):
    """Replays the rolls a stored command took, in order."""

    recorded: list[int] = field(default_factory=list)

    def _value(self, sides: int) -> int:
        position = len(self.taken)
        if position >= len(self.recorded):
            raise DiceError(f"the rules asked for roll #{position + 1} but the record holds {len(self.recorded)}")
        return self.recorded[position]


@dataclass
class NoDice(Dice):
    """For previews and legality checks: any roll is an error."""

    def _value(self, sides: int) -> int:
        raise DiceError("no dice may be rolled here")
