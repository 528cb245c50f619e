"""The number rule at every door: an event number or a record's id given by a request, an email or the command line
is a whole number from 1 to LARGEST (twelve digits, as an email's `seq:` line takes). A larger one names no event
of any game and is refused where it enters, before any work: a store's integers hold no more than 2**63 - 1, so
past that it would be the database's error, not the caller's (docs/reliability.md, "Bad input")."""
from __future__ import annotations

LARGEST = 999_999_999_999
DIGITS = len(str(LARGEST))
