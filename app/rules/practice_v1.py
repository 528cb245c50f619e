"""The practice opponents' first edition (issue 18), kept so that a seat automated before editions were recorded
(core.SeatAutomated with no settings) is decided, and re-decided by `verify`, as it was played: a policy change
never makes a stored game fail `verify` (docs/core.md, "Rules versions"; app/rules/practice.py has the current
edition).

Edition 1 seeds its generator from the whole encoded state, hidden parts included (issue 25 moved the current
edition to the side's view), draws its orders from the rule set's own `candidates` where it has them, and rates an
attack by its preview's column. Where edition 1 failed (a preview whose column is a label, Formosa and Dai Senso),
no order of it was ever stored, so it rates such a column by its odds instead of failing.
"""
from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Iterable
from typing import Any

from app.rules import odds_scale
from app.rules.base import Command
from app.rules.errors import OrderError
from app.rules.kernel.hexgrid import Hex

# the case text edition-1 random orders were stored with (the design brief's numbering, since renamed
# docs/architecture.md practice 10): `verify` compares the reason it re-decides with the stored one, word for word
RANDOM_CASE = "design.md practice 10"
GREEDY_CASE = "practice opponent (docs/play-by-email.md)"
ATTACKS = ("attack", "overrun", "assault")
ENDS = ("end", "pass")
BRING_IN = ("place", "land", "enter", "deploy", "reinforce", "rail", "replace")


# the fields of each rule set's encoded state, and of each of its units, as edition 1 read them (main at c6a8c47):
# its seed reads only these, so a field a rule set gains later (a rules version, a unit's landing hex) leaves
# an edition-1 seat's choices as they were
FIELDS = {
    ("skirmish", "state"): frozenset("""
        attacked_hexes pending reason side step turn units village_holder winner
        """.split()),
    ("skirmish", "unit"): frozenset("""
        attacked hex id moved side steps steps_max strength
        """.split()),
    ("snc", "state"): frozenset("""
        attacked_hexes battle chinese_air interdicted jp_control mover overruns pending phase plan reason
        replacements rules_version side turn units used winner
        """.split()),
    ("snc", "unit"): frozenset("""
        army arrival_hexes arrival_landing arrival_min_col arrival_turn attacked done elite formation hex id
        mp_used name placed_by placement return_turn side size status steps steps_max strength type
        """.split()),
    ("ichigo", "state"): frozenset("""
        aa14_closed aa14_turn aerial_hex aerial_turn air_hexes air_markers air_rolled air_side airdropped
        airlift_turn attacked_hexes b29_hex b29_ok b29_rolled b29_units b29_used beachheads causeway
        collapse_checked draw_pool ever_allied garrison_lost jp_control mover next_handle pending phase
        plans reason reinforced setup_draws start_at turn units winner
        """.split()),
    ("ichigo", "unit"): frozenset("""
        army attacked done entry_turn hex id mp mp_used name nation ref shift side size static status steps
        steps_max strategic strength tried type
        """.split()),
    ("olympic", "state"): frozenset("""
        american_control attacked_hexes beachheads casualty_points clock due invasion_turn militia_destroyed
        pending points_by_turn reason retreat_toward step turn units winner
        """.split()),
    ("olympic", "unit"): frozenset("""
        attacked defended hex id moved order released returns_on side status strength
        """.split()),
    ("formosa", "state"): frozenset("""
        air air_supply_turn airlift_turn airlifted amoy_turn amphibious attacked_hexes chosen combat
        kamikaze_spent lp markers naval pending pw_camp_lost reason recon replaced_now scenario setup_rolled
        special_ready step strike to_place turn units used_hexes vp_adjust winner
        """.split()),
    ("formosa", "unit"): frozenset("""
        attacked base concealed id motorized moved pinned side where
        """.split()),
    ("daisenso", "state"): frozenset("""
        attacked_hexes combat combat_phase convoys delay_box factions force_pool free_passage last_phase
        markers mobilizing name neutral no_occupation pending phasing policy pre_war reason removed serial
        step truces units used_box victory_faction victory_hold weather winner
        """.split()),
    ("daisenso", "unit"): frozenset("""
        attacked blitz faction fought hex holding id kind supplied zone
        """.split()),
}


def policies(rules, legal, no_order) -> dict[str, Callable[[Any, str], tuple[str, dict]]]:
    """Edition 1's `greedy` (for a rule set with a map) and `random`, for a rule set that can list candidates.
    `legal(rules, state, side, text)` is practice.legal; `no_order` the exception for "no order here"."""
    candidates = candidate_source(rules)
    if candidates is None:
        return {}
    found = {}
    rand = random_player(rules, candidates, legal, no_order)
    if getattr(rules, "game_map", None) is not None:
        found["greedy"] = greedy(rules, candidates, legal, rand)
    found["random"] = rand
    return found


def position_seed(rules, state: Any) -> int:
    """A seed drawn from the whole encoded state as edition 1 encoded it (lists taken as sets)."""
    def canonical(x):
        if isinstance(x, dict):
            return {str(k): canonical(v) for k, v in x.items()}
        if isinstance(x, (list, tuple, set, frozenset)):
            return sorted((canonical(v) for v in x), key=lambda v: json.dumps(v, sort_keys=True))
        return x

    text = json.dumps(canonical(_as_then(rules.name, rules.encode_state(state))), sort_keys=True, default=str)
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")


def _as_then(name: str, encoded: dict) -> dict:
    """The encoded state with only the fields edition 1 knew (`FIELDS`), the units' too."""
    fields, unit_fields = FIELDS.get((name, "state")), FIELDS.get((name, "unit"))
    state = encoded.get("state")
    if fields is None or not isinstance(state, dict):
        return encoded
    state = {k: v for k, v in state.items() if k in fields}
    if isinstance(state.get("units"), list):
        state["units"] = [[item[0], {k: v for k, v in item[1].items() if k in unit_fields}]
                          if isinstance(item, list) and len(item) == 2 and isinstance(item[1], dict) else item
                          for item in state["units"]]
    return {**encoded, "state": state}


def candidate_source(rules) -> Callable[[Any, random.Random], Iterable[str]] | None:
    """Edition 1's source of candidate orders: the rule set's own `candidates` as they were (SNC's and Ichi-Go's
    frozen in app/rules/practice_v1_candidates.py), else its list of legal orders, shuffled."""
    from app.rules.practice_v1_candidates import FROZEN

    if rules.name in FROZEN:
        return FROZEN[rules.name]
    own = getattr(rules, "candidates", None)
    if own is not None:
        return own
    if getattr(rules, "legal_orders", None) is None:
        return None

    def from_legal_orders(state: Any, rng: random.Random) -> list[str]:
        orders = [o["order"] for o in rules.legal_orders(state, rules.prompt(state).side)]
        rng.shuffle(orders)
        return orders

    return from_legal_orders


def random_player(rules, candidates, legal, no_order):
    def play(state: Any, side: str) -> tuple[str, dict]:
        rng = random.Random(position_seed(rules, state))
        for n, text in enumerate(candidates(state, rng), start=1):
            if legal(rules, state, side, text) is not None:
                return text, {"case": RANDOM_CASE, "summary": f"a random legal order (candidate {n}, drawn with "
                                                              "the position's own seed)"}
        raise no_order(f"no candidate order of {side} is legal ({rules.prompt(state).step})")

    return play


def greedy(rules, candidates, legal, fallback, draws: int = 4):
    def play(state: Any, side: str) -> tuple[str, dict]:
        rng = random.Random(position_seed(rules, state))
        goals = objectives(rules, state, side)
        scored = []
        drawn = [text for _ in range(draws) for text in candidates(state, rng)]
        for n, text in enumerate(dict.fromkeys(drawn)):
            try:
                command = rules.parse(text, side, state)
            except OrderError:
                continue
            rated = _rate(rules, state, command, goals)
            if rated is not None:
                scored.append((-rated[0], n, text, rated[1]))
        for _, _, text, reason in sorted(scored):
            if legal(rules, state, side, text) is not None:
                return text, reason
        text, reason = fallback(state, side)
        return text, {**reason, "summary": "greedy found nothing to rate: " + reason["summary"]}

    return play


def objectives(rules, state: Any, side: str) -> list[str]:
    view = rules.view(state, side)
    control = view.get("control") or {}
    goals = [h for h in view.get("victory_hexes") or () if control.get(h) != side]
    goals += [u["hex"] for u in view.get("units") or () if u.get("hex") and u.get("side") not in (side, None)]
    return sorted(set(goals)) or sorted(view.get("victory_hexes") or ())


def _distance(rules, state: Any, a: str, goals: list[str]) -> int | None:
    game_map = rules.game_map(state)
    try:
        here = Hex.parse(a)
        return min((game_map.distance(here, Hex.parse(g)) for g in goals), default=None)
    except ValueError:
        return None


def _rate(rules, state: Any, command: Command, goals: list[str]) -> tuple[float, dict] | None:
    action, args = command.action, command.args
    if action in ATTACKS and getattr(rules, "preview", None) is not None:
        if not rules.previews.column:  # no one column to rate by (Olympic's militia die): as a preview without one
            return None
        try:
            seen = rules.preview(state, command)
        except (OrderError, ValueError, KeyError):
            return None
        if seen.get("allowed") is False or seen.get("column") is None:
            return None
        label = seen.get("column_label", seen["column"])
        column = seen["column"] if isinstance(seen["column"], int) else odds_scale.of(label)
        if column is None:
            return None
        return 1000 + column, {"case": GREEDY_CASE, "rule": "best odds attack", "column": label,
                               "summary": f"greedy: the attack at the best odds column ({label})"}
    if action == "move" and args.get("to") and args.get("units"):
        hexes = {u["id"]: u["hex"] for u in rules.view(state, command.side).get("units") or () if u.get("hex")}
        before = [d for u in args["units"] if u in hexes and (d := _distance(rules, state, hexes[u], goals))
                  is not None]
        after = _distance(rules, state, args["to"], goals)
        if not before or after is None:
            return -1, {"case": GREEDY_CASE, "rule": "move", "summary": "greedy: a move with no objective in sight"}
        gain = min(before) - after
        return (100 + gain if gain > 0 else -1), {
            "case": GREEDY_CASE, "rule": "move toward objectives", "gain": gain,
            "summary": f"greedy: nearer an objective by {gain} hex(es)" if gain > 0 else "greedy: no nearer"}
    if action in ENDS:
        return 0, {"case": GREEDY_CASE, "rule": "end", "summary": "greedy: nothing better to do in this step"}
    if action in BRING_IN or not any(rules.prompt(state).allows(a) for a in ENDS):
        return 10, {"case": GREEDY_CASE, "rule": "decision", "summary": f"greedy: the step asks for '{action}'"}
    return None
