"""Commands run in process (tests, benchmarks, an embedding tool) leave no analysis behind.

`analyze` ends with SystemExit. Its traceback holds the frames it passes through, and click's
CliRunner keeps that traceback in a reference cycle, so anything those frames hold (every
kernel's results) would live on as cyclic garbage until a full collection, which the analysis'
collector settings make rare: 58 MB per run of an 800-kernel file kept piling up.
"""

from __future__ import annotations

import gc

from click.testing import CliRunner

from kernelscope.analyze import FileResult, KernelResult
from kernelscope.cli import cli

SOURCE = "".join(
    f"__global__ void scale{i}(float *x, int n) {{ int i = blockIdx.x * blockDim.x + threadIdx.x;"
    f" if (i < n) x[i] *= {i + 2}.0f; }}\n" for i in range(6))


def _alive(kind) -> int:
    return sum(1 for o in gc.get_objects() if type(o) is kind)


def _results_left_after(args) -> tuple[int, int]:
    """Kernel and file results still tracked after one in-process run, with the collector off so
    that only reference counting frees them (what a run leaves to the next one)."""
    runner = CliRunner()
    gc.collect()
    before = _alive(KernelResult), _alive(FileResult)
    enabled = gc.isenabled()
    gc.disable()
    try:
        result = runner.invoke(cli, args)
        assert result.exit_code in (0, 1), result.output
        del result
        return _alive(KernelResult) - before[0], _alive(FileResult) - before[1]
    finally:
        if enabled:
            gc.enable()
        gc.collect()


def test_analyze_in_process_frees_its_results(tmp_path):
    path = tmp_path / "scale.cu"
    path.write_text(SOURCE)
    # the run does make results (six kernels), and none of them outlive it
    assert _results_left_after(["analyze", "--format", "json", "--registers", "estimate", str(path)]) == (0, 0)


def test_results_are_tracked_objects_so_the_check_can_see_them(tmp_path):
    # the check above would pass vacuously if results were not tracked by the collector
    from kernelscope.analyze import analyze_source

    gc.collect()
    before = _alive(KernelResult)
    kept = analyze_source(SOURCE, str(tmp_path / "scale.cu"), registers="estimate")
    assert _alive(KernelResult) - before == 6
    del kept
