"""Running a tool on untrusted input with a ceiling on its time and memory.

nvcc on a generated kernel can take minutes and gigabytes (a 20,000-term expression: 105 s, 6 GB).
`run_limited` gives the command an address-space and CPU-time limit (`setrlimit` in the child before
it execs, inherited by the compilers nvcc starts), its own process group, and a wall-clock deadline
after which the whole group is killed, so nothing it started outlives the call.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from kernelscope.errors import InputError

# signal and resource are imported where a process is run: `analyze` without ptxas never runs one,
# and importing signal (its enums) was 3 million instructions of a fresh one-kernel analysis.

if TYPE_CHECKING:
    import subprocess

# Markers a compiler prints when an allocation fails under RLIMIT_AS (cicc and ptxas are C++).
_OUT_OF_MEMORY = ("bad_alloc", "out of memory", "memory allocation", "cannot allocate memory", "memoryerror")


class LimitExceeded(InputError):
    """The command ran past its time or memory limit and was stopped."""


def env_limit(name: str, default: float) -> float:
    """A positive number from the environment, the default when unset or unusable."""
    try:
        value = float(os.environ.get(name, ""))
    except ValueError:
        return default
    return value if value > 0 else default


def run_limited(command: list[str], *, what: str, timeout_s: float, memory_bytes: int | None,
                input: str | None = None, cwd=None) -> subprocess.CompletedProcess:
    """Run `command` to completion (text output captured) or raise LimitExceeded naming `what`."""
    import signal
    import subprocess   # here, not at import: `analyze` without ptxas never starts a process

    process = subprocess.Popen(command, stdin=subprocess.PIPE if input is not None else subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, errors="replace",
                               cwd=cwd, start_new_session=True,
                               preexec_fn=_limits_for_child(memory_bytes, timeout_s))
    try:
        stdout, stderr = process.communicate(input, timeout=timeout_s)
    except subprocess.TimeoutExpired:
        kill_process_group(process)
        process.communicate()
        raise LimitExceeded(f"{what} did not finish within its {timeout_s:g} s limit and was stopped") from None
    except BaseException:
        kill_process_group(process)
        raise
    kill_process_group(process)   # anything it left running in the background
    if process.returncode != 0 and memory_bytes and _ran_out_of_memory(process.returncode, stdout + stderr):
        raise LimitExceeded(f"{what} ran out of its {memory_bytes / 2 ** 20:.0f} MB memory limit and was stopped")
    if process.returncode == -signal.SIGXCPU:
        raise LimitExceeded(f"{what} used more than its {timeout_s:g} s of CPU time and was stopped")
    return subprocess.CompletedProcess(command, process.returncode, stdout, stderr)


def _limits_for_child(memory_bytes: int | None, timeout_s: float):
    import resource     # in the parent: between fork and exec the child only calls setrlimit

    cpu_seconds = max(1, int(timeout_s) + 1)   # a backstop: the wall-clock deadline normally acts first

    def apply() -> None:  # runs in the child between fork and exec: setrlimit calls only
        if memory_bytes:
            resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 1))

    return apply


def _ran_out_of_memory(returncode: int, output: str) -> bool:
    import signal

    killed = returncode in (-signal.SIGKILL, -signal.SIGSEGV, -signal.SIGABRT)
    return killed or any(marker in output.lower() for marker in _OUT_OF_MEMORY)


def kill_process_group(process: subprocess.Popen) -> None:
    """SIGKILL the process's group (it leads one: start_new_session) and reap the leader."""
    import signal
    import subprocess

    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        pass
