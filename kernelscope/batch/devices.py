"""Which GPUs this process may use, counted the way CUDA counts them (after CUDA_VISIBLE_DEVICES)."""

from __future__ import annotations

from kernelscope.errors import ToolMissingError, UsageError
from kernelscope.runner.device import NO_GPU


def visible_gpu_count() -> int:
    """Device count from the driver; it creates no context, so worker processes start clean."""
    try:
        import cupy

        return cupy.cuda.runtime.getDeviceCount()
    except Exception:   # no CuPy, no driver, no device
        return 0


def choose_devices(workers: int | None, available: int | None = None) -> list[int]:
    """One worker per GPU: the first `workers` visible GPUs, all of them by default."""
    available = visible_gpu_count() if available is None else available
    if available == 0:
        raise ToolMissingError(NO_GPU)
    if workers is None:
        return list(range(available))
    if not 1 <= workers <= available:
        raise UsageError(f"--workers {workers}: this machine shows {available} GPU(s) "
                         "(one worker per GPU; CUDA_VISIBLE_DEVICES picks which)")
    return list(range(workers))
