"""CPU seconds of a fresh `python -m kernelscope analyze --format json --registers estimate` on a
one-kernel file, per tree, interleaved (15 rounds), medians: start-up of two checkouts compared in one run.

    python benchmarks/startup_compare.py TREE [TREE...]    # run from outside the trees (cwd beats PYTHONPATH)
"""

import os
import resource
import statistics
import subprocess
import sys
import tempfile

KERNEL = "__global__ void k(float* a) { a[threadIdx.x] = 1.0f; }\n"


def main(trees: list[str]) -> int:
    with tempfile.NamedTemporaryFile("w", suffix=".cu", delete=False) as handle:
        handle.write(KERNEL)
    seconds: dict = {tree: [] for tree in trees}
    for _ in range(15):
        for tree in trees:
            env = dict(os.environ, PYTHONPATH=tree, PYTHONHASHSEED="0")
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            subprocess.run([sys.executable, "-m", "kernelscope", "analyze", "--format", "json", "--registers",
                            "estimate", handle.name], env=env, stdout=subprocess.DEVNULL, check=True)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            seconds[tree].append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    os.unlink(handle.name)
    for tree in trees:
        print(f"{statistics.median(seconds[tree]):.4f} CPU s  {tree}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
