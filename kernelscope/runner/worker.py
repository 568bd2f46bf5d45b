"""Worker processes that own the CUDA context in which candidates run.

A candidate can hang the GPU, crash its context with an illegal address, or scribble over memory,
so it never runs in the caller's process. A worker stays alive across candidates (starting one and
creating a CUDA context costs seconds, evaluating a candidate a fraction of that) and is replaced
when it times out, faults or dies. `WorkerPool` hands jobs to idle workers; with one GPU, one worker
keeps timings free of interference, which is the default.

Workers are started as `python -m kernelscope.runner.worker FD DEVICE` by `runner.child` (why not
multiprocessing, and how the start-up handshake goes, is told there). Jobs and replies travel as
pickles over the socket pair; the worker's standard output goes nowhere, because a candidate's
device `printf` writes there and must never reach the caller's output (a results stream such as
`run --batch > results.jsonl` could otherwise be forged).

A job that carries `source` instead of a `cubin` is compiled in the worker first, under its own
time limit (`compile_timeout_s`): a candidate that sends the compiler into a loop costs a worker,
never the caller. The worker reports `compiled` before it starts the GPU work.
"""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import time
from multiprocessing.connection import Connection

from kernelscope.errors import KernelscopeError
from kernelscope.runner.child import send_hello, start_child

STARTUP_TIMEOUT_S = 180.0
COMPILE_TIMEOUT_S = 60.0


class WorkerError(KernelscopeError):
    """A worker could not be started."""


class Worker:
    """One worker process and the pipe to it; restarted on demand."""

    def __init__(self, device: int = 0):
        self.device = device
        self._process = None
        self._connection = None
        self.starts = 0

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    def alive(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def start(self) -> None:
        self._process, self._connection = start_child(
            "kernelscope.runner.worker", [str(self.device)], what="the GPU worker",
            startup_timeout_s=STARTUP_TIMEOUT_S, error=WorkerError)
        self.starts += 1

    def call(self, job: dict, timeout_s: float) -> dict:
        """Run `job` and return the worker's reply; a hang or a crash becomes a timeout or fault reply,
        and the process is gone afterwards (the next call starts a fresh one). A job with `source`
        is compiled first, within job["compile_timeout_s"]; the reply then carries `compiled`."""
        if not self.alive():
            self.start()
        self._connection.send(job)
        compiled = None
        if "source" in job:
            limit = job.get("compile_timeout_s") or COMPILE_TIMEOUT_S
            first = self._receive(limit, f"compilation took more than {limit:g} s", "compile_timeout")
            if first.get("status") != "compiled":
                return first
            compiled = first["compiled"]
        reply = self._receive(timeout_s, f"the candidate ran for more than {timeout_s:g} s", "timeout")
        if compiled is not None:
            reply["compiled"] = compiled
        return reply

    def _receive(self, timeout_s: float, late: str, late_status: str) -> dict:
        if not self._connection.poll(timeout_s):
            self.stop(kill=True)
            return {"status": late_status, "message": late}
        try:
            reply = self._connection.recv()
        except (EOFError, OSError):
            exit_code = self._process.poll() if self._process else None
            self.stop(kill=True)
            return {"status": "fault", "message": f"the worker died (exit code {exit_code})"}
        if reply.get("status") == "fault":
            self.stop(kill=False)      # it exits on its own after reporting; its context is unusable
        return reply

    def stop(self, kill: bool = False) -> None:
        process, connection = self._process, self._connection
        self._process = self._connection = None
        if process is None:
            return
        if kill:
            process.kill()
        else:
            try:
                connection.send(None)
            except (OSError, BrokenPipeError):
                pass
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)
        connection.close()


class WorkerPool:
    """Keeps `workers` worker processes on `device` (or one on each of `devices`) and runs jobs on
    whichever is idle.

        with WorkerPool() as pool:
            reply = pool.run(job, timeout_s=30)
        with WorkerPool(devices=[0, 1]) as pool:     # every GPU, one worker each
            ...
    """

    def __init__(self, workers: int = 1, device: int = 0, devices=None):
        placement = list(devices) if devices is not None else [device] * workers
        if not placement:
            raise ValueError("a pool needs at least one worker")
        self.devices = sorted(set(placement))
        self._workers = [Worker(d) for d in placement]
        self._idle = queue.Queue()
        for worker in self._workers:
            self._idle.put(worker)

    def run(self, job: dict, timeout_s: float) -> dict:
        worker = self._idle.get()
        try:
            return worker.call(job, timeout_s)
        finally:
            self._idle.put(worker)

    def warm_up(self) -> None:
        """Start every worker now rather than on its first job, all at once (each one creates a
        CUDA context, which takes seconds)."""
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(len(self._workers)) as threads:
            list(threads.map(lambda w: None if w.alive() else w.start(), self._workers))

    @property
    def pids(self) -> list:
        return [w.pid for w in self._workers]

    @property
    def restarts(self) -> int:
        return sum(max(0, w.starts - 1) for w in self._workers)

    def close(self) -> None:
        for worker in self._workers:
            worker.stop()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _serve(connection, device: int) -> None:
    """Worker main loop: one job in, one reply out, until told to stop or a fault poisons the context."""
    try:
        import cupy

        cupy.cuda.Device(device).use()
        from kernelscope.runner.harness import Fault, Harness

        harness = Harness()
    except Exception as exc:
        send_hello(connection, exc)
        return
    send_hello(connection)
    while True:
        try:
            job = connection.recv()
        except EOFError:
            return
        if job is None:
            return
        started = time.perf_counter()
        if "compile_many" in job:
            connection.send(_compile_many(job))
            continue
        if "source" in job:
            message, built = _compile(job)
            connection.send(message)
            if built is None:
                continue
            job = {**job, **built}
        try:
            reply = {"status": "ok", **harness.run(job)}
        except Fault as exc:
            connection.send({"status": "fault", "message": str(exc)})
            os._exit(3)   # skip CuPy's teardown, which would touch the broken context
        except Exception as exc:
            reply = {"status": "error", "message": f"{type(exc).__name__}: {exc}"}
        reply["worker_seconds"] = time.perf_counter() - started
        connection.send(reply)


def _compile(job: dict):
    """Compile a job's source here (the caller bounds the time): (message for the caller, the job's
    cubin fields or None). A launch plan's kernels are each compiled from the one source; the cubins
    stay in this process."""
    from kernelscope.errors import KernelscopeError
    from kernelscope.runner.compile import CompileError, compile_kernel

    plan = job.get("plan")
    names = list(plan.kernels) if plan is not None else [job.get("kernel")]
    try:
        built = [compile_kernel(job["source"], name, arch=job.get("arch"), backend=job.get("backend", "nvrtc"))
                 for name in names]
    except CompileError as exc:
        return {"status": "compile_error", "message": str(exc).splitlines()[0], "log": exc.log}, None
    except KernelscopeError as exc:
        return {"status": "error", "message": str(exc)}, None
    meta = {"kernel": "+".join(plan.kernels) if plan is not None else built[0].kernel,
            "log": "\n".join(dict.fromkeys(c.log for c in built if c.log)),
            "seconds": sum(c.seconds for c in built), "cached": all(c.cached for c in built)}
    if plan is None:
        return {"status": "compiled", "compiled": meta}, {"cubin": built[0].cubin, "lowered_name": built[0].lowered_name}
    cubins = list(dict.fromkeys(c.cubin for c in built))   # extern "C" kernels of one source share a cubin
    symbols = {c.kernel: (cubins.index(c.cubin), c.lowered_name) for c in built}
    return {"status": "compiled", "compiled": meta}, {"cubins": cubins, "symbols": symbols}


def _compile_many(job: dict) -> dict:
    """Compile several sources in parallel threads into this worker's cache, so that the jobs that
    follow find them compiled; per source, None (compiled) or the compile error's message and log."""
    from kernelscope.runner.compile import CompileError, compile_many

    built = compile_many(job["compile_many"], arch=job.get("arch"), backend=job.get("backend", "nvrtc"))
    return {"status": "ok", "errors": [None if not isinstance(b, CompileError) else
                                       {"message": str(b).splitlines()[0], "log": b.log} for b in built]}


if __name__ == "__main__":
    _serve(Connection(int(sys.argv[1])), int(sys.argv[2]))
