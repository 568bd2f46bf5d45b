"""Plain records of what the front end finds in a CUDA file.

Everything here is data: no parsing, no analysis. The model is closed: every record declares all
its fields (`slots=True`, so setting an undeclared one fails; the frozen records cannot be changed
at all), the front end fills them, and later stages read them without patching them. Index expressions are `kernelscope.symbolic.Expr`
trees over thread/block indices, parameters and loop variables; analyses evaluate them.
Lines and columns are 1-based and refer to the original file (before macro expansion).
"""

from __future__ import annotations

from dataclasses import field
from typing import Any, Optional

from kernelscope.records import record

Dim3 = tuple[int, int, int]

SPACES = ("global", "shared", "local", "constant")
OPS = ("load", "store", "atomic")
SEVERITIES = ("info", "warning", "error")


@record(frozen=True)
class Position:
    line: int
    column: int


@record(frozen=True)
class SourceError:
    """A syntax error (or a skipped construct) located in the original file."""
    line: int
    column: int
    message: str

    def to_json(self) -> dict:
        return {"line": self.line, "column": self.column, "message": self.message}


@record(slots=True)
class Param:
    name: str
    type_name: str            # base type as written, without qualifiers: "float", "float4", "Particle"
    is_pointer: bool
    elem_bytes: Optional[int]  # size of the pointee (pointers) or of the value (scalars); None if unknown
    is_const: bool = False
    is_restrict: bool = False
    line: int = 0


@record(slots=True)
class Loop:
    """A loop around some statements. `var` is None for loops without a recognisable induction variable."""
    kind: str                  # for | while | do
    line: int
    var: Optional[str] = None
    start: Any = None          # Expr
    bound: Any = None          # Expr (exclusive or inclusive upper bound, see `compare`)
    step: Any = None           # Expr added per iteration (negative for count-down loops)
    compare: str = "<"
    trip_count: Any = None     # Expr or None when not derivable
    unrolled: Optional[int] = None  # from #pragma unroll N (0 = full)
    depth: int = 1
    thread_dependent: bool = False  # trip count differs between threads
    condition_depth: int = 0        # guarding conditions already open when the loop starts
    assigned: frozenset = frozenset()  # variables assigned anywhere in the loop (body and update)
    step_op: Optional[str] = "+"    # how `step` applies: "+" adds it, "*" multiplies (i *= 2); None: no induction step
    seq: int = 0


@record(slots=True)
class Condition:
    expr: Any                  # Expr of the condition as tested
    line: int
    negated: bool = False      # True inside the else branch
    exclusive: bool = False    # an if/else arm: a thread runs this arm or the other, never both


@record(slots=True)
class Context:
    """Where a statement sits: the loops around it (outermost first) and the conditions guarding it."""
    loops: tuple = ()
    conditions: tuple = ()


@record(slots=True)
class Access:
    array: str                 # the base allocation: a parameter, shared array, local array or constant
    space: str                 # global | shared | local | constant
    op: str                    # load | store | atomic
    address: Any               # Expr: byte offset from the allocation's base
    elem_bytes: int            # bytes moved by this access (vector width included)
    line: int
    column: int
    text: str                  # source text of the access, e.g. "a[IDX(r, c, ld)]"
    context: Context = field(default_factory=Context)
    stride_hint_bytes: Optional[int] = None  # size of one array element (struct size for AoS)
    in_function: Optional[str] = None        # device helper the access was inlined from
    hoisted_loops: int = 0     # innermost loops the compiler lifts this load out of (see frontend.hoisting)
    cached: Optional[str] = None  # the intrinsic (__ldg, __ldcs, ...) that reads through the read-only path
    stored: Any = None         # Expr of the value a plain store writes (the sync analysis asks if it is uniform)
    seq: int = 0               # position in walk order, inlined helpers included

    @property
    def weight_context(self) -> Context:
        """The context that decides how often the access executes: its own, less the loops it is
        hoisted out of."""
        if not self.hoisted_loops:
            return self.context
        return Context(self.context.loops[:len(self.context.loops) - self.hoisted_loops], self.context.conditions)


@record(slots=True)
class Barrier:
    kind: str                  # syncthreads | syncthreads_count | syncthreads_and | syncthreads_or | syncwarp | grid_sync
                               # | tile_sync (a tiled_partition<N <= 32>; mask: its lanes) | cg_sync (group unknown)
    line: int
    column: int
    context: Context = field(default_factory=Context)
    mask: Any = None
    seq: int = 0


@record(slots=True)
class Branch:
    condition: Any             # Expr
    line: int
    column: int
    context: Context = field(default_factory=Context)
    kind: str = "if"           # if | ternary | switch | loop | return
    has_else: bool = False
    seq: int = 0


# Memory fences: calls that order memory like a barrier does, for the threads' own accesses.
FENCES = frozenset({"__threadfence", "__threadfence_block", "__threadfence_system"})


@record(slots=True)
class Call:
    name: str
    line: int
    column: int
    args: tuple = ()
    context: Context = field(default_factory=Context)
    seq: int = 0


@record(slots=True)
class Arith:
    """One floating-point operation site. `flops` counts an FMA as 2."""
    op: str                    # add | mul | fma | div | sqrt | special
    precision: str             # fp16 | bf16 | fp32 | fp64
    flops: int
    line: int
    context: Context = field(default_factory=Context)
    seq: int = 0


@record(slots=True)
class SharedArray:
    name: str
    elem_bytes: int
    dims: tuple                # sizes of each dimension; None for `extern __shared__ T a[]`
    dynamic: bool
    line: int

    @property
    def static_bytes(self) -> int:
        if self.dynamic or any(d is None for d in self.dims):
            return 0
        total = self.elem_bytes
        for d in self.dims:
            total *= d
        return total


@record(slots=True)
class LaunchSite:
    kernel: str
    line: int
    column: int
    grid: Optional[Dim3]
    block: Optional[Dim3]
    dynamic_smem: Optional[int]
    template_args: tuple = ()
    grid_text: str = ""
    block_text: str = ""
    host_bindings: dict = field(default_factory=dict)    # the host template's parameters -> types
    argument_types: list = field(default_factory=list)   # declared type of each launch argument
    grid_exprs: Any = None     # [Expr x3] of the grid as written (None when it cannot be read)
    block_exprs: Any = None    # likewise for the block


@record(slots=True)
class Kernel:
    name: str
    line: int
    column: int
    params: list = field(default_factory=list)
    template_params: list = field(default_factory=list)       # names, in order
    template_instantiations: list = field(default_factory=list)  # tuples of argument texts
    template_bindings: dict = field(default_factory=dict)      # name -> int, when one instantiation fixes them
    template_types: dict = field(default_factory=dict)         # type parameter -> (type, where it came from)
    launch_bounds: tuple = ()  # (maxThreads, minBlocks, maxBlocksPerCluster) as found
    extern_c: bool = False
    accesses: list = field(default_factory=list)
    loops: list = field(default_factory=list)
    branches: list = field(default_factory=list)
    barriers: list = field(default_factory=list)
    calls: list = field(default_factory=list)
    arith: list = field(default_factory=list)
    shared_arrays: list = field(default_factory=list)
    local_arrays: dict = field(default_factory=dict)           # name -> bytes
    dynamic_local_accesses: list = field(default_factory=list)  # (array, line, column, text) indexed at run time
    launches: list = field(default_factory=list)                # LaunchSite records found for it
    early_returns: list = field(default_factory=list)           # Branch records of `return` under conditions
    uses_shuffle: bool = False
    uses_cooperative_groups: bool = False
    uses_inline_asm: bool = False
    shared_memory_opt_in: Optional[bool] = None   # cudaFuncSetAttribute(k, ...MaxDynamicSharedMemorySize) seen;
                                                  # False when the file launches k without it
    end_line: int = 0
    notes: list = field(default_factory=list)     # what the analyses could not follow in it (KS902)


@record(slots=True)
class FileModel:
    path: str
    kernels: list = field(default_factory=list)
    launches: list = field(default_factory=list)
    errors: list = field(default_factory=list)
    device_functions: dict = field(default_factory=dict)  # name -> (params, body text, return type, template params)
    text: str = ""
    notes: list = field(default_factory=list)  # things worth knowing that are not syntax errors


@record(frozen=True)
class Diagnostic:
    """One finding. The lint reporters and the JSON document are built from these alone."""
    rule: str                  # stable code, e.g. "KS101"
    severity: str              # info | warning | error
    path: str
    line: int
    column: int
    message: str
    kernel: Optional[str] = None
    end_line: Optional[int] = None
    related: tuple = ()        # ((line, column, note), ...) e.g. the other access of a race

    def to_json(self) -> dict:
        return {"rule": self.rule, "severity": self.severity, "path": self.path, "line": self.line,
                "column": self.column, "message": self.message, "kernel": self.kernel}
