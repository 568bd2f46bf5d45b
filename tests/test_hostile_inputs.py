"""Hostile input to `kernelscope analyze`: a result or one clear line, quickly, never a traceback.

Each case writes its input under tmp_path and runs the installed command in a fresh process, so
that a hang, a crash of the parser or unbounded memory shows up as it would for a user. The
process gets an address-space limit so that a runaway read cannot take the test machine down.
"Quickly" is the child's CPU time, which a machine busy with other work does not inflate; the wall
clock only catches a hang. How the time grows with the size of each input is measured by
benchmarks/bench_hostile.py.
"""

from __future__ import annotations

import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import pytest

# user + system time of the analysing process. A bound that catches a blow-up (a quadratic step on
# these inputs would take minutes), not a speed target: machines of one kind differ by about 2x in
# Python speed (the 20,000-statement body took 5.4 s on one, within the 5 s bound set on another), so
# the bound has room for the slower one. Growth with size: benchmarks/bench_hostile.py.
CPU_LIMIT_S = 10.0
HANG_LIMIT_S = 120.0              # wall clock: only a process that never ends gets near it
MEMORY_LIMIT_BYTES = 2 * 1024 ** 3
PEAK_RSS_LIMIT_BYTES = 1024 ** 3


def kernel_with(expr: str, name: str = "k") -> str:
    """A small valid kernel whose one store writes `expr`."""
    return (f"__global__ void {name}(float* a, int n)\n{{\n"
            f"    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
            f"    if (i < n) a[i] = {expr};\n}}\n")


# -- the inputs: each returns the file to analyse --------------------------------------------

def empty(tmp: Path) -> Path:
    return _write(tmp / "empty.cu", b"")


def whitespace_only(tmp: Path) -> Path:
    return _write(tmp / "blank.cu", b" \n\t\n\r\n" * 1000)


def random_bytes(tmp: Path) -> Path:
    return _write(tmp / "random.cu", random.Random(1).randbytes(256 * 1024))


def nul_bytes_inside_kernel(tmp: Path) -> Path:
    return _write(tmp / "nul.cu", kernel_with("1.0f").encode().replace(b"1.0f", b"1.0f\x00\x00\x00"))


def latin1_comments(tmp: Path) -> Path:
    text = "// Gr\xf6\xdfe der Matrix, \xe9l\xe9ment, se\xf1al\n" + kernel_with("2.0f * a[i]  /* \xb5s */")
    return _write(tmp / "latin1.cu", text.encode("latin-1"))


def utf16_with_bom(tmp: Path) -> Path:
    return _write(tmp / "utf16.cu", kernel_with("3.0f").encode("utf-16"))


def nested_parentheses_10000(tmp: Path) -> Path:
    return _write_text(tmp / "parens.cu", kernel_with("(" * 10_000 + "a[i]" + ")" * 10_000))


def unclosed_parentheses_10000(tmp: Path) -> Path:
    return _write_text(tmp / "open_parens.cu", kernel_with("(" * 10_000 + "a[i]"))


def nested_braces_10000(tmp: Path) -> Path:
    body = "{" * 10_000 + "a[threadIdx.x] = 1.0f;" + "}" * 10_000
    return _write_text(tmp / "braces.cu", f"__global__ void k(float* a)\n{body}\n")


def nested_ifs_5000(tmp: Path) -> Path:
    body = "".join(f"if (threadIdx.x > {i}) " for i in range(5000)) + "a[threadIdx.x] = 1.0f;"
    return _write_text(tmp / "ifs.cu", f"__global__ void k(float* a)\n{{\n{body}\n}}\n")


def expression_20000_terms(tmp: Path) -> Path:
    return _write_text(tmp / "terms.cu", kernel_with(" + ".join(f"a[i + {t}]" for t in range(20_000))))


def flat_arithmetic_20000_terms(tmp: Path) -> Path:
    return _write_text(tmp / "arith.cu", kernel_with(" * ".join(["1.0001f"] * 20_000)))


def unterminated_block(tmp: Path) -> Path:
    return _write_text(tmp / "unterminated.cu", "__global__ void k(float* a)\n{\n    if (threadIdx.x) {\n"
                                                 "        a[0] = 1.0f;\n")


def unterminated_comment_and_string(tmp: Path) -> Path:
    return _write_text(tmp / "comment.cu", kernel_with("1.0f") + 'const char* s = "no end\n/* never closed\n')


def kernels_3000(tmp: Path) -> Path:
    return _write_text(tmp / "many.cu", "".join(kernel_with(f"{i}.0f * a[i]", f"k{i}") for i in range(3000)))


def self_referencing_macros(tmp: Path) -> Path:
    text = ("#define A A\n#define B C\n#define C B\n#define F(x) F(F(x))\n#define G(x) G(x) + G(x)\n"
            "#define H (H + H)\n" + kernel_with("A + B + C + F(a[i]) + G(i) + H"))
    return _write_text(tmp / "selfref.cu", text)


def macro_exponential_expansion(tmp: Path) -> Path:
    # Each level doubles the expansion: L40 would be 2**40 tokens if expanded naively.
    lines = ["#define L0 a[i]"] + [f"#define L{n} (L{n - 1} + L{n - 1})" for n in range(1, 41)]
    return _write_text(tmp / "laughs.cu", "\n".join(lines) + "\n" + kernel_with("L40"))


def macro_chain_10000(tmp: Path) -> Path:
    lines = ["#define M0 a[i]"] + [f"#define M{n} M{n - 1}" for n in range(1, 10_000)]
    return _write_text(tmp / "chain.cu", "\n".join(lines) + "\n" + kernel_with("M9999"))


def nested_ifdefs_5000(tmp: Path) -> Path:
    text = "#if 1\n" * 5000 + kernel_with("1.0f") + "#endif\n" * 5000
    return _write_text(tmp / "ifdefs.cu", text)


def stray_preprocessor_directives(tmp: Path) -> Path:
    text = "#endif\n#else\n#elif 1\n#if\n#define\n#define (\n#undef\n#include\n#pragma\n#error stop\n"
    return _write_text(tmp / "stray.cu", text + kernel_with("1.0f") + "#if 1\n")


def unterminated_macro_call(tmp: Path) -> Path:
    return _write_text(tmp / "macrocall.cu", "#define IDX(r, c) ((r) * 32 + (c))\n" + kernel_with("a[IDX(i, 2"))


def long_single_line(tmp: Path) -> Path:
    return _write_text(tmp / "longline.cu", kernel_with("1.0f").replace("\n", " ") + " " * 1_000_000 + "\n")


def hostile_launch_sites(tmp: Path) -> Path:
    host = ("void h(float* a) {\n"
            "    k<<<1, 256 / 0>>>(a, 1);\n"
            "    k<<<1, 99999999999999999999999999999>>>(a, 1);\n"
            "    k<<<1, dim3(0, 0, 0)>>>(a, 1);\n"
            "    k<<<1, -32>>>(a, 1);\n"
            "    k<<<1, " + "(" * 5000 + "32" + ")" * 5000 + ">>>(a, 1);\n"
            "    k<<<1, 1 << 200>>>(a, 1);\n"
            "}\n")
    return _write_text(tmp / "launches.cu", kernel_with("1.0f") + host)


def hostile_launch_bounds(tmp: Path) -> Path:
    text = ("__global__ void __launch_bounds__(99999999999999999999) a1(float* a) { a[0] = 1; }\n"
            "__global__ void __launch_bounds__(0, -1) a2(float* a) { a[0] = 1; }\n"
            "__global__ void __launch_bounds__(1/0) a3(float* a) { a[0] = 1; }\n"
            "__global__ void __launch_bounds__() a4(float* a) { a[0] = 1; }\n")
    return _write_text(tmp / "bounds.cu", text)


def huge_shared_array(tmp: Path) -> Path:
    text = ("__global__ void k(float* a)\n{\n    __shared__ double s[1 << 30][1 << 30];\n"
            "    float local[1 << 28];\n    a[threadIdx.x] = s[0][threadIdx.x] + local[0];\n}\n")
    return _write_text(tmp / "huge_shared.cu", text)


def loop_with_huge_trip_count(tmp: Path) -> Path:
    text = ("__global__ void k(float* a)\n{\n    for (long long i = 0; i < 1000000000000000000LL; ++i)\n"
            "        for (long long j = 0; j < 1000000000000000000LL; ++j)\n"
            "            a[(i * j) % 1024] += 1.0f;\n}\n")
    return _write_text(tmp / "loops.cu", text)


def kernel_body_20000_statements(tmp: Path) -> Path:
    body = "".join(f"    a[i + {j}] = a[i + {j}] * 2.0f;\n" for j in range(20_000))
    return _write_text(tmp / "statements.cu", f"__global__ void k(float* a)\n{{\n    int i = threadIdx.x;\n{body}}}\n")


def shared_accesses_2000_between_barriers(tmp: Path) -> Path:
    # Race detection compares shared accesses pairwise within a barrier interval.
    body = "".join(f"    s[(t + {j}) % 4096] = s[(t * {j % 7 + 1}) % 4096] + 1.0f;\n" for j in range(2000))
    return _write_text(tmp / "shared.cu", "__global__ void k(float* a)\n{\n    __shared__ float s[4096];\n"
                                          f"    int t = threadIdx.x;\n{body}    a[t] = s[t];\n}}\n")


def sequential_branches_3000(tmp: Path) -> Path:
    body = "".join(f"    if (t % {j + 2} == 0) a[t] += {j}.0f;\n" for j in range(3000))
    return _write_text(tmp / "branches.cu", f"__global__ void k(float* a)\n{{\n    int t = threadIdx.x;\n{body}}}\n")


def launch_sites_10000(tmp: Path) -> Path:
    launches = "".join(f"    k<<<{j + 1}, {32 * (j % 32 + 1)}>>>(a, {j});\n" for j in range(10_000))
    return _write_text(tmp / "launch_sites.cu", kernel_with("1.0f") + f"void h(float* a)\n{{\n{launches}}}\n")


def parameters_5000(tmp: Path) -> Path:
    params = ", ".join(f"float* p{j}" for j in range(5000))
    body = "".join(f"    p{j}[threadIdx.x] = {j}.0f;\n" for j in range(5000))
    return _write_text(tmp / "params.cu", f"__global__ void k({params})\n{{\n{body}}}\n")


def template_nesting_1000(tmp: Path) -> Path:
    text = ("template <typename T> struct W { T v; };\n__global__ void k(" + "W<" * 1000 + "float"
            + ">" * 1000 + "* p, float* a) { a[threadIdx.x] = 1.0f; }\n")
    return _write_text(tmp / "templates.cu", text)


def loops_nested_200(tmp: Path) -> Path:
    loops = "".join(f"    for (int i{j} = 0; i{j} < n; ++i{j})\n" for j in range(200))
    return _write_text(tmp / "loops200.cu", f"__global__ void k(float* a, int n)\n{{\n{loops}"
                                            "        a[threadIdx.x] += 1.0f;\n}\n")


def recursive_device_functions(tmp: Path) -> Path:
    helpers = ("__device__ float r(float v) { return v > 0 ? r(v - 1) : v; }\n"
               "__device__ float q(float v);\n__device__ float p(float v) { return q(v) + 1; }\n"
               "__device__ float q(float v) { return p(v) - 1; }\n")
    return _write_text(tmp / "recursive.cu", helpers + kernel_with("r(a[i]) + p(a[i])"))


def device_call_chain_3000(tmp: Path) -> Path:
    helpers = "__device__ float f0(float v) { return v; }\n" + "".join(
        f"__device__ float f{j}(float v) {{ return f{j - 1}(v) + 1.0f; }}\n" for j in range(1, 3000))
    return _write_text(tmp / "chain_calls.cu", helpers + kernel_with("f2999(a[i])"))


def over_size_limit(tmp: Path) -> Path:
    chunk = kernel_with("1.0f").encode()
    return _write(tmp / "huge.cu", chunk * (9 * 1024 * 1024 // len(chunk) + 1))


def directory_instead_of_file(tmp: Path) -> Path:
    (tmp / "adir.cu").mkdir()
    return tmp / "adir.cu"


def missing_file(tmp: Path) -> Path:
    return tmp / "does_not_exist.cu"


def unreadable_file(tmp: Path) -> Path:
    path = _write_text(tmp / "secret.cu", kernel_with("1.0f"))
    path.chmod(0)
    return path


def named_pipe(tmp: Path) -> Path:
    # Nobody writes to it: reading would block forever.
    os.mkfifo(tmp / "pipe.cu")
    return tmp / "pipe.cu"


def endless_device_file(tmp: Path) -> Path:
    # Reports size 0 and never ends; a reader must stop at the size limit.
    return Path("/dev/zero")


def doubling_statements_24(tmp: Path) -> Path:
    # each statement reads the previous value twice: 2**24 leaves if expressions were trees
    return _write_text(tmp / "doubling.cu", _kernel_with_statements("    i = i + i;\n" * 24))


def chained_selects_30(tmp: Path) -> Path:
    return _write_text(tmp / "selects.cu", _kernel_with_statements("    i = i > n ? i : i + 1;\n" * 30))


def merged_if_else_30(tmp: Path) -> Path:
    return _write_text(tmp / "if_else.cu",
                       _kernel_with_statements("    if (i > n) i = i + 1; else i = i * 2;\n" * 30))


def chained_shuffles_25(tmp: Path) -> Path:
    body = "    v += __shfl_down_sync(0xffffffff, v, 1);\n" * 25
    return _write_text(tmp / "shuffles.cu", "__global__ void k(float* a)\n{\n    float v = a[threadIdx.x];\n"
                                            f"{body}    a[threadIdx.x] = v;\n}}\n")


def increments_20000(tmp: Path) -> Path:
    return _write_text(tmp / "increments.cu", _kernel_with_statements("    i = i + 1;\n" * 20_000))


def right_nested_sum_40000(tmp: Path) -> Path:
    return _write_text(tmp / "nested_sum.cu", kernel_with("n + (" * 40_000 + "n" + ")" * 40_000))


def string_literal_8mb(tmp: Path) -> Path:
    literal = "x" * (8 * 1024 * 1024 - 200)
    return _write_text(tmp / "literal.cu", f'const char* s = "{literal}";\n' + kernel_with("1.0f"))


def negative_shared_array_size(tmp: Path) -> Path:
    return _write_text(tmp / "negative.cu", "__global__ void k(float* a)\n{\n    __shared__ float s[-1];\n"
                                            "    s[threadIdx.x] = a[0];\n    a[threadIdx.x] = s[0];\n}\n")


def _kernel_with_statements(body: str) -> str:
    return (f"__global__ void k(float* a, int n)\n{{\n    int i = threadIdx.x;\n{body}"
            "    if (i < n) a[i] = 1.0f;\n}\n")


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def _write_text(path: Path, text: str) -> Path:
    return _write(path, text.encode())


# -- checks on a result (exit 0 or 1) for the cases where one is clearly expected ----------------

def _only_file(document: dict) -> dict:
    [file_doc] = document["files"]
    return file_doc


def no_kernels(document: dict) -> None:
    assert _only_file(document)["kernels"] == []


def kernel_k_found(document: dict) -> None:
    assert [k["name"] for k in _only_file(document)["kernels"]] == ["k"]


def all_3000_kernels_found(document: dict) -> None:
    names = [k["name"] for k in _only_file(document)["kernels"]]
    assert names == [f"k{i}" for i in range(3000)]


def error_located(document: dict) -> None:
    assert _only_file(document)["errors"], "a syntax error should be reported"


def located_error_line(stderr_line: str) -> None:
    assert "negative.cu:3:" in stderr_line and "negative size" in stderr_line, stderr_line


CASES = [
    # (input, check when a result comes back, whether a result (exit 0/1) is required)
    (empty, no_kernels, True),
    (whitespace_only, no_kernels, True),
    (random_bytes, None, False),
    (nul_bytes_inside_kernel, None, False),
    (latin1_comments, kernel_k_found, True),
    (utf16_with_bom, kernel_k_found, False),
    (nested_parentheses_10000, None, False),
    (unclosed_parentheses_10000, None, False),
    (nested_braces_10000, None, False),
    (nested_ifs_5000, None, False),
    (expression_20000_terms, kernel_k_found, False),
    (flat_arithmetic_20000_terms, kernel_k_found, False),
    (unterminated_block, error_located, True),
    (unterminated_comment_and_string, None, False),
    (kernels_3000, all_3000_kernels_found, True),
    (self_referencing_macros, kernel_k_found, True),
    (macro_exponential_expansion, None, False),
    (macro_chain_10000, None, False),
    (nested_ifdefs_5000, None, False),
    (stray_preprocessor_directives, None, False),
    (unterminated_macro_call, None, False),
    (long_single_line, kernel_k_found, False),
    (hostile_launch_sites, kernel_k_found, True),
    (hostile_launch_bounds, None, False),
    (huge_shared_array, kernel_k_found, True),
    (loop_with_huge_trip_count, kernel_k_found, True),
    (kernel_body_20000_statements, kernel_k_found, False),
    (shared_accesses_2000_between_barriers, kernel_k_found, False),
    (sequential_branches_3000, kernel_k_found, False),
    (launch_sites_10000, kernel_k_found, True),
    (parameters_5000, kernel_k_found, False),
    (template_nesting_1000, kernel_k_found, False),
    (loops_nested_200, kernel_k_found, False),
    (recursive_device_functions, kernel_k_found, True),
    (device_call_chain_3000, kernel_k_found, False),
    (over_size_limit, None, False),
    (directory_instead_of_file, None, False),
    (missing_file, None, False),
    (unreadable_file, None, False),
    (named_pipe, None, False),
    (endless_device_file, None, False),
    (doubling_statements_24, kernel_k_found, True),
    (chained_selects_30, kernel_k_found, True),
    (merged_if_else_30, kernel_k_found, True),
    (chained_shuffles_25, kernel_k_found, True),
    (increments_20000, kernel_k_found, False),
    (right_nested_sum_40000, kernel_k_found, False),
    (string_literal_8mb, kernel_k_found, True),
    (negative_shared_array_size, located_error_line, False),
]


def _kernelscope_command() -> list[str]:
    script = Path(sys.executable).with_name("kernelscope")
    if script.exists():
        return [str(script)]
    found = shutil.which("kernelscope")
    return [found] if found else [sys.executable, "-m", "kernelscope"]


def _limit_memory():
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT_BYTES, MEMORY_LIMIT_BYTES))


def _run_measured(command: list[str]):
    """(CompletedProcess, CPU seconds, peak RSS bytes) of one child, killed if it hangs."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        process = subprocess.Popen(command, stdout=out, stderr=err, stdin=subprocess.DEVNULL,
                                   preexec_fn=_limit_memory)
        watchdog = threading.Timer(HANG_LIMIT_S, process.kill)
        watchdog.start()
        try:
            _, status, usage = os.wait4(process.pid, 0)
        finally:
            watchdog.cancel()
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        completed = subprocess.CompletedProcess(command, process.returncode, out.read(), err.read())
    return completed, usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024


@pytest.mark.parametrize("make_input,check,result_required", CASES, ids=[c[0].__name__ for c in CASES])
def test_hostile_input_gets_result_or_one_line_error_quickly(tmp_path, make_input, check, result_required):
    if make_input is unreadable_file and os.geteuid() == 0:
        pytest.skip("root reads files whatever their mode")
    path = make_input(tmp_path)
    command = _kernelscope_command() + ["analyze", "--format", "json", "--registers", "estimate", str(path)]
    completed, cpu_s, peak_rss = _run_measured(command)
    stdout = completed.stdout.decode("utf-8", errors="replace")
    stderr = completed.stderr.decode("utf-8", errors="replace")

    assert completed.returncode != -9, f"no answer after {HANG_LIMIT_S:.0f} s"
    assert "Traceback" not in stdout + stderr, stderr[-2000:]
    assert completed.returncode in (0, 1, 2), f"exit {completed.returncode}: {stderr[-2000:]}"
    assert cpu_s < CPU_LIMIT_S, f"took {cpu_s:.1f} s of CPU time"
    assert peak_rss < PEAK_RSS_LIMIT_BYTES, f"peak memory {peak_rss / 2 ** 20:.0f} MB"
    if completed.returncode == 2:
        assert not result_required, f"expected a result, got: {stderr.strip()}"
        lines = stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].strip(), f"expected one line on stderr, got {lines[:5]}"
        assert "internal error" not in lines[0], lines[0]
        if check is located_error_line:
            check(lines[0])
        return
    assert check is not located_error_line, "expected a located error, got a result"
    document = json.loads(stdout)
    assert document["schema"] == "kernelscope.analysis/1"
    if check is not None:
        check(document)
