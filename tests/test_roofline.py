"""Roofline points and the chart."""

import csv

import pytest
from click.testing import CliRunner

from kernelscope import profiles_db
from kernelscope.analyze import analyze_source
from kernelscope.cli import cli
from kernelscope.roofline import measured_points, static_points

SAXPY = """
__global__ void saxpy(const float* x, float* y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}"""


def test_static_point_sits_on_the_memory_roof_for_a_streaming_kernel():
    h200 = profiles_db.gpu("H200")
    points = static_points([analyze_source(SAXPY, "s.cu", registers="estimate")], h200)
    (point,) = points
    # 2 FLOPs over 12 bytes (two loads, one store of 4 bytes)
    assert point.intensity == pytest.approx(2 / 12)
    assert point.flops_per_second == pytest.approx(2 / 12 * 4800e9)


def test_measured_points_come_from_flops_bytes_and_time(tmp_path):
    path = tmp_path / "m.csv"
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["kernel", "flops_fp32", "flops_fp64", "dram_read_bytes", "dram_write_bytes", "duration_ns"])
        writer.writerow(["a", "1000", "0", "400", "100", "10"])
        writer.writerow(["no_flops", "0", "0", "400", "100", "10"])
    (point,) = measured_points(str(path))
    assert point.label == "a" and point.intensity == 2.0 and point.flops_per_second == pytest.approx(1e11)


def test_roofline_command_writes_an_image(tmp_path):
    pytest.importorskip("matplotlib")
    source = tmp_path / "s.cu"
    source.write_text(SAXPY)
    output = tmp_path / "roof.png"
    result = CliRunner().invoke(cli, ["roofline", str(source), "-o", str(output)])
    assert result.exit_code == 0, result.output
    assert output.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_roofline_without_inputs_is_a_usage_error(tmp_path):
    result = CliRunner().invoke(cli, ["roofline", "-o", str(tmp_path / "x.png")])
    assert result.exit_code == 2
