"""The harness's own GPU kernels: input generation, byte comparisons and tolerance counts.

They run on the candidate's stream between its launches, outside the timed interval, and add their
findings to counters in device memory, so that checking every verified and timed launch costs a few
small launches and one synchronisation per size instead of one per check.

- `fill`: inputs drawn from a counter-based generator (splitmix64 of seed and index), so a fresh
  set for every timed repeat costs one launch per input and never repeats a previous set;
- `count_mismatch`: bytes that differ from another buffer or from a byte value (guard regions,
  pristine copies of the inputs, snapshots of device globals);
- `count_bad`: output elements outside the spec's tolerance of the reference's.
"""

from __future__ import annotations

_SOURCE = r"""
typedef unsigned long long u64;

__device__ __forceinline__ u64 splitmix(u64 x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

__device__ __forceinline__ double unit(u64 seed, u64 i) {      // uniform in [0, 1)
    return (double)(splitmix(seed ^ splitmix(i)) >> 11) * (1.0 / 9007199254740992.0);
}

// kind 0: uniform(p0, p1); 1: normal(p0, p1); 2: integers in [p0, p1)
template <typename T>
__global__ void fill(T *out, u64 n, u64 seed, int kind, double p0, double p1) {
    u64 stride = (u64)gridDim.x * blockDim.x;
    for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x; i < n; i += stride) {
        double v;
        if (kind == 0) {
            v = p0 + (p1 - p0) * unit(seed, i);
        } else if (kind == 1) {
            double u1 = unit(seed, 2 * i), u2 = unit(seed, 2 * i + 1);
            v = p0 + p1 * sqrt(-2.0 * log(1.0 - u1)) * cospi(2.0 * u2);
        } else {
            long long lo = (long long)p0, span = (long long)p1 - lo;
            out[i] = (T)(lo + (long long)(splitmix(seed ^ splitmix(i)) % (u64)span));
            continue;
        }
        out[i] = (T)v;
    }
}

// Bytes of a that differ from b (or, when b is null, from `value`), added to *counter.
extern "C" __global__ void count_mismatch(const unsigned char *a, const unsigned char *b, unsigned int value,
                                          u64 n, int vectorised, u64 *counter) {
    u64 tid = blockIdx.x * (u64)blockDim.x + threadIdx.x, stride = (u64)gridDim.x * blockDim.x;
    u64 bad = 0, done = 0;
    if (vectorised) {
        u64 words = n / 16;
        unsigned int w = (value & 0xFFu) * 0x01010101u;
        const uint4 *va = (const uint4 *)a, *vb = (const uint4 *)b;
        for (u64 i = tid; i < words; i += stride) {
            uint4 x = va[i];
            uint4 y = b ? vb[i] : make_uint4(w, w, w, w);
            bad += (x.x != y.x) + (x.y != y.y) + (x.z != y.z) + (x.w != y.w);
        }
        done = words * 16;
    }
    for (u64 i = done + tid; i < n; i += stride)
        bad += a[i] != (b ? b[i] : (unsigned char)value);
    for (int offset = 16; offset > 0; offset >>= 1)
        bad += __shfl_down_sync(0xFFFFFFFFu, bad, offset);
    if ((threadIdx.x & 31) == 0 && bad)
        atomicAdd(counter, bad);
}
"""

_FILL_TYPES = {"float32": "float", "float64": "double", "int8": "signed char", "int16": "short",
               "int32": "int", "int64": "long long", "uint8": "unsigned char", "uint16": "unsigned short",
               "uint32": "unsigned int", "uint64": "unsigned long long"}
_KINDS = {"uniform": 0, "normal": 1, "randint": 2}
_BLOCK = 256
_MAX_BLOCKS = 132 * 16


class DeviceKernels:
    """Compiled once per worker (CuPy caches the binary on disk across workers)."""

    def __init__(self):
        import cupy

        self.cupy = cupy
        names = [f"fill<{t}>" for t in _FILL_TYPES.values()]
        self._module = cupy.RawModule(code=_SOURCE, options=("-std=c++17",), name_expressions=names)
        self._fill = {dtype: self._module.get_function(f"fill<{t}>") for dtype, t in _FILL_TYPES.items()}
        self._count = self._module.get_function("count_mismatch")
        self._bad_float = cupy.ElementwiseKernel(
            "T o, T r, float64 scale, float64 rtol, float64 atol", "uint8 bad",
            "double od = (double)o, rd = (double)r;"
            "bool both_nan = isnan(od) && isnan(rd);"
            "bad = !(both_nan || fabs(od - rd) <= atol * scale + rtol * fabs(rd));",
            "kernelscope_bad_float")

    def fill(self, array, seed: int, distribution, dtype: str) -> None:
        """Draw `array` (contiguous, of spec dtype `dtype`) from the spec's distribution."""
        cupy = self.cupy
        kind, params = distribution.kind, distribution.params
        if dtype.startswith(("int", "uint")) or kind == "randint":
            kind = "randint"
        if dtype == "float16":           # drawn in float32, rounded like numpy's astype
            staging = cupy.empty(array.shape, dtype=cupy.float32)
            self.fill(staging, seed, distribution, "float32")
            array[...] = staging.astype(cupy.float16)
            return
        n = array.size
        if n == 0:
            return
        blocks = min(_MAX_BLOCKS, (n + _BLOCK - 1) // _BLOCK)
        self._fill[dtype]((blocks,), (_BLOCK,),
                          (array, cupy.uint64(n), cupy.uint64(seed & (2**64 - 1)), cupy.int32(_KINDS[kind]),
                           cupy.float64(params[0]), cupy.float64(params[1])))

    def count_mismatch(self, pointer: int, nbytes: int, counter, *, other: int = 0, value: int = 0) -> None:
        """Add to `counter` (a device uint64 slot) the bytes at `pointer` that differ from `other`'s
        (a device address) or, when `other` is 0, from the byte `value`."""
        cupy = self.cupy
        if nbytes <= 0:
            return
        vectorised = int(pointer % 16 == 0 and other % 16 == 0)
        blocks = min(_MAX_BLOCKS, max(1, (nbytes // 16 + _BLOCK - 1) // _BLOCK))
        self._count((blocks,), (_BLOCK,),
                    (cupy.uint64(pointer), cupy.uint64(other), cupy.uint32(value), cupy.uint64(nbytes),
                     cupy.int32(vectorised), counter))

    def count_bad(self, out, ref, *, rtol: float, atol: float):
        """Device scalar: elements of `out` outside the tolerance of `ref` (scaled like verify.py)."""
        cupy = self.cupy
        ref = ref.reshape(out.shape)
        if out.dtype.kind in "iub":
            return cupy.count_nonzero(out != ref.astype(out.dtype))
        magnitude = cupy.abs(ref.astype(cupy.float64))
        scale = cupy.max(cupy.where(cupy.isnan(magnitude), 0.0, magnitude)) if out.size else cupy.float64(1)
        scale = cupy.where(scale > 0, scale, 1.0)
        return cupy.count_nonzero(self._bad_float(out, ref.astype(out.dtype), scale, rtol, atol))
