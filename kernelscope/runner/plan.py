"""Launch plans: how a candidate asks to be launched, as data rather than host code.

A candidate is device code only, so it cannot call its own kernels. Instead it may carry a plan in
a comment block of its source,

    /* kernelscope:plan
    [[scratch]]
    name = "partial"
    dtype = "float32"
    shape = ["rows", "ceil_div(cols, 2048)"]
    zero = true

    [[launch]]
    kernel = "row_sum_partial"
    grid = ["ceil_div(cols, 2048)", "rows"]
    block = ["256"]
    args = ["x", "partial", "rows", "cols"]
    ...
    */

that names one or more launches in order (kernel, grid, block, dynamic shared memory, arguments by
name), scratch buffers that live across those launches, and derived integer scalars. Every number is
an expression of the spec's safe language (runner/expr.py) over the problem's sizes and scalars; the
format is in docs/spec-format.md. A candidate without a plan is launched with the problem's [launch],
which is the one-launch plan `default_plan` builds. Corpus implementations are candidates too: their
launch is the plan their file carries, never an override in spec.toml.

This module only parses, validates and binds plans to sizes; it needs no GPU.
"""

from __future__ import annotations

import re

from kernelscope.errors import InputError
from kernelscope.records import record
from kernelscope.runner import expr
from kernelscope.runner.spec import (DTYPE_BYTES, DTYPES, ConcreteScratch, LaunchSpec, ProblemSpec,
                                     SpecError, _merge_launch, parse_scratch)

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

MARKER = "kernelscope:plan"
MAX_LAUNCHES = 16
MAX_SCRATCH = 16
# Scratch may hold partial results (split-K keeps several copies of the output), but a plan must not
# be a way to grab the GPU's memory: at most this many times the bytes of the inputs and outputs,
# or SCRATCH_FLOOR_BYTES, whichever is larger.
SCRATCH_FACTOR = 4
SCRATCH_FLOOR_BYTES = 64 << 20
MAX_THREADS_PER_BLOCK = 1024
MAX_DYNAMIC_SMEM = 227 * 1024          # opt-in limit per block on sm_90
MAX_GRID = (2**31 - 1, 65535, 65535)
INTEGER_DTYPES = tuple(d for d in DTYPES if d.startswith(("int", "uint")))

_BLOCK = re.compile(r"/\*\s*" + re.escape(MARKER) + r"[ \t]*\n(.*?)\*/", re.DOTALL)
_MENTION = re.compile(r"/\*\s*" + re.escape(MARKER))


class PlanError(InputError):
    """A launch plan is malformed or does not fit the problem."""


@record(frozen=True)
class PlanScalar:
    name: str
    dtype: str            # an integer dtype
    value: object         # expression


@record(frozen=True)
class PlannedLaunch:
    kernel: str
    grid: tuple
    block: tuple
    dynamic_smem: object
    args: tuple           # names of inputs, outputs, problem scalars, scratch buffers, plan scalars


@record(frozen=True)
class LaunchPlan:
    launches: tuple
    scratch: tuple = ()       # spec.ScratchSpec: the problem's [[scratch]], then the plan's own
    scalars: tuple = ()
    origin: str = "problem"   # problem | implementation | candidate: where the plan came from

    @property
    def kernels(self) -> tuple[str, ...]:
        """Distinct kernel names in launch order."""
        return tuple(dict.fromkeys(launch.kernel for launch in self.launches))

    def concrete(self, spec: ProblemSpec, size: str) -> "ConcretePlan":
        """The plan with every expression evaluated at one size configuration of `spec`."""
        try:
            return _bind(self, spec, size)
        except expr.ExpressionError as exc:
            raise PlanError(f"{spec.name}: plan at size {size!r}: {exc}") from None

    def to_json(self) -> dict:
        return {"origin": self.origin,
                "launches": [{"kernel": l.kernel, "grid": list(l.grid), "block": list(l.block),
                              "dynamic_smem": l.dynamic_smem, "args": list(l.args)} for l in self.launches],
                "scratch": [{"name": s.name, "dtype": s.dtype, "shape": list(s.shape), "zero": s.zero}
                            for s in self.scratch],
                "scalars": [{"name": s.name, "dtype": s.dtype, "value": s.value} for s in self.scalars]}


@record(frozen=True)
class ConcreteLaunch:
    kernel: str
    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    dynamic_smem: int
    args: tuple[str, ...]

    @property
    def threads(self) -> int:
        return _product(self.grid) * _product(self.block)


@record(frozen=True)
class ConcretePlan:
    launches: tuple
    scratch: tuple
    scalars: dict         # plan scalar name -> (dtype, int value)


# ---- finding and parsing --------------------------------------------------------------------------

def plan_text(source: str) -> str | None:
    """The TOML inside the source's `/* kernelscope:plan ... */` comment, or None without one."""
    blocks = _BLOCK.findall(source)
    if len(blocks) > 1:
        raise PlanError(f"the source has {len(blocks)} '{MARKER}' comments; give one plan")
    if not blocks:
        if _MENTION.search(source):
            raise PlanError(f"a '/* {MARKER}' comment must start a line of its own, with the plan on the "
                            "lines after it, and end with '*/'")
        return None
    return blocks[0]


def carries_plan(source: str) -> bool:
    """Whether the source means to carry a plan (a well-formed one or not)."""
    return _MENTION.search(source) is not None


def plan_from_source(source: str, spec: ProblemSpec, *, kernels=None) -> LaunchPlan | None:
    """The plan a candidate carries, validated against `spec`; None when it carries none.

    `kernels` (the source's __global__ names) lets every launch be checked to name one of them.
    """
    text = plan_text(source)
    if text is None:
        return None
    try:
        table = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PlanError(f"launch plan: invalid TOML: {exc}") from None
    return parse_plan(table, spec, kernels=kernels, origin="candidate")


def parse_plan(table: dict, spec: ProblemSpec, *, kernels=None, origin: str = "candidate") -> LaunchPlan:
    """Validate a plan given as a table ({"launch": [...], "scratch": [...], "scalars": [...]})."""
    where = "launch plan"
    _known(table, {"launch", "scratch", "scalars"}, where)
    taken = {a.name for a in spec.arrays()} | {s.name for s in spec.scalars} | {b.name for b in spec.scratch}
    names = set(taken) | set(next(iter(spec.sizes.values())))   # what expressions may use
    scalars = []
    for index, item in enumerate(_tables(table, "scalars", where)):
        here = f"{where}: [[scalars]] #{index + 1}"
        _known(item, {"name", "dtype", "value"}, here)
        name = _new_name(item, taken, here)
        dtype = item.get("dtype", "int32")
        if dtype not in INTEGER_DTYPES:
            raise PlanError(f"{here} {name!r}: dtype must be an integer type ({', '.join(INTEGER_DTYPES)}), "
                            f"got {dtype!r}")
        if "value" not in item:
            raise PlanError(f"{here} {name!r}: 'value' (an expression) is required")
        _names_known(item["value"], names, f"{here} {name!r}")
        scalars.append(PlanScalar(name, dtype, item["value"]))
        taken.add(name)
        names.add(name)
    scratch = list(spec.scratch)          # the problem's own [[scratch]] serves every plan
    items = _tables(table, "scratch", where)
    try:                                  # the spec's parser, so both formats give the same messages
        declared = parse_scratch(items, None, f"{where}: [[scratch]]")
    except SpecError as exc:
        raise PlanError(str(exc)) from None
    for index, (item, buffer) in enumerate(zip(items, declared)):
        here = f"{where}: [[scratch]] #{index + 1}"
        _new_name(item, taken, here)
        for dim in buffer.shape:
            _names_known(dim, names, f"{here} {buffer.name!r} shape")
        scratch.append(buffer)
        taken.add(buffer.name)
    if len(scratch) > MAX_SCRATCH:
        raise PlanError(f"{where}: at most {MAX_SCRATCH} scratch buffers, got {len(scratch)}")

    items = _tables(table, "launch", where)
    if not items:
        raise PlanError(f"{where}: at least one [[launch]] is required")
    if len(items) > MAX_LAUNCHES:
        raise PlanError(f"{where}: at most {MAX_LAUNCHES} launches, got {len(items)}")
    launches = []
    for index, item in enumerate(items):
        here = f"{where}: [[launch]] #{index + 1}"
        _known(item, {"kernel", "grid", "block", "dynamic_smem", "args"}, here)
        kernel = item.get("kernel")
        if not isinstance(kernel, str) or not kernel.isidentifier():
            raise PlanError(f"{here}: 'kernel' must name a __global__ function, got {kernel!r}")
        if kernels is not None and kernel not in kernels:
            found = ", ".join(kernels) or "none"
            raise PlanError(f"{here}: the source defines no __global__ function {kernel!r} (found: {found})")
        dims = {key: _dims(item.get(key), f"{here} {key}", names) for key in ("grid", "block")}
        smem = item.get("dynamic_smem", 0)
        _names_known(smem, names, f"{here} dynamic_smem")
        args = item.get("args")
        if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
            raise PlanError(f"{here}: args must be a list of names (inputs, outputs, scalars, scratch)")
        unknown = [a for a in args if a not in taken]
        if unknown:
            raise PlanError(f"{here}: args name unknown arrays or scalars: {', '.join(unknown)} (known: "
                            f"{', '.join(sorted(taken))})")
        launches.append(PlannedLaunch(kernel, dims["grid"], dims["block"], smem, tuple(args)))
    passed = {a for launch in launches for a in launch.args}
    missing = [a.name for a in spec.outputs if a.name not in passed]
    if missing:
        raise PlanError(f"{where}: no launch is passed the output(s) {', '.join(missing)}")
    plan = LaunchPlan(tuple(launches), tuple(scratch), tuple(scalars), origin)
    for size in spec.sizes:          # every size must bind to a launchable plan: fail before the GPU
        plan.concrete(spec, size)
    return plan


def default_plan(spec: ProblemSpec, kernel: str, launch: LaunchSpec | None = None,
                 origin: str = "problem") -> LaunchPlan:
    """The one-launch plan of the problem's [launch], with `launch` (an API caller's or a batch item's
    override, runner.evaluate's `launch`) on top."""
    merged = _merge_launch(spec.launch, launch)
    scratch = tuple(spec.scratch) + tuple(merged.scratch or ())
    return LaunchPlan((PlannedLaunch(kernel, tuple(merged.grid), tuple(merged.block), merged.dynamic_smem or 0,
                                     tuple(merged.args)),), scratch=scratch, origin=origin)


def candidate_plan(spec: ProblemSpec, source: str, kernel: str | None, *, launch: LaunchSpec | None = None,
                   kernels=None) -> LaunchPlan:
    """How a candidate is launched: its own plan when it carries one, else [launch] (+ `launch`)."""
    plan = plan_from_source(source, spec, kernels=kernels)
    if plan is not None:
        if launch is not None:
            raise PlanError("the source carries a launch plan and a launch override was given too; use one")
        return plan
    if kernel is None:
        raise PlanError("name the kernel to run, or give the source a launch plan")
    return default_plan(spec, kernel, launch, origin="problem" if launch is None else "implementation")


def implementation_plan(spec: ProblemSpec, implementation, source: str | None = None) -> LaunchPlan:
    """A corpus implementation's plan: the one its file carries (read when the spec loaded, or from
    `source`), else the problem's [launch] for its kernel, as for any candidate."""
    if source is not None:
        carried = plan_from_source(source, spec)
        if carried is not None:
            return replace_origin(carried, "implementation")
    elif implementation.plan is not None:
        return implementation.plan
    if implementation.kernel is None:
        raise PlanError(f"{spec.name}: {implementation.file}: name the kernel or give the file a plan")
    return default_plan(spec, implementation.kernel, origin="implementation")


def single_launch(spec: ProblemSpec, implementation, size: str) -> ConcreteLaunch | None:
    """The one launch of an implementation bound at `size`; None when its plan launches several
    kernels (per-kernel tables, such as the analysis-vs-ncu ones, describe one launch)."""
    plan = implementation_plan(spec, implementation)
    if len(plan.launches) != 1:
        return None
    return plan.concrete(spec, size).launches[0]


@record(frozen=True)
class LaunchShape:
    """One launch of a plan read without a problem spec (kernelscope analyze): each of grid, block
    and dynamic shared memory is resolved, or None with the size names it would need in `missing`."""
    number: int               # 1-based position in the plan
    kernel: str
    grid: tuple | None        # 3 ints
    block: tuple | None
    dynamic_smem: int | None
    missing: dict             # "grid" | "block" | "dynamic_smem" -> names not given

    @property
    def resolved(self) -> bool:
        return not self.missing


def plan_line(source: str) -> int:
    """The 1-based line the plan comment starts on (for messages about it)."""
    match = _MENTION.search(source)
    return source.count("\n", 0, match.start()) + 1 if match else 1


def launch_shapes(source: str, names: dict) -> list[LaunchShape]:
    """The launches of the plan `source` carries, with what the integer `names` (kernelscope analyze's
    --arg values) resolve of each; [] without a plan. Only the plan's structure is checked: without
    the problem's spec its argument names cannot be. A malformed plan raises PlanError."""
    text = plan_text(source)
    if text is None:
        return []
    try:
        table = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PlanError(f"launch plan: invalid TOML: {exc}") from None
    where = "launch plan"
    _known(table, {"launch", "scratch", "scalars"}, where)
    names = dict(names)
    needs = {}                    # plan scalar that did not resolve -> the names it needs
    for index, item in enumerate(_tables(table, "scalars", where)):
        _known(item, {"name", "dtype", "value"}, f"{where}: [[scalars]] #{index + 1}")
        value, missing = _resolve(item.get("value"), names, needs, f"{where}: [[scalars]] #{index + 1}")
        if value is None:
            needs[item.get("name")] = missing
        else:
            names[item.get("name")] = value
    items = _tables(table, "launch", where)
    if not items:
        raise PlanError(f"{where}: at least one [[launch]] is required")
    shapes = []
    for number, item in enumerate(items, 1):
        here = f"{where}: [[launch]] #{number}"
        _known(item, {"kernel", "grid", "block", "dynamic_smem", "args"}, here)
        kernel = item.get("kernel")
        if not isinstance(kernel, str) or not kernel.isidentifier():
            raise PlanError(f"{here}: 'kernel' must name a __global__ function, got {kernel!r}")
        resolved, missing = {}, {}
        for key in ("grid", "block"):
            dims = _dims(item.get(key), f"{here} {key}", None)
            values = [_resolve(d, names, needs, f"{here} {key}") for d in dims]
            lacking = sorted({n for _, m in values for n in m})
            if lacking:
                missing[key] = tuple(lacking)
            resolved[key] = None if lacking else tuple([v for v, _ in values] + [1] * (3 - len(values)))
        smem, lacking = _resolve(item.get("dynamic_smem", 0), names, needs, f"{here} dynamic_smem")
        if lacking:
            missing["dynamic_smem"] = tuple(lacking)
        shapes.append(LaunchShape(number, kernel, resolved["grid"], resolved["block"], smem, missing))
    return shapes


def _resolve(text, names: dict, needs: dict, where: str):
    """(int value, ()) of an expression, or (None, the size names it needs that are not given)."""
    if isinstance(text, bool) or not isinstance(text, (str, int)):
        raise PlanError(f"{where}: expected an integer or an expression string, got {text!r}")
    try:
        unknown = expr.names_in(text) - set(names)
        if not unknown:
            return expr.evaluate_int(text, names), ()
    except expr.ExpressionError as exc:
        raise PlanError(f"{where}: {exc}") from None
    return None, tuple(sorted({m for n in unknown for m in needs.get(n, (n,))}))


def plan_comment(plan: LaunchPlan) -> str:
    """The plan as the `/* kernelscope:plan */` comment a source carries (parse_plan reads it back)."""
    lines = [f"/* {MARKER}"]
    for scalar in plan.scalars:
        lines += ["[[scalars]]", f"name = {_toml(scalar.name)}", f"dtype = {_toml(scalar.dtype)}",
                  f"value = {_toml(scalar.value)}", ""]
    for buffer in plan.scratch:
        lines += ["[[scratch]]", f"name = {_toml(buffer.name)}", f"dtype = {_toml(buffer.dtype)}",
                  f"shape = {_toml(list(buffer.shape))}", f"zero = {_toml(buffer.zero)}", ""]
    for launch in plan.launches:
        lines += ["[[launch]]", f"kernel = {_toml(launch.kernel)}", f"grid = {_toml(list(launch.grid))}",
                  f"block = {_toml(list(launch.block))}", f"dynamic_smem = {_toml(launch.dynamic_smem)}",
                  f"args = {_toml(list(launch.args))}", ""]
    return "\n".join(lines[:-1] + ["*/", ""])


def _toml(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return "[" + ", ".join(_toml(v) for v in value) + "]"


def replace_origin(plan: LaunchPlan, origin: str) -> LaunchPlan:
    return LaunchPlan(plan.launches, plan.scratch, plan.scalars, origin)


# ---- binding to a size ----------------------------------------------------------------------------

def _bind(plan: LaunchPlan, spec: ProblemSpec, size: str) -> ConcretePlan:
    names = dict(spec.variables(size))
    for key, value in spec.sizes[size].items():   # launch expressions see size variables first
        names.setdefault(key, value)
    scalars = {}
    for scalar in plan.scalars:
        value = expr.evaluate_int(scalar.value, names)
        scalars[scalar.name] = (scalar.dtype, value)
        names[scalar.name] = value
    scratch = []
    for buffer in plan.scratch:
        bound = ConcreteScratch(buffer.name, buffer.dtype, tuple(expr.evaluate_int(d, names) for d in buffer.shape),
                                buffer.zero)
        if any(d <= 0 for d in bound.shape):
            raise PlanError(f"{spec.name}: scratch {buffer.name!r} has shape {bound.shape} at size {size!r}; "
                            "every dimension must be positive")
        scratch.append(bound)
    limit = max(SCRATCH_FLOOR_BYTES, SCRATCH_FACTOR * _io_bytes(spec, size))
    total = sum(s.nbytes for s in scratch)
    if total > limit:
        raise PlanError(f"{spec.name}: scratch buffers take {total} bytes at size {size!r}, more than the "
                        f"{limit} allowed ({SCRATCH_FACTOR}x the inputs and outputs, at least "
                        f"{SCRATCH_FLOOR_BYTES >> 20} MiB)")
    launches = []
    for number, launch in enumerate(plan.launches, 1):
        here = f"{spec.name}: launch #{number} ({launch.kernel}) at size {size!r}"
        grid, block = _dim3(launch.grid, names), _dim3(launch.block, names)
        smem = expr.evaluate_int(launch.dynamic_smem, names)
        if any(d <= 0 for d in grid + block):
            raise PlanError(f"{here}: grid {grid} block {block}; every dimension must be positive")
        if _product(block) > MAX_THREADS_PER_BLOCK:
            raise PlanError(f"{here}: a block of {_product(block)} threads (at most {MAX_THREADS_PER_BLOCK})")
        if any(g > limit for g, limit in zip(grid, MAX_GRID)):
            raise PlanError(f"{here}: grid {grid} exceeds the limits {MAX_GRID}")
        if not 0 <= smem <= MAX_DYNAMIC_SMEM:
            raise PlanError(f"{here}: dynamic shared memory {smem} bytes (0 to {MAX_DYNAMIC_SMEM})")
        launches.append(ConcreteLaunch(launch.kernel, grid, block, smem, launch.args))
    return ConcretePlan(tuple(launches), tuple(scratch), scalars)


def _io_bytes(spec: ProblemSpec, size: str) -> int:
    return sum(_nbytes(a.dtype, spec.shape(a, size)) for a in spec.arrays())


def _nbytes(dtype: str, shape) -> int:
    return DTYPE_BYTES[dtype] * _product(shape)


def _product(values) -> int:
    total = 1
    for value in values:
        total *= value
    return total


def _dim3(texts, names) -> tuple[int, int, int]:
    dims = [expr.evaluate_int(t, names) for t in texts]
    return tuple(dims + [1] * (3 - len(dims)))


# ---- validation helpers ---------------------------------------------------------------------------

def _tables(table, key, where) -> list:
    items = table.get(key, [])
    if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
        raise PlanError(f"{where}: {key} must be an array of tables ([[{key}]])")
    return items


def _dims(value, where, names) -> tuple:
    """A grid or block: 1 to 3 expressions (`names`: those they may use; None checks no names)."""
    if isinstance(value, (str, int)) and not isinstance(value, bool):
        value = [value]
    if not isinstance(value, list) or not 1 <= len(value) <= 3:
        raise PlanError(f"{where}: must be a list of 1 to 3 expressions")
    for text in value:
        if names is not None:
            _names_known(text, names, where)
    return tuple(value)


def _names_known(text, names: set, where: str) -> None:
    if isinstance(text, bool) or not isinstance(text, (str, int)):
        raise PlanError(f"{where}: expected an integer or an expression string, got {text!r}")
    try:
        unknown = expr.names_in(text) - names
    except expr.ExpressionError as exc:
        raise PlanError(f"{where}: {exc}") from None
    if unknown:
        raise PlanError(f"{where}: unknown name(s) {', '.join(sorted(unknown))} in {text!r}")


def _new_name(item, taken: set, where: str) -> str:
    name = item.get("name")
    if not isinstance(name, str) or not name.isidentifier():
        raise PlanError(f"{where}: 'name' must be an identifier, got {name!r}")
    if name in taken:
        raise PlanError(f"{where}: {name!r} is already an input, output, scalar or scratch name")
    return name


def _known(table, allowed: set, where: str) -> None:
    if not isinstance(table, dict):
        raise PlanError(f"{where}: must be a table")
    unknown = sorted(set(table) - allowed)
    if unknown:
        raise PlanError(f"{where}: unknown key(s) {', '.join(unknown)} (allowed: {', '.join(sorted(allowed))})")
