"""Ichi-Go 2.15: a static unit prints [attack, defence, movement]; it defends with the defence figure, not the
movement one, and once reduced it has no attack and half its defence (mutation survivors of issue 19)."""
from app.rules.ichigo.data_load import load
from app.rules.ichigo.state import Unit


def _tank_division(steps: int) -> Unit:
    raw = next(u for u in load().units if u["id"] == "jp-14aa-2tkdiv")
    return Unit(id=raw["id"], ref=raw["id"], side="japanese", nation="japanese", army="14AA", name=raw["name"],
                type="tank", size="division", steps_max=2, strength=tuple(raw["strength"]), static=True,
                steps=steps)


def test_a_full_strength_static_unit_defends_with_its_defence_figure():
    full = _tank_division(2)
    assert full.strength == (0, 6, 0)  # the printed counter: attack 0, defence 6, movement 0
    assert full.factor("defence") == 6
    assert full.factor("attack") == 0


def test_a_reduced_static_unit_defends_at_half():
    reduced = _tank_division(1)
    assert reduced.factor("defence") == 3
    assert reduced.factor("attack") == 0
