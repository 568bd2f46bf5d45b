"""KS3xx: resources and occupancy (registers, shared memory, block limits)."""

from kernelscope.rules._base import Rule


class LowOccupancy(Rule):
    """## What it does
    Finds kernels whose theoretical occupancy, at the block size they are launched with (or the one
    assumed with `--block`), is low, and names what limits it: registers, shared memory, the block
    size, the per-SM block limit or barriers.

    ## Why is this bad?
    A GPU hides memory latency by switching between resident warps. With few warps per SM,
    every stall on memory leaves the SM idle. Low occupancy is not always wrong (register-blocked
    matrix kernels trade occupancy for reuse), but it should be a choice, not an accident.

    ## Example
    ```cuda
    __global__ void blur(const float* in, float* out) {
        __shared__ float tile[12 * 1024];      // 48 KB per block: few blocks fit on an SM
        ...
    }
    // launched as blur<<<grid, 64>>>(...): 2 warps per block
    ```

    ## Use instead
    Use less shared memory per block (smaller tiles, or half precision where it is enough), launch
    more threads per block, or cap registers with `__launch_bounds__(threads, min_blocks)`. Check the
    result with the sweep in `kernelscope analyze`, which shows occupancy for each block size.
    """
    code = "KS301"
    name = "low-occupancy"
    severity = "warning"

    @classmethod
    def check(cls, facts):
        # imported here to keep `import kernelscope.rules` light; this form skips importlib's
        # Python-level _handle_fromlist that `from kernelscope.analyses import occupancy` runs per kernel
        import kernelscope.analyses.occupancy as occupancy

        result = facts.occupancy
        if result is None or result.limiter in _LAUNCH_FAILS or result.theoretical_occupancy >= occupancy.LOW_OCCUPANCY:
            return
        yield cls.finding(facts.path, facts.kernel.line, facts.kernel.column,
                          occupancy.explain_low_occupancy(result), facts.kernel.name)


class RegisterSpill(Rule):
    """## What it does
    Finds kernels whose registers spill to local memory: ptxas reports spill stores or loads, or
    the estimated register demand exceeds what the architecture or the kernel's `__launch_bounds__`
    allows.

    ## Why is this bad?
    Spilled values are stored to and reloaded from local memory, which lives in device memory
    behind the caches. Spills in an inner loop can cost more than the occupancy they were meant to
    buy.

    ## Example
    ```cuda
    // Asks for 1024 threads and 2 blocks per SM: at most 32 registers per thread.
    __global__ void __launch_bounds__(1024, 2) big_tile(const float* a, float* c) {
        float acc[64];                          // 64 accumulators cannot fit in 32 registers
        ...
    }
    ```

    ## Use instead
    ```cuda
    __global__ void __launch_bounds__(256) big_tile(const float* a, float* c) {
        float acc[64];
        ...
    }
    ```
    Or keep fewer values live at once (smaller per-thread tiles, recomputing cheap values).
    """
    code = "KS302"
    name = "register-spill"
    severity = "warning"

    @classmethod
    def check(cls, facts):
        usage = facts.resources
        if facts.occupancy is None or usage is None or not (usage.spill_stores or usage.spill_loads):
            return
        yield cls.finding(facts.path, facts.kernel.line, facts.kernel.column,
                          f"ptxas spills registers to local memory ({usage.spill_stores} bytes stored, "
                          f"{usage.spill_loads} bytes loaded per thread at {usage.registers} registers); "
                          "raise the register limit (__launch_bounds__ min blocks, -maxrregcount) or keep fewer "
                          "values live", facts.kernel.name)


class BlockExceedsLimit(Rule):
    """## What it does
    Finds launches and kernels whose block cannot run at all: more than 1024 threads, more threads
    than the kernel's `__launch_bounds__` maximum, more shared memory than one block may use on the
    architecture, or more registers per block than an SM has.

    ## Why is this bad?
    Such a launch fails (`cudaErrorInvalidConfiguration`, `cudaErrorLaunchOutOfResources` or
    `too many resources requested for launch`) and no thread runs. If the error is not checked,
    the output silently keeps whatever it held before.

    ## Example
    ```cuda
    __global__ void __launch_bounds__(256) step(float* a) { ... }
    step<<<grid, 512>>>(a);                     // more than the 256 the kernel was built for
    ```

    ## Use instead
    ```cuda
    step<<<grid * 2, 256>>>(a);
    ```
    For more than 48 KB of shared memory per block, use dynamic shared memory and opt in with
    `cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes)`.
    """
    code = "KS303"
    name = "block-exceeds-limit"
    severity = "error"

    @classmethod
    def check(cls, facts):
        kernel, result = facts.kernel, facts.occupancy
        if result is not None and result.limiter == "shared_memory_opt_in":
            yield cls.finding(facts.path, kernel.line, kernel.column,
                              f"{result.static_shared_bytes + result.dynamic_shared_bytes} bytes of shared memory per "
                              f"block exceed the default 48 KB and the file launches {kernel.name} without "
                              f"cudaFuncSetAttribute({kernel.name}, cudaFuncAttributeMaxDynamicSharedMemorySize, "
                              "bytes); the launch fails (0 blocks per SM)", kernel.name)
        elif result is not None and result.limiter == "block_size":
            yield cls.finding(facts.path, kernel.line, kernel.column,
                              f"block of {result.block_size} threads exceeds the kernel's limit of "
                              f"{result.max_threads_per_block} threads per block; the launch fails", kernel.name)
        for launch in facts.rejected_launches:
            yield cls.finding(facts.path, launch.line, launch.column,
                              f"launch of {kernel.name} with a block of {launch.threads} threads; "
                              f"the limit is {launch.limit}, so the launch fails", kernel.name)


# occupancy limiters that mean the launch fails: KS303 reports them, not KS301
_LAUNCH_FAILS = ("shared_memory_opt_in", "block_size")
