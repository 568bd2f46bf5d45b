"""Starting a kernelscope helper process that talks over a socket pair: GPU workers and compile processes.

Both are started as `python -m MODULE FD ARGS...` rather than through multiprocessing's spawn, which
would re-run the caller's main script in the child (and fail in scripts without an
`if __name__ == "__main__"` guard). The child gets one end of a socket pair, wrapped on both sides in a
multiprocessing Connection, and its standard output goes nowhere: untrusted code runs in it, and a
device `printf` must never reach the caller's output. The child's first message is a hello,
`{"status": "ready", "pid": ...}` or `{"status": "error", "message": ...}`; a child that sends
neither within the start-up limit is killed.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from multiprocessing.connection import Connection
from pathlib import Path

from kernelscope.errors import KernelscopeError
from kernelscope.limits import kill_process_group


def child_environment() -> dict:
    """The caller's environment, with this kernelscope importable in the child even when it runs
    from a checkout rather than an installed package."""
    root = str(Path(__file__).resolve().parents[2])
    existing = os.environ.get("PYTHONPATH", "")
    return {**os.environ, "PYTHONPATH": root + (os.pathsep + existing if existing else "")}


def start_child(module: str, args: list[str], *, what: str, startup_timeout_s: float,
                error: type[KernelscopeError] = KernelscopeError, own_process_group: bool = False,
                quiet_stderr: bool = False) -> tuple[subprocess.Popen, Connection]:
    """Start `module` and wait for its ready hello: (process, connection), or `error` saying why
    `what` ("the GPU worker") did not start. With `own_process_group` the child leads a new session,
    so that `stop_child` can kill whatever it started too (a compiler's subprocesses)."""
    ours, theirs = socket.socketpair()
    with theirs:
        process = subprocess.Popen(
            [sys.executable, "-m", module, str(theirs.fileno()), *args],
            pass_fds=(theirs.fileno(),), env=child_environment(), stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL if quiet_stderr else None,
            start_new_session=own_process_group)
    connection = Connection(ours.detach())

    def fail(message: str):
        stop_child(process, connection, own_process_group)
        return error(f"{what} {message}")

    if not connection.poll(startup_timeout_s):
        raise fail(f"did not start within {startup_timeout_s:.0f} s")
    try:
        hello = connection.recv()
    except (EOFError, OSError):
        code = process.wait(5)
        raise fail(f"exited during start-up (exit code {code})") from None
    if not isinstance(hello, dict) or hello.get("status") != "ready":
        detail = hello.get("message") if isinstance(hello, dict) else "an unexpected answer"
        raise fail(f"failed to start: {detail}")
    return process, connection


def send_hello(connection: Connection, failure: BaseException | None = None) -> None:
    """The child's half of the handshake: ready (with its pid), or why it could not start."""
    if failure is None:
        connection.send({"status": "ready", "pid": os.getpid()})
    else:
        connection.send({"status": "error", "message": f"{type(failure).__name__}: {failure}"})


def stop_child(process: subprocess.Popen, connection: Connection, own_process_group: bool) -> None:
    """Kill the child now (its whole group when it has one) and close the pipe."""
    if own_process_group:
        kill_process_group(process)
    else:
        process.kill()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            pass
    connection.close()
