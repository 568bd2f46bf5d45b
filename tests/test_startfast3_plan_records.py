"""The launch plan's classes (kernelscope.runner.spec and .plan, imported by `analyze` for a file
with a `kernelscope:plan` comment) are records with written methods, not dataclasses compiled at
import; a file without a plan imports neither module, and a planned file still gets its plan."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from kernelscope import _record_methods, records
from kernelscope.cli import cli
from kernelscope.runner import plan, spec

from fresh_analyze import modules_of_a_fresh_analyze

ROOT = Path(__file__).resolve().parent.parent
PLAN_CLASSES = [value for module in (spec, plan) for value in vars(module).values()
                if isinstance(value, type) and dataclasses.is_dataclass(value) and value.__module__ == module.__name__]

KERNEL = "__global__ void k(float* a, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) a[i] = 1; }\n"
PLAN = ('/* kernelscope:plan\n[[launch]]\nkernel = "k"\ngrid = ["ceil_div(n, 256)"]\nblock = ["128"]\n'
        'args = ["a", "n"]\n*/\n')


def test_there_are_the_plan_classes():
    names = {cls.__qualname__ for cls in PLAN_CLASSES}
    assert {"ProblemSpec", "LaunchSpec", "ScratchSpec", "LaunchPlan", "LaunchShape", "PlannedLaunch"} <= names


@pytest.mark.parametrize("cls", PLAN_CLASSES, ids=records.qualified_name)
def test_each_plan_class_is_a_record_with_written_methods(cls):
    assert cls in [made for made, *_ in records.REGISTERED]
    for name in ("__init__", "__eq__", "__hash__", "__setattr__", "__delattr__"):
        assert getattr(cls, name).__code__.co_filename == _record_methods.__file__, name
    assert cls.__dataclass_params__.frozen


def test_plan_records_are_frozen_hashable_and_compared_by_value():
    shapes = plan.launch_shapes(KERNEL + PLAN, {"n": 1000})
    assert shapes == plan.launch_shapes(KERNEL + PLAN, {"n": 1000}) != plan.launch_shapes(KERNEL + PLAN, {"n": 99})
    assert (shapes[0].kernel, shapes[0].grid, shapes[0].block) == ("k", (4, 1, 1), (128, 1, 1))  # ceil(1000 / 256)
    with pytest.raises(dataclasses.FrozenInstanceError):
        shapes[0].kernel = "other"
    launch = spec.LaunchSpec(block=(128,), grid=("n",))
    assert launch == spec.LaunchSpec((128,), ("n",), 0, (), ()) and hash(launch) == hash(spec.LaunchSpec((128,), ("n",)))
    assert repr(launch) == "LaunchSpec(block=(128,), grid=('n',), dynamic_smem=0, args=(), scratch=())"


def runner_modules_of_a_fresh_analyze(path: Path) -> list:
    return sorted(name for name in modules_of_a_fresh_analyze(path) if name.startswith("kernelscope.runner"))


def test_a_file_without_a_plan_imports_no_runner_module(tmp_path):
    source = tmp_path / "plain.cu"
    source.write_text(KERNEL)
    assert runner_modules_of_a_fresh_analyze(source) == []


def test_a_planned_file_is_analysed_with_its_plan(tmp_path):
    source = tmp_path / "planned.cu"
    source.write_text(KERNEL + PLAN)
    assert "kernelscope.runner.plan" in runner_modules_of_a_fresh_analyze(source)
    ran = CliRunner().invoke(cli, ["analyze", "--format", "json", "--registers", "estimate", "--arg", "n=1000",
                                   str(source)])
    kernel = json.loads(ran.stdout)["files"][0]["kernels"][0]
    assert (kernel["block"], kernel["block_source"], kernel["grid"]) == ([128, 1, 1], "plan", [4, 1, 1])
    assert kernel["plan"] == {"launch": 1, "other_launches": [], "unresolved": {}}
