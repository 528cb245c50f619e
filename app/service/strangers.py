"""Strangers by email (issue 25; docs/play-by-email.md, "Strangers"): a message that opens no seat is answered at
most once per mailbox in a period (MailConfig.stranger_reply_hours, HEXLEDGER_STRANGER_REPLY_HOURS, default 1),
so `ingest-email` is no reflector for mail with a forged From. The answer's time is stored (the store's named
clocks, in the message's own transaction), so the limit holds across runs and processes."""
from __future__ import annotations

from datetime import datetime, timedelta

from app.events.interface import ServerRecords
from app.events.store import utc_parse

CLOCK = "stranger reply to {}"  # the store's named clock of one mailbox: when it was last answered


def mailbox(address: str) -> str:
    """The mailbox an address reaches, as the limit counts it: case and a +tag of its local part dropped (a forger
    varying them reaches the same person)."""
    local, _, domain = address.rpartition("@")
    return f"{local.partition('+')[0]}@{domain}".lower()


def may_answer(store: ServerRecords, address: str, now: datetime, period: timedelta) -> bool:
    """True, recording `now` as the mailbox's answer, unless it was answered less than `period` ago (then False,
    and the earlier answer's time stays). Called inside the message's transaction."""
    name = CLOCK.format(mailbox(address))
    last = store.swap_clock(name, now.isoformat())
    if last is not None and now - utc_parse(last) < period:
        store.swap_clock(name, last)
        return False
    return True
