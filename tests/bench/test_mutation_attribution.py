"""The per-case mutation report (bench/mutation.py --cases, issue 30) charges a mutant to the case cited nearest the
statement it changes: the statement's own comment or strings, else the branch around it, else the function's
docstring; never a case another statement of the same block cites."""
from __future__ import annotations

import textwrap

from bench.mutation import Citations

SOURCE = textwrap.dedent('''\
    """A rules module of SNC."""
    C15 = "SNC 15.0: supply"


    def resolve(state, target):
        """SNC 11.0-11.2: combat, losses and retreats."""
        attackers = state.attackers(target)
        # 11.20: the defender removes steps first.
        if state.eliminated:
            remove(attackers)
            if state.garrison:  # 11.22: an elimination takes the garrison too
                destroy_garrison(target)
            attacker_losses(state)
        elif state.garrison:
            if state.loss >= 1:
                destroy_garrison_after_loss(target)
        else:
            take_losses(state)
        answer = {
            "control": state.control,  # 3.5: control is public
            "pending": state.pending,
        }
        refuse("SNC 5.3",
               "a river hexside costs the Japanese more")
        refuse(C15, "cut off")
        try:
            state.step()
        except KeyError:  # 6.2: a unit with no step left is eliminated
            eliminate(state)
        if state.seaborne:
            land(state)
            # Ichi-Go 8.1 read as SNC's airpower
            airpower(state)
            resupply(state)
        if state.bombed or state.in_range:
            return "oos"  # 8.9: within the bomber's range
        if state.landed:
            # 10.4: a landing unit may not retreat
            eliminated_on_landing(state)
            retreat_on_landing(state)
        return answer


    def undocumented(state):
        # 9.4: the Japanese river cost
        cost = 2
        return cost
''')


def cases_at(code: str, function: str = "resolve") -> tuple[set[tuple[str, str]], bool]:
    citations = Citations(SOURCE, "snc")
    line = next(n for n, text in enumerate(SOURCE.splitlines(), 1) if text.strip().startswith(code))
    found, precise = citations.cases(citations.function(function), line)
    return set(found), precise


def test_a_statement_is_charged_to_the_case_its_own_comment_cites():
    assert cases_at("if state.garrison:") == ({("snc", "11.22")}, True)
    assert cases_at('"control"') == ({("snc", "3.5")}, True)


def test_a_statement_without_a_citation_takes_its_branchs_not_a_sibling_statements():
    # the branch's inner `if` cites 11.22: that is not this statement's case
    assert cases_at("attacker_losses(state)") == ({("snc", "11.20")}, True)
    assert cases_at("destroy_garrison(target)") == ({("snc", "11.22")}, True)


def test_an_elif_branch_is_not_charged_to_the_case_the_if_line_before_it_cites():
    assert cases_at("destroy_garrison_after_loss(target)") == ({("snc", "11.20")}, True)
    assert cases_at("take_losses(state)") == ({("snc", "11.20")}, True)
    assert cases_at("eliminate(state)") == ({("snc", "6.2")}, True)


def test_a_comment_inside_a_statement_speaks_for_its_own_line_only():
    # the dict's `control` line cites 3.5; its `pending` line cites nothing, so the docstring's cases
    assert cases_at('"pending"') == ({("snc", "11.0"), ("snc", "11.2")}, False)


def test_a_refusal_spread_over_lines_cites_its_case_on_every_line():
    assert cases_at('"a river hexside') == ({("snc", "5.3")}, True)
    assert cases_at("refuse(C15") == ({("snc", "15.0")}, True)  # through the module's constant


def test_a_comment_above_a_statement_is_its_own_and_names_another_games_case_by_its_prefix():
    assert cases_at("airpower(state)") == ({("ichigo", "8.1")}, True)
    # the next statement of the block is not charged to it: it takes its branch's (none) and then the docstring
    assert cases_at("resupply(state)") == ({("snc", "11.0"), ("snc", "11.2")}, False)


def test_a_condition_citing_nothing_takes_the_comment_its_block_opens_with():
    assert cases_at("if state.bombed") == ({("snc", "8.9")}, True)


def test_a_comment_opening_a_block_is_its_branchs():
    assert cases_at("eliminated_on_landing(state)") == ({("snc", "10.4")}, True)
    assert cases_at("retreat_on_landing(state)") == ({("snc", "10.4")}, True)


def test_the_docstring_only_when_nothing_nearer_cites_and_nothing_without_one():
    assert cases_at("attackers = ") == ({("snc", "11.0"), ("snc", "11.2")}, False)
    assert cases_at("cost = 2", "undocumented") == ({("snc", "9.4")}, True)
    assert cases_at("return cost", "undocumented") == (set(), False)
