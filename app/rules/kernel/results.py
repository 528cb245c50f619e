"""Applying combat results to forces: step losses, elimination, exchanges. Pure functions on plain data.

A force is a mapping ``unit id -> steps remaining`` (a game with whole-unit losses, such as Formosa 15.5,
gives every unit 1). The owner's choice of which unit loses each step comes in as an allocation (a list
of unit ids, one per step) recorded in the order event; the kernel checks it against the game's
constraints and applies it. Losses beyond the steps present are ignored (Ichi-Go 11.20) but counted as
``unsatisfied``, which Dai Senso 4.2.8 needs for the exploitation distance.

A game's loss apportionment rules are checks (`LossCheck`): `reduce_before_eliminate`, `last`,
`strongest_first`, or its own; `in_order` ranks several so that a later rule only chooses among the units
the earlier ones allow (SNC 10.5.2). `loss_options` lists who may lose the next step (for a prompt or a
bot) and `forced_allocation` finds the allocation when the rules leave the owner no choice.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from app.rules.kernel.crt import CombatResult, SideResult
from app.rules.kernel.errors import RuleViolation

__all__ = [
    "LossCheck",
    "LossOutcome",
    "LossRule",
    "apply_step_losses",
    "bloodbath",
    "check_strength_loss",
    "eliminate_all",
    "forced_allocation",
    "in_order",
    "last",
    "loss_options",
    "reduce_before_eliminate",
    "scale_losses",
    "strongest_first",
]

# A check gets (unit about to lose a step, steps of every unit before that step) and returns an objection.
LossCheck = Callable[[str, Mapping[str, int]], str | None]


@dataclass(frozen=True)
class LossOutcome:
    """Steps left per unit (units at 0 are eliminated), steps actually lost, and losses that had no step
    left to take them."""

    steps: Mapping[str, int]
    lost: int
    unsatisfied: int

    @property
    def eliminated(self) -> tuple[str, ...]:
        return tuple(u for u, s in self.steps.items() if s == 0)

    @property
    def survivors(self) -> tuple[str, ...]:
        return tuple(u for u, s in self.steps.items() if s > 0)


def _check_force(force: Mapping[str, int]) -> dict[str, int]:
    steps = dict(force)
    for unit, s in steps.items():
        if s < 0:
            raise ValueError(f"{unit} has {s} steps; steps cannot be negative")
    return steps


def apply_step_losses(
    force: Mapping[str, int],
    losses: int,
    allocation: Sequence[str],
    case: str,
    check: LossCheck | None = None,
) -> LossOutcome:
    """Remove ``losses`` steps as ``allocation`` says. The allocation must name exactly
    ``min(losses, steps present)`` steps, each from a unit that still has one, and pass ``check``;
    otherwise RuleViolation citing ``case``."""
    if losses < 0:
        raise ValueError(f"losses cannot be negative, got {losses}")
    steps = _check_force(force)
    available = sum(steps.values())
    due = min(losses, available)
    if len(allocation) != due:
        raise RuleViolation(case, f"{due} step(s) must be allocated, {len(allocation)} given")
    for unit in allocation:
        if unit not in steps:
            raise RuleViolation(case, f"{unit} is not in this combat")
        if steps[unit] == 0:
            raise RuleViolation(case, f"{unit} has no step left to lose")
        if check is not None:
            objection = check(unit, dict(steps))
            if objection:
                raise RuleViolation(case, objection)
        steps[unit] -= 1
    return LossOutcome(steps, due, losses - due)


def reduce_before_eliminate(protected: Callable[[str], bool] = lambda unit: True) -> LossCheck:
    """A check: a protected unit may not lose its last step while any unit in the battle still has two
    or more (Ichi-Go 11.21 protects Japanese/US divisions; SNC 10.5.2 item 1 protects every unit)."""

    def check(unit: str, steps: Mapping[str, int]) -> str | None:
        if steps[unit] == 1 and protected(unit):
            bigger = sorted(u for u, s in steps.items() if s >= 2)
            if bigger:
                return f"{unit} cannot be eliminated while {', '.join(bigger)} can still be reduced"
        return None

    return check


def last(predicate: Callable[[str], bool]) -> LossCheck:
    """A check: units meeting ``predicate`` lose steps only when no other unit has a step left (SNC 10.5.2
    item 3: Japanese garrisons are the last steps taken)."""

    def check(unit: str, steps: Mapping[str, int]) -> str | None:
        if predicate(unit):
            others = sorted(u for u, s in steps.items() if s > 0 and not predicate(u))
            if others:
                return f"{unit} loses its steps last, after {', '.join(others)}"
        return None

    return check


def strongest_first(strength: Callable[[str, int], float]) -> LossCheck:
    """A check: the step comes from the strongest unit, ``strength(unit, steps left)`` being its strength at
    its current steps; ties are the owner's choice (SNC 10.5.2 item 2)."""

    def check(unit: str, steps: Mapping[str, int]) -> str | None:
        own = strength(unit, steps[unit])
        stronger = sorted(u for u, s in steps.items() if s > 0 and strength(u, s) > own)
        if stronger:
            return f"{unit} ({own:g}) is weaker than {', '.join(stronger)}: the strongest loses first"
        return None

    return check


def in_order(*checks: LossCheck) -> LossCheck:
    """The checks in precedence: each one judges only the units with a step left that the earlier ones
    accept, so a later rule chooses among them and never overrides an earlier one (SNC 10.5.2 as ruled:
    garrisons last, then reduce before eliminate, then the strongest)."""

    def check(unit: str, steps: Mapping[str, int]) -> str | None:
        pool = {u: s for u, s in steps.items() if s > 0}
        for rule in checks:
            pool = {u: s for u, s in pool.items() if rule(u, pool) is None}
        if unit in pool:
            return None
        if not pool:
            return f"no unit may lose this step ({unit} named)"
        return f"{unit} may not lose this step; next must be one of {', '.join(sorted(pool))}"

    return check


def loss_options(force: Mapping[str, int], check: LossCheck | None = None) -> tuple[str, ...]:
    """The units that may lose the next step, sorted: those with a step left that ``check`` accepts."""
    steps = _check_force(force)
    return tuple(sorted(u for u, s in steps.items() if s > 0 and (check is None or check(u, dict(steps)) is None)))


def forced_allocation(force: Mapping[str, int], losses: int, check: LossCheck | None = None) -> list[str] | None:
    """The allocation of ``losses`` (at most the steps present) when ``check`` leaves exactly one unit for
    every step, so the owner has no choice to make; None otherwise."""
    steps = _check_force(force)
    out: list[str] = []
    for _ in range(min(losses, sum(steps.values()))):
        options = loss_options(steps, check)
        if len(options) != 1:
            return None
        out.append(options[0])
        steps[options[0]] -= 1
    return out


def eliminate_all(force: Mapping[str, int]) -> LossOutcome:
    """Every unit removed, whatever its steps (DE/AE: Ichi-Go 11.22, Formosa 15.5, Olympic 8.9)."""
    steps = _check_force(force)
    return LossOutcome({u: 0 for u in steps}, sum(steps.values()), 0)


@dataclass(frozen=True)
class LossRule:
    """Scale one side's CRT losses: ``multiplier`` then at least ``minimum`` (Ichi-Go 11.23: Chinese
    attackers lose twice the number shown, and 1 step when it shows 0, DE included)."""

    multiplier: int = 1
    minimum: int = 0
    case: str = ""

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> LossRule:
        return cls(int(data.get("multiplier", 1)), int(data.get("minimum", 0)), data.get("case", ""))


def scale_losses(result: CombatResult, side: str, rule: LossRule) -> CombatResult:
    """The result with ``side`` ("attacker"/"defender") losses scaled by ``rule``; elimination untouched."""
    if side not in ("attacker", "defender"):
        raise ValueError(f"side must be 'attacker' or 'defender', got {side!r}")
    current: SideResult = getattr(result, side)
    if current.eliminated:
        return result
    losses = max(current.losses * rule.multiplier, rule.minimum)
    new = SideResult(losses, current.eliminated, current.retreat, current.retreat_or_loss)
    if side == "attacker":
        return CombatResult(result.code, new, result.defender, result.exchange, result.markers, result.values)
    return CombatResult(result.code, result.attacker, new, result.exchange, result.markers, result.values)


def check_strength_loss(
    strengths: Mapping[str, int], required: int, chosen: Sequence[str], case: str, needed_only: bool = False
) -> tuple[str, ...]:
    """Units removed to pay ``required`` printed strength points (Olympic 8.9 Ex; Formosa 15.5 BB): their
    printed strengths must reach ``required``, or be every unit when the force cannot reach it; with
    ``needed_only``, no unit whose strength the total could do without (the requirement is a minimum, not a
    licence to lose more: Olympic ruling R40). Returns the survivors; RuleViolation citing ``case`` otherwise."""
    chosen_set = set(chosen)
    if len(chosen_set) != len(chosen):
        raise RuleViolation(case, "a unit is named twice")
    unknown = chosen_set - set(strengths)
    if unknown:
        raise RuleViolation(case, f"{', '.join(sorted(unknown))} not in this combat")
    paid = sum(strengths[u] for u in chosen)
    if paid < required and chosen_set != set(strengths):
        raise RuleViolation(case, f"eliminated strength {paid} is less than the {required} required")
    spare = [u for u in chosen if paid - strengths[u] >= required] if needed_only else []
    if spare:
        raise RuleViolation(case, f"eliminated strength {paid} is more than the {required} required: "
                                  f"{spare[0]} ({strengths[spare[0]]}) is not needed")
    return tuple(u for u in strengths if u not in chosen_set)


def bloodbath(attacker_strength: int, defender_strength: int) -> tuple[frozenset[str], int]:
    """Formosa 15.5 BB: the side(s) with fewer printed strength are eliminated outright, and the other side
    must then lose at least that much printed strength. Returns (sides eliminated outright, strength the other
    side pays). Equal totals: both sides go, since paying an equal total takes every unit."""
    if attacker_strength < 0 or defender_strength < 0:
        raise ValueError("printed strengths cannot be negative")
    if attacker_strength == defender_strength:
        return frozenset({"attacker", "defender"}), 0
    if attacker_strength < defender_strength:
        return frozenset({"attacker"}), attacker_strength
    return frozenset({"defender"}), defender_strength
