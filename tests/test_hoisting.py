"""Loop-invariant global loads: the compiler loads them once before the loop, so they weigh by the
enclosing loops only (measured: polynomial/naive.cu and nbody/naive.cu of the corpus, where ncu's
sectors per request equal the prediction only with the load lifted)."""

from kernelscope.analyze import analyze_source


def weights(body: str) -> dict:
    """{access text: exec_weight} of a one-kernel source."""
    source = ('extern "C" __global__ void k(const float* x, const float* c, float* y, int n) {\n'
              "int i = blockIdx.x * blockDim.x + threadIdx.x;\n" + body + "\n}\n")
    result = analyze_source(source, "k.cu", block=(256, 1, 1), grid=(4, 1, 1), bindings={"n": 1024},
                            registers="estimate")
    assert result.kernels, result.errors
    return {a.expr: a.exec_weight for a in result.kernels[0].memory.accesses}


def test_invariant_load_in_a_loop_without_stores_executes_once():
    found = weights("float acc = 0.0f;\nfor (int k = 16; k >= 0; k--) acc = acc * x[i] + c[k];\ny[i] = acc;")
    assert found["x[i]"] == 1          # lifted out of the 17 iterations
    assert found["c[k]"] == 17         # depends on k: every iteration


def test_a_store_in_the_loop_keeps_the_load_inside():
    # y may alias x: the compiler must reload x[i] after every store
    found = weights("for (int k = 0; k < 8; k++) y[i * 8 + k] = x[i] * c[k];")
    assert found["x[i]"] == 8


def test_a_load_under_a_condition_inside_the_loop_is_not_lifted():
    found = weights("float acc = 0.0f;\nfor (int k = 0; k < 8; k++) if (c[k] > 0.0f) acc += x[i];\ny[i] = acc;")
    assert found["x[i]"] == 8


def test_a_barrier_in_the_loop_keeps_the_load_inside():
    found = weights("float acc = 0.0f;\nfor (int k = 0; k < 8; k++) { acc += x[i]; __syncthreads(); }\ny[i] = acc;")
    assert found["x[i]"] == 8


def test_a_load_lifts_through_every_loop_it_does_not_depend_on():
    found = weights("float acc = 0.0f;\nfor (int a = 0; a < 4; a++)\n  for (int b = 0; b < 8; b++) acc += x[i] * c[a];\ny[i] = acc;")
    assert found["x[i]"] == 1 and found["c[a]"] == 4
