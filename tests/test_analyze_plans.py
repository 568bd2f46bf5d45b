"""`kernelscope analyze` on sources that carry a launch plan: each kernel is analysed with the block
and grid of its launch in the plan, with sizes from --arg, and the report says what did not resolve."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from kernelscope.cli import cli

ROOT = Path(__file__).resolve().parents[1]
TWO_PASS = ROOT / "corpus" / "col_sum" / "plans" / "two_pass.cu"   # two kernels, one plan scalar

ONE_LAUNCH = """/* kernelscope:plan
[[launch]]
kernel = "scale"
grid = ["ceil_div(n, 512)"]
block = ["128", "2"]
args = ["x", "y", "n"]
*/
extern "C" __global__ void scale(const float *x, float *y, int n)
{
    int i = (blockIdx.x * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = 2.0f * x[i];
}
"""


def analyze(*args):
    result = CliRunner().invoke(cli, ["analyze", *[str(a) for a in args]])
    assert result.exit_code in (0, 1), result.output
    return result


def kernels(*args) -> dict:
    document = json.loads(analyze("--format", "json", "--registers", "estimate", *args).stdout)
    return {k["name"]: k for k in document["files"][0]["kernels"]}


def test_a_one_launch_plan_gives_the_kernel_its_block_and_grid(tmp_path):
    source = tmp_path / "scale.cu"
    source.write_text(ONE_LAUNCH)
    (kernel,) = kernels(source, "--arg", "n=100000").values()
    assert kernel["block"] == [128, 2, 1] and kernel["block_source"] == "plan"
    assert kernel["grid"] == [-(-100000 // 512), 1, 1]
    assert kernel["plan"] == {"launch": 1, "other_launches": [], "unresolved": {}}
    # the plan is the launch: --block does not replace it (as with a <<<...>>> launch site)
    (kernel,) = kernels(source, "--arg", "n=100000", "--block", "64").values()
    assert kernel["block"] == [128, 2, 1]


def test_each_kernel_of_a_multi_launch_plan_gets_its_own_launch():
    rows, cols = 8192, 4096
    found = kernels(TWO_PASS, "--arg", f"rows={rows}", "--arg", f"cols={cols}")
    strips, finish = found["col_sum_strips"], found["col_sum_finish"]
    chunks = -(-rows // 64)                     # the plan's scalar, from the sizes given
    assert strips["grid"] == [-(-cols // 256), chunks, 1] and strips["plan"]["launch"] == 1
    assert finish["grid"] == [-(-cols // 256), 1, 1] and finish["plan"]["launch"] == 2
    assert strips["block_source"] == finish["block_source"] == "plan"
    text = analyze(TWO_PASS, "--arg", f"rows={rows}", "--arg", f"cols={cols}").stdout
    assert f"launch plan: launch #1, grid {-(-cols // 256)}x{chunks}x1" in text
    assert "launch plan: launch #2" in text and "NOT RESOLVED" not in text


def test_a_plan_whose_expressions_need_sizes_not_given_says_so():
    found = kernels(TWO_PASS, "--arg", "cols=4096")
    strips, finish = found["col_sum_strips"], found["col_sum_finish"]
    # the first grid needs rows (through the plan scalar chunks); the block is a constant
    assert strips["plan"]["unresolved"] == {"grid": ["rows"]} and strips["grid"] is None
    assert strips["block"] == [256, 1, 1] and strips["block_source"] == "plan"
    assert finish["plan"]["unresolved"] == {} and finish["grid"] == [16, 1, 1]
    text = analyze(TWO_PASS, "--arg", "cols=4096").stdout
    assert "launch plan: launch #1; NOT RESOLVED: grid needs rows (pass --arg rows=N)" in text


def test_a_broken_plan_is_reported_with_the_files_errors_and_the_kernels_still_analysed(tmp_path):
    source = tmp_path / "scale.cu"
    source.write_text(ONE_LAUNCH.replace('kernel = "scale"', 'kernel = "scael"'))
    document = json.loads(analyze("--format", "json", "--registers", "estimate", source).stdout)
    (error,) = document["files"][0]["errors"]
    assert error["line"] == 1 and "no __global__ function 'scael'" in error["message"]
    source.write_text(ONE_LAUNCH.replace('block = ["128", "2"]', 'block = []'))
    document = json.loads(analyze("--format", "json", "--registers", "estimate", source).stdout)
    assert "must be a list of 1 to 3 expressions" in document["files"][0]["errors"][0]["message"]
    (kernel,) = document["files"][0]["kernels"]
    assert kernel["block_source"] == "default" and "plan" not in kernel


def test_the_library_call_reads_no_plan_unless_asked():
    """Feature extraction and the reward give block and grid themselves (analyze_source's default)."""
    from kernelscope.analyze import analyze_source

    text = TWO_PASS.read_text()
    assert all(k.plan is None and k.block_source == "default" for k in analyze_source(text, registers="estimate").kernels)
    planned = analyze_source(text, registers="estimate", plan=True, bindings={"rows": 100, "cols": 100})
    assert [k.plan["launch"] for k in planned.kernels] == [1, 2]
