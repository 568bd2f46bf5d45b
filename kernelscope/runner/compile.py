"""Compile a candidate's source to a cubin, with NVRTC (through CuPy) or nvcc, cached by source hash.

Compilation needs no GPU; `evaluate` runs it inside the GPU worker, whose caller bounds its time
(a candidate can make a compiler run for ever), and other callers may run it anywhere (the batch
layer compiles on CPU nodes, in parallel threads when asked) and ship the cubin bytes to a worker. A cubin is keyed by the hash
of everything that determines it: source, kernel name, architecture, backend, options and compiler
version; hits come from memory first, then from the on-disk cache.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

from kernelscope.errors import KernelscopeError, ToolMissingError
from kernelscope.runner.source_policy import kernel_names

BACKENDS = ("nvrtc", "nvcc")
DEFAULT_OPTIONS = ("-std=c++17",)
_MEMORY_CACHE: dict[str, "CompiledKernel"] = {}
_MEMORY_CACHE_LIMIT = 512
NVCC_TIMEOUT_S = 300       # a backstop: the worker's caller enforces the job's own, shorter limit


class CompileError(KernelscopeError):
    """The source does not compile; `log` holds the compiler's messages."""

    def __init__(self, message: str, log: str = ""):
        super().__init__(message)
        self.log = log


@dataclass(frozen=True)
class CompiledKernel:
    cubin: bytes
    kernel: str               # the name as written in the source
    lowered_name: str         # the symbol in the cubin (mangled for C++ linkage)
    arch: str
    backend: str
    log: str
    key: str
    seconds: float            # compile time; 0.0 ... for cache hits is the lookup time
    cached: bool = False


def compile_kernel(source: str, kernel: str | None = None, *, arch: str | None = None,
                   backend: str = "nvrtc", options=(), cache_dir=None, use_cache: bool = True) -> CompiledKernel:
    """Compile `source` and return the cubin of `kernel` (the only __global__ function when None)."""
    started = time.perf_counter()
    if backend not in BACKENDS:
        raise KernelscopeError(f"unknown compile backend {backend!r} (use {' or '.join(BACKENDS)})")
    kernel = kernel or _only_kernel(source)
    arch = arch or default_arch()
    options = tuple(DEFAULT_OPTIONS) + tuple(options)
    key = _cache_key(source, kernel, arch, backend, options)
    if use_cache:
        hit = _MEMORY_CACHE.get(key) or _read_disk(key, cache_dir)
        if hit is not None:
            _remember(hit)
            return replace(hit, seconds=time.perf_counter() - started, cached=True)
    if backend == "nvrtc":
        cubin, lowered, log = _nvrtc(source, kernel, arch, options)
    else:
        cubin, lowered, log = _nvcc(source, kernel, arch, options)
    result = CompiledKernel(cubin=cubin, kernel=kernel, lowered_name=lowered, arch=arch, backend=backend,
                            log=log, key=key, seconds=time.perf_counter() - started)
    if use_cache:
        _remember(result)
        _write_disk(result, cache_dir)
    return result


def compile_many(requests, *, workers: int | None = None, **kwargs) -> list:
    """Compile several (source, kernel) pairs in parallel threads (NVRTC and nvcc release the GIL).

    Returns, in order, a CompiledKernel or the CompileError raised for each request.
    """
    def one(request):
        source, kernel = request
        try:
            return compile_kernel(source, kernel, **kwargs)
        except CompileError as exc:
            return exc

    requests = list(requests)
    with ThreadPoolExecutor(max_workers=workers or min(16, os.cpu_count() or 4)) as pool:
        return list(pool.map(one, requests))


@lru_cache(maxsize=None)
def default_arch() -> str:
    """sm_XY of GPU 0, or sm_90 (the H200) when there is no GPU to ask."""
    try:
        import cupy

        return f"sm_{cupy.cuda.Device(0).compute_capability}"    # "90" on the H200
    except Exception:
        return "sm_90"


def _only_kernel(source: str) -> str:
    names = list(dict.fromkeys(kernel_names(source)))
    if len(names) != 1:
        found = ", ".join(names) if names else "none"
        raise CompileError(f"name the kernel to run: the source defines {len(names)} __global__ "
                           f"functions ({found})")
    return names[0]


def _nvrtc(source, kernel, arch, options):
    try:
        from cupy_backends.cuda.libs import nvrtc
    except ImportError as exc:
        raise ToolMissingError(f"the nvrtc backend needs CuPy (pip install cupy-cuda13x): {exc}") from None
    flags = [f"-arch={arch}", *options]
    include = _cuda_include_dir()
    if include:
        flags.append(f"-I{include}")
    try:
        program = nvrtc.createProgram(source, "candidate.cu", (), ())
    except Exception as exc:  # the library itself is missing
        raise ToolMissingError(f"NVRTC is not available: {exc}") from None
    try:
        nvrtc.addNameExpression(program, kernel)
        try:
            nvrtc.compileProgram(program, flags)
        except nvrtc.NVRTCError:
            log = nvrtc.getProgramLog(program)
            raise CompileError(f"compilation failed:\n{log.strip()}", log) from None
        log = nvrtc.getProgramLog(program)
        try:
            lowered = nvrtc.getLoweredName(program, kernel)
        except nvrtc.NVRTCError:
            raise CompileError(f"kernel {kernel!r} is not defined in the source", log) from None
        return bytes(nvrtc.getCUBIN(program)), lowered, log
    finally:
        nvrtc.destroyProgram(program)


def _nvcc(source, kernel, arch, options):
    nvcc = shutil.which("nvcc")
    if nvcc is None:
        raise ToolMissingError("the nvcc backend needs nvcc on PATH")
    with tempfile.TemporaryDirectory(prefix="kernelscope-") as tmp:
        src, out = Path(tmp, "candidate.cu"), Path(tmp, "candidate.cubin")
        src.write_text(source, encoding="utf-8")
        try:
            proc = subprocess.run([nvcc, "-cubin", f"-arch={arch}", *options, "-o", str(out), str(src)],
                                  capture_output=True, text=True, timeout=NVCC_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            raise CompileError(f"compilation failed: nvcc ran for more than {NVCC_TIMEOUT_S} s") from None
        log = (proc.stdout + proc.stderr).replace(str(src), "candidate.cu")
        if proc.returncode != 0:
            raise CompileError(f"compilation failed:\n{log.strip()}", log)
        cubin = out.read_bytes()
    return cubin, _symbol_for(cubin, kernel, log), log


def _symbol_for(cubin: bytes, kernel: str, log: str) -> str:
    """Find the cubin symbol of `kernel`: its own name (extern "C") or an Itanium-mangled name."""
    symbols = [s.decode() for s in re.findall(rb"\.text\.([A-Za-z_$][\w$]*)\x00", cubin)]
    if kernel in symbols:
        return kernel
    plain = f"{len(kernel)}{kernel}"
    matches = [s for s in symbols if s.startswith("_Z" + plain) or (s.startswith("_ZN") and plain in s)]
    if not matches:
        raise CompileError(f"kernel {kernel!r} is not defined in the source", log)
    return matches[0]


@lru_cache(maxsize=None)
def _cuda_include_dir() -> str | None:
    try:
        import cupy

        root = cupy.cuda.get_cuda_path()
    except Exception:
        root = None
    if root and Path(root, "include", "cuda_runtime.h").is_file():
        return str(Path(root, "include"))
    return None


@lru_cache(maxsize=None)
def _compiler_version(backend: str) -> str:
    if backend == "nvrtc":
        try:
            from cupy_backends.cuda.libs import nvrtc

            return "nvrtc-%d.%d" % nvrtc.getVersion()
        except Exception:
            return "nvrtc-unknown"
    try:
        return subprocess.run(["nvcc", "--version"], capture_output=True, text=True).stdout.strip().splitlines()[-1]
    except (OSError, IndexError):
        return "nvcc-unknown"


def _cache_key(source, kernel, arch, backend, options) -> str:
    digest = hashlib.sha256()
    for part in (source, kernel, arch, backend, "\x1f".join(options), _compiler_version(backend)):
        digest.update(part.encode("utf-8"))
        digest.update(b"\x00")
    return digest.hexdigest()


def cache_directory(cache_dir=None) -> Path:
    if cache_dir is not None:
        return Path(cache_dir)
    env = os.environ.get("KERNELSCOPE_CACHE_DIR")
    return Path(env) if env else Path.home() / ".cache" / "kernelscope" / "kernels"


def _read_disk(key, cache_dir) -> CompiledKernel | None:
    folder = cache_directory(cache_dir)
    try:
        meta = json.loads((folder / f"{key}.json").read_text())
        cubin = (folder / f"{key}.cubin").read_bytes()
    except (OSError, ValueError):
        return None
    if hashlib.sha256(cubin).hexdigest() != meta.get("cubin_sha256"):
        return None      # a torn write; recompile
    return CompiledKernel(cubin=cubin, kernel=meta["kernel"], lowered_name=meta["lowered_name"],
                          arch=meta["arch"], backend=meta["backend"], log=meta["log"], key=key,
                          seconds=0.0, cached=True)


def _write_disk(result: CompiledKernel, cache_dir) -> None:
    folder = cache_directory(cache_dir)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        # write-then-rename so that concurrent compilers never see half a file
        for suffix, data in ((".cubin", result.cubin), (".json", json.dumps({
                "kernel": result.kernel, "lowered_name": result.lowered_name, "arch": result.arch,
                "backend": result.backend, "log": result.log,
                "cubin_sha256": hashlib.sha256(result.cubin).hexdigest()}).encode())):
            tmp = folder / f".{result.key}.{os.getpid()}{suffix}"
            tmp.write_bytes(data)
            os.replace(tmp, folder / f"{result.key}{suffix}")
    except OSError:
        pass    # a read-only or full disk costs speed, not correctness


def _remember(result: CompiledKernel) -> None:
    if len(_MEMORY_CACHE) >= _MEMORY_CACHE_LIMIT:
        _MEMORY_CACHE.pop(next(iter(_MEMORY_CACHE)))
    _MEMORY_CACHE[result.key] = replace(result, cached=True)
