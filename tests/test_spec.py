"""Problem specs: parsing, validation messages and binding of size configurations (CPU only)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kernelscope.runner import SpecError, load_spec
from kernelscope.runner.expr import ExpressionError, evaluate, names_in

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "problems" / "vector_add"

MINIMAL = """
name = "scale"
[sizes]
small = { n = 10, m = 3 }
[[inputs]]
name = "x"
dtype = "float32"
shape = ["n", "m"]
[[outputs]]
name = "y"
dtype = "float32"
shape = ["n * m"]
[[scalars]]
name = "count"
dtype = "int32"
value = "n * m"
[launch]
block = ["16", "16"]
grid = ["ceil_div(count, 256)"]
args = ["x", "y", "count"]
[reference]
python = "ref.py:reference"
"""


def write(tmp_path, text, files=("ref.py",)):
    for name in files:
        (tmp_path / name).write_text("def reference(x):\n    return x\n")
    (tmp_path / "spec.toml").write_text(text)
    return tmp_path / "spec.toml"


def test_example_binds_shapes_scalars_and_launch_per_size():
    spec = load_spec(EXAMPLE)
    assert spec.name == "vector_add" and list(spec.sizes) == ["small", "large"]
    launch = spec.concrete_launch("small")
    assert launch.grid == (17, 1, 1) and launch.block == (256, 1, 1)   # 4099 / 256 rounded up
    assert spec.shape(spec.inputs[0], "large") == (4194304,)
    assert spec.variables("small")["n"] == 4099


def test_an_implementation_is_launched_by_the_plan_its_file_carries():
    from kernelscope.runner.plan import implementation_plan

    spec = load_spec(EXAMPLE)
    naive, vectorized = spec.implementations
    assert naive.plan is None and vectorized.plan is not None
    launch = implementation_plan(spec, vectorized).concrete(spec, "small").launches[0]
    assert launch.kernel == "vector_add_float4" and launch.grid == (5, 1, 1)   # ceil(4099 / 1024)
    assert launch.block == (256, 1, 1) and launch.args == ("a", "b", "c", "n")
    default = implementation_plan(spec, naive).concrete(spec, "small").launches[0]
    assert (default.kernel, default.grid) == ("vector_add", spec.concrete_launch("small").grid)


IMPLEMENTATION = MINIMAL + """
[[implementations]]
file = "k.cu"
kernel = "scale"
"""
PLAN = """/* kernelscope:plan
[[launch]]
kernel = "scale"
grid = ["ceil_div(count, 128)"]
block = ["128"]
args = ["x", "y", "count"]
*/
extern "C" __global__ void scale(const float *x, float *y, int count) {}
"""


def test_a_launch_override_in_the_spec_is_an_error_naming_the_plan_format(tmp_path):
    (tmp_path / "k.cu").write_text(PLAN)
    text = IMPLEMENTATION.replace('kernel = "scale"\n', 'kernel = "scale"\nlaunch = { block = ["128"] }\n')
    with pytest.raises(SpecError) as error:
        load_spec(write(tmp_path, text))
    message = str(error.value)
    assert "\n" not in message and "k.cu" in message and "kernelscope:plan" in message and "no longer read" in message


def test_an_implementation_plan_is_checked_when_the_spec_loads(tmp_path):
    (tmp_path / "k.cu").write_text(PLAN.replace('"count"]\n*/', '"count", "nope"]\n*/'))
    with pytest.raises(SpecError, match=r"implementation k.cu: .*unknown arrays or scalars: nope"):
        load_spec(write(tmp_path, IMPLEMENTATION))
    (tmp_path / "k.cu").write_text(PLAN)
    with pytest.raises(SpecError, match="kernel 'other' is not launched by the file's plan"):
        load_spec(write(tmp_path, IMPLEMENTATION.replace('kernel = "scale"', 'kernel = "other"')))
    with pytest.raises(SpecError, match="give 'kernel'"):
        (tmp_path / "k.cu").write_text(PLAN.split("*/\n")[1])
        load_spec(write(tmp_path, IMPLEMENTATION.replace('kernel = "scale"\n', '')))


def test_an_implementation_needs_no_kernel_name_when_its_plan_names_it(tmp_path):
    (tmp_path / "k.cu").write_text(PLAN)
    spec = load_spec(write(tmp_path, IMPLEMENTATION.replace('kernel = "scale"\n', '')))
    implementation = spec.implementations[0]
    assert implementation.kernel is None and implementation.plan.kernels == ("scale",)
    assert implementation.plan.concrete(spec, "small").launches[0].grid == (1, 1, 1)   # ceil(30 / 128)


def test_directory_and_file_paths_both_load(tmp_path):
    path = write(tmp_path, MINIMAL)
    assert load_spec(path).name == load_spec(tmp_path).name == "scale"


def test_two_dimensional_block_and_scalar_from_expression(tmp_path):
    spec = load_spec(write(tmp_path, MINIMAL))
    launch = spec.concrete_launch("small")
    assert launch.block == (16, 16, 1) and launch.grid == (1, 1, 1)
    assert spec.variables("small")["count"] == 30
    assert spec.shape(spec.inputs[0], "small") == (10, 3)


@pytest.mark.parametrize("change, message", [
    (('dtype = "float32"\nshape = ["n", "m"]', 'dtype = "flaot32"\nshape = ["n", "m"]'), "dtype must be one of"),
    (('shape = ["n", "m"]', 'shape = ["n", "k"]'), "unknown name(s) k"),
    (('args = ["x", "y", "count"]', 'args = ["x", "count"]'), "does not pass 'y'"),
    (('args = ["x", "y", "count"]', 'args = ["x", "y", "z"]'), "unknown inputs/outputs/scalars: z"),
    (('python = "ref.py:reference"', 'python = "missing.py:reference"'), "does not exist"),
    (('name = "count"', 'name = "x"'), "names used twice"),
    (('grid = ["ceil_div(count, 256)"]', 'grid = ["__import__(\'os\')"]'), "unsupported syntax"),
    (('block = ["16", "16"]', 'block = ["64", "32"]'), "2048 threads"),
    (('small = { n = 10, m = 3 }', 'small = { n = 10, m = 3 }\nbig = { n = 5 }'), "same variables"),
    (('small = { n = 10, m = 3 }', 'small = { n = 10.5, m = 3 }'), "must be an integer"),
    (('[reference]', '[reference]\nkernel = "ref.py:k"'), "exactly one of python or kernel"),
    (('name = "scale"', 'name = "scale"\nbogus = 1'), "unknown key(s) bogus"),
])
def test_invalid_specs_name_the_problem(tmp_path, change, message):
    old, new = change
    assert old in MINIMAL
    with pytest.raises(SpecError) as error:
        load_spec(write(tmp_path, MINIMAL.replace(old, new)))
    assert message in str(error.value)


def test_distribution_is_validated(tmp_path):
    text = MINIMAL.replace('shape = ["n", "m"]', 'shape = ["n", "m"]\ndistribution = "gamma(1, 2)"')
    with pytest.raises(SpecError, match="distribution must be one of"):
        load_spec(write(tmp_path, text))
    text = MINIMAL.replace('shape = ["n", "m"]', 'shape = ["n", "m"]\ndistribution = "uniform(3, 1)"')
    with pytest.raises(SpecError, match="lo < hi"):
        load_spec(write(tmp_path, text))


def test_integer_inputs_default_to_small_random_integers(tmp_path):
    spec = load_spec(write(tmp_path, MINIMAL.replace('dtype = "float32"\nshape = ["n", "m"]',
                                                     'dtype = "int32"\nshape = ["n", "m"]')))
    assert spec.inputs[0].distribution.kind == "randint"


def test_invalid_toml_is_a_spec_error(tmp_path):
    (tmp_path / "spec.toml").write_text("name = ")
    with pytest.raises(SpecError, match="invalid TOML"):
        load_spec(tmp_path)


def test_unknown_size_is_reported():
    with pytest.raises(SpecError, match="unknown size 'huge'"):
        load_spec(EXAMPLE).variables("huge")


@pytest.mark.parametrize("text, expected", [
    ("ceil_div(10, 4)", 3), ("min(3, n) * 2", 6), ("max(n, 7) // 2", 3), ("2 ** 10", 1024),
    ("-(n - 10)", 5), ("n % 4", 1), (12, 12),
])
def test_expressions_evaluate_arithmetic(text, expected):
    assert evaluate(text, {"n": 5}) == expected


@pytest.mark.parametrize("text", ["n.__class__", "open('x')", "[1, 2]", "lambda: 1", "n if n else 1",
                                  "2 ** 1000", "x", "1 / 0", "min(n, key=1)"])
def test_expressions_reject_anything_but_arithmetic(text):
    with pytest.raises(ExpressionError):
        evaluate(text, {"n": 5})


def test_names_in_ignores_function_names():
    assert names_in("ceil_div(n, block) + max(m, 1)") == {"n", "block", "m"}
