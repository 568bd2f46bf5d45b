"""Static mode's compile gate: does the candidate compile for the GPU at all?

The analyzer's front end recovers from errors and reads past names it has never seen, so without a
compiler a kernel that uses an undeclared variable or calls a host library function (`rand()`,
`std::sort`) would pass the static gates. Compiling needs no GPU: NVRTC through CuPy where CuPy is
installed, else `nvcc -cubin` where nvcc is on PATH. Either is bounded by a timeout, and verdicts are
cached by source hash (a GRPO group repeats completions).

A compile check says nothing about correctness: static mode still cannot tell a right kernel from a
wrong one (docs/rl.md).
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor, TimeoutError as FutureTimeout
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from kernelscope.errors import ToolMissingError, UsageError

BACKENDS = ("auto", "nvrtc", "nvcc", "off")
ARCH = "sm_90"            # the target GPU of the corpus (H200); any arch finds undeclared names
OPTIONS = ("-std=c++17",)
CACHE_ENTRIES = 4096


@dataclass(frozen=True)
class CompileVerdict:
    ok: bool
    log: str
    backend: str


def resolve_backend(choice: str) -> str:
    """'auto' -> 'nvrtc' when CuPy's NVRTC loads, else 'nvcc' when it is on PATH, else 'off'."""
    if choice not in BACKENDS:
        raise UsageError(f"compile_check must be one of {', '.join(BACKENDS)}, got {choice!r}")
    if choice == "auto":
        if _nvrtc_available():
            return "nvrtc"
        return "nvcc" if shutil.which("nvcc") else "off"
    if choice == "nvrtc" and not _nvrtc_available():
        raise ToolMissingError("compile_check 'nvrtc' needs CuPy with NVRTC (pip install 'kernelscope[gpu]')")
    if choice == "nvcc" and not shutil.which("nvcc"):
        raise ToolMissingError("compile_check 'nvcc' needs nvcc on PATH")
    return choice


@lru_cache(maxsize=1)
def _nvrtc_available() -> bool:
    try:
        from cupy_backends.cuda.libs import nvrtc

        nvrtc.getVersion()
        return True
    except Exception:   # no CuPy, or CuPy without a loadable NVRTC
        return False


class CompileGate:
    """`gate(code, kernel) -> CompileVerdict`; `gate.backend` is 'off' where no compiler exists."""

    def __init__(self, backend: str = "auto", timeout_s: float = 30.0):
        self.backend = resolve_backend(backend)
        self.timeout_s = timeout_s
        self._cache: dict[str, CompileVerdict] = {}
        self._lock = threading.Lock()

    def __call__(self, code: str, kernel: str | None = None) -> CompileVerdict:
        if self.backend == "off":
            return CompileVerdict(True, "", "off")
        key = hashlib.sha256(f"{self.backend}\0{kernel}\0{code}".encode()).hexdigest()
        with self._lock:
            hit = self._cache.get(key)
        if hit is not None:
            return hit
        verdict = _nvrtc(code, kernel, self.timeout_s) if self.backend == "nvrtc" else _nvcc(code, self.timeout_s)
        with self._lock:
            self._cache[key] = verdict
            while len(self._cache) > CACHE_ENTRIES:
                del self._cache[next(iter(self._cache))]
        return verdict


def _nvcc(code: str, timeout_s: float) -> CompileVerdict:
    nvcc = shutil.which("nvcc")
    if nvcc is None:
        raise ToolMissingError("the compile gate needs nvcc on PATH")
    with tempfile.TemporaryDirectory(prefix="kernelscope-gate-") as tmp:
        source = Path(tmp, "candidate.cu")
        source.write_text(code, encoding="utf-8")
        try:
            proc = subprocess.run([nvcc, "-cubin", f"-arch={ARCH}", *OPTIONS, "-o", str(Path(tmp, "candidate.cubin")),
                                   str(source)], capture_output=True, text=True, timeout=timeout_s)
        except subprocess.TimeoutExpired:
            return CompileVerdict(False, f"compilation did not finish within {timeout_s:g} s", "nvcc")
    log = (proc.stdout + proc.stderr).replace(str(source), "candidate.cu")
    return CompileVerdict(proc.returncode == 0, log, "nvcc")


_NVRTC_POOL = ThreadPoolExecutor(max_workers=4, thread_name_prefix="kernelscope-nvrtc")


def _nvrtc(code: str, kernel: str | None, timeout_s: float) -> CompileVerdict:
    """NVRTC runs in this process, so a timeout abandons the compile instead of killing it."""
    from kernelscope.runner.compile import CompileError, compile_kernel

    def compile_once():
        try:
            compile_kernel(code, kernel, arch=ARCH, backend="nvrtc", use_cache=False)
            return CompileVerdict(True, "", "nvrtc")
        except CompileError as exc:
            # Only the compiler's own failure counts: a template kernel compiles, but NVRTC cannot
            # look it up by its bare name, which is the harness's business, not a compile error.
            compiled = not str(exc).startswith("compilation failed")
            return CompileVerdict(compiled, "" if compiled else (exc.log or str(exc)), "nvrtc")

    try:
        return _NVRTC_POOL.submit(compile_once).result(timeout=timeout_s)
    except FutureTimeout:
        return CompileVerdict(False, f"compilation did not finish within {timeout_s:g} s", "nvrtc")
