"""Problem specs: the TOML file that says what a kernel must compute and how to launch it.

The format is documented in docs/spec-format.md; this module parses and validates it into frozen
records and binds a named size configuration into concrete shapes, scalars and launch dimensions.
Validation happens entirely on the CPU so that a broken spec fails fast, before any GPU work.
"""

from __future__ import annotations

import re
from dataclasses import field
from pathlib import Path

from kernelscope.errors import InputError
from kernelscope.records import record
from kernelscope.runner import expr

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib


class SpecError(InputError):
    """The spec file is malformed or inconsistent."""


DTYPES = ("float16", "float32", "float64", "int8", "int16", "int32", "int64",
          "uint8", "uint16", "uint32", "uint64")
FLOAT_DTYPES = ("float16", "float32", "float64")
DTYPE_BYTES = {"float16": 2, "float32": 4, "float64": 8, "int8": 1, "int16": 2, "int32": 4, "int64": 8,
               "uint8": 1, "uint16": 2, "uint32": 4, "uint64": 8}
# Scratch is bookkeeping, not a place to keep a copy of the problem: a generous cap per launch keeps
# a declared buffer from exhausting the GPU.
MAX_SCRATCH_BYTES = 1 << 30
STYLES = ("c", "pytorch")
DISTRIBUTIONS = {"uniform": 2, "normal": 2, "randint": 2}
_DISTRIBUTION = re.compile(r"^\s*([a-z]+)\s*\((.*)\)\s*$")


@record(frozen=True)
class Distribution:
    kind: str                  # uniform(lo, hi) | normal(mean, std) | randint(lo, hi), hi exclusive
    params: tuple[float, ...]

    @classmethod
    def parse(cls, text: str, where: str) -> "Distribution":
        match = _DISTRIBUTION.match(text or "")
        if not match or match.group(1) not in DISTRIBUTIONS:
            raise SpecError(f"{where}: distribution must be one of uniform(lo, hi), normal(mean, std), "
                            f"randint(lo, hi); got {text!r}")
        kind = match.group(1)
        parts = [p for p in match.group(2).split(",") if p.strip()]
        if len(parts) != DISTRIBUTIONS[kind]:
            raise SpecError(f"{where}: {kind} takes {DISTRIBUTIONS[kind]} arguments, got {text!r}")
        params = tuple(float(expr.evaluate(p, {})) for p in parts)
        if kind in ("uniform", "randint") and not params[0] < params[1]:
            raise SpecError(f"{where}: {kind} needs lo < hi, got {text!r}")
        if kind == "normal" and params[1] <= 0:
            raise SpecError(f"{where}: normal needs a positive standard deviation, got {text!r}")
        return cls(kind, params)


@record(frozen=True)
class ArraySpec:
    name: str
    dtype: str
    shape: tuple               # expressions (str) or ints over size variables
    distribution: Distribution | None = None   # inputs only
    rtol: float | None = None  # outputs only: overrides [tolerance]
    atol: float | None = None


@record(frozen=True)
class ScalarSpec:
    name: str
    dtype: str
    value: object              # expression over size variables, or a number


@record(frozen=True)
class ScratchSpec:
    """A device buffer the runner allocates for the kernel's own bookkeeping (grid-wide counters,
    decoupled look-back flags, partial sums): passed by name in `args`, never compared with the
    reference, and reset before every launch, verified or timed, so it cannot carry anything from
    one launch to the next. `zero`: filled with zero bytes; otherwise with a byte pattern that
    changes from launch to launch (the kernel must initialise what it reads)."""
    name: str
    dtype: str
    shape: tuple               # expressions (str) or ints over size variables
    zero: bool = True

    def concrete(self, names: dict) -> "ConcreteScratch":
        dims = tuple(expr.evaluate_int(d, names) for d in self.shape)
        if any(d < 0 for d in dims):
            raise SpecError(f"scratch {self.name!r} has a negative dimension {dims}")
        return ConcreteScratch(self.name, self.dtype, dims, self.zero)


@record(frozen=True)
class ConcreteScratch:
    name: str
    dtype: str
    shape: tuple[int, ...]
    zero: bool

    @property
    def nbytes(self) -> int:
        count = 1
        for dim in self.shape:
            count *= dim
        return count * DTYPE_BYTES[self.dtype]


@record(frozen=True)
class LaunchSpec:
    block: tuple
    grid: tuple
    dynamic_smem: object = 0
    args: tuple = ()
    scratch: tuple = ()        # ScratchSpec declared by this launch, on top of the spec's [[scratch]]


@record(frozen=True)
class ReferenceSpec:
    python: str | None = None  # "file.py:function"
    kernel: str | None = None  # "file.cu:kernel_name"
    arrays: str = "cupy"       # what the Python reference receives: cupy (device) or numpy (host) arrays
    launch: LaunchSpec | None = None   # launch of a reference kernel when it differs from [launch]


@record(frozen=True)
class Implementation:
    """A known implementation of the problem. How it is launched is in its file, as for any candidate:
    the `/* kernelscope:plan */` comment it carries, else the problem's [launch]."""
    file: str
    kernel: str | None          # the kernel [launch] runs; None when the file's plan names its kernels
    strategy: str = ""
    plan: object = field(default=None, compare=False)   # runner.plan.LaunchPlan of the file; None: [launch]


@record(frozen=True)
class ConcreteLaunch:
    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    dynamic_smem: int
    args: tuple[str, ...]
    scratch: tuple = ()        # ConcreteScratch of the spec's [[scratch]] and the launch's own


@record(frozen=True)
class ProblemSpec:
    name: str
    path: Path
    sizes: dict
    inputs: tuple
    outputs: tuple
    scalars: tuple
    launch: LaunchSpec
    reference: ReferenceSpec
    rtol: float
    atol: float
    style: str = "c"
    description: str = ""
    prompt_source: str | None = None
    implementations: tuple = ()
    scratch: tuple = ()        # ScratchSpec of [[scratch]], available to every launch
    flops: object = None       # expression over size variables: floating-point operations of one launch
    flops_peak: str | None = None   # the profiles/gpus.json peak_tflops key the FLOPs are held against
    raw: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def root(self) -> Path:
        return self.path.parent

    def arrays(self):
        return self.inputs + self.outputs

    def variables(self, size: str) -> dict:
        """Size variables and scalar values of one size configuration."""
        if size not in self.sizes:
            raise SpecError(f"{self.name}: unknown size {size!r} (have {', '.join(self.sizes)})")
        names = dict(self.sizes[size])
        for scalar in self.scalars:
            value = expr.evaluate(scalar.value, names)
            names[scalar.name] = float(value) if scalar.dtype in FLOAT_DTYPES else int(value)
        return names

    def shape(self, array: ArraySpec, size: str) -> tuple[int, ...]:
        names = self.sizes[size]
        dims = tuple(expr.evaluate_int(d, names) for d in array.shape)
        if any(d < 0 for d in dims):
            raise SpecError(f"{self.name}: {array.name} has a negative dimension {dims} at size {size!r}")
        return dims

    def concrete_launch(self, size: str, launch: LaunchSpec | None = None) -> ConcreteLaunch:
        launch = _merge_launch(self.launch, launch)
        names = self.variables(size)
        return ConcreteLaunch(
            grid=_dim3(launch.grid, names, f"{self.name}: grid"),
            block=_dim3(launch.block, names, f"{self.name}: block"),
            dynamic_smem=expr.evaluate_int(launch.dynamic_smem, names),
            args=tuple(launch.args),
            scratch=tuple(s.concrete(self.sizes[size]) for s in self.scratch + tuple(launch.scratch or ())),
        )

    def flop_count(self, size: str) -> float | None:
        """The problem's FLOPs at `size`, when the spec gives `flops`."""
        if self.flops is None:
            return None
        return float(expr.evaluate(self.flops, self.sizes[size]))

    def resolve(self, relative: str) -> Path:
        return (self.root / relative).resolve()

    def to_json(self) -> dict:
        return {"name": self.name, "path": str(self.path), "sizes": self.sizes,
                "inputs": [a.name for a in self.inputs], "outputs": [a.name for a in self.outputs],
                "scalars": [s.name for s in self.scalars]}


def load_spec(path) -> ProblemSpec:
    """Read and validate a problem spec. `path` is the TOML file or a directory holding spec.toml."""
    path = Path(path)
    if path.is_dir():
        path = path / "spec.toml"
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SpecError(f"{path}: no such spec file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise SpecError(f"{path}: cannot read: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise SpecError(f"{path}: invalid TOML: {exc}") from None
    try:
        return parse_spec(data, path.resolve())
    except expr.ExpressionError as exc:
        raise SpecError(f"{path}: {exc}") from None


def parse_spec(data: dict, path: Path) -> ProblemSpec:
    where = str(path)
    _known_keys(data, {"name", "style", "description", "prompt_source", "sizes", "inputs", "outputs",
                       "scalars", "launch", "reference", "tolerance", "implementations", "scratch", "flops",
                       "flops_peak"}, where)
    name = _required(data, "name", str, where)
    style = data.get("style", "c")
    if style not in STYLES:
        raise SpecError(f"{where}: style must be one of {', '.join(STYLES)}, got {style!r}")

    sizes = _sizes(data.get("sizes"), where)
    size_names = set(next(iter(sizes.values())))
    inputs = tuple(_array(item, i, "inputs", where) for i, item in enumerate(_table_list(data, "inputs", where)))
    outputs = tuple(_array(item, i, "outputs", where) for i, item in enumerate(_table_list(data, "outputs", where)))
    if not outputs:
        raise SpecError(f"{where}: at least one [[outputs]] entry is required")
    scalars = tuple(_scalar(item, i, where) for i, item in enumerate(data.get("scalars", [])))
    scratch = parse_scratch(data.get("scratch", []), size_names, where + ": [[scratch]]")

    names = [a.name for a in inputs + outputs] + [s.name for s in scalars] + [b.name for b in scratch]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise SpecError(f"{where}: names used twice among inputs, outputs, scalars and scratch: "
                        f"{', '.join(duplicates)}")
    for array in inputs + outputs:
        for dim in array.shape:
            _check_names(dim, size_names, f"{where}: shape of {array.name!r}")
    for scalar in scalars:
        _check_names(scalar.value, size_names, f"{where}: value of scalar {scalar.name!r}")

    launch = _launch(data.get("launch"), where + ": [launch]", required=True, size_names=size_names)
    _check_launch(launch, set(names), size_names | {s.name for s in scalars}, where + ": [launch]")
    for array in inputs + outputs:
        if array.name not in launch.args:
            raise SpecError(f"{where}: [launch].args does not pass {array.name!r} to the kernel")

    reference = _reference(data.get("reference"), where, size_names)
    if reference.launch is not None:
        merged = _merge_launch(launch, reference.launch)
        _check_launch(merged, set(names), size_names | {s.name for s in scalars}, where + ": [reference.launch]")
    tolerance = data.get("tolerance", {})
    _known_keys(tolerance, {"rtol", "atol"}, where + ": [tolerance]")
    rtol = _tolerance(tolerance.get("rtol", 1e-5), "rtol", where)
    atol = _tolerance(tolerance.get("atol", 1e-5), "atol", where)

    flops, flops_peak = _flops(data, outputs, size_names, where)
    implementations = tuple(_implementation(item, i, where)
                            for i, item in enumerate(data.get("implementations", [])))

    spec = ProblemSpec(name=name, path=path, sizes=sizes, inputs=inputs, outputs=outputs, scalars=scalars,
                       launch=launch, reference=reference, rtol=rtol, atol=atol, style=style,
                       description=data.get("description", ""), prompt_source=data.get("prompt_source"),
                       implementations=implementations, scratch=scratch, flops=flops, flops_peak=flops_peak,
                       raw=data)
    _check_files(spec, where)
    for size in sizes:       # every configuration must bind into sane shapes and launches
        for array in spec.arrays():
            spec.shape(array, size)
        if flops is not None and not spec.flop_count(size) >= 0:
            raise SpecError(f"{where}: flops gives {spec.flop_count(size)} at size {size!r}")
        _check_concrete(spec.concrete_launch(size), where, size)
    if reference.launch is not None:
        for size in sizes:
            _check_concrete(spec.concrete_launch(size, reference.launch), where, size)
    return _with_plans(spec, where)


def _with_plans(spec: ProblemSpec, where: str) -> ProblemSpec:
    """The spec with each implementation's launch plan read from its file and checked against the
    problem (every size must bind), so a broken plan fails when the spec loads."""
    from dataclasses import replace

    from kernelscope.runner.plan import PlanError, plan_from_source, replace_origin

    implementations = []
    for impl in spec.implementations:
        try:
            plan = plan_from_source(spec.resolve(impl.file).read_text(encoding="utf-8"), spec)
        except (PlanError, expr.ExpressionError) as exc:
            raise SpecError(f"{where}: implementation {impl.file}: {exc}") from None
        if plan is None and impl.kernel is None:
            raise SpecError(f"{where}: implementation {impl.file}: give 'kernel' (launched with [launch]) or "
                            "give the file a /* kernelscope:plan */ comment")
        if plan is not None and impl.kernel is not None and impl.kernel not in plan.kernels:
            raise SpecError(f"{where}: implementation {impl.file}: kernel {impl.kernel!r} is not launched by "
                            f"the file's plan (it launches {', '.join(plan.kernels)})")
        implementations.append(replace(impl, plan=plan and replace_origin(plan, "implementation")))
    return replace(spec, implementations=tuple(implementations))


# The fastest unit a kernel may use at each output precision without lowering it: tensor cores
# (TF32 for float32 data) bound what an honest kernel can reach.
PEAKS = ("fp64", "fp64_tensor", "fp32", "tf32_tensor", "fp16_tensor", "bf16_tensor", "fp8_tensor")
_DEFAULT_PEAK = {"float64": "fp64_tensor", "float32": "tf32_tensor", "float16": "fp16_tensor"}


def _flops(data, outputs, size_names, where):
    flops, peak = data.get("flops"), data.get("flops_peak")
    if flops is None:
        if peak is not None:
            raise SpecError(f"{where}: flops_peak needs flops (an expression over the sizes)")
        return None, None
    if isinstance(flops, bool) or not isinstance(flops, (str, int, float)):
        raise SpecError(f"{where}: flops must be an expression over the size variables, got {flops!r}")
    _check_names(flops, size_names, f"{where}: flops")
    if peak is None:
        floats = [a.dtype for a in outputs if a.dtype in _DEFAULT_PEAK]
        if not floats:
            raise SpecError(f"{where}: flops needs flops_peak (one of {', '.join(PEAKS)}) when no output is "
                            "floating point")
        peak = _DEFAULT_PEAK[max(floats, key=FLOAT_DTYPES.index)]
    if peak not in PEAKS:
        raise SpecError(f"{where}: flops_peak must be one of {', '.join(PEAKS)}, got {peak!r}")
    return flops, peak


def _check_concrete(launch: ConcreteLaunch, where: str, size: str) -> None:
    if any(d <= 0 for d in launch.grid + launch.block):
        raise SpecError(f"{where}: size {size!r} gives grid {launch.grid} block {launch.block}; "
                        "all dimensions must be positive")
    threads = launch.block[0] * launch.block[1] * launch.block[2]
    if threads > 1024:
        raise SpecError(f"{where}: size {size!r} gives a block of {threads} threads (at most 1024)")
    if launch.dynamic_smem < 0:
        raise SpecError(f"{where}: size {size!r} gives negative dynamic shared memory")
    names = [b.name for b in launch.scratch]
    if len(set(names)) != len(names):
        raise SpecError(f"{where}: scratch declared twice: {', '.join(sorted({n for n in names if names.count(n) > 1}))}")
    total = sum(b.nbytes for b in launch.scratch)
    if total > MAX_SCRATCH_BYTES:
        raise SpecError(f"{where}: size {size!r} declares {total} bytes of scratch (at most {MAX_SCRATCH_BYTES})")


def _check_files(spec: ProblemSpec, where: str) -> None:
    wanted = []
    if spec.reference.python:
        wanted.append(spec.reference.python.partition(":")[0])
    if spec.reference.kernel:
        wanted.append(spec.reference.kernel.partition(":")[0])
    if spec.prompt_source:
        wanted.append(spec.prompt_source)
    wanted += [impl.file for impl in spec.implementations]
    for relative in wanted:
        if not spec.resolve(relative).is_file():
            raise SpecError(f"{where}: referenced file {relative!r} does not exist next to the spec")


def _sizes(table, where) -> dict:
    if not isinstance(table, dict) or not table:
        raise SpecError(f"{where}: [sizes] must define at least one named size configuration")
    sizes = {}
    for size_name, variables in table.items():
        if not isinstance(variables, dict) or not variables:
            raise SpecError(f"{where}: [sizes].{size_name} must be a table of integer variables")
        for var, value in variables.items():
            if not var.isidentifier() or var in expr.FUNCTIONS:
                raise SpecError(f"{where}: [sizes].{size_name}: bad variable name {var!r}")
            if isinstance(value, bool) or not isinstance(value, int):
                raise SpecError(f"{where}: [sizes].{size_name}.{var} must be an integer, got {value!r}")
        sizes[size_name] = dict(variables)
    keys = {name: set(v) for name, v in sizes.items()}
    first = next(iter(keys.values()))
    for size_name, variables in keys.items():
        if variables != first:
            raise SpecError(f"{where}: every size must bind the same variables; {size_name!r} binds "
                            f"{sorted(variables)}, expected {sorted(first)}")
    return sizes


def _table_list(data, key, where):
    items = data.get(key, [])
    if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
        raise SpecError(f"{where}: {key} must be an array of tables ([[{key}]])")
    return items


def _shape(item, where) -> list:
    """An array's shape: one expression or a non-empty list of them (a bare value is a 1-D shape)."""
    shape = item.get("shape")
    if isinstance(shape, (str, int)):
        shape = [shape]
    if not isinstance(shape, list) or not shape:
        raise SpecError(f"{where}: shape must be a non-empty list of expressions")
    return shape


def _array(item, index, kind, where) -> ArraySpec:
    here = f"{where}: [[{kind}]] #{index + 1}"
    allowed = {"name", "dtype", "shape"} | ({"distribution"} if kind == "inputs" else {"rtol", "atol"})
    _known_keys(item, allowed, here)
    name = _identifier(item, here)
    dtype = _dtype(item, f"{here} {name!r}")
    shape = _shape(item, f"{here} {name!r}")
    distribution = None
    if kind == "inputs":
        text = item.get("distribution", "uniform(-1, 1)" if dtype in FLOAT_DTYPES else "randint(0, 10)")
        distribution = Distribution.parse(text, f"{here} {name!r}")
    rtol = _tolerance(item["rtol"], "rtol", here) if "rtol" in item else None
    atol = _tolerance(item["atol"], "atol", here) if "atol" in item else None
    return ArraySpec(name, dtype, tuple(shape), distribution, rtol, atol)


def _scalar(item, index, where) -> ScalarSpec:
    here = f"{where}: [[scalars]] #{index + 1}"
    if not isinstance(item, dict):
        raise SpecError(f"{here}: must be a table")
    _known_keys(item, {"name", "dtype", "value"}, here)
    name = _identifier(item, here)
    if "value" not in item:
        raise SpecError(f"{here} {name!r}: missing 'value'")
    return ScalarSpec(name, _dtype(item, f"{here} {name!r}"), item["value"])


def _launch(table, where, required=False, size_names=None) -> LaunchSpec | None:
    if table is None and not required:
        return None
    if not isinstance(table, dict):
        raise SpecError(f"{where}: must be a table with block, grid and args")
    _known_keys(table, {"block", "grid", "dynamic_smem", "args", "scratch"}, where)
    dims = {}
    for key in ("block", "grid"):
        value = table.get(key)
        if isinstance(value, (str, int)):
            value = [value]
        if value is None and not required:
            dims[key] = None
            continue
        if not isinstance(value, list) or not 1 <= len(value) <= 3:
            raise SpecError(f"{where}: {key} must be a list of 1 to 3 expressions")
        dims[key] = tuple(value)
    args = table.get("args")
    if args is not None and (not isinstance(args, list) or not all(isinstance(a, str) for a in args)):
        raise SpecError(f"{where}: args must be a list of input, output and scalar names")
    if required and args is None:
        raise SpecError(f"{where}: args (the kernel's argument order) is required")
    scratch = parse_scratch(table.get("scratch", []), size_names, where + ".scratch")
    return LaunchSpec(block=dims["block"], grid=dims["grid"], dynamic_smem=table.get("dynamic_smem"),
                      args=tuple(args) if args is not None else None, scratch=scratch)


def parse_scratch(items, size_names, where) -> tuple:
    """`[[scratch]]` tables (or a launch's `scratch = [...]`) into ScratchSpec records.

    `size_names`: the variables shapes may use (None skips that check, for callers that bind
    shapes later)."""
    if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
        raise SpecError(f"{where}: scratch must be an array of tables with name, dtype and shape")
    declared = []
    for index, item in enumerate(items):
        here = f"{where} #{index + 1}"
        _known_keys(item, {"name", "dtype", "shape", "zero"}, here)
        name = _identifier(item, here)
        dtype = _dtype(item, f"{here} {name!r}")
        shape = _shape(item, f"{here} {name!r}")
        if size_names is not None:
            for dim in shape:
                _check_names(dim, size_names, f"{here}: shape of {name!r}")
        zero = item.get("zero", True)
        if not isinstance(zero, bool):
            raise SpecError(f"{here} {name!r}: zero must be true or false, got {zero!r}")
        declared.append(ScratchSpec(name, dtype, tuple(shape), zero))
    return tuple(declared)


def _merge_launch(base: LaunchSpec, override: LaunchSpec | None) -> LaunchSpec:
    if override is None:
        return LaunchSpec(base.block, base.grid, base.dynamic_smem or 0, base.args, tuple(base.scratch or ()))
    return LaunchSpec(
        block=override.block or base.block,
        grid=override.grid or base.grid,
        dynamic_smem=override.dynamic_smem if override.dynamic_smem is not None else (base.dynamic_smem or 0),
        args=override.args if override.args is not None else base.args,
        scratch=tuple(base.scratch or ()) + tuple(override.scratch or ()),
    )


def _check_launch(launch: LaunchSpec, arg_names: set, expr_names: set, where: str) -> None:
    for text in launch.block + launch.grid + (launch.dynamic_smem or 0,):
        _check_names(text, expr_names, where)
    own = [b.name for b in launch.scratch or ()]
    clashes = sorted(set(own) & arg_names)
    if clashes:
        raise SpecError(f"{where}: scratch {', '.join(clashes)} reuses the name of an input, output, "
                        "scalar or [[scratch]] buffer")
    arg_names = arg_names | set(own)
    unknown = [a for a in launch.args if a not in arg_names]
    if unknown:
        raise SpecError(f"{where}: args name unknown inputs/outputs/scalars: {', '.join(unknown)}")


def _reference(table, where, size_names=None) -> ReferenceSpec:
    here = f"{where}: [reference]"
    if not isinstance(table, dict):
        raise SpecError(f"{here}: required, with python = \"file.py:function\" or kernel = \"file.cu:name\"")
    _known_keys(table, {"python", "kernel", "arrays", "launch"}, here)
    python, kernel = table.get("python"), table.get("kernel")
    if (python is None) == (kernel is None):
        raise SpecError(f"{here}: give exactly one of python or kernel")
    target = python or kernel
    if not isinstance(target, str) or ":" not in target:
        raise SpecError(f"{here}: expected \"FILE:NAME\", got {target!r}")
    arrays = table.get("arrays", "cupy")
    if arrays not in ("cupy", "numpy"):
        raise SpecError(f"{here}: arrays must be cupy or numpy, got {arrays!r}")
    return ReferenceSpec(python=python, kernel=kernel, arrays=arrays,
                         launch=_launch(table.get("launch"), here + ".launch", size_names=size_names))


def _implementation(item, index, where) -> Implementation:
    here = f"{where}: [[implementations]] #{index + 1}"
    if not isinstance(item, dict):
        raise SpecError(f"{here}: must be a table")
    file = item.get("file")
    if not isinstance(file, str) or not file:
        raise SpecError(f"{here}: 'file' is required")
    if "launch" in item:   # one format for corpus implementations and candidates: the plan in the file
        raise SpecError(f"{here} ({file}): launch overrides in the spec are no longer read; put the launch in "
                        f"{file} as a /* kernelscope:plan */ comment (docs/spec-format.md, \"Launch plans\")")
    _known_keys(item, {"file", "kernel", "strategy"}, here)
    kernel = item.get("kernel")
    if kernel is not None and (not isinstance(kernel, str) or not kernel.isidentifier()):
        raise SpecError(f"{here}: 'kernel' must name a __global__ function, got {kernel!r}")
    return Implementation(file=file, kernel=kernel, strategy=item.get("strategy", ""))


def _dim3(texts, names, where) -> tuple[int, int, int]:
    dims = [expr.evaluate_int(t, names) for t in texts]
    return tuple(dims + [1] * (3 - len(dims)))


def _check_names(text, allowed: set, where: str) -> None:
    unknown = expr.names_in(text) - allowed
    if unknown:
        raise SpecError(f"{where}: unknown name(s) {', '.join(sorted(unknown))} in {text!r}")


def _identifier(item, where) -> str:
    name = item.get("name")
    if not isinstance(name, str) or not name.isidentifier():
        raise SpecError(f"{where}: 'name' must be an identifier, got {name!r}")
    return name


def _dtype(item, where) -> str:
    dtype = item.get("dtype")
    if dtype not in DTYPES:
        raise SpecError(f"{where}: dtype must be one of {', '.join(DTYPES)}, got {dtype!r}")
    return dtype


def _tolerance(value, key, where) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
        raise SpecError(f"{where}: {key} must be a non-negative number, got {value!r}")
    return float(value)


def _required(data, key, kind, where):
    value = data.get(key)
    if not isinstance(value, kind) or not value:
        raise SpecError(f"{where}: {key!r} is required")
    return value


def _known_keys(table, allowed: set, where: str) -> None:
    unknown = sorted(set(table) - allowed)
    if unknown:
        raise SpecError(f"{where}: unknown key(s) {', '.join(unknown)} (allowed: {', '.join(sorted(allowed))})")
