"""Device buffers with guard regions, so that writes past either end of an array are seen.

Each array lives in the middle of a larger allocation whose head and tail hold a canary byte. The
interior starts 256-byte aligned (as cudaMalloc memory does), so vectorised loads still work.
"""

from __future__ import annotations

GUARD_BYTES = 64 * 1024


class GuardedArray:
    def __init__(self, shape, dtype, canary: int):
        import cupy

        self.dtype = cupy.dtype(dtype)
        self.shape = tuple(shape)
        self.canary = canary
        size = 1
        for dim in self.shape:
            size *= dim
        self.nbytes = size * self.dtype.itemsize
        self._base = cupy.empty(self.nbytes + 2 * GUARD_BYTES, dtype=cupy.uint8)
        self._base[:GUARD_BYTES] = canary
        self._base[GUARD_BYTES + self.nbytes:] = canary
        self.array = self._base[GUARD_BYTES:GUARD_BYTES + self.nbytes].view(self.dtype).reshape(self.shape)

    def guards_intact(self) -> bool:
        head = self._base[:GUARD_BYTES]
        tail = self._base[GUARD_BYTES + self.nbytes:]
        return bool((head == self.canary).all()) and bool((tail == self.canary).all())

    def fill_bytes(self, value: int) -> None:
        self._base[GUARD_BYTES:GUARD_BYTES + self.nbytes] = value


class ScratchBuffers:
    """The declared scratch buffers of one launch (spec.ConcreteScratch records), guarded like the
    outputs and reset before every launch so that nothing survives from one launch to the next.

    Launch plans with several kernels share one instance and call `reset()` once per plan run."""

    def __init__(self, declared, canary: int):
        self.declared = tuple(declared)
        self.buffers = {s.name: GuardedArray(s.shape, s.dtype, canary) for s in self.declared}
        self._launches = 0

    def arrays(self) -> dict:
        return {name: guarded.array for name, guarded in self.buffers.items()}

    def reset(self) -> None:
        """Zero the `zero` buffers; fill the others with a byte that changes every reset, so a kernel
        that reads scratch before writing it sees different garbage each time."""
        self._launches += 1
        garbage = (0x5D + 97 * self._launches) & 0xFF
        for declared in self.declared:
            self.buffers[declared.name].fill_bytes(0 if declared.zero else garbage)

    def guards_intact(self) -> bool:
        return all(g.guards_intact() for g in self.buffers.values())
