"""KS4xx: performance hints (arithmetic intensity, aliasing, read-only data)."""

from kernelscope.rules._base import Rule


class LowArithmeticIntensity(Rule):
    """## What it does
    Finds kernels that do few floating-point operations per byte of global memory they move, below
    the ridge point of the architecture's roofline: their speed is bounded by memory bandwidth.

    ## Why is this bad?
    It is not a defect; it says where the time goes. A memory-bound kernel cannot get faster by
    computing faster, only by moving fewer bytes: fusing it with its neighbours, reusing data from
    shared memory or registers, or using narrower types.

    ## Example
    ```cuda
    __global__ void add(const float* a, const float* b, float* c, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) c[i] = a[i] + b[i];        // 1 FLOP per 12 bytes
    }
    __global__ void scale(const float* c, float* d, float s, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) d[i] = s * c[i];
    }
    ```

    ## Use instead
    ```cuda
    __global__ void add_scale(const float* a, const float* b, float* d, float s, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) d[i] = s * (a[i] + b[i]);  // one pass over memory instead of two
    }
    ```
    """
    code = "KS401"
    name = "low-arithmetic-intensity"
    severity = "info"

    @classmethod
    def check(cls, facts):
        intensity, kernel = facts.intensity, facts.kernel
        if intensity is None or intensity.bound != "memory" or intensity.arithmetic_intensity is None:
            return
        yield cls.finding(facts.path, kernel.line, kernel.column,
                          f"{intensity.arithmetic_intensity:.3g} FLOP per global byte, below the ridge point "
                          f"({intensity.ridge_point:.3g}) of {intensity.gpu}: {kernel.name} is memory-bound; "
                          "speed comes from moving fewer bytes (fusion, reuse, narrower types)", kernel.name)


class MissingRestrict(Rule):
    """## What it does
    Finds kernels that read through one pointer parameter and write through another without
    marking them `__restrict__`.

    ## Why is this bad?
    Without `__restrict__` the compiler must assume that a store through one pointer may change
    what another pointer reads, so it reloads values after every store and cannot move loads early
    or route them through the read-only cache.

    ## Example
    ```cuda
    __global__ void saxpy(float a, const float* x, float* y, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) y[i] = a * x[i] + y[i];
    }
    ```

    ## Use instead
    ```cuda
    __global__ void saxpy(float a, const float* __restrict__ x, float* __restrict__ y, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) y[i] = a * x[i] + y[i];
    }
    ```
    Only when the buffers really never overlap: `__restrict__` on aliasing pointers gives wrong
    results.
    """
    code = "KS402"
    name = "missing-restrict"
    severity = "info"

    @classmethod
    def check(cls, facts):
        # several pointer parameters, some written, none __restrict__ (plain loops, no generator
        # expressions: this runs for every kernel)
        kernel = facts.kernel
        pointers = 0
        for param in kernel.params:
            if param.is_pointer:
                if param.is_restrict:
                    return
                pointers += 1
        if pointers < 2:
            return
        for access in kernel.accesses:
            if access.space == "global" and access.op != "load":
                break
        else:
            return
        yield cls.finding(facts.path, kernel.line, kernel.column,
                          f"pointer parameters of {kernel.name} are not __restrict__; if they never alias, "
                          "mark them so the compiler can cache loads", kernel.name)


class UncachedReadonly(Rule):
    """## What it does
    Finds global data that a kernel only reads, and reads repeatedly (in a loop, or the same
    elements from many threads), through a pointer that is neither `const ... __restrict__` nor
    read with `__ldg`.

    ## Why is this bad?
    Data known to be read-only for the whole kernel can use the read-only (non-coherent) cache
    path, which keeps reused values close to the SM. Without the qualifiers the compiler cannot
    prove the data does not change and uses ordinary loads.

    ## Example
    ```cuda
    __global__ void conv1d(float* x, float* w, float* y, int n, int k) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        float s = 0.0f;
        for (int j = 0; j < k; ++j) s += w[j] * x[i + j];   // w and x reused, never written
        y[i] = s;
    }
    ```

    ## Use instead
    ```cuda
    __global__ void conv1d(const float* __restrict__ x, const float* __restrict__ w,
                           float* __restrict__ y, int n, int k) {
        ...
    }
    ```
    or load with `__ldg(&w[j])`.
    """
    code = "KS403"
    name = "uncached-readonly"
    severity = "info"

    @classmethod
    def check(cls, facts):
        # pointer parameters only read, read inside loops (reused), neither const __restrict__ nor __ldg
        kernel = facts.kernel
        # one pass over the accesses, not one per parameter: each array's first global access inside
        # a loop, and the arrays that some global access writes, updates atomically or reads by __ldg
        first_in_loop: dict = {}
        not_plain_reads = set()
        for access in kernel.accesses:
            if access.space == "global":
                if access.op != "load" or access.cached:
                    not_plain_reads.add(access.array)
                elif access.array not in first_in_loop and access.context.loops:
                    first_in_loop[access.array] = access
        for param in kernel.params:
            if not param.is_pointer or (param.is_const and param.is_restrict) or param.name in not_plain_reads:
                continue
            reused = first_in_loop.get(param.name)
            if reused is not None:
                yield cls.finding(facts.path, reused.line, reused.column,
                                  f"`{param.name}` is only read, and read again in a loop, but is not "
                                  "`const ... __restrict__` (nor loaded with __ldg): it misses the read-only cache",
                                  kernel.name)
