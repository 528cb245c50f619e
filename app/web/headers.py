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


def secure(response: Response) -> Response:
    policy = PAGE_POLICY if response.mimetype == "text/html" else DATA_POLICY
    response.headers.setdefault("Content-Security-Policy", policy)
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)
    return response


def install(app: Flask) -> None:
    app.after_request(secure)
