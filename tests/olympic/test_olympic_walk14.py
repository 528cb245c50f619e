"""Session part 17's open ends of the Olympic combat (docs/rulings/olympic.md R58, R59): the preview of an attack on
militia shows each combat die on each column the militia die can give (it showed the two dice with one face, 6 of
the 36 outcomes), and the list of legal orders draws no preview for it; rules version 12, a unit that cannot retreat
after an Ar has its supply judged when it is eliminated, after the stacks before it retreated (it was judged before
the die)."""
from __future__ import annotations

from olympic_given import given, of, when
from test_olympic_combat import JP3, JP4A, JP4B, US_A, US_B

from app.rules.olympic import GAME, played_under, view
from app.rules.olympic.events import CasualtyPoints, CombatResolved, UnitEliminated, UnitRetreated

MIYAZAKI = "3236"  # a City: militia 3


def test_ruling_r58_the_preview_of_an_attack_on_militia_shows_every_combat_die_on_every_militia_column():
    """Two American 4s against Miyazaki's 4-4 and militia 3 (14.3 track 4: x3 on a 1, x2 on a 2, x1 on 3-5, x1/2 on
    a 6, rolled before the combat die). With the militia at its printed 3 (militia die 3-5), 8 against 7 is +1, and
    a combat die of 1 gives Ar 5/2: the order rolls exactly that. The preview rolled both dice with one face, so
    "die 1" read the militia tripled (called off) and never the Ar of the printed militia."""
    state = given(units={JP4A: MIYAZAKI, US_A: "3235", US_B: "3336"}, beachheads=("3235", "3336"))
    order = f"attack {MIYAZAKI} with 25-27 25-35"
    shown = GAME.preview(state, GAME.parse(order, "american", state))
    assert [m["column"] for m in shown["militia_dice"].values()] == [None, "-2", "+1", "+1", "+1", "+2, +3"]
    printed = shown["by_roll"][1]["by_militia"]
    assert list(printed) == ["1", "2", "3-5", "6"]
    assert (printed["3-5"]["column"], printed["3-5"]["result"]) == ("+1", "Ar 5/2")
    rolled = of(when(state, "american", order, rolls=[4, 1]), CombatResolved)[0]  # militia die 4, combat die 1
    assert (rolled.column, rolled.result) == ("+1", "Ar 5/2")
    assert shown["by_roll"][1]["result"] == ("militia 1: called off; militia 2: Ae 10/3; militia 3-5: Ar 5/2; "
                                             "militia 6: Dr 2/2")
    text = shown["text"].splitlines()
    assert text[text.index("militia die 3-5: militia 3 (x1), differential +1: column +1") + 1] == (
        "  die 1: Ar 5/2, 10 Casualty Points")


def test_ruling_r58_the_list_of_legal_orders_draws_no_preview_of_an_olympic_attack(monkeypatch):
    """The list showed no odds column for an Olympic attack (its preview names none: the militia die picks it) yet
    drew each attack's preview; with each militia column resolved that cost three times the list's time. The list is
    the same without it."""
    state = given(units={JP4A: MIYAZAKI, US_A: "3235", US_B: "3336"}, beachheads=("3235", "3336"))
    before = GAME.legal_orders(state, "american")

    def drawn(*_):
        raise AssertionError("the list drew a preview")

    monkeypatch.setattr(view, "_preview", drawn)
    fresh = given(units={JP4A: MIYAZAKI, US_A: "3235", US_B: "3336"}, beachheads=("3235", "3336"))
    assert GAME.legal_orders(fresh, "american") == before
    assert any(o["order"].startswith(f"attack {MIYAZAKI}") for o in before) and not any("odds" in o for o in before)


def test_ruling_r59_a_unit_that_cannot_retreat_has_its_supply_judged_after_the_stacks_before_it_retreated():
    """The 25-27 in 3134 and the 25-35 in 3234 attack the two 4-4s in 3135 (8 against 8: 0, die 3: Ar 5/2); a 3-4
    in 3334 closes the 25-35's way back. The 25-35 traces supply to the beachhead in 2933 through 3134, in the 4-4s'
    zone of control but held by the 25-27 (ruling R16). The 25-27's stack retreats first (R56), to 2933; then the
    25-35 cannot retreat and is eliminated: its way through 3134, empty now, is closed, so it is unsupplied: 30
    points in place of 10 and no return (note 6). Rules version 11 judged its supply before the die: 10 points and
    a return on Game-Turn 5; a game created under it still does."""
    units = {JP4A: "3135", JP4B: "3135", JP3: "3334", US_A: "3134", US_B: "3234"}
    state = given(units=units, beachheads=("2933",))
    assert state.supplied(state.unit(US_B))
    order = f"attack 3135 with {US_A} {US_B}"
    events = when(state, "american", order, rolls=[3])
    assert of(events, CombatResolved)[0].result == "Ar 5/2"
    assert [(e.unit, e.path) for e in of(events, UnitRetreated)] == [(US_A, ["3033", "2933"])]
    assert [(e.unit, e.returns_on) for e in of(events, UnitEliminated)] == [(US_B, None)]
    assert [e.points for e in of(events, CasualtyPoints)] == [35]
    old = when(played_under(state, "11"), "american", order, rolls=[3])
    assert [(e.unit, e.returns_on) for e in of(old, UnitEliminated)] == [(US_B, 5)]
    assert [e.points for e in of(old, CasualtyPoints)] == [15]
