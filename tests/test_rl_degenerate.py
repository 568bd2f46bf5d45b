"""Degenerate completions cost time linear in their length: 1 MB of one repeated token scores in well
under a second (benchmarks/bench_rl_degenerate.py prints the figures; the bound here is generous so that
a loaded machine cannot fail it, while the quadratic patterns it guards against took minutes)."""

import time

import pytest

from kernelscope.rl.extract import extract_code
from kernelscope.rl.reward import RewardConfig, UnifiedReward
from kernelscope.rl.tasks import default_corpus_dir, load_task

MEGABYTE = 1 << 20
KERNEL = ('extern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n) {\n'
          "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) c[i] = a[i] + b[i];\n}\n")
CASES = {
    "global": "__global__ ",
    "blank_lines": "\n",
    "unclosed_comments": "/* ",
    "launch_bounds": "__global__ __launch_bounds__(",
    "tiny_fences": "```cuda\n__global__ void k(float* c) { c[0] = 1; }\n```\n",
    "kernel_names": "__global__ void k(",
}
GENEROUS_CPU_S = 5.0


def megabyte_of(unit: str, prefix: str = "") -> str:
    return prefix + unit * (MEGABYTE // len(unit))


@pytest.mark.parametrize("unit", CASES.values(), ids=CASES.keys())
def test_extraction_is_linear_on_a_megabyte_of_one_repeated_token(unit):
    for prefix in ("", f"```cuda\n{KERNEL}"):
        started = time.process_time()
        extract_code(megabyte_of(unit, prefix))
        assert time.process_time() - started < GENEROUS_CPU_S


@pytest.mark.parametrize("unit", CASES.values(), ids=CASES.keys())
def test_the_whole_static_reward_scores_a_megabyte_of_junk_quickly(unit):
    pytest.importorskip("tree_sitter_cuda")
    task = load_task(default_corpus_dir() / "vector_add")
    reward = UnifiedReward(RewardConfig(mode="static", compile_check="off"))
    for prefix in ("", f"```cuda\n{KERNEL}"):
        started = time.process_time()
        result = reward(megabyte_of(unit, prefix), task)
        assert time.process_time() - started < GENEROUS_CPU_S, (result.outcome, result.extraction.problem)


def test_code_longer_than_the_limit_is_no_code_with_the_reason():
    task = load_task(default_corpus_dir() / "vector_add")
    padded = f"```cuda\n{KERNEL}" + "// padding\n" * 10000 + "__device__ int spare;\n```"
    result = UnifiedReward(RewardConfig(mode="static", compile_check="off", max_code_bytes=4096))(padded, task)
    assert result.outcome == "no_code" and "more than the 4096" in result.extraction.problem
