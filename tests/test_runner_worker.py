"""Worker start-up mechanics that can be seen without a GPU (CPU only)."""

from __future__ import annotations

from pathlib import Path

import pytest

import kernelscope
from kernelscope.runner import device
from kernelscope.runner.child import child_environment
from kernelscope.runner.worker import Worker, WorkerError, WorkerPool


@pytest.mark.skipif(device.gpu_available(), reason="shows the no-GPU path")
def test_worker_reports_why_it_could_not_start():
    worker = Worker()
    with pytest.raises(WorkerError, match="failed to start"):
        worker.start()
    assert not worker.alive()


def test_child_environment_makes_this_checkout_importable():
    root = str(Path(kernelscope.__file__).resolve().parents[1])
    assert child_environment()["PYTHONPATH"].split(":")[0] == root


def test_pool_needs_a_worker():
    with pytest.raises(ValueError):
        WorkerPool(workers=0)
