"""Device memory with unmapped guard pages, through the CUDA driver's virtual memory management.

An output in an ordinary allocation sits next to other allocations, so a stray store a few hundred
KB past its end silently lands in someone else's memory. Here each buffer gets its own reservation
of virtual addresses with physical memory mapped only in the middle: a store that leaves the mapped
pages faults (illegal address), however far it goes within the reservation. The mapped part is
rounded up to the allocation granularity (2 MB on the H200); the harness fills that slack with a
canary and checks it, so nothing between the buffer and the unmapped pages goes unseen either.

Called through ctypes on libcuda (CuPy does not wrap these entry points). `available()` is False
where the driver lacks them; the harness then falls back to canary guards alone.
"""

from __future__ import annotations

import ctypes
from functools import lru_cache

UNMAPPED_BYTES = 1 << 30         # unmapped virtual addresses on each side of every buffer

_PINNED, _LOCATION_DEVICE, _READ_WRITE = 1, 1, 3


class _Location(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("id", ctypes.c_int)]


class _AllocFlags(ctypes.Structure):
    _fields_ = [("compressionType", ctypes.c_ubyte), ("gpuDirectRDMACapable", ctypes.c_ubyte),
                ("usage", ctypes.c_ushort), ("reserved", ctypes.c_ubyte * 4)]


class _Properties(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("requestedHandleTypes", ctypes.c_int), ("location", _Location),
                ("win32HandleMetaData", ctypes.c_void_p), ("allocFlags", _AllocFlags)]


class _Access(ctypes.Structure):
    _fields_ = [("location", _Location), ("flags", ctypes.c_int)]


class VmmError(RuntimeError):
    pass


@lru_cache(maxsize=None)
def _driver():
    return ctypes.CDLL("libcuda.so.1")


def _check(status: int, what: str) -> None:
    if status != 0:
        raise VmmError(f"{what} failed with CUDA error {status}")


def _properties(device: int) -> _Properties:
    props = _Properties()
    props.type = _PINNED
    props.location = _Location(_LOCATION_DEVICE, device)
    return props


@lru_cache(maxsize=None)
def granularity(device: int) -> int:
    value = ctypes.c_size_t()
    _check(_driver().cuMemGetAllocationGranularity(ctypes.byref(value), ctypes.byref(_properties(device)), 0),
           "cuMemGetAllocationGranularity")
    return value.value


@lru_cache(maxsize=None)
def available(device: int = 0) -> bool:
    try:
        return granularity(device) > 0
    except (OSError, AttributeError, VmmError):
        return False


class GuardedMapping:
    """`size` bytes (rounded up to the granularity) of device memory at `ptr`, with UNMAPPED_BYTES of
    reserved, unmapped addresses before and after."""

    def __init__(self, size: int, device: int = 0):
        driver = _driver()
        step = granularity(device)
        self.size = max(step, -(-size // step) * step)
        self._reserved = UNMAPPED_BYTES + self.size + UNMAPPED_BYTES
        self._base = ctypes.c_uint64()
        self._handle = ctypes.c_uint64()
        self._mapped = False
        _check(driver.cuMemAddressReserve(ctypes.byref(self._base), ctypes.c_size_t(self._reserved),
                                          ctypes.c_size_t(step), ctypes.c_uint64(0), ctypes.c_uint64(0)),
               "cuMemAddressReserve")
        self.ptr = self._base.value + UNMAPPED_BYTES
        try:
            _check(driver.cuMemCreate(ctypes.byref(self._handle), ctypes.c_size_t(self.size),
                                      ctypes.byref(_properties(device)), ctypes.c_uint64(0)), "cuMemCreate")
            _check(driver.cuMemMap(ctypes.c_uint64(self.ptr), ctypes.c_size_t(self.size), ctypes.c_size_t(0),
                                   self._handle, ctypes.c_uint64(0)), "cuMemMap")
            self._mapped = True
            access = _Access(_Location(_LOCATION_DEVICE, device), _READ_WRITE)
            _check(driver.cuMemSetAccess(ctypes.c_uint64(self.ptr), ctypes.c_size_t(self.size),
                                         ctypes.byref(access), ctypes.c_size_t(1)), "cuMemSetAccess")
        except Exception:
            self.release()
            raise

    def release(self) -> None:
        driver = _driver()
        if self._mapped:
            driver.cuMemUnmap(ctypes.c_uint64(self.ptr), ctypes.c_size_t(self.size))
            self._mapped = False
        if self._handle.value:
            driver.cuMemRelease(self._handle)
            self._handle = ctypes.c_uint64()
        if self._base.value:
            driver.cuMemAddressFree(ctypes.c_uint64(self._base.value), ctypes.c_size_t(self._reserved))
            self._base = ctypes.c_uint64()

    def __del__(self):
        try:
            self.release()
        except Exception:
            pass
