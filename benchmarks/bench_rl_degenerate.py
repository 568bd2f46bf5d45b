"""CPU time of the static reward on degenerate completions, against an ordinary one in the same run.

A policy under reward pressure emits degenerate text for the whole length limit: one token repeated,
blank lines, unclosed comments, hundreds of tiny fenced blocks. Each case here is built at two sizes
(44 KB and 1 MB by default) and scored by the whole static reward (extraction, the source policy,
hack checks, analysis; compile gate off so that only our own code is timed), several times. Prints
the median CPU seconds per case and size, the ratio 1 MB / 44 KB (about 23 when the time is linear
in the length, hundreds when it is quadratic), and how many ordinary completions the 1 MB case costs.
The target: every 1 MB case under 1 s.

    python benchmarks/bench_rl_degenerate.py [--sizes 45000 1048576] [--repeats 3]
"""

from __future__ import annotations

import argparse
import statistics
import time

KERNEL = ('extern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n) {\n'
          "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) c[i] = a[i] + b[i];\n}\n")
ORDINARY = f"Here is a coalesced kernel: one thread per element.\n```cuda\n{KERNEL}```\nIt reads a and b once.\n"


def repeat_to(unit: str, size: int) -> str:
    return unit * max(1, size // len(unit))


CASES = {
    "__global__ repeated": lambda size: repeat_to("__global__ ", size),
    "blank lines": lambda size: repeat_to("\n", size),
    "unclosed comments": lambda size: repeat_to("/* ", size),
    "fence then blank lines": lambda size: f"```cuda\n{KERNEL}" + repeat_to("\n", size),
    "fence then __global__": lambda size: f"```cuda\n{KERNEL}" + repeat_to("__global__ ", size),
    "tiny fenced kernels": lambda size: repeat_to("```cuda\n__global__ void k(float* c) { c[0] = 1; }\n```\n", size),
    "__launch_bounds__( repeated": lambda size: "```cuda\n" + repeat_to("__global__ __launch_bounds__(", size),
    "kernel then prose": lambda size: KERNEL + repeat_to("the kernel is fast because ", size),
}


def cpu_seconds(reward, task, text: str, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        reward._cache.clear()
        started = time.process_time()
        reward(text, task)
        times.append(time.process_time() - started)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs=2, default=[45_000, 1_048_576])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()

    from kernelscope.rl.reward import RewardConfig, UnifiedReward
    from kernelscope.rl.tasks import default_corpus_dir, load_task

    task = load_task(default_corpus_dir() / "vector_add")
    reward = UnifiedReward(RewardConfig(mode="static", compile_check="off"))
    reward(ORDINARY, task)  # warm: parser, grammar and the task's work yardsticks
    ordinary = cpu_seconds(reward, task, ORDINARY, max(5, args.repeats))
    small, large = args.sizes
    print(f"ordinary completion ({len(ORDINARY)} chars): {ordinary * 1000:.2f} ms CPU (median)")
    print(f"{'case':30} {small // 1000:>7} KB {large // 1000:>7} KB  ratio  outcome   x ordinary")
    worst = 0.0
    for name, build in CASES.items():
        seconds = [cpu_seconds(reward, task, build(size), args.repeats) for size in (small, large)]
        outcome = reward(build(large), task).outcome
        worst = max(worst, seconds[1])
        print(f"{name:30} {seconds[0]:8.3f} s {seconds[1]:8.3f} s {seconds[1] / max(seconds[0], 1e-6):6.1f}  "
              f"{outcome:9} {seconds[1] / ordinary:8.0f}")
    print(f"worst 1 MB case: {worst:.3f} s CPU (target < 1 s): {'met' if worst < 1.0 else 'NOT met'}")


if __name__ == "__main__":
    main()
