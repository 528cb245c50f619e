"""A receipt's signed message is laid out around its four values (app/events/receipts.py `statement_message`, issue
26) exactly as the canonical JSON of its statement was: the same bytes, so the same signature (Ed25519 is
deterministic), for any game name a store may hold, and every receipt still checks."""
from __future__ import annotations

import pytest

from app.events.envelope import canonical_json
from app.events.receipts import CONTEXT, FORMAT, Receipt, Signer, _b64

SIGNER = Signer.generate()
HASH = "0123456789abcdef" * 4

GAMES = ["g-0000beef", 'g-"quoted"\\back', "g-ünï-∆-𝄞", "g-\x00\x1f\n\t\u2028", "g-" + "x" * 300]


def _as_before(game: str, seq: int, key: str) -> bytes:
    return CONTEXT + canonical_json({"format": FORMAT, "game": game, "seq": seq, "hash": HASH,
                                     "key": key}).encode("utf-8")


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seq", [1, 17, 10**15])
def test_the_message_and_signature_are_the_canonical_statements(game, seq):
    receipt = SIGNER.sign(game, seq, HASH)
    assert receipt.message() == _as_before(game, seq, SIGNER.public)
    assert receipt.sig == _b64(SIGNER._key.sign(_as_before(game, seq, SIGNER.public)))
    assert receipt.valid() and Receipt.from_dict(receipt.to_dict()).valid()


def test_a_changed_value_is_another_message_and_fails_the_check():
    receipt = SIGNER.sign("g-0000beef", 5, HASH)
    for forged in (Receipt("g-0000beee", 5, HASH, receipt.key, receipt.sig),
                   Receipt("g-0000beef", 6, HASH, receipt.key, receipt.sig),
                   Receipt("g-0000beef", 5, "f" + HASH[1:], receipt.key, receipt.sig),
                   Receipt("g-0000beef", 5, HASH, Signer.generate().public, receipt.sig)):
        assert not forged.valid()
