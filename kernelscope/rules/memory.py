"""KS1xx: how kernels touch memory (global coalescing, shared banks, local memory, divergence)."""

from kernelscope.rules._base import Rule


class UncoalescedGlobalAccess(Rule):
    """## What it does
    Finds global-memory loads and stores whose addresses are spread out across the 32 lanes of a
    warp, so that one warp-wide request touches many more 32-byte sectors than the bytes it needs.

    ## Why is this bad?
    The memory system moves whole 32-byte sectors. When consecutive lanes read consecutive 4-byte
    words, a warp's request needs 4 sectors; when the lanes are a row apart, it needs 32, and most
    of every sector fetched is thrown away. Bandwidth-bound kernels slow down by up to the same
    factor. The finding reports the stride and the sectors per request.

    ## Example
    ```cuda
    // One thread per row: neighbouring lanes read addresses `cols` floats apart.
    __global__ void row_sums(const float* m, float* out, int rows, int cols) {
        int row = blockIdx.x * blockDim.x + threadIdx.x;
        if (row >= rows) return;
        float s = 0.0f;
        for (int c = 0; c < cols; ++c) s += m[row * cols + c];
        out[row] = s;
    }
    ```

    ## Use instead
    ```cuda
    // One warp per row: neighbouring lanes read neighbouring floats, then reduce with shuffles.
    __global__ void row_sums(const float* m, float* out, int rows, int cols) {
        int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
        int lane = threadIdx.x % 32;
        if (row >= rows) return;
        float s = 0.0f;
        for (int c = lane; c < cols; c += 32) s += m[row * cols + c];
        for (int off = 16; off > 0; off /= 2) s += __shfl_down_sync(0xffffffffu, s, off);
        if (lane == 0) out[row] = s;
    }
    ```
    For transposes, stage a tile through shared memory so that both the read and the write are
    coalesced.
    """
    code = "KS101"
    name = "uncoalesced-global-access"
    severity = "warning"

    # how many times the sectors a warp needs before an access counts as uncoalesced
    threshold = 2.0

    @classmethod
    def check(cls, facts):
        for access in facts.memory.accesses:
            if access.space == "global" and access.op != "atomic" and access.pattern in ("strided", "coalesced") and \
                    access.sectors_per_request and access.ideal_sectors and \
                    access.sectors_per_request >= cls.threshold * access.ideal_sectors:
                ratio = access.sectors_per_request / access.ideal_sectors
                yield cls.finding(
                    facts.path, access.line, access.column,
                    f"uncoalesced global {access.op} `{access.expr}`: {access.sectors_per_request:.3g} sectors per "
                    f"warp request, ideal {access.ideal_sectors:.3g} ({ratio:.1f}x the memory traffic; "
                    f"stride {access.stride_bytes} bytes between lanes)", facts.kernel.name)


class IndirectGlobalAccess(Rule):
    """## What it does
    Finds global accesses whose index is itself loaded from memory (gathers such as `x[idx[i]]`
    and scatters such as `y[idx[i]] = v`), so that coalescing depends on the data.

    ## Why is this bad?
    Nothing guarantees that neighbouring lanes get neighbouring indices. A random gather costs up
    to 32 sectors per warp request, and a scatter can also make lanes collide on one address. The
    cost cannot be predicted statically, so the finding is informational.

    ## Example
    ```cuda
    __global__ void gather(const float* x, const int* idx, float* y, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) y[i] = x[idx[i]];
    }
    ```

    ## Use instead
    Sort or bucket the indices on the host so that a warp's indices are close together, or
    reorder `x` once so that the access becomes direct:
    ```cuda
    // x_sorted[i] == x[idx[i]], prepared once and reused by every launch.
    __global__ void gather(const float* x_sorted, float* y, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) y[i] = x_sorted[i];
    }
    ```
    When the indices are known to be close (for example a CSR row walked in order), suppress the
    finding with a comment saying why.
    """
    code = "KS102"
    name = "indirect-global-access"
    severity = "info"

    @classmethod
    def check(cls, facts):
        for access in facts.memory.accesses:
            if access.space == "global" and access.pattern == "indirect" and access.sectors_per_request:
                yield cls.finding(
                    facts.path, access.line, access.column,
                    f"data-dependent global {access.op} `{access.expr}`: up to {access.sectors_per_request:.3g} "
                    f"sectors per request when the indices are scattered", facts.kernel.name)


class SharedBankConflict(Rule):
    """## What it does
    Finds shared-memory accesses where several lanes of a warp hit the same one of the 32 banks at
    different addresses. The finding gives the number of ways (2-way, ..., 32-way).

    ## Why is this bad?
    Shared memory serves one address per bank per cycle (banks are 4 bytes wide, successive words
    go to successive banks). An n-way conflict splits the request into n wavefronts that run one
    after the other, so the access takes n times as long. Reading a column of a 32-wide float tile
    is the classic 32-way conflict.

    ## Example
    ```cuda
    __global__ void transpose(const float* in, float* out, int n) {
        __shared__ float tile[32][32];
        int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
        tile[threadIdx.y][threadIdx.x] = in[y * n + x];
        __syncthreads();
        x = blockIdx.y * 32 + threadIdx.x; y = blockIdx.x * 32 + threadIdx.y;
        out[y * n + x] = tile[threadIdx.x][threadIdx.y];   // a column: 32-way conflict
    }
    ```

    ## Use instead
    ```cuda
        __shared__ float tile[32][33];   // one word of padding shifts each row by one bank
    ```
    Padding, or an XOR swizzle of the column index, spreads a column over all 32 banks.
    """
    code = "KS103"
    name = "shared-bank-conflict"
    severity = "warning"

    @classmethod
    def check(cls, facts):
        for access in facts.memory.accesses:
            if access.space == "shared" and access.bank_ways and access.bank_ways >= 2:
                yield cls.finding(
                    facts.path, access.line, access.column,
                    f"{access.bank_ways:.3g}-way shared-memory bank conflict on `{access.expr}` "
                    f"({access.wavefronts_per_request:.3g} wavefronts per request; pad the array or "
                    f"change the index so that lanes hit distinct banks)", facts.kernel.name)


class LocalMemoryArray(Rule):
    """## What it does
    Finds per-thread arrays that the compiler is likely to place in local memory: arrays indexed
    with values unknown at compile time, or too large to keep in registers.

    ## Why is this bad?
    Local memory is private to a thread but lives in device memory; it is cached in L1 and L2, yet
    each access costs far more than a register. A small array indexed by a runtime value cannot be
    kept in registers because registers cannot be addressed indirectly.

    ## Example
    ```cuda
    __global__ void histogram8(const int* keys, int* out, int n) {
        int counts[8] = {0};
        for (int i = threadIdx.x; i < n; i += blockDim.x) counts[keys[i] & 7]++;   // runtime index
        for (int b = 0; b < 8; ++b) atomicAdd(&out[b], counts[b]);
    }
    ```

    ## Use instead
    ```cuda
    __global__ void histogram8(const int* keys, int* out, int n) {
        __shared__ int counts[8];
        if (threadIdx.x < 8) counts[threadIdx.x] = 0;
        __syncthreads();
        for (int i = threadIdx.x; i < n; i += blockDim.x) atomicAdd(&counts[keys[i] & 7], 1);
        __syncthreads();
        if (threadIdx.x < 8) atomicAdd(&out[threadIdx.x], counts[threadIdx.x]);
    }
    ```
    Arrays indexed only by constants, or by loop counters of fully unrolled loops, stay in
    registers and are not reported.
    """
    code = "KS104"
    name = "local-memory-array"
    severity = "info"
    reads_only = ("kernel", "dynamic_local_accesses")

    @classmethod
    def check(cls, facts):
        seen = set()
        for array, line, column, text in facts.kernel.dynamic_local_accesses:
            if array in seen:
                continue
            seen.add(array)
            yield cls.finding(facts.path, line, column,
                              f"local array `{array}` is indexed at run time (`{text}`): it lives in local memory, "
                              "not registers; use shared memory or constant indices", facts.kernel.name)


class DivergentBranchInLoop(Rule):
    """## What it does
    Finds branches inside loops whose condition differs between the lanes of one warp.

    ## Why is this bad?
    A warp runs one instruction stream: when its lanes disagree on a branch, both sides execute one
    after the other with the inactive lanes masked off. Inside a loop that cost is paid on every
    iteration, which can halve the throughput of the loop body or worse.

    ## Example
    ```cuda
    __global__ void update(float* a, int n, int steps) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        for (int s = 0; s < steps; ++s) {
            if (i % 2 == 0) a[i] = a[i] * 0.5f;   // even and odd lanes split every warp
            else            a[i] = a[i] + 1.0f;
        }
    }
    ```

    ## Use instead
    ```cuda
    __global__ void update(float* a, int n, int steps) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        bool even = (i / 32) % 2 == 0;            // decided per warp: no lane disagrees
        for (int s = 0; s < steps; ++s) a[i] = even ? a[i] * 0.5f : a[i] + 1.0f;
    }
    ```
    This changes which elements get which update; where that must stay per element, hoist the
    decision out of the loop or replace the branch by an arithmetic select.
    """
    code = "KS111"
    name = "divergent-branch-in-loop"
    severity = "info"
    reads_only = ("memory", "branches")

    @classmethod
    def check(cls, facts):
        return _divergent_branches(cls, facts, in_loop=True)


class DivergentBranch(Rule):
    """## What it does
    Finds branches outside loops whose condition differs between the lanes of one warp, for
    example a test on `threadIdx.x % 2`.

    ## Why is this bad?
    The two sides of a divergent branch execute one after the other, each with part of the warp
    idle. Outside a loop this is usually cheap, so the finding is informational; it matters when
    the branch bodies are long. Bounds checks that only split the last warp of the grid cost little.

    ## Example
    ```cuda
    __global__ void tag(const float* x, float* y) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (threadIdx.x % 2) y[i] = expensive_a(x[i]);
        else                 y[i] = expensive_b(x[i]);
    }
    ```

    ## Use instead
    ```cuda
    __global__ void tag(const float* x, float* y) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if ((threadIdx.x / 32) % 2) y[i] = expensive_a(x[i]);   // whole warps take one side
        else                        y[i] = expensive_b(x[i]);
    }
    ```
    (when the assignment of work to threads may be changed).
    """
    code = "KS112"
    name = "divergent-branch"
    severity = "info"
    reads_only = ("memory", "branches")

    @classmethod
    def check(cls, facts):
        return _divergent_branches(cls, facts, in_loop=False)


def _divergent_branches(rule, facts, in_loop: bool):
    """KS111 and KS112 differ only in where the branch is (in a loop or not)."""
    for branch in facts.memory.branches:
        if branch.divergent and branch.kind != "return" and branch.in_loop == in_loop:
            where = " inside a loop" if branch.in_loop else ""
            share = f"; {branch.share_true:.0%} of threads take it" if branch.share_true is not None else ""
            yield rule.finding(facts.path, branch.line, branch.column,
                               f"branch splits warps{where}: {branch.divergent_warps:.0%} of warps run both sides{share}",
                               facts.kernel.name)
