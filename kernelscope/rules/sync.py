"""KS2xx: synchronization hazards (barriers, shared-memory races, atomics, warp-level primitives)."""

from kernelscope.rules._base import Rule


class DivergentBarrier(Rule):
    """## What it does
    Finds `__syncthreads()` (and its `_count`/`_and`/`_or` forms) under a condition that can differ
    between the threads of one block, so that some threads reach the barrier and others do not.

    ## Why is this bad?
    A block-wide barrier must be reached by every thread of the block. The CUDA programming model
    leaves the behaviour undefined otherwise: the kernel may hang, or the barrier may release early
    and let threads read shared memory that was not written yet. Such bugs often pass small tests.

    ## Example
    ```cuda
    __global__ void scale_first_half(float* a) {
        __shared__ float s[256];
        if (threadIdx.x < 128) {
            s[threadIdx.x] = a[threadIdx.x];
            __syncthreads();                       // only half of the block gets here
            a[threadIdx.x] = 2.0f * s[127 - threadIdx.x];
        }
    }
    ```

    ## Use instead
    ```cuda
    __global__ void scale_first_half(float* a) {
        __shared__ float s[256];
        if (threadIdx.x < 128) s[threadIdx.x] = a[threadIdx.x];
        __syncthreads();                           // every thread of the block
        if (threadIdx.x < 128) a[threadIdx.x] = 2.0f * s[127 - threadIdx.x];
    }
    ```
    """
    code = "KS201"
    reads_only = ("sync", "divergent_barriers")
    name = "divergent-barrier"
    severity = "error"

    @classmethod
    def check(cls, facts):
        for d in _sync(facts).divergent_barriers:
            yield cls.finding(facts.path, d.line, d.column, f"barrier is divergent: {d.reason}", facts.kernel.name)


class SharedMemoryRace(Rule):
    """## What it does
    Finds pairs of shared-memory accesses from different threads to the same location, at least one
    of them a write, with no barrier between them.

    ## Why is this bad?
    Threads of a block run in no fixed order. Without a barrier, a thread may read a value before
    another thread has written it, or after it has been overwritten: the result changes from run to
    run and from GPU to GPU. `compute-sanitizer --tool racecheck` reports the same hazard at run time.

    ## Example
    ```cuda
    __global__ void reverse(float* a) {
        __shared__ float s[256];
        s[threadIdx.x] = a[blockIdx.x * 256 + threadIdx.x];
        a[blockIdx.x * 256 + threadIdx.x] = s[255 - threadIdx.x];   // written by another thread
    }
    ```

    ## Use instead
    ```cuda
    __global__ void reverse(float* a) {
        __shared__ float s[256];
        s[threadIdx.x] = a[blockIdx.x * 256 + threadIdx.x];
        __syncthreads();
        a[blockIdx.x * 256 + threadIdx.x] = s[255 - threadIdx.x];
    }
    ```
    """
    code = "KS202"
    reads_only = ("sync", "shared_races")
    name = "shared-memory-race"
    severity = "error"

    @classmethod
    def check(cls, facts):
        return _races(cls, facts, _sync(facts).shared_races, lambda r: not (r.scope == "warp" and not r.one_store))


class RedundantBarrier(Rule):
    """## What it does
    Finds barriers that order nothing: no shared-memory write before them is read by another
    thread after them (for example two barriers in a row, or a barrier at the end of the kernel).

    ## Why is this bad?
    Every `__syncthreads()` stalls the whole block until its slowest warp arrives. A barrier that
    protects no communication costs that stall and buys nothing.

    ## Example
    ```cuda
    __global__ void copy(const float* in, float* out) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        float v = in[i];
        __syncthreads();          // no shared memory is involved
        out[i] = v;
    }
    ```

    ## Use instead
    ```cuda
    __global__ void copy(const float* in, float* out) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        out[i] = in[i];
    }
    ```
    """
    code = "KS203"
    reads_only = ("sync", "redundant_barriers")
    name = "redundant-barrier"
    severity = "info"

    @classmethod
    def check(cls, facts):
        for s in _sync(facts).redundant_barriers:
            yield cls.finding(facts.path, s.line, s.column, f"{s.name}() orders no shared or global access between "
                              "threads; it can be removed", facts.kernel.name)


class AtomicContention(Rule):
    """## What it does
    Finds atomic operations where many threads update the same address, such as every thread of
    the grid adding into one global counter.

    ## Why is this bad?
    Atomics on one address are serialised in the memory system. With thousands of threads on one
    address the kernel runs at the rate of a single atomic unit instead of the whole GPU.

    ## Example
    ```cuda
    __global__ void sum(const float* x, float* total, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) atomicAdd(total, x[i]);          // every thread hits one address
    }
    ```

    ## Use instead
    ```cuda
    __global__ void sum(const float* x, float* total, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        float v = i < n ? x[i] : 0.0f;
        for (int off = 16; off > 0; off /= 2) v += __shfl_down_sync(0xffffffffu, v, off);
        if (threadIdx.x % 32 == 0) atomicAdd(total, v);   // one atomic per warp
    }
    ```
    A block-level reduction in shared memory cuts it to one atomic per block.
    """
    code = "KS204"
    reads_only = ("sync", "contention")
    name = "atomic-contention"
    severity = "warning"

    @classmethod
    def check(cls, facts):
        for c in _sync(facts).contention:
            where = " inside a loop" if c.in_loop else ""
            yield cls.finding(facts.path, c.line, c.column,
                              f"up to {c.lanes} lanes of a warp update the same address of {c.array} in one atomic"
                              f"{where}; reduce within the warp first (shuffles) and issue one atomic per warp",
                              facts.kernel.name)


class ShuffleMaskMismatch(Rule):
    """## What it does
    Finds warp-level primitives (`__shfl_*_sync`, `__ballot_sync`, `__any_sync`, `__all_sync`,
    `__syncwarp`) whose member mask names lanes that do not all execute the call, for example the
    full mask `0xffffffff` inside a branch that only some lanes take.

    ## Why is this bad?
    Every lane named in the mask must execute the same primitive with the same mask; otherwise the
    behaviour is undefined. On GPUs with independent thread scheduling (Volta and later) this can
    hang the warp or return values from lanes that never supplied them.

    ## Example
    ```cuda
    __global__ void partial(float* a, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) {                                          // the last warp may be partial
            float v = a[i];
            v += __shfl_down_sync(0xffffffffu, v, 1);         // names lanes that left
            a[i] = v;
        }
    }
    ```

    ## Use instead
    ```cuda
    __global__ void partial(float* a, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        unsigned mask = __ballot_sync(0xffffffffu, i < n);    // taken while all lanes are present
        if (i < n) {
            float v = a[i];
            v += __shfl_down_sync(mask, v, 1);
            a[i] = v;
        }
    }
    ```
    """
    code = "KS205"
    reads_only = ("sync", "mask_mismatches")
    name = "shuffle-mask-mismatch"
    severity = "error"

    @classmethod
    def check(cls, facts):
        for m in _sync(facts).mask_mismatches:
            yield cls.finding(facts.path, m.line, m.column, m.message, facts.kernel.name)


class ReturnBeforeBarrier(Rule):
    """## What it does
    Finds `return` statements taken by only some threads of a block (for example a bounds check)
    that come before a `__syncthreads()` the remaining threads still execute.

    ## Why is this bad?
    The threads that returned never arrive at the barrier, which then waits for threads that are
    gone: a divergent barrier in disguise, with undefined behaviour (hangs or early release). It
    often works while the problem size is a multiple of the block size and breaks otherwise.

    ## Example
    ```cuda
    __global__ void smooth(const float* x, float* y, int n) {
        __shared__ float s[256];
        int i = blockIdx.x * 256 + threadIdx.x;
        if (i >= n) return;                        // the tail block loses threads here
        s[threadIdx.x] = x[i];
        __syncthreads();
        y[i] = 0.5f * (s[threadIdx.x] + s[(threadIdx.x + 1) % 256]);
    }
    ```

    ## Use instead
    ```cuda
    __global__ void smooth(const float* x, float* y, int n) {
        __shared__ float s[256];
        int i = blockIdx.x * 256 + threadIdx.x;
        s[threadIdx.x] = i < n ? x[i] : 0.0f;      // guard the work, not the barrier
        __syncthreads();
        if (i < n) y[i] = 0.5f * (s[threadIdx.x] + s[(threadIdx.x + 1) % 256]);
    }
    ```
    """
    code = "KS206"
    reads_only = ("sync", "returns_before_barrier")
    name = "return-before-barrier"
    severity = "error"

    @classmethod
    def check(cls, facts):
        for r in _sync(facts).returns_before_barrier:
            yield cls.finding(facts.path, r.line, r.column, r.message, facts.kernel.name,
                              related=((r.barrier_line, 1, "the barrier"),))


class MissingSyncwarp(Rule):
    """## What it does
    Finds warp-synchronous code: lanes of one warp exchanging data through shared memory with no
    `__syncwarp()` between the write and the read, relying on the warp running in lock-step (the
    classic unrolled last-warp reduction over a `volatile` array).

    ## Why is this bad?
    Since Volta, lanes of a warp are scheduled independently and are not guaranteed to execute in
    lock-step. `volatile` keeps the compiler from caching values but does not order the lanes, so
    a lane may read its neighbour's slot before the neighbour wrote it.

    ## Example
    ```cuda
    __device__ void warp_reduce(volatile float* s, int t) {
        s[t] += s[t + 32];
        s[t] += s[t + 16];        // may read s[t + 16] before that lane updated it
        s[t] += s[t + 8];
    }
    ```

    ## Use instead
    ```cuda
    __device__ float warp_reduce(float v) {
        for (int off = 16; off > 0; off /= 2) v += __shfl_down_sync(0xffffffffu, v, off);
        return v;
    }
    ```
    or keep the shared-memory form and put `__syncwarp()` between the steps (read into a register,
    `__syncwarp()`, write, `__syncwarp()`).
    """
    code = "KS207"
    reads_only = ("sync", "shared_races")
    name = "missing-syncwarp"
    severity = "warning"

    @classmethod
    def check(cls, facts):
        # lanes of one warp only, and not a store every lane makes to one address (KS202 reports that)
        return _races(cls, facts, _sync(facts).shared_races, lambda r: r.scope == "warp" and not r.one_store)


class Threadfence(Rule):
    """## What it does
    Finds calls to `__threadfence()`, `__threadfence_block()` and `__threadfence_system()`.

    ## Why is this bad?
    A fence only orders the calling thread's own memory operations as other threads observe them;
    it does not make any thread wait. It is often written where a barrier was meant, which leaves a
    race in place. Where it is right (publishing a result before raising a flag, as in the
    last-block reduction pattern), it is still worth a second look because the flag protocol
    around it has to be right too.

    ## Example
    ```cuda
    __global__ void publish(float* partial, float* out) {
        __shared__ float s[256];
        s[threadIdx.x] = partial[blockIdx.x * 256 + threadIdx.x];
        __threadfence_block();            // does not wait for the other threads
        out[blockIdx.x * 256 + threadIdx.x] = s[255 - threadIdx.x];
    }
    ```

    ## Use instead
    ```cuda
        s[threadIdx.x] = partial[blockIdx.x * 256 + threadIdx.x];
        __syncthreads();                  // waits, and orders shared memory within the block
    ```
    For grid-wide ordering use a cooperative-groups grid sync, or a fence followed by an atomic
    flag, and suppress the finding with a comment naming the protocol.
    """
    code = "KS208"
    reads_only = ("sync", "fences")
    name = "threadfence"
    severity = "info"

    @classmethod
    def check(cls, facts):
        for s in _sync(facts).fences:
            yield cls.finding(facts.path, s.line, s.column, f"{s.name}() orders this thread's memory writes for other "
                              "threads; it does not synchronize and is only needed when other blocks read these writes",
                              facts.kernel.name)


class GlobalMemoryRace(Rule):
    """## What it does
    Finds pairs of global-memory accesses from different threads to the same element, at least
    one of them a write, that nothing orders: threads of one block with no `__syncthreads()`
    between the two accesses, or threads of different blocks at all (between grid-wide barriers),
    for example a neighbour read of an array the kernel updates in place, or a store to one
    address from every block.

    ## Why is this bad?
    Blocks run in no fixed order and may not even run at the same time, and `__syncthreads()`
    orders threads of one block only. A thread may read its neighbour's element before or after
    the neighbour overwrote it, so the result changes between runs, GPUs and grid sizes.
    compute-sanitizer's racecheck does not look at global memory, so these races pass it.

    ## Example
    ```cuda
    __global__ void smooth(float* y, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i + 1 < n) y[i] = 0.5f * (y[i] + y[i + 1]);   // y[i + 1] is another thread's output
    }
    ```

    ## Use instead
    ```cuda
    __global__ void smooth(const float* x, float* y, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i + 1 < n) y[i] = 0.5f * (x[i] + x[i + 1]);   // read one buffer, write another
    }
    ```
    For one result from every block, use an atomic or a second kernel; for a grid-wide exchange,
    a cooperative launch with `cooperative_groups::this_grid().sync()` between the two phases.
    """
    code = "KS209"
    reads_only = ("sync", "global_races")
    name = "global-memory-race"
    severity = "error"

    @classmethod
    def check(cls, facts):
        return _races(cls, facts, _sync(facts).global_races, lambda r: True)


_NO_SYNC = None


def _sync(facts):
    """The kernel's SyncResult; an empty one when the analysis did not run."""
    global _NO_SYNC
    if facts.sync is not None:
        return facts.sync
    if _NO_SYNC is None:
        from kernelscope.analyses.sync import SyncResult
        _NO_SYNC = SyncResult(barriers=0)
    return _NO_SYNC


def _races(rule, facts, races, reported_here):
    """A racing access is reported once, against its nearest earlier partner."""
    chosen: dict = {}
    for race in races:
        key = (race.array, race.second_line)
        if key not in chosen or race.first_line > chosen[key].first_line:
            chosen[key] = race
    for race in chosen.values():
        if reported_here(race):
            yield rule.finding(facts.path, race.second_line, race.second_column, race.message, facts.kernel.name,
                               related=((race.first_line, race.first_column, "the other access"),))


def findings(result, kernel, path: str) -> list:
    """Every KS2xx finding of one kernel's SyncResult, sorted by position, then code (for callers that
    run the synchronization analysis alone: its tests and benchmarks/race_suite.py)."""
    from types import SimpleNamespace

    facts = SimpleNamespace(sync=result, kernel=kernel, path=path)
    found = [d for rule in _family() for d in rule.check(facts)]
    return sorted(found, key=lambda d: (d.line, d.column, d.rule))


def _family() -> list:
    return sorted((v for v in globals().values() if isinstance(v, type) and issubclass(v, Rule) and v is not Rule),
                  key=lambda rule: rule.code)
