"""`kernelscope run` / `profile` on a machine without a GPU: clear messages, exit status 2 (CPU only)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from kernelscope.cli import cli
from kernelscope.runner import device

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "problems" / "vector_add"


@pytest.fixture
def no_gpu(monkeypatch):
    monkeypatch.setattr(device, "gpu_available", lambda: False)


def invoke(*args):
    return CliRunner().invoke(cli, list(args))


@pytest.mark.parametrize("command", ["run", "profile"])
def test_without_a_gpu_the_command_exits_2_with_a_message(no_gpu, command):
    result = invoke(command, str(EXAMPLE))
    assert result.exit_code == 2
    assert "no CUDA GPU is available" in result.output
    assert "Traceback" not in result.output


def test_a_bad_spec_is_reported_before_looking_for_a_gpu(no_gpu, tmp_path):
    (tmp_path / "spec.toml").write_text('name = "x"\n[sizes]\nsmall = { n = "big" }\n')
    result = invoke("run", str(tmp_path))
    assert result.exit_code == 2 and "must be an integer" in result.output


def test_unknown_size_is_a_usage_error(no_gpu):
    result = invoke("run", str(EXAMPLE), "--size", "gigantic")
    assert result.exit_code == 2 and "unknown size(s) gigantic" in result.output


def test_unreadable_candidate_is_a_usage_error(no_gpu, tmp_path):
    result = invoke("run", str(EXAMPLE), "-c", str(tmp_path / "missing.cu:vector_add"))
    assert result.exit_code == 2 and "cannot read candidate" in result.output


def test_fewer_than_three_trials_is_refused(no_gpu):
    result = invoke("run", str(EXAMPLE), "--trials", "2")
    assert result.exit_code == 2


def test_evaluate_raises_a_tool_error_without_a_gpu(no_gpu):
    from kernelscope.errors import ToolMissingError
    from kernelscope.runner import evaluate, load_spec

    with pytest.raises(ToolMissingError, match="no CUDA GPU"):
        evaluate(load_spec(EXAMPLE), (EXAMPLE / "naive.cu").read_text())
