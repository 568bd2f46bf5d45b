"""Stand-ins for the analyzer and the runner, for RL tests that must not need either.

Each fake candidate carries a marker comment (`// shape: NAME`) naming one of the analysis documents
below, written in the kernelscope.analysis/1 shape; the fake runner reads `// run: ...` markers."""

from __future__ import annotations

import re
from dataclasses import dataclass, field


def access(space="global", op="load", sectors=4, elem_bytes=4, bank_ways=None, weight=1, line=3, expr="a[i]"):
    pattern = "coalesced" if space != "global" or sectors <= elem_bytes else "strided"
    return {"line": line, "column": 5, "expr": expr, "array": expr.split("[")[0], "space": space, "op": op,
            "elem_bytes": elem_bytes,
            "pattern": pattern, "stride_bytes": elem_bytes, "sectors_per_request": sectors if space == "global" else None,
            "bank_ways": bank_ways, "exec_weight": weight}


def kernel(name="k", accesses=None, occupancy=1.0, intensity=0.1, flops=1, gbytes=12, barriers=0, races=0,
           divergent=0, registers=16, block=(256, 1, 1)):
    return {"name": name, "line": 1, "block": list(block),
            "accesses": accesses if accesses is not None else [access(), access(expr="b[i]"),
                                                               access(op="store", expr="c[i]")],
            "occupancy": {"theoretical_occupancy": occupancy, "registers": registers, "limiter": "registers"},
            "intensity": {"flops_per_thread": flops, "global_bytes_per_thread": gbytes,
                          "arithmetic_intensity": intensity, "bound": "memory"},
            "sync": {"barriers": barriers, "divergent_barriers": [{}] * divergent, "shared_races": [{}] * races,
                     "atomics": 0},
            "divergence": {"divergent_branches": 0}}


SHAPES = {
    "coalesced": kernel(),
    "strided": kernel(accesses=[access(sectors=32), access(sectors=32, expr="b[i*32]"),
                                access(op="store", sectors=32, expr="c[i*32]")]),
    "tiled": kernel(accesses=[access(weight=16), access(weight=16, expr="b[i]"),
                              access(space="shared", bank_ways=1, weight=16, expr="tile[t]"),
                              access(op="store", expr="c[i]")], intensity=4.0, barriers=2),
    "racy": kernel(races=1, divergent=1),
    "no_loads": kernel(accesses=[access(op="store", expr="c[i]")]),
    "echo": kernel(accesses=[access(expr="a[i]"), access(op="store", expr="c[i]")]),
    "low_occupancy": kernel(occupancy=0.125),
}


def fake_analyze(code, *, block=None, bindings=None):
    if "syntax error here" in code:
        return {"kernels": [], "errors": [{"line": 2, "column": 1, "message": "unexpected token"}], "diagnostics": []}
    shape = re.search(r"// shape: (\w+)", code)
    name = re.search(r"__global__\s+void\s+(\w+)", code)
    document = dict(SHAPES[shape.group(1) if shape else "coalesced"])
    document["name"] = name.group(1) if name else "k"
    diagnostics = []
    if "// lint: error" in code:
        diagnostics.append({"rule": "KS201", "severity": "error", "line": 4, "column": 1,
                            "message": "barrier under a thread-dependent branch", "kernel": document["name"]})
    return {"kernels": [document], "errors": [], "diagnostics": diagnostics}


@dataclass
class FakeRun:
    compiled: bool = True
    correct: bool = True
    speedup: float | None = 1.0
    time_ms: float = 1.0
    flags: list = field(default_factory=list)
    compile_log: str = ""
    sizes: list = field(default_factory=list)

    def to_json(self):
        return {"compiled": self.compiled, "correct": self.correct, "speedup": self.speedup, "flags": self.flags,
                "sizes": self.sizes}


def fake_run(code, kernel, task):
    """`// run: compile_error`, `// run: incorrect`, `// run: flag=input_echo`, `// run: speedup=3.5`;
    results shaped like kernelscope.runner.results.RunResult."""
    run = FakeRun()
    for word in re.findall(r"// run: (\S+)", code):
        if word == "compile_error":
            run.compiled, run.compile_log = False, "kernel.cu(3): error: identifier \"x\" is undefined\n1 error"
        elif word == "incorrect":
            run.correct = False
            run.flags.append("mismatch")
            run.sizes = [{"size": "small", "correct": False, "trials": 3, "mismatched_elements": 7,
                          "max_abs_error": 0.5, "max_rel_error": 2.0, "flags": ["mismatch"],
                          "first_mismatch": {"output": "c", "trial": 1, "index": [13]}},
                         {"size": "large", "correct": True, "trials": 3, "flags": []}]
        elif word.startswith("flag="):
            run.flags.append(word[5:])
        elif word.startswith("speedup="):
            run.speedup = float(word[8:])
            run.sizes = [{"size": "large", "correct": True, "trials": 3, "flags": [], "time_ms": 1.0,
                          "dram_floor_ms": 0.25}]
    return run


def candidate(*markers, name="vector_add", fenced=True):
    body = "\n".join(f"// {m}" for m in markers)
    code = (f'{body}\nextern "C" __global__ void {name}(const float* a, const float* b, float* c, int n) {{\n'
            "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) c[i] = a[i] + b[i];\n}\n")
    return f"Here is my kernel:\n```cuda\n{code}```\n" if fenced else code


PROBLEM_TOML = '''
name = "vector_add"
style = "c"
description = "c[i] = a[i] + b[i] for i < n"
prompt_source = "reference.c"
inputs = [
  { name = "a", dtype = "float32", shape = ["n"], distribution = "uniform(-1, 1)" },
  { name = "b", dtype = "float32", shape = ["n"], distribution = "uniform(-1, 1)" },
]
outputs = [{ name = "c", dtype = "float32", shape = ["n"] }]
scalars = [{ name = "n", dtype = "int32", value = "n" }]
implementations = [
  { file = "naive.cu", kernel = "vector_add", strategy = "naive" },
  { file = "coalesced.cu", kernel = "vector_add", strategy = "coalesced" },
]
[sizes]
small = { n = 10007 }
large = { n = 1048576 }
[launch]
block = ["256"]
grid = ["ceil_div(n, 256)"]
args = ["a", "b", "c", "n"]
[reference]
python = "reference.py:reference"
'''


NAIVE_PLAN = """/* kernelscope:plan
[[launch]]
kernel = "vector_add"
grid = ["ceil_div(n, 256 * 64)"]
block = ["256"]
args = ["a", "b", "c", "n"]
*/
"""


def make_problem(root, name="vector_add"):
    """A problem folder like the corpus's, with a strided 'naive' and a coalesced implementation."""
    directory = root / name
    directory.mkdir(parents=True)
    (directory / "spec.toml").write_text(PROBLEM_TOML.replace('"vector_add"', f'"{name}"', 1))
    (directory / "reference.c").write_text("void vector_add(const float *a, const float *b, float *c, int n)\n"
                                           "{ for (int i = 0; i < n; i++) c[i] = a[i] + b[i]; }\n")
    (directory / "naive.cu").write_text(NAIVE_PLAN + candidate("shape: strided", fenced=False))
    (directory / "coalesced.cu").write_text(candidate("shape: coalesced", fenced=False))
    return directory
