"""Compilation of untrusted sources in helper processes, each job under a time and memory limit.

Callers that compile before a candidate reaches a GPU worker (the batch layer's CPU half, `profile`)
must not compile in their own process: a candidate can send NVRTC or nvcc into minutes of work and
gigabytes of memory, and a compiler running inside the caller cannot be stopped. Here every job runs
in a compile process started as `python -m kernelscope.runner.bounded_compile FD`; the process caps
its own address space (KERNELSCOPE_COMPILE_MEMORY_MB, inherited by the nvcc it starts) before it loads
a compiler, sets a CPU-time backstop per job, and is killed with its whole process group when a job
runs past its wall-clock limit. Processes are kept between jobs, so a stream of candidates pays for
the interpreter and the compiler library once per compiling thread, not once per candidate; the
cubins land in the same caches as `compile_kernel`'s.

    kernel = compile_bounded(source, "vector_add", arch="sm_90", timeout_s=60)   # or CompileError
"""

from __future__ import annotations

import atexit
import os
import queue
import resource
import sys
from concurrent.futures import ThreadPoolExecutor
from multiprocessing.connection import Connection

from kernelscope.errors import KernelscopeError, ToolMissingError
from kernelscope.limits import env_limit
from kernelscope.runner.child import send_hello, start_child, stop_child
from kernelscope.runner.compile import CompileError

COMPILE_TIMEOUT_S = env_limit("KERNELSCOPE_COMPILE_TIMEOUT_S", 60.0)
COMPILE_MEMORY_BYTES = int(env_limit("KERNELSCOPE_COMPILE_MEMORY_MB", 4096) * 2 ** 20)
STARTUP_TIMEOUT_S = 120.0


class CompileProcess:
    """One compile process and the pipe to it; started on first use and after it is killed."""

    def __init__(self):
        self._process = None
        self._connection = None

    def alive(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def start(self) -> None:
        self._process, self._connection = start_child(
            "kernelscope.runner.bounded_compile", [str(COMPILE_MEMORY_BYTES)], what="the compile process",
            startup_timeout_s=STARTUP_TIMEOUT_S, own_process_group=True, quiet_stderr=True)

    def compile(self, source: str, kernel: str | None, *, arch: str, backend: str, timeout_s: float):
        """A CompiledKernel; CompileError when the source does not build or the job ran past its limits."""
        if not self.alive():
            self.start()
        self._connection.send({"source": source, "kernel": kernel, "arch": arch, "backend": backend,
                               "timeout_s": timeout_s})
        if not self._connection.poll(timeout_s):
            self.stop()
            raise CompileError(f"compilation took more than {timeout_s:g} s")   # the words `evaluate` uses
        try:
            reply = self._connection.recv()
        except (EOFError, OSError):
            code = self._process.poll()
            self.stop()
            # SIGKILL/SIGSEGV/SIGABRT: the compiler died, most often of an allocation past the cap
            raise CompileError(f"the compiler died (exit code {code}), most likely past its "
                               f"{COMPILE_MEMORY_BYTES / 2 ** 20:.0f} MB memory limit") from None
        status = reply["status"]
        if status == "ok":
            return reply["compiled"]
        if status == "compile_error":
            raise CompileError(reply["message"], reply.get("log", ""))
        if status == "tool_missing":
            raise ToolMissingError(reply["message"])
        raise KernelscopeError(reply["message"])

    def stop(self) -> None:
        process, connection = self._process, self._connection
        self._process = self._connection = None
        if process is not None:
            stop_child(process, connection, own_process_group=True)


class CompilePool:
    """Compile processes shared by the calling threads: a thread takes an idle process or starts one,
    so there are never more processes than threads compiling at once."""

    def __init__(self):
        self._idle: queue.SimpleQueue = queue.SimpleQueue()
        self._all: list[CompileProcess] = []

    def compile(self, source, kernel=None, *, arch: str, backend: str = "nvrtc", timeout_s: float = COMPILE_TIMEOUT_S):
        try:
            process = self._idle.get_nowait()
        except queue.Empty:
            process = CompileProcess()
            self._all.append(process)
        try:
            return process.compile(source, kernel, arch=arch, backend=backend, timeout_s=timeout_s)
        finally:
            self._idle.put(process)

    @property
    def size(self) -> int:
        return len(self._all)

    def close(self) -> None:
        for process in list(self._all):
            process.stop()


_POOL: CompilePool | None = None


def default_compile_pool() -> CompilePool:
    global _POOL
    if _POOL is None:
        _POOL = CompilePool()
        atexit.register(_POOL.close)
    return _POOL


def compile_bounded(source: str, kernel: str | None = None, *, arch: str | None = None, backend: str = "nvrtc",
                    timeout_s: float = COMPILE_TIMEOUT_S, pool: CompilePool | None = None):
    """`compile_kernel` in a compile process under `timeout_s` and the memory cap. The architecture
    is settled here, in the caller, which may see a GPU (the compile process never touches one)."""
    from kernelscope.runner.compile import default_arch

    return (pool or default_compile_pool()).compile(source, kernel, arch=arch or default_arch(), backend=backend,
                                                    timeout_s=timeout_s)


def compile_bounded_many(requests, *, arch: str | None = None, backend: str = "nvrtc",
                         timeout_s: float = COMPILE_TIMEOUT_S, workers: int | None = None, pool=None) -> list:
    """(source, kernel) pairs compiled in parallel, each under its own limit: in order, a
    CompiledKernel or the CompileError for each (other errors, such as a missing compiler, raise)."""
    from kernelscope.runner.compile import default_arch

    arch = arch or default_arch()
    requests = list(requests)

    def one(request):
        try:
            return compile_bounded(request[0], request[1], arch=arch, backend=backend, timeout_s=timeout_s, pool=pool)
        except CompileError as exc:
            return exc

    if not requests:
        return []
    with ThreadPoolExecutor(max_workers=min(len(requests), workers or os.cpu_count() or 4)) as threads:
        return list(threads.map(one, requests))


def _serve(connection: Connection, memory_bytes: int) -> None:
    """Compile process main loop: the memory cap first, then one job in, one reply out."""
    if memory_bytes > 0:
        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    try:
        from kernelscope.runner import compile as compiler

        try:   # load NVRTC and find the CUDA headers now, under the cap, rather than on the first job
            compiler._compiler_version("nvrtc")
            compiler._cuda_include_dir()
        except Exception:
            pass
    except BaseException as exc:
        send_hello(connection, exc)
        return
    send_hello(connection)
    while True:
        try:
            job = connection.recv()
        except (EOFError, OSError):
            return          # the caller has gone
        _cpu_backstop(job["timeout_s"])
        try:
            built = compiler.compile_kernel(job["source"], job["kernel"], arch=job["arch"], backend=job["backend"])
            reply = {"status": "ok", "compiled": built}
        except compiler.CompileError as exc:
            reply = {"status": "compile_error", "message": str(exc), "log": exc.log}
        except ToolMissingError as exc:
            reply = {"status": "tool_missing", "message": str(exc)}
        except MemoryError:
            reply = {"status": "compile_error", "message": "compilation failed: the compiler ran out of its "
                     f"{memory_bytes / 2 ** 20:.0f} MB memory limit", "log": ""}
        except Exception as exc:
            reply = {"status": "error", "message": f"{type(exc).__name__}: {exc}"}
        connection.send(reply)


def _cpu_backstop(timeout_s: float) -> None:
    """Let this job use about its wall-clock limit in CPU time: SIGXCPU ends the process should the
    caller vanish while a compiler loops (the caller normally kills it first)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    soft = int(usage.ru_utime + usage.ru_stime + 2 * timeout_s + 5)
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    if hard != resource.RLIM_INFINITY:
        soft = min(soft, hard)
    resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))


if __name__ == "__main__":
    _serve(Connection(int(sys.argv[1])), int(sys.argv[2]))
