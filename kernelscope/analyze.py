"""The whole static analysis of one file: front end, then every analysis for every kernel.

`analyze_source` / `analyze_path` are what the CLI, the linter, feature extraction and the RL
reward call. Results hold the records and render to the kernelscope.analysis/1 document
(kernelscope/schemas/analysis-1.schema.json, described in docs/json-schema.md).
"""

from __future__ import annotations

import functools
import operator
import os

import numpy as np
from dataclasses import field

from kernelscope import symbolic as sx
from kernelscope.analyses import intensity as intensity_analysis
from kernelscope.analyses import memory as memory_analysis
from kernelscope.analyses.threads import BlockShape, shared_launch
from kernelscope.analyses.trips import ExecWeights
from kernelscope.identity_cache import IdentityCache
from kernelscope.gc_tuning import settle
from kernelscope.frontend import parse_file, read_source
from kernelscope import rules
from kernelscope.model import SourceError
from kernelscope.records import record

SCHEMA = "kernelscope.analysis/1"
DEFAULT_BLOCK = (256, 1, 1)
REGISTER_MODES = ("auto", "ptxas", "estimate")


@record
class Options:
    arch: str = "sm_90"
    block: tuple | None = None          # assumed where no launch site gives one
    grid: tuple | None = None           # likewise for the grid (gridDim in grid-stride loops, totals)
    bindings: dict = field(default_factory=dict)
    types: dict = field(default_factory=dict)   # template type parameter -> type (--type T=float)
    defines: dict = field(default_factory=dict)
    registers: str = "auto"
    dynamic_smem: int | None = None
    preprocess: str = "builtin"
    enabled: object = None              # rule code -> bool; the checks of rules it turns off are skipped (lint)
    plan: bool = False                  # a /* kernelscope:plan */ comment's launches give block and grid


@record
class KernelResult:
    kernel: object                      # model.Kernel
    block: BlockShape
    block_source: str                   # launch | plan | option | launch_bounds | default
    grid: tuple | None
    memory: object
    occupancy: object = None
    intensity: object = None
    sync: object = None
    resources: object = None
    diagnostics: list = field(default_factory=list)
    launches: list = field(default_factory=list)    # LaunchResult per launch site with its own shape
    path: str = ""
    rejected_launches: list = field(default_factory=list)   # RejectedLaunch: sites whose block no GPU runs
    plan: dict | None = None            # the launch-plan launch it was analysed with (Options.plan)

    def to_json(self) -> dict:
        k = self.kernel
        accesses = self.memory.accesses
        return {
            "name": k.name,
            "line": k.line,
            "column": k.column,
            "block": self.block.as_list(),
            "block_source": self.block_source,
            "grid": list(self.grid) if self.grid else None,
            "template_params": list(k.template_params),
            # most kernels are no templates and launch once: the empty fields skip their
            # comprehensions (tests/test_docfast11_document.py compares with the plain ones)
            "template_instantiations": ([list(t) for t in k.template_instantiations]
                                        if k.template_instantiations else []),
            "template_types": ({name: {"type": bound, "source": source}
                                for name, (bound, source) in k.template_types.items()}
                               if k.template_types else {}),
            "launch_bounds": list(k.launch_bounds),
            "extern_c": k.extern_c,
            "params": [{"name": p.name, "type": p.type_name, "pointer": p.is_pointer, "const": p.is_const,
                        "restrict": p.is_restrict, "elem_bytes": p.elem_bytes} for p in k.params],
            "accesses": [a.to_json() for a in accesses] if accesses else [],
            "occupancy": _occupancy_json(self.occupancy) if self.occupancy is not None else None,
            "intensity": self.intensity.to_json() if self.intensity is not None else None,
            "sync": self.sync.to_json() if self.sync is not None else None,
            "divergence": self.memory.divergence_json(),
            "resources": self.resources.to_json() if self.resources is not None else None,
            "loops": [{"line": loop.line, "kind": loop.kind, "var": loop.var, "depth": loop.depth,
                       "unroll": loop.unrolled, "thread_dependent": loop.thread_dependent}
                      for loop in k.loops] if k.loops else [],
            "shared_arrays": [{"name": s.name, "elem_bytes": s.elem_bytes, "dims": list(s.dims),
                               "dynamic": s.dynamic, "bytes": s.static_bytes}
                              for s in k.shared_arrays] if k.shared_arrays else [],
            "launches": [launch.to_json() for launch in self.launches] if self.launches else [],
            **({"plan": self.plan} if self.plan is not None else {}),
        }


@record(frozen=True)
class RejectedLaunch:
    """A launch site whose block has more threads than any GPU runs (KS303 reports it)."""
    line: int
    column: int
    threads: int
    limit: int


@record(frozen=True)
class LaunchResult:
    """What one launch shape of a kernel gets when the file launches it with several: the report
    above models the first; each shape's block decides its own coalescing and occupancy."""
    line: int
    column: int
    block: tuple
    grid: tuple | None
    dynamic_shared_bytes: int
    load_sectors_per_request: float | None
    store_sectors_per_request: float | None
    active_blocks_per_sm: int | None
    theoretical_occupancy: float | None

    def to_json(self) -> dict:
        def rounded(value):
            return None if value is None else round(value, 4)
        return {"line": self.line, "column": self.column, "block": list(self.block),
                "grid": list(self.grid) if self.grid else None, "dynamic_shared_bytes": self.dynamic_shared_bytes,
                "sectors_per_request": {"load": rounded(self.load_sectors_per_request),
                                        "store": rounded(self.store_sectors_per_request)},
                "active_blocks_per_sm": self.active_blocks_per_sm,
                "theoretical_occupancy": rounded(self.theoretical_occupancy)}


@record
class FileResult:
    path: str
    errors: list
    kernels: list
    diagnostics: list
    model: object = None                # the front end's FileModel
    notes: list = field(default_factory=list)   # things worth knowing that are not errors

    def to_json(self) -> dict:
        return {**self.head_json(), "kernels": [k.to_json() for k in self.kernels]}

    def head_json(self) -> dict:
        """to_json without its last key, the kernels (which analysis_json.report_pieces encodes one by one)."""
        return {"path": self.path, "errors": [e.to_json() for e in self.errors], "notes": list(self.notes)}

    @property
    def has_errors(self) -> bool:
        return any(d.severity == "error" for d in self.diagnostics)


def document(results: list[FileResult]) -> dict:
    """The JSON document of `kernelscope analyze --format json`."""
    return {
        "schema": SCHEMA,
        "files": [r.to_json() for r in results],
        "diagnostics": [d.to_json() for r in results for d in r.diagnostics],
    }


def analyze_path(path, options: Options | None = None, **kwargs) -> FileResult:
    source = read_source(path)
    return analyze_source(source.text, str(path), options, **kwargs)


def analyze_source(text: str, path: str = "<string>", options: Options | None = None, **kwargs) -> FileResult:
    """Analyse CUDA source text. Keyword arguments override fields of `options`
    (arch, block, bindings, defines, registers, dynamic_smem, preprocess)."""
    options = _options(options, kwargs)
    # Index arithmetic on placeholder values may overflow int64; C would wrap silently too.
    with np.errstate(all="ignore"):
        return _analyze(text, path, options)


def _analyze(text: str, path: str, options: Options) -> FileResult:
    model = parse_file(text, path, options.defines, options.arch, options.preprocess, options.types)
    notes = list(model.notes)           # the front end's, then the analyses' own
    usages = _resource_usage(model, text, path, options, notes)
    planned, plan_errors = _planned_launches(text, options, model)
    results = []
    for kernel in model.kernels:
        results.append(analyze_kernel(kernel, options, usages.get(kernel.name), path, planned.get(kernel.name, ())))
        settle()
    # what the front end could not model of a kernel is reported with the file's errors
    errors = list(model.errors) + plan_errors + [SourceError(k.line, k.column, f"{k.name}: {note}")
                                                 for k in model.kernels for note in k.notes]
    result = FileResult(path, errors, results, [], model, notes)
    result.diagnostics = rules.check_file(result, options.enabled)
    return result


def _options(options: Options | None, overrides: dict) -> Options:
    options = Options(**vars(options)) if options is not None else Options()
    for name, value in overrides.items():
        if not hasattr(options, name):
            raise TypeError(f"unknown analysis option {name!r}")
        if value is not None:
            setattr(options, name, value)
    options.bindings = dict(options.bindings or {})
    options.defines = dict(options.defines or {})
    options.types = dict(options.types or {})
    if options.registers not in REGISTER_MODES:
        from kernelscope.errors import UsageError
        raise UsageError(f"--registers must be one of {', '.join(REGISTER_MODES)}")
    return options


def analyze_kernel(kernel, options: Options, usage, path: str, planned=()) -> KernelResult:
    bindings = {**{k: v for k, v in kernel.template_bindings.items() if isinstance(v, int)}, **options.bindings}
    sites = _site_dims(kernel, bindings)
    block, block_source, grid, dynamic_smem = _launch_shape(kernel, options, sites, planned[:1])
    # one set of trip counts for both analyses that weigh statements by how often they run
    weights = _exec_weights(block, grid, bindings)
    memory = memory_analysis.analyze(kernel, block, bindings, grid, weights)
    result = KernelResult(kernel, block, block_source, grid, memory, path=path,
                          rejected_launches=_rejected_launches(sites))
    threads = block.threads * grid[0] * grid[1] * grid[2] if grid else None
    result.intensity = intensity_analysis.analyze(kernel, memory, weights, _roofline_gpu(options.arch),
                                                  threads)
    result.resources = usage
    result.occupancy = _occupancy(kernel, block, usage, dynamic_smem, options)
    result.sync = _sync(kernel, block, bindings, grid, block_source == "default")
    result.diagnostics = rules.check_kernel(result, options.enabled)
    result.launches = _launch_results(kernel, options, bindings, sites, result, usage)
    if planned:
        result.plan = _plan_json(planned)
    return result


def _exec_weights(block: BlockShape, grid, bindings: dict) -> ExecWeights:
    """ExecWeights on thread_env(block, grid, bindings), whose env and signature kernels of one
    launch shape and bindings share."""
    env, signature, slots, active = shared_launch(block, grid, bindings)
    return ExecWeights(env, slots, active, signature)


def _planned_launches(text: str, options: Options, model) -> tuple[dict, list]:
    """kernel name -> its launches (runner.plan.LaunchShape) in the source's launch plan, and what is
    wrong with the plan (SourceError), when Options.plan asks for it."""
    if not options.plan or "kernelscope:plan" not in text:
        return {}, []
    from kernelscope.runner.plan import PlanError, launch_shapes, plan_line

    try:
        shapes = launch_shapes(text, options.bindings)
    except PlanError as exc:
        return {}, [SourceError(plan_line(text), 1, str(exc))]
    defined = {k.name for k in model.kernels}
    errors = [SourceError(plan_line(text), 1, f"launch plan: launch #{s.number} names no __global__ function "
                                              f"{s.kernel!r} in this file") for s in shapes if s.kernel not in defined]
    planned = {}
    for shape in shapes:
        planned.setdefault(shape.kernel, []).append(shape)
    return {name: tuple(found) for name, found in planned.items()}, errors


def _plan_json(planned) -> dict:
    """Which plan launch the report models (the kernel's first), its others, and what did not resolve."""
    first = planned[0]
    return {"launch": first.number, "other_launches": [s.number for s in planned[1:]],
            "unresolved": {key: list(names) for key, names in first.missing.items()}}


@functools.lru_cache(maxsize=16)
def _roofline_gpu(arch: str):
    """The GPU whose roofline the intensity analysis uses, looked up once per architecture rather
    than once per kernel (profiles are frozen records)."""
    return intensity_analysis.default_gpu(arch)


MAX_LAUNCH_SHAPES = 16


def _launch_results(kernel, options: Options, bindings: dict, sites: list, main: KernelResult, usage) -> list:
    """One LaunchResult per distinct launch shape (the first MAX_LAUNCH_SHAPES, at each one's first
    site) when the file launches the kernel with more than one; [] otherwise. sites: _site_dims'."""
    shapes = {}
    for site, block, grid in sites:
        if not block or _threads(block) > MAX_BLOCK_THREADS:
            continue
        smem = site.dynamic_smem if site.dynamic_smem and 0 < site.dynamic_smem < 2**31 else 0
        shape = (tuple(block), tuple(grid) if grid and max(grid) <= MAX_GRID_DIM else None, smem)
        shapes.setdefault(shape, site)
        if len(shapes) > MAX_LAUNCH_SHAPES:
            del shapes[shape]
            break
    if len(shapes) < 2:
        return []
    results = []
    for (block_dims, grid, smem), site in shapes.items():
        block = BlockShape(*block_dims)
        if block.as_list() == main.block.as_list() and grid == main.grid:
            memory = main.memory
        else:
            weights = _exec_weights(block, grid, bindings)
            memory = memory_analysis.analyze(kernel, block, bindings, grid, weights)
        occupancy = _occupancy(kernel, block, usage, options.dynamic_smem or smem, options)
        results.append(LaunchResult(site.line, site.column, block_dims, grid, options.dynamic_smem or smem,
                                    memory.mean_sectors_per_request("load"), memory.mean_sectors_per_request("store"),
                                    occupancy.active_blocks_per_sm if occupancy else None,
                                    occupancy.theoretical_occupancy if occupancy else None))
    return results


MAX_BLOCK_THREADS = 1024
MAX_GRID_DIM = 2**31 - 1


def _launch_shape(kernel, options: Options, sites: list, planned=()):
    """Block shape, where it came from, grid (when known) and dynamic shared memory: a launch site's
    (sites: _site_dims'), else the launch plan's (`planned`: the kernel's first plan launch, what of
    it resolved), else the options'. Launch sites whose block no GPU accepts (over 1024 threads) are
    skipped here; KS303 reports them."""
    block = grid = None
    source = "default"
    dynamic_smem = options.dynamic_smem
    for site, resolved, site_grid in sites:
        if resolved and _threads(resolved) <= MAX_BLOCK_THREADS:
            block, source = resolved, "launch"
            grid = site_grid
            if grid and any(g > MAX_GRID_DIM for g in grid):
                grid = None
            if dynamic_smem is None and site.dynamic_smem and 0 < site.dynamic_smem < 2**31:
                dynamic_smem = site.dynamic_smem
            break
    for shape in planned if block is None else ():
        if shape.block is not None:
            block, source = shape.block, "plan"
        grid = shape.grid
        if dynamic_smem is None and shape.dynamic_smem:
            dynamic_smem = shape.dynamic_smem
    if block is None and options.block:
        block, source = tuple(options.block), "option"
    if grid is None and options.grid:
        grid = tuple(options.grid)
    if block is None and kernel.launch_bounds and isinstance(kernel.launch_bounds[0], int) and \
            0 < kernel.launch_bounds[0] <= MAX_BLOCK_THREADS:
        block, source = (kernel.launch_bounds[0], 1, 1), "launch_bounds"
    if block is None:
        block = DEFAULT_BLOCK
    return BlockShape(*block), source, grid, dynamic_smem or 0


def _threads(dims) -> int:
    return dims[0] * dims[1] * dims[2]


def _rejected_launches(sites: list) -> list:
    """Launch sites whose block has more threads than any GPU runs (sites: _site_dims')."""
    rejected = []
    for site, dims, _ in sites:
        if dims and _threads(dims) > MAX_BLOCK_THREADS:
            rejected.append(RejectedLaunch(site.line, site.column, _threads(dims), MAX_BLOCK_THREADS))
    return rejected


def _site_dims(kernel, bindings: dict) -> list:
    """(site, block, grid) of each of the kernel's launch sites: the block's and the grid's sizes
    with the bindings where they resolve, else the site's own (its constant sizes, or None). Made
    once a kernel for _launch_shape, _rejected_launches and _launch_results, which each read them.
    Without bindings a site's sizes resolve to what the front end found constant in them
    (parse._constant_dims is _resolve_dims without bindings), so they are the site's own
    (tests/test_rest23_site_dims.py compares the two)."""
    if not bindings and SITE_DIMS_WITHOUT_BINDINGS:
        return [(site, site.block, site.grid) for site in kernel.launches]
    return [(site, _resolve_dims(site.block_exprs, bindings) or site.block,
             _resolve_dims(site.grid_exprs, bindings) or site.grid) for site in kernel.launches]


# _site_dims takes a site's own sizes where there are no bindings (the switch is for tests that
# compare with resolving them)
SITE_DIMS_WITHOUT_BINDINGS = True


def _resolve_dims(exprs, bindings):
    if not exprs:
        return None
    values = [sx.try_constant(e, bindings) for e in exprs]
    if any(v is None or v <= 0 for v in values):
        return None
    return tuple(values)


def _resource_usage(model, text: str, path: str, options: Options, notes: list) -> dict:
    """Per-kernel ResourceUsage from ptxas (when asked and possible) or the estimator."""
    if not model.kernels:
        return {}
    from kernelscope import resources

    mode = options.registers
    if mode == "auto":
        import shutil   # here: `--registers estimate` looks for no tool (shutil was 1% of a fresh one-kernel run)
    use_ptxas = mode == "ptxas" or (mode == "auto" and shutil.which(os.environ.get("NVCC", "nvcc")))
    measured = {}
    if use_ptxas:
        try:
            measured = resources.ptxas_usage(text, arch=options.arch, defines=options.defines,
                                             filename=os.path.basename(path) or "kernel.cu")
        except Exception as exc:
            if mode == "ptxas":
                raise
            notes.append(f"ptxas failed, registers estimated: {str(exc).splitlines()[0][:200]}")
    usages = {}
    for kernel in model.kernels:
        usage = measured.get(kernel.name)
        if usage is None:
            usage = resources.estimate_usage(kernel)
        usages[kernel.name] = usage
    return usages


def _occupancy(kernel, block: BlockShape, usage, dynamic_smem: int, options: Options):
    if usage is None:
        return None
    static_smem = usage.static_shared_bytes if usage.source == "ptxas" else \
        sum(s.static_bytes for s in kernel.shared_arrays)
    max_threads = kernel.launch_bounds[0] if kernel.launch_bounds and isinstance(kernel.launch_bounds[0], int) \
        and 0 < kernel.launch_bounds[0] <= MAX_BLOCK_THREADS else None
    return _cached_occupancy(options.arch, block.threads, usage.registers, static_smem, dynamic_smem,
                             max(1, usage.barriers or 1), usage.source, max_threads,
                             kernel.shared_memory_opt_in)


# Occupancy results are shared between kernels with the same resources; so is their JSON (a sweep
# of 32 block sizes each). Read-only: the document is only ever encoded.
_OCCUPANCY_JSON = IdentityCache(4096)


def _occupancy_json(result) -> dict:
    return _OCCUPANCY_JSON.get(result, _TO_JSON)


_TO_JSON = operator.methodcaller("to_json")


@functools.lru_cache(maxsize=4096)
def _cached_occupancy(arch, threads, registers, static_smem, dynamic_smem, barriers, source, max_threads,
                      opt_in=None):
    """Kernels of one file often share their resource usage; the result is frozen, so share it."""
    from kernelscope.analyses import occupancy

    return occupancy.compute(arch, threads, registers, static_smem, dynamic_smem, barriers=barriers,
                             registers_source=source, max_threads_per_block=max_threads,
                             shared_memory_opt_in=opt_in)


def _sync(kernel, block: BlockShape, bindings: dict, grid, block_assumed: bool):
    from kernelscope.analyses import sync

    return sync.analyze(kernel, block=(block.x, block.y, block.z), bindings=bindings, grid=grid,
                        block_assumed=block_assumed)


