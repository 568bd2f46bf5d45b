"""A file's kernels share what they read about their parameters (parse._parameter_shapes): each
parameter text's plain reading (_plain_param_shape, a function of the text alone). Shared or not,
every parameter must read the same: on every kernel of every CUDA file of the project, per parameter
and in the whole parsed model, and a table that answered for the wrong text would be caught."""

import pytest

from kernelscope.frontend import parse as front
from test_walker_fast_paths import CUDA_FILES, digests

# Kernels whose parameters repeat with a change that must not be shared: a name, a type, a star,
# qualifiers, an unnamed parameter, a template type bound differently.
SOURCE = """
__global__ void a(float* x, int n, const float* __restrict__ y) { x[n] = y[n]; }
__global__ void b(float* x, int n, const float* __restrict__ y) { x[n] = y[n] * 2.0f; }
__global__ void c(double* x, int n, float* y) { x[n] = y[n]; }
__global__ void d(float x, int* n, const float* y) { n[0] = (int)y[0] + x; }
__global__ void e(float* x, unsigned n, int) { x[n] = 1.0f; }
template <typename T> __global__ void f(T* x, int n) { x[n] = x[n + 1]; }
template <typename T> __global__ void g(T* x, int n) { x[n] = x[n + 2]; }
void host(float* p, double* q) { f<float><<<1, 32>>>(p, 4); g<double><<<1, 32>>>(q, 4); }
"""


@pytest.fixture
def compared(monkeypatch):
    """Each parameter read with the file's table and afresh, both answers kept."""
    pairs = {"shapes": []}
    shape_of = front._param_shape

    def checked_shape(unit, param, known_shapes=None):
        kept = shape_of(unit, param, known_shapes)
        pairs["shapes"].append((kept, shape_of(unit, param)))
        return kept

    monkeypatch.setattr(front, "_param_shape", checked_shape)
    return pairs


def _parse_all(paths):
    for path in paths:
        try:
            front.parse_file(path.read_text(errors="replace"), str(path))
        except front.InputError:
            pass


def test_every_project_parameter_reads_as_afresh(compared):
    _parse_all(CUDA_FILES)
    front.parse_file(SOURCE, "repeats.cu")
    assert len(compared["shapes"]) > 1000
    assert [pair for pair in compared["shapes"] if pair[0] != pair[1]] == []


def test_repeated_parameters_are_shared_within_a_file_only():
    first = front.parse_file(SOURCE, "one.cu")
    second = front.parse_file(SOURCE, "two.cu")
    assert [p.name for p in first.kernels[0].params] == ["x", "n", "y"]
    # (the tables live on the file's unit: a second file starts with its own)
    unit = front.FileUnit(front.preprocess("", None, "sm_90"), "")
    other = front.FileUnit(front.preprocess("", None, "sm_90"), "")
    assert unit.parameter_shapes == {} and front._parameter_shapes(unit) is not front._parameter_shapes(other)
    assert [(p.name, p.type_name, p.elem_bytes) for k in first.kernels for p in k.params] == \
        [(p.name, p.type_name, p.elem_bytes) for k in second.kernels for p in k.params]


def test_template_kernels_size_their_shared_parameters_by_their_own_binding():
    model = front.parse_file(SOURCE, "repeats.cu")
    by_name = {k.name: k for k in model.kernels}
    assert by_name["f"].params[0].elem_bytes == 4 and by_name["g"].params[0].elem_bytes == 8


def _unshared(patched):
    """The general path: no kernel sees another's parameters."""
    patched.setattr(front, "_parameter_shapes", lambda unit: {})


def test_models_are_those_of_unshared_parameters(monkeypatch):
    assert digests(monkeypatch, CUDA_FILES, general_path=_unshared) == []


def test_a_table_keyed_too_loosely_is_caught(monkeypatch, tmp_path):
    """A shape table keyed by the parameter's last word (its name) alone reads kernel c's
    `double* x` as kernel a's `float* x`: the models differ."""
    source = tmp_path / "repeats.cu"
    source.write_text(SOURCE)
    shape_of = front._param_shape

    def by_name_only(unit, param, known_shapes=None):
        if known_shapes is None:
            return shape_of(unit, param)
        name = unit.text[param.start_byte:param.end_byte].split()[-1].lstrip("*")
        if name not in known_shapes:
            known_shapes[name] = shape_of(unit, param)
        return known_shapes[name]

    def broken(patched):
        patched.setattr(front, "_param_shape", by_name_only)

    assert digests(monkeypatch, [source], general_path=_unshared, fast_patch=broken) == ["repeats.cu"]
