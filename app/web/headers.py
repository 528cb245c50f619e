"""Security headers on every response of the web app (issue 12, "no script from game data").

An HTML page may run only this server's own script files: no inline script, no event-handler attributes, no
eval, no plugin, no framing, forms post only here. Anything else (JSON, SVG, CSS, JS) is served with a policy
that allows nothing and sandboxes it, so an SVG opened on its own as a document runs nothing either.
A route may set its own header; these fill in what it did not set. docs/replay.md, "Security headers".
"""
from __future__ import annotations

from flask import Flask, Response

PAGE_POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
               "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
DATA_POLICY = "default-src 'none'; frame-ancestors 'none'; sandbox"
HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
}


_NAMES = [(name.lower(), name, value) for name, value in HEADERS.items()]


def secure(response: Response) -> Response:
    """The headers above that `response` has not set (by name, in any case), added after its own. The names it
    has are read once, not looked up through the whole list again for each header (issue 26)."""
    headers = response.headers
    present = {name.lower() for name, _ in headers.items()}
    if "content-security-policy" not in present:
        headers.add("Content-Security-Policy", PAGE_POLICY if response.mimetype == "text/html" else DATA_POLICY)
    for low, name, value in _NAMES:
        if low not in present:
            headers.add(name, value)
    return response


def install(app: Flask) -> None:
    app.after_request(secure)
