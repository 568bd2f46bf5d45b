"""Per-kernel resource usage: registers, spills, stack, static shared memory, barriers.

The real numbers come from ptxas (`nvcc -cubin -Xptxas -v`), cached on disk by a hash of the source
and the options. Without nvcc, `estimate_usage` guesses registers from the kernel record; its error
against ptxas is measured by benchmarks/bench_estimator.py (profiles/measured/estimator_error.csv).
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import field, replace
from operator import mul
from pathlib import Path
from typing import Iterable, Mapping, Optional

from kernelscope.errors import InputError, ToolMissingError
from kernelscope.limits import LimitExceeded, env_limit, run_limited
from kernelscope.records import record

# nvcc runs on untrusted source: a ceiling on its time and memory keeps `analyze` bounded (past it,
# --registers auto falls back to the estimate with a note). Normal kernels compile in 1-3 s.
PTXAS_TIMEOUT_S = env_limit("KERNELSCOPE_NVCC_TIMEOUT_S", 60.0)
PTXAS_MEMORY_BYTES = int(env_limit("KERNELSCOPE_NVCC_MEMORY_MB", 2048) * 2 ** 20)
_CACHE_VERSION = 1


class CompileError(InputError):
    """nvcc rejected the source; the message carries its first error lines."""


@record(frozen=True)
class ResourceUsage:
    registers: int
    spill_stores: int = 0              # bytes per thread
    spill_loads: int = 0
    stack_bytes: int = 0
    static_shared_bytes: int = 0
    constant_bytes: int = 0
    barriers: int = 0                  # hardware barriers the kernel uses (named barrier ids + 1)
    source: str = "ptxas"              # ptxas | estimate
    symbol: str = ""                   # mangled entry name ("" for estimates)
    instantiation: str = ""            # demangled name with template arguments, e.g. "ns::reduce<256>"
    instantiations: tuple = field(default=(), repr=False)  # ((instantiation, ResourceUsage), ...) for templates

    @property
    def spills(self) -> bool:
        return bool(self.spill_stores or self.spill_loads)

    def for_template_args(self, args) -> Optional["ResourceUsage"]:
        """The instantiation whose template arguments are `args` (texts as written at a launch site,
        e.g. ("256", "float")), or None when ptxas compiled no such instantiation."""
        wanted = _without_spaces(", ".join(str(a) for a in args))
        for name, usage in self.instantiations:
            if _without_spaces(_template_args(name)) == wanted:
                return usage
        return None

    def to_json(self) -> dict:
        """The fields but `instantiations`, in their order, then the instantiations' own, if any."""
        # Written out: a comprehension over dataclasses.fields() cost a third of the whole kernel's
        # JSON document (tests/test_clifast2_document.py holds this to the fields)
        out = {"registers": self.registers, "spill_stores": self.spill_stores, "spill_loads": self.spill_loads,
               "stack_bytes": self.stack_bytes, "static_shared_bytes": self.static_shared_bytes,
               "constant_bytes": self.constant_bytes, "barriers": self.barriers, "source": self.source,
               "symbol": self.symbol, "instantiation": self.instantiation}
        if self.instantiations:
            out["instantiations"] = {name: usage.to_json() for name, usage in self.instantiations}
        return out


# ---------------------------------------------------------------------------------------------------
# Parsing ptxas -v output

_ENTRY = re.compile(r"Compiling entry function '([^']+)' for '([^']+)'")
_PROPERTIES = re.compile(r"Function properties for (\S+)")
_FRAME = re.compile(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads")
_USED = re.compile(r"Used (\d+) registers")
_BARRIERS = re.compile(r"used (\d+) barriers")
_SMEM = re.compile(r"(\d+) bytes smem")
_CMEM = re.compile(r"(\d+) bytes cmem\[0\]")
_CUMULATIVE_STACK = re.compile(r"(\d+) bytes cumulative stack size")


def parse_ptxas_log(log: str) -> dict[str, ResourceUsage]:
    """Usage per mangled entry name from the text `nvcc -Xptxas -v` prints on stderr."""
    entries: dict[str, dict] = {}
    frames: dict[str, tuple] = {}
    entry = properties_of = None
    for line in log.splitlines():
        if match := _ENTRY.search(line):
            entry = match.group(1)
            entries[entry] = {"registers": 0}
        elif match := _PROPERTIES.search(line):
            properties_of = match.group(1)
        elif match := _FRAME.search(line):
            # Device functions that were not inlined get a frame line too; keep it under their own name.
            frames[properties_of or entry] = tuple(int(g) for g in match.groups())
        elif entry and (match := _USED.search(line)):
            record = entries[entry]
            record["registers"] = int(match.group(1))
            record["barriers"] = _int(_BARRIERS, line)
            record["static_shared_bytes"] = _int(_SMEM, line)
            record["constant_bytes"] = _int(_CMEM, line)
            record["cumulative_stack"] = _int(_CUMULATIVE_STACK, line)
    usages = {}
    for name, record in entries.items():
        stack, spill_stores, spill_loads = frames.get(name, (0, 0, 0))
        cumulative = record.pop("cumulative_stack", 0)
        usages[name] = ResourceUsage(spill_stores=spill_stores, spill_loads=spill_loads,
                                     stack_bytes=max(stack, cumulative), symbol=name, **record)
    return usages


def _int(pattern: re.Pattern, text: str) -> int:
    match = pattern.search(text)
    return int(match.group(1)) if match else 0


# ---------------------------------------------------------------------------------------------------
# Names: mangled symbol -> "ns::kernel<256>" -> key "kernel"


def demangle(symbols: Iterable[str]) -> dict[str, str]:
    """Demangled names (with parameter lists) of C++ symbols; C names map to themselves."""
    symbols = list(symbols)
    mangled = [s for s in symbols if s.startswith("_Z")]
    names = {s: s for s in symbols}
    if mangled:
        names.update(zip(mangled, _demangle_all(mangled)))
    return names


def _demangle_all(mangled: list[str]) -> list[str]:
    import shutil   # (shutil.which: here, as in nvcc_path)

    for tool in ("cu++filt", "c++filt"):
        path = shutil.which(tool)
        if path:
            try:
                done = run_limited([path], what=tool, input="\n".join(mangled) + "\n", timeout_s=30,
                                   memory_bytes=PTXAS_MEMORY_BYTES)
            except (LimitExceeded, OSError):
                continue
            lines = done.stdout.splitlines()
            if done.returncode == 0 and len(lines) == len(mangled):
                return lines
    return [_cxa_demangle(name) for name in mangled]


def _cxa_demangle(symbol: str) -> str:
    """libstdc++'s demangler, for machines with neither cu++filt nor c++filt."""
    import ctypes
    import ctypes.util

    library = ctypes.util.find_library("stdc++")
    if library is None:
        return symbol
    libstdcxx = ctypes.CDLL(library)
    function = libstdcxx.__cxa_demangle
    function.restype = ctypes.c_void_p
    status = ctypes.c_int()
    pointer = function(symbol.encode(), None, None, ctypes.byref(status))
    if not pointer or status.value != 0:
        return symbol
    try:
        return ctypes.string_at(pointer).decode()
    finally:
        ctypes.CDLL(ctypes.util.find_library("c")).free(ctypes.c_void_p(pointer))


_INT_CAST = re.compile(r"\(int\)(-?\d+)")


def normalise_instantiation(name: str) -> str:
    """cu++filt writes an int template argument as "(int)256", c++filt as "256"; use the latter."""
    return _INT_CAST.sub(r"\1", name)


def split_demangled(name: str) -> tuple[str, str]:
    """("ns::reduce<256>", "reduce") from "void ns::reduce<256>(float const*, float*)"."""
    name = normalise_instantiation(name)
    depth = 0
    end = len(name)
    for index, char in enumerate(name):
        if char in "<([":
            if char == "(" and depth == 0:
                end = index
                break
            depth += 1
        elif char in ">)]":
            depth -= 1
    head = name[:end].strip()
    qualified = _last_top_level_word(head)
    plain = _strip_template_args(qualified)
    return qualified, plain.rsplit("::", 1)[-1]


def _last_top_level_word(text: str) -> str:
    """Drop a leading return type ("void ") that demanglers print for template functions."""
    depth = 0
    for index in range(len(text) - 1, -1, -1):
        char = text[index]
        if char in ">)]":
            depth += 1
        elif char in "<([":
            depth -= 1
        elif char == " " and depth == 0:
            return text[index + 1:]
    return text


def _without_spaces(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _template_args(name: str) -> str:
    """"256, float" from "ns::reduce<256, float>"."""
    plain = _strip_template_args(name)
    return name[len(plain) + 1:-1] if plain != name else ""


def _strip_template_args(name: str) -> str:
    if not name.endswith(">"):
        return name
    depth = 0
    for index in range(len(name) - 1, -1, -1):
        if name[index] == ">":
            depth += 1
        elif name[index] == "<":
            depth -= 1
            if depth == 0:
                return name[:index]
    return name


def group_by_kernel(usages: Mapping[str, ResourceUsage], names: Optional[Mapping[str, str]] = None
                    ) -> dict[str, ResourceUsage]:
    """Key usages by the kernel name as written in the source. Templates and overloads share a name:
    the entry under that name is the instantiation with the most registers (the one whose occupancy
    is worst), and every instantiation is kept in its `instantiations`. `names`: demangled names
    per symbol when already known."""
    names = names or demangle(usages)
    groups: dict[str, list] = {}
    for symbol, usage in usages.items():
        qualified, plain = split_demangled(names[symbol])
        groups.setdefault(plain, []).append(replace(usage, instantiation=qualified))
    result = {}
    for plain, members in groups.items():
        worst = max(members, key=lambda u: (u.registers, u.static_shared_bytes))
        if len(members) > 1 or "<" in worst.instantiation:
            members.sort(key=lambda u: u.instantiation)
            worst = replace(worst, instantiations=tuple((u.instantiation, u) for u in members))
        result[plain] = worst
    return result


# ---------------------------------------------------------------------------------------------------
# Running nvcc


def nvcc_path() -> Optional[str]:
    import shutil   # here, not at import: `analyze --registers estimate` looks for no tool

    return shutil.which("nvcc")


def nvcc_available() -> bool:
    return nvcc_path() is not None


def sm_name(arch) -> str:
    """"sm_90" from "sm_90", "90", "9.0"; feature suffixes ("sm_90a") survive."""
    text = str(arch).strip().lower()
    if re.fullmatch(r"sm_\d{2,3}[af]?", text):
        return text
    from kernelscope.profiles_db import arch as lookup_arch
    return lookup_arch(text).sm


def cache_dir() -> Path:
    root = os.environ.get("KERNELSCOPE_CACHE_DIR") or os.path.join(os.path.expanduser("~"), ".cache",
                                                                    "kernelscope")
    return Path(root) / "ptxas"


def _command(nvcc: str, arch: str, source: Path, output: Path, defines, maxrregcount, include_dirs,
             extra_options) -> list[str]:
    command = [nvcc, f"-arch={arch}", "-cubin", "-Xptxas", "-v", "-o", str(output)]
    for name, value in _define_items(defines):
        command.append(f"-D{name}" if value is None else f"-D{name}={value}")
    if maxrregcount is not None:
        command.append(f"-maxrregcount={int(maxrregcount)}")
    command += [f"-I{d}" for d in include_dirs]
    command += list(extra_options)
    command.append(str(source))
    return command


def _define_items(defines) -> list[tuple]:
    if not defines:
        return []
    items = defines.items() if isinstance(defines, Mapping) else \
        [(d.split("=", 1) + [None])[:2] for d in defines]
    return sorted((str(k), None if v is None else str(v)) for k, v in items)


def _cache_key(source_text, arch, defines, maxrregcount, filename, include_dirs, extra_options, nvcc) -> str:
    import hashlib   # here and below: only the ptxas path needs these; `analyze --registers estimate` starts faster

    stat = os.stat(nvcc)
    material = json.dumps({
        "version": _CACHE_VERSION, "source": source_text, "arch": arch, "defines": _define_items(defines),
        "maxrregcount": maxrregcount, "filename": filename, "include_dirs": [str(d) for d in include_dirs],
        "extra": list(extra_options), "nvcc": [nvcc, stat.st_size, stat.st_mtime_ns],
    }, sort_keys=True)
    return hashlib.sha256(material.encode()).hexdigest()


def ptxas_log(source_text: str, arch="sm_90", defines=None, maxrregcount=None, filename="kernel.cu",
              include_dirs=(), extra_options=(), timeout=PTXAS_TIMEOUT_S) -> str:
    """The raw `-Xptxas -v` report for a source (cached)."""
    return _report(source_text, arch, defines, maxrregcount, filename, include_dirs, extra_options,
                   timeout)["log"]


def _report(source_text, arch, defines, maxrregcount, filename, include_dirs, extra_options, timeout) -> dict:
    """{"log": ptxas report, "names": demangled name per entry}, from the cache when it has them."""
    nvcc = nvcc_path()
    if nvcc is None:
        raise ToolMissingError("nvcc is not on PATH; use --registers estimate or install the CUDA toolkit")
    arch = sm_name(arch)
    key = _cache_key(source_text, arch, defines, maxrregcount, filename, include_dirs, extra_options, nvcc)
    cached = cache_dir() / f"{key}.json"
    try:
        return json.loads(cached.read_text())
    except (OSError, ValueError):
        pass
    log = _compile(nvcc, source_text, arch, defines, maxrregcount, filename, include_dirs, extra_options,
                   timeout)
    report = {"log": log, "names": demangle(parse_ptxas_log(log))}
    _write_atomically(cached, json.dumps(report))
    return report


def _compile(nvcc, source_text, arch, defines, maxrregcount, filename, include_dirs, extra_options,
             timeout) -> str:
    import tempfile

    with tempfile.TemporaryDirectory(prefix="kernelscope-ptxas-") as work:
        source = Path(work) / Path(filename).name
        source.write_text(source_text)
        command = _command(nvcc, arch, source, Path(work) / "out.cubin", defines, maxrregcount,
                           include_dirs, extra_options)
        done = run_limited(command, what=f"nvcc compiling {filename}", timeout_s=timeout,
                           memory_bytes=PTXAS_MEMORY_BYTES, cwd=work)
    if done.returncode != 0:
        output = (done.stderr + done.stdout).replace(str(source), filename)
        raise CompileError(_compile_error_message(filename, output))
    return done.stderr + done.stdout


def _compile_error_message(filename: str, output: str) -> str:
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    errors = [line for line in lines if "error" in line.lower()] or lines[-1:] or ["no output"]
    return f"nvcc could not compile {filename}: {'; '.join(errors[:3])}"


def _write_atomically(path: Path, text: str) -> None:
    import tempfile

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(handle, "w") as stream:
            stream.write(text)
        os.replace(temporary, path)
    except OSError:
        pass  # an unwritable cache only costs a recompilation next time


def ptxas_usage(source_text: str, arch="sm_90", defines=None, maxrregcount=None, filename="kernel.cu",
                include_dirs=(), extra_options=(), timeout=PTXAS_TIMEOUT_S) -> dict[str, ResourceUsage]:
    """Resource usage of every kernel in a source file, keyed by the name written in the source.

    `defines`: {"N": 256} or ["N=256", "DEBUG"]. `maxrregcount` caps registers for the whole file the
    way nvcc's option does; `__launch_bounds__` in the source is honoured by ptxas itself. A template
    kernel appears once per explicit or implicit instantiation that the file produces.
    """
    report = _report(source_text, arch, defines, maxrregcount, filename, include_dirs, extra_options, timeout)
    return group_by_kernel(parse_ptxas_log(report["log"]), report["names"])


# ---------------------------------------------------------------------------------------------------
# Estimating without nvcc

# Registers per unit of each feature, fitted by non-negative least squares on the 354 kernels of this
# repository that nvcc compiles (`python benchmarks/bench_estimator.py --fit` refits and prints them);
# features that earned a zero weight are left out. Loop depth dominates: every nesting level keeps an
# induction variable, a bound and the addresses advanced in it live; unrolled loops keep their
# partial results in registers.
ESTIMATOR_WEIGHTS = {
    "base": 6.89,
    "pointer_params": 2.24,       # a 64-bit address takes two registers
    "loops": 0.57,
    "loop_depth": 7.0,
    "unrolled_loops": 3.77,
    "arith_sites": 0.55,          # floating-point operation sites, at most ARITH_SITES_CAP of them
    "local_words": 0.21,          # 4-byte words of small local arrays, which ptxas may keep in registers
}
ARITH_SITES_CAP = 24
LOCAL_WORDS_CAP = 64
MIN_REGISTERS = 8
REGISTER_FILE = 65536


# The features estimate_usage weighs, in the order it adds them up
FEATURES = ("base", "pointer_params", "loops", "loop_depth", "unrolled_loops", "arith_sites", "local_words")


def estimator_features(kernel) -> dict:
    """The counts `estimate_usage` weighs, read from a kernelscope.model.Kernel."""
    return dict(zip(FEATURES, _feature_counts(kernel, sum(kernel.local_arrays.values()))))


def _feature_counts(kernel, local_bytes: int) -> tuple:
    """estimator_features' values in FEATURES order, counted in plain loops: estimate_usage runs for
    every kernel, and a generator expression a count cost more than the rest of the estimate."""
    pointers = 0
    for param in kernel.params:
        if param.is_pointer:
            pointers += 1
    depth = unrolled = 0
    for loop in kernel.loops:
        if loop.depth > depth:
            depth = loop.depth
        if loop.unrolled is not None:
            unrolled += 1
    return (1, pointers, len(kernel.loops), depth, unrolled, min(len(kernel.arith), ARITH_SITES_CAP),
            min(local_bytes // 4, LOCAL_WORDS_CAP))


def _launch_bounds_register_cap(kernel) -> int:
    """The cap ptxas derives from __launch_bounds__(max_threads, min_blocks): the register file shared
    by min_blocks blocks of max_threads, in whole 8-register steps."""
    bounds = [b for b in kernel.launch_bounds[:2] if isinstance(b, int) and b > 0]
    if not bounds:
        return 255
    threads = _round_up(bounds[0], 32)
    blocks = bounds[1] if len(bounds) > 1 else 1
    return max(MIN_REGISTERS, min(255, REGISTER_FILE // (threads * blocks) // 8 * 8))


def _round_up(value: int, unit: int) -> int:
    return -(-value // unit) * unit


def _static_shared_bytes(kernel) -> int:
    total = 0
    for array in kernel.shared_arrays:
        if array.dynamic or not all(isinstance(d, int) for d in array.dims):
            continue
        total += array.static_bytes
    return total


def estimate_usage(kernel) -> ResourceUsage:
    """A register estimate for machines without nvcc (median error against ptxas in
    profiles/measured/estimator_error.csv). Shared memory and barriers come straight from the record."""
    local_bytes = sum(kernel.local_arrays.values())
    # each weight times its feature, added up in FEATURES order (as a sum over estimator_features' items)
    registers = round(sum(map(mul, _WEIGHTS_IN_ORDER, _feature_counts(kernel, local_bytes))))
    registers = min(max(registers, MIN_REGISTERS), _launch_bounds_register_cap(kernel))
    barriers = 0
    for barrier in kernel.barriers:
        if barrier.kind.startswith("syncthreads"):
            barriers = 1
            break
    return ResourceUsage(registers=registers, stack_bytes=local_bytes if local_bytes > LOCAL_WORDS_CAP * 4 else 0,
                         static_shared_bytes=_static_shared_bytes(kernel), barriers=barriers, source="estimate",
                         instantiation=kernel.name)


_WEIGHTS_IN_ORDER = tuple(ESTIMATOR_WEIGHTS[name] for name in FEATURES)
