"""Words and numbers a CUDA programmer can act on, shared by the text and HTML reports.

The analyses keep what they could not evaluate as symbolic text over loop trip counts
("4 + 4*trip(k@24)"). Here those trip counts become expressions of the kernel's parameters
("n", "n/16"), like terms are added up, and the parameters worth binding (`--arg n=...`) are named.
Nothing here changes a number of the JSON document; it only decides how numbers are written.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from kernelscope import symbolic as sx

TRIP_TOKEN = re.compile(r"trip\(([^@()]+)@(\d+)\)")
BLOCK_SOURCES = {
    "launch": "from the launch site in this file",
    "plan": "from the launch plan in this file",
    "option": "from --block",
    "launch_bounds": "from __launch_bounds__",
    "default": "assumed (no launch site; pass --block)",
}

LEGEND = (
    "legend: [launch] block from a <<<...>>> launch in the file, [plan] from its launch plan comment, "
    "[option] from --block, "
    "[launch_bounds] from __launch_bounds__, [default] 256 threads assumed (pass --block); "
    "xN = times each thread runs the access (loop trips), x(n/16) when that depends on a parameter "
    "you can bind with --arg, ~ where it is approximate (grid-stride loops); sectors/request = 32-byte sectors one warp "
    "request touches (4 is ideal for 4-byte lanes); ideal = the sectors the same lanes would need if "
    "contiguous, shown only when the access costs more; bank ways = shared-memory wavefronts per request "
    "(1 = conflict-free); 'one lane' = a single thread of the warp issues it."
)


def number(value, digits: int = 3) -> str:
    """Integers as integers, others to `digits` significant figures (no exponent below 1e6)."""
    if value is None:
        return "n/a"
    if isinstance(value, str):
        return value
    value = float(value)
    if not math.isfinite(value):
        return "inf" if value > 0 else "n/a"
    if value == int(value) and abs(value) < 1e15:
        return str(int(value))
    if 10 ** (digits - 1) <= abs(value) < 1e6:
        return str(round(value))
    return f"{value:.{digits}g}"


# ---------------------------------------------------------------------------------------------------
# Trip counts of loops the analysis could not count, as expressions of the parameters


@dataclass(frozen=True)
class Core:
    """A readable factor `numerator / denominator` (denominator may be empty)."""
    numerator: str
    denominator: str = ""

    def text(self, divisor: int = 1) -> str:
        below = "*".join(part for part in (str(divisor) if divisor != 1 else "", self.denominator) if part)
        top = self.numerator if _atomic(self.numerator) or not below else f"({self.numerator})"
        if not below:
            return top
        return f"{top}/{below}" if _atomic(below) else f"{top}/({below})"


CONSTANT = Core("1")   # a trip count that is a plain number: it goes into the coefficient


def _atomic(text: str) -> bool:
    return bool(re.fullmatch(r"[\w.]+", text))


def _plain(expr) -> str:
    """C-like text of an expression without the outer parentheses the tree printer adds."""
    text = str(expr)
    while text.startswith("(") and text.endswith(")") and _balanced(text[1:-1]):
        text = text[1:-1]
    return text


def _balanced(text: str) -> bool:
    depth = 0
    for char in text:
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth < 0:
            return False
    return depth == 0


def trip_factor(loop, known: dict | None = None) -> tuple[float, Core | None, bool]:
    """(scale, core, approximate): the loop runs about `scale * core` times per thread (core
    CONSTANT: `scale` times).
    `known`: values of launch-shape names (blockDim.x, gridDim.x) to write as numbers.
    core None: no readable form (a while loop, a data-dependent bound)."""
    if loop is None or loop.var is None or loop.start is None or loop.bound is None or loop.step is None \
            or loop.step_op != "+":
        return 1.0, None, False
    start, bound, step = (_known(part, known) for part in (loop.start, loop.bound, loop.step))
    compare = loop.compare
    if compare in (">", ">="):
        start, bound, step = bound, start, sx.Unary("-", step) if not isinstance(step, sx.Const) \
            else sx.Const(-step.value)
    if compare not in ("<", "<=", "!=", ">", ">="):
        return 1.0, None, False
    inclusive = 1 if compare in ("<=", ">=") else 0
    stride = sx.try_constant(step)
    chunk = _chunk(start, bound)
    if chunk is not None and stride and stride > 0:
        # `for (i = first; i < min(first + 32, n); ...)`: at most 32 / step, whatever n is
        return float(math.ceil((chunk + inclusive) / stride)), CONSTANT, True
    approximate = False
    begin = sx.try_constant(start)
    if begin is None:
        # a thread-dependent start (grid-stride loops): every thread is within one step of the others
        approximate = True
        begin = 0
    end = _plain(bound)
    offset = inclusive - begin
    span = end if offset == 0 else f"{end} {'+' if offset > 0 else '-'} {abs(offset)}"
    if stride is not None:
        if stride <= 0:
            return 1.0, None, False
        return 1.0 / stride, Core(span), approximate
    scale, rest = _split_constant(step)
    return 1.0 / scale, Core(span, rest), approximate


def _known(expr, known: dict | None):
    if not known:
        return expr
    return sx.substitute(expr, {name: sx.Const(value) for name, value in known.items()})


def _chunk(start, bound) -> float | None:
    """c when the bound is the start plus a constant c once a min(...) in it takes the argument near
    the start: `i < min(first + 32, n)`, `r + 3 < min(r0 + 64, rows)`. A per-thread chunk runs at
    most c / step times, whatever the sizes are."""
    calls = []
    sx.map_tree(bound, lambda node: calls.append(node) if isinstance(node, sx.Call) and
                node.name in ("min", "umin") else None)
    if not calls or len(calls) > 3:
        return None
    found = None
    for choice in _choices([len(call.args) for call in calls]):
        picked = {id(call): call.args[index] for call, index in zip(calls, choice)}
        candidate = sx.map_tree(bound, lambda node: picked.get(id(node)))
        difference = _constant_difference(candidate, start)
        if difference is not None and difference > 0 and (found is None or difference < found):
            found = difference
    return found


def _choices(sizes: list[int]):
    if not sizes:
        yield ()
        return
    for index in range(sizes[0]):
        for rest in _choices(sizes[1:]):
            yield (index,) + rest


def _constant_difference(a, b) -> float | None:
    """a - b when it is the same number for any values of their names (checked on a few)."""
    import random

    names = sorted(a.symbols() | b.symbols())
    found = None
    generator = random.Random(7)
    for _ in range(3):
        env = {name: generator.randrange(1, 1 << 20) for name in names}
        try:
            value = float(a.evaluate(env) - b.evaluate(env))
        except (sx.Unevaluable, TypeError, ValueError, ArithmeticError):
            return None
        if found is not None and value != found:
            return None
        found = value
    return found


def _split_constant(expr) -> tuple[float, str]:
    """`gridDim.x * 256` -> (256, 'gridDim.x')."""
    if isinstance(expr, sx.Binary) and expr.op == "*":
        for constant, other in ((expr.left, expr.right), (expr.right, expr.left)):
            value = sx.try_constant(constant)
            if value:
                inner, text = _split_constant(other)
                return value * inner, text
    return 1.0, _plain(expr)


# ---------------------------------------------------------------------------------------------------
# Sums of products over trip counts


@dataclass
class Polynomial:
    """Sum of coefficient * product-of-cores terms."""
    terms: dict            # tuple of Core (sorted by text) -> coefficient
    approximate: bool = False
    unknown_loops: tuple = ()   # loops with no readable count, named T<line> in the text

    def degree(self) -> int:
        return max((len(m) for m, c in self.terms.items() if c), default=0)

    def text(self) -> str:
        parts = []
        for monomial, coefficient in sorted(self.terms.items(), key=lambda item: (-len(item[0]), _key(item[0]))):
            if not coefficient and monomial:
                continue
            parts.append(_term(coefficient, monomial))
        text = " + ".join(p for p in parts if p and p != "0") or "0"
        return text.replace("+ -", "- ")

    def leading(self):
        top = [(m, c) for m, c in self.terms.items() if c and len(m) == self.degree()]
        return top[0] if len(top) == 1 else None


def _key(monomial) -> str:
    return "*".join(core.text() for core in monomial)


def _term(coefficient: float, monomial) -> str:
    if not monomial:
        return number(coefficient)
    if len(monomial) == 1:
        core = monomial[0]
        inverse = 1 / coefficient if coefficient else 0
        if coefficient != 1 and inverse == int(inverse) and inverse > 1:
            return core.text(int(inverse))
        body = core.text()
    else:
        body = "*".join(c.text() if _atomic(c.text()) else f"({c.text()})" for c in monomial)
    if coefficient == 1:
        return body
    # "3*n/16" reads right left to right; a sum needs its parentheses
    return f"{number(coefficient)}*({body})" if " + " in body or " - " in body else f"{number(coefficient)}*{body}"


def polynomial(text, loops_by_key: dict, known: dict | None = None) -> Polynomial | None:
    """Parse the analyses' symbolic sums ('4 + 4*trip(k@24)*16') into a Polynomial over readable
    trip counts. None when the text has another shape."""
    if text is None:
        return None
    terms: dict = {}
    approximate = False
    unknown = []
    for part in str(text).split(" + "):
        coefficient = 1.0
        cores = []
        for factor in part.split("*"):
            factor = factor.strip()
            match = TRIP_TOKEN.fullmatch(factor)
            if match:
                loop = loops_by_key.get((match.group(1), int(match.group(2))))
                scale, core, approx = trip_factor(loop, known)
                approximate |= approx
                if core is None:
                    core = Core(f"T{match.group(2)}")
                    unknown.append(int(match.group(2)))
                coefficient *= scale
                if core is not CONSTANT:
                    cores.append(core)
                continue
            try:
                coefficient *= float(factor)
            except ValueError:
                return None
        monomial = tuple(sorted(cores, key=lambda c: c.text()))
        terms[monomial] = terms.get(monomial, 0.0) + coefficient
    return Polynomial(terms, approximate, tuple(sorted(set(unknown))))


def loops_by_key(kernel) -> dict:
    return {(loop.var or loop.kind, loop.line): loop for loop in getattr(kernel, "loops", ())}


def weight_text(weight, kernel, known: dict | None = None) -> str:
    """An access's exec_weight for people: '4', '(n)', '(n/16)': an expression is parenthesised so
    that 'x(n)' does not read as a variable called xn."""
    if isinstance(weight, (int, float)):
        return number(weight)
    parsed = polynomial(weight, loops_by_key(kernel), known)
    if parsed is None:
        return f"({weight})"
    return f"({'~' if parsed.approximate else ''}{parsed.text()})"


def grouped(text: str) -> str:
    """A sum in parentheses, so that 'FLOP / (8*n + 4) B' divides by the whole sum."""
    return f"({text})" if " + " in text or " - " in text else text


def uncounted_loops(result) -> list[str]:
    """'T9: the for loop at line 9' for each loop a weight or a count of `result` (a KernelResult)
    names as T<line> because its trip count has no readable form."""
    kernel = result.kernel
    loops = loops_by_key(kernel)
    texts = [a.exec_weight for a in result.memory.accesses if isinstance(a.exec_weight, str)]
    if result.intensity is not None:
        texts += list(result.intensity.symbolic.values())
    lines = set()
    for text in texts:
        parsed = polynomial(text, loops, launch_values(result))
        if parsed is not None:
            lines.update(parsed.unknown_loops)
    by_line = {loop.line: loop for loop in getattr(kernel, "loops", ())}
    notes = []
    for line in sorted(lines):
        loop = by_line.get(line)
        bounds = [str(part) for part in (getattr(loop, "start", None), getattr(loop, "bound", None)) if part is not None]
        hint = bind_hint(bounds, kernel)
        why = f"its count depends on {hint.replace('--arg ', '').replace('=...', '')}: bind {hint}" if hint \
            else "no countable bound (data-dependent or a while loop)"
        notes.append(f"T{line}: iterations of the {getattr(loop, 'kind', None) or 'the'} loop at line {line}; {why}")
    return notes


def launch_values(result) -> dict:
    """The launch-shape names whose values the analysis assumed (block, and grid when known)."""
    values = {}
    block = getattr(result, "block", None)
    if block is not None:
        values.update({"blockDim.x": block.x, "blockDim.y": block.y, "blockDim.z": block.z})
    grid = getattr(result, "grid", None)
    if grid:
        values.update({"gridDim.x": grid[0], "gridDim.y": grid[1], "gridDim.z": grid[2]})
    return values


def free_parameters(texts, kernel) -> list[str]:
    """Kernel parameters named in `texts`, in declaration order: the ones to bind with --arg."""
    words = set()
    for text in texts:
        words.update(re.findall(r"[A-Za-z_][\w.]*", text or ""))
    return [p.name for p in getattr(kernel, "params", ()) if p.name in words]


def bind_hint(texts, kernel) -> str:
    params = free_parameters(texts, kernel)
    hints = [f"--arg {name}=..." for name in params]
    if any("gridDim" in (t or "") for t in texts):
        hints.append("--grid ...")
    return " ".join(hints)


# ---------------------------------------------------------------------------------------------------
# Access patterns, in the words of the hardware


def pattern_word(access) -> str:
    """The pattern as the text report prints it. A single issuing lane is neither a broadcast nor a
    coalesced access; a 'strided' access whose lanes are one element apart is contiguous."""
    lanes = getattr(access, "active_lanes", None)
    if lanes is not None and 0 < lanes <= 1:
        return "one lane"
    if access.pattern == "strided" and access.stride_bytes == access.elem_bytes:
        return "coalesced"
    return access.pattern


def cost_text(access) -> str:
    if access.space == "shared":
        return f"bank ways {number(access.bank_ways)}" if access.bank_ways is not None else ""
    if access.sectors_per_request is None:
        return ""
    sectors = access.sectors_per_request
    text = f"{number(sectors)} {'sector' if sectors == 1 else 'sectors'}/request"
    if access.ideal_sectors is not None and access.sectors_per_request > access.ideal_sectors:
        text += f" (ideal {number(access.ideal_sectors)})"
    return text


def costly(access) -> bool:
    """Worth a second look: bank conflicts, or at least twice the sectors the lanes need."""
    if access.space == "shared":
        return (access.bank_ways or 1) > 1
    return bool(access.sectors_per_request and access.ideal_sectors
                and access.sectors_per_request >= 2 * access.ideal_sectors)


def stride_text(access) -> str:
    """Only a strided access says its stride; a coalesced one's stride is its element size."""
    if pattern_word(access) != "strided" or access.stride_bytes in (None, 0):
        return ""
    stride = access.stride_bytes
    if isinstance(stride, str):
        return f"stride {stride} B"
    return f"stride {number(stride)} B"


def instantiations_text(kernel) -> str:
    return ", ".join(f"<{', '.join(str(a) for a in args)}>" for args in kernel.template_instantiations) or "none"


# ---------------------------------------------------------------------------------------------------
# Occupancy advice


def block_advice(occupancy) -> str:
    """The smallest block of the sweep reaching its best occupancy, and why the block in use does or
    does not. Larger blocks are not better in themselves: __syncthreads waits for more warps, and a
    grid of fewer blocks balances its tail worse, so the smallest block at the best occupancy wins."""
    sweep = getattr(occupancy, "sweep", ())
    if not sweep:
        return ""
    best = max(point.theoretical_occupancy for point in sweep)
    if best <= 0:
        return "none: no block size fits on an SM"
    smallest = min(point.block_size for point in sweep if point.theoretical_occupancy == best)
    current = occupancy.block_size
    if occupancy.theoretical_occupancy == best:
        reason = f"the smallest reaching {best:.0%}; the {current} in use reaches it too"
    else:
        reason = (f"the smallest reaching {best:.0%}; at {current} threads "
                  f"{occupancy.limiter.replace('_', ' ')} {_limit_words(occupancy)} hold it at "
                  f"{occupancy.theoretical_occupancy:.0%}")
    return f"{smallest} ({reason})"


def _limit_words(occupancy) -> str:
    blocks = occupancy.active_blocks_per_sm
    return {"blocks": f"(at most {blocks} blocks/SM)",
            "registers": f"({occupancy.registers} per thread: {blocks} block(s)/SM)",
            "shared_memory": f"({occupancy.allocated_shared_bytes_per_block} B per block: {blocks} block(s)/SM)",
            "warps": f"({blocks} block(s)/SM)",
            "barriers": f"({blocks} block(s)/SM)"}.get(occupancy.limiter, "")


# ---------------------------------------------------------------------------------------------------
# Arithmetic intensity


@dataclass(frozen=True)
class IntensityView:
    flops: str              # per thread, readable
    global_bytes: str
    intensity: float | None  # exact, or the limit for large parameters
    exact: bool
    bound: str | None
    hint: str               # the options that would make it exact ("--arg n=...")
    asymptotic: bool = False  # `intensity` is the limit as the parameters grow


def intensity_view(intensity, kernel, known: dict | None = None) -> IntensityView | None:
    if intensity is None:
        return None
    loops = loops_by_key(kernel)
    flops = _sum_of(intensity.flops_per_thread, intensity.symbolic.get("flops_per_thread"), loops, known)
    moved = _sum_of(intensity.global_bytes_per_thread, intensity.symbolic.get("global_bytes_per_thread"), loops,
                    known)
    if intensity.arithmetic_intensity is not None:
        return IntensityView(flops.text(), moved.text(), intensity.arithmetic_intensity, True, intensity.bound, "",
                             False)
    texts = [flops.text(), moved.text()]
    hint = bind_hint(texts, kernel)
    limit = bound = None
    top_f, top_b = flops.leading(), moved.leading()
    if top_f and top_b and top_f[0] == top_b[0] and top_b[1]:
        limit = top_f[1] / top_b[1]
        if intensity.ridge_point:
            bound = "memory" if limit < intensity.ridge_point else "compute"
    prefix = "~" if flops.approximate or moved.approximate else ""
    asymptotic = max(flops.degree(), moved.degree()) > 0
    return IntensityView(prefix + flops.text(), prefix + moved.text(), limit, False, bound, hint, asymptotic)


def _sum_of(value, symbolic, loops, known) -> Polynomial:
    if value is not None:
        return Polynomial({(): float(value)})
    return polynomial(symbolic, loops, known) or Polynomial({(Core(str(symbolic)),): 1.0})


def plan_text(plan: dict, grid) -> str:
    """Which launch of the file's plan a kernel was analysed with, and what of it did not resolve."""
    text = f"launch plan: launch #{plan['launch']}"
    if grid:
        text += f", grid {'x'.join(str(d) for d in grid)}"
    if plan["other_launches"]:
        text += f" (also launched as #{', #'.join(str(n) for n in plan['other_launches'])}; not modelled)"
    if plan["unresolved"]:
        needed = sorted({name for names in plan["unresolved"].values() for name in names})
        parts = ", ".join(f"{key} needs {', '.join(names)}" for key, names in plan["unresolved"].items())
        text += f"; NOT RESOLVED: {parts} (pass " + " ".join(f"--arg {n}=N" for n in needed) + ")"
    return text
