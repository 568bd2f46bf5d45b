"""gpu_pool: the runner's pool interface over every GPU (what the reward service hands the runner)."""

from __future__ import annotations

import pytest

from kernelscope.batch.pool import gpu_pool, install_as_runner_default
from kernelscope.runner.device import gpu_available
from kernelscope.runner import evaluation


def test_a_pool_needs_a_device():
    with pytest.raises(ValueError):
        gpu_pool([])


def test_installed_pool_is_what_evaluate_uses_when_given_none(monkeypatch):
    monkeypatch.setattr(evaluation, "_DEFAULT_POOL", None)
    pool = gpu_pool([0, 1])            # workers start on first use: nothing runs here
    install_as_runner_default(pool)
    assert evaluation.default_pool() is pool
    assert pool.pids == [None, None] and pool.restarts == 0


@pytest.mark.gpu
@pytest.mark.skipif(not gpu_available(), reason="needs an NVIDIA GPU with CuPy")
def test_jobs_go_to_every_gpu_of_the_pool():
    from concurrent.futures import ThreadPoolExecutor
    from pathlib import Path

    from kernelscope.batch.devices import visible_gpu_count
    from kernelscope.runner import load_spec

    spec = load_spec(Path(__file__).resolve().parents[1] / "examples" / "problems" / "vector_add")
    source = (spec.root / "naive.cu").read_text()
    gpus = visible_gpu_count()
    with gpu_pool(range(gpus)) as pool:
        pool.warm_up()
        with ThreadPoolExecutor(gpus) as threads:
            results = list(threads.map(lambda _: evaluation.evaluate(spec, source, "vector_add", pool=pool),
                                       range(2 * gpus)))
        assert all(r.correct for r in results)
        assert len(set(pool.pids)) == gpus and pool.restarts == 0
