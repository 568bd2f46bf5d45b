"""Walks a function body once, in order, and records what the analyses need.

The walk is an abstract interpretation with symbolic values: local variables hold `Expr`s (or
pointers into an allocation with a symbolic byte offset), so that `a[i]` after `int i = blockIdx.x *
blockDim.x + threadIdx.x` is recorded with the address `4 * (blockIdx.x * blockDim.x + threadIdx.x)`.
Loops make the variables they update unknown-but-named (their first-iteration value is kept as a
default); branches merge the values a variable may have with a `Select`.
"""

from __future__ import annotations

import re
from dataclasses import field

from kernelscope import math_costs
from kernelscope import symbolic as sx
from kernelscope.errors import InvalidSource
from kernelscope.frontend.ctypes import FLOAT_PRECISION, SCALAR_BYTES, TypeTable, normalise_type, precision_of
from kernelscope.frontend.nodes import FIELD, kind_ids
from kernelscope.model import Access, Arith, Barrier, Branch, Call, Condition, Context, Loop, SharedArray
from kernelscope.records import record

MAX_EXPRESSION_DEPTH = 150
MAX_STATEMENT_DEPTH = 120
MAX_INLINE_DEPTH = 6

BUILTIN_INDEX = {"threadIdx", "blockIdx", "blockDim", "gridDim"}
# `threadIdx.x` as written -> (the builtin's name, the symbol it reads): what expr_field_expression finds for it
_BUILTIN_FIELDS = {f"{base}.{axis}": (base, f"{base}.{axis}") for base in BUILTIN_INDEX for axis in "xyz"}
_ARITHMETIC = frozenset(("+", "-", "*", "/", "%"))
_COUNTED = frozenset(("+", "-", "*", "/"))          # the operations _arith counts as FLOPs
_FLOP_KINDS = {"+": "add", "-": "add", "*": "mul", "/": "div"}     # (the Arith op of each)
_COMPARISONS = frozenset(("<", ">", "<=", ">=", "==", "!=", "&&", "||"))
# a binary expression's operator tokens written as symbols (`and`, `bitor` and the like are read from the tree)
_OPERATOR_TOKENS = frozenset(("+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^", "<", ">", "<=", ">=", "==", "!=",
                              "&&", "||"))
# named nodes in statement position that are not expressions either (nothing to record)
_FOLDLESS = sx._FOLDLESS    # expression classes that sx.binary never folds (a Binary of two is built as is)
_BINARY_NODES = sx._BINARY_NODES    # Binary nodes by structure (see sx.shared_binary)
_NOT_EXPRESSIONS = frozenset(("comment", "break_statement", "continue_statement", "goto_statement", ";",
                              "type_definition", "alias_declaration", "using_declaration",
                              "static_assert_declaration", "ERROR"))

BARRIERS = {
    "__syncthreads": "syncthreads", "__syncthreads_count": "syncthreads_count",
    "__syncthreads_and": "syncthreads_and", "__syncthreads_or": "syncthreads_or",
    "__syncwarp": "syncwarp", "__barrier_sync": "syncthreads",
}
CACHED_LOADS = {"__ldg", "__ldca", "__ldcg", "__ldcs", "__ldlu", "__ldcv"}
CACHED_STORES = {"__stcg", "__stcs", "__stwb", "__stwt"}

SPECIAL_MATH = {
    "expf", "exp2f", "exp10f", "logf", "log2f", "log10f", "log1pf", "expm1f", "sinf", "cosf", "tanf",
    "sincosf", "asinf", "acosf", "atanf", "atan2f", "sinhf", "coshf", "tanhf", "powf", "erff", "erfcf",
    "__expf", "__logf", "__sinf", "__cosf", "__tanf", "__powf", "__exp10f", "__log2f", "__log10f",
    "exp", "exp2", "log", "log2", "log10", "log1p", "sin", "cos", "tan", "asin", "acos", "atan", "atan2",
    "sinh", "cosh", "tanh", "pow", "erf", "erfc", "rsqrtf", "rsqrt", "cbrtf", "cbrt", "__frcp_rn",
    "hexp", "hlog", "hsin", "hcos", "h2exp", "normcdff", "lgammaf", "tgammaf",
}
SQRT = {"sqrtf": "fp32", "sqrt": None, "__fsqrt_rn": "fp32", "hsqrt": "fp16", "__dsqrt_rn": "fp64"}
FMA = {"fmaf": "fp32", "fma": None, "__fmaf_rn": "fp32", "__fmaf_rz": "fp32", "__fma_rn": "fp64",
       "__hfma": "fp16", "__hfma2": "fp16"}
HALF_ARITH = {"__hadd": ("add", 1), "__hsub": ("add", 1), "__hmul": ("mul", 1),
              "__hadd2": ("add", 2), "__hsub2": ("add", 2), "__hmul2": ("mul", 2),
              "__fadd_rn": ("add", 1), "__fmul_rn": ("mul", 1), "__dadd_rn": ("add", 1),
              "__dmul_rn": ("mul", 1), "__fdividef": ("div", 1), "fdividef": ("div", 1)}
INTEGER_FUNCTIONS = set(sx.Call.FUNCTIONS)
FLOAT_MINMAX = {"fminf", "fmaxf", "fmin", "fmax", "fabsf", "fabs", "__hmax", "__hmin", "floorf", "ceilf",
                "roundf", "truncf", "floor", "ceil", "round", "trunc", "copysignf", "__saturatef"}
CASTS = {"static_cast", "reinterpret_cast", "const_cast", "__float2int_rn", "__float2int_rz", "__int_as_float",
         "__float_as_int", "__half2float", "__float2half", "__float2half_rn", "__bfloat162float",
         "__float2bfloat16", "__double2float_rn"}
CAST_RESULT = {"__half2float": "float", "__bfloat162float": "float", "__float2half": "__half",
               "__float2half_rn": "__half", "__float2bfloat16": "__nv_bfloat16", "__float2int_rn": "int",
               "__float2int_rz": "int", "__int_as_float": "float", "__float_as_int": "int",
               "__double2float_rn": "float"}


@record(slots=True)
class Pointer:
    base: str
    space: str
    offset: sx.Expr          # bytes from the allocation's base
    pointee: str | None      # element type name
    dims: tuple = ()         # trailing array dimensions for multi-dimensional arrays

    def moved(self, offset: sx.Expr, dims: tuple) -> "Pointer":
        """The same allocation at another offset (cheaper than dataclasses.replace on a hot path)."""
        return Pointer(self.base, self.space, offset, self.pointee, dims)

    def retyped(self, pointee: str | None) -> "Pointer":
        """The same address seen as a pointer to another element type (no array dimensions)."""
        return Pointer(self.base, self.space, self.offset, pointee, ())


@record(slots=True)
class Value:
    expr: sx.Expr
    ctype: str | None = None
    pointer: Pointer | None = None
    dims: tuple | None = None    # dim3 values: three Exprs
    location: Pointer | None = None  # set for names that are memory themselves (shared scalars)


UNKNOWN = Value(sx.Opaque("?"))
_MISSING = object()


@record
class Scope:
    """What a walk writes into: a Kernel record, or nothing (host code)."""
    accesses: list = field(default_factory=list)
    loops: list = field(default_factory=list)
    branches: list = field(default_factory=list)
    barriers: list = field(default_factory=list)
    calls: list = field(default_factory=list)
    arith: list = field(default_factory=list)
    shared_arrays: list = field(default_factory=list)
    local_arrays: dict = field(default_factory=dict)
    dynamic_local_accesses: list = field(default_factory=list)   # (array, line, column, text)
    early_returns: list = field(default_factory=list)
    flags: set = field(default_factory=set)
    notes: list = field(default_factory=list)
    counter: int = 0

    def add(self, records: list, record):
        """Append a record stamped with `seq`, its position in walk order (inlined helpers included)."""
        self.counter += 1
        record.seq = self.counter
        records.append(record)


class Walker:
    """One walk over one function body (a kernel, or a host function when resolving launches)."""

    def __init__(self, unit, scope: Scope, env: dict, record: bool = True):
        self.unit = unit            # the FileUnit: text, positions, types, device functions, constants
        self.types: TypeTable = unit.types
        self.scope = scope
        self.env = env
        self.record = record
        self.loops: list[Loop] = []
        self.conditions: list[Condition] = []
        self._context: Context | None = None      # the last one made (see context())
        # False after every change to self.loops or self.conditions (each site sets it): while
        # True, context() gives self._context without comparing the lists
        self._context_current = False
        self._builtins: dict = {}                 # name -> Sym (see _builtin)
        self._sizes: dict = {}                    # type name -> its size in bytes (see _size_of)
        self.inline_stack: list[str] = []
        self.return_values: list[Value] | None = None
        self.current_function: str | None = None
        self._pending_unroll = None
        self._statement_depth = 0
        # source texts of the current statement's counted operations (made on the first one)
        self._counted_arith: set | None = None
        self.on_launch = None       # host walks: called with the walker and each `k<<<...>>>(...)` node
        self._source = unit.text    # what the tree was parsed from (ASCII: byte offsets are string offsets)
        self._line_col = unit.line_col
        self._node_text = unit.node_text   # a node's parsed text ('' for None)
        # loop node id -> the variables assigned in it (shared by every walk over the same tree)
        self._assignments = unit.loop_assignments
        if not _EXPRESSION_BY_KIND:
            _load_kind_tables()

    def _builtin(self, name: str) -> sx.Sym:
        """The Sym of a builtin index (`threadIdx.x`, ...): the file's one (sx.shared_sym), kept by
        the walk for a lookup without the call."""
        found = self._builtins.get(name)
        if found is None:
            found = self._builtins[name] = sx.shared_sym(name)
        return found

    def _size_of(self, type_name: str | None) -> int | None:
        """self.types.size_of(type_name), kept per walk: the walk asks the sizes of its few element
        types again for every access, and the file's types do not change during a walk (a
        template kernel's type parameters are bound before it starts and unbound after)."""
        size = self._sizes.get(type_name, _MISSING)
        if size is _MISSING:
            size = self._sizes[type_name] = self.types.size_of(type_name)
        return size

    # -- positions ---------------------------------------------------------------------------
    def where(self, node) -> tuple[int, int]:
        return self._line_col(node.start_byte)

    def context(self) -> Context:
        """The loops and conditions around the statement being walked. Records made one after
        another under the same ones share one Context. Both lists only grow and shrink at their
        end, and every Loop and Condition is pushed once: the same lengths and the same last
        entries are the same lists. Nothing pushed or popped since the last call: the last one,
        without the comparison (two of three calls; tests/test_walkfast13_context.py)."""
        if self._context_current:
            return self._context
        self._context_current = True
        loops, conditions, known = self.loops, self.conditions, self._context
        if known is not None and len(known.loops) == len(loops) and len(known.conditions) == len(conditions) \
                and (not loops or known.loops[-1] is loops[-1]) \
                and (not conditions or known.conditions[-1] is conditions[-1]):
            return known
        known = self._context = Context(tuple(loops), tuple(conditions))
        return known

    def text(self, node) -> str:
        return self.unit.original_text(node)

    # -- statements --------------------------------------------------------------------------
    def walk_body(self, body) -> None:
        if body is not None:
            self.statement(body)

    def statement(self, node) -> None:
        self._statement_depth += 1
        counted, self._counted_arith = self._counted_arith, None
        try:
            if self._statement_depth > MAX_STATEMENT_DEPTH:
                self._note_once("statements nest too deeply; the innermost ones are not analysed")
                return
            handler = _STATEMENT_BY_KIND.get(node.kind_id)
            if handler is not None:
                handler(self, node)
                return
            kind = node.type
            if kind.startswith("preproc_"):
                self.stmt_preproc(node)
            elif node.is_named and kind not in _NOT_EXPRESSIONS:
                self.expression(node)
            elif kind == "ERROR":
                for child in node.named_children:
                    if child.type.endswith("statement") or child.type == "declaration":
                        self.statement(child)
        finally:
            self._statement_depth -= 1
            self._counted_arith = counted

    def stmt_compound_statement(self, node) -> None:
        depth = len(self.conditions)
        pending_unroll = None
        for child in node.named_children:
            kind = child.kind_id
            if kind in _PREPROC_CALL_KINDS and b"unroll" in child.text:
                pending_unroll = _unroll_factor(child.text.decode("latin-1"))
                continue
            if pending_unroll is not None and kind in _LOOP_KINDS:
                self._pending_unroll = pending_unroll
            pending_unroll = None
            self.statement(child)
            # (_always_exits(child), without its call for the statements that cannot exit)
            if kind in _EXIT_KINDS or kind in _BLOCK_OR_IF_KINDS and _always_exits(child):
                break
        del self.conditions[depth:]
        self._context_current = False

    def stmt_preproc(self, node) -> None:
        # The preprocessor pass resolves #if before parsing, so what reaches here are #define,
        # #pragma and #include lines, which hold no statements. Should an #if survive (the grammar
        # nests it in a function body), its first branch is the one analysed.
        if node.type not in ("preproc_if", "preproc_ifdef"):
            return
        condition = node.child_by_field_id(FIELD.condition)
        for child in node.named_children:
            if child == condition or child.type in ("identifier", "preproc_else", "preproc_elif", "preproc_elifdef"):
                continue
            self.statement(child)

    def stmt_expression_statement(self, node) -> None:
        # (one expression before its `;`, nearly always: read alone, see _first_named_child)
        if node.named_child_count == 1:
            self.expression(node.named_child(0))
            return
        for child in node.named_children:
            self.expression(child)

    def stmt_declaration(self, node) -> None:
        type_node = node.child_by_field_id(FIELD.type)
        source = self._source
        # (slices of the parsed text, as _node_text makes them, without its call: asked for every
        # declaration, declarator and assignment)
        base_type = normalise_type(source[type_node.start_byte:type_node.end_byte]) if type_node is not None else "int"
        start, end = node.start_byte, node.end_byte
        if source.find("__shared__", start, end) < 0 and source.find("extern", start, end) < 0:
            is_shared = is_extern = False       # (most declarations: the qualifiers' text is not there)
        else:
            qualifiers = {source[c.start_byte:c.end_byte] for c in node.children
                          if c.type in ("type_qualifier", "storage_class_specifier")}
            is_shared = "__shared__" in qualifiers
            is_extern = "extern" in qualifiers
        for declarator in node.children_by_field_id(FIELD.declarator):
            self._declare(declarator, base_type, is_shared, is_extern)

    def _declare(self, declarator, base_type: str, is_shared: bool, is_extern: bool) -> None:
        value_node = None
        if declarator.kind_id in _INIT_DECLARATOR_KINDS:
            value_node = declarator.child_by_field_id(FIELD.value)
            declarator = declarator.child_by_field_id(FIELD.declarator)
        name, pointer_depth, dims = self._declarator_shape(declarator)
        if name is None:
            return
        if dims is not None:
            elem = self.types.size_of(base_type) or 4
            if is_shared:
                dynamic = is_extern or any(d is None for d in dims) or not dims
                line = self._line_col(declarator.start_byte)[0]    # (asked only here: most declarations are scalars)
                self.scope.shared_arrays.append(SharedArray(name, elem, tuple(dims), dynamic, line))
                self.env[name] = Value(sx.Const(0), base_type, Pointer(name, "shared", sx.Const(0), base_type, tuple(dims)))
            else:
                known = [d for d in dims if d is not None]
                size = elem
                for d in known:
                    size *= d
                self.scope.local_arrays[name] = size
                self.env[name] = Value(sx.Const(0), base_type, Pointer(name, "local", sx.Const(0), base_type, tuple(dims)))
            return
        declared_type = base_type + "*" * pointer_depth
        if is_shared and pointer_depth == 0:
            # `__shared__ int hits;`: a one-element shared array read and written by name
            elem = self.types.size_of(base_type) or 4
            line = self._line_col(declarator.start_byte)[0]
            self.scope.shared_arrays.append(SharedArray(name, elem, (), is_extern, line))
            location = Pointer(name, "shared", sx.Const(0), base_type)
            self.env[name] = Value(sx.Load(name, sx.Const(0)), base_type, None, None, location)
            return
        if value_node is None:
            self.env[name] = Value(sx.shared_sym(name), declared_type)
            return
        value_kind = value_node.kind_id
        if value_kind in _LIST_KINDS:
            parts = [self.expression(c) for c in value_node.named_children]
            if base_type == "dim3":
                exprs = [p.expr for p in parts] + [sx.Const(1)] * (3 - len(parts))
                self.env[name] = Value(sx.Opaque("dim3"), "dim3", dims=tuple(exprs[:3]))
            elif len(parts) == 1:
                first = parts[0]
                self.env[name] = Value(first.expr, declared_type if not first.pointer else first.ctype, first.pointer,
                                       first.dims, first.location)
            else:
                self.env[name] = Value(sx.Opaque(name, tuple(p.expr for p in parts)), declared_type)
            return
        if pointer_depth == 1 and self._hands_out_shared_memory(value_node):
            # `T* sdata = SharedMemory<T>();`: the block's dynamic shared memory, as an extern array
            line = self._line_col(declarator.start_byte)[0]
            self.scope.shared_arrays.append(SharedArray(name, self.types.size_of(base_type) or 4, (None,), True, line))
            self.env[name] = Value(sx.Const(0), declared_type, Pointer(name, "shared", sx.Const(0), base_type, ()))
            return
        if value_kind in _BINARY_KINDS:
            # (what `expression` gives, at the depth it hands its handler, without the Value it
            # would make only to be read here: tests/test_walkfast_binary_parts.py)
            value, expr, ctype, _ = self._binary_parts(value_node, 1)
            if value is None:
                self.env[name] = Value(expr, ctype if base_type == "auto" else declared_type)
                return
        elif value_kind in _DECLARED_PARTS:
            # a number, `threadIdx.x` or `a[i]`: its parts, as `expression` gives them at the depth
            # it hands its handler, without a Value made only to be re-wrapped below
            # (tests/test_walkfast11_value_parts.py)
            if value_kind in _SUBSCRIPT_KINDS:
                value, expr, ctype, _ = self._subscript_parts(value_node, 1, True)
            else:
                value, expr, ctype, _ = self._operand(value_node, 0)
            if value is None:
                self.env[name] = Value(expr, ctype if base_type == "auto" else declared_type)
                return
        else:
            value = self.expression(value_node, whole_struct=True)
        if pointer_depth == 0 and value.pointer is not None and base_type != "auto" and value.dims is None:
            self.env[name] = value  # arrays decaying: keep the pointer
        elif pointer_depth and value.pointer is not None:
            pointee = base_type + "*" * (pointer_depth - 1)
            pointer = value.pointer
            if pointee and pointee != "void" and pointee != pointer.pointee:
                pointer = pointer.retyped(pointee)
            self.env[name] = Value(value.expr, declared_type, pointer)
        else:
            ctype = value.ctype if base_type == "auto" else declared_type
            self.env[name] = Value(value.expr, ctype, None, value.dims)

    def _declarator_shape(self, declarator):
        """(name, pointer depth, array dims or None)."""
        pointer_depth = 0
        dims = None
        node = declarator
        while node is not None:
            kind = node.kind_id
            if kind in _NAME_KINDS:
                return self._source[node.start_byte:node.end_byte], pointer_depth, dims
            if kind in _POINTER_DECLARATOR_KINDS:
                pointer_depth += 1
                node = node.child_by_field_id(FIELD.declarator)
            elif kind in _REFERENCE_DECLARATOR_KINDS:
                node = node.named_children[-1] if node.named_children else None
            elif kind in _ARRAY_DECLARATOR_KINDS:
                size_node = node.child_by_field_id(FIELD.size)
                size = sx.try_constant(self._expr_of(size_node)) if size_node is not None else None
                if size is not None and size < 0:
                    line, column = self._line_col(size_node.start_byte)
                    raise InvalidSource(line, column, f"array has a negative size ({size})")
                dims = [size] + (dims or [])
                node = node.child_by_field_id(FIELD.declarator)
            elif kind in _PARENTHESIZED_DECLARATOR_KINDS:
                node = node.named_children[0] if node.named_children else None
            else:
                return None, 0, None
        return None, 0, None

    def stmt_if_statement(self, node) -> None:
        condition = self._condition_of(node.child_by_field_id(FIELD.condition))
        line, column = self._line_col(node.start_byte)
        alternative = node.child_by_field_id(FIELD.alternative)
        if self.record:
            self.scope.add(self.scope.branches, Branch(condition, line, column, self.context(), "if", alternative is not None))
        consequence = node.child_by_field_id(FIELD.consequence)
        before = dict(self.env)
        has_else = alternative is not None
        self.conditions.append(Condition(condition, line, exclusive=has_else))
        self._context_current = False
        self.statement(consequence)
        self.conditions.pop()
        self._context_current = False
        after_then = self.env
        if has_else:
            self.env = dict(before)
            self.conditions.append(Condition(condition, line, negated=True, exclusive=True))
            self._context_current = False
            for child in alternative.named_children:
                self.statement(child)
            self.conditions.pop()
            self._context_current = False
            after_else = self.env
        else:
            after_else = before     # (nothing runs on it: no copy, and _merge knows it unchanged)
        self.env = _merge(condition, after_then, after_else, before)
        then_exits = _always_exits(consequence)
        else_exits = alternative is not None and all(_always_exits(c) for c in alternative.named_children)
        if then_exits and not else_exits:
            self.conditions.append(Condition(condition, line, negated=True))
            self._context_current = False
        elif else_exits and not then_exits:
            self.conditions.append(Condition(condition, line))
            self._context_current = False

    def stmt_for_statement(self, node) -> None:
        self._pending_unroll, unroll = None, getattr(self, "_pending_unroll", None)
        initializer = node.child_by_field_id(FIELD.initializer)
        var = None
        if initializer is not None:
            if initializer.type == "declaration":
                self.stmt_declaration(initializer)
                declarator = initializer.child_by_field_id(FIELD.declarator)
                if declarator is not None and declarator.type == "init_declarator":
                    var = self._node_text(declarator.child_by_field_id(FIELD.declarator))
            else:
                self.expression(initializer)
                if initializer.type == "assignment_expression":
                    var = self._node_text(initializer.child_by_field_id(FIELD.left))
        condition_node = node.child_by_field_id(FIELD.condition)
        update_node = node.child_by_field_id(FIELD.update)
        body = node.child_by_field_id(FIELD.body)
        declared = var is not None and initializer.type == "declaration"
        if var is None and initializer is None:
            # `for (; i < n; i += stride)` continues with a variable of the enclosing scope
            var = self._updated_variable(update_node)
        line, _ = self._line_col(node.start_byte)
        start = self.env.get(var).expr if var and var in self.env else None
        step, step_op = self._loop_step(update_node, var)
        assigned = self._enter_loop_variables(node, var, step, step_op)
        condition = self._expr_of(condition_node) if condition_node is not None else sx.Const(1)
        bound, compare = _loop_bound(condition_node, var, self)
        thread_dependent = any(e is not None and e.thread_dependent for e in (start, bound, step)) or \
            (bound is None and condition.thread_dependent)
        loop = Loop("for", line, var, start, bound, step, compare, None, unroll, len(self.loops) + 1, thread_dependent)
        loop.step_op = step_op
        self._run_loop(loop, body, update_node, assigned)
        if var is not None and not declared and var in self.env and _only_updated_by_the_loop(node, var, self):
            exit_value = _exit_value(loop)
            if exit_value is not None:
                # the unrolled main loop's leftover elements are handled by a second loop that starts here
                self.env[var] = Value(exit_value, self.env[var].ctype)

    def _hands_out_shared_memory(self, value_node) -> bool:
        """A call of a constructor of a struct whose conversion hands out `extern __shared__` memory."""
        if not self.types.shared_memory_structs or value_node.kind_id not in _CALL_KINDS:
            return False
        callee = self._node_text(value_node.child_by_field_id(FIELD.function)).split("<")[0].split("::")[-1].strip()
        return callee in self.types.shared_memory_structs

    def _updated_variable(self, update_node):
        """The variable a loop's update expression advances (`i++`, `i += s`, `i = i + s`, the first
        of `i++, k++`), if any."""
        if update_node is not None and update_node.type == "comma_expression":
            update_node = update_node.child_by_field_id(FIELD.left)
        if update_node is None or update_node.type not in ("update_expression", "assignment_expression"):
            return None
        target = update_node.child_by_field_id(FIELD.left) or update_node.child_by_field_id(FIELD.argument)
        if target is None or target.type != "identifier":
            return None
        name = self._node_text(target)
        return name if name in self.env else None

    def stmt_while_statement(self, node) -> None:
        self._pending_unroll = None
        condition_node = node.child_by_field_id(FIELD.condition)
        body = node.child_by_field_id(FIELD.body)
        assigned = self._enter_loop_variables(node, None, None, None)
        condition = self._condition_of(condition_node)
        line, _ = self._line_col(node.start_byte)
        loop = Loop("while", line, None, None, None, None, "?", None, None, len(self.loops) + 1,
                    condition.thread_dependent)
        loop.step_op = None
        self._run_loop(loop, body, None, assigned)

    def stmt_do_statement(self, node) -> None:
        self._pending_unroll = None
        body = node.child_by_field_id(FIELD.body)
        condition_node = node.child_by_field_id(FIELD.condition)
        assigned = self._enter_loop_variables(node, None, None, None)
        line, _ = self._line_col(node.start_byte)
        loop = Loop("do", line, None, None, None, None, "?", None, None, len(self.loops) + 1, False)
        loop.step_op = None
        self._run_loop(loop, body, None, assigned)
        if condition_node is not None:
            loop.thread_dependent = self.expression(condition_node).expr.thread_dependent

    def _run_loop(self, loop: Loop, body, update_node, assigned: set) -> None:
        if self.record:
            self.scope.add(self.scope.loops, loop)
        self.loops.append(loop)
        self._context_current = False
        depth = len(self.conditions)
        loop.condition_depth = depth    # conditions pushed later guard statements inside the loop only
        loop.assigned = frozenset(assigned)
        self.statement(body) if body is not None else None
        del self.conditions[depth:]
        self._context_current = False
        if update_node is not None:
            recording, self.record = self.record, False
            self.expression(update_node)
            self.record = recording
        self.loops.pop()
        self._context_current = False

    def _loop_step(self, update_node, var):
        """The induction variable's change per iteration: (Expr, op) with op '+' or a geometric op."""
        if update_node is None or var is None:
            return None, None
        while update_node.type == "comma_expression":   # `i++, k++`: the part that updates var
            left = update_node.child_by_field_id(FIELD.left)
            right = update_node.child_by_field_id(FIELD.right)
            update_node = left if _updates(self, left, var) else right
        kind = update_node.type
        if kind == "update_expression":
            operand = self._node_text(update_node.child_by_field_id(FIELD.argument))
            if operand != var:
                return None, None
            operator = self._node_text(update_node.child_by_field_id(FIELD.operator))
            return sx.Const(1 if operator == "++" else -1), "+"
        if kind == "assignment_expression":
            left = self._node_text(update_node.child_by_field_id(FIELD.left))
            if left != var:
                return None, None
            operator = self._node_text(update_node.child_by_field_id(FIELD.operator))
            right = update_node.child_by_field_id(FIELD.right)
            recording, self.record = self.record, False
            amount = self._expr_of(right)
            self.record = recording
            if operator == "+=":
                return amount, "+"
            if operator == "-=":
                return sx.binary("-", 0, amount), "+"
            if operator in ("*=", "<<=", ">>=", "/="):
                return amount, operator[:-1]
            if operator == "=" and right.type == "binary_expression":
                left_operand = self._node_text(right.child_by_field_id(FIELD.left))
                op = self._node_text(right.child_by_field_id(FIELD.operator))
                if left_operand == var and op in ("+", "-", "*", "/", ">>", "<<"):
                    amount = self._expr_of(right.child_by_field_id(FIELD.right))
                    return (amount, "+") if op == "+" else (sx.binary("-", 0, amount), "+") if op == "-" else (amount, op)
        return None, None

    def _enter_loop_variables(self, node, var, step, step_op) -> set:
        """Variables assigned in the loop become named unknowns whose default is their value on entry.
        Returns the names assigned in the loop."""
        assignments = _loop_assignments(node, self)
        assigned = set(assignments)
        for name, values in assignments.items():
            old = self.env.get(name)
            if old is None:
                continue
            varying = old.expr.thread_dependent or _updates_thread_dependent(name, values, self)
            if old.pointer is not None:
                offset = sx.shared_loop_sym(f"{name}@off", old.pointer.offset, varying)
                self.env[name] = Value(old.expr, old.ctype, old.pointer.moved(offset, old.pointer.dims))
            elif old.dims is None:
                self.env[name] = Value(sx.shared_loop_sym(name, old.expr, varying), old.ctype)
        if var and var in self.env and var not in assigned:
            old = self.env[var]
            self.env[var] = Value(sx.shared_loop_sym(var, old.expr, old.expr.thread_dependent), old.ctype)
        return assigned

    def stmt_return_statement(self, node) -> None:
        value = None
        for child in node.named_children:
            value = self.expression(child, whole_struct=True)
        if self.return_values is not None:
            self.return_values.append(value or UNKNOWN)
            return
        if self.record and (self.conditions or self.loops):
            line, column = self._line_col(node.start_byte)
            condition = _conjunction(self.conditions)
            self.scope.add(self.scope.early_returns, Branch(condition, line, column, self.context(), "return"))

    def stmt_switch_statement(self, node) -> None:
        condition = self._condition_of(node.child_by_field_id(FIELD.condition))
        line, column = self._line_col(node.start_byte)
        if self.record:
            self.scope.add(self.scope.branches, Branch(condition, line, column, self.context(), "switch", True))
        self.conditions.append(Condition(condition, line))
        self._context_current = False
        body = node.child_by_field_id(FIELD.body)
        if body is not None:
            for child in body.named_children:
                if child.type == "case_statement":
                    for statement in child.named_children[1:] if child.child_by_field_id(FIELD.value) else child.named_children:
                        self.statement(statement)
                else:
                    self.statement(child)
        self.conditions.pop()
        self._context_current = False

    def stmt_labeled_statement(self, node) -> None:
        for child in node.named_children[1:]:
            self.statement(child)

    def stmt_attributed_statement(self, node) -> None:
        for child in node.named_children:
            if child.type != "attribute_declaration":
                self.statement(child)

    def stmt_function_definition(self, node) -> None:
        pass  # local class members, lambdas handled as expressions

    def stmt_struct_specifier(self, node) -> None:
        pass

    # -- expressions -------------------------------------------------------------------------
    def expression(self, node, depth: int = 0, whole_struct: bool = False) -> Value:
        if node is None:
            return UNKNOWN
        if depth > MAX_EXPRESSION_DEPTH:
            self._note_once("expression nests too deeply; its inner part is not analysed")
            return Value(sx.Opaque("..."))
        kind = node.kind_id
        # names and numbers are half of all expressions: read here, without the handler's call
        if kind in _IDENTIFIER_KINDS:
            return self.expr_identifier(node, depth + 1)
        if kind in _NUMBER_KINDS:
            return _number(self._source[node.start_byte:node.end_byte])
        handler = _EXPRESSION_BY_KIND.get(kind)
        if handler is None:
            for child in node.named_children:
                self.expression(child, depth + 1)
            return Value(sx.Opaque(node.type))
        return handler(self, node, depth + 1, whole_struct)

    def expr_number_literal(self, node, depth, whole_struct=False) -> Value:
        return _number(self._source[node.start_byte:node.end_byte])

    def expr_char_literal(self, node, depth, whole_struct=False) -> Value:
        text = self._node_text(node)
        return Value(sx.Const(ord(text[1]) if len(text) == 3 else 0), "char")

    def expr_true(self, node, depth, whole_struct=False) -> Value:
        return Value(sx.Const(1), "bool")

    def expr_false(self, node, depth, whole_struct=False) -> Value:
        return Value(sx.Const(0), "bool")

    def expr_null(self, node, depth, whole_struct=False) -> Value:
        return Value(sx.Const(0), "void*")

    def expr_nullptr(self, node, depth, whole_struct=False) -> Value:
        return Value(sx.Const(0), "void*")

    def expr_string_literal(self, node, depth, whole_struct=False) -> Value:
        return Value(sx.Opaque("string"), "char*")

    def expr_identifier(self, node, depth, whole_struct=False) -> Value:
        name = self._source[node.start_byte:node.end_byte]
        value = self.env.get(name)
        if value is not None:
            if value.location is not None:
                self._record(node, value.location, self._size_of(value.ctype) or 4, "load")
            return value
        if name == "warpSize":
            return Value(sx.Const(32), "int")
        constant = self.unit.constants.get(name)
        if constant is not None:
            return constant
        return Value(sx.shared_sym(name), None)

    def expr_condition_clause(self, node, depth, whole_struct=False) -> Value:
        if node.named_child_count == 1:
            # `(expression)`, the commonest clause, read as stmt_expression_statement reads its one child
            child = node.named_child(0)
            if child.kind_id not in _DECLARATION_KINDS:
                return self.expression(child, depth)
        value = UNKNOWN
        for child in node.named_children:
            if child.type == "declaration":
                self.stmt_declaration(child)
                name, _, _ = self._declarator_shape(child.child_by_field_id(FIELD.declarator))
                value = self.env.get(name, UNKNOWN)
            else:
                value = self.expression(child, depth)
        return value

    def expr_qualified_identifier(self, node, depth, whole_struct=False) -> Value:
        return Value(sx.Opaque(self._node_text(node)))

    def expr_parenthesized_expression(self, node, depth, whole_struct=False) -> Value:
        inner = _last_named_child(node)
        return self.expression(inner, depth, whole_struct) if inner is not None else UNKNOWN

    def expr_comma_expression(self, node, depth, whole_struct=False) -> Value:
        self.expression(node.child_by_field_id(FIELD.left), depth)
        return self.expression(node.child_by_field_id(FIELD.right), depth)

    def expr_field_expression(self, node, depth, whole_struct=False) -> Value:
        # `threadIdx.x` and the like, a tenth of all expressions, recognised by their text
        builtin = _BUILTIN_FIELDS.get(self._source[node.start_byte:node.end_byte])
        if builtin is not None and builtin[0] not in self.env:
            return Value(self._builtin(builtin[1]), "unsigned int")
        return self._field_general(node, depth)

    def _field_general(self, node, depth) -> Value:
        """expr_field_expression for any field expression."""
        argument = node.child_by_field_id(FIELD.argument)
        field_node = node.child_by_field_id(FIELD.field)
        field_name = self._node_text(field_node)
        if argument.type == "identifier":
            base_name = self._node_text(argument)
            if base_name in BUILTIN_INDEX and base_name not in self.env:
                return Value(self._builtin(f"{base_name}.{field_name}"), "unsigned int")
        operator = self._node_text(node.child_by_field_id(FIELD.operator)) or "."
        location = self.lvalue(node)
        if location is not None:
            pointer, size, ctype = location
            if pointer.dims:
                return Value(pointer.offset, ctype, pointer)  # an array member, indexed next
            self._record(node, pointer, size, "load")
            return Value(sx.Load(pointer.base, pointer.offset), ctype)
        base = self.expression(argument, depth)
        if base.dims is not None and field_name in ("x", "y", "z"):
            return Value(base.dims["xyz".index(field_name)], "unsigned int")
        struct_field = self.types.field(base.ctype or "", field_name) if operator == "." else None
        ctype = struct_field.type_name if struct_field else None
        return Value(sx.Opaque(f"{sx.text_of(base.expr)}.{field_name}", (base.expr,)), ctype)

    def expr_subscript_expression(self, node, depth, whole_struct=False) -> Value:
        location = self.lvalue(node)
        if location is None:
            for child in node.named_children:
                self.expression(child, depth)
            return UNKNOWN
        pointer, size, ctype = location
        if pointer.dims:
            return Value(pointer.offset, ctype, pointer)  # a row of a multi-dimensional array
        self._load_value(node, pointer, size, ctype, whole_struct)
        return Value(sx.Load(pointer.base, pointer.offset), ctype)

    def expr_pointer_expression(self, node, depth, whole_struct=False) -> Value:
        operator = self._node_text(node.child_by_field_id(FIELD.operator))
        argument = node.child_by_field_id(FIELD.argument)
        if operator == "&":
            location = self.lvalue(argument)
            if location is not None:
                pointer, _, ctype = location
                return Value(pointer.offset, (ctype or "") + "*", pointer.retyped(ctype))
            return self.expression(argument, depth)
        location = self.lvalue(node)
        if location is None:
            self.expression(argument, depth)
            return UNKNOWN
        pointer, size, ctype = location
        self._load_value(node, pointer, size, ctype, whole_struct)
        return Value(sx.Load(pointer.base, pointer.offset), ctype)

    def _load_value(self, node, pointer: Pointer, size: int, ctype: str | None, whole_struct: bool) -> None:
        layout = self.types.structs.get(self.types.resolve(ctype or ""))
        if layout is not None and whole_struct and size not in (4, 8, 16):
            for struct_field in layout.fields.values():  # the compiler moves a struct field by field
                moved = pointer.moved(sx.binary("+", pointer.offset, struct_field.offset), pointer.dims)
                self._record(node, moved, struct_field.size, "load")
        else:
            self._record(node, pointer, size, "load")

    def expr_binary_expression(self, node, depth, whole_struct=False) -> Value:
        value, expr, ctype, _ = self._binary_parts(node, depth)
        return value if value is not None else Value(expr, ctype)

    def _binary_parts(self, node, depth) -> tuple:
        """(Value or None, expr, ctype, pointer) of a binary expression, as _operand gives an operand's:
        the commonest node with the commonest operands. Names and numbers are read here, without
        the calls of `expression` and their handlers nor a Value for each, and an operand that is a
        binary expression itself gives its parts without a Value (only a pointer's result has one),
        building the same nodes in the same order (tests/test_walker_fast_paths.py compares it with
        _binary_general)."""
        left_node = node.child_by_field_id(FIELD.left)
        right_node = node.child_by_field_id(FIELD.right)
        if depth > MAX_EXPRESSION_DEPTH or left_node is None or right_node is None:
            value = self._binary_general(node, depth)
            return value, value.expr, value.ctype, value.pointer
        # A name with a Value that is not memory, or a number read before, is read here as
        # _operand reads it, and a binary expression's parts are asked as _operand asks them,
        # without _operand's call (two thirds of all operands; tests/test_walkfast12_leaf_operands.py).
        # So are `(a + b)`'s parts, at the depth _operand's two calls would give them, and a builtin
        # index such as `threadIdx.x` (tests/test_walkfast14_operands.py).
        # Written out for each operand: a method shared by both would cost the call this saves.
        source = self._source
        kind = left_node.kind_id
        if kind in _LEAF_NAMES and \
                (left := self.env.get(source[left_node.start_byte:left_node.end_byte])) is not None \
                and left.location is None:
            left_expr, left_ctype, left_pointer = left.expr, left.ctype, left.pointer
        elif kind in _LEAF_NUMBERS and (known := _NUMBERS.get(source[left_node.start_byte:left_node.end_byte])):
            left, (left_expr, left_ctype), left_pointer = None, known, None
        elif kind in _NESTED_BINARIES:
            left, left_expr, left_ctype, left_pointer = self._binary_parts(left_node, depth + 1)
        elif kind in _PARENTHESIZED_BINARIES and depth < MAX_EXPRESSION_DEPTH and left_node.named_child_count \
                and (inner := _last_named_child(left_node)).kind_id in _BINARY_KINDS:
            left, left_expr, left_ctype, left_pointer = self._binary_parts(inner, depth + 2)
        elif kind in _LEAF_FIELDS and \
                (builtin := _BUILTIN_FIELDS.get(source[left_node.start_byte:left_node.end_byte])) is not None \
                and builtin[0] not in self.env:
            left, left_expr, left_ctype, left_pointer = None, self._builtin(builtin[1]), "unsigned int", None
        else:
            left, left_expr, left_ctype, left_pointer = self._operand(left_node, depth)
        kind = right_node.kind_id
        if kind in _LEAF_NAMES and \
                (right := self.env.get(source[right_node.start_byte:right_node.end_byte])) is not None \
                and right.location is None:
            right_expr, right_ctype, right_pointer = right.expr, right.ctype, right.pointer
        elif kind in _LEAF_NUMBERS and (known := _NUMBERS.get(source[right_node.start_byte:right_node.end_byte])):
            right, (right_expr, right_ctype), right_pointer = None, known, None
        elif kind in _NESTED_BINARIES:
            right, right_expr, right_ctype, right_pointer = self._binary_parts(right_node, depth + 1)
        elif kind in _PARENTHESIZED_BINARIES and depth < MAX_EXPRESSION_DEPTH and right_node.named_child_count \
                and (inner := _last_named_child(right_node)).kind_id in _BINARY_KINDS:
            right, right_expr, right_ctype, right_pointer = self._binary_parts(inner, depth + 2)
        elif kind in _LEAF_FIELDS and \
                (builtin := _BUILTIN_FIELDS.get(source[right_node.start_byte:right_node.end_byte])) is not None \
                and builtin[0] not in self.env:
            right, right_expr, right_ctype, right_pointer = None, self._builtin(builtin[1]), "unsigned int", None
        else:
            right, right_expr, right_ctype, right_pointer = self._operand(right_node, depth)
        # The operator is the text between the operands: nothing else lies there but a comment
        # (or, in a tree with errors, whatever the parser skipped), whose text is no operator's.
        operator = source[left_node.end_byte:right_node.start_byte].strip()
        if operator not in _OPERATOR_TOKENS:
            operator_node = node.child_by_field_id(FIELD.operator)
            operator = source[operator_node.start_byte:operator_node.end_byte] if operator_node is not None else ""
        if left_pointer is not None or right_pointer is not None:
            value = self._binary_values(node, operator, left if left is not None else Value(left_expr, left_ctype),
                                        right if right is not None else Value(right_expr, right_ctype))
            return value, value.expr, value.ctype, value.pointer
        if operator in _ARITHMETIC:
            ctype = left_ctype if left_ctype == right_ctype and left_ctype not in _WIDE_INTEGERS else \
                _promote(left_ctype, right_ctype)
        else:
            ctype = "bool" if operator in _COMPARISONS else left_ctype
        if operator in _COUNTED and ctype in FLOAT_PRECISION:    # (integer arithmetic is not counted)
            self._arith(node, operator, ctype, left_expr, right_expr)
        if operator not in sx.BINARY_OPERATORS:
            return None, sx.Opaque(operator, (left_expr, right_expr)), ctype, None
        if left_expr.__class__ in _FOLDLESS and right_expr.__class__ in _FOLDLESS:
            # what sx.binary gives for them: sx.shared_binary, its lookup written out
            signature = (operator, left_expr._key, right_expr._key)
            expr = _BINARY_NODES.get(signature)
            if expr is None:
                expr = sx.new_shared_binary(signature, operator, left_expr, right_expr)
            return None, expr, ctype, None
        return None, sx.binary(operator, left_expr, right_expr), ctype, None

    def _operand(self, node, depth):
        """(Value or None, expr, ctype, pointer) of a binary operator's operand: a name or a number
        is read without expression()'s dispatch (most operands are one or the other), and a number
        or a binary expression without a pointer gets no Value (None) since only its parts are needed."""
        kind = node.kind_id
        if kind in _IDENTIFIER_KINDS:
            value = self.env.get(self._source[node.start_byte:node.end_byte])
            if value is None or value.location is not None:
                value = self.expr_identifier(node, depth + 1)
        elif kind in _NUMBER_KINDS:
            expr, ctype = _number_parts(self._source[node.start_byte:node.end_byte])
            return None, expr, ctype, None
        elif kind in _BINARY_KINDS:
            return self._binary_parts(node, depth + 1)
        elif kind in _OPERAND_FIELDS:
            # `threadIdx.x` and the like: the Sym alone, without the Value that
            # expr_field_expression would wrap it in only for its parts to be read here
            builtin = _BUILTIN_FIELDS.get(self._source[node.start_byte:node.end_byte])
            if builtin is not None and builtin[0] not in self.env:
                return None, self._builtin(builtin[1]), "unsigned int", None
            value = self._field_general(node, depth + 1)
        elif kind in _OPERAND_SUBSCRIPTS:
            return self._subscript_parts(node, depth + 1, False)
        elif kind in _OPERAND_PARENTHESES and depth < MAX_EXPRESSION_DEPTH and node.named_child_count:
            # `(a + b) * c`: the inner expression's parts, as expr_parenthesized_expression would
            # give it through `expression` at depth + 1 (which passes the depth check there)
            return self._operand(_last_named_child(node), depth + 1)
        else:
            handler = _EXPRESSION_BY_KIND.get(kind)
            value = handler(self, node, depth + 1, False) if handler is not None else self.expression(node, depth)
        return value, value.expr, value.ctype, value.pointer

    def _subscript_parts(self, node, depth, whole_struct) -> tuple:
        """(Value or None, expr, ctype, pointer) of `a[i]`, as expr_subscript_expression(node, depth,
        whole_struct) gives it, but an element's load gets no Value (None): a binary operand or a
        declaration's value needs only its parts (tests/test_walkfast11_value_parts.py)."""
        location = self.lvalue(node)
        if location is None:
            for child in node.named_children:
                self.expression(child, depth)
            return UNKNOWN, UNKNOWN.expr, None, None
        pointer, size, ctype = location
        if pointer.dims:
            value = Value(pointer.offset, ctype, pointer)   # a row of a multi-dimensional array
            return value, pointer.offset, ctype, pointer
        if whole_struct:
            self._load_value(node, pointer, size, ctype, True)
        else:
            self._record(node, pointer, size, "load")       # (what _load_value does without whole_struct)
        return None, sx.Load(pointer.base, pointer.offset), ctype, None

    def _expr_of(self, node, depth: int = 0) -> sx.Expr:
        """expression(node, depth).expr, by _operand: without the Value that `expression` would
        make only for its expression to be read (loop conditions, bounds and steps, subscripts'
        indices, ternaries' conditions, array sizes). _operand(node, depth) reads a node as
        expression(node, depth) does, but for the depth check, which is made here
        (tests/test_walkfast2_expr_of.py)."""
        if node is None or depth > MAX_EXPRESSION_DEPTH:
            return self.expression(node, depth).expr
        return self._operand(node, depth)[1]

    def _condition_of(self, node) -> sx.Expr:
        """expression(node).expr for the condition clause of an `if`, `while` or `switch`: its one
        expression (nearly always) read by _expr_of, as expr_condition_clause reads it but without
        the dispatch and the Value that `expression` would make only for the expression to be read
        (tests/test_walkfast10_condition_of.py compares the two)."""
        if node is not None and node.kind_id in _CONDITION_CLAUSES and node.named_child_count == 1:
            child = node.named_child(0)
            if child.kind_id not in _DECLARATION_KINDS:
                # expression(node, 0) hands the clause depth 1, and the clause its child the same
                return self._expr_of(child, 1)
        return self.expression(node).expr

    def _binary_general(self, node, depth) -> Value:
        """expr_binary_expression by the general path: each operand through `expression`."""
        left = self.expression(node.child_by_field_id(FIELD.left), depth)
        right = self.expression(node.child_by_field_id(FIELD.right), depth)
        operator_node = node.child_by_field_id(FIELD.operator)
        operator = self._source[operator_node.start_byte:operator_node.end_byte] if operator_node is not None else ""
        return self._binary_values(node, operator, left, right)

    def _binary_values(self, node, operator: str, left: Value, right: Value) -> Value:
        if left.pointer is not None and operator in ("+", "-") and right.pointer is None:
            return self._offset_pointer(left, right, operator)
        if right.pointer is not None and operator == "+" and left.pointer is None:
            return self._offset_pointer(right, left, operator)
        if operator in _ARITHMETIC:
            ctype = _promote(left.ctype, right.ctype)
        else:
            ctype = "bool" if operator in _COMPARISONS else left.ctype
        if operator in _COUNTED and ctype in FLOAT_PRECISION:    # (integer arithmetic is not counted)
            self._arith(node, operator, ctype, left.expr, right.expr)
        if operator not in sx.BINARY_OPERATORS:
            return Value(sx.Opaque(operator, (left.expr, right.expr)), ctype)
        return Value(sx.binary(operator, left.expr, right.expr), ctype)

    def _offset_pointer(self, pointer_value: Value, amount: Value, operator: str) -> Value:
        pointer = pointer_value.pointer
        elem = self._size_of(pointer.pointee) or 1
        stride = elem
        for d in pointer.dims[1:]:
            stride *= d if d else 1
        delta = sx.binary("*", amount.expr, stride)
        offset = sx.binary(operator, pointer.offset, delta)
        return Value(offset, pointer_value.ctype, pointer.moved(offset, pointer.dims[1:] if len(pointer.dims) > 1 else ()))

    def expr_unary_expression(self, node, depth, whole_struct=False) -> Value:
        operand = self.expression(node.child_by_field_id(FIELD.argument), depth)
        operator = self._node_text(node.child_by_field_id(FIELD.operator))
        if operator in ("-", "~", "!"):
            return Value(sx.Unary(operator, operand.expr) if not isinstance(operand.expr, sx.Const) else
                         sx.Const(sx.Unary(operator, operand.expr).evaluate({})), operand.ctype)
        return operand

    def expr_update_expression(self, node, depth, whole_struct=False) -> Value:
        argument = node.child_by_field_id(FIELD.argument)
        operator = self._node_text(node.child_by_field_id(FIELD.operator))
        delta = Value(sx.Const(1), "int")
        return self._assign(node, argument, "+=" if operator == "++" else "-=", delta, depth)

    def expr_assignment_expression(self, node, depth, whole_struct=False) -> Value:
        operator_node = node.child_by_field_id(FIELD.operator)
        operator = self._source[operator_node.start_byte:operator_node.end_byte] if operator_node is not None else ""
        right_node = node.child_by_field_id(FIELD.right)
        right = self.expression(right_node, depth, whole_struct=True)
        return self._assign(node, node.child_by_field_id(FIELD.left), operator, right, depth)

    def _assign(self, node, target, operator: str, right: Value, depth: int) -> Value:
        # (a name's value read once, for whether it is memory and for its old value; a name
        # with none yet gets its Sym only then)
        old = self.env.get(self._source[target.start_byte:target.end_byte]) \
            if target.kind_id in _IDENTIFIER_KINDS else _MISSING
        if old is not _MISSING and (old is None or old.location is None):
            name = self._source[target.start_byte:target.end_byte]
            if old is None:
                old = Value(sx.shared_sym(name))
            if operator == "=":
                new = right if right.pointer is not None or old.pointer is None else right
                if old.ctype and right.pointer is None and old.pointer is None:
                    new = Value(right.expr, old.ctype, None, right.dims)
                self.env[name] = new
                return new
            op = operator[:-1]
            if old.pointer is not None and op in ("+", "-"):
                new = self._offset_pointer(old, right, op)
            else:
                ctype = _promote(old.ctype, right.ctype) if op in "+-*/%" else old.ctype
                self._arith(target, op, ctype, old.expr, right.expr)
                new = Value(sx.binary(op, old.expr, right.expr) if op in sx.BINARY_OPERATORS else
                            sx.Opaque(op, (old.expr, right.expr)), old.ctype)
            self.env[name] = new
            return new
        location = self.lvalue(target)
        if location is None:
            old = self.expression(target, depth)
            if operator != "=":
                # `v.x *= 2.f` on a float4 or struct local: registers, but still arithmetic
                op = operator[:-1]
                ctype = _promote(old.ctype, right.ctype) if op in "+-*/%" else old.ctype
                self._arith(target, op, ctype, old.expr, right.expr)
            return right
        pointer, size, ctype = location
        if operator != "=":
            self._record(target, pointer, size, "load")
            self._arith(target, operator[:-1], ctype, None, right.expr)
        layout = self.types.structs.get(self.types.resolve(ctype or ""))
        if layout is not None and size not in (4, 8, 16):
            for struct_field in layout.fields.values():
                self._record(target, pointer.moved(sx.binary("+", pointer.offset, struct_field.offset), pointer.dims),
                             struct_field.size, "store")
        else:
            self._record(target, pointer, size, "store", stored=right.expr if operator == "=" else None)
        return right

    def expr_conditional_expression(self, node, depth, whole_struct=False) -> Value:
        condition = self._expr_of(node.child_by_field_id(FIELD.condition), depth)
        line, column = self._line_col(node.start_byte)
        if self.record:
            self.scope.add(self.scope.branches, Branch(condition, line, column, self.context(), "ternary", True))
        self.conditions.append(Condition(condition, line))
        self._context_current = False
        consequence = self.expression(node.child_by_field_id(FIELD.consequence), depth, whole_struct)
        self.conditions[-1] = Condition(condition, line, negated=True)
        self._context_current = False
        alternative = self.expression(node.child_by_field_id(FIELD.alternative), depth, whole_struct)
        self.conditions.pop()
        self._context_current = False
        if consequence.pointer is not None:
            return consequence
        return Value(sx.Select(condition, consequence.expr, alternative.expr),
                     _promote(consequence.ctype, alternative.ctype))

    def expr_cast_expression(self, node, depth, whole_struct=False) -> Value:
        type_node = node.child_by_field_id(FIELD.type)
        value = self.expression(node.child_by_field_id(FIELD.value), depth, whole_struct)
        return self._cast(value, self._node_text(type_node))

    def _cast(self, value: Value, type_text: str) -> Value:
        type_text = normalise_type(type_text)
        if type_text.endswith("*") and value.pointer is not None:
            pointee = type_text[:-1].strip()
            return Value(value.expr, type_text, value.pointer.retyped(pointee))
        if value.ctype and precision_of(value.ctype) and not precision_of(type_text) and type_text in SCALAR_BYTES:
            # float -> int: the value is data, not an index we can follow
            return Value(sx.Opaque(f"({type_text})", (value.expr,)), type_text)
        return Value(value.expr, type_text, value.pointer, value.dims)

    def expr_sizeof_expression(self, node, depth, whole_struct=False) -> Value:
        type_node = node.child_by_field_id(FIELD.type)
        if type_node is not None:
            size = self.types.size_of(normalise_type(self._node_text(type_node)))
            if size:
                return Value(sx.Const(size), "size_t")
        value_node = node.child_by_field_id(FIELD.value)
        if value_node is not None:
            recording, self.record = self.record, False
            value = self.expression(value_node, depth)
            self.record = recording
            size = self.types.size_of(value.ctype)
            if size:
                return Value(sx.Const(size), "size_t")
        return Value(sx.Opaque("sizeof"), "size_t")

    def expr_initializer_list(self, node, depth, whole_struct=False) -> Value:
        parts = [self.expression(c, depth) for c in node.named_children]
        return Value(sx.Opaque("{...}", tuple(p.expr for p in parts)), None,
                     dims=tuple((p.expr for p in parts)) if 1 <= len(parts) <= 3 else None)

    def expr_lambda_expression(self, node, depth, whole_struct=False) -> Value:
        return Value(sx.Opaque("lambda"))

    def expr_gnu_asm_expression(self, node, depth, whole_struct=False) -> Value:
        self.scope.flags.add("inline_asm")
        return Value(sx.Opaque("asm", thread_varying=True))

    def expr_call_expression(self, node, depth, whole_struct=False) -> Value:
        function = node.child_by_field_id(FIELD.function)
        arguments = node.child_by_field_id(FIELD.arguments)
        argument_nodes = arguments.named_children if arguments is not None else []
        # (a plain call has two children, the callee and its arguments; a launch has its <<<...>>> too)
        if node.child_count > 2 and any(c.type == "kernel_call_syntax" for c in node.children):
            if self.on_launch is not None:
                self.on_launch(self, node)
            else:
                self.scope.flags.add("dynamic_parallelism")
            return Value(sx.Opaque("launch"))
        if function is not None and function.kind_id in _FIELD_EXPRESSION_KINDS:
            return self._method_call(node, function, argument_nodes, depth)
        name, template_type = self._callee(function)
        # Intrinsics that read their argument nodes themselves (casts, barriers, atomics, cached
        # loads and stores); a handler that returns None leaves the call to the steps below.
        intrinsic = _INTRINSICS_ON_ARGUMENTS.get(name)
        if intrinsic is not None:
            value = intrinsic(self, node, name, argument_nodes, depth, whole_struct, template_type)
            if value is not None:
                return value
        elif name.startswith("atomic"):
            return self._atomic(node, name, argument_nodes, depth)
        values = [self.expression(a, depth) for a in argument_nodes]
        # (one tuple of the arguments' expressions for the record and an unknown call's node; a list
        # comprehension, since a generator costs more for the few arguments of a call)
        argument_exprs = tuple([v.expr for v in values])
        self._call_record(name, node, argument_exprs)
        # Intrinsics computed from their arguments' values (math, warp votes and shuffles).
        intrinsic = _INTRINSICS_ON_VALUES.get(name) or (Walker._shuffle if name.startswith("__shfl") else None)
        if intrinsic is not None:
            value = intrinsic(self, node, name, values)
            if value is not None:
                return value
        helper = self.unit.device_functions.get(name)
        if helper is not None:
            return self._inline(helper, name, values, node, template_type)
        if name == "dim3":
            exprs = [v.expr for v in values] + [sx.Const(1)] * (3 - len(values))
            return Value(sx.Opaque("dim3"), "dim3", dims=tuple(exprs[:3]))
        if name in ("make_float2", "make_float4", "make_int2", "make_int4", "make_float3", "make_double2"):
            return Value(sx.Opaque(name, argument_exprs), name[5:])
        return Value(sx.Opaque(name or "call", argument_exprs,
                               thread_varying=name in ("clock", "clock64", "curand", "curand_uniform")))

    # -- intrinsics that read their argument nodes (see _INTRINSICS_ON_ARGUMENTS) -------------------
    def _cast_call(self, node, name, argument_nodes, depth, whole_struct, template_type):
        """static_cast<T>(x) and friends; conversion intrinsics (__float2int_rn, __half2float, ...)."""
        if not argument_nodes:
            return None
        if name in CASTS and template_type is not None:
            return self._cast(self.expression(argument_nodes[0], depth, whole_struct), template_type)
        if name in CAST_RESULT:
            value = self.expression(argument_nodes[0], depth)
            return Value(value.expr if name.endswith(("as_float", "as_int")) else sx.Opaque(name, (value.expr,)),
                         CAST_RESULT[name])
        return None

    def _cg_sync_call(self, node, name, argument_nodes, depth, whole_struct, template_type):
        """cg::sync(g), unless the file defines a `sync` of its own."""
        if len(argument_nodes) != 1 or name in self.unit.device_functions:
            return None
        self.scope.flags.add("cooperative_groups")
        line, column = self._line_col(node.start_byte)
        return self._group_sync(argument_nodes[0], line, column, depth)

    def _barrier_call(self, node, name, argument_nodes, depth, whole_struct, template_type):
        line, column = self._line_col(node.start_byte)
        mask = self.expression(argument_nodes[0], depth).expr if argument_nodes and name == "__syncwarp" else None
        if self.record:
            self.scope.add(self.scope.barriers, Barrier(BARRIERS[name], line, column, self.context(), mask))
        for argument in argument_nodes[(1 if name == "__syncwarp" else 0):]:
            self.expression(argument, depth)
        varying = name != "__syncwarp" and name != "__syncthreads"
        return Value(sx.Opaque(name, thread_varying=False) if varying else sx.Const(0), "int")

    def _cached_load_call(self, node, name, argument_nodes, depth, whole_struct, template_type):
        """__ldg(p) and the other cache-hinted loads: a load of what p points at."""
        if not argument_nodes:
            return None
        target = self._pointer_target(argument_nodes[0], depth)
        self._call_record(name, node, ())
        if target is not None:
            pointer, size, ctype = target
            self._record(node, pointer, size, "load", cached=name)
            return Value(sx.Load(pointer.base, pointer.offset), ctype)
        return UNKNOWN

    def _cached_store_call(self, node, name, argument_nodes, depth, whole_struct, template_type):
        """__stcg(p, v) and the other cache-hinted stores."""
        if len(argument_nodes) < 2:
            return None
        value = self.expression(argument_nodes[1], depth)
        target = self._pointer_target(argument_nodes[0], depth)
        if target is not None:
            self._record(node, target[0], target[1], "store")
        return value

    # -- intrinsics computed from argument values (see _INTRINSICS_ON_VALUES) --------------------
    def _integer_call(self, node, name, values):
        """min, max, abs, __mul24, ...: integer functions the symbolic layer evaluates."""
        if not values or any(v.pointer is not None for v in values):
            return None
        ctype = _promote(values[0].ctype, values[-1].ctype)
        if precision_of(ctype):
            return Value(sx.Opaque(name, tuple([v.expr for v in values])), ctype)
        return Value(sx.Call(name, tuple([v.expr for v in values])), ctype or "int")

    def _shuffle(self, node, name, values):
        """__shfl*_sync, __ballot_sync, __activemask, __lanemask_lt, __match_any_sync."""
        self.scope.flags.add("shuffle")
        varying = name.startswith("__shfl") or name.startswith("__lanemask") or name == "__match_any_sync"
        ctype = values[1].ctype if name.startswith("__shfl") and len(values) > 1 else "unsigned int"
        return Value(sx.Opaque(name, tuple(v.expr for v in values[1:]), thread_varying=varying), ctype)

    def _bit_count_call(self, node, name, values):
        """Warp votes and bit counts: an int."""
        return Value(sx.Opaque(name, tuple([v.expr for v in values])), "int")

    def _fma_call(self, node, name, values):
        precision = FMA[name] or precision_of(_promote(*(v.ctype for v in values[:2]))) or "fp64"
        # packed half2 ops count like one instruction, as ncu's thread-instruction counters do
        self._flop(node, "fma", precision, 2)
        return Value(sx.Opaque(name, tuple([v.expr for v in values])), _type_of_precision(precision))

    def _sqrt_call(self, node, name, values):
        precision = SQRT[name] or precision_of(values[0].ctype if values else None) or "fp64"
        self._flop(node, "sqrt", precision, math_costs.call_flops(name, precision))
        return Value(sx.Opaque(name, tuple([v.expr for v in values])), _type_of_precision(precision))

    def _half_arith_call(self, node, name, values):
        op, _ = HALF_ARITH[name]
        precision = "fp64" if name.startswith("__d") else "fp32" if name.startswith("__f") else \
            precision_of(values[0].ctype if values else None) or "fp16"
        self._flop(node, op, precision, 1)
        return Value(sx.Opaque(name, tuple([v.expr for v in values])), values[0].ctype if values else None)

    def _special_math_call(self, node, name, values):
        precision = "fp32" if name.endswith("f") or name.startswith("__") else "fp64"
        self._flop(node, "special", precision, math_costs.call_flops(name, precision))
        return Value(sx.Opaque(name, tuple([v.expr for v in values])), _type_of_precision(precision))

    def _float_minmax_call(self, node, name, values):
        return Value(sx.Opaque(name, tuple([v.expr for v in values])), values[0].ctype if values else "float")

    def _method_call(self, node, function, argument_nodes, depth) -> Value:
        method = self._node_text(function.child_by_field_id(FIELD.field))
        self.expression(function.child_by_field_id(FIELD.argument), depth)
        values = [self.expression(a, depth) for a in argument_nodes]
        line, column = self._line_col(node.start_byte)
        self.scope.flags.add("cooperative_groups") if method in ("sync", "thread_rank", "shfl", "shfl_down") else None
        if method == "sync":
            return self._group_sync(function.child_by_field_id(FIELD.argument), line, column, depth)
        if method == "thread_rank":
            return Value(sx.Sym("threadIdx.x"), "unsigned int")
        self._call_record(method, node, tuple([v.expr for v in values]))
        return Value(sx.Opaque(method, tuple([v.expr for v in values]),
                               thread_varying=method.startswith("shfl") or method in ("thread_rank",)))

    def _group_sync(self, group_node, line, column, depth) -> Value:
        """`g.sync()` and `cg::sync(g)`: a barrier of the kind the group `g` came from."""
        kind, mask = _group_sync_kind(self.expression(group_node, depth), self._node_text(group_node))
        if self.record:
            self.scope.add(self.scope.barriers, Barrier(kind, line, column, self.context(), mask))
        return Value(sx.Const(0))

    def _atomic(self, node, name, argument_nodes, depth) -> Value:
        values = [self.expression(a, depth) for a in argument_nodes[1:]]
        target = self._pointer_target(argument_nodes[0], depth) if argument_nodes else None
        self._call_record(name, node, tuple([v.expr for v in values]))
        if target is not None:
            pointer, size, ctype = target
            self._record(node, pointer, size, "atomic")
        # the old value each thread gets back: the sync analysis gives it values where it can
        line, column = self._line_col(node.start_byte)
        return Value(sx.AtomicResult(name, line, column), target[2] if target else None)

    def _pointer_target(self, node, depth):
        """Where a pointer-valued argument points: `&a[i]`, `a + i`, `p`."""
        value = self.expression(node, depth)
        if value.pointer is None:
            return None
        pointer = value.pointer
        size = self._size_of(pointer.pointee) or 4
        return pointer, size, pointer.pointee

    def _callee(self, function):
        if function is None:
            return "", None
        if function.kind_id in _IDENTIFIER_KINDS:
            return self._source[function.start_byte:function.end_byte], None     # (a slice: cheaper than .text)
        if function.type == "template_function":
            name = self._node_text(function.child_by_field_id(FIELD.name))
            arguments = function.child_by_field_id(FIELD.arguments)
            type_text = self._node_text(arguments)[1:-1] if arguments is not None else None
            return name.split("::")[-1], type_text
        if function.type == "qualified_identifier":
            return self._node_text(function).split("::")[-1], None
        return self._node_text(function), None

    def _inline(self, helper, name: str, values: list, call_node, template_arguments: str | None = None) -> Value:
        if name in self.inline_stack or len(self.inline_stack) >= MAX_INLINE_DEPTH:
            return Value(sx.Opaque(name, tuple([v.expr for v in values])))
        parameters, body, return_type, template_params = helper
        saved_env, saved_returns, saved_conditions = self.env, self.return_values, list(self.conditions)
        env = {k: v for k, v in saved_env.items() if v.pointer is not None and v.pointer.space == "shared"}
        for param_name, argument in zip(template_params, _split_arguments(template_arguments or "")):
            constant = sx.try_constant(_number(argument).expr) if argument else None
            if param_name and constant is not None:
                env[param_name] = Value(sx.Const(constant), "int")
        for k, (param_name, param_type) in enumerate(parameters):
            if k < len(values):
                value = values[k]
                env[param_name] = value if value.pointer is not None else Value(value.expr, param_type or value.ctype)
        self.env = env
        self.return_values = []
        self.inline_stack.append(name)
        try:
            self.statement(body)
        finally:
            self.inline_stack.pop()
            results = self.return_values
            self.env, self.return_values, self.conditions = saved_env, saved_returns, saved_conditions
            self._context_current = False
        if not results:
            return Value(sx.Opaque(name), return_type)
        result = results[-1]
        return result if result.pointer is not None else Value(result.expr, return_type or result.ctype)

    # -- locations and records ---------------------------------------------------------------
    def _location_of(self, identifier_node):
        value = self.env.get(self._node_text(identifier_node))
        return value.location if value is not None else None

    def lvalue(self, node):
        """(Pointer at the element, bytes accessed, element type) for a memory location, or None."""
        kind = node.kind_id
        if kind in _IDENTIFIER_KINDS:
            location = self._location_of(node)
            if location is None:
                return None
            return location, self._size_of(location.pointee) or 4, location.pointee
        if kind in _PARENTHESIZED_KINDS and node.named_child_count:
            return self.lvalue(_last_named_child(node))
        if kind in _SUBSCRIPT_KINDS:
            argument = node.child_by_field_id(FIELD.argument)
            if argument is not None and argument.kind_id in _SUBSCRIPT_BASE_NAMES:
                # the array's name (most subscripts): what `expression` gives for it, read as
                # _operand reads a name, without the two calls (tests/test_walkfast8_subscript_base.py)
                base = self.env.get(self._source[argument.start_byte:argument.end_byte])
                if base is None or base.location is not None:
                    base = self.expr_identifier(argument, 1)
            else:
                base = self.expression(argument)
            indices = node.child_by_field_id(FIELD.indices)
            index_node = _first_named_child(indices) if indices is not None else None
            if index_node is None:
                index_node = node.child_by_field_name("index")
            if base.pointer is None or index_node is None:
                if index_node is not None:
                    self.expression(index_node)
                return None
            index = self._expr_of(index_node)
            # (what _offset_pointer(base, index, "+").pointer is, without its Value)
            pointer = base.pointer
            dims = pointer.dims
            element = self._sizes.get(pointer.pointee, _MISSING)    # (_size_of, its lookup written out)
            if element is _MISSING:
                element = self._size_of(pointer.pointee)
            stride = element or 1
            for d in dims[1:]:
                stride *= d if d else 1
            offset = sx.element_offset(pointer.offset, index, stride)
            return Pointer(pointer.base, pointer.space, offset, pointer.pointee, dims[1:] if len(dims) > 1 else ()), \
                element or 4, pointer.pointee
        if kind in _POINTER_EXPRESSION_KINDS and self._node_text(node.child_by_field_id(FIELD.operator)) == "*":
            base = self.expression(node.child_by_field_id(FIELD.argument))
            if base.pointer is None:
                return None
            size = self._size_of(base.pointer.pointee) or 4
            return base.pointer, size, base.pointer.pointee
        if kind in _FIELD_EXPRESSION_KINDS:
            argument = node.child_by_field_id(FIELD.argument)
            operator = self._node_text(node.child_by_field_id(FIELD.operator)) or "."
            field_name = self._node_text(node.child_by_field_id(FIELD.field))
            if operator == "->":
                base = self.expression(argument)
                if base.pointer is None:
                    return None
                pointer, element = base.pointer, base.pointer.pointee
            else:
                if argument.type not in ("subscript_expression", "pointer_expression", "field_expression",
                                         "parenthesized_expression"):
                    return None
                inner = self.lvalue(argument)
                if inner is None:
                    return None
                pointer, _, element = inner
            struct_field = self.types.field(element or "", field_name)
            if struct_field is None:
                return None
            offset = sx.binary("+", pointer.offset, struct_field.offset)
            if struct_field.count > 1:
                # an array member (`p->s1[i]`): a row to index, not a value
                return Pointer(pointer.base, pointer.space, offset, struct_field.type_name, (struct_field.count,)), \
                    struct_field.size, struct_field.type_name
            moved = pointer.moved(offset, ())
            return moved, struct_field.size, struct_field.type_name
        return None

    def _record(self, node, pointer: Pointer, size: int, op: str, cached: str | None = None, stored=None) -> None:
        if not self.record:
            return
        if pointer.space == "local":
            # Registers cannot be indexed at run time: an index from data or from the thread puts
            # the array in local memory (constant and unrolled-counter indices stay in registers).
            if pointer.offset.has_load() or pointer.offset.thread_dependent:
                line, column = self._line_col(node.start_byte)
                self.scope.dynamic_local_accesses.append((pointer.base, line, column, self.text(node)))
            return
        line, column = self._line_col(node.start_byte)
        stride = self._size_of(pointer.pointee) if pointer.pointee else None
        access = Access(pointer.base, pointer.space, op, pointer.offset, size, line, column,
                        self.text(node), self.context(), stride, self.inline_stack[-1] if self.inline_stack else None)
        if cached:
            access.cached = cached
        if stored is not None:
            access.stored = stored      # the value a plain store writes (the sync analysis asks whether it is uniform)
        self.scope.add(self.scope.accesses, access)

    def _arith(self, node, operator: str, ctype: str | None, left=None, right=None) -> None:
        # (precision_of(ctype), its lookup written out: a call of its own per float operation)
        precision = FLOAT_PRECISION.get(ctype) if ctype else None
        if precision is None or operator not in _COUNTED:
            return
        if node.kind_id in _BINARY_KINDS:
            # `(x[c] - mean) * (x[c] - mean)`: the compiler computes a repeated subexpression of one
            # statement once, and so does ncu's count
            text = self._source[node.start_byte:node.end_byte]
            if self._counted_arith is None:
                self._counted_arith = {text}
            elif text in self._counted_arith:
                return
            else:
                self._counted_arith.add(text)
        if operator == "/" and precision in ("fp32", "fp64"):
            cost = math_costs.division_flops(precision, _constant_value(left), _constant_value(right))
            self._flop(node, "div", precision, cost)
            return
        # what _flop(node, _FLOP_KINDS[operator], precision, 1) does, written out with Scope.add's
        # stamping: most Arith records come from here, one per counted operator
        # (tests/test_walkfast14_arith.py compares the records with _flop's)
        if self.record:
            scope = self.scope
            arith = Arith(_FLOP_KINDS[operator], precision, 1, self._line_col(node.start_byte)[0], self.context())
            scope.counter += 1
            arith.seq = scope.counter
            scope.arith.append(arith)

    def _flop(self, node, op: str, precision: str, flops: int) -> None:
        if self.record:
            line, _ = self._line_col(node.start_byte)
            self.scope.add(self.scope.arith, Arith(op, precision, flops, line, self.context()))

    def _call_record(self, name: str, node, args: tuple) -> None:
        if self.record and name:
            line, column = self._line_col(node.start_byte)
            self.scope.add(self.scope.calls, Call(name, line, column, args, self.context()))

    def _note_once(self, message: str) -> None:
        if message not in self.scope.notes:
            self.scope.notes.append(message)


# Dispatch tables: node type -> unbound method (expressions: walker, node, depth, whole_struct).
_EXPRESSION_HANDLERS = {name[len("expr_"):]: function for name, function in vars(Walker).items()
                        if name.startswith("expr_")}
_STATEMENT_HANDLERS = {name[len("stmt_"):]: function for name, function in vars(Walker).items()
                       if name.startswith("stmt_")}

# The same tables, and the node types the walk compares most often, by node kind id: an int, where
# node.type is a string made anew on every read (and hashed anew for every lookup). Every id the
# grammar names like the type is in (several ids share a name where the grammar aliases a rule),
# so that a kind id finds what the node's type finds; an ERROR node's id is in none, as its type
# is in none of the tables. Filled when the first Walker is made: importing the module does not
# load the grammar. (tests/test_walker_kinds.py compares both readings on every node of the
# project's CUDA files.)
_EXPRESSION_BY_KIND: dict = {}
_STATEMENT_BY_KIND: dict = {}
# The kind id sets the walk reads, by the node types each stands for (set as module globals).
_KIND_SETS = {
    "_IDENTIFIER_KINDS": ("identifier",),
    "_NUMBER_KINDS": ("number_literal",),
    "_PREPROC_CALL_KINDS": ("preproc_call",),
    "_LOOP_KINDS": ("for_statement", "while_statement", "do_statement"),
    "_EXIT_KINDS": ("return_statement", "continue_statement", "break_statement"),
    "_BLOCK_OR_IF_KINDS": ("compound_statement", "if_statement"),
    "_COMPOUND_KINDS": ("compound_statement",),
    "_IF_KINDS": ("if_statement",),
    "_BINARY_KINDS": ("binary_expression",),
    "_FIELD_EXPRESSION_KINDS": ("field_expression",),
    "_PARENTHESIZED_KINDS": ("parenthesized_expression",),
    "_OPERAND_PARENTHESES": ("parenthesized_expression",),   # those _operand sees through (a test empties it)
    "_OPERAND_FIELDS": ("field_expression",),     # those _operand reads builtins of (a test empties it)
    "_SUBSCRIPT_KINDS": ("subscript_expression",),
    "_SUBSCRIPT_BASE_NAMES": ("identifier",),     # the array names lvalue reads itself (a test empties it)
    "_POINTER_EXPRESSION_KINDS": ("pointer_expression",),
    "_NAME_KINDS": ("identifier", "field_identifier"),
    "_POINTER_DECLARATOR_KINDS": ("pointer_declarator",),
    "_REFERENCE_DECLARATOR_KINDS": ("reference_declarator",),
    "_ARRAY_DECLARATOR_KINDS": ("array_declarator",),
    "_PARENTHESIZED_DECLARATOR_KINDS": ("parenthesized_declarator",),
    "_INIT_DECLARATOR_KINDS": ("init_declarator",),
    "_LIST_KINDS": ("argument_list", "initializer_list"),
    "_CALL_KINDS": ("call_expression",),
    "_DECLARATION_KINDS": ("declaration",),
    "_CONDITION_CLAUSES": ("condition_clause",),   # those _condition_of reads alone (a test empties it)
    "_OPERAND_SUBSCRIPTS": ("subscript_expression",),  # those _operand reads by _subscript_parts (a test empties it)
    "_DECLARED_PARTS": ("number_literal", "field_expression", "subscript_expression"),  # _declare's (likewise)
    "_LEAF_NAMES": ("identifier",),         # the operands _binary_parts reads itself (a test empties them)
    "_LEAF_NUMBERS": ("number_literal",),
    "_NESTED_BINARIES": ("binary_expression",),
    "_PARENTHESIZED_BINARIES": ("parenthesized_expression",),    # (_binary_parts' too)
    "_LEAF_FIELDS": ("field_expression",),
}
globals().update(dict.fromkeys(_KIND_SETS, frozenset()))


def kind_table(handlers: dict) -> dict:
    """node kind id -> handler, of a table by node type."""
    return {kind: handler for name, handler in handlers.items() for kind in kind_ids(name)}


def _load_kind_tables() -> None:
    global _EXPRESSION_BY_KIND, _STATEMENT_BY_KIND
    _STATEMENT_BY_KIND = kind_table(_STATEMENT_HANDLERS)
    globals().update({name: kind_ids(*types) for name, types in _KIND_SETS.items()})
    _EXPRESSION_BY_KIND = kind_table(_EXPRESSION_HANDLERS)     # (last: Walker() asks whether it is filled)


def _intrinsic_table(*groups) -> dict:
    """name -> handler from (names, handler) groups; a name in two groups would make the walk
    depend on the order they are listed in, so that is refused."""
    table: dict = {}
    for names, handler in groups:
        for name in names:
            if name in table:
                raise ValueError(f"intrinsic {name} has two handlers")
            table[name] = handler
    return table


# Intrinsics by name (atomic* is a prefix: atomicAdd, atomicCAS_block, ...; so is __shfl).
_INTRINSICS_ON_ARGUMENTS = _intrinsic_table(
    (CASTS | set(CAST_RESULT), Walker._cast_call),
    (("sync",), Walker._cg_sync_call),
    (BARRIERS, Walker._barrier_call),
    (CACHED_LOADS, Walker._cached_load_call),
    (CACHED_STORES, Walker._cached_store_call),
)
_INTRINSICS_ON_VALUES = _intrinsic_table(
    (INTEGER_FUNCTIONS, Walker._integer_call),
    (("__ballot_sync", "__activemask", "__lanemask_lt", "__match_any_sync"), Walker._shuffle),
    (("__any_sync", "__all_sync", "__popc", "__clz", "__ffs", "__brev", "__popcll"), Walker._bit_count_call),
    (FMA, Walker._fma_call),
    (SQRT, Walker._sqrt_call),
    (HALF_ARITH, Walker._half_arith_call),
    (SPECIAL_MATH, Walker._special_math_call),
    (FLOAT_MINMAX, Walker._float_minmax_call),
)


# -- helpers --------------------------------------------------------------------------------------

# A node's first or last named child, read alone: Node.named_child makes one Node, where
# Node.named_children makes one of every child (tokens included) at about three times the cost
# (tests/test_walkfast3_named_child.py compares the walk with the one by named_children).
def _first_named_child(node):
    """node.named_children[0], or None."""
    return node.named_child(0) if node.named_child_count else None


def _last_named_child(node):
    """node.named_children[-1], or None."""
    count = node.named_child_count
    return node.named_child(count - 1) if count else None


def _group_sync_kind(receiver: Value, receiver_text: str) -> tuple:
    """(barrier kind, lane mask) of `g.sync()` / `cg::sync(g)`: a whole block's barrier for
    this_thread_block(), a grid barrier for this_grid(), a tile barrier over the tile's lanes (the
    mask, None for a whole warp) for tiled_partition<N>(...) with N <= 32; groups of unknown origin stay "cg_sync", which the sync
    analysis reports only when a warp splits at it (whole warps may skip a tile's sync)."""
    origin = receiver.expr.text if isinstance(receiver.expr, sx.Opaque) else ""
    if origin.startswith("this_thread_block"):
        return "syncthreads", None
    if origin.startswith(("this_grid", "this_multi_grid")) or "grid" in receiver_text:
        return "grid_sync", None
    if origin.startswith("tiled_partition"):
        size = _tile_size(origin, receiver.expr.operands)
        if size is not None and 0 < size <= 32 and 32 % size == 0:
            if size == 32:
                return "tile_sync", None
            # the tile's lanes within its warp (the thread's lane rounded down to the tile size)
            first = sx.binary("/", sx.binary("%", sx.Sym("%laneid"), sx.Const(32)), sx.Const(size)) * sx.Const(size)
            return "tile_sync", sx.binary("<<", sx.Const((1 << size) - 1), first)
    return "cg_sync", None


def _tile_size(origin: str, operands: tuple):
    """N of tiled_partition<N>(g) or tiled_partition(g, N), when it is a constant."""
    if "<" in origin:
        digits = origin[origin.index("<") + 1:].rstrip(">").strip()
        return int(digits) if digits.isdigit() else None
    if len(operands) >= 2 and isinstance(operands[1], sx.Const):
        return int(operands[1].value)
    return None


_INT = re.compile(r"^(0[xX][0-9a-fA-F']+|0[bB][01']+|[0-9']+)([uUlL]*)$")


def _constant_value(expr):
    """The number a constant operand holds (int or float), else None."""
    return expr.value if isinstance(expr, sx.Const) else None


_NUMBERS: dict = {}     # literal text -> (Expr, type): a file writes its few constants many times
MAX_CACHED_NUMBERS = 8192


def _number(text: str) -> Value:
    known = _NUMBERS.get(text)
    if known is None:
        known = _read_number(text)
        if len(_NUMBERS) < MAX_CACHED_NUMBERS:
            _NUMBERS[text] = known
    return Value(known[0], known[1])     # a Value of its own (expressions never change: shared)


def _number_parts(text: str) -> tuple:
    """(Expr, type) of a number literal: what _number wraps in a Value. Written out beside _number
    rather than called by it: the general path must not share the fast path's code, or
    tests/test_walker_fast_paths.py could not tell a broken shortcut from the general path."""
    known = _NUMBERS.get(text)
    if known is None:
        known = _read_number(text)
        if len(_NUMBERS) < MAX_CACHED_NUMBERS:
            _NUMBERS[text] = known
    return known


def _read_number(text: str) -> tuple:
    match = _INT.match(text)
    if match:
        digits = match.group(1).replace("'", "")
        suffix = match.group(2).lower()
        value = int(digits, 0) if not (digits.startswith("0") and len(digits) > 1 and digits[1].isdigit()) else int(digits, 8)
        ctype = "unsigned long long" if "ll" in suffix and "u" in suffix else "long long" if "ll" in suffix else \
            "unsigned int" if "u" in suffix else "long" if "l" in suffix else "int"
        return sx.Const(value), ctype
    lowered = text.lower()
    try:
        if lowered.endswith("f") and not lowered.startswith("0x"):
            return sx.Const(float(lowered[:-1])), "float"
        return sx.Const(float(lowered.rstrip("l"))), "double"
    except ValueError:
        return sx.Opaque(text), None


def _split_arguments(text: str) -> list[str]:
    parts, depth, current = [], 0, []
    for ch in text:
        depth += ch in "(<[" and 1 or 0
        depth -= ch in ")>]" and 1 or 0
        if ch == "," and depth == 0:
            parts.append("".join(current).strip())
            current = []
        else:
            current.append(ch)
    if "".join(current).strip():
        parts.append("".join(current).strip())
    return parts


# floating types, widest first: an operation with one of them has the first one either operand has
_FLOAT_RANKS = ("double", "float", "__half2", "half2", "__nv_bfloat162", "__half", "half", "__nv_bfloat16")
_FLOAT_RANK = {name: rank for rank, name in enumerate(_FLOAT_RANKS)}
_WIDE_INTEGERS = frozenset(("unsigned long long", "long long", "size_t", "long", "int64_t"))


def _promote(a: str | None, b: str | None) -> str | None:
    if a == b and a not in _WIDE_INTEGERS:
        return a                      # (the usual case: what the ranks below give for it)
    rank = min(_FLOAT_RANK.get(a, 99), _FLOAT_RANK.get(b, 99))
    if rank < 99:
        return _FLOAT_RANKS[rank]
    if a in _WIDE_INTEGERS or b in _WIDE_INTEGERS:
        return "long long"
    return a or b


def _type_of_precision(precision: str) -> str:
    return {"fp32": "float", "fp64": "double", "fp16": "__half", "bf16": "__nv_bfloat16"}.get(precision, "float")


def _unroll_factor(text: str):
    match = re.search(r"unroll\s*\(?\s*(\d+)", text)
    return int(match.group(1)) if match else 0


_EXITS = frozenset(("return_statement", "continue_statement", "break_statement"))


def _always_exits(node) -> bool:
    """Does this statement always leave the enclosing block (return/continue/break)? (Asked
    during a walk: the kind id sets are loaded.)"""
    if node is None:
        return False
    kind = node.kind_id
    if kind in _EXIT_KINDS:
        return True
    if kind in _COMPOUND_KINDS:
        return any(_always_exits(c) for c in node.named_children)
    if kind in _IF_KINDS:
        alternative = node.child_by_field_id(FIELD.alternative)
        return alternative is not None and _always_exits(node.child_by_field_id(FIELD.consequence)) and \
            all(_always_exits(c) for c in alternative.named_children)
    return False


_LOOP_STATEMENTS = frozenset(("for_statement", "while_statement", "do_statement"))
_ASSIGNMENT_OPERATORS = frozenset(("=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "^=", "|="))


class AssignmentIndex:
    """What a file's assignments and updates assign, found from their operators' text: every
    assignment operator ends with `=`, every update is `++` or `--`. Each is looked up in the tree
    once per file and kept by its offset (an outer loop asks again about those of the loops nested
    in it), so that a loop's assignments cost a lookup per operator instead of a walk over all of
    its nodes."""

    def __init__(self, source: str):
        self._source = source           # the parsed text (ASCII: byte offsets are string offsets)
        self._at: dict = {}             # operator's end offset -> (variable, value node) or None
        # the last range whose text was searched: (start, end, [(operator's start, its end,
        # (variable, value node))] for the assignments found there)
        self._searched: tuple = (0, -1, [])

    def within(self, node) -> list:
        """(variable, its new value's node or None for an update) for every assignment and update
        of a plain variable under `node` (a tree without errors), in text order. A range inside
        the last one searched (a loop nested in the loop asked before, or its body) takes the
        assignments found there whose operators lie in it, without a search of its own: the same
        ones (a search of its own starting inside a run of `+` or `-` pairs the run's characters
        otherwise, but the tree accepts only the operator tokens, which the search from the
        run's start pairs alike; tests/test_walkfast17_within.py)."""
        start, end = node.start_byte, node.end_byte
        searched_start, searched_end, assignments = self._searched
        if searched_start <= start and end <= searched_end:
            return [assignment for first, last, assignment in assignments if first >= start and last <= end]
        source = self._source
        found = []
        kept = []
        at = self._at
        for operator_end in self._operator_ends(start, end):
            assignment = at.get(operator_end, _MISSING)
            if assignment is _MISSING:
                assignment = at[operator_end] = self._assignment_ending(node, operator_end)
            if assignment is not None:
                found.append(assignment)
                kept.append((operator_end - (1 if source[operator_end - 1] == "=" else 2), operator_end, assignment))
        self._searched = (start, end, kept)
        return found

    def _operator_ends(self, start: int, end: int) -> list:
        """Where an assignment operator or update could end in text[start:end]: after each `=`,
        `++` and `--` (`==` and the like are found too and rejected by the tree)."""
        source, ends = self._source, []
        for text in ("=", "++", "--"):
            position = source.find(text, start, end)
            while position >= 0:
                ends.append(position + len(text))
                position = source.find(text, position + len(text), end)
        ends.sort()
        return ends

    def _assignment_ending(self, node, end: int):
        source = self._source
        width = 1 if source[end - 1] == "=" else 2
        # The smallest named node around the operator's text is the assignment or update whose
        # operator token that is, if any: found from `node` down, where the token's Node.parent
        # would search from the root, costing more the later the node lies in a large file.
        parent = node.named_descendant_for_byte_range(end - width, end)
        kind = parent.type if parent is not None else None
        if kind != "assignment_expression" and kind != "update_expression":
            return None
        token = parent.child_by_field_id(FIELD.operator)
        if token is None or token.end_byte != end or token.start_byte > end - width:
            return None
        operator = token.type
        if kind == "assignment_expression" and operator in _ASSIGNMENT_OPERATORS:
            target, value = parent.child_by_field_id(FIELD.left), parent.child_by_field_id(FIELD.right)
        elif kind == "update_expression" and (operator == "++" or operator == "--"):
            target, value = parent.child_by_field_id(FIELD.argument), None
        else:
            return None
        if target is None or target.type != "identifier":
            return None
        return source[target.start_byte:target.end_byte], value


def _loop_assignments(node, walker: "Walker") -> dict[str, list]:
    """Every variable assigned in a loop (by `=`, `op=`, `++`/`--`) and the nodes of the values
    assigned to it (the identifiers in them are read only when asked: see
    _updates_thread_dependent); kept per node for the whole tree."""
    cache = walker._assignments
    found = cache.get(node.id)
    if found is not None:
        return found
    if node.has_error:
        found = _assignments_in_tree(node, walker._source)
    else:
        found = {}
        for target, value in walker.unit.assignments.within(node):
            values = found.setdefault(target, [])
            if value is not None:
                values.append(value)
    cache[node.id] = found
    return found


def _assignments_in_tree(node, source: str) -> dict[str, list]:
    """What _loop_assignments finds, by a walk over every named node: for a tree with errors,
    where the parser may have made up an operator that is not in the text."""
    found: dict = {}
    stack = [node]
    while stack:
        current = stack.pop()
        kind = current.type
        if kind == "assignment_expression" or kind == "update_expression":
            target = current.child_by_field_id(FIELD.left) or current.child_by_field_id(FIELD.argument)
            if target is not None and target.type == "identifier":
                values = found.setdefault(source[target.start_byte:target.end_byte], [])
                if kind == "assignment_expression":
                    values.append(current.child_by_field_id(FIELD.right))
        stack.extend(current.named_children)
    return found


def _updates_thread_dependent(name: str, values: list, walker: Walker) -> bool:
    """Whether some assignment to `name` in the loop uses a thread-dependent value (by name)."""
    env, source = walker.env, walker._source
    return any(identifier in ("threadIdx", "laneid") or
               (identifier != name and identifier in env and env[identifier].expr.thread_dependent)
               for value in values for identifier in _identifiers(value, source))


def _identifiers(node, source: str):
    stack = [node] if node is not None else []
    while stack:
        current = stack.pop()
        if current.type == "identifier":
            yield source[current.start_byte:current.end_byte]
        stack.extend(current.named_children)


def _loop_bound(condition_node, var, walker: Walker):
    """(bound Expr, comparison) for `var < bound` style conditions."""
    if condition_node is None or var is None:
        return None, "?"
    while condition_node.type == "parenthesized_expression" and condition_node.named_child_count == 1:
        condition_node = condition_node.named_children[0]
    if condition_node.type != "binary_expression":
        return None, "?"
    left = condition_node.child_by_field_id(FIELD.left)
    right = condition_node.child_by_field_id(FIELD.right)
    operator = walker._node_text(condition_node.child_by_field_id(FIELD.operator))
    if operator == "&&":
        return _conjoined_bound(left, right, var, walker)
    flipped = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "!=": "!="}
    recording, walker.record = walker.record, False
    try:
        source = walker._source     # (what the tree was parsed from: a slice is cheaper than .text)
        if left.type == "identifier" and source[left.start_byte:left.end_byte] == var:
            return walker._expr_of(right), operator
        if right.type == "identifier" and source[right.start_byte:right.end_byte] == var and operator in flipped:
            return walker._expr_of(left), flipped[operator]
        offset = _offset_from(left, var, walker)
        if offset is not None and operator in flipped:
            # `i + 3 * stride < n`: the unrolled loop's guard bounds i by n - 3 * stride
            return sx.binary("-", walker._expr_of(right), offset), operator
    finally:
        walker.record = recording
    return None, "?"


def _offset_from(node, var, walker: Walker):
    """`e` for an expression `var + e` or `e + var` (the loop variable plus something free of it)."""
    if node.type != "binary_expression" or walker._node_text(node.child_by_field_id(FIELD.operator)) != "+":
        return None
    left, right = node.child_by_field_id(FIELD.left), node.child_by_field_id(FIELD.right)
    for this, other in ((left, right), (right, left)):
        if this.type == "identifier" and walker._node_text(this) == var:
            offset = walker.expression(other).expr
            return None if var in offset.symbols() else offset
    return None


def _exit_value(loop: Loop):
    """The induction variable's value once a counting-up loop ends: start + step * trips, where trips is
    ceil((bound - start) / step) and never negative. None for any other loop shape."""
    if loop.start is None or loop.bound is None or loop.step is None or loop.step_op != "+":
        return None
    constant_step = sx.try_constant(loop.step)
    if loop.compare not in ("<", "<=") or constant_step is not None and constant_step <= 0:
        return None
    bound = loop.bound if loop.compare == "<" else sx.binary("+", loop.bound, sx.Const(1))
    span = sx.binary("-", bound, loop.start)
    trips = sx.Call("max", (sx.Const(0), sx.binary("/", sx.binary("-", sx.binary("+", span, loop.step), sx.Const(1)), loop.step)))
    return sx.binary("+", loop.start, sx.binary("*", loop.step, trips))


def _only_updated_by_the_loop(node, var, walker: "Walker") -> bool:
    """True when nothing in the loop's body assigns `var` (its update expression alone advances it)."""
    body = node.child_by_field_id(FIELD.body)
    return body is None or var not in _loop_assignments(body, walker)


def _conjoined_bound(left, right, var, walker: Walker):
    """`i < a && i < b` (a chunked loop clipped to the array's end) bounds `i` by min(a, b); `>` pairs
    by max. Both sides must bound the induction variable the same way, or there is no bound."""
    first, first_compare = _loop_bound(left, var, walker)
    second, second_compare = _loop_bound(right, var, walker)
    if first is None or second is None:
        # `k < CHUNK && kGlobal < numK`, a second counter advanced with k: the bound on k is the one
        # the loop shows (at most that many trips)
        for bound, compare, other in ((first, first_compare, right), (second, second_compare, left)):
            if bound is not None and not re.search(rf"\b{re.escape(var)}\b", walker._node_text(other)):
                return bound, compare
        return None, "?"
    upward = {"<": 0, "<=": 1}
    downward = {">": 0, ">=": -1}
    if first_compare in upward and second_compare in upward:
        # normalise to exclusive bounds so the two can be compared
        first = sx.binary("+", first, sx.Const(upward[first_compare]))
        second = sx.binary("+", second, sx.Const(upward[second_compare]))
        return sx.Call("min", (first, second)), "<"
    if first_compare in downward and second_compare in downward:
        first = sx.binary("+", first, sx.Const(downward[first_compare]))
        second = sx.binary("+", second, sx.Const(downward[second_compare]))
        return sx.Call("max", (first, second)), ">"
    return None, "?"


def _conjunction(conditions: list[Condition]) -> sx.Expr:
    result = None
    for condition in conditions:
        expr = sx.Unary("!", condition.expr) if condition.negated else condition.expr
        result = expr if result is None else sx.binary("&&", result, expr)
    return result if result is not None else sx.Const(1)


def _merge(condition: sx.Expr, then_env: dict, else_env: dict, before: dict) -> dict:
    # (each branch's names read from its own dict, without the two sets and their union that
    # one loop over every name would need)
    merged = dict(before)
    if else_env is before:
        # An `if` without `else` (most of them): merged holds every name of the else branch with
        # its value already, so the loop over the else branch adds nothing and a name the then
        # branch left alone needs no store (tests/test_walkfast8_merge.py).
        for name, a in then_env.items():
            b = before.get(name)
            if a is not b:
                merged[name] = _merged_value(condition, a, b)
        return merged
    for name, b in else_env.items():
        if b is not None and name not in then_env:
            merged[name] = b
    for name, a in then_env.items():
        b = else_env.get(name)
        if a is b:
            if a is not None:
                merged[name] = a
            continue
        merged[name] = _merged_value(condition, a, b)
    return merged


def _merged_value(condition: sx.Expr, a: Value | None, b: Value | None) -> Value | None:
    """What a name holds after an `if` whose branches left it `a` and `b` (not the same)."""
    if a is None or b is None:
        return a or b
    if a.pointer is not None or b.pointer is not None:
        return a if a.pointer is not None else b
    return Value(sx.Select(condition, a.expr, b.expr), a.ctype or b.ctype, None, a.dims)


def _updates(walker, node, var: str) -> bool:
    """Whether an update expression (`i++`, `i += s`) assigns `var`."""
    target = node.child_by_field_id(FIELD.left) or node.child_by_field_id(FIELD.argument)
    return target is not None and walker._node_text(target) == var
