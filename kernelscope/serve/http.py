"""HTTP in front of a RewardService, with the standard library only.

    POST /  or  POST /get_reward   {"query": [...], "prompts": [...], "labels": [...]}
         200 {"rewards": [...], "scores": [...], "extra_logs": {...}}
         400 malformed request   413 more samples than the queue holds   503 overloaded (Retry-After)
         504 not scored in time  500 the reward function failed
    GET  /health                   200 {"status": "ok", "queued", "running", ...}
Every error body is {"error": "<one line saying what happened and what to do>"}.
"""

from __future__ import annotations

import json
import logging
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from kernelscope.serve.service import Overloaded, RequestError, RewardService, TimedOut, TooLarge

log = logging.getLogger(__name__)

MAX_BODY_BYTES = 256 * 1024 * 1024
REWARD_PATHS = ("/", "/get_reward")
_STATUS = {RequestError: 400, TooLarge: 413, Overloaded: 503, TimedOut: 504}


class RewardServer(ThreadingHTTPServer):
    """One thread per connection; they only parse, wait and answer, the service bounds the real work."""
    daemon_threads = True

    def __init__(self, address, service: RewardService):
        super().__init__(address, _Handler)
        self.service = service

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host}:{port}"


class _Handler(BaseHTTPRequestHandler):
    server: RewardServer
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        if self.path.rstrip("/") == "/health":
            self._answer(200, {"status": "ok", **self.server.service.status()})
        else:
            self._answer(404, {"error": f"no such path {self.path}; POST rewards to / or /get_reward"})

    def do_POST(self):
        if self.path not in REWARD_PATHS:
            self._drain()
            self._answer(404, {"error": f"no such path {self.path}; POST rewards to / or /get_reward"})
            return
        try:
            payload = self._read_json()
            self._answer(200, self.server.service.score(payload))
        except tuple(_STATUS) as exc:
            headers = {"Retry-After": "5"} if isinstance(exc, Overloaded) else {}
            self._answer(_STATUS[type(exc)], {"error": str(exc)}, headers)
        except Exception as exc:  # the reward function broke: tell the trainer, keep serving
            log.exception("reward function failed")
            self._answer(500, {"error": f"the reward function failed: {type(exc).__name__}: {exc}"})

    def _read_json(self):
        try:
            length = int(self.headers.get("Content-Length", ""))
        except ValueError:
            raise RequestError("a Content-Length header is required") from None
        if length > MAX_BODY_BYTES:
            self.close_connection = True
            raise TooLarge(f"the body has {length} bytes, more than the {MAX_BODY_BYTES} accepted")
        body = self.rfile.read(length)
        try:
            return json.loads(body)
        except ValueError as exc:
            raise RequestError(f"the body is not JSON: {exc}") from None

    def _drain(self):
        length = int(self.headers.get("Content-Length") or 0)
        if 0 < length <= MAX_BODY_BYTES:
            self.rfile.read(length)

    def _answer(self, status: int, document: dict, headers=None):
        body = json.dumps(document).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format, *args):  # noqa: A002 - the base class's signature
        log.info("%s %s", self.address_string(), format % args)
