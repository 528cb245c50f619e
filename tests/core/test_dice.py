"""Verifiable dice (issue 2 item 5): committed seed, player seed texts, unbiased mapping, offline recompute."""
import collections
import hashlib
import hmac

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.events import dice
from app.events.envelope import canonical_json
from app.rules.catalog import installed
from app.service import audit, games, transfer
from app.service.demo import SKIRMISH_OPENING

CATALOG = installed()  # the rule sets installed here


@given(st.text(min_size=1), st.text(), st.dictionaries(st.sampled_from(["red", "blue"]), st.text()),
       st.integers(0, 10**6), st.integers(2, 20))
def test_rolls_are_in_range_and_reproducible(seed, game_id, seeds, index, sides):
    value = dice.derive_roll(seed, game_id, seeds, index, sides)
    assert 1 <= value <= sides
    assert value == dice.derive_roll(seed, game_id, dict(seeds), index, sides)


def test_rejection_sampling_skips_biased_bytes():
    """Bytes 252-255 would favour faces 1-4 under a plain modulo: they are skipped."""
    seed, game_id, seeds = "s", "g", {}
    for index in range(3000):
        message = canonical_json([game_id, [], index])
        digest = hmac.new(seed.encode(), f"{message}#0".encode(), hashlib.sha256).digest()
        first_ok = next(b for b in digest if b < 252)
        assert dice.derive_roll(seed, game_id, seeds, index) == first_ok % 6 + 1


def test_faces_are_uniform():
    counts = collections.Counter(dice.derive_roll("seed", "g-1", {"red": "x"}, i) for i in range(60000))
    expected = 10000
    chi2 = sum((counts[f] - expected) ** 2 / expected for f in range(1, 7))
    assert set(counts) == set(range(1, 7))
    assert chi2 < 20.5  # 99.9th percentile of chi-square with 5 degrees of freedom


def test_player_seed_text_changes_the_rolls():
    a = [dice.derive_roll("seed", "g", {"red": "a"}, i) for i in range(50)]
    b = [dice.derive_roll("seed", "g", {"red": "b"}, i) for i in range(50)]
    assert a != b


def test_only_the_commitment_is_stored_until_the_reveal(store, skirmish):
    seed = store.dice_seed(skirmish)
    created = next(store.events(skirmish))
    assert created.payload["seed_commitment"] == hashlib.sha256(seed.encode()).hexdigest()
    assert all(seed not in str(e.payload) for e in store.events(skirmish))


def _game_with_rolls(store, game_id):
    for side, order in SKIRMISH_OPENING:  # ends with an attack, so at least one die is rolled
        games.submit(store, CATALOG, game_id, side, order)


def test_rolls_recompute_offline_after_reveal(store, skirmish, tmp_path):
    _game_with_rolls(store, skirmish)
    rolls = [e for e in store.events(skirmish) if e.type == "core.DieRolled"]
    assert rolls
    before = audit.verify(CATALOG, list(store.events(skirmish)), check_dice=True)
    assert before.ok and before.rolls_checked == 0 and before.rolls_unchecked == len(rolls)
    games.reveal_seed(store, CATALOG, skirmish, "game over")
    path = tmp_path / "game.jsonl"
    path.write_text("".join(transfer.export_lines(store, skirmish)))
    offline = audit.verify(CATALOG, transfer.parse_lines(path.read_text().splitlines()), check_dice=True)
    assert offline.ok and offline.rolls_checked == len(rolls)


def test_wrong_seed_is_detected(store, skirmish):
    _game_with_rolls(store, skirmish)
    report = audit.verify(CATALOG, list(store.events(skirmish)), check_dice=True, seeds={
        next(store.events(skirmish)).payload["seed_commitment"]: "not the seed"})
    assert not report.ok and report.problems[0].check == "dice"
    assert "does not match the commitment" in report.problems[0].message


def test_a_forged_roll_in_a_resealed_chain_is_caught_by_the_dice(store, skirmish):
    """Someone who rewrites a die value and re-hashes the chain passes the chain check but not the dice."""
    _game_with_rolls(store, skirmish)
    games.reveal_seed(store, CATALOG, skirmish, "game over")
    events = list(store.events(skirmish))
    roll = next(e for e in events if e.type == "core.DieRolled")
    forged, prev = [], None
    for e in events:
        fields = e.hashed_fields()
        if e.seq == roll.seq:
            fields["payload"] = {**e.payload, "value": e.payload["value"] % 6 + 1}
        if prev is not None:
            fields["prev_hash"] = prev.hash
        prev = type(e).sealed(**{k: v for k, v in fields.items()})
        forged.append(prev)
    report = audit.verify(CATALOG, forged, check_dice=True)
    assert not report.ok
    assert report.first_bad_seq is not None and report.first_bad_seq <= roll.seq + 2


def test_no_roll_after_the_reveal(store, skirmish):
    """Once the seed is revealed every die to come is known: the game takes no order at all, and writes nothing."""
    games.reveal_seed(store, CATALOG, skirmish, "arbiter")
    head = store.head(skirmish)
    with pytest.raises(games.GameError, match="seed was revealed"):
        games.submit(store, CATALOG, skirmish, "red", "end")
    assert store.head(skirmish) == head
