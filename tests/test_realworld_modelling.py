"""The shapes of real programs' code that the analyzer misread before issue 19 (each found on the
real-world ground truth, tests/kernels/realworld/): macro arguments in parentheses, typedef'd
anonymous structs, array members, loops with two counters, accumulators kept in registers, and
launches over 48 KB of shared memory without the opt-in."""

from __future__ import annotations

from kernelscope.analyze import analyze_source


def analysed(source: str, **options):
    options.setdefault("registers", "estimate")
    options.setdefault("block", (256, 1, 1))
    return analyze_source(source, "t.cu", **options).kernels


def accesses(kernel, op=None):
    return [a for a in kernel.memory.accesses if a.space == "global" and (op is None or a.op == op)]


def test_macro_parameters_in_parentheses_are_not_read_as_casts():
    # Parboil's Index3D: `(nx) * (j)` parses as a cast of *(j) to a type nx unless the parentheses go
    source = """
    #define Index3D(_nx, _ny, _i, _j, _k) ((_i) + (_nx) * ((_j) + (_ny) * (_k)))
    __global__ void k(float* a, float* b, int nx, int ny) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        int j = blockIdx.y;
        int z = blockIdx.z;
        b[Index3D(nx, ny, i, j, z)] = a[Index3D(nx, ny, i, j, z + 1)];
    }
    """
    kernel, = analysed(source, block=(32, 1, 1), grid=(4, 4, 4), bindings={"nx": 128, "ny": 64})
    assert {a.pattern for a in accesses(kernel)} == {"coalesced"}
    assert {a.sectors_per_request for a in accesses(kernel)} == {4}


def test_a_macro_that_calls_a_function_on_its_parameter_keeps_the_call():
    source = """
    #define LOAD(_p, _i) __ldg(&(_p)[(_i)])
    __global__ void k(const float* a, float* b) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        b[i] = LOAD(a, i);
    }
    """
    kernel, = analysed(source)
    assert {a.sectors_per_request for a in accesses(kernel)} == {4}


def test_typedef_of_an_anonymous_struct_has_its_size_and_fields():
    source = """
    typedef struct { unsigned int s0, s1, s2, s3, s4, s5, s6, s7; } Record;
    __global__ void k(Record* const dest, const Record* const src, int n) {
        int tid = blockIdx.x * blockDim.x + threadIdx.x;
        if (tid < n) dest[tid].s0 += src[tid].s0;
    }
    """
    kernel, = analysed(source, bindings={"n": 4096})
    assert [p.elem_bytes for p in kernel.kernel.params[:2]] == [32, 32]
    assert {a.sectors_per_request for a in accesses(kernel)} == {32}


def test_typedef_of_a_tagged_struct_reaches_fields_through_a_local_pointer():
    source = """
    typedef struct latLong { float lat; float lng; } LatLong;
    __global__ void k(LatLong* locations, float* out, int n) {
        int id = blockIdx.x * blockDim.x + threadIdx.x;
        LatLong* here = locations + id;
        if (id < n) out[id] = here->lat - here->lng;
    }
    """
    kernel, = analysed(source, bindings={"n": 4096})
    assert sorted(a.sectors_per_request for a in accesses(kernel, "load")) == [8, 8]


def test_an_array_member_is_indexed_not_loaded():
    source = """
    typedef struct { unsigned int s0[4096]; unsigned int s1[4096]; } Columns;
    __global__ void k(Columns* const dest, const Columns* const src) {
        int tid = blockIdx.x * blockDim.x + threadIdx.x;
        dest->s1[tid] += src->s1[tid];
    }
    """
    kernel, = analysed(source)
    found = accesses(kernel)
    assert len(found) == 3  # src load, dest load, dest store
    assert {a.sectors_per_request for a in found} == {4}
    records = [a for a in kernel.kernel.accesses if a.space == "global"]
    assert all(a.address.evaluate({"threadIdx.x": 0, "blockIdx.x": 0, "blockDim.x": 256}) == 16384 for a in records)


def test_a_loop_with_two_counters_runs_as_often_as_its_first_counter_allows():
    # Parboil mri-q: for (; k < CHUNK && kGlobal < numK; k++, kGlobal++)
    source = """
    __global__ void k(const float4* ck, float* out, int numK, int kGlobal) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        float acc = 0.0f;
        int k = 0;
        for (; (k < 512) && (kGlobal < numK); k++, kGlobal++) acc += ck[k].x;
        out[i] = acc;
    }
    """
    kernel, = analysed(source, bindings={"numK": 4096, "kGlobal": 0})
    load, = accesses(kernel, "load")
    assert load.exec_weight == 512


def test_an_accumulator_stored_in_the_loop_is_loaded_once():
    # PolyBench atax: tmp[i] is kept in a register; A[i * ny + j] and x[j] load on every iteration
    source = """
    __global__ void k(float* A, float* x, float* tmp, int ny) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        for (int j = 0; j < ny; j++) tmp[i] += A[i * ny + j] * x[j];
    }
    """
    kernel, = analysed(source, bindings={"ny": 64})
    weights = {a.expr: a.exec_weight for a in accesses(kernel, "load")}
    assert weights == {"tmp[i]": 1, "A[i * ny + j]": 64, "x[j]": 64}


def test_a_second_store_in_the_loop_keeps_the_accumulator_load_in_it():
    # PolyBench gesummv: y[i] may alias tmp[i], so tmp[i] is reloaded after every store to y
    source = """
    __global__ void k(float* a, float* x, float* y, float* tmp, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        for (int j = 0; j < n; j++) {
            tmp[i] += a[i * n + j] * x[j];
            y[i] += a[i * n + j] * x[j];
        }
    }
    """
    kernel, = analysed(source, bindings={"n": 64})
    assert {a.exec_weight for a in accesses(kernel, "load") if a.expr in ("tmp[i]", "y[i]")} == {64}


OVER_48_KB = """
__global__ void stage(const float* in, float* out) {
    extern __shared__ float rows[];
    rows[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = rows[255 - threadIdx.x];
}
"""


def test_over_48_kb_without_the_opt_in_launches_no_block_and_is_an_error():
    source = OVER_48_KB + "void run(const float* i, float* o) { stage<<<1, 256, 65536>>>(i, o); }\n"
    kernel, = analysed(source)
    assert kernel.occupancy.active_blocks_per_sm == 0
    assert kernel.occupancy.limiter == "shared_memory_opt_in"
    assert "KS303" in {d.rule for d in kernel.diagnostics if d.severity == "error"}


def test_the_opt_in_attribute_lets_the_same_launch_run():
    source = OVER_48_KB + """void run(const float* i, float* o) {
        cudaFuncSetAttribute(stage, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536);
        stage<<<1, 256, 65536>>>(i, o);
    }\n"""
    kernel, = analysed(source)
    assert kernel.occupancy.active_blocks_per_sm == 3
    assert "KS303" not in {d.rule for d in kernel.diagnostics}


def test_without_host_code_in_the_file_the_opt_in_is_assumed():
    kernel, = analysed(OVER_48_KB, dynamic_smem=65536)
    assert kernel.kernel.shared_memory_opt_in is None
    assert kernel.occupancy.active_blocks_per_sm == 3


def test_compound_assignments_to_members_of_vector_and_struct_locals_count_their_flops():
    source = """
    struct Pair { float a, b; };
    __global__ void k(float4* p, Pair* q) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        float4 v = p[i];
        v.x *= 2.f;
        v.z += v.w;
        p[i] = v;
        Pair s = q[i];
        s.a -= 1.f;
        q[i] = s;
    }
    """
    kernel, = analysed(source)
    assert kernel.intensity.flops_per_thread == 3


def test_each_launch_shape_of_a_kernel_gets_its_own_coalescing_and_occupancy():
    # a column walk: with 32 threads in x a warp touches 32 rows, with 8 it touches 8 rows of 4 floats
    source = """
    __global__ void scale(float* m, int width) {
        int x = blockIdx.x * blockDim.x + threadIdx.x;
        int y = blockIdx.y * blockDim.y + threadIdx.y;
        m[x * width + y] *= 2.0f;
    }
    void run(float* m) {
        scale<<<dim3(32, 128), dim3(32, 8)>>>(m, 1024);
        scale<<<dim3(128, 32), dim3(8, 32)>>>(m, 1024);
        scale<<<dim3(128, 32), dim3(8, 32)>>>(m, 1024);
    }
    """
    kernel, = analysed(source, bindings={"width": 1024})
    launches = kernel.launches
    assert [launch.block for launch in launches] == [(32, 8, 1), (8, 32, 1)]   # one entry per shape
    assert [launch.load_sectors_per_request for launch in launches] == [32, 8]
    assert kernel.memory.mean_sectors_per_request("load") == launches[0].load_sectors_per_request
    record = kernel.to_json()["launches"]
    assert [entry["block"] for entry in record] == [[32, 8, 1], [8, 32, 1]]


def test_a_kernel_launched_with_one_shape_lists_no_launches():
    source = """
    __global__ void k(float* a) { a[blockIdx.x * blockDim.x + threadIdx.x] = 0.0f; }
    void run(float* a) { k<<<8, 256>>>(a); k<<<8, 256>>>(a); }
    """
    kernel, = analysed(source)
    assert kernel.launches == []


def test_a_guard_comparing_two_unbound_scalars_does_not_switch_every_thread_off():
    # Rodinia gaussian Fan1 without --arg: one stand-in for Size and t made Size - 1 - t = -1
    source = """
    __global__ void Fan1(float* m, float* a, int Size, int t) {
        if (threadIdx.x + blockIdx.x * blockDim.x >= Size - 1 - t) return;
        m[Size * (blockDim.x * blockIdx.x + threadIdx.x + t + 1) + t] =
            a[Size * (blockDim.x * blockIdx.x + threadIdx.x + t + 1) + t] / a[Size * t + t];
    }
    """
    kernel, = analysed(source, block=(512, 1, 1))
    store, = accesses(kernel, "store")
    assert store.active_lanes == 32 and store.sectors_per_request == 32


def test_addresses_below_the_base_still_count_their_sectors():
    # cuda-samples convolutionSeparable moves the pointer back by a halo before indexing
    source = """
    __global__ void k(float* d, const float* s, int pitch) {
        int x = (blockIdx.x * 8 - 4) * 16 + threadIdx.x;
        s += blockIdx.y * pitch + x;
        d += blockIdx.y * pitch + x;
        d[0] = s[0];
    }
    """
    kernel, = analysed(source, block=(16, 1, 1), grid=(1, 1, 1), bindings={"pitch": 1024})
    assert {a.sectors_per_request for a in accesses(kernel)} == {2}


def test_a_loop_over_an_unbound_size_dominates_the_mean_over_accesses():
    # PolyBench atax without --arg NY: the row walk, not the once-per-thread accumulator, is what ncu sees
    source = """
    __global__ void k(float* A, float* x, float* tmp, int NY) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        float acc = tmp[i];
        for (int j = 0; j < NY; j++) acc += A[i * 4096 + j] * x[j];
        tmp[i] = acc;
    }
    """
    kernel, = analysed(source)
    row, = [a for a in accesses(kernel, "load") if a.expr.startswith("A[")]
    assert isinstance(row.exec_weight, str)        # the count stays unknown in the report
    assert kernel.memory.mean_sectors_per_request("load") > 0.9 * (32 + 1) / 2


def test_shared_memory_handed_out_by_a_helper_struct_is_shared():
    # cuda-samples' SharedMemory<T>: a conversion operator returning the extern __shared__ array
    source = """
    template <class T> struct SharedMemory {
        __device__ inline operator T*() { extern __shared__ int __smem[]; return (T*)__smem; }
    };
    template <class T>
    __global__ void reduce(T* in, T* out) {
        T* sdata = SharedMemory<T>();
        unsigned int tid = threadIdx.x;
        sdata[tid] = in[blockIdx.x * blockDim.x + tid];
        __syncthreads();
        if (tid == 0) out[blockIdx.x] = sdata[0] + sdata[1];
    }
    """
    kernel, = analysed(source, types={"T": "float"})
    shared = [a for a in kernel.memory.accesses if a.space == "shared"]
    assert [(a.op, a.expr) for a in shared] == [("store", "sdata[tid]"), ("load", "sdata[0]"), ("load", "sdata[1]")]
    assert [s.dynamic for s in kernel.kernel.shared_arrays] == [True]
    assert "KS203" not in {d.rule for d in kernel.diagnostics}   # the barrier orders the store and the loads
