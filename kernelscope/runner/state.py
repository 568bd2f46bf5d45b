"""A candidate's loaded module, with its device globals put back before every launch.

`__device__` and `__managed__` variables outlive a launch, so a kernel could remember an answer
(keyed on its input pointers and a few sampled values, say) and replay it when it is timed. The
harness snapshots every such variable right after loading the module, restores the snapshot before
each launch, and counts the bytes a launch leaves changed: honest kernels that use a global counter
put it back themselves (the last block resets it), anything else must declare scratch memory.
"""

from __future__ import annotations

import ctypes

from kernelscope.runner.cubin import mutable_globals


class ModuleState:
    def __init__(self, cupy, cubin: bytes, kernels):
        self.cupy = cupy
        self._kernels = kernels
        self.module = cupy.cuda.function.Module()
        self.module.load(cubin)
        self.variables = []      # (view: uint8 device array, snapshot: uint8 device array)
        for variable in mutable_globals(cubin):
            address = _global_address(self.module, variable.name)
            if address is None:
                raise ValueError(f"the driver does not give the address of device variable {variable.name!r}, "
                                 "so it cannot be reset between launches")
            pointer, size = address
            view = _device_bytes(cupy, pointer, size, self.module)
            self.variables.append((view, view.copy()))

    def get_function(self, lowered_name: str):
        return self.module.get_function(lowered_name)

    def restore(self) -> None:
        """Put every global back to its value at load time (enqueued on the current stream)."""
        for view, snapshot in self.variables:
            view[...] = snapshot

    def count_changes(self, counter) -> None:
        """Add to `counter` the bytes of globals that differ from their load-time values."""
        for view, snapshot in self.variables:
            self._kernels.count_mismatch(view.data.ptr, view.size, counter, other=snapshot.data.ptr)


def _global_address(module, name: str):
    """(device pointer, bytes) of a module variable, or None where the driver does not know it."""
    pointer, size = ctypes.c_uint64(), ctypes.c_size_t()
    try:
        driver = ctypes.CDLL("libcuda.so.1")
        status = driver.cuModuleGetGlobal_v2(ctypes.byref(pointer), ctypes.byref(size), ctypes.c_void_p(module.ptr),
                                             name.encode())
    except (OSError, AttributeError):
        return None
    return (pointer.value, size.value) if status == 0 and pointer.value else None


def _device_bytes(cupy, pointer: int, size: int, owner):
    memory = cupy.cuda.memory.UnownedMemory(pointer, size, owner, cupy.cuda.Device().id)
    return cupy.ndarray((size,), dtype=cupy.uint8, memptr=cupy.cuda.memory.MemoryPointer(memory, 0))
