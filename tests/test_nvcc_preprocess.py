"""`--preprocess nvcc`: nvcc -E output reduced to the file's own lines, mapped back to them."""

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from kernelscope.cli import cli
from kernelscope.frontend.nvcc_preprocess import own_lines

ROOT = Path(__file__).resolve().parents[1]

# the shape of nvcc -E output: header lines, then the file's own lines under line markers
OUTPUT = '''# 0 "/tmp/in.cu"
# 1 "/usr/local/cuda/include/cuda_runtime.h" 1 3
struct header_only { int x; };
# 3 "/tmp/in.cu" 2
__attribute__((global)) void __attribute__((launch_bounds(256, 2))) k(float* a)
{
    __attribute__((shared)) float t[32];
    a[threadIdx.x] = t[threadIdx.x] * 32;
}
'''
ORIGINAL = '#include <cuda_runtime.h>\n#define TILE 32\n__global__ void __launch_bounds__(256, 2) k(float* a)\n{\n' \
           '    __shared__ float t[TILE];\n    a[threadIdx.x] = t[threadIdx.x] * TILE;\n}\n'


def test_header_lines_are_dropped_and_lines_map_back():
    pre = own_lines(OUTPUT, ORIGINAL, "/tmp/in.cu")
    assert "header_only" not in pre.text
    assert pre.text.startswith("__global__ void __launch_bounds__(256, 2) k(")
    assert "__shared__ float t[32];" in pre.text
    assert pre.line_col(pre.text.index("a[threadIdx.x]"))[0] == 6


def test_missing_nvcc_is_a_clear_usage_error(monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")
    monkeypatch.delenv("NVCC", raising=False)
    result = CliRunner().invoke(cli, ["analyze", "--preprocess", "nvcc", "--registers", "estimate",
                                      str(ROOT / "examples" / "saxpy.cu")])
    assert result.exit_code == 2
    assert "needs nvcc" in result.output


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="needs nvcc")
def test_nvcc_and_builtin_preprocessing_agree_on_an_example():
    def run(mode):
        result = CliRunner().invoke(cli, ["analyze", "--format", "json", "--preprocess", mode, "--registers",
                                          "estimate", str(ROOT / "examples" / "transpose.cu")])
        assert result.exit_code in (0, 1), result.output
        kernels = json.loads(result.output)["files"][0]["kernels"]
        return [(k["name"], k["line"], [(a["line"], a["space"], a["op"], a["pattern"], a.get("sectors_per_request"),
                                         a.get("bank_ways")) for a in k["accesses"]]) for k in kernels]
    assert run("nvcc") == run("builtin")
