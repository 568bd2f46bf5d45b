"""Is there a GPU to run on? Asked without creating a CUDA context in this process."""

from __future__ import annotations

from functools import lru_cache

from kernelscope.errors import ToolMissingError

NO_GPU = ("no CUDA GPU is available: this command compiles and runs kernels and needs an NVIDIA GPU "
          "with CuPy (pip install 'kernelscope[gpu]')")


@lru_cache(maxsize=None)
def gpu_available() -> bool:
    try:
        import cupy

        return cupy.cuda.runtime.getDeviceCount() > 0
    except Exception:   # no CuPy, no driver, no device: all mean "no"
        return False


def require_gpu() -> None:
    if not gpu_available():
        raise ToolMissingError(NO_GPU)
