"""Device buffers with guard regions, so that writes past either end of an array are seen.

Each array lives in the middle of a larger allocation whose head and tail hold a canary byte. With
the driver's virtual memory management (vmm.py) the allocation is its own mapping with unmapped
pages around it, so a far stray store faults and a near one changes the canary; without it the
guards are canary regions of a few MB in an ordinary allocation. The interior starts 256-byte
aligned (as cudaMalloc memory does), so vectorised loads still work.
"""

from __future__ import annotations

from kernelscope.runner import vmm

GUARD_BYTES = 64 * 1024            # head guard (and the least tail guard) inside a VMM mapping
FALLBACK_GUARD_BYTES = 4 << 20     # each guard without VMM: catches stores up to 4 MB away


class GuardedArray:
    def __init__(self, shape, dtype, canary: int, use_vmm: bool | None = None):
        import cupy

        self.dtype = cupy.dtype(dtype)
        self.shape = tuple(shape)
        self.canary = canary
        size = 1
        for dim in self.shape:
            size *= dim
        self.nbytes = size * self.dtype.itemsize
        device = cupy.cuda.Device().id
        use_vmm = vmm.available(device) if use_vmm is None else use_vmm
        if use_vmm:
            try:
                self._mapping = vmm.GuardedMapping(GUARD_BYTES + self.nbytes + GUARD_BYTES, device)
            except vmm.VmmError:      # the driver refused this one: canary guards alone
                use_vmm = False
        if use_vmm:
            memory = cupy.cuda.memory.UnownedMemory(self._mapping.ptr, self._mapping.size, self._mapping, device)
            self._base = cupy.ndarray((self._mapping.size,), dtype=cupy.uint8,
                                      memptr=cupy.cuda.memory.MemoryPointer(memory, 0))
            self.head = GUARD_BYTES
        else:
            self._mapping = None
            self._base = cupy.empty(self.nbytes + 2 * FALLBACK_GUARD_BYTES, dtype=cupy.uint8)
            self.head = FALLBACK_GUARD_BYTES
        self.guarded_by_vmm = use_vmm
        self.array = self._base[self.head:self.head + self.nbytes].view(self.dtype).reshape(self.shape)
        self.arm()

    @property
    def ptr(self) -> int:
        return self._base.data.ptr

    def guard_regions(self) -> list[tuple[int, int]]:
        """(device address, bytes) of the head and tail guards."""
        end = self.head + self.nbytes
        return [(self.ptr, self.head), (self.ptr + end, self._base.size - end)]

    def arm(self, canary: int | None = None) -> None:
        """(Re)write the canary into both guards."""
        if canary is not None:
            self.canary = canary
        self._base[:self.head] = self.canary
        self._base[self.head + self.nbytes:] = self.canary

    def guards_intact(self) -> bool:
        head = self._base[:self.head]
        tail = self._base[self.head + self.nbytes:]
        return bool((head == self.canary).all()) and bool((tail == self.canary).all())

    def fill_bytes(self, value: int) -> None:
        self._base[self.head:self.head + self.nbytes] = value


class ScratchBuffers:
    """The declared scratch buffers of one launch (spec.ConcreteScratch records, or anything with
    name, dtype, shape and zero), guarded like the outputs and reset before every launch so that
    nothing survives from one launch to the next.

    Launch plans with several kernels share one instance and call `reset()` once per plan run."""

    def __init__(self, declared, canary: int, use_vmm: bool | None = None):
        self.declared = tuple(declared)
        self.buffers = {s.name: GuardedArray(s.shape, s.dtype, canary, use_vmm) for s in self.declared}
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

    def guarded(self) -> list:
        return list(self.buffers.values())
