"""Declared scratch buffers: parsed from [[scratch]] and launch tables, bound per size (CPU only)."""

from __future__ import annotations

import pytest

from kernelscope.runner import SpecError, load_spec
from kernelscope.runner.spec import LaunchSpec, ScratchSpec, parse_scratch

SPEC = """
name = "scan"
[sizes]
small = { n = 1000 }
large = { n = 100000 }
[[inputs]]
name = "x"
dtype = "float32"
shape = ["n"]
[[outputs]]
name = "y"
dtype = "float32"
shape = ["n"]
[[scalars]]
name = "n"
dtype = "int32"
value = "n"
[[scratch]]
name = "tile_flags"
dtype = "uint32"
shape = ["ceil_div(n, 256)"]
[launch]
block = ["256"]
grid = ["ceil_div(n, 256)"]
args = ["x", "y", "tile_flags", "n"]
[reference]
python = "ref.py:reference"
"""


def write(tmp_path, text):
    (tmp_path / "ref.py").write_text("def reference(x):\n    return x.cumsum()\n")
    (tmp_path / "spec.toml").write_text(text)
    return tmp_path / "spec.toml"


def test_spec_scratch_binds_its_shape_for_every_size(tmp_path):
    spec = load_spec(write(tmp_path, SPEC))
    assert spec.scratch == (ScratchSpec("tile_flags", "uint32", ("ceil_div(n, 256)",), True),)
    small, large = spec.concrete_launch("small"), spec.concrete_launch("large")
    assert small.scratch[0].shape == (4,) and large.scratch[0].shape == (391,)
    assert large.scratch[0].nbytes == 391 * 4 and large.scratch[0].zero


IMPLEMENTATION = SPEC + """
[[implementations]]
file = "k.cu"
"""


def _plan_file(tmp_path, scratch_name):
    (tmp_path / "k.cu").write_text(f"""/* kernelscope:plan
[[scratch]]
name = "{scratch_name}"
dtype = "int32"
shape = [1]
zero = false

[[launch]]
kernel = "scan"
grid = ["ceil_div(n, 256)"]
block = ["256"]
args = ["x", "y", "tile_flags", "{scratch_name}", "n"]
*/
extern "C" __global__ void scan(const float *x, float *y, unsigned *flags, int *counter, int n) {{}}
""")


def test_an_implementations_plan_can_declare_its_own_scratch_on_top_of_the_specs(tmp_path):
    _plan_file(tmp_path, "counter")
    spec = load_spec(write(tmp_path, IMPLEMENTATION))
    bound = spec.implementations[0].plan.concrete(spec, "small")
    assert [s.name for s in bound.scratch] == ["tile_flags", "counter"]
    assert bound.scratch[1].shape == (1,) and bound.scratch[1].zero is False
    assert [s.name for s in spec.concrete_launch("small").scratch] == ["tile_flags"]


def test_override_built_in_code_merges_scratch_too(tmp_path):
    spec = load_spec(write(tmp_path, SPEC))
    override = LaunchSpec(block=None, grid=None, dynamic_smem=None, args=("x", "y", "tile_flags", "c", "n"),
                          scratch=parse_scratch([{"name": "c", "dtype": "uint64", "shape": ["2"]}], None, "test"))
    assert [(s.name, s.shape) for s in spec.concrete_launch("large", override).scratch] == \
        [("tile_flags", (391,)), ("c", (2,))]


@pytest.mark.parametrize("change, message", [
    (('name = "tile_flags"', 'name = "x"'), "names used twice"),
    (('shape = ["ceil_div(n, 256)"]', 'shape = ["ceil_div(m, 256)"]'), "unknown name(s) m"),
    (('dtype = "uint32"\nshape = ["ceil', 'dtype = "uint33"\nshape = ["ceil'), "dtype must be one of"),
    (('shape = ["ceil_div(n, 256)"]', 'shape = ["ceil_div(n, 256)"]\nzero = "yes"'), "zero must be true or false"),
    (('shape = ["ceil_div(n, 256)"]', 'shape = ["ceil_div(n, 256)"]\nreset = true'), "unknown key(s) reset"),
    (('shape = ["ceil_div(n, 256)"]', 'shape = ["n * n * n"]'), "bytes of scratch"),
    (('args = ["x", "y", "tile_flags", "n"]', 'args = ["x", "y", "flags", "n"]'), "unknown inputs/outputs/scalars: flags"),
])
def test_bad_scratch_declarations_name_the_problem(tmp_path, change, message):
    old, new = change
    assert old in SPEC
    with pytest.raises(SpecError) as error:
        load_spec(write(tmp_path, SPEC.replace(old, new)))
    assert message in str(error.value)


def test_plan_scratch_may_not_shadow_a_spec_name(tmp_path):
    _plan_file(tmp_path, "y")
    with pytest.raises(SpecError, match="'y' is already an input, output, scalar or scratch name"):
        load_spec(write(tmp_path, IMPLEMENTATION))
