"""The server's access log (`cli.py serve`): one line per request, in the Common Log Format with the time the
answer took, written when the answer has been sent. Credentials never reach it: the values of `key` and `token`
in a query (a replay link's key) are replaced by `-`, and no header is logged."""
from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from urllib.parse import parse_qsl, urlencode

SECRET_PARAMS = ("key", "token")


def _printable(text: str) -> str:
    """No quote, line break or control character from a request can shape the log's lines."""
    return "".join(c if c.isprintable() and c not in '"\\' else f"\\x{ord(c):02x}" for c in text)


def _target(environ: dict) -> str:
    path = environ.get("SCRIPT_NAME", "") + environ.get("PATH_INFO", "")
    query = environ.get("QUERY_STRING", "")
    if query:
        pairs = [(k, "-" if k in SECRET_PARAMS else v) for k, v in parse_qsl(query, keep_blank_values=True)]
        path += f"?{urlencode(pairs, safe='-/')}"
    return _printable(path)


class AccessLog:
    """WSGI middleware around `app` (a Flask app's `wsgi_app`) that hands `write` one line per request."""

    def __init__(self, app: Callable, write: Callable[[str], None]):
        self.app = app
        self.write = write

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        started = time.monotonic()
        answer = {"status": "-", "bytes": 0}

        def recording(status: str, headers: list, exc_info=None):
            answer["status"] = status.split(" ", 1)[0]
            return start_response(status, headers, exc_info)

        body = self.app(environ, recording)
        try:
            for chunk in body:
                answer["bytes"] += len(chunk)
                yield chunk
        finally:
            if hasattr(body, "close"):
                body.close()
            at = datetime.now(UTC).strftime("%d/%b/%Y:%H:%M:%S %z")
            method, protocol = (_printable(environ.get(k, "-")) for k in ("REQUEST_METHOD", "SERVER_PROTOCOL"))
            request = f"{method} {_target(environ)} {protocol}"
            self.write(f'{environ.get("REMOTE_ADDR", "-")} - - [{at}] "{request}" {answer["status"]} '
                       f'{answer["bytes"]} {time.monotonic() - started:.3f}s')
