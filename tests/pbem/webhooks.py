"""A real webhook receiver for the notification tests: an HTTP server on 127.0.0.1 (the standard library's, in a
thread) that keeps every request it is sent (path, headers, body), and answers 200, or an error while told to."""
from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass(frozen=True)
class Received:
    path: str
    headers: dict[str, str]
    body: bytes

    @property
    def json(self) -> dict:
        return json.loads(self.body)

    @property
    def text(self) -> str:
        """Everything the notification said: its body and headers (ntfy's title travels as a header)."""
        return self.body.decode("utf-8", "replace") + "\n" + "\n".join(f"{k}: {v}" for k, v in self.headers.items())


class Receiver:
    """Started by a fixture; `url` is its base address; `status` what it answers (set 500 to refuse)."""

    def __init__(self) -> None:
        self.received: list[Received] = []
        self.refused = 0
        self.status = 200
        self._arrived = threading.Condition()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 - the standard library's name
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                with receiver._arrived:
                    if receiver.status == 200:
                        receiver.received.append(Received(self.path, dict(self.headers), body))
                    else:
                        receiver.refused += 1
                    receiver._arrived.notify_all()
                self.send_response(receiver.status)
                self.send_header("Content-Type", "application/json")
                self.end_headers()
                self.wfile.write(b"{}")

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"127.0.0.1:{self.server.server_address[1]}"
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def start(self) -> Receiver:
        self._thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self._thread.join(5)

    def on(self, path: str) -> list[Received]:
        return [r for r in self.received if r.path == path]
