"""HTTP in front of a RewardService, with the standard library only.

    POST /  or  POST /get_reward   {"query": [...], "prompts": [...], "labels": [...]}
         200 {"rewards": [...], "scores": [...], "extra_logs": {...}}
         400 malformed request   401 missing or wrong bearer token   411 no Content-Length (chunked)
         413 body or batch too large   422 a sample over its time or memory limit (no score)
         503 overloaded (Retry-After)   504 not scored in time   500 the reward function failed
    GET  /health                   200 {"status": "ok", "queued", "running", ...} (no token needed)
Every error body is {"error": "<one line saying what happened and what to do>"}.

The clients are on the network, so nothing a client does may hold the server: a body must announce
its length (within `max_body_bytes`) before any of it is read; each socket operation times out, and
a request that has not arrived in full within `request_deadline_s` has its connection shut (a client
sending one byte every few seconds would otherwise keep a thread forever); at most
`max_connections` connections are served at once, the rest are answered 503 at once.
"""

from __future__ import annotations

import hmac
import json
import logging
import re
import socket
import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from kernelscope.serve.service import (Overloaded, RequestError, RewardService, SampleFailed, TimedOut,
                                       TooLarge)

log = logging.getLogger(__name__)

REWARD_PATHS = ("/", "/get_reward")
_LENGTH = re.compile(r"[0-9]{1,18}")
_UNPRINTABLE = re.compile(r"[\x00-\x1f\x7f-\xff]")


class Unauthorized(RequestError):
    pass


class LengthRequired(RequestError):
    pass


_STATUS = {Unauthorized: 401, LengthRequired: 411, RequestError: 400, TooLarge: 413, SampleFailed: 422,
           Overloaded: 503, TimedOut: 504}


@dataclass(frozen=True)
class ServerLimits:
    max_body_bytes: int = 8 * 1024 * 1024
    socket_timeout_s: float = 10.0      # one read or write on a socket
    request_deadline_s: float = 30.0    # the whole request line, headers and body
    max_connections: int = 64
    token: str | None = None            # bearer token every reward request must carry


class RewardServer(ThreadingHTTPServer):
    """One thread per connection (at most `max_connections`); they only parse, wait and answer,
    the service bounds the real work."""
    daemon_threads = True

    def __init__(self, address, service: RewardService, limits: ServerLimits = ServerLimits()):
        self.service = service
        self.limits = limits
        # a burst of connections waits in the kernel's queue until accepted: room for every scoring
        # worker and every connection served at once (the socketserver default of 5 refused the
        # 6th of 16 simultaneous clients)
        self.request_queue_size = max(service.workers, limits.max_connections)
        self._connections = threading.BoundedSemaphore(limits.max_connections)
        self._reading: dict = {}        # socket -> time by which its request must have arrived
        self._reading_lock = threading.Lock()
        self._closed = threading.Event()
        super().__init__(address, _Handler)
        self._reaper = threading.Thread(target=self._shut_late_readers, daemon=True,
                                        name="kernelscope-serve-deadlines")
        self._reaper.start()

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host}:{port}"

    def process_request(self, request, client_address):
        if not self._connections.acquire(blocking=False):
            _refuse_busy(request)
            self.shutdown_request(request)
            return
        super().process_request(request, client_address)

    def process_request_thread(self, request, client_address):
        try:
            super().process_request_thread(request, client_address)
        finally:
            self.reading_done(request)
            self._connections.release()

    def reading_until(self, request, deadline: float) -> None:
        with self._reading_lock:
            self._reading[request] = deadline

    def reading_done(self, request) -> None:
        with self._reading_lock:
            self._reading.pop(request, None)

    def server_close(self):
        self._closed.set()
        super().server_close()

    def _shut_late_readers(self) -> None:
        while not self._closed.wait(0.5):
            now = time.monotonic()
            with self._reading_lock:
                late = [request for request, deadline in self._reading.items() if deadline < now]
                for request in late:
                    del self._reading[request]
            for request in late:
                try:
                    request.shutdown(socket.SHUT_RDWR)     # the handler's blocked read returns at once
                except OSError:
                    pass


def _refuse_busy(request) -> None:
    body = b'{"error": "too many connections; retry later"}'
    try:
        request.settimeout(1.0)
        request.sendall(b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n"
                        b"Retry-After: 5\r\nConnection: close\r\nContent-Length: " + str(len(body)).encode() +
                        b"\r\n\r\n" + body)
    except OSError:
        pass


class _Handler(BaseHTTPRequestHandler):
    server: RewardServer
    protocol_version = "HTTP/1.1"

    def setup(self):
        self.timeout = self.server.limits.socket_timeout_s
        super().setup()

    def handle_one_request(self):
        # the next request on this connection (keep-alive) has its own deadline
        self.server.reading_until(self.request, time.monotonic() + self.server.limits.request_deadline_s)
        try:
            super().handle_one_request()
        except OSError:            # the client went away or was too slow: nothing to answer
            self.close_connection = True

    def handle_expect_100(self):
        # refuse before the client sends a body it would send in vain
        try:
            self._check_headers()
        except tuple(_STATUS) as exc:
            self._fail(exc)
            return False
        return super().handle_expect_100()

    def do_GET(self):
        self.server.reading_done(self.request)
        if self.path.rstrip("/") == "/health":
            self._answer(200, {"status": "ok", **self.server.service.status()})
        else:
            self._answer(404, {"error": f"no such path {_printable(self.path)}; POST rewards to / or /get_reward"})

    def do_POST(self):
        if self.path not in REWARD_PATHS:
            self.close_connection = True   # the body is not read
            self._answer(404, {"error": f"no such path {_printable(self.path)}; POST rewards to / or /get_reward"})
            return
        try:
            payload = self._read_json()
            self._answer(200, self.server.service.score(payload))
        except tuple(_STATUS) as exc:
            self._fail(exc)
        except OSError:
            self.close_connection = True
        except Exception as exc:  # the reward function broke: tell the trainer, keep serving
            log.exception("reward function failed")
            self._answer(500, {"error": f"the reward function failed: {type(exc).__name__}: {exc}"})

    def _check_headers(self) -> int:
        """The body's length, once the headers allow reading it."""
        token = self.server.limits.token
        if token is not None:
            scheme, _, given = (self.headers.get("Authorization") or "").partition(" ")
            if scheme.lower() != "bearer" or not hmac.compare_digest(given.strip().encode(), token.encode()):
                raise Unauthorized("a valid 'Authorization: Bearer <token>' header is required")
        if self.headers.get("Transfer-Encoding") is not None:
            raise LengthRequired("chunked or otherwise encoded bodies are not accepted; send a Content-Length")
        lengths = self.headers.get_all("Content-Length") or []
        if not lengths:
            raise LengthRequired("a Content-Length header is required")
        if len(lengths) > 1 or not _LENGTH.fullmatch(lengths[0].strip()):
            raise RequestError("Content-Length must be one non-negative whole number of bytes")
        length = int(lengths[0])
        limit = self.server.limits.max_body_bytes
        if length > limit:
            raise TooLarge(f"the body has {length} bytes, more than the {limit} this server accepts "
                           "(--max-body-mb); send fewer or shorter samples per request")
        return length

    def _read_json(self):
        length = self._check_headers()
        body = self.rfile.read(length)
        self.server.reading_done(self.request)
        if len(body) < length:
            raise RequestError(f"the body ended after {len(body)} of {length} bytes")
        try:
            return json.loads(body)
        except RecursionError:
            raise RequestError("the body's JSON nests too deeply") from None
        except ValueError as exc:
            raise RequestError(f"the body is not JSON: {exc}") from None

    def _fail(self, exc) -> None:
        headers = {"Retry-After": "5"} if isinstance(exc, Overloaded) else {}
        if isinstance(exc, Unauthorized):
            headers["WWW-Authenticate"] = "Bearer"
        if not isinstance(exc, (SampleFailed, Overloaded, TimedOut)):
            self.close_connection = True   # the body may be unread: the connection cannot be reused
        self._answer(_STATUS[type(exc)], {"error": str(exc)}, headers)

    def _answer(self, status: int, document: dict, headers=None):
        body = json.dumps(document).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        if self.close_connection:
            self.send_header("Connection", "close")
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format, *args):  # noqa: A002 - the base class's signature
        log.info("%s %s", self.address_string(), _printable(format % args))


def _printable(text: str) -> str:
    """Client text with control characters escaped, fit for logs and messages."""
    return _UNPRINTABLE.sub(lambda m: f"\\x{ord(m.group(0)):02x}", text)[:300]
