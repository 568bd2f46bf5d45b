"""The compute floor: a spec's FLOP count against the GPU's peak for its precision (CPU only)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kernelscope.profiles_db import gpu
from kernelscope.runner import SpecError, load_spec
from kernelscope.runner.harness import compute_floor_ms
from kernelscope.runner.results import FAILING_FLAGS

ROOT = Path(__file__).resolve().parents[1]
MATMUL = ROOT / "tests" / "kernels" / "adversarial" / "matmul"


def test_matmul_spec_counts_its_flops_per_size_and_defaults_to_the_tf32_peak():
    spec = load_spec(MATMUL)
    assert spec.flop_count("large") == 2 * 1024 ** 3 and spec.flops_peak == "tf32_tensor"


def test_the_floor_is_the_flops_at_the_named_peak():
    spec = load_spec(MATMUL)
    peaks = {k: v * 1e12 for k, v in gpu("H200").peak_tflops.items() if v}
    floor = compute_floor_ms(spec, "large", peaks)
    assert floor == pytest.approx(2 * 1024 ** 3 / (gpu("H200").peak_tflops["tf32_tensor"] * 1e12) * 1e3)


def test_no_floor_without_flops_or_without_a_profile_for_the_gpu():
    spec = load_spec(MATMUL)
    assert compute_floor_ms(spec, "large", {}) is None
    assert compute_floor_ms(load_spec(MATMUL.parent), "small", {"fp32": 1e12}) is None


@pytest.mark.parametrize("extra, message", [
    ('flops_peak = "fp99"\n', "flops_peak must be one of"),
    ('flops = "2 * m"\n', "unknown name(s) m"),
])
def test_bad_flop_declarations_name_the_problem(tmp_path, extra, message):
    text = (MATMUL / "spec.toml").read_text().replace('flops = "2 * n * n * n"\n', "")
    (tmp_path / "reference.py").write_text((MATMUL / "reference.py").read_text())
    if "flops =" not in extra:
        extra = 'flops = "2 * n * n * n"\n' + extra
    (tmp_path / "spec.toml").write_text(extra + text)
    with pytest.raises(SpecError, match=message.replace("(", r"\(").replace(")", r"\)")):
        load_spec(tmp_path)


def test_the_new_checks_fail_a_candidate():
    assert {"input_mutated", "state_carried", "out_of_bounds_write", "timing_divergence"} <= FAILING_FLAGS
