"""A player's keys (docs/players.md): a player is their email address, which their seats carry. Their page (every
game of theirs on the server) opens with a page key, HMAC-SHA256(server secret, the address) beside the address
itself, so the server recomputes it for every email it sends and keeps nothing; and with a sign-in code, mailed to
the address on request, single use and short-lived, of which the server keeps only the hash."""
from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import secrets

from app.service.errors import AccessDenied, NotAuthenticated
from app.service.seats import Credentials

PAGE_PATH = "/players/"


def address(email: str) -> str:
    """The address as the page knows its player: case does not matter (seats are found in any case)."""
    return email.strip().lower()


def code_hash(code: str) -> str:
    return hashlib.sha256(code.strip().encode("utf-8")).hexdigest()


def new_code() -> str:
    """A sign-in code: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


class PlayerKeys:
    """Page keys and links, made from the server secret of `credentials`."""

    def __init__(self, credentials: Credentials):
        self.credentials = credentials

    def _mac(self, email: str) -> str:
        mac = hmac.new(self.credentials.server_secret(), f"player-page\x00{address(email)}".encode(), hashlib.sha256)
        return mac.hexdigest()[:32]

    def key(self, email: str) -> str:
        """The page key of `email`: the address (base64url) and its HMAC, 128 bits as hex."""
        named = base64.urlsafe_b64encode(address(email).encode("utf-8")).decode("ascii").rstrip("=")
        return f"{named}.{self._mac(email)}"

    def email_of(self, key: str | None) -> str:
        """The address a page key opens (compared in constant time); NotAuthenticated without one, AccessDenied for
        one the server did not make."""
        if not key:
            raise NotAuthenticated("no player key: open the link from one of your game emails, or ask for a "
                                   "sign-in link")
        named, _, mac = key.strip().partition(".")
        try:
            email = base64.urlsafe_b64decode(named + "=" * (-len(named) % 4)).decode("utf-8")
        except (binascii.Error, ValueError):
            email = ""
        if not email or not hmac.compare_digest(self._mac(email).encode(), mac.lower().encode()):
            raise AccessDenied("this player key opens no page")
        return address(email)

    @property
    def page_url(self) -> str | None:
        """The page's address on this server (without a key), if the server knows its public address."""
        public = self.credentials.public_url
        return f"{public.rstrip('/')}{PAGE_PATH}" if public else None

    def page_link(self, email: str) -> str | None:
        """The link that opens `email`'s page (their key in it), if the server knows its public address."""
        url = self.page_url
        return f"{url}?key={self.key(email)}" if url else None
